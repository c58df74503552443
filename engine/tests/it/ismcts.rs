//! The ISMCTS agent on the toy game: it finds a winning move, replays for a seed, and
//! decides from what its seat may know only.

use grail_engine::agent::{Agent, AgentKind, Budget, Observer, Rollout, Search, decide};
use grail_engine::counts::Counts;
use grail_engine::game::{Rules, Setup};
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;

use crate::bot_game;
use crate::toy::{Toy, ToyAction, ToyState};

const V1: u8 = 0;
const V6: u8 = 5;

/// P1 at 14 holds v1 and v6, P2 at 19; the other three v6 lie in the discard, so P2 cannot
/// block a v6. Banking v6 reaches 20 and wins at once; anything else lets P2 bank and win.
fn one_move_from_winning() -> (Toy, AgentKind, ToyState) {
    let rules = Toy;
    let mut s = rules.setup(&Setup::new(2, 9)).unwrap();
    let mut rest = Vec::new();
    for value in 0..6u8 {
        for _ in 0..4 {
            rest.push(value);
        }
    }
    let take = |rest: &mut Vec<u8>, card: u8| {
        let at = rest.iter().position(|&c| c == card).unwrap();
        rest.remove(at);
    };
    take(&mut rest, V1);
    for _ in 0..4 {
        take(&mut rest, V6);
    }
    s.hands[0] = Counts::new();
    s.hands[0].add(V1, 1);
    s.hands[0].add(V6, 1);
    s.hands[1] = Counts::new();
    for _ in 0..2 {
        let card = rest.remove(0);
        s.hands[1].add(card, 1);
    }
    s.discard = Pile::from_bottom_up(&[V6, V6, V6], 24);
    s.deck = Pile::from_bottom_up(&rest, 24);
    s.banks = vec![14, 19];
    s.turn_seat = 0;
    rules.check_invariants(&s).unwrap();
    (rules, AgentKind::ismcts(Budget::Iterations(200)), s)
}

#[test]
fn ismcts_takes_an_immediately_winning_move() {
    let (rules, kind, state) = one_move_from_winning();
    let mut legal = Vec::new();
    rules.legal_actions(&state, &mut legal);
    assert!(legal.contains(&ToyAction::Bank(V6)) && legal.len() >= 3);
    for seed in 0..5 {
        let mut agent = kind.build::<Toy>(seed);
        let mut observer = Observer::new(GameRng::new(seed));
        let i = decide(&rules, &state, 0, &legal, &mut agent, &mut observer);
        assert_eq!(legal[i], ToyAction::Bank(V6), "seed {seed}");
    }
}

/// Progressive bias: children are expanded best heuristic first, and a tie in visits goes to
/// the better prior, so a search with fewer iterations than choices (each child visited
/// once at most) plays the greedy agent's choice. Banking v6 is the only move that raises
/// P1's heuristic (its bank minus P2's, plus half its hand) to 1.5; expanded in random
/// order or tied in legal order (draw first), it would not always be chosen.
#[test]
fn ismcts_with_fewer_iterations_than_choices_plays_the_move_the_heuristic_prefers() {
    let (rules, _, state) = one_move_from_winning();
    let mut legal = Vec::new();
    rules.legal_actions(&state, &mut legal);
    assert_eq!(legal[0], ToyAction::Draw);
    let budgets = 1..=legal.len() as u32;
    for (rollout, n) in [Rollout::Random, Rollout::default()]
        .into_iter()
        .flat_map(|r| budgets.clone().map(move |n| (r, n)))
    {
        let kind = AgentKind::Ismcts(Search {
            budget: Budget::Iterations(n),
            rollout,
            ..Search::default()
        });
        for seed in 0..8 {
            let mut agent = kind.build::<Toy>(seed);
            let mut observer = Observer::new(GameRng::new(seed));
            let i = decide(&rules, &state, 0, &legal, &mut agent, &mut observer);
            assert_eq!(legal[i], ToyAction::Bank(V6), "{kind}, seed {seed}");
        }
    }
}

#[test]
fn ismcts_games_replay_for_a_seed() {
    let rules = Toy;
    let kind = AgentKind::ismcts(Budget::Iterations(20));
    let cut = AgentKind::Ismcts(Search {
        budget: Budget::Iterations(20),
        depth: 3,
        ..Search::default()
    });
    let random = AgentKind::Ismcts(Search {
        budget: Budget::Iterations(20),
        rollout: Rollout::Random,
        ..Search::default()
    });
    for kind in [kind, cut, random] {
        for seed in 0..3 {
            let a = bot_game(&rules, 3, seed, kind);
            let b = bot_game(&rules, 3, seed, kind);
            assert!(a.outcome().is_some(), "{kind}, seed {seed}: the game ends");
            assert_eq!(a.history(), b.history(), "{kind}, seed {seed}");
        }
    }
    let moves = |seed| {
        bot_game(&rules, 2, seed, kind)
            .history()
            .iter()
            .map(|p| p.text.clone())
            .collect::<Vec<_>>()
    };
    assert_ne!(moves(1), moves(2), "different seeds, different games");
}

/// Two states that P1 cannot tell apart (the same observation, different hidden cards)
/// get the same move.
#[test]
fn ismcts_does_not_see_hidden_cards() {
    let rules = Toy;
    let kind = AgentKind::ismcts(Budget::Iterations(40));
    let mut checked = 0;
    for seed in 0..6 {
        let m = bot_game(&rules, 2, seed, AgentKind::Random);
        let mut replay = rules.setup(&Setup::new(2, seed)).unwrap();
        for played in m.history() {
            let seat = rules.to_move(&replay).unwrap();
            let other = rules.observe(&replay, seat, &mut GameRng::new(seed + 100));
            if other.hands != replay.hands {
                let choose = |state: &ToyState| {
                    let mut legal = Vec::new();
                    rules.legal_actions(state, &mut legal);
                    let mut agent = kind.build::<Toy>(7);
                    let mut observer = Observer::new(GameRng::new(8));
                    let i = decide(&rules, state, seat, &legal, &mut agent, &mut observer);
                    legal[i]
                };
                assert_eq!(choose(&replay), choose(&other), "seed {seed}");
                checked += 1;
            }
            let action = rules.parse_action(&replay, &played.text).unwrap();
            rules.apply(&mut replay, &action, &mut grail_engine::game::NoEvents);
        }
    }
    assert!(checked > 20, "only {checked} positions checked");
}

#[test]
fn ismcts_is_named_in_reports_with_its_budget() {
    let kind = AgentKind::ismcts(Budget::Iterations(20));
    let agent = kind.build::<Toy>(1);
    assert_eq!(Agent::<Toy>::name(&agent), "ismcts");
    assert_eq!(kind.to_string(), "ismcts:20");
}
