//! Battle points in their situation, and the sponsor's stage building: which cards may go
//! on the stage being laid out so that the quest can still be completed.
//!
//! RB: "only one Foe or Test Card may be played during each stage", a foe "can never be
//! given two Weapon Cards of the same type", "the total number of Battle Points coming into
//! play at each stage increases from stage to stage", and "Only one Test Card may be played
//! in each Quest"; tests are exempt from the increase. The sponsor lays a stage out card by
//! card; a card is offered only if the quest can still be completed with it, so every
//! partial set-up can be finished (`can_finish`, an exhaustive search over the hand).

use grail_engine::counts::Counts;
use grail_engine::situational::Situational;

use super::state::{Card, MAX_STAGES, Seat, State};
use super::{Kind, Quests};

/// The foes and weapons a search may still use, by effective battle points.
#[derive(Clone)]
struct Arsenal {
    /// Distinct foe values, ascending, and how many foes of each.
    foe_bp: [i64; 64],
    foe_n: [u8; 64],
    foes: usize,
    /// Weapon types: the type, its battle points and the copies held.
    w_type: [u8; 64],
    w_bp: [i64; 64],
    w_n: [u8; 64],
    weapons: usize,
    /// The most copies of one weapon type per stage.
    copies: u8,
    tests: u8,
}

impl Arsenal {
    fn new(q: &Quests, hand: &Counts, bp: &[i64; 64]) -> Arsenal {
        let mut a = Arsenal {
            foe_bp: [0; 64],
            foe_n: [0; 64],
            foes: 0,
            w_type: [0; 64],
            w_bp: [0; 64],
            w_n: [0; 64],
            weapons: 0,
            copies: q.n.weapon_copies.max(1),
            tests: 0,
        };
        for (t, n) in hand.iter() {
            match q.kind[usize::from(t)] {
                Kind::Foe => a.add_foe(bp[usize::from(t)], n),
                Kind::Weapon => {
                    a.w_type[a.weapons] = t;
                    a.w_bp[a.weapons] = bp[usize::from(t)];
                    a.w_n[a.weapons] = n;
                    a.weapons += 1;
                }
                Kind::Test => a.tests = a.tests.saturating_add(n),
                Kind::Ally | Kind::Amour => {}
            }
        }
        a
    }

    fn add_foe(&mut self, bp: i64, n: u8) {
        let at = self.foe_bp[..self.foes]
            .iter()
            .position(|&v| v >= bp)
            .unwrap_or(self.foes);
        if at < self.foes && self.foe_bp[at] == bp {
            self.foe_n[at] = self.foe_n[at].saturating_add(n);
            return;
        }
        self.foe_bp.copy_within(at..self.foes, at + 1);
        self.foe_n.copy_within(at..self.foes, at + 1);
        self.foe_bp[at] = bp;
        self.foe_n[at] = n;
        self.foes += 1;
    }

    /// The same, with one card of type `card` (worth `bp`) gone from the hand.
    fn without(&self, q: &Quests, card: Card, bp: i64) -> Arsenal {
        let mut a = self.clone();
        match q.kind[usize::from(card)] {
            Kind::Foe => {
                if let Some(i) = a.foe_bp[..a.foes].iter().position(|&v| v == bp) {
                    a.foe_n[i] = a.foe_n[i].saturating_sub(1);
                }
            }
            Kind::Weapon => {
                if let Some(i) = a.w_type[..a.weapons].iter().position(|&t| t == card) {
                    a.w_n[i] = a.w_n[i].saturating_sub(1);
                }
            }
            Kind::Test => a.tests = a.tests.saturating_sub(1),
            Kind::Ally | Kind::Amour => {}
        }
        a
    }

    /// Can the remaining `stages` be laid out above `prev`, using at most `tests` tests?
    fn rest(&mut self, stages: u8, prev: i64, tests: u8) -> bool {
        let used_tests = tests.min(self.tests).min(stages);
        self.chain(stages - used_tests, prev)
    }

    /// Can `m` foe stages be made, each of one foe and weapons of distinct types, with
    /// strictly increasing battle points all above `prev`?
    fn chain(&mut self, m: u8, prev: i64) -> bool {
        if m == 0 {
            return true;
        }
        let held: u32 = self.foe_n[..self.foes].iter().map(|&n| u32::from(n)).sum();
        if held < u32::from(m) {
            return false;
        }
        let above = (0..self.foes)
            .filter(|&i| self.foe_n[i] > 0 && self.foe_bp[i] > prev)
            .count();
        if above >= usize::from(m) {
            return true;
        }
        for i in 0..self.foes {
            if self.foe_n[i] == 0 {
                continue;
            }
            let v = self.foe_bp[i];
            self.foe_n[i] -= 1;
            let ok = if v > prev {
                self.chain(m - 1, v)
            } else {
                self.lift(0, v, i64::MAX, prev, &[0; 64], m - 1)
            };
            self.foe_n[i] += 1;
            if ok {
                return true;
            }
        }
        false
    }

    /// Tries every minimal set of weapons (types from `from` on, at most `copies` per type
    /// minus those already `on` the stage, by weapon index) that lifts a stage worth `sum`
    /// above `prev`, then the `rest` of the chain above it. More weapons than needed never
    /// help a later stage.
    fn lift(
        &mut self,
        from: usize,
        sum: i64,
        smallest: i64,
        prev: i64,
        on: &[u8; 64],
        rest: u8,
    ) -> bool {
        if sum > prev {
            // Minimal: leaving out the smallest weapon would not be enough.
            return sum.saturating_sub(smallest) <= prev && self.chain(rest, sum);
        }
        let reach: i64 = (from..self.weapons)
            .map(|w| self.w_bp[w] * i64::from(self.cap(w, on)))
            .sum();
        if sum + reach <= prev {
            return false;
        }
        for w in from..self.weapons {
            let cap = self.cap(w, on);
            for k in 1..=cap {
                self.w_n[w] -= k;
                let bp = self.w_bp[w];
                let ok = self.lift(
                    w + 1,
                    sum + bp * i64::from(k),
                    smallest.min(bp),
                    prev,
                    on,
                    rest,
                );
                self.w_n[w] += k;
                if ok {
                    return true;
                }
            }
        }
        false
    }

    fn cap(&self, w: usize, on: &[u8; 64]) -> u8 {
        self.w_n[w].min(self.copies.saturating_sub(on[w]))
    }

    /// Copies of each weapon (by weapon index) already on `stage`.
    fn on_stage(&self, stage: &Counts) -> [u8; 64] {
        let mut on = [0u8; 64];
        for (w, slot) in on.iter_mut().enumerate().take(self.weapons) {
            *slot = stage.get(self.w_type[w]);
        }
        on
    }
}

/// The sponsor's quest as laid out so far, worked out once per decision.
struct Plan {
    /// Every adventure card's battle points on this quest, for the sponsor.
    bp: [i64; 64],
    /// The stage being laid out and the stages left, counting it.
    stage: Counts,
    left: u8,
    /// What a foe stage must beat (the last foe stage's battle points).
    prev: i64,
    /// Tests the current and later stages may still hold.
    tests: u8,
}

impl Plan {
    fn bp_of(&self, cards: &Counts) -> i64 {
        cards
            .iter()
            .map(|(t, n)| i64::from(n) * self.bp[usize::from(t)])
            .sum()
    }
}

impl Quests {
    /// What is in play, as the cards of `owner` see it (worked out when first needed).
    pub(crate) fn situation<'a>(&'a self, s: &'a State, owner: Option<Seat>) -> Situation<'a> {
        Situation {
            q: self,
            s,
            owner,
            counts: None,
            shared: !self.per_owner(),
        }
    }

    /// The story card and the allies in play (everyone's, or the owner's alone with
    /// `partner_same_player`), and the owner's rank, laid out as the adventure cards'
    /// `when_over` says.
    fn in_play(&self, s: &State, owner: Option<Seat>) -> Counts {
        if self.layout.ranks.is_none() && (!self.n.partner_same_player || owner.is_none()) {
            return s.sit;
        }
        self.compute_in_play(s, owner)
    }

    /// Brings the values the state keeps at hand up to date (what is in play, each
    /// player's strength and free bids, each stage's battle points) after the story card,
    /// an ally, an Amour, a rank or a stage changed.
    pub(crate) fn refresh(&self, s: &mut State) {
        // The cards' values change only with what is in play.
        let sit = self.compute_in_play(s, None);
        if sit != s.sit {
            s.sit = sit;
            self.revalue_quickly(s);
        }
        self.refresh_holdings(s);
    }

    /// The same after only the story card changed (a turn begins or ends): when no card's
    /// value changed with it, nothing else can have.
    pub(crate) fn refresh_story(&self, s: &mut State) {
        if self.per_owner() {
            return self.refresh(s);
        }
        if self.resituate(s) {
            self.refresh_holdings(s);
        }
    }

    /// The same after only `seat`'s allies, Amour or rank changed: unless a card's value
    /// changed with them, the other players' holdings and the stages are as they were.
    pub(crate) fn refresh_seat(&self, s: &mut State, seat: Seat) {
        if self.per_owner() {
            return self.refresh(s);
        }
        if self.resituate(s) {
            self.refresh_holdings(s);
        } else {
            self.refresh_player(s, seat);
        }
    }

    /// Brings what is in play and the cards' values up to date; whether any value changed.
    fn resituate(&self, s: &mut State) -> bool {
        let sit = self.compute_in_play(s, None);
        if sit == s.sit {
            return false;
        }
        let before = (s.vals_bp, s.vals_bids);
        s.sit = sit;
        self.revalue_quickly(s);
        (s.vals_bp, s.vals_bids) != before
    }

    /// Each player's strength and free bids, and each stage's battle points, from the
    /// values in the state.
    fn refresh_holdings(&self, s: &mut State) {
        for p in 0..s.seats() {
            self.refresh_player(s, p as Seat);
        }
        // Stages past the quest's are never laid out, and stay worth nothing.
        for i in 0..usize::from(s.quest.stages).min(MAX_STAGES) {
            self.refresh_stage(s, i);
        }
    }

    /// One player's strength and free bids from the values in the state.
    fn refresh_player(&self, s: &mut State, seat: Seat) {
        let (base, bids) = {
            let player = s.player(seat);
            let rank = self
                .rank_bp
                .get(usize::from(player.rank))
                .or(self.rank_bp.last())
                .copied()
                .unwrap_or(0);
            if player.allies.is_empty() && player.amour.is_empty() {
                (rank, 0)
            } else {
                let mut cards = player.allies;
                cards.add_all(&player.amour);
                let mut sit = self.situation(s, Some(seat));
                (
                    rank + self.bp_of(&cards, &mut sit),
                    self.bids_of(&cards, &mut sit),
                )
            }
        };
        let player = s.player_mut(seat);
        player.base = clamp(base);
        player.bids = clamp(bids);
    }

    /// Every adventure card's battle points and free bids with what is in play (`s.sit`).
    /// Evaluates every card afresh: the reference `revalue_quickly`'s shortcuts are checked
    /// against (`check_invariants`).
    pub(crate) fn revalue(&self, s: &mut State) {
        let sit = s.sit;
        for t in 0..self.adventure.len() {
            s.vals_bp[t] = clamp16(self.bp.get(t as Card, sit.as_slice()));
            s.vals_bids[t] = clamp16(self.bids.get(t as Card, sit.as_slice()));
        }
    }

    /// The same, quickly, after what is in play changed.
    fn revalue_quickly(&self, s: &mut State) {
        // Usually only the story card matters: its values were worked out in advance. Then
        // only cards whose overrides look at the rest of what is in play (Tristan and Iseult
        // at each other) need a look.
        let mut rest = s.sit;
        let story = match (self.layout.story, s.story) {
            (Some(at), Some(card)) => {
                rest.remove(at + card, 1);
                usize::from(card)
            }
            _ => self.story.len(),
        };
        let Some((bp, bids)) = self.story_values.get(story) else {
            return;
        };
        s.vals_bp = *bp;
        s.vals_bids = *bids;
        let others = rest.held() & self.value_reads;
        if others == 0 {
            return;
        }
        let sit = s.sit;
        for (t, &reads) in self.card_reads.iter().enumerate() {
            if reads & others != 0 {
                s.vals_bp[t] = clamp16(self.bp.get(t as Card, sit.as_slice()));
                s.vals_bids[t] = clamp16(self.bids.get(t as Card, sit.as_slice()));
            }
        }
    }

    /// Brings one stage's battle points up to date.
    pub(crate) fn refresh_stage(&self, s: &mut State, i: usize) {
        let bp = if i >= usize::from(s.quest.stages) || s.quest.built[i].is_empty() {
            0
        } else {
            let mut sit = self.situation(s, Some(s.quest.sponsor));
            self.bp_of(&s.quest.built[i], &mut sit)
        };
        s.quest.bp[i] = clamp(bp);
    }

    /// Whether a card's situation depends on whose it is (then the state's tables of values
    /// cannot serve everyone).
    fn per_owner(&self) -> bool {
        self.n.partner_same_player || self.layout.ranks.is_some()
    }

    pub(crate) fn compute_in_play(&self, s: &State, owner: Option<Seat>) -> Counts {
        let mut sit = Counts::EMPTY;
        if let (Some(at), Some(card)) = (self.layout.story, s.story) {
            sit.add(at + card, 1);
        }
        if let Some(at) = self.layout.adventure {
            let mut allies = Counts::EMPTY;
            for (p, player) in s.players.iter().enumerate() {
                if !self.n.partner_same_player || owner.is_none_or(|o| usize::from(o) == p) {
                    allies.add_all(&player.allies);
                }
            }
            for (t, n) in allies.iter() {
                sit.add(at + t, n);
            }
        }
        if let (Some(at), Some(o)) = (self.layout.ranks, owner) {
            let rank = s
                .player(o)
                .rank
                .min(self.ranks.len().saturating_sub(1) as u8);
            sit.add(at + rank, 1);
        }
        sit
    }

    /// The battle points of `cards` in a situation.
    pub(crate) fn bp_of(&self, cards: &Counts, sit: &mut Situation<'_>) -> i64 {
        if sit.shared {
            return dot(cards, &sit.s.vals_bp[..self.adventure.len()]);
        }
        sum_of(&self.bp, cards, sit, self.adventure.len())
    }

    /// The free bids of `cards` in a situation.
    pub(crate) fn bids_of(&self, cards: &Counts, sit: &mut Situation<'_>) -> i64 {
        if sit.shared {
            return dot(cards, &sit.s.vals_bids[..self.adventure.len()]);
        }
        sum_of(&self.bids, cards, sit, self.adventure.len())
    }

    /// A stage's battle points (its foe and weapons), as the sponsor's cards count.
    pub(crate) fn stage_bp(&self, s: &State, stage: usize) -> i64 {
        i64::from(s.quest.bp[stage])
    }

    /// A player's strength: rank, allies and Amour in play, plus `extra` cards played now.
    pub(crate) fn strength(&self, s: &State, seat: Seat, extra: &Counts) -> i64 {
        let base = i64::from(s.player(seat).base);
        if extra.is_empty() {
            return base;
        }
        let mut sit = self.situation(s, Some(seat));
        base + self.bp_of(extra, &mut sit)
    }

    /// Free bids from the allies and Amour a player has in play.
    pub(crate) fn free_bids(&self, s: &State, seat: Seat) -> i64 {
        i64::from(s.player(seat).bids)
    }

    /// The test on a stage, if it is a test stage.
    pub(crate) fn test_of(&self, stage: &Counts) -> Option<Card> {
        let tests = stage.held() & self.masks[Kind::Test as usize];
        (tests != 0).then(|| tests.trailing_zeros() as Card)
    }

    pub(crate) fn has_foe(&self, stage: &Counts) -> bool {
        stage.held() & self.masks[Kind::Foe as usize] != 0
    }

    /// The printed minimum bid of a test in play (0: none printed).
    pub(crate) fn printed_min_bid(&self, s: &State, test: Card) -> i64 {
        let mut sit = self.situation(s, None);
        let counts = *sit.counts();
        self.min_bid.get(test, counts.as_slice())
    }

    /// The battle points the next foe stage must exceed: the last foe stage's before
    /// `stage` (`None` before the first foe stage).
    pub(crate) fn bar(&self, s: &State, stage: usize) -> Option<i64> {
        (0..stage)
            .rev()
            .find(|&i| self.has_foe(&s.quest.built[i]))
            .map(|i| self.stage_bp(s, i))
    }

    /// Tests laid out so far in this quest.
    pub(crate) fn tests_laid(&self, s: &State) -> u8 {
        s.quest.built[..usize::from(s.quest.stages)]
            .iter()
            .filter(|c| self.test_of(c).is_some())
            .count() as u8
    }

    /// Every adventure card's battle points for `owner` in the present situation.
    fn bp_table(&self, s: &State, owner: Seat) -> [i64; 64] {
        let mut sit = self.situation(s, Some(owner));
        let mut bp = [0i64; 64];
        for (t, slot) in bp.iter_mut().enumerate().take(self.adventure.len()) {
            *slot = sit.bp(t as Card);
        }
        bp
    }

    /// Can `seat` set up the quest in play with his hand?
    pub(crate) fn can_sponsor(&self, s: &State, seat: Seat) -> bool {
        let bp = self.bp_table(s, seat);
        let mut a = Arsenal::new(self, &s.player(seat).hand, &bp);
        a.rest(s.quest.stages, i64::MIN, self.n.tests_per_quest)
    }

    fn plan(&self, s: &State) -> Plan {
        let bp = self.bp_table(s, s.quest.sponsor);
        let i = usize::from(s.quest.stage);
        let mut plan = Plan {
            bp,
            stage: s.quest.built[i],
            left: s.quest.stages - s.quest.stage,
            prev: i64::MIN,
            tests: self.n.tests_per_quest,
        };
        for earlier in &s.quest.built[..i] {
            if self.test_of(earlier).is_some() {
                plan.tests = plan.tests.saturating_sub(1);
            } else if self.has_foe(earlier) {
                plan.prev = plan.bp_of(earlier);
            }
        }
        plan
    }

    /// With `a` (the sponsor's remaining cards) and the current stage holding `stage`, can
    /// the quest still be completed (the stage may still take weapons)?
    fn finishes(&self, plan: &Plan, a: &Arsenal, stage: &Counts) -> bool {
        let mut a = a.clone();
        if self.test_of(stage).is_some() {
            return plan.tests > 0 && a.rest(plan.left - 1, plan.prev, plan.tests - 1);
        }
        if !self.has_foe(stage) {
            return a.rest(plan.left, plan.prev, plan.tests);
        }
        let bp = plan.bp_of(stage);
        if bp > plan.prev {
            return a.rest(plan.left - 1, bp, plan.tests);
        }
        let on = a.on_stage(stage);
        let rest = plan.left - 1;
        a.tests = a.tests.min(plan.tests);
        let used_tests = a.tests.min(rest);
        a.lift(0, bp, i64::MAX, plan.prev, &on, rest - used_tests)
    }

    /// Whether the stage being built could be closed as it stands.
    fn closes(&self, plan: &Plan, a: &Arsenal) -> bool {
        let mut a = a.clone();
        if self.test_of(&plan.stage).is_some() {
            return a.rest(plan.left - 1, plan.prev, plan.tests.saturating_sub(1));
        }
        if !self.has_foe(&plan.stage) {
            return false;
        }
        let bp = plan.bp_of(&plan.stage);
        bp > plan.prev && a.rest(plan.left - 1, bp, plan.tests)
    }

    /// With the sponsor's `hand` and the current stage holding `stage`, can the quest still
    /// be completed?
    pub(crate) fn can_finish(&self, s: &State, hand: &Counts, stage: &Counts) -> bool {
        let plan = self.plan(s);
        let a = Arsenal::new(self, hand, &plan.bp);
        self.finishes(&plan, &a, stage)
    }

    /// Whether the set-up can still be completed after `seat` sacrifices `card` to remove
    /// `target`'s `ally` (which may change what the stages are worth).
    pub(crate) fn still_buildable(
        &self,
        s: &State,
        seat: Seat,
        card: Card,
        target: Seat,
        ally: Card,
    ) -> bool {
        let mut after = s.clone();
        after.player_mut(seat).hand.remove(card, 1);
        after.player_mut(target).allies.remove(ally, 1);
        self.refresh(&mut after);
        let i = usize::from(after.quest.stage);
        let increasing = (0..i).all(|j| {
            !self.has_foe(&after.quest.built[j])
                || self
                    .bar(&after, j)
                    .is_none_or(|prev| self.stage_bp(&after, j) > prev)
        });
        let hand = after.player(seat).hand;
        increasing && self.can_finish(&after, &hand, &after.quest.built[i])
    }

    /// The sponsor's choices for the stage being built, in a stable order: a foe or a test
    /// for an empty stage, then weapons for a foe, then `done`.
    pub(crate) fn build_options(&self, s: &State, out: &mut impl FnMut(super::Action)) {
        let plan = self.plan(s);
        let stage = plan.stage;
        let hand = s.player(s.quest.sponsor).hand;
        let all = Arsenal::new(self, &hand, &plan.bp);
        let lead = self.test_of(&stage).is_some() || self.has_foe(&stage);
        for (t, _) in hand.iter() {
            let fits = match self.kind[usize::from(t)] {
                Kind::Foe | Kind::Test => !lead,
                Kind::Weapon => self.has_foe(&stage) && stage.get(t) < self.n.weapon_copies,
                Kind::Ally | Kind::Amour => false,
            };
            if !fits {
                continue;
            }
            let rest = all.without(self, t, plan.bp[usize::from(t)]);
            let mut next = stage;
            next.add(t, 1);
            if self.finishes(&plan, &rest, &next) {
                out(super::Action::Add(t));
            }
        }
        if self.closes(&plan, &all) {
            out(super::Action::Done);
        }
    }
}

/// What is in play, seen from one player's cards; worked out on first use, since most
/// cards' values never depend on it.
pub(crate) struct Situation<'a> {
    q: &'a Quests,
    s: &'a State,
    owner: Option<Seat>,
    counts: Option<Counts>,
    /// The state's tables of values serve this owner.
    shared: bool,
}

impl Situation<'_> {
    pub(crate) fn counts(&mut self) -> &Counts {
        let (q, s, owner) = (self.q, self.s, self.owner);
        self.counts.get_or_insert_with(|| q.in_play(s, owner))
    }

    /// A card's battle points here.
    pub(crate) fn bp(&mut self, card: Card) -> i64 {
        let q = self.q;
        if self.shared {
            return i64::from(self.s.vals_bp[usize::from(card)]);
        }
        if q.bp.varies(card) {
            q.bp.get(card, self.counts().as_slice())
        } else {
            q.bp.base(card)
        }
    }
}

/// `values` summed over `cards`, looking at the situation only for cards whose value varies.
fn sum_of(values: &Situational, cards: &Counts, sit: &mut Situation<'_>, types: usize) -> i64 {
    let c = &cards.as_slice()[..types];
    let base = &values.bases()[..types];
    let mut total: i64 = c.iter().zip(base).map(|(&n, &v)| i64::from(n) * v).sum();
    let mut varying = values.varying();
    while varying != 0 {
        let t = varying.trailing_zeros() as usize;
        varying &= varying - 1;
        let n = c.get(t).copied().unwrap_or(0);
        if n > 0 {
            let counts = *sit.counts();
            total += i64::from(n) * (values.get(t as u8, counts.as_slice()) - base[t]);
        }
    }
    total
}

fn clamp(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

pub(crate) fn clamp16(v: i64) -> i16 {
    v.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16
}

/// Σ copies × value over the types `values` covers, visiting only the types held (hands,
/// stages and allies hold a few of the many types).
pub(crate) fn dot<T: Copy + Into<i64>>(cards: &Counts, values: &[T]) -> i64 {
    let covered = match values.len() {
        n if n >= 64 => u64::MAX,
        n => (1u64 << n) - 1,
    };
    cards
        .iter_among(covered)
        .map(|(t, n)| i64::from(n) * values[usize::from(t)].into())
        .sum()
}
