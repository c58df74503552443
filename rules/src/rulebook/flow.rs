//! The flow of a game: carrying out a move, entering the next step (skipping those with
//! nothing to do, making `auto` moves at once), ending turns and the game, and the scores.
//! A new step kind is entered in [`Rulebook::advance`] and carried out in `play`.

use grail_engine::game::EventSink;

use super::Rulebook;
use super::args::Args;
use super::effects::Subject;
use super::eval::Ctx;
use super::listed::Out;
use super::model::Expr;
use super::state::{Action, Ended, Event, PASS, PAY, Repeats, State};

impl Rulebook {
    /// Lists the step's moves into the state; whether it has any.
    fn enter_step(&self, state: &mut State) -> bool {
        let memo_fits = self.refresh_memo(state);
        let moves = std::mem::take(&mut state.listed.moves);
        let runs = std::mem::take(&mut state.listed.runs);
        let mut out = Out::keeping(moves, runs);
        self.decision_moves_into(state, &mut out, memo_fits);
        let fresh = !out.is_empty();
        let (moves, runs, in_runs) = out.into_parts();
        // Field by field: the listing written back as one value was copied through the stack
        // in pieces of other sizes than it was read back in (a stall on every step entered).
        let listed = &mut state.listed.0;
        listed.fresh = fresh;
        listed.moves = moves;
        listed.runs = runs;
        listed.in_runs = in_runs;
        fresh
    }

    /// The moves of the decision the state is at: the step's, then the standing actions
    /// whose window holds, less the step's own after which its `keep` fails (`keep.rs`).
    pub(super) fn decision_moves(&self, state: &State, moves: &mut Vec<Action>, memo_fits: bool) {
        let mut out = Out::written(std::mem::take(moves));
        self.decision_moves_into(state, &mut out, memo_fits);
        *moves = out.moves;
    }

    /// [`Rulebook::decision_moves`] into `out`, which may keep a card table's runs.
    #[inline(always)]
    pub(super) fn decision_moves_into(&self, state: &State, out: &mut Out, memo_fits: bool) {
        // The parts of guards that name no card or seat are read once for all (`memo.rs`).
        let _phase = self.listing_phase(state);
        self.list_into(state, out, memo_fits);
        if !self.standing.is_empty() && !out.is_empty() {
            self.list_standing(state, out);
        }
        if self.keeps {
            self.keep_moves(state, out.moves_written(self));
        }
    }

    /// The standing actions whose window holds for the seat deciding, after a decision's
    /// moves (so a step with one move is no longer made alone: the seat decides).
    #[inline(never)]
    fn list_standing(&self, state: &State, moves: &mut Out) {
        let ctx = Ctx {
            state,
            player: usize::from(state.decider()),
            args: Args::NONE,
        };
        // Those whose window may hold at this step (all, without the table).
        let standing = (self.derived.standing_at.get(usize::from(state.step)))
            .map_or(&self.standing[..], |at| &at[..]);
        for &a in standing {
            let Some((window, _)) = &self.actions[a].standing else {
                continue;
            };
            if self.eval(window, &ctx) != 0 {
                self.bindings(state, a, |args| {
                    moves.push(Action::new(a as u16, args));
                    true
                });
            }
        }
    }

    /// Moves on to the next step with something to do, ending turns and the game.
    /// Moves the cursor to the next step someone can take, ending the game or turn on the
    /// way. An `auto` step's only move is returned, to be made at once, no one deciding
    /// (by the caller's loop, so a chain of them never deepens the stack).
    #[must_use]
    pub(super) fn advance(
        &self,
        state: &mut State,
        events: &mut impl EventSink<Event>,
    ) -> Option<Action> {
        let mut skipped = 0;
        loop {
            // A stage a step entered is over: again, or back where it was entered.
            if self.enters && self.entered_over(state) {
                if !super::fault::spend(1) {
                    return None;
                }
                self.leave_entered(state);
                continue;
            }
            if state.stage.stage != 0 && usize::from(state.step) >= self.stage_end(state) {
                self.next_in_stage(state);
            }
            if state.stage.stage == 0 && usize::from(state.step) >= self.turn_steps {
                let ctx = Ctx {
                    state,
                    player: 0,
                    args: Args::NONE,
                };
                if let Some(ending) = self.ending_reached(state, false) {
                    state.ended = Some(ending);
                } else if self.arg(&self.end_when, &ctx) != 0 {
                    state.ended = Some(Ended::Rule);
                } else if state.turn >= self.turn_limit {
                    state.ended = Some(Ended::TurnLimit);
                }
                if state.ended.is_some() {
                    events.emit(|| Event::Ended);
                    return None;
                }
                state.turn += 1;
                state.current = self.next_seat(state);
                state.step = 0;
                state.done = 0;
                state.reps = Repeats(0);
            }
            // A step entering a stage enters it (or, its value picking none, is passed).
            let enter = match self.enters {
                true => (self.steps.get(usize::from(state.step))).and_then(|s| s.enter.as_ref()),
                false => None,
            };
            if let Some(enter) = enter {
                if !super::fault::spend(1) {
                    return None;
                }
                self.enter_stage(enter, state);
                continue;
            }
            // A step other seats decide: its first seat is asked as it is entered.
            let who = match self.asks {
                true => (self.steps.get(usize::from(state.step))).and_then(|s| s.who.as_ref()),
                false => None,
            };
            if let Some(who) = who
                && !state.asking.active
                && !self.begin_asking(who, state)
            {
                state.step += 1;
                state.reps = Repeats(0);
                continue;
            }
            // A loop whose condition is false is passed by (for this seat, if asked).
            if self.loops && self.loop_done(state) {
                self.leave_step(state, false);
                if !super::fault::spend(1) {
                    return None;
                }
                continue;
            }
            if self.enter_step(state) {
                // An `auto` step's only move is made at once, no one deciding.
                let auto = Self::listing_len(&state.listed) == 1
                    && self
                        .steps
                        .get(usize::from(state.step))
                        .is_some_and(|s| s.auto);
                return auto.then(|| self.listing_move(&state.listed, 0)).flatten();
            }
            // A loop whose condition holds (it was asked just above) with nothing to do: an
            // obligation the seat cannot meet, told so (lint warns of it).
            if self.loops
                && self
                    .steps
                    .get(usize::from(state.step))
                    .is_some_and(|s| s.repeat_while)
            {
                let (step, seat) = (u16::from(state.step), state.decider());
                events.emit(|| Event::Unmet { step, seat });
            }
            // A seat asked with nothing it may do: the next one is asked, silently (the step
            // is not theirs to play); after the last, the step is over.
            if who.is_some() && state.asking.active {
                if !super::fault::spend(1) {
                    return None;
                }
                self.leave_step(state, false);
                continue;
            }
            skipped += 1;
            // Every step skipped is work (and every `auto` move, `play_out`): a description
            // whose turns nobody decides cannot spin inside one move.
            if !super::fault::spend(1) {
                return None;
            }
            if skipped > self.steps.len() * usize::from(state.players) + 1 {
                // Nobody can do anything for a whole round: nothing changes any more and
                // no end condition holds. An error, not a silent run to the turn limit.
                state.ended = Some(Ended::Stuck {
                    step: u16::from(state.step),
                });
                return None;
            }
            let (step, seat) = (u16::from(state.step), state.current);
            events.emit(|| Event::Skipped { step, seat });
            state.step += 1;
            state.reps = Repeats(0);
        }
    }

    /// Whether the step is a loop (`repeat = "while …"`) whose condition does not hold.
    #[inline]
    fn loop_done(&self, state: &State) -> bool {
        match self.steps.get(usize::from(state.step)) {
            Some(s) if s.repeat_while => s
                .repeat
                .as_ref()
                .is_some_and(|c| self.eval(c, &Ctx::current(state, Args::NONE)) == 0),
            _ => false,
        }
    }

    /// A step is over for the seat deciding it (it acted, passed or had nothing to do): the
    /// next seat asked, else the next step.
    #[inline(always)]
    fn leave_step(&self, state: &mut State, acted: bool) {
        if !(state.asking.active && self.ask_on(state, acted)) {
            state.step += 1;
        }
        state.reps = Repeats(0);
    }

    /// Moves the asking of a step other seats decide on to the next seat, after one acted
    /// (`acted`) or passed; false when the step is over (or asks nobody).
    #[inline(never)]
    fn ask_on(&self, state: &mut State, acted: bool) -> bool {
        let Some(who) = self
            .steps
            .get(usize::from(state.step))
            .and_then(|s| s.who.as_ref())
        else {
            state.asking = Default::default();
            return false;
        };
        if acted && who.first {
            state.asking = Default::default();
            return false;
        }
        self.ask_next(who, state)
    }

    /// Who takes the next turn: the seat `[stages.turn] next` names, else the next in turn
    /// order.
    #[inline]
    fn next_seat(&self, state: &State) -> u8 {
        match &self.next_turn {
            None => (state.current + 1) % state.players,
            Some(next) => {
                let seat = self.eval(next, &Ctx::current(state, Args::NONE));
                super::fault::seat(seat, state.players) as u8
            }
        }
    }

    /// Each seat's score: by `[end] score`, or the score of the ending the game ended by.
    pub(super) fn scores(&self, state: &State) -> Vec<i64> {
        let score = (self.ending_of(state))
            .and_then(|e| e.score.as_ref())
            .unwrap_or(&self.score);
        (0..usize::from(state.players))
            .map(|p| {
                self.eval(
                    score,
                    &Ctx {
                        state,
                        player: p,
                        args: Args::NONE,
                    },
                )
            })
            .collect()
    }

    /// Makes the `auto` moves a move (or the setup) led to, one after another.
    #[inline(never)]
    pub(super) fn play_out(
        &self,
        state: &mut State,
        mut auto: Option<Action>,
        events: &mut impl EventSink<Event>,
    ) {
        while let Some(action) = auto {
            if !super::fault::spend(1) {
                return;
            }
            auto = self.play(state, &action, events);
        }
    }

    /// Whether action `a` with `args` only chooses: its payment or its figures are the next
    /// move, and its effects wait for them.
    pub(super) fn only_chooses(&self, state: &State, a: usize, args: Args) -> bool {
        self.actions[a].pay.is_some() || self.must_choose(state, a, args)
    }

    /// Runs action `a`'s effects with `args` (a fault from them is the action's).
    #[inline(always)]
    pub(super) fn run_action(
        &self,
        state: &mut State,
        a: usize,
        args: Args,
        events: &mut impl EventSink<Event>,
    ) {
        super::fault::acting(a);
        let on = Subject {
            args,
            pile: self.move_pile(state, a, args),
            stack: &[],
            player: None,
        };
        self.run(&self.actions[a].effects, state, &on, events);
    }

    /// Carries out one move and enters the next step; returns the `auto` move that step
    /// makes at once, if any.
    #[must_use]
    #[inline(always)]
    pub(super) fn play(
        &self,
        state: &mut State,
        action: &Action,
        events: &mut impl EventSink<Event>,
    ) -> Option<Action> {
        state.listed.fresh = false;
        let (a, args) = match (action.action, state.pending) {
            (PASS, _) => {
                // A seat asked passes to the next one; the step ends after the last.
                self.leave_step(state, false);
                return self.advance(state, events);
            }
            (PAY, Some((a, args))) => {
                self.pay(state, action, events);
                self.take_choice(state, action);
                state.pending = None;
                (usize::from(a), args)
            }
            (a, _) if self.only_chooses(state, usize::from(a), action.args) => {
                // Chosen: the payment is the next move.
                state.pending = Some((a, action.args));
                return None;
            }
            (a, _) => (usize::from(a), action.args),
        };
        self.run_action(state, a, args, events);
        if super::fault::failed() {
            return None;
        }
        state.chosen = Default::default();
        state.done |= 1 << a;
        state.args[a] = args.kept();
        // A standing action leaves the decision where it was: the step is listed again.
        if !self.standing.is_empty() && self.actions[a].standing.is_some() {
            return self.after_move(state, events);
        }
        // A step taking several actions stays until it has had them all.
        state.reps = Repeats(state.reps.0.saturating_add(1));
        let times = self
            .steps
            .get(usize::from(state.step))
            .and_then(|s| s.repeat.as_ref());
        // A step takes at most 255 actions (the count a state keeps; a fixed `repeat` past
        // it is refused by lint, one reckoned in play stops there).
        let again = match times {
            None => false,
            // A fixed count (`repeat = "$cards_per_turn"`, most steps that repeat): read in
            // place, no context made.
            Some(Expr::Const(n)) if !self.steps[usize::from(state.step)].repeat_while => {
                i64::from(state.reps.0) < (*n).min(255)
            }
            Some(t) => {
                let ctx = Ctx::current(state, Args::NONE);
                match self.steps[usize::from(state.step)].repeat_while {
                    // `repeat = "while …"`: again while it holds.
                    true => state.reps.0 < u8::MAX && self.eval(t, &ctx) != 0,
                    false => i64::from(state.reps.0) < self.operand(t, &ctx).min(255),
                }
            }
        };
        if !again {
            // A seat asked has acted: the next seat is asked (an offer ends with the first
            // who acts).
            self.leave_step(state, true);
        }
        self.after_move(state, events)
    }

    /// After a move: the endings asked after every move, else the next step entered.
    #[inline(always)]
    fn after_move(&self, state: &mut State, events: &mut impl EventSink<Event>) -> Option<Action> {
        if let Some(now) = &self.now {
            let ctx = Ctx {
                state,
                player: 0,
                args: Args::NONE,
            };
            if self.eval(now, &ctx) != 0 {
                state.ended = Some(Ended::Now);
                events.emit(|| Event::Ended);
                return None;
            }
        }
        if let Some(ending) = self.ending_reached(state, true) {
            state.ended = Some(ending);
            events.emit(|| Event::Ended);
            return None;
        }
        self.advance(state, events)
    }
}
