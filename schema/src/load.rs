//! Loading a pack from its root file: reading, `include`, `extends`, then the checks of
//! [`crate::resolve`]. Paths in a pack are relative to its pack folder and may not leave it;
//! `@id[/variant]` names a bundled pack in the content directory.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use grail_engine::diag::{Diagnostic, Severity, SourceId, Sources, did_you_mean};

use crate::files::{self, FileSource, normalize};
use crate::model::{Loc, PackFile, Sp};
use crate::pack::Origin;
use crate::pack::Pack;
use crate::resolve::Resolver;
use crate::spec::{GENERIC_RULEBOOK, RulesSpec};
use crate::syntax::{self, Format};
use crate::{bundled, check, decode, merge};

/// How to load packs: where files come from, where bundled packs live, which rulebooks exist.
pub struct Loader<'a> {
    files: &'a dyn FileSource,
    content: Option<PathBuf>,
    rules: &'a [RulesSpec],
}

/// The outcome of loading one pack: the pack if it has no errors, and every finding.
#[derive(Debug)]
pub struct Loaded {
    /// The texts the diagnostics point into.
    pub sources: Arc<Sources>,
    pub pack: Option<Pack>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    fn failed(d: Diagnostic) -> Loaded {
        Loaded {
            sources: Arc::default(),
            pack: None,
            diagnostics: vec![d],
        }
    }

    fn with_origin(mut self, origin: Origin) -> Self {
        if let Some(pack) = &mut self.pack {
            pack.origin = origin;
        }
        self
    }

    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }
    fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }
}

/// A merged pack before resolving, and the ids of the packs it was built from.
struct Merged {
    file: PackFile,
    lineage: Vec<String>,
}

impl<'a> Loader<'a> {
    pub fn new(files: &'a dyn FileSource) -> Self {
        Loader {
            files,
            content: None,
            rules: &[],
        }
    }

    /// The bundled content directory, for `extends = "@id"` and loading by game id.
    pub fn with_content(mut self, dir: impl Into<PathBuf>) -> Self {
        self.content = Some(dir.into());
        self
    }

    /// The rulebooks a pack may name; with none given, rules-specific checks are skipped.
    pub fn with_rules(mut self, rules: &'a [RulesSpec]) -> Self {
        self.rules = rules;
        self
    }

    /// Loads a pack from a pack folder or a root file (a `pack.toml`, a variant file).
    pub fn load(&self, path: &Path) -> Loaded {
        let mut run = Run {
            loader: self,
            sources: Sources::default(),
            diags: Vec::new(),
            chain: Vec::new(),
        };
        // Findings of reading and decoding the files come before those of checking the
        // whole: a file that cannot be read or a value that cannot be decoded is the cause of
        // what the checks then miss (`hand_size = nan` before "needs param `hand_size`").
        let mut read_stage = 0;
        let pack = match self.root_file(path) {
            Some(root) => {
                let merged = run.pack(&root, None);
                read_stage = run.diags.len();
                merged.and_then(|merged| run.resolve(merged))
            }
            None => {
                run.diags.push(Diagnostic::error(
                    "missing-file",
                    format!(
                        "`{}` is neither a pack file nor a folder with a pack.toml",
                        files::display(path)
                    ),
                ));
                None
            }
        };
        // Within each stage, in file order, as a reader meets them; findings without a
        // place first.
        let (read, checked) = run.diags.split_at_mut(read_stage);
        for stage in [read, checked] {
            stage.sort_by_key(|d| d.primary().map(|l| (l.source, l.span.start)));
        }
        let sources = Arc::new(run.sources);
        let has_errors = run.diags.iter().any(Diagnostic::is_error);
        Loaded {
            pack: pack.filter(|_| !has_errors).map(|mut p| {
                p.sources = sources.clone();
                p.origin = Origin {
                    game: files::display(path),
                    variant: None,
                };
                p
            }),
            sources,
            diagnostics: run.diags,
        }
    }

    /// Loads a bundled game, or its variant, by id (`"my-game"`, `Some("short")`).
    /// `game` may also be a path to a pack folder; a variant is then `variants/<v>.toml` in it.
    pub fn load_game(&self, game: &str, variant: Option<&str>) -> Loaded {
        let folder = match &self.content {
            Some(content) if !game.contains(['/', '\\']) && !game.starts_with('.') => {
                let folder = content.join(game);
                if !self.files.is_dir(&folder) {
                    let games = bundled::game_ids(self.files, content);
                    let mut d =
                        Diagnostic::error("unknown-game", format!("there is no game `{game}`"));
                    d = match did_you_mean(game, games.iter().map(String::as_str)) {
                        Some(near) => d.with_help(format!("did you mean `{near}`?")),
                        None => d.with_help(format!("bundled games: {}", games.join(", "))),
                    };
                    return Loaded::failed(d);
                }
                folder
            }
            _ => PathBuf::from(game),
        };
        let origin = Origin {
            game: game.to_string(),
            variant: variant.map(str::to_string),
        };
        let Some(v) = variant else {
            return self.load(&folder).with_origin(origin);
        };
        // A variant is a file stem in `variants/`, never a path out of it.
        let plain = !v.is_empty() && !v.starts_with('.') && !v.contains(['/', '\\']);
        let file = plain
            .then(|| bundled::pack_file_in(self.files, &folder.join("variants"), v))
            .flatten();
        match file {
            Some(file) => self.load(&file).with_origin(origin),
            None => {
                let known: Vec<String> = self
                    .files
                    .list(&folder.join("variants"))
                    .iter()
                    .filter_map(|p| p.file_stem()?.to_str().map(str::to_owned))
                    .collect();
                let mut d =
                    Diagnostic::error("unknown-variant", format!("`{game}` has no variant `{v}`"));
                d = match did_you_mean(v, known.iter().map(String::as_str)) {
                    Some(near) => d.with_help(format!("did you mean `{near}`?")),
                    None if known.is_empty() => d.with_help(format!("`{game}` has no variants")),
                    None => d.with_help(format!("its variants: {}", known.join(", "))),
                };
                Loaded::failed(d)
            }
        }
    }

    /// The root file of a pack folder, or `path` itself if it is a file.
    pub fn root_file(&self, path: &Path) -> Option<PathBuf> {
        if self.files.is_file(path) {
            return Some(path.to_path_buf());
        }
        if self.files.is_dir(path) {
            return bundled::pack_file_in(self.files, path, "pack");
        }
        None
    }
}

/// The state of one load.
struct Run<'l, 'a> {
    loader: &'l Loader<'a>,
    sources: Sources,
    diags: Vec<Diagnostic>,
    /// Root files being loaded, outermost first, to catch `extends` cycles.
    chain: Vec<PathBuf>,
}

impl Run<'_, '_> {
    fn resolve(&mut self, merged: Merged) -> Option<Pack> {
        let spec = if self.loader.rules.is_empty() {
            None
        } else {
            check::rules(&merged.file, self.loader.rules, &mut self.diags)
        };
        Resolver {
            sources: &self.sources,
            diags: &mut self.diags,
            spec,
        }
        .resolve(merged.file, merged.lineage)
    }

    /// Reads, parses and decodes one file. `from` is the reference that named it.
    fn read(&mut self, path: &Path, from: Option<&Loc>) -> Option<(SourceId, PackFile)> {
        let bytes = match self.loader.files.read(path) {
            Ok(b) => b,
            Err(e) => {
                let not_found = e.kind() == std::io::ErrorKind::NotFound;
                let why = match not_found {
                    true => "no such file".to_owned(),
                    false => e.to_string(),
                };
                let mut d = Diagnostic::error(
                    "missing-file",
                    format!("cannot read `{}`: {why}", files::display(path)),
                );
                if let Some(at) = from {
                    d = d.at(at.source, at.span.clone(), "named here");
                    // A file that is there but unreadable (a symlink loop, a FIFO) needs no
                    // other name.
                    if let Some(near) = self.sibling_near(path).filter(|_| not_found) {
                        d = d.with_help(format!("did you mean `{near}`?"));
                    }
                }
                self.diags.push(d);
                return None;
            }
        };
        let (text, bad_utf8) = match String::from_utf8(bytes) {
            Ok(t) => (t, None),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(at))
            }
        };
        let source = self.sources.add(files::display(path), text);
        if let Some(at) = bad_utf8 {
            self.diags.push(
                Diagnostic::error("syntax", "the file is not valid UTF-8 text").at(
                    source,
                    at..at,
                    "invalid bytes start here",
                ),
            );
            return None;
        }
        let text = &self.sources.get(source).text;
        match syntax::parse(Format::of(path), source, text) {
            Ok(node) => Some((source, decode::pack_file(source, &node, &mut self.diags))),
            Err(errors) => {
                self.diags.extend(errors);
                None
            }
        }
    }

    fn sibling_near(&self, path: &Path) -> Option<String> {
        let dir = path.parent()?;
        let name = path.file_name()?.to_str()?;
        let siblings = self.loader.files.list(dir);
        let names = siblings
            .iter()
            .filter_map(|p| p.file_name().and_then(|n| n.to_str()));
        did_you_mean(name, names).map(str::to_owned)
    }

    /// One pack: its root file and includes, laid over the pack it extends.
    fn pack(&mut self, root: &Path, from: Option<&Loc>) -> Option<Merged> {
        let key = self
            .loader
            .files
            .canonical(root)
            .unwrap_or_else(|| normalize(root));
        if let Some(start) = self.chain.iter().position(|p| *p == key) {
            let cycle: Vec<String> = self.chain[start..]
                .iter()
                .chain([&key])
                .map(|p| files::display(p))
                .collect();
            let mut d = Diagnostic::error("cyclic-extends", "packs extend each other in a cycle")
                .with_note(cycle.join(" extends "));
            if let Some(at) = from {
                d = d.at(
                    at.source,
                    at.span.clone(),
                    "extends a pack that extends this one",
                );
            }
            self.diags.push(d);
            return None;
        }
        let (source, mut file) = self.read(root, from)?;
        let Some(header) = file.pack.clone() else {
            self.diags.push(
                Diagnostic::error(
                    "missing-field",
                    format!("`{}` has no [pack] table", files::display(root)),
                )
                .at(source, 0..0, "a pack's root file starts with [pack]"),
            );
            return None;
        };
        self.check_variant_id(root, &header.id);
        let folder = pack_folder(self.loader.files, root);
        for name in &header.include {
            let Some(path) = self.inside(&folder, name, "include") else {
                continue;
            };
            if let Some((_, included)) = self.read(&path, Some(&name.loc)) {
                if let Some(h) = &included.pack {
                    self.diags.push(
                        Diagnostic::error(
                            "pack-in-include",
                            "an included file may not have a [pack] table",
                        )
                        .at(
                            h.id.loc.source,
                            h.id.loc.span.clone(),
                            "in an included file",
                        )
                        .also(name.loc.source, name.loc.span.clone(), "included here")
                        .with_help(
                            "remove the [pack] table from the included file: the pack that \
                             includes it says what the pack is",
                        ),
                    );
                }
                merge::include(&mut file, included, &mut self.diags);
            }
        }
        merge::check_unique_cards(&file, &mut self.diags);
        let Some(extends) = &header.extends else {
            return Some(Merged {
                file,
                lineage: vec![header.id.value],
            });
        };
        let base_root = self.extends_target(&folder, extends)?;
        self.chain.push(key);
        let base = self.pack(&base_root, Some(&extends.loc));
        self.chain.pop();
        let base = base?;
        let mut lineage = base.lineage;
        lineage.push(header.id.value);
        let (added, declared) = check::added_params(&base.file, &file);
        let file = merge::overlay(base.file, file, &mut self.diags);
        let rules = file.pack.as_ref().and_then(|h| h.rules.as_ref());
        if rules.is_some_and(|r| r.value == GENERIC_RULEBOOK) {
            check::unread_params(&added, &declared, &self.sources, &mut self.diags);
        }
        Some(Merged { file, lineage })
    }

    /// A variant's id is its file stem: `variants/seals.toml` has `id = "seals"`.
    fn check_variant_id(&mut self, root: &Path, id: &Sp<String>) {
        let in_variants = root
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "variants");
        let stem = root.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if in_variants && id.value != stem {
            self.diags.push(
                Diagnostic::error(
                    "variant-id",
                    format!("variant file `{stem}` has id `{}`", id.value),
                )
                .at(
                    id.loc.source,
                    id.loc.span.clone(),
                    format!("expected \"{stem}\""),
                )
                .with_help("a variant's id is its file stem, which `--variant` selects it by"),
            );
        }
    }

    /// The root file `extends` names: a path in the pack folder, or `@id[/variant]`.
    fn extends_target(&mut self, folder: &Path, extends: &Sp<String>) -> Option<PathBuf> {
        let Some(bundled_ref) = extends.value.strip_prefix('@') else {
            return self.inside(folder, extends, "extends");
        };
        let error = |message: String| {
            Diagnostic::error("missing-file", message).at(
                extends.loc.source,
                extends.loc.span.clone(),
                "extended here",
            )
        };
        let Some(content) = &self.loader.content else {
            self.diags.push(error(format!(
                "cannot extend `{}`: no bundled content directory is known",
                extends.value
            )));
            return None;
        };
        let (game, variant) = match bundled_ref.split_once('/') {
            Some((g, v)) => (g, Some(v)),
            None => (bundled_ref, None),
        };
        let valid = |s: &str| !s.is_empty() && !s.contains(['/', '\\', '.']);
        let folder = content.join(game);
        let found = if valid(game) && variant.is_none_or(valid) {
            match variant {
                None => bundled::pack_file_in(self.loader.files, &folder, "pack"),
                Some(v) => bundled::pack_file_in(self.loader.files, &folder.join("variants"), v),
            }
        } else {
            None
        };
        if found.is_none() {
            let games = bundled::game_ids(self.loader.files, content);
            let mut d = error(format!("there is no bundled pack `{}`", extends.value));
            if let Some(near) = did_you_mean(game, games.iter().map(String::as_str)) {
                d = d.with_help(format!("did you mean `@{near}`?"));
            } else if !games.is_empty() {
                d = d.with_help(format!("bundled packs: @{}", games.join(", @")));
            }
            self.diags.push(d);
        }
        found
    }

    /// `name` resolved in the pack folder; an error if it is absolute or climbs out.
    fn inside(&mut self, folder: &Path, name: &Sp<String>, what: &str) -> Option<PathBuf> {
        let relative = Path::new(&name.value);
        let joined = normalize(&folder.join(relative));
        let base = normalize(folder);
        let escapes = relative.is_absolute()
            || relative.has_root()
            || !joined.starts_with(&base)
            || match (
                self.loader.files.canonical(&joined),
                self.loader.files.canonical(&base),
            ) {
                (Some(j), Some(b)) => !j.starts_with(b),
                _ => false,
            };
        if escapes {
            self.diags.push(
                Diagnostic::error(
                    "path-escapes-pack",
                    format!("`{what}` path `{}` leaves the pack folder", name.value),
                )
                .at(name.loc.source, name.loc.span.clone(), "outside the pack")
                .with_help(
                    "paths are relative to the pack folder and stay inside it; \
                     extend a bundled pack with `@id` instead",
                ),
            );
            return None;
        }
        Some(joined)
    }
}

/// The folder holding a root file's `pack.toml`: the file's own folder, or for a file in
/// `variants/`, the folder above.
fn pack_folder(files: &dyn FileSource, root: &Path) -> PathBuf {
    let dir = root.parent().unwrap_or(Path::new("."));
    let has_pack = bundled::pack_file_in(files, dir, "pack").is_some();
    match dir.parent() {
        Some(up) if !has_pack && dir.file_name().is_some_and(|n| n == "variants") => {
            up.to_path_buf()
        }
        _ => dir.to_path_buf(),
    }
}
