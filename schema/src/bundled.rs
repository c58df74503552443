//! Finding the games in a folder of packs (the bundled games, a user's packs):
//! `<content>/<id>/pack.toml` and their variants,
//! `<content>/<id>/variants/<v>.toml` (or `.ron`).

use std::path::{Path, PathBuf};

use grail_engine::diag::SourceId;

use crate::files::FileSource;
use crate::model::PackHeader;
use crate::syntax::{self, Format};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    pub id: String,
    /// From `[pack] name`; the id when the file cannot be read.
    pub name: String,
    pub players: Option<(u8, u8)>,
    pub path: PathBuf,
    pub variants: Vec<VariantInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// The file stem, by which `--variant` selects it.
    pub id: String,
    pub name: String,
    /// Inherited from the game when the variant does not say.
    pub players: Option<(u8, u8)>,
    pub path: PathBuf,
}

/// Every game in the content directory, sorted by id, with its variants sorted by id.
/// Only the `[pack]` tables are read; `grail lint` checks the rest.
pub fn discover(files: &dyn FileSource, content: &Path) -> Vec<GameInfo> {
    game_ids(files, content)
        .into_iter()
        .filter_map(|id| {
            let folder = content.join(&id);
            let path = pack_file_in(files, &folder, "pack")?;
            let header = header_of(files, &path);
            let players = header.as_ref().and_then(players_of);
            let variants = files
                .list(&folder.join("variants"))
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "toml" || e == "ron"))
                .filter_map(|path| {
                    let id = path.file_stem()?.to_str()?.to_owned();
                    let h = header_of(files, &path);
                    Some(VariantInfo {
                        name: h.as_ref().and_then(name_of).unwrap_or_else(|| id.clone()),
                        players: h.as_ref().and_then(players_of).or(players),
                        id,
                        path,
                    })
                })
                .collect();
            Some(GameInfo {
                name: header
                    .as_ref()
                    .and_then(name_of)
                    .unwrap_or_else(|| id.clone()),
                players,
                id,
                path,
                variants,
            })
        })
        .collect()
}

/// The ids (folder names) of the bundled games, sorted.
pub fn game_ids(files: &dyn FileSource, content: &Path) -> Vec<String> {
    let mut ids: Vec<String> = files
        .list(content)
        .into_iter()
        .filter(|p| pack_file_in(files, p, "pack").is_some())
        .filter_map(|p| p.file_name()?.to_str().map(str::to_owned))
        .collect();
    ids.sort();
    ids
}

/// `<dir>/<stem>.toml`, else `<dir>/<stem>.ron`, if it exists.
pub fn pack_file_in(files: &dyn FileSource, dir: &Path, stem: &str) -> Option<PathBuf> {
    ["toml", "ron"]
        .iter()
        .map(|ext| dir.join(format!("{stem}.{ext}")))
        .find(|p| files.is_file(p))
}

fn header_of(files: &dyn FileSource, path: &Path) -> Option<PackHeader> {
    let bytes = files.read(path).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let node = syntax::parse(Format::of(path), SourceId(0), &text).ok()?;
    let mut ignored = Vec::new();
    crate::decode::pack_file(SourceId(0), &node, &mut ignored).pack
}

fn name_of(h: &PackHeader) -> Option<String> {
    h.name.as_ref().map(|n| n.value.clone())
}

fn players_of(h: &PackHeader) -> Option<(u8, u8)> {
    h.players.as_ref().map(|p| (p.value.min, p.value.max))
}
