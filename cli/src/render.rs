//! Diagnostics for people (rustc-style snippets via `codespan-reporting`) and for tools
//! (the stable JSON shape documented in `docs/modding.md`).

use std::ops::Range;

use codespan_reporting::diagnostic::{self as cs, LabelStyle};
use codespan_reporting::files::{self, Files};
use codespan_reporting::term::termcolor::WriteColor;
use codespan_reporting::term::{self, Config};
use grail_engine::diag::{Diagnostic, Label, Severity, SourceId, Sources, line_col};
use serde_json::{Value, json};

/// The sources as `codespan-reporting` reads them, with line starts computed once.
pub struct SourceFiles<'a> {
    sources: &'a Sources,
    line_starts: Vec<Vec<usize>>,
}

impl<'a> SourceFiles<'a> {
    pub fn new(sources: &'a Sources) -> Self {
        let line_starts = sources
            .iter()
            .map(|(_, s)| files::line_starts(&s.text).collect())
            .collect();
        SourceFiles {
            sources,
            line_starts,
        }
    }

    fn text(&self, id: SourceId) -> Result<&'a str, files::Error> {
        if (id.0 as usize) < self.sources.len() {
            Ok(&self.sources.get(id).text)
        } else {
            Err(files::Error::FileMissing)
        }
    }
}

impl<'a> Files<'a> for SourceFiles<'a> {
    type FileId = SourceId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: SourceId) -> Result<&'a str, files::Error> {
        self.text(id)?;
        Ok(&self.sources.get(id).name)
    }

    fn source(&'a self, id: SourceId) -> Result<&'a str, files::Error> {
        self.text(id)
    }

    fn line_index(&'a self, id: SourceId, byte_index: usize) -> Result<usize, files::Error> {
        let starts = self
            .line_starts
            .get(id.0 as usize)
            .ok_or(files::Error::FileMissing)?;
        Ok(starts
            .binary_search(&byte_index)
            .unwrap_or_else(|next| next - 1))
    }

    fn line_range(&'a self, id: SourceId, line: usize) -> Result<Range<usize>, files::Error> {
        let text = self.text(id)?;
        let starts = &self.line_starts[id.0 as usize];
        let start = *starts.get(line).ok_or(files::Error::LineTooLarge {
            given: line,
            max: starts.len() - 1,
        })?;
        let end = starts.get(line + 1).copied().unwrap_or(text.len());
        Ok(start..end)
    }
}

/// A span that is safe to slice `text` with: inside it and on character boundaries.
fn clamp(text: &str, span: &Range<usize>) -> Range<usize> {
    let fix = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = fix(span.start);
    start..fix(span.end).max(start)
}

fn to_codespan(d: &Diagnostic, sources: &Sources) -> cs::Diagnostic<SourceId> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let labels = d
        .labels
        .iter()
        .filter(|l| (l.source.0 as usize) < sources.len())
        .map(|l| {
            let style = if l.primary {
                LabelStyle::Primary
            } else {
                LabelStyle::Secondary
            };
            let span = clamp(&sources.get(l.source).text, &l.span);
            cs::Label::new(style, l.source, span).with_message(&l.message)
        })
        .collect();
    let notes = d
        .help
        .iter()
        .map(|h| format!("help: {h}"))
        .chain(d.notes.iter().map(|n| format!("note: {n}")))
        .collect();
    cs::Diagnostic::new(severity)
        .with_code(d.code)
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(notes)
}

/// Writes diagnostics rustc-style; `out` decides about colour.
pub fn emit(
    mut out: &mut dyn WriteColor,
    sources: &Sources,
    diagnostics: &[Diagnostic],
) -> Result<(), files::Error> {
    let files = SourceFiles::new(sources);
    let config = Config::default();
    for d in diagnostics {
        term::emit_to_write_style(&mut out, &config, &files, &to_codespan(d, sources))?;
    }
    Ok(())
}

/// The same, as plain text (tests, snapshots).
pub fn to_string(sources: &Sources, diagnostics: &[Diagnostic]) -> String {
    let files = SourceFiles::new(sources);
    let config = Config::default();
    diagnostics
        .iter()
        .map(|d| {
            term::emit_into_string(&config, &files, &to_codespan(d, sources))
                .unwrap_or_else(|e| format!("{}: {} (cannot show: {e})\n", d.code, d.message))
        })
        .collect()
}

/// Version of the JSON shape; bumped on any incompatible change.
pub const JSON_VERSION: u32 = 1;

/// One diagnostic in the documented JSON shape.
pub fn to_json(d: &Diagnostic, sources: &Sources) -> Value {
    let primary = d.primary().map(|l| place(l, sources));
    let field = |key: &str| primary.as_ref().map_or(Value::Null, |p| p[key].clone());
    json!({
        "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
        "code": d.code,
        "message": d.message,
        "file": field("file"),
        "line": field("line"),
        "column": field("column"),
        "end_line": field("end_line"),
        "end_column": field("end_column"),
        "labels": d.labels.iter().map(|l| {
            let mut p = place(l, sources);
            p["message"] = json!(l.message);
            p["primary"] = json!(l.primary);
            p
        }).collect::<Vec<_>>(),
        "help": d.help,
        "notes": d.notes,
    })
}

/// File, and 1-based start and end line and column (in characters; the end is exclusive).
fn place(l: &Label, sources: &Sources) -> Value {
    if (l.source.0 as usize) >= sources.len() {
        return json!({ "file": null, "line": null, "column": null, "end_line": null, "end_column": null });
    }
    let s = sources.get(l.source);
    let (line, column) = line_col(&s.text, l.span.start);
    let (end_line, end_column) = line_col(&s.text, l.span.end);
    json!({
        "file": s.name,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
    })
}
