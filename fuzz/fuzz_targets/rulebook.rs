//! A game description on arbitrary input: the first byte picks where the rest goes, as King
//! Arthur's `rulebook.toml` or Artus' (next to their other files), or as the whole root file
//! of a pack of its own. Whatever loads is compiled and linted by its rulebook (which plays
//! the `[checks.*]` a description states). It must come to a pack or to diagnostics: never a
//! panic, never a stack overflow, never a hang (run with `-timeout=10`).
//!
//! Seeds: `fuzz/seed_rulebook.sh` writes the bundled rulebooks and the docs/examples packs
//! into `fuzz/corpus/rulebook/`; `cargo fuzz run rulebook`.
#![no_main]

use std::path::Path;

use grail_schema::{Loader, MemoryFiles};
use libfuzzer_sys::fuzz_target;

const KING_ARTHUR: &[(&str, &str)] = &[
    ("pack.toml", include_str!("../../content/king-arthur/pack.toml")),
    ("knights.toml", include_str!("../../content/king-arthur/knights.toml")),
    ("adversaries.toml", include_str!("../../content/king-arthur/adversaries.toml")),
    ("adventures.toml", include_str!("../../content/king-arthur/adventures.toml")),
    ("seals.toml", include_str!("../../content/king-arthur/seals.toml")),
];

const ARTUS: &[(&str, &str)] = &[
    ("pack.toml", include_str!("../../content/artus/pack.toml")),
    ("board.toml", include_str!("../../content/artus/board.toml")),
    ("cards.toml", include_str!("../../content/artus/cards.toml")),
];

fuzz_target!(|data: &[u8]| {
    let Some((&base, text)) = data.split_first() else {
        return;
    };
    let mut files = MemoryFiles::new();
    let (others, file) = match base % 3 {
        0 => (KING_ARTHUR, "p/rulebook.toml"),
        1 => (ARTUS, "p/rulebook.toml"),
        _ => (&[][..], "p/pack.toml"),
    };
    for (name, body) in others {
        files.insert(format!("p/{name}"), *body);
    }
    files.insert(file, text.to_vec());
    let loader = Loader::new(&files).with_content("content");
    let loaded = loader.load(Path::new("p"));
    if let Some(pack) = &loaded.pack {
        let _ = grail_rules::lint(pack);
    }
});
