//! The largest value of an argument for which a hand can pay: "the dearest challenge these
//! knight cards can make". When a condition only gets harder as the argument grows, one pass
//! over the hand answers every value at once, instead of a payment search per value.

use super::Program;
use super::ast::CmpOp;
use super::compile::{GroupLimit, NO_GROUP, Op, bits};
use super::solve::groups::groups_held;

/// The largest value of argument `slot` for which `hand` holds a payment (the other arguments
/// as in `args`), when the condition says it: every part of it grows with the items, the
/// argument appears only as the bound of `sum(…) >= $arg` (or `>`), and at most one group
/// limit (`distinct(…) <= k`) with `k` of 0, 1 or every group restricts it. `None` when the
/// condition has another shape (ask [`super::solve::exists`] per value then); `Some(None)`
/// when no value has a payment. [`Ceiling`] does the same with the shape worked out once.
pub fn largest_argument(
    program: &Program,
    hand: &[u8],
    args: &[i64],
    slot: usize,
) -> Option<Option<i64>> {
    Ceiling::new(program, slot)?.largest(program, hand, args)
}

/// The shape [`largest_argument`] needs of a program and argument, worked out once, so that
/// asking it per hand only sums the hand.
#[derive(Clone, Debug)]
pub struct Ceiling {
    /// The `sum(…) ⋈ bound` conjuncts: weights, comparison, and the bound op when the bound
    /// is not the argument itself.
    sums: Vec<(u32, CmpOp, Option<u32>)>,
    limit: Option<GroupLimit>,
    /// The common case, `sum(…) >= $arg` the only sum (and at most [`MAX_SINGLE_GROUPS`]
    /// groups): its weights per type and whether the comparison is strict. Then one pass over
    /// the hand sums every group at once.
    single: Option<([i64; 64], bool)>,
}

impl Ceiling {
    /// `None` when the condition does not have the shape [`largest_argument`] describes.
    pub fn new(program: &Program, slot: usize) -> Option<Ceiling> {
        let plan = program.plan();
        let slot = u32::try_from(slot).ok()?;
        if !plan.mixed.is_empty() || !plan.up_other.is_empty() {
            return None;
        }
        let limit = match (plan.down.len(), &plan.group_limit) {
            (0, _) => None,
            (1, Some(limit)) if !uses_arg(program, limit.bound, slot) => Some(*limit),
            _ => return None,
        };
        if plan.constant.iter().any(|&i| uses_arg(program, i, slot)) {
            return None;
        }
        let mut sums = Vec::with_capacity(plan.up_linear.len());
        for l in &plan.up_linear {
            if matches!(program.op(l.bound), Op::Arg(s) if s == slot) {
                if !matches!(l.op, CmpOp::Ge | CmpOp::Gt) {
                    return None;
                }
                sums.push((l.weights, l.op, None));
            } else if uses_arg(program, l.bound, slot) {
                return None;
            } else {
                sums.push((l.weights, l.op, Some(l.bound)));
            }
        }
        let few_groups = limit.is_none_or(|limit| limit.len as usize <= MAX_SINGLE_GROUPS);
        let single = match sums.as_slice() {
            &[(weights, op, None)] if few_groups => {
                let mut per_type = [0i64; 64];
                for (t, w) in per_type.iter_mut().enumerate().take(program.types()) {
                    *w = program.weight(weights, t);
                }
                Some((per_type, op == CmpOp::Gt))
            }
            _ => None,
        };
        Some(Ceiling {
            sums,
            limit,
            single,
        })
    }

    /// [`Self::largest`] for a single sum bounded by the argument: each held type's part goes
    /// to its group's total (or to every group's, when no group counts it).
    fn largest_single(
        &self,
        program: &Program,
        weights: &[i64; 64],
        strict: bool,
        hand: &[u8],
        args: &[i64],
    ) -> Option<Option<i64>> {
        let strict = i64::from(strict);
        // Straight over the program's types (at most 64, usually a handful): cheaper than
        // working out which are held first.
        let parts = hand
            .iter()
            .zip(weights)
            .enumerate()
            .filter(|&(_, (&copies, _))| copies > 0)
            .map(|(t, (&copies, &weight))| (t, weight * i64::from(copies)));
        let Some(limit) = &self.limit else {
            let total: i64 = parts.map(|(_, part)| part).sum();
            return Some(Some(total - strict));
        };
        let k = program.bound(limit.bound, args) - i64::from(limit.strict);
        if k < 0 {
            return Some(None);
        }
        let (mut ungrouped, mut per_group, mut present) = (0i64, [0i64; MAX_SINGLE_GROUPS], 0u64);
        for (t, part) in parts {
            match limit.group_of[t] {
                NO_GROUP => ungrouped += part,
                g => {
                    per_group[usize::from(g)] += part;
                    present |= 1 << g;
                }
            }
        }
        let best = match k {
            0 => ungrouped,
            k if k >= i64::from(present.count_ones()) => {
                ungrouped + bits(present).map(|g| per_group[g as usize]).sum::<i64>()
            }
            1 => ungrouped + bits(present).map(|g| per_group[g as usize]).max()?,
            _ => return None,
        };
        Some(Some(best - strict))
    }

    /// [`largest_argument`] for `program`, the one this was made from.
    pub fn largest(&self, program: &Program, hand: &[u8], args: &[i64]) -> Option<Option<i64>> {
        let hand = program.own_types(hand);
        if !program.constants_hold(args) {
            return Some(None);
        }
        if let Some((weights, strict)) = &self.single {
            return self.largest_single(program, weights, *strict, hand, args);
        }
        let held = crate::counts::nonzero_mask(hand);
        // The fixed bounds, once per question rather than once per group.
        let mut bounds = [0i64; 8];
        if self.sums.len() > bounds.len() {
            return None;
        }
        for (b, &(_, _, bound)) in bounds.iter_mut().zip(&self.sums) {
            *b = bound.map_or(0, |i| program.bound(i, args));
        }
        // The dearest value the cards of `allowed` pay, if they meet the conditions without it.
        let dearest = |allowed: u64| -> Option<i64> {
            let types = allowed & held;
            let mut most = i64::MAX;
            for (&(weights, op, bound), &fixed) in self.sums.iter().zip(&bounds) {
                let sum: i64 = bits(types)
                    .map(|t| program.weight(weights, t as usize) * i64::from(hand[t as usize]))
                    .sum();
                if bound.is_none() {
                    most = most.min(sum - i64::from(op == CmpOp::Gt));
                } else if !op.holds(sum, fixed) {
                    return None;
                }
            }
            Some(most)
        };
        let Some(limit) = &self.limit else {
            return Some(dearest(u64::MAX));
        };
        let k = program.bound(limit.bound, args) - i64::from(limit.strict);
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
}

/// The most groups the one-pass sum keeps totals for (on the stack; more go the general way).
const MAX_SINGLE_GROUPS: usize = 16;

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
