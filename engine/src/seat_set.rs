//! A set of seats as a bitmask: who joined, who is still bidding, who has committed.
//! `Copy` and 4 bytes, so a phase can hold one without allocating. At most 32 seats.

use std::fmt;

use crate::game::Seat;
use crate::seats::{Direction, round_from};

#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(u32);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);
    /// The most seats a set can hold.
    pub const MAX_SEATS: usize = 32;

    /// Every seat of a table of `players`.
    pub fn all(players: usize) -> Self {
        if players >= Self::MAX_SEATS {
            SeatSet(u32::MAX)
        } else {
            SeatSet((1u32 << players) - 1)
        }
    }

    pub fn only(seat: Seat) -> Self {
        SeatSet::EMPTY.with(seat)
    }

    #[inline]
    pub fn contains(self, seat: Seat) -> bool {
        seat < Self::MAX_SEATS && self.0 & (1 << seat) != 0
    }

    #[inline]
    pub fn insert(&mut self, seat: Seat) {
        debug_assert!(seat < Self::MAX_SEATS);
        self.0 |= 1 << (seat % Self::MAX_SEATS);
    }

    #[inline]
    pub fn remove(&mut self, seat: Seat) {
        if seat < Self::MAX_SEATS {
            self.0 &= !(1 << seat);
        }
    }

    #[must_use]
    pub fn with(mut self, seat: Seat) -> Self {
        self.insert(seat);
        self
    }

    #[must_use]
    pub fn without(mut self, seat: Seat) -> Self {
        self.remove(seat);
        self
    }

    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[must_use]
    pub fn union(self, other: SeatSet) -> Self {
        SeatSet(self.0 | other.0)
    }

    #[must_use]
    pub fn intersection(self, other: SeatSet) -> Self {
        SeatSet(self.0 & other.0)
    }

    #[must_use]
    pub fn difference(self, other: SeatSet) -> Self {
        SeatSet(self.0 & !other.0)
    }

    pub fn is_subset(self, other: SeatSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The seats in ascending order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let s = bits.trailing_zeros() as Seat;
                bits &= bits - 1;
                s
            })
        })
    }

    /// The seats in turn order (clockwise), starting at `from` itself if it is in the set.
    pub fn from_seat(self, from: Seat, players: usize) -> impl Iterator<Item = Seat> {
        let players = players.clamp(1, Self::MAX_SEATS);
        round_from(from % players, players, Direction::Clockwise).filter(move |&s| self.contains(s))
    }

    /// The first seat of the set at or clockwise after `from`.
    pub fn first_from(self, from: Seat, players: usize) -> Option<Seat> {
        self.from_seat(from, players).next()
    }
}

impl fmt::Debug for SeatSet {
    /// `{P1, P3}`: seats as users see them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.iter().map(crate::seats::seat_name).collect();
        write!(f, "{{{}}}", names.join(", "))
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        iter.into_iter().fold(SeatSet::EMPTY, SeatSet::with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_order_wraps_from_the_given_seat() {
        let s: SeatSet = [0, 2, 3].into_iter().collect();
        assert_eq!(s.from_seat(3, 4).collect::<Vec<_>>(), vec![3, 0, 2]);
        assert_eq!(s.from_seat(1, 4).collect::<Vec<_>>(), vec![2, 3, 0]);
        assert_eq!(s.first_from(1, 4), Some(2));
        assert_eq!(SeatSet::EMPTY.first_from(0, 4), None);
        assert_eq!(format!("{s:?}"), "{P1, P3, P4}");
    }

    #[test]
    fn set_operations() {
        let all = SeatSet::all(4);
        assert_eq!(all.len(), 4);
        let odd = SeatSet::only(1).with(3);
        assert_eq!(all.difference(odd).iter().collect::<Vec<_>>(), vec![0, 2]);
        assert!(odd.is_subset(all) && !all.is_subset(odd));
        assert_eq!(odd.intersection(SeatSet::only(3)), SeatSet::only(3));
        assert!(!odd.contains(40));
        assert_eq!(SeatSet::all(32).len(), 32);
    }
}
