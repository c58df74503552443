//! The greedy bot's view of a position: shields (its own for, the others' against), the
//! worth of its cards and allies, and what the quest or tournament under way promises.
//! Everything it reads is in its own observation, and hidden stages are estimated from
//! their card counts, never read. The weights are the pack's `bot_*` params.

use grail_engine::counts::Counts;
use grail_engine::game::Seat;

use grail_engine::seat_set::SeatSet;

use super::build::dot;
use super::state::{MAX_STAGES, Phase, State};
use super::{Kind, Quests};

/// The most weapon cards a commitment plan looks at (a hand holds at most a dozen cards).
const MAX_WEAPONS: usize = 12;

/// Battle points that multiply the odds of beating a guessed strength by e (tuning).
const SPREAD: f64 = 10.0;

/// The chance that a strength beats (or ties) a guessed opponent strength: a logistic curve,
/// so every battle point added still counts.
fn chance(mine: f64, theirs: f64) -> f64 {
    1.0 / (1.0 + ((theirs - mine) / SPREAD).exp())
}

impl Quests {
    pub(crate) fn evaluate(&self, s: &State, seat: Seat) -> f64 {
        let me = seat as u8;
        if s.end.is_some() {
            return if s.winners.contains(seat) {
                1e6 / s.winners.len() as f64
            } else if s.winners.is_empty() {
                0.0
            } else {
                -1e6
            };
        }
        let w = self.n.bot;
        let mut v = 0.0;
        for p in 0..s.seats() {
            let shields = self.score(s, p) as f64;
            let allies = &s.players[p].allies;
            // Most players have no ally in play, and that is quicker told than summed.
            let allies = if allies.is_empty() {
                0.0
            } else {
                dot(allies, &self.bot_ally) as f64 / 100.0
            };
            if p == seat {
                v += shields * w.shield + allies;
            } else {
                v -= shields * w.opponent_shield + allies * w.opponent_shield / w.shield.max(1.0);
            }
        }
        v += dot(&s.player(me).hand, &self.bot_hand) as f64 / 100.0;
        v + self.prospects(s, me)
    }

    /// A random card from the deck.
    fn average_card(&self) -> f64 {
        let w = self.n.bot;
        w.card + self.guess.1 * w.bp
    }

    /// What the quest or tournament under way is expected to bring `seat`.
    fn prospects(&self, s: &State, seat: u8) -> f64 {
        match s.phase {
            Phase::Build
            | Phase::Join
            | Phase::StageStart
            | Phase::Commit
            | Phase::StageReveal
            | Phase::Bid
            | Phase::PayBid { .. } => self.quest_prospects(s, seat),
            Phase::Joust | Phase::JoustReveal => self.tournament_prospects(s, seat),
            _ => 0.0,
        }
    }

    /// The battle points a face-down stage of `cards` is guessed at, knowing that stages
    /// increase: no lower than `floor` (set by a revealed stage before it).
    fn hidden_guess(&self, cards: &Counts, floor: f64) -> f64 {
        let n = cards.total().max(1) as f64;
        let guess = self.guess.0 + (n - 1.0) * self.guess.1;
        guess.max(floor)
    }

    /// The chance that `seat` gets through the stages from `from` on with `strength` now and
    /// `reserve` battle points of weapons in hand to spread over the later stages.
    fn survival(&self, s: &State, seat: u8, from: usize, now: f64, reserve: f64) -> f64 {
        let q = &s.quest;
        let viewer = Some(usize::from(seat));
        let left = usize::from(q.stages).saturating_sub(from).max(1) as f64;
        let base = self.strength(s, seat, &Counts::EMPTY) as f64;
        // The revealed foe stages before each stage, carried along rather than searched for
        // per stage.
        let floor_after = |i: usize| {
            (q.is_revealed(i) && self.has_foe(&q.built[i]))
                .then(|| self.stage_bp(s, i) as f64 + 5.0)
        };
        let mut floor = (0..from.min(usize::from(q.stages)))
            .filter_map(floor_after)
            .fold(0.0, f64::max);
        let mut p = 1.0;
        for i in from..usize::from(q.stages) {
            let cards = &q.built[i];
            if s.phase == Phase::Build || !cards.is_empty() {
                let visible = self.stage_visible(s, i, viewer);
                let mine = if i == from {
                    now
                } else {
                    base + reserve / left
                };
                p *= if visible && self.test_of(cards).is_some() {
                    0.6
                } else {
                    let theirs = if visible {
                        self.stage_bp(s, i) as f64
                    } else {
                        self.hidden_guess(cards, floor)
                    };
                    let odds = chance(mine, theirs);
                    // The foe being committed to: what beats it is fought to win.
                    if s.phase == Phase::Commit && i == from && mine >= theirs {
                        odds.max(self.n.bot.beaten)
                    } else {
                        odds
                    }
                };
            }
            if let Some(after) = floor_after(i) {
                floor = f64::max(floor, after);
            }
        }
        p
    }

    fn quest_prospects(&self, s: &State, seat: u8) -> f64 {
        let w = self.n.bot;
        let q = &s.quest;
        let reward = (f64::from(q.stages) * f64::from(self.n.shields_per_stage)
            + f64::from(s.quest_bonus))
            * w.shield;
        let draws = f64::from(q.stages) * f64::from(self.n.stage_draw) * self.average_card();
        let me = usize::from(seat);
        if seat == q.sponsor {
            return self.sponsor_prospects(s, seat);
        }
        let riding =
            q.questors.contains(me) || (s.phase == Phase::Join && s.offer.accepted().contains(me));
        if !riding {
            return 0.0;
        }
        let hand = &s.player(seat).hand;
        let mut sit = self.situation(s, Some(seat));
        let reserve: f64 = hand
            .iter()
            .filter(|&(t, _)| self.is(t, Kind::Weapon))
            .map(|(t, _)| sit.bp(t) as f64)
            .sum();
        let from = usize::from(q.stage);
        match s.phase {
            Phase::Bid => {
                // The high bid is worth the rest of the quest if nobody after can beat it;
                // so is the least bid for the bidder to move who can make it (he may first
                // play a card: Mordred on a rival's ally, an ally with free bids).
                let bid = match s.bidding.high() {
                    Some((high, bid)) if high == me => bid,
                    _ if s.bidding.current() == Some(me)
                        && self.max_bid(s, seat) >= s.bidding.min_bid() =>
                    {
                        s.bidding.min_bid()
                    }
                    _ => return 0.0,
                };
                let beaten = s
                    .bidding
                    .to_ask()
                    .iter()
                    .any(|o| o != me && self.max_bid(s, o as u8) > bid);
                let p_win = if beaten { 0.4 } else { 1.0 };
                let cost =
                    (bid as f64 - self.free_bids(s, seat) as f64).max(0.0) * self.average_card();
                let now = self.strength(s, seat, &Counts::EMPTY) as f64;
                p_win
                    * (self.survival(s, seat, from + 1, now + reserve / 2.0, reserve)
                        * (reward + draws)
                        - cost)
            }
            Phase::PayBid { left, .. } => {
                let now = self.strength(s, seat, &Counts::EMPTY) as f64;
                self.survival(s, seat, from + 1, now + reserve / 2.0, reserve) * (reward + draws)
                    - f64::from(left) * self.average_card()
            }
            _ => {
                let committed = *s.sealed.cards(me);
                let now = self.strength(s, seat, &committed) as f64;
                if s.phase == Phase::Commit && !s.sealed.sealed().contains(me) {
                    return self.commit_prospects(s, seat, now, reserve, reward + draws);
                }
                let now = if s.phase == Phase::Commit {
                    now
                } else {
                    now + reserve / 2.0
                };
                self.survival(s, seat, from, now, reserve) * (reward + draws)
                    + if s.phase == Phase::Join {
                        f64::from(self.n.quest_draw) * self.average_card()
                    } else {
                        0.0
                    }
            }
        }
    }

    /// A questor still to commit to the foe stage under way: the better of stopping at what
    /// it has committed and adding the weapons worth least in hand that beat the stage (its
    /// battle points when seen, else guessed), whose worth then counts as spent. So the
    /// greedy bot adds those cards one at a time, and nothing when its weapons cannot get
    /// there.
    fn commit_prospects(&self, s: &State, seat: u8, now: f64, reserve: f64, worth: f64) -> f64 {
        let from = usize::from(s.quest.stage);
        let stay = self.survival(s, seat, from, now, reserve) * worth;
        let need = self.foe_estimate(s, seat, from) - now;
        if need <= 0.0 {
            return stay;
        }
        match self.least_beating(s, seat, need) {
            Some((bp, spent)) => {
                let go = self.survival(s, seat, from, now + bp, (reserve - bp).max(0.0)) * worth;
                stay.max(go - spent)
            }
            None => stay,
        }
    }

    /// The battle points of stage `i` as `seat` knows them: seen, or guessed from its card
    /// count and the foe stages revealed before it.
    pub(crate) fn foe_estimate(&self, s: &State, seat: u8, i: usize) -> f64 {
        if self.stage_visible(s, i, Some(usize::from(seat))) {
            return self.stage_bp(s, i) as f64;
        }
        let floor = (0..i)
            .filter(|&j| s.quest.is_revealed(j) && self.has_foe(&s.quest.built[j]))
            .map(|j| self.stage_bp(s, j) as f64 + 5.0)
            .fold(0.0, f64::max);
        self.hidden_guess(&s.quest.built[i], floor)
    }

    /// The weapons `seat` may still commit that reach `need` and are worth least in hand
    /// (ties: the fewer battle points): their battle points and worth; `None` when all of
    /// them fall short.
    fn least_beating(&self, s: &State, seat: u8, need: f64) -> Option<(f64, f64)> {
        let committed = s.sealed.cards(usize::from(seat));
        let mut sit = self.situation(s, Some(seat));
        // Each weapon card it may add (types beyond the weapon-copies limit excluded).
        let mut items = [(0.0f64, 0.0f64); MAX_WEAPONS];
        let mut n = 0;
        for (t, k) in s
            .player(seat)
            .hand
            .iter_among(self.masks[Kind::Weapon as usize])
        {
            let free = self.n.weapon_copies.saturating_sub(committed.get(t)).min(k);
            for _ in 0..free {
                if n < items.len() {
                    items[n] = (
                        sit.bp(t) as f64,
                        self.bot_hand[usize::from(t)] as f64 / 100.0,
                    );
                    n += 1;
                }
            }
        }
        let mut best: Option<(f64, f64)> = None;
        for set in 1u32..(1 << n) {
            let (bp, spent) = (0..n)
                .filter(|i| set & (1 << i) != 0)
                .fold((0.0, 0.0), |(b, c), i| (b + items[i].0, c + items[i].1));
            let better = match best {
                None => true,
                Some((b, c)) => spent < c || (spent == c && bp < b),
            };
            if bp >= need && better {
                best = Some((bp, spent));
            }
        }
        best
    }

    /// The sponsor gets back the cards he used plus a card per stage, and fears the
    /// questors' shields.
    fn sponsor_prospects(&self, s: &State, seat: u8) -> f64 {
        let w = self.n.bot;
        let q = &s.quest;
        let back =
            f64::from(q.used) + f64::from(q.stages) * f64::from(self.n.sponsor_draw_per_stage);
        let mut v = back * self.average_card();
        let stages = usize::from(q.stages);
        // What each stage is worth: laid out, being laid out, or planned from the hand (the
        // strongest foes, ascending, each with a share of the weapons).
        let mut bp = [0.0f64; MAX_STAGES];
        let mut test = [false; MAX_STAGES];
        let mut open = 0;
        for i in 0..stages {
            let cards = &q.built[i];
            test[i] = self.test_of(cards).is_some();
            if cards.is_empty() {
                open += 1;
            } else if !test[i] {
                bp[i] = self.stage_bp(s, i) as f64;
            }
        }
        if open > 0 {
            let mut sit = self.situation(s, Some(seat));
            let hand = &s.player(seat).hand;
            let mut foes = [0.0f64; 16];
            let mut n = 0;
            let mut weapons = 0.0;
            for (t, k) in hand.iter() {
                if self.is(t, Kind::Foe) {
                    for _ in 0..k {
                        if n < foes.len() {
                            foes[n] = sit.bp(t) as f64;
                            n += 1;
                        }
                    }
                } else if self.is(t, Kind::Weapon) {
                    weapons += f64::from(k) * sit.bp(t) as f64;
                }
            }
            let foes = &mut foes[..n];
            foes.sort_by(|a, b| b.total_cmp(a));
            let share = weapons / 2.0 / open as f64;
            let mut next = foes.iter().take(open).rev();
            for (slot, built) in bp.iter_mut().zip(&q.built).take(stages) {
                if built.is_empty() {
                    *slot = next.next().copied().unwrap_or(self.guess.0) + share;
                }
            }
        }
        let riders = if matches!(s.phase, Phase::Build | Phase::Join) {
            SeatSet::all(s.seats()).without(usize::from(seat))
        } else {
            q.questors
        };
        let shields =
            f64::from(q.stages) * f64::from(self.n.shields_per_stage) + f64::from(s.quest_bonus);
        let from = if s.phase == Phase::Build {
            0
        } else {
            usize::from(q.stage)
        };
        for o in riders.iter() {
            // A rider commits about a weapon per stage.
            let strength = self.strength(s, o as u8, &Counts::EMPTY) as f64 + self.guess.1;
            let mut p = 1.0;
            for i in from..stages {
                p *= if test[i] {
                    0.6
                } else {
                    chance(strength, bp[i])
                };
            }
            v -= p * shields * w.opponent_shield;
        }
        v
    }

    fn tournament_prospects(&self, s: &State, seat: u8) -> f64 {
        let me = usize::from(seat);
        if !s.tourney.contenders.contains(me) {
            return 0.0;
        }
        let w = self.n.bot;
        let entrants = s.tourney.entrants.len() as f64;
        let bonus = s
            .tourney
            .card
            .map_or(0.0, |c| match &self.stories[usize::from(c)] {
                super::Story::Tournament { bonus } => f64::from(*bonus),
                _ => 0.0,
            });
        let reward = if s.tourney.last {
            1e5
        } else {
            (entrants * f64::from(self.n.shields_per_entrant) + bonus) * w.shield
        };
        let mine = self.strength(s, seat, s.sealed.cards(me)) as f64;
        let mut p = 1.0;
        for o in s.tourney.contenders.iter().filter(|&o| o != me) {
            let base = self.strength(s, o as u8, &Counts::EMPTY) as f64;
            let theirs = if s.sealed.sealed().contains(o) {
                base + s.sealed.cards(o).total() as f64 * self.guess.1
            } else {
                base + s.player(o as u8).hand.total().min(4) as f64 * self.guess.1 / 2.0
            };
            p *= chance(mine, theirs);
        }
        p * reward
    }
}
