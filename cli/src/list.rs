//! `grail list`: the bundled games and their variants, with player counts, then the
//! user's packs.

use std::io::{self, Write};

use grail_schema::GameInfo;
use grail_schema::files::display;

use crate::content::Content;
use crate::exit::{CliResult, failure};

/// Lists the games; none found at all is a failure naming the folder looked in.
pub fn run(content: &Content, out: &mut dyn Write) -> CliResult {
    let bundled = content.bundled_games();
    let user = content.user_games();
    let width = bundled
        .iter()
        .chain(&user)
        .flat_map(|g| std::iter::once(g.id.len()).chain(g.variants.iter().map(|v| v.id.len() + 2)))
        .max()
        .unwrap_or(0);
    if bundled.is_empty() && user.is_empty() {
        return Err(failure(
            "no-games",
            format!("no games found in {}", display(content.bundled_dir())),
        ));
    }
    print(&bundled, width, out)?;
    if let (Some(dir), false) = (content.user_dir(), user.is_empty()) {
        writeln!(out, "\nyour packs, in {}:", display(dir))?;
        print(&user, width, out)?;
    }
    Ok(())
}

fn print(games: &[GameInfo], width: usize, out: &mut dyn Write) -> io::Result<()> {
    let players = |p: Option<(u8, u8)>| match p {
        Some((lo, hi)) if lo == hi => format!("{lo} players"),
        Some((lo, hi)) => format!("{lo}–{hi} players"),
        None => "players unknown".to_owned(),
    };
    for g in games {
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
