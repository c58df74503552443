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
        text.contains("3 seats for P1's 2 `knight` figures"),
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
    assert!(
        text.contains("seat 3 is taken by silver, which stays on its starting seat"),
        "{text}"
    );
}

/// Every refused position under `tests/positions/<game>/`: the failure points at an entry of
/// the file, and the error as `grail replay` prints it is a snapshot.
#[test]
fn refused_positions() {
    insta::glob!("../../positions", "**/*.ron", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let file = ReplayFile::parse(&text).unwrap();
        let game = grail_tests::open(&file.replay.game, file.replay.variant.as_deref());
        let run = game.replay(&file, ReplayOptions::default());
        let failure = run.failure.expect("the position is refused");
        let (line, _) = failure.position.expect("the refusal points into the file");
        assert!(
            text.lines()
                .nth(line - 1)
                .is_some_and(|l| l.trim_start().starts_with('"')),
            "{}: the refusal points at line {line}, not at an entry",
            path.display()
        );
        let game_dir = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy();
        let stem = path.file_stem().unwrap().to_string_lossy();
        let shown = Path::new("tests/positions")
            .join(&*game_dir)
            .join(format!("{stem}.ron"));
        let rendered =
            grail_cli::exit::failure("replay-failed", grail_cli::replay::locate(&shown, &failure));
        insta::with_settings!({ snapshot_suffix => format!("{game_dir}-{stem}"), prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!("refused", rendered.to_text());
        });
    });
}

/// Runs a script of a bundled game that must pass, expectations included.
fn passes(script: &str) {
    let file = ReplayFile::parse(script).unwrap();
    let game = grail_tests::open(&file.replay.game, file.replay.variant.as_deref());
    let run = game.replay(&file, ReplayOptions::default());
    if let Some(f) = &run.failure {
        panic!("{}", grail_cli::replay::locate(Path::new("script.ron"), f));
    }
}

/// Figures named by the position leave their starting seats before any takes its new one, so
/// two Princes may trade seats whatever the order of the entries (a map's order is its keys').
#[test]
fn figures_trade_seats_whatever_the_order() {
    passes(
        r#"(
    game: "artus",
    players: 2,
    seed: 1,
    position: {
        "seat 0": ["bronze-1"],
        "seat 7": ["silver-1"],
        "knight P1 at": ["14"],
        "seat 20": ["silver-2"],
    },
    steps: [
        Expect("seat 0", "Prince (bronze, 1 ring)"),
        Expect("seat 7", "King (silver, 3 rings)"),
        Expect("seat 14", "P1 Knight"),
        Expect("seat 20", "Prince (silver, 1 ring)"),
        Expect("seat 21", "Prince (bronze, 1 ring)"),
        Expect("king", "7"),
        Expect("plate 8", "10"),
    ],
)"#,
    );
}

/// In Artus `knight P1` is a pile (the Knight draw pile) and a figure kind: the pile keeps the
/// name, and the seats are `knight P1 at`. A name two things answer to is refused.
#[test]
fn a_name_two_things_answer_to_is_refused() {
    let dir = std::env::temp_dir().join(format!("grail-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A mod keeping a pile per seat called like the `points` counter.
    std::fs::write(
        dir.join("pack.toml"),
        r#"[pack]
id = "points-pile"
extends = "@artus"

[zones.points]
holds = "scoring-cards"
owner = "each"
layout = "hand"
visible = "public"
"#,
    )
    .unwrap();
    let text = refusal(
        &dir.to_string_lossy(),
        r#"(
    game: "points-pile",
    players: 2,
    seed: 1,
    position: { "points P1": ["score-all"] },
    steps: [],
)"#,
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(text.starts_with("script.ron:5:17:"), "{text}");
    assert!(
        text.contains("it names both the pile `points P1` and the counter `points`"),
        "{text}"
    );
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

/// A map keeps the last of two equal keys; a position refuses the second instead.
#[test]
fn an_entry_given_twice_is_refused() {
    let e = ReplayFile::parse(
        r#"(
    game: "artus",
    players: 2,
    seed: 1,
    position: {
        "seat 3": ["bronze-1"],
        "seat 3": ["silver-2"],
    },
    steps: [],
)"#,
    )
    .expect_err("refused");
    assert_eq!(e.position.map(|(line, _)| line), Some(7));
    assert!(
        e.message.contains("position entry `seat 3` is given twice"),
        "{}",
        e.message
    );
}

/// `[figures.*] totals` is also a law of play: a game whose Princes come to hold more rings
/// than it has breaks it. Here the pack says 6, what the Princes hold at the start, and P1
/// adds a seventh (the derived supply still offers one).
#[test]
fn figures_holding_more_than_the_game_has_break_a_law() {
    use grail_engine::game::{NoEvents, Rules, Setup};
    let mut pack = grail_schema::Loader::new(&grail_schema::Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game("artus", None)
        .pack
        .expect("the bundled pack loads");
    let prince = pack.rulebook.figures.get_mut("prince").unwrap();
    for (_, total) in prince.totals.0.iter_mut() {
        total.value = "6".into();
    }
    let rules = grail_rules::rulebook::compile(&pack).expect("the description compiles");
    let mut setup = Setup::new(2, 1);
    for (entry, held) in [("hand P1", "silver-ring"), ("turn", "P1"), ("step", "play")] {
        setup.position.push((entry.into(), vec![held.into()]));
    }
    let mut state = rules.setup(&setup).unwrap();
    rules.check_invariants(&state).unwrap();
    let ring = rules
        .parse_action(&state, "play silver-ring silver@14")
        .unwrap();
    rules.apply(&mut state, &ring, &mut NoEvents);
    let e = rules.check_invariants(&state).unwrap_err();
    assert_eq!(e, "the `prince` figures hold 7 rings, and the game has 6");
}
