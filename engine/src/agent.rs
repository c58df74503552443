//! Bots. An agent picks one of the legal actions from what its seat may know: drivers hand
//! it the seat's *observation* ([`Rules::observe`]), never the true state. An agent that
//! ignores the table (random) says so with [`Agent::needs_view`], and drivers then skip the
//! observation, which keeps simulation fast.
//!
//! Every agent owns a [`GameRng`] seeded by the driver, so a game with bots replays exactly.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::diag::did_you_mean;
use crate::game::{NoEvents, Rules, Seat};
pub use crate::ismcts::{Budget, DEFAULT_EXPLORATION_MILLI, IsmctsAgent, Rollout, Search};
use crate::rng::GameRng;

pub trait Agent<R: Rules>: Send {
    /// The name it is built by (`"random"`), for replays and reports.
    fn name(&self) -> &'static str;
    /// Whether [`Agent::choose`] reads the observation. When false, drivers pass `None`.
    fn needs_view(&self) -> bool;
    /// Starts a new game: reseeds without giving up allocations.
    fn reset(&mut self, seed: u64);
    /// An agent that picks by the number of legal actions alone (random) answers here, with
    /// the index [`Agent::choose`] would give for `count` actions (at least two), and drivers
    /// then need not write the actions out; `None`: it reads them.
    fn choose_by_count(&mut self, count: usize) -> Option<usize> {
        let _ = count;
        None
    }
    /// An index into `legal` (which holds at least two actions: drivers play a forced move
    /// without asking). Out-of-range answers are clamped by the driver. The observation is
    /// the agent's to use up: it may play moves on it.
    fn choose(
        &mut self,
        rules: &R,
        seat: Seat,
        view: Option<&mut R::State>,
        legal: &[R::Action],
    ) -> usize;
}

/// Asks `agent` for its move: observes for it if it needs a view, and plays a forced move
/// (a single legal action) without asking. Every driver (match, simulation) decides through
/// here, so a seed plays the same game in all of them.
#[inline]
pub fn decide<R: Rules, A: Agent<R> + ?Sized>(
    rules: &R,
    state: &R::State,
    seat: Seat,
    legal: &[R::Action],
    agent: &mut A,
    observer: &mut Observer<R>,
) -> usize {
    if legal.len() <= 1 {
        return 0;
    }
    let choice = if agent.needs_view() {
        let view = observer.observe(rules, state, seat);
        agent.choose(rules, seat, Some(view), legal)
    } else {
        agent.choose(rules, seat, None, legal)
    };
    choice.min(legal.len() - 1)
}

/// [`decide`] for an agent that picks by the number of legal actions alone, when the state
/// keeps them counted ([`Rules::listed_count`]): the same index, with nothing written out;
/// `None` when the agent reads the actions or the state does not count them. Gives the index
/// and the count.
#[inline]
pub fn decide_by_count<R: Rules, A: Agent<R> + ?Sized>(
    rules: &R,
    state: &R::State,
    agent: &mut A,
) -> Option<(usize, usize)> {
    let count = rules.listed_count(state)?;
    // A forced move (or none) is nobody's choice, as in `decide`.
    if count <= 1 {
        return Some((0, count));
    }
    let i = agent.choose_by_count(count)?;
    Some((i.min(count - 1), count))
}

/// Makes the observations agents are shown: determinised with one generator per game, and
/// written into one buffer from decision to decision, so the hot loop does not allocate.
pub struct Observer<R: Rules> {
    rng: GameRng,
    view: Option<R::State>,
}

impl<R: Rules> Observer<R> {
    /// Determinises with `rng`.
    pub fn new(rng: GameRng) -> Self {
        Observer { rng, view: None }
    }

    /// The observer of a game seeded with `game_seed`.
    pub fn for_game(game_seed: u64) -> Self {
        Self::new(GameRng::new(view_seed(game_seed)))
    }

    /// What `seat` may know of `state`, determinised.
    pub fn observe(&mut self, rules: &R, state: &R::State, seat: Seat) -> &mut R::State {
        match &mut self.view {
            Some(view) => rules.observe_into(state, seat, &mut self.rng, view),
            None => self.view = Some(rules.observe(state, seat, &mut self.rng)),
        }
        self.view.as_mut().expect("just observed")
    }
}

/// The seed of the agent at `seat` in a game seeded with `game_seed`.
pub fn agent_seed(game_seed: u64, seat: Seat) -> u64 {
    GameRng::derive_seed(game_seed ^ 0x5EA7_0000_0000_0000, seat as u64)
}

/// The seed of the generator drivers determinise observations with.
pub fn view_seed(game_seed: u64) -> u64 {
    GameRng::derive_seed(game_seed ^ 0x0B5E_0000_0000_0000, 0)
}

/// Uniformly random among the legal actions; never looks at the table.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: GameRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: GameRng::new(seed),
        }
    }
}

impl<R: Rules> Agent<R> for RandomAgent {
    fn name(&self) -> &'static str {
        "random"
    }
    fn needs_view(&self) -> bool {
        false
    }
    fn reset(&mut self, seed: u64) {
        self.rng = GameRng::new(seed);
    }
    #[inline]
    fn choose(&mut self, _: &R, _: Seat, _: Option<&mut R::State>, legal: &[R::Action]) -> usize {
        self.rng.index(legal.len())
    }
    #[inline]
    fn choose_by_count(&mut self, count: usize) -> Option<usize> {
        Some(self.rng.index(count))
    }
}

/// One ply of look-ahead: tries every legal action on a copy of its observation and takes
/// the one [`Rules::heuristic`] scores best for its seat; ties are broken by its own
/// generator. Chance inside `apply` (a draw) is sampled from the observation's generator.
pub struct GreedyAgent<R: Rules> {
    rng: GameRng,
    scratch: Option<R::State>,
    best: Vec<usize>,
}

impl<R: Rules> GreedyAgent<R> {
    pub fn new(seed: u64) -> Self {
        GreedyAgent {
            rng: GameRng::new(seed),
            scratch: None,
            best: Vec::new(),
        }
    }
}

impl<R: Rules> Clone for GreedyAgent<R> {
    fn clone(&self) -> Self {
        GreedyAgent {
            rng: self.rng.clone(),
            scratch: self.scratch.clone(),
            best: self.best.clone(),
        }
    }
}

impl<R: Rules> Agent<R> for GreedyAgent<R> {
    fn name(&self) -> &'static str {
        "greedy"
    }
    fn needs_view(&self) -> bool {
        true
    }
    fn reset(&mut self, seed: u64) {
        self.rng = GameRng::new(seed);
    }
    fn choose(
        &mut self,
        rules: &R,
        seat: Seat,
        view: Option<&mut R::State>,
        legal: &[R::Action],
    ) -> usize {
        let Some(view) = view else {
            return self.rng.index(legal.len());
        };
        self.best.clear();
        let mut best_score = f64::NEG_INFINITY;
        for (i, action) in legal.iter().enumerate() {
            // The last action is tried on the observation itself, which is not needed after;
            // the others on a copy (`clone_from` lets a state reuse its buffers).
            let state = if i + 1 == legal.len() {
                &mut *view
            } else {
                match &mut self.scratch {
                    Some(scratch) => {
                        scratch.clone_from(view);
                        scratch
                    }
                    None => self.scratch.insert(view.clone()),
                }
            };
            rules.apply(state, action, &mut NoEvents);
            let mut score = rules.heuristic(state, seat);
            if score.is_nan() {
                score = f64::NEG_INFINITY;
            }
            if score > best_score || self.best.is_empty() {
                best_score = score;
                self.best.clear();
                self.best.push(i);
            } else if score == best_score {
                self.best.push(i);
            }
        }
        self.best[self.rng.index(self.best.len())]
    }
}

/// The bots that can be named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AgentKind {
    Random,
    Greedy,
    /// Tree search over determinisations ([`IsmctsAgent`]): `ismcts`, `ismcts:2000`
    /// (iterations per decision), `ismcts:50ms` (time per decision, not reproducible),
    /// optionally followed by `:C`, the exploration constant (`ismcts:2000:0.7`), then the
    /// rollout policy (`:random`, `:greedy`, `:greedy/0.1` for a 10% chance of a random
    /// move), then the rollout depth before the heuristic judges (`:20`; `:end`, to the end).
    Ismcts(Search),
}

impl AgentKind {
    /// The bots without parameters, cheap enough to run in every test over all agents.
    pub const ALL: [AgentKind; 2] = [AgentKind::Random, AgentKind::Greedy];
    /// Every agent's name, as parsed (ISMCTS with its default budget).
    pub const NAMES: [&'static str; 3] = ["random", "greedy", "ismcts"];

    /// ISMCTS with `budget` and the default search otherwise.
    pub fn ismcts(budget: Budget) -> Self {
        AgentKind::Ismcts(Search {
            budget,
            ..Search::default()
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
            AgentKind::Ismcts(_) => "ismcts",
        }
    }

    pub fn build<R: Rules>(self, seed: u64) -> BuiltinAgent<R> {
        match self {
            AgentKind::Random => BuiltinAgent::Random(RandomAgent::new(seed)),
            AgentKind::Greedy => BuiltinAgent::Greedy(GreedyAgent::new(seed)),
            AgentKind::Ismcts(search) => {
                BuiltinAgent::Ismcts(Box::new(IsmctsAgent::new(seed, search)))
            }
        }
    }
}

/// The name, with ISMCTS's parameters up to the last that is not the default
/// (`ismcts:200`, `ismcts:1000:0.7:random`): what parses back to the same kind.
impl fmt::Display for AgentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        let AgentKind::Ismcts(search) = *self else {
            return Ok(());
        };
        let default = Search::default();
        let shown = if search.depth != default.depth {
            4
        } else if search.rollout != default.rollout {
            3
        } else if search.exploration_milli != default.exploration_milli {
            2
        } else {
            usize::from(search.budget != default.budget)
        };
        if shown >= 1 {
            match search.budget {
                Budget::Iterations(n) => write!(f, ":{n}")?,
                Budget::Time(t) => write!(f, ":{}ms", t.as_millis())?,
            }
        }
        if shown >= 2 {
            write!(f, ":{}", f64::from(search.exploration_milli) / 1000.0)?;
        }
        if shown >= 3 {
            write!(f, ":{}", search.rollout)?;
        }
        if shown >= 4 {
            match search.depth {
                0 => f.write_str(":end")?,
                d => write!(f, ":{d}")?,
            }
        }
        Ok(())
    }
}

/// A name that is no agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAgent(pub String);

impl fmt::Display for UnknownAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = AgentKind::NAMES;
        write!(f, "unknown agent '{}'", self.0)?;
        if let Some(near) = did_you_mean(&self.0, names) {
            write!(f, " (did you mean '{near}'?)")?;
        }
        write!(
            f,
            "; the agents are {} (ismcts:N for N iterations per move, ismcts:Tms for T \
             milliseconds, :C after either for the exploration constant, then :random, \
             :greedy or :greedy/E for the rollouts, then :D or :end for their depth)",
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownAgent {}

impl FromStr for AgentKind {
    type Err = UnknownAgent;
    fn from_str(s: &str) -> Result<Self, UnknownAgent> {
        let s = s.trim();
        let unknown = || UnknownAgent(s.to_string());
        let mut parts = s.split(':');
        let name = parts.next().unwrap_or_default();
        if name.eq_ignore_ascii_case("ismcts") {
            let mut search = Search::default();
            if let Some(b) = parts.next() {
                search.budget = parse_budget(b).ok_or_else(unknown)?;
            }
            if let Some(c) = parts.next() {
                search.exploration_milli = match c.trim().parse::<f64>() {
                    Ok(c) if c.is_finite() && (0.0..=1000.0).contains(&c) => {
                        (c * 1000.0).round() as u32
                    }
                    _ => return Err(unknown()),
                };
            }
            if let Some(r) = parts.next() {
                search.rollout = Rollout::parse(r).ok_or_else(unknown)?;
            }
            if let Some(d) = parts.next() {
                let d = d.trim();
                search.depth = if d.eq_ignore_ascii_case("end") {
                    0
                } else {
                    d.parse().ok().filter(|&d| d > 0).ok_or_else(unknown)?
                };
            }
            if parts.next().is_some() {
                return Err(unknown());
            }
            return Ok(AgentKind::Ismcts(search));
        }
        AgentKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(unknown)
    }
}

/// `2000` (iterations, at least 1), `50ms` or `2s` (time per decision, more than 0).
fn parse_budget(text: &str) -> Option<Budget> {
    let text = text.trim();
    if let Some(ms) = text.strip_suffix("ms") {
        let ms: u64 = ms.trim().parse().ok().filter(|&n| n > 0)?;
        return Some(Budget::Time(Duration::from_millis(ms)));
    }
    if let Some(secs) = text.strip_suffix('s') {
        let secs: u64 = secs.trim().parse().ok().filter(|&n| n > 0)?;
        return Some(Budget::Time(Duration::from_secs(secs)));
    }
    let n: u32 = text.parse().ok().filter(|&n| n > 0)?;
    Some(Budget::Iterations(n))
}

/// Any built-in agent, dispatched by `match` rather than through a vtable so the simulation
/// loop stays monomorphic.
pub enum BuiltinAgent<R: Rules> {
    Random(RandomAgent),
    Greedy(GreedyAgent<R>),
    Ismcts(Box<IsmctsAgent<R>>),
}

impl<R: Rules> BuiltinAgent<R> {
    pub fn kind(&self) -> AgentKind {
        match self {
            BuiltinAgent::Random(_) => AgentKind::Random,
            BuiltinAgent::Greedy(_) => AgentKind::Greedy,
            BuiltinAgent::Ismcts(a) => a.kind(),
        }
    }
}

impl<R: Rules> Agent<R> for BuiltinAgent<R> {
    fn name(&self) -> &'static str {
        self.kind().name()
    }
    #[inline]
    fn needs_view(&self) -> bool {
        !matches!(self, BuiltinAgent::Random(_))
    }
    #[inline]
    fn choose_by_count(&mut self, count: usize) -> Option<usize> {
        match self {
            BuiltinAgent::Random(a) => Agent::<R>::choose_by_count(a, count),
            _ => None,
        }
    }
    fn reset(&mut self, seed: u64) {
        match self {
            BuiltinAgent::Random(a) => Agent::<R>::reset(a, seed),
            BuiltinAgent::Greedy(a) => a.reset(seed),
            BuiltinAgent::Ismcts(a) => a.reset(seed),
        }
    }
    #[inline]
    fn choose(
        &mut self,
        rules: &R,
        seat: Seat,
        view: Option<&mut R::State>,
        legal: &[R::Action],
    ) -> usize {
        match self {
            BuiltinAgent::Random(a) => a.choose(rules, seat, view, legal),
            BuiltinAgent::Greedy(a) => a.choose(rules, seat, view, legal),
            BuiltinAgent::Ismcts(a) => match view {
                Some(view) => a.search(rules, seat, view, legal),
                None => 0,
            },
        }
    }
}

impl<R: Rules> IsmctsAgent<R> {
    /// What it is built by.
    pub fn kind(&self) -> AgentKind {
        AgentKind::Ismcts(self.search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_are_built_by_name() {
        assert_eq!("random".parse(), Ok(AgentKind::Random));
        assert_eq!(" Greedy ".parse(), Ok(AgentKind::Greedy));
        let err = "gredy".parse::<AgentKind>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown agent 'gredy' (did you mean 'greedy'?); the agents are random, greedy, \
             ismcts (ismcts:N for N iterations per move, ismcts:Tms for T milliseconds, :C after \
             either for the exploration constant, then :random, :greedy or :greedy/E for the \
             rollouts, then :D or :end for their depth)"
        );
        let err = "mcts".parse::<AgentKind>().unwrap_err().to_string();
        assert!(err.starts_with("unknown agent 'mcts' (did you mean 'ismcts'?); the agents"));
        assert_eq!("ismcts".parse(), Ok(AgentKind::ismcts(Budget::default())));
        assert_eq!(
            "ismcts:2000".parse(),
            Ok(AgentKind::ismcts(Budget::Iterations(2000)))
        );
        assert_eq!(
            "ISMCTS:50ms".parse(),
            Ok(AgentKind::ismcts(Budget::Time(Duration::from_millis(50))))
        );
        let tuned = AgentKind::Ismcts(Search {
            budget: Budget::Iterations(300),
            exploration_milli: 1_400,
            ..Search::default()
        });
        assert_eq!("ismcts:300:1.4".parse(), Ok(tuned));
        let random_rollouts = AgentKind::Ismcts(Search {
            budget: Budget::Iterations(300),
            exploration_milli: 700,
            rollout: Rollout::Random,
            ..Search::default()
        });
        assert_eq!("ismcts:300:0.7:random".parse(), Ok(random_rollouts));
        assert_eq!(random_rollouts.to_string(), "ismcts:300:0.7:random");
        let cut = AgentKind::Ismcts(Search {
            budget: Budget::Iterations(200),
            exploration_milli: 700,
            rollout: Rollout::Greedy { random_milli: 250 },
            depth: 12,
        });
        assert_eq!("ismcts:200:0.7:GREEDY/0.25:12".parse(), Ok(cut));
        assert_eq!(cut.to_string(), "ismcts:200:0.7:greedy/0.25:12");
        let pure = AgentKind::Ismcts(Search {
            budget: Budget::Iterations(200),
            exploration_milli: 700,
            rollout: Rollout::Greedy { random_milli: 0 },
            depth: 0,
        });
        assert_eq!("ismcts:200:0.7:greedy:end".parse(), Ok(pure));
        assert_eq!(pure.to_string(), "ismcts:200:0.7:greedy:end");
        for kind in [
            tuned,
            random_rollouts,
            cut,
            pure,
            AgentKind::ismcts(Budget::Iterations(20)),
            AgentKind::ismcts(Budget::default()),
        ] {
            assert_eq!(kind.to_string().parse(), Ok(kind), "{kind}");
        }
        assert_eq!(AgentKind::ismcts(Budget::default()).to_string(), "ismcts");
        for bad in [
            "ismcts:0",
            "ismcts:x",
            "ismcts:0ms",
            "ismcts:10:-1",
            "ismcts:1:1:1",
            "ismcts:1:1:greedy/2",
            "ismcts:1:1:greedy/",
            "ismcts:1:1:greedier",
            "ismcts:1:1:random:0",
            "ismcts:1:1:random:x",
            "ismcts:1:1:random:5:5",
        ] {
            assert!(bad.parse::<AgentKind>().is_err(), "{bad}");
        }
    }

    #[test]
    fn seeds_differ_per_seat_and_from_the_view_stream() {
        let seeds = [
            agent_seed(1, 0),
            agent_seed(1, 1),
            agent_seed(2, 0),
            view_seed(1),
        ];
        for (i, a) in seeds.iter().enumerate() {
            for b in &seeds[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
