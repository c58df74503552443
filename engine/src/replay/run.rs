//! Re-simulating a replay and checking it step by step. A difference is data (a
//! [`Failure`] naming the first step that differs), never a panic.

use std::fmt;

use super::{ReplayFile, Step, split_seat};
use crate::game::{Outcome, Rules, Seat};
use crate::play::{Match, PlayError, Played};
use crate::seats::{parse_seat, seat_name};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Strict check of a recorded game: besides every digest and expectation (always
    /// checked), the game must be over after the last step and the file must say how it
    /// ended (an `End` step), which must match.
    pub verify: bool,
    /// Run even if the file was recorded with different content.
    pub ignore_content_hash: bool,
    /// The user chose the pack (`grail replay --pack DIR`) rather than the file's game name,
    /// so that name is not checked; the content hash still is.
    pub pack_chosen: bool,
}

/// What a run did, up to the end or the first failure.
#[derive(Clone, Debug)]
pub struct ReplayRun {
    pub log: Vec<LogEntry>,
    /// Set once the game is over.
    pub outcome: Option<Outcome>,
    pub failure: Option<Failure>,
}

impl ReplayRun {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEntry {
    /// What happened during setup, before the first step (only when something did).
    SetUp { events: Vec<String> },
    /// A `Move` or `Play` step, as played.
    Moved { step: usize, played: Played },
    /// An `Expect`, `Illegal` or `End` step that held, in words.
    Checked { step: usize, what: String },
}

/// The first thing that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// 1-based step number; `None` for a problem before the first step or after the last.
    pub step: Option<usize>,
    /// The step as written.
    pub step_text: Option<String>,
    /// 1-based line and column of the step in the file, when known.
    pub position: Option<(usize, usize)>,
    pub problem: Problem,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The file is for another game or variant than the one loaded.
    WrongGame { file: String, loaded: String },
    /// Recorded with other content; refused unless told to ignore it.
    ContentHash { file: String, loaded: String },
    /// The rules refused the setup (player count, stack request).
    Setup(String),
    /// A `Move`/`Play` step that could not be played.
    Move {
        error: PlayError,
        legal: Vec<String>,
    },
    /// The state after a recorded move is not the recorded one.
    Digest { expected: String, actual: String },
    /// `Expect` got another answer.
    Expect {
        query: String,
        expected: String,
        actual: String,
    },
    /// `Expect` asked something the rules cannot answer.
    Inspect { query: String, message: String },
    /// `Illegal` named a move that is legal.
    NotIllegal { text: String },
    /// `Illegal`'s move was refused for another reason.
    Reason { expected: String, actual: String },
    /// The step names the seat it expects to move (`Play("P2: done")`), and another seat
    /// is to move (`None`: nobody, the game is over).
    Seat {
        expected: Seat,
        actual: Option<Seat>,
    },
    /// The step's seat prefix names no seat of this table.
    NoSuchSeat { seat: String, players: usize },
    /// `End` found the game still going.
    NotOver,
    /// `--verify`: the steps ran out before the game ended.
    Unfinished,
    /// `--verify`: the game was stopped at the move cap (`sim::MAX_MOVES`), as `sim` and
    /// `play` stop a game that goes on too long, before its end.
    Capped { moves: usize },
    /// The game stopped before its end: nobody could move, or a move failed (a move that
    /// did not end, a number out of range); the rules say which rule.
    Stopped(crate::game::Stuck),
    /// `End` found the game over, differently.
    End {
        field: &'static str,
        expected: String,
        actual: String,
    },
    /// `--verify`: the file does not say how the game ended.
    NoEnd,
    /// Re-recording: a digest to rewrite cannot be found in the file's text.
    Unlocated,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::WrongGame { file, loaded } => {
                write!(f, "the replay is for {file}, but {loaded} is loaded")
            }
            Problem::ContentHash { file, loaded } => write!(
                f,
                "the replay was recorded with content {file}, but the loaded content is \
                 {loaded}; the game may play differently (use --ignore-content-hash to run it \
                 anyway)"
            ),
            Problem::Setup(m) => write!(f, "cannot set the game up: {m}"),
            Problem::Move { error, legal } => {
                write!(f, "{error}")?;
                if !legal.is_empty() {
                    write!(f, " (legal now: {})", legal.join(", "))?;
                }
                Ok(())
            }
            Problem::Digest { expected, actual } => write!(
                f,
                "the state after this move differs from the recorded one (digest {actual}, \
                 recorded {expected})"
            ),
            Problem::Expect {
                query,
                expected,
                actual,
            } => write!(f, "'{query}' is {actual:?}, expected {expected:?}"),
            Problem::Inspect { query, message } => write!(f, "cannot answer '{query}': {message}"),
            Problem::NotIllegal { text } => {
                write!(f, "'{text}' was expected to be refused, but it is legal")
            }
            Problem::Reason { expected, actual } => write!(
                f,
                "the move was refused, but the reason {actual:?} does not contain {expected:?}"
            ),
            Problem::Seat { expected, actual } => {
                write!(f, "expected {} to move, but ", seat_name(*expected))?;
                match actual {
                    Some(seat) => write!(f, "{} is to move", seat_name(*seat)),
                    None => f.write_str("the game is over"),
                }
            }
            Problem::NoSuchSeat { seat, players } => write!(
                f,
                "'{seat}' is not a seat of this game (its seats are P1 to P{players})"
            ),
            Problem::NotOver => f.write_str("the game is not over"),
            Problem::Unfinished => f.write_str("the replay stops before the game is over"),
            Problem::Capped { moves } => write!(
                f,
                "the game was stopped after {moves} moves, the most a game may have (as `sim` \
                 and `play` stop it), before its end: every move replays, but there is no end \
                 to verify"
            ),
            Problem::Stopped(stuck) => {
                write!(f, "the game stopped [{}]: {}", stuck.code, stuck.why)
            }
            Problem::End {
                field,
                expected,
                actual,
            } => write!(
                f,
                "the game ended with {field} {actual}, expected {expected}"
            ),
            Problem::Unlocated => f.write_str(
                "cannot find the recorded digest in the file's text to rewrite it (a save still \
                 being written, or a step not written as `Move(\"move\", \"digest\")`)",
            ),
            Problem::NoEnd => f.write_str(
                "the replay does not record how the game ended (no End step), so it cannot be \
                 verified",
            ),
        }
    }
}

impl fmt::Display for Failure {
    /// `step 7 (line 12, column 9) Move("draw", "3fa2c1d0"): <problem>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(step) = self.step {
            write!(f, "step {step}")?;
            if let Some((line, col)) = self.position {
                write!(f, " (line {line}, column {col})")?;
            }
            if let Some(text) = &self.step_text {
                write!(f, " {text}")?;
            }
            f.write_str(": ")?;
        }
        write!(f, "{}", self.problem)
    }
}

/// Runs the file against `rules` (loaded with `content_hash`, when known).
pub fn run<R: Rules>(
    rules: &R,
    content_hash: Option<&str>,
    file: &ReplayFile,
    options: ReplayOptions,
) -> ReplayRun {
    run_to_match(rules, content_hash, file, options, None).1
}

/// Plays a saved game back to where it stopped, checking it as [`run`] does, and hands
/// over the match to continue it.
pub fn resume<'r, R: Rules>(
    rules: &'r R,
    content_hash: Option<&str>,
    file: &ReplayFile,
    ignore_content_hash: bool,
) -> Result<Match<'r, R>, Box<Failure>> {
    let options = ReplayOptions {
        verify: false,
        ignore_content_hash,
        pack_chosen: false,
    };
    match run_to_match(rules, content_hash, file, options, None) {
        (Some(m), run) if run.failure.is_none() => Ok(m),
        (_, run) => Err(Box::new(run.failure.expect("no match only on failure"))),
    }
}

/// With `stale`, a recorded digest that differs does not fail its step: the step's index
/// and the digest the game has there are collected instead (see [`super::rerecord`]).
pub(super) fn run_to_match<'r, R: Rules>(
    rules: &'r R,
    content_hash: Option<&str>,
    file: &ReplayFile,
    options: ReplayOptions,
    mut stale: Option<&mut Vec<(usize, String)>>,
) -> (Option<Match<'r, R>>, ReplayRun) {
    let mut run = ReplayRun {
        log: Vec::new(),
        outcome: None,
        failure: None,
    };
    let replay = &file.replay;
    let whole = |problem| Failure {
        step: None,
        step_text: None,
        position: None,
        problem,
    };

    let name = |game: &str, variant: Option<&str>| match variant {
        Some(v) => format!("{game}/{v}"),
        None => game.to_string(),
    };
    let named_as_loaded =
        replay.game == rules.game_id() && replay.variant.as_deref() == rules.variant();
    if !named_as_loaded && !options.pack_chosen {
        run.failure = Some(whole(Problem::WrongGame {
            file: name(&replay.game, replay.variant.as_deref()),
            loaded: name(rules.game_id(), rules.variant()),
        }));
        return (None, run);
    }
    if let (Some(file_hash), Some(loaded)) = (&replay.content_hash, content_hash)
        && file_hash != loaded
        && !options.ignore_content_hash
    {
        run.failure = Some(whole(Problem::ContentHash {
            file: file_hash.clone(),
            loaded: loaded.to_string(),
        }));
        return (None, run);
    }
    if !replay.position.is_empty() && !rules.takes_positions() {
        run.failure = Some(Failure {
            position: file.position_entry(None),
            ..whole(Problem::Setup(format!(
                "the rules of {} do not take a starting position",
                rules.game_id()
            )))
        });
        return (None, run);
    }
    let mut m = match Match::new(rules, replay.setup()) {
        Ok(m) => m,
        Err(e) => {
            // A refused position names the entry it refuses in backticks first (others it
            // mentions come later): point at it.
            let position = (!replay.position.is_empty()).then(|| {
                let entry = replay
                    .position
                    .keys()
                    .filter_map(|k| e.find(&format!("`{k}`")).map(|at| (at, k)))
                    .min()
                    .map(|(_, k)| k);
                file.position_entry(entry.map(String::as_str))
            });
            run.failure = Some(Failure {
                position: position.flatten(),
                ..whole(Problem::Setup(e))
            });
            return (None, run);
        }
    };

    if !m.setup_events().is_empty() {
        run.log.push(LogEntry::SetUp {
            events: m.setup_events().to_vec(),
        });
    }
    let mut saw_end = false;
    for (index, step) in replay.steps.iter().enumerate() {
        let number = index + 1;
        match check_step(&mut m, step, number, &mut run.log) {
            Ok(is_end) => saw_end |= is_end,
            Err(Problem::Digest { actual, .. }) if stale.is_some() => {
                if let Some(stale) = stale.as_deref_mut() {
                    stale.push((index, actual));
                }
            }
            Err(problem) => {
                // A move that cannot be played because the game stopped: say why it did.
                let problem = match m.stuck() {
                    Some(stuck) if !matches!(problem, Problem::Digest { .. }) => {
                        Problem::Stopped(stuck)
                    }
                    _ => problem,
                };
                run.failure = Some(Failure {
                    step: Some(number),
                    step_text: Some(step.to_string()),
                    position: file.step_position(index),
                    problem,
                });
                run.outcome = m.outcome();
                return (Some(m), run);
            }
        }
    }
    run.outcome = m.outcome();
    if let Some(stuck) = m.stuck() {
        run.failure = Some(whole(Problem::Stopped(stuck)));
    } else if options.verify {
        let moves = (replay.steps.iter())
            .filter(|s| matches!(s, Step::Move(..) | Step::Play(..)))
            .count();
        if run.outcome.is_none() && moves >= crate::sim::MAX_MOVES as usize {
            run.failure = Some(whole(Problem::Capped { moves }));
        } else if run.outcome.is_none() {
            run.failure = Some(whole(Problem::Unfinished));
        } else if !saw_end {
            run.failure = Some(whole(Problem::NoEnd));
        }
    }
    (Some(m), run)
}

/// Checks one step; `Ok(true)` for an `End` step that held.
fn check_step<R: Rules>(
    m: &mut Match<'_, R>,
    step: &Step,
    number: usize,
    log: &mut Vec<LogEntry>,
) -> Result<bool, Problem> {
    match step {
        Step::Move(text, expected) => {
            let played = play(m, text)?;
            if &played.digest != expected {
                return Err(Problem::Digest {
                    expected: expected.clone(),
                    actual: played.digest,
                });
            }
            log.push(LogEntry::Moved {
                step: number,
                played,
            });
        }
        Step::Play(text) => {
            let played = play(m, text)?;
            log.push(LogEntry::Moved {
                step: number,
                played,
            });
        }
        Step::Expect(query, expected) => {
            let actual = m.inspect(query).map_err(|message| Problem::Inspect {
                query: query.clone(),
                message,
            })?;
            if actual.trim() != expected.trim() {
                return Err(Problem::Expect {
                    query: query.clone(),
                    expected: expected.clone(),
                    actual,
                });
            }
            log.push(LogEntry::Checked {
                step: number,
                what: format!("{query} = {actual}"),
            });
        }
        Step::Illegal(text, expected) => {
            let text = expect_seat(m, text)?;
            let reason = match m.parse(text) {
                Err(e) => e.reason().to_string(),
                Ok(action) => {
                    let legal = m.legal_actions().contains(&action);
                    if legal {
                        return Err(Problem::NotIllegal {
                            text: text.to_string(),
                        });
                    }
                    m.rules().why_illegal(m.state(), &action)
                }
            };
            if !reason.contains(expected.as_str()) {
                return Err(Problem::Reason {
                    expected: expected.clone(),
                    actual: reason,
                });
            }
            log.push(LogEntry::Checked {
                step: number,
                what: format!("'{text}' refused: {reason}"),
            });
        }
        Step::End {
            reason,
            scores,
            winners,
        } => {
            let outcome = m.outcome().ok_or(Problem::NotOver)?;
            if let Some(reason) = reason
                && *reason != outcome.end
            {
                return Err(Problem::End {
                    field: "reason",
                    expected: format!("{reason:?}"),
                    actual: format!("{:?}", outcome.end),
                });
            }
            if let Some(scores) = scores
                && *scores != outcome.scores
            {
                return Err(Problem::End {
                    field: "scores",
                    expected: format!("{scores:?}"),
                    actual: format!("{:?}", outcome.scores),
                });
            }
            let actual_winners: Vec<String> =
                outcome.winners.iter().map(|&s| seat_name(s)).collect();
            if let Some(winners) = winners
                && *winners != actual_winners
            {
                return Err(Problem::End {
                    field: "winners",
                    expected: format!("{winners:?}"),
                    actual: format!("{actual_winners:?}"),
                });
            }
            log.push(LogEntry::Checked {
                step: number,
                what: format!(
                    "game over ({}): scores {:?}, winners {}",
                    outcome.end,
                    outcome.scores,
                    actual_winners.join(" ")
                ),
            });
            return Ok(true);
        }
    }
    Ok(false)
}

/// Checks the seat a step names, if it names one, and returns the move text without it.
fn expect_seat<'t, R: Rules>(m: &Match<'_, R>, text: &'t str) -> Result<&'t str, Problem> {
    let (seat, text) = split_seat(text);
    if let Some(seat) = seat {
        let players = m.setup().players;
        let expected = parse_seat(seat, players).ok_or_else(|| Problem::NoSuchSeat {
            seat: seat.to_string(),
            players,
        })?;
        let actual = m.to_move();
        if actual != Some(expected) {
            return Err(Problem::Seat { expected, actual });
        }
    }
    Ok(text)
}

fn play<R: Rules>(m: &mut Match<'_, R>, text: &str) -> Result<Played, Problem> {
    let text = expect_seat(m, text)?;
    match m.play_text(text) {
        Ok(played) => Ok(played.clone()),
        Err(error) => {
            let legal = match error {
                PlayError::GameOver => Vec::new(),
                _ => m.legal_texts(),
            };
            Err(Problem::Move { error, legal })
        }
    }
}
