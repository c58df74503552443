//! The Quests draft (`tests/packs/quests-rulebook`) counts in its balance report what the
//! module's report counts (issue 30 holds the port to `tests/baselines/modules`): every kind
//! and story card it names is one the module's recorded report names, and the counts keep the
//! rule text's order of things: a quest is sponsored only once drawn and completed only once
//! sponsored, a tournament held has a winner (ties: several), each counted in the turn it
//! happened.

use std::collections::{BTreeMap, BTreeSet};

use grail_engine::agent::AgentKind;
use grail_engine::game::Setup;

const PACK: &str = "tests/packs/quests-rulebook";

/// The (kind, story card) pairs the module's recorded report names.
fn module_tallies() -> BTreeSet<(String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("baselines/modules/quests-random.json");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut named = BTreeSet::new();
    for result in report["results"].as_array().unwrap() {
        for t in result["tallies"].as_array().unwrap() {
            let text = |k: &str| t[k].as_str().unwrap().to_string();
            named.insert((text("kind"), text("item")));
        }
    }
    named
}

#[test]
fn the_drafts_report_counts_what_the_modules_counts() {
    let module = module_tallies();
    let game = grail_tests::open_pack(PACK);
    let mut seen = BTreeSet::new();
    for players in 2..=4 {
        for seed in 0..20u64 {
            let mut m = game.new_match(Setup::new(players, seed)).unwrap();
            while m.to_move().is_some() {
                m.bot_move(AgentKind::Random).unwrap();
            }
            let outcome = m.outcome().expect("the game ends");
            let mut counts: BTreeMap<(&str, &str), u32> = BTreeMap::new();
            for t in &outcome.tallies {
                let key = (t.kind.to_string(), t.item.to_string());
                assert!(
                    module.contains(&key),
                    "{players}p seed {seed}: `{} {}` is not a tally of the module's report",
                    t.kind,
                    t.item
                );
                assert!(t.turn <= outcome.turns, "counted after the last turn");
                seen.insert(key);
                *counts.entry((&t.kind, &t.item)).or_default() += 1;
            }
            let n = |kind: &str, item: &str| counts.get(&(kind, item)).copied().unwrap_or(0);
            for (kind, item) in counts.keys() {
                let at = format!("{players}p seed {seed}, {item}");
                match *kind {
                    "quest sponsored" => assert!(n(kind, item) <= n("quest drawn", item), "{at}"),
                    "quest completed" => {
                        assert!(n(kind, item) <= n("quest sponsored", item), "{at}")
                    }
                    "tournament won" => assert!(
                        n(kind, item) >= n("tournament held", item)
                            && n(kind, item) <= n("tournament held", item) * players as u32,
                        "{at}"
                    ),
                    "tournament held" => assert!(n("tournament won", item) > 0, "{at}"),
                    _ => {}
                }
            }
        }
    }
    // Every kind of the module's report was met in these games.
    let kinds = |set: &BTreeSet<(String, String)>| {
        set.iter().map(|(k, _)| k.clone()).collect::<BTreeSet<_>>()
    };
    assert_eq!(kinds(&seen), kinds(&module));
}
