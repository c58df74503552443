//! grail-rules: one module per game, each a thin rulebook over engine parts, compiled from
//! its content pack. [`build`] turns any loaded pack into a playable game for its rulebook.

pub mod catalog;
pub mod king_arthur;
pub mod quests;

use grail_engine::diag::Diagnostic;
use grail_engine::facade::{DynGame, LoadedGame};
use grail_schema::Pack;

pub use catalog::catalog;

/// Compiles a loaded pack with the rulebook it names.
pub fn build(pack: &Pack) -> Result<Box<dyn DynGame>, Vec<Diagnostic>> {
    let hash = Some(pack.hash().to_string());
    match pack.rules.as_str() {
        "king-arthur" => Ok(Box::new(LoadedGame::new(king_arthur::compile(pack)?, hash))),
        "quests" => Ok(Box::new(LoadedGame::new(quests::compile(pack)?, hash))),
        other => Err(vec![Diagnostic::error(
            "unknown-rules",
            format!(
                "no rulebook `{other}` in this build; the rulebooks are {}",
                rulebook_ids().join(", ")
            ),
        )]),
    }
}

/// The rulebooks this build knows.
pub fn rulebook_ids() -> Vec<&'static str> {
    catalog().iter().map(|spec| spec.id).collect()
}
