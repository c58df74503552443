//! The modding guide shows real files and real output: every pack snippet in it stands in
//! the example pack, the lint output it shows is what `grail lint` prints, every example
//! condition parses and checks, and the example variant lints clean and plays.

use std::path::{Path, PathBuf};

use codespan_reporting::term::termcolor::NoColor;
use grail_engine::agent::AgentKind;
use grail_engine::cond;
use grail_engine::game::Setup;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn guide() -> String {
    std::fs::read_to_string(repo("docs/modding.md")).unwrap()
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

fn lint_output(path: &str) -> String {
    // Paths print relative to the repository root, as a user there would see them (the
    // working directory is left alone: the other tests of this binary read paths from it).
    let root = grail_schema::files::normalize(&repo("."));
    let reports = grail_cli::lint::lint(&[root.join(path)], &grail_tests::content());
    let mut out = NoColor::new(Vec::new());
    grail_cli::lint::print(&reports, grail_cli::lint::Format::Text, &mut out).unwrap();
    String::from_utf8(out.into_inner())
        .unwrap()
        .replace(&format!("{}/", root.display()), "")
}

#[test]
fn every_pack_snippet_is_in_the_example_pack() {
    let mut files = vec![
        repo("docs/examples/round-table-rush/pack.toml"),
        repo("docs/examples/artus-five/pack.toml"),
        repo("docs/examples/restful-knights/pack.toml"),
    ];
    for game in ["king-arthur", "artus"] {
        for entry in std::fs::read_dir(grail_tests::content_dir().join(game)).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    let texts: Vec<String> = files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .collect();
    let snippets = blocks(&guide(), "toml");
    assert!(
        snippets.len() >= 4,
        "the tutorial shows the pack in parts and whole"
    );
    for snippet in snippets {
        assert!(
            texts.iter().any(|t| t.contains(&snippet)),
            "not in an example pack or the bundled King Arthur or Artus pack:\n{snippet}"
        );
    }
}

#[test]
fn shown_lint_output_is_what_lint_prints() {
    let shown = blocks(&guide(), "text");
    let broken = shown
        .iter()
        .find(|b| b.starts_with("$ grail lint docs/examples/broken-rush"))
        .expect("the broken example");
    let expected = broken
        .split_once('\n')
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    assert_eq!(lint_output("docs/examples/broken-rush"), expected);
    let clean = lint_output("docs/examples/round-table-rush");
    assert!(
        clean.starts_with("ok: docs/examples/round-table-rush (round-table-rush, sha256:"),
        "{clean}"
    );
    assert!(
        clean.ends_with("1 pack checked: no errors, no warnings\n"),
        "{clean}"
    );
}

#[test]
fn the_example_variant_plays_to_the_end() {
    let game = grail_cli::games::open_game(
        &grail_tests::content(),
        repo("docs/examples/round-table-rush").to_str().unwrap(),
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut m = game.new_match(Setup::new(3, 5)).unwrap();
    // Six-card hands: the changed number is in force.
    assert_eq!(m.inspect("knights P1").unwrap().split(' ').count(), 6);
    while m.to_move().is_some() {
        m.bot_move(AgentKind::Random).unwrap();
        m.check_invariants().unwrap();
    }
    assert!(m.outcome().is_some());
}

/// The five-player Artus mod of the guide lints clean and plays five players to the end.
#[test]
fn the_artus_five_mod_plays_five() {
    let clean = lint_output("docs/examples/artus-five");
    assert!(
        clean.ends_with("1 pack checked: no errors, no warnings\n"),
        "{clean}"
    );
    let game = grail_cli::games::open_game(
        &grail_tests::content(),
        repo("docs/examples/artus-five").to_str().unwrap(),
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut m = game.new_match(Setup::new(5, 3)).unwrap();
    // The house rule: 4 Knights, one the score marker, so 3 to place.
    assert_eq!(m.inspect("phase").unwrap(), "P5 places a Knight (1 of 3)");
    while m.to_move().is_some() {
        m.bot_move(AgentKind::Random).unwrap();
        m.check_invariants().unwrap();
    }
    assert!(m.outcome().is_some());
}

/// Every `code` span in the condition-language tables that is a condition or expression
/// parses, and checks against the bundled King Arthur pack's adversaries or knights.
#[test]
fn every_example_condition_checks() {
    let loaded = grail_tests::lint(&grail_tests::content_dir().join("king-arthur"), &[]);
    let pack = loaded.pack.expect("the bundled pack loads");
    let guide = guide();
    let section = guide.split("## The condition language").nth(1).unwrap();
    let section = section.split("\n## ").next().unwrap();
    let mut checked = 0;
    let mut example_column = false;
    for line in section.lines() {
        if !line.starts_with('|') {
            example_column = false;
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        let last = cells.last().map_or("", |c| c.trim());
        if matches!(last, "example" | "condition") {
            example_column = true;
            continue;
        }
        if !example_column || last.starts_with('-') {
            continue;
        }
        for span in last.split('`').skip(1).step_by(2) {
            let expr = cond::parse(span)
                .unwrap_or_else(|e| panic!("example `{span}` does not parse: {e:?}"));
            let ok = ["adversaries", "knights"].iter().any(|set| {
                let universe = pack.set(set).unwrap().universe().clone();
                let params = cond::Params::default()
                    .constant("challenge_overpay", cond::Type::Bool, 1)
                    .constant("limit", cond::Type::Int, 3)
                    .argument("power", cond::Type::Int);
                cond::check(&expr, &universe, &params).is_ok()
            });
            assert!(
                ok,
                "example `{span}` does not check against the King Arthur cards"
            );
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} examples found");
}
