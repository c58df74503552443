//! `grail report`: simulate a game (and another to compare it with) and write the balance
//! report as one HTML page.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use grail_engine::facade::DynGame;
use grail_engine::sim::Report;

use super::html::{self, Side};
use crate::content::Content;
use crate::exit::{CliResult, failure};
use crate::games::open_game;
use crate::sim::{self, Format, Games, SimArgs};

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A bundled game id or a pack folder (`grail list` shows the games).
    #[arg(required_unless_present = "from")]
    pub game: Option<String>,
    /// Draw the page from JSON reports instead of simulating: of `grail sim --detail
    /// --format json` or `grail merge` (a sharded run). Give it twice to compare two.
    #[arg(long, value_name = "REPORT.json", conflicts_with_all = ["game", "variant", "compare", "compare_variant"])]
    pub from: Vec<PathBuf>,
    /// A variant of the game (`grail list` shows each game's variants).
    #[arg(long)]
    pub variant: Option<String>,
    /// The HTML file to write (one self-contained page: inline CSS and SVG, no scripts).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Another game id or pack folder, simulated the same way and shown side by side.
    #[arg(long, value_name = "GAME")]
    pub compare: Option<String>,
    /// A variant to show side by side: of `--compare`'s game if given, else of GAME
    /// (`--compare-variant seals` compares the base game with its variant).
    #[arg(long, value_name = "VARIANT")]
    pub compare_variant: Option<String>,
    #[command(flatten)]
    pub games: Games,
}

impl ReportArgs {
    /// The simulation behind the report: every statistic, the detailed ones too.
    pub fn sim_args(&self, game: &str, variant: Option<String>) -> SimArgs {
        SimArgs {
            game: game.to_string(),
            variant,
            games: self.games.clone(),
            record: None,
            format: Format::Json,
            shard: None,
            detail: true,
        }
    }

    /// The game to compare with, if any: (game, variant).
    fn other(&self) -> Option<(String, Option<String>)> {
        match (&self.compare, &self.compare_variant) {
            (None, None) => None,
            (Some(g), v) => Some((g.clone(), v.clone())),
            (None, Some(v)) => Some((self.game.clone()?, Some(v.clone()))),
        }
    }
}

pub fn run(args: &ReportArgs, content: &Content) -> CliResult {
    let progress = std::io::stderr().is_terminal();
    let mut reports = Vec::new();
    for file in &args.from {
        reports.push(crate::merge::read_report(file)?);
    }
    let mut games: Vec<(String, Option<String>)> = (args.game.iter())
        .map(|g| (g.clone(), args.variant.clone()))
        .collect();
    games.extend(args.other());
    for (name, variant) in &games {
        let game = open_game(content, name, variant.as_deref())?;
        reports.push(simulate(
            game.as_ref(),
            args,
            name,
            variant.clone(),
            progress,
        )?);
    }
    let text = page(&reports);
    std::fs::write(&args.out, text).map_err(|e| {
        failure(
            "cannot-write",
            format!("cannot write {}: {e}", args.out.display()),
        )
    })?;
    Ok(())
}

/// Simulates one side of the report.
pub fn simulate(
    game: &dyn DynGame,
    args: &ReportArgs,
    name: &str,
    variant: Option<String>,
    progress: bool,
) -> Result<Report, crate::exit::CliError> {
    sim::run_games(game, &args.sim_args(name, variant), progress)
}

/// The page of one report, or of several side by side (named apart when they would read
/// the same).
pub fn page(reports: &[Report]) -> String {
    let mut names: Vec<String> = reports.iter().map(html::side_name).collect();
    if names.len() > 1 && names.iter().skip(1).any(|n| *n == names[0]) {
        for (i, n) in names.iter_mut().enumerate() {
            n.push_str(&format!(
                " ({})",
                ["A", "B", "C", "D"].get(i).unwrap_or(&"…")
            ));
        }
    }
    let sides: Vec<Side<'_>> = names
        .iter()
        .zip(reports)
        .map(|(name, report)| Side {
            name: name.clone(),
            report,
        })
        .collect();
    let title = format!("Balance report: {}", names.join(" vs "));
    html::page(&title, &sides)
}
