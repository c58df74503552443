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
}

thread_local! {
    static TABLE: RefCell<Table> = const {
        RefCell::new(Table {
            phase: 0,
            state: 0,
            last: 0,
            kept: Vec::new(),
        })
    };
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
        t.kept.get(i).filter(|k| k.0 == t.phase).map(|k| k.1)
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
        t.kept[i] = (t.phase, value);
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
