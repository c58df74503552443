//! The balance report of a game, simulated on request: the page `grail report` writes.

use grail_engine::agent::AgentKind;
use serde::Deserialize;

use super::tables::{Refusal, Tables};
use crate::sim::{Format, Games, PlayerCounts, SimArgs};

/// At most this many games per player count are simulated for a page.
const MAX_GAMES: u64 = 20_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportQuery {
    pub game: String,
    #[serde(default)]
    pub variant: Option<String>,
    /// One count (`4`), a range (`2-5`) or a list (`2,4`); default: every count.
    #[serde(default)]
    pub players: Option<String>,
    #[serde(default)]
    pub games: Option<u64>,
    /// Agents by seat (`greedy,random`); default: random.
    #[serde(default)]
    pub agents: Option<String>,
    #[serde(default)]
    pub seed: Option<u64>,
}

/// The report's page, or why it cannot be made.
pub fn page(tables: &Tables, q: &ReportQuery) -> Result<String, Refusal> {
    let game = tables.open(&q.game, q.variant.as_deref())?;
    let games = q.games.unwrap_or(500);
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(Refusal::bad(
            "bad-games",
            format!("a page simulates 1 to {MAX_GAMES} games per player count, not {games}"),
        ));
    }
    let players = match &q.players {
        None => None,
        Some(text) => {
            Some(crate::sim::parse_counts(text).map_err(|e| Refusal::bad("bad-players", e))?)
        }
    };
    let agents = match &q.agents {
        None => Vec::new(),
        Some(list) => (list.split(','))
            .map(|a| {
                a.parse::<AgentKind>()
                    .map_err(|e| Refusal::bad("unknown-bot", e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let args = SimArgs {
        game: q.game.clone(),
        variant: q.variant.clone(),
        games: Games {
            players: players.map(|p: PlayerCounts| p),
            games,
            seed: q.seed.unwrap_or(1),
            agents,
            threads: None,
        },
        record: None,
        format: Format::Json,
        shard: None,
        detail: true,
    };
    let report = crate::sim::run_games(game, &args, false)
        .map_err(|e| Refusal::bad("cannot-simulate", e.to_string()))?;
    Ok(crate::report::command::page(&[report]))
}
