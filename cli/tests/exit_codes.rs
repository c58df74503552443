//! The exit-code contract, through the real binary: 0 success, 1 bad input, 2 usage error,
//! and no panics on bad input.

use std::process::{Command, Output};

fn grail(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grail"))
        .args(args)
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
        vec!["replay", unknown.to_str().unwrap(), "--verify"],
        vec!["sim", "no-such-game"],
        vec!["play", "no-such-game"],
        vec!["play", "--resume", "/no/such/save.ron"],
    ] {
        let out = grail(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
