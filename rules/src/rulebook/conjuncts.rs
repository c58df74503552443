//! The conjuncts of a guard and what each reads (`reads.rs`): the card tables
//! (`card_tables.rs`) ask once, when the description compiles, every conjunct that reads no
//! state; the paths here find a conjunct again in the guard's tree.

use grail_engine::game::Setup;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::model::{Expr, FigureExpr, Param, TYPE_MASK};
use super::reads::{Reads, card_attrs, reads};
use super::state::{Action, State};
use super::syntax::Op;

/// The conjuncts of a guard's `and` chain, left to right.
pub(super) fn chain<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e.spine() {
        Expr::Bin(Op::And, l, r) => {
            chain(l, out);
            chain(r, out);
        }
        _ => out.push(e),
    }
}

/// The `i`-th conjunct of a guard's `and` chain (counting down `i`), without a list.
pub(super) fn nth_conjunct<'e>(e: &'e Expr, i: &mut usize) -> Option<&'e Expr> {
    if let Expr::Bin(Op::And, l, r) = e.spine() {
        return nth_conjunct(l, i).or_else(|| nth_conjunct(r, i));
    }
    match *i {
        0 => Some(e),
        _ => {
            *i -= 1;
            None
        }
    }
}

/// Where a conjunct stands in a guard's `and` chain: the turns from the root (bit `i`: the
/// right side at depth `i`), so that a listing reaches it in a few steps, not by walking
/// the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Path {
    pub(super) rights: u64,
    pub(super) depth: u8,
}

/// The paths of the conjuncts of `e`'s `and` chain, left to right; `None` when one lies
/// deeper than a path holds.
pub(super) fn paths(e: &Expr, at: Path, out: &mut Vec<Path>) -> Option<()> {
    match e.spine() {
        Expr::Bin(Op::And, l, r) if at.depth < 64 => {
            let down = at.depth + 1;
            paths(l, Path { depth: down, ..at }, out)?;
            let rights = at.rights | 1 << at.depth;
            paths(
                r,
                Path {
                    rights,
                    depth: down,
                },
                out,
            )
        }
        Expr::Bin(Op::And, ..) => None,
        _ => {
            out.push(at);
            Some(())
        }
    }
}

/// The conjunct at `path` of the chain it was found in.
pub(super) fn follow(mut e: &Expr, path: Path) -> &Expr {
    for i in 0..path.depth {
        if let Expr::Bin(Op::And, l, r) = e.spine() {
            e = if path.rights >> i & 1 != 0 { r } else { l };
        }
    }
    e
}

/// `figure = E` (either way round), or its negation, where `E` reads no card, figure or
/// distance (`holder(king)`, `best_figure(…)`): `E`, and whether negated. A listing asks
/// `E` once, not once per figure.
pub(super) fn figure_named(e: &Expr) -> Option<(&Expr, bool)> {
    figure_compared(e).filter(|(named, _)| !reads(named).any(Reads::ARGS))
}

/// `figure = E` (either way round), or its negation: `E`, and whether negated.
pub(super) fn figure_compared(e: &Expr) -> Option<(&Expr, bool)> {
    // A conjunct compiled to a closure (`fast.rs`) is read as written.
    let e = e.written();
    let (e, negated) = match e {
        Expr::Not(x) => (&**x, true),
        _ => (e, false),
    };
    let Expr::Bin(Op::Eq, l, r) = e else {
        return None;
    };
    let param = |x: &Expr| matches!(x, Expr::Figures(FigureExpr::ParamFigure));
    let named = match (param(l), param(r)) {
        (true, false) => r,
        (false, true) => l,
        _ => return None,
    };
    Some((&**named, negated))
}

/// What each conjunct of a guard's `and` chain reads, left to right.
pub(super) fn conjuncts(e: &Expr, out: &mut Vec<Reads>) {
    let mut parts = Vec::new();
    chain(e, &mut parts);
    out.extend(parts.into_iter().map(reads));
}

impl Rulebook {
    /// Whether action `a`, given `action`'s argument, is meant for its card: the conjuncts of
    /// its guard that read the card alone (`moves_knight(card) = 1`) hold for it. Of several
    /// actions sharing a verb, a refused move is explained by the one meant for its card.
    pub(super) fn meant_for(&self, state: &State, a: usize, action: &Action) -> bool {
        let act = &self.actions[a];
        let (Some(guard), Param::Card(_) | Param::CardFigure { .. }) = (&act.guard, &act.param)
        else {
            return true;
        };
        let mut parts = Vec::new();
        chain(&guard.expr, &mut parts);
        let card = action.args.card() & i32::from(TYPE_MASK);
        let ctx = Ctx::current(state, Args::of_entry(card));
        let other = Reads::ALL.without(Reads::CARD);
        parts
            .into_iter()
            .filter(|e| !reads(e).any(other))
            .all(|e| self.eval(e, &ctx) != 0)
    }
}

impl Rulebook {
    /// A distance a card's guard admits that its action never lists: for each action taking
    /// a card and a figure with `steps`, and each card type, the conjuncts of the guard that
    /// read only the card and the distance (`steps <= high(card)`) are asked of the distances
    /// just past the listed ones. A card saying `high = 9` where the action lists `1..8` is
    /// `unreachable`: the move it promises is never offered.
    pub fn unlisted_steps(&self, pack: &grail_schema::Pack) -> Vec<grail_engine::diag::Diagnostic> {
        use grail_engine::game::Rules;
        let mut out = Vec::new();
        let Ok(state) = self.setup(&Setup::new(self.players.0, 0)) else {
            return out;
        };
        let only = Reads::CARD.and(Reads::STEPS);
        for (ai, act) in self.actions.iter().enumerate() {
            let (Some(guard), Param::CardFigure { card: z, steps, .. }) = (&act.guard, &act.param)
            else {
                continue;
            };
            let mut parts = Vec::new();
            chain(&guard.expr, &mut parts);
            parts.retain(|e| !reads(e).any(Reads::ALL.without(only)));
            let (Some(&lo), Some(&hi)) = (steps.iter().min(), steps.iter().max()) else {
                continue;
            };
            if !parts.iter().any(|e| reads(e).any(Reads::STEPS)) {
                continue;
            }
            let probes = [
                (hi > 0).then(|| i64::from(hi) + 1),
                (lo < 0).then(|| i64::from(lo) - 1),
            ];
            let zone = &self.zones[z.zone];
            for t in zone.types.clone() {
                let Some(d) = probes.into_iter().flatten().find(|&d| {
                    let Ok(d8) = i8::try_from(d) else {
                        return false;
                    };
                    let ctx = Ctx {
                        state: &state,
                        player: 0,
                        args: Args::of_card(t).with_figure(0, d8),
                    };
                    parts.iter().all(|e| self.eval(e, &ctx) != 0)
                }) else {
                    continue;
                };
                let set = &self.sets[zone.set];
                // The card in its own set: a union's member, from where its types start.
                let (own, first) = (set.members.iter().rev())
                    .find(|&&(_, start)| start <= t)
                    .map_or((zone.set, 0), |&(m, start)| (m, start));
                let i = usize::from(t - first);
                let card = pack
                    .set(&self.sets[own].id)
                    .ok()
                    .and_then(|s| s.cards.get(i));
                let id = card.map_or("?", |c| c.id.as_str());
                // Actions are compiled in the order they are declared.
                let Some((name, at)) = (pack.rulebook.actions.iter().nth(ai))
                    .and_then(|(k, d)| Some((k.value.as_str(), d.steps.as_ref()?)))
                else {
                    continue;
                };
                let mut d_ = grail_engine::diag::Diagnostic::error(
                    "unreachable",
                    format!(
                        "card `{id}` may move a figure {d} seats by the guard of `{name}`, but \
                         the action never offers it: its `steps` go from {lo} to {hi}"
                    ),
                )
                .at(at.loc.source, at.loc.span.clone(), "never lists it")
                .with_help(format!(
                    "widen `steps` of `{name}`, or keep the card's attributes within it"
                ));
                // The card's attributes the distance is read against; those a mod patched
                // (written elsewhere than the card) when there are some.
                let mut attrs = Vec::new();
                for e in parts.iter().filter(|e| reads(e).any(Reads::STEPS)) {
                    card_attrs(e, &mut attrs);
                }
                let patched = |a: &usize| {
                    let name = set.attrs.get(*a);
                    card.zip(name)
                        .is_some_and(|(c, n)| c.attr_loc(n).source != c.loc.source)
                };
                if attrs.iter().any(patched) {
                    attrs.retain(patched);
                }
                for a in attrs {
                    let (Some(card), Some(name)) = (card, set.attrs.get(a)) else {
                        continue;
                    };
                    let loc = card.attr_loc(name);
                    let value = set.values[a][usize::from(t)];
                    d_ = d_.also(loc.source, loc.span.clone(), format!("`{name} = {value}`"));
                }
                out.push(d_);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_reaches_each_conjunct_however_the_chain_leans() {
        let and = |l, r| Expr::Bin(Op::And, Box::new(l), Box::new(r));
        let c = Expr::Const;
        // ((0 and 1) and (2 and 3)) and 4
        let guard = and(and(and(c(0), c(1)), and(c(2), c(3))), c(4));
        let mut found = Vec::new();
        paths(
            &guard,
            Path {
                rights: 0,
                depth: 0,
            },
            &mut found,
        )
        .unwrap();
        let reached: Vec<_> = found.iter().map(|&p| follow(&guard, p)).collect();
        assert!(
            reached.len() == 5
                && reached
                    .iter()
                    .enumerate()
                    .all(|(i, e)| { matches!(e, Expr::Const(v) if *v == i as i64) })
        );
        // A chain deeper than a path holds has none.
        let deep = (1..=65).fold(c(0), |e, i| and(e, c(i)));
        assert!(
            paths(
                &deep,
                Path {
                    rights: 0,
                    depth: 0
                },
                &mut Vec::new()
            )
            .is_none()
        );
    }
}
