//! The last pass of compiling (after `derived.rs`'s): the costly parts of guards, standing
//! windows, `keep` conditions and the bot's worth that read no argument of the move are
//! wrapped (`Expr::Memo`), so that a decision reads each once per seat (`memo.rs`). A part
//! written the same in several places is one part.

use std::collections::BTreeMap;

use grail_engine::cond::universe::MAX_TYPES;

use super::memo::KeptParts;
use super::model::{CounterExpr, Expr, Kept, Rising, SeatExpr};
use super::reads::free_of_args;
use super::syntax::Op;
use super::touched::{Touch, read_by, written_by};
use super::worth::Worth;

/// How costly a part must be to be kept: reading it again must save more than the keeping
/// costs (a card's attribute or a count is read in place faster than it is looked up).
const WORTH_KEEPING: u32 = 8;

/// What wrapping reads and fills: the seat expressions zones name (`Who::Seat`, the
/// rulebook's `seat_exprs`), the parts found so far, and whether a part kept is wrapped
/// whole only (a guard's: its inner parts are read once whenever it is) or its inner parts
/// too (a worth's, where the same inner part recurs under many different parts).
pub(super) struct Wrapping<'r> {
    pub seats: &'r [Expr],
    pub parts: Parts,
    pub nested: bool,
    /// How often each part was met since counting began ([`Wrapping::unwrap_met_once`]).
    pub met: Vec<u32>,
}

/// The parts found so far, by what they are (their compiled form, written out), each with
/// its number: a part written the same in several places is one part.
pub(super) type Parts = BTreeMap<String, u32>;

impl Wrapping<'_> {
    /// Wraps the costly parts of `e` that read none of the move's arguments. The chain of
    /// `and`, `or` and `not` at its top stays as it is (the listing's fast paths split a
    /// guard there), as does `e` itself (read once a decision anyway); a conjunct may be
    /// kept whole.
    pub(super) fn wrap(&mut self, e: &mut Expr) {
        match e {
            Expr::Bin(Op::And | Op::Or, l, r) => {
                self.wrap_conjunct(l);
                self.wrap_conjunct(r);
            }
            Expr::Not(x) => self.wrap_conjunct(x),
            _ => self.wrap_below(e),
        }
    }

    /// A conjunct of the chain: wrapped whole if worth it, a further link of the chain
    /// looked through.
    fn wrap_conjunct(&mut self, e: &mut Expr) {
        if matches!(e, Expr::Bin(Op::And | Op::Or, ..) | Expr::Not(_)) {
            self.wrap(e);
        } else {
            self.wrap_if_worth(e);
        }
    }

    /// A worth reckoned in real numbers (`worth.rs`): its real arithmetic stays as it is (a
    /// part kept is a whole number), the whole-number parts below it are wrapped.
    pub(super) fn wrap_real(&mut self, e: &mut Expr) {
        super::worth::each_whole_part(e, &mut |part| self.wrap_if_worth(part));
    }

    /// Wraps `e` if it is worth keeping (nested: its own parts first), else looks inside it.
    fn wrap_if_worth(&mut self, e: &mut Expr) {
        let worth = cost(e) >= WORTH_KEEPING && free_of_args(e, self.seats);
        if !worth || self.nested {
            self.wrap_below(e);
        }
        if worth {
            // Written out once its own parts are wrapped: they show by number, so what a
            // part is stays short however deep it is.
            let n = self.parts.len() as u32;
            let slot = *self.parts.entry(format!("{e:?}")).or_insert(n);
            if self.met.len() <= slot as usize {
                self.met.resize(slot as usize + 1, 0);
            }
            self.met[slot as usize] += 1;
            let inner = std::mem::replace(e, Expr::Const(0));
            *e = Expr::Memo(slot, Kept(Box::new(inner)));
        }
    }

    /// Unwraps in `e` the parts met fewer than twice since `met` was emptied: an expression
    /// worked out once per state (a worth) reads such a part once anyway.
    pub(super) fn unwrap_met_once(&self, e: &mut Expr) {
        e.each_child_mut(&mut |child| self.unwrap_met_once(child));
        if let Expr::Memo(slot, _) = e
            && self.met.get(*slot as usize).is_none_or(|&n| n < 2)
        {
            let Expr::Memo(_, part) = std::mem::replace(e, Expr::Const(0)) else {
                return;
            };
            *e = *part.0;
        }
    }

    /// Wraps each of `e`'s parts worth keeping, and looks inside the others.
    fn wrap_below(&mut self, e: &mut Expr) {
        e.each_child_mut(&mut |child| self.wrap_if_worth(child));
    }

    /// Inside each part kept in `e` that some of the moves tried (whose effects write
    /// `writes`) change, wraps the largest parts worth keeping that one of them leaves as
    /// they were.
    fn wrap_unchanged(&mut self, e: &mut Expr, writes: &[Touch]) {
        if let Expr::Memo(_, part) = e {
            let reads = read_by(&part.0, self.seats);
            if writes.iter().any(|w| reads.meets(w)) {
                self.keep_roles(&mut part.0, writes);
                part.0
                    .each_child_mut(&mut |child| self.wrap_left(child, writes));
            }
            return;
        }
        e.each_child_mut(&mut |child| self.wrap_unchanged(child, writes));
    }

    /// Wraps `e` whole if it is worth keeping and some move tried leaves it as it was,
    /// else looks inside it.
    fn wrap_left(&mut self, e: &mut Expr, writes: &[Touch]) {
        let left = cost(e) >= WORTH_KEEPING
            && free_of_args(e, self.seats)
            && writes.iter().any(|w| !read_by(e, self.seats).meets(w));
        if left {
            self.wrap_if_worth(e);
            return;
        }
        self.keep_roles(e, writes);
        e.each_child_mut(&mut |child| self.wrap_left(child, writes));
    }

    /// A search's card roles, read type by type: kept per type when a move tried leaves
    /// them as they were.
    fn keep_roles(&mut self, e: &mut Expr, writes: &[Touch]) {
        if let Expr::Rising(r) = e
            && writes.iter().any(|w| !role_reads(r, self.seats).meets(w))
        {
            let what = format!("roles {:?} {:?} {:?}", r.lead, r.member, r.value);
            r.roles = Some(match self.parts.get(&what) {
                Some(&first) => first,
                None => {
                    let first = self.parts.len() as u32;
                    for t in 0..MAX_TYPES {
                        let n = self.parts.len() as u32;
                        self.parts.insert(format!("{what} #{t}"), n);
                    }
                    self.parts.insert(what, first);
                    first
                }
            });
        }
    }
}

/// A rough cost of evaluating `e`: a read in place is 1, a walk over a zone's cards or the
/// seats costs more, a search far more.
fn cost(e: &Expr) -> u32 {
    let mut sum = 0u32;
    let mut add = |x: &Expr| sum = sum.saturating_add(cost(x));
    let own: u32 = match e {
        Expr::Const(_) | Expr::Card | Expr::Row | Expr::Target | Expr::Done(_) => return 1,
        Expr::Situational(_) => 6,
        Expr::Sum { .. } | Expr::Last { .. } | Expr::Top { .. } | Expr::TopCard(_) => 3,
        Expr::Best { .. } => 8,
        Expr::Rising(_) | Expr::Cheapest { .. } => 64,
        Expr::Counter(CounterExpr::Others(_) | CounterExpr::Each(_)) => 8,
        // Whoever holds a card: every seat's zones where it may lie are looked through.
        Expr::Counter(CounterExpr::CardHolder(_)) => 8,
        Expr::Seat(SeatExpr::Highest(_) | SeatExpr::Lowest(_)) => 8,
        _ => 1,
    };
    e.each_child(&mut add);
    own.saturating_add(sum)
}

impl super::Rulebook {
    /// The last pass of compiling, after the fast paths' tables (`derived.rs`), which read
    /// the guards unwrapped: wraps the parts worth keeping of the guards, the standing
    /// windows, the `keep` conditions and the bot's worth, and says where there are any
    /// (`kept_parts`: a phase is begun only there). Reads and fills nothing else.
    pub(super) fn wrap_kept_parts(&mut self) {
        let mut w = Wrapping {
            seats: &self.seat_exprs,
            parts: Parts::new(),
            nested: false,
            met: Vec::new(),
        };
        for action in &mut self.actions {
            if let Some(guard) = &mut action.guard {
                w.wrap(&mut guard.expr);
            }
            if let Some((window, _)) = &mut action.standing {
                w.wrap(window);
            }
        }
        for step in &mut self.steps {
            if let Some((keep, _)) = &mut step.keep {
                w.wrap(keep);
                // Inside a part some move tried changes, the parts a move leaves as they
                // were (`trial_parts`): read once for all the moves tried.
                let writes: Vec<Touch> = (step.actions.iter())
                    .map(|&a| written_by(&self.actions[a], &self.zones, &self.counters))
                    .collect();
                w.wrap_unchanged(keep, &writes);
            }
        }
        let listing = !w.parts.is_empty();
        self.trial_parts = self.trial_parts();
        // The worth's parts, inner ones too; then only those it meets twice or more.
        (w.nested, w.met) = (true, Vec::new());
        let worth = match &mut self.worth {
            Some(Worth::Whole(e)) => {
                w.wrap(e);
                Some(e)
            }
            Some(Worth::Real(e)) => {
                w.wrap_real(e);
                Some(e)
            }
            None => None,
        };
        if let Some(e) = worth {
            w.unwrap_met_once(e);
        }
        self.kept_parts = KeptParts {
            listing,
            worth: w.met.iter().any(|&n| n >= 2),
        };
    }
}

impl super::Rulebook {
    /// Per action, a bit per part of its steps' `keep` conditions that its effects leave
    /// as they were (none for an action of no such step).
    fn trial_parts(&self) -> Vec<Vec<u64>> {
        let mut same: Vec<Vec<u64>> = vec![Vec::new(); self.actions.len()];
        for step in &self.steps {
            let Some((keep, _)) = &step.keep else {
                continue;
            };
            let mut parts = Vec::new();
            each_part(keep, &self.seat_exprs, &mut |slot, reads| {
                parts.push((slot, reads))
            });
            for &a in &step.actions {
                let writes = written_by(&self.actions[a], &self.zones, &self.counters);
                for (slot, reads) in &parts {
                    if reads.meets(&writes) {
                        continue;
                    }
                    let (word, bit) = (*slot as usize / 64, slot % 64);
                    if same[a].len() <= word {
                        same[a].resize(word + 1, 0);
                    }
                    same[a][word] |= 1 << bit;
                }
            }
        }
        same
    }
}

/// Calls `f` with each part kept in `e` (inner ones too) and its number, and what it reads.
fn each_part(e: &Expr, seats: &[Expr], f: &mut impl FnMut(u32, Touch)) {
    match e {
        Expr::Memo(slot, part) => f(*slot, read_by(&part.0, seats)),
        Expr::Rising(r) => {
            if let Some(first) = r.roles {
                let reads = role_reads(r, seats);
                (0..MAX_TYPES as u32).for_each(|t| f(first + t, reads.clone()));
            }
        }
        _ => {}
    }
    e.each_child(&mut |x| each_part(x, seats, f));
}

/// What a search's card roles read (`lead`, `member`, `value`).
fn role_reads(r: &Rising, seats: &[Expr]) -> Touch {
    let reads = |e: &Expr| read_by(e, seats);
    reads(&r.lead)
        .with(&reads(&r.member))
        .with(&reads(&r.value))
}

#[cfg(test)]
mod tests {
    use grail_engine::game::Rules;

    use super::super::model::{FigureExpr, Who, ZoneRef};
    use super::super::random_games::{pack_in, play};
    use super::super::{compile, compile_unkept};
    use super::*;

    fn count(who: Who) -> Expr {
        Expr::Count(ZoneRef {
            zone: 0,
            who,
            row: None,
        })
    }

    fn best(body: Expr) -> Expr {
        Expr::Best {
            zone: ZoneRef {
                zone: 0,
                who: Who::Player,
                row: None,
            },
            body: Box::new(body),
        }
    }

    fn bin(op: Op, l: Expr, r: Expr) -> Expr {
        Expr::Bin(op, Box::new(l), Box::new(r))
    }

    #[test]
    fn a_part_is_free_of_the_move_unless_it_reads_its_arguments_unbound() {
        let seats = [Expr::Target, Expr::Seat(SeatExpr::Current)];
        assert!(!free_of_args(&Expr::Card, &seats));
        assert!(!free_of_args(&Expr::Row, &seats));
        // `best` reads its own card, not the move's.
        assert!(free_of_args(&best(Expr::Card), &seats));
        assert!(free_of_args(&count(Who::Player), &seats));
        // A zone of the seat the move names reads the move; of the player to move, not.
        assert!(!free_of_args(&count(Who::Seat(0)), &seats));
        assert!(free_of_args(&count(Who::Seat(1)), &seats));
        assert!(!free_of_args(
            &Expr::Figures(FigureExpr::ParamFigure),
            &seats
        ));
    }

    #[test]
    fn the_costly_parts_free_of_the_move_are_kept_and_the_same_part_is_one() {
        let seats: [Expr; 0] = [];
        // `step and (card > best(…) + best(…))`, then `best(…) + best(…) > 2`.
        let bests = || bin(Op::Add, best(Expr::Card), best(Expr::Card));
        let mut guard = bin(
            Op::And,
            Expr::Counter(CounterExpr::AtStep(1)),
            bin(Op::Gt, Expr::Card, bests()),
        );
        let mut other = bin(Op::Gt, bests(), Expr::Const(2));
        let mut w = Wrapping {
            seats: &seats,
            parts: Parts::new(),
            nested: false,
            met: Vec::new(),
        };
        w.wrap(&mut guard);
        w.wrap(&mut other);
        let Expr::Bin(Op::And, step, compared) = &guard else {
            panic!("the chain of `and` stays: {guard:?}");
        };
        assert!(matches!(**step, Expr::Counter(CounterExpr::AtStep(1))));
        let Expr::Bin(Op::Gt, card, kept) = &**compared else {
            panic!("{compared:?}")
        };
        assert!(
            matches!(**card, Expr::Card),
            "the move's card is read each time"
        );
        assert!(matches!(**kept, Expr::Memo(0, _)), "{kept:?}");
        let Expr::Bin(Op::Gt, again, _) = &other else {
            panic!("the guard itself is not kept: {other:?}")
        };
        assert!(matches!(**again, Expr::Memo(0, _)), "one part: {again:?}");
        assert_eq!(w.parts.len(), 1);
        // Cheap parts are read in place.
        let mut cheap = bin(Op::Gt, count(Who::Current), Expr::Const(0));
        w.wrap(&mut cheap);
        assert!(slots(&cheap).is_empty());
        // Nested (a worth's), the parts inside a part kept are kept too: in `max(best(…) +
        // best(…), 1) - best(…)`, the `max` (3), the sum in it (2), and `best(…)` (1) once
        // for all three.
        (w.nested, w.met) = (true, Vec::new());
        let max = Expr::Counter(CounterExpr::Max(
            Box::new(bests()),
            Box::new(Expr::Const(1)),
        ));
        let mut worth = bin(Op::Sub, max, best(Expr::Card));
        w.wrap_real(&mut worth);
        assert_eq!(slots(&worth), [3, 2, 1, 1, 1]);
        // A worth is worked out once per state: only the parts it meets twice stay kept.
        w.unwrap_met_once(&mut worth);
        assert_eq!(slots(&worth), [1, 1, 1]);
    }

    /// The numbers of the parts kept in `e`, outer ones first.
    fn slots(e: &Expr) -> Vec<u32> {
        let mut out = Vec::new();
        if let Expr::Memo(slot, _) = e {
            out.push(*slot);
        }
        e.each_child(&mut |x| out.extend(slots(x)));
        out
    }

    /// At every decision of random Quests games (the draft in tests/packs), the moves
    /// listed, those `keep` leaves and every seat's worth are the same with parts kept as
    /// with every part read each time.
    #[test]
    fn kept_parts_list_and_judge_as_the_parts_read_each_time() {
        let pack = pack_in("../tests/packs", "quests-rulebook", None);
        let kept = compile(&pack).expect("the draft compiles");
        let each_time = compile_unkept(&pack).expect("the draft compiles");
        assert!(kept.kept_parts.listing && kept.kept_parts.worth);
        assert!(!each_time.kept_parts.listing && !each_time.kept_parts.worth);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut decisions = 0;
        for (players, seed) in [(2, 1), (3, 2), (4, 3), (4, 4)] {
            play(&kept, players, seed, |state, _, _| {
                a.clear();
                b.clear();
                kept.decision_moves(state, &mut a, false);
                each_time.decision_moves(state, &mut b, false);
                assert_eq!(a, b, "{players} players, seed {seed}");
                for seat in 0..players {
                    let (x, y) = (
                        kept.heuristic(state, seat),
                        each_time.heuristic(state, seat),
                    );
                    assert!(x == y || x.is_nan() && y.is_nan(), "{x} against {y}");
                }
                decisions += 1;
            });
        }
        assert!(decisions > 100, "{decisions} decisions");
    }
}
