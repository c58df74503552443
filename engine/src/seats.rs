//! Turn order around the table. Seats are numbered clockwise from 0.

use crate::game::Seat;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Clockwise,
    CounterClockwise,
}

/// The seat after `seat` going clockwise, among `players` seats.
#[inline]
pub fn next_seat(seat: Seat, players: usize) -> Seat {
    debug_assert!(seat < players);
    if seat + 1 >= players { 0 } else { seat + 1 }
}

/// The seat after `seat` going counter-clockwise.
#[inline]
pub fn prev_seat(seat: Seat, players: usize) -> Seat {
    debug_assert!(seat < players);
    if seat == 0 { players - 1 } else { seat - 1 }
}

#[inline]
pub fn step(seat: Seat, players: usize, direction: Direction) -> Seat {
    match direction {
        Direction::Clockwise => next_seat(seat, players),
        Direction::CounterClockwise => prev_seat(seat, players),
    }
}

/// Every seat once, starting with `first`, in `direction`.
pub fn round_from(first: Seat, players: usize, direction: Direction) -> impl Iterator<Item = Seat> {
    let mut seat = first;
    (0..players).map(move |_| {
        let s = seat;
        seat = step(seat, players, direction);
        s
    })
}

/// "P1" for seat 0: how seats are shown to users.
pub fn seat_name(seat: Seat) -> String {
    format!("P{}", seat + 1)
}

/// Reads "P1"/"p1" (1-based) back to seat 0; `None` for anything else or a seat past
/// `players`.
pub fn parse_seat(text: &str, players: usize) -> Option<Seat> {
    let digits = text.trim().strip_prefix(['P', 'p'])?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: usize = digits.parse().ok()?;
    (1..=players).contains(&n).then(|| n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_both_ways() {
        assert_eq!(next_seat(2, 3), 0);
        assert_eq!(next_seat(0, 3), 1);
        assert_eq!(prev_seat(0, 3), 2);
        assert_eq!(step(1, 4, Direction::CounterClockwise), 0);
        assert_eq!(
            round_from(2, 4, Direction::Clockwise).collect::<Vec<_>>(),
            vec![2, 3, 0, 1]
        );
        assert_eq!(
            round_from(1, 3, Direction::CounterClockwise).collect::<Vec<_>>(),
            vec![1, 0, 2]
        );
    }

    #[test]
    fn seat_names_are_one_based() {
        assert_eq!(seat_name(0), "P1");
        assert_eq!(parse_seat("P1", 2), Some(0));
        assert_eq!(parse_seat("p2", 2), Some(1));
        assert_eq!(parse_seat("P3", 2), None);
        assert_eq!(parse_seat("P0", 2), None);
        assert_eq!(parse_seat("P+1", 2), None);
        assert_eq!(parse_seat("1", 2), None);
    }
}
