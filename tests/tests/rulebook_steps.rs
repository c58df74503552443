//! A step that takes several actions (`repeat`): the player stays at it until it has had
//! them all, and it ends early when nothing more is legal. Played on `tests/packs/ring-places`
//! with `actions_per_turn` raised, in a copy of the pack.

use grail_engine::replay::{ReplayFile, ReplayOptions};

fn pack_with(actions_per_turn: u32) -> std::path::PathBuf {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/ring-places/pack.toml");
    let text = std::fs::read_to_string(src).unwrap();
    let changed = text.replace(
        "actions_per_turn = 1",
        &format!("actions_per_turn = {actions_per_turn}"),
    );
    assert!(
        text.contains("actions_per_turn = 1"),
        "the pack sets actions_per_turn"
    );
    let dir = std::env::temp_dir().join(format!(
        "grail-ring-places-{actions_per_turn}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pack.toml"), changed).unwrap();
    dir
}

fn run(pack: &std::path::Path, script: &str) -> Option<String> {
    let file = ReplayFile::parse(script).unwrap();
    let game = grail_cli::games::open_game(&grail_tests::content(), &pack.to_string_lossy(), None)
        .unwrap();
    let options = ReplayOptions {
        pack_chosen: true,
        ..ReplayOptions::default()
    };
    game.replay(&file, options)
        .failure
        .map(|f| f.problem.to_string())
}

#[test]
fn a_repeated_step_takes_its_actions_then_passes_the_turn() {
    let pack = pack_with(2);
    let script = r#"(
    game: "ring-places",
    players: 2,
    seed: 1,
    steps: [
        Play("P1: place 5"),
        Play("P1: place 6"),
        Play("P2: place 1"),
        Expect("knight P1", "5 6"),
        Expect("step", "P2 place"),
    ],
)"#;
    assert_eq!(run(&pack, script), None);
    // With one action a turn, P2 moves second.
    let one = pack_with(1);
    let failure = run(&one, script).expect("P1 cannot move twice");
    assert!(failure.contains("P2"), "{failure}");
    let _ = std::fs::remove_dir_all(pack);
    let _ = std::fs::remove_dir_all(one);
}
