//! The bundled games whose hand-written modules were retired (King Arthur, Artus), played by
//! the generic rulebook from their descriptions, give the games those modules recorded
//! (`tests/baselines/rulebook/`, 2,000 games per player count, seed 1): a few cheap
//! configurations of each here; every recorded report, with a release build:
//! `tests/baselines/rulebook/compare.sh GAME PLAYERS [VARIANT...]`.

use grail_engine::agent::AgentKind;
use grail_engine::agent::AgentKind::{Greedy, Random};
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

/// A bundled game's pack, loaded.
fn bundled(game: &str, variant: Option<&str>) -> grail_schema::Pack {
    Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game(game, variant)
        .pack
        .unwrap_or_else(|| panic!("the bundled {game} pack loads"))
}

/// Simulates `players` of a bundled game with `agents` as its baseline did, by the generic
/// rulebook, and compares that player count's results with the recorded ones
/// (`GAME[-VARIANT]-AGENTS.json`, as `record.sh` names them).
fn reproduces(game: &str, variant: Option<&str>, agents: &[AgentKind], players: usize) {
    let pack = bundled(game, variant);
    assert_eq!(
        pack.rules,
        grail_schema::GENERIC_RULEBOOK,
        "{game} is played by its description"
    );
    let rules = grail_rules::build(&pack).unwrap_or_else(|d| panic!("{d:#?}"));
    let mut config = SimConfig::new(vec![players], 2000, 1);
    config.agents = agents.to_vec();
    let report = rules.simulate(&config, SimHooks::default()).unwrap();
    let tag = agents
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join("-");
    let name = match variant {
        Some(v) => format!("{game}-{v}-{tag}.json"),
        None => format!("{game}-{tag}.json"),
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
fn king_arthur_basic_with_random_bots() {
    reproduces("king-arthur", None, &[Random], 2);
}

#[test]
fn king_arthur_with_seals_with_random_bots() {
    reproduces("king-arthur", Some("seals"), &[Random], 3);
}

#[test]
fn king_arthur_basic_greedy_against_random() {
    reproduces("king-arthur", None, &[Greedy, Random], 2);
}

#[test]
fn artus_advanced_with_random_bots() {
    reproduces("artus", Some("advanced"), &[Random], 2);
}

#[test]
fn artus_beginner_greedy_against_random() {
    reproduces("artus", None, &[Greedy, Random], 2);
}

/// A random player in `grail sim` picks by the number of moves alone
/// (`Agent::choose_by_count`) and reads only the move it picks, where Artus keeps its card
/// tables' moves by reference: it plays, move for move, the game a match's random bots play
/// from the same seed (which read the moves written out).
#[test]
fn simulated_random_games_are_the_games_a_match_plays() {
    use grail_engine::game::Setup;
    use grail_engine::sim::GameRecord;
    for (game, variant, players) in [("artus", Some("advanced"), 4), ("king-arthur", None, 3)] {
        let pack = bundled(game, variant);
        let rules = grail_rules::build(&pack).unwrap_or_else(|d| panic!("{d:#?}"));
        let mut config = SimConfig::new(vec![players], 6, 5);
        config.agents = vec![Random];
        config.record = true;
        let records = std::sync::Mutex::new(Vec::new());
        let sink = |r: GameRecord| records.lock().unwrap().push(r);
        let hooks = SimHooks {
            record: Some(&sink),
            ..SimHooks::default()
        };
        rules.simulate(&config, hooks).unwrap();
        let records = records.into_inner().unwrap();
        assert_eq!(records.len(), 6);
        for r in records {
            let mut m = rules.new_match(Setup::new(players, r.replay.seed)).unwrap();
            while m.to_move().is_some() {
                m.bot_move(Random).unwrap();
            }
            let played = m.to_replay(None);
            assert!(played.steps.len() > 20, "{game}: a whole game");
            assert_eq!(played.steps, r.replay.steps, "{game}, game {}", r.index);
        }
    }
}
