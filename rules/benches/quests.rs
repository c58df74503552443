//! Quests of the Round Table: greedy-agent playouts of a 4-player game on one thread.
//! `cargo bench -p grail-rules --bench quests`. Divan reports the time per run of 100 games;
//! games/s = 100 / time.

use grail_engine::agent::AgentKind;
use grail_engine::sim::{SimConfig, SimHooks, simulate};
use grail_rules::quests::{Quests, compile};
use grail_schema::{Disk, Loader};

fn main() {
    divan::main();
}

fn rules() -> Quests {
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(content)
        .with_rules(grail_rules::catalog())
        .load_game("quests", None);
    compile(loaded.pack.as_ref().expect("the bundled pack loads")).expect("it compiles")
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool")
}

#[divan::bench(args = [AgentKind::Greedy, AgentKind::Random], sample_count = 10)]
fn four_players_100_games(bencher: divan::Bencher, agent: AgentKind) {
    let rules = rules();
    let pool = one_thread();
    let mut config = SimConfig::new(vec![4], 100, 1);
    config.agents = vec![agent];
    bencher.bench_local(|| pool.install(|| simulate(&rules, &config, SimHooks::default())));
}
