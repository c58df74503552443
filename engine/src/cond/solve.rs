//! The payment solver. A *legal payment* for a condition is a sub-multiset of the hand that
//! meets it and has no superfluous card: removing any single card breaks it. (This is how
//! "overpay when necessary" reads: you may pay more than asked only when no card could be
//! left out.)
//!
//! The search walks item types in order, choosing how many copies of each to pay. It prunes
//! with the shapes the compiler worked out for the top-level conjuncts:
//! - an *Up* conjunct (stays true once true as cards are added) that fails even with every
//!   remaining card added can never be met below this node;
//! - a *Down* conjunct (stays false once false) that fails now fails for every superset;
//! - once all conjuncts hold, adding more cards could only add superfluous ones.
//!
//! When a condition has a conjunct of neither shape, the search visits every sub-multiset
//! (still pruning on Down conjuncts), within a node budget.

pub(crate) mod groups;
mod linear;
pub mod values;

use super::Program;
use super::ast::CmpOp;
use super::compile::{NO_GROUP, Op, Shape};

/// The largest number of search nodes spent on one question before giving up on it (a node
/// over a program with many overlapping `cards(…)` filters counts as several: see
/// [`Program::node_cost`]).
pub const NODE_BUDGET: usize = 1 << 20;

/// A payment: per-type counts, `len` types long.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Payment {
    counts: [u8; 64],
    len: u8,
}

impl Payment {
    /// A payment of the given per-type counts (at most 64 types).
    pub fn from_counts(counts: &[u8]) -> Option<Payment> {
        let mut p = Payment {
            counts: [0; 64],
            len: u8::try_from(counts.len()).ok()?,
        };
        p.counts.get_mut(..counts.len())?.copy_from_slice(counts);
        Some(p)
    }
    pub fn counts(&self) -> &[u8] {
        &self.counts[..self.len as usize]
    }
    pub fn total(&self) -> u32 {
        self.counts().iter().map(|&c| u32::from(c)).sum()
    }
}

impl std::fmt::Debug for Payment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Payment{:?}", self.counts())
    }
}

/// Calls `found` with every legal payment from `hand`, in a stable order (types in
/// universe order, fewer copies first). `found` returns `false` to stop early. Returns
/// `false` if the node budget ran out before the search finished.
pub fn payments(
    program: &Program,
    hand: &[u8],
    args: &[i64],
    found: impl FnMut(&Payment) -> bool,
) -> bool {
    !payments_counted(program, hand, args, found).gave_up
}

/// How much a search did: the nodes it visited (at most [`NODE_BUDGET`]) and whether the
/// budget ran out before it finished.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    pub nodes: usize,
    pub gave_up: bool,
}

/// [`payments`], saying how much it searched.
pub fn payments_counted(
    program: &Program,
    hand: &[u8],
    args: &[i64],
    mut found: impl FnMut(&Payment) -> bool,
) -> Effort {
    if let Some(effort) = linear::payments(program, hand, args, &mut found) {
        return effort;
    }
    let mut search = Search::new(program, hand, args, &mut found, None);
    search.run();
    Effort {
        nodes: search.nodes.min(NODE_BUDGET),
        gave_up: search.exhausted,
    }
}

/// Whether any legal payment exists (equivalently: whether some sub-multiset meets it).
pub fn exists(program: &Program, hand: &[u8], args: &[i64]) -> bool {
    // Fast path: a condition that only grows is met by some subset iff by the whole hand.
    let plan = program.plan();
    if plan.down.is_empty() && plan.mixed.is_empty() {
        // Only sum thresholds: compare the sums directly rather than walk the program.
        if plan.up_other.is_empty() {
            return program.constants_hold(args)
                && plan
                    .up_linear
                    .iter()
                    .all(|l| program.linear_holds(l, hand, args));
        }
        return program.test(hand, args);
    }
    if let Some(limit) = &program.plan().group_limit
        && let Some(found) = groups::exists_within_groups(program, limit, hand, args)
    {
        return found;
    }
    let mut any = false;
    payments(program, hand, args, |_| {
        any = true;
        false
    });
    any
}

/// The legal payment with the lowest `cost` (an integer program over the same types), the
/// first in search order among equals.
pub fn cheapest(
    program: &Program,
    hand: &[u8],
    args: &[i64],
    cost: &Program,
) -> Option<(i64, Payment)> {
    let mut best: Option<(i64, Payment)> = None;
    let mut keep = |p: &Payment| {
        let c = cost.value(p.counts(), args);
        if best.is_none_or(|(b, _)| c < b) {
            best = Some((c, *p));
        }
        true
    };
    let bound = CostBound::new(program, hand, args, cost);
    let mut search = Search::new(program, hand, args, &mut keep, bound.as_ref());
    search.run();
    best
}

/// What the search prunes on when it looks for the cheapest payment under a cost that never
/// decreases as cards are added (built only then: the plain enumeration carries none of it).
struct CostBound<'a> {
    cost: &'a Program,
    /// For an additive cost: the cheapest single card at or after each type, so a payment
    /// that still needs a card is known to cost at least that much more.
    cheapest_from: [i64; 65],
    /// Up conjuncts of the form `additive >= bound`, for the fractional lower bound.
    thresholds: [Threshold; 4],
    threshold_count: usize,
}

impl<'a> CostBound<'a> {
    fn new(program: &Program, hand: &[u8], args: &[i64], cost: &'a Program) -> Option<Self> {
        if cost.shape() != Shape::Up && cost.shape() != Shape::Const {
            return None;
        }
        let len = hand.len().min(program.types()).min(64);
        let hand = &hand[..len];
        let mut bound = CostBound {
            cost,
            cheapest_from: [0; 65],
            thresholds: [Threshold::default(); 4],
            threshold_count: 0,
        };
        if let Some(weights) = cost.additive_weights() {
            bound.cheapest_from[len] = i64::MAX / 4;
            for t in (0..len).rev() {
                let here = if hand[t] > 0 {
                    weights[t]
                } else {
                    i64::MAX / 4
                };
                bound.cheapest_from[t] = here.min(bound.cheapest_from[t + 1]);
            }
            for &i in &program.plan().up {
                if bound.threshold_count == bound.thresholds.len() {
                    break;
                }
                if let Some(t) = Threshold::new(program, i, args, &weights, hand) {
                    bound.thresholds[bound.threshold_count] = t;
                    bound.threshold_count += 1;
                }
            }
        }
        Some(bound)
    }
}

struct Search<'a> {
    program: &'a Program,
    hand: &'a [u8],
    args: &'a [i64],
    found: &'a mut dyn FnMut(&Payment) -> bool,
    /// The payment being built; types at or after the current one are 0.
    pay: Payment,
    /// `pay` so far plus every remaining card: the most the rest of the search can reach.
    reach: [u8; 64],
    /// The types above zero in `pay` and in `reach`, kept as they change so that evaluating
    /// a condition need not look for them.
    pay_held: u64,
    reach_held: u64,
    /// The types the hand holds.
    hand_held: u64,
    /// Prune on a cost that never decreases: nothing costlier than the best is wanted.
    bound: Option<&'a CostBound<'a>>,
    best_cost: i64,
    stopped: bool,
    exhausted: bool,
    nodes: usize,
    /// The monotone search keeps `sum(…) ⋈ bound` conjuncts and the group limit up to date
    /// card by card instead of evaluating them at every node; the rest it evaluates.
    track: Tracking<'a>,
}

/// What the monotone search keeps up to date as the payment changes.
struct Tracking<'a> {
    up: [Tracked; 4],
    up_len: usize,
    down: [Tracked; 4],
    down_len: usize,
    /// The conjuncts evaluated at each node.
    up_other: &'a [u32],
    down_other: &'a [u32],
    groups: Option<Groups<'a>>,
}

#[derive(Clone, Copy)]
struct Tracked {
    weights: u32,
    op: CmpOp,
    bound: i64,
    /// The sum over the payment, and over the payment plus every card still undecided.
    pay: i64,
    reach: i64,
}

/// `distinct(…) <= limit`: how many groups the payment uses.
struct Groups<'a> {
    /// Per type: its group, or `NO_GROUP`.
    group_of: &'a [u8; 64],
    /// Per group: how many of its types the payment holds.
    types_paid: [u8; 64],
    used: i64,
    limit: i64,
    /// The groups' type masks.
    masks: &'a [u64],
    /// The types no group counts, and those of the groups the payment uses: once the limit
    /// is reached, the only types the payment may still add.
    free: u64,
    in_use: u64,
}

impl Groups<'_> {
    /// The types the payment may still add without breaking the limit.
    fn open(&self) -> u64 {
        if self.used >= self.limit {
            self.free | self.in_use
        } else {
            u64::MAX
        }
    }
}

impl<'a> Tracking<'a> {
    fn new(program: &'a Program, hand: &[u8], args: &[i64]) -> Self {
        let plan = program.plan();
        let untracked = Tracking {
            up: [Tracked::EMPTY; 4],
            up_len: 0,
            down: [Tracked::EMPTY; 4],
            down_len: 0,
            up_other: &plan.up,
            down_other: &plan.down,
            groups: None,
        };
        if !plan.mixed.is_empty() || plan.up_linear.len() > 4 || plan.down_linear.len() > 4 {
            return untracked;
        }
        let tracked = |l: &super::compile::Linear| Tracked {
            weights: l.weights,
            op: l.op,
            bound: program.bound(l.bound, args),
            pay: 0,
            reach: program.dot(l.weights, hand),
        };
        let mut t = Tracking {
            up_other: &plan.up_other,
            down_other: &plan.down_other,
            ..untracked
        };
        for l in &plan.up_linear {
            t.up[t.up_len] = tracked(l);
            t.up_len += 1;
        }
        for l in &plan.down_linear {
            t.down[t.down_len] = tracked(l);
            t.down_len += 1;
        }
        if let Some(limit) = &plan.group_limit {
            // The limit is the only Down conjunct.
            let masks = program.groups(limit);
            let masks = &masks[..masks.len().min(64)];
            let groups = Groups {
                group_of: &limit.group_of,
                types_paid: [0; 64],
                used: 0,
                limit: program.bound(limit.bound, args) - i64::from(limit.strict),
                masks,
                free: !limit.grouped,
                in_use: 0,
            };
            t.groups = Some(groups);
            t.down_other = &[];
        }
        t
    }

    /// Type `t` goes from `old` to `new` copies in the payment and from `old_reach` to
    /// `new_reach` in what the search can still reach.
    #[inline]
    fn change(
        &mut self,
        program: &Program,
        t: usize,
        old: u8,
        new: u8,
        old_reach: u8,
        new_reach: u8,
    ) {
        let (d_pay, d_reach) = (
            i64::from(new) - i64::from(old),
            i64::from(new_reach) - i64::from(old_reach),
        );
        for x in self.up[..self.up_len]
            .iter_mut()
            .chain(self.down[..self.down_len].iter_mut())
        {
            let w = program.weight(x.weights, t);
            x.pay += d_pay * w;
            x.reach += d_reach * w;
        }
        if let Some(g) = &mut self.groups {
            let group = g.group_of[t];
            if group != NO_GROUP && (old == 0) != (new == 0) {
                let paid = &mut g.types_paid[usize::from(group)];
                if new > 0 {
                    g.used += i64::from(*paid == 0);
                    *paid += 1;
                } else {
                    *paid -= 1;
                    g.used -= i64::from(*paid == 0);
                }
                let mask = g.masks[usize::from(group)];
                g.in_use = if *paid > 0 {
                    g.in_use | mask
                } else {
                    g.in_use & !mask
                };
            }
        }
    }
}

impl Tracked {
    const EMPTY: Tracked = Tracked {
        weights: 0,
        op: CmpOp::Ge,
        bound: 0,
        pay: 0,
        reach: 0,
    };
}

impl<'a> Search<'a> {
    fn new(
        program: &'a Program,
        hand: &'a [u8],
        args: &'a [i64],
        found: &'a mut dyn FnMut(&Payment) -> bool,
        bound: Option<&'a CostBound<'a>>,
    ) -> Self {
        // A hand may be longer than the program's types (a 64-slot `Counts`): the rest are 0.
        let hand = program.own_types(hand);
        let len = hand.len();
        let mut reach = [0u8; 64];
        reach[..len].copy_from_slice(hand);
        let held = crate::counts::nonzero_mask(hand);
        Search {
            program,
            hand,
            args,
            found,
            pay: Payment {
                counts: [0; 64],
                len: len as u8,
            },
            reach_held: held,
            hand_held: held,
            pay_held: 0,
            reach,
            bound,
            best_cost: i64::MAX,
            stopped: false,
            exhausted: false,
            nodes: 0,
            track: Tracking::new(program, hand, args),
        }
    }

    /// Whether every conjunct holds over `counts`, whose types above zero are `held`.
    fn all(&self, conjuncts: &[u32], counts: &[u8], held: u64) -> bool {
        conjuncts
            .iter()
            .all(|&i| self.program.eval_held(i, counts, held, self.args) != 0)
    }

    fn run(&mut self) {
        let plan = self.program.plan();
        // The payment is empty and `reach` the hand; the tracked forms answer for them.
        if !self.program.constants_hold(self.args) || !self.down_holds() {
            return;
        }
        if plan.mixed.is_empty() {
            if !self.up_reachable() {
                return;
            }
            if self.up_holds() {
                self.emit();
                return;
            }
            self.monotone(0);
        } else {
            let empty = [0u8; 64];
            if self.meets(&empty, 0) && self.minimal() {
                self.emit();
            }
            self.exhaustive(0);
        }
    }

    fn emit(&mut self) {
        if let Some(bound) = self.bound {
            let c = bound.cost.value(self.pay.counts(), self.args);
            if c > self.best_cost {
                return;
            }
            self.best_cost = c;
        }
        if !(self.found)(&self.pay) {
            self.stopped = true;
        }
    }

    fn tick(&mut self) -> bool {
        self.nodes += self.program.node_cost();
        if self.nodes > NODE_BUDGET {
            self.exhausted = true;
            self.stopped = true;
        }
        !self.stopped
    }

    /// Whether no completion of the payment can cost less than the best found, given that it
    /// still needs at least `more` (0, or the cheapest remaining card).
    fn too_costly(&self, more: i64) -> bool {
        self.bound.is_some_and(|b| {
            b.cost
                .value(self.pay.counts(), self.args)
                .saturating_add(more)
                >= self.best_cost
        })
    }

    /// The least a payment still short of its conditions must add to its cost, when the
    /// types from `t` on are all that is left to pay with.
    fn lower_bound_of_rest(&self, t: usize) -> i64 {
        let Some(b) = self.bound else {
            return 0;
        };
        let mut bound = b.cheapest_from[t];
        for th in &b.thresholds[..b.threshold_count] {
            let have = self.program.eval(th.sum, self.pay.counts(), self.args);
            let short = i128::from(th.need) - i128::from(have);
            if short > 0 {
                let (num, den) = th.best_rate_from[t];
                if den == 0 {
                    return i64::MAX / 4; // nothing left can close the gap
                }
                // ceil(short * num / den), exact in integers.
                let more = (short * i128::from(num) + i128::from(den) - 1) / i128::from(den);
                bound = bound.max(more.min(i128::from(i64::MAX / 4)) as i64);
            }
        }
        bound
    }

    /// Sets type `t` to `pay` copies in the payment and `reach` in what is reachable.
    #[inline]
    fn set(&mut self, t: usize, pay: u8, reach: u8) {
        let (old, old_reach) = (self.pay.counts[t], self.reach[t]);
        self.track
            .change(self.program, t, old, pay, old_reach, reach);
        self.pay.counts[t] = pay;
        self.reach[t] = reach;
        self.pay_held = (self.pay_held & !(1 << t)) | u64::from(pay > 0) << t;
        self.reach_held = (self.reach_held & !(1 << t)) | u64::from(reach > 0) << t;
    }

    /// The Down conjuncts hold for the payment.
    fn down_holds(&self) -> bool {
        let tr = &self.track;
        tr.groups.as_ref().is_none_or(|g| g.used <= g.limit)
            && tr.down[..tr.down_len]
                .iter()
                .all(|x| x.op.holds(x.pay, x.bound))
            && self.all(tr.down_other, self.pay.counts(), self.pay_held)
    }

    /// The Up conjuncts hold for the payment.
    fn up_holds(&self) -> bool {
        let tr = &self.track;
        tr.up[..tr.up_len]
            .iter()
            .all(|x| x.op.holds(x.pay, x.bound))
            && self.all(tr.up_other, self.pay.counts(), self.pay_held)
    }

    /// The Up conjuncts hold for everything still reachable.
    fn up_reachable(&self) -> bool {
        let tr = &self.track;
        tr.up[..tr.up_len]
            .iter()
            .all(|x| x.op.holds(x.reach, x.bound))
            && self.all(tr.up_other, &self.reach[..self.hand.len()], self.reach_held)
    }

    /// No single card of a payment that meets the Up conjuncts can be left out (leaving one
    /// out keeps the Down conjuncts true).
    fn monotone_minimal(&mut self) -> bool {
        for t in 0..self.hand.len() {
            if self.pay.counts[t] == 0 {
                continue;
            }
            let tr = &self.track;
            let linear_still = tr.up[..tr.up_len].iter().all(|x| {
                x.op.holds(x.pay - self.program.weight(x.weights, t), x.bound)
            });
            let still = linear_still && {
                self.pay.counts[t] -= 1;
                let held = if self.pay.counts[t] == 0 {
                    self.pay_held & !(1u64 << t)
                } else {
                    self.pay_held
                };
                let other = self.all(self.track.up_other, self.pay.counts(), held);
                self.pay.counts[t] += 1;
                other
            };
            if still {
                return false;
            }
        }
        true
    }

    /// Only Up, Down and constant conjuncts: prune on every shape.
    fn monotone(&mut self, from: usize) {
        // The next type held that the group limit still lets the payment add (a type it
        // blocks could only be paid 0 times, which is what skipping it means).
        let mut next = self.hand_held & u64::MAX.checked_shl(from as u32).unwrap_or(0);
        if let Some(g) = &self.track.groups {
            next &= g.open();
        }
        if next == 0 {
            return;
        }
        let t = next.trailing_zeros() as usize;
        for k in 0..=self.hand[t] {
            if !self.tick() {
                return;
            }
            self.set(t, k, k);
            if k > 0 {
                if !self.down_holds() || self.too_costly(0) {
                    break;
                }
                if self.up_holds() {
                    // Met: more copies, or more of later types, would be superfluous.
                    if self.monotone_minimal() {
                        self.emit();
                    }
                    break;
                }
            }
            // Not met yet, so at least one more card is needed, and each threshold still
            // short needs its shortfall bought at no better than the best remaining rate.
            if self.too_costly(self.lower_bound_of_rest(t)) {
                break;
            }
            if self.up_reachable() {
                self.monotone(t + 1);
            }
            if self.stopped {
                break;
            }
        }
        let have = self.hand[t];
        self.set(t, 0, have);
    }

    /// Some conjunct is neither Up nor Down: try every sub-multiset once.
    fn exhaustive(&mut self, from: usize) {
        let plan = self.program.plan();
        for t in from..self.hand.len() {
            for k in 1..=self.hand[t] {
                if !self.tick() {
                    self.pay.counts[t] = 0;
                    self.pay_held &= !(1u64 << t);
                    return;
                }
                self.pay.counts[t] = k;
                self.pay_held |= 1u64 << t;
                if !self.all(&plan.down, self.pay.counts(), self.pay_held) {
                    break;
                }
                if self.meets(&self.pay.counts, self.pay_held) && self.minimal() {
                    self.emit();
                }
                self.exhaustive(t + 1);
                if self.stopped {
                    break;
                }
            }
            self.pay.counts[t] = 0;
            self.pay_held &= !(1u64 << t);
            if self.stopped {
                return;
            }
        }
    }

    fn meets(&self, counts: &[u8], held: u64) -> bool {
        self.program.eval_held(
            self.program.root(),
            &counts[..self.hand.len()],
            held,
            self.args,
        ) != 0
    }

    /// No single card of the payment can be left out.
    fn minimal(&mut self) -> bool {
        let plan = self.program.plan();
        // Removing a card keeps Down conjuncts true, so only the others need a look.
        let recheck: &[u32] = if plan.mixed.is_empty() { &plan.up } else { &[] };
        let mut paid = self.pay_held;
        while paid != 0 {
            let t = paid.trailing_zeros() as usize;
            paid &= paid - 1;
            self.pay.counts[t] -= 1;
            let held = if self.pay.counts[t] == 0 {
                self.pay_held & !(1u64 << t)
            } else {
                self.pay_held
            };
            let still = if plan.mixed.is_empty() {
                self.all(recheck, self.pay.counts(), held)
            } else {
                self.meets(&self.pay.counts, held)
            };
            self.pay.counts[t] += 1;
            if still {
                return false;
            }
        }
        true
    }
}

/// An Up conjunct `sum >= need` whose left side adds per-type weights: to close a shortfall
/// of `s` a payment must spend at least `s` times the best cost-per-weight rate left.
#[derive(Clone, Copy)]
struct Threshold {
    /// The op computing the sum.
    sum: u32,
    need: i64,
    /// Per type `t`: the lowest cost/weight ratio among types `t..` still in hand, as a
    /// fraction `(num, den)`; `den == 0` when none can add weight.
    best_rate_from: [(i64, i64); 65],
}

impl Default for Threshold {
    fn default() -> Self {
        Threshold {
            sum: 0,
            need: 0,
            best_rate_from: [(0, 0); 65],
        }
    }
}

impl Threshold {
    fn new(
        program: &Program,
        i: u32,
        args: &[i64],
        cost: &[i64; 64],
        hand: &[u8],
    ) -> Option<Threshold> {
        let Op::Cmp(op, left, right) = program.op(i) else {
            return None;
        };
        let weights = program.additive_weights_at(left)?;
        if program.shape_at(right) != Shape::Const {
            return None;
        }
        let bound = program.bound(right, args);
        let need = match op {
            super::ast::CmpOp::Ge => bound,
            super::ast::CmpOp::Gt => bound.checked_add(1)?,
            _ => return None,
        };
        let mut best_rate_from = [(0i64, 0i64); 65];
        for t in (0..hand.len()).rev() {
            let mut best = best_rate_from[t + 1];
            if hand[t] > 0 && weights[t] > 0 {
                let rate = (cost[t], weights[t]);
                // rate < best  ⇔  cost·best.den < best.num·weight
                if best.1 == 0
                    || i128::from(rate.0) * i128::from(best.1)
                        < i128::from(best.0) * i128::from(rate.1)
                {
                    best = rate;
                }
            }
            best_rate_from[t] = best;
        }
        Some(Threshold {
            sum: left,
            need,
            best_rate_from,
        })
    }
}

/// Whether some sub-multiset of a deck can meet a condition (the lint's question), as far as
/// a bounded amount of work can tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Satisfiable {
    /// Some sub-multiset meets it.
    Yes,
    /// None ever does; why, in words.
    Never(String),
    /// The work ran out before an answer: neither a pass nor a failure.
    GaveUp,
    /// It reads runtime arguments that were not given, so there is nothing to decide yet.
    NeedsArguments,
}

/// A [`Satisfiable`] answer and the steps spent on it: search nodes plus values written, at
/// most [`DECIDE_BUDGET`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub answer: Satisfiable,
    pub steps: usize,
}

/// The most steps [`satisfiable`] spends: the payment search's budget, then as much again for
/// walking the values a condition's sums can take.
pub const DECIDE_BUDGET: usize = NODE_BUDGET + values::VALUE_BUDGET;

/// Whether any sub-multiset of `deck` meets `program`, within [`DECIDE_BUDGET`] steps.
/// `source` is the condition's text, quoted in the explanation. The payment search decides
/// most conditions; when its budget runs out (a condition that neither grows nor shrinks with
/// the cards, over a large deck), one that reads the cards only through counts and sums is
/// decided by the values those can take (`count(*) * count(*) = 7`: the count is 0 to the
/// deck's size, and no square is 7). Anything else past the budget is [`Satisfiable::GaveUp`].
pub fn satisfiable(program: &Program, source: &str, deck: &[u8], args: &[i64]) -> Decision {
    if args.len() < program.args() {
        return Decision {
            answer: Satisfiable::NeedsArguments,
            steps: 0,
        };
    }
    let mut any = false;
    let search = payments_counted(program, deck, args, |_| {
        any = true;
        false
    });
    let mut steps = search.nodes;
    let answer = if any {
        Satisfiable::Yes
    } else if !search.gave_up {
        let why = explain(program, program.root(), source, deck, args);
        Satisfiable::Never(why.unwrap_or_else(|| "no combination of the cards meets it".into()))
    } else {
        match values::exists(program, deck, args, &mut steps) {
            Some(true) => Satisfiable::Yes,
            Some(false) => Satisfiable::Never(
                "no choice of the cards gives counts and sums that meet it (every value they \
                 can take was tried)"
                    .into(),
            ),
            None => Satisfiable::GaveUp,
        }
    };
    Decision { answer, steps }
}

/// Whether some sub-multiset of `deck` meets `program`, decided by the values its counts and
/// sums can take rather than by a payment search (what [`satisfiable`] falls back on). `None`
/// when the program reads the cards otherwise (`distinct`, `cards`) or more than
/// [`values::VALUE_BUDGET`] values would be written.
pub fn exists_by_values(program: &Program, deck: &[u8], args: &[i64]) -> Option<bool> {
    values::exists(program, deck, args, &mut 0)
}

/// Which part of `program` a payment (or any multiset) fails, in words: the first top-level
/// conjunct that does not hold, quoted from `source`, with both sides when it is a comparison
/// (`` `sum(strength) <= $power` does not hold: 4 against 3 ``). `None` when it holds.
pub fn failing_part(
    program: &Program,
    source: &str,
    counts: &[u8],
    args: &[i64],
) -> Option<String> {
    let (quoted, sides) = failing_conjunct(program, source, counts, args)?;
    Some(match sides {
        Some((l, r)) => format!("`{quoted}` does not hold: {l} against {r}"),
        None => format!("`{quoted}` does not hold"),
    })
}

/// The first top-level conjunct of `program` that `counts` fails: its text in `source`, and
/// both sides when it is a comparison. `None` when the program holds.
pub fn failing_conjunct(
    program: &Program,
    source: &str,
    counts: &[u8],
    args: &[i64],
) -> Option<(String, Option<(i64, i64)>)> {
    if program.test(counts, args) {
        return None;
    }
    let failing = program
        .conjuncts()
        .into_iter()
        .find(|&i| program.eval(i, counts, args) == 0)?;
    let quoted = text(program, failing, source);
    let sides = match program.op(failing) {
        Op::Cmp(_, l, r) => Some((program.eval(l, counts, args), program.eval(r, counts, args))),
        _ => None,
    };
    Some((quoted, sides))
}

fn text(program: &Program, i: u32, source: &str) -> String {
    let span = program.span_at(i);
    source
        .get(span)
        .map(str::trim)
        .unwrap_or("this part")
        .to_string()
}

/// Explains why node `i` fails for every sub-multiset of `deck`, when it is simple enough
/// to say.
fn explain(program: &Program, i: u32, source: &str, deck: &[u8], args: &[i64]) -> Option<String> {
    let holds = |j: u32| program.eval(j, deck, args) != 0;
    match program.op(i) {
        Op::And(a, b) => {
            for part in [a, b] {
                if program.shape_at(part) == Shape::Up && !holds(part) {
                    return explain(program, part, source, deck, args);
                }
            }
            if program.shape_at(a) == Shape::Up && program.shape_at(b) == Shape::Down {
                return Some(format!(
                    "`{}` and `{}` cannot both hold",
                    text(program, a, source),
                    text(program, b, source)
                ));
            }
            None
        }
        Op::Or(a, b) => {
            let left = explain(program, a, source, deck, args)?;
            let right = explain(program, b, source, deck, args)?;
            Some(format!("{left}; and {right}"))
        }
        Op::Cmp(op, l, r) if program.shape_at(i) == Shape::Up && !holds(i) => {
            let (lv, rv) = (program.eval(l, deck, args), program.eval(r, deck, args));
            let bound = match program.shape_at(l) {
                Shape::Up => "at most",
                Shape::Down => "at least",
                _ => "only",
            };
            Some(format!(
                "`{}` is {bound} {lv} even with every card, but must be {} {rv}",
                text(program, l, source),
                op.symbol()
            ))
        }
        Op::Cards { len, .. } if !holds(i) => {
            let quoted = text(program, i, source);
            Some(match program.cards_shortfall(i, deck) {
                Some(s) if s.filters < len as usize => format!(
                    "there are not enough distinct cards for `{quoted}`: {} of its filters match \
                     only {} cards between them",
                    s.filters, s.items
                ),
                Some(s) => format!(
                    "there are not enough distinct cards for `{quoted}`: its {} filters match \
                     only {} cards between them",
                    s.filters, s.items
                ),
                None => format!("there are not enough distinct cards for `{quoted}`"),
            })
        }
        Op::Const(0) => Some(format!("`{}` is always false", text(program, i, source))),
        _ => None,
    }
}
