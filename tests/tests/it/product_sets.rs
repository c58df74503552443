//! Product sets (`product = ["tiles", "spots"]`): a set whose card types are the
//! combinations of one card from each listed set, merged where their attributes agree, so a
//! condition can talk about a figure's tile and spot at once. Fixtures under `tests/lint/`.

use std::path::Path;

use grail_cli::render;
use grail_engine::cond::solve;
use grail_schema::{ConditionSpec, Loaded, ParamKind, ParamSpec, RulesSpec, SetSpec};

const FIXTURE_RULES: RulesSpec = RulesSpec {
    id: "fixture",
    params: &[
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
    ],
    sets: &[
        SetSpec {
            id: "deck",
            doc: "the cards",
        },
        SetSpec {
            id: "quests",
            doc: "what the cards buy",
        },
    ],
    conditions: &[] as &[ConditionSpec],
};

fn load(case: &str) -> Loaded {
    grail_tests::lint(&Path::new("lint").join(case), &[FIXTURE_RULES])
}

fn codes(loaded: &Loaded) -> Vec<&'static str> {
    let mut found: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
    found.sort();
    found.dedup();
    found
}

#[test]
fn a_product_combines_the_attributes_of_its_sets() {
    let loaded = load("product");
    let text = render::to_string(&loaded.sources, &loaded.diagnostics);
    // The factor sets are not the rulebook's own sets, so they draw the usual warning.
    assert_eq!(codes(&loaded), ["unused-set"], "{text}");
    let pack = loaded.pack.expect("no errors");
    let deck = pack.set("deck").unwrap();
    // 3 tiles × 2 spots, but the two red-5 tiles are alike: 4 kinds of place.
    let ids: Vec<&str> = deck.cards.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "red/5/forest",
            "red/5/field",
            "blue/0/forest",
            "blue/0/field"
        ]
    );
    let copies: Vec<u8> = deck.cards.iter().map(|c| c.copies).collect();
    assert_eq!(copies, [2, 2, 1, 1], "combinations per kind");
    // Members are (tile, spot) indices.
    assert_eq!(deck.product_type(&[1, 0]), Some(0), "red-5-again over a");
    assert_eq!(deck.product_type(&[2, 1]), Some(3), "blue-0 over b");
    assert_eq!(deck.product_type(&[3, 0]), None, "no fourth tile");
    assert_eq!(deck.product_type(&[0]), None, "one member per factor");
    // Conditions read both sides of a figure's place; `sum` adds the tiles' value.
    let quests = pack.set("quests").unwrap();
    let red_forest = &quests
        .card("red-forest")
        .unwrap()
        .1
        .condition
        .as_ref()
        .unwrap()
        .program;
    assert!(red_forest.test(&[2, 0, 0, 0], &[]));
    assert!(!red_forest.test(&[1, 1, 1, 0], &[]));
    let rich = &quests
        .card("rich")
        .unwrap()
        .1
        .condition
        .as_ref()
        .unwrap()
        .program;
    assert!(rich.test(&[0, 1, 0, 1], &[]), "a red 5 on a field");
    assert!(!rich.test(&[1, 0, 0, 1], &[]));
    // Choosing figures for it: the two red 5s in the forest, and not the one in the field.
    let mut choices = Vec::new();
    solve::payments(red_forest, &[2, 1, 0, 0], &[], |p| {
        choices.push(p.counts().to_vec());
        true
    });
    assert_eq!(choices, [vec![2, 0, 0, 0]]);
}

#[test]
fn product_mistakes_are_reported() {
    let loaded = load("product-errors");
    let text = render::to_string(&loaded.sources, &loaded.diagnostics);
    assert_eq!(
        codes(&loaded),
        [
            "incompatible-sets",
            "invalid-product",
            "unknown-set",
            "unused-set"
        ],
        "{text}"
    );
    assert!(loaded.pack.is_none());
    insta::assert_snapshot!("product-errors", text);
}
