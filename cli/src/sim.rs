//! `grail sim`: many games by bots, reported per player count.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};
use grail_engine::agent::AgentKind;
use grail_engine::facade::DynGame;
use grail_engine::sim::{GameRecord, Report, Shard, SimConfig, SimHooks};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::exit::{CliResult, failure, usage};
use crate::games::open_game;
use crate::report;

#[derive(Args, Debug)]
pub struct SimArgs {
    /// A bundled game id or a pack folder (`grail list` shows the games).
    pub game: String,
    /// A variant of the game (`grail list` shows each game's variants).
    #[arg(long)]
    pub variant: Option<String>,
    #[command(flatten)]
    pub games: Games,
    /// Write every game as a replay file into this folder.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// How to print the report.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Play only the I-th of N disjoint slices of the games (`--shard 2/8`), for a batch
    /// job; `grail merge` adds the shards' JSON reports up into the whole run's report.
    #[arg(long, value_parser = parse_shard, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Also gather the statistics that read every move (moves by kind and how often the
    /// winner made them, lead changes); slower.
    #[arg(long)]
    pub detail: bool,
}

/// Which games a simulation plays and who plays them: what `sim`, `sweep` and `report`
/// share.
#[derive(Args, Clone, Debug)]
pub struct Games {
    /// Player counts: one (`4`), a range (`2-5`) or a list (`2,4`). Default: every count
    /// the game supports.
    #[arg(long, value_parser = parse_counts)]
    pub players: Option<PlayerCounts>,
    /// Games per player count (a sweep: per player count and combination; at least 1).
    #[arg(long, default_value_t = 1000, value_parser = at_least_one::<u64>)]
    pub games: u64,
    /// The seed the games are dealt from: the same seed gives the same results (a sweep
    /// plays every combination from the same seeds).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Agents by seat, a list repeated to fill the table (`greedy,random`). Default: random.
    /// `ismcts:N` searches N iterations per move (reproducible), `ismcts:Tms` T milliseconds
    /// (games then depend on the machine's speed and are not reproducible);
    /// `ismcts:N:C:ROLLOUT:D` also sets the exploration constant, the rollouts (`random`,
    /// `greedy`, `greedy/E` with a chance E of a random move) and their depth in decisions
    /// (`end`: to the end of the game). `ismcts` alone is `ismcts:300:0.4:greedy:10`.
    #[arg(long, value_delimiter = ',', value_parser = agent_parser(), value_name = "AGENT,...")]
    pub agents: Vec<AgentKind>,
    /// Worker threads, at least 1 (default: one per core). The results are the same for
    /// any number.
    #[arg(long, value_parser = at_least_one::<usize>)]
    pub threads: Option<usize>,
}

/// `I/N`, 1 ≤ I ≤ N.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || format!("`{s}` is not a shard: write I/N with 1 <= I <= N, e.g. 2/8");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (index, count) = (
        i.trim().parse::<u64>().map_err(|_| bad())?,
        n.trim().parse::<u64>().map_err(|_| bad())?,
    );
    if index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
}

/// The agents by name, for `--agents` and `--bots`: clap lists them in the help, completes
/// them and suggests the nearest for a misspelt one. `ismcts:…` (a budget) is parsed here.
pub fn agent_parser() -> AgentParser {
    AgentParser
}

#[derive(Clone, Copy, Debug)]
pub struct AgentParser;

impl TypedValueParser for AgentParser {
    type Value = AgentKind;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<AgentKind, clap::Error> {
        let text = value.to_string_lossy();
        let parameterised = text
            .trim()
            .get(..7)
            .is_some_and(|head| head.eq_ignore_ascii_case("ismcts:"));
        if !parameterised {
            return PossibleValuesParser::new(AgentKind::NAMES)
                .try_map(|name| name.parse::<AgentKind>())
                .parse_ref(cmd, arg, value);
        }
        text.parse::<AgentKind>().map_err(|e| {
            use clap::error::{ContextKind, ContextValue, ErrorKind};
            let mut err = clap::Error::raw(ErrorKind::InvalidValue, format!("{e}\n")).with_cmd(cmd);
            let name = arg.map_or_else(|| "--agents".to_string(), |a| a.to_string());
            err.insert(ContextKind::InvalidArg, ContextValue::String(name));
            err
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            AgentKind::NAMES
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// A count that must be at least 1 (`--games`, `--threads`): zero would do nothing.
pub fn at_least_one<N: std::str::FromStr + PartialOrd + From<u8>>(s: &str) -> Result<N, String> {
    match s.trim().parse::<N>() {
        Ok(n) if n >= N::from(1) => Ok(n),
        _ => Err(format!("`{s}` is not a number of at least 1")),
    }
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
    let game = open_game(content, &args.game, args.variant.as_deref())?;
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
    let report = run_games(game, args, show_progress)?;
    let text = render(&report, args.format)?;
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Simulates the games `args` asks for (checking the player counts and counts), with a
/// progress bar on the terminal if `show_progress`.
pub fn run_games(
    game: &dyn DynGame,
    args: &SimArgs,
    show_progress: bool,
) -> Result<Report, crate::exit::CliError> {
    let range = game.players();
    let players = args
        .games
        .players
        .clone()
        .map(|p| p.0)
        .unwrap_or_else(|| range.clone().collect());
    if let Some(&bad) = players.iter().find(|p| !range.contains(p)) {
        return Err(players_out_of_range(game, bad));
    }
    let Games {
        games,
        seed,
        threads,
        ..
    } = args.games;
    if games == 0 || threads == Some(0) {
        return Err(usage(
            "invalid-value",
            "--games and --threads must be at least 1",
        ));
    }
    if let Some(dir) = &args.record {
        std::fs::create_dir_all(dir).map_err(|e| {
            failure(
                "cannot-write",
                format!("cannot create {}: {e}", dir.display()),
            )
        })?;
    }
    let mut config = SimConfig::new(players.clone(), games, seed);
    config.agents = args.games.agents.clone();
    config.record = args.record.is_some();
    config.shard = args.shard;
    config.detail = args.detail;

    let indices = config.indices();
    let total = (indices.end - indices.start).saturating_mul(players.len() as u64);
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
    let threads = threads.map(|n| {
        n.min(usize::try_from(total).unwrap_or(usize::MAX).max(1))
            .min(MAX_THREADS)
    });
    let result = match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| failure("no-threads", format!("cannot start {n} threads: {e}")))?
            .install(|| game.simulate(&config, hooks)),
        None => game.simulate(&config, hooks),
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = result.map_err(|e| match e {
        grail_engine::sim::SimError::Stuck { ref why, .. } => failure(why.code, e.to_string()),
        _ => failure("game-failed", e.to_string()),
    })?;
    if let Some(e) = write_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(failure("cannot-write", e));
    }
    Ok(report)
}

/// A report as text, JSON or CSV.
pub fn render(report: &Report, format: Format) -> Result<String, crate::exit::CliError> {
    Ok(match format {
        Format::Text => report::text(report),
        Format::Json => {
            let mut json = serde_json::to_string_pretty(report)
                .map_err(|e| failure("cannot-write", format!("cannot write JSON: {e}")))?;
            json.push('\n');
            json
        }
        Format::Csv => report::csv(report),
    })
}

/// `game` has no seat for `players` players: a usage error, the allowed range in the message.
pub fn players_out_of_range(game: &dyn DynGame, players: usize) -> crate::exit::CliError {
    let range = game.players();
    usage(
        "players-out-of-range",
        format!(
            "{} is for {} to {} players, not {players}",
            game.game_id(),
            range.start(),
            range.end()
        ),
    )
}

/// The most worker threads `--threads` starts, whatever it asks for.
const MAX_THREADS: usize = 256;

fn record_path(dir: &Path, game: &str, players: usize, index: u64) -> PathBuf {
    let name = crate::save::file_name_part(game);
    dir.join(format!("{name}-{players}p-{index:06}.ron"))
}
