//! Piles turned up one at a time (`turn up Z`, issue 30's per-pile visibility), written in
//! the rulebook language (`tests/packs/veiled-stages`), checked from outside the rulebook: in
//! random and greedy games at 2 to 4 players, the stages of the player to move are seen by
//! the others only as a count until each is turned up (the first once both are laid, the
//! second once the first has been answered), then card for card; the seat's own stages are
//! always seen; and what a seat sees is what lies there (its view is built from its
//! observation, the state a search bot plays in).

use grail_engine::agent::AgentKind;
use grail_engine::game::Setup;
use grail_tests::{queried_cards, seen_zone};

const PACK: &str = "tests/packs/veiled-stages";

#[test]
fn stages_are_face_down_until_each_is_turned_up() {
    let game = grail_tests::open_pack(PACK);
    let (mut face_down, mut face_up) = (0, 0);
    for players in 2..=4 {
        for seed in 0..8u64 {
            let bots = if seed % 2 == 0 {
                AgentKind::Random
            } else {
                AgentKind::Greedy
            };
            let mut m = game.new_match(Setup::new(players, seed)).unwrap();
            while m.to_move().is_some() {
                let step = m.inspect("step").unwrap();
                let (_, step) = step.split_once(' ').unwrap();
                // The player to move's stages; every other seat's are empty between turns.
                let builder =
                    usize::try_from(m.inspect("turn").unwrap().parse::<u64>().unwrap() - 1)
                        .unwrap()
                        % players;
                let at = format!(
                    "{players}p seed {seed}, P{}'s turn, step {step}",
                    builder + 1
                );
                let turned = |stage: &str| match (stage, step) {
                    (_, "build") => false,
                    ("first", _) => true,
                    (_, "beat-first") => false,
                    _ => true,
                };
                for stage in ["first", "second"] {
                    let laid = queried_cards(m.as_ref(), &format!("{stage} P{}", builder + 1));
                    // An empty pile shows nothing, turned up or not.
                    if laid.is_empty() {
                        continue;
                    }
                    for v in 0..players {
                        let (seen, shown, hidden) = seen_zone(m.as_mut(), v, stage, builder);
                        if v == builder || turned(stage) {
                            assert!(
                                seen,
                                "{at}: P{} sees P{}'s {stage} stage",
                                v + 1,
                                builder + 1
                            );
                            assert_eq!(shown, laid, "{at}: what P{} sees lies there", v + 1);
                            face_up += usize::from(v != builder);
                        } else {
                            assert!(
                                !seen && shown.is_empty(),
                                "{at}: P{}'s {stage} stage is face down to P{}",
                                builder + 1,
                                v + 1
                            );
                            assert_eq!(hidden, laid.len(), "{at}: its count is seen");
                            face_down += 1;
                        }
                    }
                }
                m.bot_move(bots).unwrap();
            }
            assert_eq!(m.outcome().expect("the game ends").end, "rounds-played");
        }
    }
    assert!(
        face_down > 100 && face_up > 100,
        "{face_down} face down, {face_up} face up"
    );
}
