//! Errors are data. Every stage reports [`Diagnostic`]s that point into sources by byte span;
//! only the command line renders them (rustc-style snippets, or JSON).

use std::ops::Range;

pub mod codes;

/// Index of a source text in a [`Sources`] table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceId(pub u32);

/// The texts diagnostics point into: content files, condition strings, scripts.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    entries: Vec<Source>,
}

#[derive(Clone, Debug)]
pub struct Source {
    /// The path as the user should see it.
    pub name: String,
    pub text: String,
}

impl Sources {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> SourceId {
        let id = SourceId(self.entries.len() as u32);
        self.entries.push(Source {
            name: name.into(),
            text: text.into(),
        });
        id
    }
    pub fn get(&self, id: SourceId) -> &Source {
        &self.entries[id.0 as usize]
    }
    pub fn iter(&self) -> impl Iterator<Item = (SourceId, &Source)> {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, s)| (SourceId(i as u32), s))
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, id: SourceId, offset: usize) -> (usize, usize) {
        line_col(&self.get(id).text, offset)
    }
}

/// 1-based line and column (in characters) of a byte offset; offsets past the end clamp.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = text[line_start..offset].chars().count() + 1;
    (line, col)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// One finding. `code` is a stable kebab-case name (`unknown-key`, `total-mismatch`, ...)
/// documented in `docs/modding.md`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub source: SourceId,
    pub span: Range<usize>,
    pub message: String,
    pub primary: bool,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            notes: Vec::new(),
        }
    }
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Self::error(code, message)
        }
    }
    /// The main place the diagnostic is about.
    pub fn at(mut self, source: SourceId, span: Range<usize>, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            source,
            span,
            message: message.into(),
            primary: true,
        });
        self
    }
    /// A secondary place that explains the main one.
    pub fn also(
        mut self,
        source: SourceId,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        self.labels.push(Label {
            source,
            span,
            message: message.into(),
            primary: false,
        });
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    pub fn primary(&self) -> Option<&Label> {
        self.labels
            .iter()
            .find(|l| l.primary)
            .or(self.labels.first())
    }
}

/// "there is no {what} `{word}`", with the closest candidate or else the list of them.
pub fn no_such<'a>(
    what: &str,
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    let all: Vec<&str> = candidates.into_iter().collect();
    match did_you_mean(word, all.iter().copied()) {
        Some(s) => format!("there is no {what} `{word}`; did you mean `{s}`?"),
        // No list to try: never "try one of: " and nothing.
        None if all.is_empty() => format!("there is no {what} `{word}`"),
        None => format!(
            "there is no {what} `{word}`; try one of: {}",
            all.join(", ")
        ),
    }
}

/// A bidirectional control character (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
/// U+061C): it reorders how a terminal shows the text around it, so a name or a message could
/// read other than it is. Refused in packs like the control characters, escaped on output.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// The closest candidate within a small edit distance, for "did you mean" help.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1) + 1;
    candidates
        .into_iter()
        // Never the word itself: a name can exist and still fail (a file that is a symlink
        // loop), and "did you mean `x`?" about `x` misleads.
        .filter(|&c| c != word)
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c.len()))
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters, case-insensitive.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_such_lists_nothing_when_there_is_nothing_to_try() {
        assert_eq!(
            no_such("number param", "hand_size", []),
            "there is no number param `hand_size`"
        );
        assert_eq!(
            no_such("number param", "zz", ["rounds"]),
            "there is no number param `zz`; try one of: rounds"
        );
    }

    #[test]
    fn line_col_counts_from_one_in_chars() {
        let text = "ab\nc–d\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        // "–" is three bytes; the column counts it once.
        assert_eq!(line_col(text, 7), (2, 3));
        assert_eq!(line_col(text, 999), (3, 1));
    }

    #[test]
    fn suggests_near_misses_only() {
        assert_eq!(did_you_mean("colour", ["color", "value"]), Some("color"));
        assert_eq!(did_you_mean("vlaue", ["color", "value"]), Some("value"));
        assert_eq!(did_you_mean("strength", ["color", "value"]), None);
        assert_eq!(did_you_mean("loop.toml", ["loop.toml"]), None);
    }
}
