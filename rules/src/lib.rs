//! grail-rules: one module per game, each a thin rulebook over engine parts.

pub mod catalog;

pub use catalog::catalog;
