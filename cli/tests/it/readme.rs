//! The README tells the truth (issue 16): every `grail …` line of its code blocks runs as
//! written, from the repository root, and succeeds; every example of its exit-code table
//! exits as the table says; its table of games gives the player counts `grail list` gives.
//!
//! Examples run through `sh` with the built `grail` first on the path and `$HOME` a fresh
//! folder, so an example that writes (`~/games`, `~/arthur.ron`) writes there.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).unwrap()
}

/// `$PATH` with the built `grail` first.
fn path_with_grail() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_grail")).parent().unwrap();
    std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap()
}

/// Runs one command line as a user would type it, in a shell whose home is `home`.
fn shell(line: &str, home: &Path) -> Output {
    let path = path_with_grail();
    Command::new("sh")
        .args(["-c", line])
        .current_dir(repo())
        .env("PATH", path)
        .env("HOME", home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("GRAIL_CONTENT")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn fresh_home(name: &str) -> PathBuf {
    let home = std::env::temp_dir().join(format!("grail-readme-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    home
}

/// The `grail …` lines of the README's code blocks, in order, without their comments.
fn examples(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        let command = line.split(" #").next().unwrap_or_default().trim();
        if in_block && command.starts_with("grail ") {
            lines.push(command.to_string());
        }
    }
    lines
}

#[test]
fn every_readme_example_runs_as_written() {
    let examples = examples(&readme());
    assert!(examples.len() >= 5, "{examples:?}");
    // One home for all, in order: a later example may use what an earlier one wrote.
    let home = fresh_home("examples");
    for line in &examples {
        if line.starts_with("grail serve") {
            serves(line, &home);
            continue;
        }
        let out = shell(line, &home);
        assert_eq!(
            out.status.code(),
            Some(0),
            "`{line}` failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A line that starts the web server runs until Ctrl-C: it must print where it serves, then
/// stop cleanly when interrupted.
fn serves(line: &str, home: &Path) {
    use std::io::BufRead;
    let path = path_with_grail();
    let mut child = Command::new("sh")
        .args(["-c", &format!("exec {line}")])
        .current_dir(repo())
        .env("PATH", path)
        .env("HOME", home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(
        first.contains("http://127.0.0.1:"),
        "`{line}` printed {first:?}"
    );
    #[cfg(unix)]
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    assert_eq!(
        child.wait().unwrap().code(),
        Some(0),
        "`{line}` stops on Ctrl-C"
    );
}

/// The rows of the README's table headed `| exit |`: the exit code and the example
/// commands (in backticks) of its last column.
fn exit_table(text: &str) -> Vec<(i32, Vec<String>)> {
    text.lines()
        .skip_while(|l| !l.starts_with("| exit |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split(" | ").collect();
            let code = cells[0].trim().parse().unwrap();
            let commands = cells[cells.len() - 1]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
            (code, commands)
        })
        .collect()
}

#[test]
fn the_exit_code_table_is_what_the_binary_does() {
    let table = exit_table(&readme());
    let codes: Vec<i32> = table.iter().map(|(code, _)| *code).collect();
    assert_eq!(codes, [0, 1, 2]);
    let home = fresh_home("exit");
    for (code, commands) in table {
        assert!(!commands.is_empty(), "exit {code} has no example");
        for line in commands {
            let out = shell(&line, &home);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(code), "`{line}`:\n{stderr}");
            if code != 0 && !line.starts_with("grail lint") {
                assert!(stderr.starts_with("error["), "`{line}`:\n{stderr}");
            }
        }
    }
}

#[test]
fn the_games_table_gives_the_player_counts_grail_list_gives() {
    let listed = String::from_utf8(shell("grail list", &fresh_home("list")).stdout).unwrap();
    let text = readme();
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("| game |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(rows.len(), 4, "{rows:?}");
    for row in rows {
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        let id = cells[1].trim_matches('`');
        let players = cells[3].split(' ').next().unwrap();
        let line = listed
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("`{id}` is not in grail list:\n{listed}"));
        assert!(
            line.contains(&format!(" {players} players")),
            "README says {id} is for {players} players; grail list: {line}"
        );
    }
}
