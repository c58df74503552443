//! Scripts for packs that are not bundled: every `tests/packs/<pack>/scripts/*.ron` runs
//! against the pack folder it sits in (a mod, or a bundled game with one param changed to
//! test another reading of the rules), in the variant it names, like `grail replay FILE
//! --pack tests/packs/<pack>`.
//! Each must pass; its game log is an insta snapshot. The example mods of the docs
//! (`docs/examples/<pack>/scripts/*.ron`) run the same way.

use grail_engine::replay::{ReplayFile, ReplayOptions};

#[test]
fn pack_scripts() {
    insta::glob!("../../packs", "*/scripts/*.ron", run);
}

#[test]
fn example_scripts() {
    insta::glob!("../../../docs/examples", "*/scripts/*.ron", run);
}

fn run(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let file = ReplayFile::parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    let pack_dir = path.parent().and_then(std::path::Path::parent).unwrap();
    // A variant of the pack folder it sits in, when the script names the folder's game; a
    // folder that is itself a variant of a bundled game (`king-arthur-exact`) is run whole.
    let folder = pack_dir.file_name().unwrap_or_default().to_string_lossy();
    let variant = (file.replay.game == folder)
        .then_some(file.replay.variant.as_deref())
        .flatten();
    let game = grail_cli::games::open_game(
        &grail_tests::content(),
        &pack_dir.to_string_lossy(),
        variant,
    )
    .unwrap_or_else(|e| panic!("cannot open {}:\n{e}", pack_dir.display()));
    let options = ReplayOptions {
        pack_chosen: true,
        ..ReplayOptions::default()
    };
    let run = game.replay(&file, options);
    if let Some(failure) = &run.failure {
        panic!(
            "{}\n{}",
            grail_cli::replay::locate(path, failure),
            grail_cli::replay::log_text(&run)
        );
    }
    let pack = pack_dir.file_name().unwrap_or_default().to_string_lossy();
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    insta::with_settings!({ snapshot_suffix => format!("{pack}-{stem}"), prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("pack_script", grail_cli::replay::log_text(&run));
    });
}

/// Issue 27: a script's `stack` of a zone the setup never shuffles is honoured (the
/// `sorted-rows` scripts), or refused when the zone keeps an order of its own: Artus' beginner
/// game leaves the scoring cards in each player's `box`, a hand kept in type order.
#[test]
fn a_stack_the_setup_would_ignore_is_refused() {
    let game = grail_cli::games::open_game(&grail_tests::content(), "artus", None).unwrap();
    let mut setup = grail_engine::game::Setup::new(2, 1);
    setup.stack.push(("P1 box".into(), vec!["carpet".into()]));
    let err = game.new_match(setup).err().expect("refused");
    assert!(
        err.contains("cannot stack zone `box`: the setup never shuffles it"),
        "{err}"
    );
}
