//! A decision's moves as a listing writes them: moves one by one, and runs of a card table's
//! moves (`card_tables.rs`) kept by reference when the listing is the state's own, so that a
//! random player, which reads only the move it picks, never has them copied. Anyone asking
//! for the moves (`legal_actions`) gets them written out, in the same order.

use super::Rulebook;
use super::state::{Action, Listed, Run};

/// Where a listing writes: its moves, and, when the runs may be kept by reference, those runs.
/// It holds the lists themselves (taken from the state or the caller and given back), so a
/// listing pushes to them with no reference between.
pub(super) struct Out {
    pub moves: Vec<Action>,
    runs: Vec<Run>,
    /// How many moves `runs` stand for.
    in_runs: usize,
    keeps_runs: bool,
}

impl Out {
    /// Every move written out.
    pub fn written(moves: Vec<Action>) -> Out {
        Out {
            moves,
            runs: Vec::new(),
            in_runs: 0,
            keeps_runs: false,
        }
    }

    /// A card table's runs kept by reference in `runs`.
    pub fn keeping(moves: Vec<Action>, runs: Vec<Run>) -> Out {
        Out {
            moves,
            runs,
            in_runs: 0,
            keeps_runs: true,
        }
    }

    /// The moves, the runs and how many moves the runs stand for.
    pub fn into_parts(self) -> (Vec<Action>, Vec<Run>, usize) {
        (self.moves, self.runs, self.in_runs)
    }

    #[inline(always)]
    pub fn push(&mut self, action: Action) {
        self.moves.push(action);
    }

    #[inline(always)]
    pub fn reserve(&mut self, more: usize) {
        self.moves.reserve(more);
    }

    /// A table's run: kept by reference, or its moves written out.
    #[inline(always)]
    pub fn run(&mut self, run: Run, rules: &Rulebook) {
        if run.len == 0 {
            return;
        }
        if self.keeps_runs {
            self.in_runs += run.len as usize;
            self.runs.push(Run {
                at: self.moves.len() as u32,
                ..run
            });
        } else {
            self.moves.extend_from_slice(rules.run_moves(&run));
        }
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.runs.is_empty()
    }

    pub fn clear(&mut self) {
        self.moves.clear();
        self.runs.clear();
        self.in_runs = 0;
    }

    /// The moves as one list, its runs written out in their places (before a listing edits
    /// what it has listed).
    pub fn moves_written(&mut self, rules: &Rulebook) -> &mut Vec<Action> {
        if !self.runs.is_empty() {
            let mut all = Vec::with_capacity(self.moves.len() + total(&self.runs));
            rules.write_out(&self.moves, &self.runs, &mut all);
            self.moves = all;
            self.runs.clear();
            self.in_runs = 0;
        }
        &mut self.moves
    }
}

fn total(runs: &[Run]) -> usize {
    runs.iter().map(|r| r.len as usize).sum()
}

impl Rulebook {
    /// The moves a run stands for: none for a run no table has.
    pub(super) fn run_moves(&self, run: &Run) -> &[Action] {
        let lo = run.lo as usize;
        (self.derived.card_plans.get(usize::from(run.action)))
            .and_then(Option::as_ref)
            .and_then(|plan| plan.ready(usize::from(run.table)))
            .and_then(|ready| ready.get(lo..lo + run.len as usize))
            .unwrap_or(&[])
    }

    /// How many moves `listed` holds.
    pub(super) fn listing_len(listed: &Listed) -> usize {
        listed.moves.len() + listed.in_runs
    }

    /// The `i`-th move of `listed`, runs read in their places.
    pub(super) fn listing_move(&self, listed: &Listed, mut i: usize) -> Option<Action> {
        let mut written = 0;
        for run in &listed.runs {
            let before = run.at as usize - written;
            if i < before {
                return listed.moves.get(written + i).copied();
            }
            i -= before;
            written = run.at as usize;
            if i < run.len as usize {
                return self.run_moves(run).get(i).copied();
            }
            i -= run.len as usize;
        }
        listed.moves.get(written + i).copied()
    }

    /// `moves` with `runs` in their places, added to `out`.
    pub(super) fn write_out(&self, moves: &[Action], runs: &[Run], out: &mut Vec<Action>) {
        let mut written = 0;
        for run in runs {
            let at = run.at as usize;
            out.extend_from_slice(&moves[written..at]);
            out.extend_from_slice(self.run_moves(run));
            written = at;
        }
        out.extend_from_slice(&moves[written..]);
    }
}

#[cfg(test)]
mod tests {
    use grail_engine::game::{NoEvents, Rules, Setup};

    use super::super::random_games::bundled;

    /// What a state keeps listed, runs by reference, counts and reads move for move as the
    /// listing written out (`legal_actions` of a state whose listing is stale), and the runs
    /// are there to be read: Artus' card tables give most of its moves.
    #[test]
    fn a_listing_with_runs_reads_as_the_listing_written_out() {
        for (game, variant) in [("artus", Some("advanced")), ("king-arthur", None)] {
            let rules = bundled(game, variant);
            let mut runs_seen = 0;
            for seed in 0..4u64 {
                let mut state = rules.setup(&Setup::new(4, seed)).unwrap();
                let mut n = 0;
                while rules.to_move(&state).is_some() {
                    let mut written = Vec::new();
                    rules.decision_moves(&state, &mut written, false);
                    let count = Rules::listed_count(&rules, &state);
                    if let Some(count) = count {
                        assert_eq!(count, written.len(), "{game} seed {seed}, move {n}");
                        for (i, m) in written.iter().enumerate() {
                            assert_eq!(Rules::listed_nth(&rules, &state, i), Some(*m));
                        }
                        assert_eq!(Rules::listed_nth(&rules, &state, count), None);
                        let mut copied = Vec::new();
                        rules.legal_actions(&state, &mut copied);
                        assert_eq!(copied, written, "{game} seed {seed}, move {n}");
                        runs_seen += state.listed.runs.len();
                    }
                    let pick = written[(seed as usize * 7 + n) % written.len()];
                    rules.apply(&mut state, &pick, &mut NoEvents);
                    n += 1;
                }
            }
            if game == "artus" {
                assert!(runs_seen > 100, "{game}: {runs_seen} runs");
            }
        }
    }
}
