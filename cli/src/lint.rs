//! `grail lint [PATH ...] [--format json]`: load packs and report every finding.

use std::io;
use std::path::{Path, PathBuf};

use grail_engine::diag::{Diagnostic, Severity};
use grail_schema::Loaded;
use grail_schema::files::display;
use serde_json::json;

use codespan_reporting::term::termcolor::WriteColor;

use crate::content::Content;
use crate::render;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// One linted pack: what was asked for and what came out.
pub struct Report {
    pub path: PathBuf,
    pub loaded: Loaded,
}

/// Lints `paths` (pack folders, root files, variant files); none: every bundled pack and
/// variant, then every pack and variant in the user's folder. Returns the reports in order.
pub fn lint(paths: &[PathBuf], content: &Content) -> Vec<Report> {
    let loader = content.loader();
    let targets: Vec<PathBuf> = if paths.is_empty() {
        content
            .bundled_games()
            .into_iter()
            .chain(content.user_games())
            .flat_map(|g| {
                let folder = g.path.parent().map(Path::to_path_buf).unwrap_or_default();
                std::iter::once(folder).chain(g.variants.into_iter().map(|v| v.path))
            })
            .collect()
    } else {
        paths.to_vec()
    };
    targets
        .into_iter()
        .map(|path| {
            // A path on disk is loaded by its absolute path, as `sim` and `play` open a
            // pack: a pack named by the working folder (`.`, `./`, `./pack.toml`) has no
            // folder part to keep its includes in otherwise. Reported by the path as given.
            // (The bundled packs' paths may name the packs built into the binary.)
            let on_disk = !paths.is_empty() && path.exists();
            let absolute = match on_disk {
                true => std::path::absolute(&path).unwrap_or_else(|_| path.clone()),
                false => path.clone(),
            };
            let mut loaded = loader.load(&absolute);
            // A pack that loads must also compile with its rulebook.
            if let Some(pack) = &loaded.pack
                && let Err(problems) = grail_rules::lint(pack)
            {
                let sources = &loaded.sources;
                let problems: Vec<Diagnostic> = problems
                    .into_iter()
                    .map(|d| grail_schema::resolve::note_inherited(sources, d))
                    .collect();
                // Warnings alone (a random game that does not end) leave the pack usable.
                if problems.iter().any(|d| d.severity == Severity::Error) {
                    loaded.pack = None;
                }
                loaded.diagnostics.extend(problems);
            }
            Report { loaded, path }
        })
        .collect()
}

/// Prints the reports; returns whether there were no errors.
pub fn print(reports: &[Report], format: Format, out: &mut dyn WriteColor) -> io::Result<bool> {
    let errors: usize = reports.iter().map(|r| r.loaded.errors()).sum();
    let warnings: usize = reports.iter().map(|r| r.loaded.warnings()).sum();
    // Checking nothing (a content folder without packs) is no success.
    let nothing = reports.is_empty();
    match format {
        Format::Text => {
            for r in reports {
                render::emit(out, &r.loaded.sources, &r.loaded.diagnostics)
                    .map_err(render::io_error)?;
            }
            for r in reports {
                if let Some(p) = &r.loaded.pack {
                    writeln!(out, "ok: {} ({}, {})", shown(&r.path), p.id, p.hash())?;
                }
            }
            writeln!(
                out,
                "{} checked: {}, {}",
                plural(reports.len(), "pack"),
                plural(errors, "error"),
                plural(warnings, "warning"),
            )?;
            if nothing {
                writeln!(out, "no packs found to check")?;
            }
        }
        Format::Json => {
            let diagnostics: Vec<_> = reports
                .iter()
                .flat_map(|r| {
                    r.loaded
                        .diagnostics
                        .iter()
                        .map(|d: &Diagnostic| render::to_json(d, &r.loaded.sources))
                })
                .collect();
            let packs: Vec<_> = reports
                .iter()
                .map(|r| {
                    json!({
                        "path": shown(&r.path),
                        "id": r.loaded.pack.as_ref().map(|p| p.id.clone()),
                        "hash": r.loaded.pack.as_ref().map(|p| p.hash().to_owned()),
                        "errors": r.loaded.errors(),
                        "warnings": r.loaded.warnings(),
                    })
                })
                .collect();
            let doc = json!({
                "version": render::JSON_VERSION,
                "packs": packs,
                "diagnostics": diagnostics,
                "errors": errors,
                "warnings": warnings,
            });
            // `io::Error::from` keeps the kind of a write error (a closed pipe stays one).
            serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
            writeln!(out)?;
        }
    }
    Ok(errors == 0 && !nothing)
}

/// A linted path as the user should see it: relative to the working folder when inside it,
/// and the working folder itself as `.` (never an empty name).
fn shown(path: &Path) -> String {
    match display(path) {
        shown if shown.is_empty() => ".".to_string(),
        shown => shown,
    }
}

fn plural(n: usize, word: &str) -> String {
    match n {
        0 => format!("no {word}s"),
        1 => format!("1 {word}"),
        _ => format!("{n} {word}s"),
    }
}
