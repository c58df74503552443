//! Lint fixtures: one folder per mistake under `tests/lint/<case>/`, and a snapshot of what
//! `grail lint` prints for it (ruff's model). `check` also asserts the exact set of
//! diagnostic codes, so a snapshot cannot silently lose a finding.
//!
//! A case lints its variant file when it has a `variants/` folder, else its pack folder.
//! Fixture packs use the `fixture` rulebook declared below (or `fixture-scored`, the same with
//! a named condition to read).

use std::path::{Path, PathBuf};

use grail_cli::render;
use grail_engine::cond::Type;
use grail_schema::{ConditionSpec, Loaded, ParamKind, ParamSpec, RulesSpec, SetSpec};

const FIXTURE_RULES: RulesSpec = RulesSpec {
    id: "fixture",
    params: FIXTURE_PARAMS,
    sets: FIXTURE_SETS,
    conditions: &[] as &[ConditionSpec],
};

/// The `fixture` rulebook with a named condition it reads.
const FIXTURE_SCORED_RULES: RulesSpec = RulesSpec {
    id: "fixture-scored",
    params: FIXTURE_PARAMS,
    sets: FIXTURE_SETS,
    conditions: &[ConditionSpec {
        name: "score",
        ty: Type::Int,
        args: &[],
        doc: "what a hand scores",
    }],
};

const FIXTURE_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "rounds",
        kind: ParamKind::Int { min: 1, max: 10 },
        doc: "rounds to play",
    },
    ParamSpec {
        name: "open_hands",
        kind: ParamKind::Bool,
        doc: "whether hands are shown",
    },
];

const FIXTURE_SETS: &[SetSpec] = &[
    SetSpec {
        id: "deck",
        doc: "the cards",
    },
    SetSpec {
        id: "quests",
        doc: "what the cards buy",
    },
];

fn case_root(case: &str) -> PathBuf {
    // Paths relative to this crate (the test's working directory), so they read the same on
    // every machine in snapshots.
    let folder = Path::new("lint").join(case);
    let variants = folder.join("variants");
    match std::fs::read_dir(&variants) {
        Ok(entries) => {
            let mut files: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            files.into_iter().next().unwrap_or(folder)
        }
        Err(_) => folder,
    }
}

fn load(case: &str) -> Loaded {
    grail_tests::lint(&case_root(case), &[FIXTURE_RULES, FIXTURE_SCORED_RULES])
}

/// Lints the case, asserts which codes it reports, and snapshots the rendered text.
fn check(case: &str, codes: &[&str]) {
    let loaded = load(case);
    let mut found: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
    found.sort();
    found.dedup();
    let mut expected = codes.to_vec();
    expected.sort();
    // Findings in a bundled pack the case extends are shown by absolute path: not in snapshots.
    let content = grail_schema::files::normalize(&grail_tests::content_dir());
    let text = render::to_string(&loaded.sources, &loaded.diagnostics)
        .replace(&content.display().to_string(), "<content>");
    assert_eq!(found, expected, "codes reported for `{case}`:\n{text}");
    assert_eq!(
        loaded.pack.is_some(),
        loaded.errors() == 0,
        "a pack exactly when no errors"
    );
    insta::assert_snapshot!(case, text);
}

/// Like [`check`], for a pack that loads: also compiles it with its rulebook, as `grail
/// lint` does, for what a rulebook requires of its pack.
fn check_built(case: &str, codes: &[&str]) {
    let loaded = load(case);
    let pack = loaded.pack.as_ref().unwrap_or_else(|| {
        panic!(
            "`{case}` loads:\n{}",
            render::to_string(&loaded.sources, &loaded.diagnostics)
        )
    });
    let diagnostics = grail_rules::build(pack).err().unwrap_or_default();
    let mut found: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
    found.sort();
    found.dedup();
    // Findings in the bundled pack it extends are shown by absolute path: not in snapshots.
    let content = grail_schema::files::normalize(&grail_tests::content_dir());
    let text = render::to_string(&loaded.sources, &diagnostics)
        .replace(&content.display().to_string(), "<content>");
    assert_eq!(found, codes, "codes reported for `{case}`:\n{text}");
    insta::assert_snapshot!(case, text);
}

/// Like [`check`], and snapshots the JSON form too.
fn check_json(case: &str, codes: &[&str]) {
    check(case, codes);
    let loaded = load(case);
    let json: Vec<_> = loaded
        .diagnostics
        .iter()
        .map(|d| render::to_json(d, &loaded.sources))
        .collect();
    insta::assert_json_snapshot!(format!("{case}.json"), json);
}

#[test]
fn a_correct_pack_has_no_findings() {
    check("ok-mini", &[]);
}

#[test]
fn ron_is_the_same_format() {
    check("ok-mini-ron", &[]);
    let (toml, ron) = (
        load("ok-mini").pack.unwrap(),
        load("ok-mini-ron").pack.unwrap(),
    );
    assert_eq!(toml.hash(), ron.hash());
}

#[test]
fn a_mod_extends_a_bundled_variant() {
    check("mod-extends-bundled", &[]);
    let pack = load("mod-extends-bundled").pack.unwrap();
    assert_eq!(pack.lineage, ["king-arthur", "seals", "short-seals"]);
    assert_eq!(
        pack.int("seals_per_player").unwrap(),
        5,
        "from the seals variant"
    );
    assert_eq!(pack.int("hand_size").unwrap(), 5, "the mod's own");
    let knights = pack.set("knights").unwrap();
    assert_eq!(knights.card("merlin").unwrap().1.copies, 6);
    assert_eq!(
        knights.card("merlin").unwrap().1.name,
        "Merlin",
        "unpatched fields stay"
    );
    let adversaries = pack.set("adversaries").unwrap();
    assert_eq!(adversaries.cards.last().unwrap().id, "blue-5");
    assert!(pack.set("adventures").unwrap().card("mountain").is_none());
}

/// A mod's new param that only a comment mentions is read by nothing: a comment is not
/// where a param is read.
#[test]
fn a_param_named_only_in_a_comment_is_read_by_nothing() {
    check("mod-param-in-comment", &["unknown-param"]);
}

/// A mod that breaks a value it inherits is told where the value is and how to override it.
#[test]
fn an_inherited_total_says_how_to_override_it() {
    check("inherited-total", &["total-mismatch"]);
}

#[test]
fn an_inherited_range_says_how_to_widen_it() {
    check("inherited-range", &["out-of-range"]);
}

#[test]
fn toml_syntax_error() {
    check("toml-syntax", &["syntax"]);
}

#[test]
fn ron_syntax_error() {
    check("ron-syntax", &["syntax"]);
}

#[test]
fn ron_mistakes_are_located() {
    check_json(
        "ron-unknown-key",
        &["unknown-attribute", "missing-attribute", "unknown-key"],
    );
}

#[test]
fn unknown_key() {
    check_json("unknown-key", &["unknown-key"]);
}

#[test]
fn unknown_attribute() {
    check(
        "unknown-attribute",
        &["unknown-attribute", "missing-attribute"],
    );
}

#[test]
fn unknown_attribute_value() {
    check("unknown-attribute-value", &["unknown-value"]);
}

/// Issue 16: a legend explains an attribute's values; one that is not a value (or names
/// no attribute) is an error with did-you-mean.
#[test]
fn legend_unknown_value() {
    check(
        "legend-unknown-value",
        &["unknown-attribute", "unknown-value"],
    );
}

#[test]
fn attribute_out_of_range() {
    check("attribute-out-of-range", &["out-of-range"]);
}

#[test]
fn wrong_type() {
    check("wrong-type", &["wrong-type"]);
}

#[test]
fn missing_field() {
    // The card without an id cannot be counted, so the total no longer matches either.
    check("missing-field", &["missing-field", "total-mismatch"]);
}

#[test]
fn players_default_outside_the_range() {
    check("players-default", &["invalid-value"]);
}

#[test]
fn total_mismatch() {
    check_json("total-mismatch", &["total-mismatch"]);
}

#[test]
fn duplicate_ids() {
    check("duplicate-id", &["duplicate-id"]);
}

#[test]
fn unknown_set() {
    check("unknown-set", &["unknown-set", "unused-condition"]);
}

#[test]
fn missing_file() {
    // The set the missing file would have defined is then missing too.
    check(
        "missing-file",
        &["missing-file", "missing-set", "unknown-set"],
    );
}

#[test]
fn path_escapes_pack() {
    check("path-escapes-pack", &["path-escapes-pack"]);
}

#[test]
fn cyclic_extends() {
    check("cyclic-extends", &["cyclic-extends"]);
}

#[test]
fn variant_patches_unknown_card() {
    check("variant-unknown-card", &["unknown-card"]);
}

#[test]
fn variant_id_is_its_file_stem() {
    check("variant-id", &["variant-id"]);
}

#[test]
fn unknown_bundled_pack() {
    check("bundled-extends", &["missing-file"]);
}

#[test]
fn too_many_types() {
    check("too-many-types", &["too-many-types"]);
}

#[test]
fn params_against_the_rulebook() {
    check(
        "unknown-param",
        &["unknown-param", "missing-param", "param-type"],
    );
}

#[test]
fn unknown_rules() {
    check("unknown-rules", &["unknown-rules"]);
}

#[test]
fn unused_cards_and_sets_warn() {
    check("unused", &["unused-card", "unused-set"]);
    assert_eq!(load("unused").errors(), 0, "warnings only");
}

/// For mistakes inside a condition string, whose codes the condition language chooses:
/// asserts the number of errors and that each points inside the condition's text, at the
/// offending part rather than at the whole string.
fn check_in_condition(case: &str, errors: usize) {
    let loaded = load(case);
    let text = render::to_string(&loaded.sources, &loaded.diagnostics);
    assert_eq!(
        loaded.errors(),
        errors,
        "errors reported for `{case}`:\n{text}"
    );
    assert_eq!(loaded.warnings(), 0, "{text}");
    for d in &loaded.diagnostics {
        let label = d.primary().expect("a condition error has a place");
        let file = &loaded.sources.get(label.source).text;
        let line = file[..label.span.start].rsplit('\n').next().unwrap_or("");
        assert!(
            line.starts_with("condition = \""),
            "{} points outside the condition:\n{text}",
            d.code
        );
        let literal = file[label.span.start..].split('\n').next().unwrap_or("");
        assert!(
            label.span.len() < literal.len(),
            "{} points at the whole condition:\n{text}",
            d.code
        );
    }
    insta::assert_snapshot!(case, text);
}

#[test]
fn override_values_and_conditions_are_checked() {
    check(
        "overrides",
        &["unknown-attribute", "out-of-range", "unsatisfiable"],
    );
}

#[test]
fn condition_syntax_error() {
    check_in_condition("condition-syntax", 1);
}

#[test]
fn condition_names_are_checked() {
    // `colour` is no attribute; `green` is no colour.
    check_in_condition("condition-names", 2);
}

#[test]
fn condition_type() {
    check("condition-type", &["condition-type"]);
}

#[test]
fn unsatisfiable_condition() {
    check("unsatisfiable", &["unsatisfiable"]);
}

#[test]
fn many_overlapping_card_filters_are_decided_quickly() {
    check("cards-many-filters", &["unsatisfiable"]);
}

#[test]
fn a_product_of_counts_is_decided_or_visibly_not() {
    check("never-met-product", &["unsatisfiable", "could-not-decide"]);
}

#[test]
fn pack_params_are_condition_constants() {
    check("condition-param", &[]);
}

#[test]
fn control_characters_are_refused() {
    // `\u001b[2J` in a name would clear the player's screen; the snippet shows it escaped.
    check("control-character", &["control-character"]);
}

#[test]
fn numbers_are_bounded_where_declared() {
    // Points of i64::MAX would make every score wrap.
    check("number-out-of-range", &["out-of-range"]);
}

#[test]
fn a_value_that_cannot_be_decoded_comes_before_what_it_causes() {
    // `rounds = nan` is the cause; the missing param is its consequence and comes after.
    check("param-not-decoded", &["wrong-type", "missing-param"]);
    let loaded = load("param-not-decoded");
    let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["wrong-type", "missing-param"]);
}

#[test]
fn an_include_that_cannot_be_read_is_not_its_own_suggestion() {
    check("include-symlink-loop", &["missing-file"]);
    let loaded = load("include-symlink-loop");
    assert!(loaded.diagnostics.iter().all(|d| d.help.is_none()));
}

#[test]
fn long_lines_and_many_findings_stay_short() {
    let loaded = load("long-lines");
    assert_eq!(loaded.errors(), 40);
    let text = render::to_string(&loaded.sources, &loaded.diagnostics);
    assert!(
        text.lines().all(|l| l.chars().count() < 160),
        "no long line:\n{text}"
    );
    check("long-lines", &["missing-file"]);
}

#[test]
fn a_set_the_rules_need_may_not_be_empty() {
    check_built("empty-set", &["empty-set"]);
}

#[test]
fn a_value_no_payment_reaches_is_an_error() {
    check_built("unreachable-value", &["unreachable"]);
}

#[test]
fn condition_calls_are_checked() {
    check(
        "condition-calls",
        &[
            "condition-arguments",
            "condition-filter",
            "no-value-attribute",
            "unknown-function",
            "unknown-parameter",
        ],
    );
}

/// Conditions are bounded in length, depth, `cards(…)` filters and numbers, so no pack can
/// make the parser or the solver work without bound.
#[test]
fn condition_limits() {
    check(
        "condition-limits",
        &[
            "condition-too-deep",
            "condition-too-long",
            "number-too-large",
            "too-many-filters",
        ],
    );
}

#[test]
fn ids_are_kebab_case() {
    check("invalid-id", &["invalid-id"]);
}

#[test]
fn by_players_keys_are_player_counts() {
    check("invalid-player-count", &["invalid-player-count"]);
}

#[test]
fn positions_count_from_zero() {
    check(
        "invalid-position",
        &["invalid-position", "missing-position"],
    );
}

#[test]
fn remove_needs_a_pack_to_remove_from() {
    check("misplaced-remove", &["misplaced-remove"]);
}

#[test]
fn an_included_file_has_no_pack_table() {
    check("pack-in-include", &["pack-in-include"]);
}

#[test]
fn a_named_condition_the_rules_read_is_required() {
    check(
        "missing-condition",
        &["missing-condition", "unused-condition"],
    );
}

/// A mod may rewrite a condition the description reads, but not how many arguments its
/// `pay` passes.
#[test]
fn a_rewritten_condition_keeps_its_arguments() {
    check_built("condition-args", &["condition-args"]);
}
