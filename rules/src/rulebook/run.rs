//! Playing a compiled description: the state is piles of card types plus a cursor (whose
//! turn, which step, what was done this turn). `legal_actions` and `apply` evaluate
//! compiled expressions over indices; the only allocation is a pile (or the step's kept
//! listing of moves) growing.

use std::ops::RangeInclusive;

use grail_engine::game::{EventSink, Outcome, Rules, Seat, Setup};
use grail_engine::rng::GameRng;
use grail_schema::model::Layout;

use super::Rulebook;
use super::card_tables::PerBinding;
use super::counters::CounterExpr;
use super::fault::NO_ACTION;
use super::model::{Effect, Expr, MARK_SHIFT, NONE, Param, TYPE_MASK, Who, ZoneRef};
use super::paid::Paid;
use super::payment::Dearest;
use super::ring::{FigureArg, FigureExpr};
use super::syntax::Op;
use grail_engine::cond::solve::Payment;

#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct State {
    /// Card types by pile; the table's piles first, then each seat's block. The last card
    /// of a stack is its top; hands are kept in type order.
    pub(super) piles: Vec<Vec<u16>>,
    pub(super) players: u8,
    pub(super) current: u8,
    /// Index into the turn's steps.
    pub(super) step: u8,
    /// Actions done this turn (bit per action), and each one's parameter.
    pub(super) done: u64,
    pub(super) args: Vec<i32>,
    pub(super) turn: u32,
    pub(super) ended: Option<Ended>,
    pub(super) rng: GameRng,
    /// An action chosen whose payment is being chosen: (action, parameter).
    pub(super) pending: Option<(u16, i32)>,
    /// Cards that came into a tallied zone: (zone, card, turn, seat).
    pub(super) tallies: Vec<(u16, u16, u32, u8)>,
    /// Marks each seat has left to place.
    pub(super) marks: Vec<u8>,
    /// Which cards' own conditions each seat's payer zone can meet, kept between moves.
    pub(super) memo: grail_engine::derived::Derived<super::payment::Memo>,
    /// The ring's figures, counters and roles, when the game has a ring.
    pub(super) figures: super::ring::OnTable,
    /// `[counters.*]`: the table's, then each seat's.
    pub(super) counts: super::counters::Counts,
    /// Actions taken so far at a step that takes several (`repeat`).
    pub(super) reps: Repeats,
    /// A stage before the turns being played, if any (`stages.rs`).
    pub(super) stage: super::stages::StageAt,
    /// The moves of the step the state is at, listed when the step was entered.
    pub(super) listed: grail_engine::derived::Derived<Listed>,
    /// The figures chosen for the action whose effects are running (`figure_choice.rs`).
    pub(super) chosen: super::figure_choice::Chosen,
    /// The cards of the piles payments are made from, by type (`held.rs`).
    pub(super) held: grail_engine::derived::Derived<super::held::Held>,
}

/// The buffers of a finished game's state a new game reuses (`Rulebook::new_state_in`).
#[derive(Default)]
struct Storage {
    piles: Vec<Vec<u16>>,
    args: Vec<i32>,
    tallies: Vec<(u16, u16, u32, u8)>,
    moves: Vec<Action>,
    marks: Vec<u8>,
}

impl Storage {
    fn of(state: State) -> Storage {
        Storage {
            piles: state.piles,
            args: state.args,
            tallies: state.tallies,
            moves: state.listed.0.moves,
            marks: state.marks,
        }
    }
}

/// Hashes nothing at 0, so the digests of games without repeated steps stay as they were.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Repeats(pub u8);

impl std::hash::Hash for Repeats {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if self.0 != 0 {
            self.0.hash(state);
        }
    }
}

/// A step's moves, listed once: entering a step lists them to learn whether it is skipped,
/// and `legal_actions` copies them. Only `advance` makes it fresh; anything else that
/// changes the state (a move, an observation) leaves it stale.
#[derive(Clone, Debug, Default)]
pub(super) struct Listed {
    pub fresh: bool,
    pub moves: Vec<Action>,
}

#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Ended {
    Rule,
    /// The `[end] now` condition held after a move.
    Now,
    /// The turn limit.
    TurnLimit,
    /// Nobody could do anything for a whole round and no end condition held: a content
    /// mistake, with no outcome; `stuck` says where (the step entered last).
    Stuck {
        step: u16,
    },
    /// A move (or the setup: [`NO_ACTION`]) failed: it did not end within its budget, or a
    /// number left the range (`fault.rs`). No outcome; `stuck` names the action.
    Failed {
        fault: super::fault::Fault,
        action: u16,
    },
}

/// A move: 16 bytes and `Copy`, as every listing writes its moves and `legal_actions` copies
/// them (a payment is held small, `paid.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    pub action: u16,
    /// The card type or row key; -1 without a parameter.
    pub arg: i32,
    /// For [`PAY`]: the cards paid (`Rulebook::paid` reads them).
    pub(super) paid: Paid,
}

impl Action {
    /// A move with no payment: an action and its parameter (or `pass`).
    pub fn new(action: u16, arg: i32) -> Action {
        Action {
            action,
            arg,
            paid: Paid::NONE,
        }
    }
}

/// The moves a new game's listing has room for before it grows: most steps' listings fit.
const LISTING_ROOM: usize = 64;

/// `pass`: leave an optional step out.
pub const PASS: u16 = u16::MAX - 1;
/// `pay …`: pay for the action just chosen.
pub const PAY: u16 = u16::MAX;

#[derive(Clone, Debug)]
pub enum Event {
    Moved {
        card: u16,
        from: u32,
        to: u32,
    },
    Shuffled {
        pile: u32,
    },
    /// A figure moved on the ring (stepping, or displaced by one that did).
    FigureMoved {
        figure: u8,
        from: u8,
        to: u8,
    },
    /// A step with nothing to do was skipped.
    Skipped {
        step: u16,
        seat: u8,
    },
    Ended,
}

/// Which entries of a pile were met already, to bind each distinct card once: a bit per
/// unmarked type (the first 256), and per mark of the first seven seats a bit per type of
/// the first 64; a search of the pile before it for any other entry.
#[derive(Default)]
pub(super) struct Seen([u64; 4 + 7]);

impl Seen {
    /// The distinct entries of a pile, each at its first copy, in pile order.
    #[inline(always)]
    pub(super) fn distinct(cards: &[u16]) -> Distinct<'_> {
        Distinct {
            cards,
            next: 0,
            seen: Seen::default(),
        }
    }

    /// Whether `cards[i]` is the first copy of its entry in `cards`.
    #[inline(always)]
    pub(super) fn first(&mut self, cards: &[u16], i: usize) -> bool {
        let c = cards[i];
        let (mark, t) = (c >> MARK_SHIFT, c & TYPE_MASK);
        let word = match (mark, t) {
            (0, _) => usize::from(t / 64),
            (1..=7, 0..64) => 3 + usize::from(mark),
            _ => return !cards[..i].contains(&c),
        };
        let bit = 1u64 << (t % 64);
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }
}

/// [`Seen::distinct`].
pub(super) struct Distinct<'c> {
    cards: &'c [u16],
    next: usize,
    seen: Seen,
}

impl Iterator for Distinct<'_> {
    type Item = u16;

    #[inline(always)]
    fn next(&mut self) -> Option<u16> {
        while let Some(&c) = self.cards.get(self.next) {
            let i = self.next;
            self.next += 1;
            if self.seen.first(self.cards, i) {
                return Some(c);
            }
        }
        None
    }
}

/// What effect lines act on: the action's card (or -1) and the pile it lies in, its row (or
/// -1), and at setup the decks a script stacks (none in a move).
#[derive(Clone, Copy)]
pub(super) struct Subject<'s> {
    pub card: i32,
    pub pile: Option<usize>,
    pub row: i32,
    pub stack: &'s [(usize, Vec<u16>)],
}

impl<'s> Subject<'s> {
    /// The setup's lines: no card, no row, the stacked decks.
    fn setup(stack: &'s [(usize, Vec<u16>)]) -> Self {
        Subject {
            card: -1,
            pile: None,
            row: -1,
            stack,
        }
    }
}

/// What an expression is evaluated for.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'s> {
    pub state: &'s State,
    pub player: usize,
    pub card: i32,
    pub row: i32,
}

impl<'s> Ctx<'s> {
    /// The player to move asking, about `card`, with no row.
    #[inline(always)]
    pub(super) fn current(state: &'s State, card: i32) -> Self {
        Ctx {
            state,
            player: usize::from(state.current),
            card,
            row: -1,
        }
    }
}

impl Rulebook {
    /// The pile of `zone`, seat `seat` (ignored for table zones), row `row`.
    pub(super) fn pile(&self, zone: usize, seat: usize, row: usize) -> usize {
        let z = &self.zones[zone];
        if z.owned {
            self.table_piles + seat * self.seat_piles + z.first + row
        } else {
            z.first + row
        }
    }

    /// Which zone a pile belongs to, without the division [`Rulebook::locate`] needs.
    #[inline]
    pub(super) fn zone_of(&self, pile: usize) -> usize {
        match self.zone_by_pile.get(pile).map(|&z| usize::from(z)) {
            Some(z) if z < self.zones.len() => z,
            _ => self.locate(pile).0,
        }
    }

    /// Which zone, seat and row a pile is.
    pub(super) fn locate(&self, pile: usize) -> (usize, Option<usize>, usize) {
        let (seat, offset, slot) = if pile < self.table_piles {
            (None, pile, pile)
        } else {
            let p = pile - self.table_piles;
            let offset = p % self.seat_piles.max(1);
            (
                Some(p / self.seat_piles.max(1)),
                offset,
                self.table_piles + offset,
            )
        };
        match self.pile_zones.get(slot).map(|&z| usize::from(z)) {
            Some(z) if z < self.zones.len() => {
                (z, seat, offset.saturating_sub(self.zones[z].first))
            }
            _ => (0, seat, 0),
        }
    }

    fn seat_of(who: Who, ctx: &Ctx) -> usize {
        match who {
            Who::Player => ctx.player,
            _ => usize::from(ctx.state.current),
        }
    }

    /// The piles a zone reference covers: one row, or all rows of the zone.
    #[inline(always)]
    pub(super) fn piles_of(&self, z: &ZoneRef, ctx: &Ctx) -> std::ops::Range<usize> {
        match &z.row {
            Some(row) => self.row_pile(z, row, ctx),
            None => {
                let zone = &self.zones[z.zone];
                let p = if zone.owned {
                    self.table_piles + Self::seat_of(z.who, ctx) * self.seat_piles + zone.first
                } else {
                    zone.first
                };
                p..p + zone.rows
            }
        }
    }

    /// [`Rulebook::piles_of`] for one row of a zone, named by an expression.
    #[inline(never)]
    fn row_pile(&self, z: &ZoneRef, row: &Expr, ctx: &Ctx) -> std::ops::Range<usize> {
        let seat = Self::seat_of(z.who, ctx);
        let r = self
            .eval(row, ctx)
            .clamp(0, self.zones[z.zone].rows as i64 - 1) as usize;
        let p = self.pile(z.zone, seat, r);
        p..p + 1
    }

    /// [`Rulebook::eval`] with the commonest leaves answered in place, and a comparison or
    /// sum of two of them (`count(Z) > 0`, `value(card) * $factor`): most guards, ends and
    /// payment arguments are made of these, not worth a call each.
    #[inline(always)]
    pub(super) fn operand(&self, e: &Expr, ctx: &Ctx) -> i64 {
        if let Some(v) = self.leaf(e, ctx) {
            return v;
        }
        if let Expr::Bin(op, l, r) = e
            && let Some(a) = self.leaf(l, ctx)
        {
            if let Some(v) = decided(*op, a) {
                return v;
            }
            let b = match self.leaf(r, ctx) {
                Some(b) => b,
                None => self.eval(r, ctx),
            };
            return binary(*op, a, b);
        }
        self.eval(e, ctx)
    }

    /// `count(Z)` of a whole zone (no row): the cards in all its piles.
    #[inline(always)]
    fn whole_count(&self, z: &ZoneRef, ctx: &Ctx) -> i64 {
        let p = self.piles_of(z, ctx);
        ctx.state.piles[p].iter().map(|c| c.len() as i64).sum()
    }

    /// `fullest(Z)` of a whole zone (no row): the cards in its fullest pile.
    #[inline(always)]
    fn whole_fullest(&self, z: &ZoneRef, ctx: &Ctx) -> i64 {
        let p = self.piles_of(z, ctx);
        ctx.state.piles[p]
            .iter()
            .map(|c| c.len() as i64)
            .max()
            .unwrap_or(0)
    }

    /// The value of a leaf read in place: a number, the card parameter, `done`, a whole
    /// zone's count or fullest pile, an attribute of the card; `None` for anything else.
    #[inline(always)]
    fn leaf(&self, e: &Expr, ctx: &Ctx) -> Option<i64> {
        Some(match e {
            Expr::Const(v) => *v,
            Expr::Card => i64::from(ctx.card),
            Expr::Done(a) => i64::from(ctx.state.done & (1 << a) != 0),
            // `step(x)`: the first conjunct of most guards.
            Expr::Counter(CounterExpr::AtStep(mask)) => {
                i64::from(ctx.state.step < 64 && mask & (1 << ctx.state.step) != 0)
            }
            // `count(Z)`: most guards and ends.
            Expr::Count(z) if z.row.is_none() => self.whole_count(z, ctx),
            Expr::Fullest(z) if z.row.is_none() => self.whole_fullest(z, ctx),
            // `figure` and `steps`: most effects on the ring (0 without one, as
            // [`Rulebook::eval_figures`] gives them).
            Expr::Figures(FigureExpr::ParamFigure) if self.board.is_some() => ctx
                .state
                .figures
                .0
                .as_ref()
                .map_or(0, |_| i64::from(FigureArg::figure(ctx.row))),
            Expr::Figures(FigureExpr::ParamSteps) if self.board.is_some() => ctx
                .state
                .figures
                .0
                .as_ref()
                .map_or(0, |_| FigureArg::steps(ctx.row)),
            // `value(card)`: most payment arguments.
            Expr::Attr { set, attr, card } if matches!(**card, Expr::Card) => {
                let c = i64::from(ctx.card) & i64::from(TYPE_MASK);
                self.sets[*set].values[*attr]
                    .get(c as usize)
                    .copied()
                    .unwrap_or(0)
            }
            _ => return None,
        })
    }

    /// The arms most guards, counts and payment arguments are made of are answered here;
    /// the rest go to [`Rulebook::eval_more`], kept out of line so this dispatch stays small
    /// (it runs for every node of every guard of every listing).
    pub(super) fn eval(&self, e: &Expr, ctx: &Ctx) -> i64 {
        match e {
            Expr::Const(v) => *v,
            Expr::Card => i64::from(ctx.card),
            Expr::Done(a) => i64::from(ctx.state.done & (1 << a) != 0),
            Expr::Attr { set, attr, card } => {
                // A marked card is its type with the mark above it.
                let c = self.operand(card, ctx) & i64::from(TYPE_MASK);
                usize::try_from(c)
                    .ok()
                    .and_then(|c| self.sets[*set].values[*attr].get(c))
                    .copied()
                    .unwrap_or(0)
            }
            Expr::Count(z) if z.row.is_none() => self.whole_count(z, ctx),
            Expr::Fullest(z) if z.row.is_none() => self.whole_fullest(z, ctx),
            Expr::Not(inner) => i64::from(self.operand(inner, ctx) == 0),
            // The guards of actions on marked cards, asked card by card.
            Expr::Marked(_) | Expr::Mine(_) | Expr::Marks(_) => self.eval_mark(e, ctx),
            Expr::Bin(op, l, r) => {
                let a = self.operand(l, ctx);
                if let Some(v) = decided(*op, a) {
                    return v;
                }
                let b = self.operand(r, ctx);
                binary(*op, a, b)
            }
            // The ring and the counters straight to their own dispatch, not through
            // `eval_more`'s: a call less per node.
            Expr::Figures(f) => self.eval_figures(f, ctx),
            Expr::Counter(c) => self.eval_counter(c, ctx),
            _ => self.eval_more(e, ctx),
        }
    }

    #[inline(never)]
    fn eval_more(&self, e: &Expr, ctx: &Ctx) -> i64 {
        let set_of = |z: &ZoneRef| self.zones[z.zone].set;
        match e {
            Expr::Const(_)
            | Expr::Card
            | Expr::Done(_)
            | Expr::Attr { .. }
            | Expr::Not(_)
            | Expr::Marked(_)
            | Expr::Mine(_)
            | Expr::Marks(_)
            | Expr::Bin(..) => self.eval(e, ctx),
            Expr::Row => i64::from(ctx.row),
            Expr::ActionCard(a) => {
                if let Some((p, arg)) = ctx.state.pending
                    && usize::from(p) == *a
                {
                    i64::from(arg)
                } else if ctx.state.done & (1 << a) == 0 {
                    -1
                } else {
                    i64::from(ctx.state.args[*a])
                }
            }
            Expr::Count(z) => self
                .piles_of(z, ctx)
                .map(|p| ctx.state.piles[p].len() as i64)
                .sum(),
            Expr::Sum { attr, zone } => {
                let values = &self.sets[set_of(zone)].values[*attr];
                self.piles_of(zone, ctx)
                    .flat_map(|p| ctx.state.piles[p].iter())
                    .map(|&c| values[usize::from(c & TYPE_MASK)])
                    .sum()
            }
            Expr::Last { attr, zone } => {
                let values = &self.sets[set_of(zone)].values[*attr];
                self.piles_of(zone, ctx)
                    .filter_map(|p| ctx.state.piles[p].last())
                    .map(|&c| values[usize::from(c & TYPE_MASK)])
                    .next_back()
                    .unwrap_or(0)
            }
            Expr::NonEmpty(z) => self
                .piles_of(z, ctx)
                .filter(|&p| !ctx.state.piles[p].is_empty())
                .count() as i64,
            Expr::Figures(f) => self.eval_figures(f, ctx),
            Expr::Counter(c) => self.eval_counter(c, ctx),
            Expr::Fullest(_)
            | Expr::If(..)
            | Expr::Best { .. }
            | Expr::Cheapest { .. }
            | Expr::Paying(_) => self.eval_mechanic(e, ctx),
        }
    }

    pub(super) fn put(&self, state: &mut State, pile: usize, card: u16) {
        let zone = self.zone_of(pile);
        let z = &self.zones[zone];
        if z.tally.is_some() {
            state
                .tallies
                .push((zone as u16, card, state.turn, state.current));
        }
        self.note_put(state, pile, card);
        let cards = &mut state.piles[pile];
        cards.push(card);
        if z.layout == Layout::Hand {
            // Kept in type order, the card after its equals: the few cards above it move up
            // one by one (a hand is short; a call to `memmove` cost more than the moves). On
            // the slice, whose length stays in a register: no bounds check per card.
            let cards = cards.as_mut_slice();
            let mut i = cards.len() - 1;
            while i > 0 && cards[i - 1] > card {
                cards[i] = cards[i - 1];
                i -= 1;
            }
            cards[i] = card;
        }
    }

    /// The row of `zone` a card put into it without a row named lands in: in a zone kept in
    /// rows, the row of the card's `by` value; else its one pile.
    #[inline(always)]
    pub(super) fn row_for(&self, zone: usize, card: u16) -> usize {
        let z = &self.zones[zone];
        match z.by {
            None => 0,
            Some(by) => {
                let v = self.sets[z.set].values[by][usize::from(card & TYPE_MASK)];
                v.clamp(0, z.rows as i64 - 1) as usize
            }
        }
    }

    /// Where a card put into `to` lands: the row `to` names, else [`Rulebook::row_for`].
    #[inline(always)]
    fn landing(&self, to: &ZoneRef, ctx: &Ctx, card: u16) -> usize {
        let p = self.piles_of(to, ctx).start;
        if to.row.is_some() {
            p
        } else {
            p + self.row_for(to.zone, card)
        }
    }

    /// Moves the top card of pile `from` to `to`, into its row when `into` is a zone kept in
    /// rows and `to` its first row.
    fn shift(
        &self,
        state: &mut State,
        from: usize,
        to: usize,
        into: Option<usize>,
        events: &mut impl EventSink<Event>,
    ) -> bool {
        let Some(card) = self.pop_card(state, from) else {
            return false;
        };
        let to = into.map_or(to, |z| to + self.row_for(z, card));
        self.put(state, to, card);
        events.emit(|| Event::Moved {
            card,
            from: from as u32,
            to: to as u32,
        });
        true
    }

    /// Shuffles a pile; a script's stacked cards then go on top, the first named drawn first.
    /// Each is taken from the rest at its topmost copy, so the rest keeps its shuffled order.
    fn shuffle_pile(
        state: &mut State,
        p: usize,
        stack: &[(usize, Vec<u16>)],
        events: &mut impl EventSink<Event>,
    ) {
        state.rng.shuffle(&mut state.piles[p]);
        Self::stack_pile(state, p, stack);
        events.emit(|| Event::Shuffled { pile: p as u32 });
    }

    /// Puts a script's stacked cards of pile `p` on top, the first named drawn first.
    fn stack_pile(state: &mut State, p: usize, stack: &[(usize, Vec<u16>)]) {
        if let Some((_, cards)) = stack.iter().find(|(s, _)| *s == p) {
            let pile = &mut state.piles[p];
            let mut found = Vec::with_capacity(cards.len());
            for &c in cards {
                if let Some(i) = pile.iter().rposition(|&x| x == c) {
                    pile.remove(i);
                    found.push(c);
                }
            }
            pile.extend(found.iter().rev());
        }
    }

    /// Whether some line of `effects` shuffles zone `z` (under an `if` too).
    fn shuffles(effects: &[Effect], z: usize) -> bool {
        effects.iter().any(|e| {
            let mut e = e;
            while let Effect::If { then, .. } = e {
                e = then;
            }
            match e {
                Effect::Shuffle(r) => r.zone == z,
                Effect::ShuffleSeats(zones) => zones.contains(&z),
                _ => false,
            }
        })
    }

    /// Runs effect lines. The lines of moves are played in this loop; those of the setup and
    /// the rare ones (shuffles, deals, placing a figure, giving a role) out of line
    /// ([`Rulebook::run_other`]), which keeps the loop small.
    fn run(
        &self,
        effects: &[Effect],
        state: &mut State,
        on: &Subject,
        events: &mut impl EventSink<Event>,
    ) {
        'effects: for mut effect in effects {
            let ctx = Ctx {
                state,
                player: usize::from(state.current),
                card: on.card,
                row: on.row,
            };
            // A line with `if` runs when its condition holds, in place (no call for it).
            while let Effect::If { cond, then } = effect {
                if self.arg(cond, &ctx) == 0 {
                    continue 'effects;
                }
                effect = then.as_ref();
            }
            match effect {
                Effect::Move { to } => {
                    let Some(from) = on.pile else {
                        continue;
                    };
                    let card = on.card as u16;
                    let to = self.landing(to, &ctx, card);
                    // The first copy in the zone's order: the one laid first in a row.
                    if let Some(i) = state.piles[from].iter().position(|&c| c == card) {
                        self.take_card(state, from, i);
                        let card = self.unmark(state, card);
                        self.put(state, to, card);
                        events.emit(|| Event::Moved {
                            card,
                            from: from as u32,
                            to: to as u32,
                        });
                    }
                }
                Effect::Add { amount, to } => {
                    let amount = self.arg(amount, &ctx);
                    let figure = match to {
                        super::counters::CounterRef::Figure(_, f) => self.operand(f, &ctx),
                        _ => -1,
                    };
                    self.add_to(state, to, amount, figure);
                }
                Effect::Step { figure, by } => {
                    let (figure, by) = (self.arg(figure, &ctx), self.arg(by, &ctx));
                    self.step_figure(state, figure, by, events);
                }
                Effect::Draw { count, from, to } => {
                    let n = self.arg(count, &ctx);
                    // Into a zone kept in rows with no row named: each card into its row.
                    let into =
                        (to.row.is_none() && self.zones[to.zone].by.is_some()).then_some(to.zone);
                    let (from, to) = (
                        self.piles_of(from, &ctx).start,
                        self.piles_of(to, &ctx).start,
                    );
                    // Only an empty stack is refilled: the call is skipped while it holds cards.
                    // Each card drawn is work: a draw through a supply that refills from
                    // where it draws to ends when the move's budget does (`fault.rs`).
                    for _ in 0..n {
                        if !super::fault::spend(1) {
                            break;
                        }
                        if state.piles[from].is_empty() {
                            self.refill(state, from, events);
                        }
                        if !self.shift(state, from, to, into, events) {
                            break;
                        }
                        if state.piles[from].is_empty() {
                            self.refill(state, from, events);
                        }
                    }
                }
                Effect::Reveal { from, into, until } => {
                    self.reveal(state, from, *into, until, events);
                }
                Effect::Mark => {
                    if let Some(from) = on.pile {
                        self.mark(state, from, on.card as u16);
                    }
                }
                Effect::Award { zone, to } => self.award(state, *zone, *to, events),
                _ => self.run_other(effect, state, on, events),
            }
        }
    }

    /// The effect lines [`Rulebook::run`] leaves out of its loop (any `if` unwrapped).
    #[inline(never)]
    fn run_other(
        &self,
        effect: &Effect,
        state: &mut State,
        on: &Subject,
        events: &mut impl EventSink<Event>,
    ) {
        let ctx = Ctx {
            state,
            player: usize::from(state.current),
            card: on.card,
            row: on.row,
        };
        match effect {
            Effect::Shuffle(z) => {
                // `Z(each)`: every seat's, in seat order.
                let each = z.who == Who::Each;
                let single = self.piles_of(z, &ctx);
                let rows = self.zones[z.zone].rows;
                for seat in 0..if each { usize::from(state.players) } else { 1 } {
                    let piles = if each {
                        let p = self.pile(z.zone, seat, 0);
                        p..p + rows
                    } else {
                        single.clone()
                    };
                    for p in piles {
                        Self::shuffle_pile(state, p, on.stack, events);
                    }
                }
            }
            Effect::ShuffleSeats(zones) => {
                // Seat by seat, each seat's zones in the order named.
                for seat in 0..usize::from(state.players) {
                    for &z in zones {
                        let p = self.pile(z, seat, 0);
                        for p in p..p + self.zones[z].rows {
                            Self::shuffle_pile(state, p, on.stack, events);
                        }
                    }
                }
            }
            Effect::Deal { count, from, to } => {
                let n = self.arg(count, &ctx);
                // From a zone per seat (`deck(each)`): each seat from its own.
                let own = (from.who == Who::Each).then_some(from.zone);
                let table = if own.is_some() {
                    0
                } else {
                    self.piles_of(from, &ctx).start
                };
                'deal: for _ in 0..n {
                    if !super::fault::spend(u64::from(state.players)) {
                        break;
                    }
                    for seat in 0..usize::from(state.players) {
                        let from = own.map_or(table, |z| self.pile(z, seat, 0));
                        let into = self.zones[*to].by.map(|_| *to);
                        let to = self.pile(*to, seat, 0);
                        if !self.shift(state, from, to, into, events) && own.is_none() {
                            break 'deal;
                        }
                    }
                }
            }
            Effect::Give { role, figure } => {
                let figure = self.arg(figure, &ctx);
                self.give(state, *role, figure);
            }
            Effect::Place { kind, seat } => {
                let seat = self.eval(seat, &ctx);
                self.place_figure(state, *kind, seat);
            }
            // Played in `run`'s loop.
            Effect::If { .. }
            | Effect::Move { .. }
            | Effect::Add { .. }
            | Effect::Step { .. }
            | Effect::Draw { .. }
            | Effect::Reveal { .. }
            | Effect::Mark
            | Effect::Award { .. } => {
                let effect = std::slice::from_ref(effect);
                self.run(effect, state, on, events);
            }
        }
    }

    /// The pile the card parameter of action `a` lies in.
    pub(super) fn card_pile(&self, state: &State, a: usize, card: i32) -> Option<usize> {
        let z = self.actions[a].param.card_zone()?;
        let ctx = Ctx::current(state, card);
        let card = u16::try_from(card).ok()?;
        self.piles_of(z, &ctx)
            .find(|&p| state.piles[p].contains(&card))
    }

    /// Calls `f` with every binding of action `a` whose guard holds, in zone order.
    pub(super) fn bindings(&self, state: &State, a: usize, f: impl FnMut(i32) -> bool) {
        self.bindings_with(state, a, &Dearest::default(), f);
    }

    /// [`Rulebook::bindings`] with what is known of the payer's cards.
    fn bindings_with(
        &self,
        state: &State,
        a: usize,
        dearest: &Dearest,
        mut f: impl FnMut(i32) -> bool,
    ) {
        let action = &self.actions[a];
        let holds = |card: i32, row: i32| {
            action.guard.as_ref().is_none_or(|g| {
                let ctx = Ctx {
                    state,
                    player: usize::from(state.current),
                    card,
                    row,
                };
                self.eval(&g.expr, &ctx) != 0
            }) && self.payable(state, a, card, dearest)
        };
        match &action.param {
            Param::None => {
                // The `step(…)` conjuncts the state's step makes true are not asked again.
                let guard = action
                    .guard
                    .as_ref()
                    .map(|g| after_steps(&g.expr, state.step));
                let ctx = Ctx {
                    state,
                    player: usize::from(state.current),
                    card: -1,
                    row: -1,
                };
                if guard.is_none_or(|g| g.is_some_and(|g| self.operand(g, &ctx) != 0))
                    && self.payable(state, a, -1, dearest)
                {
                    f(-1);
                }
            }
            Param::Card(z) => {
                // The part of the guard that reads no card is asked once.
                let (free, per_card) = self.card_guard(state, a);
                if !free {
                    return;
                }
                let ctx = Ctx::current(state, -1);
                for p in self.piles_of(z, &ctx) {
                    for c in Seen::distinct(&state.piles[p]) {
                        let card = i32::from(c);
                        if self.admits(state, a, card, per_card, dearest) && !f(card) {
                            return;
                        }
                    }
                }
            }
            Param::Figure { refs, steps } => {
                // The part of the guard that reads no figure is asked once.
                let Some(rest) = self.binding_guard(state, a) else {
                    return;
                };
                self.figure_bindings(state, refs, steps, |arg| {
                    !(self.binding_holds(state, a, rest, arg)
                        && self.payable(state, a, -1, dearest))
                        || f(arg)
                });
            }
            p @ Param::CardFigure { .. } => {
                self.card_figure_bindings(state, p, |arg| {
                    let (card, row) = p.split(arg);
                    !holds(card, row) || f(arg)
                });
            }
            Param::Seat => {
                let Some(rest) = self.binding_guard(state, a) else {
                    return;
                };
                // What it costs does not depend on the seat: asked once.
                if !self.payable(state, a, -1, dearest) {
                    return;
                }
                let seats = self.board.as_ref().map_or(0, |b| b.seats);
                if rest == PerBinding::FreeSeat {
                    // `empty(seat)` alone: the ring's free seats, read in place.
                    let Some(figures) = &state.figures.0 else {
                        return;
                    };
                    for s in 0..seats.min(usize::from(u8::MAX)) as u8 {
                        if figures.ring.is_free(s) && !f(i32::from(s)) {
                            return;
                        }
                    }
                    return;
                }
                for s in 0..seats as i32 {
                    if self.binding_holds(state, a, rest, s) && !f(s) {
                        return;
                    }
                }
            }
            Param::Row { zone, who } => {
                let seat = Self::seat_of(
                    *who,
                    &Ctx {
                        state,
                        player: 0,
                        card: -1,
                        row: -1,
                    },
                );
                for r in 0..self.zones[*zone].rows {
                    if !state.piles[self.pile(*zone, seat, r)].is_empty()
                        && holds(-1, r as i32)
                        && !f(r as i32)
                    {
                        return;
                    }
                }
            }
        }
    }

    /// The moves of the step the state is at (a payment's, when one is awaited);
    /// `memo_fits`: the state's memo was just made for the payer's cards.
    pub(super) fn list(&self, state: &State, out: &mut Vec<Action>, memo_fits: bool) {
        out.clear();
        let Some(step) = self.steps.get(usize::from(state.step)) else {
            return;
        };
        if state.pending.is_some() {
            let mut push = |p: &Payment| out.push(self.paid.pay_move(p));
            self.payments(state, &mut push);
            self.choices(state, &mut push);
            return;
        }
        if step.by_card {
            self.by_card(state, step, out, memo_fits);
        } else {
            let plain =
                (self.plain_guards.get(usize::from(state.step))).map_or(&[][..], |p| &p[..]);
            for (i, &a) in step.actions.iter().enumerate() {
                if let Some(Some(guard)) = plain.get(i) {
                    if self.plain_holds(state, a, guard)
                        && (self.actions[a].pay.is_none()
                            || self.payable(state, a, -1, &Dearest::after_refresh(memo_fits)))
                    {
                        out.push(Action::new(a as u16, -1));
                    }
                    continue;
                }
                let dearest = Dearest::after_refresh(memo_fits);
                self.bindings_with(state, a, &dearest, |arg| {
                    out.push(Action::new(a as u16, arg));
                    true
                });
            }
        }
        if step.optional && !out.is_empty() {
            out.push(Action::new(PASS, -1));
        }
    }

    /// Lists the step's moves into the state; whether it has any.
    fn enter_step(&self, state: &mut State) -> bool {
        let memo_fits = self.refresh_memo(state);
        let mut moves = std::mem::take(&mut state.listed.moves);
        self.list(state, &mut moves, memo_fits);
        let fresh = !moves.is_empty();
        state.listed.0 = Listed { fresh, moves };
        fresh
    }

    /// Moves on to the next step with something to do, ending turns and the game.
    /// Moves the cursor to the next step someone can take, ending the game or turn on the
    /// way. An `auto` step's only move is returned, to be made at once, no one deciding
    /// (by the caller's loop, so a chain of them never deepens the stack).
    #[must_use]
    fn advance(&self, state: &mut State, events: &mut impl EventSink<Event>) -> Option<Action> {
        let mut skipped = 0;
        loop {
            if state.stage.stage != 0 && usize::from(state.step) >= self.stage_end(state) {
                self.next_in_stage(state);
            }
            if state.stage.stage == 0 && usize::from(state.step) >= self.turn_steps {
                let ctx = Ctx {
                    state,
                    player: 0,
                    card: -1,
                    row: -1,
                };
                if self.arg(&self.end_when, &ctx) != 0 {
                    state.ended = Some(Ended::Rule);
                } else if state.turn >= self.turn_limit {
                    state.ended = Some(Ended::TurnLimit);
                }
                if state.ended.is_some() {
                    events.emit(|| Event::Ended);
                    return None;
                }
                state.turn += 1;
                state.current = (state.current + 1) % state.players;
                state.step = 0;
                state.done = 0;
                state.reps = Repeats(0);
            }
            if self.enter_step(state) {
                // An `auto` step's only move is made at once, no one deciding.
                let auto = state.listed.moves.len() == 1
                    && self
                        .steps
                        .get(usize::from(state.step))
                        .is_some_and(|s| s.auto);
                return auto.then(|| state.listed.moves[0]);
            }
            skipped += 1;
            // Every step skipped is work (and every `auto` move, `play_out`): a description
            // whose turns nobody decides cannot spin inside one move.
            if !super::fault::spend(1) {
                return None;
            }
            if skipped > self.steps.len() * usize::from(state.players) + 1 {
                // Nobody can do anything for a whole round: nothing changes any more and
                // no end condition holds. An error, not a silent run to the turn limit.
                state.ended = Some(Ended::Stuck {
                    step: u16::from(state.step),
                });
                return None;
            }
            let (step, seat) = (u16::from(state.step), state.current);
            events.emit(|| Event::Skipped { step, seat });
            state.step += 1;
            state.reps = Repeats(0);
        }
    }

    pub(super) fn scores(&self, state: &State) -> Vec<i64> {
        (0..usize::from(state.players))
            .map(|p| {
                self.eval(
                    &self.score,
                    &Ctx {
                        state,
                        player: p,
                        card: -1,
                        row: -1,
                    },
                )
            })
            .collect()
    }

    pub(super) fn new_state(
        &self,
        setup: &Setup,
        events: &mut impl EventSink<Event>,
    ) -> Result<State, String> {
        self.new_state_in(setup, events, None)
    }

    /// [`Rulebook::new_state`] in the buffers of a `spare` state, when there is one.
    fn new_state_in(
        &self,
        setup: &Setup,
        events: &mut impl EventSink<Event>,
        spare: Option<State>,
    ) -> Result<State, String> {
        super::fault::begin_setup(self.work_budget);
        let players = setup.players;
        if !(self.players.0..=self.players.1).contains(&players) {
            return Err(format!(
                "{} plays with {} to {} players, not {players}",
                self.id, self.players.0, self.players.1
            ));
        }
        let piles = self.table_piles + players * self.seat_piles;
        let Storage {
            piles: mut pile_room,
            mut args,
            mut tallies,
            mut moves,
            mut marks,
        } = spare.map(Storage::of).unwrap_or_default();
        // Each pile can hold its whole set: the game then never grows one.
        pile_room.truncate(piles);
        for (pile, &n) in pile_room.iter_mut().zip(&self.pile_capacity) {
            pile.clear();
            pile.reserve(n);
        }
        let made = pile_room.len();
        pile_room.extend(
            (self.pile_capacity.iter().take(piles).skip(made)).map(|&n| Vec::with_capacity(n)),
        );
        args.clear();
        args.resize(self.actions.len(), -1);
        tallies.clear();
        moves.clear();
        // Room for a usual step's moves (the listing grows past it if it must).
        moves.reserve(LISTING_ROOM);
        marks.clear();
        let marks_each = (self.zones.iter())
            .find_map(|z| z.marks)
            .map_or(0, |m| u8::try_from(m).unwrap_or(u8::MAX));
        marks.resize(players, marks_each);
        let mut state = State {
            piles: pile_room,
            players: players as u8,
            current: 0,
            step: 0,
            done: 0,
            args,
            turn: 1,
            ended: None,
            rng: GameRng::new(setup.seed),
            pending: None,
            tallies,
            memo: Default::default(),
            listed: grail_engine::derived::Derived(Listed {
                fresh: false,
                moves,
            }),
            held: Default::default(),
            marks,
            figures: super::ring::OnTable(self.board.as_ref().map(|b| b.start(players))),
            counts: self.start_counts(players),
            reps: Repeats(0),
            stage: super::stages::StageAt::default(),
            chosen: Default::default(),
        };
        // Every copy starts in its set's starting zone, in type order.
        for (zi, z) in self.zones.iter().enumerate().filter(|(_, z)| z.start_all) {
            let seats = if z.owned { players } else { 1 };
            for seat in 0..seats {
                let pile = self.pile(zi, seat, 0);
                for t in z.types.clone() {
                    let n = self.sets[z.set].copies[usize::from(t)];
                    state.piles[pile].extend(std::iter::repeat_n(t, usize::from(n)));
                }
            }
        }
        self.recount(&mut state);
        let mut stack = Vec::new();
        for (name, cards) in &setup.stack {
            // A seat's own deck is named with the seat, either way round: `P1 king`.
            let (zone, seat) = match name.split_whitespace().collect::<Vec<_>>()[..] {
                [a, b] => match grail_engine::seats::parse_seat(a, players) {
                    Some(s) => (b, Some(s)),
                    None => (a, grail_engine::seats::parse_seat(b, players)),
                },
                _ => (name.as_str(), None),
            };
            let Some(zi) = self.zones.iter().position(|z| {
                z.start_all
                    && z.owned == seat.is_some()
                    && (z.name == zone || self.sets[z.set].id == zone)
            }) else {
                let starts: Vec<String> = (self.zones.iter())
                    .filter(|z| z.start_all)
                    .map(|z| match z.owned {
                        true => format!("P1 {}", z.name),
                        false => z.name.clone(),
                    })
                    .collect();
                return Err(grail_engine::diag::no_such(
                    "stackable zone",
                    name,
                    starts.iter().map(String::as_str),
                ));
            };
            let z = &self.zones[zi];
            let set = &self.sets[z.set];
            // A union's member zone holds only its member's types.
            let ids = &set.cards[usize::from(z.types.start)..usize::from(z.types.end)];
            let mut types = Vec::new();
            for id in cards {
                let Some(t) = ids.iter().position(|c| c == id) else {
                    return Err(grail_engine::diag::no_such(
                        &format!("card in set `{}`", self.sets[z.declared].id),
                        id,
                        ids.iter().map(String::as_str),
                    ));
                };
                let t = t + usize::from(z.types.start);
                types.push(t as u16);
            }
            stack.push((self.pile(zi, seat.unwrap_or(0), 0), types));
        }
        if setup.position.is_empty() {
            // A zone the setup never shuffles is stacked as it starts: its order is the
            // cards' own, which only a stack keeps.
            for &(p, _) in &stack {
                let zi = self.zone_of(p);
                if Self::shuffles(&self.setup, zi) {
                    continue;
                }
                if self.zones[zi].layout != Layout::Stack {
                    return Err(format!(
                        "cannot stack zone `{}`: the setup never shuffles it, and it keeps its \
                         cards in an order of its own (its layout is not `stack`)",
                        self.zones[zi].name
                    ));
                }
                Self::stack_pile(&mut state, p, &stack);
            }
            self.run(&self.setup, &mut state, &Subject::setup(&stack), events);
            self.begin_stages(&mut state);
        } else {
            // A script's position replaces the setup; what it leaves in the starting zones
            // is shuffled (and stacked) as a deck would be.
            self.set_position(&mut state, &setup.position)?;
            self.recount(&mut state);
            let shuffles: Vec<Effect> = (0..self.zones.len())
                .filter(|&z| self.zones[z].start_all)
                .map(|zone| {
                    Effect::Shuffle(ZoneRef {
                        zone,
                        who: if self.zones[zone].owned {
                            Who::Each
                        } else {
                            Who::Table
                        },
                        row: None,
                    })
                })
                .collect();
            self.run(&shuffles, &mut state, &Subject::setup(&stack), events);
            self.check_invariants(&state)
                .map_err(|e| format!("the position breaks the rules: {e}"))?;
        }
        let auto = self.advance(&mut state, events);
        self.play_out(&mut state, auto, events);
        if let Some(fault) = super::fault::end() {
            state.ended = Some(Ended::Failed {
                fault,
                action: NO_ACTION,
            });
        }
        Ok(state)
    }

    /// Makes the `auto` moves a move (or the setup) led to, one after another.
    #[inline(never)]
    fn play_out(
        &self,
        state: &mut State,
        mut auto: Option<Action>,
        events: &mut impl EventSink<Event>,
    ) {
        while let Some(action) = auto {
            if !super::fault::spend(1) {
                return;
            }
            auto = self.play(state, &action, events);
        }
    }

    /// Carries out one move and enters the next step; returns the `auto` move that step
    /// makes at once, if any.
    #[must_use]
    #[inline(always)]
    fn play(
        &self,
        state: &mut State,
        action: &Action,
        events: &mut impl EventSink<Event>,
    ) -> Option<Action> {
        state.listed.fresh = false;
        let (a, arg) = match (action.action, state.pending) {
            (PASS, _) => {
                state.step += 1;
                state.reps = Repeats(0);
                return self.advance(state, events);
            }
            (PAY, Some((a, arg))) => {
                self.pay(state, action, events);
                self.take_choice(state, action);
                state.pending = None;
                (usize::from(a), arg)
            }
            (a, _)
                if self.actions[usize::from(a)].pay.is_some()
                    || self.must_choose(state, usize::from(a), action.arg) =>
            {
                // Chosen: the payment is the next move.
                state.pending = Some((a, action.arg));
                return None;
            }
            (a, _) => (usize::from(a), action.arg),
        };
        super::fault::acting(a);
        let (card, row) = self.actions[a].param.split(arg);
        let on = Subject {
            card,
            pile: self.card_pile(state, a, card),
            row,
            stack: &[],
        };
        self.run(&self.actions[a].effects, state, &on, events);
        if super::fault::failed() {
            return None;
        }
        state.chosen = Default::default();
        state.done |= 1 << a;
        // `action.card` reads the card alone.
        state.args[a] = if matches!(self.actions[a].param, Param::CardFigure { .. }) {
            card
        } else {
            arg
        };
        // A step taking several actions stays until it has had them all.
        state.reps = Repeats(state.reps.0.saturating_add(1));
        let times = self
            .steps
            .get(usize::from(state.step))
            .and_then(|s| s.repeat.as_ref());
        // A step takes at most 255 actions (the count a state keeps; a fixed `repeat` past
        // it is refused by lint, one reckoned in play stops there).
        let again = times.is_some_and(|t| {
            let ctx = Ctx::current(state, -1);
            i64::from(state.reps.0) < self.operand(t, &ctx).min(255)
        });
        if !again {
            state.step += 1;
            state.reps = Repeats(0);
        }
        if let Some(now) = &self.now {
            let ctx = Ctx {
                state,
                player: 0,
                card: -1,
                row: -1,
            };
            if self.eval(now, &ctx) != 0 {
                state.ended = Some(Ended::Now);
                events.emit(|| Event::Ended);
                return None;
            }
        }
        self.advance(state, events)
    }
}

impl Rules for Rulebook {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn game_id(&self) -> &str {
        &self.id
    }

    fn variant(&self) -> Option<&str> {
        self.variant.as_deref()
    }

    fn players(&self) -> RangeInclusive<usize> {
        self.players.0..=self.players.1
    }

    fn setup(&self, setup: &Setup) -> Result<State, String> {
        self.new_state(setup, &mut grail_engine::game::NoEvents)
    }

    fn setup_into(&self, setup: &Setup, spare: State) -> Result<State, String> {
        self.new_state_in(setup, &mut grail_engine::game::NoEvents, Some(spare))
    }

    fn setup_with_events(
        &self,
        setup: &Setup,
        events: &mut impl EventSink<Event>,
    ) -> Result<State, String> {
        self.new_state(setup, events)
    }

    fn to_move(&self, state: &State) -> Option<Seat> {
        state.ended.is_none().then_some(usize::from(state.current))
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        out.clear();
        if state.ended.is_some() {
            return;
        }
        if state.listed.fresh {
            out.extend_from_slice(&state.listed.moves);
        } else {
            self.list(state, out, false);
        }
    }

    fn listed<'s>(&self, state: &'s State) -> Option<&'s [Action]> {
        (state.ended.is_none() && state.listed.fresh).then_some(&state.listed.moves[..])
    }

    fn apply(&self, state: &mut State, action: &Action, events: &mut impl EventSink<Event>) {
        super::fault::begin(self.work_budget);
        let auto = self.play(state, action, events);
        if auto.is_some() {
            self.play_out(state, auto, events);
        }
        if let Some(fault) = super::fault::end() {
            state.ended = Some(Ended::Failed {
                fault,
                action: super::fault::action(),
            });
        }
    }

    fn stuck(&self, state: &State) -> Option<grail_engine::game::Stuck> {
        if let Some(Ended::Failed { fault, action }) = state.ended {
            return Some(self.failure(state, fault, action));
        }
        let Some(Ended::Stuck { step }) = state.ended else {
            return None;
        };
        // The steps of the stage it stuck in: a stage before the turns, or the turn's.
        let (when, steps) = match usize::from(state.stage.stage) {
            0 => (format!("at turn {}", state.turn), 0..self.turn_steps),
            k => {
                let stage = &self.stages[k - 1];
                (
                    format!("in stage `{}`, before the turns", stage.name),
                    stage.first_step..stage.first_step + stage.len,
                )
            }
        };
        let names: Vec<String> = (self.steps[steps].iter())
            .map(|s| format!("`{}`", s.name))
            .collect();
        let why = format!(
            "{when}, nobody could move for a whole round (every step was skipped: {}; the \
             last was `{}` for P{}) and no end condition holds; a step needs a move someone \
             can make, or `[end]` a condition that holds here",
            names.join(", "),
            self.steps
                .get(usize::from(step))
                .map_or("?", |s| s.name.as_str()),
            usize::from(state.current) + 1,
        );
        Some(grail_engine::game::Stuck::new("game-stuck", why))
    }

    fn why_illegal(&self, state: &State, action: &Action) -> String {
        self.refusal(state, action)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        let ended = state.ended?;
        let scores = self.scores(state);
        let best = scores.iter().copied().max().unwrap_or(0);
        let mut winners: Vec<Seat> = (0..scores.len()).filter(|&s| scores[s] == best).collect();
        if let Some(tiebreak) = self.tiebreak.as_ref().filter(|_| winners.len() > 1) {
            let of = |p: Seat| {
                self.eval(
                    tiebreak,
                    &Ctx {
                        state,
                        player: p,
                        card: -1,
                        row: -1,
                    },
                )
            };
            let most = winners.iter().map(|&p| of(p)).max().unwrap_or(0);
            winners.retain(|&p| of(p) == most);
        }
        let tallies = state
            .tallies
            .iter()
            .map(|&(zone, card, turn, seat)| {
                let (kind, item) = self.tally_names(zone, card);
                grail_engine::game::Tally {
                    kind,
                    item,
                    turn,
                    seat: Some(usize::from(seat)),
                }
            })
            .collect();
        Some(Outcome {
            winners,
            scores,
            end: match ended {
                Ended::Rule => self.end_reason.clone(),
                Ended::Now => self.now_reason.clone(),
                Ended::TurnLimit => "turn-limit".into(),
                Ended::Stuck { .. } | Ended::Failed { .. } => return None,
            },
            // Turns completed: an end `now` comes in the middle of one.
            turns: if ended == Ended::Now {
                state.turn.saturating_sub(1)
            } else {
                state.turn
            },
            tallies,
        })
    }

    fn observe(&self, state: &State, seat: Seat, rng: &mut GameRng) -> State {
        self.observation(state, seat, rng)
    }

    fn heuristic(&self, state: &State, seat: Seat) -> f64 {
        let Some(worth) = &self.worth else {
            return 0.0;
        };
        self.worth_of(
            worth,
            &Ctx {
                state,
                player: seat,
                card: -1,
                row: -1,
            },
        )
    }

    fn format_action(&self, state: &State, action: &Action) -> String {
        self.notation(state, action, None, false)
    }

    fn parse_action(&self, state: &State, text: &str) -> Result<Action, String> {
        self.parse(state, text)
    }

    fn describe_event(&self, state: &State, event: &Event) -> String {
        self.event_text(state, event, None, true)
    }

    fn format_action_for(&self, before: &State, action: &Action, viewer: Option<Seat>) -> String {
        self.notation(before, action, viewer, true)
    }

    fn describe_event_for(&self, state: &State, event: &Event, viewer: Option<Seat>) -> String {
        self.event_text(state, event, viewer, false)
    }

    fn zones(&self, state: &State) -> Vec<(String, Vec<String>)> {
        (0..state.piles.len())
            .map(|p| {
                let set = &self.sets[self.zones[self.locate(p).0].set];
                let cards = state.piles[p]
                    .iter()
                    .map(|&c| set.cards[usize::from(c & TYPE_MASK)].clone())
                    .collect();
                (self.pile_name(p), cards)
            })
            .collect()
    }

    fn render(&self, state: &State, seat: Option<Seat>) -> String {
        self.table(state, seat)
    }

    fn prompt(&self, state: &State) -> String {
        self.step_prompt(state)
    }

    fn score_breakdown(&self, state: &State) -> Vec<(Seat, Vec<(String, i64)>)> {
        self.breakdown(state)
    }

    fn inspect(&self, state: &State, query: &str) -> Result<String, String> {
        self.answer(state, query)
    }

    fn notation_help(&self) -> String {
        self.help()
    }

    fn takes_positions(&self) -> bool {
        true
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        if let Some(f) = &state.figures.0
            && !f.ring.is_consistent()
        {
            return Err(format!(
                "the ring's seats and figures disagree: {:?}",
                f.ring
            ));
        }
        if let (Some(board), Some(f)) = (&self.board, &state.figures.0)
            && *f.kind_totals != board.summed_totals(f)
        {
            return Err(format!(
                "the figures' kept counter totals {:?} are not their sums {:?}",
                *f.kind_totals,
                board.summed_totals(f)
            ));
        }
        if let (Some(board), Some(f)) = (&self.board, &state.figures.0)
            && let Some((t, held, game)) = board.over_total(f, state.players)
        {
            return Err(format!(
                "the `{}` figures hold {held} {}, and the game has {game}",
                board.kinds[t.kind].name, board.counters[t.counter]
            ));
        }
        self.check_held(state)?;
        // Sets no zone holds (a ring's seats and plates) are not cards in play.
        let held = |si: usize| self.zones.iter().any(|z| z.set == si);
        for (si, set) in self.sets.iter().enumerate().filter(|&(si, _)| held(si)) {
            // A set each seat has its own copy of.
            let copies = if self
                .zones
                .iter()
                .any(|z| z.set == si && z.start_all && z.owned)
            {
                usize::from(state.players)
            } else {
                1
            };
            let mut seen = vec![0usize; set.cards.len()];
            for (p, pile) in state.piles.iter().enumerate() {
                if self.zones[self.locate(p).0].set == si {
                    for &c in pile {
                        seen[usize::from(c & TYPE_MASK)] += 1;
                    }
                }
            }
            for (t, &n) in seen.iter().enumerate() {
                if n != usize::from(set.copies[t]) * copies {
                    return Err(format!(
                        "{} {}: {n} in play, {} in the set",
                        set.id,
                        set.cards[t],
                        usize::from(set.copies[t]) * copies
                    ));
                }
            }
        }
        Ok(())
    }
}

/// What `a op …` is whatever its right side, when the left decides: `and` and `or` do not
/// read their right side then.
#[inline(always)]
pub(super) fn decided(op: Op, a: i64) -> Option<i64> {
    match op {
        Op::And if a == 0 => Some(0),
        Op::Or if a != 0 => Some(1),
        _ => None,
    }
}

/// A binary operator on two evaluated sides (`and`/`or` once the left did not decide):
/// arithmetic keeps an undefined side ([`NONE`]) undefined.
#[inline(always)]
pub(super) fn binary(op: Op, a: i64, b: i64) -> i64 {
    match op {
        Op::And | Op::Or => i64::from(b != 0),
        Op::Eq => i64::from(a == b),
        Op::Ne => i64::from(a != b),
        Op::Lt => i64::from(a < b),
        Op::Le => i64::from(a <= b),
        Op::Gt => i64::from(a > b),
        Op::Ge => i64::from(a >= b),
        Op::Add | Op::Sub | Op::Mul => arithmetic(op, a, b),
        // Only a worth divides, in real numbers (`worth.rs`); never reached.
        Op::Div => a.checked_div(b).unwrap_or(NONE),
    }
}

/// `+ - *`: an undefined side ([`NONE`]) keeps the result undefined; leaving the range of a
/// pack's numbers fails the move (`fault.rs`).
#[inline(always)]
fn arithmetic(op: Op, a: i64, b: i64) -> i64 {
    if a == NONE || b == NONE {
        return NONE;
    }
    match op {
        Op::Add => super::fault::in_range(a.checked_add(b), "+", a, b),
        Op::Sub => super::fault::in_range(a.checked_sub(b), "-", a, b),
        _ => super::fault::in_range(a.checked_mul(b), "*", a, b),
    }
}

/// What is left to ask of a guard at `step` once its leading `step(…)` conjuncts are
/// answered: `None` when one of them is false (the guard is), else the rest of the chain.
fn after_steps(guard: &Expr, step: u8) -> Option<&Expr> {
    let at = |mask: u64| step < 64 && mask & (1 << step) != 0;
    match guard {
        Expr::Counter(CounterExpr::AtStep(mask)) if !at(*mask) => None,
        Expr::Bin(Op::And, l, r) => match &**l {
            Expr::Counter(CounterExpr::AtStep(mask)) => at(*mask).then(|| after_steps(r, step))?,
            _ => Some(guard),
        },
        _ => Some(guard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game set up in the storage of a finished one is the game `setup` gives: same
    /// state, same moves to the end, whatever the finished game's player count.
    #[test]
    fn a_game_set_up_in_a_finished_ones_storage_is_the_same_game() {
        use grail_engine::game::NoEvents;
        for (game, variant) in [
            ("artus", Some("advanced")),
            ("artus", None),
            ("king-arthur", Some("seals")),
        ] {
            let rules = super::super::random_games::bundled(game, variant);
            let (lo, hi) = rules.players;
            let mut spare = rules.setup(&Setup::new(hi, 99)).unwrap();
            let mut moves = Vec::new();
            for seed in 0..6u64 {
                let players = lo + seed as usize % (hi - lo + 1);
                let setup = Setup::new(players, seed);
                let mut fresh = rules.setup(&setup).unwrap();
                let mut reused = rules.setup_into(&setup, spare).unwrap();
                let mut n = 0;
                while rules.to_move(&fresh).is_some() {
                    assert_eq!(
                        format!("{fresh:?}"),
                        format!("{reused:?}"),
                        "{game} seed {seed}, move {n}"
                    );
                    rules.list(&fresh, &mut moves, false);
                    let pick = moves[(seed as usize * 7 + n) % moves.len()];
                    rules.apply(&mut fresh, &pick, &mut NoEvents);
                    rules.apply(&mut reused, &pick, &mut NoEvents);
                    n += 1;
                }
                assert_eq!(
                    rules.outcome(&fresh),
                    rules.outcome(&reused),
                    "{game} seed {seed}"
                );
                assert!(n > 30, "{game}: a whole game ({n} moves)");
                spare = reused;
            }
        }
    }

    fn at(mask: u64) -> Expr {
        Expr::Counter(CounterExpr::AtStep(mask))
    }

    #[test]
    fn a_guard_keeps_only_what_its_step_leaves_to_ask() {
        let rest = || Expr::Bin(Op::Gt, Box::new(Expr::Const(3)), Box::new(Expr::Const(0)));
        let guard = Expr::Bin(Op::And, Box::new(at(0b10)), Box::new(rest()));
        // At step 1 only the count is left; at step 0 the guard is false.
        assert!(matches!(
            after_steps(&guard, 1),
            Some(Expr::Bin(Op::Gt, ..))
        ));
        assert!(after_steps(&guard, 0).is_none());
        assert!(after_steps(&at(0b10), 0).is_none());
        // A guard not led by a step is asked whole.
        let plain = rest();
        assert!(std::ptr::eq(after_steps(&plain, 0).unwrap(), &plain));
    }
}
