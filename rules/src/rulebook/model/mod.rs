//! The compiled description: every name is an index, every expression a small tree over
//! indices. Nothing here is looked up by string while a game runs.

use grail_schema::model::{Layout, TableListing, Visibility};

use super::syntax::Op;

mod board;
pub use board::*;

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
    /// Starts with cards (`start`); a zone per seat: each seat its own copy of them.
    pub starts: bool,
    /// The cards it starts with, every copy of each: their types counted from
    /// `types.start` (all of them for `start = "all"`).
    pub start: Vec<u16>,
    /// For a stack: the table zone shuffled into it when it runs out.
    pub refill: Option<usize>,
    /// The balance report's kind for cards coming into this zone.
    pub tally: Option<String>,
    /// Marks each seat may place on its cards; a marked card is stored as its type plus
    /// `(seat + 1) << MARK_SHIFT`.
    pub marks: Option<i64>,
    /// Some effect turns its piles up (`turn up Z`) or shows them to a seat (`show Z to
    /// S`): a card laid on an empty pile of it turns the pile down again, seen by no one.
    pub turned: bool,
    /// The attribute the table shows beside each card (`shows = "bp"`: `lance(20)`).
    pub shows: Option<usize>,
    /// Whether the table lists it (`table = "held"`).
    pub listing: TableListing,
}

/// A tally entry (`State::tallies`) counting a role given, not a card coming into a zone:
/// this bit with the role's index in place of the zone, the figure's card in place of the card.
pub const ROLE_TALLY: u16 = 0x8000;

/// A tally entry counted by a `tally` line: this bit with the line's entry in the
/// rulebook's `effect_tallies` in place of the zone.
pub const EFFECT_TALLY: u16 = 0x4000;

/// Where a card's mark (its seat + 1) sits in a pile entry; the type is below it.
/// How deep stages entered from steps nest (the state keeps where each returns to).
pub const MAX_NESTING: usize = 4;

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
    /// The seat a seat expression names (`tricks(winner)`, `points(owner(figure))`): its
    /// index in the rulebook's `seat_exprs`, so a zone reference stays a small copy.
    Seat(u16),
}

/// A seat as a value (`seats.rs`): seats are numbered from 0 in turn order.
#[derive(Debug, Clone)]
pub enum SeatExpr {
    /// The player to move.
    Current,
    /// The seat a score, a worth or a `for each` is computed for.
    Player,
    /// The seat after (`left`) or before (`right`) one, in turn order.
    Left(Box<Expr>),
    Right(Box<Expr>),
    /// The seat for which an expression over `P` is largest (`highest`) or smallest
    /// (`lowest`); among equals the first in turn order from the player to move.
    Highest(Box<Expr>),
    Lowest(Box<Expr>),
}

/// `[steps.*] who`: the seats that decide a step, one after another in turn order.
#[derive(Debug)]
pub struct Deciders {
    pub seats: SeatSet,
    /// An offer: the step ends when one of them takes an action (else when all have).
    pub first: bool,
    /// Where the order starts (`from`); by default the player to move, or the seat after
    /// them for `others`.
    pub from: Option<Expr>,
    /// One seat decides, the one `from` names (`who = "sponsor"`), as written for the help.
    pub one: Option<String>,
}

/// The seats a `for each` goes through, in turn order from the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatSet {
    /// Every seat, the player to move first.
    Each,
    /// Every seat but the player to move, from the one after them.
    Others,
}

#[derive(Debug, Clone)]
pub struct ZoneRef {
    pub zone: usize,
    pub who: Who,
    /// The row of a `rows` zone; `None`: all its rows.
    pub row: Option<Box<Expr>>,
}

/// A situational attribute read: the card, the zones whose cards make the situation (each
/// at the offset of its set among the set's `when_over`), and the attribute's base values and
/// overrides.
#[derive(Debug, Clone)]
pub struct Situated {
    pub card: Expr,
    pub zones: Vec<(ZoneRef, usize)>,
    /// How many card types the situation counts (the `when_over` sets' together).
    pub size: usize,
    pub values: grail_engine::situational::Situational,
}

/// The most card types a situation counts.
pub const SITUATION_TYPES: usize = 256;

/// `rising(n, above, Z, lead, member, value[, G])`: can `n` groups be made from `Z`, each
/// one card meeting `lead` and any meeting `member` (no two the same card), each worth (the
/// sum of `value`) more than the one before and the first more than `above`; with `G`, the
/// first is the group begun there. `lead`, `member` and `value` read each card as `card`.
#[derive(Debug, Clone)]
pub struct Rising {
    pub n: Expr,
    pub above: Expr,
    pub from: ZoneRef,
    pub lead: Expr,
    pub member: Expr,
    pub value: Expr,
    pub seed: Option<ZoneRef>,
    /// Where each card type's role (its `lead`, `member` and `value`) is kept per decision,
    /// one part per type from this one on (`kept_parts.rs`), when it is.
    pub roles: Option<u32>,
    /// The zones the roles read, when they read nothing else but the card (the Quests
    /// draft: the quest shown): the roles are then kept from decision to decision while those
    /// zones hold the same cards (`rising.rs`; set by `fast.rs`, the last stage).
    pub role_zones: Option<RoleZones>,
}

/// The zones a search's card roles read ([`Rising::role_zones`]), and the number of its roles
/// (searches with the same `lead`, `member` and `value` have the same).
#[derive(Debug, Clone)]
pub struct RoleZones {
    pub id: u32,
    pub zones: Box<[ZoneRef]>,
}

#[derive(Debug, Clone)]
pub enum Expr {
    Const(i64),
    /// The action's card parameter (a type index).
    Card,
    /// The action's row parameter (the row's key), or its seat of the ring (`seat`).
    Row,
    /// The action's player parameter (`target`).
    Target,
    /// The card parameter an action was given this turn; -1 if not done.
    ActionCard(usize),
    Done(usize),
    Attr {
        set: usize,
        attr: usize,
        card: Box<Expr>,
    },
    /// `bp(card, quest + allies(P))`: a card's attribute in the situation the zones make
    /// (its cards' `overrides`, `situational.rs`).
    Situational(Box<Situated>),
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
    /// `top_card(Z)`: a zone's last card (the top of a stack, the end of a row), itself, as
    /// a card value (`title(top_card(shown))`, `tally "quest drawn" top_card(shown)`); no
    /// card (-1) when the zone is empty.
    TopCard(ZoneRef),
    /// `top(k, attr, Z)`: the sum of the `k` highest values of an attribute among a zone's
    /// cards (all of them when it holds fewer; none when `k` is 0 or less).
    Top {
        k: Box<Expr>,
        attr: usize,
        zone: ZoneRef,
    },
    /// `rising(n, above, Z, lead, member, value[, G])`: whether `n` groups rising in worth
    /// can be made from `Z` (`rising.rs`).
    Rising(Box<Rising>),
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
    Figures(FigureExpr),
    /// A counter, a role's holder, `min`/`max` (`counters.rs`).
    Counter(CounterExpr),
    /// A seat (`seats.rs`).
    Seat(SeatExpr),
    Bin(Op, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    /// A part read once per decision and seat (`memo.rs`): its number, and the part.
    Memo(u32, Kept),
    /// An expression compiled to a closure, the last stage of compiling (`fast.rs`).
    Fast(Compiled),
}

/// The expressions directly inside an expression (not those of zone references), for
/// [`Expr::each_child`] and [`Expr::each_child_mut`] alike: the match is written once, and
/// binds by `&` or `&mut` as the expression it is given.
macro_rules! children {
    ($e:expr, $f:expr $(, $m:tt)?) => {
        match $e {
            Expr::Attr { card, .. } => $f(card),
            Expr::Situational(s) => $f(&$($m)? s.card),
            Expr::Top { k, .. } => $f(k),
            Expr::Rising(r) => {
                $f(&$($m)? r.n);
                $f(&$($m)? r.above);
                $f(&$($m)? r.lead);
                $f(&$($m)? r.member);
                $f(&$($m)? r.value);
            }
            Expr::If(c, a, b) => {
                $f(c);
                $f(a);
                $f(b);
            }
            Expr::Best { body, .. } => $f(body),
            Expr::Cheapest { card: Some(c), .. } => $f(c),
            Expr::Marked(x) | Expr::Mine(x) | Expr::Not(x) => $f(x),
            Expr::Memo(_, part) => $f(&$($m)? part.0),
            Expr::Fast(fast) => $f(&$($m)? *fast.expr),
            Expr::Bin(_, l, r) => {
                $f(l);
                $f(r);
            }
            Expr::Figures(
                FigureExpr::Empty(x)
                | FigureExpr::Plate(x)
                | FigureExpr::SeatOf(x)
                | FigureExpr::Occupant(x)
                | FigureExpr::Owner(x)
                | FigureExpr::CardAttr { figure: x, .. }
                | FigureExpr::CardOf { figure: x, .. },
            ) => $f(x),
            Expr::Counter(
                CounterExpr::Min(a, b)
                | CounterExpr::Max(a, b)
                | CounterExpr::Div(a, b)
                | CounterExpr::Mod(a, b)
                | CounterExpr::Odds(a, b),
            ) => {
                $f(a);
                $f(b);
            }
            Expr::Counter(
                CounterExpr::Others(x)
                | CounterExpr::Each(x)
                | CounterExpr::Read(CounterRef::Figure(_, x)),
            ) => $f(x),
            Expr::Seat(
                SeatExpr::Left(x) | SeatExpr::Right(x) | SeatExpr::Highest(x) | SeatExpr::Lowest(x),
            ) => $f(x),
            _ => {}
        }
    };
}

impl Expr {
    /// Calls `f` on each expression directly inside this one (a walk over the tree calls it
    /// again on each).
    pub fn each_child(&self, f: &mut impl FnMut(&Expr)) {
        children!(self, f)
    }

    /// [`Expr::each_child`], to change them.
    pub fn each_child_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        children!(self, f, mut)
    }

    /// The expression as written, when it was compiled to a closure (`fast.rs`): what an
    /// analysis of its shape reads.
    #[inline(always)]
    pub fn written(&self) -> &Expr {
        match self {
            Expr::Fast(c) => &c.expr,
            e => e,
        }
    }

    /// An `and`/`or` node as written, when it was compiled to a closure (`fast.rs`): what
    /// walks a guard's chain of conjuncts reads; anything else as it is.
    #[inline(always)]
    pub fn spine(&self) -> &Expr {
        match self {
            Expr::Fast(c) if matches!(*c.expr, Expr::Bin(Op::And | Op::Or, ..)) => &c.expr,
            e => e,
        }
    }
}

/// The part an [`Expr::Memo`] keeps. Written out (`Debug`) by its number alone: what a part
/// is, written out, names the parts kept inside it by number (`kept_parts.rs`).
#[derive(Clone)]
pub struct Kept(pub Box<Expr>);

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("…")
    }
}

/// An expression compiled to a closure (`fast.rs`): the closure's number among the
/// rulebook's, and the expression, which every pass but evaluation reads. Written out
/// (`Debug`) as the expression.
#[derive(Clone)]
pub struct Compiled {
    pub code: u32,
    pub expr: Box<Expr>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.expr.fmt(f)
    }
}

/// A condition with the text it was written in, which refusals and the help say in words.
#[derive(Debug)]
pub struct Guard {
    pub expr: Expr,
    pub text: String,
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
    /// A player (`target = "seat in others"`), from 0, read as `target`; the seats are the
    /// set's from the seat deciding.
    Player(SeatSet),
    /// A player and a card of a zone read with them (`card = "card in allies(target)"`): the
    /// card is drawn from the zone as the player named sees it, so `use mordred P2
    /// sir-gawain` names one of P2's allies. Listed player by player, from the seat
    /// deciding, and for each their cards in zone order.
    PlayerCard {
        set: SeatSet,
        card: ZoneRef,
    },
    /// A number from `low` to `high` (`number = "1..12"`), read as `number`; listed rising.
    /// It travels in the arguments' place slot (`Args::of_number`): an action has one
    /// parameter besides a card.
    Number {
        low: u8,
        high: u8,
    },
    /// A figure on the ring of one of these kinds (and owners), with a distance from
    /// `steps` when the action has one.
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

/// The largest number a `number` parameter takes (255 is an empty argument).
pub const MOST_NUMBER: u8 = 254;

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
    /// A card named otherwise (`move crown-of-camelot from Z to Z2`): its first copy in
    /// `from`'s piles; nothing when none lies there.
    MoveNamed {
        card: Expr,
        from: ZoneRef,
        to: ZoneRef,
    },
    Draw {
        count: Arg,
        from: ZoneRef,
        to: ZoneRef,
    },
    /// `draw N at random from Z to Z2`: each card drawn any of the pile's with the same chance
    /// (the game's generator), none refilled.
    DrawAtRandom {
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
    /// `turn up Z` / `turn down Z`: the piles of `Z` (every seat's, for `Z(each)`) seen by
    /// every seat, or by whom their zone's `visible` says again.
    Turn {
        zone: ZoneRef,
        up: bool,
    },
    /// `show Z to S`: the piles of `Z` seen by seat `S` as well, until each is emptied.
    Show {
        zone: ZoneRef,
        to: Who,
    },
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
        to: CounterRef,
    },
    /// `give R to F`: the role to that figure.
    Give {
        role: usize,
        figure: Arg,
    },
    /// `set C to N`: a counter to a value (a seat, a suit, a count).
    Set {
        value: Arg,
        to: CounterRef,
    },
    /// `tally <kind> [card]`: an entry of the balance report for the seat the line runs for
    /// (`entry` indexes the rulebook's `effect_tallies`: the kind and the card's set).
    Tally {
        entry: u16,
        item: Option<Expr>,
    },
    /// `for each P in <seats> [from <seat>]: <effect>`: the effect once per seat, `P` naming
    /// it, in turn order from the player to move (`others`: from the one after), or from the
    /// seat `from` names (`others` still leaves the player to move out).
    ForEach {
        seats: SeatSet,
        from: Option<Expr>,
        body: Box<Effect>,
    },
    /// An effect with `if <condition>`.
    If {
        cond: Arg,
        then: Box<Effect>,
    },
}

impl Effect {
    /// What a line does, under its `if` and its `for each`.
    pub fn innermost(&self) -> &Effect {
        let mut e = self;
        loop {
            match e {
                Effect::If { then: inner, .. } | Effect::ForEach { body: inner, .. } => e = inner,
                _ => return e,
            }
        }
    }
}

/// An undefined number (`cheapest` with no payment); arithmetic keeps it undefined.
pub const NONE: i64 = i64::MIN;

/// The condition a payment meets.
#[derive(Debug, Clone)]
pub enum Meets {
    /// A named condition of the pack; `source` as written, `words` for players.
    Named {
        program: Box<grail_engine::cond::Program>,
        source: String,
        words: String,
        /// The condition's arguments by name (`power`), in the order the payment gives them.
        arg_names: Vec<String>,
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
    /// The word between the player and the card in its moves (`pray for P3 with piety`).
    pub before_card: Option<String>,
    pub guard: Option<Guard>,
    pub effects: Vec<Effect>,
    /// Where its card parameter ends up is public: the move may name it to everyone.
    pub reveals: bool,
    /// What it costs, chosen as a `pay …` move after the action.
    pub pay: Option<Pay>,
    /// Figures chosen by where they stand, as the move after it (`figure_choice.rs`).
    pub choose: Option<Choose>,
    /// What a false guard means, for players: a text with holes (`texts.rs`; `{card}` shows
    /// the card's name, `$param`s their values).
    pub why: Option<Vec<Piece>>,
    /// What a move naming a card not where it is drawn from is told (`missing`), as `why`.
    pub missing: Option<Vec<Piece>>,
    /// `file:line:column` of its `do` lines, for a move that fails (`fault.rs`), and the
    /// lines themselves, for lint's error.
    pub place: String,
    pub loc: grail_schema::model::Loc,
    /// A standing action's window (`standing`): offered at every decision of the seat
    /// deciding while it holds (`flow.rs`), as written for the help and refusals.
    pub standing: Option<(Expr, String)>,
}

#[derive(Debug)]
pub struct Step {
    pub name: String,
    pub actions: Vec<usize>,
    /// `pass` is offered after the actions.
    pub optional: bool,
    /// The word for leaving it out, when not `pass` (`pass = "decline"`).
    pub pass: Option<String>,
    pub prompt: Option<String>,
    /// Offered card by card (all its actions draw from one zone).
    pub by_card: bool,
    /// How many actions it takes (`repeat`); `None`: one.
    pub repeat: Option<Expr>,
    /// `repeat` as written, for the help.
    pub repeat_text: Option<String>,
    /// `repeat = "while <condition>"`: `repeat` is a condition, asked before each action (a
    /// step whose condition is false is passed by, silently: a loop run no times).
    pub repeat_while: bool,
    /// Its only move is made at once (`auto`).
    pub auto: bool,
    /// Who decides it, when not the player to move (`who`).
    pub who: Option<Deciders>,
    /// A step that enters a stage instead of offering actions (`"stage:<name>"`, `dispatch`).
    pub enter: Option<Enter>,
    /// `keep`: what each of its moves must leave true to be offered (`keep.rs`), and its
    /// text (for the words of a refusal).
    pub keep: Option<(Expr, String)>,
    /// Where its stage names it, for lint's error when the game sticks there.
    pub loc: grail_schema::model::Loc,
}

/// Which stage a step enters: `on` read when the step is reached, the stage of the first
/// case equal to it, else `otherwise`; without `on`, `otherwise` always (`"stage:<name>"`).
/// Stages are indices into `Rulebook::stages`.
#[derive(Debug)]
pub struct Enter {
    pub on: Option<Expr>,
    pub cases: Vec<(i64, usize)>,
    pub otherwise: Option<usize>,
    /// What it enters, for the help (`enters \`quest\``).
    pub text: String,
}

impl Step {
    /// A step offering nothing, taken once by the player to move: what the fields of a
    /// step's table change.
    pub fn plain(name: String, loc: grail_schema::model::Loc) -> Step {
        Step {
            name,
            actions: Vec::new(),
            optional: false,
            pass: None,
            prompt: None,
            by_card: false,
            repeat: None,
            repeat_text: None,
            repeat_while: false,
            auto: false,
            who: None,
            enter: None,
            keep: None,
            loc,
        }
    }
}

#[derive(Debug)]
pub struct Counter {
    pub name: String,
    pub owned: bool,
    /// Its start value by player count (index).
    pub start: Vec<i64>,
    /// Where its value lives in a state's `Counts`: `slot + seat * stride` (`stride` 0 for
    /// the table's).
    pub slot: usize,
    pub stride: usize,
    /// Its points climb another counter's ranks (`climbs`).
    pub climb: Option<Climb>,
    /// Words for its values from 0, as the table shows them (`names`).
    pub names: Vec<String>,
    /// Whether the table lists it (`table = "never"`).
    pub listing: TableListing,
}

/// A ladder (`[counters.shields] climbs = "rank"`, `needs = [5, 7, 10]`): adding points
/// raises the rank counter each time they reach what its rank needs, the surplus carried
/// over; taking points away stops at 0 and never lowers the rank (the engine's
/// [`Ladder`](grail_engine::ladder::Ladder), by player count, as `needs` may name params).
#[derive(Debug)]
pub struct Climb {
    /// The rank counter (same owner).
    pub rank: usize,
    /// The ladder for each player count (index).
    pub ladders: Vec<grail_engine::ladder::Ladder>,
}

/// A counter as an expression or effect names it.
#[derive(Debug, Clone)]
pub enum CounterRef {
    Table(usize),
    Seat(usize, Who),
    /// A figure's counter (index into the ring's counters), of the figure an expression gives.
    Figure(usize, Box<Expr>),
}

#[derive(Debug, Clone)]
pub enum CounterExpr {
    Read(CounterRef),
    /// The figure holding a role.
    Holder(usize),
    /// The seat holding a card's role (`[roles.*] holds`, index into `card_roles`): the seat
    /// in whose zones the card lies, -1 when none.
    CardHolder(usize),
    Min(Box<Expr>, Box<Expr>),
    Max(Box<Expr>, Box<Expr>),
    /// How many play.
    Players,
    /// A param given per player count (`[params.by-players]`), read as `$name`: its value
    /// by the player count (index: how many play).
    ByPlayers(Box<[i64]>),
    /// The turn's number (from 1; stages before the turns do not count).
    Turn,
    /// An expression over `P`, summed over every seat but `P`.
    Others(Box<Expr>),
    /// An expression over `P`, summed over every seat (`each(count(honor(P)))`), anywhere.
    Each(Box<Expr>),
    /// `div(a, b)`: rounded down (0 when `b` is 0); `mod(a, b)`: from 0 to `b - 1`.
    Div(Box<Expr>, Box<Expr>),
    Mod(Box<Expr>, Box<Expr>),
    /// `odds(x, spread)`: the logistic chance, in thousandths, that a margin of `x` holds
    /// up, `spread` the margin that multiplies the odds by e (`engine::odds`).
    Odds(Box<Expr>, Box<Expr>),
    /// `over`: the game has ended.
    Over,
    /// `taken`: the actions taken so far at the step being played (`repeat`).
    Taken,
    /// `step(name)`: the game is at that step (a mask of step indices).
    AtStep(u64),
}

#[derive(Debug)]
pub enum Piece {
    Text(String),
    /// A value, shown as a number, a card's id or a named attribute's name.
    Value(Expr, Shown),
    /// A card's name for players.
    Name(Expr, usize),
    /// The seat to move (`current`) or the query's (`P`), as `P1`.
    Seat(Who),
    /// The first part whose condition holds, else the last (`else`) part.
    Choice(Vec<(Expr, Vec<Piece>)>, Vec<Piece>),
    /// The part once for each seat, in seat order (P1, P2, …), with `P` bound to it.
    ForSeats(Vec<Piece>),
    /// The part once for each figure of a kind (of an owner).
    ForEach {
        kind: usize,
        who: Who,
        body: Vec<Piece>,
    },
}

#[derive(Debug, Clone, Copy)]
pub enum Shown {
    Number,
    /// A card of this set, by its id.
    Card(usize),
    /// A named attribute of this set: its name.
    Symbol(usize, usize),
}

#[derive(Debug)]
pub struct Stage {
    pub name: String,
    /// Entered from a step (`Step::enter`), not played before the turns.
    pub sub: bool,
    /// A stage entered from a step: played again while this holds when its steps are over.
    pub repeat: Option<Expr>,
    /// `repeat` as written, for the help.
    pub repeat_text: Option<String>,
    /// Its steps are `first_step..first_step + len` of the rulebook's steps.
    pub first_step: usize,
    pub len: usize,
    /// Rounds by player count (index).
    pub rounds: Vec<i64>,
    pub from_last: bool,
    pub backward: bool,
}

/// An effect's number or condition: as written, and read directly when its shape allows.
#[derive(Debug)]
pub struct Arg {
    pub expr: Expr,
    pub direct: Option<Direct>,
}

/// An expression of the shapes effects use most.
#[derive(Debug)]
pub enum Direct {
    Const(i64),
    /// The action's figure parameter and its distance (`figure`, `steps`).
    Figure,
    Steps,
    /// The figure holding a role (`holder(king)`).
    Holder(usize),
    /// The turn's number and how many play (`turn`, `players`: an end condition).
    Turn,
    Players,
    /// Figures were chosen for the action (`chosen`).
    Chosen,
    /// A counter summed over the figures of a kind (`total(rings, prince)`).
    Total {
        counter: usize,
        kind: usize,
        who: Who,
    },
    /// A sum of counters compared with a number (`total(rings, prince) < 10`): one reading.
    TotalCompared {
        counter: usize,
        kind: usize,
        who: Who,
        op: Op,
        bound: i64,
    },
    /// A figure's counter (`rings(figure)`).
    Counter {
        counter: usize,
        figure: Box<Direct>,
    },
    /// An attribute of the plate in front of a figure's seat (`value(plate(seat(figure)))`).
    PlateAttr {
        set: usize,
        attr: usize,
        figure: Box<Direct>,
    },
    /// `sum`/`most`/`best_figure` of a plate attribute (`best_figure(value,
    /// plates(knight(current)))`, the best Knight a scoring card names).
    Plates(PlateRead),
    Not(Box<Direct>),
    Min(Box<Direct>, Box<Direct>),
    Max(Box<Direct>, Box<Direct>),
    Bin(Op, Box<Direct>, Box<Direct>),
}
