//! Replays and scripts: a game as data, re-simulated and checked step by step.
//!
//! A replay names the game, variant, content hash, player count and seed, optionally stacks
//! piles, and lists steps: recorded moves with the digest of the state after them, hand-written
//! moves, expectations on [`Rules::inspect`](crate::game::Rules::inspect), moves that must be
//! refused, and how the game must end. A step's move may name the seat expected to make it
//! (`Play("P2: done")`); the step fails when another seat is to move. A script is a replay
//! written by hand. The file format
//! is RON (see `docs/replays.md`):
//!
//! ```ron
//! #![enable(implicit_some)]
//! (
//!     game: "king-arthur",
//!     variant: "seals",
//!     content_hash: "9c1e…",
//!     players: 3,
//!     seed: 42,
//!     stack: {"adversaries": ["dragon-4", "monster-2"]},
//!     steps: [
//!         Move("challenge dragon-4", "3fa2c1d0"),
//!         Play("P2: done"),
//!         Expect("score P1", "12"),
//!         Illegal("challenge dragon-4", "needs strength 4"),
//!         End(reason: "adventures-taken", scores: [12, 8, 3], winners: ["P1"]),
//!     ],
//! )
//! ```
//!
//! Parsing and running never panic on bad input: errors are data ([`FileError`],
//! [`Failure`]) that name the step and, where the step can be found in the text, its line.

mod locate;
mod run;

pub use run::{Failure, LogEntry, Problem, ReplayOptions, ReplayRun, resume, run};

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::diag::line_col;
use crate::game::{Rules, Setup};
use crate::play::Match;
use crate::seats::seat_name;

/// Larger files are refused before parsing: a real replay is a few hundred kilobytes.
pub const MAX_REPLAY_BYTES: usize = 16 << 20;
/// Replays nest three levels deep; anything deeper is malformed, and the limit keeps a
/// hostile file from exhausting the stack.
const MAX_NESTING: usize = 16;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    pub game: String,
    #[serde(default)]
    pub variant: Option<String>,
    /// The content hash of the pack the replay was recorded with. Hand-written scripts may
    /// leave it out; then it is not checked.
    #[serde(default)]
    pub content_hash: Option<String>,
    pub players: usize,
    pub seed: u64,
    /// Pile name → card ids put on top after the seeded shuffle, first id on top.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stack: BTreeMap<String, Vec<String>>,
    /// Who played each seat (`"human"`, `"greedy"`), for the reader; also how a saved game
    /// knows its bots when resumed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Step {
    /// A recorded move and the digest of the state after it.
    Move(String, String),
    /// A move without a digest (hand-written).
    Play(String),
    /// `Rules::inspect(query)` must answer exactly this (surrounding spaces ignored).
    Expect(String, String),
    /// This move must be refused, with a reason containing this text.
    Illegal(String, String),
    /// The game must be over here; each given field must match.
    End {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scores: Option<Vec<i64>>,
        /// Seat names, "P1" first seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winners: Option<Vec<String>>,
    },
}

impl fmt::Display for Step {
    /// The step as it would be written in a file.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Move(m, d) => write!(f, "Move({m:?}, {d:?})"),
            Step::Play(m) => write!(f, "Play({m:?})"),
            Step::Expect(q, a) => write!(f, "Expect({q:?}, {a:?})"),
            Step::Illegal(m, r) => write!(f, "Illegal({m:?}, {r:?})"),
            Step::End {
                reason,
                scores,
                winners,
            } => {
                let mut parts = Vec::new();
                if let Some(r) = reason {
                    parts.push(format!("reason: {r:?}"));
                }
                if let Some(s) = scores {
                    parts.push(format!("scores: {s:?}"));
                }
                if let Some(w) = winners {
                    parts.push(format!("winners: {w:?}"));
                }
                write!(f, "End({})", parts.join(", "))
            }
        }
    }
}

/// A file that is not a readable replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub message: String,
    /// 1-based line and column, when known.
    pub position: Option<(usize, usize)>,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => write!(f, "{line}:{col}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for FileError {}

/// A parsed replay with the text it came from, so errors can point into it.
#[derive(Clone, Debug)]
pub struct ReplayFile {
    pub replay: Replay,
    text: Option<String>,
    step_offsets: Vec<usize>,
}

impl ReplayFile {
    /// Parses RON text. Never panics, whatever the bytes.
    pub fn parse(text: &str) -> Result<ReplayFile, FileError> {
        if text.len() > MAX_REPLAY_BYTES {
            return Err(FileError {
                message: format!(
                    "the file is {} bytes; replays larger than {} bytes are refused",
                    text.len(),
                    MAX_REPLAY_BYTES
                ),
                position: None,
            });
        }
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .with_recursion_limit(MAX_NESTING);
        let replay: Replay = options.from_str(text).map_err(|e| FileError {
            message: e.code.to_string(),
            position: Some((e.span.start.line, e.span.start.col)),
        })?;
        Ok(ReplayFile {
            step_offsets: locate::step_offsets(text),
            text: Some(text.to_string()),
            replay,
        })
    }

    /// A replay built in memory (no source text, so errors carry no line numbers).
    pub fn from_replay(replay: Replay) -> ReplayFile {
        ReplayFile {
            replay,
            text: None,
            step_offsets: Vec::new(),
        }
    }

    /// 1-based line and column where step `index` (0-based) starts in the source, if known.
    pub fn step_position(&self, index: usize) -> Option<(usize, usize)> {
        let text = self.text.as_deref()?;
        // Only trust the scan when it found exactly the steps serde read.
        if self.step_offsets.len() != self.replay.steps.len() {
            return None;
        }
        Some(line_col(text, *self.step_offsets.get(index)?))
    }
}

/// Splits the seat a step names off its move: `"P2: done"` → `(Some("P2"), "done")`. The
/// prefix is part of the step syntax, not of any game's notation: `P`, digits, a colon.
/// Text without one is all move.
pub fn split_seat(text: &str) -> (Option<&str>, &str) {
    let trimmed = text.trim_start();
    if let Some((seat, rest)) = trimmed.split_once(':')
        && let Some(digits) = seat.strip_prefix(['P', 'p'])
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        return (Some(seat), rest.trim_start());
    }
    (None, text)
}

impl Replay {
    /// The setup the replay starts from.
    pub fn setup(&self) -> Setup {
        Setup {
            players: self.players,
            seed: self.seed,
            stack: self
                .stack
                .iter()
                .map(|(pile, cards)| (pile.clone(), cards.clone()))
                .collect(),
        }
    }

    /// Records a match: every move with its digest, and how it ended if it has.
    pub fn from_match<R: Rules>(
        m: &Match<'_, R>,
        content_hash: Option<&str>,
        agents: Option<Vec<String>>,
    ) -> Replay {
        let rules = m.rules();
        let mut steps: Vec<Step> = m
            .history()
            .iter()
            .map(|p| Step::Move(p.text.clone(), p.digest.clone()))
            .collect();
        if let Some(outcome) = m.outcome() {
            steps.push(Step::End {
                reason: Some(outcome.end),
                scores: Some(outcome.scores),
                winners: Some(outcome.winners.into_iter().map(seat_name).collect()),
            });
        }
        Replay {
            game: rules.game_id().to_string(),
            variant: rules.variant().map(str::to_string),
            content_hash: content_hash.map(str::to_string),
            players: m.setup().players,
            seed: m.setup().seed,
            stack: m.setup().stack.iter().cloned().collect(),
            agents,
            steps,
        }
    }

    /// The file text: one step per line, readable and diff-friendly.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .depth_limit(2)
            .indentor("    ")
            .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
        let mut text = ron::ser::to_string_pretty(self, config)
            .expect("replays hold only strings, integers and lists");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Result<Vec<Step>, FileError> {
        let src = format!("(game: \"g\", players: 2, seed: 1, steps: [{text}])");
        ReplayFile::parse(&src).map(|f| f.replay.steps)
    }

    #[test]
    fn every_step_form_parses() {
        let parsed = steps(
            r#"Move("a", "00ff00ff"), Play("b"), Expect("q", "1"), Illegal("c", "why"),
               End(), End(winners: ["P1", "P2"]), End(reason: "r", scores: [1, -2])"#,
        )
        .unwrap();
        assert_eq!(parsed.len(), 7);
        assert_eq!(
            parsed[5],
            Step::End {
                reason: None,
                scores: None,
                winners: Some(vec!["P1".into(), "P2".into()])
            }
        );
        assert_eq!(parsed[6].to_string(), "End(reason: \"r\", scores: [1, -2])");
        assert!(steps("Move(\"a\")").is_err());
        assert!(steps("Jump(\"a\")").is_err());
        assert!(steps("End(reason: \"r\", colour: 1)").is_err());
    }

    #[test]
    fn a_seat_prefix_is_split_off_the_move() {
        assert_eq!(split_seat("P2: done"), (Some("P2"), "done"));
        assert_eq!(split_seat(" p12:add sword"), (Some("p12"), "add sword"));
        assert_eq!(split_seat("done"), (None, "done"));
        // Only `P` and digits before the colon make a seat.
        assert_eq!(split_seat("P: done"), (None, "P: done"));
        assert_eq!(split_seat("Px2: done"), (None, "Px2: done"));
        assert_eq!(split_seat("offer P2: 3"), (None, "offer P2: 3"));
    }

    #[test]
    fn optional_fields_may_be_written_plainly_or_with_some() {
        for variant in ["\"seals\"", "Some(\"seals\")"] {
            let src = format!("(game: \"g\", variant: {variant}, players: 2, seed: 1, steps: [])");
            let file = ReplayFile::parse(&src).unwrap();
            assert_eq!(file.replay.variant.as_deref(), Some("seals"));
        }
    }

    #[test]
    fn steps_are_located_only_when_the_scan_agrees_with_the_parse() {
        let src = "(\n game: \"g\",\n players: 2,\n seed: 1,\n steps: [\n  Play(\"a\"),\n  Play(\"b\"),\n ],\n)";
        let file = ReplayFile::parse(src).unwrap();
        assert_eq!(file.step_position(0), Some((6, 3)));
        assert_eq!(file.step_position(1), Some((7, 3)));
        assert_eq!(file.step_position(2), None);
        let built = ReplayFile::from_replay(file.replay.clone());
        assert_eq!(built.step_position(0), None);
    }
}
