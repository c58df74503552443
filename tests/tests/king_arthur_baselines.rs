//! The bundled King Arthur pack, played by the generic rulebook from its description, gives
//! the games the hand-written module it replaced recorded (`tests/baselines/rulebook/`,
//! 2,000 games per player count, seed 1): a few configurations here, cheaply; every
//! recorded report, byte for byte, with a release build: `compare-king-arthur.sh`.

use grail_engine::agent::AgentKind;
use grail_engine::sim::{SimConfig, SimHooks};
use grail_schema::{Disk, Loader};

/// Whether every value `old` records is in `new` (reports have since gained fields).
fn within(old: &serde_json::Value, new: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => o
            .iter()
            .all(|(k, v)| n.get(k).is_some_and(|w| within(v, w))),
        (Value::Array(o), Value::Array(n)) => {
            o.len() == n.len() && o.iter().zip(n).all(|(v, w)| within(v, w))
        }
        _ => old == new,
    }
}

/// Simulates `players` with `agents` as the baseline did and compares that player count's
/// results with the recorded ones.
fn reproduces(variant: Option<&str>, agents: &[AgentKind], players: usize) {
    let pack = Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game("king-arthur", variant)
        .pack
        .expect("the bundled King Arthur pack loads");
    let game = grail_rules::build(&pack).unwrap_or_else(|d| panic!("{d:#?}"));
    let mut config = SimConfig::new(vec![players], 2000, 1);
    config.agents = agents.to_vec();
    let report = game.simulate(&config, SimHooks::default()).unwrap();
    let tag = agents
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join("-");
    let name = match variant {
        Some(v) => format!("king-arthur-{v}-{tag}.json"),
        None => format!("king-arthur-{tag}.json"),
    };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("baselines/rulebook")
        .join(&name);
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let recorded = recorded["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["players"] == players)
        .unwrap_or_else(|| panic!("{name} records {players} players"));
    let new = serde_json::to_value(&report.results[0]).unwrap();
    assert!(
        within(recorded, &new),
        "{name}, {players} players:\nrecorded {recorded:#}\nnow {new:#}"
    );
}

#[test]
fn the_basic_game_with_random_bots() {
    reproduces(None, &[AgentKind::Random], 2);
}

#[test]
fn the_game_with_seals_with_random_bots() {
    reproduces(Some("seals"), &[AgentKind::Random], 3);
}

#[test]
fn the_basic_game_greedy_against_random() {
    reproduces(None, &[AgentKind::Greedy, AgentKind::Random], 2);
}
