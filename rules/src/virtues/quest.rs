//! Quests: presenting their virtues (knights on one quest combine cards), the trials drawn
//! at once, success and the split of the reward (by agreement, else by joust), failure and
//! death, giving up; and the effects that rewards, penalties and trials carry.

use grail_engine::counts::Counts;
use grail_engine::game::EventSink;
use grail_engine::joint::JointPayment;
use grail_engine::proposal::{Proposal, Verdict};
use grail_engine::showdown::{Loss, Showdown, ShowdownEnd};

use super::Virtues;
use super::effects::{Effect, Kind, Target};
use super::state::{
    Action, Card, End, Event, MAX_PLAYERS, NoteKind, Resolution, Seat, Seats, State, Step, bit, has,
};

/// Whom an effect list hits.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ctx {
    /// Every effect hits these seats instead of its target (a failed quest: each knight
    /// involved; the last to give up: him).
    pub(crate) retarget: Option<Seats>,
    pub(crate) knights: Seats,
    pub(crate) expiring: Option<Seat>,
    pub(crate) giver: Option<Seat>,
    pub(crate) receiver: Option<Seat>,
}

/// What an effect list did to the quest.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Fate {
    pub(crate) failed: bool,
    pub(crate) died: bool,
}

impl Virtues {
    /// `seat` presents `cards` for its quest; partners are asked for what it lacks.
    pub(crate) fn present_quest(
        &self,
        state: &mut State,
        seat: Seat,
        cards: Counts,
        events: &mut impl EventSink<Event>,
    ) {
        let Some(i) = state.quest_of(seat) else {
            return;
        };
        let slot = state.layout[i];
        let partners = self.partners(state, seat, slot.knights);
        let joint = JointPayment::new(seat, &partners, cards, |s| state.player(s).virtues);
        let knights = slot.knights & living(state);
        events.emit(|| Event::Presented {
            seat,
            quest: slot.quest,
            cards,
            trial: None,
        });
        state.res = Some(Resolution {
            slot: i as u8,
            quest: slot.quest,
            knights,
            presenter: seat,
            spent: [Counts::EMPTY; MAX_PLAYERS],
            trials_left: 0,
            pool: Counts::EMPTY,
            pool_honor: 0,
            step: Step::Paying { trial: None, joint },
        });
    }

    /// F: "There is no penalty for giving up on a quest if another player is still on the
    /// quest, but the last player to give up on a quest suffers all the effects of the
    /// ignore penalty personally." The quest then leaves play (ref: it has been ignored).
    pub(crate) fn give_up(
        &self,
        state: &mut State,
        seat: Seat,
        events: &mut impl EventSink<Event>,
    ) {
        let Some(i) = state.quest_of(seat) else {
            return;
        };
        state.layout[i].knights &= !bit(seat);
        let quest = state.layout[i].quest;
        let last = state.layout[i].knights & living(state) == 0;
        events.emit(|| Event::GaveUp { seat, quest, last });
        self.note(state, NoteKind::QuestAbandoned, quest, seat);
        if last {
            state.layout.remove(i);
            state.quests_done.add(quest, 1);
            let ctx = Ctx {
                retarget: Some(bit(seat)),
                ..Ctx::default()
            };
            self.apply_effects(
                state,
                &self.quests[usize::from(quest)].penalty,
                &ctx,
                events,
            );
        }
    }

    pub(crate) fn res_decider(&self, res: &Resolution) -> Option<Seat> {
        match &res.step {
            Step::Drawing => None,
            Step::Paying { joint, .. } => joint.to_move(),
            Step::Trial { .. } => Some(res.presenter),
            Step::Split(p) => p.to_move(),
            Step::Dispute { showdown, .. } => showdown.to_move(),
        }
    }

    pub(crate) fn res_options(&self, state: &State, res: &Resolution, out: &mut Vec<Action>) {
        match &res.step {
            Step::Drawing => {}
            Step::Paying { joint, .. } => {
                joint.legal(|m| out.push(Action::Joint(m)));
            }
            Step::Trial { trial } => {
                if let Some(program) = &self.trials[usize::from(*trial)].requirement {
                    self.presentations(state, program, res.presenter, res.knights, |c| {
                        out.push(Action::Present(c))
                    });
                }
                out.push(Action::Decline);
            }
            Step::Split(p) => {
                p.legal(|m| out.push(Action::Split(m)));
            }
            Step::Dispute { showdown, .. } => {
                self.show_options(state, showdown, Some(&res.spent), out)
            }
        }
    }

    pub(crate) fn res_explain(&self, state: &State, res: &Resolution, action: &Action) -> String {
        match (&res.step, action) {
            (Step::Drawing, _) => "the trials are being drawn".into(),
            (Step::Paying { .. }, _) => {
                "your fellow knight asks you to add cards: `contribute` or `withhold`".into()
            }
            (Step::Trial { trial }, Action::Present(cards)) => {
                let t = &self.trials[usize::from(*trial)];
                match &t.requirement {
                    Some(program) => self.explain_bill(
                        state,
                        res.presenter,
                        res.knights,
                        program,
                        &t.source,
                        cards,
                    ),
                    None => "this trial asks for nothing".into(),
                }
            }
            (Step::Trial { .. }, _) => {
                "a trial: present its virtues (`present <virtue> …`) or `decline`".into()
            }
            (Step::Split(p), Action::Split(mv)) => {
                p.why_not(mv).unwrap_or_else(|| "not now".into())
            }
            (Step::Split(p), _) => match p.next_item() {
                Some(_) => "share out the reward: `allot P2` for the next item, or `dispute`".into(),
                None => "a split was proposed: `agree` or `disagree`".into(),
            },
            (Step::Dispute { showdown, .. }, Action::Show(mv)) => {
                let avail = self.contest_hands(state, showdown.seats, Some(&res.spent));
                showdown
                    .why_not(mv, &avail)
                    .unwrap_or_else(|| "not now".into())
            }
            (Step::Dispute { .. }, _) => {
                "the split is settled by joust: `open <virtue>`, `skip`, `answer <virtue>` or `refuse`"
                    .into()
            }
        }
    }

    pub(crate) fn res_play(
        &self,
        state: &mut State,
        action: &Action,
        events: &mut impl EventSink<Event>,
    ) {
        let Some(mut res) = state.res.take() else {
            return;
        };
        match (&mut res.step, *action) {
            (Step::Paying { joint, .. }, Action::Joint(mv)) => {
                let seat = joint.to_move().unwrap_or(res.presenter);
                joint.apply(&mv, |s| state.player(s).virtues);
                match mv {
                    grail_engine::joint::JointMove::Contribute => {
                        let cards = joint.parts().last().map(|p| p.1).unwrap_or_default();
                        events.emit(|| Event::Contributed { seat, cards });
                    }
                    grail_engine::joint::JointMove::Withhold => {
                        events.emit(|| Event::Withheld { seat })
                    }
                }
            }
            (Step::Trial { trial }, Action::Present(cards)) => {
                let trial = *trial;
                let partners = self.partners(state, res.presenter, res.knights);
                let joint =
                    JointPayment::new(res.presenter, &partners, cards, |s| state.player(s).virtues);
                let seat = res.presenter;
                events.emit(|| Event::Presented {
                    seat,
                    quest: res.quest,
                    cards,
                    trial: Some(trial),
                });
                res.step = Step::Paying {
                    trial: Some(trial),
                    joint,
                };
            }
            (Step::Trial { trial }, Action::Decline) => {
                let trial = *trial;
                let seat = res.presenter;
                events.emit(|| Event::TrialDeclined { seat, trial });
                state.res = Some(res);
                if !self.trial_unmet(state, trial, events)
                    && let Some(res) = &mut state.res
                {
                    res.step = Step::Drawing;
                }
                return;
            }
            (Step::Split(p), Action::Split(mv)) => {
                let seat = p.to_move().unwrap_or(res.presenter);
                p.apply(&mv);
                events.emit(|| Event::SplitProposed { seat, mv });
            }
            (Step::Dispute { showdown, .. }, Action::Show(mv)) => {
                let seat = showdown.to_move().unwrap_or(res.presenter);
                let avail = self.contest_hands(state, showdown.seats, Some(&res.spent));
                showdown.apply(&mv, &avail);
                events.emit(|| Event::Shown { seat, mv });
            }
            _ => {}
        }
        state.res = Some(res);
    }

    /// Moves the resolution on by itself; `false` when someone must decide.
    pub(crate) fn res_settle(&self, state: &mut State, events: &mut impl EventSink<Event>) -> bool {
        let Some(res) = &state.res else {
            return false;
        };
        let quest = res.quest;
        match res.step.clone() {
            Step::Drawing => {
                self.run_trials(state, events);
                true
            }
            Step::Paying { trial, joint } => match joint.result() {
                None => false,
                Some(true) => {
                    self.spend(state, &joint);
                    if let Some(t) = trial {
                        state.trial_discard.push(t);
                    } else if let Some(res) = &mut state.res {
                        res.trials_left = self.quests[usize::from(quest)].trials;
                    }
                    if let Some(res) = &mut state.res {
                        res.step = Step::Drawing;
                    }
                    true
                }
                Some(false) => {
                    match trial {
                        Some(t) => {
                            if !self.trial_unmet(state, t, events)
                                && let Some(res) = &mut state.res
                            {
                                res.step = Step::Drawing;
                            }
                        }
                        None => {
                            events.emit(|| Event::PresentationFailed { quest });
                            state.res = None;
                        }
                    }
                    true
                }
            },
            Step::Trial { .. } => false,
            Step::Split(p) => match p.verdict() {
                None => false,
                Some(Verdict::Adopted) => {
                    self.hand_out(state, p.owners(), events);
                    self.complete(state, events);
                    true
                }
                Some(Verdict::Rejected) => {
                    self.start_dispute(state, p.members());
                    true
                }
            },
            Step::Dispute { mut showdown, .. } => {
                let avail = self.contest_hands(state, showdown.seats, Some(&res.spent));
                showdown.settle_telling(&avail, |seat| events.emit(|| Event::AutoSkipped { seat }));
                let ended = showdown.end();
                if let Some(Step::Dispute { showdown: s, .. }) =
                    state.res.as_mut().map(|r| &mut r.step)
                {
                    *s = showdown;
                }
                match ended {
                    None => false,
                    Some(end) => {
                        self.next_dispute(state, end, events);
                        true
                    }
                }
            }
        }
    }

    /// Takes each knight's part of a met bill from his hand into the quest's spent cards.
    fn spend(&self, state: &mut State, joint: &JointPayment) {
        for &(seat, part) in joint.parts() {
            for (t, n) in part.iter() {
                state.player_mut(seat).virtues.remove(t, n);
            }
            if let Some(res) = &mut state.res {
                res.spent[usize::from(seat)].add_all(&part);
            }
        }
    }

    /// Draws and resolves trials until one needs a decision, the quest fails, or all are
    /// passed (then the quest is completed).
    fn run_trials(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        loop {
            let Some(res) = &state.res else { return };
            if res.trials_left == 0 {
                return self.succeed(state, events);
            }
            let (knights, presenter) = (res.knights, res.presenter);
            if let Some(res) = &mut state.res {
                res.trials_left -= 1;
            }
            let Some(trial) = self.draw_trial(state, events) else {
                continue;
            };
            events.emit(|| Event::TrialDrawn { trial });
            let card = &self.trials[usize::from(trial)];
            let ctx = Ctx {
                knights: knights & living(state),
                ..Ctx::default()
            };
            let fate = self.apply_effects(state, &card.drawn, &ctx, events);
            if fate.failed || fate.died || state.over() {
                state.trial_discard.push(trial);
                return self.fail(state, events);
            }
            let Some(program) = &card.requirement else {
                state.trial_discard.push(trial);
                continue;
            };
            let mut possible = false;
            if state.alive(presenter) {
                self.presentations(state, program, presenter, knights, |_| possible = true);
            }
            if possible {
                if let Some(res) = &mut state.res {
                    res.step = Step::Trial { trial };
                }
                return;
            }
            events.emit(|| Event::TrialImpossible {
                seat: presenter,
                trial,
            });
            if self.trial_unmet(state, trial, events) {
                return;
            }
        }
    }

    fn draw_trial(&self, state: &mut State, events: &mut impl EventSink<Event>) -> Option<Card> {
        if state.trial_deck.is_empty() && !state.trial_discard.is_empty() {
            let State {
                rng,
                trial_deck,
                trial_discard,
                ..
            } = state;
            trial_deck.refill_from(trial_discard, rng);
            let cards = state.trial_deck.len() as u16;
            events.emit(|| Event::Reshuffled {
                virtues: false,
                cards,
            });
        }
        state.trial_deck.draw()
    }

    /// A trial's condition was not met: its consequence. Returns whether the quest failed
    /// (it is then resolved).
    fn trial_unmet(
        &self,
        state: &mut State,
        trial: Card,
        events: &mut impl EventSink<Event>,
    ) -> bool {
        state.trial_discard.push(trial);
        let Some(res) = &state.res else { return true };
        let ctx = Ctx {
            knights: res.knights & living(state),
            ..Ctx::default()
        };
        let fate = self.apply_effects(state, &self.trials[usize::from(trial)].unmet, &ctx, events);
        if fate.failed || fate.died || state.over() {
            self.fail(state, events);
            return true;
        }
        false
    }

    /// F: "If the trials end up resulting in failure or death, the ignore penalty happens,
    /// but with all effects happening to each knight involved."
    fn fail(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        let Some(res) = state.res.take() else { return };
        events.emit(|| Event::QuestFailed {
            quest: res.quest,
            knights: res.knights,
        });
        self.note(state, NoteKind::QuestFailed, res.quest, res.presenter);
        self.leave_play(state, &res);
        let ctx = Ctx {
            retarget: Some(res.knights),
            ..Ctx::default()
        };
        if !state.over() {
            self.apply_effects(
                state,
                &self.quests[usize::from(res.quest)].penalty,
                &ctx,
                events,
            );
        }
    }

    /// Every trial passed: the reward. Shared rewards wait in the pool for the split.
    fn succeed(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        let Some(res) = &state.res else { return };
        let (quest, presenter) = (res.quest, res.presenter);
        let knights = res.knights & living(state);
        let shared = knights.count_ones() > 1;
        for effect in &self.quests[usize::from(quest)].reward {
            if shared && effect.target == Target::QuestingKnights {
                match effect.kind {
                    Kind::DrawTreasures => {
                        for _ in 0..effect.count {
                            if let Some(t) = state.treasure_deck.draw()
                                && let Some(res) = &mut state.res
                            {
                                res.pool.add(t, 1);
                            }
                        }
                        continue;
                    }
                    Kind::Honor => {
                        let h = effect.count.min(state.honor_supply);
                        state.honor_supply -= h;
                        if let Some(res) = &mut state.res {
                            res.pool_honor += h;
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            let ctx = Ctx {
                knights,
                ..Ctx::default()
            };
            self.apply_effects(state, std::slice::from_ref(effect), &ctx, events);
        }
        let Some(res) = &state.res else { return };
        let items = res.pool.total() as u8 + res.pool_honor;
        if shared && items > 0 {
            let members: Vec<Seat> = state
                .round_from(presenter)
                .filter(|&s| has(knights, s))
                .collect();
            if let Some(res) = &mut state.res {
                res.step = Step::Split(Proposal::new(&members, items));
            }
        } else {
            self.complete(state, events);
        }
    }

    /// The reward's items in the order they are allotted: treasures by type, then honor.
    pub(crate) fn pool_item(&self, res: &Resolution, i: u8) -> Option<Card> {
        res.pool.cards().nth(usize::from(i))
    }

    fn hand_out(&self, state: &mut State, owners: &[Seat], events: &mut impl EventSink<Event>) {
        let Some(res) = &state.res else { return };
        let treasures: Vec<Card> = res.pool.cards().collect();
        let mut got = [(0u8, 0u8); MAX_PLAYERS];
        for (i, &owner) in owners.iter().enumerate() {
            match treasures.get(i) {
                Some(&t) => {
                    state.player_mut(owner).treasures.add(t, 1);
                    got[usize::from(owner)].0 += 1;
                }
                None => {
                    state.player_mut(owner).honor += 1;
                    got[usize::from(owner)].1 += 1;
                }
            }
        }
        if let Some(res) = &mut state.res {
            res.pool = Counts::EMPTY;
            res.pool_honor = 0;
        }
        for (seat, &(treasures, honor)) in got.iter().enumerate() {
            if treasures + honor > 0 {
                events.emit(|| Event::RewardShared {
                    seat: seat as Seat,
                    treasures,
                    honor,
                });
            }
        }
    }

    /// Ref gap 14: "if they do not all accept, they joust pairwise in turn order; the winner
    /// takes the reward". The second knight challenges the first; the winner meets the
    /// third, and so on.
    fn start_dispute(&self, state: &mut State, members: &[Seat]) {
        let mut order = [0; MAX_PLAYERS];
        order[..members.len()].copy_from_slice(members);
        let showdown = Showdown::new(members[1], members[0], self.joust_mask);
        self.note(state, NoteKind::Joust, 1, members[1]);
        if let Some(res) = &mut state.res {
            res.step = Step::Dispute {
                order,
                len: members.len() as u8,
                next: 1,
                champion: members[0],
                showdown,
            };
        }
    }

    fn next_dispute(
        &self,
        state: &mut State,
        end: ShowdownEnd,
        events: &mut impl EventSink<Event>,
    ) {
        let Some(Step::Dispute {
            order,
            len,
            next,
            champion,
            showdown,
        }) = state.res.as_ref().map(|r| r.step.clone())
        else {
            return;
        };
        let mut champion = champion;
        match end {
            ShowdownEnd::Won { winner, how } => {
                let winner_seat = showdown.seats[usize::from(winner)];
                let loser = showdown.seats[usize::from(1 - winner)];
                let refused = how == Loss::Refused;
                events.emit(|| Event::ContestWon {
                    winner: winner_seat,
                    loser,
                    duel: false,
                    how,
                });
                if refused {
                    self.gain(state, loser, 0, 1, events);
                }
                champion = winner_seat;
            }
            // A draw leaves the claim with the knight who held it (assumed).
            ShowdownEnd::Drawn => events.emit(|| Event::ContestDrawn { duel: false }),
        }
        let next = next + 1;
        if next < len {
            let showdown = Showdown::new(order[usize::from(next)], champion, self.joust_mask);
            self.note(state, NoteKind::Joust, 1, order[usize::from(next)]);
            if let Some(res) = &mut state.res {
                res.step = Step::Dispute {
                    order,
                    len,
                    next,
                    champion,
                    showdown,
                };
            }
            return;
        }
        let items = state
            .res
            .as_ref()
            .map_or(0, |r| r.pool.total() as u8 + r.pool_honor);
        let owners = vec![champion; usize::from(items)];
        self.hand_out(state, &owners, events);
        self.complete(state, events);
    }

    /// The quest is done: it leaves play and the knights are free.
    fn complete(&self, state: &mut State, events: &mut impl EventSink<Event>) {
        let Some(res) = state.res.take() else { return };
        events.emit(|| Event::QuestCompleted {
            quest: res.quest,
            knights: res.knights,
        });
        self.note(state, NoteKind::QuestCompleted, res.quest, res.presenter);
        self.leave_play(state, &res);
    }

    /// Discards the spent virtues and removes the quest from play.
    fn leave_play(&self, state: &mut State, res: &Resolution) {
        for spent in &res.spent {
            for card in spent.cards() {
                state.virtue_discard.push(card);
            }
        }
        // Any treasure left in the pool (a game ended mid-split) goes back under the deck.
        for t in res.pool.cards() {
            state.treasure_deck.push_bottom(t);
        }
        state.honor_supply += res.pool_honor;
        let i = usize::from(res.slot);
        if i < state.layout.len() && state.layout[i].quest == res.quest {
            state.layout.remove(i);
        }
        state.quests_done.add(res.quest, 1);
    }

    /// Whom a target names.
    fn targets(&self, state: &State, target: Target, ctx: &Ctx) -> Seats {
        if let Some(seats) = ctx.retarget {
            return seats;
        }
        let one = |s: Option<Seat>| s.map_or(0, bit);
        match target {
            Target::King => one(self.king(state)),
            Target::EveryKnight => living(state),
            Target::ExpiringPlayer => one(ctx.expiring),
            Target::QuestingKnights => ctx.knights,
            Target::Giver => one(ctx.giver),
            Target::Receiver => one(ctx.receiver),
            Target::Quest => 0,
        }
    }

    /// Carries out effects in order, each on its targets in turn order.
    pub(crate) fn apply_effects(
        &self,
        state: &mut State,
        list: &[Effect],
        ctx: &Ctx,
        events: &mut impl EventSink<Event>,
    ) -> Fate {
        let mut fate = Fate::default();
        for effect in list {
            if effect.kind == Kind::QuestFails {
                fate.failed = true;
                continue;
            }
            let seats = self.targets(state, effect.target, ctx);
            for seat in state.round_from(state.current).filter(|&s| has(seats, s)) {
                if state.over() {
                    return fate;
                }
                let n = effect.count;
                match effect.kind {
                    Kind::DrawTreasures => {
                        let treasures = self.draw_treasures(state, seat, n);
                        events.emit(|| Event::Drew {
                            seat,
                            virtues: 0,
                            treasures,
                        });
                    }
                    Kind::DrawVirtues => {
                        let virtues = self.draw_virtues(state, seat, n, events);
                        events.emit(|| Event::Drew {
                            seat,
                            virtues,
                            treasures: 0,
                        });
                    }
                    Kind::Honor => self.gain(state, seat, n, 0, events),
                    Kind::Dishonor => self.gain(state, seat, 0, n, events),
                    Kind::DiscardVirtues => {
                        if state.alive(seat) {
                            let d = &mut state.discards[usize::from(seat)];
                            *d = d.saturating_add(n);
                            // An empty hand owes nothing (`advance` clears it): say so.
                            let held = state.player(seat).virtues.total();
                            let count = n.min(held.min(u32::from(u8::MAX)) as u8);
                            if count == 0 {
                                events.emit(|| Event::NothingToDiscard { seat });
                            } else {
                                events.emit(|| Event::MustDiscard { seat, count });
                            }
                        }
                    }
                    Kind::LoseVirtues => {
                        for _ in 0..n {
                            let hand = state.player(seat).virtues;
                            let total = hand.total();
                            if total == 0 {
                                break;
                            }
                            let pick = state.rng.below(total);
                            if let Some(card) = hand.cards().nth(pick as usize) {
                                self.discard_virtue(state, seat, card, true, events);
                            }
                        }
                    }
                    Kind::Death => {
                        fate.died = true;
                        self.kill(state, seat, None, events);
                    }
                    Kind::QuestFails => {}
                }
            }
        }
        fate
    }

    /// `seat` dies. In a duel all his treasure goes to his killer (`heir`); otherwise the
    /// Crown passes to the living knight with the most honor (ref gap 13).
    pub(crate) fn kill(
        &self,
        state: &mut State,
        seat: Seat,
        heir: Option<Seat>,
        events: &mut impl EventSink<Event>,
    ) {
        if !state.alive(seat) {
            return;
        }
        state.player_mut(seat).alive = false;
        state.discards[usize::from(seat)] = 0;
        for slot in &mut state.layout {
            slot.knights &= !bit(seat);
        }
        events.emit(|| Event::Died { seat });
        self.note(state, NoteKind::Death, u8::from(heir.is_some()), seat);
        if let Some(killer) = heir {
            let treasures = std::mem::take(&mut state.player_mut(seat).treasures);
            let count = treasures.total() as u8;
            state.player_mut(killer).treasures.add_all(&treasures);
            if count > 0 {
                events.emit(|| Event::TreasureTaken {
                    from: seat,
                    to: killer,
                    count,
                });
            }
            if treasures.contains(self.crown) {
                events.emit(|| Event::CrownPassed {
                    from: seat,
                    to: killer,
                });
            }
        } else if state.player(seat).treasures.contains(self.crown) {
            let heir = state
                .round_from(seat)
                .filter(|&s| state.alive(s))
                .max_by_key(|&s| {
                    // Most honor; among equals the first in turn order after the dead king.
                    let order =
                        (usize::from(s) + state.count() - usize::from(seat)) % state.count();
                    (state.player(s).honor, std::cmp::Reverse(order))
                });
            if let Some(to) = heir {
                state.player_mut(seat).treasures.remove(self.crown, 1);
                state.player_mut(to).treasures.add(self.crown, 1);
                events.emit(|| Event::CrownPassed { from: seat, to });
            }
        }
        if state.living() == 0 {
            self.finish(state, End::AllDead, events);
        }
    }
}

/// The living seats.
pub(crate) fn living(state: &State) -> Seats {
    (0..state.count() as Seat)
        .filter(|&s| state.alive(s))
        .fold(0, |m, s| m | bit(s))
}
