//! Moves that would leave a stage unfinishable are not offered (`[steps.*] must_finish =
//! "<stage>"`). Quests: a sponsor lays out the stages card by card, and "a card is offered
//! only if the quest can still be completed with it"; a player is asked to sponsor only with a
//! hand that can set the quest up. Whether it can is a search over the description's own
//! moves: after the move, the seat deciding plays on alone (its moves, the automatic ones,
//! the stages entered) until the stage is left. Any way that gets there keeps the move.
//!
//! A way is a dead end where the game sticks or faults, another seat comes to decide, or the
//! seat meets an obligation it cannot meet (a loop whose condition holds with nothing to do:
//! a stage laid out too weak to close). The search plays on copies; what it spends and any
//! fault of a branch are forgotten. A state found dead is not searched again, nor one met
//! again on the way to it (a cycle never finishes), so a search ends; one that meets more than
//! [`MOST_STATES`] states is a runaway, and the move being made fails with it, as a draw that
//! never ends does. Inside a search no listing searches again.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use grail_engine::game::EventSink;

use super::Rulebook;
use super::fault;
use super::state::{Action, Ended, Event, PASS, State};

/// The most states one listing's search meets: a second or a few. A Quests sponsor holding
/// many weapons needs up to about 600 000 to show that a foe laid first leaves the quest
/// unfinishable (every way of spreading the weapons over the stages left is tried).
pub const MOST_STATES: u32 = 2_000_000;

/// The most states the memo between listings keeps before it starts again.
const MOST_REMEMBERED: usize = 1 << 18;

thread_local! {
    /// A search is under way on this thread: the listings it makes keep every move.
    static SEARCHING: Cell<bool> = const { Cell::new(false) };
    /// What the searches of this game found, for the next listings: the states from which
    /// the stage can be finished and those from which it cannot (facts of the state, whoever
    /// asks), kept while the same description plays the same game on this thread.
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

#[derive(Default)]
struct Memo {
    /// The description whose states these are (`Rulebook::compiled`).
    rulebook: u64,
    live: Keys,
    dead: Keys,
}

/// A new game begins on this thread: what earlier searches found is forgotten, so that a
/// game's searches (and a search that runs away) are the same however its thread was used.
pub fn forget() {
    MEMO.with_borrow_mut(|memo| {
        memo.live.clear();
        memo.dead.clear();
    });
}

/// One listing's search: the stage to finish (as `StageAt::stage` numbers it), the seat
/// playing on, the states from which it cannot be finished (every way from them searched),
/// those on the way being searched (met again: a cycle), how many were met.
struct Search {
    stage: u8,
    seat: u8,
    dead: Keys,
    live: Keys,
    on_way: Keys,
    met: u32,
    runaway: bool,
    /// States and move lists done with, whose buffers the next copies reuse.
    spare: Vec<State>,
    spare_moves: Vec<Vec<Action>>,
}

impl Search {
    /// A copy of `state` in a spare state's buffers.
    fn copy(&mut self, state: &State) -> State {
        match self.spare.pop() {
            Some(mut copy) => {
                copy.clone_from(state);
                copy
            }
            None => state.clone(),
        }
    }
}

/// Where a state stands for the search.
enum Verdict {
    /// The stage is finished (or the game is over): the way found keeps the move.
    Finished,
    /// Not this way: another seat decides, nothing is legal, the state was found dead, or it
    /// is met again on the way to it.
    Dead,
    /// Play on: the moves, whether the stage has been entered, the state's key.
    Open(Vec<Action>, bool, u64),
}

impl Rulebook {
    /// Drops from `moves` (listed at `state`) those after which the seat deciding could not
    /// finish the stage the step's `must_finish` names; `pass` stays, unless it is all that
    /// is left (then nothing is: the step offers nothing).
    pub(super) fn keep_finishable(&self, state: &State, moves: &mut Vec<Action>) {
        let Some(stage) = (self.steps.get(usize::from(state.step))).and_then(|s| s.must_finish)
        else {
            return;
        };
        if moves.is_empty() || SEARCHING.get() {
            return;
        }
        SEARCHING.set(true);
        let note = fault::save();
        let (live, dead) = MEMO.with_borrow_mut(|memo| {
            if memo.rulebook != self.compiled || memo.live.len() + memo.dead.len() > MOST_REMEMBERED
            {
                *memo = Memo {
                    rulebook: self.compiled,
                    ..Memo::default()
                };
            }
            (
                std::mem::take(&mut memo.live),
                std::mem::take(&mut memo.dead),
            )
        });
        let mut search = Search {
            stage: (stage + 1) as u8,
            seat: state.decider(),
            live,
            dead,
            on_way: HashSet::default(),
            met: 0,
            runaway: false,
            spare: Vec::new(),
            spare_moves: Vec::new(),
        };
        let entered = self.in_stage(state, search.stage);
        moves.retain(|m| {
            m.action == PASS
                || search.runaway
                || self.finishes_after(state, m, entered, &mut search)
        });
        fault::restore(note);
        SEARCHING.set(false);
        MEMO.with_borrow_mut(|memo| {
            memo.live = std::mem::take(&mut search.live);
            memo.dead = std::mem::take(&mut search.dead);
        });

        if search.runaway {
            fault::fail(fault::Fault::Runaway);
        }
        if moves.iter().all(|m| m.action == PASS) {
            moves.clear();
        }
    }

    /// Whether, after `first` at `state`, the seat can play on to the stage's end.
    fn finishes_after(&self, state: &State, first: &Action, entered: bool, s: &mut Search) -> bool {
        // The states on the way: each with its moves, the next to try, whether the stage was
        // entered, and its key.
        let mut way: Vec<(State, Vec<Action>, usize, bool, u64)> = Vec::new();
        let mut next = s.copy(state);
        let found = 'search: {
            if !self.step_on(&mut next, first, s.seat) {
                s.spare.push(next);
                break 'search false;
            }
            match self.verdict(&next, entered, s) {
                Verdict::Finished => break 'search true,
                Verdict::Dead => {
                    s.spare.push(next);
                    break 'search false;
                }
                Verdict::Open(moves, entered, key) => way.push((next, moves, 0, entered, key)),
            }
            while let Some((at, moves, k, entered, key)) = way.last_mut() {
                let Some(m) = moves.get(*k).copied() else {
                    // Every way from here searched: dead.
                    s.on_way.remove(key);
                    s.dead.insert(*key);
                    if let Some((state, moves, ..)) = way.pop() {
                        s.spare.push(state);
                        s.spare_moves.push(moves);
                    }
                    continue;
                };
                *k += 1;
                let entered = *entered;
                let mut next = s.copy(at);
                if !self.step_on(&mut next, &m, s.seat) {
                    s.spare.push(next);
                    continue;
                }
                s.met += 1;
                if s.met >= MOST_STATES {
                    s.runaway = true;
                    break 'search true;
                }
                match self.verdict(&next, entered, s) {
                    Verdict::Finished => break 'search true,
                    Verdict::Dead => s.spare.push(next),
                    Verdict::Open(moves, entered, key) => way.push((next, moves, 0, entered, key)),
                }
            }
            false
        };
        // The way that finished is not dead: its states may be met again from another move,
        // and lead to the end (unless the search ran away).
        for (state, moves, .., key) in way {
            s.on_way.remove(&key);
            if found && !s.runaway {
                s.live.insert(key);
            }
            s.spare.push(state);
            s.spare_moves.push(moves);
        }
        found
    }

    /// Plays `m` on a copy, with a move's budget; false at a dead end on the way (a fault,
    /// an obligation of `seat`'s left unmet).
    fn step_on(&self, state: &mut State, m: &Action, seat: u8) -> bool {
        fault::begin(self.work_budget);
        let mut watch = Unmet { seat, met: true };
        let auto = self.play(state, m, &mut watch);
        self.play_out(state, auto, &mut watch);
        watch.met && !fault::failed()
    }

    fn verdict(&self, state: &State, entered: bool, s: &mut Search) -> Verdict {
        match state.ended {
            Some(Ended::Stuck { .. } | Ended::Failed { .. }) => return Verdict::Dead,
            Some(_) => return Verdict::Finished,
            None => {}
        }
        let inside = self.in_stage(state, s.stage);
        if entered && !inside {
            return Verdict::Finished;
        }
        let entered = entered || inside;
        if state.decider() != s.seat {
            return Verdict::Dead;
        }
        let key = key(state, entered, s.stage, s.seat);
        if s.live.contains(&key) {
            return Verdict::Finished;
        }
        if s.dead.contains(&key) || !s.on_way.insert(key) {
            return Verdict::Dead;
        }
        let mut moves = s.spare_moves.pop().unwrap_or_default();
        moves.clear();
        if state.listed.fresh {
            moves.extend_from_slice(&state.listed.moves);
        } else {
            self.decision_moves(state, &mut moves, false);
        }
        if moves.is_empty() {
            s.spare_moves.push(moves);
            s.on_way.remove(&key);
            s.dead.insert(key);
            return Verdict::Dead;
        }
        Verdict::Open(moves, entered, key)
    }

    /// Whether `stage` (numbered as `StageAt::stage`) is being played: the stage the state
    /// is at, or one a stage being played was entered from.
    fn in_stage(&self, state: &State, stage: u8) -> bool {
        state.stage.stage == stage
            || (state.calls.back[..usize::from(state.calls.depth)])
                .iter()
                .any(|(at, _)| at.stage == stage)
    }
}

/// Listens for an obligation of `seat`'s left unmet; drops every other event.
struct Unmet {
    seat: u8,
    met: bool,
}

impl EventSink<Event> for Unmet {
    const ENABLED: bool = true;
    #[inline]
    fn push(&mut self, event: Event) {
        if let Event::Unmet { seat, .. } = event
            && seat == self.seat
        {
            self.met = false;
            // The way is dead: stop playing it here (the search forgets the fault).
            fault::fail(fault::Fault::Runaway);
        }
    }
}

/// A set of state keys (already hashes: hashed again with one multiplication).
type Keys = HashSet<u64, BuildHasherDefault<Quick>>;

/// A state's key among those met: the state, whether its stage was entered on the way, and
/// the stage and seat searched for.
fn key(state: &State, entered: bool, stage: u8, seat: u8) -> u64 {
    let mut h = Quick::default();
    state.hash(&mut h);
    (entered, stage, seat).hash(&mut h);
    h.finish()
}

/// A word-at-a-time hash (as rustc's own): a state's words mixed in by a rotation, an xor and
/// a multiplication, each a bijection, so two states differing in one word never collide. Not
/// a digest: keys live for one listing.
#[derive(Default)]
struct Quick(u64);

impl Quick {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Quick {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.mix(u64::from_le_bytes(w.try_into().unwrap_or_default()));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(w));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.mix(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.mix(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.mix(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.mix(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::super::random_games::{bundled, play};
    use super::*;

    /// A copy made in another state's buffers is the state: equal, the same digest, the
    /// same moves listed, the same game from there on (Artus: a ring, figures, counters).
    #[test]
    fn a_copy_in_spare_buffers_is_the_state() {
        let rules = bundled("artus", Some("advanced"));
        let mut states = Vec::new();
        for seed in 0..3 {
            play(&rules, 2 + seed as usize, seed, |state, _, played| {
                if played % 7 == 0 {
                    states.push(state.clone());
                }
            });
        }
        let mut copy = states[states.len() - 1].clone();
        for state in &states {
            copy.clone_from(state);
            assert_eq!(&copy, state);
            assert_eq!(key(&copy, false, 1, 0), key(state, false, 1, 0));
            assert_eq!(copy.listed.moves, state.listed.moves);
            assert_eq!(copy.listed.fresh, state.listed.fresh);
            assert_eq!(copy.held.0, state.held.0);
            assert_eq!(format!("{copy:?}"), format!("{state:?}"));
        }
    }

    /// Keys of states that differ tell them apart (one word, or one pile's length).
    #[test]
    fn keys_tell_states_apart() {
        let rules = bundled("king-arthur", None);
        let mut keys = std::collections::BTreeMap::new();
        play(&rules, 3, 1, |state, _, _| {
            let k = key(state, false, 1, 0);
            if let Some(other) = keys.insert(k, state.clone()) {
                assert_eq!(&other, state, "two states, one key");
            }
            assert_ne!(k, key(state, true, 1, 0));
            assert_ne!(k, key(state, false, 2, 0));
            assert_ne!(k, key(state, false, 1, 1));
        });
        assert!(keys.len() > 20);
    }
}
