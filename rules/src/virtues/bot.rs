//! The greedy bot's estimate of a position, from its own observation: its points; the worth
//! of its virtue cards towards the quests in play; what is under way (an offer, a match, a
//! shared reward); the kingdom's honor, which it wants when behind (Camelot saved: everyone
//! wins) and not when ahead (Camelot falls or endures: the best score wins); and staying
//! alive. The weights are the pack's `bot_*` params (docs/rules/virtues.md, "Bots").

use grail_engine::counts::Counts;
use grail_engine::exchange::{Exchange, Item};
use grail_engine::proposal::Verdict;
use grail_engine::showdown::{Showdown, ShowdownEnd, forecast};

use super::Virtues;
use super::effects::{Kind, Target};
use super::state::{Card, Player, Seat, Seats, Stage, State, Step, TREASURE_SET, VIRTUE_SET, has};

/// Points a win is worth to a bot, shared among the winners.
const WIN: f64 = 100.0;
/// How much a pending offer is worth against a settled deal, by the other side's likely
/// answer (its own worth of the cards is unknown to us).
const LIKELY: f64 = 0.5;
/// What a deal agreed at a feast is worth in itself: a tie goes to the deal.
const GOODWILL: f64 = 0.02;
/// A small cost of every open offer, so that idle offers lose to `done`.
const OFFER_COST: f64 = 0.05;
/// What an onlooker's joust prize costs him beyond the treasure: it goes to one of two
/// rivals unless the match is drawn, so a tie with `pass` (a prize drawn from the deck, never
/// his before) goes against it.
const FOR_A_RIVAL: f64 = 0.02;
/// What each card still missing for its quest costs a knight stuck on it (turns lost).
const STUCK: f64 = 1.0;

impl Virtues {
    pub(crate) fn evaluate(&self, state: &State, me: Seat) -> f64 {
        if let Some(outcome) = self.final_outcome(state) {
            let score = outcome.scores[usize::from(me)] as f64;
            let won = outcome.winners.contains(&usize::from(me));
            let share = if won {
                WIN / outcome.winners.len() as f64
            } else {
                0.0
            };
            return share + score;
        }
        let w = &self.n.bot;
        let p = state.player(me);
        // Deals agreed in a feast count as done.
        let (mut virtues, mut treasures) = (p.virtues, p.treasures);
        let mut value = 0.0;
        if !p.alive {
            // The dead keep their cards for the final ranking (ref gap 13) and share a saved
            // Camelot: what death costs is the rest of the game, no longer played.
            let points = self.points(p, &treasures);
            return points as f64
                + w.win * self.win_chance(state, me, points, (&virtues, &treasures), None)
                - self.death_cost(state);
        }
        if let Stage::Feast(x) = &state.stage {
            for o in x.accepted() {
                if o.involves(me) {
                    // A knight obliges when it costs him nothing.
                    value += GOODWILL;
                }
                settle(
                    &mut virtues,
                    &mut treasures,
                    me,
                    o.from,
                    o.to,
                    o.give,
                    o.ask,
                );
            }
            value += self.feast_prospects(state, x, me, (&virtues, &treasures), &p.virtues);
        }
        if let Some(prize) = self.onlookers_prize(state, me) {
            // As good as given away: "If someone won, any prizes go to the winner".
            treasures.remove(prize, 1);
            value -= FOR_A_RIVAL;
        }
        let points = self.points(p, &treasures);
        value += points as f64;
        value += self.hand_worth(state, me, &virtues);
        value += w.win * self.win_chance(state, me, points, (&virtues, &treasures), None);
        // Loyalty: early on every knight plays for Camelot's honor for its own sake.
        let (honor, dishonor) = self.balance(state);
        value += w.loyalty * (honor - dishonor) as f64 * self.deck_left(state);
        value += w.loyalty * self.fellows_prospects(state, me) * self.deck_left(state);
        value += self.contest_prospects(state, me);
        value += self.reward_prospects(state, me);
        value
    }

    /// A knight's points with `treasures` for his own.
    fn points(&self, p: &Player, treasures: &Counts) -> i64 {
        self.treasure_points(treasures)
            + i64::from(p.honor) * self.honor.honor_points
            + i64::from(p.dishonor) * self.honor.dishonor_points
    }

    /// What dying costs now: the part of the game still to come (`bot_death_cost` at the
    /// start, nothing once the quest deck is out).
    fn death_cost(&self, state: &State) -> f64 {
        self.n.bot.death * self.deck_left(state)
    }

    /// The best score among the others, `moved` points taken from one of them (a duel's
    /// spoils; negative: given to him).
    fn best_rival(&self, state: &State, me: Seat, moved: Option<(Seat, i64)>) -> i64 {
        (0..state.count() as Seat)
            .filter(|&s| s != me)
            .map(|s| match moved {
                Some((victim, points)) if victim == s => self.score(state, s) - points,
                _ => self.score(state, s),
            })
            .max()
            .unwrap_or(0)
    }

    /// Its share of a win, estimated: Camelot saved (everyone wins) as likely as the honor
    /// balance leans that way, otherwise a win for the best score, as likely as its lead
    /// over the best rival, less sure the more of the game is left. When the balance leans
    /// to a fall, its Sin pairs count too.
    fn win_chance(
        &self,
        state: &State,
        me: Seat,
        points: i64,
        (virtues, treasures): (&Counts, &Counts),
        moved: Option<(Seat, i64)>,
    ) -> f64 {
        let (honor, dishonor) = self.balance(state);
        let reach = (self.threshold(state) + 1) as f64;
        let bal = (honor - dishonor) as f64;
        let saved = (0.5 + bal / (2.0 * reach)).clamp(0.0, 1.0);
        let fall = (-bal / reach).clamp(0.0, 1.0);
        let spread = 1.0 + self.n.bot.spread * self.deck_left(state);
        let mine = points as f64 + fall * self.sin_bonus(virtues, treasures) as f64;
        let lead = mine - self.best_rival(state, me, moved) as f64;
        let top = 1.0 / (1.0 + (-lead / spread).exp());
        WIN * (saved / state.count() as f64 + (1.0 - saved) * top)
    }

    /// The share of the quest deck still to come: 1 at the start, 0 at the end.
    fn deck_left(&self, state: &State) -> f64 {
        let total = self
            .quest_cards
            .copies
            .iter()
            .map(|&c| f64::from(c))
            .sum::<f64>();
        state.quest_deck.len() as f64 / total.max(1.0)
    }

    /// Fills in what bots estimate once: each quest's reward and penalty in points.
    pub(crate) fn with_estimates(mut self) -> Self {
        let mean_treasure = self.mean_treasure();
        for q in &mut self.quests {
            q.gain = q
                .reward
                .iter()
                .filter(|e| e.target == Target::QuestingKnights)
                .map(|e| {
                    let n = f64::from(e.count);
                    match e.kind {
                        Kind::DrawTreasures => n * mean_treasure,
                        Kind::Honor => n * self.honor.honor_points as f64,
                        Kind::DrawVirtues => n * self.n.bot.virtue,
                        _ => 0.0,
                    }
                })
                .sum();
            q.honors = q
                .reward
                .iter()
                .filter(|e| e.target == Target::QuestingKnights && e.kind == Kind::Honor)
                .map(|e| f64::from(e.count))
                .sum();
            q.loss = q
                .penalty
                .iter()
                .map(|e| {
                    let n = f64::from(e.count);
                    match e.kind {
                        Kind::Dishonor => n * -self.honor.dishonor_points as f64,
                        Kind::DiscardVirtues | Kind::LoseVirtues => n * self.n.bot.virtue,
                        Kind::Death => self.n.bot.death,
                        _ => 0.0,
                    }
                })
                .sum();
        }
        self
    }

    /// A quest's reward in points, for one knight of `sharing`.
    fn reward_worth(&self, quest: Card, sharing: u32) -> f64 {
        self.quests[usize::from(quest)].gain / f64::from(sharing.max(1))
    }

    fn mean_treasure(&self) -> f64 {
        let (mut sum, mut n) = (0i64, 0i64);
        for (t, &c) in self.treasures.copies.iter().enumerate() {
            if t as Card != self.crown {
                sum += self.treasure_points[t] * i64::from(c);
                n += i64::from(c);
            }
        }
        if n == 0 { 0.0 } else { sum as f64 / n as f64 }
    }

    /// The virtue cards' worth: each card a little, and the quests they bring within reach.
    fn hand_worth(&self, state: &State, me: Seat, hand: &Counts) -> f64 {
        let w = &self.n.bot;
        let mut value = w.virtue * f64::from(hand.total());
        match state.quest_of(me) {
            Some(i) => {
                let slot = state.layout[i];
                let sharing = slot.knights.count_ones();
                // Its own cards and (as far as it can tell) its partners'.
                let mut together = *hand;
                for s in 0..state.count() as Seat {
                    if s != me && has(slot.knights, s) && state.alive(s) {
                        together.add_all(&state.player(s).virtues);
                    }
                }
                let (lack, shape) = self.closest(slot.quest, &together);
                let worth = self.expected_worth(slot.quest, sharing, &together, shape);
                value += if lack == 0 {
                    // The cards it will present count in the quest, not on their own. Ready
                    // and asked now, it will present (`bot_ready_quest_pct`); ready and past
                    // its chance, the quest is only a prospect, so that presenting beats
                    // waiting and staying.
                    let needed = shape.map_or(0, |s| s.total()).min(hand.total());
                    let weight = if self.asked_to_present(state, me) {
                        w.ready_quest
                    } else {
                        w.prospect
                    };
                    weight * worth - w.virtue * f64::from(needed)
                } else {
                    // Stuck on a quest: turns lost until cards come.
                    w.prospect * worth / f64::from(1 + lack) - f64::from(lack) * STUCK
                };
            }
            None => {
                // The quest its hand is closest to, and (`bot_other_quests_pct`) the others in
                // reach: a card only another quest asks for still serves a quest.
                let (mut best, mut all) = (0.0f64, 0.0);
                for slot in state.layout.iter().filter(|slot| self.room_on(slot)) {
                    let sharing = slot.knights.count_ones() + 1;
                    let (lack, shape) = self.closest(slot.quest, hand);
                    let worth = self
                        .expected_worth(slot.quest, sharing, hand, shape)
                        .max(0.0)
                        / f64::from(1 + lack);
                    best = best.max(worth);
                    all += worth;
                }
                value += w.prospect * (best + w.other_quests * (all - best));
            }
        }
        value
    }

    /// The Honor cards the quests other knights are on may bring the kingdom, each as likely
    /// as their cards (as far as `me` can tell) come close to it. (Too small, so far, to make
    /// a knight pray for another: docs/rules/virtues.md, part 6 cont. 3.)
    fn fellows_prospects(&self, state: &State, me: Seat) -> f64 {
        let king = self.king(state);
        let mut honors = 0.0;
        for slot in &state.layout {
            if slot.knights == 0 || has(slot.knights, me) {
                continue;
            }
            let mut together = Counts::new();
            let mut counted = 0u32;
            for s in 0..state.count() as Seat {
                if has(slot.knights, s) && state.alive(s) {
                    together.add_all(&state.player(s).virtues);
                    // The king's honor is not the kingdom's (F).
                    counted += u32::from(Some(s) != king);
                }
            }
            let sharing = slot.knights.count_ones().max(1);
            let (lack, _) = self.closest(slot.quest, &together);
            let q = &self.quests[usize::from(slot.quest)];
            honors += q.honors * f64::from(counted) / f64::from(sharing) / f64::from(1 + lack);
        }
        honors
    }

    /// Whether `me` is the one deciding now whether to present its quest (a presentation
    /// window, or the start of its turn on a quest).
    fn asked_to_present(&self, state: &State, me: Seat) -> bool {
        state.res.is_none()
            && match state.stage {
                Stage::Window { now, .. } => now == me,
                Stage::Start { tried: false } => state.current == me,
                _ => false,
            }
    }

    /// The presentation of a quest a hand comes closest to, and how many cards it lacks.
    fn closest<'a>(&'a self, quest: Card, hand: &Counts) -> (u32, Option<&'a Counts>) {
        let mut best = (u32::MAX / 2, None);
        let types = self.virtues.len();
        for shape in &self.quests[usize::from(quest)].shapes {
            let lack: u32 = shape.as_slice()[..types]
                .iter()
                .zip(&hand.as_slice()[..types])
                .map(|(&n, &h)| u32::from(n.saturating_sub(h)))
                .sum();
            if lack < best.0 {
                best = (lack, Some(shape));
            }
        }
        best
    }

    /// A quest's reward if its trials are passed, less its penalty if not, for one of
    /// `sharing` knights whose cards are `hand` and who will present `shape`.
    fn expected_worth(
        &self,
        quest: Card,
        sharing: u32,
        hand: &Counts,
        shape: Option<&Counts>,
    ) -> f64 {
        let mut spare = *hand;
        if let Some(shape) = shape {
            for t in 0..self.virtues.len() as Card {
                let n = shape.get(t).min(spare.get(t));
                if n > 0 {
                    spare.remove(t, n);
                }
            }
        }
        let q = &self.quests[usize::from(quest)];
        let pass = if q.trials == 0 {
            1.0
        } else {
            self.trial_pass_chance(&spare).powi(i32::from(q.trials))
        };
        pass * self.reward_worth(quest, sharing) - (1.0 - pass) * q.loss
    }

    /// How likely a trial drawn at random is passed with `spare` cards.
    fn trial_pass_chance(&self, spare: &Counts) -> f64 {
        let types = self.virtues.len();
        let (mut total, mut passed) = (0.0, 0.0);
        for (t, trial) in self.trials.iter().enumerate() {
            let copies = f64::from(self.trial_cards.copies[t]);
            total += copies;
            let ok = match &trial.requirement {
                Some(_) => trial.shapes.iter().any(|shape| covers(spare, shape, types)),
                None => trial.drawn.iter().all(|e| e.kind != Kind::Death),
            };
            if ok {
                passed += copies;
            }
        }
        if total == 0.0 { 1.0 } else { passed / total }
    }

    /// In a feast: the deals agreed and the offers it made, by how likely they are taken;
    /// and, as the feast is called, the best deal it could strike. A swap that lets it
    /// complete a quest is worth what embarking on it will bring (`bot_ready_quest_pct`), not
    /// only a prospect: that is why a knight calls a feast.
    fn feast_prospects(
        &self,
        state: &State,
        x: &Exchange,
        me: Seat,
        (virtues, treasures): (&Counts, &Counts),
        before: &Counts,
    ) -> f64 {
        let w = &self.n.bot;
        let ready = |hand: &Counts| (w.ready_quest - w.prospect) * self.ready_worth(state, hand);
        let worth = |v: &Counts, t: &Counts| {
            self.hand_worth(state, me, v) + ready(v) + self.treasure_points(t) as f64
        };
        let now = worth(virtues, treasures);
        let mut value = ready(virtues) - ready(before);
        for o in x.offers().iter().filter(|o| !o.accepted && o.from == me) {
            let (mut v, mut t) = (*virtues, *treasures);
            settle(&mut v, &mut t, me, o.from, o.to, o.give, o.ask);
            // The other side would hardly take less than it gives.
            let likely = if self.plain_worth(o.give) >= self.plain_worth(o.ask) {
                LIKELY
            } else {
                0.0
            };
            value += likely * (worth(&v, &t) - now) - OFFER_COST;
        }
        let called = x.offers().is_empty() && !x.participants().iter().any(|&s| x.is_done(s));
        if called && x.is_participant(me) && x.offers_left(me) > 0 {
            // The view's hidden hands are already a guess at who holds what, and `best_deal`
            // keeps only swaps the holder would take by his own count: these are the odds of
            // the deal, not to be discounted again by `LIKELY` (issue 17, part 6 cont. 4).
            value += self.best_deal(state, x, me, virtues, ready);
        }
        value
    }

    /// The most one swap of a virtue card with another feaster could bring it, among the
    /// swaps that feaster would take (it loses nothing by its own count), as far as it can
    /// tell the others' hands.
    fn best_deal(
        &self,
        state: &State,
        x: &Exchange,
        me: Seat,
        hand: &Counts,
        ready: impl Fn(&Counts) -> f64,
    ) -> f64 {
        let worth = |h: &Counts| self.hand_worth(state, me, h) + ready(h);
        let now = worth(hand);
        // Only a card some quest in reach still lacks can bring one closer.
        let mut wanted = 0u64;
        for slot in state.layout.iter().filter(|slot| self.room_on(slot)) {
            if let (lack, Some(shape)) = self.closest(slot.quest, hand)
                && lack > 0
            {
                for (t, n) in shape.iter() {
                    if n > hand.get(t) {
                        wanted |= 1 << t;
                    }
                }
            }
        }
        let mut best = 0.0f64;
        for take in (0..self.virtues.len() as Card).filter(|&t| wanted & (1 << t) != 0) {
            for (give, _) in hand.iter().filter(|&(g, _)| g != take) {
                let mut mine = *hand;
                mine.remove(give, 1);
                mine.add(take, 1);
                let gain = worth(&mine) - now;
                if gain <= best {
                    continue;
                }
                let taken = x.participants().iter().any(|&other| {
                    let theirs = state.player(other).virtues;
                    if other == me || theirs.get(take) == 0 {
                        return false;
                    }
                    let mut after = theirs;
                    after.remove(take, 1);
                    after.add(give, 1);
                    self.hand_worth(state, other, &after) >= self.hand_worth(state, other, &theirs)
                });
                if taken {
                    best = gain;
                }
            }
        }
        best
    }

    /// What a card is worth to anyone, roughly.
    fn plain_worth(&self, item: Option<Item>) -> f64 {
        match item {
            None => 0.0,
            Some(i) if i.set == VIRTUE_SET => self.n.bot.virtue.max(0.01),
            Some(i) if i.set == TREASURE_SET => self
                .treasure_points
                .get(usize::from(i.card))
                .copied()
                .unwrap_or(0) as f64,
            Some(_) => 0.0,
        }
    }

    /// The best quest in play a knight not on a quest could embark on and complete with
    /// `hand` alone, by its expected worth.
    fn ready_worth(&self, state: &State, hand: &Counts) -> f64 {
        state
            .layout
            .iter()
            .filter(|slot| self.room_on(slot))
            .filter_map(|slot| {
                let (lack, shape) = self.closest(slot.quest, hand);
                let sharing = slot.knights.count_ones() + 1;
                (lack == 0).then(|| self.expected_worth(slot.quest, sharing, hand, shape))
            })
            .fold(0.0, f64::max)
    }

    /// A joust or duel it is in: the prizes or its life, by the forecast of the rounds.
    fn contest_prospects(&self, state: &State, me: Seat) -> f64 {
        let (showdown, duel, prizes, asked) = match &state.stage {
            Stage::Contest(c) => (&c.showdown, c.duel, Some(&c.prizes), None),
            Stage::Prizes {
                contest: c, asked, ..
            } => (&c.showdown, c.duel, Some(&c.prizes), Some(*asked)),
            _ => return 0.0,
        };
        let Some(side) = showdown.side_of(me) else {
            // An onlooker: his prize is counted as gone (`onlookers_prize`).
            return 0.0;
        };
        let other = showdown.seats[usize::from(1 - side)];
        let mask = if duel {
            self.duel_mask
        } else {
            self.joust_mask
        };
        let win = self.chance_to_win(state, showdown, side, mask);
        if duel {
            return self.duel_prospects(state, me, other, win);
        }
        let mut stake = win * self.prizes_to_come(state, showdown, asked) * self.mean_treasure();
        for (s, prize) in prizes.into_iter().flatten().enumerate() {
            if let Some(t) = prize {
                let pts = self.treasure_points[usize::from(*t)] as f64;
                if s == usize::from(me) {
                    stake -= (1.0 - win) * pts;
                } else if s != usize::from(other) || win > 0.0 {
                    stake += win * pts;
                }
            }
        }
        stake
    }

    /// How many prizes the two knights of a joust (asked for prizes while the stage is
    /// `Prizes`) are still to put up, by their own count: none from their hands (a knight's
    /// own stake can only be lost, another's is a gift), one each drawn from the treasure deck
    /// (`joust_prize_from_deck`: a prize the winner takes and a draw gives back, so free to
    /// its drawer), as far as the deck goes.
    fn prizes_to_come(&self, state: &State, showdown: &Showdown, asked: Option<Seats>) -> f64 {
        let Some(asked) = asked.filter(|_| self.n.joust_prize_from_deck) else {
            return 0.0;
        };
        let unasked = showdown.seats.iter().filter(|&&s| !has(asked, s)).count();
        unasked.min(state.treasure_deck.len()) as f64
    }

    /// The prize `me` put up to a joust he is not in.
    fn onlookers_prize(&self, state: &State, me: Seat) -> Option<Card> {
        match &state.stage {
            Stage::Contest(c) | Stage::Prizes { contest: c, .. } => c
                .showdown
                .side_of(me)
                .is_none()
                .then_some(c.prizes[usize::from(me)])?,
            _ => None,
        }
    }

    /// A duel: the loser dies and his treasure goes to the winner (ref gap 12), which moves
    /// both knights' places in the ranking, not only the winner's points.
    fn duel_prospects(&self, state: &State, me: Seat, other: Seat, win: f64) -> f64 {
        let w = &self.n.bot;
        let p = state.player(me);
        let theirs = state.player(other).treasures;
        let (spoils, mine) = (
            self.treasure_points(&theirs),
            self.treasure_points(&p.treasures),
        );
        let points = self.points(p, &p.treasures);
        let chance = |points: i64, treasures: &Counts, moved: i64| {
            self.win_chance(
                state,
                me,
                points,
                (&p.virtues, treasures),
                Some((other, moved)),
            )
        };
        let now = chance(points, &p.treasures, 0);
        let mut richer = p.treasures;
        richer.add_all(&theirs);
        let won = spoils as f64 + w.win * (chance(points + spoils, &richer, spoils) - now);
        let lost = -(mine as f64) - self.death_cost(state)
            + w.win * (chance(points - mine, &Counts::new(), -mine) - now);
        win * won + (1.0 - win) * lost
    }

    /// How likely `side` (the bot's own) wins the showdown: the forecast of the rounds, with
    /// the other side's hidden cards taken at the share of allowed cards among those `side`
    /// cannot see.
    pub(super) fn chance_to_win(
        &self,
        state: &State,
        showdown: &Showdown,
        side: u8,
        mask: u64,
    ) -> f64 {
        if let Some(end) = showdown.end() {
            return match end {
                ShowdownEnd::Won { winner, .. } if winner == side => 1.0,
                ShowdownEnd::Won { .. } => 0.0,
                ShowdownEnd::Drawn => 0.5,
            };
        }
        let allowed = |s: usize| -> u32 {
            let hand = state.player(showdown.seats[s]).virtues;
            hand.iter()
                .filter(|&(t, _)| mask & (1 << t) != 0)
                .map(|(t, n)| u32::from(n.saturating_sub(showdown.shown[s].get(t))))
                .sum()
        };
        let mine = allowed(usize::from(side));
        // The opponent's allowed share, as the cards it cannot see hold them: the deck less
        // its own hand, the (public) discards and the cards the opponent has shown (rounded
        // up: caution).
        let other = usize::from(1 - side);
        let mut seen = state.player(showdown.seats[usize::from(side)]).virtues;
        seen.add_all(&Counts::from_types(state.virtue_discard.as_slice()));
        let seen_good: u32 = seen
            .iter()
            .filter(|&(t, _)| mask & (1 << t) != 0)
            .map(|(_, n)| u32::from(n))
            .sum();
        let shown = showdown.shown[other].total();
        let total: u32 = self
            .virtues
            .copies
            .iter()
            .map(|&c| u32::from(c))
            .sum::<u32>()
            .saturating_sub(seen.total() + shown);
        let good: u32 = (0..self.virtues.len())
            .filter(|&t| mask & (1 << t) != 0)
            .map(|t| u32::from(self.virtues.copies[t]))
            .sum::<u32>()
            .saturating_sub(seen_good + shown);
        let hand = state.player(showdown.seats[other]).virtues.total()
            - showdown.shown[other]
                .total()
                .min(state.player(showdown.seats[other]).virtues.total());
        let theirs = (hand * good).div_ceil(total.max(1));
        let mut counts = [0u32; 2];
        counts[usize::from(side)] = mine;
        counts[other] = theirs;
        // A card opened and not yet answered: replay the round from its opening.
        let first = showdown.opener();
        if showdown.opened().is_some() {
            counts[usize::from(first)] += 1;
        }
        match forecast(counts, first) {
            Some(s) if s == side => 0.8,
            Some(_) => 0.2,
            None => 0.5,
        }
    }

    /// A quest it is resolving: the reward it stands to share.
    fn reward_prospects(&self, state: &State, me: Seat) -> f64 {
        let Some(res) = &state.res else { return 0.0 };
        if !has(res.knights, me) {
            return 0.0;
        }
        let knights = res.knights.count_ones();
        let pool = self.treasure_points(&res.pool) as f64
            + f64::from(res.pool_honor) * self.honor.honor_points as f64;
        match &res.step {
            Step::Drawing | Step::Paying { .. } | Step::Trial { .. } => {
                0.7 * self.reward_worth(res.quest, knights)
            }
            Step::Split(p) => match p.verdict() {
                Some(Verdict::Adopted) | None => {
                    let items = res.pool.total() as usize + usize::from(res.pool_honor);
                    let mine = p.owners().iter().filter(|&&o| o == me).count();
                    let unallotted = items - p.owners().len();
                    let each = if items > 0 { pool / items as f64 } else { 0.0 };
                    each * (mine as f64 * 0.8 + unallotted as f64 / f64::from(knights))
                }
                Some(Verdict::Rejected) => pool / f64::from(knights),
            },
            Step::Dispute {
                showdown, champion, ..
            } => match showdown.side_of(me) {
                Some(side) => pool * self.chance_to_win(state, showdown, side, self.joust_mask),
                None if *champion == me => pool * 0.5,
                None => pool / f64::from(knights),
            },
        }
    }
}

/// Whether `hand` holds every card of `shape`, over the first `types` card types.
fn covers(hand: &Counts, shape: &Counts, types: usize) -> bool {
    hand.as_slice()[..types]
        .iter()
        .zip(&shape.as_slice()[..types])
        .all(|(h, s)| h >= s)
}

/// Applies a feast deal to `me`'s cards, if `me` is a side of it.
fn settle(
    virtues: &mut Counts,
    treasures: &mut Counts,
    me: Seat,
    from: Seat,
    to: Seat,
    give: Option<Item>,
    ask: Option<Item>,
) {
    let mut apply = |item: Option<Item>, gain: bool| {
        let Some(item) = item else { return };
        let hand = if item.set == VIRTUE_SET {
            &mut *virtues
        } else {
            &mut *treasures
        };
        if gain {
            hand.add(item.card, 1);
        } else {
            hand.try_remove(item.card, 1);
        }
    };
    if me == from {
        apply(give, false);
        apply(ask, true);
    } else if me == to {
        apply(give, true);
        apply(ask, false);
    }
}
