//! Marks (seals, or any game's tokens of ownership on shared cards): a zone with
//! `marks` lets each seat place that many on its cards. A marked card is stored in its pile
//! as its type plus `(seat + 1) << MARK_SHIFT`, so a row keeps its order and a binding
//! tells a marked copy from an unmarked one without any storage beside the piles. Also
//! steps offered card by card.

use grail_engine::game::EventSink;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::listed::Out;
use super::model::{Expr, MARK_SHIFT, Param, Step, TYPE_MASK, Who};
use super::payment::Dearest;
use super::reads::{Reads, reads};
use super::state::{Action, Event, Seen, State};
use super::syntax::Op;

/// Which part of an action's guard reads its card: a listing asks the part that does not
/// once, and only the rest card by card (`not marked(card) and marks(current) > 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GuardSplit {
    /// No guard, or one asked whole for every card.
    Whole,
    /// The guard reads no card.
    Free,
    /// `free and per-card`.
    FreeLeft,
    /// `per-card and free`.
    FreeRight,
}

impl GuardSplit {
    pub(super) fn of(guard: Option<&Expr>) -> GuardSplit {
        match guard.map(Expr::spine) {
            Some(e) if !reads(e).any(Reads::ARGS) => GuardSplit::Free,
            Some(Expr::Bin(Op::And, l, _)) if !reads(l).any(Reads::ARGS) => GuardSplit::FreeLeft,
            Some(Expr::Bin(Op::And, _, r)) if !reads(r).any(Reads::ARGS) => GuardSplit::FreeRight,
            _ => GuardSplit::Whole,
        }
    }
}

/// The part of an action's guard asked card by card, in the forms a listing answers
/// without evaluating: `marked(card)`, `mine(card)`, either negated, or nothing to ask.
#[derive(Clone, Copy)]
enum CardTest<'e> {
    Any,
    Marked(bool),
    Mine(bool),
    Other(&'e Expr),
}

impl<'e> CardTest<'e> {
    fn of(per_card: Option<&'e Expr>) -> CardTest<'e> {
        let test = |e: &Expr, holds: bool| match e {
            Expr::Marked(c) if matches!(**c, Expr::Card) => Some(CardTest::Marked(holds)),
            Expr::Mine(c) if matches!(**c, Expr::Card) => Some(CardTest::Mine(holds)),
            _ => None,
        };
        match per_card {
            None => CardTest::Any,
            Some(e @ Expr::Not(x)) => test(x, false).unwrap_or(CardTest::Other(e)),
            Some(e) => test(e, true).unwrap_or(CardTest::Other(e)),
        }
    }
}

/// The seat whose mark a pile entry carries.
pub(super) fn marker(entry: u16) -> Option<usize> {
    (entry >> MARK_SHIFT).checked_sub(1).map(usize::from)
}

impl Rulebook {
    /// The card without its mark; the mark goes back to its owner.
    pub(super) fn unmark(&self, state: &mut State, entry: u16) -> u16 {
        if let Some(seat) = marker(entry)
            && let Some(n) = state.marks.get_mut(seat)
        {
            *n = n.saturating_add(1);
        }
        entry & TYPE_MASK
    }

    /// The current player puts a mark on the first copy of `entry` in `pile`.
    pub(super) fn mark(&self, state: &mut State, pile: usize, entry: u16) {
        let seat = usize::from(state.current);
        if state.marks.get(seat).is_none_or(|&n| n == 0) {
            return;
        }
        if let Some(i) = state.piles[pile].iter().position(|&c| c == entry) {
            state.piles[pile][i] = (entry & TYPE_MASK) | ((seat as u16 + 1) << MARK_SHIFT);
            state.marks[seat] -= 1;
            // A marked card is no longer counted among its pile's.
            self.recount_pile(state, pile);
        }
    }

    /// `award marked rows of Z to Z2`: every row whose cards all carry marks, in row order,
    /// card by card to its marker.
    pub(super) fn award(
        &self,
        state: &mut State,
        zone: usize,
        to: usize,
        events: &mut impl EventSink<Event>,
    ) {
        for row in 0..self.zones[zone].rows {
            let pile = self.pile(zone, 0, row);
            let cards = &state.piles[pile];
            if cards.is_empty() || cards.iter().any(|&c| marker(c).is_none()) {
                continue;
            }
            let cards = std::mem::take(&mut state.piles[pile]);
            self.recount_pile(state, pile);
            for &entry in &cards {
                let seat = marker(entry).unwrap_or(0);
                let card = self.unmark(state, entry);
                let dest = self.pile(to, seat, 0) + self.row_for(to, card);
                self.put(state, dest, card);
                events.emit(|| Event::Moved {
                    card,
                    from: pile as u32,
                    to: dest as u32,
                });
            }
            // The row's buffer is kept.
            let mut cards = cards;
            cards.clear();
            state.piles[pile] = cards;
        }
    }

    /// The card a mark is asked of: nearly always the card parameter, read without a
    /// dispatch on the expression's kind.
    #[inline(always)]
    fn card_operand(&self, card: &Expr, ctx: &Ctx) -> u16 {
        if let Expr::Card = card {
            ctx.args.card() as u16
        } else {
            self.operand(card, ctx) as u16
        }
    }

    #[inline(always)]
    pub(super) fn eval_mark(&self, e: &Expr, ctx: &Ctx) -> i64 {
        match e {
            Expr::Marked(card) => i64::from(marker(self.card_operand(card, ctx)).is_some()),
            Expr::Mine(card) => i64::from(
                marker(self.card_operand(card, ctx)) == Some(usize::from(ctx.state.current)),
            ),
            Expr::Marks(who) => {
                let seat = match who {
                    Who::Player => ctx.player,
                    _ => usize::from(ctx.state.current),
                };
                ctx.state.marks.get(seat).map_or(0, |&n| i64::from(n))
            }
            _ => 0,
        }
    }

    /// For a listing of action `a`'s cards: whether the part of its guard that reads no
    /// card holds, and the part left to ask card by card.
    pub(super) fn card_guard(&self, state: &State, a: usize) -> (bool, Option<&Expr>) {
        let Some(guard) = &self.actions[a].guard else {
            return (true, None);
        };
        // As it reads at this step, when its `step(…)` tests change it there.
        let (split, expr) = match self.step_guard(state.step, a) {
            Some(at) => (Some(at.split), &at.expr),
            None => (self.derived.guard_splits.get(a).copied(), &guard.expr),
        };
        // A split reads the chain as written (`Expr::spine`); a whole guard, compiled.
        let (free, per_card) = match (split, expr.spine()) {
            (Some(GuardSplit::Free), _) => (Some(expr), None),
            (Some(GuardSplit::FreeLeft), Expr::Bin(_, l, r)) => (Some(&**l), Some(&**r)),
            (Some(GuardSplit::FreeRight), Expr::Bin(_, l, r)) => (Some(&**r), Some(&**l)),
            _ => (None, Some(expr)),
        };
        let ctx = Ctx::current(state, Args::NONE);
        (free.is_none_or(|e| self.eval(e, &ctx) != 0), per_card)
    }

    /// Whether action `a` may be played with `card` now: the card's part of its guard
    /// (the rest holds, [`Rulebook::card_guard`]) and its payment.
    #[inline(always)]
    pub(super) fn admits(
        &self,
        state: &State,
        a: usize,
        card: i32,
        per_card: Option<&Expr>,
        dearest: &Dearest,
    ) -> bool {
        let ctx = Ctx::current(state, Args::of_entry(card));
        // The guards of actions on marked cards answered in place (no closure, no call to
        // `eval`): one call fewer for each face-up card and action.
        let holds = match per_card {
            None => true,
            Some(Expr::Not(x)) if matches!(**x, Expr::Marked(_) | Expr::Mine(_)) => {
                self.eval_mark(x, &ctx) == 0
            }
            Some(e @ (Expr::Marked(_) | Expr::Mine(_))) => self.eval_mark(e, &ctx) != 0,
            Some(e) => self.eval(e, &ctx) != 0,
        };
        holds && self.payable(state, a, ctx.args, dearest)
    }

    /// For each action of a step offered card by card (up to 8), the first of its actions
    /// paying alike: what a listing works out for that one (the payer's cards counted, the
    /// dearest argument) serves both.
    pub(super) fn shares(&self, step: &Step) -> [usize; 8] {
        std::array::from_fn(|k| {
            step.actions.get(k).map_or(k, |&a| {
                (0..k)
                    .find(|&j| self.same_payment(step.actions[j], a))
                    .unwrap_or(k)
            })
        })
    }

    /// The moves of a step offered card by card: each distinct card (with its mark) of the
    /// actions' zone in zone order, and for each the actions in the step's order.
    #[inline(always)]
    pub(super) fn by_card(&self, state: &State, step: &Step, out: &mut Out, memo_fits: bool) {
        if !self.by_card_tabled(state, step, memo_fits, out) {
            self.by_card_asked(state, step, out, memo_fits);
        }
    }

    /// [`Rulebook::by_card`] of a step without a recipe: every guard asked (out of line, so
    /// that a listing from a recipe does not make room for all it works out).
    #[inline(never)]
    fn by_card_asked(&self, state: &State, step: &Step, out: &mut Out, memo_fits: bool) {
        let Some(zone) = step
            .actions
            .first()
            .and_then(|&a| self.actions[a].param.card_zone())
        else {
            return;
        };
        let dearest: [Dearest; 8] = std::array::from_fn(|_| Dearest::after_refresh(memo_fits));
        let share = self.derived.by_card_shares.get(usize::from(state.step));
        let guards: [(bool, Option<&Expr>); 8] = std::array::from_fn(|k| {
            step.actions
                .get(k)
                .map_or((false, None), |&a| self.card_guard(state, a))
        });
        let ctx = Ctx::current(state, Args::NONE);
        // What each action asks of a card, worked out once per listing: (action, card test,
        // its shared dearest); an action whose card-free guard fails lists nothing.
        let current = usize::from(state.current);
        let plain = step.actions.len() <= 8
            && step
                .actions
                .iter()
                .all(|&a| !matches!(self.actions[a].param, Param::CardFigure { .. }));
        let tries = plain.then(|| {
            let mut tries = [(0, CardTest::Any, 0); 8];
            let mut n = 0;
            for (k, &a) in step.actions.iter().enumerate() {
                let (free, per_card) = guards[k];
                if free {
                    tries[n] = (a, CardTest::of(per_card), share.map_or(k, |s| s[k]).min(7));
                    n += 1;
                }
            }
            (tries, n)
        });
        for p in self.piles_of(zone, &ctx) {
            for c in Seen::distinct(&state.piles[p]) {
                if let Some(tries) = &tries {
                    for &(a, test, d) in &tries.0[..tries.1] {
                        let holds = match test {
                            CardTest::Any => true,
                            CardTest::Marked(holds) => marker(c).is_some() == holds,
                            CardTest::Mine(holds) => (marker(c) == Some(current)) == holds,
                            CardTest::Other(e) => {
                                let args = Args::of_card(c);
                                self.eval(e, &Ctx { args, ..ctx }) != 0
                            }
                        };
                        if holds && self.payable(state, a, Args::of_card(c), &dearest[d]) {
                            out.push(Action::new(a as u16, Args::of_card(c)));
                        }
                    }
                    continue;
                }
                for (k, &a) in step.actions.iter().enumerate() {
                    if let Param::CardFigure { refs, steps, .. } = &self.actions[a].param {
                        let distances = self.card_distances(state, a, i32::from(c), steps);
                        if !distances.any() {
                            continue;
                        }
                        self.figure_bindings(state, refs, steps, |fa| {
                            let args = fa.with_card(c);
                            if (steps.is_empty() || distances.allows(fa.steps()))
                                && self.holds_with(state, a, args)
                            {
                                out.push(Action::new(a as u16, args));
                            }
                            true
                        });
                        continue;
                    }
                    let (free, per_card) = match guards.get(k) {
                        Some(&g) => g,
                        None => self.card_guard(state, a),
                    };
                    let d = &dearest[share.map_or(k, |s| s[k.min(7)]).min(7)];
                    if free && self.admits(state, a, i32::from(c), per_card, d) {
                        out.push(Action::new(a as u16, Args::of_card(c)));
                    }
                }
            }
        }
    }

    /// A card as shown: its id, and whose mark it carries (`red-2[P1]`).
    pub(super) fn card_text(&self, zone: usize, entry: u16) -> String {
        let id = self.card_id(zone, entry);
        match marker(entry) {
            Some(seat) => format!("{id}[P{}]", seat + 1),
            None => id.to_string(),
        }
    }

    /// A card named in a move (`repeat red-2`) is the copy the action may take: with the
    /// mark that makes it legal, when its zone has marks.
    pub(super) fn resolve_mark(&self, state: &State, a: usize, card: i32) -> i32 {
        let Param::Card(z) = &self.actions[a].param else {
            return card;
        };
        if self.zones[z.zone].marks.is_none() {
            return card;
        }
        let mut found = card;
        self.bindings(state, a, |args| {
            if args.card() & i32::from(TYPE_MASK) == card {
                found = args.card();
                return false;
            }
            true
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulebook::model::ZoneRef;

    fn bin(op: Op, l: Expr, r: Expr) -> Expr {
        Expr::Bin(op, Box::new(l), Box::new(r))
    }

    fn count(row: Option<Expr>) -> Expr {
        Expr::Count(ZoneRef {
            zone: 0,
            who: Who::Current,
            row: row.map(Box::new),
        })
    }

    #[test]
    fn each_distinct_entry_is_bound_once_marked_or_not() {
        // Unmarked types on both sides of 64, the same type under several seats' marks,
        // a mark past the seventh seat and a marked type past 64 (searched for).
        let mark = |seat: u16, t: u16| t | ((seat + 1) << MARK_SHIFT);
        let cards = [
            3,
            mark(0, 3),
            70,
            mark(6, 3),
            3,
            mark(0, 3),
            mark(9, 3),
            mark(1, 70),
            70,
            mark(6, 3),
            mark(9, 3),
            mark(1, 70),
            mark(1, 3),
        ];
        let mut seen = super::super::state::Seen::default();
        for i in 0..cards.len() {
            assert_eq!(
                seen.first(&cards, i),
                !cards[..i].contains(&cards[i]),
                "entry {i}: {:#x}",
                cards[i]
            );
        }
        // Listed distinct: in order (compared with the entry before), out of order from the
        // start, and in order for a while, then not.
        let firsts = |pile: &[u16]| -> Vec<u16> {
            (0..pile.len())
                .filter(|&i| !pile[..i].contains(&pile[i]))
                .map(|i| pile[i])
                .collect()
        };
        let mut sorted = cards.to_vec();
        sorted.sort_unstable();
        for pile in [&sorted[..], &cards[..], &[1, 2, 2, 5, 1, 2, 5, 7, 7][..]] {
            let listed: Vec<u16> = super::super::state::Seen::distinct(pile).collect();
            assert_eq!(listed, firsts(pile), "{pile:?}");
        }
    }

    #[test]
    fn only_conjuncts_free_of_the_card_are_asked_once() {
        let unmarked = || Expr::Not(Box::new(Expr::Marked(Box::new(Expr::Card))));
        let has_marks = || bin(Op::Gt, Expr::Marks(Who::Current), Expr::Const(0));
        // `not marked(card) and marks(current) > 0`: the right side once per listing.
        let seals = bin(Op::And, unmarked(), has_marks());
        assert_eq!(GuardSplit::of(Some(&seals)), GuardSplit::FreeRight);
        let flipped = bin(Op::And, has_marks(), unmarked());
        assert_eq!(GuardSplit::of(Some(&flipped)), GuardSplit::FreeLeft);
        assert_eq!(GuardSplit::of(Some(&has_marks())), GuardSplit::Free);
        assert_eq!(GuardSplit::of(Some(&count(None))), GuardSplit::Free);
        assert_eq!(GuardSplit::of(None), GuardSplit::Whole);
        // `or` cannot be split; a count of the card's row reads the card.
        let either = bin(Op::Or, unmarked(), has_marks());
        assert_eq!(GuardSplit::of(Some(&either)), GuardSplit::Whole);
        let row = bin(Op::And, count(Some(Expr::Card)), unmarked());
        assert_eq!(GuardSplit::of(Some(&row)), GuardSplit::Whole);
        let value = Expr::Attr {
            set: 0,
            attr: 0,
            card: Box::new(Expr::Card),
        };
        assert_eq!(GuardSplit::of(Some(&value)), GuardSplit::Whole);
    }
}
