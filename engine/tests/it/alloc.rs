//! The simulation loop allocates nothing per move: a game of 1,000 moves costs a handful of
//! allocations (setup, outcome, bookkeeping), not thousands. It counts the allocations of
//! the thread that runs the games (`counting_alloc.rs`).

use std::ops::RangeInclusive;

use grail_engine::agent::AgentKind;
use grail_engine::game::{EventSink, Outcome, Rules, Seat, Setup};
use grail_engine::rng::GameRng;
use grail_engine::sim::{SimConfig, SimHooks, simulate};

use crate::counting_alloc::allocations;

/// Two players take turns adding 1 or 2 to their total until 1,000 moves are made.
struct Race;

#[derive(Clone, Debug, Hash)]
struct RaceState {
    totals: [u32; 2],
    moves: u32,
    rng: GameRng,
}

const MOVES: u32 = 1000;

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
        out.extend_from_slice(&[1, 2]);
    }
    fn apply(&self, s: &mut RaceState, a: &u8, _: &mut impl EventSink<()>) {
        s.totals[(s.moves % 2) as usize] += u32::from(*a);
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
        f64::from(s.totals[seat])
    }
    fn format_action(&self, _: &RaceState, a: &u8) -> String {
        a.to_string()
    }
    fn parse_action(&self, _: &RaceState, t: &str) -> Result<u8, String> {
        t.parse().map_err(|_| "1 or 2".to_string())
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
    fn check_invariants(&self, s: &RaceState) -> Result<(), String> {
        if s.moves <= MOVES {
            Ok(())
        } else {
            Err(format!("{} moves, the game has {MOVES}", s.moves))
        }
    }
}

fn allocations_per_game(agent: AgentKind, games: u64) -> f64 {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut config = SimConfig::new(vec![2], games, 1);
    config.agents = vec![agent];
    // Counted on the pool's one thread, which plays every game.
    let (report, counted) = pool.install(|| {
        let before = allocations();
        let report = simulate(&Race, &config, SimHooks::default()).unwrap();
        (report, allocations() - before)
    });
    assert_eq!(report.results[0].mean_moves, f64::from(MOVES));
    counted as f64 / games as f64
}

#[test]
fn the_simulation_loop_does_not_allocate_per_move() {
    for agent in AgentKind::ALL {
        let per_game = allocations_per_game(agent, 256);
        // The games are counted where they are played: each costs its outcome at least.
        assert!(per_game >= 1.0, "{agent}: no allocation counted");
        assert!(
            per_game < 20.0,
            "{agent}: {per_game} allocations per game of {MOVES} moves"
        );
    }
}
