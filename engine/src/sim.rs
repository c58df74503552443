//! Many games by bots, for balance: a report per player count of who wins from which seat,
//! scores, game length, how games end, and what was taken how often.
//!
//! Game `i` is seeded with `GameRng::derive_seed(seed, i)` and every statistic is summed in
//! exact integers (win shares in units of `1/lcm(1..=players)`), so the report is identical
//! for any number of threads and any scheduling. The game loop is generic over the rules
//! (no dynamic dispatch, agents are an enum), reuses one legal-action buffer per worker and
//! discards events ([`NoEvents`]): nothing is allocated per move unless games are recorded
//! or [`SimConfig::detail`] asks for the statistics that read every move.
//!
//! The statistics themselves live in [`crate::stats`]; a run may be one slice
//! ([`SimConfig::shard`]) of a bigger one, whose reports [`crate::stats::merge`] adds up.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::agent::{self, Agent, AgentKind, BuiltinAgent};
use crate::digest::short_digest;
use crate::game::{NoEvents, Outcome, Rules, Setup};
use crate::replay::{Replay, Step};
use crate::rng::GameRng;
use crate::seats::seat_name;
use crate::stats::{Histogram, ItemTotals, Totals};
pub use crate::stats::{PlayersReport, Report, SeatReport, Shard, TallyReport, wilson};

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
    /// Run only this slice of the game indices (game `i` is the same game either way).
    pub shard: Option<Shard>,
    /// Also gather what costs work on every move: moves by kind, and lead changes (scores
    /// read through [`Rules::inspect`] after each move).
    pub detail: bool,
}

impl SimConfig {
    pub fn new(players: Vec<usize>, games: u64, seed: u64) -> Self {
        SimConfig {
            players,
            games,
            seed,
            agents: Vec::new(),
            record: false,
            max_moves: MAX_MOVES,
            shard: None,
            detail: false,
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

    /// The game indices this run plays.
    pub fn indices(&self) -> std::ops::Range<u64> {
        match self.shard {
            Some(shard) => shard.range(self.games),
            None => 0..self.games,
        }
    }
}

/// End reasons the engine itself gives to games that did not finish; they count towards
/// `games` but not `completed`, wins or scores.
pub const MOVE_LIMIT: &str = "(move limit)";
pub const NO_LEGAL_MOVE: &str = "(no legal move)";
pub const SEAT_OUT_OF_RANGE: &str = "(seat out of range)";

/// The most moves a game may have: `grail sim` abandons a game past it ([`MOVE_LIMIT`]),
/// `grail play` stops one with an error. A save of that many moves stays within
/// [`crate::replay::MAX_REPLAY_BYTES`] when its move lines average at most 167 bytes
/// (`docs/replays.md`, "Saves").
pub const MAX_MOVES: u32 = 100_000;

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
    /// A game reached a position where nobody can move and no end condition holds, or a
    /// move failed (`why.code` says which).
    Stuck {
        players: usize,
        index: u64,
        why: crate::game::Stuck,
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
            SimError::Stuck {
                players,
                index,
                why,
            } if why.code == "game-stuck" => {
                write!(f, "game {index} with {players} players is stuck: {why}")
            }
            SimError::Stuck {
                players,
                index,
                why,
            } => write!(f, "game {index} with {players} players stopped: {why}"),
        }
    }
}

impl std::error::Error for SimError {}

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
    let indices = config.indices();
    for &players in &config.players {
        let chunks = (indices.end - indices.start).div_ceil(CHUNK);
        let total = (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let first = indices.start + chunk * CHUNK;
                let last = (first + CHUNK).min(indices.end);
                run_chunk(rules, config, players, first..last, hooks, &finished)
            })
            .try_reduce(|| Totals::new(players), |a, b| Ok(a.merge(&b)))?;
        results.push(total.report(players, |seat| config.agent(seat).to_string()));
    }
    Ok(Report {
        game: rules.game_id().to_string(),
        variant: rules.variant().map(str::to_string),
        content_hash: None,
        seed: config.seed,
        games: config.games,
        players: config.players.clone(),
        max_moves: config.max_moves,
        detail: config.detail,
        shard: config.shard,
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
) -> Result<Totals, SimError> {
    let mut agents: Vec<BuiltinAgent<R>> = (0..players).map(|s| config.agent(s).build(0)).collect();
    let mut room = Room {
        legal: Vec::with_capacity(64),
        spare: None,
    };
    let mut tally = Totals::new(players);
    let mut shared = SharedTallies::default();
    let record = config.record && hooks.record.is_some();
    let mut detail = config.detail.then(|| Detail::new(players));
    for index in games {
        let seed = GameRng::derive_seed(config.seed, index);
        let setup = Setup::new(players, seed);
        let max = config.max_moves;
        let ((end, moves), steps) = match (record, detail.as_mut()) {
            (true, Some(d)) => {
                let mut both = (Vec::new(), d);
                let end = play_game(rules, &setup, index, &mut agents, &mut room, max, &mut both)?;
                (end, Some(both.0))
            }
            (true, None) => {
                let mut steps = Vec::new();
                let end = play_game(
                    rules,
                    &setup,
                    index,
                    &mut agents,
                    &mut room,
                    max,
                    &mut steps,
                )?;
                (end, Some(steps))
            }
            (false, Some(d)) => (
                play_game(rules, &setup, index, &mut agents, &mut room, max, d)?,
                None,
            ),
            (false, None) => (
                play_game(
                    rules,
                    &setup,
                    index,
                    &mut agents,
                    &mut room,
                    max,
                    &mut NoRecord,
                )?,
                None,
            ),
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
        add_game(&mut tally, &mut shared, end, moves, detail.as_mut());
        if let Some(progress) = hooks.progress {
            progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
        }
    }
    shared.fold_into(&mut tally);
    Ok(tally)
}

/// A chunk's tallies under names the rules share (an `Arc` they keep and hand out game after
/// game): found among a few by pointer, not by comparing strings in the totals' maps at every
/// tally of every game; folded into the totals when the chunk ends. A name made afresh for
/// each game goes to the maps directly.
#[derive(Default)]
struct SharedTallies(Vec<(Arc<str>, Arc<str>, ItemTotals)>);

impl SharedTallies {
    /// At most this many names are kept; the rest go to the maps.
    const MOST: usize = 256;

    /// The totals of `kind` and `item`, when both are shared names.
    #[inline]
    fn find(&mut self, kind: &Arc<str>, item: &Arc<str>) -> Option<&mut ItemTotals> {
        let same = |(k, i, _): &(Arc<str>, Arc<str>, ItemTotals)| {
            Arc::ptr_eq(k, kind) && Arc::ptr_eq(i, item)
        };
        let at = match self.0.iter().position(same) {
            Some(at) => at,
            // Held by the rules as well as by this outcome: it comes again.
            None if Arc::strong_count(kind) > 1
                && Arc::strong_count(item) > 1
                && self.0.len() < Self::MOST =>
            {
                self.0
                    .push((kind.clone(), item.clone(), ItemTotals::default()));
                self.0.len() - 1
            }
            None => return None,
        };
        Some(&mut self.0[at].2)
    }

    fn fold_into(self, t: &mut Totals) {
        for (kind, item, totals) in self.0 {
            let items = t.items.entry(kind.to_string()).or_default();
            items.entry(item.to_string()).or_default().merge(totals);
        }
    }
}

enum GameEnd {
    Over(Outcome),
    Abandoned(&'static str),
}

/// Where the game loop puts the moves of a recorded game: the move's text before it is
/// applied, the digest after. [`NoRecord`] compiles away.
trait Recorder<R: Rules> {
    const ON: bool;
    fn start(&mut self) {}
    fn before(&mut self, rules: &R, state: &R::State, action: &R::Action, seat: usize);
    fn after(&mut self, rules: &R, state: &R::State);
}

struct NoRecord;

impl<R: Rules> Recorder<R> for NoRecord {
    const ON: bool = false;
    #[inline]
    fn before(&mut self, _: &R, _: &R::State, _: &R::Action, _: usize) {}
    #[inline]
    fn after(&mut self, _: &R, _: &R::State) {}
}

impl<R: Rules> Recorder<R> for Vec<Step> {
    const ON: bool = true;
    fn before(&mut self, rules: &R, state: &R::State, action: &R::Action, _: usize) {
        self.push(Step::Move(
            rules.format_action(state, action),
            String::new(),
        ));
    }
    fn after(&mut self, _: &R, state: &R::State) {
        if let Some(Step::Move(_, digest)) = self.last_mut() {
            *digest = short_digest(state);
        }
    }
}

/// What one game leaves for the next of a chunk to reuse: the legal moves' buffer and the
/// finished state (its storage; see [`Rules::setup_into`]).
struct Room<R: Rules> {
    legal: Vec<R::Action>,
    spare: Option<R::State>,
}

/// One game, start to end: the hot loop. Returns how it ended and the moves made.
fn play_game<R: Rules, Rec: Recorder<R>>(
    rules: &R,
    setup: &Setup,
    index: u64,
    agents: &mut [BuiltinAgent<R>],
    room: &mut Room<R>,
    max_moves: u32,
    rec: &mut Rec,
) -> Result<(GameEnd, u32), SimError> {
    let state = match room.spare.take() {
        Some(spare) => rules.setup_into(setup, spare),
        None => rules.setup(setup),
    };
    let mut state = state.map_err(|message| SimError::Setup {
        players: setup.players,
        index,
        message,
    })?;
    let legal = &mut room.legal;
    // The moves, in a block so that the state goes back to the room however the game ends.
    let end = 'game: {
        for (seat, agent) in agents.iter_mut().enumerate() {
            agent.reset(agent::agent_seed(setup.seed, seat));
        }
        let mut observer = agent::Observer::for_game(setup.seed);
        if Rec::ON {
            rec.start();
        }
        let mut moves = 0u32;
        while let Some(seat) = rules.to_move(&state) {
            if moves >= max_moves {
                break 'game Ok((GameEnd::Abandoned(MOVE_LIMIT), moves));
            }
            let Some(agent) = agents.get_mut(seat) else {
                break 'game Ok((GameEnd::Abandoned(SEAT_OUT_OF_RANGE), moves));
            };
            // An agent that picks by number (random) reads only the move it picks, when the
            // state keeps its moves counted.
            let by_count = agent::decide_by_count(rules, &state, agent);
            let action = match by_count
                .and_then(|(i, count)| (count > 0).then(|| rules.listed_nth(&state, i)).flatten())
            {
                Some(action) => action,
                None => {
                    // Read in place when the state keeps its moves listed: nothing copied
                    // but the move.
                    let listed = match rules.listed(&state) {
                        Some(listed) => listed,
                        None => {
                            rules.legal_actions(&state, legal);
                            &legal[..]
                        }
                    };
                    if listed.is_empty() {
                        break 'game stuck_or(rules, &state, setup.players, index, moves);
                    }
                    let i = agent::decide(rules, &state, seat, listed, agent, &mut observer);
                    listed[i].clone()
                }
            };
            if Rec::ON {
                rec.before(rules, &state, &action, seat);
            }
            rules.apply(&mut state, &action, &mut NoEvents);
            if Rec::ON {
                rec.after(rules, &state);
            }
            moves += 1;
        }
        match rules.outcome(&state) {
            Some(outcome) => Ok((GameEnd::Over(outcome), moves)),
            // `to_move` says over but `outcome` disagrees: stuck, or a rules bug.
            None => stuck_or(rules, &state, setup.players, index, moves),
        }
    };
    room.spare = Some(state);
    end
}

/// A game with no move and no outcome: an error when the rules can say which of their
/// rules left it stuck (a content mistake), else abandoned.
fn stuck_or<R: Rules>(
    rules: &R,
    state: &R::State,
    players: usize,
    index: u64,
    moves: u32,
) -> Result<(GameEnd, u32), SimError> {
    match rules.stuck(state) {
        Some(why) => Err(SimError::Stuck {
            players,
            index,
            why,
        }),
        None => Ok((GameEnd::Abandoned(NO_LEGAL_MOVE), moves)),
    }
}

/// Both a replay and the detailed statistics.
impl<R: Rules> Recorder<R> for (Vec<Step>, &mut Detail) {
    const ON: bool = true;
    fn start(&mut self) {
        Recorder::<R>::start(self.1);
    }
    fn before(&mut self, rules: &R, state: &R::State, action: &R::Action, seat: usize) {
        self.0.before(rules, state, action, seat);
        self.1.before(rules, state, action, seat);
    }
    fn after(&mut self, rules: &R, state: &R::State) {
        self.0.after(rules, state);
        self.1.after(rules, state);
    }
}

/// The statistics that read every move, for one game at a time: the kind of each move and
/// who made it, and how often the sole leader changed.
struct Detail {
    /// The kinds seen so far by this worker; moves refer to them by index.
    kinds: Vec<String>,
    moves: Vec<(usize, usize)>,
    scores: Vec<i64>,
    query: Vec<String>,
    leader: Option<usize>,
    /// `None` once the rules could not tell a score.
    lead_changes: Option<u32>,
}

impl Detail {
    fn new(players: usize) -> Self {
        Detail {
            kinds: Vec::new(),
            moves: Vec::new(),
            scores: vec![0; players],
            query: (0..players)
                .map(|s| format!("score {}", seat_name(s)))
                .collect(),
            leader: None,
            lead_changes: Some(0),
        }
    }
}

impl<R: Rules> Recorder<R> for Detail {
    const ON: bool = true;
    fn start(&mut self) {
        self.moves.clear();
        self.leader = None;
        self.lead_changes = Some(0);
    }
    fn before(&mut self, rules: &R, state: &R::State, action: &R::Action, seat: usize) {
        let text = rules.format_action(state, action);
        let kind = text.split_whitespace().next().unwrap_or("");
        let index = match self.kinds.iter().position(|k| k == kind) {
            Some(i) => i,
            None => {
                self.kinds.push(kind.to_string());
                self.kinds.len() - 1
            }
        };
        self.moves.push((index, seat));
    }
    fn after(&mut self, rules: &R, state: &R::State) {
        let Some(changes) = self.lead_changes.as_mut() else {
            return;
        };
        for (score, query) in self.scores.iter_mut().zip(&self.query) {
            match rules.inspect(state, query).map(|t| t.trim().parse::<i64>()) {
                Ok(Ok(x)) => *score = x,
                _ => {
                    self.lead_changes = None;
                    return;
                }
            }
        }
        let Some(&best) = self.scores.iter().max() else {
            return;
        };
        let mut leaders = self.scores.iter().enumerate().filter(|(_, s)| **s == best);
        if let (Some((leader, _)), None) = (leaders.next(), leaders.next()) {
            if self.leader.is_some_and(|l| l != leader) {
                *changes += 1;
            }
            self.leader = Some(leader);
        }
    }
}

/// Adds one game to the totals. Abandoned games count only as games and by their reason.
fn add_game(
    t: &mut Totals,
    shared: &mut SharedTallies,
    end: GameEnd,
    moves: u32,
    detail: Option<&mut Detail>,
) {
    t.games += 1;
    t.moves += u128::from(moves);
    let outcome = match end {
        GameEnd::Over(outcome) => outcome,
        GameEnd::Abandoned(reason) => {
            *t.end_reasons.entry(reason.to_string()).or_default() += 1;
            return;
        }
    };
    t.completed += 1;
    let players = t.seats.len();
    let winners = outcome.winners.iter().filter(|&&w| w < players).count() as u128;
    // The win units each seat earned this game.
    let units = |seat: usize| -> u128 {
        if outcome.winners.contains(&seat) && seat < players {
            t.unit / winners
        } else {
            0
        }
    };
    for seat in 0..players {
        let score = outcome.scores.get(seat).copied().unwrap_or(0);
        let won = units(seat);
        let s = &mut t.seats[seat];
        s.score.add(score);
        *s.score_histogram.entry(score).or_default() += 1;
        if won > 0 {
            s.win_units += won;
            if winners == 1 {
                s.sole_wins += 1;
            } else {
                s.shared_wins += 1;
            }
        }
    }
    t.turns.add(i64::from(outcome.turns));
    *t.turns_histogram.entry(outcome.turns).or_default() += 1;
    let unit = t.unit;
    match t.end_reasons.get_mut(&outcome.end) {
        Some(n) => *n += 1,
        None => {
            t.end_reasons.insert(outcome.end.clone(), 1);
        }
    }
    let by = |seat: Option<usize>, item: &mut ItemTotals| {
        if let Some(seat) = seat.filter(|&s| s < players) {
            item.by_seat += 1;
            if outcome.winners.contains(&seat) {
                item.winner_units += unit / winners;
            }
        }
    };
    for tally in &outcome.tallies {
        let item = match shared.find(&tally.kind, &tally.item) {
            Some(item) => item,
            None => {
                let items = match t.items.get_mut(&*tally.kind) {
                    Some(items) => items,
                    None => t.items.entry(tally.kind.to_string()).or_default(),
                };
                match items.get_mut(&*tally.item) {
                    Some(item) => item,
                    None => items.entry(tally.item.to_string()).or_default(),
                }
            }
        };
        item.count += 1;
        item.turns += u128::from(tally.turn);
        by(tally.seat, item);
    }
    if let Some(d) = detail {
        for &(kind, seat) in &d.moves {
            let kind = &d.kinds[kind];
            let item = match t.actions.get_mut(kind) {
                Some(item) => item,
                None => t.actions.entry(kind.clone()).or_default(),
            };
            item.count += 1;
            by(Some(seat), item);
        }
        if let Some(changes) = d.lead_changes {
            t.lead_changes
                .get_or_insert_with(Histogram::default)
                .add(changes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tally counts under its name whether the rules share the name's `Arc` (found by
    /// pointer, folded in at the chunk's end) or make it afresh (found in the maps).
    #[test]
    fn shared_and_fresh_tally_names_count_alike() {
        let kind: Arc<str> = "adventure".into();
        let item: Arc<str> = "robbers".into();
        let tally = |kind: Arc<str>, item: Arc<str>, seat| crate::game::Tally {
            kind,
            item,
            turn: 3,
            seat: Some(seat),
        };
        let game = |tallies| Outcome {
            scores: vec![1, 0],
            winners: vec![0],
            end: "x".into(),
            turns: 9,
            tallies,
        };
        let mut t = Totals::new(2);
        let mut shared = SharedTallies::default();
        let games = [
            vec![
                tally(kind.clone(), item.clone(), 0),
                tally(kind.clone(), item.clone(), 1),
            ],
            vec![tally("adventure".into(), "robbers".into(), 0)],
            vec![tally(kind.clone(), item.clone(), 1)],
        ];
        for tallies in games {
            add_game(&mut t, &mut shared, GameEnd::Over(game(tallies)), 5, None);
        }
        assert_eq!(shared.0.len(), 1, "the shared name is kept once");
        shared.fold_into(&mut t);
        let robbers = t.items["adventure"]["robbers"];
        assert_eq!((robbers.count, robbers.turns, robbers.by_seat), (4, 12, 4));
        // Seat 0 won each game: two of the four tallies are the winner's, a whole win each.
        assert_eq!(robbers.winner_units, 2 * t.unit);
        assert_eq!(t.items.len(), 1);
    }

    #[test]
    fn shared_wins_split_exactly() {
        assert_eq!(crate::stats::lcm_upto(4), 12);
        assert_eq!(crate::stats::lcm_upto(5), 60);
        let mut t = Totals::new(3);
        let outcome = |winners: Vec<usize>| Outcome {
            scores: vec![1, 1, 1],
            winners,
            end: "x".into(),
            turns: 1,
            tallies: vec![],
        };
        let mut shared = SharedTallies::default();
        add_game(
            &mut t,
            &mut shared,
            GameEnd::Over(outcome(vec![0, 1, 2])),
            5,
            None,
        );
        add_game(
            &mut t,
            &mut shared,
            GameEnd::Over(outcome(vec![0])),
            5,
            None,
        );
        let r = t.report(3, |_| "random".into());
        let wins: Vec<f64> = r.seats.iter().map(|s| s.wins).collect();
        assert_eq!(wins, vec![1.3333, 0.3333, 0.3333]);
        assert_eq!((r.seats[0].sole_wins, r.seats[0].shared_wins), (1, 1));
    }
}
