//! `grail sim`: many games by bots, reported per player count.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use clap::{Args, ValueEnum};
use grail_engine::agent::AgentKind;
use grail_engine::facade::DynGame;
use grail_engine::sim::{GameRecord, SimConfig, SimHooks};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::exit::{CliError, CliResult, input};
use crate::games::open_game;
use crate::report;

#[derive(Args, Debug)]
pub struct SimArgs {
    /// A bundled game id or a pack folder.
    pub game: String,
    #[arg(long)]
    pub variant: Option<String>,
    /// Player counts: one (`4`), a range (`2-5`) or a list (`2,4`). Default: every count
    /// the game supports.
    #[arg(long, value_parser = parse_counts)]
    pub players: Option<PlayerCounts>,
    /// Games per player count.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Agents by seat, repeated to fill the table (`greedy,random`). Default: random.
    #[arg(long, value_delimiter = ',', value_parser = parse_agent)]
    pub agents: Vec<AgentKind>,
    /// Write every game as a replay file into this folder.
    #[arg(long)]
    pub record: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Worker threads (default: one per core). The report is the same for any number.
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
}

pub fn parse_agent(s: &str) -> Result<AgentKind, String> {
    s.parse()
        .map_err(|e: grail_engine::agent::UnknownAgent| e.to_string())
}

/// Player counts, sorted, each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerCounts(pub Vec<usize>);

/// `4`, `2-5` or `2,4` (lists may hold ranges: `2,4-5`).
pub fn parse_counts(s: &str) -> Result<PlayerCounts, String> {
    let mut counts = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("'{t}' is not a player count (write 4, 2-5 or 2,4)"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(format!("'{part}' is an empty range"));
                }
                if b - a > 64 {
                    return Err(format!("'{part}' is too wide a range"));
                }
                counts.extend(a..=b);
            }
            None => counts.push(number(part)?),
        }
    }
    counts.sort_unstable();
    counts.dedup();
    Ok(PlayerCounts(counts))
}

pub fn run(args: SimArgs, content: &crate::content::Content) -> CliResult {
    let game = open_game(content, &args.game, args.variant.as_deref()).map_err(input)?;
    let mut stdout = std::io::stdout().lock();
    let progress = std::io::stderr().is_terminal();
    simulate(game.as_ref(), &args, &mut stdout, progress)
}

pub fn simulate(
    game: &dyn DynGame,
    args: &SimArgs,
    out: &mut dyn Write,
    show_progress: bool,
) -> CliResult {
    let range = game.players();
    let players = args
        .players
        .clone()
        .map(|p| p.0)
        .unwrap_or_else(|| range.clone().collect());
    if let Some(&bad) = players.iter().find(|p| !range.contains(p)) {
        return Err(input(format!(
            "{} is for {} to {} players, not {bad}",
            game.game_id(),
            range.start(),
            range.end()
        )));
    }
    if args.threads == Some(0) {
        return Err(CliError::Usage("--threads must be at least 1".into()));
    }
    if let Some(dir) = &args.record {
        std::fs::create_dir_all(dir)
            .map_err(|e| input(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut config = SimConfig::new(players.clone(), args.games, args.seed);
    config.agents = args.agents.clone();
    config.record = args.record.is_some();

    let total = args.games.saturating_mul(players.len() as u64);
    let bar = if show_progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {human_pos}/{human_len} games  eta {eta}")
        {
            bar.set_style(style);
        }
        Some(bar)
    } else {
        None
    };
    let progress = |done: u64| {
        if let Some(bar) = &bar {
            bar.set_position(done);
        }
    };
    let write_error = Mutex::new(None::<String>);
    let record = |r: GameRecord| {
        let Some(dir) = &args.record else { return };
        let path = record_path(dir, game.game_id(), r.players, r.index);
        if let Err(e) = std::fs::write(&path, r.replay.to_ron()) {
            let mut first = write_error.lock().unwrap_or_else(|p| p.into_inner());
            first.get_or_insert_with(|| format!("cannot write {}: {e}", path.display()));
        }
    };
    let hooks = SimHooks {
        progress: Some(&progress),
        record: Some(&record),
    };
    // More threads than games, or than a machine could use, only cost start-up time.
    let threads = args.threads.map(|n| {
        n.min(usize::try_from(total).unwrap_or(usize::MAX).max(1))
            .min(MAX_THREADS)
    });
    let result = match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| input(format!("cannot start {n} threads: {e}")))?
            .install(|| game.simulate(&config, hooks)),
        None => game.simulate(&config, hooks),
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = result.map_err(|e| input(e.to_string()))?;
    if let Some(e) = write_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(input(e));
    }
    let text = match args.format {
        Format::Text => report::text(&report),
        Format::Json => {
            let mut json = serde_json::to_string_pretty(&report)
                .map_err(|e| input(format!("cannot write JSON: {e}")))?;
            json.push('\n');
            json
        }
        Format::Csv => report::csv(&report),
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The most worker threads `--threads` starts, whatever it asks for.
const MAX_THREADS: usize = 256;

fn record_path(dir: &Path, game: &str, players: usize, index: u64) -> PathBuf {
    let name = crate::save::file_name_part(game);
    dir.join(format!("{name}-{players}p-{index:06}.ron"))
}
