//! The diagnostic registry (`engine/src/diag/codes.rs`) is complete and current: every code
//! the workspace's sources raise is declared there, every declared code is still raised, the
//! tables in `docs/modding.md` and the README are generated from it, and every pack code
//! has a fixture under `tests/lint/` whose snapshot shows it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use grail_engine::diag::codes::{self, CODES, Group};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The crates whose sources raise diagnostics (integration tests only name codes).
const SOURCE_DIRS: [&str; 4] = ["engine/src", "schema/src", "rules/src", "cli/src"];

/// The calls that take a code, and which argument it is: the `Diagnostic` constructors,
/// the CLI's `failure`/`usage`, and the helpers of the loader and the rulebooks that pass
/// their `code` on to `Diagnostic::error`. A helper with a new name goes here.
const CODE_ARGUMENT: &[(&str, usize)] = &[
    ("Diagnostic::error", 0),
    ("Diagnostic::warning", 0),
    ("error", 0),
    ("warning", 0),
    ("err", 0),
    ("error_at", 0),
    ("failure", 0),
    ("usage", 0),
    ("at", 1),
    ("here", 1),
    ("at_param", 2),
    ("at_param_for_players", 3),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `(file, source text)` of every scanned source but the registry itself.
fn sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in SOURCE_DIRS {
        rust_files(&repo().join(dir), &mut files);
    }
    files.sort();
    files
        .into_iter()
        .filter(|f| !f.ends_with("diag/codes.rs"))
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let name = f.strip_prefix(repo()).unwrap_or(&f).display().to_string();
            (name, text)
        })
        .collect()
}

/// The top-level arguments of the call whose `(` ends `text[..open]`, cut at `)`.
fn arguments(text: &str, open: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    let (mut depth, mut in_string, mut start, mut args) = (0usize, false, open + 1, Vec::new());
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b')' | b']' | b'}' => {
                args.push(text[start..i].trim());
                return args;
            }
            b',' if depth == 0 => {
                args.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    args
}

fn is_code(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Every code raised in `text` by a call of [`CODE_ARGUMENT`] with a literal code.
fn codes_in(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for (name, index) in CODE_ARGUMENT {
        let pattern = format!("{name}(");
        for (at, _) in text.match_indices(&pattern) {
            // A whole name: `error(` but not `is_error(` nor `Diagnostic::error(` twice.
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let args = arguments(text, at + pattern.len() - 1);
            // A code is followed by the message: calls with fewer arguments are other calls.
            if args.len() <= index + 1 {
                continue;
            }
            if let Some(code) = args[*index]
                .strip_prefix('"')
                .and_then(|a| a.strip_suffix('"'))
                .filter(|c| is_code(c))
            {
                found.push(code);
            }
        }
    }
    found
}

#[test]
fn the_scanner_finds_codes_in_each_call_form() {
    let text = r#"
        Diagnostic::error("one-code", format!("x {}", f(a, b)))
        e.at(&card.loc, "two", format!("m"), "here");
        e.at_param(pack, "rounds", "three", msg);
        failure("four", "no")
        is_error("not-a-code", x)
        d.at(source, span, "label")
    "#;
    assert_eq!(codes_in(text), ["one-code", "four", "two", "three"]);
}

#[test]
fn every_code_raised_is_registered() {
    let mut missing = BTreeSet::new();
    for (file, text) in sources() {
        for code in codes_in(&text) {
            if !CODES.iter().any(|c| c.code == code) {
                missing.insert(format!("`{code}` ({file})"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "codes missing from engine/src/diag/codes.rs: {missing:?}"
    );
}

#[test]
fn every_registered_code_is_raised() {
    let sources = sources();
    let unused: Vec<&str> = CODES
        .iter()
        .map(|c| c.code)
        .filter(|code| {
            // Raised by a call the scanner knows, or named as a literal elsewhere (the CLI
            // maps clap's errors to codes in a `match`).
            let literal = format!("\"{code}\"");
            !sources.iter().any(|(_, text)| text.contains(&literal))
        })
        .collect();
    assert!(
        unused.is_empty(),
        "registered but raised nowhere: {unused:?}"
    );
}

#[test]
fn codes_are_declared_once_per_group_in_order() {
    for group in [Group::Pack, Group::Command] {
        let names: Vec<&str> = CODES
            .iter()
            .filter(|c| (c.group == Group::Command) == (group == Group::Command))
            .map(|c| c.code)
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(names, sorted, "sorted by name, each once");
    }
    for c in CODES {
        assert!(is_code(c.code), "`{}` is kebab-case", c.code);
        assert!(
            !c.summary.is_empty() && !c.fix.is_empty(),
            "`{}` is documented",
            c.code
        );
        assert!(
            !c.summary.contains('|') && !c.fix.contains('|') && !c.summary.contains('\n'),
            "`{}` fits a table row",
            c.code
        );
    }
}

/// Checks that `file` holds `table` between the `marker` comments; with
/// `GRAIL_UPDATE_DOCS=1` writes it there instead.
fn check_generated(file: &str, marker: &str, table: &str) {
    let path = repo().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let (start, end) = (
        format!("<!-- {marker}: generated from engine/src/diag/codes.rs -->\n"),
        format!("<!-- {marker} end -->"),
    );
    let from = text
        .find(&start)
        .unwrap_or_else(|| panic!("{file} has no `{start}` line"))
        + start.len();
    let to = from
        + text[from..]
            .find(&end)
            .unwrap_or_else(|| panic!("{file} has no `{end}` line"));
    if text[from..to] == *table {
        return;
    }
    if std::env::var_os("GRAIL_UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{table}{}", &text[..from], &text[to..])).unwrap();
        return;
    }
    panic!(
        "the {marker} table in {file} is stale: rerun this test with GRAIL_UPDATE_DOCS=1, or \
         paste:\n{table}"
    );
}

#[test]
fn the_lint_table_is_generated() {
    check_generated("docs/modding.md", "lint checks", &codes::lint_table());
}

#[test]
fn the_command_line_errors_table_is_generated() {
    check_generated("README.md", "command-line errors", &codes::command_table());
}

/// The tests whose snapshots render lint fixtures (`tests/lint/`): their snapshot files are
/// named `it__<test>__<case>.snap` (the module of the one test binary, then the case).
const FIXTURE_TESTS: [&str; 4] = [
    "it__lint__",
    "it__lint_rulebooks__",
    "it__product_sets__",
    "it__hostile_rulebooks__",
];

#[test]
fn every_pack_code_has_a_fixture() {
    let dir = repo().join("tests/tests/it/snapshots");
    let mut shown = String::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if FIXTURE_TESTS.iter().any(|t| name.starts_with(t)) && name.ends_with(".snap") {
            shown += &std::fs::read_to_string(&path).unwrap();
        }
    }
    let mut missing = Vec::new();
    for c in CODES.iter().filter(|c| c.group != Group::Command) {
        let has = shown.contains(&format!("error[{}]", c.code))
            || shown.contains(&format!("warning[{}]", c.code));
        if !has && c.no_fixture.is_none() {
            missing.push(c.code);
        }
    }
    assert!(
        missing.is_empty(),
        "pack codes no snapshot of tests/lint/ shows (add a fixture folder, or give the \
         registry entry a `no_fixture` reason): {missing:?}"
    );
}
