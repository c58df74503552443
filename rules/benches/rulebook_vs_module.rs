//! King Arthur and Artus advanced played by the generic rulebook from their descriptions
//! (`content/<game>/rulebook.toml`). The hand-written modules they were measured against are
//! deleted; BENCHMARKS.md keeps the side-by-side figures and the commits they were taken at.
//! One thread: `cargo bench -p grail-rules --bench rulebook_vs_module` (`-- artus` for Artus
//! alone). Each sample plays 1,000 4-player games with random bots through the simulation
//! loop: games/s is 1,000 divided by the time shown.

use std::path::Path;

use grail_engine::agent::AgentKind;
use grail_engine::game::Rules;
use grail_engine::sim::{SimConfig, SimHooks, simulate};
use grail_schema::{Disk, Loader, Pack};

fn main() {
    divan::main();
}

fn game_pack(game: &str, variant: Option<&str>) -> Pack {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(&content)
        .with_rules(grail_rules::catalog())
        .load_game(game, variant);
    loaded.pack.expect("the bundled pack loads")
}

/// The pack played by the generic rulebook (whatever module it names).
fn as_rulebook(mut pack: Pack) -> grail_rules::rulebook::Rulebook {
    pack.rules = grail_schema::GENERIC_RULEBOOK.to_string();
    grail_rules::rulebook::compile(&pack).expect("the description compiles")
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
    playouts(
        bencher,
        &as_rulebook(game_pack("king-arthur", None)),
        4,
        1000,
    );
}

#[divan::bench(sample_count = 10)]
fn rulebook_seals_random_4p_1000(bencher: divan::Bencher) {
    let pack = game_pack("king-arthur", Some("seals"));
    playouts(bencher, &as_rulebook(pack), 4, 1000);
}

#[divan::bench(sample_count = 10)]
fn artus_advanced_rulebook_random_4p_1000(bencher: divan::Bencher) {
    let pack = game_pack("artus", Some("advanced"));
    playouts(bencher, &as_rulebook(pack), 4, 1000);
}
