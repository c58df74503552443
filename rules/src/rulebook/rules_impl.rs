//! The `Rules` implementation of a compiled description: the engine's entry points,
//! each a call into the files that do the work.

use std::ops::RangeInclusive;

use grail_engine::game::{EventSink, Outcome, Rules, Seat, Setup};
use grail_engine::rng::GameRng;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::model::TYPE_MASK;
use super::state::{Action, Ended, Event, State};

impl Rules for Rulebook {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn game_id(&self) -> &str {
        &self.id
    }

    fn variant(&self) -> Option<&str> {
        self.variant.as_deref()
    }

    fn players(&self) -> RangeInclusive<usize> {
        self.players.0..=self.players.1
    }

    fn setup(&self, setup: &Setup) -> Result<State, String> {
        self.new_state(setup, &mut grail_engine::game::NoEvents)
    }

    fn setup_into(&self, setup: &Setup, spare: State) -> Result<State, String> {
        self.new_state_in(setup, &mut grail_engine::game::NoEvents, Some(spare))
    }

    fn setup_with_events(
        &self,
        setup: &Setup,
        events: &mut impl EventSink<Event>,
    ) -> Result<State, String> {
        self.new_state(setup, events)
    }

    fn to_move(&self, state: &State) -> Option<Seat> {
        state
            .ended
            .is_none()
            .then_some(usize::from(state.decider()))
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        out.clear();
        if state.ended.is_some() {
            return;
        }
        if state.listed.fresh {
            self.write_out(&state.listed.moves, &state.listed.runs, out);
        } else {
            self.decision_moves(state, out, false);
        }
    }

    fn listed<'s>(&self, state: &'s State) -> Option<&'s [Action]> {
        let whole = state.listed.fresh && state.listed.runs.is_empty();
        (state.ended.is_none() && whole).then_some(&state.listed.moves[..])
    }

    fn listed_count(&self, state: &State) -> Option<usize> {
        (state.ended.is_none() && state.listed.fresh).then(|| Self::listing_len(&state.listed))
    }

    fn listed_nth(&self, state: &State, i: usize) -> Option<Action> {
        (state.ended.is_none() && state.listed.fresh)
            .then(|| self.listing_move(&state.listed, i))
            .flatten()
    }

    fn apply(&self, state: &mut State, action: &Action, events: &mut impl EventSink<Event>) {
        super::fault::begin(self.work_budget);
        let auto = self.play(state, action, events);
        if auto.is_some() {
            self.play_out(state, auto, events);
        }
        if let Some(fault) = super::fault::end() {
            state.ended = Some(Ended::Failed {
                fault,
                action: super::fault::action(),
            });
        }
    }

    fn stuck(&self, state: &State) -> Option<grail_engine::game::Stuck> {
        if let Some(Ended::Failed { fault, action }) = state.ended {
            return Some(self.failure(state, fault, action));
        }
        let Some(Ended::Stuck { step }) = state.ended else {
            return None;
        };
        // The steps of the stage it stuck in: a stage before the turns, or the turn's.
        let (when, steps) = match usize::from(state.stage.stage) {
            0 => (format!("at turn {}", state.turn), 0..self.turn_steps),
            k => {
                let stage = &self.stages[k - 1];
                let when = match stage.sub {
                    true => format!("at turn {}, in stage `{}`", state.turn, stage.name),
                    false => format!("in stage `{}`, before the turns", stage.name),
                };
                (when, stage.first_step..stage.first_step + stage.len)
            }
        };
        let names: Vec<String> = (self.steps[steps].iter())
            .map(|s| format!("`{}`", s.name))
            .collect();
        let why = format!(
            "{when}, nobody could move for a whole round (every step was skipped: {}; the \
             last was `{}` for P{}) and no end condition holds; a step needs a move someone \
             can make, or `[end]` a condition that holds here",
            names.join(", "),
            self.steps
                .get(usize::from(step))
                .map_or("?", |s| s.name.as_str()),
            usize::from(state.current) + 1,
        );
        Some(grail_engine::game::Stuck::new("game-stuck", why))
    }

    fn why_illegal(&self, state: &State, action: &Action) -> String {
        self.refusal(state, action)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        let ended = state.ended?;
        let scores = self.scores(state);
        let best = scores.iter().copied().max().unwrap_or(0);
        let decided = self.ending_winners(state);
        let by_score = decided.is_none();
        let mut winners: Vec<Seat> =
            decided.unwrap_or_else(|| (0..scores.len()).filter(|&s| scores[s] == best).collect());
        if let Some(tiebreak) = (self.tiebreak.as_ref()).filter(|_| by_score && winners.len() > 1) {
            let of = |p: Seat| {
                self.eval(
                    tiebreak,
                    &Ctx {
                        state,
                        player: p,
                        args: Args::NONE,
                    },
                )
            };
            let most = winners.iter().map(|&p| of(p)).max().unwrap_or(0);
            winners.retain(|&p| of(p) == most);
        }
        let tallies = state
            .tallies
            .iter()
            .map(|&(zone, card, turn, seat)| {
                let (kind, item) = self.tally_names(zone, card);
                grail_engine::game::Tally {
                    kind,
                    item,
                    turn,
                    seat: Some(usize::from(seat)),
                }
            })
            .collect();
        Some(Outcome {
            winners,
            scores,
            end: match ended {
                Ended::Rule => self.end_reason.clone(),
                Ended::Now => self.now_reason.clone(),
                Ended::TurnLimit => "turn-limit".into(),
                Ended::Ending(_) => self
                    .ending_of(state)
                    .map_or_else(String::new, |e| e.reason.clone()),
                Ended::Stuck { .. } | Ended::Failed { .. } => return None,
            },
            // Turns completed: an end `now` comes in the middle of one.
            turns: if ended == Ended::Now || self.ending_of(state).is_some_and(|e| e.now) {
                state.turn.saturating_sub(1)
            } else {
                state.turn
            },
            tallies,
        })
    }

    fn observe(&self, state: &State, seat: Seat, rng: &mut GameRng) -> State {
        self.observation(state, seat, rng)
    }

    fn heuristic(&self, state: &State, seat: Seat) -> f64 {
        let Some(worth) = &self.worth else {
            return 0.0;
        };
        // Its parts read again and again (a seat's battle points) are read once (`memo.rs`).
        let _phase = self.worth_phase(state);
        self.worth_of(
            worth,
            &Ctx {
                state,
                player: seat,
                args: Args::NONE,
            },
        )
    }

    fn format_action(&self, state: &State, action: &Action) -> String {
        self.notation(state, action, None, false)
    }

    fn parse_action(&self, state: &State, text: &str) -> Result<Action, String> {
        self.parse(state, text)
    }

    fn describe_event(&self, state: &State, event: &Event) -> String {
        self.event_text(state, event, None, true)
    }

    fn format_action_for(&self, before: &State, action: &Action, viewer: Option<Seat>) -> String {
        self.notation(before, action, viewer, true)
    }

    fn describe_event_for(&self, state: &State, event: &Event, viewer: Option<Seat>) -> String {
        self.event_text(state, event, viewer, false)
    }

    fn zones(&self, state: &State) -> Vec<(String, Vec<String>)> {
        (0..state.piles.len())
            .map(|p| {
                let set = &self.sets[self.zones[self.locate(p).0].set];
                let cards = state.piles[p]
                    .iter()
                    .map(|&c| set.cards[usize::from(c & TYPE_MASK)].clone())
                    .collect();
                (self.pile_name(p), cards)
            })
            .collect()
    }

    fn render(&self, state: &State, seat: Option<Seat>) -> String {
        self.table(state, seat)
    }

    fn table_parts(&self, state: &State, seat: Option<Seat>) -> Vec<grail_engine::view::Part> {
        Rulebook::table_parts(self, state, seat)
    }

    fn prompt(&self, state: &State) -> String {
        self.step_prompt(state)
    }

    fn score_breakdown(&self, state: &State) -> Vec<(Seat, Vec<(String, i64)>)> {
        self.breakdown(state)
    }

    fn score_is_public(&self) -> bool {
        self.score_public()
    }

    fn move_terms(&self, state: &State, action: &Action) -> grail_engine::game::MoveTerms {
        self.terms_of(state, action)
    }

    fn inspect(&self, state: &State, query: &str) -> Result<String, String> {
        self.answer(state, query)
    }

    fn notation_help(&self) -> String {
        self.help()
    }

    fn takes_positions(&self) -> bool {
        true
    }

    fn check_invariants(&self, state: &State) -> Result<(), String> {
        if let Some(f) = &state.figures.0
            && !f.ring.is_consistent()
        {
            return Err(format!(
                "the ring's seats and figures disagree: {:?}",
                f.ring
            ));
        }
        if let (Some(board), Some(f)) = (&self.board, &state.figures.0)
            && *f.kind_totals != board.summed_totals(f)
        {
            return Err(format!(
                "the figures' kept counter totals {:?} are not their sums {:?}",
                *f.kind_totals,
                board.summed_totals(f)
            ));
        }
        if let (Some(board), Some(f)) = (&self.board, &state.figures.0)
            && let Some((t, held, game)) = board.over_total(f, state.players)
        {
            return Err(format!(
                "the `{}` figures hold {held} {}, and the game has {game}",
                board.kinds[t.kind].name, board.counters[t.counter]
            ));
        }
        self.check_held(state)?;
        // Sets no zone holds (a ring's seats and plates) are not cards in play.
        let held = |si: usize| self.zones.iter().any(|z| z.set == si);
        for (si, set) in self.sets.iter().enumerate().filter(|&(si, _)| held(si)) {
            // A set each seat has its own copy of.
            let copies = if self
                .zones
                .iter()
                .any(|z| z.set == si && z.starts && z.owned)
            {
                usize::from(state.players)
            } else {
                1
            };
            let mut seen = vec![0usize; set.cards.len()];
            for (p, pile) in state.piles.iter().enumerate() {
                if self.zones[self.locate(p).0].set == si {
                    for &c in pile {
                        seen[usize::from(c & TYPE_MASK)] += 1;
                    }
                }
            }
            for (t, &n) in seen.iter().enumerate() {
                if n != usize::from(set.copies[t]) * copies {
                    return Err(format!(
                        "{} {}: {n} in play, {} in the set",
                        set.id,
                        set.cards[t],
                        usize::from(set.copies[t]) * copies
                    ));
                }
            }
        }
        Ok(())
    }
}
