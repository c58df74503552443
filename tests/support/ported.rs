//! Holding a game written as content (played by the generic rulebook) to the hand-written
//! module it replaces: for the same seeds, the same legal moves in the same order, the same
//! games, the same `grail sim` statistics, and the module's scripts passing. The bundled pack
//! still names the module; here the same loaded pack is built once more with its rules key
//! swapped to the generic rulebook.

use grail_engine::agent::AgentKind;
use grail_engine::game::{NoEvents, Rules, Setup};
use grail_engine::rng::GameRng;
use grail_engine::sim::{SimConfig, SimHooks, simulate};
use grail_rules::rulebook::{self, Rulebook};
use grail_schema::{Disk, Loader, Pack};

/// A bundled game's pack, loaded as `grail` loads it.
pub fn pack(game: &str, variant: Option<&str>) -> Pack {
    Loader::new(&Disk)
        .with_content(crate::content_dir())
        .with_rules(grail_rules::catalog())
        .load_game(game, variant)
        .pack
        .unwrap_or_else(|| panic!("the bundled {game} {variant:?} pack loads"))
}

/// The same pack with `rules = "rulebook"`: its description, compiled.
pub fn as_rulebook(pack: &Pack) -> Rulebook {
    let mut swapped = pack.clone();
    swapped.rules = grail_schema::GENERIC_RULEBOOK.to_string();
    rulebook::compile(&swapped).unwrap_or_else(|d| panic!("{d:#?}"))
}

/// The legal moves in notation, in the order they are listed.
pub fn notations<R: Rules>(rules: &R, state: &R::State) -> Vec<String> {
    let mut out = Vec::new();
    rules.legal_actions(state, &mut out);
    out.iter().map(|a| rules.format_action(state, a)).collect()
}

/// How a game is compared, besides the moves and the outcome.
pub struct Compare<'a> {
    /// Whether the two heuristics agree for a seat: (old, new, players).
    pub worth: &'a dyn Fn(f64, f64, usize) -> bool,
    /// Moves the content rulebook cannot make yet: left out of both lists, and a game that
    /// chooses one is compared no further.
    pub missing: &'a dyn Fn(&str) -> bool,
}

/// Plays one game with both, choosing at random among the module's legal moves, and returns
/// the number of moves compared, or the first difference: in the legal moves (their order
/// too), a heuristic, the seat to move or the outcome.
pub fn lockstep<A: Rules, B: Rules>(
    old: &A,
    new: &B,
    players: usize,
    seed: u64,
    compare: &Compare,
) -> Result<usize, String> {
    let setup = Setup::new(players, seed);
    let mut a = old.setup(&setup).map_err(|e| e.to_string())?;
    let mut b = new.setup(&setup).map_err(|e| e.to_string())?;
    let mut rng = GameRng::new(seed ^ 0x5eed);
    let (mut la, mut lb) = (Vec::new(), Vec::new());
    for moves in 0.. {
        let (na, nb) = (notations(old, &a), notations(new, &b));
        let kept = |n: &Vec<String>| -> Vec<String> {
            n.iter()
                .filter(|m| !(compare.missing)(m))
                .cloned()
                .collect()
        };
        if !na.is_empty() && kept(&na).is_empty() {
            // Only moves the content rulebook cannot make: it would skip the step.
            return Ok(moves);
        }
        if kept(&na) != kept(&nb) {
            return Err(format!(
                "move {moves}: legal moves differ\n old {na:?}\n new {nb:?}\n{}\n{}",
                old.render(&a, None),
                new.render(&b, None)
            ));
        }
        for seat in 0..players {
            let (ha, hb) = (old.heuristic(&a, seat), new.heuristic(&b, seat));
            if !(compare.worth)(ha, hb, players) {
                return Err(format!(
                    "move {moves}: P{} worth {ha} (old) against {hb}\n{}\n{}",
                    seat + 1,
                    old.render(&a, None),
                    new.render(&b, None)
                ));
            }
        }
        if na.is_empty() {
            let (oa, ob) = (old.outcome(&a), new.outcome(&b));
            return if oa == ob {
                Ok(moves)
            } else {
                Err(format!("outcomes differ\n old {oa:?}\n new {ob:?}"))
            };
        }
        if old.to_move(&a) != new.to_move(&b) {
            return Err(format!("move {moves}: a different seat moves"));
        }
        old.legal_actions(&a, &mut la);
        new.legal_actions(&b, &mut lb);
        let i = rng.index(la.len());
        if (compare.missing)(&na[i]) {
            return Ok(moves);
        }
        let j = nb.iter().position(|m| *m == na[i]).unwrap_or(i);
        old.apply(&mut a, &la[i], &mut NoEvents);
        new.apply(&mut b, &lb[j], &mut NoEvents);
    }
    unreachable!()
}

/// The tables `grail sim`'s baselines were recorded for: random, greedy, greedy and random.
pub fn tables() -> Vec<Vec<AgentKind>> {
    vec![
        vec![AgentKind::Random],
        vec![AgentKind::Greedy],
        vec![AgentKind::Greedy, AgentKind::Random],
    ]
}

/// `grail sim`'s statistics of both, per player count, for each table of agents: the first
/// that differ.
pub fn same_statistics<A: Rules, B: Rules>(
    old: &A,
    new: &B,
    players: Vec<usize>,
    games: u64,
    tables: Vec<Vec<AgentKind>>,
) -> Result<(), String> {
    for agents in tables {
        let mut config = SimConfig::new(players.clone(), games, 1);
        config.agents = agents.clone();
        let a = simulate(old, &config, SimHooks::default()).map_err(|e| e.to_string())?;
        let b = simulate(new, &config, SimHooks::default()).map_err(|e| e.to_string())?;
        let (a, b) = (
            serde_json::to_value(&a.results).map_err(|e| e.to_string())?,
            serde_json::to_value(&b.results).map_err(|e| e.to_string())?,
        );
        if a != b {
            return Err(format!("{agents:?}:\n old {a}\n new {b}"));
        }
    }
    Ok(())
}

/// Every script of a game's folder (`tests/scripts/<game>`), played by the content
/// rulebook (the digests, which hash the module's state, left out): the failures.
pub fn script_failures(game: &str) -> Vec<String> {
    use grail_engine::replay::{ReplayFile, ReplayOptions, Step};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(game);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut file = ReplayFile::parse(&text).unwrap();
        // The digests hash the module's state; the rulebook's is laid out differently (they
        // are re-recorded when the bundled pack switches).
        for step in &mut file.replay.steps {
            if let Step::Move(text, _) = step {
                *step = Step::Play(std::mem::take(text));
            }
        }
        let mut pack = pack(game, file.replay.variant.as_deref());
        pack.rules = grail_schema::GENERIC_RULEBOOK.to_string();
        let built = grail_rules::build(&pack).unwrap_or_else(|d| panic!("{d:#?}"));
        let run = built.replay(
            &file,
            ReplayOptions {
                ignore_content_hash: true,
                ..ReplayOptions::default()
            },
        );
        if let Some(failure) = &run.failure {
            failures.push(format!("{}: {failure:?}", path.display()));
        }
    }
    failures
}
