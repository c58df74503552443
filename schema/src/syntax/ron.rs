//! RON text → [`Node`].
//!
//! `ron` parses and reports syntax errors (line and column), but its values carry no spans.
//! So after a successful parse, [`locate`] walks the text once more alongside the tree and
//! records where each key and value was written. The text is known to be valid RON by then,
//! so a small tokenizer suffices; if it ever loses its way, the remaining nodes keep an empty
//! span and diagnostics point at the start of the file rather than at a wrong place.

use std::fmt;
use std::ops::Range;

use grail_engine::diag::{Diagnostic, SourceId};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::node::{Entry, Node, NodeKind};

/// Deeper nesting than this is an error rather than a risk to the stack.
const RECURSION_LIMIT: usize = 64;

pub fn parse(source: SourceId, text: &str) -> Result<Node, Vec<Diagnostic>> {
    let options = ron::Options::default().with_recursion_limit(RECURSION_LIMIT);
    match options.from_str::<Raw>(text) {
        Ok(Raw(mut node)) => {
            let mut cursor = Cursor { text, pos: 0 };
            cursor.skip_attributes();
            let _ = cursor.value(&mut node);
            Ok(node)
        }
        Err(e) => {
            let start = offset(text, e.span.start.line, e.span.start.col);
            let end = offset(text, e.span.end.line, e.span.end.col).max(start);
            let message = format!("invalid RON: {}", e.code);
            Err(vec![Diagnostic::error("syntax", message).at(
                source,
                start..end,
                "here",
            )])
        }
    }
}

/// Byte offset of a 1-based line and character column; clamps to the text.
fn offset(text: &str, line: usize, col: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_text = &text[start..];
    let line_end = line_text.find('\n').unwrap_or(line_text.len());
    start
        + line_text[..line_end]
            .char_indices()
            .nth(col.saturating_sub(1))
            .map_or(line_end, |(i, _)| i)
}

/// A node read by `ron` through serde, before spans are known.
struct Raw(Node);

fn raw(kind: NodeKind) -> Raw {
    Raw(Node::new(kind, 0..0))
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a RON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(raw(NodeKind::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(raw(NodeKind::Int(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Raw, E> {
        i64::try_from(v)
            .map(|v| raw(NodeKind::Int(v)))
            .map_err(|_| E::custom("integer does not fit in 64 bits"))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(raw(NodeKind::Float(v)))
    }
    fn visit_char<E>(self, v: char) -> Result<Raw, E> {
        Ok(raw(NodeKind::Str(v.to_string())))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(raw(NodeKind::Str(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(raw(NodeKind::Str(v)))
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(raw(NodeKind::Null))
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(raw(NodeKind::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(Raw(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(raw(NodeKind::Array(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(Raw(key)) = map.next_key()? {
            let NodeKind::Str(key) = key.kind else {
                return Err(de::Error::custom(format!(
                    "a key must be a name or a string, not {}",
                    key.describe()
                )));
            };
            let Raw(value) = map.next_value()?;
            entries.push(Entry {
                key,
                key_span: 0..0,
                value,
            });
        }
        Ok(raw(NodeKind::Table(entries)))
    }
}

/// Walks valid RON text token by token, in step with the parsed tree.
struct Cursor<'t> {
    text: &'t str,
    pos: usize,
}

impl<'t> Cursor<'t> {
    fn rest(&self) -> &'t str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_trivia(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if trimmed.starts_with("/*") {
                self.skip_block_comment();
            } else {
                return;
            }
        }
    }

    /// RON block comments nest.
    fn skip_block_comment(&mut self) {
        let mut depth = 0usize;
        while !self.rest().is_empty() {
            if self.rest().starts_with("/*") {
                depth += 1;
                self.pos += 2;
            } else if self.rest().starts_with("*/") {
                depth = depth.saturating_sub(1);
                self.pos += 2;
                if depth == 0 {
                    return;
                }
            } else {
                self.pos += self.peek().map_or(1, char::len_utf8);
            }
        }
    }

    /// `#![enable(...)]` lines before the value.
    fn skip_attributes(&mut self) {
        loop {
            self.skip_trivia();
            if !self.rest().starts_with("#!") {
                return;
            }
            match self.rest().find(']') {
                Some(i) => self.pos += i + 1,
                None => return,
            }
        }
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_trivia();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Option<()> {
        self.eat(c).then_some(())
    }

    fn ident(&mut self) -> Option<Range<usize>> {
        self.skip_trivia();
        let start = self.pos;
        let rest = self.rest();
        let rest = rest.strip_prefix("r#").unwrap_or(rest);
        let skipped = self.rest().len() - rest.len();
        let first = rest.chars().next()?;
        if !(first.is_alphabetic() || first == '_') {
            return None;
        }
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        self.pos += skipped + len;
        Some(start..self.pos)
    }

    /// A string (`"…"`, `r#"…"#`, `b"…"`) or character literal.
    fn string(&mut self) -> Option<Range<usize>> {
        self.skip_trivia();
        let start = self.pos;
        let rest = self.rest();
        let rest = rest.strip_prefix('b').unwrap_or(rest);
        if let Some(raw) = rest.strip_prefix('r') {
            let hashes = raw.len() - raw.trim_start_matches('#').len();
            let body = raw[hashes..].strip_prefix('"')?;
            let close = format!("\"{}", "#".repeat(hashes));
            let end = body.find(&close)? + close.len();
            let consumed = self.rest().len() - body.len() + end;
            self.pos += consumed;
            return Some(start..self.pos);
        }
        let quote = rest.chars().next().filter(|&c| c == '"' || c == '\'')?;
        let prefix = self.rest().len() - rest.len() + 1;
        let mut escaped = false;
        for (i, c) in rest[1..].char_indices() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == quote {
                self.pos += prefix + i + 1;
                return Some(start..self.pos);
            }
        }
        None
    }

    /// A number, `true`, `inf` or another one-token scalar.
    fn word(&mut self) -> Option<Range<usize>> {
        self.skip_trivia();
        let start = self.pos;
        let len = self
            .rest()
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '+' | '-')))
            .unwrap_or(self.rest().len());
        (len > 0).then(|| {
            self.pos += len;
            start..self.pos
        })
    }

    /// Records the spans of `node` and its children; `None` when the text does not match.
    fn value(&mut self, node: &mut Node) -> Option<()> {
        self.skip_trivia();
        let start = self.pos;
        // `Some(x)` and newtype wrappers around a non-table value.
        if !matches!(node.kind, NodeKind::Table(_) | NodeKind::Null) {
            let save = self.pos;
            if self.ident().is_some() && self.eat('(') {
                self.value(node)?;
                self.expect(')')?;
                node.span = start..self.pos;
                return Some(());
            }
            self.pos = save;
        }
        match &mut node.kind {
            NodeKind::Table(entries) => {
                let save = self.pos;
                if self.ident().is_none() {
                    self.pos = save;
                }
                let close = if self.eat('(') {
                    ')'
                } else {
                    self.expect('{')?;
                    '}'
                };
                for entry in entries.iter_mut() {
                    self.skip_trivia();
                    entry.key_span = match self.string() {
                        Some(span) => span,
                        None => self.ident()?,
                    };
                    self.expect(':')?;
                    self.value(&mut entry.value)?;
                    self.eat(',');
                }
                self.expect(close)?;
            }
            NodeKind::Array(items) => {
                let close = if self.eat('[') {
                    ']'
                } else {
                    self.expect('(')?;
                    ')'
                };
                for item in items.iter_mut() {
                    self.value(item)?;
                    self.eat(',');
                }
                self.expect(close)?;
            }
            NodeKind::Null => {
                if self.eat('(') {
                    self.expect(')')?;
                } else {
                    self.ident()?;
                }
            }
            NodeKind::Str(_) => {
                if self.string().is_none() {
                    self.word()?;
                }
            }
            _ => {
                self.word()?;
            }
        }
        node.span = start..self.pos;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<(String, &str)> {
        let node = parse(SourceId(0), text).expect("valid");
        let NodeKind::Table(entries) = node.kind else {
            panic!("not a table")
        };
        entries
            .iter()
            .map(|e| (e.key.clone(), &text[e.value.span.clone()]))
            .collect()
    }

    #[test]
    fn locates_keys_and_values() {
        let text = r##"// a comment
            ( id: "x", /* block /* nested */ */ n: -3, list: ["a", r#"b"#], sub: (k: Some(true)), m: {"q": 1.5} )"##;
        assert_eq!(
            spans(text),
            [
                ("id".into(), r#""x""#),
                ("n".into(), "-3"),
                ("list".into(), r###"["a", r#"b"#]"###),
                ("sub".into(), "(k: Some(true))"),
                ("m".into(), r#"{"q": 1.5}"#),
            ]
        );
    }

    #[test]
    fn syntax_errors_have_a_position() {
        let errors = parse(SourceId(0), "(a: 1,\n b: )").unwrap_err();
        let span = errors[0].labels[0].span.clone();
        assert_eq!(
            grail_engine::diag::line_col("(a: 1,\n b: )", span.start).0,
            2
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        assert!(parse(SourceId(0), &text).is_err());
    }
}
