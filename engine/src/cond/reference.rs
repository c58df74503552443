//! A plain evaluator, written for clarity and nothing else: it walks the syntax tree and
//! looks every name up as a string, over an explicit list of items. The tests hold the
//! compiled [`Program`](super::Program) and the solver to it.

use std::collections::BTreeSet;

use super::ast::{Expr, ExprKind, Filter, FilterKind, LiteralKind};
use super::{Domain, Universe, Value};

/// Named parameter values (constants and arguments alike).
pub type Bindings<'a> = &'a [(&'a str, i64)];

/// Evaluates `expr` over `items` (one type index per item). Booleans come out as 0/1.
pub fn eval(expr: &Expr, universe: &Universe, bindings: Bindings<'_>, items: &[usize]) -> i64 {
    let ev = |e: &Expr| eval(e, universe, bindings, items);
    match &expr.kind {
        ExprKind::Bool(b) => i64::from(*b),
        ExprKind::Int(i) => *i,
        ExprKind::Param(name) => lookup(bindings, name),
        ExprKind::Not(e) => i64::from(ev(e) == 0),
        ExprKind::And(a, b) => i64::from(ev(a) != 0 && ev(b) != 0),
        ExprKind::Or(a, b) => i64::from(ev(a) != 0 || ev(b) != 0),
        ExprKind::Compare(op, a, b) => i64::from(op.holds(ev(a), ev(b))),
        ExprKind::Arith(op, a, b) => op.apply(ev(a), ev(b)),
        ExprKind::Neg(e) => ev(e).saturating_neg(),
        ExprKind::Count(f) => matching(f, universe, bindings, items).count() as i64,
        ExprKind::Sum(attr, f) => {
            let name = match attr {
                Some(a) => a.text.as_str(),
                None => universe
                    .value_attr
                    .map_or("", |i| universe.attrs[i].name.as_str()),
            };
            matching(f, universe, bindings, items)
                .filter_map(|t| match attribute(universe, t, name) {
                    Some(Value::Int(v)) => Some(v),
                    _ => None,
                })
                .fold(0i64, i64::saturating_add)
        }
        ExprKind::Distinct(attr, f) => {
            let seen: BTreeSet<String> = matching(f, universe, bindings, items)
                .filter_map(|t| {
                    if attr.text == "id" {
                        Some(universe.types[t].id.clone())
                    } else {
                        attribute(universe, t, &attr.text).map(|v| format!("{v:?}"))
                    }
                })
                .collect();
            seen.len() as i64
        }
        ExprKind::Cards(filters) => {
            i64::from(distinct_representatives(filters, universe, bindings, items))
        }
    }
}

fn lookup(bindings: Bindings<'_>, name: &str) -> i64 {
    bindings
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(0, |(_, v)| *v)
}

fn attribute(universe: &Universe, ty: usize, name: &str) -> Option<Value> {
    let index = universe.attrs.iter().position(|a| a.name == name)?;
    universe.types[ty].values.get(index).copied().flatten()
}

fn matching<'a>(
    f: &'a Filter,
    universe: &'a Universe,
    bindings: Bindings<'a>,
    items: &'a [usize],
) -> impl Iterator<Item = usize> + 'a {
    items
        .iter()
        .copied()
        .filter(move |&t| filter_matches(f, universe, bindings, t))
}

/// Whether an item of type `ty` passes the filter, comparing names as strings.
pub fn filter_matches(f: &Filter, universe: &Universe, bindings: Bindings<'_>, ty: usize) -> bool {
    match &f.kind {
        FilterKind::All => true,
        FilterKind::Not(x) => !filter_matches(x, universe, bindings, ty),
        FilterKind::And(a, b) => {
            filter_matches(a, universe, bindings, ty) && filter_matches(b, universe, bindings, ty)
        }
        FilterKind::Or(a, b) => {
            filter_matches(a, universe, bindings, ty) || filter_matches(b, universe, bindings, ty)
        }
        FilterKind::Test { attr, op, value } => {
            if attr.text == "id" {
                let LiteralKind::Sym(want) = &value.kind else {
                    return false;
                };
                return op.holds(i64::from(universe.types[ty].id == *want), 1);
            }
            let Some(index) = universe.attrs.iter().position(|a| a.name == attr.text) else {
                return false;
            };
            let Some(have) = universe.types[ty].values.get(index).copied().flatten() else {
                return false;
            };
            match (&universe.attrs[index].domain, have, &value.kind) {
                (Domain::Symbols(names), Value::Sym(i), LiteralKind::Sym(want)) => {
                    op.holds(i64::from(names[i as usize] == *want), 1)
                }
                (Domain::Int { .. }, Value::Int(v), LiteralKind::Int(want)) => op.holds(v, *want),
                (Domain::Int { .. }, Value::Int(v), LiteralKind::Param(p)) => {
                    op.holds(v, lookup(bindings, p))
                }
                _ => false,
            }
        }
    }
}

/// Whether every filter can have an item of its own: a maximum bipartite matching of
/// filters to items by augmenting paths, one item at a time (no types, no masks).
fn distinct_representatives(
    filters: &[Filter],
    universe: &Universe,
    bindings: Bindings<'_>,
    items: &[usize],
) -> bool {
    let fits = |f: usize, i: usize| filter_matches(&filters[f], universe, bindings, items[i]);
    // Per item, the filter it stands for.
    let mut taken_by: Vec<Option<usize>> = vec![None; items.len()];
    (0..filters.len()).all(|f| {
        let mut visited = vec![false; items.len()];
        augment(f, &fits, &mut taken_by, &mut visited)
    })
}

/// Finds filter `f` an item, moving other filters to other items if need be.
fn augment(
    f: usize,
    fits: &dyn Fn(usize, usize) -> bool,
    taken_by: &mut [Option<usize>],
    visited: &mut [bool],
) -> bool {
    for i in 0..taken_by.len() {
        if visited[i] || !fits(f, i) {
            continue;
        }
        visited[i] = true;
        let free = match taken_by[i] {
            None => true,
            Some(g) => augment(g, fits, taken_by, visited),
        };
        if free {
            taken_by[i] = Some(f);
            return true;
        }
    }
    false
}

/// Every sub-multiset of `hand` that meets `expr` and has no superfluous card, by trying
/// them all. Returned as per-type counts, in no particular order.
pub fn brute_force_payments(
    expr: &Expr,
    universe: &Universe,
    bindings: Bindings<'_>,
    hand: &[u8],
) -> Vec<Vec<u8>> {
    let meets = |counts: &[u8]| {
        let items: Vec<usize> = counts
            .iter()
            .enumerate()
            .flat_map(|(t, &c)| std::iter::repeat_n(t, c as usize))
            .collect();
        eval(expr, universe, bindings, &items) != 0
    };
    let mut out = Vec::new();
    let mut counts = vec![0u8; hand.len()];
    loop {
        if meets(&counts) {
            let minimal = (0..counts.len()).filter(|&t| counts[t] > 0).all(|t| {
                let mut less = counts.clone();
                less[t] -= 1;
                !meets(&less)
            });
            if minimal {
                out.push(counts.clone());
            }
        }
        // Next vector in mixed-radix order; stop after the last.
        let mut t = 0;
        while t < counts.len() && counts[t] == hand[t] {
            counts[t] = 0;
            t += 1;
        }
        if t == counts.len() {
            return out;
        }
        counts[t] += 1;
    }
}
