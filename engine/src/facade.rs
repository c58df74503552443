//! Object-safe views of a game, so the command line can drive any game without naming its
//! types: [`DynGame`] for a loaded game, [`DynMatch`] for one game under way. Both are
//! implemented once, generically, by [`LoadedGame`]; the typed API underneath ([`Match`],
//! [`sim::simulate`], [`replay::run`]) stays monomorphic, so simulation pays nothing for
//! the indirection (one virtual call per run, not per move).

use std::ops::RangeInclusive;

use crate::agent::{self, AgentKind, BuiltinAgent};
use crate::game::{MoveTerms, Outcome, Rules, Seat, Setup};
use crate::play::{Match, PlayError, Played};
use crate::replay::{self, Failure, Replay, ReplayFile, ReplayOptions, ReplayRun, Rerecorded};
use crate::sim::{self, Report, SimConfig, SimError, SimHooks};

/// A game loaded from its content pack.
pub trait DynGame: Send + Sync {
    fn game_id(&self) -> &str;
    fn variant(&self) -> Option<&str>;
    /// Fingerprint of the content the rules were built from; replays record it.
    fn content_hash(&self) -> Option<&str>;
    fn players(&self) -> RangeInclusive<usize>;
    /// How many play when the user does not say.
    fn default_players(&self) -> usize;
    fn notation_help(&self) -> String;
    fn new_match(&self, setup: Setup) -> Result<Box<dyn DynMatch + '_>, String>;
    /// Plays a saved game (a replay) back to where it stopped, to continue it.
    fn resume(
        &self,
        file: &ReplayFile,
        ignore_content_hash: bool,
    ) -> Result<Box<dyn DynMatch + '_>, Box<Failure>>;
    fn simulate(&self, config: &SimConfig, hooks: SimHooks<'_>) -> Result<Report, SimError>;
    fn replay(&self, file: &ReplayFile, options: ReplayOptions) -> ReplayRun;
    /// The file's text with its digests re-recorded ([`replay::rerecord`]).
    fn rerecord(
        &self,
        file: &ReplayFile,
        options: ReplayOptions,
    ) -> Result<Rerecorded, Box<Failure>>;
}

/// One game under way. Seats are 0-based here; the command line shows them 1-based.
pub trait DynMatch: Send {
    fn setup(&self) -> &Setup;
    fn to_move(&self) -> Option<Seat>;
    /// The legal moves in notation, in the rules' order (empty once the game is over).
    fn legal_moves(&mut self) -> Vec<String>;
    /// What each legal move gives and costs: its change in the mover's score, where that is
    /// public, and its cost in words.
    fn legal_terms(&mut self) -> Vec<MoveTerms>;
    fn play_text(&mut self, text: &str) -> Result<Played, PlayError>;
    /// Lets a bot of `kind` move for the seat to move. Each seat keeps its bot (and its
    /// generator, seeded from the game's seed and the seat) from move to move.
    fn bot_move(&mut self, kind: AgentKind) -> Result<Played, PlayError>;
    /// The table as `seat` may see it (from its observation), or the public table.
    fn render(&mut self, seat: Option<Seat>) -> String;
    /// What `viewer` (`None`: a spectator) may see of the game now (see [`Match::view`]).
    fn view(&mut self, viewer: Option<Seat>) -> crate::view::View;
    /// The step being decided, in words (empty: not named).
    fn prompt(&self) -> String;
    /// Where each seat's score comes from (empty: the rules give no breakdown).
    fn score_breakdown(&self) -> Vec<(Seat, Vec<(String, i64)>)>;
    /// Every place a card is, truly (for the game-over screen only: it names hidden cards).
    fn zones(&self) -> Vec<(String, Vec<String>)>;
    fn inspect(&self, query: &str) -> Result<String, String>;
    fn outcome(&self) -> Option<Outcome>;
    /// Why nobody can move though the game has not ended (see [`Rules::stuck`]).
    fn stuck(&self) -> Option<crate::game::Stuck>;
    fn history(&self) -> &[Played];
    /// What happened during setup, before the first move, in words.
    fn setup_events(&self) -> &[String];
    /// The same as `viewer` (`None`: a spectator) may read it.
    fn setup_events_for(&self, viewer: Option<Seat>) -> &[String];
    fn digest(&self) -> String;
    /// The rulebook's invariants on the current state (see [`Rules::check_invariants`]).
    fn check_invariants(&self) -> Result<(), String>;
    fn to_replay(&self, agents: Option<Vec<String>>) -> Replay;
}

/// Rules plus the hash of the content they were built from: the one implementation of
/// [`DynGame`].
pub struct LoadedGame<R: Rules> {
    pub rules: R,
    pub content_hash: Option<String>,
    /// The content's choice; the fewest the rules allow when it makes none.
    pub default_players: Option<usize>,
}

impl<R: Rules> LoadedGame<R> {
    pub fn new(rules: R, content_hash: Option<String>) -> Self {
        LoadedGame {
            rules,
            content_hash,
            default_players: None,
        }
    }

    pub fn with_default_players(mut self, players: usize) -> Self {
        self.default_players = Some(players);
        self
    }
}

impl<R: Rules + 'static> DynGame for LoadedGame<R> {
    fn game_id(&self) -> &str {
        self.rules.game_id()
    }
    fn variant(&self) -> Option<&str> {
        self.rules.variant()
    }
    fn content_hash(&self) -> Option<&str> {
        self.content_hash.as_deref()
    }
    fn players(&self) -> RangeInclusive<usize> {
        self.rules.players()
    }
    fn default_players(&self) -> usize {
        self.default_players
            .unwrap_or_else(|| *self.rules.players().start())
    }
    fn notation_help(&self) -> String {
        self.rules.notation_help()
    }
    fn new_match(&self, setup: Setup) -> Result<Box<dyn DynMatch + '_>, String> {
        let m = Match::new(&self.rules, setup)?;
        Ok(Box::new(MatchBox::new(m, self.content_hash.as_deref())))
    }
    fn resume(
        &self,
        file: &ReplayFile,
        ignore_content_hash: bool,
    ) -> Result<Box<dyn DynMatch + '_>, Box<Failure>> {
        let hash = self.content_hash.as_deref();
        let m = replay::resume(&self.rules, hash, file, ignore_content_hash)?;
        Ok(Box::new(MatchBox::new(m, hash)))
    }
    fn simulate(&self, config: &SimConfig, hooks: SimHooks<'_>) -> Result<Report, SimError> {
        let hash = self.content_hash.as_deref();
        let report = match (hooks.record, hash) {
            // Recorded games carry the content hash, which the generic runner does not know.
            (Some(sink), Some(hash)) => {
                let stamp = |mut record: sim::GameRecord| {
                    record.replay.content_hash = Some(hash.to_string());
                    sink(record);
                };
                let hooks = SimHooks {
                    record: Some(&stamp),
                    ..hooks
                };
                sim::simulate(&self.rules, config, hooks)
            }
            _ => sim::simulate(&self.rules, config, hooks),
        };
        // The report names the content, so shards of different packs do not merge.
        report.map(|report| Report {
            content_hash: hash.map(str::to_string),
            ..report
        })
    }
    fn replay(&self, file: &ReplayFile, options: ReplayOptions) -> ReplayRun {
        replay::run(&self.rules, self.content_hash.as_deref(), file, options)
    }
    fn rerecord(
        &self,
        file: &ReplayFile,
        options: ReplayOptions,
    ) -> Result<Rerecorded, Box<Failure>> {
        replay::rerecord(&self.rules, self.content_hash.as_deref(), file, options)
    }
}

struct MatchBox<'r, R: Rules> {
    m: Match<'r, R>,
    content_hash: Option<String>,
    bots: Vec<Option<BuiltinAgent<R>>>,
}

impl<'r, R: Rules> MatchBox<'r, R> {
    fn new(m: Match<'r, R>, content_hash: Option<&str>) -> Self {
        let players = m.setup().players;
        MatchBox {
            m,
            content_hash: content_hash.map(str::to_string),
            bots: (0..players).map(|_| None).collect(),
        }
    }
}

impl<R: Rules> DynMatch for MatchBox<'_, R> {
    fn setup(&self) -> &Setup {
        self.m.setup()
    }
    fn to_move(&self) -> Option<Seat> {
        self.m.to_move()
    }
    fn legal_moves(&mut self) -> Vec<String> {
        self.m.legal_texts()
    }
    fn legal_terms(&mut self) -> Vec<MoveTerms> {
        self.m.legal_terms()
    }
    fn play_text(&mut self, text: &str) -> Result<Played, PlayError> {
        self.m.play_text(text).cloned()
    }
    fn bot_move(&mut self, kind: AgentKind) -> Result<Played, PlayError> {
        let Some(seat) = self.m.to_move() else {
            return Err(PlayError::GameOver);
        };
        let seed = self.m.setup().seed;
        if seat >= self.bots.len() {
            self.bots.resize_with(seat + 1, || None);
        }
        let slot = &mut self.bots[seat];
        if slot.as_ref().map(BuiltinAgent::kind) != Some(kind) {
            *slot = Some(kind.build(agent::agent_seed(seed, seat)));
        }
        let bot = slot.as_mut().expect("just built");
        self.m.bot_move(bot).cloned()
    }
    fn render(&mut self, seat: Option<Seat>) -> String {
        self.m.render(seat)
    }
    fn view(&mut self, viewer: Option<Seat>) -> crate::view::View {
        self.m.view(viewer)
    }
    fn prompt(&self) -> String {
        self.m.prompt()
    }
    fn score_breakdown(&self) -> Vec<(Seat, Vec<(String, i64)>)> {
        self.m.score_breakdown()
    }
    fn zones(&self) -> Vec<(String, Vec<String>)> {
        self.m.zones()
    }
    fn inspect(&self, query: &str) -> Result<String, String> {
        self.m.inspect(query)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.m.outcome()
    }
    fn stuck(&self) -> Option<crate::game::Stuck> {
        self.m.stuck()
    }
    fn history(&self) -> &[Played] {
        self.m.history()
    }
    fn setup_events(&self) -> &[String] {
        self.m.setup_events()
    }
    fn setup_events_for(&self, viewer: Option<Seat>) -> &[String] {
        self.m.setup_events_for(viewer)
    }
    fn digest(&self) -> String {
        self.m.digest()
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.m.rules().check_invariants(self.m.state())
    }
    fn to_replay(&self, agents: Option<Vec<String>>) -> Replay {
        Replay::from_match(&self.m, self.content_hash.as_deref(), agents)
    }
}
