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
//! figure parameter's order. The two travel in an action's one argument ([`CardFigureArg`]):
//! the card entry below, the packed figure (`ring::FigureArg`) above it; `card` reads the one and
//! `figure`/`steps` the other, as for actions with one of them.

use super::Rulebook;
use super::compile::Compiler;
use super::counters::CounterExpr;
use super::model::{Expr, Param, ZoneRef};
use super::run::{Ctx, State};
use super::syntax::Op;
use grail_schema::model::ActionDef;

/// A card entry and a packed figure in one action argument.
pub struct CardFigureArg;

/// The card entry's bits: a card type (at most 64 per set) in a zone without marks.
const CARD_BITS: u32 = 12;

impl CardFigureArg {
    pub fn pack(card: i32, figure: i32) -> i32 {
        card | (figure << CARD_BITS)
    }
    pub fn card(arg: i32) -> i32 {
        arg & ((1 << CARD_BITS) - 1)
    }
    pub fn figure(arg: i32) -> i32 {
        arg >> CARD_BITS
    }
}

impl Param {
    /// The zone a card parameter is drawn from, alone or with a figure.
    pub fn card_zone(&self) -> Option<&ZoneRef> {
        match self {
            Param::Card(z) | Param::CardFigure { card: z, .. } => Some(z),
            _ => None,
        }
    }

    /// An action's argument as the card and the row (or figure) expressions read.
    pub fn split(&self, arg: i32) -> (i32, i32) {
        match self {
            Param::Card(_) => (arg, -1),
            Param::CardFigure { .. } => (CardFigureArg::card(arg), CardFigureArg::figure(arg)),
            Param::Row { .. } | Param::Seat | Param::Figure { .. } => (-1, arg),
            Param::None => (-1, -1),
        }
    }
}

impl Compiler<'_> {
    /// `card` and `figure` on one action. Its cards may carry no marks (their entries must
    /// fit below the figure) and it costs no payment (the payment is chosen as its own move
    /// after an action of one parameter).
    pub fn card_figure_param(&mut self, def: &ActionDef) -> Option<Param> {
        let c = def.card.as_ref()?;
        let card = match super::syntax::parameter(&c.value, "card") {
            Ok(node) => self.zone_ref(&node, c, super::compile::NO_SCOPE)?,
            Err(e) => {
                self.syntax_error(c, e);
                return None;
            }
        };
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
    /// Every card of the zone (each distinct card once, in zone order) with every figure and
    /// distance of the action, as packed arguments; `f` returns false to stop.
    pub(super) fn card_figure_bindings(
        &self,
        state: &State,
        param: &Param,
        mut f: impl FnMut(i32) -> bool,
    ) {
        let Param::CardFigure { card, refs, steps } = param else {
            return;
        };
        let ctx = Ctx {
            state,
            player: usize::from(state.current),
            card: -1,
            row: -1,
        };
        for p in self.piles_of(card, &ctx) {
            let cards = &state.piles[p];
            let mut seen = super::run::Seen::default();
            for (i, &c) in cards.iter().enumerate() {
                if !seen.first(cards, i) {
                    continue;
                }
                let mut go = true;
                self.figure_bindings(state, refs, steps, |fa| {
                    go = f(CardFigureArg::pack(i32::from(c), fa));
                    go
                });
                if !go {
                    return;
                }
            }
        }
    }

    /// Whether the part of action `a`'s guard that reads neither figure nor distance
    /// ([`card_only_part`]) holds for a card: when it does not, no figure of the card is.
    pub(super) fn card_allows(&self, state: &State, a: usize, card: i32) -> bool {
        let Some(part) = self.actions[a]
            .guard
            .as_ref()
            .and_then(|g| card_only_part(&g.expr))
        else {
            return true;
        };
        let ctx = Ctx {
            state,
            player: usize::from(state.current),
            card,
            row: -1,
        };
        self.eval(part, &ctx) != 0
    }

    /// Whether action `a`'s guard holds for a card and a packed figure (such an action costs
    /// no payment).
    pub(super) fn holds_with(&self, state: &State, a: usize, card: i32, figure: i32) -> bool {
        self.actions[a].guard.as_ref().is_none_or(|g| {
            let ctx = Ctx {
                state,
                player: usize::from(state.current),
                card,
                row: figure,
            };
            self.eval(&g.expr, &ctx) != 0
        })
    }

    /// `verb card figure [steps]`.
    pub(super) fn card_figure_notation(
        &self,
        state: &State,
        a: usize,
        arg: i32,
        card_text: &str,
    ) -> String {
        let action = &self.actions[a];
        let Param::CardFigure { steps, .. } = &action.param else {
            return action.name.clone();
        };
        let figure = self.figure_notation(
            state,
            card_text,
            CardFigureArg::figure(arg),
            !steps.is_empty(),
        );
        format!("{} {figure}", action.name)
    }

    /// Reads `card figure [steps]` after the verb.
    pub(super) fn parse_card_figure<'w>(
        &self,
        state: &State,
        a: usize,
        words: &mut impl Iterator<Item = &'w str>,
    ) -> Result<i32, String> {
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
        Ok(CardFigureArg::pack(t as i32, fa))
    }
}

/// The left conjuncts of a guard `a and b and …` up to the first that reads the figure or
/// its distance (`step(play) and moves_knight(card) = 1` of Artus' `march`): asked once per
/// card, so a card that moves no figure of the action's kind is not asked figure by figure,
/// distance by distance. `None` when the first conjunct already reads the figure.
fn card_only_part(guard: &Expr) -> Option<&Expr> {
    let mut e = guard;
    loop {
        if !reads_figure(e) {
            return Some(e);
        }
        match e {
            Expr::Bin(Op::And, left, _) => e = left,
            _ => return None,
        }
    }
}

/// Whether an expression may read the figure parameter or its distance (they travel in the
/// row's slot); `true` for anything not known to be free of them.
fn reads_figure(e: &Expr) -> bool {
    let by_row = |z: &ZoneRef| z.row.is_some();
    match e {
        Expr::Const(_)
        | Expr::Card
        | Expr::Done(_)
        | Expr::ActionCard(_)
        | Expr::Paying(_)
        | Expr::Marks(_)
        | Expr::Counter(
            CounterExpr::AtStep(_)
            | CounterExpr::Players
            | CounterExpr::Turn
            | CounterExpr::Taken
            | CounterExpr::Over,
        ) => false,
        Expr::Attr { card, .. } => reads_figure(card),
        Expr::Count(z) | Expr::NonEmpty(z) | Expr::Fullest(z) => by_row(z),
        Expr::Sum { zone, .. } | Expr::Last { zone, .. } => by_row(zone),
        Expr::Not(x) => reads_figure(x),
        Expr::Bin(_, l, r) => reads_figure(l) || reads_figure(r),
        Expr::If(c, a, b) => reads_figure(c) || reads_figure(a) || reads_figure(b),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulebook::ring::FigureArg;

    #[test]
    fn a_card_and_a_figure_share_one_argument() {
        for card in [0, 1, 63, 255] {
            for (figure, steps) in [(0u8, -8i8), (5, 1), (39, 8), (255, 127), (0, -128)] {
                let arg = CardFigureArg::pack(card, FigureArg::pack(figure, steps));
                assert!(arg >= 0, "arguments stay non-negative: {arg}");
                assert_eq!(CardFigureArg::card(arg), card);
                let fa = CardFigureArg::figure(arg);
                assert_eq!(
                    (FigureArg::figure(fa), FigureArg::steps(fa)),
                    (figure, steps.into())
                );
            }
        }
    }
}
