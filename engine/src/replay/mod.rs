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
//!     game: "my-game",
//!     variant: "short",
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
mod rerecord;
mod run;

pub use rerecord::{Rerecorded, rerecord};
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
    /// The position the game starts from instead of its setup (rules that take one):
    /// entry → what it holds, named as the game's script queries name them
    /// (`"hand P1": ["red-5"]`, `"knight P1 at": ["4", "8"]`, `"turn": ["P2"]`).
    #[serde(
        default,
        deserialize_with = "unique_entries",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub position: BTreeMap<String, Vec<String>>,
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

/// The second line of a save written as the game goes (see [`Replay::save_text`]).
pub const SAVE_MARKER: &str = "// grail save: one move per line, appended as it is played";
/// What closes a save's step list, and the file, when the game stops.
pub const SAVE_CLOSE: &str = "    ],\n)\n";

/// A parsed replay with the text it came from, so errors can point into it.
#[derive(Clone, Debug)]
pub struct ReplayFile {
    pub replay: Replay,
    text: Option<String>,
    step_offsets: Vec<usize>,
    /// A save whose list was never closed (the process was killed while playing).
    open: bool,
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
        let parsed = match parse_ron(text) {
            Ok(replay) => (replay, text.to_string(), false),
            // A save left open by a killed process reads up to its last whole move.
            Err(e) => match save_body_len(text).map(|n| format!("{}{SAVE_CLOSE}", &text[..n])) {
                Some(closed) if closed != text => match parse_ron(&closed) {
                    Ok(replay) => (replay, closed, true),
                    Err(_) => return Err(e),
                },
                _ => return Err(e),
            },
        };
        let (replay, text, open) = parsed;
        Ok(ReplayFile {
            step_offsets: locate::step_offsets(&text),
            text: Some(text),
            replay,
            open,
        })
    }

    /// Whether this is a save whose step list was never closed: the process playing it
    /// was killed. It was read up to its last complete move.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// A replay built in memory (no source text, so errors carry no line numbers).
    pub fn from_replay(replay: Replay) -> ReplayFile {
        ReplayFile {
            replay,
            text: None,
            step_offsets: Vec::new(),
            open: false,
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

    /// Line and column of an entry of the file's `position`, else of `position` itself.
    pub fn position_entry(&self, entry: Option<&str>) -> Option<(usize, usize)> {
        let text = self.text.as_deref()?;
        let at = locate::field_offset(text, "position")?;
        let found = entry.and_then(|e| {
            let quoted = format!("{e:?}");
            text[at..].find(&quoted).map(|i| at + i)
        });
        Some(line_col(text, found.unwrap_or(at)))
    }
}

/// A position's entries; one given twice is refused (a map would keep the last silently).
fn unique_entries<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, Vec<String>>, D::Error> {
    struct Entries;
    impl<'de> serde::de::Visitor<'de> for Entries {
        type Value = BTreeMap<String, Vec<String>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a map from entries to lists of names")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((entry, held)) = map.next_entry::<String, Vec<String>>()? {
                if out.contains_key(&entry) {
                    return Err(serde::de::Error::custom(format!(
                        "position entry `{entry}` is given twice"
                    )));
                }
                out.insert(entry, held);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Entries)
}

fn parse_ron(text: &str) -> Result<Replay, FileError> {
    let options = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_recursion_limit(MAX_NESTING);
    options.from_str(text).map_err(|e| FileError {
        message: e.code.to_string(),
        position: Some((e.span.start.line, e.span.start.col)),
    })
}

/// For a save (its second line is [`SAVE_MARKER`]), how many bytes hold its head and its
/// complete step lines: what a writer keeps to append more moves, and what a reader closes
/// with [`SAVE_CLOSE`]. A line cut short by a kill and a closing already written are left
/// out. `None` for any other text.
pub fn save_body_len(text: &str) -> Option<usize> {
    if text.lines().nth(1) != Some(SAVE_MARKER) {
        return None;
    }
    let whole_lines = &text[..text.rfind('\n')? + 1];
    let body = whole_lines.strip_suffix(")\n").unwrap_or(whole_lines);
    let body = body.strip_suffix("    ],\n").unwrap_or(body);
    Some(body.len())
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
            position: self
                .position
                .iter()
                .map(|(entry, held)| (entry.clone(), held.clone()))
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
            position: m.setup().position.iter().cloned().collect(),
            agents,
            steps,
        }
    }

    /// The file text: one step per line, readable and diff-friendly.
    pub fn to_ron(&self) -> String {
        let mut text = ron::ser::to_string_pretty(self, pretty(2))
            .expect("replays hold only strings, integers and lists");
        text.push('\n');
        text
    }

    /// The text of a save that is still being written: [`Replay::to_ron`] with the
    /// [`SAVE_MARKER`] on its second line and without the [`SAVE_CLOSE`] of its step list,
    /// so each move is appended as one [`step_line`] and the file is closed when the game
    /// stops. A reader takes it as it stands at any moment, closed or not.
    pub fn save_text(&self) -> String {
        let text = self.to_ron();
        let (attribute, rest) = text.split_once('\n').expect("to_ron writes several lines");
        let rest = rest
            .strip_suffix("    steps: [],\n)\n")
            .map(|head| format!("{head}    steps: [\n"))
            .or_else(|| rest.strip_suffix(SAVE_CLOSE).map(str::to_string))
            .expect("to_ron ends with the step list");
        format!("{attribute}\n{SAVE_MARKER}\n{rest}")
    }
}

/// One step as a line of a file, as [`Replay::to_ron`] writes it.
pub fn step_line(step: &Step) -> String {
    let text = ron::ser::to_string_pretty(step, pretty(0))
        .expect("steps hold only strings, integers and lists");
    let text = text
        .strip_prefix("#![enable(implicit_some)]\n")
        .unwrap_or(&text);
    format!("        {text},\n")
}

fn pretty(depth_limit: usize) -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .depth_limit(depth_limit)
        .indentor("    ")
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME)
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

    fn replay(steps: Vec<Step>) -> Replay {
        Replay {
            game: "g".into(),
            variant: Some("v".into()),
            content_hash: Some("c0ffee".into()),
            players: 2,
            seed: 7,
            stack: BTreeMap::new(),
            position: BTreeMap::new(),
            agents: Some(vec!["human".into(), "greedy".into()]),
            steps,
        }
    }

    fn sample_steps() -> Vec<Step> {
        vec![
            Step::Move("bank \"v5\"\\ é".into(), "00ff00ff".into()),
            Step::Move("draw".into(), "12345678".into()),
            Step::End {
                reason: Some("time".into()),
                scores: Some(vec![3, -1]),
                winners: Some(vec!["P1".into()]),
            },
        ]
    }

    #[test]
    fn a_save_is_the_replay_text_written_a_line_at_a_time() {
        let steps = sample_steps();
        let mut text = replay(Vec::new()).save_text();
        assert_eq!(text.lines().nth(1), Some(SAVE_MARKER));
        for step in &steps {
            text += &step_line(step);
        }
        text += SAVE_CLOSE;
        let full = replay(steps.clone());
        let marked = full
            .to_ron()
            .replacen('\n', &format!("\n{SAVE_MARKER}\n"), 1);
        assert_eq!(text, marked);
        assert_eq!(full.save_text() + SAVE_CLOSE, marked);
        let file = ReplayFile::parse(&text).unwrap();
        assert_eq!(file.replay, full);
        assert!(!file.is_open());
    }

    #[test]
    fn a_save_cut_anywhere_reads_up_to_its_last_whole_step() {
        let steps = sample_steps();
        let head = replay(Vec::new()).save_text();
        let mut text = head.clone();
        let mut ends = vec![text.len()];
        for step in &steps {
            text += &step_line(step);
            ends.push(text.len());
        }
        text += SAVE_CLOSE;
        for cut in (head.len()..text.len()).filter(|&c| text.is_char_boundary(c)) {
            let file = ReplayFile::parse(&text[..cut])
                .unwrap_or_else(|e| panic!("cut at {cut}: {e}\n{}", &text[..cut]));
            let whole = ends.iter().filter(|&&end| end <= cut).count() - 1;
            assert_eq!(file.replay.steps, steps[..whole], "cut at {cut}");
            // Once its closing bracket is written, the file is whole RON.
            assert_eq!(file.is_open(), cut < text.len() - 1, "cut at {cut}");
            assert_eq!(file.step_position(0).is_some(), whole > 0);
        }
        // Without the marker, a cut file is an error as before.
        let plain = replay(steps).to_ron();
        assert!(ReplayFile::parse(&plain[..plain.len() - 4]).is_err());
        // So is a save broken elsewhere than at its end.
        let broken = text.replace("seed: 7", "seed: x");
        assert!(ReplayFile::parse(&broken[..broken.len() - 4]).is_err());
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
