//! Where pack files come from: the disk, or memory (tests, the fuzzer). The loader reads
//! through [`FileSource`] only, so it can be driven without touching the file system.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};

pub trait FileSource {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    fn is_file(&self, path: &Path) -> bool;
    fn is_dir(&self, path: &Path) -> bool;
    /// The path with symbolic links resolved, where the source has such a thing.
    fn canonical(&self, _path: &Path) -> Option<PathBuf> {
        None
    }
    /// The file names in a folder, sorted.
    fn list(&self, dir: &Path) -> Vec<PathBuf>;
}

/// The real file system.
pub struct Disk;

impl FileSource for Disk {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        read_regular(path, MAX_FILE_BYTES)
    }
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }
    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }
    fn canonical(&self, path: &Path) -> Option<PathBuf> {
        path.canonicalize().ok()
    }
    fn list(&self, dir: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        out.sort();
        out
    }
}

/// The largest pack file the loader reads.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a regular file of at most `limit` bytes. Anything else (a FIFO, which would block,
/// a device such as `/dev/zero`, which never ends, a folder) is refused before it is opened,
/// and the limit is enforced while reading, not taken from the size the file reports.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let not_regular = || {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a folder, FIFO or device)",
        )
    };
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = std::fs::File::open(path)?;
    // Checked again on the open file, in case the path changed in between.
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("larger than {limit} bytes"),
        ));
    }
    Ok(bytes)
}

/// Files held in memory, by path.
#[derive(Clone, Debug, Default)]
pub struct MemoryFiles {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl MemoryFiles {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn insert(&mut self, path: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) -> &mut Self {
        self.files.insert(normalize(&path.into()), bytes.into());
        self
    }
}

impl FileSource for MemoryFiles {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.files
            .get(&normalize(path))
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file"))
    }
    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(&normalize(path))
    }
    fn is_dir(&self, path: &Path) -> bool {
        let dir = normalize(path);
        self.files.keys().any(|p| p.starts_with(&dir) && *p != dir)
    }
    fn list(&self, dir: &Path) -> Vec<PathBuf> {
        let dir = normalize(dir);
        let mut out: Vec<PathBuf> = self
            .files
            .keys()
            .filter_map(|p| {
                let rest = p.strip_prefix(&dir).ok()?;
                let first = rest.components().next()?;
                Some(dir.join(first))
            })
            .collect();
        out.dedup();
        out
    }
}

/// Removes `.` and resolves `..` textually (`a/b/../c` → `a/c`), without touching the disk.
/// A `..` that would climb above the start is kept, so escaping paths stay visible.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            _ => out.push(c),
        }
    }
    if out.is_empty() {
        PathBuf::from(".")
    } else {
        out.iter().collect()
    }
}

/// A path as users should see it: relative to the working directory when inside it.
pub fn display(path: &Path) -> String {
    let path = normalize(path);
    let relative = std::env::current_dir().ok().and_then(|cwd| {
        path.strip_prefix(normalize(&cwd))
            .ok()
            .map(Path::to_path_buf)
    });
    relative.unwrap_or(path).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read_and_only_up_to_the_limit() {
        let dir = std::env::temp_dir().join(format!("grail-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.toml");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_regular(&file, 10).unwrap().len(), 10);
        let too_big = read_regular(&file, 9).unwrap_err();
        assert_eq!(too_big.kind(), io::ErrorKind::FileTooLarge);
        let folder = read_regular(&dir, 10).unwrap_err();
        assert_eq!(folder.kind(), io::ErrorKind::InvalidInput);
        if Path::new("/dev/zero").exists() {
            let device = read_regular(Path::new("/dev/zero"), 10).unwrap_err();
            assert_eq!(device.kind(), io::ErrorKind::InvalidInput);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn normalize_resolves_dots_textually() {
        assert_eq!(normalize(Path::new("a/./b/../c")), Path::new("a/c"));
        assert_eq!(normalize(Path::new("a/../../c")), Path::new("../c"));
        assert_eq!(normalize(Path::new("/../c")), Path::new("/c"));
    }
}
