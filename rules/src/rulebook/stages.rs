//! Stages played before the turns (`[stages.<name>]` with `rounds`, e.g. placing figures):
//! each seat plays the stage's steps in turn, starting from the first or last seat and going
//! either way round, for so many rounds; then the turns begin with P1. Their steps follow
//! the turn's in the rulebook's step list, so a step index names a step in any stage.

use grail_engine::diag::no_such;
use grail_schema::model::Sp;

use super::Rulebook;
use super::compile::{Compiler, MAX_STAGE_TURNS};
use super::model::{Stage, Step};
use super::state::{StageAt, State};

impl Compiler<'_> {
    /// The stages besides `turn`, their steps appended to `steps` (which holds the turn's).
    pub fn pre_stages(
        &mut self,
        steps: &mut Vec<Step>,
        step: &mut dyn FnMut(&mut Self, &Sp<String>) -> Option<Step>,
    ) -> Vec<Stage> {
        let rb = &self.pack.rulebook;
        let mut out = Vec::new();
        for (name, def) in rb.stages.iter().filter(|(k, _)| k.value != "turn") {
            let Some(rounds) = &def.rounds else {
                let msg = format!(
                    "stage `{}` is never entered: a stage besides `turn` is played before it and needs `rounds`",
                    name.value
                );
                self.error("unreachable", msg, &name.loc, name.loc.span.clone());
                continue;
            };
            let mut by_players = vec![0; usize::from(self.pack.players.1) + 1];
            for n in self.pack.players.0..=self.pack.players.1 {
                match self.start_value(rounds, n) {
                    // Every seat plays the stage `rounds` times, counted in 16 bits.
                    Ok(v) if v < 0 || v.saturating_mul(i64::from(n)) > MAX_STAGE_TURNS => {
                        let msg = format!(
                            "stage `{}` is played {v} rounds with {n} players; a stage is played 0 to {} rounds ({MAX_STAGE_TURNS} turns of all the seats together)",
                            name.value,
                            MAX_STAGE_TURNS / i64::from(n)
                        );
                        self.error("over-limit", msg, &rounds.loc, rounds.loc.span.clone());
                        break;
                    }
                    Ok(v) => by_players[usize::from(n)] = v,
                    Err(d) => {
                        self.diags.push(d);
                        break;
                    }
                }
            }
            let word = |c: &mut Self, s: &Option<Sp<String>>, words: [&str; 2]| match s {
                None => false,
                Some(s) if s.value == words[0] => false,
                Some(s) if s.value == words[1] => true,
                Some(s) => {
                    let msg = no_such("choice", &s.value, words);
                    c.error("invalid-value", msg, &s.loc, s.loc.span.clone());
                    false
                }
            };
            let from_last = word(self, &def.first, ["first", "last"]);
            let backward = word(self, &def.order, ["clockwise", "counter-clockwise"]);
            let first_step = steps.len();
            for s in &def.steps {
                if let Some(st) = step(self, s) {
                    steps.push(st);
                }
            }
            out.push(Stage {
                name: name.value.clone(),
                first_step,
                len: steps.len() - first_step,
                rounds: by_players,
                from_last,
                backward,
            });
        }
        out
    }
}

impl Rulebook {
    fn first_seat(stage: &Stage, players: u8) -> u8 {
        if stage.from_last { players - 1 } else { 0 }
    }

    /// Enters the first stage before the turns, if there is one.
    pub(super) fn begin_stages(&self, state: &mut State) {
        if let Some(stage) = self.stages.first() {
            state.stage = StageAt {
                stage: 1,
                played: 0,
            };
            state.step = stage.first_step as u8;
            state.current = Self::first_seat(stage, state.players);
        }
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
        } else if let Some(next) = self.stages.get(k + 1) {
            state.stage = StageAt {
                stage: k as u8 + 2,
                played: 0,
            };
            state.step = next.first_step as u8;
            state.current = Self::first_seat(next, n);
        } else {
            state.stage = StageAt::default();
            state.step = 0;
            state.current = 0;
        }
        state.done = 0;
        state.reps = super::state::Repeats(0);
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
