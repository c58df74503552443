//! Card values that depend on the situation: a foe stronger when the quest names it, a
//! knight stronger beside his lady. Each card type has a base value and any number of
//! overrides, each a compiled condition over the *situation* (a multiset of what is in
//! play, laid out as the condition's universe says) and the value that then applies.
//! The first override that holds wins; with none, the base value applies.

use crate::cond::Program;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Situational {
    base: Vec<i64>,
    overrides: Vec<Override>,
    /// Types with at least one override (the rest never look at the situation).
    varies: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Override {
    card: u8,
    when: Program,
    value: i64,
}

impl Situational {
    /// Base values per card type (at most 64 types).
    pub fn new(base: Vec<i64>) -> Self {
        Situational {
            base,
            overrides: Vec::new(),
            varies: 0,
        }
    }

    /// Adds an override for card type `card`, tried after those added before it.
    pub fn add_override(&mut self, card: u8, when: Program, value: i64) {
        self.varies |= 1u64 << (card % 64);
        self.overrides.push(Override { card, when, value });
    }

    /// The base value of `card`, whatever the situation.
    #[inline]
    pub fn base(&self, card: u8) -> i64 {
        self.base.get(usize::from(card)).copied().unwrap_or(0)
    }

    /// Whether `card` may take another value in some situation.
    #[inline]
    pub fn varies(&self, card: u8) -> bool {
        card < 64 && self.varies & (1u64 << card) != 0
    }

    /// Types with at least one override, as a bit mask.
    #[inline]
    pub fn varying(&self) -> u64 {
        self.varies
    }

    /// The situation's types any override reads, as a bit mask: values are the same in any
    /// two situations that agree on these types.
    pub fn reads(&self) -> u64 {
        self.overrides.iter().fold(0, |m, o| m | o.when.reads())
    }

    /// The same for the overrides of `card` alone.
    pub fn reads_of(&self, card: u8) -> u64 {
        self.overrides
            .iter()
            .filter(|o| o.card == card)
            .fold(0, |m, o| m | o.when.reads())
    }

    /// Every type's base value, by type.
    #[inline]
    pub fn bases(&self) -> &[i64] {
        &self.base
    }

    /// The value of `card` in `situation`.
    #[inline]
    pub fn get(&self, card: u8, situation: &[u8]) -> i64 {
        if !self.varies(card) {
            return self.base(card);
        }
        self.overrides
            .iter()
            .find(|o| o.card == card && o.when.test(situation, &[]))
            .map_or_else(|| self.base(card), |o| o.value)
    }

    /// Every type's value in `situation`, into `out` (indexed by type).
    pub fn resolve(&self, situation: &[u8], out: &mut [i64]) {
        for (t, slot) in out.iter_mut().enumerate() {
            *slot = self.get(t as u8, situation);
        }
    }

    /// How many card types have a base value.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cond::{Attr, Domain, ItemType, Params, Universe, Value, check, compile, parse};

    fn program(src: &str, u: &Universe) -> Program {
        let expr = parse(src).unwrap();
        compile(&check(&expr, u, &Params::default()).unwrap(), u)
    }

    #[test]
    fn the_first_override_that_holds_applies() {
        let u = Universe {
            attrs: vec![Attr {
                name: "kind".into(),
                domain: Domain::Symbols(vec!["quest".into(), "ally".into()]),
            }],
            types: ["dragon-quest", "iseult"]
                .iter()
                .enumerate()
                .map(|(i, id)| ItemType {
                    id: (*id).into(),
                    values: vec![Some(Value::Sym(i as u16))],
                })
                .collect(),
            value_attr: None,
        };
        let mut v = Situational::new(vec![50, 10, 5]);
        v.add_override(0, program("count(id=dragon-quest) >= 1", &u), 70);
        v.add_override(1, program("count(id=iseult) >= 1", &u), 20);
        v.add_override(1, program("count(kind=quest) >= 1", &u), 15);
        assert_eq!(v.get(0, &[0, 0]), 50);
        assert_eq!(v.get(0, &[1, 0]), 70);
        assert_eq!(v.get(1, &[1, 1]), 20);
        assert_eq!(v.get(1, &[1, 0]), 15);
        assert_eq!(v.get(2, &[1, 1]), 5);
        assert!(v.varies(1) && !v.varies(2));
        let mut out = [0; 3];
        v.resolve(&[1, 1], &mut out);
        assert_eq!(out, [70, 20, 5]);
        // What the overrides look at: the quest (for both cards) and Iseult.
        assert_eq!(v.reads(), 0b11);
        let mut dragon_only = Situational::new(vec![50, 10]);
        dragon_only.add_override(0, program("count(id=dragon-quest) >= 1", &u), 70);
        assert_eq!(dragon_only.reads(), 0b01);
        assert_eq!(
            (v.reads_of(0), v.reads_of(1), v.reads_of(2)),
            (0b01, 0b11, 0)
        );
        assert_eq!(Situational::new(vec![1]).reads(), 0);
    }
}
