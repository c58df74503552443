//! `grail cards GAME [CARD]` as users run it, `info <card>` in `grail play`, and every
//! condition of the bundled packs in words.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use grail_cli::cards::{card_text, find};
use grail_cli::content::Content;
use grail_cli::games::load_pack;
use grail_cli::games::open_game;
use grail_cli::play::{self, PlayArgs};
use grail_engine::cond::words::describe;
use grail_schema::{Disk, Pack, discover};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn content() -> PathBuf {
    repo().join("content")
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

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_card_shows_its_text_and_its_condition_in_words() {
    // Issue 16: "`grail cards king-arthur holy-grail` shows the card's text".
    let o = grail(&["cards", "king-arthur", "holy-grail"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "text: For this adventure, a player must play any number and color of adversary \
             cards with a total worth of 12 points."
        ),
        "{out}"
    );
    assert!(out.contains("condition: sum(*) >= 12"), "{out}");
    assert!(
        out.contains("in words: cards worth 12 or more in total (over: Adversary cards)"),
        "{out}"
    );
    insta::assert_snapshot!("holy_grail", out);
}

#[test]
fn a_card_is_found_by_its_name_in_any_case_and_in_a_variant() {
    let by_name = grail(&["cards", "king-arthur", "holy grail"]);
    assert_eq!(
        stdout(&by_name),
        stdout(&grail(&["cards", "king-arthur", "holy-grail"]))
    );
    let o = grail(&["cards", "king-arthur", "gold treasure"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("gold_treasure", stdout(&o));
    let seals = grail(&["cards", "king-arthur", "holy-grail", "--variant", "seals"]);
    assert_eq!(seals.status.code(), Some(0), "{}", stderr(&seals));
}

#[test]
fn situational_values_are_listed_with_their_condition_in_words() {
    let o = grail(&["cards", "quests", "sir-tristan"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("sir_tristan", stdout(&o));
}

#[test]
fn an_unknown_card_exits_1_with_a_suggestion() {
    let o = grail(&["cards", "king-arthur", "holy-grial"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("king-arthur has no card `holy-grial`; did you mean `holy-grail`?"),
        "{}",
        stderr(&o)
    );
    let o = grail(&["cards", "king-arthur", "dragon"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("did you mean `red-2`, `red-3`"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).starts_with("error[unknown-card]:"),
        "{}",
        stderr(&o)
    );
    // An unknown game is a usage error, as for every command.
    let o = grail(&["cards", "no-such-game"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error[unknown-game]:"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn without_a_card_every_set_is_a_table() {
    let o = grail(&["cards", "king-arthur"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("king_arthur_tables", stdout(&o));
    // A product set lists no cards of its own; it says what it combines.
    let artus = stdout(&grail(&["cards", "artus"]));
    assert!(
        artus.contains("(situations): one card from each of: plates, seats"),
        "{artus}"
    );
    // A pack folder reads the same as the bundled id.
    let folder = grail(&["cards", "content/king-arthur"]);
    assert_eq!(stdout(&folder), stdout(&o));
}

#[test]
fn json_gives_the_same_card_as_data() {
    let o = grail(&["cards", "king-arthur", "pilgrimage", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "no such card");
    let o = grail(&["cards", "king-arthur", "red-5", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let card = &v["cards"][0];
    assert_eq!(card["set"], "adversaries");
    assert_eq!(card["copies"], 1);
    assert_eq!(card["attributes"]["color"], "red");
    assert_eq!(card["attributes"]["value"], 5);

    let o = grail(&["cards", "king-arthur", "holy-grail", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let card = &v["cards"][0];
    assert_eq!(card["points"], 20);
    assert_eq!(card["condition"]["text"], "sum(*) >= 12");
    assert_eq!(
        card["condition"]["words"],
        "cards worth 12 or more in total"
    );
    assert!(card["text"].as_str().unwrap().contains("total worth of 12"));

    let o = grail(&["cards", "king-arthur", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let adversaries = v["sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "adversaries")
        .unwrap();
    assert_eq!(adversaries["legend"]["color"]["red"], "dragons");

    let o = grail(&["cards", "virtues", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let total: u64 = v["sets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["id"] == "virtues")
        .map(|s| s["total"].as_u64().unwrap())
        .sum();
    assert!(total > 0, "{v}");
}

#[test]
fn info_in_the_terminal_game_shows_a_cards_printed_data() {
    let content = Content::folder(content());
    let game = open_game(&content, "king-arthur", None).unwrap();
    let dir = std::env::temp_dir().join(format!("grail-cards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let args = PlayArgs {
        game: Some("king-arthur".into()),
        variant: None,
        players: Some(2),
        seat: Some(1),
        bots: Vec::new(),
        seed: Some(3),
        save: Some(dir.join("game.ron")),
        force: false,
        resume: None,
        ignore_content_hash: false,
    };
    let mut session = play::start(game.as_ref(), &args).unwrap();
    let pack = load_pack(&content, "king-arthur", None).unwrap();
    session.pack = Some(pack.clone());
    let input = "help\ninfo Holy Grail\ninfo red-5\ninfo holy-grial\ninfo\nquit\n";
    let mut out = Vec::new();
    play::play(&mut session, &mut input.as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("info CARD"),
        "the help names the command: {out}"
    );
    // Exactly the card's printed data, as `grail cards` shows it: nothing about where any
    // copy is, so nothing hidden.
    for id in ["holy-grail", "red-5"] {
        let (set, card) = find(&pack, id).unwrap()[0];
        // As printed, wrapped to the screen's 80 columns.
        let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat(&out).contains(&flat(&card_text(&pack, set, card))),
            "{id}: {out}"
        );
    }
    assert!(out.contains("did you mean `holy-grail`?"), "{out}");
    assert!(out.contains("Which card?"), "{out}");
    assert!(out.contains("Saved."), "the game goes on after info: {out}");

    // Without a pack the command says so instead of failing.
    session.pack = None;
    let mut out = Vec::new();
    play::play(&mut session, &mut "info red-5\nquit\n".as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("No card information for this game."), "{out}");
}

/// Every condition of one pack, keyed by the sets it ranges over and its text, in words.
fn conditions_in_words(pack: &Pack, into: &mut BTreeMap<(String, String), String>) {
    let names = |sets: &[&str]| -> Vec<String> {
        sets.iter()
            .filter_map(|id| pack.set(id).ok())
            .flat_map(|s| s.cards.iter().map(|c| c.name.clone()))
            .collect()
    };
    let mut add = |sets: &[&str], text: &str| {
        let universe = match sets {
            [one] => pack.set(one).unwrap().universe().clone(),
            _ => pack.universe(sets).unwrap(),
        };
        let names = names(sets);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let words = describe(text, &universe, &names).expect("a bundled condition parses");
        into.insert((sets.join("+"), text.to_string()), words);
    };
    for set in &pack.sets {
        for card in &set.cards {
            if let Some(c) = &card.condition {
                add(&[set.condition_over.as_deref().unwrap()], &c.text);
            }
            let over: Vec<&str> = set.when_over.iter().map(String::as_str).collect();
            for o in &card.overrides {
                add(&over, &o.when.text);
            }
        }
    }
    for c in &pack.conditions {
        let over: Vec<&str> = c.over.iter().map(String::as_str).collect();
        add(&over, &c.expr);
    }
}

#[test]
fn every_bundled_condition_in_words() {
    let content = content();
    let mut all = BTreeMap::new();
    let folder = Content::folder(content.clone());
    for game in discover(&Disk, &content) {
        let variants =
            std::iter::once(None).chain(game.variants.iter().map(|v| Some(v.id.clone())));
        for variant in variants {
            let pack = load_pack(&folder, &game.id, variant.as_deref()).unwrap();
            conditions_in_words(&pack, &mut all);
        }
    }
    assert!(all.len() > 30, "{all:?}");
    let text: String = all
        .iter()
        .map(|((over, text), words)| format!("[{over}] {text}\n    {words}\n"))
        .collect();
    insta::assert_snapshot!("bundled_conditions_in_words", text);
}
