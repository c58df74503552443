//! Quests of the Round Table (Scott Kimball).
//!
//! The rulebook as code: the story card each turn; quests (sponsorship offered around the
//! table, stages laid out by the sponsor, joining, hidden commitments per foe stage, test
//! bidding); tournaments; events; ranks; the win. Cards, numbers, situational values and
//! event effects come from the pack (`content/quests/`); rule-text readings are in
//! `docs/rules/quests.md`.

mod bot;
mod build;
mod flow;
mod notation;
mod pack;
mod score;
mod spec;
mod state;
mod view;

#[cfg(test)]
mod tests;

use std::ops::RangeInclusive;

use grail_engine::bidding::Rounds;
use grail_engine::game::{EventSink, NoEvents, Outcome, Rules, Seat, Setup};
use grail_engine::ladder::Ladder;
use grail_engine::rng::GameRng;
use grail_engine::situational::Situational;

pub use pack::compile;
pub use spec::SPEC;
pub use state::{Action, End, Event, Phase, State};

/// The compiled rulebook: the pack's cards, numbers and effects in typed form.
#[derive(Clone, Debug)]
pub struct Quests {
    pub(crate) game: String,
    pub(crate) variant: Option<String>,
    pub(crate) players: RangeInclusive<usize>,
    pub(crate) adventure: CardSet,
    pub(crate) story: CardSet,
    pub(crate) ranks: CardSet,
    /// Adventure card type → what it does.
    pub(crate) kind: Vec<Kind>,
    /// Type masks of the adventure kinds.
    pub(crate) masks: [u64; KINDS],
    /// Battle points, free bids and printed minimum bids of adventure cards, by situation.
    pub(crate) bp: Situational,
    pub(crate) bids: Situational,
    pub(crate) min_bid: Situational,
    /// Adventure cards that may be sacrificed to remove an ally (Mordred).
    pub(crate) removers: Vec<(u8, Targets)>,
    /// Allies whose owner may preview stages (Merlin), with uses per quest.
    pub(crate) previewers: Vec<(u8, u8)>,
    /// The same as type masks.
    pub(crate) remover_mask: u64,
    pub(crate) previewer_mask: u64,
    /// Story card type → what it is, and its card text.
    pub(crate) stories: Vec<Story>,
    pub(crate) story_texts: Vec<String>,
    /// Rank type → battle points.
    pub(crate) rank_bp: Vec<i64>,
    pub(crate) ladder: Ladder,
    /// Where the story card and the allies go in a situation (the `when_over` layout).
    pub(crate) layout: Layout,
    pub(crate) n: Numbers,
    /// The deck's average foe and weapon battle points: how bots guess a face-down stage.
    pub(crate) guess: (f64, f64),
    /// The greedy bot's worth of each adventure card in hand and in play as an ally, in
    /// hundredths of a card (from the `bot_*` params and the printed values).
    pub(crate) bot_hand: Vec<i64>,
    pub(crate) bot_ally: Vec<i64>,
    /// Shields needed to leave each rank, summed: rank → shields earned to reach it.
    pub(crate) progress: Vec<u32>,
    /// The situation's slots the battle point and free bid overrides read, and every
    /// adventure card's (battle points, free bids) with only story card `i` in play (the last
    /// entry: no story card). Used whenever nothing else in play is read.
    pub(crate) value_reads: u64,
    /// Per adventure card: the slots its battle point or free bid overrides read.
    pub(crate) card_reads: Vec<u64>,
    pub(crate) story_values: Vec<([i16; 64], [i16; 64])>,
}

pub use crate::cards::CardSet;

/// What an adventure card does, from its `kind` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Weapon,
    Foe,
    Test,
    Ally,
    Amour,
}

pub(crate) const KINDS: usize = 5;

impl Kind {
    pub(crate) const ALL: [Kind; KINDS] =
        [Kind::Weapon, Kind::Foe, Kind::Test, Kind::Ally, Kind::Amour];
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Weapon => "weapon",
            Kind::Foe => "foe",
            Kind::Test => "test",
            Kind::Ally => "ally",
            Kind::Amour => "amour",
        }
    }
    pub(crate) fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Whose allies a remover may target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targets {
    Others,
    Any,
}

#[derive(Clone, Debug)]
pub enum Story {
    Quest { stages: u8 },
    Tournament { bonus: u32 },
    Event { effects: Vec<Effect> },
}

/// An event's effect (docs/rules/quests.md, "Events").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The next players to complete a quest get this many extra shields.
    QuestBonus {
        shields: u32,
    },
    Draw {
        who: Who,
        cards: u8,
    },
    DiscardAllies {
        who: Who,
    },
    /// Shields gained (or lost, negative).
    Shields {
        who: Who,
        shields: i64,
    },
    /// Discard cards of the first kind in `choices` the player holds, up to its count.
    Discard {
        who: Who,
        choices: Vec<(Kind, u8)>,
    },
}

/// Whom an effect touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Drawer,
    Others,
    All,
    LowestRank,
    HighestRank,
    LowestRankFewestShields,
}

impl Who {
    pub(crate) const NAMES: [(&'static str, Who); 6] = [
        ("drawer", Who::Drawer),
        ("others", Who::Others),
        ("all", Who::All),
        ("lowest-rank", Who::LowestRank),
        ("highest-rank", Who::HighestRank),
        ("lowest-rank-fewest-shields", Who::LowestRankFewestShields),
    ];
}

/// Offsets of the sets a situation lays side by side (the adventure set's `when_over`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout {
    pub(crate) story: Option<u8>,
    pub(crate) adventure: Option<u8>,
    pub(crate) ranks: Option<u8>,
}

/// The pack's `[params]`.
#[derive(Clone, Debug)]
pub struct Numbers {
    pub(crate) hand_size: u8,
    pub(crate) hand_limit: u32,
    pub(crate) quest_draw: u8,
    pub(crate) stage_draw: u8,
    pub(crate) sponsor_draw_per_stage: u8,
    pub(crate) shields_per_stage: u32,
    pub(crate) tests_per_quest: u8,
    pub(crate) amours_per_quest: u8,
    pub(crate) weapon_copies: u8,
    pub(crate) lone_min_bid: u8,
    pub(crate) opening_min_bid: u8,
    pub(crate) test_bidding: Rounds,
    pub(crate) tournament_min_entrants: u8,
    pub(crate) tournament_draw: u8,
    pub(crate) shields_per_entrant: u32,
    pub(crate) tiebreak_rounds: u8,
    pub(crate) final_tournament: bool,
    /// Whether a bidder may put allies, and an Amour, from hand into play at his turn to bid.
    pub(crate) allies_during_tests: bool,
    pub(crate) amour_during_tests: bool,
    pub(crate) partner_same_player: bool,
    pub(crate) next_after_sponsor: bool,
    pub(crate) turn_limit: u32,
    pub(crate) bot: BotWeights,
}

/// The greedy bot's weights, in hundredths of a card (docs/rules/quests.md, "Bots").
#[derive(Clone, Copy, Debug, Default)]
pub struct BotWeights {
    pub(crate) shield: f64,
    pub(crate) opponent_shield: f64,
    pub(crate) card: f64,
    pub(crate) bp: f64,
    /// The chance it gives the foe stage under way once its commitment reaches the foe's
    /// battle points (seen or guessed).
    pub(crate) beaten: f64,
}

impl Quests {
    #[inline]
    pub(crate) fn is(&self, card: u8, kind: Kind) -> bool {
        self.masks[kind as usize] & (1u64 << card) != 0
    }
}

impl Rules for Quests {
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
        self.deal(setup, &mut NoEvents)
    }

    fn setup_with_events(
        &self,
        setup: &Setup,
        events: &mut impl EventSink<Event>,
    ) -> Result<State, String> {
        self.deal(setup, events)
    }

    fn to_move(&self, state: &State) -> Option<Seat> {
        self.decider(state).map(usize::from)
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
        let mut view = state.clone();
        self.determinise(state, seat, rng, &mut view);
        view
    }

    fn observe_into(&self, state: &State, seat: Seat, rng: &mut GameRng, view: &mut State) {
        self.determinise(state, seat, rng, view);
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

    fn format_action_for(&self, before: &State, action: &Action, viewer: Option<Seat>) -> String {
        self.notation_for(before, action, viewer)
    }

    fn zones(&self, state: &State) -> Vec<(String, Vec<String>)> {
        self.zones_of(state)
    }

    fn render(&self, state: &State, seat: Option<Seat>) -> String {
        self.table(state, seat)
    }

    /// The decision under way, as the table's "Now:" line words it (public).
    fn prompt(&self, state: &State) -> String {
        if self.decider(state).is_none() {
            return String::new();
        }
        self.phase_words(state)
    }

    fn score_breakdown(&self, state: &State) -> Vec<(Seat, Vec<(String, i64)>)> {
        self.breakdown(state)
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
