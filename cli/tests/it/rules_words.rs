//! `grail rules`: every described game's rules in words, with no rule language in them; a
//! variant says what it changes.

use std::path::{Path, PathBuf};

use grail_cli::content::Content;
use grail_cli::rules_cmd::{RulesArgs, run};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rules(game: &str, variant: Option<&str>) -> String {
    let content = Content::folder(repo().join("content"));
    let args = RulesArgs {
        game: game.into(),
        variant: variant.map(str::to_string),
    };
    let mut out = Vec::new();
    run(&args, &content, &mut out).unwrap_or_else(|e| panic!("{game}: {e}"));
    String::from_utf8(out).unwrap()
}

#[test]
fn every_described_game_reads_in_words() {
    let examples = [
        "five-trails",
        "merlins-rebuke",
        "restful-knights",
        "round-table-tricks",
    ];
    let mut games: Vec<(String, Option<&str>)> = vec![
        ("king-arthur".into(), None),
        ("king-arthur".into(), Some("seals")),
        ("artus".into(), None),
        ("artus".into(), Some("advanced")),
    ];
    for e in examples {
        let path = repo().join("docs/examples").join(e);
        games.push((path.to_str().unwrap().to_string(), None));
    }
    for (game, variant) in games {
        let text = rules(&game, variant);
        for part in ["Components:", "Moves:", "The end:", "Each player scores "] {
            assert!(text.contains(part), "{game}: {part} in {text}");
        }
        for raw in [
            "count(",
            "sum(",
            "fullest(",
            "step(",
            "most(",
            "(current)",
            "(each)",
            "(P)",
            "$",
        ] {
            assert!(!text.contains(raw), "{game} {variant:?}: {raw} in\n{text}");
        }
    }
}

#[test]
fn a_variant_says_what_it_changes() {
    let text = rules("artus", Some("advanced"));
    assert!(
        text.contains("What `advanced` changes from `artus`:"),
        "{text}"
    );
    assert!(text.contains("cards_per_turn: 2 (was 1)"), "{text}");
    insta::assert_snapshot!("artus_advanced_rules", text);
    insta::assert_snapshot!("king_arthur_rules", rules("king-arthur", None));
}

/// A game played by a Rust module says so, and what its pack says.
#[test]
fn a_module_game_says_its_rules_are_not_described() {
    let text = rules("quests", None);
    assert!(
        text.contains("its turn is played by the `quests` module"),
        "{text}"
    );
}
