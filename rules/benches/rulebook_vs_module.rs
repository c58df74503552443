//! King Arthur and Artus played by the generic rulebook (their descriptions in `content/`)
//! beside the hand-written modules they replace, in one run, one thread:
//! `cargo bench -p grail-rules --bench rulebook_vs_module` (`-- artus` for Artus alone).
//! Each sample plays 1,000 4-player games with random bots through the simulation loop
//! (King Arthur basic and seals, Artus advanced): games/s is 1,000 divided by the time shown.

use std::path::Path;

use grail_engine::agent::AgentKind;
use grail_engine::game::Rules;
use grail_engine::sim::{SimConfig, SimHooks, simulate};
use grail_schema::{Disk, Loader, Pack};

fn main() {
    divan::main();
}

fn pack(variant: Option<&str>) -> Pack {
    game_pack("king-arthur", variant)
}

fn game_pack(game: &str, variant: Option<&str>) -> Pack {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(&content)
        .with_rules(grail_rules::catalog())
        .load_game(game, variant);
    loaded.pack.expect("the bundled pack loads")
}

/// The same pack, played by the generic rulebook.
fn rulebook(variant: Option<&str>) -> grail_rules::rulebook::Rulebook {
    as_rulebook(pack(variant))
}

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
fn module_random_4p_1000(bencher: divan::Bencher) {
    let rules = grail_rules::king_arthur::compile(&pack(None)).expect("the module builds");
    playouts(bencher, &rules, 4, 1000);
}

#[divan::bench(sample_count = 10)]
fn rulebook_random_4p_1000(bencher: divan::Bencher) {
    playouts(bencher, &rulebook(None), 4, 1000);
}

#[divan::bench(sample_count = 10)]
fn module_seals_random_4p_1000(bencher: divan::Bencher) {
    let rules = grail_rules::king_arthur::compile(&pack(Some("seals"))).expect("the module builds");
    playouts(bencher, &rules, 4, 1000);
}

#[divan::bench(sample_count = 10)]
fn rulebook_seals_random_4p_1000(bencher: divan::Bencher) {
    playouts(bencher, &rulebook(Some("seals")), 4, 1000);
}

#[divan::bench(sample_count = 10)]
fn artus_advanced_module_random_4p_1000(bencher: divan::Bencher) {
    let pack = game_pack("artus", Some("advanced"));
    let rules = grail_rules::artus::compile(&pack).expect("the module builds");
    playouts(bencher, &rules, 4, 1000);
}

#[divan::bench(sample_count = 10)]
fn artus_advanced_rulebook_random_4p_1000(bencher: divan::Bencher) {
    playouts(
        bencher,
        &as_rulebook(game_pack("artus", Some("advanced"))),
        4,
        1000,
    );
}
