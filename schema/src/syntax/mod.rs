//! The first stage: text → [`Node`] tree. Knows file formats, nothing about packs.

pub mod ron;
pub mod toml;

use std::path::Path;

use grail_engine::diag::{Diagnostic, SourceId};

use crate::node::Node;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Toml,
    Ron,
}

impl Format {
    /// `.ron` files are RON; everything else is read as TOML, the authoring format.
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("ron") => Format::Ron,
            _ => Format::Toml,
        }
    }
}

pub fn parse(format: Format, source: SourceId, text: &str) -> Result<Node, Vec<Diagnostic>> {
    match format {
        Format::Toml => toml::parse(source, text),
        Format::Ron => ron::parse(source, text),
    }
}
