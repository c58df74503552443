//! Shared helpers for the integration tests.

use std::path::{Path, PathBuf};

use grail_schema::{Disk, Loaded, Loader, RulesSpec};

/// The bundled content directory of this source tree.
pub fn content_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
}

/// Loads a pack from disk the way `grail lint` does, with the bundled content and rulebooks
/// plus any `extra` rulebooks (test fixtures name their own).
pub fn lint(path: &Path, extra: &[RulesSpec]) -> Loaded {
    let mut rules: Vec<RulesSpec> = grail_rules::catalog().to_vec();
    rules.extend_from_slice(extra);
    Loader::new(&Disk)
        .with_content(content_dir())
        .with_rules(&rules)
        .load(path)
}
