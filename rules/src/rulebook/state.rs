//! The state of a game played from a compiled description, and what moves it: piles of card
//! types plus a cursor (whose turn, which step, what was done this turn), the moves
//! ([`Action`]), what a move tells ([`Event`]), how a game ended ([`Ended`]), and the
//! distinct cards of a pile ([`Seen`]).

use grail_engine::cond::affordable::Affordable;
use grail_engine::ring::Ring;
use grail_engine::rng::GameRng;

use super::args::Args;
use super::model::{MARK_SHIFT, TYPE_MASK};
use super::paid::Paid;

#[derive(Debug, Hash, PartialEq, Eq)]
pub struct State {
    /// Card types by pile; the table's piles first, then each seat's block. The last card
    /// of a stack is its top; hands are kept in type order.
    pub(super) piles: Vec<Vec<u16>>,
    pub(super) players: u8,
    pub(super) current: u8,
    /// Index into the turn's steps.
    pub(super) step: u8,
    /// Actions done this turn (bit per action), and each one's parameter.
    pub(super) done: u64,
    pub(super) args: Vec<i32>,
    pub(super) turn: u32,
    pub(super) ended: Option<Ended>,
    pub(super) rng: GameRng,
    /// An action chosen whose payment is being chosen: (action, its arguments).
    pub(super) pending: Option<(u16, Args)>,
    /// Cards that came into a tallied zone: (zone, card, turn, seat).
    pub(super) tallies: Vec<(u16, u16, u32, u8)>,
    /// Marks each seat has left to place.
    pub(super) marks: Vec<u8>,
    /// Which cards' own conditions each seat's payer zone can meet, kept between moves.
    pub(super) memo: grail_engine::derived::Derived<Memo>,
    /// The ring's figures, counters and roles, when the game has a ring.
    pub(super) figures: OnTable,
    /// `[counters.*]`: the table's, then each seat's.
    pub(super) counts: Counts,
    /// Actions taken so far at a step that takes several (`repeat`).
    pub(super) reps: Repeats,
    /// A stage before the turns being played, if any (`stages.rs`).
    pub(super) stage: StageAt,
    /// The moves of the step the state is at, listed when the step was entered.
    pub(super) listed: grail_engine::derived::Derived<Listed>,
    /// The figures chosen for the action whose effects are running (`figure_choice.rs`).
    pub(super) chosen: Chosen,
    /// The cards of the piles payments are made from, by type (`held.rs`).
    pub(super) held: grail_engine::derived::Derived<Held>,
    /// A step other seats decide (`who`): whose decision it is (`flow.rs`).
    pub(super) asking: Asking,
    /// The stages steps entered and not yet over: where each returns to (`stages.rs`).
    pub(super) calls: Calls,
    /// The piles turned up (`turn up Z`), which every seat sees.
    pub(super) face_up: FaceUp,
    /// The piles shown to one seat (`show Z to S`).
    pub(super) shown: Shown,
}

/// `clone_from` reuses the copy's buffers (`keep` copies the state for each move it tries,
/// `keep.rs`; a search bot, for each determinization); every field is named, so a new one cannot be left out.
impl Clone for State {
    fn clone(&self) -> State {
        let mut copy = State {
            piles: Vec::new(),
            players: 0,
            current: 0,
            step: 0,
            done: 0,
            args: Vec::new(),
            turn: 0,
            ended: None,
            rng: self.rng.clone(),
            pending: None,
            tallies: Vec::new(),
            marks: Vec::new(),
            memo: self.memo,
            figures: OnTable(None),
            counts: Counts(Vec::new()),
            reps: Repeats(0),
            stage: StageAt::default(),
            listed: Default::default(),
            chosen: Chosen::default(),
            held: Default::default(),
            asking: Asking::default(),
            calls: Calls::default(),
            face_up: FaceUp::default(),
            shown: Shown::default(),
        };
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &State) {
        let State {
            piles,
            players,
            current,
            step,
            done,
            args,
            turn,
            ended,
            rng,
            pending,
            tallies,
            marks,
            memo,
            figures,
            counts,
            reps,
            stage,
            listed,
            chosen,
            held,
            asking,
            calls,
            face_up,
            shown,
        } = source;
        copy_piles(&mut self.piles, piles);
        self.players = *players;
        self.current = *current;
        self.step = *step;
        self.done = *done;
        self.args.clone_from(args);
        self.turn = *turn;
        self.ended = *ended;
        self.rng.clone_from(rng);
        self.pending = *pending;
        self.tallies.clone_from(tallies);
        self.marks.clone_from(marks);
        self.memo = *memo;
        self.figures.0.clone_from(&figures.0);
        self.counts.0.clone_from(&counts.0);
        self.reps = *reps;
        self.stage = *stage;
        self.listed.0.fresh = listed.0.fresh;
        self.listed.0.moves.clone_from(&listed.0.moves);
        self.listed.0.runs.clone_from(&listed.0.runs);
        self.listed.0.in_runs = listed.0.in_runs;
        self.chosen = *chosen;
        self.held.0.clone_from(&held.0);
        self.asking = *asking;
        self.calls = *calls;
        self.face_up.0.clone_from(&face_up.0);
        self.shown.0.clone_from(&shown.0);
    }
}

/// `dst` made equal to `src`, pile by pile, reusing `dst`'s buffers: an empty pile (most
/// of a seat's, most of the time) costs no copy.
fn copy_piles(dst: &mut Vec<Vec<u16>>, src: &[Vec<u16>]) {
    dst.truncate(src.len());
    for (d, s) in dst.iter_mut().zip(src) {
        d.clear();
        if !s.is_empty() {
            d.extend_from_slice(s);
        }
    }
    let have = dst.len();
    dst.extend(src[have..].iter().cloned());
}

impl State {
    /// The seat deciding now: the player to move, or the seat a step with `who` asks.
    #[inline(always)]
    pub(super) fn decider(&self) -> u8 {
        if self.asking.active {
            self.asking.seat
        } else {
            self.current
        }
    }
}

/// Hashes nothing at 0, so the digests of games without repeated steps stay as they were.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Repeats(pub u8);

impl std::hash::Hash for Repeats {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if self.0 != 0 {
            self.0.hash(state);
        }
    }
}

/// A step's moves, listed once: entering a step lists them to learn whether it is skipped,
/// and `legal_actions` copies them. Only `advance` makes it fresh; anything else that
/// changes the state (a move, an observation) leaves it stale.
#[derive(Clone, Debug, Default)]
pub(super) struct Listed {
    pub fresh: bool,
    pub moves: Vec<Action>,
    /// Runs of a card table's moves among `moves`, kept by reference (`listed.rs`).
    pub runs: Vec<Run>,
    /// How many moves the runs stand for (a count asked at every decision).
    pub in_runs: usize,
}

/// A run of a card table's moves (`listed.rs`): `len` moves from `lo` of the table of action `action`
/// for its `table`-th player count, standing after the first `at` moves written one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Run {
    pub at: u32,
    pub action: u16,
    pub table: u8,
    pub lo: u32,
    pub len: u32,
}

impl Run {
    /// The moves `lo..hi` of the table of action `action` for its `table`-th player count.
    pub fn new(action: usize, table: usize, lo: usize, hi: usize) -> Run {
        Run {
            at: 0,
            action: action as u16,
            table: table as u8,
            lo: lo as u32,
            len: (hi - lo) as u32,
        }
    }
}

#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Ended {
    Rule,
    /// The `[end] now` condition held after a move.
    Now,
    /// The turn limit.
    TurnLimit,
    /// Nobody could do anything for a whole round and no end condition held: a content
    /// mistake, with no outcome; `stuck` says where (the step entered last).
    Stuck {
        step: u16,
    },
    /// A move (or the setup: [`NO_ACTION`](super::fault::NO_ACTION)) failed: it did not end within its budget, or a
    /// number left the range (`fault.rs`). No outcome; `stuck` names the action.
    Failed {
        fault: super::fault::Fault,
        action: u16,
    },
    /// One of `[endings.*]` (its index) held (`endings.rs`). Last, so the digests of the
    /// states ended otherwise stay as they were.
    Ending(u8),
}

/// A move: 16 bytes and `Copy`, as every listing writes its moves and `legal_actions` copies
/// them (a payment is held small, `paid.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    pub action: u16,
    /// What it names: a card, a row or seat, a player, a figure (`args.rs`).
    pub args: Args,
    /// For [`PAY`]: the cards paid (`Rulebook::paid` reads them).
    pub(super) paid: Paid,
}

impl Action {
    /// A move with no payment: an action and its arguments (or `pass`).
    pub fn new(action: u16, args: Args) -> Action {
        Action {
            action,
            args,
            paid: Paid::NONE,
        }
    }

    /// The `pay` move paying what `paid` holds.
    pub fn paying(paid: Paid) -> Action {
        Action {
            paid,
            ..Action::new(PAY, Args::NONE)
        }
    }
}

/// `pass`: leave an optional step out.
pub const PASS: u16 = u16::MAX - 1;
/// `pay …`: pay for the action just chosen.
pub const PAY: u16 = u16::MAX;

#[derive(Clone, Debug)]
pub enum Event {
    Moved {
        card: u16,
        from: u32,
        to: u32,
    },
    Shuffled {
        pile: u32,
    },
    /// A pile turned up (`turn up Z`) or down.
    Turned {
        pile: u32,
        up: bool,
    },
    /// A pile shown to one seat (`show Z to S`).
    Shown {
        pile: u32,
        seat: u8,
    },
    /// A figure moved on the ring (stepping, or displaced by one that did).
    FigureMoved {
        figure: u8,
        from: u8,
        to: u8,
    },
    /// A step with nothing to do was skipped.
    Skipped {
        step: u16,
        seat: u8,
    },
    /// A loop's condition held for the seat deciding it (an obligation: discard down to the
    /// limit), but it had nothing it could do: the step was passed with the obligation unmet.
    Unmet {
        step: u16,
        seat: u8,
    },
    Ended,
}

/// Which entries of a pile were met already, to bind each distinct card once: a bit per
/// unmarked type (the first 256), and per mark of the first seven seats a bit per type of
/// the first 64; a search of the pile before it for any other entry.
#[derive(Default)]
pub(super) struct Seen([u64; 4 + 7]);

impl Seen {
    /// The distinct entries of a pile, each at its first copy, in pile order.
    #[inline(always)]
    pub(super) fn distinct(cards: &[u16]) -> Distinct<'_> {
        Distinct {
            cards,
            next: 0,
            sorted: true,
            seen: Seen::default(),
        }
    }

    /// Whether `cards[i]` is the first copy of its entry in `cards`.
    #[inline(always)]
    pub(super) fn first(&mut self, cards: &[u16], i: usize) -> bool {
        let c = cards[i];
        let (mark, t) = (c >> MARK_SHIFT, c & TYPE_MASK);
        let word = match (mark, t) {
            (0, _) => usize::from(t / 64),
            (1..=7, 0..64) => 3 + usize::from(mark),
            _ => return !cards[..i].contains(&c),
        };
        let bit = 1u64 << (t % 64);
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }
}

/// [`Seen::distinct`]. While the pile is found in order (a hand always is), an entry is new
/// when it differs from the one before it; at the first entry out of order the ones before
/// it are noted in a [`Seen`], which answers from there on.
pub(super) struct Distinct<'c> {
    cards: &'c [u16],
    next: usize,
    sorted: bool,
    seen: Seen,
}

impl Iterator for Distinct<'_> {
    type Item = u16;

    #[inline(always)]
    fn next(&mut self) -> Option<u16> {
        while let Some(&c) = self.cards.get(self.next) {
            let i = self.next;
            self.next += 1;
            if self.sorted {
                match i.checked_sub(1).map(|j| self.cards[j]) {
                    Some(before) if before == c => continue,
                    Some(before) if before > c => self.unsorted(i),
                    _ => return Some(c),
                }
            }
            if self.seen.first(self.cards, i) {
                return Some(c);
            }
        }
        None
    }
}

impl Distinct<'_> {
    /// The pile is out of order at `i`: the entries before it noted as seen.
    #[inline(never)]
    fn unsorted(&mut self, i: usize) {
        self.sorted = false;
        for j in 0..i {
            self.seen.first(self.cards, j);
        }
    }
}

/// The counters in a state: the table's first, then a block per seat. Hashes nothing when
/// the game keeps none, so games without counters keep their digests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts(pub Vec<i64>);

impl std::hash::Hash for Counts {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if !self.0.is_empty() {
            self.0.hash(state);
        }
    }
}

/// The ring in play.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct Figures {
    pub ring: Ring,
    /// First figure id and figure count of each kind (owned kinds: count per seat).
    pub base: Vec<u8>,
    pub per: Vec<u8>,
    /// Figures of each kind in this game.
    pub size: Vec<u8>,
    /// `counters[figure * counters + c]`.
    pub counters: Vec<i16>,
    /// The figure holding each role.
    pub roles: Vec<u8>,
    /// Each counter summed over each kind's figures (`kind * counters + c`), kept as the
    /// counters change (`Board::set_counter`): a supply check reads one number.
    pub kind_totals: grail_engine::derived::Derived<Vec<i64>>,
}

/// The ring in a state, if the game has one. Hashes nothing without a ring, so the digests
/// of games without one stay what they were before rings existed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnTable(pub Option<Figures>);

impl std::hash::Hash for OnTable {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if let Some(f) = &self.0 {
            f.hash(state);
        }
    }
}

/// The figures chosen for the action being carried out, while its effects run (a bit per
/// figure). Hashes nothing when no choice is made, as between moves it never is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chosen {
    pub made: bool,
    pub figures: u64,
}

impl std::hash::Hash for Chosen {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if self.made {
            self.figures.hash(state);
        }
    }
}

/// Where the game is: a stage before the turns (1 + its index) or the turns (0), and how
/// many seats have played it. Hashes nothing in the turns, so games without such stages keep
/// their digests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageAt {
    pub stage: u8,
    pub played: u16,
}

impl std::hash::Hash for StageAt {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if self.stage != 0 {
            (self.stage, self.played).hash(state);
        }
    }
}

/// The stages entered from steps and not yet over, innermost last: the stage and step each
/// returns to when it is over. Hashes nothing while none is entered, so games without them
/// keep their digests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Calls {
    pub depth: u8,
    pub back: [(StageAt, u8); super::model::MAX_NESTING],
}

impl std::hash::Hash for Calls {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if self.depth != 0 {
            self.back[..usize::from(self.depth)].hash(state);
        }
    }
}

/// A step decided by other seats than the player to move (`[steps.*] who`): the seat asked
/// now, where the order started and how many seats of it have been asked. Hashes nothing
/// while no step asks, so games without `who` keep their digests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asking {
    pub active: bool,
    pub seat: u8,
    pub start: u8,
    pub asked: u8,
}

impl std::hash::Hash for Asking {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if self.active {
            (self.seat, self.start, self.asked).hash(state);
        }
    }
}

/// The piles turned up by `turn up Z`: every seat sees their cards, whatever their zone's
/// `visible`, until `turn down Z` or until the pile is emptied (the next card laid on it is
/// laid face down, as a new quest's stages are). A bit per pile, no trailing zero words, so
/// equal sets compare equal; hashes nothing while no pile is up, so games without `turn`
/// keep their digests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaceUp(Vec<u64>);

impl FaceUp {
    /// Whether pile `pile` is turned up.
    #[inline]
    pub fn is_up(&self, pile: usize) -> bool {
        self.0
            .get(pile / 64)
            .is_some_and(|w| w >> (pile % 64) & 1 != 0)
    }

    /// Turns pile `pile` up or down.
    pub fn turn(&mut self, pile: usize, up: bool) {
        let (word, bit) = (pile / 64, 1u64 << (pile % 64));
        if up {
            if self.0.len() <= word {
                self.0.resize(word + 1, 0);
            }
            self.0[word] |= bit;
        } else if let Some(w) = self.0.get_mut(word) {
            *w &= !bit;
            while self.0.last() == Some(&0) {
                self.0.pop();
            }
        }
    }
}

impl std::hash::Hash for FaceUp {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if !self.0.is_empty() {
            self.0.hash(state);
        }
    }
}

/// The piles shown to seats by `show Z to S`: a seat shown a pile sees its cards, whatever
/// their zone's `visible`, until the pile is emptied (as a turned-up pile is laid face down
/// again). Each pile shown, in pile order, with its seats as bits; hashes nothing while none
/// is shown, so games without `show` keep their digests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown(Vec<(u32, u64)>);

impl Shown {
    /// Whether pile `pile` was shown to `seat`.
    #[inline]
    pub fn to(&self, pile: usize, seat: usize) -> bool {
        !self.0.is_empty()
            && self
                .0
                .binary_search_by_key(&(pile as u32), |&(p, _)| p)
                .is_ok_and(|i| seat < 64 && self.0[i].1 >> seat & 1 != 0)
    }

    /// Shows pile `pile` to `seat`; whether it had not been shown to it before.
    pub fn show(&mut self, pile: usize, seat: usize) -> bool {
        let Some(bit) = 1u64.checked_shl(seat as u32) else {
            return false;
        };
        match self.0.binary_search_by_key(&(pile as u32), |&(p, _)| p) {
            Ok(i) => {
                let new = self.0[i].1 & bit == 0;
                self.0[i].1 |= bit;
                new
            }
            Err(i) => {
                self.0.insert(i, (pile as u32, bit));
                true
            }
        }
    }

    /// Pile `pile` seen by no seat it was shown to.
    pub fn forget(&mut self, pile: usize) {
        if let Ok(i) = self.0.binary_search_by_key(&(pile as u32), |&(p, _)| p) {
            self.0.remove(i);
        }
    }
}

impl std::hash::Hash for Shown {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if !self.0.is_empty() {
            self.0.hash(state);
        }
    }
}

/// How many seats keep their own memo; further seats share the last one (the hand kept
/// beside each answer tells whether it fits).
pub(super) const MEMO_SEATS: usize = 6;

/// Per seat: which cards' own conditions (`meets = "condition(card)"`, the first such
/// payment of the description) the seat's payer zone can meet, brought up to date only for
/// the conditions reading types that changed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Memo {
    pub(super) own: [Affordable; MEMO_SEATS],
    /// Whether the seat's answers were ever brought up to date.
    pub(super) made: [bool; MEMO_SEATS],
}

/// Per counted pile, its cards by type (entries carrying a mark are not counted, as a payer
/// cannot pay with them).
pub type Held = Vec<grail_engine::counts::Counts>;

#[cfg(test)]
mod tests {
    use super::Shown;

    /// A pile shown to a seat is seen by that seat alone, until forgotten; the same piles
    /// shown in any order make equal sets (a search keys states by them).
    #[test]
    fn a_pile_shown_to_one_seat() {
        let mut shown = Shown::default();
        assert!(shown.show(7, 2));
        assert!(!shown.show(7, 2), "shown already");
        assert!(shown.show(3, 0));
        assert!(shown.to(7, 2) && shown.to(3, 0));
        assert!(!shown.to(7, 0) && !shown.to(3, 2) && !shown.to(5, 2));
        let mut other = Shown::default();
        other.show(3, 0);
        other.show(7, 2);
        assert_eq!(shown, other);
        shown.forget(7);
        assert!(!shown.to(7, 2) && shown.to(3, 0));
        shown.forget(3);
        assert_eq!(shown, Shown::default());
        // A seat beyond a word's bits is shown nothing, rather than another seat.
        assert!(!shown.show(1, 64));
        assert!(!shown.to(1, 0));
        assert_eq!(shown, Shown::default());
    }
}
