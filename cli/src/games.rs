//! Finding a game by id or pack folder.

use std::path::Path;

use crate::render;
use grail_engine::facade::DynGame;
use grail_engine::replay::{FileError, MAX_REPLAY_BYTES, ReplayFile};
use grail_schema::files::read_regular;
use grail_schema::{Disk, Loader};

use crate::exit::{CliError, input};

/// Opens a bundled game by id, or a pack folder by path, in the given variant: loads and
/// checks the pack, then compiles it with its rulebook. A pack with errors is refused with
/// its diagnostics rendered.
pub fn open_game(
    content: &Path,
    game: &str,
    variant: Option<&str>,
) -> Result<Box<dyn DynGame>, String> {
    open_with_lineage(content, game, variant).map(|(game, _)| game)
}

/// [`open_game`], also giving the ids of the packs the game was built from (its `extends`
/// chain, the bundled game first), which a replay's game must be one of.
pub fn open_with_lineage(
    content: &Path,
    game: &str,
    variant: Option<&str>,
) -> Result<(Box<dyn DynGame>, Vec<String>), String> {
    let loaded = Loader::new(&Disk)
        .with_content(content)
        .with_rules(grail_rules::catalog())
        .load_game(game, variant);
    let Some(pack) = &loaded.pack else {
        let errors: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        return Err(render::to_string(&loaded.sources, &errors)
            .trim_end()
            .to_string());
    };
    match grail_rules::build(pack) {
        Ok(game) => Ok((game, pack.lineage.clone())),
        Err(diagnostics) => Err(render::to_string(&loaded.sources, &diagnostics)
            .trim_end()
            .to_string()),
    }
}

/// Reads and parses a replay or save file, with the path in every error.
pub fn read_replay(path: &Path) -> Result<ReplayFile, CliError> {
    let shown = path.display();
    let bytes = read_regular(path, MAX_REPLAY_BYTES as u64).map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge => input(format!(
            "{shown}: replays larger than {MAX_REPLAY_BYTES} bytes are refused"
        )),
        _ => input(format!("cannot read {shown}: {e}")),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        input(format!(
            "{shown}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    ReplayFile::parse(&text).map_err(|e: FileError| match e.position {
        Some((line, col)) => input(format!("{shown}:{line}:{col}: {}", e.message)),
        None => input(format!("{shown}: {}", e.message)),
    })
}

/// Writes `text` to `path` so that a crash leaves either the old file or the new one:
/// a temporary file beside it, then a rename.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
