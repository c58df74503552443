//! Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
//! 2012), generic over [`Rules`]: it works for any pack.
//!
//! The agent never sees hidden state. Each iteration re-determinises the observation it was
//! handed: [`Rules::observe`] of an observation by the same seat deals everything that seat
//! cannot see afresh, which is a sample of the states it thinks possible. One tree is shared
//! by all determinisations (a node stands for an information set, not a state); its edges are
//! keyed by the action (compared by value) and the seat that plays it, and selection is UCB1
//! with availability counts (a child's exploration term counts the iterations in which its
//! action was legal, not its parent's visits).
//!
//! The game's own heuristic ([`Rules::heuristic`], what the greedy agent maximises) guides the
//! search three ways, each generic:
//! - **Progressive bias.** When a node first meets an action, every legal action there is
//!   tried once and scored by the mover's heuristic; the scores, scaled to [0, 1] among the
//!   siblings, are the children's priors. Unvisited children are expanded best prior first,
//!   and a visited child's UCB1 score gains `BIAS · prior / (visits + 1)`, which fades as the
//!   statistics take over.
//! - **Greedy rollouts** ([`Rollout::Greedy`]): each rollout move is the greedy agent's (the
//!   mover's best heuristic after one ply), or with a small chance a uniformly random one, so
//!   rollouts look like real games instead of random walks.
//! - **Cut rollouts** ([`Search::depth`]): after that many decisions a rollout stops and the seat
//!   with the best heuristic counts as its winner.
//!
//! Rewards, per seat: a win is 1, a shared win is split evenly among the winners, a loss 0
//! (win/loss rather than normalised scores: the games rank by winning, and scores differ in
//! scale between games; comparing heuristics across seats needs no scale either).
//!
//! Budgets: a number of iterations (deterministic for a seed) or a time per decision (not
//! deterministic: how far the search gets depends on the machine and its load).
//!
//! The tree is an arena of nodes linked first-child / next-sibling, and every buffer (nodes,
//! legal actions, scores, the determinised state and a scratch copy) is kept from decision to
//! decision, so after its first decisions a search allocates nothing but what the rules'
//! own `clone_from` and `apply` do.

use std::fmt;
use std::time::{Duration, Instant};

use crate::game::{NoEvents, Rules, Seat};
use crate::rng::GameRng;

/// Moves a rollout plays at most; one that goes on longer is judged by the heuristic.
pub const ROLLOUT_CAP: u32 = 2_000;

/// Weight of the progressive bias (a prior in [0, 1]) against a mean reward in [0, 1].
const BIAS: f64 = 1.0;

/// How long the agent thinks per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Budget {
    /// Iterations per decision: the same seed plays the same moves.
    Iterations(u32),
    /// Wall-clock time per decision (at least one iteration): not reproducible.
    Time(Duration),
}

impl Default for Budget {
    fn default() -> Self {
        Budget::Iterations(DEFAULT_ITERATIONS)
    }
}

/// Iterations per decision of `ismcts` without a budget.
pub const DEFAULT_ITERATIONS: u32 = 300;

/// The UCB1 exploration constant, in thousandths (an integer keeps agent kinds hashable).
pub const DEFAULT_EXPLORATION_MILLI: u32 = 400;

/// How a rollout picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rollout {
    /// Uniformly at random: cheap, but far from how the game is played.
    Random,
    /// The greedy agent's move, except that with a chance of `random_milli` thousandths a
    /// uniformly random one (which keeps rollouts from repeating one line).
    Greedy { random_milli: u16 },
}

impl Default for Rollout {
    fn default() -> Self {
        Rollout::Greedy { random_milli: 0 }
    }
}

impl fmt::Display for Rollout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Rollout::Random => f.write_str("random"),
            Rollout::Greedy { random_milli: 0 } => f.write_str("greedy"),
            Rollout::Greedy { random_milli } => {
                write!(f, "greedy/{}", f64::from(random_milli) / 1000.0)
            }
        }
    }
}

impl Rollout {
    /// `random`, `greedy` (never random) or `greedy/E`, E in [0, 1] the chance of a random
    /// move.
    pub fn parse(text: &str) -> Option<Rollout> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("random") {
            return Some(Rollout::Random);
        }
        let rest = text.get(..6).filter(|h| h.eq_ignore_ascii_case("greedy"))?;
        let rest = &text[rest.len()..];
        if rest.is_empty() {
            return Some(Rollout::Greedy { random_milli: 0 });
        }
        let e: f64 = rest.strip_prefix('/')?.trim().parse().ok()?;
        (e.is_finite() && (0.0..=1.0).contains(&e)).then(|| Rollout::Greedy {
            random_milli: (e * 1000.0).round() as u16,
        })
    }
}

/// Everything that makes one ISMCTS agent differ from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Search {
    pub budget: Budget,
    /// The UCB1 exploration constant, in thousandths.
    pub exploration_milli: u32,
    pub rollout: Rollout,
    /// Decisions (moves with a choice) a rollout plays before the heuristic judges it; 0:
    /// to the end of the game.
    pub depth: u32,
}

/// Rollout moves before the heuristic judges, by default.
pub const DEFAULT_DEPTH: u32 = 10;

impl Default for Search {
    fn default() -> Self {
        Search {
            budget: Budget::default(),
            exploration_milli: DEFAULT_EXPLORATION_MILLI,
            rollout: Rollout::default(),
            depth: DEFAULT_DEPTH,
        }
    }
}

/// No node (a missing child or sibling).
const NONE: u32 = u32::MAX;

struct Node<A> {
    /// The action that leads here from the parent, and the seat that played it (the root
    /// has none).
    action: Option<A>,
    seat: Seat,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Iterations in which this node's action was legal at its parent.
    available: u32,
    /// Sum of the rewards of `seat`.
    reward: f64,
    /// The mover's heuristic after this action, scaled to [0, 1] among its siblings.
    prior: f64,
}

pub struct IsmctsAgent<R: Rules> {
    rng: GameRng,
    pub(crate) search: Search,
    exploration: f64,
    nodes: Vec<Node<R::Action>>,
    det: Option<R::State>,
    scratch: Option<R::State>,
    legal: Vec<R::Action>,
    /// Per legal action: its child of the current node, or [`NONE`].
    kids: Vec<u32>,
    /// Per legal action: the mover's heuristic after it.
    values: Vec<f64>,
    ties: Vec<usize>,
    path: Vec<u32>,
    rewards: Vec<f64>,
    /// Seats at the table, learnt from the first search of a game (0: not yet).
    seats: usize,
}

impl<R: Rules> IsmctsAgent<R> {
    pub fn new(seed: u64, search: Search) -> Self {
        IsmctsAgent {
            rng: GameRng::new(seed),
            search,
            exploration: f64::from(search.exploration_milli) / 1000.0,
            nodes: Vec::new(),
            det: None,
            scratch: None,
            legal: Vec::new(),
            kids: Vec::new(),
            values: Vec::new(),
            ties: Vec::new(),
            path: Vec::new(),
            rewards: Vec::new(),
            seats: 0,
        }
    }

    pub fn reset(&mut self, seed: u64) {
        self.rng = GameRng::new(seed);
        self.seats = 0;
    }

    /// The root action most visited, as an index into `legal` (ties: the better prior, then
    /// the first).
    pub fn search(&mut self, rules: &R, seat: Seat, view: &R::State, legal: &[R::Action]) -> usize {
        if self.seats == 0 {
            self.seats = self.count_seats(rules, seat, view);
        }
        self.nodes.clear();
        self.nodes.push(Node {
            action: None,
            seat,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            reward: 0.0,
            prior: 0.0,
        });
        let start = Instant::now();
        let mut done = 0u32;
        loop {
            match self.search.budget {
                Budget::Iterations(n) if done >= n.max(1) => break,
                Budget::Time(t) if done > 0 && start.elapsed() >= t => break,
                _ => {}
            }
            self.iterate(rules, seat, view);
            done += 1;
        }
        // Ties in visits (a budget smaller than the choices leaves many children at one
        // visit) go to the better prior, so a short search plays at least as the greedy one.
        let mut best = None::<(usize, (u32, f64))>;
        for (i, action) in legal.iter().enumerate() {
            let child = child_of(&self.nodes, 0, seat, action);
            let key = if child == NONE {
                (0, f64::NEG_INFINITY)
            } else {
                let n = &self.nodes[child as usize];
                (n.visits, n.prior)
            };
            if best.is_none_or(|(_, k)| key > k) {
                best = Some((i, key));
            }
        }
        best.map_or(0, |(i, _)| i)
    }

    /// The players at the table: the rules do not say, so a random playout of the
    /// observation to its end does (the outcome has a score per seat); one that does not
    /// end counts the seats that moved.
    fn count_seats(&mut self, rules: &R, seat: Seat, view: &R::State) -> usize {
        self.determinise(rules, seat, view);
        let det = self.det.as_mut().expect("just determinised");
        let mut seats = seat + 1;
        for _ in 0..ROLLOUT_CAP {
            let Some(mover) = rules.to_move(det) else {
                break;
            };
            seats = seats.max(mover + 1);
            rules.legal_actions(det, &mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            let i = self.rng.index(self.legal.len());
            rules.apply(det, &self.legal[i], &mut NoEvents);
        }
        rules
            .outcome(det)
            .map_or(seats, |o| o.scores.len().max(seats))
    }

    /// A fresh sample of the states `seat` thinks possible, into the reused `det`.
    fn determinise(&mut self, rules: &R, seat: Seat, view: &R::State) {
        match &mut self.det {
            Some(det) => rules.observe_into(view, seat, &mut self.rng, det),
            None => self.det = Some(rules.observe(view, seat, &mut self.rng)),
        }
    }

    /// One iteration: determinise, select, expand, roll out, back up.
    fn iterate(&mut self, rules: &R, seat: Seat, view: &R::State) {
        self.determinise(rules, seat, view);
        let det = self.det.as_mut().expect("just determinised");
        self.path.clear();
        let mut node = 0u32;
        // Selection, down to a child not visited yet (which is the expansion).
        while let Some(mover) = rules.to_move(det) {
            rules.legal_actions(det, &mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            self.kids.clear();
            let mut missing = false;
            for action in &self.legal {
                let c = child_of(&self.nodes, node, mover, action);
                missing |= c == NONE;
                self.kids.push(c);
            }
            if missing {
                heuristic_after_each(
                    rules,
                    det,
                    mover,
                    &self.legal,
                    &mut self.scratch,
                    &mut self.values,
                );
                let (low, high) = self
                    .values
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                        (l.min(v), h.max(v))
                    });
                for (i, action) in self.legal.iter().enumerate() {
                    if self.kids[i] != NONE {
                        continue;
                    }
                    let prior = if high > low {
                        (self.values[i] - low) / (high - low)
                    } else {
                        1.0
                    };
                    let c = self.nodes.len() as u32;
                    let parent = &mut self.nodes[node as usize];
                    let next_sibling = parent.first_child;
                    parent.first_child = c;
                    self.nodes.push(Node {
                        action: Some(action.clone()),
                        seat: mover,
                        first_child: NONE,
                        next_sibling,
                        visits: 0,
                        available: 0,
                        reward: 0.0,
                        prior,
                    });
                    self.kids[i] = c;
                }
            }
            // Children not tried yet come before any tried one, the best prior first.
            let mut chosen = (NONE, (false, f64::NEG_INFINITY));
            for &c in &self.kids {
                let n = &mut self.nodes[c as usize];
                n.available += 1;
                let key = if n.visits == 0 {
                    (true, n.prior)
                } else {
                    let visits = f64::from(n.visits);
                    let ucb = n.reward / visits
                        + self.exploration * (f64::from(n.available).ln() / visits).sqrt()
                        + BIAS * n.prior / (visits + 1.0);
                    (false, ucb)
                };
                if key > chosen.1 {
                    chosen = (c, key);
                }
            }
            let c = chosen.0;
            let n = &self.nodes[c as usize];
            let fresh = n.visits == 0;
            rules.apply(
                det,
                n.action.as_ref().expect("a child has an action"),
                &mut NoEvents,
            );
            self.path.push(c);
            node = c;
            if fresh {
                break;
            }
        }
        // Rollout: the depth counts decisions (forced moves are cheap and say nothing).
        let (mut moves, mut decisions) = (0, 0);
        while let Some(mover) = rules.to_move(det) {
            let deep_enough = self.search.depth > 0 && decisions >= self.search.depth;
            if moves >= ROLLOUT_CAP || deep_enough {
                break;
            }
            rules.legal_actions(det, &mut self.legal);
            let i = match (self.legal.len(), self.search.rollout) {
                (0, _) => break,
                (1, _) => 0,
                (n, Rollout::Random) => self.rng.index(n),
                (n, Rollout::Greedy { random_milli })
                    if random_milli > 0 && self.rng.chance(u32::from(random_milli), 1000) =>
                {
                    self.rng.index(n)
                }
                (_, Rollout::Greedy { .. }) => {
                    heuristic_after_each(
                        rules,
                        det,
                        mover,
                        &self.legal,
                        &mut self.scratch,
                        &mut self.values,
                    );
                    best_of(&self.values, &mut self.ties, &mut self.rng)
                }
            };
            decisions += u32::from(self.legal.len() > 1);
            rules.apply(det, &self.legal[i], &mut NoEvents);
            moves += 1;
        }
        score(rules, det, self.seats, &mut self.values, &mut self.rewards);
        // Backpropagation.
        self.nodes[0].visits += 1;
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.reward += self.rewards.get(node.seat).copied().unwrap_or(0.0);
        }
    }
}

/// The child of `node` reached by `seat` playing `action`, or [`NONE`].
fn child_of<A: PartialEq>(nodes: &[Node<A>], node: u32, seat: Seat, action: &A) -> u32 {
    let mut c = nodes[node as usize].first_child;
    while c != NONE {
        let n = &nodes[c as usize];
        if n.seat == seat && n.action.as_ref() == Some(action) {
            return c;
        }
        c = n.next_sibling;
    }
    NONE
}

/// `values[i]`: `mover`'s heuristic after `legal[i]` is played on a copy of `state` (NaN
/// counts as the worst).
fn heuristic_after_each<R: Rules>(
    rules: &R,
    state: &R::State,
    mover: Seat,
    legal: &[R::Action],
    scratch: &mut Option<R::State>,
    values: &mut Vec<f64>,
) {
    values.clear();
    for action in legal {
        let copy = match scratch {
            Some(copy) => {
                copy.clone_from(state);
                copy
            }
            None => scratch.insert(state.clone()),
        };
        rules.apply(copy, action, &mut NoEvents);
        let v = rules.heuristic(copy, mover);
        values.push(if v.is_nan() { f64::NEG_INFINITY } else { v });
    }
}

/// The index of the highest value; ties broken by `rng`.
fn best_of(values: &[f64], ties: &mut Vec<usize>, rng: &mut GameRng) -> usize {
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    ties.clear();
    ties.extend((0..values.len()).filter(|&i| values[i] == high));
    match ties.len() {
        0 => 0,
        1 => ties[0],
        n => ties[rng.index(n)],
    }
}

/// Each seat's reward for `state`: the winners share 1. A game not over yet (a rollout cut
/// off) is won by the seats whose heuristic is highest.
fn score<R: Rules>(
    rules: &R,
    state: &R::State,
    seats: usize,
    values: &mut Vec<f64>,
    rewards: &mut Vec<f64>,
) {
    rewards.clear();
    if let Some(outcome) = rules.outcome(state) {
        rewards.resize(outcome.scores.len(), 0.0);
        let share = 1.0 / outcome.winners.len().max(1) as f64;
        for &w in &outcome.winners {
            if let Some(r) = rewards.get_mut(w) {
                *r = share;
            }
        }
        return;
    }
    values.clear();
    values.extend((0..seats).map(|s| rules.heuristic(state, s)));
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let leaders = values.iter().filter(|&&v| v == high).count();
    rewards.extend(
        values
            .iter()
            .map(|&v| if v == high { 1.0 / leaders as f64 } else { 0.0 }),
    );
}
