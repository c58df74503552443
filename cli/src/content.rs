//! Where games come from: the bundled games, built into the binary (or the folder that
//! `--content DIR`, else `$GRAIL_CONTENT`, names instead), and the user's own packs in
//! `$XDG_DATA_HOME/grail/packs`, else `~/.local/share/grail/packs`.
//!
//! A game argument is a bundled id or a path; a bare name that is not a bundled id may also
//! be a folder in the user's packs or in the working directory ([`Content::resolve`]).

use std::path::{Path, PathBuf};

use grail_engine::diag::{Diagnostic, did_you_mean};
use grail_schema::bundled::pack_file_in;
use grail_schema::files::display;
use grail_schema::{Disk, Embedded, FileSource, GameInfo, Loader, discover};

use crate::exit::{CliError, input};

mod built_in {
    // `BUNDLED`: (path relative to `content/`, bytes), sorted; written by `build.rs`.
    include!(concat!(env!("OUT_DIR"), "/bundled.rs"));
}
pub use built_in::BUNDLED;

/// The bundled games and the user's packs, and the files they are read from.
pub struct Content {
    /// The embedded packs over the disk, or the disk alone.
    files: Box<dyn FileSource + Send + Sync>,
    /// The folder of bundled packs: [`Embedded::ROOT`], or a folder on disk.
    bundled: PathBuf,
    /// The user's pack folder, when there is a home to put it in.
    user: Option<PathBuf>,
}

/// What a game argument names: the name to load it by (and record), and, when the argument
/// could have meant more than one pack, which one was taken.
#[derive(Debug, PartialEq, Eq)]
pub struct Resolved {
    pub name: String,
    pub note: Option<String>,
}

impl Content {
    /// The games built into this binary; no user packs.
    pub fn embedded() -> Self {
        let files = Embedded::new(BUNDLED);
        Content {
            bundled: files.root().to_path_buf(),
            files: Box::new(files),
            user: None,
        }
    }

    /// The bundled games from a folder on disk instead (what `--content DIR` does).
    pub fn folder(dir: impl Into<PathBuf>) -> Self {
        Content {
            files: Box::new(Disk),
            bundled: dir.into(),
            user: None,
        }
    }

    /// Also the packs in `dir` (each a folder with a pack.toml), which `grail list` shows and
    /// a bare folder name opens.
    pub fn with_user_packs(mut self, dir: Option<PathBuf>) -> Self {
        self.user = dir;
        self
    }

    /// From the command line and the environment. A content folder that is named but is not
    /// there is an error, not an empty list of games.
    pub fn locate(flag: Option<&Path>) -> Result<Content, CliError> {
        let named = match flag {
            Some(dir) => Some((dir.to_path_buf(), "--content")),
            None => std::env::var_os("GRAIL_CONTENT")
                .filter(|v| !v.is_empty())
                .map(|v| (PathBuf::from(v), "GRAIL_CONTENT")),
        };
        let content = match named {
            Some((dir, _)) if dir.is_dir() => Content::folder(dir),
            Some((dir, from)) => {
                return Err(input(format!(
                    "the content folder `{}` (from {from}) does not exist or is not a folder",
                    display(&dir)
                )));
            }
            None => Content::embedded(),
        };
        Ok(content.with_user_packs(user_packs_dir()))
    }

    pub fn files(&self) -> &dyn FileSource {
        self.files.as_ref()
    }

    /// The folder of bundled packs, as diagnostics name it.
    pub fn bundled_dir(&self) -> &Path {
        &self.bundled
    }

    pub fn user_dir(&self) -> Option<&Path> {
        self.user.as_deref()
    }

    /// A loader that finds `@id` and game ids among the bundled packs, with every rulebook.
    pub fn loader(&self) -> Loader<'_> {
        Loader::new(self.files())
            .with_content(&self.bundled)
            .with_rules(grail_rules::catalog())
    }

    /// The bundled games, sorted by id.
    pub fn bundled_games(&self) -> Vec<GameInfo> {
        discover(self.files(), &self.bundled)
    }

    /// The packs in the user's folder, sorted by folder name.
    pub fn user_games(&self) -> Vec<GameInfo> {
        let mut games = (self.user.as_deref())
            .map(|dir| discover(&Disk, dir))
            .unwrap_or_default();
        // A pack that extends another seldom repeats its player counts: the loaded pack has them.
        let players = |root: &Path| self.loader().load(root).pack.map(|p| p.players);
        for g in &mut games {
            g.players = g.players.or_else(|| players(&g.path));
            for v in &mut g.variants {
                v.players = v.players.or_else(|| players(&v.path)).or(g.players);
            }
        }
        games
    }

    /// Why a bare name names no game, with the names it may have meant; `None` when it is
    /// a path or names something.
    pub fn no_such_game(&self, game: &str) -> Option<Diagnostic> {
        if game.is_empty() || is_path(game) || self.resolve(game).name != game {
            return None;
        }
        if self.is_pack(&self.bundled.join(game)) {
            return None;
        }
        let bundled: Vec<String> = self.bundled_games().into_iter().map(|g| g.id).collect();
        let user: Vec<String> = self.user_games().into_iter().map(|g| g.id).collect();
        let known = bundled.iter().chain(&user).map(String::as_str);
        let mut d = Diagnostic::error("unknown-game", format!("there is no game `{game}`"))
            .with_note(match &self.user {
                Some(dir) => format!(
                    "nor a pack folder `{game}` in {} or in the working directory",
                    display(dir)
                ),
                None => format!("nor a pack folder `{game}` in the working directory"),
            });
        d = match did_you_mean(game, known) {
            Some(near) => d.with_help(format!("did you mean `{near}`?")),
            None => d.with_help(format!("bundled games: {}", bundled.join(", "))),
        };
        Some(d)
    }

    /// The name a game argument opens by, which is also the name saves and replays record,
    /// so that it opens again from any folder:
    /// - a path (with `/`, `\\` or a leading `.`) becomes absolute, or the bundled id when
    ///   it is a bundled game's folder;
    /// - a bare name is the bundled game of that id, else the pack folder of that name in
    ///   the user's packs, else in the working directory; when more than one exists the
    ///   note says which was taken.
    ///
    /// A name that names nothing stays as given, for the loader's error.
    pub fn resolve(&self, game: &str) -> Resolved {
        if game.is_empty() {
            return Resolved {
                name: String::new(),
                note: None,
            };
        }
        if is_path(game) {
            return Resolved {
                name: self.lasting_path(Path::new(game)),
                note: None,
            };
        }
        let bundled = self.is_pack(&self.bundled.join(game)).then(|| {
            let shown = format!("the bundled game `{game}`");
            (game.to_owned(), shown)
        });
        let folder = |dir: PathBuf, shown: String| {
            let shown = format!("the pack folder {shown}");
            Disk.is_file(&dir.join("pack.toml"))
                .then(|| (self.lasting_path(&dir), shown))
        };
        let user = (self.user.as_ref()).and_then(|d| folder(d.join(game), display(&d.join(game))));
        let here = folder(PathBuf::from(game), format!("./{game}"));
        let mut found: Vec<(String, String)> = Vec::new();
        for candidate in [bundled, user, here].into_iter().flatten() {
            if found.iter().all(|(name, _)| *name != candidate.0) {
                found.push(candidate);
            }
        }
        let Some(((name, taken), others)) = found.split_first() else {
            return Resolved {
                name: game.to_owned(),
                note: None,
            };
        };
        let note = (!others.is_empty()).then(|| {
            let others: Vec<&str> = others.iter().map(|(_, shown)| shown.as_str()).collect();
            let verb = if others.len() == 1 { "is" } else { "are" };
            format!(
                "`{game}` is taken to be {taken}; {} {verb} also there (name a folder by its \
                 path to use it)",
                others.join(" and ")
            )
        });
        Resolved {
            name: name.clone(),
            note,
        }
    }

    /// A bundled pack folder (in the embedded packs or the content folder).
    fn is_pack(&self, folder: &Path) -> bool {
        self.files.is_dir(folder) && pack_file_in(self.files(), folder, "pack").is_some()
    }

    /// An absolute path, or the bundled id when `path` is a bundled game's folder. A path
    /// that does not resolve stays as given.
    fn lasting_path(&self, path: &Path) -> String {
        let Some(path) = self.files.canonical(path) else {
            return path.to_string_lossy().into_owned();
        };
        if let (Some(bundled), Some(id)) = (self.files.canonical(&self.bundled), path.file_name())
            && path.parent() == Some(bundled.as_path())
            && let Some(id) = id.to_str()
            && !id.starts_with('.')
        {
            return id.to_owned();
        }
        path.to_string_lossy().into_owned()
    }
}

/// Whether a game argument is a path rather than a name (as the loader reads it).
fn is_path(game: &str) -> bool {
    game.contains(['/', '\\']) || game.starts_with('.')
}

/// `$XDG_DATA_HOME/grail/packs`, else `$HOME/.local/share/grail/packs` (the XDG base
/// directory rules: a relative `XDG_DATA_HOME` is ignored).
pub fn user_packs_dir() -> Option<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    var("XDG_DATA_HOME")
        .or_else(|| var("HOME").map(|home| home.join(".local/share")))
        .map(|data| data.join("grail/packs"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_content() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
    }

    fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files_under(&path, out);
            } else {
                out.push(path);
            }
        }
    }

    #[test]
    fn the_binary_holds_every_content_file_as_it_is_on_disk() {
        let mut on_disk = Vec::new();
        files_under(&repo_content(), &mut on_disk);
        on_disk.sort();
        let names: Vec<String> = on_disk
            .iter()
            .map(|p| {
                let rel = p.strip_prefix(repo_content()).unwrap();
                rel.to_str().unwrap().replace('\\', "/")
            })
            .collect();
        let built: Vec<&str> = BUNDLED.iter().map(|(name, _)| *name).collect();
        assert_eq!(built, names);
        for ((name, bytes), path) in BUNDLED.iter().zip(&on_disk) {
            assert_eq!(*bytes, std::fs::read(path).unwrap().as_slice(), "{name}");
        }
    }

    #[test]
    fn bundled_packs_load_from_the_binary_with_the_hash_they_have_on_disk() {
        let embedded = Content::embedded();
        let disk = Content::folder(repo_content());
        let games = embedded.bundled_games();
        assert_eq!(games.len(), 4, "{games:?}");
        assert_eq!(
            games.iter().map(|g| &g.id).collect::<Vec<_>>(),
            disk.bundled_games()
                .iter()
                .map(|g| &g.id)
                .collect::<Vec<_>>()
        );
        for g in &games {
            let variants = g.variants.iter().map(|v| Some(v.id.as_str()));
            for variant in std::iter::once(None).chain(variants) {
                let hash = |c: &Content| {
                    let loaded = c.loader().load_game(&g.id, variant);
                    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
                    loaded.pack.unwrap().hash().to_owned()
                };
                assert_eq!(hash(&embedded), hash(&disk), "{} {variant:?}", g.id);
            }
        }
    }

    #[test]
    fn diagnostics_name_embedded_files_under_the_bundled_root() {
        let content = Content::embedded();
        let loaded = content.loader().load_game("king-arthur", None);
        let names: Vec<String> = loaded.sources.iter().map(|(_, s)| s.name.clone()).collect();
        assert!(
            names.contains(&"<bundled>/king-arthur/pack.toml".to_owned()),
            "{names:?}"
        );
    }

    /// A scratch folder with a pack `name` in `packs/`: a copy of the example variant, which
    /// extends `@king-arthur`.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grail-content-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let example = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../docs/examples/round-table-rush/pack.toml");
        std::fs::create_dir_all(dir.join("packs").join(name)).unwrap();
        std::fs::copy(&example, dir.join("packs").join(name).join("pack.toml")).unwrap();
        dir
    }

    #[test]
    fn a_bare_name_is_a_bundled_id_then_a_user_pack_then_a_folder_here() {
        let dir = scratch("rush");
        let content = Content::embedded().with_user_packs(Some(dir.join("packs")));
        let in_user = dir.join("packs/rush").canonicalize().unwrap();
        let resolved = content.resolve("rush");
        assert_eq!(resolved.name, in_user.to_string_lossy());
        assert_eq!(resolved.note, None, "nothing called rush here");
        // A pack in the user's folder extends the embedded King Arthur.
        let loaded = content.loader().load_game(&resolved.name, None);
        assert!(loaded.pack.is_some(), "{:?}", loaded.diagnostics);
        let bundled = content.resolve("king-arthur");
        assert_eq!(bundled.name, "king-arthur");
        assert_eq!(
            content.resolve("<bundled>/king-arthur").name,
            "king-arthur",
            "a bundled folder by path is named by its id"
        );
        assert_eq!(content.resolve("no-such-game").name, "no-such-game");
        // The user's packs are listed with the player counts of the pack they extend.
        let user = content.user_games();
        assert_eq!(user.len(), 1);
        assert_eq!(
            (user[0].id.as_str(), user[0].players),
            ("rush", Some((2, 5)))
        );
        // A name that names nothing: the user's packs are among the suggestions.
        let missing = content.no_such_game("rsh").expect("no game rsh");
        assert_eq!(missing.message, "there is no game `rsh`");
        assert_eq!(missing.help.as_deref(), Some("did you mean `rush`?"));
        assert!(content.no_such_game("rush").is_none());
        assert!(content.no_such_game("king-arthur").is_none());
        assert!(
            content.no_such_game("./rsh").is_none(),
            "a path is the loader's to refuse"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn when_a_name_means_two_packs_the_note_says_which_was_taken() {
        let dir = scratch("king-arthur");
        let content = Content::embedded().with_user_packs(Some(dir.join("packs")));
        let resolved = content.resolve("king-arthur");
        assert_eq!(resolved.name, "king-arthur", "the bundled game wins");
        let note = resolved.note.expect("a note");
        assert!(
            note.starts_with(
                "`king-arthur` is taken to be the bundled game `king-arthur`; the pack folder"
            ),
            "{note}"
        );
        assert!(note.contains("packs/king-arthur"), "{note}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
