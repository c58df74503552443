//! King Arthur – Das Kartenspiel (Reiner Knizia), basic game and the seals variant.
//!
//! The rulebook as code: the turn's four optional actions, challenges, adventures, the two
//! ways the game ends, scoring. Every number, card and condition comes from the pack
//! (`content/king-arthur/`); rule-text readings are in `docs/rules/king-arthur.md`.

mod notation;
mod pack;
mod score;
mod state;
mod turn;
mod view;

use std::ops::RangeInclusive;

use grail_engine::cond::Program;
use grail_engine::cond::affordable::Readers;
use grail_engine::cond::ceiling::Ceiling;
use grail_engine::game::{EventSink, Outcome, Rules, Seat, Setup};
use grail_engine::rng::GameRng;

pub use pack::compile;
pub use state::{Action, End, Event, Mode, Phase, State};

/// The compiled rulebook: the pack's cards, numbers and conditions in typed form.
#[derive(Clone, Debug)]
pub struct KingArthur {
    pub(crate) game: String,
    pub(crate) variant: Option<String>,
    pub(crate) players: RangeInclusive<usize>,
    pub(crate) knights: CardSet,
    pub(crate) adversaries: CardSet,
    /// Adversary type → its column (the index of its column-attribute value).
    pub(crate) column_of: Vec<u8>,
    pub(crate) column_names: Vec<String>,
    /// Adversary type → its power (the set's value attribute).
    pub(crate) power: Vec<i64>,
    /// Knight type → its strength (the set's value attribute).
    pub(crate) strength: Vec<i64>,
    pub(crate) adventures: Vec<Adventure>,
    /// Per adventure: the adversary types its condition reads (which hand changes can turn
    /// whether it is payable).
    pub(crate) adventure_readers: Readers,
    /// Over knights, with the argument `power`.
    pub(crate) challenge: Program,
    /// The dearest challenge a hand can pay, when the challenge condition lets one pass say.
    pub(crate) challenge_ceiling: Option<Ceiling>,
    /// The challenge condition in words, for players, and as written (to quote the part a
    /// payment fails).
    pub(crate) challenge_text: String,
    pub(crate) challenge_source: String,
    /// Over adversaries: what a payment gives up.
    pub(crate) payment_cost: Program,
    /// Over adversaries: what a hand scores at the end.
    pub(crate) hand_score: Program,
    /// Over knights: what breaks a tie.
    pub(crate) tiebreak: Program,
    pub(crate) seal_colors: Vec<String>,
    pub(crate) n: Numbers,
}

pub use crate::cards::CardSet;

#[derive(Clone, Debug)]
pub struct Adventure {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) points: i64,
    pub(crate) condition: Program,
    /// The condition as written, to show players.
    pub(crate) source: String,
}

/// The pack's `[params]`.
#[derive(Clone, Debug, Default)]
pub struct Numbers {
    pub(crate) hand_size: u8,
    pub(crate) column_limit: u8,
    pub(crate) knight_draw: u8,
    pub(crate) rest_draw: u8,
    pub(crate) end_when_adventures_left: u8,
    pub(crate) tiebreak_knights_in_hand: bool,
    pub(crate) seals_per_player: u8,
    pub(crate) double_challenge_factor: i64,
    pub(crate) turn_limit: u32,
    pub(crate) bot_knight_worth_pct: i64,
    pub(crate) bot_ready_adventure_pct: i64,
}

impl KingArthur {
    pub(crate) fn seals(&self) -> bool {
        self.n.seals_per_player > 0
    }
}

impl Rules for KingArthur {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn game_id(&self) -> &str {
        &self.game
    }

    fn variant(&self) -> Option<&str> {
        self.variant.as_deref()
    }

    fn players(&self) -> RangeInclusive<usize> {
        self.players.clone()
    }

    fn setup(&self, setup: &Setup) -> Result<State, String> {
        self.deal(setup)
    }

    fn to_move(&self, state: &State) -> Option<Seat> {
        (state.phase != Phase::Over).then_some(state.current as Seat)
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        out.clear();
        self.options(state, out);
    }

    fn apply(&self, state: &mut State, action: &Action, events: &mut impl EventSink<Event>) {
        self.play(state, action, events);
    }

    fn why_illegal(&self, state: &State, action: &Action) -> String {
        self.explain(state, action)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        self.final_outcome(state)
    }

    fn observe(&self, state: &State, seat: Seat, rng: &mut GameRng) -> State {
        self.determinise(state, seat, rng)
    }

    fn heuristic(&self, state: &State, seat: Seat) -> f64 {
        self.evaluate(state, seat)
    }

    fn format_action(&self, state: &State, action: &Action) -> String {
        self.notation(state, action)
    }

    fn parse_action(&self, state: &State, text: &str) -> Result<Action, String> {
        self.read(state, text)
    }

    fn describe_event(&self, _state: &State, event: &Event) -> String {
        self.describe(event)
    }

    fn zones(&self, state: &State) -> Vec<(String, Vec<String>)> {
        self.zones_of(state)
    }

    fn prompt(&self, state: &State) -> String {
        self.phase_text(state.phase)
    }

    fn score_breakdown(&self, state: &State) -> Vec<(Seat, Vec<(String, i64)>)> {
        (0..state.players.len())
            .map(|seat| {
                let (adventures, adversaries) = self.score_parts(state, seat);
                let parts = vec![
                    ("adventures taken".to_owned(), adventures),
                    ("adversary cards in hand".to_owned(), adversaries),
                ];
                (seat, parts)
            })
            .collect()
    }

    fn render(&self, state: &State, seat: Option<Seat>) -> String {
        self.table(state, seat)
    }

    fn inspect(&self, state: &State, query: &str) -> Result<String, String> {
        self.answer(state, query)
    }

    fn notation_help(&self) -> String {
        self.help()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        self.conservation(state)
    }
}
