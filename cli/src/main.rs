//! The `grail` command. This file holds only the argument definitions and the dispatch;
//! each command lives in its own module (`lint`, `list`, `schema` and `render` in the
//! library, so integration tests can run them in-process).

#[cfg(test)]
#[path = "../../engine/tests/toy/mod.rs"]
mod toy;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use grail_cli::exit::{self, CliError, CliResult};
use grail_cli::{cards, content, lint, list, play, replay, schema, sim};

/// Grail: data-driven Arthurian tabletop games — play, replay and simulate content packs.
#[derive(Parser)]
#[command(name = "grail", version)]
struct Cli {
    /// The bundled content directory [default: $GRAIL_CONTENT, else the source tree's content/]
    #[arg(long, global = true, value_name = "DIR")]
    content: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play in the terminal against bots; the move log is saved after every move.
    Play(play::PlayArgs),
    /// Re-run a replay or script and check it.
    Replay(replay::ReplayArgs),
    /// Simulate many games by bots and report balance statistics.
    Sim(sim::SimArgs),
    /// List the bundled games and their variants, with player counts.
    List,
    /// Show a pack's cards, or one card in full (attributes, condition in words, text).
    Cards(cards::CardsArgs),
    /// Validate packs (default: every bundled pack and variant); exit 1 on errors.
    Lint {
        /// Pack folders, root files or variant files
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: lint::Format,
    },
    /// Write the JSON Schemas of the pack format (to stdout without --out).
    Schema {
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    // Usage errors exit with 2 (clap's convention), `--help` and `--version` with 0.
    let cli = Cli::parse();
    let content = content::content_dir(cli.content.as_deref());
    let result = match cli.command {
        Command::Play(args) => play::run(args, &content),
        Command::Replay(args) => replay::run(args, &content),
        Command::Sim(args) => sim::run(args, &content),
        Command::Cards(args) => cards::run(&args, &content, &mut std::io::stdout().lock()),
        Command::List => reported(list::run(&content, &mut std::io::stdout().lock())),
        Command::Lint { paths, format } => {
            let reports = lint::lint(&paths, &content);
            let color = if std::io::stdout().is_terminal() {
                ColorChoice::Auto
            } else {
                ColorChoice::Never
            };
            let stdout = StandardStream::stdout(color);
            reported(lint::print(&reports, format, &mut stdout.lock()))
        }
        Command::Schema { out } => {
            schema::run(out.as_deref(), &mut std::io::stdout().lock()).map_err(CliError::from)
        }
    };
    exit::finish(result)
}

/// A command that printed its own findings: `false` means the input was wrong (exit 1).
fn reported(ok: std::io::Result<bool>) -> CliResult {
    match ok? {
        true => Ok(()),
        false => Err(CliError::Reported),
    }
}

#[cfg(test)]
mod tests;
