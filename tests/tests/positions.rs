//! A script's starting position (`position: {…}`): a position that breaks conservation or
//! the pack's limits is refused, pointing at the entry in the file; rules that would ignore a
//! position refuse the script.

use std::path::Path;

use grail_engine::replay::{ReplayFile, ReplayOptions};

/// Runs a script's text against a pack folder; the failure as `grail replay` prints it.
fn refusal(pack: &str, script: &str) -> String {
    let file = ReplayFile::parse(script).unwrap();
    let game = grail_cli::games::open_game(&grail_tests::content(), pack, None).unwrap();
    let options = ReplayOptions {
        pack_chosen: true,
        ..ReplayOptions::default()
    };
    let run = game.replay(&file, options);
    let failure = run.failure.expect("the position is refused");
    grail_cli::replay::locate(Path::new("script.ron"), &failure)
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_card_placed_twice_breaks_conservation() {
    let text = refusal(
        &repo("docs/examples/five-trails"),
        r#"(
    game: "five-trails",
    players: 2,
    seed: 1,
    position: {
        "hand P1": ["red-5"],
        "trails P2 red": ["red-5"],
    },
    steps: [],
)"#,
    );
    assert!(text.starts_with("script.ron:7:9:"), "{text}");
    assert!(
        text.contains("position `trails P2 red`: no `red-5` is left for it"),
        "{text}"
    );
}

#[test]
fn an_unknown_entry_is_named_with_a_suggestion() {
    let text = refusal(
        &repo("docs/examples/five-trails"),
        r#"(
    game: "five-trails",
    players: 2,
    seed: 1,
    position: { "hands P1": ["red-5"] },
    steps: [],
)"#,
    );
    assert!(text.starts_with("script.ron:5:17:"), "{text}");
    assert!(text.contains("did you mean `hand P1`"), "{text}");
}

#[test]
fn a_figure_too_many_or_a_taken_seat_breaks_the_limits() {
    let pack = repo("tests/packs/ring-places");
    let text = refusal(
        &pack,
        r#"(
    game: "ring-places",
    players: 2,
    seed: 1,
    position: {
        "knight P1": ["1", "2", "5"],
    },
    steps: [],
)"#,
    );
    assert!(text.starts_with("script.ron:6:9:"), "{text}");
    assert!(
        text.contains("3 seats for 2 `knight` figures: each player has 2"),
        "{text}"
    );
    let text = refusal(
        &pack,
        r#"(
    game: "ring-places",
    players: 2,
    seed: 1,
    position: { "knight P2": ["3"] },
    steps: [],
)"#,
    );
    assert!(text.contains("seat 3 is taken by silver"), "{text}");
}

#[test]
fn rules_that_take_no_position_refuse_the_script() {
    let file = ReplayFile::parse(
        r#"(
    game: "virtues",
    players: 3,
    seed: 1,
    position: { "turn": ["P2"] },
    steps: [],
)"#,
    )
    .unwrap();
    let game = grail_tests::open("virtues", None);
    let run = game.replay(&file, ReplayOptions::default());
    let failure = run.failure.expect("refused");
    assert_eq!(failure.position, Some((5, 5)));
    assert!(
        failure
            .problem
            .to_string()
            .contains("do not take a starting position"),
        "{}",
        failure.problem
    );
}
