//! Card-by-card listings read from the tables (`card_tables.rs`). Per step and player count,
//! a recipe says what a card of each type is offered, action by action, made once when the
//! description compiles: a listing looks up each distinct card's entries and keeps their
//! moves as a run of the table (or copies them), asking the state only what the tables leave
//! open: the conjuncts asked once, the figure one conjunct names, a figure off the ring.

use super::Rulebook;
use super::args::Args;
use super::card_tables::{Plan, Quick, Table, allowed_by, binding};
use super::conjuncts::{figure_compared, follow, nth_conjunct};
use super::eval::Ctx;
use super::listed::Out;
use super::model::{Expr, Param, Step, TYPE_MASK, ZoneRef};
use super::payment::Dearest;
use super::state::{Action, Run, Seen, State};

/// What a card-by-card listing offers each card type at one step in games of one player
/// count: per type, the step's actions whose tables give it any move there, in order.
#[derive(Debug)]
pub(super) struct CardRecipe {
    /// The zone the step's cards are listed from (its first action's, a whole zone).
    zone: ZoneRef,
    /// Per card type `t`: its entries are `entries[first[t]..first[t + 1]]`.
    first: Box<[u32]>,
    entries: Box<[Entry]>,
    /// Per entry and seat to move, its table's moves for the card type (`lo..hi`):
    /// `spans[entry.spans + seat]`; for an entry whose figures one conjunct names
    /// ([`Quick::Named`]), those moves in `named`.
    spans: Box<[[u32; 2]]>,
    /// The moves of the entries whose figures one conjunct names, each with its figure: a
    /// listing keeps those of the figures allowed.
    named: Box<[(u8, Action)]>,
}

/// One action a card type is offered.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The action's place in its step (bit `k` of what a listing has asked).
    k: u8,
    quick: Quick,
    /// Whether the action's guard has conjuncts asked once per listing.
    once: bool,
    /// Its table, by player count from the plan's fewest.
    table: u8,
    action: u16,
    /// Where its spans start; `u32::MAX` when its table has none (no figure to move).
    spans: u32,
}

impl CardRecipe {
    /// The entries of card type `t`.
    #[inline(always)]
    fn entries_of(&self, t: usize) -> &[Entry] {
        (self.first.get(t..t + 2))
            .and_then(|w| self.entries.get(w[0] as usize..w[1] as usize))
            .unwrap_or(&[])
    }

    /// The span of `entry`'s table for the seat to move.
    #[inline(always)]
    fn span(&self, entry: &Entry, seat: usize) -> Option<(usize, usize)> {
        let [lo, hi] = *self.spans.get((entry.spans as usize).wrapping_add(seat))?;
        Some((lo as usize, hi as usize))
    }
}

/// Asked of a card-by-card listing so far, per action of its step (slot or bit `k`).
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

impl Rulebook {
    /// Pass 9: per step and player count (from the fewest), its recipe; empty where a step
    /// is not read from tables (an action of it has no plan).
    pub(super) fn card_recipes(&self) -> Vec<Vec<Option<CardRecipe>>> {
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
                (self.players.0..=self.players.1)
                    .map(|players| self.recipe(s, step, &plans, players))
                    .collect()
            })
            .collect()
    }

    /// Step `s`'s recipe in games of `players`; `None` when a table is missing.
    fn recipe(&self, s: usize, step: &Step, plans: &[&Plan], players: usize) -> Option<CardRecipe> {
        let tables: Vec<(usize, &Table)> = (plans.iter())
            .map(|plan| {
                let i = players.checked_sub(plan.fewest)?;
                Some((i, plan.tables.get(i)?.as_ref()?))
            })
            .collect::<Option<_>>()?;
        let types = tables.iter().map(|(_, t)| t.any.len()).max().unwrap_or(0);
        // `step(…)` conjuncts answered for this step here.
        let at_step = |table: &Table| {
            1u64.checked_shl(s as u32)
                .is_some_and(|bit| table.at_steps & bit != 0)
        };
        let (mut first, mut entries, mut spans) = (vec![0u32], Vec::new(), Vec::new());
        let mut named = Vec::new();
        for t in 0..types {
            let actions = step.actions.iter().zip(plans.iter().zip(&tables));
            for (k, (&a, (plan, &(i, table)))) in actions.enumerate() {
                if !table.any.get(t).copied().unwrap_or(false) || !at_step(table) {
                    continue;
                }
                let cards = table.any.len();
                let spanned = table.starts.len() > 1;
                entries.push(Entry {
                    k: k as u8,
                    quick: plan.quick,
                    once: plan.once != 0,
                    table: u8::try_from(i).ok()?,
                    action: u16::try_from(a).ok()?,
                    spans: match spanned {
                        true => u32::try_from(spans.len()).ok()?,
                        false => u32::MAX,
                    },
                });
                if spanned {
                    for seat in 0..players {
                        let at = seat * cards + t;
                        let w = table.starts.get(at..at + 2)?;
                        if plan.quick != Quick::Named {
                            spans.push([w[0], w[1]]);
                            continue;
                        }
                        let (lo, hi) = (w[0] as usize, w[1] as usize);
                        let start = u32::try_from(named.len()).ok()?;
                        let moves = table
                            .moves
                            .get(lo..hi)?
                            .iter()
                            .zip(table.ready.get(lo..hi)?);
                        named.extend(moves.map(|(fa, &ready)| (fa.figure(), ready)));
                        spans.push([start, u32::try_from(named.len()).ok()?]);
                    }
                }
            }
            first.push(u32::try_from(entries.len()).ok()?);
        }
        // A zone named with a row is left to the listing that asks every guard.
        let zone = (step.actions.first())
            .and_then(|&a| self.actions[a].param.card_zone())
            .filter(|z| z.row.is_none())
            .map(|z| ZoneRef {
                zone: z.zone,
                who: z.who,
                row: None,
            })?;
        Some(CardRecipe {
            zone,
            first: first.into_boxed_slice(),
            entries: entries.into_boxed_slice(),
            spans: spans.into_boxed_slice(),
            named: named.into_boxed_slice(),
        })
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

    /// The moves of a step offered card by card read from its recipe ([`Rulebook::by_card`]
    /// says what they are): each distinct card of the zone, and for it the entries of its
    /// type; false, listing nothing, when the step has no recipe for this player count.
    pub(super) fn by_card_tabled(
        &self,
        state: &State,
        step: &Step,
        memo_fits: bool,
        out: &mut Out,
    ) -> bool {
        let players = usize::from(state.players);
        let Some(recipe) = (self.derived.card_recipes.get(usize::from(state.step)))
            .and_then(|r| r.get(players.wrapping_sub(self.players.0)))
            .and_then(Option::as_ref)
        else {
            return false;
        };
        let ctx = Ctx::current(state, Args::NONE);
        let seat = usize::from(state.current);
        // The actions still listing (bit `k`): cleared when what one asks once refuses.
        let (mut live, mut once_asked) = (u8::MAX, 0u8);
        let mut asked = Asked::default();
        // Every figure on the ring (all game long once placed, in most games): every action
        // has its figures there, asked once here rather than by the first card needing it.
        if self.every_figure_seated(state) {
            (asked.seated_asked, asked.seated) = (u8::MAX, u8::MAX);
        }
        for p in self.piles_of(&recipe.zone, &ctx) {
            for c in Seen::distinct(&state.piles[p]) {
                let t = usize::from(c & TYPE_MASK);
                for e in recipe.entries_of(t) {
                    let k = usize::from(e.k);
                    let bit = 1u8 << (k & 7);
                    if live & bit == 0 {
                        continue;
                    }
                    let a = usize::from(e.action);
                    if e.once && once_asked & bit == 0 {
                        once_asked |= bit;
                        if !self.asked_once_hold(a, &ctx) {
                            live &= !bit;
                            continue;
                        }
                    }
                    match e.quick {
                        Quick::One => {
                            out.push(Action::new(e.action, Args::of_card(c)));
                            continue;
                        }
                        Quick::Table | Quick::Named => {
                            // The table's moves for this seat and card, when they are the
                            // card's: kept as a run, or those of the figures allowed.
                            let span = (usize::from(c) == t
                                && self.all_seated(state, &mut asked, k, a))
                            .then(|| recipe.span(e, seat))
                            .flatten();
                            if let Some((lo, hi)) = span {
                                let table = usize::from(e.table);
                                if e.quick == Quick::Table {
                                    out.run(Run::new(a, table, lo, hi), self);
                                    continue;
                                }
                                let allowed = self.named_allowed(state, &mut asked, k, a);
                                let moves = recipe.named.get(lo..hi).unwrap_or(&[]);
                                let kept = moves.iter().filter(|(figure, _)| {
                                    1u64.checked_shl(u32::from(*figure))
                                        .is_some_and(|b| allowed & b != 0)
                                });
                                out.moves.extend(kept.map(|&(_, ready)| ready));
                                continue;
                            }
                        }
                        Quick::Ask => {}
                    }
                    if let Some((a, plan, table)) = self.card_table(step, k, players) {
                        let card = (k, a, plan, table, i32::from(c));
                        self.card_moves(state, card, memo_fits, &mut asked, out);
                    }
                }
            }
        }
        true
    }

    /// The figures action `a` (the `k`-th of the step) may take by the one conjunct naming a
    /// figure: asked once per listing, its plan looked up only then.
    #[inline(always)]
    fn named_allowed(&self, state: &State, asked: &mut Asked, k: usize, a: usize) -> u64 {
        if asked.asked[k] != 0 {
            return asked.allowed[k];
        }
        match self.derived.card_plans.get(a).and_then(Option::as_ref) {
            Some(plan) => self.named_figures(state, asked, k, a, plan),
            None => 0,
        }
    }

    /// Whether the conjuncts of action `a`'s guard a listing asks once hold (out of line:
    /// asked once per listing).
    #[inline(never)]
    fn asked_once_hold(&self, a: usize, ctx: &Ctx) -> bool {
        let Some(plan) = self.derived.card_plans.get(a).and_then(Option::as_ref) else {
            return true;
        };
        let guard = self.actions[a].guard.as_ref().map(|g| &g.expr);
        // One conjunct read directly (a supply check): read in place.
        match &plan.once_direct[..] {
            [d] => guard.is_none() || self.read(d, ctx) != 0,
            _ => guard.is_none_or(|g| self.once_holds(plan, g, ctx)),
        }
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
