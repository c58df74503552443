//! Loading, checking and compiling every bundled pack and variant, as `grail lint` with no
//! path does: `cargo bench -p grail-cli --bench packs`.

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 20)]
fn lint_every_bundled_pack() -> usize {
    let reports = grail_cli::lint::lint(&[], &grail_cli::content::Content::embedded());
    assert!(reports.iter().all(|r| r.loaded.errors() == 0));
    reports.len()
}
