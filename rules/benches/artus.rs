//! Artus playouts by random agents on one thread, the bundled pack played by the generic
//! rulebook from its description: `cargo bench -p grail-rules --bench artus`.
//! Divan reports the time per run of 1,000 complete games; games/s = 1000 / time.

use std::path::Path;

use grail_engine::agent::AgentKind;
use grail_engine::sim::{SimConfig, SimHooks, simulate};
use grail_rules::rulebook::{self, Rulebook};
use grail_schema::{Disk, Loader};

fn main() {
    divan::main();
}

fn rules(variant: Option<&str>) -> Rulebook {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(&content)
        .with_rules(grail_rules::catalog())
        .load_game("artus", variant);
    let pack = loaded.pack.expect("the bundled pack loads");
    rulebook::compile(&pack).expect("the bundled pack compiles")
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
}

fn run(
    bencher: divan::Bencher,
    variant: Option<&str>,
    players: usize,
    agent: AgentKind,
    games: u64,
) {
    let rules = rules(variant);
    let pool = one_thread();
    let mut config = SimConfig::new(vec![players], games, 1);
    config.agents = vec![agent];
    bencher.bench_local(|| {
        let report = pool
            .install(|| simulate(&rules, &config, SimHooks::default()))
            .unwrap();
        assert_eq!(report.results[0].completed, games);
        report
    });
}

/// The target: at least 20,000 complete 4-player advanced games per second.
#[divan::bench(args = [2, 3, 4])]
fn advanced_random_1000_games(bencher: divan::Bencher, players: usize) {
    run(bencher, Some("advanced"), players, AgentKind::Random, 1000);
}

#[divan::bench(args = [2, 3, 4])]
fn beginner_random_1000_games(bencher: divan::Bencher, players: usize) {
    run(bencher, None, players, AgentKind::Random, 1000);
}

#[divan::bench(args = [4])]
fn advanced_greedy_100_games(bencher: divan::Bencher, players: usize) {
    run(bencher, Some("advanced"), players, AgentKind::Greedy, 100);
}
