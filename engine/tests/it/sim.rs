use std::sync::Mutex;

use grail_engine::agent::AgentKind;
use grail_engine::replay::{ReplayFile, ReplayOptions, run};
use grail_engine::sim::{GameRecord, Report, SimConfig, SimError, SimHooks, simulate};

use crate::toy::Toy;

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

fn config(games: u64) -> SimConfig {
    let mut c = SimConfig::new(vec![2, 3, 4], games, 99);
    c.agents = vec![AgentKind::Greedy, AgentKind::Random];
    c
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let c = config(300);
    let one: Report = in_pool(1, || simulate(&Toy, &c, SimHooks::default())).unwrap();
    let two: Report = in_pool(2, || simulate(&Toy, &c, SimHooks::default())).unwrap();
    assert_eq!(one, two);
    let json1 = serde_json::to_string_pretty(&one).unwrap();
    let json2 = serde_json::to_string_pretty(&two).unwrap();
    assert_eq!(json1, json2);
    // Another seed is another run.
    let other = SimConfig { seed: 100, ..c };
    let three = in_pool(2, || simulate(&Toy, &other, SimHooks::default())).unwrap();
    assert_ne!(one.results, three.results);
}

#[test]
fn report_accounts_for_every_game() {
    let report = simulate(&Toy, &config(200), SimHooks::default()).unwrap();
    assert_eq!((report.game.as_str(), report.games), ("toy", 200));
    assert_eq!(report.results.len(), 3);
    for r in &report.results {
        assert_eq!(r.games, 200);
        assert_eq!(r.completed, 200);
        assert_eq!(r.end_reasons.values().sum::<u64>(), 200);
        assert_eq!(r.seats.len(), r.players);
        let wins: f64 = r.seats.iter().map(|s| s.wins).sum();
        assert!(
            (wins - 200.0).abs() < 0.01,
            "win shares sum to games: {wins}"
        );
        for s in &r.seats {
            assert!(s.win_rate_low <= s.win_rate && s.win_rate <= s.win_rate_high);
        }
        assert_eq!(r.seats[0].agent, "greedy");
        assert_eq!(r.seats[1].agent, "random");
        assert!(r.mean_turns > 0.0 && r.mean_turns <= 80.0);
        assert!(r.tallies.iter().any(|t| t.kind == "bank" && t.count > 0));
    }
    let json: serde_json::Value = serde_json::to_value(&report).unwrap();
    for field in ["game", "variant", "players", "games", "results"] {
        assert!(json.get(field).is_some(), "{field}");
    }
    for field in ["players", "games", "seats", "end_reasons", "mean_turns"] {
        assert!(json["results"][0].get(field).is_some(), "{field}");
    }
    assert!(json["results"][0]["seats"][0].get("wins").is_some());
    assert!(json["results"][0]["seats"][0].get("mean_score").is_some());
}

#[test]
fn greedy_beats_random() {
    let mut c = SimConfig::new(vec![2], 600, 7);
    c.agents = vec![AgentKind::Greedy, AgentKind::Random];
    let greedy_first = simulate(&Toy, &c, SimHooks::default()).unwrap();
    c.agents = vec![AgentKind::Random, AgentKind::Greedy];
    let greedy_second = simulate(&Toy, &c, SimHooks::default()).unwrap();
    let g1 = &greedy_first.results[0].seats[0];
    let g2 = &greedy_second.results[0].seats[1];
    // The lower end of the 95% interval is above even odds from either seat.
    assert!(g1.win_rate_low > 0.5, "{g1:?}");
    assert!(g2.win_rate_low > 0.5, "{g2:?}");
}

#[test]
fn recorded_games_verify() {
    let mut c = SimConfig::new(vec![2, 4], 20, 3);
    c.agents = vec![AgentKind::Greedy, AgentKind::Random];
    c.record = true;
    let records = Mutex::new(Vec::new());
    let sink = |r: GameRecord| records.lock().unwrap().push(r);
    let progress_calls = std::sync::atomic::AtomicU64::new(0);
    let progress = |_done: u64| {
        progress_calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let hooks = SimHooks {
        progress: Some(&progress),
        record: Some(&sink),
    };
    let report = simulate(&Toy, &c, hooks).unwrap();
    let records = records.into_inner().unwrap();
    assert_eq!(records.len(), 40);
    assert_eq!(progress_calls.into_inner(), 40);
    let verify = ReplayOptions {
        verify: true,
        ignore_content_hash: false,
        pack_chosen: false,
    };
    for r in &records {
        let text = r.replay.to_ron();
        let file = ReplayFile::parse(&text).unwrap();
        let run = run(&Toy, None, &file, verify);
        assert!(
            run.passed(),
            "game {} ({}p): {:?}",
            r.index,
            r.players,
            run.failure
        );
        assert_eq!(r.replay.agents.as_deref().unwrap()[1], "random");
    }
    // Recording does not change the games.
    let plain = simulate(&Toy, &SimConfig { record: false, ..c }, SimHooks::default()).unwrap();
    assert_eq!(plain, report);
}

#[test]
fn runaway_games_are_abandoned_not_hung() {
    let mut c = SimConfig::new(vec![2], 10, 1);
    c.max_moves = 3;
    let r = simulate(&Toy, &c, SimHooks::default()).unwrap();
    assert_eq!(r.results[0].completed, 0);
    assert_eq!(r.results[0].end_reasons.get("(move limit)"), Some(&10));
}

#[test]
fn unsupported_player_counts_are_refused() {
    let err = simulate(&Toy, &SimConfig::new(vec![2, 6], 1, 1), SimHooks::default()).unwrap_err();
    assert_eq!(
        err,
        SimError::Players {
            players: 6,
            supported: (2, 4)
        }
    );
    assert_eq!(err.to_string(), "this game is for 2 to 4 players, not 6");
}

#[test]
fn a_bots_only_match_plays_the_simulated_game_of_its_seed() {
    let mut c = SimConfig::new(vec![3], 6, 17);
    c.agents = vec![AgentKind::Greedy, AgentKind::Random, AgentKind::Greedy];
    c.record = true;
    let records = Mutex::new(Vec::new());
    let sink = |r: GameRecord| records.lock().unwrap().push(r);
    let hooks = SimHooks {
        record: Some(&sink),
        ..SimHooks::default()
    };
    simulate(&Toy, &c, hooks).unwrap();
    let records = records.into_inner().unwrap();
    assert_eq!(records.len(), 6);
    for r in records {
        let seed = grail_engine::rng::GameRng::derive_seed(17, r.index);
        assert_eq!(r.replay.seed, seed);
        let rules = Toy;
        let mut m = grail_engine::play::Match::new(&rules, grail_engine::game::Setup::new(3, seed))
            .unwrap();
        let mut bots: Vec<_> = (0..3)
            .map(|s| {
                c.agent(s)
                    .build::<Toy>(grail_engine::agent::agent_seed(seed, s))
            })
            .collect();
        while let Some(seat) = m.to_move() {
            m.bot_move(&mut bots[seat]).unwrap();
        }
        let replayed = grail_engine::replay::Replay::from_match(&m, None, r.replay.agents.clone());
        assert_eq!(replayed, r.replay, "game {}", r.index);
    }
}

/// Issue 17: "two shards merged equal the unsharded report byte for byte", in any order, and
/// through JSON (as `grail merge` reads them).
#[test]
fn shards_merge_into_the_unsharded_report() {
    use grail_engine::stats::{MergeError, Shard, merge};
    for detail in [false, true] {
        let mut c = config(130);
        c.detail = detail;
        let whole = simulate(&Toy, &c, SimHooks::default()).unwrap();
        let whole_json = serde_json::to_string_pretty(&whole).unwrap();
        let shards: Vec<Report> = (1..=3)
            .map(|index| {
                let c = SimConfig {
                    shard: Some(Shard { index, count: 3 }),
                    ..c.clone()
                };
                let json =
                    serde_json::to_string_pretty(&simulate(&Toy, &c, SimHooks::default()).unwrap())
                        .unwrap();
                serde_json::from_str(&json).unwrap()
            })
            .collect();
        assert_eq!(shards.iter().map(|s| s.results[0].games).sum::<u64>(), 130);
        for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
            let given: Vec<Report> = order.iter().map(|&i| shards[i].clone()).collect();
            let merged = merge(&given).unwrap();
            assert_eq!(serde_json::to_string_pretty(&merged).unwrap(), whole_json);
        }
        if detail {
            let r = &whole.results[0];
            assert!(!r.actions.is_empty() && r.mean_lead_changes.is_some());
        }
        assert_eq!(
            merge(&shards[..2]),
            Err(MergeError::Missing {
                shards: vec![Shard { index: 3, count: 3 }]
            })
        );
        let twice = [shards[0].clone(), shards[0].clone(), shards[1].clone()];
        assert!(matches!(merge(&twice), Err(MergeError::Overlap { .. })));
        let mut other = shards[1].clone();
        other.seed += 1;
        assert_eq!(
            merge(&[shards[0].clone(), other, shards[2].clone()]),
            Err(MergeError::Differs {
                index: 1,
                what: "seed"
            })
        );
        assert_eq!(
            merge(std::slice::from_ref(&whole)),
            Err(MergeError::NotShard { index: 0 })
        );
        // Hand-edited files are refused, not misread.
        let mut short = shards[2].clone();
        short.results[0].totals.seats.pop();
        let mut zero = shards[2].clone();
        zero.shard = Some(Shard { index: 0, count: 3 });
        let mut more = shards[2].clone();
        more.results[0].totals.games += 1;
        for bad in [short, zero, more] {
            assert!(matches!(
                merge(&[shards[0].clone(), shards[1].clone(), bad]),
                Err(MergeError::Malformed { index: 2, .. })
            ));
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// Any number of games cut into any number of shards (some empty) merges back into the
    /// whole run's report.
    #[test]
    fn any_sharding_merges_back(games in 1u64..40, count in 1u64..7, seed in 0u64..1000) {
        use grail_engine::stats::{Shard, merge};
        let mut c = SimConfig::new(vec![2, 3], games, seed);
        c.agents = vec![AgentKind::Greedy, AgentKind::Random];
        let whole = simulate(&Toy, &c, SimHooks::default()).unwrap();
        let shards: Vec<Report> = (1..=count)
            .rev()
            .map(|index| {
                let c = SimConfig { shard: Some(Shard { index, count }), ..c.clone() };
                simulate(&Toy, &c, SimHooks::default()).unwrap()
            })
            .collect();
        proptest::prop_assert_eq!(merge(&shards).unwrap(), whole);
    }
}
