//! `grail list`: the bundled games and their variants, with player counts.

use std::io::Write;
use std::path::Path;

use grail_schema::{Disk, discover};

use crate::exit::{CliResult, failure};

/// Lists the games; none found is a failure naming the folder looked in.
pub fn run(content: &Path, out: &mut dyn Write) -> CliResult {
    let games = discover(&Disk, content);
    if games.is_empty() {
        return Err(failure(
            "no-games",
            format!("no games found in {}", content.display()),
        ));
    }
    let players = |p: Option<(u8, u8)>| match p {
        Some((lo, hi)) if lo == hi => format!("{lo} players"),
        Some((lo, hi)) => format!("{lo}–{hi} players"),
        None => "players unknown".to_owned(),
    };
    let width = games
        .iter()
        .flat_map(|g| std::iter::once(g.id.len()).chain(g.variants.iter().map(|v| v.id.len() + 2)))
        .max()
        .unwrap_or(0);
    for g in &games {
        writeln!(
            out,
            "{:width$}  {:12}  {}",
            g.id,
            players(g.players),
            g.name
        )?;
        for v in &g.variants {
            let id = format!("  {}", v.id);
            writeln!(
                out,
                "{id:width$}  {:12}  {} (--variant {})",
                players(v.players),
                v.name,
                v.id
            )?;
        }
    }
    Ok(())
}
