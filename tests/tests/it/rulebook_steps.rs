//! A step that takes several actions (`repeat`): the player stays at it until it has had
//! them all, and it ends early when nothing more is legal. Played on `tests/packs/ring-places`
//! with `actions_per_turn` raised, in a copy of the pack.

use grail_engine::replay::{ReplayFile, ReplayOptions};

/// `text` written as `pack.toml` in a folder of its own (`name`, and this process), for the
/// test to open by path.
fn pack_at(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grail-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pack.toml"), text).unwrap();
    dir
}

fn pack_with(actions_per_turn: u32) -> std::path::PathBuf {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/ring-places/pack.toml");
    let text = std::fs::read_to_string(src).unwrap();
    let changed = text.replace(
        "actions_per_turn = 1",
        &format!("actions_per_turn = {actions_per_turn}"),
    );
    assert!(
        text.contains("actions_per_turn = 1"),
        "the pack sets actions_per_turn"
    );
    pack_at(&format!("ring-places-{actions_per_turn}"), &changed)
}

fn run(pack: &std::path::Path, script: &str) -> Option<String> {
    let file = ReplayFile::parse(script).unwrap();
    let game = grail_cli::games::open_game(&grail_tests::content(), &pack.to_string_lossy(), None)
        .unwrap();
    let options = ReplayOptions {
        pack_chosen: true,
        ..ReplayOptions::default()
    };
    game.replay(&file, options)
        .failure
        .map(|f| format!("step {}: {}", f.step.unwrap_or(0), f.problem))
}

#[test]
fn a_repeated_step_takes_its_actions_then_passes_the_turn() {
    let pack = pack_with(2);
    let script = r#"(
    game: "ring-places",
    players: 2,
    seed: 1,
    steps: [
        Play("P1: place 5"),
        Play("P1: place 6"),
        Play("P2: place 1"),
        Expect("knight P1", "5 6"),
        Expect("step", "P2 place"),
    ],
)"#;
    assert_eq!(run(&pack, script), None);
    // With one action a turn, P2 moves second.
    let one = pack_with(1);
    let failure = run(&one, script).expect("P1 cannot move twice");
    assert!(failure.contains("P2"), "{failure}");
    let _ = std::fs::remove_dir_all(pack);
    let _ = std::fs::remove_dir_all(one);
}

/// A copy of ring-places whose Knights are placed in a stage before the turns: a round per Knight,
/// from the last seat, counter-clockwise (P3, P2, P1 with one Knight each), then the turns
/// from P1.
#[test]
fn a_stage_before_the_turns_goes_round_its_way_then_the_turns_begin() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/ring-places/pack.toml");
    let text = std::fs::read_to_string(src).unwrap();
    let staged = text.replace(
        "[stages.turn]",
        "[stages.placement]\nsteps = [\"placing\"]\nrounds = \"knights\"\nfirst = \"last\"\norder = \"counter-clockwise\"\n\n[steps.placing]\nactions = [\"place\"]\n\n[stages.turn]",
    );
    // One Knight each with three players, so the placing order shows.
    let staged = staged.replace("3 = 2 }", "3 = 1 }");
    assert_ne!(text, staged);
    let dir = pack_at("ring-staged", &staged);
    let script = r#"(
    game: "ring-places",
    players: 3,
    seed: 1,
    steps: [
        Expect("step", "P3 placing"),
        Illegal("move bronze@7 1", "not offered now"),
        Play("P3: place 1"),
        Play("P2: place 2"),
        Expect("step", "P1 placing"),
        Play("P1: place 6"),
        Expect("knight P1", "6"),
        // The turns begin with P1, who now may move or give a ring (all are placed).
        Expect("step", "P1 place"),
        Play("P1: move bronze@7 1"),
        Expect("step", "over"),
    ],
)"#;
    let failure = run(&dir, script);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(failure, None);
}

/// A stage of 0 rounds for the player count is passed by, not played once: before another
/// stage, that one begins the game; alone, the turns do.
#[test]
fn a_stage_of_no_rounds_is_not_played() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/ring-places/pack.toml");
    let text = std::fs::read_to_string(src).unwrap();
    let warmup = "[stages.warmup]\nsteps = [\"placing\"]\nrounds = 0\n\n";
    let placement = "[stages.placement]\nsteps = [\"placing\"]\nrounds = \"knights\"\nfirst = \"last\"\norder = \"counter-clockwise\"\n\n";
    let step = "[steps.placing]\nactions = [\"place\"]\n\n";
    let cases = [
        // Passed by: the placement begins with the last seat.
        (format!("{warmup}{placement}{step}"), "P3 placing"),
        // Alone: the turns begin with P1.
        (format!("{warmup}{step}"), "P1 place"),
    ];
    for (i, (stages, first)) in cases.iter().enumerate() {
        let staged = text.replace("[stages.turn]", &format!("{stages}[stages.turn]"));
        let staged = staged.replace("3 = 2 }", "3 = 1 }");
        let dir = pack_at(&format!("ring-no-rounds-{i}"), &staged);
        let script = format!(
            r#"(
    game: "ring-places",
    players: 3,
    seed: 1,
    steps: [
        Expect("step", "{first}"),
    ],
)"#
        );
        let failure = run(&dir, &script);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(failure, None, "case {i}");
    }
}

/// A zone per seat with `start = "all"`: every seat has its own copy of the set (its own
/// deck, as each Artus player has the same cards), shuffled seat by seat with
/// `shuffle deck(each)`; conservation counts a copy per seat, and a position takes a seat's
/// cards from that seat's deck.
#[test]
fn every_seat_has_its_own_deck() {
    let pack = OWN_DECKS;
    let dir = pack_at("own-decks", pack);
    let script = r#"(
    game: "own-decks",
    players: 2,
    seed: 4,
    steps: [
        Expect("deck P1 as P2", "3 cards"),
        Expect("deck P2 as P1", "3 cards"),
        Play("draw"), Play("draw"), Play("draw"), Play("draw"), Play("draw"),
        // P1's third draw empties P1's own deck; P2's still holds a card.
        Expect("hand P1 as P1", "one two three"),
        Expect("deck P2 as P2", "1 card"),
        End(reason: "end"),
    ],
)"#;
    let positioned = r#"(
    game: "own-decks",
    players: 2,
    seed: 4,
    position: { "hand P1": ["two"], "hand P2": ["two", "three"] },
    steps: [
        Expect("deck P1 as P1", "2 cards"),
        Expect("deck P2 as P2", "1 card"),
    ],
)"#;
    let twice = r#"(
    game: "own-decks",
    players: 2,
    seed: 4,
    position: { "hand P1": ["two", "two"] },
    steps: [],
)"#;
    let results = [run(&dir, script), run(&dir, positioned), run(&dir, twice)];
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(results[0], None);
    assert_eq!(results[1], None);
    let refused = results[2].clone().expect("a second two is refused");
    assert!(refused.contains("no `two` is left"), "{refused}");
}

const OWN_DECKS: &str = r#"
[pack]
id = "own-decks"
name = "Own decks"
rules = "rulebook"
players = { min = 2, max = 3 }

[sets.cards]
total = 3
[sets.cards.attributes]
value = { min = 1, max = 3 }
[[sets.cards.cards]]
id = "one"
value = 1
[[sets.cards.cards]]
id = "two"
value = 2
[[sets.cards.cards]]
id = "three"
value = 3

[zones.deck]
holds = "cards"
owner = "each"
start = "all"
layout = "stack"
visible = "count"

[zones.hand]
holds = "cards"
owner = "each"
layout = "hand"
visible = "owner"

[setup]
do = "shuffle deck(each)"

[stages.turn]
steps = ["draw"]

[steps.draw]
actions = ["draw"]

[actions.draw]
do = "draw 1 from deck(current) to hand(current)"

[end]
when = "count(deck(current)) = 0"
score = "sum(value, hand(P))"
"#;

/// What a seat may know of per-seat decks: every other seat's unseen cards are re-dealt
/// among that seat's own piles, so each seat still holds exactly one copy of the set.
#[test]
fn an_observation_keeps_each_seat_to_its_own_deck() {
    use grail_engine::game::{NoEvents, Rules, Setup};
    use grail_engine::rng::GameRng;

    let dir = pack_at("own-decks-obs", OWN_DECKS);
    let loaded = grail_schema::Loader::new(&grail_schema::Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let rules = grail_rules::rulebook::compile(&loaded.pack.expect("own-decks loads")).unwrap();
    for seed in 0..20 {
        let mut state = rules.setup(&Setup::new(3, seed)).unwrap();
        let mut out = Vec::new();
        for _ in 0..4 {
            rules.legal_actions(&state, &mut out);
            rules.apply(&mut state, &out[0], &mut NoEvents);
        }
        let view = rules.observe(&state, 0, &mut GameRng::new(seed));
        for p in 1..=3 {
            let mut cards: Vec<String> = rules
                .zones(&view)
                .into_iter()
                .filter(|(name, _)| name.ends_with(&format!(" P{p}")))
                .flat_map(|(_, ids)| ids)
                .collect();
            cards.sort();
            assert_eq!(cards, ["one", "three", "two"], "seed {seed}: P{p}'s cards");
        }
    }
}

/// Issue 15: "a reachable position where nobody can move and the game has not ended is an
/// error that names the step (... by `grail sim` always), never a silent run to the turn
/// limit". `tests/packs/two-decks` holds eight cards a player and plays one a turn; asked
/// for twenty rounds, its hands and decks run dry with the end still ahead.
#[test]
fn a_game_where_nobody_can_move_is_an_error_naming_the_step() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/two-decks/pack.toml");
    let text = std::fs::read_to_string(src).unwrap();
    assert!(text.contains("rounds = 6"), "the pack sets rounds");
    let dir = pack_at("two-decks-dry", &text.replace("rounds = 6", "rounds = 20"));
    let game =
        grail_cli::games::open_game(&grail_tests::content(), &dir.to_string_lossy(), None).unwrap();
    let config = grail_engine::sim::SimConfig::new(vec![2], 3, 1);
    let error = game
        .simulate(&config, grail_engine::sim::SimHooks::default())
        .expect_err("a dry game is an error, not a turn-limit ending");
    let text = error.to_string();
    assert!(text.contains("stuck"), "{text}");
    assert!(text.contains("`play`") && text.contains("`draw`"), "{text}");
    // Six rounds end by the rule, as the pack says.
    let _ = std::fs::remove_dir_all(dir);
    let bundled = grail_cli::games::open_game(
        &grail_tests::content(),
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("packs/two-decks")
            .to_string_lossy(),
        None,
    )
    .unwrap();
    let report = bundled
        .simulate(&config, grail_engine::sim::SimHooks::default())
        .unwrap();
    assert_eq!(report.results[0].completed, 3);
}

/// `move <card id> from Z to Z2` moves that card, wherever it lies in `Z`, and nothing when it
/// is not there (a King Arthur whose player may take the Holy Grail from the adventures).
#[test]
fn a_card_named_by_its_id_is_moved_from_where_it_lies() {
    let pack = r#"
[pack]
id = "grail-quest"
name = "King Arthur: the Grail taken"
extends = "@king-arthur"

[steps.replenish]
actions = ["replenish", "grail"]
optional = true

[actions.grail]
do = "move holy-grail from adventures to won(current)"
"#;
    let dir = pack_at("move-named", pack);
    let script = r#"(
    game: "grail-quest",
    players: 2,
    seed: 1,
    steps: [
        Expect("won P1", ""),
        Play("P1: grail"),
        Expect("won P1", "holy-grail"),
        Play("P1: pass"),
        Play("P1: pass"),
        Play("P2: grail"),
        Expect("won P2", ""),
        Expect("won P1", "holy-grail"),
    ],
)"#;
    let failure = run(&dir, script);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(failure, None);
}
