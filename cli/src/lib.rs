//! The `grail` command's pieces, one module per command; `main.rs` holds only the argument
//! definitions and the dispatch. A library so integration tests can run commands in-process.

pub mod cards;
pub mod content;
mod excerpt;
pub mod exit;
pub mod explain;
pub mod games;
pub mod interrupt;
pub mod lint;
pub mod list;
pub mod menu;
pub mod merge;
pub mod play;
pub mod render;
pub mod replay;
pub mod report;
pub mod rules_cmd;
pub mod save;
pub mod schema;
pub mod screen;
pub mod serve;
pub mod sim;
pub mod sweep;
