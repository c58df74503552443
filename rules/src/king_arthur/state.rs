//! The King Arthur table: piles, the adversary columns, hands, and where in the four-action
//! turn we are.

use grail_engine::cond::affordable::Affordable;
use grail_engine::cond::solve::Payment;
use grail_engine::counts::Counts;
use grail_engine::derived::Derived;
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;

/// A card type index into one of the pack's sets.
pub type Card = u8;
pub type Seat = u8;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) rng: GameRng,
    pub(crate) players: Vec<Player>,
    pub(crate) current: Seat,
    pub(crate) phase: Phase,
    /// Turns completed so far.
    pub(crate) turn: u32,
    pub(crate) knight_supply: Pile,
    pub(crate) knight_discard: Pile,
    pub(crate) adversary_supply: Pile,
    /// Adversaries paid for adventures: out of the game, kept for the card count.
    pub(crate) adversaries_out: Counts,
    /// One column per value of the pack's column attribute, in domain order.
    pub(crate) columns: Vec<Vec<Slot>>,
    /// Per adventure: who took it, if anyone.
    pub(crate) adventures: Vec<Option<Seat>>,
    /// This turn so far (for resting and for the end of the game).
    pub(crate) challenged: bool,
    pub(crate) adventured: bool,
    /// The last adversary was taken with the supply empty: this is the game's last turn.
    pub(crate) last_turn: bool,
    pub(crate) end: Option<End>,
    /// Adventures in the order taken: (adventure, turn, seat), for the balance report.
    pub(crate) taken: Vec<(u8, u32, Seat)>,
    /// What the player to move can afford, as far as worked out: entering a phase finds out
    /// whether it offers anything, and listing the moves reuses that.
    pub(crate) memo: Derived<Memo>,
}

/// Answers of the payment solver, each kept with the hand it was asked about.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Memo {
    /// For the player to move (his knight hand changes every turn).
    pub(crate) prices: PriceMemo,
    /// Which adventures each seat (the first few) can pay for: an adversary hand changes
    /// only when its owner takes or pays adversaries, and then only some answers can turn.
    pub(crate) adventures: [Affordable; MEMO_SEATS],
}

/// How many seats keep their own adventure memo; further seats share the last one.
const MEMO_SEATS: usize = 6;

impl Memo {
    pub(crate) fn adventures_of(&self, seat: Seat) -> &Affordable {
        &self.adventures[usize::from(seat).min(MEMO_SEATS - 1)]
    }
    pub(crate) fn adventures_of_mut(&mut self, seat: Seat) -> &mut Affordable {
        &mut self.adventures[usize::from(seat).min(MEMO_SEATS - 1)]
    }
}

/// Which challenge prices (the `power` argument) a hand of knight cards can pay.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PriceMemo {
    pub(crate) hand: Counts,
    /// The dearest price the hand can pay, once asked: `Some(None)` none, `None` when the
    /// challenge condition cannot say (then each price is asked, and kept in `known`).
    pub(crate) ceiling: Option<Option<Option<i64>>>,
    known: [i64; 8],
    /// Bit `i`: the hand can pay `known[i]`.
    can: u8,
    len: u8,
}

impl PriceMemo {
    /// Makes this the memo of `hand`: kept if it was made for it, else emptied.
    pub(crate) fn fit(&mut self, hand: &Counts) {
        if self.hand != *hand {
            *self = PriceMemo {
                hand: *hand,
                ..PriceMemo::default()
            };
        }
    }
    pub(crate) fn get(&self, price: i64) -> Option<bool> {
        self.known[..usize::from(self.len)]
            .iter()
            .position(|&p| p == price)
            .map(|i| self.can & (1 << i) != 0)
    }
    /// Remembers an answer (while there is room; a full memo just answers less).
    pub(crate) fn put(&mut self, price: i64, can: bool) {
        if let Some(slot) = self.known.get_mut(usize::from(self.len)) {
            *slot = price;
            self.can |= u8::from(can) << self.len;
            self.len += 1;
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    pub(crate) knights: Counts,
    pub(crate) adversaries: Counts,
    /// Seals still in the player's play area (seals variant).
    pub(crate) seals: u8,
}

/// A face-up adversary in a column, and whose seal sits on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    pub(crate) card: Card,
    pub(crate) seal: Option<Seat>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Action 1: may draw adversaries.
    Replenish,
    /// Action 2: may challenge one face-up adversary.
    Challenge,
    /// Action 2, chosen: which knight cards to play.
    PayChallenge {
        target: Card,
        mode: Mode,
    },
    /// Action 3: may take one adventure.
    Adventure,
    /// Action 3, chosen: which adversaries to pay.
    PayAdventure {
        adventure: u8,
    },
    /// Action 4: may draw knight cards.
    Draw,
    Over,
}

/// The kinds of challenge. The basic game has only `Take`; the seals variant replaces it
/// with `Seal` and adds `Repeat` and `Double`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Basic game: pay the power, take the adversary.
    Take,
    /// Seals: pay the power, put a seal on an unsealed adversary.
    Seal,
    /// Seals: pay the power again for an adversary with your seal; take card and seal.
    Repeat,
    /// Seals: pay twice the power for an unsealed adversary; take it at once.
    Double,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The second-to-last adventure was taken.
    Adventures,
    /// The adversary supply ran out and the last face-up adversary was taken.
    Adversaries,
    /// Nobody could do anything for the pack's turn limit: a stalemate the rule text cannot
    /// resolve.
    TurnLimit,
}

impl End {
    pub fn key(self) -> &'static str {
        match self {
            End::Adventures => "adventures-taken",
            End::Adversaries => "adversaries-exhausted",
            End::TurnLimit => "turn-limit",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Action 1: draw adversaries until a column is full or the supply is empty.
    Replenish,
    Challenge {
        target: Card,
        mode: Mode,
    },
    Adventure(u8),
    /// Pay for the chosen challenge (knight cards) or adventure (adversary cards).
    Pay(Payment),
    /// Action 4.
    Draw,
    /// Leave out the current optional action (at the draw: end the turn without drawing).
    Pass,
}

/// What the table saw happen. Public information only: hidden cards are never named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Revealed {
        card: Card,
    },
    Challenged {
        seat: Seat,
        target: Card,
        mode: Mode,
        paid: Payment,
    },
    Sealed {
        seat: Seat,
        card: Card,
    },
    ColumnDefeated {
        column: u8,
        takers: Vec<(Seat, Card)>,
    },
    TookAdversary {
        seat: Seat,
        card: Card,
    },
    TookAdventure {
        seat: Seat,
        adventure: u8,
        paid: Payment,
    },
    DrewKnights {
        seat: Seat,
        count: u8,
    },
    Reshuffled {
        cards: u16,
    },
    Passed {
        seat: Seat,
        phase: Phase,
    },
    TurnEnded {
        seat: Seat,
    },
    GameOver {
        end: End,
    },
}

impl State {
    pub(crate) fn player(&self, seat: Seat) -> &Player {
        &self.players[seat as usize]
    }
    pub(crate) fn me(&mut self) -> &mut Player {
        &mut self.players[self.current as usize]
    }
    pub(crate) fn adventures_left(&self) -> usize {
        self.adventures.iter().filter(|a| a.is_none()).count()
    }
    pub(crate) fn layout_is_empty(&self) -> bool {
        self.columns.iter().all(Vec::is_empty)
    }
}
