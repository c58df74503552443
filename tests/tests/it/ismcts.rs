//! Issue 17: "No agent sees hidden state (a test: an agent given a different hidden deal with
//! the same observation chooses the same move)", for ISMCTS, the agent that searches, in
//! every bundled game. The other deal is the deciding seat's own observation of the true
//! state: everything that seat cannot see re-dealt.

use grail_engine::agent::{AgentKind, Budget, Observer, agent_seed, decide};
use grail_engine::game::{NoEvents, Rules, Setup};
use grail_engine::rng::GameRng;
use grail_schema::{Disk, Loader, Pack};

/// Decisions compared per game; few iterations keep the test quick.
const DECISIONS: usize = 6;
const ITERATIONS: u32 = 16;

fn pack(game: &str) -> Pack {
    Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game(game, None)
        .pack
        .unwrap_or_else(|| panic!("{game} does not load"))
}

/// Plays a random game and, at every few decisions, asks ISMCTS (same seed, same observer
/// generator) to decide in the true state and in another deal of what the seat cannot see.
/// Returns the decisions compared where the deals differed.
fn same_choice_for_the_same_observation<R: Rules>(rules: &R, game: &str) -> usize {
    let kind = AgentKind::ismcts(Budget::Iterations(ITERATIONS));
    let mut compared = 0;
    let players = *rules.players().start();
    let mut state = rules.setup(&Setup::new(players, 3)).unwrap();
    let mut rng = GameRng::new(11);
    let mut legal = Vec::new();
    let mut other_legal = Vec::new();
    let mut decisions = 0usize;
    while let Some(seat) = rules.to_move(&state) {
        rules.legal_actions(&state, &mut legal);
        if legal.len() > 1 && decisions % 5 == 0 && compared < DECISIONS {
            let other = rules.observe(&state, seat, &mut GameRng::new(decisions as u64));
            rules.legal_actions(&other, &mut other_legal);
            assert_eq!(legal, other_legal, "{game}: the seat knows its moves");
            let choose = |s: &R::State| {
                let mut agent = kind.build::<R>(agent_seed(5, seat));
                let mut observer = Observer::new(GameRng::new(6));
                decide(rules, s, seat, &legal, &mut agent, &mut observer)
            };
            assert_eq!(
                choose(&state),
                choose(&other),
                "{game}: decision {decisions} of P{}",
                seat + 1
            );
            compared += 1;
        }
        if legal.len() > 1 {
            decisions += 1;
        }
        let i = rng.index(legal.len());
        let action = legal[i].clone();
        rules.apply(&mut state, &action, &mut NoEvents);
    }
    compared
}

#[test]
fn ismcts_chooses_the_same_move_for_the_same_observation_in_every_game() {
    for game in ["king-arthur", "artus", "quests", "virtues"] {
        let pack = pack(game);
        let compared = match pack.rules.as_str() {
            grail_schema::GENERIC_RULEBOOK => same_choice_for_the_same_observation(
                &grail_rules::rulebook::compile(&pack).unwrap(),
                game,
            ),
            "quests" => same_choice_for_the_same_observation(
                &grail_rules::quests::compile(&pack).unwrap(),
                game,
            ),
            "virtues" => same_choice_for_the_same_observation(
                &grail_rules::virtues::compile(&pack).unwrap(),
                game,
            ),
            other => panic!("no check for rulebook `{other}`"),
        };
        assert!(compared >= 3, "{game}: only {compared} decisions compared");
    }
}
