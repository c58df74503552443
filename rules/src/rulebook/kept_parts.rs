//! The last pass of compiling (after `derived.rs`'s): the costly parts of guards, standing
//! windows, `keep` conditions and the bot's worth that read no argument of the move are
//! wrapped (`Expr::Memo`), so that a decision reads each once per seat (`memo.rs`). A part
//! written the same in several places is one part.

use std::collections::BTreeMap;

use super::model::{CounterExpr, CounterRef, Expr, FigureExpr, SeatExpr};
use super::reads::free_of_args;
use super::syntax::Op;
use super::worth::Worth;

/// How costly a part must be to be kept: reading it again must save more than the keeping
/// costs (a card's attribute or a count is read in place faster than it is looked up).
const WORTH_KEEPING: u32 = 8;

/// Wraps the costly parts of `e` that read none of the move's arguments. The chain of
/// `and`, `or` and `not` at its top stays as it is (the listing's fast paths split a guard
/// there), as does `e` itself (read once a decision anyway); a conjunct may be kept whole.
/// `seat_exprs` are the seat expressions zones name (`Who::Seat`). A part written the same
/// wherever it is (a named expression read by several guards) is one part, read once.
pub(super) fn wrap(e: &mut Expr, seat_exprs: &[Expr], parts: &mut Parts) {
    match e {
        Expr::Bin(Op::And | Op::Or, l, r) => {
            wrap_conjunct(l, seat_exprs, parts);
            wrap_conjunct(r, seat_exprs, parts);
        }
        Expr::Not(x) => wrap_conjunct(x, seat_exprs, parts),
        _ => wrap_below(e, seat_exprs, parts),
    }
}

fn wrap_conjunct(e: &mut Expr, seat_exprs: &[Expr], parts: &mut Parts) {
    if matches!(e, Expr::Bin(Op::And | Op::Or, ..) | Expr::Not(_)) {
        wrap(e, seat_exprs, parts);
    } else {
        wrap_if_worth(e, seat_exprs, parts);
    }
}

/// The parts found so far, by what they are (their compiled form, written out), each with
/// its number.
pub(super) type Parts = BTreeMap<String, u32>;

/// Wraps `e` if it is worth keeping, else looks inside it.
fn wrap_if_worth(e: &mut Expr, seat_exprs: &[Expr], parts: &mut Parts) {
    if cost(e) >= WORTH_KEEPING && free_of_args(e, seat_exprs) {
        let n = parts.len() as u32;
        let slot = *parts.entry(format!("{e:?}")).or_insert(n);
        let inner = std::mem::replace(e, Expr::Const(0));
        *e = Expr::Memo(slot, Box::new(inner));
    } else {
        wrap_below(e, seat_exprs, parts);
    }
}

/// A worth reckoned in real numbers (`worth.rs`): its real arithmetic stays as it is (a part
/// kept is a whole number), the whole-number parts below it are wrapped.
fn wrap_real(e: &mut Expr, seat_exprs: &[Expr], parts: &mut Parts) {
    match e {
        Expr::Bin(Op::Add | Op::Sub | Op::Mul | Op::Div, l, r) => {
            wrap_real(l, seat_exprs, parts);
            wrap_real(r, seat_exprs, parts);
        }
        Expr::If(c, a, b) => {
            wrap_if_worth(c, seat_exprs, parts);
            wrap_real(a, seat_exprs, parts);
            wrap_real(b, seat_exprs, parts);
        }
        Expr::Counter(CounterExpr::Others(x)) => wrap_real(x, seat_exprs, parts),
        _ => wrap_if_worth(e, seat_exprs, parts),
    }
}

/// Wraps each of `e`'s parts worth keeping, and looks inside the others.
fn wrap_below(e: &mut Expr, seat_exprs: &[Expr], parts: &mut Parts) {
    for_each_child(e, &mut |child| wrap_if_worth(child, seat_exprs, parts));
}

/// The expressions directly inside an expression (not those of zone references), for
/// [`for_each_child`] and [`visit`] alike: the match is written once, and binds by `&` or
/// `&mut` as the expression it is given.
macro_rules! children {
    ($e:expr, $f:expr $(, $m:tt)?) => {
        match $e {
            Expr::Attr { card, .. } => $f(card),
            Expr::Situational(s) => $f(&$($m)? s.card),
            Expr::Top { k, .. } => $f(k),
            Expr::Rising(r) => {
                $f(&$($m)? r.n);
                $f(&$($m)? r.above);
                $f(&$($m)? r.lead);
                $f(&$($m)? r.member);
                $f(&$($m)? r.value);
            }
            Expr::If(c, a, b) => {
                $f(c);
                $f(a);
                $f(b);
            }
            Expr::Best { body, .. } => $f(body),
            Expr::Cheapest { card: Some(c), .. } => $f(c),
            Expr::Marked(x) | Expr::Mine(x) | Expr::Not(x) | Expr::Memo(_, x) => $f(x),
            Expr::Bin(_, l, r) => {
                $f(l);
                $f(r);
            }
            Expr::Figures(
                FigureExpr::Empty(x)
                | FigureExpr::Plate(x)
                | FigureExpr::SeatOf(x)
                | FigureExpr::Occupant(x)
                | FigureExpr::Owner(x)
                | FigureExpr::CardAttr { figure: x, .. }
                | FigureExpr::CardOf { figure: x, .. },
            ) => $f(x),
            Expr::Counter(
                CounterExpr::Min(a, b)
                | CounterExpr::Max(a, b)
                | CounterExpr::Div(a, b)
                | CounterExpr::Mod(a, b)
                | CounterExpr::Odds(a, b),
            ) => {
                $f(a);
                $f(b);
            }
            Expr::Counter(
                CounterExpr::Others(x)
                | CounterExpr::Each(x)
                | CounterExpr::Read(CounterRef::Figure(_, x)),
            ) => $f(x),
            Expr::Seat(
                SeatExpr::Left(x) | SeatExpr::Right(x) | SeatExpr::Highest(x) | SeatExpr::Lowest(x),
            ) => $f(x),
            _ => {}
        }
    };
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
        Expr::Seat(SeatExpr::Highest(_) | SeatExpr::Lowest(_)) => 8,
        _ => 1,
    };
    visit(e, &mut add);
    own.saturating_add(sum)
}

/// Calls `f` on each expression directly inside `e`.
fn for_each_child(e: &mut Expr, f: &mut impl FnMut(&mut Expr)) {
    children!(e, f, mut)
}

/// Calls `f` on each expression directly inside `e`, read only.
fn visit(e: &Expr, f: &mut impl FnMut(&Expr)) {
    children!(e, f)
}

impl super::Rulebook {
    /// The last pass of compiling, after the fast paths' tables (`derived.rs`), which read
    /// the guards unwrapped: wraps the parts worth keeping of the guards, the standing
    /// windows, the `keep` conditions and the bot's worth. Reads and fills nothing else.
    pub(super) fn wrap_kept_parts(&mut self) {
        let seats = &self.seat_exprs;
        let mut parts = Parts::new();
        for action in &mut self.actions {
            if let Some(guard) = &mut action.guard {
                wrap(&mut guard.expr, seats, &mut parts);
            }
            if let Some((window, _)) = &mut action.standing {
                wrap(window, seats, &mut parts);
            }
        }
        for step in &mut self.steps {
            if let Some((keep, _)) = &mut step.keep {
                wrap(keep, seats, &mut parts);
            }
        }
        match &mut self.worth {
            Some(Worth::Whole(e)) => wrap(e, seats, &mut parts),
            Some(Worth::Real(e)) => wrap_real(e, seats, &mut parts),
            None => {}
        }
        self.keeps_parts = !parts.is_empty();
    }
}

#[cfg(test)]
mod tests {
    use grail_engine::game::Rules;

    use super::super::model::{Who, ZoneRef};
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
        let mut parts = Parts::new();
        wrap(&mut guard, &seats, &mut parts);
        wrap(&mut other, &seats, &mut parts);
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
        assert_eq!(parts.len(), 1);
        // Cheap parts are read in place.
        let mut cheap = bin(Op::Gt, count(Who::Current), Expr::Const(0));
        wrap(&mut cheap, &seats, &mut parts);
        assert!(!format!("{cheap:?}").contains("Memo"));
    }

    /// At every decision of random Quests games (the draft in tests/packs), the moves
    /// listed, those `keep` leaves and every seat's worth are the same with parts kept as
    /// with every part read each time.
    #[test]
    fn kept_parts_list_and_judge_as_the_parts_read_each_time() {
        let pack = pack_in("../tests/packs", "quests-rulebook", None);
        let kept = compile(&pack).expect("the draft compiles");
        let each_time = compile_unkept(&pack).expect("the draft compiles");
        assert!(kept.keeps_parts && !each_time.keeps_parts);
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
