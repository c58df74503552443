//! The pack loader on arbitrary input: the first byte picks TOML or RON for the root file,
//! the rest is its text. A variant extending it is loaded too, so merging runs as well.
//! The loader must return diagnostics, never panic.

#![no_main]

use std::path::Path;

use grail_schema::{Loader, MemoryFiles};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&format, text)) = data.split_first() else {
        return;
    };
    let root = if format % 2 == 0 { "p/pack.toml" } else { "p/pack.ron" };
    let mut files = MemoryFiles::new();
    files.insert(root, text.to_vec());
    files.insert("p/more.toml", "[params]\nx = 1\n[sets.s]\n[[sets.s.cards]]\nid = \"c\"\n");
    files.insert(
        "p/variants/v.toml",
        "[pack]\nid = \"v\"\nextends = \"pack.toml\"\n[[sets.s.cards]]\nid = \"c\"\ncopies = 2\n",
    );
    let loader = Loader::new(&files).with_content("content");
    let _ = loader.load(Path::new("p"));
    let _ = loader.load(Path::new("p/variants/v.toml"));
});
