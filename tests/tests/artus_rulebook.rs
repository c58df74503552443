//! Artus written as content (`content/artus/rulebook.toml` and the advanced variant's part,
//! played by the generic rulebook) held against the hand-written module it replaces: for the
//! same seeds, the same legal moves in the same order and notation, the same games and
//! outcomes, the same `grail sim` statistics, and the module's scripts passing
//! (`grail_tests::ported`).

use grail_engine::agent::AgentKind;
use grail_rules::artus::{self, Artus};
use grail_rules::rulebook::Rulebook;
use grail_tests::ported::{self, Compare};

/// Both rulebooks from one pack: the hand-written one and the content one.
fn both(variant: Option<&str>) -> (Artus, Rulebook) {
    let pack = ported::pack("artus", variant);
    let old = artus::compile(&pack).expect("the module builds");
    (old, ported::as_rulebook(&pack))
}

/// The description's worth is the module's heuristic times 10 000 and the rivals' number
/// (whole numbers where the module divides by the rivals' number).
fn same_worth(old: f64, new: f64, players: usize) -> bool {
    let scaled = old * 10_000.0 * (players - 1) as f64;
    (scaled - new).abs() <= 1e-6 * scaled.abs().max(1.0)
}

const COMPARE: Compare = Compare {
    worth: &same_worth,
    missing: &|_| false,
};

#[test]
fn the_same_games_move_by_move() {
    for variant in [None, Some("advanced")] {
        let (old, new) = both(variant);
        for players in 2..=4 {
            for seed in 0..40 {
                if let Err(e) = ported::lockstep(&old, &new, players, seed, &COMPARE) {
                    panic!("{variant:?}, {players} players, seed {seed}: {e}");
                }
            }
        }
    }
}

/// `grail sim`'s statistics for both, per player count and agents, beginner and advanced.
/// With four players a greedy bot weighs its rivals' mean, a third, which the module computes
/// in floating point: it breaks some exact ties (1/3 rounded two ways) that the description's
/// whole numbers keep, and the greedy bot then draws among them. Those tables are compared
/// with random bots alone.
#[test]
fn the_same_statistics() {
    for variant in [None, Some("advanced")] {
        let (old, new) = both(variant);
        let random = vec![vec![AgentKind::Random]];
        for (players, tables) in [(vec![2, 3], ported::tables()), (vec![4], random)] {
            if let Err(e) = ported::same_statistics(&old, &new, players, 60, tables) {
                panic!("{variant:?} {e}");
            }
        }
    }
}

/// Every Artus script, played by the content rulebook: its questions answered in the module's
/// words (`[queries]`), its refusals in the module's reasons (`why`).
#[test]
fn the_scripts_pass() {
    let failures = ported::script_failures("artus");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
