//! `grail schema [--out DIR]`: the JSON Schemas of the pack format.

use std::io::{self, Write};
use std::path::Path;

use grail_schema::json_schema::schemas;

/// Without `out`, prints the pack file schema; with it, writes every schema into `out`.
pub fn run(out_dir: Option<&Path>, out: &mut dyn Write) -> io::Result<()> {
    match out_dir {
        None => {
            for (_, text) in schemas().into_iter().take(1) {
                out.write_all(text.as_bytes())?;
            }
        }
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            for (name, text) in schemas() {
                let path = dir.join(name);
                std::fs::write(&path, text)?;
                writeln!(out, "wrote {}", path.display())?;
            }
        }
    }
    Ok(())
}
