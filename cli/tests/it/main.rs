//! The command-line tests, one binary: each file a module of it, so that a fresh clone links
//! the `grail` library into one test executable instead of one per file.

mod browser;
mod cards;
mod cli;
mod exit_codes;
mod hostile;
mod hostile_rulebooks;
mod installed;
mod play_screens;
mod readme;
mod rules_words;
mod saves;
mod serve;
mod server;
