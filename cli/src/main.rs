//! The `grail` command. This file holds only the argument definitions and the dispatch;
//! each command lives in its own module (`lint`, `list`, `schema` and `render` in the
//! library, so integration tests can run them in-process).

#[cfg(test)]
#[path = "../../engine/tests/toy/mod.rs"]
mod toy;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser, Subcommand};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use grail_cli::exit::{self, CliError, CliResult, usage};
use grail_cli::{
    cards, content, lint, list, merge, play, replay, report, rules_cmd, schema, serve, sim, sweep,
};

/// Grail: data-driven Arthurian tabletop games — play, replay and simulate content packs.
#[derive(Parser)]
#[command(name = "grail", version)]
struct Cli {
    /// A folder of packs to use instead of the bundled games [default: $GRAIL_CONTENT, else
    /// the games built into grail]. Your own packs go in $XDG_DATA_HOME/grail/packs (else
    /// ~/.local/share/grail/packs)
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
    /// Simulate a game (or two, side by side) and write the balance report as an HTML page.
    Report(report::command::ReportArgs),
    /// Simulate a game once per combination of param values (`--param NAME=V1,V2`).
    Sweep(sweep::SweepArgs),
    /// Add up the JSON reports of `grail sim --shard I/N` into the whole run's report.
    Merge(merge::MergeArgs),
    /// List the bundled games and your packs, with their variants and player counts.
    List,
    /// Show a pack's cards, or one card in full (attributes, condition in words, text).
    Cards(cards::CardsArgs),
    /// A game's rules in words, from its description (a variant's: also what it changes).
    Rules(rules_cmd::RulesArgs),
    /// The table in a browser: play against bots, watch bots, step through a replay or a
    /// save, open a balance report (a local page on 127.0.0.1; Ctrl-C stops it).
    Serve(serve::ServeArgs),
    /// Validate packs (default: every bundled pack and variant, and your packs); exit 1 on errors.
    Lint {
        /// Pack folders, root files or variant files
        paths: Vec<PathBuf>,
        /// How to print the findings: text for people, json for tools
        #[arg(long, value_enum, default_value = "text")]
        format: lint::Format,
    },
    /// Write the JSON Schemas of the pack format (to stdout without --out).
    Schema {
        /// Write every schema as a file into DIR (created if missing)
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Print a shell completion script (e.g. `grail completions bash > ~/.grail.bash`).
    Completions {
        /// The shell to complete for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return exit::finish(Err(clap_error(e))),
    };
    let content = || content::Content::locate(cli.content.as_deref());
    let result = match cli.command {
        Command::Play(args) => content().and_then(|c| play::run(args, &c)),
        Command::Replay(args) => content().and_then(|c| replay::run(args, &c)),
        Command::Sim(args) => content().and_then(|c| sim::run(args, &c)),
        Command::Report(args) => content().and_then(|c| report::command::run(&args, &c)),
        Command::Sweep(args) => content().and_then(|c| sweep::run(&args, &c)),
        Command::Merge(args) => merge::run(&args, &mut std::io::stdout().lock()),
        Command::Cards(args) => {
            content().and_then(|c| cards::run(&args, &c, &mut std::io::stdout().lock()))
        }
        Command::Rules(args) => {
            content().and_then(|c| rules_cmd::run(&args, &c, &mut std::io::stdout().lock()))
        }
        Command::Serve(args) => content().and_then(|c| serve::run(&args, c)),
        Command::List => content().and_then(|c| list::run(&c, &mut std::io::stdout().lock())),
        Command::Lint { paths, format } => content().and_then(|c| {
            let reports = lint::lint(&paths, &c);
            let color = if std::io::stdout().is_terminal() {
                ColorChoice::Auto
            } else {
                ColorChoice::Never
            };
            let stdout = StandardStream::stdout(color);
            reported(lint::print(&reports, format, &mut stdout.lock()))
        }),
        Command::Schema { out } => schema::run(out.as_deref(), &mut std::io::stdout().lock()),
        Command::Completions { shell } => {
            // Into memory first: `generate` panics on a failed write (a closed pipe).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "grail", &mut script);
            std::io::Write::write_all(&mut std::io::stdout().lock(), &script)
                .map_err(CliError::from)
        }
    };
    exit::finish(result)
}

/// A command line clap refused, as a usage error with a code naming the problem; `--help`
/// and `--version` (and `grail` alone, which shows the help) are clap's to print.
fn clap_error(e: clap::Error) -> CliError {
    let code = match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        // A value not among an argument's possible ones: for the agents, name the problem.
        ErrorKind::InvalidValue => match e.get(ContextKind::InvalidArg) {
            Some(ContextValue::String(arg))
                if arg.starts_with("--agents") || arg.starts_with("--bots") =>
            {
                "unknown-agent"
            }
            _ => "invalid-value",
        },
        ErrorKind::ValueValidation => "invalid-value",
        ErrorKind::UnknownArgument => "unknown-flag",
        ErrorKind::InvalidSubcommand => "unknown-command",
        ErrorKind::MissingRequiredArgument | ErrorKind::MissingSubcommand => "missing-argument",
        ErrorKind::ArgumentConflict => "conflicting-arguments",
        ErrorKind::NoEquals
        | ErrorKind::TooManyValues
        | ErrorKind::TooFewValues
        | ErrorKind::WrongNumberOfValues => "invalid-value",
        _ => "usage",
    };
    // clap's text starts with its own `error: `; ours carries the code instead.
    let text = e.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text).trim_end();
    usage(code, text)
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

#[cfg(test)]
mod lab_tests;
