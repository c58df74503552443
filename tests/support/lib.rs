//! Shared helpers for the integration tests.

use std::path::{Path, PathBuf};

use grail_schema::{Disk, Loaded, Loader, RulesSpec};

/// The bundled content directory of this source tree.
pub fn content_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
}

/// The bundled games from this source tree's content folder, as `--content` would give them.
pub fn content() -> grail_cli::content::Content {
    grail_cli::content::Content::folder(content_dir())
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

/// Opens a bundled game (or variant) the way `grail play` does: loaded, checked, compiled.
pub fn open(game: &str, variant: Option<&str>) -> Box<dyn grail_engine::facade::DynGame> {
    grail_cli::games::open_game(&content(), game, variant)
        .unwrap_or_else(|e| panic!("cannot open {game} {variant:?}:\n{e}"))
}

/// Opens a pack folder of this source tree (`tests/packs/sealed-lists`), as `grail play
/// <folder>` does.
pub fn open_pack(folder: &str) -> Box<dyn grail_engine::facade::DynGame> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(folder);
    grail_cli::games::open_game(&content(), &dir.to_string_lossy(), None)
        .unwrap_or_else(|e| panic!("{folder}: {e}"))
}

/// A seat's zone as `viewer` sees it in the view it is shown: whether it sees into it, the
/// cards seen, how many face down.
pub fn seen_zone(
    m: &mut dyn grail_engine::facade::DynMatch,
    viewer: usize,
    name: &str,
    owner: usize,
) -> (bool, Vec<String>, usize) {
    use grail_engine::view::Part;
    let view = m.view(Some(viewer));
    view.table
        .into_iter()
        .find_map(|part| match part {
            Part::Zone {
                name: n,
                owner: Some(o),
                seen,
                cards,
                hidden,
                ..
            } if n == name && o == owner => Some((seen, cards, hidden)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("P{}'s `{name}` is on the table", owner + 1))
}

/// The cards a query answers (`list P1`), one word each.
pub fn queried_cards(m: &dyn grail_engine::facade::DynMatch, query: &str) -> Vec<String> {
    let text = m.inspect(query).unwrap();
    text.split_whitespace().map(str::to_string).collect()
}

/// Every bundled game and variant: `(game, variant)`.
pub fn bundled_games() -> Vec<(String, Option<String>)> {
    grail_schema::discover(&Disk, &content_dir())
        .into_iter()
        .flat_map(|g| {
            let id = g.id.clone();
            std::iter::once((id.clone(), None)).chain(
                g.variants
                    .into_iter()
                    .map(move |v| (id.clone(), Some(v.id))),
            )
        })
        .collect()
}
