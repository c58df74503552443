//! Diagnostics for people (rustc-style snippets via `codespan-reporting`) and for tools
//! (the stable JSON shape documented in `docs/modding.md`).

use codespan_reporting::diagnostic::{self as cs, LabelStyle};
use codespan_reporting::files;
use codespan_reporting::term::termcolor::WriteColor;
use codespan_reporting::term::{self, Config};
use grail_engine::diag::{Diagnostic, Label, Severity, SourceId, Sources, line_col};
use serde_json::{Value, json};

pub use crate::excerpt::escape;
use crate::excerpt::{Excerpt, LineStarts};

/// The most diagnostics rendered as text for one pack; the rest are counted in a last line
/// (the JSON form lists them all). A thousand broken includes stay one screen.
pub const MAX_SHOWN: usize = 20;

/// One diagnostic for `codespan-reporting`, over the excerpt of its files it shows, with
/// every text from the input escaped.
fn to_codespan(
    d: &Diagnostic,
    sources: &Sources,
    excerpt: &Excerpt,
    starts: &LineStarts,
) -> cs::Diagnostic<SourceId> {
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
            cs::Label::new(style, l.source, excerpt.span(sources, starts, l))
                .with_message(escape(&l.message))
        })
        .collect();
    let notes = d
        .help
        .iter()
        .map(|h| format!("help: {}", escape(h)))
        .chain(d.notes.iter().map(|n| format!("note: {}", escape(n))))
        .collect();
    cs::Diagnostic::new(severity)
        .with_code(d.code)
        .with_message(escape(&d.message))
        .with_labels(labels)
        .with_notes(notes)
}

/// Renders each diagnostic (at most [`MAX_SHOWN`]) through `emit_one`, then the count of
/// those left out.
fn each_shown(
    sources: &Sources,
    diagnostics: &[Diagnostic],
    mut emit_one: impl FnMut(
        &Diagnostic,
        &Excerpt,
        cs::Diagnostic<SourceId>,
    ) -> Result<(), files::Error>,
) -> Result<Option<String>, files::Error> {
    let starts = LineStarts::new(sources);
    for d in diagnostics.iter().take(MAX_SHOWN) {
        let excerpt = Excerpt::new(sources, &starts, &d.labels);
        let shown = to_codespan(d, sources, &excerpt, &starts);
        emit_one(d, &excerpt, shown)?;
    }
    let left = diagnostics.len().saturating_sub(MAX_SHOWN);
    Ok((left > 0).then(|| {
        format!("note: {left} more findings not shown (`--format json` lists them all)\n\n")
    }))
}

/// Writes diagnostics rustc-style; `out` decides about colour.
pub fn emit(
    mut out: &mut dyn WriteColor,
    sources: &Sources,
    diagnostics: &[Diagnostic],
) -> Result<(), files::Error> {
    let config = Config::default();
    let rest = each_shown(sources, diagnostics, |_, excerpt, shown| {
        term::emit_to_write_style(&mut out, &config, excerpt, &shown)
    })?;
    if let Some(rest) = rest {
        out.write_all(rest.as_bytes())?;
    }
    Ok(())
}

/// A rendering error as an I/O error, keeping the kind of a failed write (so a closed pipe
/// is still recognised as one and ends the command quietly).
pub fn io_error(e: files::Error) -> std::io::Error {
    match e {
        files::Error::Io(e) => e,
        other => std::io::Error::other(other),
    }
}

/// The same, as plain text (tests, snapshots).
pub fn to_string(sources: &Sources, diagnostics: &[Diagnostic]) -> String {
    let config = Config::default();
    let mut text = String::new();
    let rest = each_shown(sources, diagnostics, |d, excerpt, shown| {
        text += &term::emit_into_string(&config, excerpt, &shown)
            .unwrap_or_else(|e| format!("{}: {} (cannot show: {e})\n", d.code, escape(&d.message)));
        Ok(())
    });
    if let Ok(Some(rest)) = rest {
        text += &rest;
    }
    text
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
