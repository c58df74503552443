//! Finding a game by id or pack folder.

use std::path::Path;

use crate::content::Content;
use crate::render::{self, escape};
use grail_engine::diag::Diagnostic;
use grail_engine::facade::DynGame;
use grail_engine::replay::{FileError, MAX_REPLAY_BYTES, ReplayFile};
use grail_schema::files::read_regular;

use crate::exit::{CliError, failure};

/// The diagnostic codes that mean the command line named a game or variant that is not
/// there: a usage error (exit 2), not a broken pack.
const USAGE_CODES: [&str; 2] = ["unknown-game", "unknown-variant"];

/// Opens the game a command-line argument names (a bundled id, a pack folder by path, or a
/// bare folder name: [`Content::resolve`]) in the given variant: loads and checks the pack,
/// then compiles it with its rulebook. A pack with errors is refused with its diagnostics
/// rendered. When the name could mean more than one pack, a note says which was taken.
///
/// The game is named by its bundled id or the absolute path of its folder: that is the name
/// saves and recorded replays carry, so they open again from any working directory.
pub fn open_game(
    content: &Content,
    game: &str,
    variant: Option<&str>,
) -> Result<Box<dyn DynGame>, CliError> {
    open_with_lineage(content, game, variant).map(|(game, _)| game)
}

/// [`open_game`], also giving the ids of the packs the game was built from (its `extends`
/// chain, the bundled game first), which a replay's game must be one of.
pub fn open_with_lineage(
    content: &Content,
    game: &str,
    variant: Option<&str>,
) -> Result<(Box<dyn DynGame>, Vec<String>), CliError> {
    if let Some(missing) = content.no_such_game(game) {
        return Err(rendered(&Default::default(), &[missing]));
    }
    let resolved = content.resolve(game);
    if let Some(note) = &resolved.note {
        eprintln!("note: {}", escape(note));
    }
    open_named(content, &resolved.name, variant)
}

/// Opens the game a save or replay recorded: a bundled id or the absolute path of a pack
/// folder, nothing looked up elsewhere (`check_recorded_game` has vetted the name). An
/// unknown game or variant there is bad input (exit 1), not a bad command line.
pub fn open_recorded(
    content: &Content,
    game: &str,
    variant: Option<&str>,
) -> Result<Box<dyn DynGame>, CliError> {
    open_named(content, game, variant)
        .map(|(game, _)| game)
        .map_err(|e| match e {
            CliError::Rendered { text, .. } => CliError::Rendered { text, usage: false },
            other => other,
        })
}

fn open_named(
    content: &Content,
    game: &str,
    variant: Option<&str>,
) -> Result<(Box<dyn DynGame>, Vec<String>), CliError> {
    let loaded = content.loader().load_game(game, variant);
    let Some(pack) = &loaded.pack else {
        return Err(load_errors(&loaded));
    };
    match grail_rules::build(pack) {
        Ok(game) => Ok((game, pack.lineage.clone())),
        Err(diagnostics) => Err(CliError::Rendered {
            text: render::to_string(&loaded.sources, &diagnostics),
            usage: false,
        }),
    }
}

/// The checked pack a command-line argument names (as [`open_game`] finds it), without
/// compiling its rulebook: for looking cards up.
pub fn load_pack(
    content: &Content,
    game: &str,
    variant: Option<&str>,
) -> Result<grail_schema::Pack, CliError> {
    if let Some(missing) = content.no_such_game(game) {
        return Err(rendered(&Default::default(), &[missing]));
    }
    let loaded = content
        .loader()
        .load_game(&content.resolve(game).name, variant);
    match loaded.pack {
        Some(pack) => Ok(pack),
        None => Err(load_errors(&loaded)),
    }
}

/// A pack that did not load: its errors, rendered.
fn load_errors(loaded: &grail_schema::Loaded) -> CliError {
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    rendered(&loaded.sources, &errors)
}

/// Diagnostics about naming a game: a usage error when they say the name names nothing.
fn rendered(sources: &grail_engine::diag::Sources, errors: &[Diagnostic]) -> CliError {
    CliError::Rendered {
        text: render::to_string(sources, errors),
        usage: errors.iter().any(|d| USAGE_CODES.contains(&d.code)),
    }
}

/// Reads and parses a replay or save file, with the path in every error.
pub fn read_replay(path: &Path) -> Result<ReplayFile, CliError> {
    let shown = path.display();
    let bytes = read_regular(path, MAX_REPLAY_BYTES as u64).map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge => failure(
            "file-too-large",
            format!("{shown}: replays larger than {MAX_REPLAY_BYTES} bytes are refused"),
        ),
        _ => failure("cannot-read", format!("cannot read {shown}: {e}")),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        failure(
            "not-utf8",
            format!(
                "{shown}: not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    ReplayFile::parse(&text).map_err(|e: FileError| match e.position {
        Some((line, col)) => failure("bad-replay", format!("{shown}:{line}:{col}: {}", e.message)),
        None => failure("bad-replay", format!("{shown}: {}", e.message)),
    })
}

/// Writes `text` to `path` so that a crash leaves either the old file or the new one:
/// a temporary file beside it, then a rename.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let written = std::fs::File::create(&tmp).and_then(|mut file| {
        std::io::Write::write_all(&mut file, text.as_bytes())?;
        file.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}
