//! The Camelot table: decks, hands, the quests in play, and where in the turn (and in which
//! feast, joust, duel or quest resolution) we are.

use grail_engine::counts::Counts;
use grail_engine::exchange::{Exchange, ExchangeMove};
use grail_engine::joint::{JointMove, JointPayment};
use grail_engine::pile::Pile;
use grail_engine::proposal::{Proposal, ProposalMove};
use grail_engine::rng::GameRng;
use grail_engine::showdown::{Loss, Showdown, ShowdownMove};

/// A card type index into one of the pack's sets.
pub type Card = u8;
pub type Seat = u8;
/// A set of seats, bit `s` for seat `s`.
pub type Seats = u8;

/// The most players a table holds (seat sets are bytes).
pub const MAX_PLAYERS: usize = 8;

/// The two decks cards are traded from, as [`grail_engine::exchange::Item::set`].
pub const VIRTUE_SET: u8 = 0;
pub const TREASURE_SET: u8 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) rng: GameRng,
    pub(crate) players: Vec<Player>,
    /// Whose turn it is.
    pub(crate) current: Seat,
    /// Turns completed.
    pub(crate) turn: u32,
    pub(crate) stage: Stage,
    pub(crate) virtue_deck: Pile,
    pub(crate) virtue_discard: Pile,
    pub(crate) treasure_deck: Pile,
    pub(crate) quest_deck: Pile,
    /// Quests that left play (completed, failed, expired, given up).
    pub(crate) quests_done: Counts,
    pub(crate) trial_deck: Pile,
    pub(crate) trial_discard: Pile,
    /// The face-up supply of Honor and Dishonor cards.
    pub(crate) honor_supply: u8,
    pub(crate) dishonor_supply: u8,
    /// Quests in play, in the order placed.
    pub(crate) layout: Vec<Slot>,
    /// A quest being resolved; it interrupts the turn.
    pub(crate) res: Option<Resolution>,
    /// Virtue cards each seat must still choose to discard (a penalty); asked first.
    pub(crate) discards: [u8; MAX_PLAYERS],
    /// This turn's player embarked first on a quest: he draws no quest.
    pub(crate) no_quest_draw: bool,
    pub(crate) end: Option<End>,
    /// What happened, for the balance report: (kind, card or seat, turn, seat).
    pub(crate) log: Vec<Note>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Player {
    pub(crate) virtues: Counts,
    pub(crate) treasures: Counts,
    pub(crate) honor: u8,
    pub(crate) dishonor: u8,
    pub(crate) alive: bool,
}

/// A quest in play and the knights on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    pub(crate) quest: Card,
    pub(crate) knights: Seats,
}

/// Where the turn is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// A knight on a quest begins his turn: present, give up, or stay (his turn is skipped).
    /// `tried`: he presented and the others did not make up the rest; he may not again.
    Start {
        tried: bool,
    },
    /// The player chooses his action.
    Act,
    /// A joust was called: the knights not on a quest put up prizes, in turn order.
    Prizes {
        contest: Contest,
        asked: Seats,
        now: Seat,
    },
    /// A joust or duel under way (a duel when `duel`).
    Contest(Contest),
    /// A feast under way.
    Feast(Exchange),
    /// After an action: each knight on a quest who could present is asked, in turn order.
    Window {
        asked: Seats,
        now: Seat,
    },
    /// The king bestows honor or dishonor.
    Bestow,
    /// The player draws and places a quest (nobody decides).
    Draw,
    /// Too many quests: the player expires one, not the one just placed (index `placed`).
    Expire {
        placed: u8,
    },
    /// The turn ends once the penalty's discards are made.
    TurnOver,
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Contest {
    pub(crate) duel: bool,
    pub(crate) showdown: Showdown,
    /// The treasure each seat put up as a prize (still in its hand until the end).
    pub(crate) prizes: [Option<Card>; MAX_PLAYERS],
}

/// A quest whose virtues were presented, being resolved: trials, then reward or penalty.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Resolution {
    /// Index of the quest in the layout (it stays there until resolved).
    pub(crate) slot: u8,
    pub(crate) quest: Card,
    /// The knights involved, fixed when the virtues are presented.
    pub(crate) knights: Seats,
    /// Who presented; he decides for the group in the trials and proposes the split.
    pub(crate) presenter: Seat,
    /// Virtue cards presented so far by each knight; discarded when the quest resolves (and
    /// usable again in the joust that settles a disputed split).
    pub(crate) spent: [Counts; MAX_PLAYERS],
    pub(crate) trials_left: u8,
    /// The reward, while it is shared out.
    pub(crate) pool: Counts,
    pub(crate) pool_honor: u8,
    pub(crate) step: Step,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The virtues are presented: trials are drawn and resolved (nobody decides).
    Drawing,
    /// The knights pay a bill together (`trial`: which trial, or the quest itself).
    Paying {
        trial: Option<Card>,
        joint: JointPayment,
    },
    /// A trial asks for virtues: the presenter presents them or declines.
    Trial { trial: Card },
    /// The presenter proposes how to share the reward, the others agree or not.
    Split(Proposal),
    /// The split was disputed: the knights joust pairwise in turn order, the winner of each
    /// match facing the next knight; `order[next]` challenges `champion`.
    Dispute {
        order: [Seat; MAX_PLAYERS],
        len: u8,
        next: u8,
        champion: Seat,
        showdown: Showdown,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// Dishonor outweighs honor by more than the players: personal gain, with the Sin bonus.
    Falls,
    /// Honor outweighs dishonor by more than the players: all players win.
    Saved,
    /// A quest had to be drawn from an empty quest deck.
    Endures,
    /// The safety cap on turns, scored as `Endures`.
    TurnLimit,
    /// Every knight is dead: nobody wins.
    AllDead,
}

impl End {
    pub fn key(self) -> &'static str {
        match self {
            End::Falls => "camelot-falls",
            End::Saved => "camelot-saved",
            End::Endures => "camelot-endures",
            End::TurnLimit => "turn-limit",
            End::AllDead => "all-dead",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Embark(u8),
    Pray {
        /// A knight on a quest to pray for; `None`: for oneself.
        knight: Option<Seat>,
        /// A prayer-aid card discarded to draw more.
        aid: Option<Card>,
    },
    Feast,
    Tax(Card),
    Joust(Seat),
    Duel(Seat),
    /// A knight on a quest at the start of his turn: keep questing, skip the turn.
    Stay,
    GiveUp,
    /// Present virtue cards for one's quest (with partners adding what is missing), or for a
    /// trial.
    Present(Counts),
    /// Let a presentation window pass.
    Wait,
    /// Decline a trial: its consequence follows.
    Decline,
    Joint(JointMove),
    Discard(Card),
    Honor(Seat),
    Dishonor(Seat),
    /// Bestow nothing; put up no prize.
    Pass,
    Expire(u8),
    /// Put up this treasure from one's hand as a joust prize.
    Prize(Card),
    /// Draw a joust prize from the treasure deck (`joust_prize_from_deck`).
    DrawPrize,
    Trade(ExchangeMove),
    Show(ShowdownMove),
    Split(ProposalMove),
}

/// What the table saw happen. Hidden cards (a prayer's card, treasures drawn) are not named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    QuestPlaced {
        quest: Card,
    },
    QuestDeckEmpty,
    Embarked {
        seat: Seat,
        quest: Card,
        first: bool,
    },
    Prayed {
        seat: Seat,
        knight: Option<Seat>,
        aid: Option<Card>,
        drawn: u8,
    },
    Taxed {
        seat: Seat,
        card: Card,
        drawn: u8,
    },
    FeastCalled {
        seat: Seat,
    },
    Traded {
        seat: Seat,
        mv: ExchangeMove,
        offer: u16,
    },
    FeastSettled {
        deals: Vec<grail_engine::exchange::Offer>,
    },
    Challenged {
        seat: Seat,
        other: Seat,
        duel: bool,
    },
    PrizePut {
        seat: Seat,
        card: Card,
        /// Drawn from the treasure deck (`joust_prize_from_deck`), not from his hand.
        drawn: bool,
    },
    Shown {
        seat: Seat,
        mv: ShowdownMove,
    },
    /// The opener holds no card that may open, so he skips the round without a choice.
    AutoSkipped {
        seat: Seat,
    },
    ContestWon {
        winner: Seat,
        loser: Seat,
        duel: bool,
        how: Loss,
    },
    ContestDrawn {
        duel: bool,
    },
    PrizeWon {
        seat: Seat,
        from: Seat,
        card: Card,
    },
    Stayed {
        seat: Seat,
    },
    GaveUp {
        seat: Seat,
        quest: Card,
        last: bool,
    },
    Presented {
        seat: Seat,
        quest: Card,
        cards: Counts,
        trial: Option<Card>,
    },
    Contributed {
        seat: Seat,
        cards: Counts,
    },
    Withheld {
        seat: Seat,
    },
    PresentationFailed {
        quest: Card,
    },
    TrialDrawn {
        trial: Card,
    },
    TrialDeclined {
        seat: Seat,
        trial: Card,
    },
    QuestCompleted {
        quest: Card,
        knights: Seats,
    },
    QuestFailed {
        quest: Card,
        knights: Seats,
    },
    QuestExpired {
        seat: Seat,
        quest: Card,
    },
    RewardShared {
        seat: Seat,
        treasures: u8,
        honor: u8,
    },
    SplitProposed {
        seat: Seat,
        mv: ProposalMove,
    },
    Drew {
        seat: Seat,
        virtues: u8,
        treasures: u8,
    },
    Gained {
        seat: Seat,
        honor: u8,
        dishonor: u8,
    },
    Discarded {
        seat: Seat,
        card: Card,
        random: bool,
    },
    MustDiscard {
        seat: Seat,
        count: u8,
    },
    /// The knights together hold no presentation that meets the trial.
    TrialImpossible {
        seat: Seat,
        trial: Card,
    },
    /// A discard that does nothing: the knight holds no virtue card.
    NothingToDiscard {
        seat: Seat,
    },
    /// Honor or Dishonor owed that the supply no longer holds (`missing` cards).
    PileEmpty {
        seat: Seat,
        dishonor: bool,
        missing: u8,
    },
    Died {
        seat: Seat,
    },
    CrownPassed {
        from: Seat,
        to: Seat,
    },
    TreasureTaken {
        from: Seat,
        to: Seat,
        count: u8,
    },
    Bestowed {
        seat: Seat,
        to: Seat,
        dishonor: bool,
    },
    Waited {
        seat: Seat,
    },
    Reshuffled {
        virtues: bool,
        cards: u16,
    },
    TurnEnded {
        seat: Seat,
    },
    GameOver {
        end: End,
    },
}

/// A line of the balance report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Note {
    pub(crate) kind: NoteKind,
    pub(crate) card: Card,
    pub(crate) turn: u32,
    pub(crate) seat: Seat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoteKind {
    Action,
    QuestCompleted,
    QuestFailed,
    QuestExpired,
    QuestAbandoned,
    Death,
    Bestowed,
    /// A deal that changed hands at a feast.
    Deal,
    /// A joust match begun: a challenge (`card` 0) or one of the pairwise jousts over a
    /// disputed reward split (`card` 1).
    Joust,
}

impl NoteKind {
    pub fn name(self) -> &'static str {
        match self {
            NoteKind::Action => "action",
            NoteKind::QuestCompleted => "quest completed",
            NoteKind::QuestFailed => "quest failed",
            NoteKind::QuestExpired => "quest expired",
            NoteKind::QuestAbandoned => "quest abandoned",
            NoteKind::Death => "death",
            NoteKind::Bestowed => "bestowed",
            NoteKind::Deal => "feast",
            NoteKind::Joust => "joust fought",
        }
    }
}

pub(crate) fn bit(seat: Seat) -> Seats {
    1 << seat
}

pub(crate) fn has(set: Seats, seat: Seat) -> bool {
    set & bit(seat) != 0
}

impl State {
    pub(crate) fn count(&self) -> usize {
        self.players.len()
    }

    pub(crate) fn player(&self, seat: Seat) -> &Player {
        &self.players[usize::from(seat)]
    }

    pub(crate) fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[usize::from(seat)]
    }

    pub(crate) fn alive(&self, seat: Seat) -> bool {
        self.player(seat).alive
    }

    /// Seats in turn order starting at `first`.
    pub(crate) fn round_from(&self, first: Seat) -> impl Iterator<Item = Seat> + use<> {
        let n = self.count() as Seat;
        (0..n).map(move |i| (first + i) % n)
    }

    /// The index in the layout of the quest `seat` is on.
    pub(crate) fn quest_of(&self, seat: Seat) -> Option<usize> {
        self.layout.iter().position(|s| has(s.knights, seat))
    }

    pub(crate) fn on_quest(&self, seat: Seat) -> bool {
        self.quest_of(seat).is_some()
    }

    /// Living knights not on a quest.
    pub(crate) fn at_court(&self, seat: Seat) -> bool {
        self.alive(seat) && !self.on_quest(seat)
    }

    pub(crate) fn living(&self) -> usize {
        self.players.iter().filter(|p| p.alive).count()
    }

    pub(crate) fn over(&self) -> bool {
        self.end.is_some()
    }
}
