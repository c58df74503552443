//! Deciding a condition by the values its sums can take rather than by the cards: a
//! condition that reads the cards only through `count(…)` and `sum(…)` is met by some
//! sub-multiset iff some reachable vector of those sums meets it. Reachable vectors are
//! built type by type (each type adds 0 to all its copies): a few hundred for the shapes
//! that defeat the payment search (`count(*) * count(*) = 7`), within a step budget.

use std::collections::BTreeSet;

use crate::cond::Program;

/// The most values [`exists`] writes (vectors built times their length, summed over the
/// types) before it gives up: this bounds its time and its memory (a few MB) alike.
pub const VALUE_BUDGET: usize = 1 << 20;

/// Whether some sub-multiset of `deck` meets `program`, adding the values written to `steps`.
/// `None` when the program reads the cards otherwise (`distinct`, `cards`) or the budget ran
/// out.
pub(super) fn exists(
    program: &Program,
    deck: &[u8],
    args: &[i64],
    steps: &mut usize,
) -> Option<bool> {
    let sums = program.sum_ops()?;
    let deck = program.own_types(deck);
    let budget = *steps + VALUE_BUDGET;
    let mut reachable: BTreeSet<Vec<i64>> = BTreeSet::from([vec![0; sums.len()]]);
    for (t, &copies) in deck.iter().enumerate() {
        let adds: Vec<i64> = sums.iter().map(|&(_, w)| program.weight(w, t)).collect();
        if copies == 0 || adds.iter().all(|&w| w == 0) {
            continue;
        }
        let mut next = BTreeSet::new();
        for v in &reachable {
            let mut v = v.clone();
            for k in 0..=copies {
                if k > 0 {
                    for (x, &w) in v.iter_mut().zip(&adds) {
                        *x = x.saturating_add(w);
                    }
                }
                *steps += v.len().max(1);
                if *steps > budget {
                    *steps = budget;
                    return None;
                }
                next.insert(v.clone());
            }
        }
        reachable = next;
    }
    Some(reachable.iter().any(|v| {
        let value_of = |op: u32| {
            sums.iter()
                .position(|&(i, _)| i == op)
                .map_or(0, |slot| v[slot])
        };
        program.eval_sums(program.root(), &value_of, args) != 0
    }))
}
