//! A bidding contest in turn order: each bidder in turn either beats the high bid or drops
//! out. [`Rounds::OnePass`] asks every bidder once and the highest bid wins;
//! [`Rounds::UntilOneLeft`] goes on around the table until only the high bidder is left.
//! The first bid must reach an opening minimum; every later bid must beat the high bid.
//!
//! The contest only keeps bids; what a bid costs, and the most a bidder can offer, are the
//! rules module's business.

use crate::game::Seat;
use crate::seat_set::SeatSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounds {
    /// Every bidder bids once, in turn order.
    OnePass,
    /// Around and around until everyone but the high bidder has dropped out.
    UntilOneLeft,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bidding {
    rounds: Rounds,
    players: u8,
    /// Bidders still in the contest.
    active: SeatSet,
    /// Bidders still to be asked in this pass.
    to_ask: SeatSet,
    /// Asking goes on clockwise from here.
    cursor: u8,
    high: Option<(u8, u32)>,
    opening: u32,
}

impl Bidding {
    /// A contest between `bidders`, asked clockwise from `first`; the first bid must be at
    /// least `opening`.
    pub fn new(
        first: Seat,
        bidders: SeatSet,
        players: usize,
        opening: u32,
        rounds: Rounds,
    ) -> Self {
        let bidders = bidders.intersection(SeatSet::all(players));
        Bidding {
            rounds,
            players: players.min(SeatSet::MAX_SEATS) as u8,
            active: bidders,
            to_ask: bidders,
            cursor: first as u8,
            high: None,
            opening,
        }
    }

    /// Who bids now (`None` once the contest is over).
    pub fn current(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        self.to_ask
            .first_from(usize::from(self.cursor), usize::from(self.players))
    }

    /// The least the bidder to move may bid.
    pub fn min_bid(&self) -> u32 {
        match self.high {
            Some((_, bid)) => bid.saturating_add(1),
            None => self.opening,
        }
    }

    /// The bidder to move bids `amount` (at least [`Bidding::min_bid`]).
    pub fn bid(&mut self, amount: u32) {
        let Some(seat) = self.current() else { return };
        debug_assert!(amount >= self.min_bid(), "a bid below the minimum");
        self.high = Some((seat as u8, amount));
        self.asked(seat);
    }

    /// The bidder to move drops out.
    pub fn drop_out(&mut self) {
        let Some(seat) = self.current() else { return };
        self.active.remove(seat);
        self.asked(seat);
    }

    fn asked(&mut self, seat: Seat) {
        self.to_ask.remove(seat);
        self.cursor = ((seat + 1) % usize::from(self.players.max(1))) as u8;
        if self.to_ask.is_empty() && self.rounds == Rounds::UntilOneLeft {
            // Another pass for everyone still in who does not hold the high bid.
            self.to_ask = self.challengers();
        }
    }

    /// Active bidders other than the high bidder.
    fn challengers(&self) -> SeatSet {
        match self.high {
            Some((s, _)) => self.active.without(usize::from(s)),
            None => self.active,
        }
    }

    pub fn is_over(&self) -> bool {
        match self.rounds {
            Rounds::OnePass => self.to_ask.is_empty(),
            // Over when nobody can challenge the high bid any more (or nobody is left).
            Rounds::UntilOneLeft => {
                self.active.is_empty() || (self.high.is_some() && self.challengers().is_empty())
            }
        }
    }

    /// The high bid so far: seat and amount.
    pub fn high(&self) -> Option<(Seat, u32)> {
        self.high.map(|(s, b)| (usize::from(s), b))
    }

    /// The winning bid, once the contest is over.
    pub fn winner(&self) -> Option<(Seat, u32)> {
        if self.is_over() { self.high() } else { None }
    }

    /// Bidders who have not dropped out.
    pub fn active(&self) -> SeatSet {
        self.active
    }

    /// Bidders still to be asked in this pass.
    pub fn to_ask(&self) -> SeatSet {
        self.to_ask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_asks_each_bidder_once_and_the_highest_wins() {
        let bidders = SeatSet::all(4).without(0);
        let mut b = Bidding::new(1, bidders, 4, 3, Rounds::OnePass);
        assert_eq!((b.current(), b.min_bid()), (Some(1), 3));
        b.bid(3);
        assert_eq!((b.current(), b.min_bid()), (Some(2), 4));
        b.drop_out();
        b.bid(6);
        assert!(b.is_over());
        assert_eq!(b.winner(), Some((3, 6)));
        assert_eq!(b.active().iter().collect::<Vec<_>>(), vec![1, 3]);
    }

    #[test]
    fn everyone_dropping_leaves_no_winner() {
        let mut b = Bidding::new(0, SeatSet::all(2), 2, 1, Rounds::OnePass);
        b.drop_out();
        b.drop_out();
        assert!(b.is_over());
        assert_eq!(b.winner(), None);
    }

    #[test]
    fn rounds_go_on_until_one_bidder_is_left() {
        let mut b = Bidding::new(2, SeatSet::all(3), 3, 1, Rounds::UntilOneLeft);
        b.bid(1); // P3
        b.bid(2); // P1
        b.bid(3); // P2
        // Second pass: P3 and P1 must beat 3.
        assert_eq!((b.current(), b.min_bid()), (Some(2), 4));
        b.drop_out();
        b.bid(5); // P1
        assert_eq!(b.current(), Some(1));
        b.drop_out(); // P2
        assert!(b.is_over());
        assert_eq!(b.winner(), Some((0, 5)));
    }

    #[test]
    fn a_lone_bidder_in_rounds_wins_with_the_opening_bid() {
        let mut b = Bidding::new(0, SeatSet::only(1), 3, 3, Rounds::UntilOneLeft);
        assert_eq!(b.current(), Some(1));
        b.bid(3);
        assert_eq!(b.winner(), Some((1, 3)));
    }
}
