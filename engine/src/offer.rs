//! Asking around the table: each eligible seat in turn, clockwise from a first seat, answers
//! yes or no. [`OfferKind::FirstTaker`] stops at the first yes (a sponsor, a buyer);
//! [`OfferKind::Poll`] asks everyone and remembers who said yes (joining, entering).
//!
//! The offer only keeps the answers; a rules module decides what a yes means and may answer
//! for a seat that has no choice (a player who cannot sponsor declines).

use crate::game::Seat;
use crate::seat_set::SeatSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OfferKind {
    /// The first yes ends the offer.
    FirstTaker,
    /// Everyone eligible is asked.
    Poll,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Offer {
    kind: OfferKind,
    players: u8,
    first: u8,
    /// Seats still to be asked.
    pending: SeatSet,
    accepted: SeatSet,
}

impl Offer {
    /// An offer to the `eligible` seats, asked clockwise from `first`.
    pub fn new(kind: OfferKind, first: Seat, players: usize, eligible: SeatSet) -> Self {
        Offer {
            kind,
            players: players.min(SeatSet::MAX_SEATS) as u8,
            first: first as u8,
            pending: eligible.intersection(SeatSet::all(players)),
            accepted: SeatSet::EMPTY,
        }
    }

    /// Whose answer is awaited (`None` once the offer is over).
    pub fn current(&self) -> Option<Seat> {
        self.pending
            .first_from(usize::from(self.first), usize::from(self.players))
    }

    /// Records the answer of the seat asked now.
    pub fn answer(&mut self, yes: bool) {
        let Some(seat) = self.current() else { return };
        self.pending.remove(seat);
        if yes {
            self.accepted.insert(seat);
            if self.kind == OfferKind::FirstTaker {
                self.pending = SeatSet::EMPTY;
            }
        }
    }

    pub fn is_over(&self) -> bool {
        self.pending.is_empty()
    }

    pub fn kind(&self) -> OfferKind {
        self.kind
    }

    /// The seats that said yes.
    pub fn accepted(&self) -> SeatSet {
        self.accepted
    }

    /// Seats still to be asked.
    pub fn pending(&self) -> SeatSet {
        self.pending
    }

    /// The first seat (clockwise from the first asked) that said yes: a first-taker offer's
    /// taker.
    pub fn taker(&self) -> Option<Seat> {
        self.accepted
            .first_from(usize::from(self.first), usize::from(self.players))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_taker_stops_at_the_first_yes() {
        let mut o = Offer::new(OfferKind::FirstTaker, 2, 4, SeatSet::all(4));
        assert_eq!(o.current(), Some(2));
        o.answer(false);
        assert_eq!(o.current(), Some(3));
        o.answer(true);
        assert!(o.is_over());
        assert_eq!((o.current(), o.taker()), (None, Some(3)));
    }

    #[test]
    fn nobody_takes() {
        let mut o = Offer::new(OfferKind::FirstTaker, 1, 3, SeatSet::all(3));
        for expected in [1, 2, 0] {
            assert_eq!(o.current(), Some(expected));
            o.answer(false);
        }
        assert!(o.is_over());
        assert_eq!(o.taker(), None);
    }

    #[test]
    fn a_poll_asks_every_eligible_seat_once_in_turn_order() {
        let eligible = SeatSet::all(4).without(1);
        let mut o = Offer::new(OfferKind::Poll, 2, 4, eligible);
        let mut asked = Vec::new();
        while let Some(s) = o.current() {
            asked.push(s);
            o.answer(s != 3);
        }
        assert_eq!(asked, vec![2, 3, 0]);
        assert_eq!(o.accepted().iter().collect::<Vec<_>>(), vec![0, 2]);
        assert_eq!(o.taker(), Some(2));
    }
}
