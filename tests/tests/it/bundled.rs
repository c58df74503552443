//! The bundled content: every pack lints clean, and the King Arthur pack says what the rule
//! text (R1) and the reference data say.

use std::path::Path;

use grail_schema::{Disk, Loader, MemoryFiles, Pack, discover};
use grail_tests::content_dir;

fn load(game: &str, variant: Option<&str>) -> Pack {
    let content = content_dir();
    let loaded = Loader::new(&Disk)
        .with_content(&content)
        .with_rules(grail_rules::catalog())
        .load_game(game, variant);
    let text = grail_cli::render::to_string(&loaded.sources, &loaded.diagnostics);
    loaded
        .pack
        .unwrap_or_else(|| panic!("{game} {variant:?} does not load:\n{text}"))
}

#[test]
fn every_bundled_pack_and_variant_lints_clean() {
    let games = discover(&Disk, &content_dir());
    assert!(games.iter().any(|g| g.id == "king-arthur"), "{games:?}");
    for game in &games {
        let folder = game.path.parent().expect("a pack file has a folder");
        let roots = std::iter::once(folder.to_path_buf())
            .chain(game.variants.iter().map(|v| v.path.clone()));
        for root in roots {
            let loaded = grail_tests::lint(&root, &[]);
            let text = grail_cli::render::to_string(&loaded.sources, &loaded.diagnostics);
            assert!(loaded.diagnostics.is_empty(), "{}:\n{text}", root.display());
        }
    }
}

#[test]
fn discovery_lists_games_variants_and_player_counts() {
    let games = discover(&Disk, &content_dir());
    let ka = games
        .iter()
        .find(|g| g.id == "king-arthur")
        .expect("king-arthur");
    assert_eq!(ka.players, Some((2, 5)), "R1: 2 – 5 players");
    let variants: Vec<_> = ka
        .variants
        .iter()
        .map(|v| (v.id.as_str(), v.players))
        .collect();
    assert_eq!(variants, [("seals", Some((2, 5)))]);
}

/// Counts per attribute value of a set, with copies.
fn count_by(pack: &Pack, set: &str, attr: &str) -> Vec<(String, u32)> {
    let set = pack.set(set).expect("set");
    let mut out: Vec<(String, u32)> = Vec::new();
    for (i, card) in set.cards.iter().enumerate() {
        let key = set
            .symbol(i, attr)
            .map(str::to_owned)
            .or_else(|| set.int(i, attr).map(|v| v.to_string()))
            .expect("every card has the attribute");
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += u32::from(card.copies),
            None => out.push((key, u32::from(card.copies))),
        }
    }
    out
}

fn owned(pairs: &[(&str, u32)]) -> Vec<(String, u32)> {
    pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
}

#[test]
fn king_arthur_cards_match_the_rule_text() {
    let pack = load("king-arthur", None);
    // R1 Contents: "53 knight cards in four colors (2 double and 14 single cards in each of
    // 3 colors and 5 Merlin/white cards)".
    assert_eq!(pack.set("knights").unwrap().total(), 53);
    assert_eq!(
        count_by(&pack, "knights", "suit"),
        owned(&[("orange", 16), ("red", 16), ("beige", 16), ("merlin", 5)])
    );
    assert_eq!(
        count_by(&pack, "knights", "strength"),
        owned(&[("1", 47), ("2", 6)])
    );
    // "44 adversary cards in four kinds (13 dark powers, 11 enemy knights, 11 monsters, and
    // 9 dragons)".
    assert_eq!(
        count_by(&pack, "adversaries", "kind"),
        owned(&[
            ("dark-power", 13),
            ("enemy-knight", 11),
            ("monster", 11),
            ("dragon", 9)
        ])
    );
    let adversaries = pack.set("adversaries").unwrap();
    assert_eq!(adversaries.cards.len(), 15);
    // Reference Block 1: dark powers at most 3, a 5 only in red, and exactly one red 5.
    for (i, card) in adversaries.cards.iter().enumerate() {
        let value = adversaries.int(i, "value").unwrap();
        match adversaries.symbol(i, "color").unwrap() {
            "yellow" => assert!(value <= 3, "{}", card.id),
            "red" if value == 5 => assert_eq!(card.copies, 1),
            _ => assert!(value <= 4, "{}", card.id),
        }
    }
    // "13 adventure cards (with different conditions and values from 6 to 20)"; Holy Grail 20.
    let adventures = pack.set("adventures").unwrap();
    assert_eq!(adventures.total(), 13);
    let points: Vec<i64> = adventures.cards.iter().map(|c| c.points.unwrap()).collect();
    assert_eq!(points.iter().min(), Some(&6));
    assert_eq!(points.iter().max(), Some(&20));
    assert_eq!(adventures.card("holy-grail").unwrap().1.points, Some(20));
    assert!(adventures.cards.iter().all(|c| c.condition.is_some()));
    // "25 seals in five colors".
    assert_eq!(count_by(&pack, "seals", "color").len(), 5);
    assert_eq!(pack.set("seals").unwrap().total(), 25);
}

/// A hand of adversaries by card id, as counts over the adversary types.
fn hand(pack: &Pack, ids: &[&str]) -> Vec<u8> {
    let set = pack.set("adversaries").unwrap();
    let mut counts = vec![0u8; set.cards.len()];
    for id in ids {
        counts[set.card(id).unwrap_or_else(|| panic!("{id}")).0] += 1;
    }
    counts
}

fn meets(pack: &Pack, adventure: &str, ids: &[&str]) -> bool {
    let (_, card) = pack.set("adventures").unwrap().card(adventure).unwrap();
    card.condition
        .as_ref()
        .unwrap()
        .program
        .test(&hand(pack, ids), &[])
}

#[test]
fn adventure_conditions_say_what_r1_says() {
    let pack = load("king-arthur", None);
    // The R1 turn example: a value 4 dragon and a value 3 enemy knight buy the Green Knight.
    assert!(meets(&pack, "green-knight", &["red-4", "blue-3"]));
    assert!(!meets(&pack, "green-knight", &["red-3", "blue-3"]));
    // "any number of red adversary cards with a total worth of 8 points"
    assert!(meets(&pack, "questing-beast", &["red-4", "red-4"]));
    assert!(!meets(&pack, "questing-beast", &["red-4", "blue-4"]));
    // "one each of green, blue, and yellow"
    assert!(meets(
        &pack,
        "king-mark",
        &["green-1", "blue-1", "yellow-1"]
    ));
    assert!(!meets(
        &pack,
        "king-mark",
        &["green-1", "green-2", "yellow-1"]
    ));
    // "one of each kind"
    assert!(meets(
        &pack,
        "sea-monster",
        &["yellow-1", "blue-1", "green-1", "red-2"]
    ));
    assert!(!meets(
        &pack,
        "sea-monster",
        &["yellow-1", "blue-1", "green-1", "green-2"]
    ));
    // "either ... any two value 3 or more ... or the red value 5 adversary card"
    assert!(meets(&pack, "gold-treasure", &["red-5"]));
    assert!(meets(&pack, "gold-treasure", &["yellow-3", "green-4"]));
    assert!(!meets(&pack, "gold-treasure", &["red-4", "yellow-2"]));
    // "any two adversary cards"
    assert!(meets(
        &pack,
        "battle-vs-the-robbers",
        &["yellow-1", "yellow-1"]
    ));
    assert!(!meets(&pack, "battle-vs-the-robbers", &["red-5"]));
    // "a total worth of 12 points"
    assert!(meets(&pack, "holy-grail", &["red-5", "red-4", "blue-3"]));
    assert!(!meets(&pack, "holy-grail", &["red-5", "red-4", "blue-2"]));
}

#[test]
fn challenge_follows_r1() {
    let pack = load("king-arthur", None);
    let knights = pack.set("knights").unwrap();
    let challenge = pack.condition("challenge").unwrap();
    assert_eq!(challenge.args, ["power"]);
    let hand = |ids: &[&str]| {
        let mut counts = vec![0u8; knights.cards.len()];
        for id in ids {
            counts[knights.card(id).unwrap().0] += 1;
        }
        counts
    };
    // "plays knight cards of one color ... as many knights as the power"; Merlins join any colour.
    assert!(
        challenge
            .program
            .test(&hand(&["red-1", "red-1", "merlin"]), &[3])
    );
    assert!(
        !challenge
            .program
            .test(&hand(&["red-1", "orange-1", "merlin"]), &[3])
    );
    assert!(!challenge.program.test(&hand(&["red-1", "red-1"]), &[3]));
    // Merlins alone; doubles count two; overpaying with doubles is allowed (R1).
    assert!(challenge.program.test(&hand(&["merlin", "merlin"]), &[2]));
    assert!(challenge.program.test(&hand(&["beige-2", "beige-2"]), &[3]));
    let cost = pack.condition("hand_score").unwrap();
    let advs = pack.set("adversaries").unwrap();
    let mut counts = vec![0u8; advs.cards.len()];
    counts[advs.card("red-5").unwrap().0] = 1;
    counts[advs.card("blue-3").unwrap().0] = 2;
    assert_eq!(cost.program.value(&counts, &[]), 11);
}

#[test]
fn the_seal_variant_changes_only_the_seals() {
    let base = load("king-arthur", None);
    let seals = load("king-arthur", Some("seals"));
    assert_eq!(base.int("seals_per_player").unwrap(), 0);
    assert_eq!(seals.int("seals_per_player").unwrap(), 5);
    assert_eq!(seals.lineage, ["king-arthur", "seals"]);
    assert_eq!(seals.rules, "rulebook", "inherited");
    assert_eq!(seals.players, (2, 5), "inherited");
    assert_ne!(base.hash(), seals.hash());
    // Everything else is the base's.
    assert_eq!(
        base.int("hand_size").unwrap(),
        seals.int("hand_size").unwrap()
    );
    assert_eq!(
        base.flag("challenge_overpay").unwrap(),
        seals.flag("challenge_overpay").unwrap()
    );
    assert_eq!(base.sets.len(), seals.sets.len());
}

#[test]
fn typed_params_report_missing_and_wrong_type() {
    let pack = load("king-arthur", None);
    assert_eq!(pack.int("hand_size").unwrap(), 4);
    assert!(pack.flag("challenge_overpay").unwrap());
    assert_eq!(pack.text("column_attribute").unwrap(), "color");
    let wrong = pack.flag("hand_size").unwrap_err();
    assert_eq!(wrong.code, "param-type");
    let label = wrong.primary().unwrap();
    assert_eq!(
        &pack.sources().get(label.source).text[label.span.clone()],
        "4"
    );
    let missing = pack.int("hand_sise").unwrap_err();
    assert_eq!(missing.code, "missing-param");
    assert_eq!(
        missing.help.as_deref(),
        Some("is `hand_size` meant to be `hand_sise`?")
    );
}

/// The bundled pack's files, in memory, with `edit` applied to each file's text.
fn pack_in_memory(edit: impl Fn(&str) -> String) -> MemoryFiles {
    let folder = content_dir().join("king-arthur");
    let mut files = MemoryFiles::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            files.insert(Path::new("ka").join(path.file_name().unwrap()), edit(&text));
        }
    }
    files
}

fn hash_of(files: &MemoryFiles) -> String {
    let loaded = Loader::new(files).load(Path::new("ka"));
    let text = grail_cli::render::to_string(&loaded.sources, &loaded.diagnostics);
    loaded
        .pack
        .unwrap_or_else(|| panic!("{text}"))
        .hash()
        .to_owned()
}

#[test]
fn content_hash_ignores_comments_and_layout_but_not_content() {
    let original = hash_of(&pack_in_memory(str::to_owned));
    assert!(
        original.starts_with("sha256:") && original.len() == 7 + 16,
        "{original}"
    );
    assert_eq!(original, load("king-arthur", None).hash());
    // Comments dropped, blank lines and a comment added after every table header.
    let no_comments = pack_in_memory(|t| {
        t.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .map(|l| match l.starts_with('[') {
                true => format!("{l}\n\n# a new comment\n"),
                false => format!("{l}\n"),
            })
            .collect()
    });
    assert_eq!(hash_of(&no_comments), original);
    let changed = pack_in_memory(|t| {
        t.replace("copies = 14", "copies = 13")
            .replace("total = 53", "total = 50")
    });
    assert_ne!(hash_of(&changed), original);
}

#[test]
fn unknown_games_and_variants_get_suggestions() {
    let loader = Loader::new(&Disk).with_content(content_dir());
    let game = loader.load_game("king-artur", None);
    assert_eq!(game.diagnostics[0].code, "unknown-game");
    assert_eq!(
        game.diagnostics[0].help.as_deref(),
        Some("did you mean `king-arthur`?")
    );
    let variant = loader.load_game("king-arthur", Some("seal"));
    assert_eq!(variant.diagnostics[0].code, "unknown-variant");
    assert_eq!(
        variant.diagnostics[0].message,
        "`king-arthur` has no variant `seal`"
    );
    assert_eq!(
        variant.diagnostics[0].help.as_deref(),
        Some("did you mean `seals`?")
    );
    assert!(game.pack.is_none() && variant.pack.is_none());
}
