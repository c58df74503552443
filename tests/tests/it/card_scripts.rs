//! Card scripts (`rules/src/rulebook/params.rs`): an action taking a card and the figure it
//! moves lists its moves card by card (a step offered `by_card`), each card's actions in the
//! step's order, and for each its figures and distances in the parameter's order; `steps = "1..3
//! either way"` lists the nearest first, forward then back (1, -1, 2, -2, …). Played on
//! `tests/packs/card-moves`.

use grail_engine::game::Setup;

fn legal_moves(position: &[(&str, &[&str])]) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/card-moves");
    let game =
        grail_cli::games::open_game(&grail_tests::content(), &dir.to_string_lossy(), None).unwrap();
    let mut setup = Setup::new(2, 3);
    setup.position = position
        .iter()
        .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
        .collect();
    let mut game = game.new_match(setup).unwrap();
    game.legal_moves()
}

#[test]
fn card_moves_are_listed_card_by_card_nearest_distance_first() {
    let moves = legal_moves(&[
        ("knight P1", &["2"]),
        ("knight P2", &["4"]),
        ("hand P1", &["k1-2", "k1-back", "p1-2"]),
    ]);
    assert_eq!(
        moves,
        [
            // k1-2: one of your Knights 1 or 2 forward.
            "play k1-2 knight@2 1",
            "play k1-2 knight@2 2",
            // k1-back: 1 or 2, forward or back, nearest first.
            "play k1-back knight@2 1",
            "play k1-back knight@2 -1",
            "play k1-back knight@2 2",
            "play k1-back knight@2 -2",
            // p1-2: the Prince (the King), 1 or 2 forward.
            "play p1-2 king 1",
            "play p1-2 king 2",
        ]
    );
}

#[test]
fn either_way_lists_each_distance_forward_then_back() {
    let moves = legal_moves(&[
        ("knight P1", &["2"]),
        ("knight P2", &["4"]),
        ("hand P1", &["k1-2"]),
    ]);
    assert_eq!(moves, ["play k1-2 knight@2 1", "play k1-2 knight@2 2"]);
    let back = legal_moves(&[
        ("knight P1", &["2"]),
        ("knight P2", &["4"]),
        ("hand P1", &["k1-back", "k3"]),
    ]);
    // Hands are kept in type order: k3 (the second type) before k1-back (the third).
    assert_eq!(
        back,
        [
            "play k3 knight@2 3",
            "play k1-back knight@2 1",
            "play k1-back knight@2 -1",
            "play k1-back knight@2 2",
            "play k1-back knight@2 -2",
        ]
    );
}

/// `card-moves` with a second deck per seat (`spare`), shuffled by `shuffle`, and no cards
/// dealt, written in a temporary folder.
fn with_spares(shuffle: &str, tag: &str) -> std::path::PathBuf {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/card-moves/pack.toml");
    let text = std::fs::read_to_string(src).unwrap();
    let old = "shuffle deck(each)\n";
    assert!(text.contains(old), "the pack shuffles its decks");
    // No cards dealt: the decks stay whole.
    let text = text
        .replace(old, &format!("{shuffle}\n"))
        .replace("hand = 2", "hand = 0")
        .replace("reserve = 2", "reserve = 0")
        + r#"
[sets.spares]
total = 5

[[sets.spares.cards]]
id = "a"

[[sets.spares.cards]]
id = "b"

[[sets.spares.cards]]
id = "c"

[[sets.spares.cards]]
id = "d"

[[sets.spares.cards]]
id = "e"

[zones.spare]
holds = "spares"
owner = "each"
start = "all"
layout = "stack"
visible = "count"
"#;
    let dir = std::env::temp_dir().join(format!("grail-card-moves-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pack.toml"), text).unwrap();
    dir
}

fn piles(pack: &std::path::Path, seed: u64) -> Vec<String> {
    let game = grail_cli::games::open_game(&grail_tests::content(), &pack.to_string_lossy(), None)
        .unwrap();
    let game = game.new_match(Setup::new(2, seed)).unwrap();
    ["deck P1", "spare P1", "deck P2", "spare P2"]
        .iter()
        .map(|q| game.inspect(q).unwrap())
        .collect()
}

/// `shuffle A(each) and B(each)` shuffles seat by seat (P1's deck and spare, then P2's), as
/// players shuffling their own piles in turn draw the generator; `shuffle A(each)` then
/// `shuffle B(each)` goes zone by zone (both decks, then both spares). A deck and a spare both
/// hold five cards, so the same draws give them the same order of places: P1's spare seat by
/// seat is laid as P2's deck zone by zone, and the other way round.
#[test]
fn shuffling_seat_by_seat_draws_the_generator_seat_by_seat() {
    let by_seat = with_spares("shuffle deck(each) and spare(each)", "seats");
    let by_zone = with_spares("shuffle deck(each)\nshuffle spare(each)", "zones");
    // A spare card read as the deck card in its place before shuffling.
    let as_deck = |spare: &str| -> String {
        spare
            .split_whitespace()
            .map(|c| match c {
                "a" => "k1-2",
                "b" => "k3",
                "c" => "k1-back",
                _ => "p1-2",
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    for seed in 0..8 {
        let (s, z) = (piles(&by_seat, seed), piles(&by_zone, seed));
        assert_eq!(
            s[0], z[0],
            "seed {seed}: P1's deck is shuffled first either way"
        );
        assert_eq!(as_deck(&s[1]), z[2], "seed {seed}: second shuffle");
        assert_eq!(s[2], as_deck(&z[1]), "seed {seed}: third shuffle");
        assert_eq!(s[3], z[3], "seed {seed}: last shuffle");
    }
    let _ = std::fs::remove_dir_all(by_seat);
    let _ = std::fs::remove_dir_all(by_zone);
}

/// An observation re-deals what a seat cannot see, and with several sets in one hand a
/// player's deck of swords stays swords: P1 sees P2's decks as piles of their own set, and
/// P2's hand keeps as many swords and shields as it holds (each came from its deck).
#[test]
fn an_observation_keeps_each_deck_to_its_set() {
    use grail_engine::game::Rules;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/two-decks");
    let pack = grail_tests::lint(&dir, &[]).pack.expect("two-decks loads");
    let rules = grail_rules::rulebook::compile(&pack).unwrap_or_else(|d| panic!("{d:#?}"));
    let swords = ["dagger", "sword", "greatsword"];
    for seed in 0..20 {
        let state = rules.setup(&Setup::new(2, seed)).unwrap();
        let mut rng = grail_engine::rng::GameRng::new(seed + 100);
        let view = rules.observe(&state, 0, &mut rng);
        let deck = rules.inspect(&view, "swords P2").unwrap();
        assert!(
            deck.split_whitespace().all(|c| swords.contains(&c)),
            "seed {seed}: P2's swords as P1 sees them: {deck}"
        );
        let shields = rules.inspect(&view, "shields P2").unwrap();
        assert!(
            shields.split_whitespace().all(|c| !swords.contains(&c)),
            "seed {seed}: P2's shields as P1 sees them: {shields}"
        );
        let hand = rules.inspect(&view, "hand P2").unwrap();
        let held = hand
            .split_whitespace()
            .filter(|c| swords.contains(c))
            .count();
        assert_eq!(held, 1, "seed {seed}: P2's hand as P1 sees it: {hand}");
    }
}

/// A game of `tests/packs/chosen-figures` from a position, with `moves` played.
fn chosen_figures(
    position: &[(&str, &[&str])],
    moves: &[&str],
) -> Box<dyn grail_engine::facade::DynMatch + 'static> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/chosen-figures");
    let game = Box::leak(
        grail_cli::games::open_game(&grail_tests::content(), &dir.to_string_lossy(), None).unwrap(),
    );
    let mut setup = Setup::new(2, 1);
    setup.position = position
        .iter()
        .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
        .collect();
    let mut game = game.new_match(setup).unwrap();
    for m in moves {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
    }
    game
}

/// "Choose two of your Knights on the carpet": with three there, every two of them and never
/// all three (none to spare), and nothing else is offered until they are chosen.
#[test]
fn chosen_figures_are_every_choice_with_none_to_spare() {
    let mut game = chosen_figures(
        &[
            ("knight P1", &["1", "2", "7"]),
            ("knight P2", &["3", "4", "5"]),
            ("hand P1", &["step", "carpet"]),
        ],
        &["play carpet"],
    );
    let mut moves = game.legal_moves();
    moves.sort();
    assert_eq!(
        moves,
        [
            "score knight@1 knight@2",
            "score knight@1 knight@7",
            "score knight@2 knight@7",
        ]
    );
}

/// The choices come in the order the engine's payment solver lists the payments of a hand
/// holding the Knights' situations (the plate and seat of each, a card of `situations`).
#[test]
fn chosen_figures_come_in_the_solvers_order() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/chosen-figures");
    let pack =
        grail_cli::games::load_pack(&grail_tests::content(), &dir.to_string_lossy(), None).unwrap();
    let situations = pack.set("situations").unwrap();
    let plates = pack.set("plates").unwrap();
    let carpet = pack
        .set("scorings")
        .unwrap()
        .cards
        .iter()
        .find(|c| c.id == "carpet");
    let program = &carpet.unwrap().condition.as_ref().unwrap().program;
    // The King on seat 0: seat s faces the plate at position s.
    let plate_at = |seat: usize| {
        plates
            .cards
            .iter()
            .position(|c| c.position == Some(seat as u8))
            .unwrap()
    };
    let seats = [1usize, 2, 7];
    let mut hand = [0u8; 64];
    let mut seat_of = [usize::MAX; 64];
    for &s in &seats {
        let t = usize::from(situations.product_type(&[plate_at(s), s]).unwrap());
        hand[t] += 1;
        seat_of[t] = s;
    }
    let mut expected = Vec::new();
    grail_engine::cond::solve::payments(program, &hand, &[], |p| {
        let mut chosen: Vec<usize> = (0..p.counts().len())
            .filter(|&t| p.counts()[t] > 0)
            .map(|t| seat_of[t])
            .collect();
        chosen.sort();
        let names: Vec<String> = chosen.iter().map(|s| format!("knight@{s}")).collect();
        expected.push(format!("score {}", names.join(" ")));
        true
    });
    let mut game = chosen_figures(
        &[
            ("knight P1", &["1", "2", "7"]),
            ("knight P2", &["3", "4", "5"]),
            ("hand P1", &["step", "carpet"]),
        ],
        &["play carpet"],
    );
    assert_eq!(expected.len(), 3);
    assert_eq!(game.legal_moves(), expected);
}

/// "Should the player not have [the Knights the card asks for], he can still play this card,
/// receiving [its penalty] instead": the card is offered all the same and played at once.
#[test]
fn a_card_no_choice_meets_is_played_for_its_forfeit() {
    let position: &[(&str, &[&str])] = &[
        ("knight P1", &["3", "4", "5"]),
        ("knight P2", &["1", "2", "7"]),
        ("hand P1", &["carpet", "tally"]),
        ("hand P2", &["tally"]),
    ];
    let mut game = chosen_figures(position, &[]);
    assert_eq!(game.legal_moves(), ["play tally", "play carpet"]);
    let game = chosen_figures(position, &["play carpet"]);
    assert_eq!(game.inspect("points P1").unwrap(), "-25");
    assert_eq!(game.inspect("step").unwrap(), "P2 play");
}

/// "Score your best Knight": one move, naming the Knight on the highest plate, the first of
/// the player's Knights among equals (seats 2 and 6 both show +3; the Knight on 6 was placed
/// first).
#[test]
fn the_best_figure_is_the_first_among_equals() {
    let mut game = chosen_figures(
        &[
            ("knight P1", &["6", "2", "4"]),
            ("knight P2", &["1", "5", "7"]),
            ("hand P1", &["crest"]),
        ],
        &[],
    );
    assert_eq!(game.legal_moves(), ["play crest knight@6"]);
    let mut game = chosen_figures(
        &[
            ("knight P1", &["2", "6", "4"]),
            ("knight P2", &["1", "5", "7"]),
            ("hand P1", &["crest"]),
        ],
        &[],
    );
    assert_eq!(game.legal_moves(), ["play crest knight@2"]);
}
