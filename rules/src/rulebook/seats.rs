//! Seats as values, evaluated: the seat a zone or counter reference names, the seat
//! functions (`left`, `right`, `highest`, `lowest`), the seats a `for each` goes through.
//! Seats are numbered from 0 in turn order; one that names no seat of the game is a fault
//! of the move (`fault.rs`), never a pile or counter past the seats.

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::fault;
use super::model::{Deciders, Expr, SeatExpr, SeatSet, Who};
use super::state::{Asking, State};

impl Rulebook {
    /// The seat a zone or counter of a seat belongs to.
    #[inline(always)]
    pub(super) fn seat_of(&self, who: Who, ctx: &Ctx) -> usize {
        match who {
            Who::Player => ctx.player,
            Who::Seat(i) => self.named_seat(i, ctx),
            Who::Table | Who::Current | Who::Each => usize::from(ctx.state.current),
        }
    }

    // Cold: the bundled games' zones are the player to move's or `P`'s; a seat expression
    // is kept off their path.
    #[cold]
    #[inline(never)]
    fn named_seat(&self, i: u16, ctx: &Ctx) -> usize {
        let v = self
            .seat_exprs
            .get(usize::from(i))
            .map_or(0, |e| self.eval(e, ctx));
        fault::seat(v, ctx.state.players)
    }

    /// A seat expression's value.
    #[inline(never)]
    pub(super) fn eval_seat(&self, e: &SeatExpr, ctx: &Ctx) -> i64 {
        let players = ctx.state.players;
        let n = usize::from(players);
        let seat = match e {
            SeatExpr::Current => usize::from(ctx.state.current),
            SeatExpr::Player => ctx.player,
            SeatExpr::Left(of) => (fault::seat(self.eval(of, ctx), players) + 1) % n,
            SeatExpr::Right(of) => (fault::seat(self.eval(of, ctx), players) + n - 1) % n,
            SeatExpr::Highest(by) => self.extreme(by, ctx, |v, best| v > best),
            SeatExpr::Lowest(by) => self.extreme(by, ctx, |v, best| v < best),
        };
        seat as i64
    }

    /// The seat whose value of `by` (over `P`) beats every other's, the first in turn order
    /// from the player to move among equals.
    fn extreme(&self, by: &Expr, ctx: &Ctx, beats: impl Fn(i64, i64) -> bool) -> usize {
        let mut best: Option<(usize, i64)> = None;
        for p in Self::seats_in(SeatSet::Each, ctx.state) {
            let v = self.eval(by, &Ctx { player: p, ..*ctx });
            if best.is_none_or(|(_, b)| beats(v, b)) {
                best = Some((p, v));
            }
        }
        best.map_or(0, |(p, _)| p)
    }

    /// The seats of a `for each`, in turn order from the player to move.
    pub(super) fn seats_in(set: SeatSet, state: &State) -> impl Iterator<Item = usize> + use<> {
        Self::seats_from(set, usize::from(state.current), state.players)
    }

    /// Every seat in turn order from `start`, the player to move left out for `others`.
    pub(super) fn seats_starting(
        set: SeatSet,
        start: usize,
        state: &State,
    ) -> impl Iterator<Item = usize> + use<> {
        let (n, current) = (usize::from(state.players), usize::from(state.current));
        (0..n)
            .map(move |k| (start + k) % n)
            .filter(move |&p| set == SeatSet::Each || p != current)
    }

    /// The seats of a set as seen from `seat`: every seat from it, or the others from the
    /// one after it, in turn order.
    pub(super) fn seats_from(
        set: SeatSet,
        seat: usize,
        players: u8,
    ) -> impl Iterator<Item = usize> + use<> {
        let n = usize::from(players);
        let skip = usize::from(set == SeatSet::Others);
        (skip..n).map(move |k| (seat + k) % n)
    }
}

/// Steps other seats decide (`[steps.*] who`): whose decision it is, one seat after another
/// in turn order; `flow.rs` starts the asking when it enters such a step and moves it on
/// when a seat has acted or passed.
impl Rulebook {
    /// Starts asking a step's seats: the first of its order. False when it has none (the
    /// others of a game of one).
    pub(super) fn begin_asking(&self, who: &Deciders, state: &mut State) -> bool {
        let n = state.players;
        let current = usize::from(state.current);
        let start = match &who.from {
            Some(from) => fault::seat(self.eval(from, &Ctx::current(state, Args::NONE)), n),
            None if who.seats == SeatSet::Others => (current + 1) % usize::from(n),
            None => current,
        };
        state.asking = Asking {
            active: true,
            seat: 0,
            start: start as u8,
            asked: 0,
        };
        self.ask_from(who, state, 0)
    }

    /// Asks the next seat of the order; false when every seat has been asked (the asking
    /// is over).
    pub(super) fn ask_next(&self, who: &Deciders, state: &mut State) -> bool {
        let k = usize::from(state.asking.asked) + 1;
        self.ask_from(who, state, k)
    }

    fn ask_from(&self, who: &Deciders, state: &mut State, k: usize) -> bool {
        let n = usize::from(state.players);
        let start = usize::from(state.asking.start);
        // One seat decides: it is asked once.
        let asked = if who.one.is_some() { n.min(1) } else { n };
        for k in k..asked {
            let seat = (start + k) % n;
            if who.seats == SeatSet::Others && seat == usize::from(state.current) {
                continue;
            }
            state.asking.seat = seat as u8;
            state.asking.asked = k as u8;
            return true;
        }
        state.asking = Asking::default();
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::SeatSet;
    use super::Rulebook;

    #[test]
    fn the_seats_of_a_set_run_in_turn_order_from_the_seat_given() {
        let each: Vec<usize> = Rulebook::seats_from(SeatSet::Each, 2, 4).collect();
        assert_eq!(each, [2, 3, 0, 1], "every seat, the given one first");
        let others: Vec<usize> = Rulebook::seats_from(SeatSet::Others, 2, 4).collect();
        assert_eq!(others, [3, 0, 1], "the others, from the one after it");
        let alone: Vec<usize> = Rulebook::seats_from(SeatSet::Others, 0, 1).collect();
        assert!(alone.is_empty(), "a game of one has no others");
    }
}
