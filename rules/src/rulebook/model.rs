//! The compiled description: every name is an index, every expression a small tree over
//! indices. Nothing here is looked up by string while a game runs.

use grail_schema::model::{Layout, Visibility};

use super::direct::Arg;
use super::syntax::Op;

/// One card set as the rulebook reads it.
#[derive(Debug)]
pub struct CardSet {
    pub id: String,
    /// Card ids by type.
    pub cards: Vec<String>,
    /// Card names by type, for players.
    pub names: Vec<String>,
    pub copies: Vec<u8>,
    pub attrs: Vec<String>,
    /// `values[attr][type]`: a number, or a symbol's index in its domain.
    pub values: Vec<Vec<i64>>,
    /// Symbol names by attribute (empty for numbers).
    pub symbols: Vec<Vec<String>>,
    /// For a union of sets (`unions.rs`): each member and where its types start.
    pub members: Vec<(usize, u16)>,
}

#[derive(Debug)]
pub struct Zone {
    pub name: String,
    pub set: usize,
    /// The set its `holds` names (a union's member keeps the union as `set`).
    pub declared: usize,
    /// The types of `set` it holds and starts with: all, or a union member's.
    pub types: std::ops::Range<u16>,
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
    /// For a stack: the table zone shuffled into it when it runs out.
    pub refill: Option<usize>,
    /// The balance report's kind for cards coming into this zone.
    pub tally: Option<String>,
    /// Marks each seat may place on its cards; a marked card is stored as its type plus
    /// `(seat + 1) << MARK_SHIFT`.
    pub marks: Option<i64>,
}

/// A tally entry (`State::tallies`) counting a role given, not a card coming into a zone:
/// this bit with the role's index in place of the zone, the figure's card in place of the card.
pub const ROLE_TALLY: u16 = 0x8000;

/// Where a card's mark (its seat + 1) sits in a pile entry; the type is below it.
pub const MARK_SHIFT: u16 = 8;
pub const TYPE_MASK: u16 = (1 << MARK_SHIFT) - 1;

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
    /// How many cards the fullest row (or pile) of a zone holds.
    Fullest(ZoneRef),
    /// `if(c, a, b)`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `best(Z, e)`: the largest `e` over the distinct cards of `Z` (bound to `card`),
    /// skipping those where it is undefined; 0 when there is none or all are below 0.
    Best {
        zone: ZoneRef,
        body: Box<Expr>,
    },
    /// `cheapest(cond, Z, cost)`: what the cheapest payment from `Z` meeting `cond` costs
    /// (a named condition over the zone's set); undefined ([`NONE`]) when none exists.
    Cheapest {
        meets: Box<Meets>,
        /// The card whose own condition is met (`condition(card)`).
        card: Option<Box<Expr>>,
        from: ZoneRef,
        cost: Box<grail_engine::cond::Program>,
    },
    /// `paying(action)`: the player to move has chosen `action` and is choosing how to pay.
    Paying(usize),
    /// `marked(card)`: the card carries a mark; `mine(card)`: the current player's.
    Marked(Box<Expr>),
    Mine(Box<Expr>),
    /// `marks(current)`: the marks a seat has left to place.
    Marks(Who),
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
    /// A card from a zone and a figure on the ring, with its distances (`params.rs`): both
    /// travel in the action's one argument.
    CardFigure {
        card: ZoneRef,
        refs: Vec<(usize, Who)>,
        steps: Vec<i8>,
    },
}

/// An effect; its numbers and conditions are [`Arg`]s, read directly when their shape allows.
/// A tag byte of its own (no niche in an expression's), so `run` tells the kinds apart with
/// one comparison.
#[derive(Debug)]
#[repr(u8)]
pub enum Effect {
    Shuffle(ZoneRef),
    /// `shuffle A(each) and B(each)`: seat by seat, each seat's zones in the order named (so
    /// the generator is drawn as when each player shuffles their own piles in turn).
    ShuffleSeats(Vec<usize>),
    Deal {
        count: Arg,
        from: ZoneRef,
        to: usize,
    },
    /// The card parameter, from its zone.
    Move {
        to: ZoneRef,
    },
    Draw {
        count: Arg,
        from: ZoneRef,
        to: ZoneRef,
    },
    /// `reveal Z into R until E`: the top card of `Z` goes to its row of the rows zone `R`,
    /// one at a time, until `E` holds or `Z` is empty.
    Reveal {
        from: ZoneRef,
        into: usize,
        until: Expr,
    },
    /// `mark card`: the current player puts a mark on the action's card.
    Mark,
    /// `award marked rows of Z to Z2`: each row of `Z` whose cards all carry marks goes,
    /// card by card, to the zone `Z2` of the card's marker, and the marks back to them.
    Award {
        zone: usize,
        to: usize,
    },
    /// The player to move's next figure of a kind not yet on the ring, onto a seat.
    Place {
        kind: usize,
        seat: Expr,
    },
    /// A figure steps round the ring (backward when negative), displacing whoever sits
    /// where it lands.
    Step {
        figure: Arg,
        by: Arg,
    },
    /// `add N to C`.
    Add {
        amount: Arg,
        to: super::counters::CounterRef,
    },
    /// `give R to F`: the role to that figure.
    Give {
        role: usize,
        figure: Arg,
    },
    /// An effect with `if <condition>`.
    If {
        cond: Arg,
        then: Box<Effect>,
    },
}

/// An undefined number (`cheapest` with no payment); arithmetic keeps it undefined.
pub const NONE: i64 = i64::MIN;

/// The condition a payment meets.
#[derive(Debug)]
pub enum Meets {
    /// A named condition of the pack; `source` as written, `words` for players.
    Named {
        program: Box<grail_engine::cond::Program>,
        source: String,
        words: String,
        /// The dearest value of argument 0 a hand can pay, when the condition can say.
        ceiling: Option<Box<grail_engine::cond::ceiling::Ceiling>>,
    },
    /// `condition(card)`: the card parameter's own condition, by card type.
    Own {
        programs: Vec<Option<grail_engine::cond::Program>>,
        sources: Vec<String>,
        names: Vec<String>,
        /// Which payer types each card's condition reads, for the state's memo.
        readers: Box<grail_engine::cond::affordable::Readers>,
    },
}

/// `pay = { from, meets, args, to }`.
#[derive(Debug)]
pub struct Pay {
    pub from: ZoneRef,
    pub to: ZoneRef,
    pub meets: Meets,
    pub args: Vec<Expr>,
}

#[derive(Debug)]
pub struct Action {
    pub name: String,
    pub param: Param,
    pub guard: Option<Guard>,
    pub effects: Vec<Effect>,
    /// Where its card parameter ends up is public: the move may name it to everyone.
    pub reveals: bool,
    /// What it costs, chosen as a `pay …` move after the action.
    pub pay: Option<Pay>,
    /// Figures chosen by where they stand, as the move after it (`figure_choice.rs`).
    pub choose: Option<super::figure_choice::Choose>,
    /// What a false guard means, for players: a text with holes (`texts.rs`; `{card}` shows
    /// the card's name, `$param`s their values).
    pub why: Option<Vec<super::texts::Piece>>,
    /// `file:line:column` of its `do` lines, for a move that fails (`fault.rs`), and the
    /// lines themselves, for lint's error.
    pub place: String,
    pub loc: grail_schema::model::Loc,
}

#[derive(Debug)]
pub struct Step {
    pub name: String,
    pub actions: Vec<usize>,
    /// `pass` is offered after the actions.
    pub optional: bool,
    pub prompt: Option<String>,
    /// Offered card by card (all its actions draw from one zone).
    pub by_card: bool,
    /// How many actions it takes (`repeat`); `None`: one.
    pub repeat: Option<Expr>,
    /// `repeat` as written, for the help.
    pub repeat_text: Option<String>,
    /// Its only move is made at once (`auto`).
    pub auto: bool,
    /// Where its stage names it, for lint's error when the game sticks there.
    pub loc: grail_schema::model::Loc,
}
