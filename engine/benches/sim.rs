//! The simulation loop on the toy game, one thread: `cargo bench -p grail-engine`.
//! Divan reports time per run of 1,000 games; games/s = 1000 / time.

#[path = "../tests/toy/mod.rs"]
mod toy;

use grail_engine::agent::AgentKind;
use grail_engine::sim::{SimConfig, SimHooks, simulate};
use toy::Toy;

fn main() {
    divan::main();
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
}

#[divan::bench(args = [2, 4])]
fn random_1000_games(bencher: divan::Bencher, players: usize) {
    let pool = one_thread();
    let config = SimConfig::new(vec![players], 1000, 1);
    bencher.bench_local(|| pool.install(|| simulate(&Toy, &config, SimHooks::default())));
}

#[divan::bench(args = [2, 4])]
fn greedy_1000_games(bencher: divan::Bencher, players: usize) {
    let pool = one_thread();
    let mut config = SimConfig::new(vec![players], 1000, 1);
    config.agents = vec![AgentKind::Greedy];
    bencher.bench_local(|| pool.install(|| simulate(&Toy, &config, SimHooks::default())));
}
