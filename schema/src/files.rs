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
        std::fs::read(path)
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
    fn normalize_resolves_dots_textually() {
        assert_eq!(normalize(Path::new("a/./b/../c")), Path::new("a/c"));
        assert_eq!(normalize(Path::new("a/../../c")), Path::new("../c"));
        assert_eq!(normalize(Path::new("/../c")), Path::new("/c"));
    }
}
