//! Parts of expressions read once per decision: a listing asks an action's guard for every
//! card and seat it could name, and the parts of the guard that name none of them (`bar`,
//! the best stage laid so far, inside `bp(card, shown) > bar`) are worth the same each time.
//! Compiling wraps each such part that is costly (`Expr::Memo`, `kept_parts.rs`); while a
//! decision is listed ([`Phase`]) its value is kept here per seat `P`, and read again
//! instead of worked out again. Outside a phase, or on any other state, it is simply
//! evaluated: the memo changes how often a part is evaluated, never its value.

use std::cell::RefCell;
use std::marker::PhantomData;

use super::Rulebook;
use super::state::State;

/// The seats a part is kept for, each in its own entry (`P` of a `highest(…)` or `each(…)`
/// goes round them); a seat past them is evaluated every time.
const SEATS: usize = 8;

/// The values kept in the phase under way on this thread.
struct Table {
    /// The phase under way (0: none), and the state it is of (its address).
    phase: u64,
    state: usize,
    /// The last phase begun.
    last: u64,
    /// Per part and seat: the phase its value was kept in, and the value.
    kept: Vec<(u64, i64)>,
    /// While a move is tried on a copy ([`Trial`]): the listing's phase, and the parts
    /// (a bit per part) the move leaves as they were, kept in the listing's phase for every
    /// move tried.
    outer: u64,
    same: Vec<u64>,
}

thread_local! {
    static TABLE: RefCell<Table> = const {
        RefCell::new(Table {
            phase: 0,
            state: 0,
            last: 0,
            kept: Vec::new(),
            outer: 0,
            same: Vec::new(),
        })
    };
}

impl Table {
    /// The phase part `slot` is kept in now: the listing's for a part the move tried leaves
    /// as it was, else the phase under way.
    #[inline]
    fn phase_of(&self, slot: u32) -> u64 {
        let same = (self.same.get(slot as usize / 64)).is_some_and(|w| w & (1 << (slot % 64)) != 0);
        if same { self.outer } else { self.phase }
    }
}

/// A move tried on a copy of the state while its decision is listed (`keep.rs`): the parts
/// of the condition that read nothing the move writes (`touched.rs`) are worth what they are
/// worth before it; they are kept in the listing's phase, read once for every move tried.
/// Begun before the copy's own phase, within the listing's.
pub(super) struct Trial(());

impl Trial {
    /// `same`: a bit per part the move leaves as it was.
    pub(super) fn begin(same: &[u64]) -> Trial {
        TABLE.with_borrow_mut(|t| {
            // Outside a listing's phase there is nothing to share.
            if t.phase != 0 {
                t.outer = t.phase;
                t.same.clear();
                t.same.extend_from_slice(same);
            }
        });
        Trial(())
    }
}

impl Drop for Trial {
    fn drop(&mut self) {
        TABLE.with_borrow_mut(|t| {
            t.outer = 0;
            t.same.clear();
        });
    }
}

/// A decision being listed on `state`: the parts read while it lasts are kept. It borrows
/// the state, so the state cannot change while its values are kept; dropped, the phase it
/// interrupted (a listing around a `keep` condition's) goes on.
pub(super) struct Phase<'s> {
    outer: (u64, usize),
    _state: PhantomData<&'s State>,
}

impl<'s> Phase<'s> {
    pub(super) fn begin(state: &'s State) -> Phase<'s> {
        let outer = TABLE.with_borrow_mut(|t| {
            let outer = (t.phase, t.state);
            t.last += 1;
            (t.phase, t.state) = (t.last, state as *const State as usize);
            outer
        });
        Phase {
            outer,
            _state: PhantomData,
        }
    }
}

impl Drop for Phase<'_> {
    fn drop(&mut self) {
        TABLE.with_borrow_mut(|t| (t.phase, t.state) = self.outer);
    }
}

/// Where part `slot` read for seat `player` on `state` is kept in the phase under way.
#[inline]
fn entry(t: &Table, state: &State, slot: u32, player: usize) -> Option<usize> {
    (t.phase != 0 && player < SEATS && t.state == state as *const State as usize)
        .then(|| slot as usize * SEATS + player)
}

/// The value kept for part `slot` and seat `player`, when the phase under way has one.
#[inline]
pub(super) fn recall(state: &State, slot: u32, player: usize) -> Option<i64> {
    TABLE.with_borrow(|t| {
        let i = entry(t, state, slot, player)?;
        let phase = t.phase_of(slot);
        t.kept.get(i).filter(|k| k.0 == phase).map(|k| k.1)
    })
}

/// Keeps `value` for part `slot` and seat `player`, when a phase is under way on `state`.
#[inline]
pub(super) fn keep(state: &State, slot: u32, player: usize, value: i64) {
    TABLE.with_borrow_mut(|t| {
        let Some(i) = entry(t, state, slot, player) else {
            return;
        };
        if t.kept.len() <= i {
            t.kept.resize(i + 1, (0, 0));
        }
        let phase = t.phase_of(slot);
        // A move tried that changes the part leaves the listing's value for the next.
        if t.outer != 0 && phase != t.outer && t.kept[i].0 == t.outer {
            return;
        }
        t.kept[i] = (phase, value);
    });
}

/// Where a description has parts kept: a phase is begun only there, so that it costs a
/// description without them nothing.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct KeptParts {
    /// In its guards, standing windows or `keep` conditions: a phase per listing.
    pub listing: bool,
    /// In the bot's worth: a phase per worth worked out.
    pub worth: bool,
}

impl Rulebook {
    /// A decision being listed on `state`, when a listing has parts to keep.
    pub(super) fn listing_phase<'s>(&self, state: &'s State) -> Option<Phase<'s>> {
        self.kept_parts.listing.then(|| Phase::begin(state))
    }

    /// A worth being worked out on `state`, when the worth has parts to keep.
    pub(super) fn worth_phase<'s>(&self, state: &'s State) -> Option<Phase<'s>> {
        self.kept_parts.worth.then(|| Phase::begin(state))
    }
}

#[cfg(test)]
mod tests {
    use grail_engine::game::{Rules, Setup};

    use super::super::random_games::pack_in;
    use super::*;

    /// A move tried on a copy reads the listing's value of a part it leaves as it was, and
    /// works out anew (without spoiling the listing's) a part it changes; what one move
    /// tried kept of its own is not the next one's.
    #[test]
    fn a_move_tried_reads_the_listings_value_of_the_parts_it_leaves() {
        let rules = super::super::compile(&pack_in("../tests/packs", "quests-rulebook", None))
            .expect("the draft compiles");
        let state = rules.setup(&Setup::new(3, 1)).expect("a game");
        let copy = state.clone();
        let _listing = Phase::begin(&state);
        keep(&state, 0, 1, 10);
        keep(&state, 1, 1, 20);
        for _ in 0..2 {
            // Part 0 left as it was, part 1 changed.
            let _trial = Trial::begin(&[0b01]);
            let _phase = Phase::begin(&copy);
            assert_eq!(recall(&copy, 0, 1), Some(10));
            assert_eq!(recall(&copy, 0, 2), None, "kept per seat");
            assert_eq!(recall(&copy, 1, 1), None);
            keep(&copy, 1, 1, 21);
            assert_eq!(recall(&copy, 1, 1), None, "the listing's value stays");
            assert_eq!(
                recall(&copy, 2, 1),
                None,
                "the move tried before kept its own"
            );
            keep(&copy, 2, 1, 30);
            assert_eq!(recall(&copy, 2, 1), Some(30));
        }
        assert_eq!(recall(&state, 0, 1), Some(10));
        assert_eq!(recall(&state, 1, 1), Some(20));
    }
}
