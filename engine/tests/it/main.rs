//! Engine tests against the toy game (`tests/toy`): matches, replays, simulation, views.

#[path = "../toy/mod.rs"]
mod toy;

mod facade;
mod ismcts;
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
