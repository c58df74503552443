//! The game interface. One trait serves the terminal game, scripts, replays, bots and
//! simulation; a rules module implements it once per game, from its content pack.
//!
//! Invariants every implementation keeps:
//! - All randomness comes from a [`GameRng`](crate::rng::GameRng) stored in the state, so a
//!   state plus a move list replays exactly.
//! - `apply` is only called with an action from `legal_actions` (drivers check this and ask
//!   `why_illegal` for the message), so it does not validate again.
//! - `observe` returns a *determinised* copy of the state: everything `seat` cannot see is
//!   re-dealt at random from a canonical order, and the stored generator is replaced. The
//!   result depends only on what `seat` knows, never on the hidden truth. Bots and the
//!   terminal UI only ever get observations.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::RangeInclusive;

use crate::rng::GameRng;

/// A player's place at the table, 0-based inside the engine, shown 1-based ("P1") to users.
pub type Seat = usize;

/// How a game is started. Scripts may stack piles: the named cards go on top, in order,
/// after the seeded shuffle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    pub players: usize,
    pub seed: u64,
    pub stack: Vec<(String, Vec<String>)>,
    /// A script's starting position: entry (a zone, figure or counter, named as the rules'
    /// queries name it) → what it holds. Empty: the game is set up as usual.
    pub position: Vec<(String, Vec<String>)>,
}

impl Setup {
    pub fn new(players: usize, seed: u64) -> Self {
        Setup {
            players,
            seed,
            stack: Vec::new(),
            position: Vec::new(),
        }
    }
}

/// The end of a game, as the rules score it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Final score per seat.
    pub scores: Vec<i64>,
    /// Seats that won (several on a shared win), in seat order.
    pub winners: Vec<Seat>,
    /// How the game ended, as a short stable key (`"adventures-taken"`).
    pub end: String,
    /// Turns played (the rules module says what a turn is).
    pub turns: u32,
    /// Things worth counting in a balance report: which card was taken, when, by whom.
    pub tallies: Vec<Tally>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// What kind of thing happened (`"adventure"`, `"quest sponsored"`). Shared, not owned:
    /// every finished game of a simulation reports its tallies, and the names are few.
    pub kind: std::sync::Arc<str>,
    /// Which one (a card id).
    pub item: std::sync::Arc<str>,
    pub turn: u32,
    pub seat: Option<Seat>,
}

/// Why a game stopped before its end: a stable code (`game-stuck`, `runaway-move`,
/// `number-out-of-range`, `divide-by-zero`) and the rule that stopped it, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stuck {
    pub code: &'static str,
    pub why: String,
}

impl Stuck {
    pub fn new(code: &'static str, why: impl Into<String>) -> Stuck {
        Stuck {
            code,
            why: why.into(),
        }
    }
}

impl std::fmt::Display for Stuck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

/// What a legal move gives and costs, for the terminal's menu (`Match::legal_terms`), in
/// words for players; public information and the mover's own only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveTerms {
    /// What the move changes in the mover's score, where the score is public: at once, or,
    /// for a move whose payment is chosen as the next move, by its own effects once paid
    /// (what the payment itself takes from the score is shown with the payment).
    pub score: Option<i64>,
    /// What it costs, in words, when that is the move's own ("cards worth 12 or more in
    /// total").
    pub pays: Option<String>,
    /// What it costs, in words, when every move of its kind costs the same: said once,
    /// above the moves ("challenge: pay knight cards of one colour … (power: the value of
    /// the card)").
    pub note: Option<String>,
}

/// Where `apply` reports what happened. Simulation passes [`NoEvents`], which compiles away.
pub trait EventSink<E> {
    const ENABLED: bool;
    fn push(&mut self, event: E);
    /// Builds the event only when someone listens.
    #[inline]
    fn emit(&mut self, make: impl FnOnce() -> E) {
        if Self::ENABLED {
            self.push(make());
        }
    }
}

impl<E> EventSink<E> for Vec<E> {
    const ENABLED: bool = true;
    #[inline]
    fn push(&mut self, event: E) {
        Vec::push(self, event);
    }
}

/// Discards events.
pub struct NoEvents;

impl<E> EventSink<E> for NoEvents {
    const ENABLED: bool = false;
    #[inline]
    fn push(&mut self, _event: E) {}
}

/// A rulebook, compiled from its content pack.
pub trait Rules: Send + Sync {
    type State: Clone + Debug + Hash + Send + Sync;
    type Action: Clone + Debug + PartialEq + Send + Sync;
    type Event: Clone + Debug + Send;

    /// The pack's id and variant, for replays and reports.
    fn game_id(&self) -> &str;
    fn variant(&self) -> Option<&str>;
    /// Player counts the pack supports.
    fn players(&self) -> RangeInclusive<usize>;

    /// Deal and lay out. Fails on a player count outside `players()` or a bad stack request.
    fn setup(&self, setup: &Setup) -> Result<Self::State, String>;
    /// [`Self::setup`], telling what already happened before the first decision (a first
    /// card turned over and carried out). Games where nothing does keep this default.
    fn setup_with_events(
        &self,
        setup: &Setup,
        events: &mut impl EventSink<Self::Event>,
    ) -> Result<Self::State, String> {
        let _ = events;
        self.setup(setup)
    }
    /// [`Self::setup`] in the storage of a state a finished game left: a simulation plays
    /// game after game without allocating a game's worth of buffers each time. The state
    /// given is only storage: the game set up is the one `setup` gives. Games whose states
    /// are cheap to make keep this default.
    fn setup_into(&self, setup: &Setup, spare: Self::State) -> Result<Self::State, String> {
        drop(spare);
        self.setup(setup)
    }
    /// Who decides now: any seat, not only the one whose turn it is. `None` once the game
    /// is over.
    fn to_move(&self, state: &Self::State) -> Option<Seat>;
    /// Every legal action for `to_move`, in a stable order. `out` is cleared first.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);
    /// The legal actions, read in place when the state keeps them listed (what
    /// `legal_actions` would copy out, in its order); `None`: ask `legal_actions`.
    fn listed<'s>(&self, state: &'s Self::State) -> Option<&'s [Self::Action]> {
        let _ = state;
        None
    }
    /// How many legal actions the state keeps listed, also when it cannot hand them out as
    /// one slice (part of them read from a table of the rules); `None`: ask `legal_actions`.
    /// With [`Rules::listed_nth`] it lets an agent that picks by their number alone (random)
    /// choose without the list being written out.
    fn listed_count(&self, state: &Self::State) -> Option<usize> {
        self.listed(state).map(<[Self::Action]>::len)
    }
    /// The `i`-th of the legal actions [`Rules::listed_count`] counts, in `legal_actions`'
    /// order.
    fn listed_nth(&self, state: &Self::State, i: usize) -> Option<Self::Action> {
        self.listed(state)?.get(i).cloned()
    }
    /// Carries out a legal action.
    fn apply(
        &self,
        state: &mut Self::State,
        action: &Self::Action,
        events: &mut impl EventSink<Self::Event>,
    );
    /// Why `action` is not legal now, in words for the player.
    fn why_illegal(&self, state: &Self::State, action: &Self::Action) -> String;
    /// The scores once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;
    /// Why a game that has not reached its end offers nobody a move, naming the rule that
    /// left it there (a content mistake, reported as an error rather than played on to a
    /// turn limit): nobody can move, or a move failed (it did not end, or a number left the
    /// range). `None`: the game is not stuck.
    fn stuck(&self, state: &Self::State) -> Option<Stuck> {
        let _ = state;
        None
    }

    /// What `seat` may know, determinised (see the module docs).
    fn observe(&self, state: &Self::State, seat: Seat, rng: &mut GameRng) -> Self::State;
    /// The same observation written over `view`, an earlier one: drivers ask for one per
    /// bot decision, and a rules module whose states own buffers overrides this to reuse
    /// them. It must equal `observe` given the same generator.
    fn observe_into(
        &self,
        state: &Self::State,
        seat: Seat,
        rng: &mut GameRng,
        view: &mut Self::State,
    ) {
        *view = self.observe(state, seat, rng);
    }
    /// How good `state` looks for `seat`, from its own observation; greedy bots maximise it.
    fn heuristic(&self, state: &Self::State, seat: Seat) -> f64;

    /// The move notation: `parse_action(s, &format_action(s, a)) == Ok(a)` for every legal `a`.
    fn format_action(&self, state: &Self::State, action: &Self::Action) -> String;
    fn parse_action(&self, state: &Self::State, text: &str) -> Result<Self::Action, String>;
    fn describe_event(&self, state: &Self::State, event: &Self::Event) -> String;

    /// [`Self::format_action`] as `viewer` may read it, from the state before the move
    /// (`None`: a spectator, who sees only what every player sees). A card the viewer
    /// cannot see is not named but described ("adds a card to stage 2 face down"). Only
    /// for showing: the history, replays and saves keep the canonical notation. The
    /// default suits games whose every move is public.
    fn format_action_for(
        &self,
        before: &Self::State,
        action: &Self::Action,
        viewer: Option<Seat>,
    ) -> String {
        let _ = viewer;
        self.format_action(before, action)
    }
    /// [`Self::describe_event`] as `viewer` may read it (`None`: a spectator), from the
    /// state after the move. The default suits games whose events name no hidden card.
    fn describe_event_for(
        &self,
        state: &Self::State,
        event: &Self::Event,
        viewer: Option<Seat>,
    ) -> String {
        let _ = viewer;
        self.describe_event(state, event)
    }
    /// Where the cards are: every place a card can be (a hand, a deck, a face-down stage,
    /// a discard pile), named, with the ids of the cards in it, in the state's order. Read
    /// only by tests, to check that nothing shown to a seat names a card it cannot see: a
    /// zone is visible to a seat when its observations leave it as it truly is.
    fn zones(&self, state: &Self::State) -> Vec<(String, Vec<String>)> {
        let _ = state;
        Vec::new()
    }

    /// The table as `seat` sees it (`None`: what every player sees), for the terminal.
    fn render(&self, state: &Self::State, seat: Option<Seat>) -> String;
    /// The same table in parts (zones, counters, lines) for the view model
    /// ([`crate::view::View`]), from the same observation `render` draws. The default reads
    /// `render`'s lines back as text.
    fn table_parts(&self, state: &Self::State, seat: Option<Seat>) -> Vec<crate::view::Part> {
        crate::view::lines_of(&self.render(state, seat))
    }
    /// Answers a script's question about the state (`"score P1"`, `"hand P2"`), as text.
    fn inspect(&self, state: &Self::State, query: &str) -> Result<String, String>;
    /// The step being decided, in words for the menu ("2. challenge an adversary?"); public
    /// information only. Empty (the default): the menu names no step.
    fn prompt(&self, state: &Self::State) -> String {
        let _ = state;
        String::new()
    }
    /// Notation help for the terminal's `help` command.
    fn notation_help(&self) -> String;
    /// Where each seat's score comes from, for the game-over screen: per seat, labelled
    /// parts (`"treasures"`, `"sum(value, trails(P))"`) that add up to its score in
    /// [`Self::outcome`]. Empty (the default): no breakdown is shown.
    fn score_breakdown(&self, state: &Self::State) -> Vec<(Seat, Vec<(String, i64)>)> {
        let _ = state;
        Vec::new()
    }

    /// Whether the breakdown reads only what every player sees, so that what a move would
    /// change in the mover's score can be shown beside it (`Match::legal_gains`). False (the
    /// default): a score may read hidden cards.
    fn score_is_public(&self) -> bool {
        false
    }

    /// What `action`, a legal move, gives and costs beyond the score change the engine works
    /// out by playing it on a copy (`Match::legal_terms`): for a move whose payment is the
    /// next move, what its own effects add to the score and what it costs, in words. The
    /// default: nothing more is said.
    fn move_terms(&self, state: &Self::State, action: &Self::Action) -> MoveTerms {
        let _ = (state, action);
        MoveTerms::default()
    }

    /// The rulebook's conservation laws and other invariants (no card created or lost, one
    /// figure per seat, …). The property tests call it after every move; `Err` says what
    /// is broken.
    fn check_invariants(&self, state: &Self::State) -> Result<(), String>;

    /// Whether `setup` honours [`Setup::position`]; the replay runner refuses a script
    /// stating a position to rules that would ignore it.
    fn takes_positions(&self) -> bool {
        false
    }
}
