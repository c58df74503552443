//! Artus written as content (`content/artus/rulebook.toml` and the advanced variant's part,
//! played by the generic rulebook) held against the hand-written module it replaces: for the
//! same seeds, the same legal moves in the same order and notation, the same games and
//! outcomes, the same `grail sim` statistics, and the module's scripts passing
//! (`grail_tests::ported`).

use grail_rules::artus::{self, Artus};
use grail_rules::rulebook::Rulebook;
use grail_tests::ported::{self, Compare};

/// Both rulebooks from one pack: the hand-written one and the content one.
fn both(variant: Option<&str>) -> (Artus, Rulebook) {
    let pack = ported::pack("artus", variant);
    let old = artus::compile(&pack).expect("the module builds");
    (old, ported::as_rulebook(&pack))
}

/// The description's worth states the module's heuristic in its order of operations, reckoned
/// in real numbers since it divides: the same values to the bit, at every player count.
const COMPARE: Compare = Compare {
    worth: &|old, new, _| old.to_bits() == new.to_bits(),
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

/// `grail sim`'s statistics for both, per player count and agents, beginner and advanced:
/// greedy tables at four players too, where the module's rival mean is a third rounded in
/// floating point and the description's worth rounds it alike.
#[test]
fn the_same_statistics() {
    for variant in [None, Some("advanced")] {
        let (old, new) = both(variant);
        if let Err(e) = ported::same_statistics(&old, &new, vec![2, 3, 4], 60, ported::tables()) {
            panic!("{variant:?} {e}");
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

/// `/` divides exactly, in real numbers: the worth's arithmetic may (`+ - * /`, `if`'s
/// branches, `others(…)`), nothing else: not a score, not a part of the worth that is a
/// whole number (a condition, a function's argument). Dividing by zero leaves the worth
/// undefined, the lowest value, as an undefined whole-number worth.
#[test]
fn only_the_worths_arithmetic_divides() {
    use grail_engine::game::{Rules, Setup};
    let compiled = |score: &str, worth: &str| {
        let mut pack = ported::pack("artus", None);
        pack.rules = grail_schema::GENERIC_RULEBOOK.to_string();
        pack.rulebook.end.as_mut().unwrap().score.value = score.into();
        pack.rulebook.bot.as_mut().unwrap().worth.value = worth.into();
        grail_rules::rulebook::compile(&pack).map_err(|d| {
            d.iter()
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect::<Vec<_>>()
        })
    };
    let refused = |score: &str, worth: &str| match compiled(score, worth) {
        Ok(_) => panic!("`{score}` / `{worth}` compiled"),
        Err(d) => {
            assert_eq!(d.len(), 1, "{d:?}");
            assert!(
                d[0].starts_with("invalid-expression: `/` divides exactly"),
                "{d:?}"
            );
        }
    };
    refused("points(P) / 2", "points(P)");
    refused("points(P)", "if(points(P) / 2 > 1, 1, 0)");
    refused("points(P)", "max(points(P) / 3, 0)");
    let worth = |text: &str, players: usize| {
        let rules = compiled("points(P)", text).unwrap_or_else(|d| panic!("{text}: {d:?}"));
        let state = rules.setup(&Setup::new(players, 7)).unwrap();
        rules.heuristic(&state, 0)
    };
    // At the start every seat has 0 points and the Knights stand on plates.
    let plates = worth("sum(value, plates(knight(P)))", 4);
    assert_eq!(worth("sum(value, plates(knight(P))) / 3", 4), plates / 3.0);
    assert_eq!(
        worth("if(players > 3, others(1 / 3), 0) - 1 / 3", 4),
        (1.0f64 / 3.0 + 1.0 / 3.0 + 1.0 / 3.0) - 1.0 / 3.0
    );
    // Dividing by a zero the state gives leaves the worth undefined; a divisor the player
    // count alone makes zero is refused (`divide-by-zero`, at the `/`).
    assert_eq!(worth("1 / points(P)", 4), i64::MIN as f64);
    let zero = compiled("points(P)", "1 / (players - 4)").map(|_| ());
    assert_eq!(
        zero.map_err(|d| d
            .iter()
            .map(|d| d.split(':').next().unwrap_or("").to_string())
            .collect::<Vec<_>>()),
        Err(vec!["divide-by-zero".to_string()])
    );
    assert_eq!(
        worth("points(P) - 1", 4),
        -1.0,
        "no division: whole numbers"
    );
}
