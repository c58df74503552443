//! Card-by-card listings read from tables. The conjuncts of a guard that read only the
//! action's card, its figure and distance and the description itself (`moves_knight(card) =
//! 1`, `color(figure) = silver`, `steps <= high(card)`) give the same answer in every state
//! of a game: they are asked once, when the description compiles, for every player count,
//! card type, figure and distance, and a listing reads their answers as bits. Only the
//! conjuncts that read the state are asked as the game goes, each as seldom as what it reads
//! allows: once per listing (`step(play)`, `$rings - total(rings, prince) > 0`), per card, or
//! per binding the tables allow (`not (figure = holder(king))`).
//!
//! Whether a conjunct reads the state is decided from its expression alone ([`reads`]),
//! conservatively: anything not known to be free of the state is asked as the game goes.

use grail_engine::game::{NoEvents, Setup};

use super::Rulebook;
use super::args::Args;
use super::conjuncts::{
    Path, chain, conjuncts, figure_compared, figure_named, follow, nth_conjunct, paths,
};
use super::eval::Ctx;
use super::listed::Out;
use super::model::{Direct, Expr, FigureExpr, Param, Step, TYPE_MASK, ZoneRef};
use super::payment::Dearest;
use super::reads::{Reads, reads};
use super::state::{Action, Run, Seen, State};

/// How a listing over seats or figures asks an action's guard (`step(place) and
/// empty(seat)`): the conjuncts reading no seat or figure once, and the rest per binding.
#[derive(Clone, Copy, Debug)]
pub(super) struct BindingSplit {
    /// Bit `i`: the `i`-th conjunct of its `and` chain is asked once.
    once: u64,
    /// The one conjunct asked per binding is `empty(seat)`: a free seat of the ring.
    free_seat: bool,
}

/// Which conjuncts of an action's guard a listing asks per seat or figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PerBinding {
    /// The whole guard (it has more conjuncts than a mask holds).
    Whole,
    /// These (bit `i`: the `i`-th of its `and` chain).
    Conjuncts(u64),
    /// `empty(seat)` alone, answered by the ring without evaluating it.
    FreeSeat,
}

/// How a listing asks one action's guard: which conjuncts (bit `i`: the `i`-th of its `and`
/// chain) are asked as the game goes, and the answers of the others by player count.
#[derive(Debug)]
pub(super) struct Plan {
    /// Read the state, and no card, figure or distance: asked once per listing.
    once: u64,
    /// Read the state and the card, not the figure or distance: asked per card.
    per_card: u64,
    /// Read the state and the figure alone: asked once per figure the tables allow.
    per_figure: u64,
    /// When `per_figure` is one conjunct naming the figure ([`figure_named`]): its index.
    named: Option<usize>,
    /// Where each conjunct stands ([`Path`]); empty when the chain is too deep for paths.
    paths: Vec<Path>,
    /// Read the state, and the figure and the card or the distance: asked per binding the
    /// tables allow.
    per_binding: u64,
    /// What a listing can offer for a card without asking anything more.
    quick: Quick,
    /// The conjuncts asked once, read directly (`direct.rs`); empty when one of them cannot
    /// be.
    once_direct: Vec<Direct>,
    /// The figure the `named` conjunct names, read directly, and whether it is negated.
    named_direct: Option<(Direct, bool)>,
    /// The fewest players the tables are for.
    fewest: usize,
    /// By player count from `fewest`: the tables, if a game of that many could be set up.
    tables: Vec<Option<Table>>,
}

impl Plan {
    /// The moves ready to copy of its `at`-th table (`listed.rs` reads runs of them).
    pub(super) fn ready(&self, at: usize) -> Option<&[Action]> {
        Some(&self.tables.get(at)?.as_ref()?.ready)
    }
}

/// What a listing offers for a card of an action whose conjuncts left to ask, if any, are
/// asked once per listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quick {
    /// Its table's moves for the seat and card (when all its figures stand on the ring).
    Table,
    /// The card alone: an action with no figure and nothing to pay.
    One,
    /// Its table's moves of the figures one conjunct allows (`not (figure = holder(king))`),
    /// the figure it names asked once per listing.
    Named,
    /// Nothing without asking more ([`Rulebook::card_moves`]).
    Ask,
}

/// What a card-by-card listing has asked so far, per action of its step (slot or bit `k`).
#[derive(Default)]
struct Asked {
    /// The figures whose conjuncts reading the figure alone were asked, and those where they
    /// hold (`u64::MAX` asked: one named figure, asked once).
    asked: [u64; 8],
    allowed: [u64; 8],
    /// Whether all the figures the action names stand on the ring, once asked.
    seated_asked: u8,
    seated: u8,
}

/// What the conjuncts free of the state answer in games of one player count.
#[derive(Debug)]
struct Table {
    /// Per step (bit `s`: step `s`), whether the conjuncts reading nothing but the step the
    /// game is at hold (`step(play)`) when that step is listed.
    at_steps: u64,
    /// Figures in such a game (for an action without a figure: 1).
    figures: usize,
    /// Per card type and figure (`card * figures + figure`): which of the action's distances
    /// they allow (bit `i`: its `i`-th; bit 0 for an action without distances).
    allowed: Box<[u64]>,
    /// Per card type: whether any figure and distance is allowed.
    any: Box<[bool]>,
    /// For a card-and-figure action, the figures and distances `allowed` gives each seat to
    /// move and card type, in the order of `figure_bindings`: what a listing
    /// offers when all the figures it names stand on the ring. `moves[starts[i]..starts[i +
    /// 1]]` for `i = seat * cards + card`.
    moves: Box<[Args]>,
    starts: Box<[u32]>,
    /// `moves` as the moves a listing offers for an unmarked card: copied as they are.
    ready: Box<[Action]>,
}

/// The figures a conjunct naming `named` allows: that one, or all others when `negated`.
#[inline(always)]
fn allowed_by(named: i64, negated: bool) -> u64 {
    let bit = u32::try_from(named)
        .ok()
        .and_then(|n| 1u64.checked_shl(n))
        .unwrap_or(0);
    if negated { !bit } else { bit }
}

/// Bindings whose guard is asked over a card, a figure and a distance: the figure and the
/// `i`-th distance.
fn binding(figure: usize, steps: &[i8], i: u32) -> Args {
    Args::of_figure(figure as u8, steps.get(i as usize).copied().unwrap_or(0))
}

impl Rulebook {
    /// Per action with a seat or figure parameter, the conjuncts of its guard that read
    /// neither (`step(place)` of `step(place) and empty(seat)`): a listing asks them once.
    pub(super) fn binding_splits(&self) -> Vec<Option<BindingSplit>> {
        (self.actions.iter())
            .map(|action| {
                let guard = action.guard.as_ref()?;
                if !matches!(action.param, Param::Seat | Param::Figure { .. }) {
                    return None;
                }
                let mut parts = Vec::new();
                chain(&guard.expr, &mut parts);
                if parts.len() > 64 {
                    return None;
                }
                let once = (parts.iter().enumerate())
                    .filter(|(_, e)| !reads(e).any(Reads::ARGS))
                    .fold(0, |once, (i, _)| once | 1 << i);
                let mut rest = (parts.iter().enumerate()).filter(|&(i, _)| once & 1 << i == 0);
                let free_seat = matches!(action.param, Param::Seat)
                    && matches!(
                        (rest.next(), rest.next()),
                        (Some((_, Expr::Figures(FigureExpr::Empty(s)))), None)
                            if matches!(**s, Expr::Row)
                    );
                Some(BindingSplit { once, free_seat })
            })
            .collect()
    }

    /// For a listing of action `a` over its seats or figures: `None` when the conjuncts of
    /// its guard asked once refuse, else those left to ask per binding.
    pub(super) fn binding_guard(&self, state: &State, a: usize) -> Option<PerBinding> {
        let Some(&Some(BindingSplit { once, free_seat })) = self.derived.binding_once.get(a) else {
            return Some(PerBinding::Whole);
        };
        let guard = self.actions[a].guard.as_ref().map(|g| &g.expr);
        let ctx = Ctx::current(state, Args::NONE);
        guard
            .is_none_or(|g| once == 0 || self.conjuncts_hold(g, &ctx, once, &mut 0))
            .then_some(match free_seat {
                true => PerBinding::FreeSeat,
                false => PerBinding::Conjuncts(!once),
            })
    }

    /// Whether the conjuncts `rest` of action `a`'s guard hold for a seat or figure.
    pub(super) fn binding_holds(
        &self,
        state: &State,
        a: usize,
        rest: PerBinding,
        binding: Args,
    ) -> bool {
        if rest == PerBinding::FreeSeat {
            let seats = self.board.as_ref().map_or(0, |b| b.seats);
            return (state.figures.0.as_ref())
                .zip(
                    u8::try_from(binding.place())
                        .ok()
                        .filter(|&s| usize::from(s) < seats),
                )
                .is_some_and(|(f, s)| f.ring.is_free(s));
        }
        self.actions[a].guard.as_ref().is_none_or(|g| {
            let ctx = Ctx::current(state, binding);
            match rest {
                PerBinding::Whole => self.eval(&g.expr, &ctx) != 0,
                PerBinding::Conjuncts(mask) => self.conjuncts_hold(&g.expr, &ctx, mask, &mut 0),
                PerBinding::FreeSeat => true,
            }
        })
    }

    /// The plans of the actions of steps offered card by card that name a figure with the
    /// card (the steps that list slowly without them), by action; `None` for the others.
    pub(super) fn plan_card_listings(&self) -> Vec<Option<Plan>> {
        let mut plans: Vec<Option<Plan>> = self.actions.iter().map(|_| None).collect();
        let tabled = |s: &&Step| {
            s.by_card
                && s.actions.len() <= 8
                && s.actions
                    .iter()
                    .any(|&a| matches!(self.actions[a].param, Param::CardFigure { .. }))
        };
        // A game of each player count, set up to ask the conjuncts free of the state in.
        let games: Vec<Option<State>> = (self.players.0..=self.players.1)
            .map(|p| self.new_state(&Setup::new(p, 0), &mut NoEvents).ok())
            .collect();
        for step in self.steps.iter().filter(tabled) {
            for &a in &step.actions {
                if plans[a].is_none() {
                    plans[a] = self.plan(a, &games);
                }
            }
        }
        plans
    }

    /// Action `a`'s plan; `None` for an action listed otherwise.
    fn plan(&self, a: usize, games: &[Option<State>]) -> Option<Plan> {
        let action = &self.actions[a];
        let (zone, steps) = match &action.param {
            Param::Card(z) => (z, &[][..]),
            Param::CardFigure { card, steps, .. } => (card, &steps[..]),
            _ => return None,
        };
        if self.zones[zone.zone].marks.is_some() || steps.len() > 64 || self.steps.len() > 64 {
            return None;
        }
        let mut parts = Vec::new();
        if let Some(g) = &action.guard {
            conjuncts(&g.expr, &mut parts);
        }
        if parts.len() > 64 {
            return None;
        }
        let mut plan = Plan {
            once: 0,
            per_card: 0,
            per_figure: 0,
            named: None,
            paths: Vec::new(),
            per_binding: 0,
            quick: Quick::Ask,
            once_direct: Vec::new(),
            named_direct: None,
            fewest: self.players.0,
            tables: Vec::new(),
        };
        let with_figure = matches!(action.param, Param::CardFigure { .. });
        let (mut by_step, mut free) = (0u64, 0u64);
        for (i, r) in parts.iter().enumerate() {
            let bit = 1 << i;
            if !r.any(Reads::ARGS.and(Reads::STATE)) {
                by_step |= bit;
            } else if !r.any(Reads::ARGS) {
                plan.once |= bit;
            } else if !r.any(Reads::STATE.and(Reads::STEP)) {
                free |= bit;
            } else if !r.any(Reads::AFTER_CARD) {
                plan.per_card |= bit;
            } else if with_figure && !r.any(Reads::ARGS.without(Reads::FIGURE)) {
                plan.per_figure |= bit;
            } else {
                plan.per_binding |= bit;
            }
        }
        if let Some(g) = &action.guard
            && paths(
                &g.expr,
                Path {
                    rights: 0,
                    depth: 0,
                },
                &mut plan.paths,
            )
            .is_none()
        {
            plan.paths.clear();
        }
        if plan.per_figure.count_ones() == 1 {
            let i = plan.per_figure.trailing_zeros() as usize;
            let mut parts = Vec::new();
            if let Some(g) = &action.guard {
                chain(&g.expr, &mut parts);
            }
            plan.named = parts.get(i).and_then(|e| figure_named(e)).map(|_| i);
        }
        if let Some(g) = &action.guard {
            let mut parts = Vec::new();
            chain(&g.expr, &mut parts);
            let once = (0..parts.len()).filter(|&i| plan.once & 1 << i != 0);
            plan.once_direct = once
                .map(|i| Direct::of(parts[i]))
                .collect::<Option<_>>()
                .unwrap_or_default();
            plan.named_direct = (plan.named)
                .and_then(|i| figure_compared(parts.get(i)?))
                .and_then(|(e, negated)| Some((Direct::of(e)?, negated)));
        }
        if plan.per_card | plan.per_figure | plan.per_binding == 0 {
            plan.quick = match with_figure {
                true => Quick::Table,
                // A choice of figures is the move after it: the card is listed alone.
                false if action.pay.is_none() => Quick::One,
                false => Quick::Ask,
            };
        } else if with_figure && plan.per_card | plan.per_binding == 0 && plan.named.is_some() {
            plan.quick = Quick::Named;
        }
        let cards = self.sets[self.zones[zone.zone].set].cards.len();
        let distances = steps.len().max(1);
        plan.tables = games
            .iter()
            .map(|game| {
                let state = game.as_ref()?;
                let figures = match (&state.figures.0, with_figure) {
                    (Some(f), true) => f.size.iter().map(|&n| usize::from(n)).sum(),
                    (None, true) => 0,
                    (_, false) => 1,
                };
                let mut allowed = vec![0u64; cards * figures];
                for card in 0..cards {
                    for figure in 0..figures {
                        let mut bits = 0u64;
                        for i in 0..distances as u32 {
                            let mut args = Args::of_card(card as u16);
                            if with_figure {
                                let b = binding(figure, steps, i);
                                args = args.with_figure(b.figure(), b.steps());
                            }
                            let ctx = Ctx::current(state, args);
                            let guard = action.guard.as_ref().map(|g| &g.expr);
                            if guard.is_none_or(|g| self.conjuncts_hold(g, &ctx, free, &mut 0)) {
                                bits |= 1 << i;
                            }
                        }
                        allowed[card * figures + figure] = bits;
                    }
                }
                let at_steps = (0..self.steps.len().min(64)).fold(0u64, |at, s| {
                    let mut listed = state.clone();
                    listed.step = s as u8;
                    let ctx = Ctx::current(&listed, Args::NONE);
                    let guard = action.guard.as_ref().map(|g| &g.expr);
                    match guard.is_none_or(|g| self.conjuncts_hold(g, &ctx, by_step, &mut 0)) {
                        true => at | 1 << s,
                        false => at,
                    }
                });
                let any = (0..cards)
                    .map(|c| {
                        allowed[c * figures..(c + 1) * figures]
                            .iter()
                            .any(|&b| b != 0)
                    })
                    .collect();
                let (mut moves, mut starts, mut ready) = (Vec::new(), vec![0u32], Vec::new());
                if let (Param::CardFigure { refs, .. }, Some(board), Some(fig)) =
                    (&action.param, &self.board, &state.figures.0)
                {
                    for seat in 0..usize::from(state.players) {
                        for card in 0..cards {
                            for &(kind, who) in refs {
                                let owner = (who == super::model::Who::Current).then_some(seat);
                                for m in board.members(fig, kind, owner) {
                                    let at = card * figures + usize::from(m);
                                    let mut bits = allowed.get(at).copied().unwrap_or(0);
                                    while bits != 0 {
                                        let fa =
                                            binding(usize::from(m), steps, bits.trailing_zeros());
                                        moves.push(fa);
                                        ready
                                            .push(Action::new(a as u16, fa.with_card(card as u16)));
                                        bits &= bits - 1;
                                    }
                                }
                            }
                            starts.push(u32::try_from(moves.len()).ok()?);
                        }
                    }
                }
                Some(Table {
                    moves: moves.into_boxed_slice(),
                    ready: ready.into_boxed_slice(),
                    starts: starts.into_boxed_slice(),
                    at_steps,
                    figures,
                    allowed: allowed.into_boxed_slice(),
                    any,
                })
            })
            .collect();
        Some(plan)
    }

    /// Per step and player count (from the fewest), per card type, the step's actions whose
    /// tables give the type any move at that step (bit `k`: its `k`-th action); empty where
    /// a step is not read from tables.
    pub(super) fn card_masks(&self) -> Vec<Vec<Box<[u8]>>> {
        let counts = self.players.0..=self.players.1;
        (self.steps.iter().enumerate())
            .map(|(s, step)| {
                let plans: Option<Vec<&Plan>> = (step.actions.len() <= 8)
                    .then(|| {
                        (step.actions.iter())
                            .map(|&a| self.derived.card_plans.get(a).and_then(Option::as_ref))
                            .collect()
                    })
                    .flatten();
                let Some(plans) = plans.filter(|p| !p.is_empty()) else {
                    return Vec::new();
                };
                (counts.clone())
                    .map(|players| {
                        let tables: Option<Vec<&Table>> = (plans.iter())
                            .map(|plan| {
                                let i = players.checked_sub(plan.fewest)?;
                                plan.tables.get(i)?.as_ref()
                            })
                            .collect();
                        let Some(tables) = tables else {
                            return Box::default();
                        };
                        let types = tables.iter().map(|t| t.any.len()).max().unwrap_or(0);
                        (0..types)
                            .map(|t| {
                                // `step(…)` conjuncts answered for this step here.
                                let at = |table: &Table| {
                                    1u64.checked_shl(s as u32)
                                        .is_some_and(|bit| table.at_steps & bit != 0)
                                };
                                (tables.iter().enumerate())
                                    .filter(|(_, table)| table.any.get(t).copied().unwrap_or(false))
                                    .filter(|(_, table)| at(table))
                                    .fold(0u8, |mask, (k, _)| mask | 1 << k)
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }

    /// Whether the conjuncts of `guard` a listing asks once hold, reached by their paths
    /// (out of line: asked once per listing, it would only crowd the card loop).
    #[inline(never)]
    fn once_holds(&self, plan: &Plan, guard: &Expr, ctx: &Ctx) -> bool {
        if !plan.once_direct.is_empty() {
            return plan.once_direct.iter().all(|d| self.read(d, ctx) != 0);
        }
        if plan.paths.is_empty() {
            return self.conjuncts_hold(guard, ctx, plan.once, &mut 0);
        }
        let mut once = plan.once;
        while once != 0 {
            let i = once.trailing_zeros() as usize;
            once &= once - 1;
            if self.eval(follow(guard, plan.paths[i]), ctx) == 0 {
                return false;
            }
        }
        true
    }

    /// The moves of a step offered card by card read from the tables of its actions' plans
    /// ([`Rulebook::by_card`] says what they are); false, listing nothing, when a plan or
    /// its table for this player count is missing.
    pub(super) fn by_card_tabled(
        &self,
        state: &State,
        step: &Step,
        zone: &ZoneRef,
        memo_fits: bool,
        out: &mut Out,
    ) -> bool {
        if step.actions.len() > 8 {
            return false;
        }
        let players = usize::from(state.players);
        let ctx = Ctx::current(state, Args::NONE);
        // The actions still listing (bit `k`): cleared when what one asks once refuses.
        // Whether each lists anything at this step is in the masks (`card_masks`), which are
        // there only when every action has its plan and table.
        let mut live_mask = u8::MAX;
        let Some(masks) = (self.derived.card_masks.get(usize::from(state.step)))
            .and_then(|m| m.get(players.wrapping_sub(self.players.0)))
            .filter(|m| !m.is_empty())
        else {
            return false;
        };
        let mut once_asked = 0u8;
        let mut found: [Option<(usize, &Plan, &Table)>; 8] = [None; 8];
        let mut asked = Asked::default();
        // Every figure on the ring (all game long once placed, in most games): every action
        // has its figures there, asked once here rather than by the first card needing it.
        if self.every_figure_seated(state) {
            (asked.seated_asked, asked.seated) = (u8::MAX, u8::MAX);
        }
        for p in self.piles_of(zone, &ctx) {
            for c in Seen::distinct(&state.piles[p]) {
                let t = usize::from(c & TYPE_MASK);
                // The live actions the tables give this card type any move, in order.
                let mut ks = masks.get(t).copied().unwrap_or(0) & live_mask;
                while ks != 0 {
                    let k = ks.trailing_zeros() as usize;
                    ks &= ks - 1;
                    // Looked up for the first card that needs it, not for every action up
                    // front, and kept for the cards after it.
                    let (a, plan, table) = match found[k & 7] {
                        Some(f) => f,
                        None => match self.card_table(step, k, players) {
                            Some(f) => *found[k & 7].insert(f),
                            None => continue,
                        },
                    };
                    if plan.once != 0 && once_asked & 1 << k == 0 {
                        once_asked |= 1 << k;
                        let guard = self.actions[a].guard.as_ref().map(|g| &g.expr);
                        // One conjunct read directly (a supply check): read in place.
                        let holds = match &plan.once_direct[..] {
                            [d] => guard.is_none() || self.read(d, &ctx) != 0,
                            _ => guard.is_none_or(|g| self.once_holds(plan, g, &ctx)),
                        };
                        if !holds {
                            live_mask &= !(1 << k);
                            continue;
                        }
                    }
                    match plan.quick {
                        Quick::One => {
                            out.push(Action::new(a as u16, Args::of_card(c)));
                            continue;
                        }
                        Quick::Table | Quick::Named => {
                            // The table's moves for this seat and card, when they are the
                            // card's: copied as they are, or those of the figures allowed.
                            let at = usize::from(state.current) * table.any.len() + t;
                            if let Some(w) = (usize::from(c) == t
                                && self.all_seated(state, &mut asked, k, a))
                            .then(|| table.starts.get(at..at + 2))
                            .flatten()
                            {
                                let (lo, hi) = (w[0] as usize, w[1] as usize);
                                if plan.quick == Quick::Table {
                                    let at = players.wrapping_sub(plan.fewest);
                                    out.run(Run::new(a, at, lo, hi), &table.ready[lo..hi]);
                                    continue;
                                }
                                let allowed = self.named_figures(state, &mut asked, k, a, plan);
                                let moves = table.moves[lo..hi].iter().zip(&table.ready[lo..hi]);
                                for (&fa, ready) in moves {
                                    let figure = u32::from(fa.figure());
                                    if 1u64.checked_shl(figure).is_some_and(|b| allowed & b != 0) {
                                        out.push(*ready);
                                    }
                                }
                                continue;
                            }
                        }
                        Quick::Ask => {}
                    }
                    let card = (k, a, plan, table, i32::from(c));
                    self.card_moves(state, card, memo_fits, &mut asked, out);
                }
            }
        }
        true
    }

    /// The `k`-th action of a tabled step, its plan and its table for `players`.
    #[inline(always)]
    fn card_table(&self, step: &Step, k: usize, players: usize) -> Option<(usize, &Plan, &Table)> {
        let a = *step.actions.get(k)?;
        let plan = self.derived.card_plans.get(a)?.as_ref()?;
        let table = plan
            .tables
            .get(players.wrapping_sub(plan.fewest))?
            .as_ref()?;
        Some((a, plan, table))
    }

    /// Whether all the figures action `a` (the `k`-th of the step) names stand on the ring,
    /// asked once per listing.
    #[inline(always)]
    fn all_seated(&self, state: &State, asked: &mut Asked, k: usize, a: usize) -> bool {
        if asked.seated_asked & 1 << k == 0 {
            self.ask_seated(state, asked, k, a);
        }
        asked.seated & 1 << k != 0
    }

    /// [`Rulebook::all_seated`] asked (out of line: once per listing).
    #[inline(never)]
    fn ask_seated(&self, state: &State, asked: &mut Asked, k: usize, a: usize) {
        asked.seated_asked |= 1 << k;
        let (Some(board), Some(fig), Param::CardFigure { refs, .. }) =
            (&self.board, &state.figures.0, &self.actions[a].param)
        else {
            return;
        };
        // Once every figure stands on the ring (all game long, in most games), every action
        // has its figures there.
        if self.every_figure_seated(state) {
            (asked.seated_asked, asked.seated) = (u8::MAX, u8::MAX);
            return;
        }
        let on_ring = refs.iter().all(|&(kind, who)| {
            let owner = (who == super::model::Who::Current).then_some(usize::from(state.current));
            board
                .members(fig, kind, owner)
                .all(|m| fig.ring.seat_of(m).is_some())
        });
        asked.seated |= u8::from(on_ring) << k;
    }

    /// Whether every figure of the game stands on the ring (false without one).
    #[inline(always)]
    fn every_figure_seated(&self, state: &State) -> bool {
        let (Some(_), Some(fig)) = (&self.board, &state.figures.0) else {
            return false;
        };
        // Figures are numbered kind after kind: the last kind's end is their count.
        let figures = (fig.base.last().zip(fig.size.last()))
            .map_or(0, |(&b, &n)| usize::from(b) + usize::from(n));
        fig.ring.all_seated(figures)
    }

    /// The figures the one conjunct naming a figure allows (`not (figure = holder(king))`),
    /// its named figure asked once per listing.
    #[inline(always)]
    fn named_figures(
        &self,
        state: &State,
        asked: &mut Asked,
        k: usize,
        a: usize,
        plan: &Plan,
    ) -> u64 {
        if asked.asked[k] == 0 {
            match &plan.named_direct {
                // A figure read directly (`holder(king)`): in place, no call.
                Some((d, negated)) => {
                    let named = self.read(d, &Ctx::current(state, Args::NONE));
                    asked.asked[k] = u64::MAX;
                    asked.allowed[k] = allowed_by(named, *negated);
                }
                None => self.ask_named(state, asked, k, a, plan),
            }
        }
        asked.allowed[k]
    }

    /// Asks the figure the conjunct naming one names, once per listing (out of line: the
    /// listing's loops stay small).
    #[inline(never)]
    fn ask_named(&self, state: &State, asked: &mut Asked, k: usize, a: usize, plan: &Plan) {
        let ctx = Ctx::current(state, Args::NONE);
        let (named, negated) = match &plan.named_direct {
            Some((d, negated)) => (self.read(d, &ctx), *negated),
            None => match self.named_by_eval(a, plan, &ctx) {
                Some(named) => named,
                None => return,
            },
        };
        asked.asked[k] = u64::MAX;
        asked.allowed[k] = allowed_by(named, negated);
    }

    /// The figure the `named` conjunct of action `a`'s guard names, evaluated, and whether
    /// the conjunct is negated.
    fn named_by_eval(&self, a: usize, plan: &Plan, ctx: &Ctx) -> Option<(i64, bool)> {
        let guard = self.actions[a].guard.as_ref().map(|g| &g.expr);
        let named = (plan.named)
            .zip(guard)
            .and_then(|(i, g)| match plan.paths.get(i) {
                Some(&path) => Some(follow(g, path)),
                None => nth_conjunct(g, &mut { i }),
            })
            // Its shape and reads were found when the plan was made.
            .and_then(figure_compared)?;
        let (e, negated) = named;
        Some((self.eval(e, ctx), negated))
    }

    /// The moves of one card for the `k`-th action `a` of the step when its table's moves
    /// cannot be copied as they are: conjuncts left to ask per card, figure or binding, a
    /// figure off the ring, a payment. Out of line, to keep the copying loop small.
    #[inline(never)]
    fn card_moves(
        &self,
        state: &State,
        (k, a, plan, table, card): (usize, usize, &Plan, &Table, i32),
        memo_fits: bool,
        asked: &mut Asked,
        out: &mut Out,
    ) {
        let t = (card & i32::from(TYPE_MASK)) as usize;
        let guard = self.actions[a].guard.as_ref().map(|g| &g.expr);
        let ask = |mask: u64, binding: Args| {
            mask == 0
                || guard.is_none_or(|g| {
                    let ctx = Ctx::current(state, binding.with_card(card as u16));
                    self.conjuncts_hold(g, &ctx, mask, &mut 0)
                })
        };
        if !ask(plan.per_card, Args::NONE) {
            return;
        }
        let Param::CardFigure { refs, steps, .. } = &self.actions[a].param else {
            // What the payer's cards allow is worked out for this card alone: the tabled
            // steps seldom ask it.
            let d = &Dearest::after_refresh(memo_fits);
            if ask(plan.per_binding, Args::NONE) && self.payable(state, a, Args::of_entry(card), d)
            {
                out.push(Action::new(a as u16, Args::of_entry(card)));
            }
            return;
        };
        let (Some(board), Some(fig)) = (&self.board, &state.figures.0) else {
            return;
        };
        // The figure a conjunct names, asked once: the mask of those it allows.
        if asked.asked[k] == 0 && plan.named.is_some() {
            self.ask_named(state, asked, k, a, plan);
        }
        // With all its figures on the ring, the moves the tables give the card, those of
        // figures the conjuncts reading the figure allow.
        let whole = plan.per_binding == 0
            && (plan.per_figure == 0 || asked.asked[k] == u64::MAX)
            && self.all_seated(state, asked, k, a);
        let i = usize::from(state.current) * table.any.len() + t;
        if whole && let Some(w) = table.starts.get(i..i + 2) {
            let (lo, hi) = (w[0] as usize, w[1] as usize);
            let allowed = asked.allowed[k];
            let figure_ok = |fa: Args| {
                plan.per_figure == 0
                    || 1u64
                        .checked_shl(u32::from(fa.figure()))
                        .is_some_and(|b| allowed & b != 0)
            };
            out.reserve(hi - lo);
            for (&fa, ready) in table.moves[lo..hi].iter().zip(&table.ready[lo..hi]) {
                if figure_ok(fa) {
                    out.push(match usize::try_from(card) == Ok(t) {
                        true => *ready,
                        false => Action::new(a as u16, fa.with_card(card as u16)),
                    });
                }
            }
            return;
        }
        let row = &table.allowed[t * table.figures..(t + 1) * table.figures];
        // In the order of `figure_bindings`: the references as listed, each kind's figures
        // on the ring by id, each one's distances as declared.
        for &(kind, who) in refs {
            let owner = (who == super::model::Who::Current).then_some(usize::from(state.current));
            for m in board.members(fig, kind, owner) {
                if fig.ring.seat_of(m).is_none() {
                    continue;
                }
                let mut bits = row.get(usize::from(m)).copied().unwrap_or(0);
                if bits != 0 && plan.per_figure != 0 {
                    let figure_ok = || ask(plan.per_figure, Args::of_figure(m, 0));
                    let holds = match 1u64.checked_shl(u32::from(m)) {
                        Some(bit) => {
                            if asked.asked[k] & bit == 0 {
                                asked.asked[k] |= bit;
                                asked.allowed[k] |= if figure_ok() { bit } else { 0 };
                            }
                            asked.allowed[k] & bit != 0
                        }
                        None => figure_ok(),
                    };
                    if !holds {
                        bits = 0;
                    }
                }
                while bits != 0 {
                    let fa = binding(usize::from(m), steps, bits.trailing_zeros());
                    bits &= bits - 1;
                    if ask(plan.per_binding, fa) {
                        out.push(Action::new(a as u16, fa.with_card(card as u16)));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn artus() -> Rulebook {
        super::super::random_games::bundled("artus", Some("advanced"))
    }

    /// The actions of the step so named.
    fn step_actions<'r>(rules: &'r Rulebook, step: &str) -> &'r [usize] {
        let step = rules.steps.iter().find(|s| s.name == step);
        &step.expect("the step is declared").actions
    }

    /// Artus' `ring`: `step(play) and adds_ring(card) = 1 and not (figure = holder(king))
    /// and (silver(card) = 1 and color(figure) = silver or …) and $rings - total(rings,
    /// prince) > 0`: the step known for each step, the supply asked once, the card's
    /// attribute and the colours from the tables, the King once per figure.
    #[test]
    fn each_conjunct_is_asked_as_seldom_as_what_it_reads_allows() {
        let rules = artus();
        // The play step's actions: march, ride, ring, score all, score best, claim.
        let play = step_actions(&rules, "play");
        let plan = rules.derived.card_plans[play[2]]
            .as_ref()
            .expect("`ring` is tabled");
        assert_eq!(
            (plan.once, plan.per_card, plan.per_figure, plan.per_binding),
            (0b10000, 0, 0b00100, 0)
        );
        assert_eq!(plan.named, Some(2), "the King is named once per listing");
        let best = rules.derived.card_plans[play[4]]
            .as_ref()
            .expect("`score best` is tabled");
        assert_eq!(best.named, Some(2), "so is the best Knight");
        let plan = rules.derived.card_plans[play[0]]
            .as_ref()
            .expect("`march` is tabled");
        assert_eq!(
            (plan.once, plan.per_card, plan.per_figure, plan.per_binding),
            (0, 0, 0, 0),
            "`step(play)` is known for each step, the rest is the card's"
        );
        let play_step = rules.steps.iter().position(|s| s.name == "play").unwrap();
        let at_steps = plan.tables[0].as_ref().unwrap().at_steps;
        assert_eq!(at_steps, 1 << play_step);
    }

    /// Artus' `place`: `step(place) and empty(seat)`: the step asked once, the seat read
    /// off the ring.
    #[test]
    fn a_seat_that_must_be_empty_is_read_off_the_ring() {
        let rules = artus();
        let place = step_actions(&rules, "place");
        let split = rules.derived.binding_once[place[0]].expect("`place` is split");
        assert_eq!((split.once, split.free_seat), (0b01, true));
    }

    /// The tables list what asking the whole guard of every binding lists, in the same
    /// order, in every state of random games at every player count.
    #[test]
    fn the_tables_list_what_the_guards_allow() {
        let rules = artus();
        let mut slow = artus();
        slow.derived.card_plans.clear();
        slow.derived.card_masks.clear();
        slow.derived.binding_once.clear();
        for seed in 0..24 {
            let players = 2 + (seed as usize) % 3;
            let (mut fast, mut general) = (Vec::new(), Vec::new());
            let played = super::super::random_games::play(&rules, players, seed, |state, _, n| {
                rules.list(state, &mut fast, false);
                slow.list(state, &mut general, false);
                assert_eq!(fast, general, "seed {seed}, move {n}");
            });
            assert!(played > 50, "a whole game: {played} moves");
        }
    }
}
