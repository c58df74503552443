//! A rank ladder with carried-over points (`climbs`, `needs`), written in the rulebook
//! language (`tests/packs/shield-ladder`), held to the engine's ladder
//! (`engine/src/ladder.rs`) seat by seat: in random and greedy games at 2 to 4 players, after
//! every move each seat's rank and shields are those the engine's `Ladder` gives for the same
//! gains and losses (3, 4 and 5 shields to leave each rank, the surplus carried over, several
//! ranks at once; a loss stops at none and never costs a rank), and a call to arms gives a
//! shield to every seat of the lowest rank as it stood when the card was played.

use grail_engine::agent::AgentKind;
use grail_engine::game::Setup;
use grail_engine::ladder::Ladder;

const PACK: &str = "tests/packs/shield-ladder";

/// What a card does: shields gained by the player, or lost by every other (a call to arms,
/// `None`, is told apart by the caller).
fn card(id: &str) -> (u32, u32) {
    match id {
        "quest-2" => (2, 0),
        "quest-3" => (3, 0),
        "quest-4" => (4, 0),
        "grail" => (9, 0),
        "plague" => (0, 2),
        "call-to-arms" => (0, 0),
        other => panic!("no adventure `{other}`"),
    }
}

#[test]
fn shields_climb_as_the_engines_ladder_does() {
    let game = grail_tests::open_pack(PACK);
    let ladder = Ladder::new(vec![3, 4, 5]);
    let (mut cascades, mut losses_stopped, mut calls_to_some) = (0, 0, 0);
    for players in 2..=4 {
        for seed in 0..30u64 {
            let bots = if seed % 3 == 0 {
                AgentKind::Greedy
            } else {
                AgentKind::Random
            };
            let mut m = game.new_match(Setup::new(players, seed)).unwrap();
            let mut seats = vec![(0u8, 0u32); players];
            while let Some(seat) = m.to_move() {
                let played = m.bot_move(bots).unwrap();
                let id = played.text.strip_prefix("play ").expect("a card played");
                let (gain, loss) = card(id);
                if id == "call-to-arms" {
                    // The lowest rank as it stood: every seat at it gains, even one that a
                    // gain before it in the same call lifted.
                    let low = seats.iter().map(|&(rank, _)| rank).min().unwrap();
                    let at_low: Vec<bool> = seats.iter().map(|&(rank, _)| rank == low).collect();
                    calls_to_some += usize::from(at_low.iter().any(|&l| !l));
                    for (p, (rank, points)) in seats.iter_mut().enumerate() {
                        if at_low[p] {
                            ladder.gain(rank, points, 1);
                        }
                    }
                }
                if gain > 0 {
                    let (rank, points) = &mut seats[seat];
                    cascades += usize::from(ladder.gain(rank, points, gain) > 1);
                }
                for (p, (_, points)) in seats.iter_mut().enumerate() {
                    if loss > 0 && p != seat {
                        losses_stopped += usize::from(Ladder::lose(points, loss) < loss);
                    }
                }
                let at = format!("{players}p seed {seed}, P{} played {id}", seat + 1);
                for (p, &(rank, points)) in seats.iter().enumerate() {
                    let read = |q: &str| m.inspect(&format!("{q} P{}", p + 1)).unwrap();
                    assert_eq!(read("rank"), rank.to_string(), "{at}: P{}'s rank", p + 1);
                    assert_eq!(
                        read("shields"),
                        points.to_string(),
                        "{at}: P{}'s shields",
                        p + 1
                    );
                }
                // The table says each seat's shields with what its rank needs, none at the top.
                let said: Vec<String> = (seats.iter().enumerate())
                    .map(
                        |(p, &(rank, points))| match ladder.threshold(usize::from(rank)) {
                            Some(need) => format!("P{} {points} of {need}", p + 1),
                            None => format!("P{} {points}", p + 1),
                        },
                    )
                    .collect();
                let table = m.render(None);
                let line = format!("shields: {}", said.join(", "));
                assert!(table.contains(&line), "{at}: `{line}` not in\n{table}");
            }
            let outcome = m.outcome().expect("the game ends");
            let top = seats
                .iter()
                .any(|&(rank, _)| ladder.is_top(usize::from(rank)));
            assert!(
                top || outcome.turns >= 40,
                "{players}p seed {seed}: ends at the top"
            );
        }
    }
    assert!(cascades > 0, "a gain climbing two ranks at once was played");
    assert!(losses_stopped > 0, "a loss stopped at no shields");
    assert!(
        calls_to_some > 0,
        "a call to arms passed over a seat above the lowest rank"
    );
}
