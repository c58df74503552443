//! A parsed content file before it is given meaning: tables, arrays and scalars, each with
//! the byte span it was written at. TOML and RON both parse into this one tree, so decoding
//! (and its error messages) is written once.

use std::ops::Range;

use serde::Serialize;

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// Byte span in the file; empty when the parser could not tell (see `syntax::ron`).
    pub span: Range<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    /// A TOML date or time, kept as written; no pack field takes one.
    Datetime(String),
    Array(Vec<Node>),
    /// Entries in the order they were written.
    Table(Vec<Entry>),
    /// RON's `None` and `()`: the field is treated as absent.
    Null,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_span: Range<usize>,
    pub value: Node,
}

impl Node {
    pub fn new(kind: NodeKind, span: Range<usize>) -> Self {
        Node { kind, span }
    }

    /// What this node is, in words for an error message ("a string", "a table").
    pub fn describe(&self) -> &'static str {
        match self.kind {
            NodeKind::Str(_) => "a string",
            NodeKind::Int(_) => "an integer",
            NodeKind::Float(_) => "a float",
            NodeKind::Bool(_) => "a boolean",
            NodeKind::Datetime(_) => "a date-time",
            NodeKind::Array(_) => "an array",
            NodeKind::Table(_) => "a table",
            NodeKind::Null => "an empty value",
        }
    }
}

/// Free-form data (effect fields) serialize as plain JSON-like values, without spans.
impl Serialize for Node {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match &self.kind {
            NodeKind::Str(v) | NodeKind::Datetime(v) => s.serialize_str(v),
            NodeKind::Int(v) => s.serialize_i64(*v),
            NodeKind::Float(v) => s.serialize_f64(*v),
            NodeKind::Bool(v) => s.serialize_bool(*v),
            NodeKind::Array(items) => s.collect_seq(items),
            NodeKind::Table(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for e in entries {
                    map.serialize_entry(&e.key, &e.value)?;
                }
                map.end()
            }
            NodeKind::Null => s.serialize_unit(),
        }
    }
}

impl schemars::JsonSchema for Node {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "AnyValue".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!(true)
    }
}
