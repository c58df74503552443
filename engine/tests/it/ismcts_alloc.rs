//! The ISMCTS search allocates nothing per iteration once its buffers have grown: its tree
//! is an arena kept from decision to decision, and its states are written over with
//! `clone_from` and `observe_into`. It counts the allocations of the
//! thread searching (`counting_alloc.rs`); the game's states own no heap memory, so every allocation counted is
//! the search's (a rollout that reaches the end also calls `Rules::outcome`, whose
//! allocations are the rules').

use std::ops::RangeInclusive;

use grail_engine::agent::{Agent, AgentKind, Budget, Rollout, Search};
use grail_engine::game::{EventSink, Outcome, Rules, Seat, Setup};
use grail_engine::rng::GameRng;

use crate::counting_alloc::allocations;

/// Two players take turns adding 1, 2 or 3 to their total, or a random 1-4 ("gamble");
/// the higher total after 60 moves wins.
struct Race;

#[derive(Clone, Debug, Hash)]
struct RaceState {
    totals: [u32; 2],
    moves: u32,
    rng: GameRng,
}

const MOVES: u32 = 60;
const GAMBLE: u8 = 0;

impl Rules for Race {
    type State = RaceState;
    type Action = u8;
    type Event = ();
    fn game_id(&self) -> &str {
        "race"
    }
    fn variant(&self) -> Option<&str> {
        None
    }
    fn players(&self) -> RangeInclusive<usize> {
        2..=2
    }
    fn setup(&self, setup: &Setup) -> Result<RaceState, String> {
        Ok(RaceState {
            totals: [0; 2],
            moves: 0,
            rng: GameRng::new(setup.seed),
        })
    }
    fn to_move(&self, s: &RaceState) -> Option<Seat> {
        (s.moves < MOVES).then_some((s.moves % 2) as usize)
    }
    fn legal_actions(&self, _: &RaceState, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&[GAMBLE, 1, 2, 3]);
    }
    fn apply(&self, s: &mut RaceState, a: &u8, _: &mut impl EventSink<()>) {
        let step = match *a {
            GAMBLE => s.rng.below(4) + 1,
            n => u32::from(n),
        };
        s.totals[(s.moves % 2) as usize] += step;
        s.moves += 1;
    }
    fn why_illegal(&self, _: &RaceState, _: &u8) -> String {
        String::new()
    }
    fn outcome(&self, s: &RaceState) -> Option<Outcome> {
        (s.moves >= MOVES).then(|| Outcome {
            scores: s.totals.iter().map(|&t| i64::from(t)).collect(),
            winners: vec![usize::from(s.totals[1] > s.totals[0])],
            end: "done".into(),
            turns: s.moves,
            tallies: Vec::new(),
        })
    }
    fn observe(&self, s: &RaceState, _: Seat, rng: &mut GameRng) -> RaceState {
        RaceState {
            rng: rng.fork(),
            ..s.clone()
        }
    }
    fn heuristic(&self, s: &RaceState, seat: Seat) -> f64 {
        f64::from(s.totals[seat]) - f64::from(s.totals[1 - seat])
    }
    fn format_action(&self, _: &RaceState, a: &u8) -> String {
        a.to_string()
    }
    fn parse_action(&self, _: &RaceState, t: &str) -> Result<u8, String> {
        t.parse().map_err(|_| "0 to 3".to_string())
    }
    fn describe_event(&self, _: &RaceState, _: &()) -> String {
        String::new()
    }
    fn render(&self, _: &RaceState, _: Option<Seat>) -> String {
        String::new()
    }
    fn inspect(&self, _: &RaceState, _: &str) -> Result<String, String> {
        Err(String::new())
    }
    fn notation_help(&self) -> String {
        String::new()
    }
    fn check_invariants(&self, _: &RaceState) -> Result<(), String> {
        Ok(())
    }
}

#[test]
fn the_search_does_not_allocate_per_iteration() {
    // The counter sees this thread's allocations.
    let probe = allocations();
    drop(std::hint::black_box(Vec::<u8>::with_capacity(8)));
    assert!(
        allocations() > probe,
        "an allocation on this thread is counted"
    );
    let rules = Race;
    let state = rules.setup(&Setup::new(2, 1)).unwrap();
    let mut legal = Vec::new();
    rules.legal_actions(&state, &mut legal);
    // Rollouts cut after 10 decisions never reach the end of the 60 moves, so the rules'
    // `outcome` (which builds an `Outcome` of vectors) is not called in the loop.
    for rollout in [
        Rollout::default(),
        Rollout::Greedy { random_milli: 200 },
        Rollout::Random,
    ] {
        let kind = AgentKind::Ismcts(Search {
            budget: Budget::Iterations(2_000),
            rollout,
            depth: 10,
            ..Search::default()
        });
        let mut agent = kind.build::<Race>(3);
        let mut view = state.clone();
        // The first decisions grow the buffers; later ones reuse them.
        for _ in 0..2 {
            agent.choose(&rules, 0, Some(&mut view), &legal);
        }
        let before = allocations();
        for _ in 0..3 {
            agent.choose(&rules, 0, Some(&mut view), &legal);
        }
        let allocations = allocations() - before;
        // A tree larger than any before may grow the arena once or twice.
        assert!(
            allocations <= 6,
            "{kind}: {allocations} allocations in three searches of 2,000 iterations"
        );
    }
}
