//! What a diagnostic shows of its files: only the lines its labels point at, a long line cut
//! to a window around the label with an ellipsis, control characters escaped. Whatever a pack
//! holds (a 60 kB line, `\u{1b}[2J`), a diagnostic stays a few short lines of plain text.
//! Line and column numbers are those of the original file.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

use codespan_reporting::files::{self, Files};
use grail_engine::diag::{Label, SourceId, Sources};

/// The most characters of a source line a snippet shows.
pub const MAX_LINE_CHARS: usize = 120;
/// On a cut line, how many characters before the label stay in view.
const LEAD: usize = 40;
/// Lines of a long multi-line label shown after its start and before its end (as many as
/// `codespan-reporting` prints); the lines between are kept empty.
const LABEL_CONTEXT: usize = 3;

/// `s` with every control character but newline and tab, and every character that reorders
/// text (`grail_engine::diag::is_bidi_control`), written as an escape (`\u{1b}`), so
/// input echoed to a terminal cannot move the cursor, clear the screen or retitle it.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_escaped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_char(&mut out, c);
    }
    Cow::Owned(out)
}

fn is_escaped(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || grail_engine::diag::is_bidi_control(c)
}

fn push_char(out: &mut String, c: char) {
    if is_escaped(c) {
        out.extend(c.escape_unicode());
    } else {
        out.push(c);
    }
}

/// Line starts of every source, computed once per rendering.
pub struct LineStarts(Vec<Vec<usize>>);

impl LineStarts {
    pub fn new(sources: &Sources) -> Self {
        LineStarts(
            sources
                .iter()
                .map(|(_, s)| files::line_starts(&s.text).collect())
                .collect(),
        )
    }

    fn line_of(&self, id: SourceId, offset: usize) -> usize {
        let starts = &self.0[id.0 as usize];
        starts
            .binary_search(&offset)
            .unwrap_or_else(|next| next - 1)
    }
}

/// The shown lines of the files one diagnostic points into.
pub struct Excerpt {
    files: BTreeMap<SourceId, Shown>,
}

struct Shown {
    name: String,
    text: String,
    /// By original line index.
    lines: BTreeMap<usize, ShownLine>,
}

struct ShownLine {
    /// In `Shown::text`, with its newline.
    range: Range<usize>,
    /// 1-based column, in the original line, of the first character shown.
    first_column: usize,
    /// The original byte offset and the shown byte offset of each character shown, and of
    /// the end of what is shown.
    marks: Vec<(usize, usize)>,
}

impl ShownLine {
    fn to_shown(&self, offset: usize) -> usize {
        match self.marks.binary_search_by_key(&offset, |m| m.0) {
            Ok(i) => self.marks[i].1,
            Err(0) => self.marks[0].1,
            Err(i) => self.marks[i - 1].1,
        }
    }
}

impl Excerpt {
    /// The lines `labels` need (those of known sources only), each made safe to print.
    pub fn new(sources: &Sources, starts: &LineStarts, labels: &[Label]) -> Self {
        // Per source, per line: where on that line the view should be (the first label).
        let mut wanted: BTreeMap<SourceId, BTreeMap<usize, Option<usize>>> = BTreeMap::new();
        for l in labels
            .iter()
            .filter(|l| (l.source.0 as usize) < sources.len())
        {
            let text = &sources.get(l.source).text;
            let span = clamp(text, &l.span);
            let lines = wanted.entry(l.source).or_default();
            let (first, last) = (
                starts.line_of(l.source, span.start),
                starts.line_of(l.source, span.end),
            );
            // Neighbours too: codespan-reporting prints a single line between two labels.
            for line in first.saturating_sub(1)..=last + 1 {
                let focus = if line == first {
                    Some(span.start)
                } else if line == last {
                    Some(span.end)
                } else {
                    None
                };
                let entry = lines.entry(line).or_insert(None);
                *entry = match (*entry, focus) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            // Long labels: the lines in their middle are never printed.
            if last > first + 2 * LABEL_CONTEXT + 2 {
                for line in first + LABEL_CONTEXT + 1..last - LABEL_CONTEXT {
                    lines.insert(line, Some(usize::MAX));
                }
            }
        }
        let files = wanted
            .into_iter()
            .map(|(id, lines)| {
                let source = sources.get(id);
                let line_starts = &starts.0[id.0 as usize];
                let mut shown = Shown {
                    name: escape(&source.name).into_owned(),
                    text: String::new(),
                    lines: BTreeMap::new(),
                };
                for (index, focus) in lines {
                    let Some(&start) = line_starts.get(index) else {
                        continue;
                    };
                    let end = line_starts
                        .get(index + 1)
                        .copied()
                        .unwrap_or(source.text.len());
                    let line = if focus == Some(usize::MAX) {
                        ""
                    } else {
                        source.text[start..end].trim_end_matches(['\n', '\r'])
                    };
                    let focus = focus.filter(|&f| f != usize::MAX).map(|f| f - start.min(f));
                    let shown_line = show_line(&mut shown.text, line, start, focus);
                    shown.lines.insert(index, shown_line);
                }
                (id, shown)
            })
            .collect();
        Excerpt { files }
    }

    /// A label's span in the shown text.
    pub fn span(&self, sources: &Sources, starts: &LineStarts, label: &Label) -> Range<usize> {
        let Some(shown) = self.files.get(&label.source) else {
            return 0..0;
        };
        let span = clamp(&sources.get(label.source).text, &label.span);
        let at = |offset: usize| {
            let line = starts.line_of(label.source, offset);
            shown.lines.get(&line).map_or(0, |l| l.to_shown(offset))
        };
        let start = at(span.start);
        start..at(span.end).max(start)
    }

    fn file(&self, id: SourceId) -> Result<&Shown, files::Error> {
        self.files.get(&id).ok_or(files::Error::FileMissing)
    }
}

/// Appends one line to `out` as shown: cut around `focus` (a byte offset in `line`) when
/// longer than [`MAX_LINE_CHARS`], control characters escaped. `start` is the line's offset
/// in its file.
fn show_line(out: &mut String, line: &str, start: usize, focus: Option<usize>) -> ShownLine {
    let chars = line.chars().count();
    let (from, to) = if chars <= MAX_LINE_CHARS {
        (0, chars)
    } else {
        let focus_char = focus.map_or(0, |f| {
            line.char_indices().take_while(|&(i, _)| i < f).count()
        });
        let from = focus_char.saturating_sub(LEAD).min(chars - MAX_LINE_CHARS);
        (from, from + MAX_LINE_CHARS)
    };
    let begin = out.len();
    let mut marks = Vec::with_capacity(to - from + 1);
    if from > 0 {
        out.push('…');
    }
    let mut end_offset = start + line.len();
    for (n, (i, c)) in line.char_indices().enumerate() {
        if n < from {
            continue;
        }
        if n == to {
            end_offset = start + i;
            break;
        }
        marks.push((start + i, out.len()));
        push_char(out, c);
    }
    marks.push((end_offset, out.len()));
    if to < chars {
        out.push('…');
    }
    out.push('\n');
    ShownLine {
        range: begin..out.len(),
        first_column: from + 1,
        marks,
    }
}

/// A span that is safe to slice `text` with: inside it and on character boundaries.
pub fn clamp(text: &str, span: &Range<usize>) -> Range<usize> {
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

impl<'a> Files<'a> for Excerpt {
    type FileId = SourceId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: SourceId) -> Result<&'a str, files::Error> {
        Ok(&self.file(id)?.name)
    }

    fn source(&'a self, id: SourceId) -> Result<&'a str, files::Error> {
        Ok(&self.file(id)?.text)
    }

    fn line_index(&'a self, id: SourceId, byte_index: usize) -> Result<usize, files::Error> {
        let shown = self.file(id)?;
        shown
            .lines
            .iter()
            .find(|(_, l)| byte_index < l.range.end)
            .or_else(|| shown.lines.iter().next_back())
            .map(|(&index, _)| index)
            .ok_or(files::Error::FileMissing)
    }

    fn line_range(&'a self, id: SourceId, line: usize) -> Result<Range<usize>, files::Error> {
        let shown = self.file(id)?;
        shown
            .lines
            .get(&line)
            .map(|l| l.range.clone())
            .ok_or(files::Error::LineTooLarge {
                given: line,
                max: shown.lines.keys().next_back().copied().unwrap_or(0),
            })
    }

    fn column_number(
        &'a self,
        id: SourceId,
        line: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let shown = self.file(id)?;
        let l = shown.lines.get(&line).ok_or(files::Error::LineTooLarge {
            given: line,
            max: 0,
        })?;
        let before = l.marks.partition_point(|m| m.1 < byte_index);
        Ok(l.first_column + before.min(l.marks.len() - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_but_newlines_and_tabs_stay() {
        assert_eq!(escape("a\u{1b}[2Jb\tc\nd\r"), "a\\u{1b}[2Jb\tc\nd\\u{d}");
        assert!(matches!(escape("plain – text"), Cow::Borrowed(_)));
        // Those that reorder how text shows too (the right-to-left override).
        assert_eq!(escape("a\u{202e}b\u{2066}"), "a\\u{202e}b\\u{2066}");
    }

    #[test]
    fn a_long_line_is_cut_around_its_label_with_the_original_column() {
        let line = format!("x = [{}\"here\"]", "\"a\", ".repeat(1000));
        let mut sources = Sources::default();
        let id = sources.add("p.toml", format!("first\n{line}\nlast\n"));
        let at = 6 + line.find("\"here\"").unwrap();
        let label = Label {
            source: id,
            span: at..at + 6,
            message: String::new(),
            primary: true,
        };
        let starts = LineStarts::new(&sources);
        let excerpt = Excerpt::new(&sources, &starts, std::slice::from_ref(&label));
        let shown = excerpt.line_range(id, 1).unwrap();
        let text = &excerpt.source(id).unwrap()[shown];
        assert!(text.starts_with('…'), "{text}");
        assert!(text.chars().count() <= MAX_LINE_CHARS + 3, "{text}");
        let span = excerpt.span(&sources, &starts, &label);
        assert_eq!(&excerpt.source(id).unwrap()[span.clone()], "\"here\"");
        assert_eq!(
            excerpt.column_number(id, 1, span.start).unwrap(),
            line.find("\"here\"").unwrap() + 1
        );
    }
}
