//! Hostile and careless game descriptions (issue 27): expressions nested or chained past what
//! any walk over them could bear, counts past what the state keeps, counts no zone can satisfy,
//! refills that go round, names the expressions could never read, unknown functions, controls
//! that reorder text. Each is refused by `grail lint` where it is written, with a snapshot of
//! what lint prints; before these checks the deep ones aborted the process (a stack overflow)
//! and the others linted clean and played wrong games.
//!
//! Fixtures in `tests/lint/rulebook-*/`, each High Pile (a small game of its own) with one kind
//! of mistake.

use std::path::Path;

use grail_cli::render;

fn lint(case: &str) -> grail_schema::Loaded {
    // Paths relative to this crate (the test's working directory), so snapshots read the same
    // on every machine.
    let mut reports = grail_cli::lint::lint(
        &[Path::new("lint").join(case)],
        &grail_cli::content::Content::folder("../content"),
    );
    reports.remove(0).loaded
}

/// Lints the fixture as `grail lint` does (load, then compile with the rulebook); asserts the
/// codes and snapshots the text.
fn check(case: &str, codes: &[&str]) {
    let loaded = lint(case);
    let mut found: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
    found.sort();
    found.dedup();
    let text = render::to_string(&loaded.sources, &loaded.diagnostics);
    assert_eq!(found, codes, "codes reported for `{case}`:\n{text}");
    assert!(loaded.pack.is_none(), "a refused description is an error");
    insta::assert_snapshot!(case, text);
}

/// Parentheses, `max(`, minus signs and a text's `{if}` parts thousands deep, and a chain of
/// ten thousand `and`s: each refused before the parser recurses, no stack overflow.
#[test]
fn expressions_nested_or_chained_past_the_limits() {
    check(
        "rulebook-hostile-expressions",
        &["expression-too-deep", "expression-too-long"],
    );
}

/// 257 steps wrapped the step counter: the game ended "after 0 turns".
#[test]
fn more_steps_than_the_state_counts() {
    check("rulebook-too-many-steps", &["over-limit"]);
}

/// The 65th action shared a bit of `done(…)` with the first.
#[test]
fn more_actions_than_done_keeps() {
    check("rulebook-too-many-actions", &["over-limit"]);
}

/// More zones than a tallied card keeps the index of.
#[test]
fn more_zones_than_a_tally_names() {
    check("rulebook-too-many-zones", &["over-limit"]);
}

/// Stages past the limit, and the steps they bring past theirs.
#[test]
fn more_stages_than_the_state_counts() {
    check("rulebook-too-many-stages", &["over-limit"]);
}

/// A step repeating 1000 times (counted in a byte) and a stage of 70 000 rounds.
#[test]
fn repeats_and_rounds_past_their_counters() {
    check("rulebook-repeat-limits", &["over-limit"]);
}

/// `deal 3037000500 * 3037000500` overflowed past the too-many-cards check; `draw -1` passed.
#[test]
fn counts_no_zone_can_satisfy() {
    check(
        "rulebook-counts",
        &[
            "divide-by-zero",
            "out-of-range",
            "refill-cycle",
            "too-many-cards",
        ],
    );
}

/// `""`, `" "`, `pilé` and `to` were accepted as names and failed wherever they were used.
#[test]
fn names_no_expression_could_read() {
    check("rulebook-bad-names", &["invalid-name"]);
}

/// `frobnicate(adversary-supply) > 0` said "`adversary-supply` means nothing here"; of a card,
/// `valeu(card)` stays a misspelt attribute.
#[test]
fn an_unknown_function_is_named() {
    check(
        "rulebook-unknown-function",
        &[
            "invalid-expression",
            "unknown-attribute",
            "unknown-function",
        ],
    );
}

/// U+202E (right-to-left override) and U+2066 were accepted in texts.
#[test]
fn bidirectional_controls_are_refused() {
    check("rulebook-bidi-controls", &["control-character"]);
}

/// `repeat = 2`, `rounds = 1` and a counter's `start = 3`, numbers as the pack format shows
/// them, were refused as "must be a string".
#[test]
fn integers_where_the_format_shows_numbers() {
    let loaded = lint("rulebook-integer-counts");
    let text = render::to_string(&loaded.sources, &loaded.diagnostics);
    assert!(loaded.diagnostics.is_empty(), "{text}");
    let pack = loaded.pack.expect("the pack loads");
    assert!(grail_rules::build(&pack).is_ok());
}
