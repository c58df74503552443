//! A hostile game description in the user's pack folder (issue 27): an expression nested
//! thousands of levels deep aborted the process (a stack overflow) in a bare `grail lint`,
//! so no pack was checked. Now it is one pack's error, and every other pack is checked.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

#[test]
fn a_hostile_user_pack_does_not_stop_the_others_from_being_checked() {
    let home = std::env::temp_dir().join(format!("grail-hostile-rulebooks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let packs = home.join("grail/packs");
    copy_dir(
        &repo().join("tests/lint/rulebook-hostile-expressions"),
        &packs.join("deep"),
    );
    copy_dir(
        &repo().join("docs/examples/five-trails"),
        &packs.join("fine"),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_grail"))
        .arg("lint")
        .current_dir(repo())
        .env_remove("GRAIL_CONTENT")
        .env("XDG_DATA_HOME", &home)
        .output()
        .expect("grail runs");
    let _ = std::fs::remove_dir_all(&home);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error[expression-too-deep]"), "{text}");
    assert!(text.contains("ok: <bundled>/artus "), "{text}");
    assert!(text.contains("ok: <bundled>/king-arthur "), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("ok: ") && l.contains("five-trails")),
        "{text}"
    );
}
