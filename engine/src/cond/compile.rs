//! Compiling: a checked tree → a [`Program`], a small arena of operations over per-type
//! counts. Filters become 64-bit masks of item types, sums become per-type weights, so
//! evaluating never looks at a name or a string.

use std::ops::Range;

use super::Universe;
use super::ast::{ArithOp, CmpOp};
use super::check::{AttrRef, Checked, MAX_CARDS_FILTERS, Node, NodeKind, RFilter, Type};

/// A compiled condition or integer expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    ty: Type,
    ops: Vec<Op>,
    /// Where each op came from in the condition's text, for explanations.
    spans: Vec<Range<u32>>,
    /// How each op changes as items are added to the multiset.
    shapes: Vec<Shape>,
    /// Per-type weights of the `Sum` ops, `types` entries each.
    weights: Vec<i64>,
    /// Type masks of the `Distinct` groups and `Cards` filters.
    masks: Vec<u64>,
    root: u32,
    types: usize,
    args: usize,
    plan: Plan,
    /// The weights again as `i16`, when every one fits (they nearly always do): a sum of
    /// 64 types of 255 copies then fits an `i32`, and the dot product vectorises.
    small_weights: Option<Vec<i16>>,
    /// Every weight is small enough that such a sum fits an `i64`.
    narrow: bool,
    /// Some op asks which types are held (`distinct`, `cards`): only then is it worked out.
    reads_held: bool,
    /// What one evaluation costs the solver's node budget: 1, plus a share for each
    /// `cards(…)` whose filters overlap (its matching grows with the square of the filters).
    node_cost: usize,
}

/// The top-level conjuncts by shape, worked out once so the solver never allocates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    pub up: Vec<u32>,
    pub down: Vec<u32>,
    pub mixed: Vec<u32>,
    pub constant: Vec<u32>,
    /// Set when the only conjunct that is not Up or constant limits how many groups may be
    /// used (`distinct(suit, suit != wild) <= 1`): whether a payment exists is then decided
    /// by trying the largest multisets within the limit (see `solve::exists`).
    pub group_limit: Option<GroupLimit>,
    /// The Up and Down conjuncts again, split into `sum(…) ⋈ bound` comparisons (which the
    /// solver keeps up to date card by card) and the rest (which it evaluates).
    pub up_linear: Vec<Linear>,
    pub up_other: Vec<u32>,
    pub down_linear: Vec<Linear>,
    pub down_other: Vec<u32>,
}

/// A conjunct `sum(…) ⋈ bound` with the sum on the left, where the bound does not depend on
/// the items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Linear {
    /// The `Sum` op's weights (an offset into the program's weights).
    pub weights: u32,
    /// The op giving the bound.
    pub bound: u32,
    /// `Ge`, `Gt`, `Le` or `Lt`.
    pub op: CmpOp,
}

/// `distinct(attr, filter) <= bound` (or `<`, or written the other way round), where the
/// bound does not depend on the items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GroupLimit {
    /// The `Distinct` op's groups: `len` type masks at `groups` in `masks`.
    pub groups: u32,
    pub len: u32,
    /// The op giving the bound, and whether the comparison is strict.
    pub bound: u32,
    pub strict: bool,
    /// Per type: the group it belongs to (of the first 64), or [`NO_GROUP`].
    pub group_of: [u8; 64],
    /// The types some group (of the first 64) counts.
    pub grouped: u64,
}

/// [`GroupLimit::group_of`] for a type no group counts.
pub(crate) const NO_GROUP: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Const(i64),
    Arg(u32),
    Not(u32),
    And(u32, u32),
    Or(u32, u32),
    Cmp(CmpOp, u32, u32),
    Arith(ArithOp, u32, u32),
    Neg(u32),
    /// Per-type weights times counts: `sum(…)`, and `count(…)` with weight 1.
    Sum {
        mask: u64,
        weights: u32,
    },
    /// How many of the groups (type masks) have an item present.
    Distinct {
        groups: u32,
        len: u32,
    },
    /// Distinct items matching each filter mask.
    Cards {
        filters: u32,
        len: u32,
        /// No two filters share a type: each only needs an item of its own.
        disjoint: bool,
    },
}

/// How a value responds to adding items to the multiset: the solver's pruning rests on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Does not depend on the items.
    Const,
    /// Never decreases (numbers) / stays true once true (conditions) as items are added.
    Up,
    /// Never increases / stays false once false as items are added.
    Down,
    /// Neither.
    Mixed,
}

impl Shape {
    fn flip(self) -> Shape {
        match self {
            Shape::Up => Shape::Down,
            Shape::Down => Shape::Up,
            s => s,
        }
    }
    fn join(self, other: Shape) -> Shape {
        match (self, other) {
            (Shape::Const, s) | (s, Shape::Const) => s,
            (a, b) if a == b => a,
            _ => Shape::Mixed,
        }
    }
}

pub fn compile(checked: &Checked, universe: &Universe) -> Program {
    let mut p = Program {
        ty: checked.ty,
        ops: Vec::new(),
        spans: Vec::new(),
        shapes: Vec::new(),
        weights: Vec::new(),
        masks: Vec::new(),
        root: 0,
        types: universe.types.len(),
        args: checked.args,
        plan: Plan::default(),
        small_weights: None,
        narrow: false,
        reads_held: false,
        node_cost: 1,
    };
    p.root = p.lower(&checked.root, universe);
    const NARROW: u64 = i64::MAX as u64 / (255 * 64);
    p.narrow = p.weights.iter().all(|w| w.unsigned_abs() <= NARROW);
    p.node_cost = 1 + p
        .ops
        .iter()
        .map(|op| match *op {
            Op::Cards {
                len,
                disjoint: false,
                ..
            } => (len as usize).pow(2) / 16,
            _ => 0,
        })
        .sum::<usize>();
    p.reads_held = p
        .ops
        .iter()
        .any(|op| matches!(op, Op::Distinct { .. } | Op::Cards { .. }));
    for i in p.conjuncts() {
        match p.shapes[i as usize] {
            Shape::Up => p.plan.up.push(i),
            Shape::Down => p.plan.down.push(i),
            Shape::Mixed => p.plan.mixed.push(i),
            Shape::Const => p.plan.constant.push(i),
        }
    }
    if p.plan.mixed.is_empty() && p.plan.down.len() == 1 {
        p.plan.group_limit = p.group_limit(p.plan.down[0]);
    }
    let (up, down) = (p.plan.up.clone(), p.plan.down.clone());
    for i in up {
        match p.linear(i) {
            Some(l) => p.plan.up_linear.push(l),
            None if p.split_disjoint_cards(i) => {}
            None => p.plan.up_other.push(i),
        }
    }
    for i in down {
        match p.linear(i) {
            Some(l) => p.plan.down_linear.push(l),
            None => p.plan.down_other.push(i),
        }
    }
    // After the plan: splitting `cards(…)` adds weights.
    p.small_weights = p
        .weights
        .iter()
        .map(|&w| i16::try_from(w).ok())
        .collect::<Option<Vec<i16>>>();
    p
}

fn mask(filter: &RFilter, universe: &Universe) -> u64 {
    (0..universe.types.len().min(64))
        .filter(|&t| filter.matches(universe, t))
        .fold(0, |m, t| m | (1u64 << t))
}

impl Program {
    /// Conjunct `i` as `sum(…) ⋈ bound`, when it is one and its sums fit an `i64`.
    fn linear(&self, i: u32) -> Option<Linear> {
        let Op::Cmp(op, l, r) = self.ops[i as usize] else {
            return None;
        };
        let (sum, bound, op) = match (self.ops[l as usize], self.ops[r as usize]) {
            (Op::Sum { weights, .. }, _) => (weights, r, op),
            (_, Op::Sum { weights, .. }) => (weights, l, op.mirrored()),
            _ => return None,
        };
        let ordered = matches!(op, CmpOp::Ge | CmpOp::Gt | CmpOp::Le | CmpOp::Lt);
        (self.narrow && ordered && self.shapes[bound as usize] == Shape::Const).then_some(Linear {
            weights: sum,
            bound,
            op,
        })
    }

    /// Conjunct `i`, when it is `cards(…)` whose filters share no type, planned as what it
    /// then means: `count(filter) >= 1` for each filter (an item matches one filter at most,
    /// so any items of each are distinct). The solver then keeps its counts card by card, as
    /// it does a sum's, instead of matching filters to items at every node. The op stays as
    /// written for evaluation and explanations.
    fn split_disjoint_cards(&mut self, i: u32) -> bool {
        let Op::Cards {
            filters,
            len,
            disjoint: true,
        } = self.ops[i as usize]
        else {
            return false;
        };
        let span = self.span_at(i);
        let one = self.push(Op::Const(1), &span);
        for f in 0..len {
            let m = self.masks[(filters + f) as usize];
            let weights = self.weights.len() as u32;
            self.weights
                .extend((0..self.types).map(|t| i64::from(t < 64 && m & (1 << t) != 0)));
            self.plan.up_linear.push(Linear {
                weights,
                bound: one,
                op: CmpOp::Ge,
            });
        }
        true
    }

    /// Whether `sum(…) ⋈ bound` holds over `counts`, without walking the program.
    #[inline]
    pub(crate) fn linear_holds(&self, l: &Linear, counts: &[u8], args: &[i64]) -> bool {
        l.op.holds(self.dot(l.weights, counts), self.bound(l.bound, args))
    }

    /// The value of op `i`, which does not depend on the items (a bound, a limit): a literal
    /// or an argument is read directly, anything else evaluated.
    #[inline]
    pub(crate) fn bound(&self, i: u32, args: &[i64]) -> i64 {
        match self.ops[i as usize] {
            Op::Const(c) => c,
            Op::Arg(slot) => args.get(slot as usize).copied().unwrap_or(0),
            _ => self.eval(i, &[], args),
        }
    }

    /// The weight of type `t` in the `Sum` whose weights start at `offset`.
    #[inline]
    pub(crate) fn weight(&self, offset: u32, t: usize) -> i64 {
        self.weights[offset as usize + t]
    }

    fn group_limit(&self, i: u32) -> Option<GroupLimit> {
        let Op::Cmp(op, l, r) = self.ops[i as usize] else {
            return None;
        };
        let (distinct, bound, strict) = match op {
            CmpOp::Le => (l, r, false),
            CmpOp::Lt => (l, r, true),
            CmpOp::Ge => (r, l, false),
            CmpOp::Gt => (r, l, true),
            _ => return None,
        };
        let Op::Distinct { groups, len } = self.ops[distinct as usize] else {
            return None;
        };
        let (mut group_of, mut grouped) = ([NO_GROUP; 64], 0u64);
        for (g, &mask) in self.group_masks(groups, len).iter().take(64).enumerate() {
            grouped |= mask;
            for t in bits(mask) {
                group_of[t as usize] = g as u8;
            }
        }
        (self.shapes[bound as usize] == Shape::Const).then_some(GroupLimit {
            groups,
            len,
            bound,
            strict,
            group_of,
            grouped,
        })
    }

    /// The type masks of a `Distinct` op's groups.
    pub(crate) fn groups(&self, limit: &GroupLimit) -> &[u64] {
        self.group_masks(limit.groups, limit.len)
    }

    fn push(&mut self, op: Op, span: &Range<usize>) -> u32 {
        let shape = self.shape_of(op);
        // Fold operations whose inputs are all literals. (Shape::Const only says "does not
        // depend on the items": a runtime argument is not a literal.)
        let literal_inputs = match op {
            Op::Not(x) | Op::Neg(x) => self.constant(x).is_some(),
            Op::And(a, b) | Op::Or(a, b) | Op::Cmp(_, a, b) | Op::Arith(_, a, b) => {
                self.constant(a).is_some() && self.constant(b).is_some()
            }
            _ => false,
        };
        let op = if literal_inputs {
            let scratch = [0u8; 64];
            Op::Const(self.eval_op(op, &scratch[..self.types.min(64)], 0, &[]))
        } else {
            op
        };
        self.ops.push(op);
        self.spans.push(span.start as u32..span.end as u32);
        self.shapes.push(shape);
        (self.ops.len() - 1) as u32
    }

    fn lower(&mut self, node: &Node, universe: &Universe) -> u32 {
        let span = &node.span;
        let op = match &node.kind {
            NodeKind::Const(v) => Op::Const(*v),
            NodeKind::Arg(slot) => Op::Arg(*slot as u32),
            NodeKind::Not(x) => Op::Not(self.lower(x, universe)),
            NodeKind::And(a, b) | NodeKind::Or(a, b) => {
                let is_and = matches!(node.kind, NodeKind::And(..));
                let (a, b) = (self.lower(a, universe), self.lower(b, universe));
                // `true and x` is x, `false or x` is x; `false and x`, `true or x` are constant.
                // This is what lets a boolean pack option switch part of a condition off.
                let (absorbing, neutral) = if is_and { (0, 1) } else { (1, 0) };
                let truth = |c: i64| i64::from(c != 0);
                let (ca, cb) = (self.constant(a).map(truth), self.constant(b).map(truth));
                if ca == Some(absorbing) || cb == Some(absorbing) {
                    Op::Const(absorbing)
                } else if ca == Some(neutral) {
                    return b;
                } else if cb == Some(neutral) {
                    return a;
                } else if is_and {
                    Op::And(a, b)
                } else {
                    Op::Or(a, b)
                }
            }
            NodeKind::Cmp(CmpOp::Eq, a, b) => {
                // a = b is a >= b and a <= b: one half grows, the other shrinks, and the
                // solver can prune on each.
                let (a, b) = (self.lower(a, universe), self.lower(b, universe));
                let ge = self.push(Op::Cmp(CmpOp::Ge, a, b), span);
                let le = self.push(Op::Cmp(CmpOp::Le, a, b), span);
                Op::And(ge, le)
            }
            NodeKind::Cmp(op, a, b) => {
                Op::Cmp(*op, self.lower(a, universe), self.lower(b, universe))
            }
            NodeKind::Arith(op, a, b) => {
                Op::Arith(*op, self.lower(a, universe), self.lower(b, universe))
            }
            NodeKind::Neg(x) => Op::Neg(self.lower(x, universe)),
            // A count is a sum with weight 1: one dense loop evaluates both.
            NodeKind::Count(f) => {
                let m = mask(f, universe);
                let offset = self.weights.len() as u32;
                self.weights
                    .extend((0..self.types).map(|t| i64::from(m & (1 << t) != 0)));
                Op::Sum {
                    mask: m,
                    weights: offset,
                }
            }
            NodeKind::Sum(attr, f) => {
                let m = mask(f, universe);
                let offset = self.weights.len() as u32;
                let mut present = 0u64;
                for t in 0..self.types {
                    let w = if m & (1 << t) != 0 {
                        universe.int(t, *attr)
                    } else {
                        None
                    };
                    if w.is_some() {
                        present |= 1 << t;
                    }
                    self.weights.push(w.unwrap_or(0));
                }
                Op::Sum {
                    mask: present,
                    weights: offset,
                }
            }
            NodeKind::Distinct(attr, f) => {
                let m = mask(f, universe);
                let mut groups: Vec<(Option<super::Value>, u64)> = Vec::new();
                for t in (0..self.types).filter(|t| m & (1 << t) != 0) {
                    let key = match attr {
                        AttrRef::Id => Some(super::Value::Int(t as i64)),
                        AttrRef::Attr(a) => universe.value(t, *a),
                    };
                    let Some(key) = key else { continue };
                    match groups.iter_mut().find(|(k, _)| *k == Some(key)) {
                        Some((_, g)) => *g |= 1 << t,
                        None => groups.push((Some(key), 1 << t)),
                    }
                }
                let offset = self.masks.len() as u32;
                self.masks.extend(groups.iter().map(|(_, g)| g));
                Op::Distinct {
                    groups: offset,
                    len: groups.len() as u32,
                }
            }
            NodeKind::Cards(filters) => {
                let mut ms: Vec<u64> = filters.iter().map(|f| mask(f, universe)).collect();
                // Most constrained filter first: each usually takes a spare type at once.
                ms.sort_by_key(|m| m.count_ones());
                let offset = self.masks.len() as u32;
                self.masks.extend(&ms);
                let disjoint = ms
                    .iter()
                    .enumerate()
                    .all(|(i, a)| ms[i + 1..].iter().all(|b| a & b == 0));
                Op::Cards {
                    filters: offset,
                    len: ms.len() as u32,
                    disjoint,
                }
            }
        };
        self.push(op, span)
    }

    fn shape_of(&self, op: Op) -> Shape {
        let s = |i: u32| self.shapes[i as usize];
        match op {
            Op::Const(_) | Op::Arg(_) => Shape::Const,
            Op::Distinct { .. } | Op::Cards { .. } => Shape::Up,
            Op::Sum { mask, weights } => {
                let ws = self.weights_of(weights);
                let mut shape = Shape::Const;
                for t in (0..self.types).filter(|t| mask & (1 << t) != 0) {
                    shape = shape.join(match ws[t].signum() {
                        1 => Shape::Up,
                        -1 => Shape::Down,
                        _ => Shape::Const,
                    });
                }
                shape
            }
            Op::Not(x) | Op::Neg(x) => s(x).flip(),
            Op::And(a, b) | Op::Or(a, b) => s(a).join(s(b)),
            Op::Arith(ArithOp::Add, a, b) => s(a).join(s(b)),
            Op::Arith(ArithOp::Sub, a, b) => s(a).join(s(b).flip()),
            Op::Arith(ArithOp::Mul, a, b) => match (self.constant(a), self.constant(b)) {
                (Some(_), Some(_)) => Shape::Const,
                (Some(c), None) => scale(s(b), c),
                (None, Some(c)) => scale(s(a), c),
                _ if s(a) == Shape::Const && s(b) == Shape::Const => Shape::Const,
                _ => Shape::Mixed,
            },
            Op::Cmp(op, a, b) => {
                let diff = s(a).join(s(b).flip());
                match op {
                    CmpOp::Ge | CmpOp::Gt => diff,
                    CmpOp::Le | CmpOp::Lt => diff.flip(),
                    CmpOp::Eq | CmpOp::Ne if diff == Shape::Const => Shape::Const,
                    CmpOp::Eq | CmpOp::Ne => Shape::Mixed,
                }
            }
        }
    }

    fn constant(&self, i: u32) -> Option<i64> {
        match self.ops[i as usize] {
            Op::Const(c) => Some(c),
            _ => None,
        }
    }

    fn weights_of(&self, offset: u32) -> &[i64] {
        &self.weights[offset as usize..offset as usize + self.types]
    }

    pub fn ty(&self) -> Type {
        self.ty
    }

    /// What one node of a payment search over this program counts against
    /// [`super::solve::NODE_BUDGET`]: 1 for every shape the bundled packs use; more when
    /// `cards(…)` has many overlapping filters, so the budget bounds the work, not the nodes.
    pub fn node_cost(&self) -> usize {
        self.node_cost
    }

    /// How many item types the program was compiled for (the length of a counts slice).
    pub fn types(&self) -> usize {
        self.types
    }

    /// How many runtime arguments it takes.
    pub fn args(&self) -> usize {
        self.args
    }

    /// The item types whose counts the program may read, as a bit mask: its value is the
    /// same over any two multisets that agree on these types.
    pub fn reads(&self) -> u64 {
        self.ops.iter().fold(0, |m, op| {
            m | match *op {
                Op::Sum { mask, .. } => mask,
                Op::Distinct { groups: at, len }
                | Op::Cards {
                    filters: at, len, ..
                } => self.union(at, len),
                _ => 0,
            }
        })
    }

    /// Where the `cards(…)` op `i` fails over `counts`, if it does.
    pub(crate) fn cards_shortfall(&self, i: u32, counts: &[u8]) -> Option<Shortfall> {
        let Op::Cards { filters, len, .. } = self.ops[i as usize] else {
            return None;
        };
        let held = self.union(filters, len) & present(self.own_types(counts));
        match_filters(self.group_masks(filters, len), held, counts, &mut 0).err()
    }

    /// The `Sum` ops (op index, weights offset), when they are the only ops that read the
    /// items (no `distinct`, no `cards`): the program's value is then a function of theirs.
    pub(crate) fn sum_ops(&self) -> Option<Vec<(u32, u32)>> {
        let mut sums = Vec::new();
        for (i, op) in self.ops.iter().enumerate() {
            match *op {
                Op::Sum { weights, .. } => sums.push((i as u32, weights)),
                Op::Distinct { .. } | Op::Cards { .. } => return None,
                _ => {}
            }
        }
        Some(sums)
    }

    /// Evaluates op `i` as [`Self::eval`] does, with each `Sum` op's value given by
    /// `sum_value` (by op index) instead of worked out from counts. Not for `distinct` or
    /// `cards` (see [`Self::sum_ops`]), which read as 0.
    pub(crate) fn eval_sums(&self, i: u32, sum_value: &dyn Fn(u32) -> i64, args: &[i64]) -> i64 {
        let eval = |x: u32| self.eval_sums(x, sum_value, args);
        match self.ops[i as usize] {
            Op::Const(c) => c,
            Op::Arg(slot) => args.get(slot as usize).copied().unwrap_or(0),
            Op::Not(x) => i64::from(eval(x) == 0),
            Op::And(a, b) => i64::from(eval(a) != 0 && eval(b) != 0),
            Op::Or(a, b) => i64::from(eval(a) != 0 || eval(b) != 0),
            Op::Cmp(op, a, b) => i64::from(op.holds(eval(a), eval(b))),
            Op::Arith(op, a, b) => op.apply(eval(a), eval(b)),
            Op::Neg(x) => eval(x).saturating_neg(),
            Op::Sum { .. } => sum_value(i),
            Op::Distinct { .. } | Op::Cards { .. } => 0,
        }
    }

    /// Evaluates a condition over per-type counts with the runtime arguments.
    #[inline]
    pub fn test(&self, counts: &[u8], args: &[i64]) -> bool {
        self.eval(self.root, counts, args) != 0
    }

    /// Evaluates an integer expression (a condition gives 0 or 1).
    #[inline]
    pub fn value(&self, counts: &[u8], args: &[i64]) -> i64 {
        self.eval(self.root, counts, args)
    }

    /// When the program is a plain sum over the items with non-negative weights (`count(…)`,
    /// `sum(…)`), each type's weight: the solver then bounds a payment's final cost.
    pub(crate) fn additive_weights(&self) -> Option<[i64; 64]> {
        self.additive_weights_at(self.root)
    }

    /// [`Self::additive_weights`] of any operation.
    pub(crate) fn additive_weights_at(&self, i: u32) -> Option<[i64; 64]> {
        let mut out = [0i64; 64];
        match self.ops[i as usize] {
            Op::Sum { mask, weights } => {
                let ws = self.weights_of(weights);
                for t in bits(mask) {
                    out[t as usize] = ws[t as usize];
                }
            }
            _ => return None,
        }
        out.iter().all(|&w| w >= 0).then_some(out)
    }

    pub fn shape(&self) -> Shape {
        self.shapes[self.root as usize]
    }

    pub(crate) fn plan(&self) -> &Plan {
        &self.plan
    }

    pub(crate) fn root(&self) -> u32 {
        self.root
    }

    pub(crate) fn op(&self, i: u32) -> Op {
        self.ops[i as usize]
    }

    pub(crate) fn shape_at(&self, i: u32) -> Shape {
        self.shapes[i as usize]
    }

    pub(crate) fn span_at(&self, i: u32) -> Range<usize> {
        let s = &self.spans[i as usize];
        s.start as usize..s.end as usize
    }

    /// The top-level conjuncts: `a and b and c` → [a, b, c].
    pub(crate) fn conjuncts(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack = vec![self.root];
        while let Some(i) = stack.pop() {
            match self.ops[i as usize] {
                Op::And(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                _ => out.push(i),
            }
        }
        out
    }

    /// `hand` cut to the program's types (a 64-slot `Counts` may be longer).
    pub(crate) fn own_types<'h>(&self, hand: &'h [u8]) -> &'h [u8] {
        &hand[..hand.len().min(self.types).min(64)]
    }

    /// Whether the conjuncts that do not depend on the items hold for these arguments.
    #[inline]
    pub(crate) fn constants_hold(&self, args: &[i64]) -> bool {
        self.plan.constant.is_empty() || self.listed_constants_hold(args)
    }

    fn listed_constants_hold(&self, args: &[i64]) -> bool {
        let empty = [0u8; 64];
        let empty = &empty[..self.types.min(64)];
        self.plan
            .constant
            .iter()
            .all(|&i| self.eval(i, empty, args) != 0)
    }

    #[inline]
    pub(crate) fn eval(&self, i: u32, counts: &[u8], args: &[i64]) -> i64 {
        let held = if self.reads_held { present(counts) } else { 0 };
        self.eval_in(i, counts, held, args)
    }

    /// [`Self::eval`] when the caller already knows which types are above zero (`held`).
    #[inline]
    pub(crate) fn eval_held(&self, i: u32, counts: &[u8], held: u64, args: &[i64]) -> i64 {
        debug_assert!(
            !self.reads_held || held == present(counts),
            "held must be the types above zero"
        );
        self.eval_in(i, counts, held, args)
    }

    /// Evaluates op `i`; `present` has bit `t` set when `counts[t] > 0`, so filters visit
    /// only the types held (hands are sparse: a few types out of dozens).
    #[inline]
    fn eval_in(&self, i: u32, counts: &[u8], present: u64, args: &[i64]) -> i64 {
        self.eval_op(self.ops[i as usize], counts, present, args)
    }

    fn eval_op(&self, op: Op, counts: &[u8], present: u64, args: &[i64]) -> i64 {
        let eval = |x: u32| self.eval_in(x, counts, present, args);
        match op {
            Op::Const(c) => c,
            Op::Arg(slot) => args.get(slot as usize).copied().unwrap_or(0),
            Op::Not(x) => i64::from(eval(x) == 0),
            Op::And(a, b) => i64::from(eval(a) != 0 && eval(b) != 0),
            Op::Or(a, b) => i64::from(eval(a) != 0 || eval(b) != 0),
            // The common leaf `sum(…) >= bound` is worked out here, without a call per side.
            Op::Cmp(op, a, b) => {
                let left = match self.ops[a as usize] {
                    Op::Sum { weights, .. } => self.dot(weights, counts),
                    _ => eval(a),
                };
                let right = match self.ops[b as usize] {
                    Op::Const(c) => c,
                    Op::Arg(slot) => args.get(slot as usize).copied().unwrap_or(0),
                    _ => eval(b),
                };
                i64::from(op.holds(left, right))
            }
            Op::Arith(op, a, b) => op.apply(eval(a), eval(b)),
            Op::Neg(x) => eval(x).saturating_neg(),
            Op::Sum { weights, .. } => self.dot(weights, counts),
            Op::Distinct { groups, len } => {
                let present = self.union(groups, len) & present;
                self.group_masks(groups, len)
                    .iter()
                    .filter(|&&g| g & present != 0)
                    .count() as i64
            }
            Op::Cards {
                filters,
                len,
                disjoint: true,
            } => {
                let held = self.union(filters, len) & present;
                i64::from(
                    self.group_masks(filters, len)
                        .iter()
                        .all(|&f| f & held != 0),
                )
            }
            Op::Cards { filters, len, .. } => {
                let held = self.union(filters, len) & present;
                let mut steps = 0;
                i64::from(distinct_representatives(
                    self.group_masks(filters, len),
                    held,
                    counts,
                    &mut steps,
                ))
            }
        }
    }

    /// The weights at `offset` times the counts. Dense: weights are 0 outside the filter, and
    /// a straight loop over a few dozen bytes beats walking mask bits. Content limits (255
    /// copies, 64 types) keep it far from overflow unless a pack declares absurd attribute
    /// values, which the i128 accumulator absorbs.
    #[inline]
    pub(crate) fn dot(&self, offset: u32, counts: &[u8]) -> i64 {
        let n = self.types.min(counts.len());
        let start = offset as usize;
        if let Some(small) = &self.small_weights {
            let ws = &small[start..start + n];
            let total: i32 = counts[..n]
                .iter()
                .zip(ws)
                .map(|(&c, &w)| i32::from(c) * i32::from(w))
                .sum();
            return i64::from(total);
        }
        let ws = &self.weights[start..start + n];
        if self.narrow {
            counts[..n]
                .iter()
                .zip(ws)
                .map(|(&c, &w)| i64::from(c) * w)
                .sum()
        } else {
            let total: i128 = counts[..n]
                .iter()
                .zip(ws)
                .map(|(&c, &w)| i128::from(c) * i128::from(w))
                .sum();
            total.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
        }
    }

    fn group_masks(&self, offset: u32, len: u32) -> &[u64] {
        &self.masks[offset as usize..(offset + len) as usize]
    }

    fn union(&self, offset: u32, len: u32) -> u64 {
        self.group_masks(offset, len).iter().fold(0, |a, &b| a | b)
    }
}

fn scale(shape: Shape, factor: i64) -> Shape {
    match factor.signum() {
        1 => shape,
        -1 => shape.flip(),
        _ => Shape::Const,
    }
}

/// The set bits of a mask, lowest first.
#[inline]
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let t = mask.trailing_zeros();
            mask &= mask - 1;
            t
        })
    })
}

pub(crate) use crate::counts::nonzero_mask as present;

/// Whether each filter (a type mask) can have an item of its own (distinct representatives)
/// among `counts`, of which only the types in `held` are looked at: a bipartite
/// matching of filters to item types, type `t` offering `counts[t]` copies, found by
/// augmenting paths (Kuhn's algorithm). Filters come most constrained first, so in the usual
/// shapes each takes a spare type straight away. Otherwise a breadth-first search over the
/// (at most 64) types looks for a chain of filters that can each move to another of their
/// types, ending at a spare copy: O(n · (n + 64)) per filter, never a search over every way of
/// handing out the items. `steps` counts the filters and types visited. At most
/// [`MAX_CARDS_FILTERS`] filters (the checker enforces it).
pub fn distinct_representatives(
    filters: &[u64],
    held: u64,
    counts: &[u8],
    steps: &mut usize,
) -> bool {
    match_filters(filters, held, counts, steps).is_ok()
}

/// When the filters cannot all have an item: some of them (`filters`) match only `items`
/// items between them, fewer than they are (Hall's condition fails there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shortfall {
    pub filters: usize,
    pub items: usize,
}

/// [`distinct_representatives`], saying where it fails.
fn match_filters(
    filters: &[u64],
    held: u64,
    counts: &[u8],
    steps: &mut usize,
) -> Result<(), Shortfall> {
    const START: u8 = u8::MAX;
    let filters = &filters[..filters.len().min(MAX_CARDS_FILTERS)];
    // Per type, the copies no filter has taken yet; `free`: the types that have some.
    let (mut spare, mut free) = ([0u8; 64], 0u64);
    for t in bits(held) {
        spare[t as usize] = counts.get(t as usize).copied().unwrap_or(0);
        free |= u64::from(spare[t as usize] > 0) << t;
    }
    let held = free;
    // Per filter, the type whose copy it holds.
    let mut owner = [0u8; MAX_CARDS_FILTERS];
    for (f, &mask) in filters.iter().enumerate() {
        *steps += 1;
        let direct = mask & free;
        let end = if direct != 0 {
            let t = direct.trailing_zeros();
            owner[f] = t as u8;
            t
        } else {
            // Per type reached: the type a filter moves from to get here (START for `f`
            // itself), and which filter.
            let mut came_from = [(START, 0u8); 64];
            let mut seen = mask & held;
            for t in bits(seen) {
                came_from[t as usize] = (START, f as u8);
            }
            let mut frontier = seen;
            loop {
                if frontier == 0 {
                    // Every type `f` could reach is taken by filters that can reach no other.
                    let reached = owner[..f].iter().filter(|&&t| seen >> t & 1 != 0);
                    return Err(Shortfall {
                        filters: 1 + reached.count(),
                        items: bits(seen).map(|t| usize::from(counts[t as usize])).sum(),
                    });
                }
                let mut next = 0u64;
                for (g, &from) in owner[..f].iter().enumerate() {
                    *steps += 1;
                    if frontier >> from & 1 != 0 {
                        let new = filters[g] & held & !seen & !next;
                        for t in bits(new) {
                            came_from[t as usize] = (from, g as u8);
                        }
                        next |= new;
                    }
                }
                seen |= next;
                if next & free != 0 {
                    break;
                }
                frontier = next;
            }
            // Walk the chain back from the spare copy, moving each filter along it.
            let end = (seen & free).trailing_zeros();
            let mut t = end as u8;
            loop {
                *steps += 1;
                let (from, g) = came_from[t as usize];
                owner[g as usize] = t;
                if from == START {
                    break;
                }
                t = from;
            }
            end
        };
        spare[end as usize] -= 1;
        if spare[end as usize] == 0 {
            free &= !(1u64 << end);
        }
    }
    Ok(())
}

/// The most steps [`distinct_representatives`] counts for `n` filters: each filter one, and
/// when it finds no spare type at once, up to 64 layers of the search over the filters before
/// it plus a chain of up to 64 moves.
pub const fn matching_budget(n: usize) -> usize {
    let mut total = 0;
    let mut f = 0;
    while f < n {
        total += 1 + 64 * f + 64;
        f += 1;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cond::{Attr, Domain, ItemType, Params, Value, check, parse};

    fn program(src: &str) -> Program {
        let universe = Universe {
            attrs: vec![
                Attr {
                    name: "suit".into(),
                    domain: Domain::Symbols(vec!["red".into(), "blue".into(), "wild".into()]),
                },
                Attr {
                    name: "strength".into(),
                    domain: Domain::Int { min: 1, max: 2 },
                },
            ],
            types: (0..3u16)
                .map(|s| ItemType {
                    id: format!("t{s}"),
                    values: vec![Some(Value::Sym(s)), Some(Value::Int(1))],
                })
                .collect(),
            value_attr: Some(1),
        };
        let params = Params::default().argument("power", Type::Int);
        let checked = check(&parse(src).unwrap(), &universe, &params).unwrap();
        compile(&checked, &universe)
    }

    #[test]
    fn a_limit_on_groups_beside_growing_conjuncts_is_recognised() {
        for src in [
            "distinct(suit, suit != wild) <= 1 and sum(strength) >= $power",
            "sum(strength) >= $power and 2 > distinct(suit)",
            "distinct(suit) < $power",
            // `=` is `>=` (grows) and `<=` (the limit).
            "distinct(suit) = 1",
        ] {
            assert!(program(src).plan.group_limit.is_some(), "{src}");
        }
        for src in [
            // Two shrinking conjuncts, or one of another form.
            "distinct(suit) <= 1 and sum(strength) <= $power and count(*) >= 1",
            "count(*) <= 2 and sum(strength) >= $power",
            "distinct(suit) != 1",
        ] {
            assert!(program(src).plan.group_limit.is_none(), "{src}");
        }
    }

    #[test]
    fn present_marks_the_types_held() {
        let mut counts = [0u8; 64];
        for t in [0, 7, 8, 15, 40, 63] {
            counts[t] = 1;
        }
        counts[9] = 255;
        counts[10] = 128;
        let expected = [0u64, 7, 8, 9, 10, 15, 40, 63]
            .iter()
            .fold(0u64, |m, &t| m | 1 << t);
        assert_eq!(present(&counts), expected);
        // Slices shorter than 64 (a program's own types) and not a multiple of eight.
        assert_eq!(
            present(&counts[..11]),
            1 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10
        );
        assert_eq!(present(&[]), 0);
        assert_eq!(present(&[0, 0, 3]), 1 << 2);
    }

    /// Fifteen filters over the same fourteen single copies and one more over everything: a
    /// search over ways of handing out the copies would try 14! of them; the matching fails
    /// within its polynomial bound and names the fifteen filters and fourteen items.
    #[test]
    fn overlapping_filters_are_matched_not_searched() {
        let narrow = (1u64 << 14) - 1;
        let mut filters = vec![narrow; 15];
        filters.push(u64::MAX);
        let counts = [1u8; 20];
        let held = (1u64 << 20) - 1;
        let mut steps = 0;
        assert_eq!(
            match_filters(&filters, held, &counts, &mut steps),
            Err(Shortfall {
                filters: 15,
                items: 14
            })
        );
        assert!(steps <= matching_budget(16), "{steps}");
        // With one narrow filter fewer, each gets its own copy (the wide ones move over).
        let mut steps = 0;
        assert!(distinct_representatives(
            &filters[1..],
            held,
            &counts,
            &mut steps
        ));
        // A type marked held without copies is never taken.
        let no_first = [0u8, 1];
        assert!(distinct_representatives(&[0b11], 0b11, &no_first, &mut 0));
        assert!(!distinct_representatives(
            &[0b11, 0b10],
            0b11,
            &no_first,
            &mut 0
        ));
        // A chain of moves: filter `i` takes type `i` or `i + 1`; the last one only type 0,
        // which every other filter must give up by moving one type along.
        let mut chain: Vec<u64> = (0..10).map(|t| 0b11u64 << t).collect();
        chain.push(1);
        let mut steps = 0;
        assert!(distinct_representatives(
            &chain,
            (1 << 11) - 1,
            &counts,
            &mut steps
        ));
        assert_eq!(
            match_filters(&chain, (1 << 10) - 1, &counts, &mut 0),
            Err(Shortfall {
                filters: 11,
                items: 10
            })
        );
    }

    proptest::proptest! {
        #[test]
        fn present_agrees_with_a_plain_loop(counts in proptest::collection::vec(0u8..=255, 0..70)) {
            let plain = counts
                .iter()
                .take(64)
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .fold(0u64, |m, (t, _)| m | 1 << t);
            proptest::prop_assert_eq!(present(&counts), plain);
        }
    }
}
