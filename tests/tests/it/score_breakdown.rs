//! Issue 16: the game-over screen breaks every score into its parts. Over many random games
//! of every bundled game, variant and player count, and of the content-only five-trails, the
//! parts the rules give (`Rules::score_breakdown`) add up to each seat's final score, one
//! entry per seat; every game gives one (Artus scores on a track as it goes: its final score
//! is one part).

use grail_engine::agent::AgentKind;
use grail_engine::facade::DynGame;
use grail_engine::game::Setup;

/// Plays random games; returns whether the rules gave a breakdown.
fn parts_add_up(game: &dyn DynGame, name: &str) -> bool {
    let mut given = false;
    for players in game.players() {
        for seed in 0..8 {
            let bots = if seed % 2 == 0 {
                AgentKind::Random
            } else {
                AgentKind::Greedy
            };
            let mut m = game.new_match(Setup::new(players, seed)).unwrap();
            let mut moves = 0;
            while m.to_move().is_some() && moves < 20_000 {
                m.bot_move(bots).unwrap();
                moves += 1;
            }
            let outcome = m.outcome().expect("the game ended");
            let breakdown = m.score_breakdown();
            if breakdown.is_empty() {
                continue;
            }
            given = true;
            let seats: Vec<usize> = breakdown.iter().map(|(s, _)| *s).collect();
            assert_eq!(
                seats,
                (0..players).collect::<Vec<_>>(),
                "{name} {players}p seed {seed}: one entry per seat, in order"
            );
            for (seat, parts) in &breakdown {
                let sum: i64 = parts.iter().map(|(_, v)| v).sum();
                assert_eq!(
                    sum,
                    outcome.scores[*seat],
                    "{name} {players}p seed {seed} P{}: {parts:?}",
                    seat + 1
                );
            }
        }
    }
    given
}

#[test]
fn score_parts_add_up_to_the_final_score() {
    for (id, variant) in grail_tests::bundled_games() {
        let game = grail_tests::open(&id, variant.as_deref());
        let given = parts_add_up(game.as_ref(), &format!("{id} {variant:?}"));
        assert!(given, "{id} {variant:?} gives a breakdown");
    }
    let five_trails = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples/five-trails")
        .display()
        .to_string();
    let game = grail_cli::games::open_game(&grail_tests::content(), &five_trails, None)
        .unwrap_or_else(|e| panic!("five-trails opens: {e}"));
    assert!(parts_add_up(game.as_ref(), "five-trails"));
}
