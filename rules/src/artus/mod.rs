//! Artus (Michael Kiesling & Wolfgang Kramer), beginner and advanced game.
//!
//! The rulebook as code: placing Knights, playing cards (move a figure, add a ring, score
//! Knights), displacement, the turning table, crowning, drawing from the pile of one's
//! choice, and the end after the pack's number of rounds. The board, the figures, every card
//! and number come from the pack (`content/artus/`); the shared mechanics are engine parts
//! (`ring`, `track`, `draw_piles`). Rule-text readings are in `docs/rules/artus.md`.

mod notation;
mod pack;
mod score;
mod state;
#[cfg(test)]
mod tests;
mod turn;
mod view;

use std::ops::RangeInclusive;

use grail_engine::cond::Program;
use grail_engine::game::{EventSink, Outcome, Rules, Seat, Setup};
use grail_engine::rng::GameRng;
use grail_engine::seats::Direction;
use grail_engine::track::ScoreTrack;

pub use pack::compile;
pub use state::{Action, Event, Phase, State};

/// The most Princes (neutral figures) a board may have.
pub const MAX_PRINCES: usize = 8;

/// The compiled rulebook: the pack's board, figures, cards and numbers in typed form.
#[derive(Clone, Debug)]
pub struct Artus {
    pub(crate) game: String,
    pub(crate) variant: Option<String>,
    pub(crate) players: RangeInclusive<usize>,
    pub(crate) board: Board,
    pub(crate) princes: Vec<Prince>,
    /// The Princes' colours, in the `princes` set's declared order.
    pub(crate) colors: Vec<String>,
    /// Every card of a player's decks; a card's index is its id in hands and actions.
    pub(crate) cards: Vec<CardDef>,
    pub(crate) decks: Vec<Deck>,
    /// Each deck's cards (copies repeated), unshuffled: a player's piles start from these.
    pub(crate) deck_cards: Vec<Vec<u8>>,
    /// Every move a card allows, ready to copy into the legal actions (legal-move
    /// generation is the hot loop of a playout): by player count, seat and card, the
    /// seat's Knights' moves and then the Princes' and the King's.
    pub(crate) moves: Vec<Vec<Vec<Vec<Action>>>>,
    /// The rings a card can add, by card and by which Prince is King.
    pub(crate) ring_moves: Vec<Vec<Vec<Action>>>,
    pub(crate) n: Numbers,
    pub(crate) track: ScoreTrack,
}

/// The fixed seats and the turning plates.
#[derive(Clone, Debug)]
pub struct Board {
    pub(crate) seats: usize,
    /// By their `position`: counter-clockwise round the table.
    pub(crate) plates: Vec<Plate>,
    /// The crown plate's index in `plates` (its position).
    pub(crate) crown: usize,
    /// Per seat: the names of its yes/no attributes that are "yes" (e.g. "carpet").
    pub(crate) seat_marks: Vec<Vec<String>>,
    /// The situation type of plate `p` over seat `s`, at `p * seats + s`.
    pub(crate) situation: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct Plate {
    pub(crate) value: i64,
    pub(crate) color: String,
}

#[derive(Clone, Debug)]
pub struct Prince {
    pub(crate) id: String,
    /// Index into `Artus::colors`.
    pub(crate) color: u8,
    pub(crate) seat: u8,
    pub(crate) rings: u8,
}

#[derive(Clone, Debug)]
pub struct CardDef {
    pub(crate) id: String,
    pub(crate) name: String,
    /// Index into `Artus::decks`.
    pub(crate) deck: u8,
    pub(crate) copies: u8,
    /// Alternatives: the player carries out one.
    pub(crate) effects: Vec<Effect>,
    /// Over the situations of the player's Knights (for `score` with chosen Knights).
    pub(crate) condition: Option<Program>,
    pub(crate) condition_text: String,
    /// The moves its effects allow one of the player's Knights, in seats (negative:
    /// backward), each once: what legal-move generation walks.
    pub(crate) knight_steps: Vec<i8>,
    /// The same for a Prince or the King, by colour.
    pub(crate) neutral_steps: Vec<Vec<i8>>,
}

impl CardDef {
    pub(crate) fn score_effect(&self) -> Option<(Pick, i64, i64)> {
        self.effects.iter().find_map(|e| match *e {
            Effect::Score {
                knights,
                sign,
                otherwise,
            } => Some((knights, sign, otherwise)),
            _ => None,
        })
    }
    pub(crate) fn ring_colors(&self) -> Option<u8> {
        self.effects.iter().find_map(|e| match *e {
            Effect::Ring { colors } => Some(colors),
            _ => None,
        })
    }
    pub(crate) fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.effects.iter().filter_map(|e| match *e {
            Effect::Move(m) => Some(m),
            _ => None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Move(Move),
    /// Add a ring to a Prince (never the King) of one of these colours (bit mask).
    Ring {
        colors: u8,
    },
    /// Score Knights' plates, times `sign`; `otherwise` when `Chosen` has no choice.
    Score {
        knights: Pick,
        sign: i64,
        otherwise: i64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub(crate) who: Who,
    /// Bit mask of Prince colours a neutral figure must have.
    pub(crate) colors: u8,
    pub(crate) min: u8,
    pub(crate) max: u8,
    pub(crate) backward: bool,
}

/// Which figures a move effect may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// One of the player's own Knights.
    Knight,
    /// A Prince or the King of the effect's colours.
    Neutral,
    /// Either.
    Any,
}

/// Which Knights a score effect scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    All,
    /// The Knight on the highest plate.
    Best,
    /// A choice meeting the card's condition with no Knight to spare.
    Chosen,
}

/// One of a player's decks (Knight cards, King cards, scoring cards).
#[derive(Clone, Debug)]
pub struct Deck {
    /// The pile's name in moves: the set id without `-cards` (`draw king`).
    pub(crate) word: String,
    /// Its cards are `first..first + len` of `Artus::cards`.
    pub(crate) first: u8,
    pub(crate) len: u8,
    /// Cards dealt from it into the starting hand.
    pub(crate) dealt: u8,
    /// Whether it is in the game at all.
    pub(crate) in_game: bool,
}

/// The pack's `[params]`.
#[derive(Clone, Debug)]
pub struct Numbers {
    /// Knights at the table per player, by player count (score markers taken off).
    pub(crate) knights: Vec<u8>,
    pub(crate) rings: u8,
    pub(crate) crown_rings: u8,
    pub(crate) old_king_keeps: u8,
    pub(crate) forward: Direction,
    pub(crate) displace: Direction,
    pub(crate) cards_per_turn: u8,
    pub(crate) draws_per_turn: u8,
    pub(crate) rounds: u8,
    pub(crate) bot_seat_worth_pct: i64,
    pub(crate) bot_rival_pct: i64,
}

impl Rules for Artus {
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

    fn describe_event(&self, state: &State, event: &Event) -> String {
        self.describe(state, event)
    }

    fn zones(&self, state: &State) -> Vec<(String, Vec<String>)> {
        self.zones_of(state)
    }

    /// Artus scores on a track as the game goes ("the value of the space that the Knight
    /// leaves"), so the final score is one part: the track.
    fn score_breakdown(&self, state: &State) -> Vec<(Seat, Vec<(String, i64)>)> {
        (state.players.iter().enumerate())
            .map(|(seat, p)| {
                (
                    seat,
                    vec![("prestige points on the track".to_owned(), p.score)],
                )
            })
            .collect()
    }

    /// The step being decided, as the rule text's turn describes it.
    fn prompt(&self, state: &State) -> String {
        match state.phase {
            state::Phase::Place => "place one of your Knights on an empty seat",
            state::Phase::Play { .. } => "play a card from your hand",
            state::Phase::Choose { .. } => "choose the Knights your scoring card scores",
            state::Phase::Draw { .. } => "draw a card from a pile of your choice",
            state::Phase::Over => "",
        }
        .to_owned()
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
