//! `grail`: play, lint, replay and simulate content packs. Exit codes: 0 success, 1 the input
//! was wrong (lint errors, …), 2 usage error.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use grail_cli::{content, lint, list, schema};

#[derive(Parser)]
#[command(
    name = "grail",
    version,
    about = "Data-driven rules engine for Arthurian tabletop games"
)]
struct Cli {
    /// The bundled content directory [default: $GRAIL_CONTENT, else the source tree's content/]
    #[arg(long, global = true, value_name = "DIR")]
    content: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the bundled games and their variants
    List,
    /// Validate packs (default: every bundled pack and variant); exit 1 on errors
    Lint {
        /// Pack folders, root files or variant files
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: lint::Format,
    },
    /// Write the JSON Schemas of the pack format (to stdout without --out)
    Schema {
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let content = content::content_dir(cli.content.as_deref());
    let result = match cli.command {
        Command::List => list::run(&content, &mut std::io::stdout().lock()),
        Command::Lint { paths, format } => {
            let reports = lint::lint(&paths, &content);
            let color = if std::io::stdout().is_terminal() {
                ColorChoice::Auto
            } else {
                ColorChoice::Never
            };
            let stdout = StandardStream::stdout(color);
            lint::print(&reports, format, &mut stdout.lock())
        }
        Command::Schema { out } => {
            schema::run(out.as_deref(), &mut std::io::stdout().lock()).map(|()| true)
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "grail: {e}");
            ExitCode::from(1)
        }
    }
}
