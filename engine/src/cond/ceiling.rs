//! The largest value of an argument for which a hand can pay: "the dearest challenge these
//! knight cards can make". When a condition only gets harder as the argument grows, one pass
//! over the hand answers every value at once, instead of a payment search per value.

use super::Program;
use super::ast::CmpOp;
use super::compile::{Op, bits};
use super::solve::groups::groups_held;

/// The largest value of argument `slot` for which `hand` holds a payment (the other arguments
/// as in `args`), when the condition says it: every part of it grows with the items, the
/// argument appears only as the bound of `sum(…) >= $arg` (or `>`), and at most one group
/// limit (`distinct(…) <= k`) with `k` of 0, 1 or every group restricts it. `None` when the
/// condition has another shape (ask [`super::solve::exists`] per value then); `Some(None)`
/// when no value has a payment.
pub fn largest_argument(
    program: &Program,
    hand: &[u8],
    args: &[i64],
    slot: usize,
) -> Option<Option<i64>> {
    let plan = program.plan();
    let slot = u32::try_from(slot).ok()?;
    if !plan.mixed.is_empty() || !plan.up_other.is_empty() {
        return None;
    }
    let limit = match (plan.down.len(), &plan.group_limit) {
        (0, _) => None,
        (1, Some(limit)) if !uses_arg(program, limit.bound, slot) => Some(limit),
        _ => return None,
    };
    if plan.constant.iter().any(|&i| uses_arg(program, i, slot)) {
        return None;
    }
    let priced = |bound: u32| matches!(program.op(bound), Op::Arg(s) if s == slot);
    for l in &plan.up_linear {
        let fits = if priced(l.bound) {
            matches!(l.op, CmpOp::Ge | CmpOp::Gt)
        } else {
            !uses_arg(program, l.bound, slot)
        };
        if !fits {
            return None;
        }
    }
    let len = hand.len().min(program.types()).min(64);
    let hand = &hand[..len];
    let empty = [0u8; 64];
    if !plan
        .constant
        .iter()
        .all(|&i| program.eval(i, &empty[..len], args) != 0)
    {
        return Some(None);
    }
    let held = crate::counts::nonzero_mask(hand);
    // The dearest value the cards of `allowed` pay, if they meet the conditions without it.
    let dearest = |allowed: u64| -> Option<i64> {
        let types = allowed & held;
        let mut most = i64::MAX;
        for l in &plan.up_linear {
            let sum: i64 = bits(types)
                .map(|t| program.weight(l.weights, t as usize) * i64::from(hand[t as usize]))
                .sum();
            if priced(l.bound) {
                most = most.min(sum - i64::from(l.op == CmpOp::Gt));
            } else if !l.op.holds(sum, program.eval(l.bound, &[], args)) {
                return None;
            }
        }
        Some(most)
    };
    let Some(limit) = limit else {
        return Some(dearest(u64::MAX));
    };
    let k = program.eval(limit.bound, &[], args) - i64::from(limit.strict);
    if k < 0 {
        return Some(None);
    }
    let groups = program.groups(limit);
    let (grouped, present) = groups_held(groups, held);
    // Every payment within the limit lies inside one of the largest ones, so those decide.
    Some(match k {
        0 => dearest(!grouped),
        k if k >= i64::from(present.count_ones()) => dearest(u64::MAX),
        1 => bits(present)
            .filter_map(|i| dearest(!grouped | groups[i as usize]))
            .max(),
        _ => return None,
    })
}

/// Whether op `i` reads argument `slot`.
fn uses_arg(program: &Program, i: u32, slot: u32) -> bool {
    match program.op(i) {
        Op::Arg(s) => s == slot,
        Op::Not(x) | Op::Neg(x) => uses_arg(program, x, slot),
        Op::And(a, b) | Op::Or(a, b) | Op::Cmp(_, a, b) | Op::Arith(_, a, b) => {
            uses_arg(program, a, slot) || uses_arg(program, b, slot)
        }
        Op::Const(_) | Op::Sum { .. } | Op::Distinct { .. } | Op::Cards { .. } => false,
    }
}
