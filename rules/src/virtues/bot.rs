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
use super::state::{Card, Seat, Stage, State, Step, TREASURE_SET, VIRTUE_SET, has};

/// Points a win is worth to a bot, shared among the winners.
const WIN: f64 = 100.0;
/// How much a pending offer is worth against a settled deal, by the other side's likely
/// answer (its own worth of the cards is unknown to us).
const LIKELY: f64 = 0.5;
const UNLIKELY: f64 = 0.1;
/// A small cost of every open offer, so that idle offers lose to `done`.
const OFFER_COST: f64 = 0.05;
/// How much every knight favours the kingdom's honor before anyone leads.
const LEANING: f64 = 0.25;
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
        if !p.alive {
            return self.score(state, me) as f64 * 0.2 - w.death;
        }
        // Deals agreed in a feast count as done.
        let (mut virtues, mut treasures) = (p.virtues, p.treasures);
        let mut value = 0.0;
        if let Stage::Feast(x) = &state.stage {
            for o in x.accepted() {
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
            value += self.feast_prospects(state, x, me, &virtues, &treasures);
        }
        let points = self.treasure_points(&treasures)
            + i64::from(p.honor) * self.honor.honor_points
            + i64::from(p.dishonor) * self.honor.dishonor_points;
        value += points as f64;
        value += self.hand_worth(state, me, &virtues);
        let lead = points - self.best_rival(state, me);
        value += w.rival * (lead.min(0)) as f64;
        // The kingdom: wanted by those behind, not by the leader.
        let (honor, dishonor) = self.balance(state);
        let bal = (honor - dishonor) as f64;
        // Early on every knight builds the kingdom; later the leader turns against it.
        let total = self.quest_cards.copies.iter().map(|&c| f64::from(c)).sum::<f64>();
        let progress = 1.0 - state.quest_deck.len() as f64 / total.max(1.0);
        let leaning = (LEANING - lead as f64 * progress / 4.0).clamp(-1.0, 1.0);
        value += w.kingdom * bal * leaning;
        if bal < 0.0 {
            let fall = (-bal / self.threshold(state) as f64).min(1.0);
            value += fall * self.sin_bonus(&virtues, &treasures) as f64;
        }
        value += self.contest_prospects(state, me);
        value += self.reward_prospects(state, me);
        value
    }

    fn best_rival(&self, state: &State, me: Seat) -> i64 {
        (0..state.count() as Seat)
            .filter(|&s| s != me)
            .map(|s| self.score(state, s))
            .max()
            .unwrap_or(0)
    }

    /// A quest's reward in points, for one knight of `sharing`.
    fn reward_worth(&self, quest: Card, sharing: u32) -> f64 {
        let mean_treasure = self.mean_treasure();
        let mut worth = 0.0;
        for e in &self.quests[usize::from(quest)].reward {
            if e.target != Target::QuestingKnights {
                continue;
            }
            let n = f64::from(e.count);
            worth += match e.kind {
                Kind::DrawTreasures => n * mean_treasure,
                Kind::Honor => n * (self.honor.honor_points as f64 + self.n.bot.kingdom),
                Kind::DrawVirtues => n * self.n.bot.virtue,
                _ => 0.0,
            };
        }
        worth / f64::from(sharing.max(1))
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

    /// Cards a hand lacks for a quest's cheapest presentation.
    fn missing(&self, quest: Card, hand: &Counts) -> u32 {
        self.quests[usize::from(quest)]
            .shapes
            .iter()
            .map(|shape| {
                shape
                    .iter()
                    .map(|(t, n)| u32::from(n.saturating_sub(hand.get(t))))
                    .sum()
            })
            .min()
            .unwrap_or(u32::MAX / 2)
    }

    /// The virtue cards' worth: each card a little, and the quests they bring within reach.
    fn hand_worth(&self, state: &State, me: Seat, hand: &Counts) -> f64 {
        let w = &self.n.bot;
        let mut value = w.virtue * f64::from(hand.total());
        match state.quest_of(me) {
            Some(i) => {
                let slot = state.layout[i];
                let sharing = slot.knights.count_ones();
                let worth = self.reward_worth(slot.quest, sharing);
                // Its own cards and (as far as it can tell) its partners'.
                let mut together = *hand;
                for s in 0..state.count() as Seat {
                    if s != me && has(slot.knights, s) && state.alive(s) {
                        together.add_all(&state.player(s).virtues);
                    }
                }
                let lack = self.missing(slot.quest, &together);
                value += if lack == 0 {
                    w.ready_quest * worth
                } else {
                    // Stuck on a quest: turns lost until cards come.
                    w.prospect * worth / f64::from(1 + lack) - f64::from(lack) * STUCK
                };
            }
            None => {
                let best = state
                    .layout
                    .iter()
                    .filter(|slot| self.room_on(slot))
                    .map(|slot| {
                        let sharing = slot.knights.count_ones() + 1;
                        self.reward_worth(slot.quest, sharing)
                            / f64::from(1 + self.missing(slot.quest, hand))
                    })
                    .fold(0.0, f64::max);
                value += w.prospect * best;
            }
        }
        value
    }

    /// In a feast: the offers it made, by how likely they are taken; and what one more swap
    /// could bring while it may still make offers.
    fn feast_prospects(
        &self,
        state: &State,
        x: &Exchange,
        me: Seat,
        virtues: &Counts,
        treasures: &Counts,
    ) -> f64 {
        let now = self.hand_worth(state, me, virtues) + self.treasure_points(treasures) as f64;
        let mut value = 0.0;
        for o in x.offers().iter().filter(|o| !o.accepted && o.from == me) {
            let (mut v, mut t) = (*virtues, *treasures);
            settle(&mut v, &mut t, me, o.from, o.to, o.give, o.ask);
            let after = self.hand_worth(state, me, &v) + self.treasure_points(&t) as f64;
            let likely = if self.plain_worth(o.give) >= self.plain_worth(o.ask) {
                LIKELY
            } else {
                UNLIKELY
            };
            value += likely * (after - now) - OFFER_COST;
        }
        if x.is_participant(me) && x.offers_left(me) > 0 {
            value += LIKELY * self.best_swap(state, me, virtues).max(0.0) * 0.5;
        }
        value
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

    /// The best gain from swapping one virtue card for another.
    fn best_swap(&self, state: &State, me: Seat, hand: &Counts) -> f64 {
        let now = self.hand_worth(state, me, hand);
        let mut best = 0.0f64;
        for (give, _) in hand.iter() {
            for want in 0..self.virtues.len() as Card {
                if want == give {
                    continue;
                }
                let mut h = *hand;
                h.remove(give, 1);
                h.add(want, 1);
                best = best.max(self.hand_worth(state, me, &h) - now);
            }
        }
        best
    }

    /// A joust or duel it is in: the prizes or its life, by the forecast of the rounds.
    fn contest_prospects(&self, state: &State, me: Seat) -> f64 {
        let (showdown, duel, prizes) = match &state.stage {
            Stage::Contest(c) | Stage::Prizes { contest: c, .. } => {
                (&c.showdown, c.duel, Some(&c.prizes))
            }
            _ => return 0.0,
        };
        let Some(side) = showdown.side_of(me) else {
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
            let spoils = self.treasure_points(&state.player(other).treasures) as f64;
            return win * spoils - (1.0 - win) * self.n.bot.death;
        }
        let mut stake = 0.0;
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

    /// How likely `side` wins the showdown: the forecast of the rounds, with the other side's
    /// hidden cards taken at their expected share of allowed cards.
    fn chance_to_win(&self, state: &State, showdown: &Showdown, side: u8, mask: u64) -> f64 {
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
        // The opponent's allowed share, as the deck holds them (rounded up: caution).
        let total: u32 = self.virtues.copies.iter().map(|&c| u32::from(c)).sum();
        let good: u32 = (0..self.virtues.len())
            .filter(|&t| mask & (1 << t) != 0)
            .map(|t| u32::from(self.virtues.copies[t]))
            .sum();
        let other = usize::from(1 - side);
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
