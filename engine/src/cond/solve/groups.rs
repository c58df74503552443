//! Fast paths for conditions that grow with the items except for a limit on how many groups
//! they may use (`distinct(suit, suit != wild) <= 1`: "knight cards of one colour"), the
//! shape of most challenges: whether a payment exists, without a search.

use crate::cond::Program;
use crate::cond::compile::{GroupLimit, bits};

/// Whether some sub-multiset meets a condition whose conjuncts all grow with the items but one,
/// `distinct(…) <= k`. Every sub-multiset within the limit lies inside a largest one: all the
/// cards of `k` groups plus every card no group counts. The growing conjuncts hold for some
/// sub-multiset iff they hold for one of those, so only they are tried. `None` when there are
/// too many ways to choose the groups (the search decides then).
pub(super) fn exists_within_groups(
    program: &Program,
    limit: &GroupLimit,
    hand: &[u8],
    args: &[i64],
) -> Option<bool> {
    const MAX_CHOICES: u64 = 4096;
    let plan = program.plan();
    let hand = program.own_types(hand);
    let len = hand.len();
    if !program.constants_hold(args) {
        return Some(false);
    }
    let k = program.bound(limit.bound, args) - i64::from(limit.strict);
    if k < 0 {
        return Some(false);
    }
    let held = crate::counts::nonzero_mask(hand);
    let groups = program.groups(limit);
    let groups = &groups[..groups.len().min(64)];
    let (grouped, present) = groups_held(groups, held);
    let n = present.count_ones() as usize;
    let k = (k as u64).min(n as u64) as usize;
    let meets = |allowed: u64| {
        let allowed = allowed & held;
        let mut counts = [0u8; 64];
        for (t, (c, &h)) in counts[..len].iter_mut().zip(hand).enumerate() {
            *c = if allowed >> t & 1 != 0 { h } else { 0 };
        }
        plan.up
            .iter()
            .all(|&i| program.eval_held(i, &counts[..len], allowed, args) != 0)
    };
    // The common limits, without enumerating combinations: every present group, or one.
    if k == n {
        return Some(meets(u64::MAX));
    }
    if k == 1 {
        if let Some(found) = one_group_linear(program, hand, held, groups, grouped, present, args) {
            return Some(found);
        }
        return Some(bits(present).any(|i| meets(!grouped | groups[i as usize])));
    }
    // Each choice costs an evaluation, dearer with many overlapping `cards(…)` filters.
    let cost = choose(n as u64, k as u64).saturating_mul(program.node_cost() as u64);
    if cost > MAX_CHOICES {
        return None;
    }
    let mut indices = [0usize; 64];
    for (slot, i) in indices.iter_mut().zip(bits(present)) {
        *slot = i as usize;
    }
    // Each choice of exactly `k` of the `n` present groups, as positions in increasing order.
    let mut pick = [0usize; 64];
    for (i, p) in pick.iter_mut().enumerate().take(k) {
        *p = i;
    }
    loop {
        let allowed = pick[..k]
            .iter()
            .fold(!grouped, |m, &i| m | groups[indices[i]]);
        if meets(allowed) {
            return Some(true);
        }
        // Next combination: bump the rightmost position that can move, reset those after it.
        let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else {
            return Some(false);
        };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// The limit of one group when every growing conjunct is `sum(…) ⋈ bound`: the cards of one
/// group plus the ungrouped ones meet them iff the ungrouped cards' sums plus that group's do,
/// so one pass over the held types answers it. `None` for other shapes.
fn one_group_linear(
    program: &Program,
    hand: &[u8],
    held: u64,
    groups: &[u64],
    grouped: u64,
    present: u64,
    args: &[i64],
) -> Option<bool> {
    let plan = program.plan();
    if !plan.up_other.is_empty() || plan.up_linear.len() > 4 {
        return None;
    }
    let sum = |weights: u32, types: u64| {
        bits(types)
            .map(|t| program.weight(weights, t as usize) * i64::from(hand[t as usize]))
            .sum::<i64>()
    };
    let mut bounds = [0i64; 4];
    let mut free = [0i64; 4];
    for (l, (bound, free)) in plan.up_linear.iter().zip(bounds.iter_mut().zip(&mut free)) {
        *bound = program.bound(l.bound, args);
        *free = sum(l.weights, held & !grouped);
    }
    Some(bits(present).any(|i| {
        let types = groups[i as usize] & held;
        plan.up_linear
            .iter()
            .zip(bounds.iter().zip(&free))
            .all(|(l, (&bound, &free))| l.op.holds(free + sum(l.weights, types), bound))
    }))
}

/// The types any group counts, and which groups (one bit each) the hand has a card of.
pub(crate) fn groups_held(groups: &[u64], held: u64) -> (u64, u64) {
    let (mut grouped, mut present) = (0u64, 0u64);
    for (i, &g) in groups.iter().enumerate().take(64) {
        grouped |= g;
        present |= u64::from(g & held != 0) << i;
    }
    (grouped, present)
}

/// `n` choose `k`, saturating.
fn choose(n: u64, k: u64) -> u64 {
    let k = k.min(n - k.min(n));
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}
