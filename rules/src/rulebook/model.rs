//! The compiled description: every name is an index, every expression a small tree over
//! indices. Nothing here is looked up by string while a game runs.

use grail_schema::model::{Layout, Visibility};

use super::syntax::Op;

/// One card set as the rulebook reads it.
#[derive(Debug)]
pub struct CardSet {
    pub id: String,
    /// Card ids by type.
    pub cards: Vec<String>,
    pub copies: Vec<u8>,
    pub attrs: Vec<String>,
    /// `values[attr][type]`: a number, or a symbol's index in its domain.
    pub values: Vec<Vec<i64>>,
    /// Symbol names by attribute (empty for numbers).
    pub symbols: Vec<Vec<String>>,
}

#[derive(Debug)]
pub struct Zone {
    pub name: String,
    pub set: usize,
    pub layout: Layout,
    pub visible: Visibility,
    /// One zone per seat.
    pub owned: bool,
    /// For `rows`: the attribute keying the rows; its symbols name them.
    pub by: Option<usize>,
    /// 1 unless `rows`.
    pub rows: usize,
    /// Where its piles start: among the table's piles, or inside each seat's block.
    pub first: usize,
    /// Starts with every copy of its set; a zone per seat: each seat its own copy.
    pub start_all: bool,
}

/// Whose zone an expression or effect means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Table,
    Current,
    /// The player an `[end]` score or `[bot]` worth is computed for.
    Player,
    /// Every seat (only as the target of `deal`).
    Each,
}

#[derive(Debug)]
pub struct ZoneRef {
    pub zone: usize,
    pub who: Who,
    /// The row of a `rows` zone; `None`: all its rows.
    pub row: Option<Box<Expr>>,
}

#[derive(Debug)]
pub enum Expr {
    Const(i64),
    /// The action's card parameter (a type index).
    Card,
    /// The action's row parameter (the row's key).
    Row,
    /// The card parameter an action was given this turn; -1 if not done.
    ActionCard(usize),
    Done(usize),
    Attr {
        set: usize,
        attr: usize,
        card: Box<Expr>,
    },
    Count(ZoneRef),
    Sum {
        attr: usize,
        zone: ZoneRef,
    },
    /// The attribute of a zone's last card (the top of a stack, the end of a row); 0 when
    /// the zone is empty.
    Last {
        attr: usize,
        zone: ZoneRef,
    },
    /// How many rows of a `rows` zone hold a card.
    NonEmpty(ZoneRef),
    /// A read of the ring and its figures (`ring.rs`).
    Figures(super::ring::FigureExpr),
    /// A counter, a role's holder, `min`/`max` (`counters.rs`).
    Counter(super::counters::CounterExpr),
    Bin(Op, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
}

/// A condition with the words it was written in, for refusals.
#[derive(Debug)]
pub struct Guard {
    pub expr: Expr,
    pub text: String,
    /// `file:line:column` of the guard.
    pub place: String,
}

#[derive(Debug)]
pub enum Param {
    None,
    /// A card drawn from a zone.
    Card(ZoneRef),
    /// A row of a `rows` zone that holds a card.
    Row {
        zone: usize,
        who: Who,
    },
    /// A seat of the ring (its number).
    Seat,
    /// A figure on the ring of one of these kinds (and owners), with a distance from
    /// `steps` when the action has one (packed with the figure: `ring::FigureArg`).
    Figure {
        refs: Vec<(usize, Who)>,
        steps: Vec<i8>,
    },
}

#[derive(Debug)]
pub enum Effect {
    Shuffle(ZoneRef),
    Deal {
        count: Expr,
        from: ZoneRef,
        to: usize,
    },
    /// The card parameter, from its zone.
    Move {
        to: ZoneRef,
    },
    Draw {
        count: Expr,
        from: ZoneRef,
        to: ZoneRef,
    },
    /// The player to move's next figure of a kind not yet on the ring, onto a seat.
    Place {
        kind: usize,
        seat: Expr,
    },
    /// A figure steps round the ring (backward when negative), displacing whoever sits
    /// where it lands.
    Step {
        figure: Expr,
        by: Expr,
    },
    /// `add N to C`.
    Add {
        amount: Expr,
        to: super::counters::CounterRef,
    },
    /// `give R to F`: the role to that figure.
    Give {
        role: usize,
        figure: Expr,
    },
    /// An effect with `if <condition>`.
    If {
        cond: Expr,
        then: Box<Effect>,
    },
}

#[derive(Debug)]
pub struct Action {
    pub name: String,
    pub param: Param,
    pub guard: Option<Guard>,
    pub effects: Vec<Effect>,
    /// Where its card parameter ends up is public: the move may name it to everyone.
    pub reveals: bool,
}

#[derive(Debug)]
pub struct Step {
    pub name: String,
    pub actions: Vec<usize>,
    /// How many actions it takes (`repeat`); `None`: one.
    pub repeat: Option<Expr>,
}
