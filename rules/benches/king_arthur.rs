//! King Arthur on the real pack (`content/king-arthur/`), played by the generic rulebook
//! from its description, one thread: `cargo bench -p grail-rules --bench king_arthur`.
//!
//! - `playouts_*`: complete games by bots through the simulation loop (setup, legal-move
//!   generation, decisions, apply, outcome), 1,000 games per run (100 for greedy): games/s is
//!   1,000 (100) divided by the time shown.
//! - `adventures_*`: the 13 adventure conditions, and the cheapest legal payment of one, on a
//!   10-card adversary hand, with the pack's compiled programs.

use std::path::Path;

use grail_engine::agent::AgentKind;
use grail_engine::cond::{Program, solve};
use grail_engine::sim::{SimConfig, SimHooks, simulate};
use grail_rules::rulebook::{self, Rulebook};
use grail_schema::{Disk, Loader, Pack};

fn main() {
    divan::main();
}

fn pack(variant: Option<&str>) -> Pack {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(&content)
        .with_rules(grail_rules::catalog())
        .load_game("king-arthur", variant);
    loaded.pack.expect("the bundled pack loads")
}

fn rules(variant: Option<&str>) -> Rulebook {
    rulebook::compile(&pack(variant)).expect("the bundled pack compiles")
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
}

fn playouts(
    bencher: divan::Bencher,
    rules: &Rulebook,
    players: usize,
    games: u64,
    agent: AgentKind,
) {
    let pool = one_thread();
    let mut config = SimConfig::new(vec![players], games, 1);
    config.agents = vec![agent];
    bencher.bench_local(|| {
        pool.install(|| simulate(rules, &config, SimHooks::default()))
            .expect("simulates")
    });
}

#[divan::bench(args = [2, 3, 4, 5], sample_count = 20)]
fn playouts_random_1000(bencher: divan::Bencher, players: usize) {
    playouts(bencher, &rules(None), players, 1000, AgentKind::Random);
}

#[divan::bench(args = [2, 4], sample_count = 20)]
fn playouts_seals_random_1000(bencher: divan::Bencher, players: usize) {
    playouts(
        bencher,
        &rules(Some("seals")),
        players,
        1000,
        AgentKind::Random,
    );
}

#[divan::bench(args = [2, 4], sample_count = 10)]
fn playouts_greedy_100(bencher: divan::Bencher, players: usize) {
    playouts(bencher, &rules(None), players, 100, AgentKind::Greedy);
}

/// The 13 adventures' programs, the payment cost, and a 10-card adversary hand:
/// yellow-1 yellow-2 blue-3 blue-3 green-2 green-4 red-3 red-4 red-4 red-5.
fn adventure_setup() -> (Vec<Program>, Program, Vec<u8>) {
    let pack = pack(None);
    let adventures = pack.set("adventures").unwrap();
    let programs = adventures
        .cards
        .iter()
        .map(|c| c.condition.as_ref().unwrap().program.clone())
        .collect();
    let cost = pack.condition("payment_cost").unwrap().program.clone();
    let adversaries = pack.set("adversaries").unwrap();
    let mut hand = vec![0u8; adversaries.cards.len()];
    for id in [
        "yellow-1", "yellow-2", "blue-3", "blue-3", "green-2", "green-4", "red-3", "red-4",
        "red-4", "red-5",
    ] {
        let t = adversaries.cards.iter().position(|c| c.id == id).unwrap();
        hand[t] += 1;
    }
    (programs, cost, hand)
}

#[divan::bench]
fn adventures_evaluate_all_13(bencher: divan::Bencher) {
    let (programs, _, hand) = adventure_setup();
    bencher.bench(|| {
        programs
            .iter()
            .filter(|p| p.test(divan::black_box(&hand), &[]))
            .count()
    });
}

/// The cheapest legal payment for each adventure (by its index in the pack) on the hand.
#[divan::bench(args = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])]
fn adventures_cheapest_payment(bencher: divan::Bencher, adventure: usize) {
    let (programs, cost, hand) = adventure_setup();
    bencher.bench(|| solve::cheapest(&programs[adventure], divan::black_box(&hand), &[], &cost));
}

/// The challenge condition on a 7-card knight hand: orange-1 x2, orange-2, red-1 x2,
/// beige-1, merlin.
fn challenge_setup() -> (Program, Vec<u8>) {
    let pack = pack(None);
    let program = pack.condition("challenge").unwrap().program.clone();
    let knights = pack.set("knights").unwrap();
    let mut hand = vec![0u8; knights.cards.len()];
    for id in [
        "orange-1", "orange-1", "orange-2", "red-1", "red-1", "beige-1", "merlin",
    ] {
        let t = knights.cards.iter().position(|c| c.id == id).unwrap();
        hand[t] += 1;
    }
    (program, hand)
}

/// Whether the hand can pay a challenge of each power 1 to 5.
#[divan::bench]
fn challenge_affordable_powers_1_to_5(bencher: divan::Bencher) {
    let (program, hand) = challenge_setup();
    bencher.bench(|| {
        (1..=5)
            .filter(|&p| solve::exists(&program, divan::black_box(&hand), &[p]))
            .count()
    });
}

/// Every legal payment of a challenge of power 3.
#[divan::bench]
fn challenge_payments_power_3(bencher: divan::Bencher) {
    let (program, hand) = challenge_setup();
    bencher.bench(|| {
        let mut n = 0;
        solve::payments(&program, divan::black_box(&hand), &[3], |_| {
            n += 1;
            true
        });
        n
    });
}
