//! Payments for conditions made of sum thresholds (`sum(*) >= 12`, `count(color=red) >= 2`),
//! optionally within one group (`distinct(suit, suit != wild) <= 1 and sum(strength) >=
//! $power`): the general search's walk (types in order, fewer copies first, the same pruning,
//! so the same payments in the same order and the same node budget) with the sums kept in a
//! few registers instead of evaluated.

use super::{Effort, NODE_BUDGET, Payment};
use crate::cond::Program;
use crate::cond::ast::CmpOp;
use crate::cond::compile::{GroupLimit, NO_GROUP, bits};

/// [`super::payments`] when every growing conjunct is `sum(…) ⋈ bound` and nothing else
/// limits a payment but, at most, one group (`distinct(…) <= 1`). `Some(effort)`, or `None`
/// for other shapes.
pub(super) fn payments(
    program: &Program,
    hand: &[u8],
    args: &[i64],
    found: &mut dyn FnMut(&Payment) -> bool,
) -> Option<Effort> {
    let plan = program.plan();
    let linear = &plan.up_linear;
    if !plan.mixed.is_empty()
        || !plan.up_other.is_empty()
        || linear.is_empty()
        || linear.len() > MAX_SUMS
    {
        return None;
    }
    let limit = match &plan.group_limit {
        None if plan.down.is_empty() => None,
        // The limit is then the only Down conjunct.
        Some(limit) if program.bound(limit.bound, args) - i64::from(limit.strict) == 1 => {
            Some(limit)
        }
        _ => return None,
    };
    let hand = program.own_types(hand);
    if !program.constants_hold(args) {
        return Some(Effort::default());
    }
    // The number of sums as a constant: the per-card loops over them unroll.
    match linear.len() {
        1 => Some(walk::<1>(program, hand, args, limit, found)),
        2 => Some(walk::<2>(program, hand, args, limit, found)),
        3 => Some(walk::<3>(program, hand, args, limit, found)),
        _ => Some(walk::<MAX_SUMS>(program, hand, args, limit, found)),
    }
}

/// Lists the payments of a program with exactly `N` sums; how much it searched.
fn walk<const N: usize>(
    program: &Program,
    hand: &[u8],
    args: &[i64],
    limit: Option<&GroupLimit>,
    found: &mut dyn FnMut(&Payment) -> bool,
) -> Effort {
    const UNGROUPED: [u8; 64] = [NO_GROUP; 64];
    let linear = &program.plan().up_linear;
    let masks = limit.map_or(&[][..], |limit| program.groups(limit));
    let masks = &masks[..masks.len().min(64)];
    let mut walk = Walk::<N> {
        program,
        hand,
        group_of: limit.map_or(&UNGROUPED, |limit| &limit.group_of),
        masks,
        free: !limit.map_or(0, |limit| limit.grouped),
        held: crate::counts::nonzero_mask(hand),
        sums: [Sum::default(); N],
        pay: Payment {
            counts: [0; 64],
            len: hand.len() as u8,
        },
        found,
        nodes: 0,
        stopped: false,
        exhausted: false,
    };
    for (sum, l) in walk.sums.iter_mut().zip(linear) {
        *sum = Sum {
            weights: l.weights,
            op: l.op,
            bound: program.bound(l.bound, args),
            pay: 0,
            reach: program.dot(l.weights, hand),
        };
    }
    if !walk.holds(|s| s.reach) {
        return Effort::default();
    }
    if walk.holds(|s| s.pay) {
        walk.emit();
        return Effort::default();
    }
    walk.run(0, u64::MAX);
    Effort {
        nodes: walk.nodes.min(NODE_BUDGET),
        gave_up: walk.exhausted,
    }
}

const MAX_SUMS: usize = 4;

#[derive(Clone, Copy)]
struct Sum {
    weights: u32,
    op: CmpOp,
    bound: i64,
    /// Over the payment, and over the payment plus every card still undecided.
    pay: i64,
    reach: i64,
}

impl Default for Sum {
    fn default() -> Self {
        Sum {
            weights: 0,
            op: CmpOp::Ge,
            bound: 0,
            pay: 0,
            reach: 0,
        }
    }
}

struct Walk<'a, const N: usize> {
    program: &'a Program,
    hand: &'a [u8],
    group_of: &'a [u8; 64],
    masks: &'a [u64],
    /// The types no group counts.
    free: u64,
    held: u64,
    sums: [Sum; N],
    pay: Payment,
    found: &'a mut dyn FnMut(&Payment) -> bool,
    nodes: usize,
    stopped: bool,
    exhausted: bool,
}

impl<const N: usize> Walk<'_, N> {
    fn holds(&self, side: impl Fn(&Sum) -> i64) -> bool {
        self.sums.iter().all(|s| s.op.holds(side(s), s.bound))
    }

    /// Type `t` goes from `old` to `new` copies in the payment and from `old_reach` to
    /// `new_reach` in what is still reachable.
    fn change(&mut self, t: usize, d_pay: i64, d_reach: i64) {
        for s in &mut self.sums {
            let w = self.program.weight(s.weights, t);
            s.pay += d_pay * w;
            s.reach += d_reach * w;
        }
    }

    /// `open`: the types the group limit still lets the payment add.
    fn run(&mut self, from: usize, open: u64) {
        let next = self.held & open & u64::MAX.checked_shl(from as u32).unwrap_or(0);
        if next == 0 {
            return;
        }
        let t = next.trailing_zeros() as usize;
        let have = self.hand[t];
        // Paying this type uses its group: from then on only that group and the free types.
        let group = self.group_of[t];
        let open_with = if group == NO_GROUP {
            open
        } else {
            self.free | self.masks[usize::from(group)]
        };
        let mut reach = have;
        for k in 0..=have {
            self.nodes += 1;
            if self.nodes > NODE_BUDGET {
                self.exhausted = true;
                self.stopped = true;
                break;
            }
            let paid = self.pay.counts[t];
            self.change(
                t,
                i64::from(k) - i64::from(paid),
                i64::from(k) - i64::from(reach),
            );
            self.pay.counts[t] = k;
            reach = k;
            if k > 0 && self.holds(|s| s.pay) {
                // Met: more copies, or more of later types, would be superfluous.
                if self.minimal() {
                    self.emit();
                }
                break;
            }
            if self.holds(|s| s.reach) {
                self.run(t + 1, if k > 0 { open_with } else { open });
            }
            if self.stopped {
                break;
            }
        }
        let paid = self.pay.counts[t];
        self.change(t, -i64::from(paid), i64::from(have) - i64::from(reach));
        self.pay.counts[t] = 0;
    }

    /// No single card can be left out: leaving one out breaks some sum.
    fn minimal(&self) -> bool {
        // Only types held can be paid: a hand of many types holds few.
        bits(self.held).all(|t| {
            let t = t as usize;
            self.pay.counts[t] == 0
                || !self.sums.iter().all(|s| {
                    s.op.holds(s.pay - self.program.weight(s.weights, t), s.bound)
                })
        })
    }

    fn emit(&mut self) {
        if !(self.found)(&self.pay) {
            self.stopped = true;
        }
    }
}
