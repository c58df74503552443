//! The `grail` binary as users run it: output, and the exit-code contract
//! (0 success, 1 the input was wrong, 2 usage error).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn grail(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grail"))
        .args(args)
        .current_dir(repo())
        .env_remove("GRAIL_CONTENT")
        .output()
        .expect("grail runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn lint_of_bundled_content_succeeds() {
    let o = grail(&["lint"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(" packs checked: no errors, no warnings"),
        "{}",
        stdout(&o)
    );
}

/// A copy of the bundled King Arthur pack in a fresh folder, with `file` edited.
fn broken_pack(name: &str, file: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grail-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(repo().join("content/king-arthur")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap();
            let text = if name == file { edit(&text) } else { text };
            std::fs::write(dir.join(name), text).unwrap();
        }
    }
    dir
}

#[test]
fn lint_errors_exit_1_and_render_without_colour_when_piped() {
    let pack = broken_pack("total", "knights.toml", |t| {
        t.replace("total = 53", "total = 52")
    });
    let o = grail(&["lint", pack.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.starts_with("error[total-mismatch]: set `knights` declares 52 cards but lists 53"),
        "{out}"
    );
    assert!(out.contains("knights.toml:7:9"), "{out}");
    assert!(
        out.ends_with("1 pack checked: 1 error, no warnings\n"),
        "{out}"
    );
    assert!(
        !out.contains('\x1b'),
        "no colour codes when not on a terminal"
    );
    std::fs::remove_dir_all(pack).unwrap();
}

#[test]
fn lint_json_has_the_documented_shape() {
    let pack = broken_pack("key", "pack.toml", |t| {
        t.replace("hand_size = 4", "hand_sise = 4")
    });
    let o = grail(&[
        "lint",
        "--format",
        "json",
        pack.to_str().unwrap(),
        "content/king-arthur",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(doc["version"], 1);
    // The description reads `$hand_size`, which the pack no longer declares.
    assert_eq!(doc["errors"], 1, "the param the description reads");
    assert_eq!(doc["warnings"], 0);
    let diagnostics = doc["diagnostics"].as_array().unwrap();
    let d = diagnostics
        .iter()
        .find(|d| d["code"] == "unknown-param")
        .unwrap();
    assert_eq!(d["severity"], "error");
    assert_eq!(d["code"], "unknown-param");
    assert!(d["file"].as_str().unwrap().ends_with("rulebook.toml"));
    let line = 1 + std::fs::read_to_string(pack.join("rulebook.toml"))
        .unwrap()
        .lines()
        .position(|l| l.starts_with("deal $hand_size"))
        .unwrap();
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(line as u64), Some(6))
    );
    assert_eq!(
        (d["end_line"].as_u64(), d["end_column"].as_u64()),
        (Some(line as u64), Some(16))
    );
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .ends_with("did you mean `hand_sise`?"),
        "{d}"
    );
    assert_eq!(d["labels"][0]["primary"], true);
    assert!(d["notes"].is_array());
    let packs = doc["packs"].as_array().unwrap();
    assert_eq!(packs.len(), 2);
    assert_eq!(packs[1]["id"], "king-arthur");
    assert!(packs[1]["hash"].as_str().unwrap().starts_with("sha256:"));
    assert!(packs[0]["hash"].is_null());
    std::fs::remove_dir_all(pack).unwrap();
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(grail(&["lint", "--format", "xml"]).status.code(), Some(2));
    assert_eq!(grail(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(grail(&[]).status.code(), Some(2));
    assert_eq!(grail(&["--help"]).status.code(), Some(0));
}

#[test]
fn list_shows_games_variants_and_players() {
    let o = grail(&["list"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("king-arthur") && out.contains("2–5 players"),
        "{out}"
    );
    assert!(
        out.contains("seals") && out.contains("--variant seals"),
        "{out}"
    );
}

#[test]
fn content_dir_from_flag_or_environment() {
    let empty = std::env::temp_dir().join("grail-no-content");
    std::fs::create_dir_all(&empty).unwrap();
    // No packs of the user's either.
    let o = Command::new(env!("CARGO_BIN_EXE_grail"))
        .args(["list", "--content", empty.to_str().unwrap()])
        .env_remove("GRAIL_CONTENT")
        .env("XDG_DATA_HOME", &empty)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "no games there");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.starts_with("error[no-games]: no games found in ")
            && stderr.contains(empty.to_str().unwrap()),
        "{stderr}"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_grail"))
        .arg("list")
        .env("GRAIL_CONTENT", &empty)
        .env("XDG_DATA_HOME", &empty)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "no games there either");
}

#[test]
fn schema_prints_the_committed_schema() {
    let o = grail(&["schema"]);
    assert_eq!(o.status.code(), Some(0));
    let committed = std::fs::read_to_string(repo().join("schema/json/pack.schema.json")).unwrap();
    assert_eq!(stdout(&o), committed);
}

/// Issue 27: "`grail lint .` (also `./`, `./pack.toml`) refuses every include as
/// `path-escapes-pack`, while `grail sim .` works; linting the working folder by its absolute
/// path prints `ok:` with an empty path".
#[test]
fn lint_takes_the_working_folder_by_any_name() {
    let pack = broken_pack("here", "", str::to_string);
    let absolute = pack.canonicalize().unwrap();
    let absolute = absolute.to_str().unwrap();
    let slashed = format!("{absolute}/");
    for (name, shown) in [
        (".", "."),
        ("./", "."),
        ("./pack.toml", "pack.toml"),
        ("pack.toml", "pack.toml"),
        (absolute, "."),
        (slashed.as_str(), "."),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_grail"))
            .args(["lint", name])
            .current_dir(&pack)
            .env_remove("GRAIL_CONTENT")
            .output()
            .unwrap();
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "grail lint {name}:\n{out}");
        assert!(
            out.starts_with(&format!("ok: {shown} (king-arthur, sha256:")),
            "grail lint {name}:\n{out}"
        );
        // The JSON names the pack the same way.
        let o = Command::new(env!("CARGO_BIN_EXE_grail"))
            .args(["lint", name, "--format", "json"])
            .current_dir(&pack)
            .env_remove("GRAIL_CONTENT")
            .output()
            .unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            doc["packs"][0]["path"], shown,
            "grail lint {name} --format json"
        );
        assert_eq!(doc["errors"], 0, "grail lint {name} --format json");
    }
    // A sub-folder's pack by a relative path is named as given.
    let parent = pack.parent().unwrap();
    let folder = pack.file_name().unwrap().to_str().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_grail"))
        .args(["lint", &format!("./{folder}")])
        .current_dir(parent)
        .env_remove("GRAIL_CONTENT")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).starts_with(&format!("ok: {folder} (")),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&pack).unwrap();
}
