//! King Arthur written as content (`content/king-arthur/rulebook.toml`, played by the
//! generic rulebook) held against the hand-written module it replaces: for the same seeds,
//! the same legal moves in the same order, the same games, the same `grail sim` statistics
//! (`grail_tests::ported`).

use grail_rules::king_arthur::{self, KingArthur};
use grail_rules::rulebook::Rulebook;
use grail_tests::ported::{self, Compare};

/// Both rulebooks from one pack: the hand-written one and the content one.
fn both(variant: Option<&str>) -> (KingArthur, Rulebook) {
    let pack = ported::pack("king-arthur", variant);
    let old = king_arthur::compile(&pack).expect("the module builds");
    (old, ported::as_rulebook(&pack))
}

/// The description's worth is the module's heuristic in hundredths, exactly.
const COMPARE: Compare = Compare {
    worth: &|old, new, _| old * 100.0 == new,
    missing: &|_| false,
};

#[test]
fn the_same_games_move_by_move() {
    for variant in [None, Some("seals")] {
        let (old, new) = both(variant);
        for players in 2..=5 {
            for seed in 0..40 {
                if let Err(e) = ported::lockstep(&old, &new, players, seed, &COMPARE) {
                    panic!("{variant:?}, {players} players, seed {seed}: {e}");
                }
            }
        }
    }
}

/// `grail sim`'s statistics for both, per player count and agents.
#[test]
fn the_same_statistics() {
    for variant in [None, Some("seals")] {
        let (old, new) = both(variant);
        if let Err(e) = ported::same_statistics(&old, &new, vec![2, 3, 4, 5], 60, ported::tables())
        {
            panic!("{variant:?} {e}");
        }
    }
}

/// Every King Arthur script, played by the content rulebook.
#[test]
fn the_scripts_pass() {
    let failures = ported::script_failures("king-arthur");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
