//! The compiled ring: its seats, plates, figures and roles, and the reads of it in
//! expressions.

use grail_engine::seats::Direction;

use super::{Expr, Meets, Who};

/// The compiled ring, its figures and roles.
#[derive(Debug)]
pub struct Board {
    pub name: String,
    /// The set whose cards are the seats, seat `i` being its card `i`.
    pub seats_set: usize,
    pub seats: usize,
    pub plates: Option<Plates>,
    /// The way round seat numbers rise, a forward step goes, and a displaced figure goes.
    pub numbered: Direction,
    pub forward: Option<Direction>,
    pub displace: Option<Direction>,
    pub kinds: Vec<FigureKind>,
    pub roles: Vec<Role>,
    /// Counter names, over all kinds; each figure carries every counter.
    pub counters: Vec<String>,
    /// The most a kind's figures hold of a counter together (`[figures.*] totals`).
    pub totals: Vec<Total>,
}

/// `[figures.<kind>] totals`: the game has `by_players[n]` of `counter`'s things (rings), so
/// the kind's figures never hold more together.
#[derive(Debug)]
pub struct Total {
    pub kind: usize,
    pub counter: usize,
    /// By player count (index).
    pub by_players: Vec<i64>,
}

/// Plates that turn with the table: the plate at position `at` always faces the figure
/// holding `role`, and positions run along the seats' numbering.
#[derive(Debug)]
pub struct Plates {
    pub set: usize,
    /// Card types by position.
    pub by_position: Vec<u16>,
    pub at: usize,
    pub role: usize,
}

#[derive(Debug)]
pub struct FigureKind {
    pub name: String,
    pub members: Members,
}

#[derive(Debug)]
pub enum Members {
    /// `count` per seat, by player count (index), placed during play.
    Each { count: Vec<u8> },
    /// One per card of `set`, starting on `seats[card]` with `counters[card][counter]`.
    Cards {
        set: usize,
        seats: Vec<u8>,
        counters: Vec<Vec<i16>>,
        /// The cards' display names, for the move notation (`silver@14`).
        names: Vec<String>,
    },
}

/// A role held by whoever holds a card (`[roles.*] holds`, `card_roles.rs`).
#[derive(Debug)]
pub struct CardRole {
    pub name: String,
    /// The zones a seat owns that can hold the card, and the card's type in each.
    pub lies: Vec<(usize, u16)>,
}

#[derive(Debug)]
pub struct Role {
    pub name: String,
    pub kind: usize,
    /// The figure (index within its kind) holding it at the start.
    pub start: usize,
    /// The balance report's kind for each time it is given (`[roles.*] tally`).
    pub tally: Option<String>,
}

/// Reads of the ring in expressions.
#[derive(Debug, Clone)]
pub enum FigureExpr {
    /// Whether a seat is empty.
    Empty(Box<Expr>),
    /// The plate (its card type) in front of a seat.
    Plate(Box<Expr>),
    /// How many figures of a kind (and owner) stand on the ring, or are still off it.
    Count {
        kind: usize,
        who: Who,
        on: bool,
    },
    /// The seat of the figure holding a role.
    RoleSeat(usize),
    /// An attribute of the plates in front of a kind's figures, summed.
    PlateSum {
        attr: usize,
        kind: usize,
        who: Who,
    },
    /// The seat of a figure (-1 off the ring).
    SeatOf(Box<Expr>),
    /// An attribute of the card a figure drawn from a set stands for (-1 for a figure of
    /// another kind).
    CardAttr {
        kind: usize,
        set: usize,
        attr: usize,
        figure: Box<Expr>,
    },
    /// The figure on a seat (-1 when empty).
    Occupant(Box<Expr>),
    /// The seat owning a figure (-1 for a figure of no seat's).
    Owner(Box<Expr>),
    /// A figure counter summed over a kind's figures (of an owner): `total(rings, prince)`.
    Total {
        counter: usize,
        kind: usize,
        who: Who,
    },
    /// The card (its type in `set`) a figure drawn from `kind`'s set stands for; -1 for
    /// another figure.
    CardOf {
        kind: usize,
        figure: Box<Expr>,
    },
    /// The action's figure parameter, and the distance it was given.
    ParamFigure,
    ParamSteps,
    /// `sum`/`most`/`best_figure` of the plates under chosen figures or a kind's
    /// (`figure_choice.rs`).
    Plates(PlateRead),
    /// `chosen`: whether figures were chosen for the action being carried out.
    Chosen,
}

impl FigureExpr {
    pub fn param(name: &str) -> Expr {
        Expr::Figures(if name == "figure" {
            FigureExpr::ParamFigure
        } else {
            FigureExpr::ParamSteps
        })
    }
}

/// `choose = { figures, over, meets, verb }`, compiled.
#[derive(Debug)]
pub struct Choose {
    /// The kind chosen from and whose (the player to move's, or all of an unowned kind).
    pub kind: usize,
    /// The set the figures' situations are cards of (`over`).
    pub set: usize,
    pub who: Who,
    /// The situation type of plate `p` (its card type) in front of seat `s`, at `p * seats + s`.
    pub situation: Vec<u8>,
    pub meets: Meets,
    pub verb: String,
    /// What players call the figures chosen (`Knights`).
    pub name: String,
}

/// Which figures' plates a read covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// A kind's figures on the ring (of an owner).
    Kind(usize, Who),
    /// The figures chosen for the action (`plates(chosen)`).
    Chosen,
}

/// What a read of plates gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// `sum(attr, plates(F))`.
    Sum,
    /// `most(attr, plates(F))`: the largest; 0 when no figure stands on the ring.
    Most,
    /// `best_figure(attr, plates(F))`: the figure on the plate with the largest, the first in
    /// figure order among equals; -1 when none stands on the ring.
    BestFigure,
}

/// `sum`/`most`/`best_figure` of a plate attribute under figures.
#[derive(Clone, Copy, Debug)]
pub struct PlateRead {
    pub attr: usize,
    pub over: Over,
    pub fold: Fold,
}
