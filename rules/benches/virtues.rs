//! Camelot Virtues playouts, one thread: `cargo bench -p grail-rules --bench virtues`.
//! Divan reports time per run of 100 four-player games; playouts/s = 100 / time.

use grail_engine::agent::AgentKind;
use grail_engine::sim::{SimConfig, SimHooks, simulate};
use grail_rules::virtues::{Virtues, compile};
use grail_schema::{Disk, Loader};

fn main() {
    divan::main();
}

fn rules() -> Virtues {
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(content)
        .with_rules(grail_rules::catalog())
        .load_game("virtues", None);
    compile(&loaded.pack.expect("the virtues pack loads")).expect("and compiles")
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
}

fn run(bencher: divan::Bencher, agent: AgentKind) {
    let rules = rules();
    let pool = one_thread();
    let mut config = SimConfig::new(vec![4], 100, 1);
    config.agents = vec![agent];
    bencher.bench_local(|| pool.install(|| simulate(&rules, &config, SimHooks::default())));
}

#[divan::bench(sample_count = 20)]
fn random_100_games(bencher: divan::Bencher) {
    run(bencher, AgentKind::Random);
}

#[divan::bench(sample_count = 20)]
fn greedy_100_games(bencher: divan::Bencher) {
    run(bencher, AgentKind::Greedy);
}
