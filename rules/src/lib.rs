//! grail-rules: one module per game, each a thin rulebook over engine parts, compiled from
//! its content pack.

pub mod catalog;
pub mod king_arthur;

pub use catalog::catalog;
