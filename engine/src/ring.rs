//! A ring of seats around a board, each holding at most one figure: stepping round it in
//! either direction, and moving a figure onto a seat, which displaces the figure sitting
//! there to the next empty seat in a given direction.
//!
//! Seats are numbered `0..len` going one way round (`numbered`); figures are small ids. The
//! whole ring is `Copy` and fixed-size, so moving figures never allocates.

use std::fmt;

use crate::seats::Direction;

/// The most seats a ring may have, and the most figures it may hold ids for.
pub const MAX_SEATS: usize = 64;
pub const MAX_FIGURES: usize = 64;

const NONE: u8 = u8::MAX;

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Ring {
    len: u8,
    /// The way round that seat `i + 1` lies from seat `i`.
    numbered: Direction,
    /// Seat → the figure on it.
    at: [u8; MAX_SEATS],
    /// Figure → its seat.
    seat: [u8; MAX_FIGURES],
    /// A bit per figure on the ring (what `seat` says, kept so that whether the first
    /// figures all stand on it is one test: a listing asks).
    seated: u64,
}

impl std::hash::Hash for Ring {
    /// The seats, not `seated` (which follows from them): the digests stay as they were.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.len.hash(state);
        self.numbered.hash(state);
        self.at.hash(state);
        self.seat.hash(state);
    }
}

/// `x` modulo `n` (`n > 0`), without a division in the common case of `x < 2n`: seats and
/// steps round a ring are that, and a division costs as much as the rest of a step.
#[inline(always)]
pub fn wrap(x: usize, n: usize) -> usize {
    if x < n {
        x
    } else if x - n < n {
        x - n
    } else {
        x % n
    }
}

/// What a move did: the mover's seats, and who it displaced, if anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Landing {
    pub from: u8,
    pub to: u8,
    pub displaced: Option<Displaced>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Displaced {
    pub figure: u8,
    /// The seat it was pushed off (the mover's landing seat).
    pub from: u8,
    pub to: u8,
}

impl Ring {
    /// An empty ring of `seats` seats (1 to [`MAX_SEATS`]), numbered going `numbered`.
    pub fn new(seats: usize, numbered: Direction) -> Self {
        assert!(
            (1..=MAX_SEATS).contains(&seats),
            "a ring has 1 to {MAX_SEATS} seats, not {seats}"
        );
        Ring {
            len: seats as u8,
            numbered,
            at: [NONE; MAX_SEATS],
            seat: [NONE; MAX_FIGURES],
            seated: 0,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Never true: a ring has at least one seat.
    pub fn is_empty(&self) -> bool {
        false
    }

    #[inline]
    pub fn figure_at(&self, seat: u8) -> Option<u8> {
        let f = self.at[usize::from(seat)];
        (f != NONE).then_some(f)
    }

    #[inline]
    pub fn seat_of(&self, figure: u8) -> Option<u8> {
        let s = self.seat[usize::from(figure)];
        (s != NONE).then_some(s)
    }

    /// Whether figures `0..figures` all stand on the ring.
    #[inline]
    pub fn all_seated(&self, figures: usize) -> bool {
        let first = u64::MAX
            .checked_shr(MAX_FIGURES.saturating_sub(figures) as u32)
            .unwrap_or(0);
        self.seated & first == first
    }

    #[inline]
    pub fn is_free(&self, seat: u8) -> bool {
        self.at[usize::from(seat)] == NONE
    }

    /// Puts a figure that is off the ring onto an empty seat.
    pub fn place(&mut self, figure: u8, seat: u8) {
        debug_assert!(self.is_free(seat), "seat {seat} is taken");
        debug_assert!(self.seat_of(figure).is_none(), "figure {figure} is seated");
        self.at[usize::from(seat)] = figure;
        self.seat[usize::from(figure)] = seat;
        self.seated |= 1 << figure;
    }

    /// Takes a figure off the ring (nothing if it is not on it).
    pub fn remove(&mut self, figure: u8) {
        if let Some(s) = self.seat_of(figure) {
            self.at[usize::from(s)] = NONE;
            self.seat[usize::from(figure)] = NONE;
            self.seated &= !(1 << figure);
        }
    }

    /// The seat `steps` seats from `seat` going `direction`.
    #[inline]
    pub fn step(&self, seat: u8, steps: usize, direction: Direction) -> u8 {
        let n = self.len();
        let steps = wrap(steps, n);
        let up = if direction == self.numbered {
            steps
        } else {
            n - steps
        };
        wrap(usize::from(seat) + up, n) as u8
    }

    /// How many steps going `direction` lead from `from` to `to` (0 when they are equal).
    #[inline]
    pub fn distance(&self, from: u8, to: u8, direction: Direction) -> usize {
        let n = self.len();
        let up = wrap(usize::from(to) + n - usize::from(from), n);
        if direction == self.numbered || up == 0 {
            up
        } else {
            n - up
        }
    }

    /// The first empty seat after `from` going `direction` (never `from` itself).
    pub fn next_free(&self, from: u8, direction: Direction) -> Option<u8> {
        (1..self.len())
            .map(|k| self.step(from, k, direction))
            .find(|&s| self.is_free(s))
    }

    /// Moves a seated figure onto seat `to`. A figure already there is displaced to the next
    /// empty seat from `to` going `displace` (the mover's old seat is empty by then, so there
    /// always is one). Moving onto its own seat changes nothing.
    pub fn move_to(&mut self, figure: u8, to: u8, displace: Direction) -> Landing {
        let from = self.seat_of(figure).expect("only a seated figure can move");
        if from == to {
            return Landing {
                from,
                to,
                displaced: None,
            };
        }
        self.at[usize::from(from)] = NONE;
        let displaced = self.figure_at(to).map(|other| {
            let dest = self
                .next_free(to, displace)
                .expect("the mover's seat is free");
            self.at[usize::from(dest)] = other;
            self.seat[usize::from(other)] = dest;
            Displaced {
                figure: other,
                from: to,
                to: dest,
            }
        });
        self.at[usize::from(to)] = figure;
        self.seat[usize::from(figure)] = to;
        Landing {
            from,
            to,
            displaced,
        }
    }

    /// `(seat, figure)` for every occupied seat, in seat order.
    pub fn figures(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.at[..self.len()]
            .iter()
            .enumerate()
            .filter(|&(_, &f)| f != NONE)
            .map(|(s, &f)| (s as u8, f))
    }

    /// Whether the two indexes agree: every seated figure's seat holds it and vice versa.
    pub fn is_consistent(&self) -> bool {
        let seats_ok = self.at[..self.len()]
            .iter()
            .enumerate()
            .all(|(s, &f)| f == NONE || usize::from(self.seat[usize::from(f)]) == s);
        let figures_ok = self.seat.iter().enumerate().all(|(f, &s)| {
            s == NONE || (usize::from(s) < self.len() && usize::from(self.at[usize::from(s)]) == f)
        });
        let beyond = self.at[self.len()..].iter().all(|&f| f == NONE);
        let seated_ok = (self.seat.iter().enumerate())
            .all(|(f, &s)| (self.seated >> f & 1 == 1) == (s != NONE));
        seats_ok && figures_ok && beyond && seated_ok
    }
}

impl fmt::Debug for Ring {
    /// The occupied seats: `{3: 0, 12: 5}` (seat: figure).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.figures()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::{Clockwise as Cw, CounterClockwise as Ccw};

    /// Seats numbered counter-clockwise, as on a board read that way.
    fn ring() -> Ring {
        Ring::new(28, Ccw)
    }

    #[test]
    fn all_seated_means_every_one_of_the_first_figures_has_a_seat() {
        let mut r = ring();
        assert!(r.all_seated(0), "no figures: none is off the ring");
        r.place(0, 5);
        r.place(2, 9);
        assert!(r.all_seated(1));
        assert!(!r.all_seated(3), "figure 1 is off the ring");
        r.place(1, 6);
        assert!(r.all_seated(3));
        r.remove(2);
        assert!(!r.all_seated(3));
        // Past the first eight figures, and a figure off the ring just past the count.
        let mut r = ring();
        for m in 0..12u8 {
            if m != 10 {
                r.place(m, m + 1);
            }
        }
        assert!(r.all_seated(10));
        assert!(!r.all_seated(11));
        assert!(!r.all_seated(12));
        r.place(10, 20);
        assert!(r.all_seated(12));
        assert!(!r.all_seated(13), "figure 12 is off the ring");
    }

    #[test]
    fn steps_wrap_both_ways() {
        let r = ring();
        assert_eq!(r.step(0, 1, Ccw), 1);
        assert_eq!(r.step(0, 1, Cw), 27);
        assert_eq!(r.step(26, 5, Ccw), 3);
        assert_eq!(r.step(2, 5, Cw), 25);
        assert_eq!(r.distance(2, 25, Cw), 5);
        assert_eq!(r.distance(25, 2, Ccw), 5);
        assert_eq!(r.distance(7, 7, Cw), 0);
    }

    #[test]
    fn a_move_onto_an_empty_seat_displaces_nobody() {
        let mut r = ring();
        r.place(1, 10);
        let l = r.move_to(1, 7, Ccw);
        assert_eq!((l.from, l.to, l.displaced), (10, 7, None));
        assert!(r.is_free(10));
        assert_eq!(r.seat_of(1), Some(7));
    }

    #[test]
    fn the_displaced_figure_goes_to_the_next_empty_seat_the_given_way() {
        let mut r = ring();
        // Figure 1 on 10 moves 3 clockwise onto 7, where figure 2 sits; 8 and 9 are taken,
        // so 2 goes on to 10, the seat 1 came from.
        r.place(1, 10);
        r.place(2, 7);
        r.place(3, 8);
        r.place(4, 9);
        let l = r.move_to(1, 7, Ccw);
        assert_eq!(
            l.displaced,
            Some(Displaced {
                figure: 2,
                from: 7,
                to: 10
            })
        );
        // Not always the mover's seat: with 8 free, 2 stops there.
        let mut r = ring();
        r.place(1, 10);
        r.place(2, 7);
        let l = r.move_to(1, 7, Ccw);
        assert_eq!(l.displaced.map(|d| d.to), Some(8));
        assert!(r.is_consistent());
    }

    #[test]
    fn displacement_wraps_round_the_ring() {
        let mut r = ring();
        r.place(1, 3);
        r.place(2, 27);
        let l = r.move_to(1, 27, Ccw);
        assert_eq!(l.displaced.map(|d| d.to), Some(0));
    }

    #[test]
    fn a_backward_move_still_displaces_the_given_way() {
        let mut r = ring();
        r.place(1, 5);
        r.place(2, 8);
        // Figure 1 moves 3 counter-clockwise onto 8; figure 2 goes on counter-clockwise, to 9.
        let l = r.move_to(1, r.step(5, 3, Ccw), Ccw);
        assert_eq!(l.to, 8);
        assert_eq!(l.displaced.map(|d| d.to), Some(9));
    }

    proptest::proptest! {
        #[test]
        fn wrap_is_the_remainder(x in 0usize..100_000, n in 1usize..=MAX_SEATS) {
            proptest::prop_assert_eq!(wrap(x, n), x % n);
        }

        #[test]
        fn moves_keep_one_figure_per_seat(
            start in proptest::collection::btree_set(0u8..28, 1..20),
            moves in proptest::collection::vec((0usize..20, 1usize..9, proptest::bool::ANY), 0..60),
        ) {
            let mut r = ring();
            let seats: Vec<u8> = start.into_iter().collect();
            for (f, &s) in seats.iter().enumerate() {
                r.place(f as u8, s);
            }
            for (f, steps, cw) in moves {
                let f = (f % seats.len()) as u8;
                let from = r.seat_of(f).unwrap();
                let dir = if cw { Cw } else { Ccw };
                r.move_to(f, r.step(from, steps, dir), Ccw);
                proptest::prop_assert!(r.is_consistent());
                proptest::prop_assert_eq!(r.figures().count(), seats.len());
            }
        }
    }
}
