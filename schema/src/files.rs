//! Where pack files come from: the disk, the program itself (the bundled games), or memory
//! (tests, the fuzzer). The loader reads
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
        children(self.files.keys(), &normalize(dir))
    }
}

/// The entries of `dir` among the sorted file paths `paths`: each path's first component
/// below `dir`, once.
fn children<'p>(paths: impl Iterator<Item = &'p PathBuf>, dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = paths
        .filter_map(|p| {
            let rest = p.strip_prefix(dir).ok()?;
            let first = rest.components().next()?;
            Some(dir.join(first))
        })
        .collect();
    out.dedup();
    out
}

/// Files built into the program (the bundled games), seen under a root that names no real
/// folder, `<bundled>/my-game/pack.toml`, so diagnostics still name a readable file.
/// Every other path is read from the disk: a pack on disk may extend a built-in one.
pub struct Embedded {
    root: PathBuf,
    files: BTreeMap<PathBuf, &'static [u8]>,
}

impl Embedded {
    /// The folder the built-in files appear in.
    pub const ROOT: &'static str = "<bundled>";

    /// `table` holds (path relative to the root with `/` separators, bytes).
    pub fn new(table: &[(&str, &'static [u8])]) -> Self {
        let root = PathBuf::from(Self::ROOT);
        let files = table
            .iter()
            .map(|(path, bytes)| (normalize(&root.join(path)), *bytes))
            .collect();
        Embedded { root, files }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path in normal form, if it is one of ours rather than the disk's.
    fn own(&self, path: &Path) -> Option<PathBuf> {
        Some(normalize(path)).filter(|p| p.starts_with(&self.root))
    }
}

impl FileSource for Embedded {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.own(path) {
            Some(p) => self
                .files
                .get(&p)
                .map(|bytes| bytes.to_vec())
                .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file")),
            None => Disk.read(path),
        }
    }
    fn is_file(&self, path: &Path) -> bool {
        match self.own(path) {
            Some(p) => self.files.contains_key(&p),
            None => Disk.is_file(path),
        }
    }
    fn is_dir(&self, path: &Path) -> bool {
        match self.own(path) {
            Some(dir) => self.files.keys().any(|p| p.starts_with(&dir) && *p != dir),
            None => Disk.is_dir(path),
        }
    }
    fn canonical(&self, path: &Path) -> Option<PathBuf> {
        match self.own(path) {
            Some(p) => Some(p),
            None => Disk.canonical(path),
        }
    }
    fn list(&self, dir: &Path) -> Vec<PathBuf> {
        match self.own(dir) {
            Some(dir) => children(self.files.keys(), &dir),
            None => Disk.list(dir),
        }
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
    fn embedded_files_live_under_their_root_and_the_rest_on_disk() {
        let files = Embedded::new(&[("g/pack.toml", b"[pack]"), ("g/variants/v.toml", b"")]);
        let root = Path::new(Embedded::ROOT);
        assert_eq!(files.read(&root.join("g/pack.toml")).unwrap(), b"[pack]");
        assert_eq!(
            files.read(&root.join("g/x/../pack.toml")).unwrap(),
            b"[pack]"
        );
        assert!(files.is_dir(&root.join("g")) && files.is_dir(root));
        assert!(!files.is_file(&root.join("g")) && !files.is_dir(&root.join("h")));
        assert_eq!(files.list(root), vec![root.join("g")]);
        assert_eq!(
            files.list(&root.join("g")),
            vec![root.join("g/pack.toml"), root.join("g/variants")]
        );
        let missing = files.read(&root.join("g/nothing.toml")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        // Other paths are the disk's.
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        assert!(files.is_file(&manifest) && files.read(&manifest).is_ok());
    }

    #[test]
    fn normalize_resolves_dots_textually() {
        assert_eq!(normalize(Path::new("a/./b/../c")), Path::new("a/c"));
        assert_eq!(normalize(Path::new("a/../../c")), Path::new("../c"));
        assert_eq!(normalize(Path::new("/../c")), Path::new("/c"));
    }
}
