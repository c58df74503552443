//! The commands, driven in-process on the toy game.

use std::path::PathBuf;

use clap::{CommandFactory, Parser};
use grail_engine::agent::AgentKind;
use grail_engine::facade::DynGame;

use grail_cli::exit::CliError;
use grail_cli::games::read_replay;
use grail_cli::play::{self, PlayArgs, Player};
use grail_cli::replay;
use grail_cli::sim::{self, Format, SimArgs, parse_counts};
use grail_engine::facade::LoadedGame;

use crate::{Cli, Command};

pub(crate) fn toy() -> Box<dyn DynGame> {
    Box::new(LoadedGame::new(
        crate::toy::Toy,
        Some("toy-content".to_string()),
    ))
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grail-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn parse(args: &[&str]) -> Command {
    Cli::try_parse_from(std::iter::once("grail").chain(args.iter().copied()))
        .unwrap()
        .command
}

#[test]
fn command_line_definitions_are_consistent() {
    Cli::command().debug_assert();
}

/// Issue 16: "every flag has help text and lists its values".
#[test]
fn every_argument_has_help_text() {
    fn check(command: &clap::Command, path: &str) {
        for arg in command.get_arguments() {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            assert!(
                arg.get_help()
                    .is_some_and(|h| !h.to_string().trim().is_empty()),
                "`{path}` has no help text for `{id}`"
            );
        }
        for sub in command.get_subcommands() {
            assert!(
                sub.get_about().is_some(),
                "`{path} {}` has no help text",
                sub.get_name()
            );
            check(sub, &format!("{path} {}", sub.get_name()));
        }
    }
    check(&Cli::command(), "grail");
}

#[test]
fn bots_and_agents_take_lists_and_suggest_near_names() {
    let Command::Play(play) = parse(&["play", "toy", "--bots", "greedy,random"]) else {
        unreachable!()
    };
    assert_eq!(play.bots, [AgentKind::Greedy, AgentKind::Random]);
    let err = Cli::try_parse_from(["grail", "sim", "toy", "--agents", "gredy"])
        .err()
        .unwrap();
    assert!(err.to_string().contains("'greedy'"), "{err}");
    for games in ["0", "-1", "many"] {
        assert!(Cli::try_parse_from(["grail", "sim", "toy", "--games", games]).is_err());
    }
}

#[test]
fn player_counts_read_as_numbers_ranges_and_lists() {
    assert_eq!(parse_counts("4").unwrap().0, vec![4]);
    assert_eq!(parse_counts("2-5").unwrap().0, vec![2, 3, 4, 5]);
    assert_eq!(parse_counts("4,2,4-5").unwrap().0, vec![2, 4, 5]);
    assert!(parse_counts("5-2").is_err());
    assert!(parse_counts("two").is_err());
    assert!(parse_counts("1-99999999999").is_err());
}

#[test]
fn usage_errors_are_clap_errors() {
    for args in [
        vec!["sim"],
        vec!["sim", "toy", "--agents", "genius"],
        vec!["sim", "toy", "--format", "xml"],
        vec!["play", "toy", "--resume", "x.ron"],
        vec!["play"],
        vec!["replay"],
        vec!["frobnicate"],
    ] {
        let err = Cli::try_parse_from(std::iter::once("grail").chain(args.iter().copied()))
            .err()
            .unwrap_or_else(|| panic!("{args:?} parsed"));
        assert_eq!(err.exit_code(), 2, "{args:?}");
    }
}

pub(crate) fn sim_args(args: &[&str]) -> SimArgs {
    let mut all = vec!["sim", "toy"];
    all.extend_from_slice(args);
    match parse(&all) {
        Command::Sim(a) => a,
        _ => unreachable!(),
    }
}

fn sim_output(args: &SimArgs) -> String {
    let mut out = Vec::new();
    sim::simulate(toy().as_ref(), args, &mut out, false).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn sim_json_is_the_same_for_any_thread_count() {
    let one = sim_output(&sim_args(&[
        "--games",
        "150",
        "--format",
        "json",
        "--threads",
        "1",
    ]));
    let two = sim_output(&sim_args(&[
        "--games",
        "150",
        "--format",
        "json",
        "--threads",
        "2",
    ]));
    assert_eq!(one, two);
    let json: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(
        json["players"],
        serde_json::json!([2, 3, 4]),
        "default: every count"
    );
    assert_eq!(json["results"][2]["seats"].as_array().unwrap().len(), 4);
}

#[test]
fn sim_formats_and_recording() {
    let dir = scratch("record");
    let args = sim_args(&[
        "--players",
        "2",
        "--games",
        "5",
        "--agents",
        "greedy",
        "--record",
        dir.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    assert_eq!(args.format, Format::Csv);
    let csv = sim_output(&args);
    assert!(csv.starts_with("players,section,key,metric,value\n2,game,,games,5\n"));
    assert!(csv.contains("2,seat,P1,agent,greedy\n"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 5);
    assert!(files[0].ends_with("toy-2p-000000.ron"));
    for f in &files {
        let file = read_replay(f).unwrap();
        assert_eq!(file.replay.content_hash.as_deref(), Some("toy-content"));
        let args = replay_args(f, true);
        let mut out = Vec::new();
        replay::replay(toy().as_ref(), &file, &args, &mut out).unwrap();
    }
    let text = sim_output(&sim_args(&["--players", "2", "--games", "5"]));
    assert!(text.contains("2 players: 5 games, 5 completed"), "{text}");
}

#[test]
fn sim_refuses_player_counts_the_game_does_not_support() {
    let mut out = Vec::new();
    let err = sim::simulate(
        toy().as_ref(),
        &sim_args(&["--players", "3-6"]),
        &mut out,
        false,
    )
    .unwrap_err();
    assert!(matches!(
        err,
        CliError::Usage { code: "players-out-of-range", message }
            if message == "toy is for 2 to 4 players, not 5"
    ));
}

fn replay_args(file: &std::path::Path, verify: bool) -> replay::ReplayArgs {
    replay::ReplayArgs {
        file: file.to_path_buf(),
        verify,
        ignore_content_hash: false,
        pack: None,
        rerecord: false,
        more: Vec::new(),
    }
}

fn play_args(args: &[&str]) -> PlayArgs {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    match parse(&all) {
        Command::Play(a) => a,
        _ => unreachable!(),
    }
}

/// Issue 16: "`play --bots greedy,random` is refused although `sim --agents` takes a list".
#[test]
fn play_seats_a_list_of_bots_in_order_around_the_human() {
    let dir = scratch("bot-list");
    let game = toy();
    let save = dir.join("game.ron");
    let args = play_args(&[
        "toy",
        "--players",
        "4",
        "--seat",
        "2",
        "--seed",
        "1",
        "--bots",
        "random,greedy",
        "--save",
        save.to_str().unwrap(),
    ]);
    let session = play::start(game.as_ref(), &args).unwrap();
    use AgentKind::{Greedy, Random};
    assert_eq!(
        session.table,
        [
            Player::Bot(Random),
            Player::Human,
            Player::Bot(Greedy),
            Player::Bot(Random)
        ]
    );
}

#[test]
fn a_human_game_explains_bad_moves_saves_and_resumes() {
    let dir = scratch("play");
    let save = dir.join("game.ron");
    let game = toy();
    let args = play_args(&[
        "toy",
        "--players",
        "3",
        "--seed",
        "7",
        "--seat",
        "2",
        "--bots",
        "random",
        "--save",
        save.to_str().unwrap(),
    ]);
    let mut session = play::start(game.as_ref(), &args).unwrap();
    assert_eq!(session.table[1], Player::Human);
    let mut out = Vec::new();
    let input = "bank v9\n99\nhelp\n1\nquit\n";
    play::play(&mut session, &mut input.as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("P1 random, P2 human, P3 random"), "{out}");
    // The menu names the step being asked (issue 16), from `Rules::prompt`.
    assert!(
        out.contains("Your decision: draw a card or bank one")
            || out.contains("Your decision: answer P1's bank"),
        "{out}"
    );
    assert!(
        out.contains("cannot read 'bank v9' as a move: 'v9' is no card"),
        "{out}"
    );
    assert!(out.contains("There is no move 99"), "{out}");
    assert!(out.contains("bank vN    score a card"), "{out}");
    assert!(out.contains("P2 (human): draw"), "{out}");
    assert!(
        out.contains("Saved. Continue with: grail play --resume"),
        "{out}"
    );
    let moves_before = session.m.history().len();
    let digest_before = session.m.digest();

    // The save holds every move so far; resuming picks up exactly there.
    let file = read_replay(&save).unwrap();
    assert_eq!(file.replay.agents.as_deref().unwrap()[1], "human");
    let resume_args = play_args(&["--resume", save.to_str().unwrap()]);
    let mut resumed = play::resume(game.as_ref(), &resume_args, &save, &file).unwrap();
    assert_eq!(resumed.m.history().len(), moves_before);
    assert_eq!(resumed.m.digest(), digest_before);
    assert_eq!(resumed.table[1], Player::Human);
    assert_eq!(
        resumed.table[0],
        Player::Bot(grail_engine::agent::AgentKind::Random)
    );
    // Play on to the end, always taking the first move.
    let mut out = Vec::new();
    let input = "1\n".repeat(200);
    play::play(&mut resumed, &mut input.as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("Resumed after"), "{out}");
    assert!(out.contains("Game over ("), "{out}");
    // The finished save verifies.
    let file = read_replay(&save).unwrap();
    let mut sink = Vec::new();
    replay::replay(game.as_ref(), &file, &replay_args(&save, true), &mut sink).unwrap();
}

#[test]
fn bots_only_games_print_every_move_and_the_final_table() {
    let dir = scratch("bots");
    let save = dir.join("bots.ron");
    let game = toy();
    let args = play_args(&["toy", "--seed", "3", "--save", save.to_str().unwrap()]);
    let mut session = play::start(game.as_ref(), &args).unwrap();
    for p in &mut session.table {
        *p = Player::Bot(grail_engine::agent::AgentKind::Greedy);
    }
    let mut out = Vec::new();
    play::play(&mut session, &mut "".as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let moves = out
        .lines()
        .filter(|l| l.starts_with("P1 (greedy): "))
        .count();
    assert!(moves > 3, "{out}");
    assert!(out.contains("  seat  player    score"), "{out}");
    assert!(
        out.contains("winner") || out.contains("shared win"),
        "{out}"
    );
}

#[test]
fn end_of_input_saves_and_stops() {
    let dir = scratch("eof");
    let save = dir.join("eof.ron");
    let game = toy();
    let args = play_args(&["toy", "--seed", "3", "--save", save.to_str().unwrap()]);
    let mut session = play::start(game.as_ref(), &args).unwrap();
    let mut out = Vec::new();
    play::play(&mut session, &mut "".as_bytes(), &mut out).unwrap();
    assert!(read_replay(&save).is_ok());
}

#[test]
fn bad_replay_files_are_errors_with_their_path() {
    let dir = scratch("bad");
    let path = dir.join("bad.ron");
    std::fs::write(
        &path,
        "(game: \"toy\",\n players: 2,\n seed: 1,\n steps: [Move(\"draw\")],\n)",
    )
    .unwrap();
    let Err(CliError::Failure {
        code: "bad-replay",
        message,
    }) = read_replay(&path)
    else {
        panic!("accepted")
    };
    assert!(
        message.starts_with(&format!("{}:4:", path.display())),
        "{message}"
    );
    std::fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
    assert!(read_replay(&path).is_err());
    assert!(read_replay(&dir.join("missing.ron")).is_err());
}

#[test]
fn a_failing_script_is_reported_and_exits_1() {
    let dir = scratch("script");
    let path = dir.join("script.ron");
    std::fs::write(
        &path,
        "(\n    game: \"toy\",\n    players: 2,\n    seed: 1,\n    steps: [\n        Play(\"draw\"),\n        Expect(\"score P1\", \"99\"),\n    ],\n)\n",
    )
    .unwrap();
    let file = read_replay(&path).unwrap();
    let mut out = Vec::new();
    let result = replay::replay(toy().as_ref(), &file, &replay_args(&path, false), &mut out);
    let Err(error) = result else {
        panic!("the script passed")
    };
    assert_eq!(error.exit_code(), 1);
    assert!(
        error
            .to_text()
            .starts_with(&format!("error[replay-failed]: {}:", path.display())),
        "{}",
        error.to_text()
    );
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("   1. P1 draw"), "{out}");
}

/// `grail replay --rerecord`: a stale digest is rewritten in place, the rest of the file
/// byte for byte as written; a script that fails otherwise is refused and left unchanged.
#[test]
fn rerecord_rewrites_stale_digests_and_refuses_a_failing_script() {
    let dir = scratch("rerecord");
    let path = dir.join("script.ron");
    let script = |digest: &str, score: &str| {
        format!(
            "// kept as written\n(\n    game: \"toy\", players: 2,\n    seed: 1,\n    steps: [\n        \
             Move(\"draw\", \"{digest}\"), // the first move\n        Expect(\"score P1\", \"{score}\"),\n    ],\n)\n"
        )
    };
    let game = toy();
    let mut m = game
        .new_match(grail_engine::game::Setup::new(2, 1))
        .unwrap();
    let digest = m.play_text("draw").unwrap().digest;
    let score = m.inspect("score P1").unwrap();
    let args = replay::ReplayArgs {
        rerecord: true,
        ..replay_args(&path, false)
    };
    let run = |out: &mut Vec<u8>| {
        let file = read_replay(&path).unwrap();
        replay::rerecord(game.as_ref(), &path, &file, &args, out)
    };

    std::fs::write(&path, script("0badd1ge", &score)).unwrap();
    let mut out = Vec::new();
    run(&mut out).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        script(&digest, &score)
    );
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("{}: re-recorded 1 digest\n", path.display())
    );
    let mut out = Vec::new();
    run(&mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().ends_with("unchanged\n"));

    let failing = script("0badd1ge", "99");
    std::fs::write(&path, &failing).unwrap();
    let error = run(&mut Vec::new()).unwrap_err();
    assert_eq!(error.exit_code(), 1);
    assert!(
        error.to_text().starts_with(&format!(
            "error[replay-failed]: {}:7:9: step 2",
            path.display()
        )),
        "{}",
        error.to_text()
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), failing);
}

#[test]
fn rerecord_takes_several_files_and_more_files_only_with_it() {
    let Command::Replay(args) = parse(&["replay", "--rerecord", "a.ron", "b.ron", "c.ron"]) else {
        unreachable!()
    };
    assert_eq!(args.file, PathBuf::from("a.ron"));
    assert_eq!(args.more, [PathBuf::from("b.ron"), PathBuf::from("c.ron")]);
    assert!(Cli::try_parse_from(["grail", "replay", "a.ron", "b.ron"]).is_err());
}

#[test]
fn an_old_whole_ron_save_resumes_and_is_rewritten_as_an_appended_save() {
    let dir = scratch("old-save");
    let save = dir.join("old.ron");
    let game = toy();
    // A save as earlier versions wrote it: the whole replay, rewritten after every move.
    let args = play_args(&["toy", "--players", "2", "--seed", "3"]);
    let mut m = play::start(game.as_ref(), &args).unwrap().m;
    for _ in 0..3 {
        m.bot_move(grail_engine::agent::AgentKind::Greedy).unwrap();
    }
    let agents = Some(vec!["greedy".to_string(), "greedy".to_string()]);
    std::fs::write(&save, m.to_replay(agents).to_ron()).unwrap();

    let file = read_replay(&save).unwrap();
    let args = play_args(&["--resume", save.to_str().unwrap()]);
    let mut session = play::resume(game.as_ref(), &args, &save, &file).unwrap();
    assert_eq!(session.m.history().len(), 3);
    let mut out = Vec::new();
    play::play(&mut session, &mut "".as_bytes(), &mut out).unwrap();
    let text = std::fs::read_to_string(&save).unwrap();
    assert_eq!(
        text.lines().nth(1),
        Some(grail_engine::replay::SAVE_MARKER),
        "{text}"
    );
    let file = read_replay(&save).unwrap();
    replay::replay(
        game.as_ref(),
        &file,
        &replay_args(&save, true),
        &mut Vec::new(),
    )
    .unwrap();
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no stray files"
    );
}

/// Input that runs `hook` when it is first read: something done to the save while the
/// human thinks.
struct Hooked<'a> {
    data: &'a [u8],
    hook: Option<Box<dyn FnOnce() + 'a>>,
}

impl std::io::Read for Hooked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::io::BufRead;
        let n = self.fill_buf()?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl std::io::BufRead for Hooked<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if let Some(hook) = self.hook.take() {
            hook();
        }
        Ok(self.data)
    }
    fn consume(&mut self, n: usize) {
        self.data = &self.data[n..];
    }
}

/// Issue 27: "When the save's folder or file is removed mid-game, the game still ends with
/// 'Saved. Continue with: grail play --resume …' and no file exists."
#[test]
fn quitting_says_saved_only_when_the_save_is_there() {
    let dir = scratch("save-gone");
    let game = toy();
    let start = |seed: &str, save: &std::path::Path| {
        let args = play_args(&[
            "toy",
            "--players",
            "2",
            "--seed",
            seed,
            "--seat",
            "1",
            "--save",
            save.to_str().unwrap(),
        ]);
        play::start(game.as_ref(), &args).unwrap()
    };
    // The folder removed while the human thinks: written anew with every move.
    let folder = dir.join("removed");
    let save = folder.join("game.ron");
    let mut session = start("7", &save);
    let mut input = Hooked {
        data: b"1\nquit\n",
        hook: Some(Box::new(|| std::fs::remove_dir_all(&folder).unwrap())),
    };
    let mut out = Vec::new();
    play::play(&mut session, &mut input, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains(&format!(
            "Saved. Continue with: grail play --resume {}",
            save.display()
        )),
        "{out}"
    );
    let file = read_replay(&save).unwrap();
    assert_eq!(file.replay.steps.len(), session.m.history().len());
    assert!(!session.m.history().is_empty());

    // The folder replaced by a file: the save cannot be written, and quitting says so.
    let folder = dir.join("replaced");
    let save = folder.join("game.ron");
    let mut session = start("8", &save);
    let mut input = Hooked {
        data: b"1\nquit\n",
        hook: Some(Box::new(|| {
            std::fs::remove_dir_all(&folder).unwrap();
            std::fs::write(&folder, "not a folder").unwrap();
        })),
    };
    let mut out = Vec::new();
    let err = play::play(&mut session, &mut input, &mut out).unwrap_err();
    let out = String::from_utf8(out).unwrap();
    assert!(!out.contains("Saved."), "{out}");
    match err {
        CliError::Failure { code, message } => {
            assert_eq!(code, "cannot-write");
            assert!(
                message.starts_with(&format!(
                    "the game is NOT saved: cannot save to {}",
                    save.display()
                )),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read_to_string(&folder).unwrap(), "not a folder");
}
