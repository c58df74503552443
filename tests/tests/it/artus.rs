//! Artus over random games, played by the generic rulebook from the pack's description, beyond
//! the generic harness (`random_games.rs`, which checks the rulebook's invariants after every
//! move: one figure per seat, every card somewhere): games end after the rule text's number of
//! rounds with every card played and ties shared; every legal move prints and reads back;
//! refusals always explain themselves.

use grail_engine::game::{NoEvents, Rules, Setup};
use grail_engine::rng::GameRng;
use grail_rules::rulebook::{Rulebook, State};
use grail_schema::{Disk, Loader, Pack};
use proptest::prelude::*;

type Action = <Rulebook as Rules>::Action;

fn pack(variant: Option<&str>) -> Pack {
    let loaded = Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game("artus", variant);
    loaded.pack.expect("the bundled pack loads")
}

fn rules(variant: Option<&str>) -> Rulebook {
    grail_rules::rulebook::compile(&pack(variant)).expect("the bundled pack compiles")
}

/// Plays a game with uniformly random moves, calling `each` on every state a player decides
/// in (with its legal actions), and checking the invariants after every move.
fn play(
    rules: &Rulebook,
    players: usize,
    seed: u64,
    mut each: impl FnMut(&Rulebook, &State, &[Action]),
) -> State {
    let mut state = rules.setup(&Setup::new(players, seed)).unwrap();
    let mut rng = GameRng::new(seed ^ 0xA27);
    let mut legal = Vec::new();
    let mut moves = 0;
    while rules.to_move(&state).is_some() {
        rules.legal_actions(&state, &mut legal);
        assert!(
            !legal.is_empty(),
            "seed {seed}: a player to move has a legal move"
        );
        each(rules, &state, &legal);
        let action = legal[rng.index(legal.len())];
        rules.apply(&mut state, &action, &mut NoEvents);
        if let Err(e) = rules.check_invariants(&state) {
            panic!("{players}p seed {seed} after {action:?}: {e}");
        }
        moves += 1;
        assert!(moves < 2_000, "seed {seed}: the game does not end");
    }
    state
}

/// RB: "The game lasts for a total of 16 rounds" (beginner) and "After 11 rounds, after which
/// all players have played all their cards, the game is over" (advanced); each player has 8
/// Knight and 8 King cards, and in the advanced game 6 scoring cards too. "In the event of a
/// tie then there are multiple winners." The ring supply stays within the 10 rings.
#[test]
fn games_end_after_their_rounds_with_every_card_played_and_ties_shared() {
    for (variant, rounds, cards) in [(None, 16, 16), (Some("advanced"), 11, 22)] {
        let rules = rules(variant);
        for players in 2..=4 {
            for seed in 0..20 {
                // RB Components: "10 rings"; the supply is what the Princes do not hold.
                let state = play(&rules, players, seed, |rules, state, _| {
                    let supply: i64 = rules.inspect(state, "supply").unwrap().parse().unwrap();
                    assert!((0..=10).contains(&supply), "seed {seed}: supply {supply}");
                });
                let outcome = rules.outcome(&state).expect("the game is over");
                assert_eq!(outcome.end, "rounds-played");
                assert_eq!(
                    outcome.turns as usize,
                    rounds * players,
                    "{variant:?} {players}p"
                );
                assert_eq!(
                    rules.inspect(&state, "rounds played").unwrap(),
                    rounds.to_string()
                );
                for p in 1..=players {
                    // Scoring cards played for chosen Knights lie apart, met or forfeited.
                    let played: usize = ["played", "met", "forfeited"]
                        .iter()
                        .map(|zone| {
                            let cards = rules.inspect(&state, &format!("{zone} P{p}")).unwrap();
                            cards.split_whitespace().filter(|c| *c != "-").count()
                        })
                        .sum();
                    assert_eq!(played, cards, "P{p} played all");
                    assert_eq!(rules.inspect(&state, &format!("hand P{p}")).unwrap(), "-");
                }
                let best = outcome.scores.iter().copied().max().unwrap();
                let tied: Vec<usize> = (0..players)
                    .filter(|&p| outcome.scores[p] == best)
                    .collect();
                assert_eq!(outcome.winners, tied);
            }
        }
    }
}

/// `/` divides exactly, in real numbers: the worth's arithmetic may (`+ - * /`, `if`'s
/// branches, `others(…)`), nothing else: not a score, not a part of the worth that is a
/// whole number (a condition, a function's argument). Dividing by zero leaves the worth
/// undefined, the lowest value, as an undefined whole-number worth.
#[test]
fn only_the_worths_arithmetic_divides() {
    let compiled = |score: &str, worth: &str| {
        let mut pack = pack(None);
        pack.rulebook.end.as_mut().unwrap().score.value = score.into();
        pack.rulebook.bot.as_mut().unwrap().worth.value = worth.into();
        grail_rules::rulebook::compile(&pack).map_err(|d| {
            d.iter()
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect::<Vec<_>>()
        })
    };
    let refused = |score: &str, worth: &str| match compiled(score, worth) {
        Ok(_) => panic!("`{score}` / `{worth}` compiled"),
        Err(d) => {
            assert_eq!(d.len(), 1, "{d:?}");
            assert!(
                d[0].starts_with("invalid-expression: `/` divides exactly"),
                "{d:?}"
            );
        }
    };
    refused("points(P) / 2", "points(P)");
    refused("points(P)", "if(points(P) / 2 > 1, 1, 0)");
    refused("points(P)", "max(points(P) / 3, 0)");
    let worth = |text: &str, players: usize| {
        let rules = compiled("points(P)", text).unwrap_or_else(|d| panic!("{text}: {d:?}"));
        let state = rules.setup(&Setup::new(players, 7)).unwrap();
        rules.heuristic(&state, 0)
    };
    // At the start every seat has 0 points and the Knights stand on plates.
    let plates = worth("sum(value, plates(knight(P)))", 4);
    assert_eq!(worth("sum(value, plates(knight(P))) / 3", 4), plates / 3.0);
    assert_eq!(
        worth("if(players > 3, others(1 / 3), 0) - 1 / 3", 4),
        (1.0f64 / 3.0 + 1.0 / 3.0 + 1.0 / 3.0) - 1.0 / 3.0
    );
    // Dividing by a zero the state gives leaves the worth undefined; a divisor the player
    // count alone makes zero is refused (`divide-by-zero`, at the `/`).
    assert_eq!(worth("1 / points(P)", 4), i64::MIN as f64);
    let zero = compiled("points(P)", "1 / (players - 4)").map(|_| ());
    assert_eq!(
        zero.map_err(|d| d
            .iter()
            .map(|d| d.split(':').next().unwrap_or("").to_string())
            .collect::<Vec<_>>()),
        Err(vec!["divide-by-zero".to_string()])
    );
    assert_eq!(
        worth("points(P) - 1", 4),
        -1.0,
        "no division: whole numbers"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The notation reads back: `parse_action(format_action(a)) == a` for every legal action
    /// of every state of random games, both variants, 2 to 4 players.
    #[test]
    fn every_legal_move_prints_and_reads_back(seed in any::<u64>(), players in 2usize..=4, advanced in any::<bool>()) {
        let rules = rules(advanced.then_some("advanced"));
        play(&rules, players, seed, |rules, state, legal| {
            for action in legal {
                let text = rules.format_action(state, action);
                assert_eq!(rules.parse_action(state, &text).as_ref(), Ok(action), "`{text}`");
            }
        });
    }

    /// Moves that are not legal now are refused with a reason: every move legal at some
    /// earlier point of the game (another step, another card, another figure) is tried again.
    #[test]
    fn illegal_moves_are_explained(seed in any::<u64>(), players in 2usize..=4, advanced in any::<bool>()) {
        let rules = rules(advanced.then_some("advanced"));
        let mut seen: Vec<Action> = Vec::new();
        play(&rules, players, seed, |rules, state, legal| {
            for action in &seen {
                if !legal.contains(action) {
                    assert!(!rules.why_illegal(state, action).is_empty(), "{action:?}");
                }
            }
            for action in legal {
                if seen.len() < 200 && !seen.contains(action) {
                    seen.push(*action);
                }
            }
        });
    }

    /// Typed moves are normal input: whatever is typed, the parser answers or the move is
    /// refused with a reason, and nothing panics.
    #[test]
    fn typed_moves_never_panic(
        seed in any::<u64>(),
        texts in prop::collection::vec(r"(place|play|score|draw|pass)( (-?[0-9]{1,4}|\+[0-9]|[a-z0-9-]{1,12}|(knight|king|silver|bronze|prince|)@-?[0-9]{1,3}|king)){0,4}", 1..20),
    ) {
        let rules = rules(Some("advanced"));
        let mut n = 0;
        play(&rules, 3, seed, |rules, state, legal| {
            n += 1;
            if n % 7 != 0 {
                return;
            }
            for text in &texts {
                if let Ok(action) = rules.parse_action(state, text) {
                    if !legal.contains(&action) {
                        assert!(!rules.why_illegal(state, &action).is_empty(), "`{text}`");
                    }
                }
            }
        });
    }
}
