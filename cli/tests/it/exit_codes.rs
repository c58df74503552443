//! The exit-code contract, through the real binary: 0 success, 1 a failure, 2 a usage
//! error; every error is one `error[code]:` line first, and no panics on bad input.

use std::process::{Command, Output};

fn grail(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grail"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env(
            "XDG_DATA_HOME",
            std::env::temp_dir().join("grail-exit-codes"),
        )
        .output()
        .unwrap()
}

fn code(args: &[&str]) -> i32 {
    let out = grail(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    out.status.code().unwrap()
}

/// Runs `args`, checks the exit code and that stderr begins `error[code]:` (once).
fn fails_with(args: &[&str], exit: i32, code: &str) {
    let out = grail(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(exit), "{args:?}: {stderr}");
    assert!(
        stderr.starts_with(&format!("error[{code}]: ")),
        "{args:?}: {stderr}"
    );
    assert_eq!(stderr.matches("error").count(), 1, "{args:?}: {stderr}");
}

/// Issue 16: an unknown game, variant or agent, or a player count out of range, is a usage
/// error like any other, with a code that says so and a did-you-mean.
#[test]
fn unknown_names_and_counts_out_of_range_are_usage_errors() {
    fails_with(&["sim", "kng-arthur"], 2, "unknown-game");
    fails_with(&["play", "no-such-game"], 2, "unknown-game");
    fails_with(
        &["sim", "king-arthur", "--variant", "sels"],
        2,
        "unknown-variant",
    );
    fails_with(
        &["sim", "king-arthur", "--agents", "gredy"],
        2,
        "unknown-agent",
    );
    fails_with(
        &["play", "king-arthur", "--bots", "grredy"],
        2,
        "unknown-agent",
    );
    fails_with(
        &["sim", "king-arthur", "--agents", "ismcts:lots"],
        2,
        "unknown-agent",
    );
    fails_with(
        &["sim", "king-arthur", "--players", "9"],
        2,
        "players-out-of-range",
    );
    fails_with(
        &["play", "king-arthur", "--players", "1"],
        2,
        "players-out-of-range",
    );
    fails_with(&["sim", "king-arthur", "--games", "0"], 2, "invalid-value");
    fails_with(&["frobnicate"], 2, "unknown-command");
    fails_with(&["lint", "--frobnicate"], 2, "unknown-flag");
    fails_with(&["sim"], 2, "missing-argument");
    for (args, near) in [
        (["sim", "kng-arthur", "--games", "1"], "king-arthur"),
        (["sim", "king-arthur", "--variant", "sels"], "seals"),
    ] {
        let stderr = String::from_utf8_lossy(&grail(&args).stderr).into_owned();
        assert!(
            stderr.contains(&format!("did you mean `{near}`?")),
            "{stderr}"
        );
    }
    // Agents are clap's possible values: listed, and the nearest suggested.
    let stderr = grail(&["sim", "king-arthur", "--agents", "random,gredy"]).stderr;
    let stderr = String::from_utf8_lossy(&stderr);
    assert!(
        stderr.contains("[possible values: random, greedy, ismcts]"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a similar value exists: 'greedy'"),
        "{stderr}"
    );
}

/// Issue 16: "`schema --out` errors name no path".
#[test]
fn io_errors_name_their_path() {
    let dir = std::env::temp_dir().join(format!("grail-exit-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let inside = file.join("schemas");
    let out = grail(&["schema", "--out", inside.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("error[cannot-write]: "), "{stderr}");
    assert!(stderr.contains(inside.to_str().unwrap()), "{stderr}");
}

/// Issue 16: "`lint ... | head` prints \"Broken pipe\"": a reader that goes away ends the
/// command quietly, with success (or with 1 for findings it had printed before).
#[test]
fn a_closed_pipe_ends_quietly() {
    for (args, exits) in [
        (&["lint", "tests/lint/unknown-set"][..], &[0, 1][..]),
        (&["lint", "--format", "json"], &[0]),
        (&["list"], &[0]),
        (&["schema"], &[0]),
        (&["completions", "bash"], &[0]),
        (
            &["sim", "king-arthur", "--games", "2", "--format", "csv"],
            &[0],
        ),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grail"))
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Closed before the command writes anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            exits.contains(&out.status.code().unwrap()),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr, "", "{args:?}");
    }
}

#[test]
fn completions_print_a_script() {
    let out = grail(&["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0));
    let script = String::from_utf8_lossy(&out.stdout);
    assert!(script.contains("complete -F _grail"), "{script}");
    assert!(script.contains("--variant"), "{script}");
    assert_eq!(code(&["completions", "tcsh"]), 2);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&[]), 2);
    assert_eq!(code(&["frobnicate"]), 2);
    assert_eq!(code(&["sim"]), 2);
    assert_eq!(code(&["sim", "g", "--games", "many"]), 2);
    assert_eq!(code(&["sim", "g", "--agents", "oracle"]), 2);
    assert_eq!(code(&["replay"]), 2);
    assert_eq!(code(&["play", "g", "--resume", "f.ron"]), 2);
}

#[test]
fn help_and_version_exit_0() {
    assert_eq!(code(&["--help"]), 0);
    assert_eq!(code(&["sim", "--help"]), 0);
    assert_eq!(code(&["--version"]), 0);
}

#[test]
fn bad_input_exits_1_with_a_message() {
    let dir = std::env::temp_dir().join(format!("grail-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.ron");
    std::fs::write(&garbage, b"(game: \"x\", steps: [[[[[[").unwrap();
    let binary = dir.join("binary.ron");
    std::fs::write(&binary, [0u8, 159, 146, 150, 255]).unwrap();
    let unknown = dir.join("unknown.ron");
    std::fs::write(
        &unknown,
        "(game: \"no-such-game\", players: 2, seed: 1, steps: [])",
    )
    .unwrap();
    for args in [
        vec!["replay", "/no/such/file.ron"],
        vec!["replay", garbage.to_str().unwrap()],
        vec!["replay", binary.to_str().unwrap()],
        // A file naming an unknown game is bad input, not a bad command line.
        vec!["replay", unknown.to_str().unwrap(), "--verify"],
        vec!["replay", "tests/lint/unknown-set/pack.toml"],
        vec!["play", "--resume", "/no/such/save.ron"],
        vec!["sim", "tests/lint/unknown-set"],
    ] {
        let out = grail(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error["), "{args:?}: {stderr}");
        assert!(!stderr.contains("error: error"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
