//! grail-rules: the generic rulebook that plays a game from its pack's description, and the
//! modules of the games not yet described, each a thin rulebook over engine parts compiled
//! from its content pack. [`build`] turns any loaded pack into a playable game for its rulebook.

mod cards;
pub mod catalog;
mod pack_errors;
pub mod quests;
pub mod rulebook;
pub mod virtues;
mod wording;

use grail_engine::diag::Diagnostic;
use grail_engine::facade::{DynGame, LoadedGame};
use grail_engine::game::Rules;
use grail_schema::Pack;

pub use catalog::catalog;

/// Compiles a loaded pack with the rulebook it names.
pub fn build(pack: &Pack) -> Result<Box<dyn DynGame>, Vec<Diagnostic>> {
    if let Some(spec) = catalog().iter().find(|s| s.id == pack.rules) {
        let empty = catalog::empty_sets(pack, spec);
        if !empty.is_empty() {
            return Err(empty);
        }
    }
    match pack.rules.as_str() {
        "virtues" => Ok(loaded(virtues::compile(pack)?, pack)),
        "quests" => Ok(loaded(quests::compile(pack)?, pack)),
        grail_schema::GENERIC_RULEBOOK => Ok(loaded(rulebook::compile(pack)?, pack)),
        other => Err(vec![Diagnostic::error(
            "unknown-rules",
            format!(
                "no rulebook `{other}` in this build; the rulebooks are {}",
                rulebook_ids().join(", ")
            ),
        )]),
    }
}

/// What `grail lint` asks of a loaded pack: that it compiles with its rulebook ([`build`]),
/// and, for a game description, that the checks it states hold (`[checks.*]`, verified on a
/// few seeded random games; `build` alone does not play any).
pub fn lint(pack: &Pack) -> Result<(), Vec<Diagnostic>> {
    if pack.rules != grail_schema::GENERIC_RULEBOOK {
        return build(pack).map(|_| ());
    }
    let empty = catalog()
        .iter()
        .find(|s| s.id == pack.rules)
        .map(|spec| catalog::empty_sets(pack, spec))
        .unwrap_or_default();
    if !empty.is_empty() {
        return Err(empty);
    }
    let rulebook = rulebook::compile(pack)?;
    let mut failed = rulebook.unlisted_steps(pack);
    failed.extend(rulebook.verify());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed)
    }
}

/// A compiled rulebook with what its pack says about the table: content hash, default players.
fn loaded<R: Rules + 'static>(rules: R, pack: &Pack) -> Box<dyn DynGame> {
    let game = LoadedGame::new(rules, Some(pack.hash().to_string()));
    Box::new(game.with_default_players(usize::from(pack.default_players)))
}

/// The rulebooks this build knows.
pub fn rulebook_ids() -> Vec<&'static str> {
    catalog().iter().map(|spec| spec.id).collect()
}
