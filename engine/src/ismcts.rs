//! Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
//! 2012), generic over [`Rules`]: it works for any pack.
//!
//! The agent never sees hidden state. Each iteration re-determinises the observation it was
//! handed: [`Rules::observe`] of an observation by the same seat deals everything that seat
//! cannot see afresh, which is a sample of the states it thinks possible. One tree is shared
//! by all determinisations; its edges are keyed by the action (compared by value) and the
//! seat that plays it, and selection is UCB1 with availability counts (a child's exploration
//! term counts the iterations in which its action was legal, not its parent's visits).
//! Rollouts are uniformly random to the end of the game or [`ROLLOUT_CAP`] moves.
//!
//! Rewards, per seat: a win is 1, a shared win is split evenly among the winners, a loss 0
//! (win/loss rather than normalised scores: the games rank by winning, and scores differ in
//! scale between games). A rollout cut off at the cap counts as won by nobody.
//!
//! Budgets: a number of iterations (deterministic for a seed) or a time per decision (not
//! deterministic: how far the search gets depends on the machine and its load).

use std::time::{Duration, Instant};

use crate::game::{NoEvents, Rules, Seat};
use crate::rng::GameRng;

/// Moves a rollout plays before it is scored by the heuristic.
pub const ROLLOUT_CAP: u32 = 2_000;

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
        Budget::Iterations(1_000)
    }
}

/// The UCB1 exploration constant, in thousandths (an integer keeps agent kinds hashable).
pub const DEFAULT_EXPLORATION_MILLI: u32 = 700;

struct Node<A> {
    /// The action that leads here from the parent, and the seat that played it (the root
    /// has none).
    action: Option<A>,
    seat: Seat,
    children: Vec<usize>,
    visits: u32,
    /// Iterations in which this node's action was legal at its parent.
    available: u32,
    /// Sum of the rewards of `seat`.
    reward: f64,
}

pub struct IsmctsAgent<R: Rules> {
    rng: GameRng,
    budget: Budget,
    exploration: f64,
    exploration_milli: u32,
    nodes: Vec<Node<R::Action>>,
    det: Option<R::State>,
    legal: Vec<R::Action>,
    path: Vec<usize>,
    untried: Vec<usize>,
    rewards: Vec<f64>,
}

impl<R: Rules> IsmctsAgent<R> {
    pub fn new(seed: u64, budget: Budget, exploration_milli: u32) -> Self {
        IsmctsAgent {
            rng: GameRng::new(seed),
            budget,
            exploration: f64::from(exploration_milli) / 1000.0,
            exploration_milli,
            nodes: Vec::new(),
            det: None,
            legal: Vec::new(),
            path: Vec::new(),
            untried: Vec::new(),
            rewards: Vec::new(),
        }
    }

    /// What it is built by.
    pub fn kind(&self) -> crate::agent::AgentKind {
        crate::agent::AgentKind::Ismcts {
            budget: self.budget,
            exploration_milli: self.exploration_milli,
        }
    }

    pub fn reset(&mut self, seed: u64) {
        self.rng = GameRng::new(seed);
    }

    /// The root action most visited, as an index into `legal` (ties: the first).
    pub fn search(&mut self, rules: &R, seat: Seat, view: &R::State, legal: &[R::Action]) -> usize {
        self.nodes.clear();
        self.nodes.push(Node {
            action: None,
            seat,
            children: Vec::new(),
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        let start = Instant::now();
        let mut done = 0u32;
        loop {
            match self.budget {
                Budget::Iterations(n) if done >= n.max(1) => break,
                Budget::Time(t) if done > 0 && start.elapsed() >= t => break,
                _ => {}
            }
            self.iterate(rules, seat, view);
            done += 1;
        }
        let mut best = None::<(usize, u32)>;
        for (i, action) in legal.iter().enumerate() {
            let visits = self.nodes[0]
                .children
                .iter()
                .map(|&c| &self.nodes[c])
                .find(|n| n.action.as_ref() == Some(action))
                .map_or(0, |n| n.visits);
            if best.is_none_or(|(_, v)| visits > v) {
                best = Some((i, visits));
            }
        }
        best.map_or(0, |(i, _)| i)
    }

    /// One iteration: determinise, select, expand, roll out, back up.
    fn iterate(&mut self, rules: &R, seat: Seat, view: &R::State) {
        let det = match &mut self.det {
            Some(det) => {
                rules.observe_into(view, seat, &mut self.rng, det);
                det
            }
            None => self.det.insert(rules.observe(view, seat, &mut self.rng)),
        };
        self.path.clear();
        let mut node = 0;
        // Selection and expansion.
        while let Some(mover) = rules.to_move(det) {
            rules.legal_actions(det, &mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            self.untried.clear();
            let mut chosen = None::<(usize, f64)>;
            for (i, action) in self.legal.iter().enumerate() {
                let child = self.nodes[node].children.iter().copied().find(|&c| {
                    let n = &self.nodes[c];
                    n.seat == mover && n.action.as_ref() == Some(action)
                });
                match child {
                    None => self.untried.push(i),
                    Some(c) => {
                        self.nodes[c].available += 1;
                        let n = &self.nodes[c];
                        let score = n.reward / f64::from(n.visits)
                            + self.exploration
                                * (f64::from(n.available).ln() / f64::from(n.visits)).sqrt();
                        if chosen.is_none_or(|(_, s)| score > s) {
                            chosen = Some((c, score));
                        }
                    }
                }
            }
            if !self.untried.is_empty() {
                let i = self.untried[self.rng.index(self.untried.len())];
                let action = self.legal[i].clone();
                rules.apply(det, &action, &mut NoEvents);
                let child = self.nodes.len();
                self.nodes.push(Node {
                    action: Some(action),
                    seat: mover,
                    children: Vec::new(),
                    visits: 0,
                    available: 1,
                    reward: 0.0,
                });
                self.nodes[node].children.push(child);
                self.path.push(child);
                break;
            }
            let (child, _) = chosen.expect("a legal action has a child");
            let action = self.nodes[child]
                .action
                .clone()
                .expect("a child has an action");
            rules.apply(det, &action, &mut NoEvents);
            self.path.push(child);
            node = child;
        }
        // Rollout.
        let mut moves = 0;
        while rules.to_move(det).is_some() && moves < ROLLOUT_CAP {
            rules.legal_actions(det, &mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            let i = self.rng.index(self.legal.len());
            let action = self.legal[i].clone();
            rules.apply(det, &action, &mut NoEvents);
            moves += 1;
        }
        score(rules, det, &mut self.rewards);
        // Backpropagation.
        self.nodes[0].visits += 1;
        for &n in &self.path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.reward += self.rewards.get(node.seat).copied().unwrap_or(0.0);
        }
    }
}

/// Each seat's reward for `state`: the winners share 1; a game cut off at the cap is won
/// by nobody (every seat 0).
fn score<R: Rules>(rules: &R, state: &R::State, rewards: &mut Vec<f64>) {
    rewards.clear();
    if let Some(outcome) = rules.outcome(state) {
        rewards.resize(outcome.scores.len(), 0.0);
        let share = 1.0 / outcome.winners.len().max(1) as f64;
        for &w in &outcome.winners {
            if let Some(r) = rewards.get_mut(w) {
                *r = share;
            }
        }
    }
}
