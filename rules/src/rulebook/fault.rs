//! What can go wrong while a move runs, though the description passed every check: a move
//! that does not end (a draw cycling through a supply that refills from where it draws to),
//! a number leaving the range every number of a pack lies in, a division by zero. The
//! evaluators return plain numbers on the hot path, so a fault is noted here, beside them,
//! and [`Rulebook::apply`](super::Rulebook) reads it once the move is over: the game then
//! stops with an error naming the move (`Rules::stuck`), in `sim`, `play` and `replay` alike.
//!
//! The note is per thread: a move runs on one thread from its start to its end, and each
//! move starts with a clean note ([`begin`]).

use std::cell::Cell;

/// The range of every number a description computes: the params' (`±10⁹`), so no sum of a
/// few of them wraps a 64-bit number.
pub const LIMIT: i64 = 1_000_000_000;

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// The move did more work than its budget (cards moved, steps skipped, `auto` moves).
    Runaway,
    /// `a op b` left the range.
    Range { op: &'static str, a: i64, b: i64 },
    /// A counter would have left the range.
    Counter {
        counter: u16,
        value: i64,
        amount: i64,
    },
    /// A figure's counter would hold more than a figure can (32 767).
    FigureCounter {
        counter: u16,
        value: i64,
        amount: i64,
    },
    /// `div(a, 0)` or `mod(a, 0)`.
    DivideByZero { op: &'static str, a: i64 },
    /// A seat expression named no seat of the game (`points(x)` with `x` = 7 of 4 players).
    NoSuchSeat { seat: i64, players: u8 },
}

/// The setup's lines run, not an action's.
pub const NO_ACTION: u16 = u16::MAX;

// Kept in separate cells: a unit of work spent is one read and one write of a number.
thread_local! {
    /// Work left in this move.
    static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
    static FAILED: Cell<bool> = const { Cell::new(false) };
    static FAULT: Cell<Option<Fault>> = const { Cell::new(None) };
    /// The action whose effects run (`NO_ACTION`: the setup's).
    static ACTION: Cell<u16> = const { Cell::new(NO_ACTION) };
}

/// Starts a move with `budget` units of work and no fault (a fault noted before is
/// forgotten: [`end`] reads one only while the move has failed).
#[inline]
pub fn begin(budget: u64) {
    LEFT.set(budget);
    FAILED.set(false);
}

/// Starts a setup: [`begin`], no action's effects running yet.
pub fn begin_setup(budget: u64) {
    begin(budget);
    ACTION.set(NO_ACTION);
}

/// The fault of the move that is over, if any.
#[inline]
pub fn end() -> Option<Fault> {
    if FAILED.get() { FAULT.get() } else { None }
}

/// Whether the move has failed: loops that could go on stop at once.
#[inline]
pub fn failed() -> bool {
    FAILED.get()
}

/// Action `a`'s effects run now: a fault from here on is its.
#[inline]
pub fn acting(a: usize) {
    ACTION.set(a as u16);
}

/// The action whose effects ran when the fault came (`NO_ACTION`: the setup's lines, or
/// a step entered before any action ran).
#[inline]
pub fn action() -> u16 {
    ACTION.get()
}

/// Spends `units` of the move's work; `false` (and a [`Fault::Runaway`]) once it is spent.
/// A failed move has none left.
#[inline]
pub fn spend(units: u64) -> bool {
    let left = LEFT.get();
    if left >= units {
        LEFT.set(left - units);
        true
    } else {
        run_out()
    }
}

#[cold]
#[inline(never)]
fn run_out() -> bool {
    fail(Fault::Runaway);
    false
}

/// A move's note as it stands: kept while moves that may never be made are tried on a copy
/// (`keep.rs`), and put back after it.
#[derive(Clone, Copy, Debug)]
pub struct Note {
    left: u64,
    failed: bool,
    fault: Option<Fault>,
    action: u16,
}

/// The move's note, to be put back by [`restore`].
pub fn save() -> Note {
    Note {
        left: LEFT.get(),
        failed: FAILED.get(),
        fault: FAULT.get(),
        action: ACTION.get(),
    }
}

/// Puts a note [`save`] took back: what happened since is forgotten.
pub fn restore(note: Note) {
    LEFT.set(note.left);
    FAILED.set(note.failed);
    FAULT.set(note.fault);
    ACTION.set(note.action);
}

/// Notes a fault (the first one of a move is kept); the move has no work left.
#[cold]
#[inline(never)]
pub fn fail(fault: Fault) {
    if !FAILED.get() {
        FAILED.set(true);
        FAULT.set(Some(fault));
    }
    LEFT.set(0);
}

/// `value` when it lies in the range, else the fault of `a op b` and the nearest bound.
#[inline(always)]
pub fn in_range(value: Option<i64>, op: &'static str, a: i64, b: i64) -> i64 {
    match value {
        Some(v) if (-LIMIT..=LIMIT).contains(&v) => v,
        _ => out_of_range(op, a, b),
    }
}

#[cold]
#[inline(never)]
fn out_of_range(op: &'static str, a: i64, b: i64) -> i64 {
    fail(Fault::Range { op, a, b });
    // The bound on the side the true value lies: the move is void anyway.
    let positive = match op {
        "*" => (a < 0) == (b < 0),
        "-" => a > b,
        _ => a.saturating_add(b) > 0,
    };
    if positive { LIMIT } else { -LIMIT }
}

/// `div(a, b)` / `mod(a, b)` as Euclid's division (the remainder is never negative); a zero
/// divisor is a fault.
#[inline]
pub fn divide(op: &'static str, a: i64, b: i64) -> i64 {
    if b == 0 {
        fail(Fault::DivideByZero { op, a });
        return 0;
    }
    let v = if op == "mod" {
        a.checked_rem_euclid(b)
    } else {
        a.checked_div_euclid(b)
    };
    in_range(v, op, a, b)
}

/// `value` as a seat of a game of `players`; out of range, the fault and seat 0 (the move
/// is void anyway, and no pile or counter is addressed past the seats).
#[inline]
pub fn seat(value: i64, players: u8) -> usize {
    match usize::try_from(value) {
        Ok(s) if s < usize::from(players) => s,
        _ => no_such_seat(value, players),
    }
}

#[cold]
#[inline(never)]
fn no_such_seat(seat: i64, players: u8) -> usize {
    fail(Fault::NoSuchSeat { seat, players });
    0
}

impl Fault {
    /// The diagnostic code the game stops with.
    pub fn code(self) -> &'static str {
        match self {
            Fault::Runaway => "runaway-move",
            Fault::Range { .. } | Fault::Counter { .. } | Fault::FigureCounter { .. } => {
                "number-out-of-range"
            }
            Fault::DivideByZero { .. } => "divide-by-zero",
            Fault::NoSuchSeat { .. } => "no-such-player",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_budget_is_a_runaway_and_stops_every_loop() {
        begin(3);
        assert!(spend(2));
        assert!(spend(1));
        assert!(!spend(1));
        assert!(failed());
        assert_eq!(end(), Some(Fault::Runaway));
        begin(3);
        assert_eq!(end(), None, "a new move starts clean");
    }

    #[test]
    fn the_first_fault_is_kept() {
        begin(10);
        assert_eq!(divide("div", 7, 0), 0);
        assert_eq!(in_range(Some(LIMIT + 1), "+", LIMIT, 1), LIMIT);
        assert_eq!(end(), Some(Fault::DivideByZero { op: "div", a: 7 }));
    }

    #[test]
    fn a_seat_past_the_players_is_a_fault_and_reads_as_seat_0() {
        begin(10);
        assert_eq!(seat(2, 3), 2);
        assert_eq!(end(), None);
        assert_eq!(seat(3, 3), 0);
        assert_eq!(
            end(),
            Some(Fault::NoSuchSeat {
                seat: 3,
                players: 3
            })
        );
        begin(10);
        assert_eq!(seat(-1, 3), 0);
        assert_eq!(
            end(),
            Some(Fault::NoSuchSeat {
                seat: -1,
                players: 3
            })
        );
    }

    #[test]
    fn numbers_in_range_pass_and_divisions_round_down() {
        begin(10);
        assert_eq!(in_range(Some(-LIMIT), "-", 0, LIMIT), -LIMIT);
        assert_eq!(divide("div", -7, 2), -4);
        assert_eq!(divide("mod", -7, 2), 1);
        assert_eq!(end(), None);
        assert_eq!(in_range(None, "*", -LIMIT, LIMIT), -LIMIT);
        assert_eq!(
            end(),
            Some(Fault::Range {
                op: "*",
                a: -LIMIT,
                b: LIMIT
            })
        );
    }
}
