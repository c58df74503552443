//! `grail schema [--out DIR]`: the JSON Schemas of the pack format.

use std::io::Write;
use std::path::Path;

use grail_schema::json_schema::schemas;

use crate::exit::{CliResult, failure};

/// Without `out`, prints the pack file schema; with it, writes every schema into `out`.
/// Errors name the folder or file that could not be written.
pub fn run(out_dir: Option<&Path>, out: &mut dyn Write) -> CliResult {
    match out_dir {
        None => {
            for (_, text) in schemas().into_iter().take(1) {
                out.write_all(text.as_bytes())?;
            }
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| {
                failure(
                    "cannot-write",
                    format!("cannot create {}: {e}", dir.display()),
                )
            })?;
            for (name, text) in schemas() {
                let path = dir.join(name);
                std::fs::write(&path, text).map_err(|e| {
                    failure(
                        "cannot-write",
                        format!("cannot write {}: {e}", path.display()),
                    )
                })?;
                writeln!(out, "wrote {}", path.display())?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
