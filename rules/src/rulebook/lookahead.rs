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

use std::cell::Cell;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use grail_engine::game::EventSink;

use super::Rulebook;
use super::fault;
use super::state::{Action, Ended, Event, PASS, State};

/// The most states one listing's search meets.
pub const MOST_STATES: u32 = 200_000;

thread_local! {
    /// A search is under way on this thread: the listings it makes keep every move.
    static SEARCHING: Cell<bool> = const { Cell::new(false) };
}

/// One listing's search: the stage to finish (as `StageAt::stage` numbers it), the seat
/// playing on, the states from which it cannot be finished (every way from them searched),
/// those on the way being searched (met again: a cycle), how many were met.
struct Search {
    stage: u8,
    seat: u8,
    dead: HashSet<u64>,
    on_way: HashSet<u64>,
    met: u32,
    runaway: bool,
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
        let mut search = Search {
            stage: (stage + 1) as u8,
            seat: state.decider(),
            dead: HashSet::new(),
            on_way: HashSet::new(),
            met: 0,
            runaway: false,
        };
        let entered = self.in_stage(state, search.stage);
        moves.retain(|m| {
            m.action == PASS
                || search.runaway
                || self.finishes_after(state, m, entered, &mut search)
        });
        fault::restore(note);
        SEARCHING.set(false);

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
        let mut next = state.clone();
        let found = 'search: {
            if !self.step_on(&mut next, first, s.seat) {
                break 'search false;
            }
            match self.verdict(&next, entered, s) {
                Verdict::Finished => break 'search true,
                Verdict::Dead => break 'search false,
                Verdict::Open(moves, entered, key) => way.push((next, moves, 0, entered, key)),
            }
            while let Some((at, moves, k, entered, key)) = way.last_mut() {
                let Some(m) = moves.get(*k).copied() else {
                    // Every way from here searched: dead.
                    s.on_way.remove(key);
                    s.dead.insert(*key);
                    way.pop();
                    continue;
                };
                *k += 1;
                let entered = *entered;
                let mut next = at.clone();
                if !self.step_on(&mut next, &m, s.seat) {
                    continue;
                }
                s.met += 1;
                if s.met >= MOST_STATES {
                    s.runaway = true;
                    break 'search true;
                }
                match self.verdict(&next, entered, s) {
                    Verdict::Finished => break 'search true,
                    Verdict::Dead => {}
                    Verdict::Open(moves, entered, key) => way.push((next, moves, 0, entered, key)),
                }
            }
            false
        };
        // The way that finished is not dead: its states may be met again from another move.
        for (.., key) in way {
            s.on_way.remove(&key);
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
        let key = key(state, entered);
        if s.dead.contains(&key) || !s.on_way.insert(key) {
            return Verdict::Dead;
        }
        let mut moves = Vec::new();
        if state.listed.fresh {
            moves.extend_from_slice(&state.listed.moves);
        } else {
            self.decision_moves(state, &mut moves, false);
        }
        if moves.is_empty() {
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

/// A state's key among those met (whether its stage was entered on the way counts too).
fn key(state: &State, entered: bool) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    state.hash(&mut h);
    entered.hash(&mut h);
    h.finish()
}
