//! Setup and the turn: who decides, the legal moves, and how the turn moves on. The turn is
//! "action, presentation window, the king's bestowal, the quest draw (and expiry)"; feasts,
//! jousts, duels, quest resolutions and penalty discards are stages or interruptions in it.

use crate::cards::{deck, stack};
use grail_engine::cond::{Program, solve};
use grail_engine::counts::Counts;
use grail_engine::exchange::{Exchange, Item};
use grail_engine::game::{EventSink, Setup};
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;
use grail_engine::showdown::Showdown;

use super::Virtues;
use super::state::{
    Action, Card, Contest, End, Event, MAX_PLAYERS, Note, NoteKind, Player, Seat, Seats, Slot,
    Stage, State, TREASURE_SET, VIRTUE_SET, bit, has,
};
use crate::wording::Count;

impl Virtues {
    pub(crate) fn deal(&self, setup: &Setup) -> Result<State, String> {
        let n = setup.players;
        if !self.players.contains(&n) || n > MAX_PLAYERS {
            return Err(format!(
                "{} is played by {} to {} players, not {n}",
                self.game,
                self.players.start(),
                self.players.end()
            ));
        }
        let mut rng = GameRng::new(setup.seed);
        let mut treasure_copies = self.treasures.copies.clone();
        treasure_copies[usize::from(self.crown)] = 0;
        let mut virtue_deck = deck(&self.virtues.copies);
        let mut treasure_deck = deck(&treasure_copies);
        let mut quest_deck = deck(&self.quest_cards.copies);
        let mut trial_deck = deck(&self.trial_cards.copies);
        for pile in [
            &mut virtue_deck,
            &mut treasure_deck,
            &mut quest_deck,
            &mut trial_deck,
        ] {
            pile.shuffle(&mut rng);
        }
        for (name, cards) in &setup.stack {
            let (pile, set, what) = match name.as_str() {
                "virtues" => (&mut virtue_deck, &self.virtues, "virtue"),
                "treasures" => (&mut treasure_deck, &self.treasures, "treasure"),
                "quests" => (&mut quest_deck, &self.quest_cards, "quest"),
                "trials" => (&mut trial_deck, &self.trial_cards, "trial"),
                other => {
                    return Err(format!(
                        "there is no pile `{other}` to stack; the piles are virtues, treasures, quests, trials"
                    ));
                }
            };
            stack(pile, cards, set, what)?;
        }
        let mut players = vec![
            Player {
                alive: true,
                ..Player::default()
            };
            n
        ];
        // Ref gap 2: seat 1 is the king and takes the Crown.
        players[0].treasures.add(self.crown, 1);
        let virtue_capacity = virtue_deck.len();
        let trial_capacity = trial_deck.len();
        let mut state = State {
            rng,
            players,
            current: 0,
            turn: 0,
            stage: Stage::Act,
            virtue_deck,
            virtue_discard: Pile::with_capacity(virtue_capacity),
            treasure_deck,
            quest_deck,
            quests_done: Counts::new(),
            trial_deck,
            trial_discard: Pile::with_capacity(trial_capacity),
            honor_supply: self.honor.honor_copies,
            dishonor_supply: self.honor.dishonor_copies,
            layout: Vec::with_capacity(n + 2),
            res: None,
            discards: [0; MAX_PLAYERS],
            no_quest_draw: false,
            end: None,
            log: Vec::new(),
        };
        // Dealt one at a time round the table from the king.
        for _ in 0..self.n.starting_virtues {
            for seat in 0..n as Seat {
                if let Some(card) = state.virtue_deck.draw() {
                    state.player_mut(seat).virtues.add(card, 1);
                }
            }
        }
        for _ in 0..self.n.at(&state).starting_quests {
            if let Some(quest) = state.quest_deck.draw() {
                state.layout.push(Slot { quest, knights: 0 });
            }
        }
        let mut events = grail_engine::game::NoEvents;
        self.begin_turn(&mut state);
        self.advance(&mut state, &mut events);
        Ok(state)
    }

    /// Who holds the Crown.
    pub(crate) fn king(&self, state: &State) -> Option<Seat> {
        (0..state.count() as Seat).find(|&s| state.player(s).treasures.contains(self.crown))
    }

    /// Who decides now.
    pub(crate) fn decider(&self, state: &State) -> Option<Seat> {
        if state.over() {
            return None;
        }
        if let Some(seat) = self.discarder(state) {
            return Some(seat);
        }
        if let Some(res) = &state.res {
            return self.res_decider(res);
        }
        match &state.stage {
            Stage::Start { .. } | Stage::Act | Stage::Bestow | Stage::Expire { .. } => {
                Some(state.current)
            }
            Stage::TurnOver | Stage::Draw => None,
            Stage::Prizes { now, .. } | Stage::Window { now, .. } => Some(*now),
            Stage::Contest(c) => c.showdown.to_move(),
            Stage::Feast(x) => x.to_move(),
            Stage::Over => None,
        }
    }

    /// The first knight in turn order who must still choose discards.
    pub(crate) fn discarder(&self, state: &State) -> Option<Seat> {
        state
            .round_from(state.current)
            .find(|&s| state.discards[usize::from(s)] > 0)
    }

    /// Every legal move of the player to decide, in a stable order.
    pub(crate) fn options(&self, state: &State, out: &mut Vec<Action>) {
        if state.over() {
            return;
        }
        if let Some(seat) = self.discarder(state) {
            for (t, _) in state.player(seat).virtues.iter() {
                out.push(Action::Discard(t));
            }
            return;
        }
        if let Some(res) = &state.res {
            return self.res_options(state, res, out);
        }
        let me = state.current;
        match &state.stage {
            Stage::Start { tried } => {
                if !tried {
                    self.own_presentations(state, me, out);
                }
                out.extend([Action::GiveUp, Action::Stay]);
            }
            Stage::Act => self.actions(state, out),
            Stage::Prizes { now, .. } => {
                if self.n.joust_prize_from_deck {
                    out.push(Action::DrawPrize);
                } else {
                    for (t, _) in state.player(*now).treasures.iter() {
                        out.push(Action::Prize(t));
                    }
                }
                out.push(Action::Pass);
            }
            Stage::Contest(c) => self.show_options(state, &c.showdown, None, out),
            Stage::Feast(x) => self.trade_options(state, x, out),
            Stage::Window { now, .. } => {
                self.own_presentations(state, *now, out);
                out.push(Action::Wait);
            }
            Stage::Bestow => {
                for seat in state.round_from(me).filter(|&s| s != me && state.alive(s)) {
                    if state.honor_supply > 0 {
                        out.push(Action::Honor(seat));
                    }
                    if state.dishonor_supply > 0 {
                        out.push(Action::Dishonor(seat));
                    }
                }
                out.push(Action::Pass);
            }
            Stage::Expire { placed } => {
                for i in 0..state.layout.len() as u8 {
                    if i != *placed {
                        out.push(Action::Expire(i));
                    }
                }
            }
            Stage::TurnOver | Stage::Draw | Stage::Over => {}
        }
    }

    /// The six actions.
    fn actions(&self, state: &State, out: &mut Vec<Action>) {
        let me = state.current;
        for (i, slot) in state.layout.iter().enumerate() {
            if self.room_on(slot) {
                out.push(Action::Embark(i as u8));
            }
        }
        if !state.virtue_deck.is_empty() || !state.virtue_discard.is_empty() {
            let knights = std::iter::once(None).chain(
                state
                    .round_from(me)
                    .filter(|&s| s != me && state.alive(s) && state.on_quest(s))
                    .map(Some),
            );
            for knight in knights {
                out.push(Action::Pray { knight, aid: None });
                if self.n.at(state).pray_aid_draw > 0 {
                    for (t, _) in state.player(me).virtues.iter() {
                        if self.aid_mask & (1 << t) != 0 {
                            out.push(Action::Pray {
                                knight,
                                aid: Some(t),
                            });
                        }
                    }
                }
            }
        }
        if state.round_from(me).filter(|&s| state.at_court(s)).count() >= 2 {
            out.push(Action::Feast);
        }
        if !state.treasure_deck.is_empty() && self.n.tax_draw > 0 {
            for (t, _) in state.player(me).virtues.iter() {
                out.push(Action::Tax(t));
            }
        }
        for seat in state.round_from(me).filter(|&s| s != me && state.alive(s)) {
            if !state.on_quest(seat) {
                out.push(Action::Joust(seat));
            }
        }
        for seat in state.round_from(me).filter(|&s| s != me && state.alive(s)) {
            if !state.on_quest(seat) || self.n.duel_questing_knights {
                out.push(Action::Duel(seat));
            }
        }
    }

    /// Whether the player has any action (praying nearly always is one).
    fn can_act(&self, state: &State) -> bool {
        if !state.virtue_deck.is_empty() || !state.virtue_discard.is_empty() {
            return true;
        }
        let mut actions = Vec::new();
        self.actions(state, &mut actions);
        !actions.is_empty()
    }

    /// Whether `seat` has a joust prize to put up: a treasure of his own, or one to draw.
    pub(crate) fn has_prize(&self, state: &State, seat: Seat) -> bool {
        if self.n.joust_prize_from_deck {
            !state.treasure_deck.is_empty()
        } else {
            !state.player(seat).treasures.is_empty()
        }
    }

    pub(crate) fn room_on(&self, slot: &Slot) -> bool {
        (slot.knights.count_ones() as u8) < self.quests[usize::from(slot.quest)].max_knights
    }

    /// The other living knights on `seat`'s quest, in turn order after him.
    pub(crate) fn partners(&self, state: &State, seat: Seat, knights: Seats) -> Vec<Seat> {
        state
            .round_from(seat)
            .filter(|&s| s != seat && has(knights, s) && state.alive(s))
            .collect()
    }

    /// What `seat` and its partners could reach together, as far as `seat` may know: its own
    /// hand plus, of each type, as many as the partners hold cards (capped by the deck).
    pub(crate) fn reach(&self, state: &State, seat: Seat, knights: Seats) -> Counts {
        let mut reach = state.player(seat).virtues;
        let others: u32 = state
            .round_from(seat)
            .filter(|&s| s != seat && has(knights, s) && state.alive(s))
            .map(|s| state.player(s).virtues.total())
            .sum();
        if others > 0 {
            for (t, &copies) in self.virtues.copies.iter().enumerate() {
                let extra = u32::from(copies).min(others) as u8;
                let have = reach.get(t as u8);
                reach.add(t as u8, extra.min(255 - have));
            }
        }
        reach
    }

    /// Calls `found` with each legal presentation for `program` by `seat` with its partners
    /// on the quest (the `knights`).
    pub(crate) fn presentations(
        &self,
        state: &State,
        program: &Program,
        seat: Seat,
        knights: Seats,
        mut found: impl FnMut(Counts),
    ) {
        let reach = self.reach(state, seat, knights);
        let types = self.virtues.len();
        solve::payments(program, &reach.as_slice()[..types], &[], |p| {
            found(counts_of(p.counts()));
            true
        });
    }

    pub(crate) fn can_present(&self, state: &State, seat: Seat) -> bool {
        let Some(i) = state.quest_of(seat) else {
            return false;
        };
        let slot = state.layout[i];
        let reach = self.reach(state, seat, slot.knights);
        let program = &self.quests[usize::from(slot.quest)].requirement;
        solve::exists(program, &reach.as_slice()[..self.virtues.len()], &[])
    }

    /// Presentations for `seat`'s own quest.
    fn own_presentations(&self, state: &State, seat: Seat, out: &mut Vec<Action>) {
        if let Some(i) = state.quest_of(seat) {
            let slot = state.layout[i];
            let program = &self.quests[usize::from(slot.quest)].requirement;
            self.presentations(state, program, seat, slot.knights, |c| {
                out.push(Action::Present(c))
            });
        }
    }

    /// Carries out a legal action, then moves on to the next decision.
    pub(crate) fn play(
        &self,
        state: &mut State,
        action: &Action,
        events: &mut impl EventSink<Event>,
    ) {
        if state.over() {
            return;
        }
        if let Some(seat) = self.discarder(state) {
            if let Action::Discard(card) = *action {
                self.discard_virtue(state, seat, card, false, events);
                state.discards[usize::from(seat)] -= 1;
            }
        } else if state.res.is_some() {
            self.res_play(state, action, events);
        } else {
            self.stage_play(state, action, events);
        }
        self.advance(state, events);
    }

    fn stage_play(&self, state: &mut State, action: &Action, events: &mut impl EventSink<Event>) {
        let me = state.current;
        match (&mut state.stage, *action) {
            (Stage::Start { .. }, Action::Present(cards)) => {
                state.stage = Stage::Start { tried: true };
                self.present_quest(state, me, cards, events);
            }
            (Stage::Start { .. }, Action::GiveUp) => {
                self.give_up(state, me, events);
                state.stage = Stage::Act;
            }
            (Stage::Start { .. }, Action::Stay) => {
                events.emit(|| Event::Stayed { seat: me });
                self.end_turn(state, events);
            }
            (Stage::Act, _) => self.act(state, action, events),
            (
                Stage::Prizes {
                    contest,
                    asked,
                    now,
                },
                _,
            ) => {
                let seat = *now;
                let (card, drawn) = match *action {
                    Action::Prize(card) => (Some(card), false),
                    // Drawn, it is his (as a tax's treasure is) and goes face up on the table.
                    Action::DrawPrize => {
                        let card = state.treasure_deck.draw();
                        if let Some(t) = card {
                            state.players[usize::from(seat)].treasures.add(t, 1);
                        }
                        (card, true)
                    }
                    _ => (None, false),
                };
                if let Some(card) = card {
                    contest.prizes[usize::from(seat)] = Some(card);
                    events.emit(|| Event::PrizePut { seat, card, drawn });
                }
                *asked |= bit(seat);
            }
            (Stage::Contest(_), Action::Show(mv)) => {
                let Stage::Contest(c) = &state.stage else {
                    return;
                };
                let seat = c.showdown.to_move().unwrap_or(me);
                let avail = self.contest_hands(state, c.showdown.seats, None);
                if let Stage::Contest(c) = &mut state.stage {
                    c.showdown.apply(&mv, &avail);
                }
                events.emit(|| Event::Shown { seat, mv });
            }
            (Stage::Feast(x), Action::Trade(mv)) => {
                let seat = x.to_move().unwrap_or(me);
                x.apply(&mv);
                let offer = match mv {
                    grail_engine::exchange::ExchangeMove::Offer { .. } => {
                        x.offers().last().map_or(0, |o| o.id)
                    }
                    _ => 0,
                };
                events.emit(|| Event::Traded { seat, mv, offer });
            }
            (Stage::Window { asked, now }, _) => {
                let seat = *now;
                *asked |= bit(seat);
                match *action {
                    Action::Present(cards) => self.present_quest(state, seat, cards, events),
                    _ => events.emit(|| Event::Waited { seat }),
                }
            }
            (Stage::Bestow, _) => {
                let (to, dishonor) = match *action {
                    Action::Honor(s) => (s, false),
                    Action::Dishonor(s) => (s, true),
                    _ => {
                        state.stage = Stage::Draw;
                        return;
                    }
                };
                let n = self.n.at(state).bestow_cards;
                let (h, d) = if dishonor { (0, n) } else { (n, 0) };
                self.gain(state, to, h, d, events);
                events.emit(|| Event::Bestowed {
                    seat: me,
                    to,
                    dishonor,
                });
                state.log.push(Note {
                    kind: NoteKind::Bestowed,
                    card: u8::from(dishonor),
                    turn: state.turn,
                    seat: me,
                });
                state.stage = Stage::Draw;
            }
            (Stage::Expire { .. }, Action::Expire(i)) => {
                let slot = state.layout.remove(usize::from(i));
                state.quests_done.add(slot.quest, 1);
                events.emit(|| Event::QuestExpired {
                    seat: me,
                    quest: slot.quest,
                });
                self.note(state, NoteKind::QuestExpired, slot.quest, me);
                let penalty = &self.quests[usize::from(slot.quest)].penalty;
                let ctx = super::quest::Ctx {
                    expiring: Some(me),
                    ..Default::default()
                };
                self.apply_effects(state, penalty, &ctx, events);
                state.stage = Stage::TurnOver;
            }
            _ => {}
        }
    }

    fn act(&self, state: &mut State, action: &Action, events: &mut impl EventSink<Event>) {
        let me = state.current;
        let card = match *action {
            Action::Embark(_) => 0,
            Action::Pray { .. } => 1,
            Action::Feast => 2,
            Action::Tax(_) => 3,
            Action::Joust(_) => 4,
            _ => 5,
        };
        self.note(state, NoteKind::Action, card, me);
        match *action {
            Action::Embark(i) => {
                let slot = &mut state.layout[usize::from(i)];
                let first = slot.knights == 0;
                slot.knights |= bit(me);
                let quest = slot.quest;
                // F: "If the quest currently has no other knights on it, you do NOT draw a
                // new quest."
                state.no_quest_draw = first;
                events.emit(|| Event::Embarked {
                    seat: me,
                    quest,
                    first,
                });
                self.open_window(state);
            }
            Action::Pray { knight, aid } => {
                let mut count = self.n.pray_draw;
                if let Some(card) = aid {
                    self.discard_virtue(state, me, card, false, events);
                    count += self.n.at(state).pray_aid_draw;
                }
                let to = knight.unwrap_or(me);
                let drawn = self.draw_virtues(state, to, count, events);
                events.emit(|| Event::Prayed {
                    seat: me,
                    knight,
                    aid,
                    drawn,
                });
                self.open_window(state);
            }
            Action::Feast => {
                let order: Vec<Seat> = state
                    .round_from(me)
                    .filter(|&s| state.at_court(s))
                    .collect();
                events.emit(|| Event::FeastCalled { seat: me });
                state.stage = Stage::Feast(Exchange::new(&order, self.n.at(state).feast_offers));
            }
            Action::Tax(card) => {
                state.player_mut(me).virtues.remove(card, 1);
                state.virtue_discard.push(card);
                let mut drawn = 0;
                for _ in 0..self.n.tax_draw {
                    if let Some(t) = state.treasure_deck.draw() {
                        state.player_mut(me).treasures.add(t, 1);
                        drawn += 1;
                    }
                }
                events.emit(|| Event::Taxed {
                    seat: me,
                    card,
                    drawn,
                });
                self.open_window(state);
            }
            Action::Joust(other) | Action::Duel(other) => {
                let duel = matches!(action, Action::Duel(_));
                if !duel {
                    self.note(state, NoteKind::Joust, 0, me);
                }
                events.emit(|| Event::Challenged {
                    seat: me,
                    other,
                    duel,
                });
                let mask = if duel {
                    self.duel_mask
                } else {
                    self.joust_mask
                };
                let contest = Contest {
                    duel,
                    showdown: Showdown::new(me, other, mask),
                    prizes: [None; MAX_PLAYERS],
                };
                state.stage = if duel || self.n.at(state).joust_prizes == 0 {
                    Stage::Contest(contest)
                } else {
                    Stage::Prizes {
                        contest,
                        asked: 0,
                        now: me,
                    }
                };
            }
            _ => {}
        }
    }

    pub(crate) fn note(&self, state: &mut State, kind: NoteKind, card: Card, seat: Seat) {
        let turn = state.turn;
        state.log.push(Note {
            kind,
            card,
            turn,
            seat,
        });
    }

    /// After an action: the presentation window, in turn order from the player.
    fn open_window(&self, state: &mut State) {
        state.stage = Stage::Window {
            asked: 0,
            now: state.current,
        };
    }

    /// After the window: the king bestows, then the quest draw.
    fn close_window(&self, state: &mut State) {
        let me = state.current;
        state.stage =
            if self.n.at(state).bestow_cards > 0 && state.alive(me) && self.king(state) == Some(me)
            {
                Stage::Bestow
            } else {
                Stage::Draw
            };
    }

    /// F: "After taking any action, or if the player is dead, the player then draws and
    /// places a quest card. If there are more quest cards in play than players, that player
    /// must now select a quest to expire (other than the one just put down)".
    fn place_quest(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        if state.no_quest_draw {
            return self.end_turn(state, events);
        }
        let Some(quest) = state.quest_deck.draw() else {
            events.emit(|| Event::QuestDeckEmpty);
            return self.finish(state, End::Endures, events);
        };
        state.layout.push(Slot { quest, knights: 0 });
        events.emit(|| Event::QuestPlaced { quest });
        if state.layout.len() > state.count() {
            state.stage = Stage::Expire {
                placed: (state.layout.len() - 1) as u8,
            };
        } else {
            self.end_turn(state, events);
        }
    }

    fn end_turn(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        let seat = state.current;
        events.emit(|| Event::TurnEnded { seat });
        state.turn += 1;
        if state.turn >= self.n.turn_limit {
            return self.finish(state, End::TurnLimit, events);
        }
        state.current = (seat + 1) % state.count() as Seat;
        self.begin_turn(state);
    }

    fn begin_turn(&self, state: &mut State) {
        state.no_quest_draw = false;
        let me = state.current;
        if !state.alive(me) {
            // A dead knight takes no action but still draws and places a quest.
            state.stage = Stage::Draw;
        } else if state.on_quest(me) {
            state.stage = Stage::Start { tried: false };
        } else {
            state.stage = Stage::Act;
        }
    }

    pub(crate) fn finish(&self, state: &mut State, end: End, events: &mut impl EventSink<Event>) {
        if state.end.is_none() {
            state.end = Some(end);
            state.stage = Stage::Over;
            events.emit(|| Event::GameOver { end });
        }
    }

    /// Honor and dishonor among the knights, the king's own not counted.
    pub(crate) fn balance(&self, state: &State) -> (i64, i64) {
        let king = self.king(state);
        let (mut honor, mut dishonor) = (0i64, 0i64);
        for (s, p) in state.players.iter().enumerate() {
            if Some(s as Seat) != king {
                honor += i64::from(p.honor);
                dishonor += i64::from(p.dishonor);
            }
        }
        (honor, dishonor)
    }

    /// The number the honor balance must exceed to end the game.
    pub(crate) fn threshold(&self, state: &State) -> i64 {
        state.count() as i64 + self.n.ending_margin
    }

    /// The first two endings, checked whenever the state settles.
    fn check_kingdom(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        let (honor, dishonor) = self.balance(state);
        let limit = self.threshold(state);
        if dishonor - honor > limit {
            self.finish(state, End::Falls, events);
        } else if honor - dishonor > limit {
            self.finish(state, End::Saved, events);
        }
    }

    /// Moves on until someone has a decision to make or the game is over.
    pub(crate) fn advance(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        loop {
            if state.over() {
                return;
            }
            self.check_kingdom(state, events);
            if state.over() {
                return;
            }
            for s in 0..state.count() {
                if !state.players[s].alive || state.players[s].virtues.is_empty() {
                    state.discards[s] = 0;
                }
            }
            if self.discarder(state).is_some() {
                return;
            }
            if state.res.is_some() {
                if self.res_settle(state, events) {
                    continue;
                }
                return;
            }
            let me = state.current;
            match &mut state.stage {
                Stage::Start { .. } => {
                    if !state.players[usize::from(me)].alive {
                        state.stage = Stage::Draw;
                        continue;
                    }
                    if !state.on_quest(me) {
                        state.stage = Stage::Act;
                        continue;
                    }
                    return;
                }
                Stage::Act => {
                    if !state.alive(me) {
                        state.stage = Stage::Draw;
                        continue;
                    }
                    if !self.can_act(state) {
                        self.open_window(state);
                        continue;
                    }
                    return;
                }
                Stage::Prizes { contest, asked, .. } => {
                    let first = contest.showdown.seats[0];
                    let (asked, prizes) = (*asked, self.n.at(state).joust_prizes > 0);
                    let next = state.round_from(first).find(|&s| {
                        !has(asked, s) && state.at_court(s) && prizes && self.has_prize(state, s)
                    });
                    match next {
                        Some(seat) => {
                            if let Stage::Prizes { now, .. } = &mut state.stage {
                                *now = seat;
                            }
                            return;
                        }
                        None => {
                            let Stage::Prizes { contest, .. } =
                                std::mem::replace(&mut state.stage, Stage::Act)
                            else {
                                return;
                            };
                            state.stage = Stage::Contest(contest);
                        }
                    }
                }
                Stage::Contest(_) => {
                    let Stage::Contest(c) = &state.stage else {
                        return;
                    };
                    let avail = self.contest_hands(state, c.showdown.seats, None);
                    if let Stage::Contest(c) = &mut state.stage {
                        c.showdown.settle_telling(&avail, |seat| {
                            events.emit(|| Event::AutoSkipped { seat })
                        });
                    }
                    let Stage::Contest(c) = &state.stage else {
                        return;
                    };
                    if c.showdown.end().is_none() {
                        return;
                    }
                    let Stage::Contest(contest) = std::mem::replace(&mut state.stage, Stage::Act)
                    else {
                        return;
                    };
                    self.end_contest(state, &contest, events);
                    self.open_window(state);
                }
                Stage::Feast(x) => {
                    if !x.finished() {
                        return;
                    }
                    let Stage::Feast(x) = std::mem::replace(&mut state.stage, Stage::Act) else {
                        return;
                    };
                    self.settle_feast(state, &x, events);
                    self.open_window(state);
                }
                Stage::Window { asked, .. } => {
                    let asked = *asked;
                    let next = state
                        .round_from(me)
                        .find(|&s| !has(asked, s) && state.alive(s) && self.can_present(state, s));
                    match next {
                        Some(seat) => {
                            if let Stage::Window { now, .. } = &mut state.stage {
                                *now = seat;
                            }
                            return;
                        }
                        None => self.close_window(state),
                    }
                }
                Stage::TurnOver => self.end_turn(state, events),
                Stage::Draw => self.place_quest(state, events),
                Stage::Bestow | Stage::Expire { .. } | Stage::Over => return,
            }
        }
    }

    /// Draws virtue cards for `seat`, reshuffling the discards when the deck runs out.
    pub(crate) fn draw_virtues(
        &self,
        state: &mut State,
        seat: Seat,
        count: u8,
        events: &mut impl EventSink<Event>,
    ) -> u8 {
        let mut drawn = 0;
        for _ in 0..count {
            if state.virtue_deck.is_empty() && !state.virtue_discard.is_empty() {
                let State {
                    rng,
                    virtue_deck,
                    virtue_discard,
                    ..
                } = state;
                virtue_deck.refill_from(virtue_discard, rng);
                let cards = state.virtue_deck.len() as u16;
                events.emit(|| Event::Reshuffled {
                    virtues: true,
                    cards,
                });
            }
            match state.virtue_deck.draw() {
                Some(card) => {
                    state.player_mut(seat).virtues.add(card, 1);
                    drawn += 1;
                }
                None => break,
            }
        }
        drawn
    }

    pub(crate) fn draw_treasures(&self, state: &mut State, seat: Seat, count: u8) -> u8 {
        let mut drawn = 0;
        for _ in 0..count {
            match state.treasure_deck.draw() {
                Some(t) => {
                    state.player_mut(seat).treasures.add(t, 1);
                    drawn += 1;
                }
                None => break,
            }
        }
        drawn
    }

    pub(crate) fn discard_virtue(
        &self,
        state: &mut State,
        seat: Seat,
        card: Card,
        random: bool,
        events: &mut impl EventSink<Event>,
    ) {
        state.player_mut(seat).virtues.remove(card, 1);
        state.virtue_discard.push(card);
        events.emit(|| Event::Discarded { seat, card, random });
    }

    /// Takes up to `honor` Honor and `dishonor` Dishonor cards from the supply for `seat`.
    pub(crate) fn gain(
        &self,
        state: &mut State,
        seat: Seat,
        honor: u8,
        dishonor: u8,
        events: &mut impl EventSink<Event>,
    ) {
        let h = honor.min(state.honor_supply);
        let d = dishonor.min(state.dishonor_supply);
        state.honor_supply -= h;
        state.dishonor_supply -= d;
        let p = state.player_mut(seat);
        p.honor += h;
        p.dishonor += d;
        if h + d > 0 {
            events.emit(|| Event::Gained {
                seat,
                honor: h,
                dishonor: d,
            });
        }
        for (dishonor, missing) in [(false, honor - h), (true, dishonor - d)] {
            if missing > 0 {
                events.emit(|| Event::PileEmpty {
                    seat,
                    dishonor,
                    missing,
                });
            }
        }
    }

    /// Why `action` is not legal now.
    pub(crate) fn explain(&self, state: &State, action: &Action) -> String {
        if state.over() {
            return "the game is over".into();
        }
        if let Some(seat) = self.discarder(state) {
            return match action {
                Action::Discard(_) => "you hold no such virtue card".into(),
                _ => format!(
                    "P{} must first discard {} (`discard <virtue>`)",
                    seat + 1,
                    Count(state.discards[usize::from(seat)].into(), "virtue card")
                ),
            };
        }
        if let Some(res) = &state.res {
            return self.res_explain(state, res, action);
        }
        let me = state.current;
        match (&state.stage, action) {
            (Stage::Start { tried }, Action::Present(cards)) => {
                if *tried {
                    "you presented once this turn already: stay or give up".into()
                } else {
                    self.explain_present(state, me, cards)
                }
            }
            (Stage::Start { .. }, _) => {
                "you are on a quest: present its virtues, `give up`, or `stay`".into()
            }
            (Stage::Act, _) => self.explain_action(state, action),
            (Stage::Prizes { .. }, Action::Prize(_)) if self.n.joust_prize_from_deck => {
                "prizes are drawn from the treasure deck here: `prize` or `pass`".into()
            }
            (Stage::Prizes { .. }, Action::DrawPrize) if !self.n.joust_prize_from_deck => {
                "name the treasure you put up from your hand (`prize <treasure>`) or `pass`".into()
            }
            (Stage::Prizes { now, .. }, Action::Prize(_)) => {
                if state.player(*now).treasures.is_empty() {
                    "you hold no treasure".into()
                } else {
                    "you hold no such treasure".into()
                }
            }
            (Stage::Prizes { .. }, _) if self.n.joust_prize_from_deck => {
                "a joust was called: draw a treasure as a prize (`prize`) or `pass`".into()
            }
            (Stage::Prizes { .. }, _) => {
                "a joust was called: put up a treasure as a prize (`prize <treasure>`) or `pass`"
                    .into()
            }
            (Stage::Contest(c), Action::Show(mv)) => {
                let avail = self.contest_hands(state, c.showdown.seats, None);
                c.showdown
                    .why_not(mv, &avail)
                    .unwrap_or_else(|| "not now".into())
            }
            (Stage::Contest(_), _) => {
                "a match is under way: `open <virtue>`, `skip`, `answer <virtue>` or `refuse`"
                    .into()
            }
            (Stage::Feast(x), Action::Trade(mv)) => x
                .why_not(mv, |s, item| self.held(state, s, item))
                .unwrap_or_else(|| "that offer names no card that can change hands".into()),
            (Stage::Feast(_), _) => {
                "a feast is under way: `offer`, `ask`, `accept`, `refuse`, `cancel` or `done`"
                    .into()
            }
            (Stage::Window { now, .. }, Action::Present(cards)) => {
                self.explain_present(state, *now, cards)
            }
            (Stage::Window { .. }, _) => {
                "you may present your quest's virtues now, or `wait`".into()
            }
            (Stage::Bestow, Action::Honor(s) | Action::Dishonor(s)) => {
                if *s == me {
                    "the king bestows on his knights, not on himself".into()
                } else if usize::from(*s) >= state.count() || !state.alive(*s) {
                    "that knight is not alive".into()
                } else {
                    "that pile of the honor deck is empty".into()
                }
            }
            (Stage::Bestow, _) => {
                "the king may bestow: `honor P2`, `dishonor P2`, or `pass`".into()
            }
            (Stage::Expire { placed }, Action::Expire(i)) => {
                if i == placed {
                    "not the quest just put down".into()
                } else {
                    "there is no such quest in play".into()
                }
            }
            (Stage::Expire { .. }, _) => {
                "more quests are in play than players: choose one to expire (`expire <quest>`)"
                    .into()
            }
            _ => "not now".into(),
        }
    }

    fn explain_action(&self, state: &State, action: &Action) -> String {
        let me = state.current;
        match *action {
            Action::Embark(i) => match state.layout.get(usize::from(i)) {
                None => "there is no such quest in play".into(),
                Some(slot) => format!(
                    "{} takes at most {}",
                    self.quest_cards.names[usize::from(slot.quest)],
                    Count(
                        self.quests[usize::from(slot.quest)].max_knights.into(),
                        "knight"
                    )
                ),
            },
            Action::Pray { knight, aid } => {
                if let Some(k) = knight
                    && (k == me || !state.alive(k) || !state.on_quest(k))
                {
                    "you may pray for yourself or for another knight on a quest".into()
                } else if let Some(card) = aid
                    && (self.aid_mask & (1 << card) == 0 || self.n.at(state).pray_aid_draw == 0)
                {
                    "that card does not aid a prayer".into()
                } else if aid.is_some() {
                    "you hold no such card".into()
                } else {
                    "there are no virtue cards left to draw".into()
                }
            }
            Action::Feast => "a feast needs another knight who is not on a quest".into(),
            Action::Tax(_) => {
                if state.treasure_deck.is_empty() {
                    "the treasure deck is empty".into()
                } else {
                    "you hold no such virtue card".into()
                }
            }
            Action::Joust(s) | Action::Duel(s) => {
                if s == me {
                    "you cannot challenge yourself".into()
                } else if usize::from(s) >= state.count() || !state.alive(s) {
                    "that knight is not alive".into()
                } else {
                    "that knight is out questing".into()
                }
            }
            _ => "choose an action: embark, pray, feast, tax, joust or duel".into(),
        }
    }

    pub(crate) fn explain_present(&self, state: &State, seat: Seat, cards: &Counts) -> String {
        let Some(i) = state.quest_of(seat) else {
            return "you are not on a quest".into();
        };
        let slot = state.layout[i];
        let quest = &self.quests[usize::from(slot.quest)];
        self.explain_bill(
            state,
            seat,
            slot.knights,
            &quest.requirement,
            &quest.source,
            cards,
        )
    }

    pub(crate) fn explain_bill(
        &self,
        state: &State,
        seat: Seat,
        knights: Seats,
        program: &Program,
        source: &str,
        cards: &Counts,
    ) -> String {
        let reach = self.reach(state, seat, knights);
        let types = self.virtues.len();
        if !reach.contains_all(cards) {
            return "you and the knights with you cannot hold those cards".into();
        }
        if !program.test(&cards.as_slice()[..types], &[]) {
            return format!("those cards do not meet `{source}`");
        }
        "a card in that presentation is superfluous: leave it out".into()
    }

    /// How many of a tradable item `seat` holds.
    pub(crate) fn held(&self, state: &State, seat: u8, item: Item) -> u8 {
        let p = state.player(seat);
        match item.set {
            VIRTUE_SET => p.virtues.get(item.card),
            TREASURE_SET => p.treasures.get(item.card),
            _ => 0,
        }
    }
}

pub(crate) fn counts_of(slice: &[u8]) -> Counts {
    let mut c = Counts::new();
    for (t, &n) in slice.iter().enumerate() {
        if n > 0 {
            c.add(t as u8, n);
        }
    }
    c
}
