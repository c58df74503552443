//! TOML text → [`Node`], keeping the byte span of every key and value.
//!
//! The `toml` parser guards its own recursion (nesting deeper than 80 levels is a syntax
//! error, not a stack overflow), so the conversion below is bounded too.

use grail_engine::diag::{Diagnostic, SourceId};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::node::{Entry, Node, NodeKind};

/// Parses a whole TOML document. Syntax errors come back all at once, each with a caret.
pub fn parse(source: SourceId, text: &str) -> Result<Node, Vec<Diagnostic>> {
    let (table, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        return Err(errors
            .iter()
            .map(|e| syntax_error(source, text, e.message(), e.span()))
            .collect());
    }
    let mut diags = Vec::new();
    let span = table.span();
    let node = Node::new(table_kind(table.into_inner(), &mut diags, source), span);
    if diags.is_empty() {
        Ok(node)
    } else {
        Err(diags)
    }
}

fn syntax_error(
    source: SourceId,
    text: &str,
    message: &str,
    span: Option<std::ops::Range<usize>>,
) -> Diagnostic {
    let span = span.unwrap_or(text.len()..text.len());
    // The parser's message may span lines ("expected `.`, `=`"); the first line says it.
    let message = message.trim();
    Diagnostic::error("syntax", format!("invalid TOML: {message}")).at(source, span, "here")
}

fn table_kind(table: DeTable<'_>, diags: &mut Vec<Diagnostic>, source: SourceId) -> NodeKind {
    let entries = table
        .into_iter()
        .map(|(key, value)| Entry {
            key_span: key.span(),
            key: key.into_inner().into_owned(),
            value: node(value, diags, source),
        })
        .collect();
    NodeKind::Table(entries)
}

fn node(value: Spanned<DeValue<'_>>, diags: &mut Vec<Diagnostic>, source: SourceId) -> Node {
    let span = value.span();
    let kind = match value.into_inner() {
        DeValue::String(s) => NodeKind::Str(s.into_owned()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(v) => NodeKind::Int(v),
            Err(_) => {
                diags.push(
                    Diagnostic::error("syntax", "integer does not fit in 64 bits").at(
                        source,
                        span.clone(),
                        "too large",
                    ),
                );
                NodeKind::Null
            }
        },
        DeValue::Float(f) => match f.as_str().parse::<f64>() {
            Ok(v) => NodeKind::Float(v),
            Err(_) => NodeKind::Str(f.as_str().to_owned()),
        },
        DeValue::Boolean(b) => NodeKind::Bool(b),
        DeValue::Datetime(d) => NodeKind::Datetime(d.to_string()),
        DeValue::Array(items) => {
            NodeKind::Array(items.into_iter().map(|v| node(v, diags, source)).collect())
        }
        DeValue::Table(t) => table_kind(t, diags, source),
    };
    Node::new(kind, span)
}
