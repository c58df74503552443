//! What a move names besides its action, typed: the card, the row or ring seat, the player,
//! the figure and its distance. Each slot is empty unless the action has that parameter
//! (`model::Param`), and each parameter an expression names reads a slot of its own: `card`,
//! `row` and `seat`, `target`, `figure` and `steps`. So one move may name a card and a
//! player, or a card and a figure, without packing one into the other.

/// A move's arguments: 6 bytes and `Copy`, so a move stays 16 (`state::Action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Args {
    /// A card entry: its type, and its mark above `model::MARK_SHIFT`.
    card: u16,
    /// A row of a `rows` zone, a seat of the ring, or a number.
    place: u8,
    /// A player: a seat of the game, from 0.
    player: u8,
    /// A figure on the ring (its index) and the distance it goes.
    figure: u8,
    steps: i8,
}

const NO_CARD: u16 = u16::MAX;
const EMPTY: u8 = u8::MAX;

impl Args {
    /// No parameter.
    pub const NONE: Args = Args {
        card: NO_CARD,
        place: EMPTY,
        player: EMPTY,
        figure: EMPTY,
        steps: 0,
    };

    /// A card entry.
    #[inline(always)]
    pub fn of_card(entry: u16) -> Args {
        Args {
            card: entry,
            ..Args::NONE
        }
    }

    /// A card entry, or none for a negative one (an expression's "no card").
    #[inline(always)]
    pub fn of_entry(entry: i32) -> Args {
        u16::try_from(entry).map_or(Args::NONE, Args::of_card)
    }

    /// A row key or a seat of the ring.
    #[inline(always)]
    pub fn of_place(place: usize) -> Args {
        Args::NONE.with_place(place)
    }

    /// A number (`number = "1..12"`): kept where a row or ring seat is, as an action has
    /// only one of them.
    #[inline(always)]
    pub fn of_number(n: u8) -> Args {
        Args::NONE.with_place(usize::from(n))
    }

    /// A player.
    #[inline(always)]
    pub fn of_player(seat: usize) -> Args {
        Args::NONE.with_player(seat)
    }

    /// A figure and its distance.
    #[inline(always)]
    pub fn of_figure(figure: u8, steps: i8) -> Args {
        Args::NONE.with_figure(figure, steps)
    }

    /// These and a figure with its distance.
    #[inline(always)]
    pub fn with_figure(self, figure: u8, steps: i8) -> Args {
        Args {
            figure,
            steps,
            ..self
        }
    }

    /// These and a card entry.
    #[inline(always)]
    pub fn with_card(self, entry: u16) -> Args {
        Args {
            card: entry,
            ..self
        }
    }

    /// These and a row key or seat of the ring.
    #[inline(always)]
    pub fn with_place(self, place: usize) -> Args {
        Args {
            place: u8::try_from(place).unwrap_or(EMPTY),
            ..self
        }
    }

    /// These and a player.
    #[inline(always)]
    pub fn with_player(self, seat: usize) -> Args {
        Args {
            player: u8::try_from(seat).unwrap_or(EMPTY),
            ..self
        }
    }

    /// The card entry, or -1.
    #[inline(always)]
    pub fn card(self) -> i32 {
        if self.card == NO_CARD {
            -1
        } else {
            i32::from(self.card)
        }
    }

    /// The row key or ring seat, or -1.
    #[inline(always)]
    pub fn place(self) -> i32 {
        slot(self.place)
    }

    /// The number (`number`), or -1.
    #[inline(always)]
    pub fn number(self) -> i32 {
        slot(self.place)
    }

    /// The player, or -1.
    #[inline(always)]
    pub fn player(self) -> i32 {
        slot(self.player)
    }

    /// The figure's index (255 without one: no figure has it).
    #[inline(always)]
    pub fn figure(self) -> u8 {
        self.figure
    }

    /// The distance the figure goes (0 without one).
    #[inline(always)]
    pub fn steps(self) -> i8 {
        self.steps
    }

    /// What a state keeps of an action done this turn, and `action.card` reads: its card;
    /// without one, the arguments [`packed`](Args::packed).
    #[inline(always)]
    pub fn kept(self) -> i32 {
        if self.card == NO_CARD {
            self.packed()
        } else {
            i32::from(self.card)
        }
    }

    /// The one integer a move carried before its arguments were typed: what a state holding
    /// a move (a payment being chosen, an action done this turn) hashes, so the digests of
    /// saved games and scripts hold. A figure is its index and its distance plus 128 in the
    /// byte above; with a card, above the card's twelve bits; a player with a card (new with
    /// typed arguments) above the card's sixteen.
    pub fn packed(self) -> i32 {
        let figure = || i32::from(self.figure) | ((i32::from(self.steps) + 128) << 8);
        let card = i32::from(self.card);
        match (
            self.card != NO_CARD,
            self.figure != EMPTY,
            self.player != EMPTY,
        ) {
            (true, true, _) => card | (figure() << 12),
            (true, false, true) => card | ((i32::from(self.player) + 1) << 16),
            (true, false, false) => card,
            (false, true, _) => figure(),
            (false, false, true) => i32::from(self.player),
            (false, false, false) => slot(self.place),
        }
    }
}

impl std::hash::Hash for Args {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.packed().hash(state);
    }
}

#[inline(always)]
fn slot(v: u8) -> i32 {
    if v == EMPTY { -1 } else { i32::from(v) }
}

#[cfg(test)]
mod tests {
    use super::Args;

    #[test]
    fn each_parameter_reads_its_own_slot() {
        let a = Args::of_card(0x0203).with_player(2);
        assert_eq!((a.card(), a.player(), a.place()), (0x0203, 2, -1));
        let f = Args::of_card(5).with_figure(7, -3);
        assert_eq!(
            (f.card(), f.figure(), f.steps(), f.player()),
            (5, 7, -3, -1)
        );
        assert_eq!(Args::of_place(4).place(), 4);
        assert_eq!(Args::NONE.card(), -1);
        assert_eq!(Args::of_entry(-1), Args::NONE);
    }

    #[test]
    fn packed_is_the_integer_moves_carried_before() {
        // Digests of saved games hash these: each was how the one `i32` argument held it.
        assert_eq!(Args::NONE.packed(), -1);
        assert_eq!(Args::of_card(0x0103).packed(), 0x0103);
        assert_eq!(Args::of_place(9).packed(), 9);
        assert_eq!(Args::of_player(3).packed(), 3);
        assert_eq!(Args::of_figure(6, -2).packed(), 6 | (126 << 8));
        assert_eq!(
            Args::of_card(4).with_figure(6, 1).packed(),
            4 | ((6 | (129 << 8)) << 12)
        );
    }

    #[test]
    fn a_move_stays_small() {
        assert_eq!(std::mem::size_of::<Args>(), 6);
    }
}
