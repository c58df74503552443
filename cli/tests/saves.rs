//! Saves and recorded replays through the real binary: a killed or interrupted `grail play`
//! leaves a save that resumes and verifies, from any folder; no save is overwritten by
//! another game; a replay recorded from a pack given by a relative path names it absolutely.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grail-saves-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn grail(cwd: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grail"));
    command
        .current_dir(cwd)
        .env_remove("GRAIL_CONTENT")
        .env("XDG_DATA_HOME", cwd.join("data"))
        .stdin(Stdio::null());
    command
}

fn run(cwd: &Path, args: &[&str]) -> Output {
    grail(cwd).args(args).output().expect("grail runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A copy of the bundled King Arthur pack in `dir/name`, with `edit` applied to pack.toml.
fn pack_copy(dir: &Path, name: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let pack = dir.join(name);
    std::fs::create_dir_all(&pack).unwrap();
    for entry in std::fs::read_dir(repo().join("content/king-arthur")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let text = std::fs::read_to_string(&path).unwrap();
            let file = path.file_name().unwrap();
            let text = if file == "pack.toml" {
                edit(&text)
            } else {
                text
            };
            std::fs::write(pack.join(file), text).unwrap();
        }
    }
    pack
}

/// A game that cannot end before its turn limit: nobody ever draws a knight.
fn long_pack(dir: &Path) -> PathBuf {
    pack_copy(dir, "longpack", |t| {
        t.replace("knight_draw = 1", "knight_draw = 0")
            .replace("rest_draw = 2", "rest_draw = 0")
            .replace("turn_limit = 500", "turn_limit = 100000")
    })
}

/// Starts a bots-only game of the long pack (given by a relative path) in `dir`, and waits
/// until its save holds `moves` moves.
fn start_long_game(dir: &Path, moves: usize) -> (Child, PathBuf) {
    long_pack(dir);
    let save = dir.join("long.ron");
    let child = grail(dir)
        .args([
            "play",
            "./longpack",
            "--players",
            "2",
            "--seed",
            "9",
            "--save",
            "long.ron",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_lines(&save, moves + 10);
    (child, save)
}

fn lines(save: &Path) -> usize {
    std::fs::read_to_string(save).map_or(0, |t| t.lines().count())
}

fn wait_for_lines(save: &Path, lines_wanted: usize) {
    let start = Instant::now();
    while lines(save) < lines_wanted {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the save does not grow"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Every file in `dir` (not in sub-folders), by name.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The save replays (every digest), resumes from another folder to the end, and then
/// verifies as a finished game, with and without `--pack` (the save names its pack folder by
/// its absolute path).
fn resumes_and_verifies(save: &Path) {
    let elsewhere = repo();
    let pack = save.with_file_name("longpack");
    let pack = pack.to_str().unwrap();
    let save = save.to_str().unwrap();
    let o = run(&elsewhere, &["replay", save, "--pack", pack]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = run(&elsewhere, &["replay", save]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = run(&elsewhere, &["play", "--resume", save]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("Resumed after"),
        "{}",
        text(&o.stdout)
    );
    let o = run(&elsewhere, &["replay", "--verify", save, "--pack", pack]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).starts_with("verified "));
}

#[test]
fn a_killed_game_leaves_a_save_that_resumes_from_another_folder_and_verifies() {
    let dir = scratch("kill");
    let (mut child, save) = start_long_game(&dir, 300);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(files(&dir), vec!["long.ron"], "no stray files");
    // Resumed, from another folder, and killed again: the save is cut after its last whole
    // move and appended to; it stays whole.
    let before = lines(&save);
    let mut child = grail(&repo())
        .args(["play", "--resume", save.to_str().unwrap()])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&save, before + 200);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(files(&dir), vec!["long.ron"], "no stray files");
    resumes_and_verifies(&save);
    assert_eq!(files(&dir), vec!["long.ron"]);
}

#[cfg(unix)]
#[test]
fn ctrl_c_says_how_to_resume_and_leaves_a_save_that_verifies() {
    let dir = scratch("interrupt");
    let (child, save) = start_long_game(&dir, 300);
    // SAFETY: signals our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130));
    assert!(
        text(&o.stderr).contains(&format!(
            "the game is saved. Continue with: grail play --resume {}\n",
            save.display()
        )),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(files(&dir), vec!["long.ron"], "no stray files");
    resumes_and_verifies(&save);
}

#[test]
fn a_long_game_is_saved_in_time_linear_in_its_moves() {
    // 100,000 turns by two bots: the save grows by one line a move. Rewriting it after
    // every move took minutes; appending takes about what the game itself takes.
    let dir = scratch("long");
    long_pack(&dir);
    let started = Instant::now();
    let o = run(
        &dir,
        &[
            "play",
            "./longpack",
            "--players",
            "2",
            "--seed",
            "1",
            "--save",
            "long.ron",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("Game over (turn-limit) after 100000 turns."));
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    let o = run(
        &dir,
        &["replay", "--verify", "long.ron", "--pack", "longpack"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

#[test]
fn a_new_game_never_overwrites_a_save() {
    let dir = scratch("clobber");
    let saves = dir.join("data/grail/saves");
    let o = run(
        &dir,
        &["play", "king-arthur", "--players", "2", "--seed", "4"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let first = std::fs::read_to_string(saves.join("king-arthur-4.ron")).unwrap();
    // The same seed again: a new name, the first save untouched.
    let o = run(
        &dir,
        &["play", "king-arthur", "--players", "2", "--seed", "4"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("king-arthur-4-2.ron"),
        "{}",
        text(&o.stdout)
    );
    assert_eq!(
        files(&saves),
        vec!["king-arthur-4-2.ron", "king-arthur-4.ron"]
    );
    assert_eq!(
        std::fs::read_to_string(saves.join("king-arthur-4.ron")).unwrap(),
        first
    );
}

#[test]
fn save_refuses_a_file_that_is_not_this_games_save_unless_forced() {
    let dir = scratch("refuse");
    std::fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    let play = |seed: &str, file: &str, force: bool| {
        let mut args = vec!["play", "king-arthur", "--players", "2", "--seed", seed];
        args.extend(["--save", file]);
        if force {
            args.push("--force");
        }
        run(&dir, &args)
    };
    // Not a save at all.
    let o = play("4", "notes.txt", false);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("notes.txt exists and is not a saved game"),
        "{}",
        text(&o.stderr)
    );
    assert!(text(&o.stderr).contains("--force"));
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "my notes\n"
    );
    // A save of this game: a finished one, then another game and the same game anew.
    assert_eq!(play("4", "game.ron", false).status.code(), Some(0));
    let saved = std::fs::read_to_string(dir.join("game.ron")).unwrap();
    let o = play("5", "game.ron", false);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("holds another game (king-arthur for 2 players, seed 4)"),
        "{}",
        text(&o.stderr)
    );
    let o = play("4", "game.ron", false);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("moves of this game that would be lost"),
        "{}",
        text(&o.stderr)
    );
    assert!(text(&o.stderr).contains("--resume"));
    assert_eq!(
        std::fs::read_to_string(dir.join("game.ron")).unwrap(),
        saved
    );
    // Its own save is continued, here: nothing left to play.
    let o = run(
        &dir,
        &["play", "--resume", "game.ron", "--save", "game.ron"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // --force overwrites.
    let o = play("4", "notes.txt", true);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = run(&dir, &["replay", "--verify", "notes.txt"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(files(&dir), vec!["game.ron", "notes.txt"]);
}

#[test]
fn recorded_replays_name_a_pack_given_by_a_relative_path_absolutely() {
    let dir = scratch("record");
    pack_copy(&dir, "mypack", str::to_string);
    let o = run(
        &dir,
        &[
            "sim",
            "./mypack",
            "--games",
            "2",
            "--players",
            "2",
            "--record",
            "rec",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let replay = dir.join("rec/mypack-2p-000001.ron");
    let recorded = std::fs::read_to_string(&replay).unwrap();
    let absolute = std::fs::canonicalize(dir.join("mypack")).unwrap();
    assert!(
        recorded.contains(&format!("game: {:?},", absolute.to_str().unwrap())),
        "{recorded}"
    );
    let o = run(
        &repo(),
        &[
            "replay",
            "--verify",
            replay.to_str().unwrap(),
            "--pack",
            absolute.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // From another folder, without --pack: the recorded folder is found by its path.
    let o = run(&repo(), &["replay", "--verify", replay.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));

    // A bundled game's folder given by path is recorded by its id (the bundled games are
    // those of `--content` here; by default they are built in and have no folder).
    let o = run(
        &repo(),
        &[
            "--content",
            "content",
            "sim",
            "content/king-arthur",
            "--games",
            "1",
            "--players",
            "2",
            "--record",
            dir.join("bundled").to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let recorded = std::fs::read_to_string(dir.join("bundled/king-arthur-2p-000000.ron")).unwrap();
    assert!(recorded.contains("game: \"king-arthur\","), "{recorded}");
}
