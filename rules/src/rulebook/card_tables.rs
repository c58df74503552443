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
use super::conjuncts::{Path, chain, conjuncts, figure_compared, figure_named, paths};
use super::eval::Ctx;
use super::model::{Direct, Expr, FigureExpr, Param, Step};
use super::reads::{Reads, reads};
use super::state::{Action, State};

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
    pub(super) once: u64,
    /// Read the state and the card, not the figure or distance: asked per card.
    pub(super) per_card: u64,
    /// Read the state and the figure alone: asked once per figure the tables allow.
    pub(super) per_figure: u64,
    /// When `per_figure` is one conjunct naming the figure ([`figure_named`]): its index.
    pub(super) named: Option<usize>,
    /// Where each conjunct stands ([`Path`]); empty when the chain is too deep for paths.
    pub(super) paths: Vec<Path>,
    /// Read the state, and the figure and the card or the distance: asked per binding the
    /// tables allow.
    pub(super) per_binding: u64,
    /// What a listing can offer for a card without asking anything more.
    pub(super) quick: Quick,
    /// The conjuncts asked once, read directly (`direct.rs`); empty when one of them cannot
    /// be.
    pub(super) once_direct: Vec<Direct>,
    /// The figure the `named` conjunct names, read directly, and whether it is negated.
    pub(super) named_direct: Option<(Direct, bool)>,
    /// The fewest players the tables are for.
    pub(super) fewest: usize,
    /// By player count from `fewest`: the tables, if a game of that many could be set up.
    pub(super) tables: Vec<Option<Table>>,
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
pub(super) enum Quick {
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

/// What the conjuncts free of the state answer in games of one player count.
#[derive(Debug)]
pub(super) struct Table {
    /// Per step (bit `s`: step `s`), whether the conjuncts reading nothing but the step the
    /// game is at hold (`step(play)`) when that step is listed.
    pub(super) at_steps: u64,
    /// Figures in such a game (for an action without a figure: 1).
    pub(super) figures: usize,
    /// Per card type and figure (`card * figures + figure`): which of the action's distances
    /// they allow (bit `i`: its `i`-th; bit 0 for an action without distances).
    pub(super) allowed: Box<[u64]>,
    /// Per card type: whether any figure and distance is allowed.
    pub(super) any: Box<[bool]>,
    /// For a card-and-figure action, the figures and distances `allowed` gives each seat to
    /// move and card type, in the order of `figure_bindings`: what a listing
    /// offers when all the figures it names stand on the ring. `moves[starts[i]..starts[i +
    /// 1]]` for `i = seat * cards + card`.
    pub(super) moves: Box<[Args]>,
    pub(super) starts: Box<[u32]>,
    /// `moves` as the moves a listing offers for an unmarked card: copied as they are.
    pub(super) ready: Box<[Action]>,
}

/// The conjuncts of a guard free of the state (bit `i`: the `i`-th of its `and` chain), by
/// what of a binding they read: a table asks each as seldom as that allows, a conjunct
/// reading the card alone once per card, one reading the distance once per card and
/// distance, one reading the figure once per card and figure.
#[derive(Default)]
struct FreeSplit {
    card: u64,
    steps: u64,
    figure: u64,
    /// The figure and the distance, or the place or player: per binding.
    rest: u64,
}

impl FreeSplit {
    fn add(&mut self, bit: u64, r: Reads) {
        let figure = r.any(Reads::FIGURE);
        let steps = r.any(Reads::STEPS);
        let other = r.any(Reads::PLACE.and(Reads::PLAYER));
        match (figure, steps, other) {
            (false, false, false) => self.card |= bit,
            (false, true, false) => self.steps |= bit,
            (true, false, false) => self.figure |= bit,
            _ => self.rest |= bit,
        }
    }
}

/// The figures a conjunct naming `named` allows: that one, or all others when `negated`.
#[inline(always)]
pub(super) fn allowed_by(named: i64, negated: bool) -> u64 {
    let bit = u32::try_from(named)
        .ok()
        .and_then(|n| 1u64.checked_shl(n))
        .unwrap_or(0);
    if negated { !bit } else { bit }
}

/// Bindings whose guard is asked over a card, a figure and a distance: the figure and the
/// `i`-th distance.
pub(super) fn binding(figure: usize, steps: &[i8], i: u32) -> Args {
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

    /// Whether action `a` takes a seat and its guard asks nothing of the seat but that it is
    /// free (`step(place) and empty(seat)`).
    pub(super) fn takes_a_free_seat(&self, a: usize) -> bool {
        matches!(self.derived.binding_once.get(a), Some(Some(split)) if split.free_seat)
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

    /// Per card type and figure (`card * figures + figure`), the distances (bit `i`: the
    /// `i`-th) the conjuncts of action `a`'s guard free of the state allow, asked in `state`:
    /// what a binding holds is what all of them hold, each asked as seldom as what it reads
    /// allows ([`FreeSplit`]).
    fn allowed_table(
        &self,
        a: usize,
        state: &State,
        split: &FreeSplit,
        (cards, figures): (usize, usize),
        steps: &[i8],
    ) -> Vec<u64> {
        let action = &self.actions[a];
        let with_figure = matches!(action.param, Param::CardFigure { .. });
        let guard = action.guard.as_ref().map(|g| &g.expr);
        let binding_of = |card: usize, figure: usize, i: u32| {
            let args = Args::of_card(card as u16);
            match with_figure {
                true => {
                    let b = binding(figure, steps, i);
                    args.with_figure(b.figure(), b.steps())
                }
                false => args,
            }
        };
        let holds = |mask: u64, args: Args| {
            mask == 0
                || guard.is_none_or(|g| {
                    self.conjuncts_hold(g, &Ctx::current(state, args), mask, &mut 0)
                })
        };
        let distances = steps.len().max(1) as u32;
        let mut allowed = vec![0u64; cards * figures];
        for card in 0..cards {
            if figures == 0 || !holds(split.card, binding_of(card, 0, 0)) {
                continue;
            }
            let by_steps = (0..distances)
                .filter(|&i| holds(split.steps, binding_of(card, 0, i)))
                .fold(0u64, |bits, i| bits | 1 << i);
            if by_steps == 0 {
                continue;
            }
            for figure in 0..figures {
                if !holds(split.figure, binding_of(card, figure, 0)) {
                    continue;
                }
                let mut bits = by_steps;
                let mut left = if split.rest == 0 { 0 } else { bits };
                while left != 0 {
                    let i = left.trailing_zeros();
                    left &= left - 1;
                    if !holds(split.rest, binding_of(card, figure, i)) {
                        bits &= !(1 << i);
                    }
                }
                allowed[card * figures + figure] = bits;
            }
        }
        allowed
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
        let (mut by_step, mut split) = (0u64, FreeSplit::default());
        for (i, r) in parts.iter().enumerate() {
            let bit = 1 << i;
            if !r.any(Reads::ARGS.and(Reads::STATE)) {
                by_step |= bit;
            } else if !r.any(Reads::ARGS) {
                plan.once |= bit;
            } else if !r.any(Reads::STATE.and(Reads::STEP)) {
                split.add(bit, *r);
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
        plan.tables = games
            .iter()
            .map(|game| {
                let state = game.as_ref()?;
                let figures = match (&state.figures.0, with_figure) {
                    (Some(f), true) => f.size.iter().map(|&n| usize::from(n)).sum(),
                    (None, true) => 0,
                    (_, false) => 1,
                };
                let allowed = self.allowed_table(a, state, &split, (cards, figures), steps);
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
        slow.derived.card_recipes.clear();
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
