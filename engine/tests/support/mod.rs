//! A fixture universe for condition tests: coloured, valued cards of four kinds, shaped like
//! a typical adversary deck, plus knight-like cards with suits and strengths.

#![allow(dead_code)]

use grail_engine::cond::{self, Attr, Domain, ItemType, Params, Program, Type, Universe, Value};

pub const COLORS: [&str; 4] = ["yellow", "blue", "green", "red"];
pub const KINDS: [&str; 4] = ["spirit", "rider", "beast", "wyrm"];

/// Types `<color>-<value>`; copies per type in `DECK`.
pub fn adversaries() -> Universe {
    let attrs = vec![
        Attr {
            name: "color".into(),
            domain: Domain::Symbols(COLORS.map(String::from).to_vec()),
        },
        Attr {
            name: "kind".into(),
            domain: Domain::Symbols(KINDS.map(String::from).to_vec()),
        },
        Attr {
            name: "value".into(),
            domain: Domain::Int { min: 1, max: 5 },
        },
    ];
    let mut types = Vec::new();
    for (c, values) in [(0u16, 1..=3), (1, 1..=4), (2, 1..=4), (3, 2..=5)] {
        for v in values {
            types.push(ItemType {
                id: format!("{}-{v}", COLORS[c as usize]),
                values: vec![
                    Some(Value::Sym(c)),
                    Some(Value::Sym(c)),
                    Some(Value::Int(v)),
                ],
            });
        }
    }
    Universe {
        attrs,
        types,
        value_attr: Some(2),
    }
}

/// Copies per type of `adversaries()`, 44 cards: the red ones total 31.
pub const DECK: [u8; 15] = [4, 5, 4, 2, 3, 3, 3, 2, 3, 3, 3, 2, 2, 4, 1];

/// Suits orange/red/beige with singles and doubles, and a wild suit.
pub fn knights() -> Universe {
    let suits = ["orange", "red", "beige", "wild"];
    let attrs = vec![
        Attr {
            name: "suit".into(),
            domain: Domain::Symbols(suits.map(String::from).to_vec()),
        },
        Attr {
            name: "strength".into(),
            domain: Domain::Int { min: 1, max: 2 },
        },
    ];
    let mut types = Vec::new();
    for s in 0..3u16 {
        for strength in 1..=2 {
            types.push(ItemType {
                id: format!("{}-{strength}", suits[s as usize]),
                values: vec![Some(Value::Sym(s)), Some(Value::Int(strength))],
            });
        }
    }
    types.push(ItemType {
        id: "wild".into(),
        values: vec![Some(Value::Sym(3)), Some(Value::Int(1))],
    });
    Universe {
        attrs,
        types,
        value_attr: Some(1),
    }
}

pub fn compile(src: &str, universe: &Universe, params: &Params) -> Program {
    let expr = cond::parse(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    let checked = cond::check(&expr, universe, params).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    cond::compile(&checked, universe)
}

pub fn condition(src: &str, universe: &Universe) -> Program {
    let program = compile(src, universe, &Params::default());
    assert_eq!(program.ty(), Type::Bool);
    program
}

/// Per-type counts from `(type id, copies)` pairs.
pub fn hand(universe: &Universe, cards: &[(&str, u8)]) -> Vec<u8> {
    let mut counts = vec![0; universe.types.len()];
    for (id, n) in cards {
        counts[universe
            .type_index(id)
            .unwrap_or_else(|| panic!("no type {id}"))] += n;
    }
    counts
}

/// A payment as sorted `id×n` words, for readable assertions.
pub fn describe(universe: &Universe, counts: &[u8]) -> String {
    let mut words: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(t, &n)| {
            if n == 1 {
                universe.types[t].id.clone()
            } else {
                format!("{}×{n}", universe.types[t].id)
            }
        })
        .collect();
    words.sort();
    words.join(" ")
}
