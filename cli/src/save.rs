//! The save file of `grail play`: written as the game goes, in time linear in the game, by
//! one session at a time.
//!
//! The file is the replay's text with its step list left open ([`Replay::save_text`]); each
//! move is appended as one line with one `write`, and the list is closed when the game stops.
//! A reader takes the file as it stands at any moment (`ReplayFile::parse` closes an open
//! save after its last whole line), so a process killed at any point, even by SIGKILL,
//! leaves a save that replays. Data reach the disk (`fsync`) at most a second apart and when
//! the game stops: a kill loses nothing, a power cut at most that second.
//!
//! One writer per save: the session holds an advisory lock on the file (`flock`, through
//! `fs4`) from before its first move to its end, so a second session on the same file
//! (`--save`, `--resume`, `--force`) is refused, with the holder's process id where the
//! system shows it. A new file appears at its path already written and locked (written
//! beside it, then linked in place, which fails if the name is taken), so two sessions never
//! share a name, and a file replaced whole is locked before it is renamed over the old one.
//! A session checks after every move that its file is still the one at the path; one that
//! cannot write its save (folder or file removed, disk full, file replaced) says so at once,
//! writes the whole save anew where it can, and never claims at the end that it saved.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use grail_engine::replay::{
    MAX_REPLAY_BYTES, Replay, ReplayFile, SAVE_CLOSE, Step, save_body_len, step_line,
};

use crate::exit::{CliError, failure};

const SYNC_INTERVAL: Duration = Duration::from_secs(1);
/// How often a save that could not be written is tried again, written whole.
const RETRY_INTERVAL: Duration = Duration::from_secs(1);
/// Room kept in a save for its closing: the `End` step (reason, scores and winners of at
/// most 64 seats take a few hundred bytes) and the closing brackets.
pub const CLOSE_RESERVE: usize = 64 << 10;
/// How often a path that changes under a session is looked at again before giving up.
const ATTEMPTS: usize = 16;

/// A file's identity on its file system: whether the path still names the file we hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId(u64, u64);

#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId(meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &std::fs::Metadata) -> Option<FileId> {
    None
}

/// The path as it is now: the file we hold, nothing, or something else.
#[derive(Debug, PartialEq, Eq)]
enum AtPath {
    Ours,
    Missing,
    Other,
}

/// `len`: the length our file has, when known; another length means another program wrote
/// to it (the lock is advisory: `cp` over the save writes into our file).
fn at_path(path: &Path, ours: Option<FileId>, len: Option<usize>) -> AtPath {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => AtPath::Missing,
        // A folder above the file that is no longer a folder: the file is gone.
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => AtPath::Missing,
        Err(_) => AtPath::Other,
        Ok(meta) => match (ours, file_id(&meta)) {
            (Some(a), Some(b)) if a != b => AtPath::Other,
            _ if len.is_some_and(|len| len as u64 != meta.len()) => AtPath::Other,
            _ => AtPath::Ours,
        },
    }
}

/// A save path this session holds: the file at `path`, locked, not yet begun.
#[derive(Debug)]
pub struct Claim {
    path: PathBuf,
    file: File,
    id: Option<FileId>,
}

impl Claim {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Takes `path` for this game's save (`game`: its head and the moves so far). A file there
/// must be a regular file; it is locked, then it must be a save of the same game (game,
/// variant, players, seed, stacked cards) whose moves this game still holds, unless `force`.
/// No file there: one is created holding `game`. Refused while another session writes it.
pub fn claim(
    path: &Path,
    game: &Replay,
    resume_hint: bool,
    force: bool,
) -> Result<Claim, CliError> {
    let shown = path.display();
    for _ in 0..ATTEMPTS {
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                match create_locked(path, &open_text(game)) {
                    Ok(claim) => return Ok(claim),
                    // Another session created it first: take it as an existing file.
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                    Err(e) => return Err(cannot_write(path, &e)),
                }
            }
            Err(e) => return Err(cannot_write(path, &e)),
            Ok(_) => {}
        }
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            return Err(not_regular(path));
        }
        let file = match OpenOptions::new().read(true).append(true).open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(cannot_write(path, &e)),
        };
        // Checked again on the open file, in case the path changed in between.
        let meta = file.metadata().map_err(|e| cannot_write(path, &e))?;
        if !meta.is_file() {
            return Err(not_regular(path));
        }
        lock(&file, path)?;
        let id = file_id(&meta);
        if at_path(path, id, None) != AtPath::Ours {
            // Replaced or removed between opening and locking: look again.
            continue;
        }
        check_target(path, &read_text(&file), game, resume_hint, force)?;
        remove_stale_temporaries(path);
        return Ok(Claim {
            path: path.to_path_buf(),
            file,
            id,
        });
    }
    Err(failure(
        "cannot-write",
        format!("cannot save to {shown}: the file keeps changing under this session"),
    ))
}

/// `dir/stem.ron`, or `dir/stem-2.ron`, `-3`, … : the first name not taken, claimed at
/// once (created whole and locked, never over a file another session creates meanwhile).
pub fn claim_free_name(dir: &Path, stem: &str, game: &Replay) -> Result<Claim, CliError> {
    create_free(dir, stem, &open_text(game))
        .map_err(|e| cannot_write(&dir.join(format!("{stem}.ron")), &e))
}

fn create_free(dir: &Path, stem: &str, text: &str) -> std::io::Result<Claim> {
    let names = std::iter::once(format!("{stem}.ron"))
        .chain((2u64..).map(|n| format!("{stem}-{n}.ron")))
        .map(|name| dir.join(name));
    for path in names.take(1 << 20) {
        if std::fs::symlink_metadata(&path).is_ok() {
            continue;
        }
        match create_locked(&path, text) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            created => return created,
        }
    }
    Err(std::io::Error::other("no free name for the save"))
}

/// The text of a save holding `game`'s moves, its list left open.
fn open_text(game: &Replay) -> String {
    Replay {
        steps: game.steps.iter().filter(|s| !is_end(s)).cloned().collect(),
        ..game.clone()
    }
    .save_text()
}

/// Creates `path` holding `text`, locked, or fails with `AlreadyExists` when the name is
/// taken: the file is written and locked under a temporary name beside it, then linked
/// in place, so no other session sees it unwritten or unlocked.
fn create_locked(path: &Path, text: &str) -> std::io::Result<Claim> {
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let (tmp, file) = write_temporary(path, text)?;
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => {}
        // A file system without hard links: created in place, unlocked for a moment.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::Unsupported
            ) =>
        {
            let mut file = OpenOptions::new()
                .read(true)
                .append(true)
                .create_new(true)
                .open(path)?;
            let _ = fs4::FileExt::try_lock(&file);
            file.write_all(text.as_bytes())?;
            file.sync_data()?;
            let id = file_id(&file.metadata()?);
            return Ok(Claim {
                path: path.to_path_buf(),
                file,
                id,
            });
        }
        // The name is taken (or the folder changed): the caller looks again.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(std::io::Error::from(std::io::ErrorKind::AlreadyExists));
        }
        Err(e) => return Err(e),
    }
    remove_stale_temporaries(path);
    let id = file_id(&file.metadata()?);
    Ok(Claim {
        path: path.to_path_buf(),
        file,
        id,
    })
}

/// `text` in a new file beside `path`, locked, synced: `(its path, the file)`.
fn write_temporary(path: &Path, text: &str) -> std::io::Result<(PathBuf, File)> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let _ = std::fs::remove_file(&tmp);
    let written = (|| {
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create_new(true)
            .open(&tmp)?;
        // Nobody else knows the name yet: this only fails where locks are not supported.
        let _ = fs4::FileExt::try_lock(&file);
        file.write_all(text.as_bytes())?;
        file.sync_data()?;
        Ok(file)
    })();
    match written {
        Ok(file) => Ok((tmp, file)),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// `path` replaced whole by `text`, in a file locked before it takes the path.
fn replace_locked(path: &Path, text: &str) -> std::io::Result<(File, Option<FileId>)> {
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let (tmp, file) = write_temporary(path, text)?;
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let id = file_id(&file.metadata()?);
    Ok((file, id))
}

/// How often a lock this process (or, released meanwhile, no process) is listed as holding is
/// asked for again, 10 ms apart, before the save is called in use.
const LOCK_RETRIES: usize = 20;

/// Locks `file` (the save at `path`) for this session, or says who holds it.
fn lock(file: &File, path: &Path) -> Result<(), CliError> {
    let mut retries = 0;
    loop {
        return match fs4::FileExt::try_lock(file) {
            Ok(()) => Ok(()),
            Err(fs4::TryLockError::WouldBlock) => {
                let holder = holder_of(file, path);
                // Listed as ours: a session of this process that ended, its file still shared
                // for a moment with a process forked meanwhile (until it executes its
                // program); or listed as no one's, released while it was looked up. Asked
                // again briefly; a lock another process is listed as holding is refused at once.
                if holder.is_none_or(|pid| pid == std::process::id()) && retries < LOCK_RETRIES {
                    retries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    continue;
                }
                Err(in_use(path, holder))
            }
            // A file system without locks (some network ones): saved as before, unguarded.
            Err(fs4::TryLockError::Error(e)) => {
                eprintln!(
                    "warning: cannot lock {} ({e}); another session could write it too",
                    path.display()
                );
                Ok(())
            }
        };
    }
}

fn in_use(path: &Path, pid: Option<u32>) -> CliError {
    let who = match pid {
        Some(pid) => format!("another grail session (process {pid})"),
        None => "another grail session".to_string(),
    };
    failure(
        "save-in-use",
        format!(
            "{} is being written by {who}; finish that game first (or end that process), or \
             choose another file with --save",
            path.display()
        ),
    )
}

/// Who holds the lock on the save: on the file opened, else on the file now at `path` (the
/// holder may have just replaced the whole file, a new one locked before the rename), asked
/// again for a moment while the holder is between the two.
fn holder_of(file: &File, path: &Path) -> Option<u32> {
    for _ in 0..10 {
        let now = || File::open(path).ok().and_then(|f| holder(&f));
        if let Some(pid) = holder(file).or_else(now) {
            return Some(pid);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    None
}

/// The process holding the lock on `file`, as the system lists its locks (Linux:
/// `/proc/locks`, by device and inode); `None` where it cannot be told.
#[cfg(target_os = "linux")]
fn holder(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    let (dev, ino) = (meta.dev(), meta.ino());
    let (major, minor) = (libc::major(dev) as u64, libc::minor(dev) as u64);
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    // `1: FLOCK  ADVISORY  WRITE 7030 fe:00:10010817 0 EOF` (`->` marks a waiter).
    let mut same_inode = Vec::new();
    for line in locks.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [_, kind, _, _, pid, place, ..] = fields[..] else {
            continue;
        };
        if kind == "->" {
            continue;
        }
        let mut parts = place.split(':');
        let (Some(maj), Some(min), Some(i)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        if i.parse::<u64>().ok() != Some(ino) {
            continue;
        }
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        let hex = |s: &str| u64::from_str_radix(s, 16).ok();
        if hex(maj) == Some(major) && hex(min) == Some(minor) {
            return Some(pid);
        }
        same_inode.push(pid);
    }
    // A file system that lists another device than the file reports (an overlay): the
    // inode alone, when only one lock is on such an inode.
    same_inode.dedup();
    match same_inode[..] {
        [pid] => Some(pid),
        _ => None,
    }
}

#[cfg(not(target_os = "linux"))]
fn holder(_: &File) -> Option<u32> {
    None
}

/// The file's text from its start, through the handle we hold (`None`: not a readable text
/// within the size limit).
fn read_text(mut file: &File) -> Option<String> {
    file.seek(std::io::SeekFrom::Start(0)).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_REPLAY_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() > MAX_REPLAY_BYTES {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// A save being written.
pub struct SaveFile {
    path: PathBuf,
    file: File,
    id: Option<FileId>,
    /// How many of the game's steps the file holds.
    steps: usize,
    /// The file's length.
    bytes: usize,
    synced: Instant,
    /// Why the file does not hold every move so far (a write failed, the file went away):
    /// the next try writes it whole.
    trouble: Option<String>,
    /// The path was taken by another program's file: the game goes to a name beside it.
    taken: bool,
    tried: Instant,
}

impl SaveFile {
    /// Goes on saving `replay` (the game so far) in the claimed file. A save in this format
    /// that holds the start of the game is continued where it stops; any other file (an
    /// older format, a file `--force` overwrites, a head that changed) is replaced whole.
    pub fn begin(claim: Claim, replay: &Replay) -> std::io::Result<SaveFile> {
        let Claim { path, file, id } = claim;
        if let Some((body, steps)) = read_text(&file).and_then(|t| continues(&t, replay)) {
            // Cut a closing or a half-written line; what stays is a save at every moment.
            file.set_len(body as u64)?;
            return Ok(SaveFile {
                path,
                file,
                id,
                steps,
                bytes: body,
                synced: Instant::now(),
                trouble: None,
                taken: false,
                tried: Instant::now(),
            });
        }
        let text = open_text(replay);
        let (file, id) = replace_locked(&path, &text)?;
        Ok(SaveFile {
            path,
            file,
            id,
            steps: replay.steps.iter().filter(|s| !is_end(s)).count(),
            bytes: text.len(),
            synced: Instant::now(),
            trouble: None,
            taken: false,
            tried: Instant::now(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why the save does not hold the game so far, if it does not.
    pub fn trouble(&self) -> Option<&str> {
        self.trouble.as_deref()
    }

    /// Whether the save can take `step` and still be closed within the size that `replay`
    /// and `--resume` read.
    pub fn fits(&self, step: &Step) -> bool {
        self.bytes + step_line(step).len() + CLOSE_RESERVE <= MAX_REPLAY_BYTES
    }

    /// Appends the move just played, as one line with one write. Returns what the player
    /// must be told at once: that the save cannot be written (and why), or that it was
    /// written anew. `game` is the whole game so far, asked for only to write it anew.
    pub fn append(&mut self, step: &Step, game: impl FnOnce() -> Replay) -> Option<String> {
        if self.trouble.is_none() {
            // Looked at before writing, so a file that is no longer ours is never written to.
            self.check();
            if self.trouble.is_none() {
                let line = step_line(step);
                let written = self.file.write_all(line.as_bytes()).and_then(|()| {
                    if self.synced.elapsed() >= SYNC_INTERVAL {
                        self.file.sync_data()?;
                        self.synced = Instant::now();
                    }
                    Ok(())
                });
                match written {
                    Ok(()) => {
                        self.steps += 1;
                        self.bytes += line.len();
                        return None;
                    }
                    Err(e) => self.trouble = Some(e.to_string()),
                }
            }
            let was = self.path.clone();
            let why = self.trouble.clone().unwrap_or_default();
            return Some(match self.repair(&game(), false) {
                Ok(()) if self.path == was => format!(
                    "the save {} could not be kept ({why}); it was written anew with every \
                     move so far",
                    was.display()
                ),
                Ok(()) => format!(
                    "the save {} could not be kept ({why}); the game is now saved to {}, \
                     with every move so far",
                    was.display(),
                    self.path.display()
                ),
                Err(now) => format!(
                    "cannot save to {} ({now}); the game goes on, and the whole save is \
                     written again as soon as it can be",
                    was.display()
                ),
            });
        }
        if self.tried.elapsed() < RETRY_INTERVAL {
            return None;
        }
        match self.repair(&game(), false) {
            Ok(()) => Some(format!(
                "the game is saved again to {}, with every move so far",
                self.path.display()
            )),
            Err(_) => None,
        }
    }

    /// Whether the path still names our file as we left it; sets `trouble` if not.
    fn check(&mut self) {
        match at_path(&self.path, self.id, Some(self.bytes)) {
            AtPath::Ours => {}
            AtPath::Missing => self.trouble = Some("it was removed".into()),
            AtPath::Other => {
                self.trouble = Some("another program replaced or changed it".into());
                self.taken = true;
            }
        }
    }

    /// The whole game written anew: at the path (created again, folder and all, if it was
    /// removed), or, when the path now holds a file that is not this session's to overwrite
    /// (another program put it there or wrote into it), at a free name beside it.
    fn repair(&mut self, replay: &Replay, closed: bool) -> Result<(), String> {
        self.tried = Instant::now();
        let result = self.rewrite(replay, closed);
        if let Err(why) = &result {
            self.trouble = Some(why.clone());
        }
        result
    }

    fn rewrite(&mut self, replay: &Replay, closed: bool) -> Result<(), String> {
        let mut text = open_text(replay);
        let steps = replay.steps.iter().filter(|s| !is_end(s)).count();
        if closed {
            text += &closing(replay, steps);
        }
        let taken = self.taken || at_path(&self.path, self.id, None) == AtPath::Other;
        let (path, file, id) = if taken {
            // Not ours to overwrite (another session's save, a file someone put there): the
            // game goes to a free name beside it.
            let dir = self.path.parent().unwrap_or(Path::new("."));
            let stem = self.path.file_stem().unwrap_or_default().to_string_lossy();
            let claim = create_free(dir, &stem, &text).map_err(|e| e.to_string())?;
            (claim.path, claim.file, claim.id)
        } else {
            let (file, id) = replace_locked(&self.path, &text).map_err(|e| e.to_string())?;
            (self.path.clone(), file, id)
        };
        self.path = path;
        self.file = file;
        self.id = id;
        self.steps = steps;
        self.bytes = text.len();
        self.synced = Instant::now();
        self.trouble = None;
        self.taken = false;
        Ok(())
    }

    /// Closes the step list: the moves of `replay` not yet written, its `End` if the game
    /// is over, and the closing brackets; then flushes to disk. A save that could not be
    /// kept is written whole once more. `Err`: why the game is not saved.
    pub fn close(mut self, replay: &Replay) -> Result<PathBuf, String> {
        if self.trouble.is_none() {
            self.check();
        }
        if self.trouble.is_none() {
            let tail = closing(replay, self.steps);
            let written = self
                .file
                .write_all(tail.as_bytes())
                .and_then(|()| self.file.sync_all());
            match written {
                Ok(()) => {
                    self.bytes += tail.len();
                    // Removed or replaced while it was closed: written anew below.
                    self.check();
                    if self.trouble.is_none() {
                        return Ok(self.path);
                    }
                }
                Err(e) => self.trouble = Some(e.to_string()),
            }
        }
        self.repair(replay, true).map(|()| self.path)
    }
}

/// The steps of `replay` after the first `written`, and the closing brackets.
fn closing(replay: &Replay, written: usize) -> String {
    let mut tail = String::new();
    for step in replay.steps.iter().skip(written) {
        tail += &step_line(step);
    }
    tail + SAVE_CLOSE
}

/// For a save in this format whose head is `replay`'s and whose moves begin the game: how
/// many bytes to keep (its head and whole move lines) and how many moves they hold.
fn continues(text: &str, replay: &Replay) -> Option<(usize, usize)> {
    let file = ReplayFile::parse(text).ok()?;
    // Appending goes after a step line or the list's opening, nothing else (a file
    // edited by hand may end otherwise; it is then rewritten).
    let body = save_body_len(text)
        .filter(|&n| text[..n].ends_with(",\n") || text[..n].ends_with("steps: [\n"))?;
    let saved = &file.replay;
    let head = |r: &Replay| Replay {
        steps: Vec::new(),
        ..r.clone()
    };
    let n = saved.steps.iter().take_while(|s| !is_end(s)).count();
    let same = head(saved) == head(replay)
        && saved.steps.len() == n
        && replay.steps.get(..n) == Some(&saved.steps[..]);
    same.then_some((body, n))
}

fn is_end(step: &Step) -> bool {
    matches!(step, Step::End { .. })
}

/// Temporary files beside the save left by a process killed while writing one: the
/// `<save>.<pid>.tmp` of a process that no longer runs, and the `<save>.tmp` of earlier
/// versions. Called once the save is this session's, so no live session is writing them.
fn remove_stale_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Some(name) = name.to_str() else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(middle) = file
            .to_str()
            .and_then(|f| f.strip_prefix(name))
            .and_then(|f| f.strip_suffix(".tmp"))
        else {
            continue;
        };
        let stale = match middle.strip_prefix('.').map(str::parse::<u32>) {
            None if middle.is_empty() => true,
            Some(Ok(pid)) => pid != std::process::id() && !alive(pid),
            _ => false,
        };
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` runs (signal 0 checks without sending; `EPERM`: it runs as
/// another user). Where that cannot be told, it is taken to run.
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: kill with signal 0 sends nothing.
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn alive(_: u32) -> bool {
    true
}

fn cannot_write(path: &Path, e: &std::io::Error) -> CliError {
    failure(
        "cannot-write",
        format!("cannot save to {}: {e}", path.display()),
    )
}

fn not_regular(path: &Path) -> CliError {
    failure(
        "cannot-write",
        format!(
            "cannot save to {}: not a regular file (a device, FIFO or folder), which a save \
             never replaces, even with --force; choose another file with --save",
            path.display()
        ),
    )
}

/// Whether `path` (its text read as `text`) may receive this game's save: it is a save of
/// the same game (game, variant, players, seed, stacked cards) whose moves this game still
/// holds. Anything else is refused unless `force`, so no file is overwritten by mistake.
fn check_target(
    path: &Path,
    text: &Option<String>,
    game: &Replay,
    resume_hint: bool,
    force: bool,
) -> Result<(), CliError> {
    if force {
        return Ok(());
    }
    let shown = path.display();
    let refuse = |what: String, hint: bool| {
        let hint = if hint {
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
    let Some(file) = text.as_deref().and_then(|t| ReplayFile::parse(t).ok()) else {
        // Nothing to resume: no hint to.
        return refuse("exists and is not a saved game".into(), false);
    };
    let saved = &file.replay;
    let same_game = saved.game == game.game
        && saved.variant == game.variant
        && saved.players == game.players
        && saved.seed == game.seed
        && saved.stack == game.stack;
    if !same_game {
        return refuse(
            format!(
                "holds another game ({} for {} players, seed {})",
                describe(saved),
                saved.players,
                saved.seed
            ),
            resume_hint,
        );
    }
    let moves: Vec<&Step> = saved.steps.iter().filter(|s| !is_end(s)).collect();
    let kept =
        moves.len() <= game.steps.len() && moves.iter().zip(&game.steps).all(|(a, b)| *a == b);
    if !kept {
        return refuse(
            format!(
                "holds {} moves of this game that would be lost",
                moves.len()
            ),
            resume_hint,
        );
    }
    Ok(())
}

fn describe(r: &Replay) -> String {
    match &r.variant {
        Some(v) => format!("{}/{v}", r.game),
        None => r.game.clone(),
    }
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
