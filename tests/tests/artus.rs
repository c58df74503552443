//! Artus over random games, beyond the generic harness (`random_games.rs`, which checks the
//! rulebook's invariants after every move: one figure per seat, the crown plate at the King's
//! seat, 10 rings, every card somewhere): games end after the rule text's number of rounds with
//! every card played and ties shared; every legal move prints and reads back; refusals always
//! explain themselves.

use grail_engine::game::{NoEvents, Rules, Setup};
use grail_engine::rng::GameRng;
use grail_rules::artus::{Action, Artus};
use grail_schema::{Disk, Loader};
use proptest::prelude::*;

fn rules(variant: Option<&str>) -> Artus {
    let loaded = Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game("artus", variant);
    grail_rules::artus::compile(loaded.pack.as_ref().expect("the bundled pack loads"))
        .expect("the bundled pack compiles")
}

/// Plays a game with uniformly random moves, calling `each` on every state a player decides
/// in (with its legal actions), and checking the invariants after every move.
fn play(
    rules: &Artus,
    players: usize,
    seed: u64,
    mut each: impl FnMut(&Artus, &grail_rules::artus::State, &[Action]),
) -> grail_rules::artus::State {
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
/// tie then there are multiple winners."
#[test]
fn games_end_after_their_rounds_with_every_card_played_and_ties_shared() {
    for (variant, rounds, cards) in [(None, 16, 16), (Some("advanced"), 11, 22)] {
        let rules = rules(variant);
        for players in 2..=4 {
            for seed in 0..20 {
                let state = play(&rules, players, seed, |_, _, _| {});
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
                    let played = rules.inspect(&state, &format!("played P{p}")).unwrap();
                    assert_eq!(played.split_whitespace().count(), cards, "P{p} played all");
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
                assert_eq!(rules.parse_action(state, &text), Ok(*action), "`{text}`");
            }
        });
    }

    /// Moves that are not legal are refused with a reason, whatever they name.
    #[test]
    fn illegal_moves_are_explained(seed in any::<u64>(), players in 2usize..=4, advanced in any::<bool>(), noise in any::<[u8; 4]>()) {
        let rules = rules(advanced.then_some("advanced"));
        let [a, b, c, d] = noise;
        let tries = [
            Action::Place { seat: a },
            Action::Move { card: a % 30, figure: b % 40, steps: c as i8 },
            Action::Ring { card: a % 30, prince: b % 10 },
            Action::Score { card: a % 30, knights: u32::from(d) },
            Action::Claim { card: c % 30 },
            Action::Draw { pile: d % 4 },
        ];
        play(&rules, players, seed, |rules, state, legal| {
            for action in &tries {
                if !legal.contains(action) {
                    assert!(!rules.why_illegal(state, action).is_empty());
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
