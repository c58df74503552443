//! Issue 17: "`grail sim --shard I/N` runs the I-th of N disjoint slices of the game indices
//! and `grail merge FILES...` combines the JSON reports into exactly the report of the
//! unsharded run (byte for byte)" — for every bundled game, with several agents, through
//! the JSON a batch job would write, in any order of the files.

use grail_engine::agent::{AgentKind, Budget};
use grail_engine::facade::DynGame;
use grail_engine::sim::{Report, SimConfig, SimHooks};
use grail_engine::stats::{Shard, merge};
use grail_schema::{Disk, Loader};

fn game(id: &str) -> Box<dyn DynGame> {
    let loaded = Loader::new(&Disk)
        .with_content(grail_tests::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game(id, None);
    let pack = loaded.pack.unwrap_or_else(|| panic!("{id} does not load"));
    grail_rules::build(&pack).unwrap_or_else(|_| panic!("{id} does not build"))
}

fn json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap()
}

#[test]
fn three_shards_merge_into_the_unsharded_report_in_every_game() {
    let agents = [
        vec![AgentKind::Random],
        vec![AgentKind::Greedy, AgentKind::Random],
        vec![AgentKind::ismcts(Budget::Iterations(4)), AgentKind::Greedy],
    ];
    for id in ["king-arthur", "artus", "quests", "virtues"] {
        let game = game(id);
        let players = *game.players().start();
        for (i, agents) in agents.iter().enumerate() {
            // The searching agent is slow: fewer games, still more than shards.
            let games = if i == 2 { 4 } else { 10 };
            let mut config = SimConfig::new(vec![players], games, 5);
            config.agents = agents.clone();
            config.detail = i == 1;
            let whole = json(&game.simulate(&config, SimHooks::default()).unwrap());
            let shards: Vec<Report> = (1..=3)
                .map(|index| {
                    config.shard = Some(Shard { index, count: 3 });
                    let text = json(&game.simulate(&config, SimHooks::default()).unwrap());
                    serde_json::from_str(&text).unwrap()
                })
                .collect();
            for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2]] {
                let given: Vec<Report> = order.iter().map(|&s| shards[s].clone()).collect();
                let merged = merge(&given).unwrap();
                assert_eq!(
                    json(&merged),
                    whole,
                    "{id}, agents {agents:?}, order {order:?}"
                );
            }
        }
    }
}
