//! Listings of parameterless actions (`draw`, `replenish`), their guards worked out per step
//! when the description compiles. A step's listing knows which step it is, so a guard's
//! `step(…)` conjuncts are answered then (an action whose step conjunct is false is never
//! asked), a conjunct `count(Z) > 0` (or a sum of counts above 0) becomes a look at the
//! piles of `Z` for any card, and `fullest(Z) < n` a look at their sizes; only the other
//! conjuncts are evaluated as the game goes.

use super::Rulebook;
use super::args::Args;
use super::conjuncts::chain;
use super::eval::Ctx;
use super::model::{CounterExpr, Expr, Param};
use super::state::State;
use super::syntax::Op;

/// How a listing of one step asks a parameterless action's guard.
#[derive(Debug, Default)]
pub(super) struct PlainGuard {
    /// A `step(…)` conjunct is false at this step: the action is not offered here.
    never: bool,
    /// Conjuncts `count(Z) > 0`: each holds when any of its piles holds a card.
    stocked: Box<[Box<[Piles]>]>,
    /// Conjuncts `fullest(Z) < n`: each holds when every pile of `Z` holds fewer than `n`.
    below: Box<[(Piles, usize)]>,
    /// The other conjuncts, evaluated (bit `i`: the `i`-th of the guard's `and` chain).
    ask: u64,
    /// The chain is too long for a mask: the whole guard is evaluated.
    whole: bool,
    /// The guard is, once its `step(…)` conjuncts hold, `count(Z) > 0` of a one-pile zone
    /// alone (a draw from a deck): that pile (in the seat's block when `owned`), read in
    /// place.
    one_pile: Option<(usize, bool)>,
}

/// The piles of a whole zone, as a seat's block or the table holds them.
#[derive(Clone, Copy, Debug)]
struct Piles {
    /// The first pile, in the seat's block when `owned`.
    first: usize,
    rows: usize,
    owned: bool,
}

/// The zones whose cards `e` counts when it is `count(Z)` or a sum of such counts (a row of
/// a zone is not one). A zone's seat is the player to move's: a zone of another seat (`P`,
/// a seat expression) is left to the guard.
fn counted(e: &Expr, out: &mut Vec<usize>) -> bool {
    match e {
        Expr::Count(z) if z.row.is_none() && plain_owner(z) => {
            out.push(z.zone);
            true
        }
        Expr::Bin(Op::Add, l, r) => counted(l, out) && counted(r, out),
        _ => false,
    }
}

/// Whether a zone reference is the table's or the player to move's, whose piles a plan
/// addresses without evaluating anything.
fn plain_owner(z: &super::model::ZoneRef) -> bool {
    matches!(z.who, super::model::Who::Current | super::model::Who::Table)
}

/// The zones of a conjunct that says some of them holds a card: `count(Z) > 0`, `count(Z)
/// >= 1`, `count(Z) != 0`, `0 < count(Z)`, with `count(A) + count(B)` for `count(Z)`.
fn stocked(e: &Expr) -> Option<Vec<usize>> {
    let Expr::Bin(op, l, r) = e else {
        return None;
    };
    let (counts, op, bound) = match (&**l, &**r) {
        (c, Expr::Const(b)) => (c, *op, *b),
        (Expr::Const(b), c) => (
            c,
            // `0 < count(Z)` is `count(Z) > 0`.
            match op {
                Op::Lt => Op::Gt,
                Op::Le => Op::Ge,
                Op::Gt => Op::Lt,
                Op::Ge => Op::Le,
                other => *other,
            },
            *b,
        ),
        _ => return None,
    };
    let any = matches!((op, bound), (Op::Gt, 0) | (Op::Ge, 1) | (Op::Ne, 0));
    let mut zones = Vec::new();
    (any && counted(counts, &mut zones)).then_some(zones)
}

/// The zone and the bound of a conjunct that says every pile of the zone holds fewer than
/// `n` cards (`n` at least 1): `fullest(Z) < n`, `fullest(Z) <= n - 1`, `n > fullest(Z)`.
fn below(e: &Expr) -> Option<(usize, usize)> {
    let Expr::Bin(op, l, r) = e else {
        return None;
    };
    let (z, op, bound) = match (&**l, &**r) {
        (Expr::Fullest(z), Expr::Const(b)) => (z, *op, *b),
        (Expr::Const(b), Expr::Fullest(z)) => (
            z,
            match op {
                Op::Gt => Op::Lt,
                Op::Ge => Op::Le,
                _ => return None,
            },
            *b,
        ),
        _ => return None,
    };
    let limit = match op {
        Op::Lt => bound,
        Op::Le => bound.saturating_add(1),
        _ => return None,
    };
    (z.row.is_none() && plain_owner(z) && limit >= 1)
        .then(|| usize::try_from(limit).ok().map(|n| (z.zone, n)))
        .flatten()
}

impl Rulebook {
    /// Per step, per action of the step: how its listing asks the guard of a parameterless
    /// action (`None` for the others, and for every action of a step offered card by card).
    pub(super) fn plain_guards(&self) -> Vec<Box<[Option<PlainGuard>]>> {
        (self.steps.iter().enumerate())
            .map(|(s, step)| {
                (step.actions.iter())
                    .map(|&a| {
                        let action = &self.actions[a];
                        (!step.by_card && matches!(action.param, Param::None))
                            .then(|| self.plain_guard(action.guard.as_ref().map(|g| &g.expr), s))
                    })
                    .collect()
            })
            .collect()
    }

    fn plain_guard(&self, guard: Option<&Expr>, step: usize) -> PlainGuard {
        let Some(guard) = guard else {
            return PlainGuard::default();
        };
        let mut parts = Vec::new();
        chain(guard, &mut parts);
        if parts.len() > 64 {
            return PlainGuard {
                whole: true,
                ..PlainGuard::default()
            };
        }
        let mut plan = PlainGuard::default();
        let (mut stocked_parts, mut below_parts): (Vec<Box<[Piles]>>, _) = (Vec::new(), Vec::new());
        let piles = |z: usize| {
            let zone = &self.zones[z];
            Piles {
                first: zone.first,
                rows: zone.rows,
                owned: zone.owned,
            }
        };
        for (i, part) in parts.iter().map(|p| p.written()).enumerate() {
            if let Expr::Counter(CounterExpr::AtStep(mask)) = part {
                plan.never |= step >= 64 || mask & (1 << step) == 0;
            } else if let Some(zones) = stocked(part) {
                stocked_parts.push(zones.into_iter().map(piles).collect());
            } else if let Some((zone, limit)) = below(part) {
                below_parts.push((piles(zone), limit));
            } else {
                plan.ask |= 1 << i;
            }
        }
        if let ([only], true, 0, false) = (
            &stocked_parts[..],
            below_parts.is_empty(),
            plan.ask,
            plan.whole,
        ) && let [pile] = &only[..]
            && pile.rows == 1
        {
            plan.one_pile = Some((pile.first, pile.owned));
        }
        plan.stocked = stocked_parts.into();
        plan.below = below_parts.into();
        plan
    }

    /// Whether action `a`'s guard holds at the step `plan` was made for, for the player to
    /// move.
    #[inline]
    pub(super) fn plain_holds(&self, state: &State, a: usize, plan: &PlainGuard) -> bool {
        if plan.never {
            return false;
        }
        let seat = self.table_piles + usize::from(state.current) * self.seat_piles;
        if let Some((first, owned)) = plan.one_pile {
            let p = first + if owned { seat } else { 0 };
            return state.piles.get(p).is_some_and(|pile| !pile.is_empty());
        }
        let piles = |p: &Piles| {
            let first = p.first + if p.owned { seat } else { 0 };
            &state.piles[first..first + p.rows]
        };
        let stocked = |p: &Piles| piles(p).iter().any(|pile| !pile.is_empty());
        if !plan.stocked.iter().all(|any| any.iter().any(stocked)) {
            return false;
        }
        let short = |(p, limit): &(Piles, usize)| piles(p).iter().all(|pile| pile.len() < *limit);
        if !plan.below.iter().all(short) {
            return false;
        }
        if plan.ask == 0 && !plan.whole {
            return true;
        }
        self.actions[a].guard.as_ref().is_none_or(|g| {
            let ctx = Ctx::current(state, Args::NONE);
            match plan.whole {
                true => self.eval(&g.expr, &ctx) != 0,
                false => self.conjuncts_hold(&g.expr, &ctx, plan.ask, &mut 0),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use grail_engine::game::{Rules, Setup};

    use super::super::random_games::bundled;
    use super::*;
    use crate::rulebook::model::{Who, ZoneRef};

    fn count(zone: usize) -> Expr {
        Expr::Count(ZoneRef {
            zone,
            who: Who::Current,
            row: None,
        })
    }

    fn bin(op: Op, l: Expr, r: Expr) -> Expr {
        Expr::Bin(op, Box::new(l), Box::new(r))
    }

    fn fullest(zone: usize) -> Expr {
        Expr::Fullest(ZoneRef {
            zone,
            who: Who::Table,
            row: None,
        })
    }

    #[test]
    fn a_fullest_pile_below_a_bound_is_a_look_at_every_pile() {
        let c = Expr::Const;
        assert_eq!(below(&bin(Op::Lt, fullest(2), c(4))), Some((2, 4)));
        assert_eq!(below(&bin(Op::Le, fullest(2), c(3))), Some((2, 4)));
        assert_eq!(below(&bin(Op::Gt, c(4), fullest(2))), Some((2, 4)));
        assert_eq!(below(&bin(Op::Ge, c(3), fullest(2))), Some((2, 4)));
        // Not "every pile below": the other way round, or a bound no pile can be under
        // (with no pile, `fullest` is 0 and `0 < 0` is false).
        assert_eq!(below(&bin(Op::Gt, fullest(2), c(4))), None);
        assert_eq!(below(&bin(Op::Lt, c(4), fullest(2))), None);
        assert_eq!(below(&bin(Op::Lt, fullest(2), c(0))), None);
        assert_eq!(below(&bin(Op::Le, fullest(2), c(-1))), None);
    }

    #[test]
    fn a_count_above_nothing_is_a_look_for_any_card() {
        let sum = || bin(Op::Add, count(1), count(2));
        assert_eq!(
            stocked(&bin(Op::Gt, count(3), Expr::Const(0))),
            Some(vec![3])
        );
        assert_eq!(
            stocked(&bin(Op::Gt, sum(), Expr::Const(0))),
            Some(vec![1, 2])
        );
        assert_eq!(
            stocked(&bin(Op::Ge, count(3), Expr::Const(1))),
            Some(vec![3])
        );
        assert_eq!(
            stocked(&bin(Op::Ne, count(3), Expr::Const(0))),
            Some(vec![3])
        );
        assert_eq!(
            stocked(&bin(Op::Lt, Expr::Const(0), count(3))),
            Some(vec![3])
        );
        // Not "some card": more than one, a difference, a bound the wrong way round.
        assert_eq!(stocked(&bin(Op::Gt, count(3), Expr::Const(1))), None);
        let diff = bin(Op::Sub, count(1), count(2));
        assert_eq!(stocked(&bin(Op::Gt, diff, Expr::Const(0))), None);
        assert_eq!(stocked(&bin(Op::Gt, Expr::Const(0), count(3))), None);
        assert_eq!(stocked(&bin(Op::Lt, count(3), Expr::Const(1))), None);
    }

    /// A step's listing answers the guard's `step(…)` conjuncts: an action whose step
    /// conjunct names another step is not offered there, whatever the rest says.
    #[test]
    fn a_guard_naming_another_step_is_false_at_this_one() {
        let rules = bundled("artus", Some("advanced"));
        let step = |name: &str| rules.steps.iter().position(|s| s.name == name).unwrap();
        let (draw, play) = (step("draw"), step("play"));
        let a = rules.steps[draw].actions[0];
        let guard = rules.actions[a].guard.as_ref().map(|g| &g.expr);
        let at_draw = rules.plain_guard(guard, draw);
        assert!(!at_draw.never && at_draw.ask == 0 && at_draw.stocked.len() == 1);
        let at_play = rules.plain_guard(guard, play);
        assert!(at_play.never);
        let state = rules.setup(&Setup::new(3, 1)).unwrap();
        assert!(!rules.plain_holds(&state, a, &at_play));
    }

    /// Artus' draws (`step(draw) and count(knight(current)) > 0`) and King Arthur's
    /// replenish and draw (`count(adversary-supply) > 0 and fullest(columns) <
    /// $column_limit`, `count(knight-supply) + count(knight-discard) > 0`), every conjunct
    /// planned, list what asking their whole guards lists, in every state of random games at
    /// every player count.
    #[test]
    fn the_plans_list_what_the_guards_allow() {
        for (game, variant, counts) in [
            ("artus", Some("advanced"), 2..=4),
            ("king-arthur", None, 2..=5),
            ("king-arthur", Some("seals"), 2..=5),
        ] {
            let rules = bundled(game, variant);
            let mut slow = bundled(game, variant);
            slow.derived.plain_guards.clear();
            let planned = rules
                .derived
                .plain_guards
                .iter()
                .flatten()
                .flatten()
                .count();
            assert!(planned >= 2, "{game}: {planned} actions planned");
            let guards = || rules.derived.plain_guards.iter().flatten().flatten();
            assert!(
                guards().all(|g| g.ask == 0 && !g.whole),
                "{game}: all planned"
            );
            for seed in 0..12 {
                let players = counts.start() + (seed as usize) % counts.clone().count();
                let (mut fast, mut general) = (Vec::new(), Vec::new());
                let played = super::super::random_games::play(
                    &rules,
                    players,
                    seed,
                    |state, rng, played| {
                        rules.list(state, &mut fast, false);
                        slow.list(state, &mut general, false);
                        assert_eq!(fast, general, "{game} seed {seed}, move {played}");
                        // And with a pile emptied, so that each count's zones are seen empty.
                        let mut emptied = state.clone();
                        let pile = rng.index(state.piles.len());
                        emptied.piles[pile].clear();
                        rules.list(&emptied, &mut fast, false);
                        slow.list(&emptied, &mut general, false);
                        assert_eq!(fast, general, "{game} seed {seed}, move {played}, emptied");
                    },
                );
                assert!(played > 30, "{game}: a whole game: {played} moves");
            }
        }
    }
}
