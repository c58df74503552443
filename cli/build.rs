//! Builds the bundled games into the binary: every file under `content/`, sorted by path,
//! becomes an entry of `BUNDLED` (relative path, bytes), so an installed `grail` needs no
//! source tree.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let content = manifest.join("../content");
    // A folder makes cargo watch everything under it, added and removed files included.
    println!("cargo:rerun-if-changed={}", content.display());
    let mut files = Vec::new();
    walk(&content, &mut files);
    files.sort();
    let mut table = String::from("pub static BUNDLED: &[(&str, &[u8])] = &[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let relative = path.strip_prefix(&content).expect("walked from content");
        let name: Vec<&str> = relative
            .components()
            .map(|c| {
                c.as_os_str()
                    .to_str()
                    .expect("content file names are UTF-8")
            })
            .collect();
        let absolute = path.canonicalize().expect("a walked file exists");
        writeln!(
            table,
            "    ({:?}, include_bytes!({:?})),",
            name.join("/"),
            absolute.display().to_string()
        )
        .expect("writing to a String");
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("bundled.rs"), table).expect("OUT_DIR is writable");
}

/// Every regular file under `dir`, hidden ones (editor swap files, `.DS_Store`) left out.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.expect("a readable folder entry");
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            walk(&path, out);
        } else if path.is_file() {
            out.push(path);
        }
    }
}
