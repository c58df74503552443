//! `[steps.*] keep = "<condition>"`: a move of the step is offered only if the condition
//! holds after it. Quests: a sponsor lays the stages out card by card, and "a card is offered
//! only if the quest can still be completed with it" (`keep = "finishable"`, where
//! `finishable` says it with `rising`). The condition is read on a copy, after the move's own
//! effects and before the game goes on, with `P` the seat deciding; what the copy spends is
//! forgotten. A move whose effects fault is left out; a fault of the condition itself fails
//! the move being made.
//!
//! Only the step's own actions are checked: `pass` and the standing actions are offered as
//! they are, and a step left with none of its own actions offers nothing (the seat is not
//! asked: a standing action keeps no step alive). A move that only chooses (its payment or
//! figure is the next move) is offered as it is: its effects are not yet known.

use std::cell::RefCell;

use grail_engine::game::NoEvents;

use super::Rulebook;
use super::eval::Ctx;
use super::fault;
use super::model::Expr;
use super::state::{Action, State};

thread_local! {
    /// The copy the moves are tried on, its buffers reused from listing to listing.
    static COPY: RefCell<Option<State>> = const { RefCell::new(None) };
}

impl Rulebook {
    /// Drops from `moves` (listed at `state`) those of the step's own actions after which its
    /// `keep` fails; none of them left, nothing is offered.
    pub(super) fn keep_moves(&self, state: &State, moves: &mut Vec<Action>) {
        let Some(step) = self.steps.get(usize::from(state.step)) else {
            return;
        };
        let Some((keep, _)) = &step.keep else {
            return;
        };
        // A payment or choice being made: its move was offered as it was.
        if moves.is_empty() || state.pending.is_some() {
            return;
        }
        let own = |m: &Action| step.actions.contains(&usize::from(m.action));
        let note = fault::save();
        let mut faulted = None;
        COPY.with_borrow_mut(|spare| {
            let copy = spare.get_or_insert_with(|| state.clone());
            moves.retain(|m| !own(m) || self.kept(state, m, keep, copy, &mut faulted));
        });
        fault::restore(note);
        // The condition itself faulted (a search past the move's budget, a division by zero):
        // the move being made fails with it, never a move silently left out.
        if let Some(f) = faulted {
            fault::fail(f);
        }
        if !moves.iter().any(own) {
            moves.clear();
        }
    }

    /// Whether `keep` holds after `m`'s effects, played on `copy` (a move whose effects fault
    /// is left out; the first fault of the condition itself is noted in `faulted`).
    fn kept(
        &self,
        state: &State,
        m: &Action,
        keep: &Expr,
        copy: &mut State,
        faulted: &mut Option<fault::Fault>,
    ) -> bool {
        let a = usize::from(m.action);
        if self.only_chooses(state, a, m.args) {
            return true;
        }
        copy.clone_from(state);
        fault::begin(self.work_budget);
        self.run_action(copy, a, m.args, &mut NoEvents);
        if fault::failed() {
            return false;
        }
        let ctx = Ctx {
            state: copy,
            player: usize::from(state.decider()),
            args: m.args,
        };
        let holds = {
            // The parts the move leaves as they were are read once for all moves tried.
            let _trial = (self.trial_parts.get(a)).map(|same| super::memo::Trial::begin(same));
            let _phase = self.listing_phase(copy);
            self.eval(keep, &ctx) != 0
        };
        if let Some(f) = fault::end() {
            faulted.get_or_insert(f);
        }
        holds
    }
}
