//! The Quests table: the two decks and their discards, hands, allies and Amours in play,
//! ranks and shields, the story card in play, and where in the turn we are.

use std::sync::Arc;

use grail_engine::bidding::{Bidding, Rounds};
use grail_engine::counts::Counts;
use grail_engine::offer::{Offer, OfferKind};
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;
use grail_engine::sealed::Sealed;
use grail_engine::seat_set::SeatSet;

/// A card type index into one of the pack's sets.
pub type Card = u8;
pub type Seat = u8;

/// The most stages a quest may have (a capacity, checked against the pack).
pub const MAX_STAGES: usize = 8;

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) rng: GameRng,
    pub(crate) players: Vec<Player>,
    /// Whose turn it is (the player who drew the story card).
    pub(crate) current: Seat,
    /// Whose turn comes next (the sponsor's left after a quest, by default).
    pub(crate) next: Seat,
    /// Turns completed so far.
    pub(crate) turn: u32,
    pub(crate) phase: Phase,
    pub(crate) adventure_deck: Pile,
    pub(crate) adventure_discard: Pile,
    pub(crate) story_deck: Pile,
    pub(crate) story_discard: Pile,
    /// The story card in play this turn.
    pub(crate) story: Option<Card>,
    /// Sponsorship, joining, entering: whoever is being asked.
    pub(crate) offer: Offer,
    pub(crate) quest: Quest,
    /// The face-down cards of questors (per foe stage) and tournament entrants (per round).
    pub(crate) sealed: Sealed,
    pub(crate) bidding: Bidding,
    pub(crate) tourney: Tourney,
    /// Shields King's Recognition promises to the next players to complete a quest.
    pub(crate) quest_bonus: u32,
    pub(crate) end: Option<End>,
    pub(crate) winners: SeatSet,
    /// What happened worth counting in a balance report.
    pub(crate) log: Ledger,
    /// The story card and every ally in play, laid out as a situation (kept up to date as
    /// they change; see `Quests::refresh`).
    pub(crate) sit: Counts,
    /// Someone drew since the hand limit was last checked.
    pub(crate) limit_check: bool,
    /// Every adventure card's battle points and free bids in the situation in play, kept up
    /// to date by `Quests::refresh` (when whose partner counts does not depend on the owner).
    pub(crate) vals_bp: [i16; 64],
    pub(crate) vals_bids: [i16; 64],
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            rng: self.rng.clone(),
            players: self.players.clone(),
            adventure_deck: self.adventure_deck.clone(),
            adventure_discard: self.adventure_discard.clone(),
            story_deck: self.story_deck.clone(),
            story_discard: self.story_discard.clone(),
            sealed: self.sealed.clone(),
            log: self.log.clone(),
            ..*self
        }
    }

    /// Reuses every buffer: the greedy bot copies its view once per legal action.
    fn clone_from(&mut self, s: &Self) {
        self.rng.clone_from(&s.rng);
        self.players.clone_from(&s.players);
        self.current = s.current;
        self.next = s.next;
        self.turn = s.turn;
        self.phase = s.phase;
        self.adventure_deck.clone_from(&s.adventure_deck);
        self.adventure_discard.clone_from(&s.adventure_discard);
        self.story_deck.clone_from(&s.story_deck);
        self.story_discard.clone_from(&s.story_discard);
        self.story = s.story;
        self.offer = s.offer;
        self.quest = s.quest;
        self.sealed.clone_from(&s.sealed);
        self.bidding = s.bidding;
        self.tourney = s.tourney;
        self.quest_bonus = s.quest_bonus;
        self.end = s.end;
        self.winners = s.winners;
        self.log.clone_from(&s.log);
        self.sit = s.sit;
        self.limit_check = s.limit_check;
        self.vals_bp = s.vals_bp;
        self.vals_bids = s.vals_bids;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    pub(crate) hand: Counts,
    /// Allies in play in front of the player.
    pub(crate) allies: Counts,
    /// Amours in play for the current quest or tournament.
    pub(crate) amour: Counts,
    /// Index into the rank cards; the number of ranks means Knight of the Round Table.
    pub(crate) rank: u8,
    /// Shields on the rank card.
    pub(crate) shields: u32,
    /// Previews (Merlin) used in the current quest, and the stages seen (a bit per stage).
    pub(crate) previews: u8,
    pub(crate) seen: u8,
    /// An event's discard still owed: cards of this kind (index into the kinds), this many.
    pub(crate) owe_kind: u8,
    pub(crate) owe: u8,
    /// Kept up to date by `Quests::refresh`: the battle points of rank, allies and Amour in
    /// play, and the free bids of allies and Amour in play.
    pub(crate) base: i32,
    pub(crate) bids: i32,
}

impl Player {
    pub(crate) fn new() -> Self {
        Player {
            hand: Counts::EMPTY,
            allies: Counts::EMPTY,
            amour: Counts::EMPTY,
            rank: 0,
            shields: 0,
            previews: 0,
            seen: 0,
            owe_kind: 0,
            owe: 0,
            base: 0,
            bids: 0,
        }
    }
}

/// The quest in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Quest {
    /// The story card.
    pub(crate) card: Card,
    pub(crate) stages: u8,
    pub(crate) sponsor: Seat,
    /// The sponsor's groupings, face down until revealed.
    pub(crate) built: [Counts; MAX_STAGES],
    /// The stage being built, then the stage being played.
    pub(crate) stage: u8,
    /// A bit per stage turned face up.
    pub(crate) revealed: u8,
    /// Cards the sponsor laid out.
    pub(crate) used: u8,
    pub(crate) questors: SeatSet,
    /// Each stage's battle points, kept up to date by `Quests::refresh`.
    pub(crate) bp: [i32; MAX_STAGES],
}

impl Quest {
    pub(crate) fn none() -> Self {
        Quest {
            card: 0,
            stages: 0,
            sponsor: 0,
            built: [Counts::EMPTY; MAX_STAGES],
            stage: 0,
            revealed: 0,
            used: 0,
            questors: SeatSet::EMPTY,
            bp: [0; MAX_STAGES],
        }
    }

    pub(crate) fn is_revealed(&self, stage: usize) -> bool {
        self.revealed & (1 << stage) != 0
    }
}

/// The tournament in play (also the final tournament).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tourney {
    pub(crate) card: Option<Card>,
    pub(crate) entrants: SeatSet,
    /// Still contending (the tied players in a tie-break round).
    pub(crate) contenders: SeatSet,
    pub(crate) round: u8,
    /// The final tournament between new Knights of the Round Table.
    pub(crate) last: bool,
}

impl Tourney {
    pub(crate) fn none() -> Self {
        Tourney {
            card: None,
            entrants: SeatSet::EMPTY,
            contenders: SeatSet::EMPTY,
            round: 0,
            last: false,
        }
    }
}

/// Where in the turn the game is. Some phases are steps the rules carry out by themselves
/// (`advance` runs them); the others wait for a player's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Step: draw the story card.
    TurnStart,
    /// Sponsorship offered around the table (`offer`).
    Sponsor,
    /// The sponsor lays out `quest.stage`, card by card.
    Build,
    /// The other players decide whether to join (`offer`).
    Join,
    /// Step: the next stage begins (or the quest ends).
    StageStart,
    /// Questors commit cards face down for the foe stage (`sealed`).
    Commit,
    /// Step: the foe stage and the commitments are turned over.
    StageReveal,
    /// Bidding on the test (`bidding`).
    Bid,
    /// The test's winner discards his bid less his free bids, card by card.
    PayBid {
        seat: Seat,
        left: u8,
    },
    /// Step: shields, the sponsor's draw, discards.
    QuestEnd,
    /// Players decide whether to enter the tournament (`offer`).
    Enter,
    /// Entrants commit cards face down (`sealed`).
    Joust,
    /// Step: the tournament round is turned over.
    JoustReveal,
    /// Step: the event's effects from this one on.
    Event {
        next: u8,
    },
    /// Players owing an event discard choose the cards.
    EventDiscard {
        effect: u8,
    },
    /// Step: winners, the next turn.
    TurnEnd,
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// One player became a Knight of the Round Table.
    Knight,
    /// Several did in one turn, and shared the win or played the final tournament.
    Final,
    /// The pack's turn limit: not a rule, a guard for simulations.
    TurnLimit,
}

impl End {
    pub fn key(self) -> &'static str {
        match self {
            End::Knight => "knight-of-the-round-table",
            End::Final => "final-tournament",
            End::TurnLimit => "turn-limit",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Sponsor,
    Join,
    Enter,
    /// Declines to sponsor, join or enter.
    Decline,
    /// A card to the stage being built, or to one's face-down commitment.
    Add(Card),
    /// The stage or the commitment is complete.
    Done,
    Bid(u8),
    /// Drops out of the bidding.
    Drop,
    /// A card from hand to the discard pile (hand limit, test bid, event).
    Discard(Card),
    /// An ally from hand into play (hand limit, a test's bidding), or an Amour (a test's
    /// bidding).
    Play(Card),
    /// Sacrifices `card` (Mordred) to remove `ally` from `seat`'s allies in play.
    Remove {
        card: Card,
        seat: Seat,
        ally: Card,
    },
    /// Uses the ally `card` in play (Merlin) to look at a face-down stage.
    Preview {
        card: Card,
        stage: u8,
    },
}

/// What the table saw happen. Public information only: hidden cards are never named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    StoryDrawn {
        seat: Seat,
        card: Card,
    },
    StoryReshuffled {
        cards: u16,
    },
    AdventureReshuffled {
        cards: u16,
    },
    Sponsors {
        seat: Seat,
    },
    Declines {
        seat: Seat,
        why: Decline,
    },
    NoSponsor,
    StageBuilt {
        stage: u8,
        cards: u8,
    },
    Joins {
        seat: Seat,
    },
    NoQuestors,
    Drew {
        seat: Seat,
        cards: u8,
    },
    FoeStage {
        stage: u8,
    },
    TestStage {
        stage: u8,
        test: Card,
        min_bid: u8,
    },
    Committed {
        seat: Seat,
        cards: u8,
    },
    StageRevealed {
        stage: u8,
        cards: Counts,
        bp: i64,
    },
    Reveals {
        seat: Seat,
        cards: Counts,
    },
    Fought {
        seat: Seat,
        bp: i64,
        passed: bool,
    },
    Bids {
        seat: Seat,
        bid: u8,
    },
    Drops {
        seat: Seat,
        forced: bool,
    },
    LoneBid {
        seat: Seat,
        bid: u8,
        free: u8,
    },
    PassesTest {
        seat: Seat,
        bid: u8,
        free: u8,
    },
    Discards {
        seat: Seat,
        card: Card,
    },
    PlaysAlly {
        seat: Seat,
        card: Card,
    },
    Removes {
        seat: Seat,
        card: Card,
        target: Seat,
        ally: Card,
    },
    Previews {
        seat: Seat,
        card: Card,
        stage: u8,
    },
    /// `change` is what happened: a loss is at most the shields held, so `asked` (the
    /// effect's number) may be more.
    Shields {
        seat: Seat,
        change: i64,
        asked: i64,
        rank: u8,
        shields: u32,
    },
    RankUp {
        seat: Seat,
        rank: u8,
    },
    QuestCompleted {
        questors: SeatSet,
    },
    QuestFailed,
    SponsorDraws {
        seat: Seat,
        cards: u8,
    },
    Enters {
        seat: Seat,
    },
    NotHeld {
        entrants: u8,
    },
    Jousts {
        seat: Seat,
        bp: i64,
    },
    Tie {
        seats: SeatSet,
    },
    FinalTournament {
        seats: SeatSet,
    },
    TournamentWon {
        seats: SeatSet,
    },
    EventEffect {
        text: String,
    },
    QuestBonus {
        shields: u32,
    },
    AlliesDiscarded {
        seat: Seat,
        cards: Counts,
    },
    TurnEnded {
        seat: Seat,
    },
    GameOver {
        end: End,
        winners: SeatSet,
    },
}

/// Why a player declined without being asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decline {
    /// Chose to.
    Chose,
    /// Could not set up the quest with his hand.
    Cannot,
}

/// The balance-report entries of a game, shared between copies of the state (bots copy
/// states far more often than anything is recorded). An observation keeps none: what a bot
/// imagines happening is not the game's record.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ledger(Option<Arc<Vec<Record>>>);

impl Ledger {
    /// A game's ledger, empty.
    pub(crate) fn kept() -> Self {
        Ledger(Some(Arc::default()))
    }

    /// Records nothing.
    pub(crate) fn unkept() -> Self {
        Ledger(None)
    }

    pub(crate) fn push(&mut self, record: Record) {
        if let Some(records) = &mut self.0 {
            Arc::make_mut(records).push(record);
        }
    }

    pub(crate) fn records(&self) -> &[Record] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

/// By the records alone (hashed as the list they are, so state digests do not depend on
/// whether the list is kept).
impl PartialEq for Ledger {
    fn eq(&self, other: &Self) -> bool {
        self.records() == other.records()
    }
}

impl Eq for Ledger {}

impl std::hash::Hash for Ledger {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.records().hash(state);
    }
}

/// A balance-report entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    pub(crate) kind: RecordKind,
    pub(crate) card: Card,
    pub(crate) turn: u32,
    pub(crate) seat: Option<Seat>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    QuestDrawn,
    QuestSponsored,
    QuestCompleted,
    TournamentHeld,
    TournamentWon,
    Event,
}

impl RecordKind {
    pub fn key(self) -> &'static str {
        match self {
            RecordKind::QuestDrawn => "quest drawn",
            RecordKind::QuestSponsored => "quest sponsored",
            RecordKind::QuestCompleted => "quest completed",
            RecordKind::TournamentHeld => "tournament held",
            RecordKind::TournamentWon => "tournament won",
            RecordKind::Event => "event",
        }
    }
}

impl State {
    pub(crate) fn player(&self, seat: Seat) -> &Player {
        &self.players[usize::from(seat)]
    }
    pub(crate) fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[usize::from(seat)]
    }
    pub(crate) fn seats(&self) -> usize {
        self.players.len()
    }
    /// The seat after `seat` clockwise.
    pub(crate) fn left_of(&self, seat: Seat) -> Seat {
        ((usize::from(seat) + 1) % self.players.len()) as Seat
    }
}

pub(crate) fn empty_offer() -> Offer {
    Offer::new(OfferKind::Poll, 0, 1, SeatSet::EMPTY)
}

pub(crate) fn empty_bidding() -> Bidding {
    Bidding::new(0, SeatSet::EMPTY, 1, 0, Rounds::OnePass)
}
