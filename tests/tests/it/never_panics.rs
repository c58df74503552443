//! Bad input is normal input: the loader returns diagnostics for anything, and never panics,
//! whatever the bytes (random, truncated, mutated real packs, deep nesting, huge numbers).

use std::path::Path;

use grail_schema::{Loader, MemoryFiles};
use proptest::prelude::*;

/// Loads a pack whose root file (`pack.<ext>`) holds `bytes`, next to a valid included file
/// and a base pack, so references from the random file can reach real files too.
fn load(ext: &str, bytes: &[u8]) -> usize {
    let mut files = MemoryFiles::new();
    files.insert(format!("p/pack.{ext}"), bytes.to_vec());
    files.insert("p/more.toml", "[params]\nx = 1\n");
    files.insert(
        "p/variants/v.toml",
        "[pack]\nid = \"v\"\nextends = \"pack.toml\"\n",
    );
    let loader = Loader::new(&files).with_content("content");
    let a = loader.load(Path::new("p"));
    let b = loader.load(Path::new("p/variants/v.toml"));
    // Every diagnostic points into a source that exists, within its text.
    for loaded in [&a, &b] {
        for d in &loaded.diagnostics {
            for l in &d.labels {
                let text = &loaded.sources.get(l.source).text;
                assert!(
                    l.span.start <= l.span.end && l.span.end <= text.len(),
                    "{d:?}"
                );
            }
        }
    }
    a.diagnostics.len() + b.diagnostics.len()
}

const KA: &[&str] = &[
    include_str!("../../../content/king-arthur/pack.toml"),
    include_str!("../../../content/king-arthur/adventures.toml"),
    include_str!("../../../content/king-arthur/adversaries.toml"),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_as_toml(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        load("toml", &bytes);
    }

    #[test]
    fn random_bytes_as_ron(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        load("ron", &bytes);
    }

    #[test]
    fn toml_like_text(text in r#"(\[\[?[a-z.]{0,12}\]\]?\n|[a-z_]{1,8} ?= ?("[a-z()=<>&|!*$ ,0-9-]{0,20}"|-?[0-9]{1,20}|true|\[[0-9, "a-z]{0,10}\]|\{ ?[a-z]{1,4} ?= ?[0-9]{1,3} ?\})\n|include = \["[a-z./]{0,12}"\]\n|extends = "[@a-z./]{0,12}"\n){0,24}"#) {
        load("toml", text.as_bytes());
    }

    #[test]
    fn ron_like_text(text in r#"[(){}\[\]:,"a-z0-9 _\n-]{0,300}"#) {
        load("ron", text.as_bytes());
    }

    /// The real pack, cut short anywhere or with a byte replaced: the classic broken save.
    #[test]
    fn truncated_and_mutated_real_packs(
        which in 0..KA.len(),
        cut in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let text = KA[which].as_bytes();
        load("toml", &text[..cut.index(text.len() + 1)]);
        let mut mutated = text.to_vec();
        mutated[at.index(text.len())] = byte;
        load("toml", &mutated);
    }
}

#[test]
fn deep_nesting_is_an_error() {
    for depth in [100, 10_000, 200_000] {
        let toml = format!("x = {}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(load("toml", toml.as_bytes()) > 0);
        let inline = format!("x = {}1{}", "{a=".repeat(depth), "}".repeat(depth));
        assert!(load("toml", inline.as_bytes()) > 0);
        let ron = format!("({}{})", "[".repeat(depth), "]".repeat(depth));
        assert!(load("ron", ron.as_bytes()) > 0);
    }
}

#[test]
fn huge_numbers_are_errors() {
    let head = "[pack]\nid = \"p\"\nrules = \"r\"\n";
    for body in [
        "players = { min = 99999999999999999999, max = 1 }\n",
        "players = { min = 1, max = 256 }\n",
        "[sets.s]\ntotal = -1\n",
        "[sets.s]\n[[sets.s.cards]]\nid = \"c\"\ncopies = 4294967297\n",
        "[sets.s.attributes]\nv = { min = -9223372036854775808, max = 9223372036854775807 }\n\
         [[sets.s.cards]]\nid = \"c\"\nv = 9223372036854775807\n[sets.t]\ncondition_over = \"s\"\n\
         [[sets.t.cards]]\nid = \"d\"\ncondition = \"sum(v, *) * 9223372036854775807 >= 99999999999999999999\"\n",
    ] {
        let text = format!("{head}{body}");
        assert!(load("toml", text.as_bytes()) > 0, "{text}");
    }
    let ron =
        "(pack: (id: \"p\", players: (min: 340282366920938463463374607431768211455, max: 1)))";
    assert!(load("ron", ron.as_bytes()) > 0);
}
