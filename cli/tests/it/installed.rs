//! `grail` as installed: a copy of the binary in a folder of its own, run from a folder
//! outside the source tree with a fresh home and no `GRAIL_CONTENT`, must still list, lint,
//! play and simulate the bundled games (they are built in); and the modding guide's
//! commands work there as written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A scratch folder holding a copy of the binary (`bin/grail`), a home (`home/`) and a
/// working directory (`work/`).
struct Sandbox {
    root: PathBuf,
}

impl Sandbox {
    fn new(name: &str) -> Self {
        let root =
            std::env::temp_dir().join(format!("grail-installed-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["bin", "home", "work"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::copy(env!("CARGO_BIN_EXE_grail"), root.join("bin/grail")).unwrap();
        Sandbox { root }
    }

    fn work(&self) -> PathBuf {
        self.root.join("work")
    }

    fn grail(&self, args: &[&str]) -> Output {
        let run = || {
            Command::new(self.root.join("bin/grail"))
                .args(args)
                .current_dir(self.work())
                .env_clear()
                .env("HOME", self.root.join("home"))
                .stdin(Stdio::null())
                .output()
        };
        // A test thread that forks while another is still writing its copy of the binary
        // holds that file open for a moment ("text file busy"): try again.
        for _ in 0..50 {
            match run() {
                Err(e) if e.raw_os_error() == Some(26) => {
                    std::thread::sleep(std::time::Duration::from_millis(20))
                }
                done => return done.expect("grail runs"),
            }
        }
        run().expect("grail runs")
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn ok(o: &Output, what: &str) -> String {
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{what}\nstdout:\n{out}\nstderr:\n{err}"
    );
    out
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, target).unwrap();
        }
    }
}

const GAMES: [&str; 4] = ["artus", "king-arthur", "quests", "virtues"];

#[test]
fn an_installed_grail_lists_lints_plays_and_simulates_every_bundled_game() {
    let sandbox = Sandbox::new("bundled");
    let list = ok(&sandbox.grail(&["list"]), "grail list");
    for game in GAMES {
        assert!(list.lines().any(|l| l.starts_with(game)), "{game}:\n{list}");
    }
    let lint = ok(&sandbox.grail(&["lint"]), "grail lint");
    for game in GAMES {
        assert!(
            lint.contains(&format!("ok: <bundled>/{game} ({game}, sha256:")),
            "{lint}"
        );
    }
    assert!(
        lint.ends_with("8 packs checked: no errors, no warnings\n"),
        "{lint}"
    );
    for game in GAMES {
        // No terminal: bots play every seat to the end.
        let play = ok(&sandbox.grail(&["play", game, "--seed", "3"]), game);
        assert!(play.contains("Game over"), "{game}:\n{play}");
        let sim = ok(&sandbox.grail(&["sim", game, "--games", "5"]), game);
        assert!(sim.starts_with(&format!("{game}: 5 games")), "{sim}");
    }
}

#[test]
fn a_named_content_folder_that_is_not_there_is_an_error_naming_it() {
    let sandbox = Sandbox::new("missing");
    for command in ["list", "lint", "play"] {
        let mut args = vec![command, "--content", "no-such-folder"];
        if command == "play" {
            args.push("king-arthur");
        }
        let o = sandbox.grail(&args);
        assert_eq!(o.status.code(), Some(1), "{command}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("`no-such-folder` (from --content)"), "{err}");
    }
}

#[test]
fn packs_in_the_users_data_folder_are_listed_and_open_by_folder_name() {
    let sandbox = Sandbox::new("user");
    let packs = sandbox.root.join("home/.local/share/grail/packs");
    copy_folder(
        &repo().join("docs/examples/round-table-rush"),
        &packs.join("rush"),
    );
    let list = ok(&sandbox.grail(&["list"]), "grail list");
    assert!(list.contains("your packs, in "), "{list}");
    assert!(list.lines().any(|l| l.starts_with("rush ")), "{list}");
    let lint = ok(&sandbox.grail(&["lint"]), "grail lint");
    assert!(
        lint.ends_with("9 packs checked: no errors, no warnings\n"),
        "{lint}"
    );
    let sim = ok(&sandbox.grail(&["sim", "rush", "--games", "3"]), "sim rush");
    assert!(sim.contains("packs/rush: 3 games"), "{sim}");
    // The same name here too: the user's pack is taken, and the note says so.
    copy_folder(
        &repo().join("docs/examples/round-table-rush"),
        &sandbox.work().join("rush"),
    );
    let o = sandbox.grail(&["sim", "rush", "--games", "3"]);
    ok(&o, "sim rush, twice");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("`rush` is taken to be the pack folder")
            && err.contains("./rush is also there"),
        "{err}"
    );
}

/// The fenced blocks of a Markdown text with the given language tag.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match &mut current {
            None if line.trim_start() == format!("```{lang}") => current = Some(String::new()),
            Some(_) if line.trim_start() == "```" => out.push(current.take().unwrap_or_default()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    out
}

/// Every `grail` command in the modding guide's `sh` blocks, run as written in a folder
/// holding the tutorial's `my-rush` (the example pack) and the guide's `docs/examples`, with
/// only `--games 10000` made smaller. `> FILE` writes the output to that file.
#[test]
fn the_modding_guide_commands_work_as_written() {
    let sandbox = Sandbox::new("modding");
    copy_folder(
        &repo().join("docs/examples/round-table-rush"),
        &sandbox.work().join("my-rush"),
    );
    copy_folder(
        &repo().join("docs/examples"),
        &sandbox.work().join("docs/examples"),
    );
    let guide = std::fs::read_to_string(repo().join("docs/modding.md")).unwrap();
    let commands: Vec<String> = blocks(&guide, "sh")
        .iter()
        .flat_map(|b| b.lines().map(str::to_owned).collect::<Vec<_>>())
        .filter(|l| l.starts_with("grail "))
        .collect();
    assert!(commands.len() >= 4, "{commands:?}");
    for command in &commands {
        // A `# …` after the command is a comment, as in a shell.
        let command = command
            .split_once(" #")
            .map_or(command.as_str(), |(c, _)| c);
        let (command, into) = match command.split_once(" > ") {
            Some((c, file)) => (c, Some(file.trim())),
            None => (command, None),
        };
        let command = command.replace("--games 10000", "--games 10");
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let out = ok(&sandbox.grail(&args), &command);
        if let Some(file) = into {
            serde_json::from_str::<serde_json::Value>(&out).unwrap_or_else(|e| panic!("{e}"));
            std::fs::write(sandbox.work().join(file), out).unwrap();
        }
    }
    // The output the guide shows for `grail lint my-rush` is what it prints.
    let lint = ok(&sandbox.grail(&["lint", "my-rush"]), "lint my-rush");
    let shown = blocks(&guide, "text")
        .into_iter()
        .find(|b| b.starts_with("ok: my-rush "))
        .expect("the guide shows the output of `grail lint my-rush`");
    let (before, after) = shown.split_once('…').expect("the hash is left out");
    assert!(
        lint.starts_with(before) && lint.ends_with(after),
        "{lint}\nvs\n{shown}"
    );
}
