//! Hidden simultaneous commitments: "each player places the cards face down, then all turn
//! them over". In play this is one decision sequence per participant, in turn order; each
//! commitment stays face down until every participant has sealed theirs, and only then is
//! it revealed.
//!
//! Views must show a player only their own face-down cards and the others' counts:
//! [`Sealed::visible_to`] says whose cards a viewer may see, and a rules module's `observe`
//! re-deals the rest.

use crate::counts::Counts;
use crate::game::Seat;
use crate::seat_set::SeatSet;

#[derive(Debug, PartialEq, Eq, Hash, Default)]
pub struct Sealed {
    players: u8,
    first: u8,
    participants: SeatSet,
    sealed: SeatSet,
    revealed: bool,
    /// Per seat, the cards committed so far.
    cards: Vec<Counts>,
}

impl Clone for Sealed {
    fn clone(&self) -> Self {
        Sealed {
            cards: self.cards.clone(),
            ..*self
        }
    }

    /// Reuses the commitment buffer (bots clone states many times per decision).
    fn clone_from(&mut self, source: &Self) {
        self.players = source.players;
        self.first = source.first;
        self.participants = source.participants;
        self.sealed = source.sealed;
        self.revealed = source.revealed;
        self.cards.clone_from(&source.cards);
    }
}

impl Sealed {
    /// A collector for a table of `players`, with nobody committing.
    pub fn new(players: usize) -> Self {
        Sealed {
            players: players.min(SeatSet::MAX_SEATS) as u8,
            first: 0,
            participants: SeatSet::EMPTY,
            sealed: SeatSet::EMPTY,
            revealed: false,
            cards: vec![Counts::EMPTY; players.min(SeatSet::MAX_SEATS)],
        }
    }

    /// Starts a new round of commitments by `participants`, asked clockwise from `first`.
    /// Earlier commitments are forgotten (take them first).
    pub fn start(&mut self, first: Seat, participants: SeatSet) {
        self.first = first as u8;
        self.participants = participants.intersection(SeatSet::all(usize::from(self.players)));
        self.sealed = SeatSet::EMPTY;
        self.revealed = false;
        for c in &mut self.cards {
            c.clear();
        }
    }

    /// Ends the round: nobody commits any more, and nothing is held.
    pub fn clear(&mut self) {
        self.start(0, SeatSet::EMPTY);
    }

    /// Who commits now: the first participant clockwise from `first` who has not sealed.
    /// `None` once all have sealed.
    pub fn current(&self) -> Option<Seat> {
        self.participants
            .difference(self.sealed)
            .first_from(usize::from(self.first), usize::from(self.players))
    }

    pub fn participants(&self) -> SeatSet {
        self.participants
    }

    /// Participants who have sealed their commitment.
    pub fn sealed(&self) -> SeatSet {
        self.sealed
    }

    pub fn all_sealed(&self) -> bool {
        self.participants.is_subset(self.sealed)
    }

    pub fn is_revealed(&self) -> bool {
        self.revealed
    }

    /// The cards `seat` has committed (empty for a seat outside the table).
    pub fn cards(&self, seat: Seat) -> &Counts {
        self.cards.get(seat).unwrap_or(&Counts::EMPTY)
    }

    /// Every seat's commitment, by seat.
    pub fn all_cards(&self) -> &[Counts] {
        &self.cards
    }

    /// Adds a card face down to `seat`'s commitment.
    pub fn add(&mut self, seat: Seat, card: u8) {
        if let Some(c) = self.cards.get_mut(seat) {
            c.add(card, 1);
        }
    }

    /// Replaces `seat`'s face-down cards (a determinised view re-deals them).
    pub fn set_cards(&mut self, seat: Seat, cards: Counts) {
        if let Some(c) = self.cards.get_mut(seat) {
            *c = cards;
        }
    }

    /// `seat` is done committing.
    pub fn seal(&mut self, seat: Seat) {
        if self.participants.contains(seat) {
            self.sealed.insert(seat);
        }
    }

    /// Turns every commitment face up. Only once all have sealed.
    pub fn reveal(&mut self) {
        debug_assert!(self.all_sealed(), "revealing before everyone sealed");
        self.revealed = true;
    }

    /// Takes `seat`'s committed cards out of the collector.
    pub fn take(&mut self, seat: Seat) -> Counts {
        match self.cards.get_mut(seat) {
            Some(c) => std::mem::take(c),
            None => Counts::EMPTY,
        }
    }

    /// Whether `viewer` may see which cards `seat` committed: their own always, the others'
    /// once revealed. `viewer == None` is the public table.
    pub fn visible_to(&self, seat: Seat, viewer: Option<Seat>) -> bool {
        self.revealed || viewer == Some(seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn participants_commit_in_turn_order_and_stay_hidden_until_revealed() {
        let mut s = Sealed::new(4);
        s.start(3, SeatSet::only(0).with(1).with(3));
        assert_eq!(s.current(), Some(3));
        s.add(3, 7);
        s.add(3, 7);
        s.seal(3);
        assert_eq!(s.current(), Some(0));
        assert!(s.visible_to(3, Some(3)) && !s.visible_to(3, Some(0)) && !s.visible_to(3, None));
        s.seal(0);
        s.add(1, 2);
        s.seal(1);
        assert!(s.all_sealed() && s.current().is_none());
        s.reveal();
        assert!(s.visible_to(3, None));
        assert_eq!(s.take(3).get(7), 2);
        assert!(s.cards(3).is_empty());
        s.start(0, SeatSet::only(2));
        assert!(!s.is_revealed() && s.cards(1).is_empty());
    }

    #[test]
    fn clone_from_copies_everything() {
        let mut a = Sealed::new(3);
        a.start(1, SeatSet::all(3));
        a.add(2, 5);
        let mut b = Sealed::new(3);
        b.clone_from(&a);
        assert_eq!(a, b);
        assert_eq!(a.clone(), a);
    }
}
