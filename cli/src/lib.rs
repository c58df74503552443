//! The `grail` command's pieces, one module per command; `main.rs` holds only the argument
//! definitions and the dispatch. A library so integration tests can run commands in-process.

pub mod content;
pub mod lint;
pub mod list;
pub mod render;
pub mod schema;
