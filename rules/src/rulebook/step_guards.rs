//! A guard as it reads at one step: its `step(…)` tests answered when compiling. The Quests
//! draft's `add` is listed at four steps (laying a stage's foe, its weapons, committing to a
//! foe, to a tournament); at each, the other three branches are no longer walked for every
//! card, and the part that reads no card (`questing(P) = 1`) comes out to be asked once.
//! Made after the kept parts are wrapped, so a folded guard keeps them. A table: without it,
//! the guard is read whole, as written.
//! The same answers say at which steps a standing action's window can hold at all (derived
//! pass 11).

use super::Rulebook;
use super::marks::GuardSplit;
use super::model::{CounterExpr, Expr};
use super::syntax::Op;

/// An action's guard at one step, and where it splits into what reads the card and what not.
#[derive(Debug)]
pub(super) struct StepGuard {
    pub expr: Expr,
    pub split: GuardSplit,
}

impl Rulebook {
    /// Per step, per action of it (in the step's order), its guard there when answering its
    /// `step(…)` tests changes it.
    /// (`None` for a step where no guard changes.)
    pub(super) fn step_guards(&self) -> Vec<Option<Box<[Option<StepGuard>]>>> {
        (self.steps.iter().enumerate())
            .map(|(i, step)| {
                let at = u8::try_from(i).unwrap_or(u8::MAX);
                let guards: Box<[Option<StepGuard>]> = (step.actions.iter())
                    .map(|&a| {
                        let guard = &self.actions[a].guard.as_ref()?.expr;
                        let expr = fold(guard, at)?;
                        let split = GuardSplit::of(Some(&expr));
                        Some(StepGuard { expr, split })
                    })
                    .collect();
                guards.iter().any(Option::is_some).then_some(guards)
            })
            .collect()
    }

    /// Pass 11 of the derived tables: per step, the standing actions whose window is not
    /// false there by its `step(…)` tests alone.
    pub(super) fn standing_by_step(&self) -> Vec<Box<[usize]>> {
        (0..self.steps.len())
            .map(|step| {
                let step = u8::try_from(step).unwrap_or(u8::MAX);
                (self.standing.iter().copied())
                    .filter(|&a| {
                        self.actions[a]
                            .standing
                            .as_ref()
                            .is_none_or(|(window, _)| at_step(window, step).is_none_or(|v| v != 0))
                    })
                    .collect()
            })
            .collect()
    }

    /// Action `a`'s guard as it reads at step `step`, when it reads otherwise there than as
    /// written.
    #[inline]
    pub(super) fn step_guard(&self, step: u8, a: usize) -> Option<&StepGuard> {
        let at = usize::from(step);
        let guards = self.derived.step_guards.get(at)?.as_ref()?;
        let k = self.steps.get(at)?.actions.iter().position(|&x| x == a)?;
        guards.get(k)?.as_ref()
    }
}

/// `e` at `step`: its `step(…)` tests answered, and the branches of `and`, `or`, `not` and
/// `if` they decide dropped; `None` when nothing changes. A side an answered test makes
/// unread is not read (a fault it would have raised is not raised).
pub(super) fn fold(e: &Expr, step: u8) -> Option<Expr> {
    let truth = |v: i64| v != 0;
    match e {
        Expr::Counter(CounterExpr::AtStep(mask)) => {
            Some(Expr::Const(i64::from(step < 64 && mask & (1 << step) != 0)))
        }
        Expr::Not(x) => {
            let folded = fold(x, step);
            match folded.as_ref().unwrap_or(x) {
                Expr::Const(v) => Some(Expr::Const(i64::from(*v == 0))),
                _ => folded.map(|x| Expr::Not(Box::new(x))),
            }
        }
        Expr::Bin(op @ (Op::And | Op::Or), l, r) => {
            let (fl, fr) = (fold(l, step), fold(r, step));
            let (lv, rv) = (fl.as_ref().unwrap_or(l), fr.as_ref().unwrap_or(r));
            // The value that decides: any true side for `or`, any false one for `and`.
            let decides = *op == Op::Or;
            match (constant(lv), constant(rv)) {
                (Some(a), _) | (_, Some(a)) if truth(a) == decides => {
                    Some(Expr::Const(i64::from(decides)))
                }
                (Some(_), Some(_)) => Some(Expr::Const(i64::from(!decides))),
                (Some(_), _) if is_truth(rv) => Some(rv.clone()),
                (_, Some(_)) if is_truth(lv) => Some(lv.clone()),
                _ if fl.is_some() || fr.is_some() => {
                    Some(Expr::Bin(*op, Box::new(lv.clone()), Box::new(rv.clone())))
                }
                _ => None,
            }
        }
        Expr::If(c, a, b) => {
            let fc = fold(c, step);
            match constant(fc.as_ref().unwrap_or(c)) {
                Some(v) => {
                    let branch = if truth(v) { a } else { b };
                    Some(fold(branch, step).unwrap_or_else(|| (**branch).clone()))
                }
                None => {
                    let (fa, fb) = (fold(a, step), fold(b, step));
                    (fc.is_some() || fa.is_some() || fb.is_some()).then(|| {
                        Expr::If(
                            Box::new(fc.unwrap_or_else(|| (**c).clone())),
                            Box::new(fa.unwrap_or_else(|| (**a).clone())),
                            Box::new(fb.unwrap_or_else(|| (**b).clone())),
                        )
                    })
                }
            }
        }
        _ => None,
    }
}

/// What `e` is at `step` whatever else the state holds, when its `step(…)` tests decide it
/// ([`fold`] leaves a number); `None` when the rest of the state may change it.
pub(super) fn at_step(e: &Expr, step: u8) -> Option<i64> {
    match (e, fold(e, step)) {
        (Expr::Memo(_, part), _) => at_step(&part.0, step),
        (_, Some(folded)) => constant(&folded),
        (_, None) => constant(e),
    }
}

fn constant(e: &Expr) -> Option<i64> {
    match e {
        Expr::Const(v) => Some(*v),
        _ => None,
    }
}

/// Whether `e` is 0 or 1 whatever it reads (a comparison, `and`, `or`, `not`), so that
/// `1 and e` is `e` itself.
fn is_truth(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Not(_)
            | Expr::Bin(
                Op::And | Op::Or | Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge,
                ..
            )
            | Expr::Counter(CounterExpr::AtStep(_))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(mask: u64) -> Expr {
        Expr::Counter(CounterExpr::AtStep(mask))
    }

    fn bin(op: Op, l: Expr, r: Expr) -> Expr {
        Expr::Bin(op, Box::new(l), Box::new(r))
    }

    fn card_is(v: i64) -> Expr {
        bin(Op::Eq, Expr::Card, Expr::Const(v))
    }

    /// `step(a) and x or step(b) and y` is `x` at a, `y` at b, false elsewhere; a side that
    /// is not 0 or 1 keeps its `and`.
    /// A window is false at a step its `step(…)` tests rule out, whatever else it reads,
    /// even when the test is on the right of an `and`; undecided where the state decides.
    #[test]
    fn a_step_decides_only_what_its_tests_decide() {
        let held = || {
            Expr::Count(super::super::model::ZoneRef {
                zone: 0,
                who: super::super::model::Who::Player,
                row: None,
            })
        };
        let window = bin(Op::And, held(), bin(Op::Or, at(0b01), at(0b10)));
        assert_eq!(at_step(&window, 2), Some(0));
        assert_eq!(at_step(&window, 0), None, "the count decides at step 0");
        let not_at = Expr::Not(Box::new(bin(Op::And, at(0b100), held())));
        assert_eq!(at_step(&not_at, 0), Some(1));
        assert_eq!(at_step(&not_at, 2), None);
        assert_eq!(at_step(&bin(Op::Or, held(), at(1)), 0), Some(1));
        assert_eq!(at_step(&at(1), 70), Some(0), "past 64 steps no test holds");
    }

    #[test]
    fn a_guard_at_a_step_keeps_the_branch_of_that_step() {
        let guard = bin(
            Op::Or,
            bin(Op::And, at(0b01), card_is(1)),
            bin(Op::And, at(0b10), card_is(2)),
        );
        assert!(
            matches!(fold(&guard, 0), Some(Expr::Bin(Op::Eq, _, r)) if matches!(*r, Expr::Const(1)))
        );
        assert!(
            matches!(fold(&guard, 1), Some(Expr::Bin(Op::Eq, _, r)) if matches!(*r, Expr::Const(2)))
        );
        assert!(matches!(fold(&guard, 2), Some(Expr::Const(0))));
        let count = bin(Op::And, at(1), Expr::Card);
        assert!(matches!(fold(&count, 0), Some(Expr::Bin(Op::And, ..))));
        assert!(
            fold(&card_is(3), 0).is_none(),
            "nothing to answer: unchanged"
        );
        let not = Expr::Not(Box::new(bin(Op::And, at(0b100), card_is(1))));
        assert!(matches!(fold(&not, 0), Some(Expr::Const(1))));
        let choice = Expr::If(
            Box::new(at(1)),
            Box::new(Expr::Const(7)),
            Box::new(Expr::Card),
        );
        assert!(matches!(fold(&choice, 0), Some(Expr::Const(7))));
        assert!(matches!(fold(&choice, 1), Some(Expr::Card)));
    }
}
