//! Camelot Virtues: the virtue, quest, feast, joust and duel game, from a fragment of its
//! rules completed by `shared/reference/camelot-virtues-data.md`.
//!
//! The rulebook as code: the king and the turn, quests (embarking, presenting at any time,
//! trials, splitting rewards, giving up, expiry), the six actions, the king's bestowal, deaths
//! and the three endings. Several players decide things outside their own turn (feast offers
//! and answers, prizes, joust rounds, partners adding cards, split votes, presentation
//! windows); each is simply the seat `to_move` names, so bots, scripts and the terminal need
//! nothing special. Every card, number and condition comes from the pack
//! (`content/virtues/`); the readings are in `docs/rules/virtues.md`.

mod bot;
mod contest;
mod effects;
mod feast;
mod notation;
mod pack;
mod quest;
mod score;
mod state;
mod turn;
mod view;

#[cfg(test)]
mod tests;

use std::ops::RangeInclusive;

use grail_engine::cond::Program;
use grail_engine::counts::Counts;
use grail_engine::game::{EventSink, Outcome, Rules, Seat as EngineSeat, Setup};
use grail_engine::rng::GameRng;

pub use effects::{Effect, Kind as EffectKind, Target, When};
pub use pack::compile;
pub use state::{Action, Card, End, Event, Player, Seat, Stage, State};

/// The compiled rulebook.
#[derive(Clone, Debug)]
pub struct Virtues {
    pub(crate) game: String,
    pub(crate) variant: Option<String>,
    pub(crate) players: RangeInclusive<usize>,
    pub(crate) virtues: CardSet,
    pub(crate) treasures: CardSet,
    pub(crate) quest_cards: CardSet,
    pub(crate) trial_cards: CardSet,
    /// Per treasure type: its points.
    pub(crate) treasure_points: Vec<i64>,
    pub(crate) crown: Card,
    pub(crate) honor: HonorCards,
    pub(crate) quests: Vec<Quest>,
    pub(crate) trials: Vec<Trial>,
    /// Per virtue / treasure type: what happens when it is traded in a feast.
    pub(crate) virtue_feast: Vec<Vec<Effect>>,
    pub(crate) treasure_feast: Vec<Vec<Effect>>,
    /// Virtue types that count in a joust, a duel, and may aid a prayer (bit per type).
    pub(crate) joust_mask: u64,
    pub(crate) duel_mask: u64,
    pub(crate) aid_mask: u64,
    pub(crate) joust_text: String,
    pub(crate) duel_text: String,
    /// Over the virtues: how many treasures a hand may pair with Sin.
    pub(crate) sin_pairs: Program,
    /// The tradable cards: every virtue type, then every treasure type.
    pub(crate) items: Vec<grail_engine::exchange::Item>,
    pub(crate) n: Numbers,
}

pub use crate::cards::CardSet;

#[derive(Clone, Debug, Default)]
pub struct HonorCards {
    pub(crate) honor_name: String,
    pub(crate) dishonor_name: String,
    pub(crate) honor_points: i64,
    pub(crate) dishonor_points: i64,
    pub(crate) honor_copies: u8,
    pub(crate) dishonor_copies: u8,
}

#[derive(Clone, Debug)]
pub struct Quest {
    pub(crate) requirement: Program,
    /// The requirement as written.
    pub(crate) source: String,
    /// The requirement in words for players ("two or more Mercy cards").
    pub(crate) words: String,
    /// The smallest presentations that meet the requirement from the whole virtue deck: how
    /// close a hand is to it (for bots).
    pub(crate) shapes: Vec<Counts>,
    pub(crate) trials: u8,
    pub(crate) max_knights: u8,
    pub(crate) reward: Vec<Effect>,
    pub(crate) penalty: Vec<Effect>,
    pub(crate) text: String,
    /// For bots: the reward's and the penalty's worth in points to one knight.
    pub(crate) gain: f64,
    pub(crate) loss: f64,
    /// For bots: the Honor cards its reward brings the knights on it (the kingdom's balance).
    pub(crate) honors: f64,
}

#[derive(Clone, Debug)]
pub struct Trial {
    pub(crate) requirement: Option<Program>,
    /// The smallest presentations that meet the requirement from the whole virtue deck.
    pub(crate) shapes: Vec<Counts>,
    pub(crate) source: String,
    pub(crate) unmet: Vec<Effect>,
    pub(crate) drawn: Vec<Effect>,
    pub(crate) text: String,
}

/// The pack's `[params]`.
#[derive(Clone, Debug, Default)]
pub struct Numbers {
    pub(crate) starting_virtues: u8,
    pub(crate) pray_draw: u8,
    pub(crate) tax_draw: u8,
    /// The params that may depend on the player count (`[params.by-players]`), indexed by
    /// it; read them with [`Numbers::at`].
    pub(crate) by_players: Vec<TableNumbers>,
    pub(crate) duel_questing_knights: bool,
    /// A joust prize is drawn from the treasure deck, not put up from one's hand.
    pub(crate) joust_prize_from_deck: bool,
    pub(crate) ending_margin: i64,
    pub(crate) sin_multiplier: i64,
    pub(crate) turn_limit: u32,
    pub(crate) bot: BotWeights,
}

/// The params a pack may give per player count: our completions of the fragment, which may
/// fit a table of three differently from one of six (F's own numbers are the same at every
/// table).
#[derive(Clone, Debug, Default)]
pub struct TableNumbers {
    pub(crate) starting_quests: u8,
    pub(crate) bestow_cards: u8,
    pub(crate) pray_aid_draw: u8,
    pub(crate) feast_offers: u8,
    pub(crate) joust_prizes: u8,
}

impl Numbers {
    /// The per-count params of a game of `state`'s size.
    pub(crate) fn at(&self, state: &State) -> &TableNumbers {
        &self.by_players[state.count()]
    }
}

/// The greedy bot's weights, in hundredths of a point (`bot_*` params).
#[derive(Clone, Debug, Default)]
pub struct BotWeights {
    pub(crate) virtue: f64,
    pub(crate) ready_quest: f64,
    pub(crate) prospect: f64,
    pub(crate) other_quests: f64,
    pub(crate) win: f64,
    pub(crate) loyalty: f64,
    pub(crate) spread: f64,
    pub(crate) death: f64,
}

impl Rules for Virtues {
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

    fn to_move(&self, state: &State) -> Option<EngineSeat> {
        self.decider(state).map(EngineSeat::from)
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

    fn observe(&self, state: &State, seat: EngineSeat, rng: &mut GameRng) -> State {
        self.determinise(state, seat as Seat, rng)
    }

    fn heuristic(&self, state: &State, seat: EngineSeat) -> f64 {
        self.evaluate(state, seat as Seat)
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
        self.stage_text(state)
    }

    fn score_breakdown(&self, state: &State) -> Vec<(EngineSeat, Vec<(String, i64)>)> {
        self.breakdown(state)
    }

    fn render(&self, state: &State, seat: Option<EngineSeat>) -> String {
        self.table(state, seat.map(|s| s as Seat))
    }

    fn inspect(&self, state: &State, query: &str) -> Result<String, String> {
        self.answer(state, query)
    }

    fn notation_help(&self) -> String {
        self.help()
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        self.invariants(state)
    }
}
