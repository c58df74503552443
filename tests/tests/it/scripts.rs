//! Scripted games: every `tests/scripts/<game>/*.ron` is a hand-written replay (moves, stacked
//! piles, expectations) run through the same runner as `grail replay`. It must pass, and its
//! full game log is an insta snapshot (review changes with `cargo insta review`).

use grail_engine::replay::{ReplayFile, ReplayOptions};

#[test]
fn scripts() {
    insta::glob!("../../scripts", "**/*.ron", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let file = ReplayFile::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let game = grail_tests::open(&file.replay.game, file.replay.variant.as_deref());
        let run = game.replay(&file, ReplayOptions::default());
        if let Some(failure) = &run.failure {
            panic!(
                "{}\n{}",
                grail_cli::replay::locate(path, failure),
                grail_cli::replay::log_text(&run)
            );
        }
        // One snapshot per script, named after its game folder and file.
        let game_dir = path
            .parent()
            .and_then(|p| p.file_name())
            .unwrap_or_default()
            .to_string_lossy();
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        insta::with_settings!({ snapshot_suffix => format!("{game_dir}-{stem}"), prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!("script", grail_cli::replay::log_text(&run));
        });
    });
}
