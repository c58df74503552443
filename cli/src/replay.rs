//! `grail replay`: re-run a replay or script, print its log, check it.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use grail_engine::facade::DynGame;
use grail_engine::game::Outcome;
use grail_engine::play::Played;
use grail_engine::replay::{Failure, LogEntry, ReplayFile, ReplayOptions};
use grail_engine::seats::seat_name;

use crate::exit::{CliResult, failure};
use crate::games::{open_recorded, open_with_lineage, read_replay, write_atomic};
use crate::render::escape;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The replay or script (RON).
    pub file: PathBuf,
    /// Strict check of a recorded game: every digest matches and the game ends as
    /// recorded. Prints a summary instead of the log.
    #[arg(long)]
    pub verify: bool,
    /// Run even if the file was recorded with other content.
    #[arg(long)]
    pub ignore_content_hash: bool,
    /// The pack folder to run it with, for games of a pack that is not bundled (a mod, a
    /// test pack). Default: the bundled game and variant the file names.
    #[arg(long, value_name = "DIR")]
    pub pack: Option<PathBuf>,
    /// Rewrite the digests in the file(s) to the ones the game has now, after a change of
    /// the state's layout: only the digest values change (with --ignore-content-hash, the
    /// content hash too). Refused if a file fails for any other reason.
    #[arg(long)]
    pub rerecord: bool,
    /// More files to re-record.
    #[arg(requires = "rerecord", value_name = "FILE")]
    pub more: Vec<PathBuf>,
}

pub fn run(args: ReplayArgs, content: &crate::content::Content) -> CliResult {
    let mut stdout = std::io::stdout().lock();
    if args.rerecord {
        for path in std::iter::once(&args.file).chain(&args.more) {
            let file = read_replay(path)?;
            let game = open_game(path, &file, &args, content)?;
            rerecord(game.as_ref(), path, &file, &args, &mut stdout)?;
        }
        return Ok(());
    }
    let file = read_replay(&args.file)?;
    let game = open_game(&args.file, &file, &args, content)?;
    replay(game.as_ref(), &file, &args, &mut stdout)
}

/// The game a replay file at `path` is for: the pack given with `--pack`, else the one it
/// names.
fn open_game(
    path: &Path,
    file: &ReplayFile,
    args: &ReplayArgs,
    content: &crate::content::Content,
) -> Result<Box<dyn DynGame>, crate::exit::CliError> {
    match &args.pack {
        Some(dir) => {
            // `./` keeps a bare folder name from being read as a bundled game id.
            let (game, lineage) =
                open_with_lineage(content, &Path::new(".").join(dir).to_string_lossy(), None)?;
            check_pack_game(path, &file.replay.game, dir, &lineage)?;
            Ok(game)
        }
        None => {
            check_recorded_game(path, &file.replay.game, file.replay.variant.as_deref())?;
            open_recorded(content, &file.replay.game, file.replay.variant.as_deref())
        }
    }
}

/// `grail replay --rerecord`: rewrites the file's stale digests in place, or refuses (the
/// file unchanged) when it fails for another reason.
pub fn rerecord(
    game: &dyn DynGame,
    path: &Path,
    file: &ReplayFile,
    args: &ReplayArgs,
    out: &mut dyn Write,
) -> CliResult {
    let options = options(args);
    let done = game
        .rerecord(file, options)
        .map_err(|f| failure("replay-failed", locate(path, &f)))?;
    if done.digests == 0 && !done.content_hash {
        writeln!(out, "{}: every digest holds; unchanged", path.display())?;
        return Ok(());
    }
    write_atomic(path, &done.text).map_err(|e| {
        failure(
            "cannot-write",
            format!("cannot write {}: {e}", path.display()),
        )
    })?;
    let hash = if done.content_hash {
        " and the content hash"
    } else {
        ""
    };
    writeln!(
        out,
        "{}: re-recorded {} digest{}{hash}",
        path.display(),
        done.digests,
        if done.digests == 1 { "" } else { "s" }
    )?;
    Ok(())
}

/// A replay or save names its game by a bundled id, or, for a pack that is not bundled, by
/// the absolute path of the pack folder it was recorded with (so it runs from any folder).
/// Anything else (`../../etc/passwd`, a relative path, a file) is refused before it is read:
/// only a folder holding a `pack.toml` is ever opened as a pack. `--pack` overrides.
pub fn check_recorded_game(path: &Path, game: &str, variant: Option<&str>) -> CliResult {
    let plain = |name: &str| {
        !name.is_empty()
            && !name.starts_with('.')
            && !name.contains(['/', '\\'])
            && !name.chars().any(char::is_control)
    };
    let pack_folder = |name: &str| {
        let folder = Path::new(name);
        folder.is_absolute()
            && !name.chars().any(char::is_control)
            && std::fs::metadata(folder.join("pack.toml")).is_ok_and(|m| m.is_file())
    };
    if !plain(game) && !pack_folder(game) {
        return Err(failure(
            "bad-replay",
            format!(
                "{}: the replay's game `{}` is neither a bundled game nor the absolute path of a \
             pack folder; to run it with a pack folder, give the folder with --pack DIR",
                path.display(),
                escape(game)
            ),
        ));
    }
    match variant {
        Some(v) if !plain(v) => Err(failure(
            "bad-replay",
            format!(
                "{}: the replay's variant `{}` is not the id of a variant",
                path.display(),
                escape(v)
            ),
        )),
        _ => Ok(()),
    }
}

/// With `--pack`, the replay's game must be that pack or one it extends: its id (or the last
/// part of the path it was recorded with) is in the pack's lineage or is the folder's name.
fn check_pack_game(path: &Path, game: &str, dir: &Path, lineage: &[String]) -> CliResult {
    let last = |s: &str| -> String {
        s.trim_end_matches(['/', '\\'])
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let name = last(game);
    let folder = last(&dir.to_string_lossy());
    if lineage.contains(&name) || (!name.is_empty() && name == folder) {
        return Ok(());
    }
    Err(failure(
        "wrong-pack",
        format!(
            "{}: the replay is a game of `{}`, but the pack {} is `{}`",
            path.display(),
            escape(game),
            dir.display(),
            lineage
                .iter()
                .rev()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join("` extending `")
        ),
    ))
}

/// What the flags ask of a replay run.
fn options(args: &ReplayArgs) -> ReplayOptions {
    ReplayOptions {
        verify: args.verify,
        ignore_content_hash: args.ignore_content_hash,
        pack_chosen: args.pack.is_some(),
    }
}

pub fn replay(
    game: &dyn DynGame,
    file: &ReplayFile,
    args: &ReplayArgs,
    out: &mut dyn Write,
) -> CliResult {
    let options = options(args);
    let run = game.replay(file, options);
    if !args.verify {
        for entry in &run.log {
            match entry {
                LogEntry::Moved { step, played } => write_move(out, *step, played)?,
                LogEntry::Checked { step, what } => writeln!(out, "{step:>4}. ok: {what}")?,
                LogEntry::SetUp { events } => write_setup(out, events)?,
            }
        }
        if let Some(outcome) = &run.outcome {
            write_outcome(out, outcome, None)?;
        }
    }
    out.flush()?;
    match run.failure {
        None => {
            if args.verify {
                let moves = run
                    .log
                    .iter()
                    .filter(|e| matches!(e, LogEntry::Moved { .. }))
                    .count();
                writeln!(
                    out,
                    "verified {}: {moves} moves, every digest matches, the game ends as recorded",
                    args.file.display()
                )?;
            }
            Ok(())
        }
        Some(f) => Err(failure("replay-failed", locate(&args.file, &f))),
    }
}

/// The log of a run as `grail replay` prints it: every move with its events and digest,
/// every expectation that held, and the final table.
pub fn log_text(run: &grail_engine::replay::ReplayRun) -> String {
    let mut out = Vec::new();
    for entry in &run.log {
        let _ = match entry {
            LogEntry::Moved { step, played } => write_move(&mut out, *step, played),
            LogEntry::Checked { step, what } => writeln!(out, "{step:>4}. ok: {what}"),
            LogEntry::SetUp { events } => write_setup(&mut out, events),
        };
    }
    if let Some(outcome) = &run.outcome {
        let _ = write_outcome(&mut out, outcome, None);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `FILE:LINE:COL: step N Move(..): problem`, with as much position as is known.
pub fn locate(path: &std::path::Path, failure: &Failure) -> String {
    let mut s = path.display().to_string();
    if let Some((line, col)) = failure.position {
        s += &format!(":{line}:{col}");
    }
    s += ": ";
    if let Some(step) = failure.step {
        s += &format!("step {step}");
        if let Some(text) = &failure.step_text {
            s += &format!(" {text}");
        }
        s += ": ";
    }
    s + &failure.problem.to_string()
}

pub fn write_move(out: &mut dyn Write, step: usize, played: &Played) -> std::io::Result<()> {
    writeln!(
        out,
        "{step:>4}. {} {:<24} [{}]",
        seat_name(played.seat),
        played.text,
        played.digest
    )?;
    for event in &played.events {
        writeln!(out, "        {event}")?;
    }
    Ok(())
}

/// What happened during setup, before the first move.
pub fn write_setup(out: &mut dyn Write, events: &[String]) -> std::io::Result<()> {
    writeln!(out, "   0. setup")?;
    for event in events {
        writeln!(out, "        {event}")?;
    }
    Ok(())
}

/// The final scoring table. `agents` names who played each seat, when known.
pub fn write_outcome(
    out: &mut dyn Write,
    outcome: &Outcome,
    agents: Option<&[String]>,
) -> std::io::Result<()> {
    writeln!(
        out,
        "\nGame over ({}) after {} turns.",
        outcome.end, outcome.turns
    )?;
    writeln!(out, "  seat  player    score")?;
    for (seat, score) in outcome.scores.iter().enumerate() {
        let who = agents.and_then(|a| a.get(seat)).map_or("", String::as_str);
        let mark = if outcome.winners.contains(&seat) {
            if outcome.winners.len() > 1 {
                "  shared win"
            } else {
                "  winner"
            }
        } else {
            ""
        };
        writeln!(
            out,
            "  {:<5} {:<8} {:>6}{mark}",
            seat_name(seat),
            who,
            score
        )?;
    }
    Ok(())
}
