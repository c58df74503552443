//! Many games by bots, for balance: a report per player count of who wins from which seat,
//! scores, game length, how games end, and what was taken how often.
//!
//! Game `i` is seeded with `GameRng::derive_seed(seed, i)` and every statistic is summed in
//! exact integers (win shares in units of `1/lcm(1..=players)`), so the report is identical
//! for any number of threads and any scheduling. The game loop is generic over the rules
//! (no dynamic dispatch, agents are an enum), reuses one legal-action buffer per worker and
//! discards events ([`NoEvents`]): nothing is allocated per move unless games are recorded.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use crate::agent::{self, Agent, AgentKind, BuiltinAgent};
use crate::digest::short_digest;
use crate::game::{NoEvents, Outcome, Rules, Setup};
use crate::replay::{Replay, Step};
use crate::rng::GameRng;
use crate::seats::seat_name;

/// Games run per work item: big enough to amortise setting up agents, small enough to
/// balance across threads.
const CHUNK: u64 = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimConfig {
    /// Player counts to simulate, each reported on its own.
    pub players: Vec<usize>,
    /// Games per player count.
    pub games: u64,
    pub seed: u64,
    /// The agent of each seat; the list is repeated to fill the table (`[greedy, random]`
    /// at four seats: greedy, random, greedy, random). Empty: all random.
    pub agents: Vec<AgentKind>,
    /// Build a [`Replay`] of every game for [`SimHooks::record`].
    pub record: bool,
    /// A game still running after this many moves is abandoned (reported under the end
    /// reason [`MOVE_LIMIT`]), so a rules bug cannot hang a run.
    pub max_moves: u32,
}

impl SimConfig {
    pub fn new(players: Vec<usize>, games: u64, seed: u64) -> Self {
        SimConfig {
            players,
            games,
            seed,
            agents: Vec::new(),
            record: false,
            max_moves: 100_000,
        }
    }

    /// The agent at `seat`.
    pub fn agent(&self, seat: usize) -> AgentKind {
        if self.agents.is_empty() {
            AgentKind::Random
        } else {
            self.agents[seat % self.agents.len()]
        }
    }
}

/// End reasons the engine itself gives to games that did not finish; they count towards
/// `games` but not `completed`, wins or scores.
pub const MOVE_LIMIT: &str = "(move limit)";
pub const NO_LEGAL_MOVE: &str = "(no legal move)";
pub const SEAT_OUT_OF_RANGE: &str = "(seat out of range)";

/// Callbacks from the workers (called from several threads at once).
#[derive(Clone, Copy, Default)]
pub struct SimHooks<'a> {
    /// Games finished so far, over all player counts.
    pub progress: Option<&'a (dyn Fn(u64) + Sync)>,
    /// Each recorded game (only with [`SimConfig::record`]), in no particular order.
    pub record: Option<&'a (dyn Fn(GameRecord) + Sync)>,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub players: usize,
    pub index: u64,
    pub replay: Replay,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    Players {
        players: usize,
        supported: (usize, usize),
    },
    Setup {
        players: usize,
        index: u64,
        message: String,
    },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Players { players, supported } => write!(
                f,
                "this game is for {} to {} players, not {players}",
                supported.0, supported.1
            ),
            SimError::Setup {
                players,
                index,
                message,
            } => write!(
                f,
                "game {index} with {players} players could not be set up: {message}"
            ),
        }
    }
}

impl std::error::Error for SimError {}

/// The balance report. Serialised as is for `--format json`; holds no timings, so the same
/// command gives the same bytes. Means and rates are rounded to 4 decimals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub game: String,
    pub variant: Option<String>,
    pub seed: u64,
    /// Games per player count.
    pub games: u64,
    pub players: Vec<usize>,
    pub results: Vec<PlayersReport>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayersReport {
    pub players: usize,
    pub games: u64,
    /// Games that ended by the rules (the rest were abandoned, see the end reasons).
    pub completed: u64,
    pub seats: Vec<SeatReport>,
    pub mean_turns: f64,
    pub sd_turns: f64,
    /// Decisions per game, all seats together.
    pub mean_moves: f64,
    pub end_reasons: BTreeMap<String, u64>,
    pub tallies: Vec<TallyReport>,
}

/// One seat's results. A shared win counts as a fraction: `k` winners get `1/k` each, so
/// `wins` sums to `completed` over the seats. `sole_wins` and `shared_wins` count games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatReport {
    pub seat: String,
    pub agent: String,
    pub wins: f64,
    pub sole_wins: u64,
    pub shared_wins: u64,
    /// `wins / completed`, with its 95% Wilson score interval.
    pub win_rate: f64,
    pub win_rate_low: f64,
    pub win_rate_high: f64,
    pub mean_score: f64,
    pub sd_score: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TallyReport {
    pub kind: String,
    pub item: String,
    /// Times it happened over all completed games.
    pub count: u64,
    pub per_game: f64,
    pub mean_turn: f64,
}

/// Runs the simulation on the current rayon pool (call inside `ThreadPool::install` to
/// choose the threads).
pub fn simulate<R: Rules>(
    rules: &R,
    config: &SimConfig,
    hooks: SimHooks<'_>,
) -> Result<Report, SimError> {
    let supported = rules.players();
    for &players in &config.players {
        if !supported.contains(&players) {
            return Err(SimError::Players {
                players,
                supported: (*supported.start(), *supported.end()),
            });
        }
    }
    let finished = AtomicU64::new(0);
    let mut results = Vec::new();
    for &players in &config.players {
        let chunks = config.games.div_ceil(CHUNK);
        let total = (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let first = chunk * CHUNK;
                let last = (first + CHUNK).min(config.games);
                run_chunk(rules, config, players, first..last, hooks, &finished)
            })
            .try_reduce(|| Tally::new(players), |a, b| Ok(a.merge(b)))?;
        results.push(total.report(config, players));
    }
    Ok(Report {
        game: rules.game_id().to_string(),
        variant: rules.variant().map(str::to_string),
        seed: config.seed,
        games: config.games,
        players: config.players.clone(),
        results,
    })
}

fn run_chunk<R: Rules>(
    rules: &R,
    config: &SimConfig,
    players: usize,
    games: std::ops::Range<u64>,
    hooks: SimHooks<'_>,
    finished: &AtomicU64,
) -> Result<Tally, SimError> {
    let mut agents: Vec<BuiltinAgent<R>> = (0..players).map(|s| config.agent(s).build(0)).collect();
    let mut legal = Vec::with_capacity(64);
    let mut tally = Tally::new(players);
    let record = config.record && hooks.record.is_some();
    for index in games {
        let seed = GameRng::derive_seed(config.seed, index);
        let setup = Setup::new(players, seed);
        let max = config.max_moves;
        let ((end, moves), steps) = if record {
            let mut steps = Vec::new();
            let end = play_game(
                rules,
                &setup,
                index,
                &mut agents,
                &mut legal,
                max,
                &mut steps,
            )?;
            (end, Some(steps))
        } else {
            let end = play_game(
                rules,
                &setup,
                index,
                &mut agents,
                &mut legal,
                max,
                &mut NoRecord,
            )?;
            (end, None)
        };
        if let (Some(mut steps), Some(sink)) = (steps, hooks.record) {
            if let GameEnd::Over(outcome) = &end {
                steps.push(Step::End {
                    reason: Some(outcome.end.clone()),
                    scores: Some(outcome.scores.clone()),
                    winners: Some(outcome.winners.iter().map(|&s| seat_name(s)).collect()),
                });
            }
            sink(GameRecord {
                players,
                index,
                replay: Replay {
                    game: rules.game_id().to_string(),
                    variant: rules.variant().map(str::to_string),
                    content_hash: None,
                    players,
                    seed,
                    stack: BTreeMap::new(),
                    position: BTreeMap::new(),
                    agents: Some((0..players).map(|s| config.agent(s).to_string()).collect()),
                    steps,
                },
            });
        }
        tally.add(end, moves);
        if let Some(progress) = hooks.progress {
            progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
        }
    }
    Ok(tally)
}

enum GameEnd {
    Over(Outcome),
    Abandoned(&'static str),
}

/// Where the game loop puts the moves of a recorded game: the move's text before it is
/// applied, the digest after. [`NoRecord`] compiles away.
trait Recorder<R: Rules> {
    const ON: bool;
    fn before(&mut self, rules: &R, state: &R::State, action: &R::Action);
    fn after(&mut self, state: &R::State);
}

struct NoRecord;

impl<R: Rules> Recorder<R> for NoRecord {
    const ON: bool = false;
    #[inline]
    fn before(&mut self, _: &R, _: &R::State, _: &R::Action) {}
    #[inline]
    fn after(&mut self, _: &R::State) {}
}

impl<R: Rules> Recorder<R> for Vec<Step> {
    const ON: bool = true;
    fn before(&mut self, rules: &R, state: &R::State, action: &R::Action) {
        self.push(Step::Move(
            rules.format_action(state, action),
            String::new(),
        ));
    }
    fn after(&mut self, state: &R::State) {
        if let Some(Step::Move(_, digest)) = self.last_mut() {
            *digest = short_digest(state);
        }
    }
}

/// One game, start to end: the hot loop. Returns how it ended and the moves made.
fn play_game<R: Rules, Rec: Recorder<R>>(
    rules: &R,
    setup: &Setup,
    index: u64,
    agents: &mut [BuiltinAgent<R>],
    legal: &mut Vec<R::Action>,
    max_moves: u32,
    rec: &mut Rec,
) -> Result<(GameEnd, u32), SimError> {
    let mut state = rules.setup(setup).map_err(|message| SimError::Setup {
        players: setup.players,
        index,
        message,
    })?;
    for (seat, agent) in agents.iter_mut().enumerate() {
        agent.reset(agent::agent_seed(setup.seed, seat));
    }
    let mut observer = agent::Observer::for_game(setup.seed);
    let mut moves = 0u32;
    while let Some(seat) = rules.to_move(&state) {
        if moves >= max_moves {
            return Ok((GameEnd::Abandoned(MOVE_LIMIT), moves));
        }
        let Some(agent) = agents.get_mut(seat) else {
            return Ok((GameEnd::Abandoned(SEAT_OUT_OF_RANGE), moves));
        };
        rules.legal_actions(&state, legal);
        if legal.is_empty() {
            return Ok((GameEnd::Abandoned(NO_LEGAL_MOVE), moves));
        }
        let i = agent::decide(rules, &state, seat, legal, agent, &mut observer);
        let action = &legal[i];
        if Rec::ON {
            rec.before(rules, &state, action);
        }
        rules.apply(&mut state, action, &mut NoEvents);
        if Rec::ON {
            rec.after(&state);
        }
        moves += 1;
    }
    match rules.outcome(&state) {
        Some(outcome) => Ok((GameEnd::Over(outcome), moves)),
        // `to_move` says over but `outcome` disagrees: a rules bug, reported as abandoned.
        None => Ok((GameEnd::Abandoned(NO_LEGAL_MOVE), moves)),
    }
}

/// Exact sums over games; merging in any order gives the same totals.
#[derive(Clone, Debug, Default)]
struct Tally {
    /// `lcm(1..=players)`: a `k`-way shared win adds `unit / k` to each winner.
    unit: u128,
    games: u64,
    completed: u64,
    seats: Vec<SeatSums>,
    turns: Sums,
    moves: u128,
    end_reasons: BTreeMap<String, u64>,
    items: BTreeMap<String, BTreeMap<String, (u64, u128)>>,
}

#[derive(Clone, Debug, Default)]
struct SeatSums {
    win_units: u128,
    sole_wins: u64,
    shared_wins: u64,
    score: Sums,
}

/// Count, sum and sum of squares, exact.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    n: u64,
    sum: i128,
    squares: i128,
}

impl Sums {
    fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.squares += i128::from(x) * i128::from(x);
    }
    fn merge(&mut self, o: Sums) {
        self.n += o.n;
        self.sum += o.sum;
        self.squares += o.squares;
    }
    fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }
    /// Sample standard deviation (n − 1), 0 for fewer than two values.
    fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = i128::from(self.n);
        // n·Σx² − (Σx)² is exact; only the last division rounds.
        let numerator = n * self.squares - self.sum * self.sum;
        (numerator as f64 / (n * (n - 1)) as f64).max(0.0).sqrt()
    }
}

fn lcm_upto(n: usize) -> u128 {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    (1..=n as u128).fold(1, |acc, k| acc / gcd(acc, k) * k)
}

impl Tally {
    fn new(players: usize) -> Self {
        Tally {
            unit: lcm_upto(players.max(1)),
            seats: vec![SeatSums::default(); players],
            ..Tally::default()
        }
    }

    fn add(&mut self, end: GameEnd, moves: u32) {
        self.games += 1;
        self.moves += u128::from(moves);
        let outcome = match end {
            GameEnd::Over(outcome) => outcome,
            GameEnd::Abandoned(reason) => {
                *self.end_reasons.entry(reason.to_string()).or_default() += 1;
                return;
            }
        };
        self.completed += 1;
        for (seat, sums) in self.seats.iter_mut().enumerate() {
            sums.score
                .add(outcome.scores.get(seat).copied().unwrap_or(0));
        }
        let winners: Vec<usize> = outcome
            .winners
            .iter()
            .copied()
            .filter(|&w| w < self.seats.len())
            .collect();
        for &w in &winners {
            let s = &mut self.seats[w];
            s.win_units += self.unit / winners.len() as u128;
            if winners.len() == 1 {
                s.sole_wins += 1;
            } else {
                s.shared_wins += 1;
            }
        }
        self.turns.add(i64::from(outcome.turns));
        match self.end_reasons.get_mut(&outcome.end) {
            Some(n) => *n += 1,
            None => {
                self.end_reasons.insert(outcome.end, 1);
            }
        }
        for t in outcome.tallies {
            let items = self.items.entry(t.kind).or_default();
            let entry = match items.get_mut(&t.item) {
                Some(e) => e,
                None => items.entry(t.item).or_default(),
            };
            entry.0 += 1;
            entry.1 += u128::from(t.turn);
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        if self.seats.is_empty() {
            return other;
        }
        self.games += other.games;
        self.completed += other.completed;
        for (a, b) in self.seats.iter_mut().zip(other.seats) {
            a.win_units += b.win_units;
            a.sole_wins += b.sole_wins;
            a.shared_wins += b.shared_wins;
            a.score.merge(b.score);
        }
        self.turns.merge(other.turns);
        self.moves += other.moves;
        for (reason, n) in other.end_reasons {
            *self.end_reasons.entry(reason).or_default() += n;
        }
        for (kind, items) in other.items {
            let mine = self.items.entry(kind).or_default();
            for (item, (count, turns)) in items {
                let e = mine.entry(item).or_default();
                e.0 += count;
                e.1 += turns;
            }
        }
        self
    }

    fn report(self, config: &SimConfig, players: usize) -> PlayersReport {
        let completed = self.completed;
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(seat, s)| {
                let wins = s.win_units as f64 / self.unit as f64;
                let rate = if completed == 0 {
                    0.0
                } else {
                    wins / completed as f64
                };
                let (low, high) = wilson(rate, completed);
                SeatReport {
                    seat: seat_name(seat),
                    agent: config.agent(seat).to_string(),
                    wins: round4(wins),
                    sole_wins: s.sole_wins,
                    shared_wins: s.shared_wins,
                    win_rate: round4(rate),
                    win_rate_low: round4(low),
                    win_rate_high: round4(high),
                    mean_score: round4(s.score.mean()),
                    sd_score: round4(s.score.sd()),
                }
            })
            .collect();
        let tallies = self
            .items
            .into_iter()
            .flat_map(|(kind, items)| {
                items
                    .into_iter()
                    .map(move |(item, (count, turns))| TallyReport {
                        kind: kind.clone(),
                        item,
                        count,
                        per_game: round4(ratio(count as f64, completed)),
                        mean_turn: round4(ratio(turns as f64, count)),
                    })
            })
            .collect();
        PlayersReport {
            players,
            games: self.games,
            completed,
            seats,
            mean_turns: round4(self.turns.mean()),
            sd_turns: round4(self.turns.sd()),
            mean_moves: round4(ratio(self.moves as f64, self.games)),
            end_reasons: self.end_reasons,
            tallies,
        }
    }
}

fn ratio(x: f64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { x / n as f64 }
}

fn round4(x: f64) -> f64 {
    let r = (x * 10_000.0).round() / 10_000.0;
    // No "-0" in reports.
    if r == 0.0 { 0.0 } else { r }
}

/// The 95% Wilson score interval of a rate `p` over `n` trials; `(0, 0)` for no trials.
pub fn wilson(p: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = n as f64;
    let z2 = Z * Z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).max(0.0).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_worked_example() {
        // 50 of 100: the textbook interval is about [0.4038, 0.5962].
        let (lo, hi) = wilson(0.5, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0.0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4, "{hi}");
        assert_eq!(wilson(0.3, 0), (0.0, 0.0));
    }

    #[test]
    fn sums_give_exact_mean_and_sample_sd() {
        let mut s = Sums::default();
        for x in [2, 4, 4, 4, 5, 5, 7, 9] {
            s.add(x);
        }
        assert_eq!(s.mean(), 5.0);
        assert!((s.sd() - 2.138_089_935).abs() < 1e-9);
    }

    #[test]
    fn shared_wins_split_exactly() {
        assert_eq!(lcm_upto(4), 12);
        assert_eq!(lcm_upto(5), 60);
        let mut t = Tally::new(3);
        let outcome = |winners: Vec<usize>| Outcome {
            scores: vec![1, 1, 1],
            winners,
            end: "x".into(),
            turns: 1,
            tallies: vec![],
        };
        t.add(GameEnd::Over(outcome(vec![0, 1, 2])), 5);
        t.add(GameEnd::Over(outcome(vec![0])), 5);
        let r = t.report(&SimConfig::new(vec![3], 2, 0), 3);
        let wins: Vec<f64> = r.seats.iter().map(|s| s.wins).collect();
        assert_eq!(wins, vec![1.3333, 0.3333, 0.3333]);
        assert_eq!((r.seats[0].sole_wins, r.seats[0].shared_wins), (1, 1));
    }
}
