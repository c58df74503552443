//! The stages besides `turn`. Those played before the turns (`rounds`, e.g. placing
//! figures): each seat plays the stage's steps in turn, starting from the first or last seat
//! and going either way round, for so many rounds; then the turns begin with P1. Those a step
//! enters (`"stage:<name>"`, `dispatch`): their steps are played by the same player, then
//! play goes on after the step that entered them (again first while their `repeat` holds).
//! Their steps follow the turn's in the rulebook's step list, so a step index names a step
//! in any stage.

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::model::{Enter, MAX_NESTING, Stage};
use super::state::{Repeats, StageAt, State};

impl Rulebook {
    fn first_seat(stage: &Stage, players: u8) -> u8 {
        if stage.from_last { players - 1 } else { 0 }
    }

    /// Enters the first stage before the turns, if there is one played.
    pub(super) fn begin_stages(&self, state: &mut State) {
        if let Some(k) = self.played_stage_from(0, state.players) {
            let stage = &self.stages[k];
            state.stage = StageAt {
                stage: k as u8 + 1,
                played: 0,
            };
            state.step = stage.first_step as u8;
            state.current = Self::first_seat(stage, state.players);
        }
    }

    /// The first stage before the turns from the `k`-th on that `players` play: a stage of
    /// 0 rounds for that count is passed by, not played once.
    fn played_stage_from(&self, k: usize, players: u8) -> Option<usize> {
        (k..self.stages.len())
            .take_while(|&i| !self.stages[i].sub)
            .find(|&i| {
                let rounds = &self.stages[i].rounds;
                rounds.get(usize::from(players)).copied().unwrap_or(0) > 0
            })
    }

    /// The end of the current stage's steps.
    pub(super) fn stage_end(&self, state: &State) -> usize {
        match state.stage.stage {
            0 => self.turn_steps,
            k => {
                let s = &self.stages[usize::from(k) - 1];
                s.first_step + s.len
            }
        }
    }

    /// A seat has played the stage's steps: the next seat, the next stage, or the turns.
    pub(super) fn next_in_stage(&self, state: &mut State) {
        let k = usize::from(state.stage.stage) - 1;
        let stage = &self.stages[k];
        let n = state.players;
        state.stage.played += 1;
        let rounds = stage.rounds.get(usize::from(n)).copied().unwrap_or(0);
        if i64::from(state.stage.played) < rounds * i64::from(n) {
            // In 16 bits: with 255 seats, `current + n - 1` does not fit a byte.
            let (current, seats) = (u16::from(state.current), u16::from(n));
            state.current = if stage.backward {
                ((current + seats - 1) % seats) as u8
            } else {
                ((current + 1) % seats) as u8
            };
            state.step = stage.first_step as u8;
        } else if let Some(next) = self.played_stage_from(k + 1, n) {
            state.stage = StageAt {
                stage: next as u8 + 1,
                played: 0,
            };
            state.step = self.stages[next].first_step as u8;
            state.current = Self::first_seat(&self.stages[next], n);
        } else {
            state.stage = StageAt::default();
            state.step = 0;
            state.current = 0;
        }
        state.done = 0;
        state.reps = super::state::Repeats(0);
    }

    /// Whether the state is at the end of a stage a step entered.
    #[inline]
    pub(super) fn entered_over(&self, state: &State) -> bool {
        state.stage.stage != 0
            && self.stages[usize::from(state.stage.stage) - 1].sub
            && usize::from(state.step) >= self.stage_end(state)
    }

    /// The state is at a step that enters a stage: enters the stage its value picks (keeping
    /// where to come back to), or, picking none, goes on to the next step.
    pub(super) fn enter_stage(&self, enter: &Enter, state: &mut State) {
        let picked = match &enter.on {
            None => enter.otherwise,
            Some(on) => {
                let value = self.eval(on, &Ctx::current(state, Args::NONE));
                (enter.cases.iter())
                    .find(|(v, _)| *v == value)
                    .map(|(_, k)| *k)
                    .or(enter.otherwise)
            }
        };
        state.reps = Repeats(0);
        let depth = usize::from(state.calls.depth);
        // Lint bounds the nesting: one deeper than the state keeps is not entered.
        let (Some(k), true) = (picked, depth < MAX_NESTING) else {
            state.step += 1;
            return;
        };
        state.calls.back[depth] = (state.stage, state.step + 1);
        state.calls.depth += 1;
        state.stage = StageAt {
            stage: k as u8 + 1,
            played: 0,
        };
        state.step = self.stages[k].first_step as u8;
    }

    /// A stage a step entered is over: played again while its `repeat` holds, else play goes
    /// back to the step after the one that entered it (the end of the turn for a state set
    /// up inside such a stage, which has nowhere to go back to).
    pub(super) fn leave_entered(&self, state: &mut State) {
        let stage = &self.stages[usize::from(state.stage.stage) - 1];
        state.reps = Repeats(0);
        if (stage.repeat.as_ref())
            .is_some_and(|r| self.eval(r, &Ctx::current(state, Args::NONE)) != 0)
        {
            state.step = stage.first_step as u8;
            return;
        }
        match state.calls.depth.checked_sub(1) {
            Some(depth) => {
                (state.stage, state.step) = state.calls.back[usize::from(depth)];
                state.calls.depth = depth;
            }
            None => {
                state.stage = StageAt::default();
                state.step = self.turn_steps as u8;
            }
        }
    }

    /// The stage a step belongs to (for a position naming a step).
    pub(super) fn stage_of_step(&self, step: usize) -> StageAt {
        let stage = self
            .stages
            .iter()
            .position(|s| (s.first_step..s.first_step + s.len).contains(&step))
            .map_or(0, |k| k as u8 + 1);
        StageAt { stage, played: 0 }
    }
}
