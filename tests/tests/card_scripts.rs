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
            "march k1-2 knight@2 1",
            "march k1-2 knight@2 2",
            // k1-back: 1 or 2, forward or back, nearest first.
            "march k1-back knight@2 1",
            "march k1-back knight@2 -1",
            "march k1-back knight@2 2",
            "march k1-back knight@2 -2",
            // p1-2: the Prince (the King), 1 or 2 forward.
            "ride p1-2 king 1",
            "ride p1-2 king 2",
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
    assert_eq!(moves, ["march k1-2 knight@2 1", "march k1-2 knight@2 2"]);
    let back = legal_moves(&[
        ("knight P1", &["2"]),
        ("knight P2", &["4"]),
        ("hand P1", &["k1-back", "k3"]),
    ]);
    // Hands are kept in type order: k3 (the second type) before k1-back (the third).
    assert_eq!(
        back,
        [
            "march k3 knight@2 3",
            "march k1-back knight@2 1",
            "march k1-back knight@2 -1",
            "march k1-back knight@2 2",
            "march k1-back knight@2 -2",
        ]
    );
}
