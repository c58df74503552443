//! Bad descriptions are normal input (issue 27): random, mutated and deeply nested rulebook
//! expressions and effect lines, put where a game description reads them, load and compile
//! (and lint, which plays the checks a description states) to a pack or to diagnostics, never
//! a panic, never a stack overflow (which no test could catch: it would abort this process).

use std::path::Path;

use grail_schema::{Loader, MemoryFiles};
use proptest::prelude::*;

/// High Pile, a small game of its own (`tests/lint/rulebook-integer-counts`).
const HIGH_PILE: &str = include_str!("../../lint/rulebook-integer-counts/pack.toml");

/// King Arthur's files, its rulebook last.
const KING_ARTHUR: &[(&str, &str)] = &[
    (
        "pack.toml",
        include_str!("../../../content/king-arthur/pack.toml"),
    ),
    (
        "knights.toml",
        include_str!("../../../content/king-arthur/knights.toml"),
    ),
    (
        "adversaries.toml",
        include_str!("../../../content/king-arthur/adversaries.toml"),
    ),
    (
        "adventures.toml",
        include_str!("../../../content/king-arthur/adventures.toml"),
    ),
    (
        "seals.toml",
        include_str!("../../../content/king-arthur/seals.toml"),
    ),
    (
        "rulebook.toml",
        include_str!("../../../content/king-arthur/rulebook.toml"),
    ),
];

/// Loads the files as a pack folder and, when it loads, lints it with its rulebook. Returns
/// whether it came through clean.
fn lint(files: &[(&str, String)]) -> bool {
    let mut memory = MemoryFiles::new();
    for (name, text) in files {
        memory.insert(format!("p/{name}"), text.as_bytes().to_vec());
    }
    let loader = Loader::new(&memory).with_content("content");
    let loaded = loader.load(Path::new("p"));
    match &loaded.pack {
        Some(pack) => grail_rules::lint(pack).is_ok(),
        None => false,
    }
}

/// High Pile with one of its strings replaced by `text` (escaped for TOML).
fn high_pile_with(field: usize, text: &str) -> bool {
    let quoted = format!("{text:?}");
    let places = [
        "\"value(card) > last(value, pile)\"",
        "\"count(deck) = 0\"",
        "\"tally - count(hand(P))\"",
        "\"draw 1 from deck to hand(current)\"",
        "\"card in hand(current)\"",
    ];
    let place = places[field % places.len()];
    lint(&[("pack.toml", HIGH_PILE.replacen(place, &quoted, 1))])
}

/// Pieces of the rulebook's language, so random text is often nearly right.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "(",
    ")",
    ",",
    " + ",
    " - ",
    " * ",
    " / ",
    "-",
    " = ",
    " != ",
    " < ",
    " >= ",
    " and ",
    " or ",
    "not ",
    "if(",
    "max(",
    "min(",
    "div(",
    "mod(",
    "count(",
    "sum(",
    "last(",
    "done(",
    "best(",
    "value(card)",
    "card",
    "deck",
    "hand",
    "hand(current)",
    "hand(P)",
    "pile",
    "current",
    "P",
    "$hand_size",
    "tally",
    "0",
    "1",
    "3",
    "-1",
    "999999999999",
    "lay",
    "draw",
    "step(play)",
    "taken",
    "turn",
    "players",
    "frobnicate(",
    " from ",
    " to ",
    "draw ",
    "deal ",
    "move ",
    "add ",
    " if ",
    "\n",
    "{",
    "}",
    "{if 1 = 1}",
    "{end}",
];

fn phrase() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..40).prop_map(|t| t.concat())
}

/// Wrappers that nest: each adds a level the parser must count before it recurses.
const WRAPPERS: &[(&str, &str)] = &[
    ("(", ")"),
    ("not ", ""),
    ("-", ""),
    ("if(1 = 1, ", ", 0)"),
    ("max(0, ", ")"),
    ("count(", ")"),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_expressions_compile_or_are_refused(field in 0usize..5, text in phrase()) {
        high_pile_with(field, &text);
    }

    /// Nested thousands deep, mixing every kind of nesting: refused past the limit, by the
    /// parser, before it recurses; never a stack overflow.
    #[test]
    fn deep_nesting_is_refused_before_it_recurses(
        field in 0usize..4,
        kinds in prop::collection::vec(0usize..WRAPPERS.len(), 1..6),
        depth in prop_oneof![0usize..60, 40usize..6000],
    ) {
        let (mut open, mut close) = (String::new(), String::new());
        for i in 0..depth {
            let (o, c) = WRAPPERS[kinds[i % kinds.len()]];
            open.push_str(o);
            close.insert_str(0, c);
        }
        let core = ["value(card)", "1 = 1", "count(deck)", "1"][field % 4];
        let text = format!("{open}{core}{close}");
        let clean = high_pile_with(field, &text);
        prop_assert!(!clean || depth <= grail_rules::rulebook::MAX_EXPRESSION_DEPTH, "{depth}");
    }

    /// Long flat chains of `+` and `and`: refused past the limit, never a deep walk.
    #[test]
    fn long_chains_are_refused(field in 0usize..4, terms in prop_oneof![0usize..100, 100usize..20000]) {
        let text = match field % 2 {
            0 => format!("1{}", " + 1".repeat(terms)),
            _ => format!("1 = 1{}", " and 1 = 1".repeat(terms)),
        };
        high_pile_with(field, &text);
    }

    /// King Arthur's own rulebook, one span of it replaced by random language: loads and
    /// compiles, or says why.
    #[test]
    fn mutated_king_arthur_rulebooks(at in 0usize..100_000, cut in 0usize..12, text in phrase()) {
        let (name, rulebook) = KING_ARTHUR[KING_ARTHUR.len() - 1];
        let mut start = at % rulebook.len();
        while !rulebook.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + cut).min(rulebook.len());
        while !rulebook.is_char_boundary(end) {
            end -= 1;
        }
        let mutated = format!("{}{}{}", &rulebook[..start], text, &rulebook[end..]);
        let mut files: Vec<(&str, String)> = KING_ARTHUR[..KING_ARTHUR.len() - 1]
            .iter()
            .map(|(n, t)| (*n, t.to_string()))
            .collect();
        files.push((name, mutated));
        lint(&files);
    }
}

/// The fixtures themselves come through: High Pile lints clean, King Arthur too.
#[test]
fn the_bases_are_clean() {
    assert!(lint(&[("pack.toml", HIGH_PILE.to_string())]));
    let files: Vec<(&str, String)> = KING_ARTHUR
        .iter()
        .map(|(n, t)| (*n, t.to_string()))
        .collect();
    assert!(lint(&files));
}
