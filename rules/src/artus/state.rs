//! The Artus table: figures on the ring of seats, the turned table, rings, and each player's
//! score, hand and draw piles.
//!
//! Figures are small ids: the Princes first (`0..princes`, in the pack's order), then each
//! player's Knights at the table (`princes + seat * knights_each + i`).

use grail_engine::counts::Counts;
use grail_engine::draw_piles::DrawPiles;
use grail_engine::ring::Ring;
use grail_engine::rng::GameRng;

use super::MAX_PRINCES;

/// A card id (index into `Artus::cards`).
pub type Card = u8;
/// A figure id.
pub type Figure = u8;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) rng: GameRng,
    pub(crate) ring: Ring,
    /// The seat the crown plate is turned to (always the King's seat).
    pub(crate) table: u8,
    /// The Prince who is King.
    pub(crate) king: u8,
    /// Rings on each Prince.
    pub(crate) rings: [u8; MAX_PRINCES],
    pub(crate) supply: u8,
    pub(crate) players: Vec<Player>,
    pub(crate) princes: u8,
    /// Knights each player has at the table.
    pub(crate) knights_each: u8,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    /// Rounds of play completed.
    pub(crate) round: u8,
    /// Turns of play completed (all players).
    pub(crate) turns: u32,
    /// Knights placed so far (all players).
    pub(crate) placed: u8,
    /// Things worth counting in a balance report.
    pub(crate) records: Vec<Record>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    pub(crate) score: i64,
    pub(crate) hand: Counts,
    pub(crate) piles: DrawPiles,
    /// Cards set aside (out of the game), kept for the card count.
    pub(crate) played: Counts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Placing Knights before play.
    Place,
    /// Playing cards; `left` more this turn.
    Play {
        left: u8,
    },
    /// A scoring card was played whose Knights the player now chooses; `left` more cards
    /// after it this turn.
    Choose {
        card: u8,
        left: u8,
    },
    /// Drawing; `left` more this turn, each from a pile of the player's choice.
    Draw {
        left: u8,
    },
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    pub(crate) kind: RecordKind,
    /// A card id or a Prince.
    pub(crate) item: u8,
    pub(crate) turn: u32,
    pub(crate) seat: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// A scoring card with chosen Knights was met.
    Met,
    /// …or could not be, and cost its penalty.
    Penalty,
    /// A Prince was crowned.
    Crowned,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Put the next Knight on an empty seat.
    Place { seat: u8 },
    /// Move a figure `steps` seats, forward if positive, backward if negative.
    Move {
        card: Card,
        figure: Figure,
        steps: i8,
    },
    /// Add a ring to a Prince.
    Ring { card: Card, prince: u8 },
    /// Play a card that scores all Knights or the best one, or (after `Claim`) score the
    /// chosen Knights: bit `i` of `knights` is the player's Knight `i`.
    Score { card: Card, knights: u32 },
    /// Play a card whose Knights the player chooses: with no choice meeting its condition
    /// its penalty applies, else the choice follows (`Score`).
    Claim { card: Card },
    /// Draw the top card of one of the player's piles.
    Draw { pile: u8 },
}

/// What the table saw happen. Hidden cards are never named: a draw names only the pile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Placed {
        seat: u8,
        at: u8,
    },
    Played {
        seat: u8,
        card: Card,
    },
    Moved {
        figure: Figure,
        from: u8,
        to: u8,
        steps: i8,
    },
    Displaced {
        figure: Figure,
        from: u8,
        to: u8,
    },
    TableTurned {
        to: u8,
    },
    RingAdded {
        prince: u8,
        rings: u8,
    },
    Crowned {
        prince: u8,
        old: u8,
        returned: u8,
    },
    /// Chosen (or all, or the best) Knights scored, by their seats.
    KnightsScored {
        seats: Vec<u8>,
    },
    Penalty {
        card: Card,
    },
    Points {
        seat: u8,
        points: i64,
        total: i64,
    },
    Tiles {
        seat: u8,
        change: i64,
    },
    Drew {
        seat: u8,
        pile: u8,
    },
    GameOver,
}

impl State {
    pub(crate) fn player(&self, seat: u8) -> &Player {
        &self.players[usize::from(seat)]
    }

    /// The figure id of Knight `i` of `seat`.
    #[inline]
    pub(crate) fn knight(&self, seat: u8, i: u8) -> Figure {
        self.princes + seat * self.knights_each + i
    }

    /// The owner and index of a Knight figure; `None` for a Prince.
    #[inline]
    pub(crate) fn knight_of(&self, figure: Figure) -> Option<(u8, u8)> {
        let k = figure.checked_sub(self.princes)?;
        Some((k / self.knights_each, k % self.knights_each))
    }

    /// The seats of `seat`'s Knights at the table, by Knight index.
    pub(crate) fn knight_seats(&self, seat: u8) -> impl Iterator<Item = (u8, u8)> + '_ {
        (0..self.knights_each)
            .filter_map(move |i| self.ring.seat_of(self.knight(seat, i)).map(|s| (i, s)))
    }

    pub(crate) fn king_seat(&self) -> u8 {
        self.ring.seat_of(self.king).unwrap_or(0)
    }
}
