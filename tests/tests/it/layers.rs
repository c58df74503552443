//! The rulebook interpreter's files import downward: syntax → model → state → compile → eval
//! → the mechanics and the run → the `Rulebook` in `mod.rs`. A file that imports a file which
//! (through others) imports it back closes a circle, and then no layer can be read, changed or
//! tested without the others; this test names the circle.
//!
//! Imports are read as text (`use super::x::…`, `super::x::Name`, `crate::rulebook::x`), as a
//! reader follows them; a file's test module is left out, since tests may reach anywhere.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn rulebook_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/src/rulebook")
}

/// Each file's module path (`compile`, `compile::exprs`, `eval`) and its source without tests.
fn files(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            files(&path, &format!("{prefix}{stem}::"), out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let name = match (prefix, stem.as_str()) {
            ("", "mod") => continue, // the `Rulebook` itself, above every file
            (p, "mod") => p.trim_end_matches("::").to_string(),
            (p, s) => format!("{p}{s}"),
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
        out.insert(name, code);
    }
}

/// The sibling modules `code` (of module `me`) names.
fn imports(me: &str, code: &str, known: &BTreeMap<String, String>) -> Vec<String> {
    let parent = me.rsplit_once("::").map_or("", |(p, _)| p);
    let mut out = Vec::new();
    let mut add = |name: String| {
        if name != me && known.contains_key(&name) && !out.contains(&name) {
            out.push(name);
        }
    };
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .collect();
    for w in words {
        let parts: Vec<&str> = w.split("::").collect();
        for (i, p) in parts.iter().enumerate() {
            let rest = || parts.get(i + 1).map(|s| s.to_string());
            if *p == "rulebook" && i > 0 && parts[i - 1] == "crate" {
                if let Some(m) = rest() {
                    add(m.clone());
                    if let Some(sub) = parts.get(i + 2) {
                        add(format!("{m}::{sub}"));
                    }
                }
            } else if *p == "super" && (i == 0 || parts[i - 1] != "super") {
                let supers = parts[i..].iter().take_while(|s| **s == "super").count();
                let Some(m) = parts.get(i + supers) else {
                    continue;
                };
                let base = match (parent, supers) {
                    ("", 1) | (_, 2) => String::new(),
                    (p, 1) => format!("{p}::"),
                    _ => continue,
                };
                add(format!("{base}{m}"));
            }
        }
    }
    // A grouped import: `use super::{a, b::X}` names `a` and `b`.
    for group in code.split("use super::{").skip(1) {
        let body = group.split("};").next().unwrap_or("");
        for item in body.split(',') {
            let head = item.trim().split("::").next().unwrap_or("").trim();
            let base = if parent.is_empty() {
                String::new()
            } else {
                format!("{parent}::")
            };
            add(format!("{base}{head}"));
        }
    }
    out
}

/// A circle of imports, as the files that make it, if there is one.
fn circle(graph: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        n: &str,
        graph: &BTreeMap<String, Vec<String>>,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(n.to_string(), Mark::Open);
        path.push(n.to_string());
        for m in &graph[n] {
            match marks[m.as_str()] {
                Mark::Open => {
                    let at = path.iter().position(|p| p == m).unwrap();
                    let mut found = path[at..].to_vec();
                    found.push(m.clone());
                    return Some(found);
                }
                Mark::New => {
                    if let Some(c) = visit(m, graph, marks, path) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        path.pop();
        marks.insert(n.to_string(), Mark::Done);
        None
    }
    let mut marks: BTreeMap<String, Mark> = graph.keys().map(|k| (k.clone(), Mark::New)).collect();
    for n in graph.keys() {
        if marks[n.as_str()] == Mark::New
            && let Some(c) = visit(n, graph, &mut marks, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

fn graph() -> BTreeMap<String, Vec<String>> {
    let mut sources = BTreeMap::new();
    files(&rulebook_dir(), "", &mut sources);
    sources
        .iter()
        .map(|(me, code)| (me.clone(), imports(me, code, &sources)))
        .collect()
}

#[test]
fn the_rulebook_files_import_downward_without_a_circle() {
    let graph = graph();
    assert!(graph.len() > 30, "the rulebook's files were not found");
    if let Some(c) = circle(&graph) {
        panic!(
            "a circle of imports among rules/src/rulebook's files: {}",
            c.join(" -> ")
        );
    }
}

#[test]
fn the_lowest_layers_import_nothing_above_them() {
    let graph = graph();
    let below = |file: &str, allowed: &[&str]| {
        for m in &graph[file] {
            assert!(
                allowed.contains(&m.as_str()),
                "{file}.rs imports {m}, a layer above it (it may import only {allowed:?})"
            );
        }
    };
    below("syntax", &[]);
    below("fault", &[]);
    below("model", &["syntax"]);
    below("paid", &[]);
    below("args", &[]);
    below("reads", &["model", "syntax"]);
    below("state", &["model", "args", "paid", "fault", "syntax"]);
    below("memo", &["state"]);
    below(
        "eval",
        &["model", "args", "state", "syntax", "fault", "memo"],
    );
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), vec!["b".to_string()]);
    g.insert("b".to_string(), vec!["c".to_string()]);
    g.insert("c".to_string(), vec!["a".to_string()]);
    assert_eq!(circle(&g).map(|c| c.len()), Some(4));
    g.insert("c".to_string(), vec![]);
    assert_eq!(circle(&g), None);
}

#[test]
fn no_rulebook_file_is_over_900_lines() {
    let mut sources = BTreeMap::new();
    files(&rulebook_dir(), "", &mut sources);
    let mut long = Vec::new();
    let mut walk = vec![rulebook_dir()];
    while let Some(dir) = walk.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let lines = std::fs::read_to_string(&path).unwrap().lines().count();
                if lines > 900 {
                    long.push(format!("{} ({lines} lines)", path.display()));
                }
            }
        }
    }
    assert!(long.is_empty(), "split by concern: {long:?}");
}
