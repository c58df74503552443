use grail_engine::agent::AgentKind;
use grail_engine::replay::{
    Failure, FileError, Problem, Replay, ReplayFile, ReplayOptions, Step, rerecord, run,
};
use proptest::prelude::*;

use crate::bot_game;
use crate::toy::Toy;

const HASH: &str = "c0ffee";
const VERIFY: ReplayOptions = ReplayOptions {
    verify: true,
    ignore_content_hash: false,
    pack_chosen: false,
};

fn recorded(seed: u64) -> String {
    let rules = Toy;
    let m = bot_game(&rules, 3, seed, AgentKind::Greedy);
    Replay::from_match(&m, Some(HASH), Some(vec!["greedy".into(); 3])).to_ron()
}

fn run_text(text: &str, options: ReplayOptions) -> Result<(), Box<Failure>> {
    let file = ReplayFile::parse(text).expect("parses");
    match run(&Toy, Some(HASH), &file, options).failure {
        None => Ok(()),
        Some(f) => Err(Box::new(f)),
    }
}

#[test]
fn a_recorded_game_verifies_and_round_trips() {
    let text = recorded(21);
    run_text(&text, VERIFY).unwrap();
    let file = ReplayFile::parse(&text).unwrap();
    assert_eq!(file.replay.to_ron(), text);
    assert!(matches!(file.replay.steps.last(), Some(Step::End { .. })));
}

#[test]
fn the_written_format_has_one_step_per_line() {
    let text = recorded(21);
    assert!(text.starts_with("#![enable(implicit_some)]\n(\n    game: \"toy\",\n"));
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| l.trim() == "steps: [").unwrap();
    assert!(lines[first + 1].trim_start().starts_with("Move(\""));
    assert!(lines[first + 1].ends_with("\"),"));
}

#[test]
fn a_tampered_digest_is_reported_at_its_step_and_line() {
    let text = recorded(22);
    let file = ReplayFile::parse(&text).unwrap();
    let Step::Move(_, digest) = &file.replay.steps[4] else {
        panic!("step 5 is a move")
    };
    let tampered = text.replacen(&format!("\"{digest}\""), "\"00000000\"", 1);
    let failure = run_text(&tampered, ReplayOptions::default()).unwrap_err();
    assert_eq!(failure.step, Some(5));
    let line = text
        .lines()
        .position(|l| l.contains(digest.as_str()))
        .unwrap()
        + 1;
    assert_eq!(failure.position, Some((line, 9)));
    assert_eq!(
        failure.problem,
        Problem::Digest {
            expected: "00000000".into(),
            actual: digest.clone()
        }
    );
}

/// The recorded game with its first `draw` replaced by `bank v9`, a move no state allows, and
/// that move's index among the steps.
fn first_draw_garbled(text: &str) -> (usize, String) {
    let file = ReplayFile::parse(text).unwrap();
    let index = file
        .replay
        .steps
        .iter()
        .position(|s| matches!(s, Step::Move(m, _) if m == "draw"))
        .unwrap();
    (index, text.replacen("Move(\"draw\"", "Move(\"bank v9\"", 1))
}

#[test]
fn a_tampered_move_is_reported_at_the_first_step_that_differs() {
    let text = recorded(23);
    // Replace the first "draw" with "bank v9": unparsable at that step.
    let (index, tampered) = first_draw_garbled(&text);
    let failure = run_text(&tampered, VERIFY).unwrap_err();
    assert_eq!(failure.step, Some(index + 1));
    let Problem::Move { error, legal } = &failure.problem else {
        panic!("{failure}")
    };
    assert_eq!(error.reason(), "'v9' is no card; the cards are v1 to v6");
    assert!(legal.contains(&"draw".to_string()));
    assert!(
        failure
            .to_string()
            .starts_with(&format!("step {} (line ", index + 1))
    );
}

#[test]
fn verify_needs_the_whole_game() {
    let text = recorded(24);
    let mut replay = ReplayFile::parse(&text).unwrap().replay;
    replay.steps.pop();
    // Without the End record the game still ends, but verify wants it said.
    let failure = run_text(&replay.to_ron(), VERIFY).unwrap_err();
    assert_eq!((failure.step, failure.problem), (None, Problem::NoEnd));
    replay.steps.truncate(3);
    let cut = replay.to_ron();
    let failure = run_text(&cut, VERIFY).unwrap_err();
    assert_eq!(failure.problem, Problem::Unfinished);
    // A plain run of an unfinished game is fine: it is a saved game or a script.
    run_text(&cut, ReplayOptions::default()).unwrap();
}

#[test]
fn content_hash_and_game_must_match_unless_told() {
    let text = recorded(25).replace(HASH, "beef");
    let failure = run_text(&text, VERIFY).unwrap_err();
    assert_eq!(
        failure.problem,
        Problem::ContentHash {
            file: "beef".into(),
            loaded: HASH.into()
        }
    );
    let ignore = ReplayOptions {
        ignore_content_hash: true,
        pack_chosen: false,
        ..VERIFY
    };
    run_text(&text, ignore).unwrap();
    let other = recorded(25).replace("game: \"toy\"", "game: \"king-arthur\"");
    let failure = run_text(&other, ignore).unwrap_err();
    assert_eq!(
        failure.problem,
        Problem::WrongGame {
            file: "king-arthur".into(),
            loaded: "toy".into()
        }
    );
}

/// The recorded game with every `Move` digest replaced, a comment added and the fields
/// spaced otherwise than `to_ron` writes them, and the digests it had.
fn stale_copy(seed: u64) -> (String, String, usize) {
    let text = recorded(seed);
    let file = ReplayFile::parse(&text).unwrap();
    let mut stale = text.replacen("(\n", "( // kept as written\n", 1);
    stale = stale.replace("    seed:", "    seed:   ");
    let mut moves = 0;
    for step in &file.replay.steps {
        if let Step::Move(_, digest) = step {
            stale = stale.replacen(&format!("\"{digest}\")"), "\"0000stale\")", 1);
            moves += 1;
        }
    }
    let expected = text
        .replacen("(\n", "( // kept as written\n", 1)
        .replace("    seed:", "    seed:   ");
    (stale, expected, moves)
}

#[test]
fn rerecording_rewrites_only_the_stale_digests() {
    let (stale, expected, moves) = stale_copy(26);
    assert!(run_text(&stale, VERIFY).is_err());
    let file = ReplayFile::parse(&stale).unwrap();
    let done = rerecord(&Toy, Some(HASH), &file, VERIFY).unwrap();
    assert_eq!((done.digests, done.content_hash), (moves, false));
    // Byte for byte the file as written, with the digests the game has.
    assert_eq!(done.text, expected);
    run_text(&done.text, VERIFY).unwrap();
    // Nothing stale: nothing changes.
    let again = rerecord(
        &Toy,
        Some(HASH),
        &ReplayFile::parse(&expected).unwrap(),
        VERIFY,
    );
    assert_eq!(again.unwrap().digests, 0);
}

#[test]
fn rerecording_refuses_a_game_that_fails_otherwise() {
    let (stale, _, _) = stale_copy(27);
    // A move that is not legal any more.
    let (index, broken) = first_draw_garbled(&stale);
    let failure = rerecord(
        &Toy,
        Some(HASH),
        &ReplayFile::parse(&broken).unwrap(),
        VERIFY,
    )
    .unwrap_err();
    assert_eq!(failure.step, Some(index + 1));
    assert!(matches!(failure.problem, Problem::Move { .. }));
    // Another ending.
    let ending = stale.replacen("winners: [", "winners: [\"P9\", ", 1);
    let failure = rerecord(
        &Toy,
        Some(HASH),
        &ReplayFile::parse(&ending).unwrap(),
        VERIFY,
    )
    .unwrap_err();
    assert!(matches!(failure.problem, Problem::End { .. }), "{failure}");
    // Other content: refused, unless told; then the hash is re-recorded as well.
    let other = stale.replace(HASH, "beef");
    let file = ReplayFile::parse(&other).unwrap();
    let failure = rerecord(&Toy, Some(HASH), &file, VERIFY).unwrap_err();
    assert!(matches!(failure.problem, Problem::ContentHash { .. }));
    let ignore = ReplayOptions {
        ignore_content_hash: true,
        ..VERIFY
    };
    let done = rerecord(&Toy, Some(HASH), &file, ignore).unwrap();
    assert!(done.content_hash);
    run_text(&done.text, VERIFY).unwrap();
    // A stale digest written in a form it cannot rewrite in place.
    let odd = stale.replacen("\"0000stale\")", "\"0000stale\",)", 1);
    let failure =
        rerecord(&Toy, Some(HASH), &ReplayFile::parse(&odd).unwrap(), VERIFY).unwrap_err();
    assert_eq!(failure.problem, Problem::Unlocated);
    assert!(failure.position.is_some());
}

const SCRIPT: &str = r#"// P1 is dealt v3 v1, P2 v3 v4, P3 v6 v6.
(
    game: "toy",
    players: 3,
    seed: 5,
    stack: {"deck": ["v3", "v1", "v3", "v4", "v6", "v6"]},
    steps: [
        Expect("hand P1", "v1 v3"),
        Illegal("bank v6", "you hold no v6"),
        Illegal("block", "no bank is waiting"),
        Play("bank v3"),
        Expect("to-move", "P2"),
        Play("pass"),
        Expect("score P1", "3"),
        Illegal("bank v1", "you hold no v1"),
        Play("bank v4"),
        Expect("score P2", "4"),
    ],
)
"#;

#[test]
fn a_hand_written_script_runs_with_stacked_cards_and_expectations() {
    run_text(SCRIPT, ReplayOptions::default()).unwrap();
    let file = ReplayFile::parse(SCRIPT).unwrap();
    let run = run(&Toy, None, &file, ReplayOptions::default());
    assert_eq!(run.log.len(), 10);
}

#[test]
fn failed_expectations_name_their_step_and_line() {
    let wrong = SCRIPT.replace("Expect(\"score P1\", \"3\")", "Expect(\"score P1\", \"4\")");
    let failure = run_text(&wrong, ReplayOptions::default()).unwrap_err();
    assert_eq!(failure.step, Some(7));
    assert_eq!(failure.position, Some((14, 9)));
    assert_eq!(
        failure.to_string(),
        "step 7 (line 14, column 9) Expect(\"score P1\", \"4\"): 'score P1' is \"3\", expected \"4\""
    );

    let wrong = SCRIPT.replace("you hold no v6", "needs strength 4");
    let failure = run_text(&wrong, ReplayOptions::default()).unwrap_err();
    assert_eq!(failure.step, Some(2));
    assert!(matches!(failure.problem, Problem::Reason { .. }));

    let wrong = SCRIPT.replace("Illegal(\"bank v6\"", "Illegal(\"bank v1\"");
    let failure = run_text(&wrong, ReplayOptions::default()).unwrap_err();
    assert_eq!(
        failure.problem,
        Problem::NotIllegal {
            text: "bank v1".into()
        }
    );

    let wrong = SCRIPT.replace(
        "Expect(\"to-move\", \"P2\")",
        "Expect(\"whose turn\", \"P2\")",
    );
    let failure = run_text(&wrong, ReplayOptions::default()).unwrap_err();
    assert!(matches!(failure.problem, Problem::Inspect { .. }));

    let wrong = SCRIPT.replace("Play(\"pass\")", "End(reason: \"time\")");
    let failure = run_text(&wrong, ReplayOptions::default()).unwrap_err();
    assert_eq!((failure.step, failure.problem), (Some(6), Problem::NotOver));

    let wrong = SCRIPT.replace(
        "\"v3\", \"v1\", \"v3\"",
        "\"v3\", \"v3\", \"v3\", \"v3\", \"v3\"",
    );
    let failure = run_text(&wrong, ReplayOptions::default()).unwrap_err();
    assert!(matches!(failure.problem, Problem::Setup(_)), "{failure}");
}

#[test]
fn a_step_that_names_a_seat_fails_when_another_seat_is_to_move() {
    let named = SCRIPT
        .replace("Play(\"bank v3\")", "Play(\"P1: bank v3\")")
        .replace("Play(\"pass\")", "Play(\"P2: pass\")")
        .replace("Illegal(\"bank v1\"", "Illegal(\"P2: bank v1\"");
    run_text(&named, ReplayOptions::default()).unwrap();

    let wrong = SCRIPT.replace("Play(\"pass\")", "Play(\"P3: pass\")");
    let failure = run_text(&wrong, ReplayOptions::default()).unwrap_err();
    assert_eq!(
        failure.to_string(),
        "step 6 (line 13, column 9) Play(\"P3: pass\"): expected P3 to move, but P2 is to move"
    );
    let wrong = SCRIPT.replace("Illegal(\"bank v1\"", "Illegal(\"P1: bank v1\"");
    let failure = run_text(&wrong, ReplayOptions::default()).unwrap_err();
    assert_eq!(failure.step, Some(8));
    assert_eq!(
        failure.problem,
        Problem::Seat {
            expected: 0,
            actual: Some(1)
        }
    );
    let wrong = SCRIPT.replace("Play(\"pass\")", "Play(\"P4: pass\")");
    let failure = run_text(&wrong, ReplayOptions::default()).unwrap_err();
    assert!(
        failure
            .to_string()
            .ends_with("'P4' is not a seat of this game (its seats are P1 to P3)"),
        "{failure}"
    );
}

#[test]
fn end_steps_check_reason_scores_and_winners() {
    let text = recorded(26);
    let file = ReplayFile::parse(&text).unwrap();
    let Some(Step::End { scores, .. }) = file.replay.steps.last() else {
        panic!()
    };
    let scores = scores.clone().unwrap();
    let bumped: Vec<i64> = scores.iter().map(|s| s + 1).collect();
    let wrong = text.replace(
        &format!("scores: {scores:?}"),
        &format!("scores: {bumped:?}"),
    );
    let failure = run_text(&wrong, VERIFY).unwrap_err();
    assert!(matches!(
        failure.problem,
        Problem::End {
            field: "scores",
            ..
        }
    ));
    let wrong = text.replace("winners: [", "winners: [\"P9\", ");
    let failure = run_text(&wrong, VERIFY).unwrap_err();
    assert!(matches!(
        failure.problem,
        Problem::End {
            field: "winners",
            ..
        }
    ));
}

fn parse_err(text: &str) -> FileError {
    ReplayFile::parse(text).unwrap_err()
}

#[test]
fn malformed_files_are_errors_with_positions() {
    let e = parse_err("(game: \"toy\", players: 3, seed: 1, steps: [Move(\"draw\")])");
    assert_eq!(e.position.map(|p| p.0), Some(1));
    let e =
        parse_err("(\n  game: \"toy\",\n  players: 3,\n  seed: 1,\n  colour: 2,\n  steps: [],\n)");
    assert_eq!(e.position.map(|p| p.0), Some(5), "{e}");
    assert!(e.message.contains("colour"), "{e}");
    let e = parse_err("(game: \"toy\", players: -3, seed: 1, steps: [])");
    assert!(e.position.is_some(), "{e}");
    let deep = format!(
        "(game: \"toy\", players: 3, seed: 1, steps: {}{})",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(
        parse_err(&deep).position.is_some(),
        "deep nesting is an error, not a stack overflow"
    );
    let deep = format!("(game: {}", "(".repeat(100_000));
    assert!(parse_err(&deep).position.is_some());
    let huge = " ".repeat(grail_engine::replay::MAX_REPLAY_BYTES + 1);
    assert!(parse_err(&huge).message.contains("refused"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(file) = ReplayFile::parse(&text) {
            let _ = run(&Toy, Some(HASH), &file, VERIFY);
        }
    }

    #[test]
    fn mangled_replays_never_panic(
        cut in 0usize..2000,
        len in 0usize..40,
        junk in "[\\[\\](){}\",:a-zA-Z0-9 \\\\/*#!-]{0,12}",
    ) {
        let text = recorded(27);
        let mut chars: Vec<char> = text.chars().collect();
        let at = cut.min(chars.len());
        let end = (at + len).min(chars.len());
        chars.splice(at..end, junk.chars());
        let mangled: String = chars.into_iter().collect();
        if let Ok(file) = ReplayFile::parse(&mangled) {
            let run = run(&Toy, Some(HASH), &file, VERIFY);
            if let Some(f) = run.failure {
                let _ = f.to_string();
            }
        }
    }
}
