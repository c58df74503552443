//! The exact statistics of a simulation, and the report derived from them.
//!
//! Everything a report says is computed from [`Totals`]: integer counts, sums, sums of
//! squares and histograms, which add up exactly in any order. A report carries its totals,
//! so the reports of disjoint slices of one run ([`crate::sim::SimConfig::shard`]) merge
//! ([`merge`]) into exactly the report of the whole run: the same totals, hence the same
//! rounded means and the same bytes.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::seats::seat_name;

/// The balance report. Serialised as is for `--format json`; holds no timings, so the same
/// command gives the same bytes. Means and rates are rounded to 4 decimals; `totals` holds
/// the exact sums they come from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub game: String,
    pub variant: Option<String>,
    /// The content hash of the pack the games were played with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
    pub seed: u64,
    /// Games per player count (of the whole run, when this is a shard).
    pub games: u64,
    pub players: Vec<usize>,
    /// Moves after which a game is abandoned.
    #[serde(default = "default_max_moves")]
    pub max_moves: u32,
    /// Gathered the costly statistics too (actions taken, lead changes).
    #[serde(default, skip_serializing_if = "is_false")]
    pub detail: bool,
    /// Which slice of the games this report covers; absent: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub results: Vec<PlayersReport>,
}

fn default_max_moves() -> u32 {
    100_000
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The `index`-th (1-based) of `count` disjoint slices of the game indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The game indices of this slice of `games`: contiguous, disjoint from the other
    /// slices, together all of `0..games`, sizes differing by at most one.
    pub fn range(self, games: u64) -> std::ops::Range<u64> {
        let at =
            |i: u64| (u128::from(games) * u128::from(i) / u128::from(self.count.max(1))) as u64;
        at(self.index.saturating_sub(1))..at(self.index.min(self.count))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// With `detail`: moves by kind (the first word of their notation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<TallyReport>,
    /// With `detail`: times per game the sole leader changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_lead_changes: Option<f64>,
    pub totals: Totals,
}

/// One seat's results. A shared win counts as a fraction: `k` winners get `1/k` each, so
/// `wins` sums to `completed` over the seats. `sole_wins` and `shared_wins` count games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TallyReport {
    pub kind: String,
    pub item: String,
    /// Times it happened over all completed games.
    pub count: u64,
    pub per_game: f64,
    pub mean_turn: f64,
    /// Of the times a seat did it, the share (shared wins split) done by the game's
    /// winner: above `1/players`, doing it goes with winning.
    #[serde(default)]
    pub winner_share: f64,
}

/// Exact sums over games, for one player count; merging in any order gives the same totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// `lcm(1..=players)`: a `k`-way shared win adds `unit / k` to each winner.
    pub unit: u128,
    pub games: u64,
    pub completed: u64,
    pub moves: u128,
    pub turns: Sums,
    /// Completed games by turns played.
    pub turns_histogram: BTreeMap<u32, u64>,
    pub seats: Vec<SeatTotals>,
    pub end_reasons: BTreeMap<String, u64>,
    /// The rules' tallies, by kind and item.
    pub items: BTreeMap<String, BTreeMap<String, ItemTotals>>,
    /// With `detail`: moves of completed games by kind.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub actions: BTreeMap<String, ItemTotals>,
    /// With `detail`: lead changes per completed game, and their histogram.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead_changes: Option<Histogram>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatTotals {
    pub win_units: u128,
    pub sole_wins: u64,
    pub shared_wins: u64,
    pub score: Sums,
    /// Completed games by this seat's final score.
    pub score_histogram: BTreeMap<i64, u64>,
}

/// How often something happened, when, and how often it was the eventual winner who did it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ItemTotals {
    pub count: u64,
    /// Sum of the turns it happened on.
    pub turns: u128,
    /// Times a seat did it (some tallies have no seat).
    pub by_seat: u64,
    /// Win units of the seat that did it, summed.
    pub winner_units: u128,
}

/// Count, sum and sum of squares, exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sums {
    pub n: u64,
    pub sum: i128,
    pub squares: i128,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    pub sums: Sums,
    pub counts: BTreeMap<u32, u64>,
}

impl Histogram {
    pub fn add(&mut self, x: u32) {
        self.sums.add(i64::from(x));
        *self.counts.entry(x).or_default() += 1;
    }
    fn merge(&mut self, o: &Histogram) {
        self.sums.merge(o.sums);
        add_counts(&mut self.counts, &o.counts);
    }
}

impl Sums {
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.squares += i128::from(x) * i128::from(x);
    }
    /// Saturates rather than overflow: totals read from a file may be anything.
    pub fn merge(&mut self, o: Sums) {
        self.n = self.n.saturating_add(o.n);
        self.sum = self.sum.saturating_add(o.sum);
        self.squares = self.squares.saturating_add(o.squares);
    }
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }
    /// Sample standard deviation (n − 1), 0 for fewer than two values.
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = i128::from(self.n);
        // n·Σx² − (Σx)² is exact; only the last division rounds. (Sums no game could give,
        // read from a file, fall back to floating point rather than overflow.)
        let exact = (n.checked_mul(self.squares))
            .zip(self.sum.checked_mul(self.sum))
            .and_then(|(a, b)| a.checked_sub(b));
        let numerator = match exact {
            Some(x) => x as f64,
            None => n as f64 * self.squares as f64 - (self.sum as f64).powi(2),
        };
        (numerator / (n as f64 * (n - 1) as f64)).max(0.0).sqrt()
    }
}

impl ItemTotals {
    pub(crate) fn merge(&mut self, o: ItemTotals) {
        self.count = self.count.saturating_add(o.count);
        self.turns = self.turns.saturating_add(o.turns);
        self.by_seat = self.by_seat.saturating_add(o.by_seat);
        self.winner_units = self.winner_units.saturating_add(o.winner_units);
    }
}

fn add_counts<K: Ord + Clone>(into: &mut BTreeMap<K, u64>, from: &BTreeMap<K, u64>) {
    for (k, n) in from {
        let e = into.entry(k.clone()).or_default();
        *e = e.saturating_add(*n);
    }
}

pub(crate) fn lcm_upto(n: usize) -> u128 {
    lcm_checked(n).unwrap_or(u128::MAX)
}

/// `lcm(1..=n)`, if it fits (up to 88 seats).
fn lcm_checked(n: usize) -> Option<u128> {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    (1..=n as u128).try_fold(1u128, |acc, k| (acc / gcd(acc, k)).checked_mul(k))
}

impl Totals {
    pub fn new(players: usize) -> Self {
        Totals {
            unit: lcm_upto(players.max(1)),
            seats: vec![SeatTotals::default(); players],
            ..Totals::default()
        }
    }

    /// Adds `other` (totals of the same player count) into `self`.
    pub fn merge(mut self, other: &Totals) -> Totals {
        if self.seats.is_empty() {
            return other.clone();
        }
        self.games = self.games.saturating_add(other.games);
        self.completed = self.completed.saturating_add(other.completed);
        for (a, b) in self.seats.iter_mut().zip(&other.seats) {
            a.win_units = a.win_units.saturating_add(b.win_units);
            a.sole_wins = a.sole_wins.saturating_add(b.sole_wins);
            a.shared_wins = a.shared_wins.saturating_add(b.shared_wins);
            a.score.merge(b.score);
            add_counts(&mut a.score_histogram, &b.score_histogram);
        }
        self.turns.merge(other.turns);
        add_counts(&mut self.turns_histogram, &other.turns_histogram);
        self.moves = self.moves.saturating_add(other.moves);
        add_counts(&mut self.end_reasons, &other.end_reasons);
        for (kind, items) in &other.items {
            let mine = self.items.entry(kind.clone()).or_default();
            for (item, t) in items {
                mine.entry(item.clone()).or_default().merge(*t);
            }
        }
        for (kind, t) in &other.actions {
            self.actions.entry(kind.clone()).or_default().merge(*t);
        }
        match (&mut self.lead_changes, &other.lead_changes) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.lead_changes = Some(b.clone()),
            _ => {}
        }
        self
    }

    /// The report of these totals; `agent(seat)` names each seat's agent.
    pub fn report(self, players: usize, agent: impl Fn(usize) -> String) -> PlayersReport {
        let completed = self.completed;
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(seat, s)| {
                let wins = s.win_units as f64 / self.unit as f64;
                let rate = ratio(wins, completed);
                let (low, high) = wilson(rate, completed);
                SeatReport {
                    seat: seat_name(seat),
                    agent: agent(seat),
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
        let tally = |kind: &str, item: &str, t: &ItemTotals| TallyReport {
            kind: kind.to_string(),
            item: item.to_string(),
            count: t.count,
            per_game: round4(ratio(t.count as f64, completed)),
            mean_turn: round4(ratio(t.turns as f64, t.count)),
            winner_share: round4(ratio(t.winner_units as f64 / self.unit as f64, t.by_seat)),
        };
        let tallies = (self.items.iter())
            .flat_map(|(kind, items)| items.iter().map(move |(item, t)| (kind, item, t)))
            .map(|(kind, item, t)| tally(kind, item, t))
            .collect();
        let actions = (self.actions.iter())
            .map(|(kind, t)| tally("action", kind, t))
            .collect();
        PlayersReport {
            players,
            games: self.games,
            completed,
            seats,
            mean_turns: round4(self.turns.mean()),
            sd_turns: round4(self.turns.sd()),
            mean_moves: round4(ratio(self.moves as f64, self.games)),
            end_reasons: self.end_reasons.clone(),
            tallies,
            actions,
            mean_lead_changes: self.lead_changes.as_ref().map(|h| round4(h.sums.mean())),
            totals: self,
        }
    }
}

/// Why reports cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No reports given.
    Empty,
    /// Report `index` (0-based, in the order given) differs from the first in `what`.
    Differs { index: usize, what: &'static str },
    /// Report `index` is not a shard (a whole run cannot be merged with anything).
    NotShard { index: usize },
    /// Two reports are the same slice.
    Overlap { shard: Shard },
    /// Slices not given.
    Missing { shards: Vec<Shard> },
    /// Report `index` does not hold what `grail sim` writes (edited, or of another version).
    Malformed { index: usize, what: String },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Empty => write!(f, "no reports to merge"),
            MergeError::Differs { index, what } => write!(
                f,
                "report {} is of a different run than report 1: its {what} differs",
                index + 1
            ),
            MergeError::NotShard { index } => write!(
                f,
                "report {} is not a shard (made without `--shard I/N`)",
                index + 1
            ),
            MergeError::Overlap { shard } => write!(f, "shard {shard} is given twice"),
            MergeError::Malformed { index, what } => {
                write!(
                    f,
                    "report {} is not as `grail sim` writes it: {what}",
                    index + 1
                )
            }
            MergeError::Missing { shards } => {
                let names: Vec<String> = shards.iter().map(Shard::to_string).collect();
                write!(f, "missing shard {}", names.join(", "))
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// Merges the reports of all `N` shards of one run, in any order, into the report of the
/// unsharded run. Refuses reports of different runs and overlapping or missing shards.
pub fn merge(reports: &[Report]) -> Result<Report, MergeError> {
    let first = reports.first().ok_or(MergeError::Empty)?;
    let agents = |r: &Report| -> Vec<Vec<String>> {
        (r.results.iter())
            .map(|p| p.seats.iter().map(|s| s.agent.clone()).collect())
            .collect()
    };
    let first_agents = agents(first);
    let mut seen = BTreeMap::new();
    for (index, r) in reports.iter().enumerate() {
        let differs = |what| Err(MergeError::Differs { index, what });
        let Some(shard) = r.shard else {
            return Err(MergeError::NotShard { index });
        };
        if r.game != first.game {
            return differs("game");
        }
        if r.variant != first.variant {
            return differs("variant");
        }
        if r.content_hash != first.content_hash {
            return differs("content hash");
        }
        if r.seed != first.seed {
            return differs("seed");
        }
        if r.games != first.games {
            return differs("number of games");
        }
        if r.players != first.players || r.results.len() != first.results.len() {
            return differs("player counts");
        }
        if r.max_moves != first.max_moves {
            return differs("move limit");
        }
        if r.detail != first.detail {
            return differs("detail");
        }
        if agents(r) != first_agents {
            return differs("agents");
        }
        if shard.count != first.shard.map_or(0, |s| s.count) {
            return differs("number of shards");
        }
        if let Some(what) = malformed(r, shard) {
            return Err(MergeError::Malformed { index, what });
        }
        if seen.insert(shard.index, index).is_some() {
            return Err(MergeError::Overlap { shard });
        }
    }
    let count = first.shard.map_or(0, |s| s.count);
    let missing: Vec<Shard> = (1..=count)
        .filter(|i| !seen.contains_key(i))
        .map(|index| Shard { index, count })
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { shards: missing });
    }
    let results = (first.results.iter().enumerate())
        .map(|(i, p)| {
            // In shard order, though the sums do not care.
            let totals = (seen.values())
                .map(|&r| &reports[r].results[i].totals)
                .fold(Totals::new(p.players), |a, b| a.merge(b));
            totals.report(p.players, |seat| first_agents[i][seat].clone())
        })
        .collect();
    Ok(Report {
        shard: None,
        results,
        ..first.clone()
    })
}

/// What in a shard's report could not come from `grail sim`, if anything: the merge reads
/// only what it checks here, so a hand-edited file is refused rather than misread.
fn malformed(r: &Report, shard: Shard) -> Option<String> {
    if shard.index == 0 || shard.index > shard.count {
        return Some(format!("there is no shard {shard}"));
    }
    let range = shard.range(r.games);
    for (p, &players) in r.results.iter().zip(&r.players) {
        let t = &p.totals;
        if p.players != players || p.seats.len() != players || t.seats.len() != players {
            return Some(format!(
                "its results for {players} players have another number of seats"
            ));
        }
        if lcm_checked(players.max(1)) != Some(t.unit) {
            return Some(format!("its win unit for {players} players is {}", t.unit));
        }
        if t.games != range.end - range.start || t.completed > t.games {
            return Some(format!(
                "it holds {} games for {players} players, shard {shard} of {} has {}",
                t.games,
                r.games,
                range.end - range.start
            ));
        }
    }
    None
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
    fn shards_cover_every_game_once() {
        for games in [0, 1, 2, 7, 100, 1001] {
            for count in 1..=9 {
                let mut next = 0;
                for index in 1..=count {
                    let r = Shard { index, count }.range(games);
                    assert_eq!(r.start, next, "{games} games, shard {index}/{count}");
                    assert!(r.end - r.start <= games / count + 1);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
    }
}
