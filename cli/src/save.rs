//! The save file of `grail play`: written as the game goes, in time linear in the game.
//!
//! The file is the replay's text with its step list left open ([`Replay::save_text`]); each
//! move is appended as one line with one `write`, and the list is closed when the game stops.
//! A reader takes the file as it stands at any moment (`ReplayFile::parse` closes an open
//! save after its last whole line), so a process killed at any point, even by SIGKILL,
//! leaves a save that replays. Data reach the disk (`fsync`) at most a second apart and when
//! the game stops: a kill loses nothing, a power cut at most that second.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use grail_engine::replay::{Replay, SAVE_CLOSE, Step, save_body_len, step_line};

use crate::exit::{CliError, failure};
use crate::games::read_replay;

const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// A save being written.
pub struct SaveFile {
    file: File,
    /// How many of the game's steps the file holds.
    steps: usize,
    synced: Instant,
}

impl SaveFile {
    /// Opens `path` to go on saving `replay` (the game so far). A save in this format that
    /// holds the start of the game is continued where it stops; a new file is created; any
    /// other file (an older format, or a file `--force` overwrites) is replaced whole, once.
    pub fn begin(path: &Path, replay: &Replay) -> std::io::Result<SaveFile> {
        if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        remove_stale_temporary(path);
        if let Some(save) = Self::continue_existing(path, replay)? {
            return Ok(save);
        }
        // The moves only: `close` writes how the game ended.
        let moves = Replay {
            steps: replay
                .steps
                .iter()
                .take_while(|s| !is_end(s))
                .cloned()
                .collect(),
            ..replay.clone()
        };
        let text = moves.save_text();
        let file = match OpenOptions::new().append(true).create_new(true).open(path) {
            Ok(mut file) => {
                // One write: the head of a save is far smaller than a page.
                file.write_all(text.as_bytes())?;
                file
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                crate::games::write_atomic(path, &text)?;
                OpenOptions::new().append(true).open(path)?
            }
            Err(e) => return Err(e),
        };
        file.sync_data()?;
        Ok(SaveFile {
            file,
            steps: moves.steps.len(),
            synced: Instant::now(),
        })
    }

    /// A save of this format at `path` whose head is `replay`'s and whose moves begin the
    /// game: cut after its last whole move and opened for appending the rest.
    fn continue_existing(path: &Path, replay: &Replay) -> std::io::Result<Option<SaveFile>> {
        // A regular file the replay reader accepts (which bounds its size), nothing else.
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return Ok(None);
        }
        let Ok(file) = read_replay(path) else {
            return Ok(None);
        };
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(None);
        };
        // Appending goes after a step line or the list's opening, nothing else (a file
        // edited by hand may end otherwise; it is then rewritten).
        let Some(body) = save_body_len(&text)
            .filter(|&n| text[..n].ends_with(",\n") || text[..n].ends_with("steps: [\n"))
        else {
            return Ok(None);
        };
        let saved = &file.replay;
        let head = |r: &Replay| Replay {
            steps: Vec::new(),
            ..r.clone()
        };
        let n = saved.steps.iter().take_while(|s| !is_end(s)).count();
        if head(saved) != head(replay)
            || saved.steps.len() != n
            || replay.steps.get(..n) != Some(&saved.steps[..])
        {
            return Ok(None);
        }
        // Cut a closing or a half-written line; what stays is a save at every moment.
        let file = OpenOptions::new().append(true).open(path)?;
        file.set_len(body as u64)?;
        Ok(Some(SaveFile {
            file,
            steps: n,
            synced: Instant::now(),
        }))
    }

    /// Appends the move just played, as one line with one write.
    pub fn append(&mut self, step: &Step) -> std::io::Result<()> {
        self.file.write_all(step_line(step).as_bytes())?;
        self.steps += 1;
        if self.synced.elapsed() >= SYNC_INTERVAL {
            self.file.sync_data()?;
            self.synced = Instant::now();
        }
        Ok(())
    }

    /// Closes the step list: the moves of `replay` not yet written, its `End` if the game
    /// is over, and the closing brackets; then flushes to disk.
    pub fn close(mut self, replay: &Replay) -> std::io::Result<()> {
        let mut tail = String::new();
        for step in replay.steps.iter().skip(self.steps) {
            tail += &step_line(step);
        }
        tail += SAVE_CLOSE;
        self.file.write_all(tail.as_bytes())?;
        self.file.sync_all()
    }
}

fn is_end(step: &Step) -> bool {
    matches!(step, Step::End { .. })
}

/// A `<save>.tmp` left by a process killed while replacing the save.
fn remove_stale_temporary(path: &Path) {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let _ = std::fs::remove_file(tmp);
}

/// Whether `path` may receive this game's save: it does not exist, or it is a save of the
/// same game (game, variant, players, seed, stacked cards) whose moves this game still holds.
/// Anything else is refused unless `force`, so no file is overwritten by mistake.
pub fn check_target(
    path: &Path,
    game: &Replay,
    resume_hint: bool,
    force: bool,
) -> Result<(), CliError> {
    if force || !path.exists() {
        return Ok(());
    }
    let shown = path.display();
    let refuse = |what: String| {
        let hint = if resume_hint {
            format!("; continue it with `grail play --resume {shown}`,")
        } else {
            ";".to_string()
        };
        Err(failure(
            "save-exists",
            format!(
                "{shown} {what}{hint} choose another file with --save, or overwrite it with \
                 --force"
            ),
        ))
    };
    let Ok(file) = read_replay(path) else {
        return refuse("exists and is not a saved game".into());
    };
    let saved = &file.replay;
    let same_game = saved.game == game.game
        && saved.variant == game.variant
        && saved.players == game.players
        && saved.seed == game.seed
        && saved.stack == game.stack;
    if !same_game {
        return refuse(format!(
            "holds another game ({} for {} players, seed {})",
            describe(saved),
            saved.players,
            saved.seed
        ));
    }
    let moves: Vec<&Step> = saved.steps.iter().filter(|s| !is_end(s)).collect();
    let kept =
        moves.len() <= game.steps.len() && moves.iter().zip(&game.steps).all(|(a, b)| *a == b);
    if !kept {
        return refuse(format!(
            "holds {} moves of this game that would be lost",
            moves.len()
        ));
    }
    Ok(())
}

fn describe(r: &Replay) -> String {
    match &r.variant {
        Some(v) => format!("{}/{v}", r.game),
        None => r.game.clone(),
    }
}

/// `dir/stem.ron`, or `dir/stem-2.ron`, `-3`, … : the first name not taken.
pub fn free_name(dir: &Path, stem: &str) -> PathBuf {
    let first = dir.join(format!("{stem}.ron"));
    if !first.exists() {
        return first;
    }
    (2u64..)
        .map(|n| dir.join(format!("{stem}-{n}.ron")))
        .find(|p| !p.exists())
        .expect("some suffix is free")
}

/// The last part of a game's name, safe in a file name: a pack opened by path is named by
/// its whole path.
pub fn file_name_part(game: &str) -> String {
    let name = game
        .trim_end_matches(['/', '\\'])
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(game);
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}
