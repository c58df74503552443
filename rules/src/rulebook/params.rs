//! Actions with two parameters: a card and a figure (card scripts). Playing a card that moves
//! a figure is one move naming both, `play 3-6 knight@5 4`: the card comes from its zone, the
//! figure (and its distance, with `steps`) from the ring, and the guard, reading the card's
//! attributes, says which figures and distances the card allows, so what a card does is the
//! card's data:
//!
//! ```toml
//! [actions.play]
//! card = "card in hand(current)"
//! figure = "figure in knight(current) or prince"
//! steps = "-8..8"
//! if = "steps >= low(card) and steps <= high(card)"
//! do = "move card to played(current); step figure by steps"
//! ```
//!
//! Bindings are listed card by card in zone order, each card's figures and distances in the
//! figure parameter's order. The move's arguments carry both (`args.rs`): `card` reads the
//! one and `figure`/`steps` the other, as for actions with one of them.

use super::Rulebook;
use super::args::Args;
use super::compile::Compiler;
use super::eval::Ctx;
use super::model::{Expr, Param, ZoneRef};
use super::reads::{Reads, reads};
use super::state::State;
use super::syntax::Op;
use grail_schema::model::ActionDef;

impl Param {
    /// The zone a card parameter is drawn from, alone or with a figure.
    pub fn card_zone(&self) -> Option<&ZoneRef> {
        match self {
            Param::Card(z)
            | Param::CardFigure { card: z, .. }
            | Param::PlayerCard { card: z, .. } => Some(z),
            _ => None,
        }
    }
}

impl Compiler<'_> {
    /// `card` and `figure` on one action. Its cards may carry no marks (their entries must
    /// fit below the figure) and it costs no payment (the payment is chosen as its own move
    /// after an action of one parameter).
    pub fn card_figure_param(&mut self, def: &ActionDef) -> Option<Param> {
        let c = def.card.as_ref()?;
        let node = self.parameter(c, "card")?;
        let card = self.zone_ref(&node, c, super::compile::NO_SCOPE)?;
        if let Some(other) = def.row.as_ref().or(def.seat.as_ref()) {
            let msg = "an action takes a card and a figure, or one of `card`, `row`, `seat`, `figure`: not a row or seat besides".into();
            self.error("invalid-value", msg, &other.loc, other.loc.span.clone());
            return None;
        }
        if self.zones[card.zone].marks.is_some() {
            let msg = format!(
                "cards of `{}` carry marks, which an action taking a card and a figure cannot name: give the card an action of its own",
                self.zones[card.zone].name
            );
            self.error("invalid-value", msg, &c.loc, c.loc.span.clone());
            return None;
        }
        if let Some(p) = &def.pay {
            let msg = "an action taking a card and a figure costs no payment: pay in an action of its own".into();
            self.error("invalid-value", msg, &p.from.loc, p.from.loc.span.clone());
            return None;
        }
        let Some(Param::Figure { refs, steps }) = self.figure_part(def) else {
            return None;
        };
        Some(Param::CardFigure { card, refs, steps })
    }
}

impl Rulebook {
    /// A player and a card, `P2 sir-gawain`, as the words after an action's verb.
    pub(super) fn parse_player_card(
        &self,
        state: &State,
        (name, before_card): (&str, Option<&str>),
        card: &ZoneRef,
        words: &[&str],
    ) -> Result<Args, String> {
        let word = before_card.map_or(String::new(), |w| format!("{w} "));
        let players = usize::from(state.players);
        let set = &self.sets[self.zones[card.zone].set];
        let example = set.cards.first().map_or("<card>", String::as_str);
        let (w, id) = match words {
            [w, id] => (w, id),
            [_, _, extra, ..] => {
                return Err(format!(
                    "`{name}` takes a player and a card; `{extra}` is one too many"
                ));
            }
            _ => {
                return Err(format!(
                    "`{name}` needs a player and a card: `{name} P2 {word}{example}`"
                ));
            }
        };
        let seat = grail_engine::seats::parse_seat(w, players)
            .ok_or_else(|| format!("`{name}` takes a player: P1 to P{players}, not `{w}`"))?;
        let t = (set.cards.iter().position(|c| c == id)).ok_or_else(|| {
            grail_engine::diag::no_such("card", id, set.cards.iter().map(String::as_str))
        })?;
        Ok(Args::of_player(seat).with_card(t as u16))
    }

    /// Every card of the zone (each distinct card once, in zone order) with every figure and
    /// distance of the action; `f` returns false to stop.
    pub(super) fn card_figure_bindings(
        &self,
        state: &State,
        param: &Param,
        mut f: impl FnMut(Args) -> bool,
    ) {
        let Param::CardFigure { card, refs, steps } = param else {
            return;
        };
        let ctx = Ctx::current(state, Args::NONE);
        for p in self.piles_of(card, &ctx) {
            for c in super::state::Seen::distinct(&state.piles[p]) {
                let mut go = true;
                self.figure_bindings(state, refs, steps, |fa| {
                    go = f(fa.with_card(c));
                    go
                });
                if !go {
                    return;
                }
            }
        }
    }

    /// Which distances action `a`'s guard may allow a card, from the conjuncts of its guard
    /// that do not read the figure ([`Conjuncts`]): none when those reading neither figure
    /// nor distance refuse the card (`step(play) and moves_knight(card) = 1` of a ring game's
    /// `march`), else those the conjuncts over the distance allow (`steps >= low(card) and
    /// …`), asked once per distance instead of once per figure and distance.
    pub(super) fn card_distances(
        &self,
        state: &State,
        a: usize,
        card: i32,
        steps: &[i8],
    ) -> Distances {
        let (Some(guard), Some(&parts)) = (&self.actions[a].guard, self.derived.conjuncts.get(a))
        else {
            return Distances::ALL;
        };
        let mut ctx = Ctx::current(state, Args::of_entry(card));
        if !self.conjuncts_hold(&guard.expr, &ctx, !(parts.figure | parts.steps), &mut 0) {
            return Distances::NONE;
        }
        let by_distance = parts.steps & !parts.figure;
        if by_distance == 0 || steps.is_empty() {
            return Distances::ALL;
        }
        let mut out = Distances::NONE;
        for &n in steps {
            ctx.args = Args::of_entry(card).with_figure(0, n);
            if self.conjuncts_hold(&guard.expr, &ctx, by_distance, &mut 0) {
                out.allow(n);
            }
        }
        out
    }

    /// Whether the conjuncts of `e`'s `and` chain picked by `mask` (bit `i`: the `i`-th,
    /// left to right) hold.
    pub(super) fn conjuncts_hold(&self, e: &Expr, ctx: &Ctx, mask: u64, i: &mut u32) -> bool {
        // None picked from here on: the rest of the chain need not be walked.
        if mask.checked_shr(*i).unwrap_or(0) == 0 {
            return true;
        }
        if let Expr::Bin(Op::And, l, r) = e.spine() {
            return self.conjuncts_hold(l, ctx, mask, i) && self.conjuncts_hold(r, ctx, mask, i);
        }
        let picked = *i < 64 && mask & (1 << *i) != 0;
        *i += 1;
        !picked || self.operand(e, ctx) != 0
    }

    /// Whether action `a`'s guard holds for its arguments (an action taking a card and a
    /// figure costs no payment).
    pub(super) fn holds_with(&self, state: &State, a: usize, args: Args) -> bool {
        self.actions[a].guard.as_ref().is_none_or(|g| {
            let ctx = Ctx {
                state,
                player: usize::from(state.current),
                args,
            };
            self.eval(&g.expr, &ctx) != 0
        })
    }

    /// `verb card figure [steps]`.
    pub(super) fn card_figure_notation(
        &self,
        state: &State,
        a: usize,
        args: Args,
        card_text: &str,
    ) -> String {
        let action = &self.actions[a];
        let Param::CardFigure { steps, .. } = &action.param else {
            return action.name.clone();
        };
        let figure = self.figure_notation(state, card_text, args, !steps.is_empty());
        format!("{} {figure}", action.name)
    }

    /// Reads `card figure [steps]` after the verb.
    pub(super) fn parse_card_figure<'w>(
        &self,
        state: &State,
        a: usize,
        words: &mut impl Iterator<Item = &'w str>,
    ) -> Result<Args, String> {
        let action = &self.actions[a];
        let Param::CardFigure { card, refs, steps } = &action.param else {
            return Err(format!("`{}` takes no card and figure", action.name));
        };
        let Some(w) = words.next() else {
            return Err(format!(
                "`{}` needs a card and a figure: `{} <card> <figure>{}`",
                action.name,
                action.name,
                if steps.is_empty() { "" } else { " <steps>" }
            ));
        };
        let set = &self.sets[self.zones[card.zone].set];
        let Some(t) = set.cards.iter().position(|c| c == w) else {
            return Err(grail_engine::diag::no_such(
                "card",
                w,
                set.cards.iter().map(String::as_str),
            ));
        };
        // Its messages show the whole form: `play <card> <figure> <steps>`.
        let verb = format!("{} <card>", action.name);
        let fa = self.parse_figure(state, &verb, refs, !steps.is_empty(), words)?;
        if let Some(extra) = words.next() {
            return Err(format!(
                "`{}` takes a card and a figure; `{extra}` is one word too many",
                action.name
            ));
        }
        Ok(fa.with_card(t as u16))
    }
}

/// Distances a card may move a figure, as a set of `i8`s.
#[derive(Clone, Copy)]
pub(super) struct Distances([u64; 4]);

impl Distances {
    const ALL: Distances = Distances([u64::MAX; 4]);
    const NONE: Distances = Distances([0; 4]);

    fn allow(&mut self, n: i8) {
        let i = usize::from(n as u8);
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(super) fn any(&self) -> bool {
        self.0.iter().any(|&w| w != 0)
    }

    pub(super) fn allows(&self, n: i8) -> bool {
        let i = usize::from(n as u8);
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
}

/// Which conjuncts of an action's guard (its `and` chain, left to right; from the 65th on
/// counted as reading both) read the figure parameter and which its distance: found when
/// the description compiles, so a listing asks the others before naming any figure.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Conjuncts {
    pub figure: u64,
    pub steps: u64,
}

impl Conjuncts {
    pub(super) fn of(guard: Option<&Expr>) -> Conjuncts {
        let mut out = Conjuncts {
            figure: u64::MAX,
            steps: u64::MAX,
        };
        if let Some(g) = guard {
            let mut i = 0;
            out.classify(g, &mut i);
        }
        out
    }

    fn classify(&mut self, e: &Expr, i: &mut u32) {
        if let Expr::Bin(Op::And, l, r) = e.spine() {
            self.classify(l, i);
            self.classify(r, i);
            return;
        }
        if *i < 64 {
            let r = reads(e);
            let (figure, steps) = (r.any(Reads::FIGURE), r.any(Reads::STEPS));
            if !figure {
                self.figure &= !(1 << *i);
            }
            if !steps {
                self.steps &= !(1 << *i);
            }
        }
        *i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulebook::model::CounterExpr;

    /// Artus' `ride`: `step(play) and moves_prince(card) = 1 and color(figure) = … and
    /// steps >= low(card)`: the first two read neither, the third the figure, the last the
    /// distance alone.
    #[test]
    fn conjuncts_reading_the_figure_and_its_distance() {
        use crate::rulebook::model::FigureExpr as F;
        let and = |l, r| Expr::Bin(Op::And, Box::new(l), Box::new(r));
        let attr = |card| Expr::Attr {
            set: 0,
            attr: 0,
            card: Box::new(card),
        };
        let eq = |l, r| Expr::Bin(Op::Eq, Box::new(l), Box::new(r));
        let guard = and(
            and(
                and(
                    Expr::Counter(CounterExpr::AtStep(1)),
                    eq(attr(Expr::Card), Expr::Const(1)),
                ),
                eq(Expr::Figures(F::ParamFigure), Expr::Const(0)),
            ),
            Expr::Bin(
                Op::Ge,
                Box::new(Expr::Figures(F::ParamSteps)),
                Box::new(attr(Expr::Card)),
            ),
        );
        let c = Conjuncts::of(Some(&guard));
        assert_eq!(c.figure & 0b1111, 0b0100);
        assert_eq!(c.steps & 0b1111, 0b1000);
        assert_eq!(
            Conjuncts::of(None).figure,
            u64::MAX,
            "no guard: nothing asked early"
        );
    }
}
