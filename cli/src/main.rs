//! The `grail` command. This file holds only the argument definitions and the dispatch;
//! each command lives in its own module.

mod exit;
mod games;
mod play;
mod replay;
mod report;
mod sim;
#[cfg(any(test, feature = "toy-game"))]
#[path = "../../engine/tests/toy/mod.rs"]
mod toy;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Grail: data-driven Arthurian tabletop games — play, replay and simulate content packs.
#[derive(Parser)]
#[command(name = "grail", version)]
struct Cli {
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
}

fn main() -> ExitCode {
    // Usage errors exit with 2 (clap's convention), `--help` and `--version` with 0.
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Sim(args) => sim::run(args),
    };
    exit::finish(result)
}

#[cfg(test)]
mod tests;
