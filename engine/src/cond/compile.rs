//! Compiling: a checked tree → a [`Program`], a small arena of operations over per-type
//! counts. Filters become 64-bit masks of item types, sums become per-type weights, so
//! evaluating never looks at a name or a string.

use std::ops::Range;

use super::Universe;
use super::ast::{ArithOp, CmpOp};
use super::check::{AttrRef, Checked, Node, NodeKind, RFilter, Type};

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
}

/// The top-level conjuncts by shape, worked out once so the solver never allocates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    pub up: Vec<u32>,
    pub down: Vec<u32>,
    pub mixed: Vec<u32>,
    pub constant: Vec<u32>,
}

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
    Count(u64),
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
    };
    p.root = p.lower(&checked.root, universe);
    for i in p.conjuncts() {
        match p.shapes[i as usize] {
            Shape::Up => p.plan.up.push(i),
            Shape::Down => p.plan.down.push(i),
            Shape::Mixed => p.plan.mixed.push(i),
            Shape::Const => p.plan.constant.push(i),
        }
    }
    p
}

fn mask(filter: &RFilter, universe: &Universe) -> u64 {
    (0..universe.types.len().min(64))
        .filter(|&t| filter.matches(universe, t))
        .fold(0, |m, t| m | (1u64 << t))
}

impl Program {
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
            Op::Const(self.eval_op(op, &scratch[..self.types.min(64)], &[]))
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
            NodeKind::Count(f) => Op::Count(mask(f, universe)),
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
                // Most constrained filter first: the search backtracks less.
                ms.sort_by_key(|m| m.count_ones());
                let offset = self.masks.len() as u32;
                self.masks.extend(&ms);
                Op::Cards {
                    filters: offset,
                    len: ms.len() as u32,
                }
            }
        };
        self.push(op, span)
    }

    fn shape_of(&self, op: Op) -> Shape {
        let s = |i: u32| self.shapes[i as usize];
        match op {
            Op::Const(_) | Op::Arg(_) => Shape::Const,
            Op::Count(_) | Op::Distinct { .. } | Op::Cards { .. } => Shape::Up,
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
                Op::Count(mask) | Op::Sum { mask, .. } => mask,
                Op::Distinct { groups: at, len } | Op::Cards { filters: at, len } => {
                    self.union(at, len)
                }
                _ => 0,
            }
        })
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
            Op::Count(mask) => bits(mask).for_each(|t| out[t as usize] = 1),
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

    #[inline]
    pub(crate) fn eval(&self, i: u32, counts: &[u8], args: &[i64]) -> i64 {
        self.eval_op(self.ops[i as usize], counts, args)
    }

    fn eval_op(&self, op: Op, counts: &[u8], args: &[i64]) -> i64 {
        let get = |t: u32| i64::from(counts.get(t as usize).copied().unwrap_or(0));
        match op {
            Op::Const(c) => c,
            Op::Arg(slot) => args.get(slot as usize).copied().unwrap_or(0),
            Op::Not(x) => i64::from(self.eval(x, counts, args) == 0),
            Op::And(a, b) => {
                i64::from(self.eval(a, counts, args) != 0 && self.eval(b, counts, args) != 0)
            }
            Op::Or(a, b) => {
                i64::from(self.eval(a, counts, args) != 0 || self.eval(b, counts, args) != 0)
            }
            Op::Cmp(op, a, b) => {
                i64::from(op.holds(self.eval(a, counts, args), self.eval(b, counts, args)))
            }
            Op::Arith(op, a, b) => op.apply(self.eval(a, counts, args), self.eval(b, counts, args)),
            Op::Neg(x) => self.eval(x, counts, args).saturating_neg(),
            Op::Count(mask) => bits(mask).map(get).sum(),
            // Dense dot product: weights are 0 outside the filter, and a straight loop over a
            // few dozen bytes beats walking mask bits. Content limits (255 copies, 64 types)
            // keep it far from overflow unless a pack declares absurd attribute values,
            // which the i128 accumulator absorbs.
            Op::Sum { weights, .. } => {
                let ws = self.weights_of(weights);
                let n = ws.len().min(counts.len());
                let total: i128 = counts[..n]
                    .iter()
                    .zip(&ws[..n])
                    .map(|(&c, &w)| i128::from(c) * i128::from(w))
                    .sum();
                total.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
            }
            Op::Distinct { groups, len } => {
                let present = bits(self.union(groups, len))
                    .filter(|&t| get(t) > 0)
                    .fold(0u64, |m, t| m | 1 << t);
                self.group_masks(groups, len)
                    .iter()
                    .filter(|&&g| g & present != 0)
                    .count() as i64
            }
            Op::Cards { filters, len } => {
                let mut left = [0u8; 64];
                for t in bits(self.union(filters, len)) {
                    left[t as usize] = get(t) as u8;
                }
                i64::from(assign(self.group_masks(filters, len), &mut left))
            }
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

/// Whether each filter can take its own item from `left` (a distinct representative each).
fn assign(filters: &[u64], left: &mut [u8; 64]) -> bool {
    let Some((&first, rest)) = filters.split_first() else {
        return true;
    };
    for t in bits(first) {
        if left[t as usize] > 0 {
            left[t as usize] -= 1;
            let ok = assign(rest, left);
            left[t as usize] += 1;
            if ok {
                return true;
            }
        }
    }
    false
}
