//! Unit tests of the quests rulebook.

use grail_engine::agent::{Agent, AgentKind, BuiltinAgent, agent_seed, decide, view_seed};
use grail_engine::game::{NoEvents, Rules, Setup};
use grail_engine::rng::GameRng;
use grail_schema::{Disk, Loader};

use super::Quests;

pub(crate) fn rules() -> Quests {
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = Loader::new(&Disk)
        .with_content(content)
        .with_rules(crate::catalog())
        .load_game("quests", None);
    super::compile(loaded.pack.as_ref().expect("the bundled pack loads")).expect("it compiles")
}

/// Where bots spend their decisions (`cargo test -p grail-rules profile -- --ignored --nocapture`).
#[test]
#[ignore]
fn profile_decisions() {
    let q = rules();
    let mut by_phase: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    for seed in 0..100 {
        let mut s = q.setup(&Setup::new(4, seed)).unwrap();
        let mut agents: Vec<BuiltinAgent<Quests>> = (0..4)
            .map(|p| AgentKind::Greedy.build(agent_seed(seed, p)))
            .collect();
        let mut view_rng = GameRng::new(view_seed(seed));
        let mut legal = Vec::new();
        while let Some(seat) = q.to_move(&s) {
            q.legal_actions(&s, &mut legal);
            let key = if q.over_limit(&s) == Some(seat as u8) {
                "HandLimit".to_string()
            } else {
                format!("{:?}", s.phase)
                    .split([' ', '{'])
                    .next()
                    .unwrap()
                    .to_string()
            };
            let e = by_phase.entry(key).or_default();
            e.0 += 1;
            e.1 += legal.len() as u64;
            let i = decide(&q, &s, seat, &legal, &mut agents[seat], &mut view_rng);
            let a = legal[i];
            q.apply(&mut s, &a, &mut NoEvents);
        }
        let _ = agents[0].name();
    }
    for (k, (n, l)) in by_phase {
        println!(
            "{k:>14}: {:>7.1} decisions/game, {:>5.1} options each",
            n as f64 / 100.0,
            l as f64 / n as f64
        );
    }
}

#[test]
#[ignore]
fn profile_costs() {
    use std::time::Instant;
    let q = rules();
    let mut states = Vec::new();
    for seed in 0..20 {
        let mut s = q.setup(&Setup::new(4, seed)).unwrap();
        let mut agents: Vec<BuiltinAgent<Quests>> = (0..4)
            .map(|p| AgentKind::Greedy.build(agent_seed(seed, p)))
            .collect();
        let mut view_rng = GameRng::new(view_seed(seed));
        let mut legal = Vec::new();
        while let Some(seat) = q.to_move(&s) {
            q.legal_actions(&s, &mut legal);
            if legal.len() > 1 {
                states.push((s.clone(), seat));
            }
            let i = decide(&q, &s, seat, &legal, &mut agents[seat], &mut view_rng);
            let a = legal[i];
            q.apply(&mut s, &a, &mut NoEvents);
        }
    }
    let n = states.len() as f64;
    let mut rng = GameRng::new(1);
    let t = Instant::now();
    let mut hands = 0;
    for (s, seat) in &states {
        let v = q.observe(s, *seat, &mut rng);
        hands += v.players[0].hand.total();
    }
    println!(
        "observe: {:.0} ns ({hands})",
        t.elapsed().as_nanos() as f64 / n
    );
    let views: Vec<_> = states
        .iter()
        .map(|(s, seat)| q.observe(s, *seat, &mut rng))
        .collect();
    let t = Instant::now();
    let mut x = 0.0;
    for (v, seat) in views.iter().zip(states.iter().map(|s| s.1)) {
        x += q.heuristic(v, seat);
    }
    println!(
        "heuristic: {:.0} ns ({x})",
        t.elapsed().as_nanos() as f64 / n
    );
    let t = Instant::now();
    let mut legal = Vec::new();
    let mut total = 0;
    for (s, _) in &states {
        q.legal_actions(s, &mut legal);
        total += legal.len();
    }
    println!(
        "legal: {:.0} ns, {:.1} options",
        t.elapsed().as_nanos() as f64 / n,
        total as f64 / n
    );
    let t = Instant::now();
    let mut scratch = states[0].0.clone();
    for (s, _) in &states {
        q.legal_actions(s, &mut legal);
        for a in &legal {
            scratch.clone_from(s);
            q.apply(&mut scratch, a, &mut NoEvents);
        }
    }
    println!(
        "clone+apply per option: {:.0} ns",
        t.elapsed().as_nanos() as f64 / total as f64
    );
    let t = Instant::now();
    for (s, _) in &states {
        scratch.clone_from(s);
    }
    println!("clone_from: {:.0} ns", t.elapsed().as_nanos() as f64 / n);
    println!("{} decisions/game", n / 20.0);
}
