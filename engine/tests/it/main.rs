//! The engine's integration tests, one binary: against the toy game (`tests/toy`) —
//! matches, replays, simulation, views —, the condition language and the payment solver held
//! to the rule texts, and the loops that allocate nothing (`counting_alloc.rs` counts per
//! thread).

#[path = "../support/mod.rs"]
mod support;
#[path = "../toy/mod.rs"]
mod toy;

mod alloc;
mod condition_properties;
mod conditions;
mod counting_alloc;
mod facade;
mod ismcts;
mod ismcts_alloc;
mod matches;
mod observe;
mod replays;
mod sim;

use grail_engine::agent::{AgentKind, agent_seed};
use grail_engine::game::Setup;
use grail_engine::play::Match;
use toy::Toy;

/// A whole game by bots of `kind`, as a match (with history).
pub fn bot_game(rules: &Toy, players: usize, seed: u64, kind: AgentKind) -> Match<'_, Toy> {
    let mut m = Match::new(rules, Setup::new(players, seed)).unwrap();
    let mut bots: Vec<_> = (0..players)
        .map(|s| kind.build::<Toy>(agent_seed(seed, s)))
        .collect();
    while let Some(seat) = m.to_move() {
        m.bot_move(&mut bots[seat]).unwrap();
    }
    m
}
