//! King Arthur played by the generic rulebook (its description in `content/king-arthur/`),
//! one thread: `cargo bench -p grail-rules --bench rulebook_vs_module`. Each sample plays
//! 1,000 4-player games with random bots through the simulation loop: games/s is 1,000
//! divided by the time shown. The hand-written module it was measured against is deleted
//! (BENCHMARKS.md keeps the side-by-side figures).

use std::path::Path;

use grail_engine::agent::AgentKind;
use grail_engine::game::Rules;
use grail_engine::sim::{SimConfig, SimHooks, simulate};
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

fn rulebook(variant: Option<&str>) -> grail_rules::rulebook::Rulebook {
    grail_rules::rulebook::compile(&pack(variant)).expect("the description compiles")
}

fn playouts<R: Rules>(bencher: divan::Bencher, rules: &R, players: usize, games: u64) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut config = SimConfig::new(vec![players], games, 1);
    config.agents = vec![AgentKind::Random];
    bencher.bench_local(|| {
        pool.install(|| simulate(rules, &config, SimHooks::default()))
            .expect("simulates")
    });
}

#[divan::bench(sample_count = 10)]
fn rulebook_random_4p_1000(bencher: divan::Bencher) {
    playouts(bencher, &rulebook(None), 4, 1000);
}

#[divan::bench(sample_count = 10)]
fn rulebook_seals_random_4p_1000(bencher: divan::Bencher) {
    playouts(bencher, &rulebook(Some("seals")), 4, 1000);
}
