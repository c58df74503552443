//! Running the mechanics of [`super::mechanics`]: payments (listed by the engine's payment
//! solver, in its order), refilling stacks, revealing into rows, and the expressions that
//! read payments. Allocation-free: hands are counted into arrays on the stack.

use std::cell::Cell;

use grail_engine::cond::Program;
use grail_engine::cond::solve::{self, Payment};
use grail_engine::counts::Counts;
use grail_engine::game::EventSink;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::model::{Expr, Meets, NONE, Pay, ZoneRef};
use super::state::{Action, Event, MEMO_SEATS, Memo, State};

/// Card types per set are at most 64 (filters are 64-bit masks).
const TYPES: usize = 64;

/// What is worked out once per listing of an action's moves: the payer's cards counted by
/// type (when the state does not keep them), and the dearest argument they can pay when the
/// condition can say.
#[derive(Default)]
pub(super) struct Dearest {
    dearest: Cell<Option<Option<Option<i64>>>>,
    counts: Cell<Option<Counts>>,
    /// Whether the state's memo was made for the payer's cards.
    memo_fits: Cell<Option<bool>>,
}

impl Dearest {
    /// For a listing right after [`Rulebook::refresh_memo`] said the memo fits the payer's
    /// cards: the memo answers without counting them again.
    pub(super) fn after_refresh(memo_fits: bool) -> Dearest {
        Dearest {
            memo_fits: Cell::new(memo_fits.then_some(true)),
            ..Dearest::default()
        }
    }
}

/// The payer's cards by type: as the state keeps them, or counted.
pub(super) enum Hand<'s> {
    Kept(&'s Counts),
    Counted(Counts),
}

impl std::ops::Deref for Hand<'_> {
    type Target = Counts;
    #[inline]
    fn deref(&self) -> &Counts {
        match self {
            Hand::Kept(c) => c,
            Hand::Counted(c) => c,
        }
    }
}

impl Rulebook {
    /// The cards a zone reference covers by type (marked entries left out), and how many
    /// types its set has: kept in the state for the zones payments are made from.
    #[inline]
    pub(super) fn hand<'s>(&self, z: &ZoneRef, ctx: &Ctx<'s>) -> (Hand<'s>, usize) {
        let n = self.sets[self.zones[z.zone].set].cards.len().min(TYPES);
        match self.held(z, ctx) {
            Some(kept) => (Hand::Kept(kept), n),
            None => (Hand::Counted(self.count_hand(z, ctx)), n),
        }
    }

    #[inline(never)]
    fn count_hand(&self, z: &ZoneRef, ctx: &Ctx) -> Counts {
        let (counts, _) = self.counts(z, ctx);
        let mut hand = Counts::new();
        for (t, &k) in counts.iter().enumerate() {
            if k > 0 {
                hand.add(t as u8, k);
            }
        }
        hand
    }

    /// Per-type counts of the cards a zone reference covers.
    pub(super) fn counts(&self, z: &ZoneRef, ctx: &Ctx) -> ([u8; TYPES], usize) {
        let mut counts = [0u8; TYPES];
        for p in self.piles_of(z, ctx) {
            for &c in &ctx.state.piles[p] {
                // Marked entries (at or above 256) are not counted.
                if c < TYPES as u16 {
                    let n = &mut counts[usize::from(c)];
                    *n = n.saturating_add(1);
                }
            }
        }
        (counts, self.sets[self.zones[z.zone].set].cards.len())
    }

    pub(super) fn program_for(meets: &Meets, card: i32) -> Option<&Program> {
        match meets {
            Meets::Named { program, .. } => Some(program),
            Meets::Own { programs, .. } => usize::try_from(card)
                .ok()
                .and_then(|c| programs.get(c))
                .and_then(Option::as_ref),
        }
    }

    /// The payment's arguments for the card `card`.
    fn pay_args(&self, pay: &Pay, ctx: &Ctx) -> ([i64; 4], usize) {
        let mut args = [0i64; 4];
        for (slot, e) in args.iter_mut().zip(&pay.args) {
            *slot = self.eval(e, ctx);
        }
        (args, pay.args.len().min(4))
    }

    /// Whether the player to move can pay for action `a` with arguments `args`. Inlined
    /// where moves are listed: most cards are answered by what the listing knows already
    /// (a call each cost about as much as the answer).
    #[inline(always)]
    pub(super) fn payable(&self, state: &State, a: usize, args: Args, dearest: &Dearest) -> bool {
        let Some(pay) = &self.actions[a].pay else {
            return true;
        };
        // What is known for the whole listing answers without counting the hand again.
        if pay.from.row.is_none() {
            if self.memo_action == Some(a) && dearest.memo_fits.get() == Some(true) {
                let memo = &state.memo.own[usize::from(state.decider()).min(MEMO_SEATS - 1)];
                if let Some(met) = known_answer(memo, args.card()) {
                    return met;
                }
            }
            if let (
                Meets::Named {
                    ceiling: Some(_), ..
                },
                Some(Some(most)),
            ) = (&pay.meets, dearest.dearest.get())
            {
                let ctx = Ctx::current(state, args);
                return most.is_some_and(|most| self.first_arg(a, &pay.args[0], &ctx) <= most);
            }
        }
        self.payable_counted(state, a, pay, args, dearest)
    }

    /// [`Rulebook::payable`] when the payer's cards must be counted (once per listing).
    #[inline(never)]
    fn payable_counted(
        &self,
        state: &State,
        a: usize,
        pay: &Pay,
        binding: Args,
        dearest: &Dearest,
    ) -> bool {
        let ctx = Ctx::current(state, binding);
        let card = binding.card();
        let fixed = pay.from.row.is_none();
        let Some(program) = Self::program_for(&pay.meets, card) else {
            return false;
        };
        // The payer's zone does not depend on the card unless it names a row.
        let (hand, n) = match dearest.counts.get().filter(|_| fixed) {
            Some(c) => (
                Hand::Counted(c),
                self.sets[self.zones[pay.from.zone].set].cards.len(),
            ),
            None => {
                let (hand, n) = self.hand(&pay.from, &ctx);
                if let Hand::Counted(c) = hand {
                    dearest.counts.set(Some(c));
                }
                (hand, n)
            }
        };
        let counts = &hand.as_slice()[..n.min(TYPES)];
        if self.memo_action == Some(a) {
            let seat = usize::from(state.decider()).min(MEMO_SEATS - 1);
            let memo = &state.memo.own[seat];
            let fits = memo_fits(&state.memo, seat, &hand);
            dearest.memo_fits.set(Some(fits));
            if fits && let Some(met) = known_answer(memo, card) {
                return met;
            }
        }
        let (args, len) = self.pay_args(pay, &ctx);
        if let Meets::Named {
            ceiling: Some(ceiling),
            ..
        } = &pay.meets
        {
            let known = match dearest.dearest.get() {
                Some(d) => d,
                None => {
                    let d = ceiling.largest(program, counts, &[0]);
                    dearest.dearest.set(Some(d));
                    d
                }
            };
            if let Some(most) = known {
                return most.is_some_and(|most| args[0] <= most);
            }
        }
        solve::exists(program, counts, &args[..len])
    }

    /// Whether two actions pay from the same cards for the same named condition: what a
    /// listing works out for one (the payer's cards, the dearest argument) serves both.
    pub(super) fn same_payment(&self, a: usize, b: usize) -> bool {
        let (Some(x), Some(y)) = (&self.actions[a].pay, &self.actions[b].pay) else {
            return false;
        };
        let same_named = matches!(
            (&x.meets, &y.meets),
            (Meets::Named { source: s, .. }, Meets::Named { source: t, .. }) if s == t
        );
        same_named
            && x.from.zone == y.from.zone
            && x.from.who == y.from.who
            && x.from.row.is_none()
            && y.from.row.is_none()
    }

    /// Brings the player to move's memo up to date with his payer zone, for the cards of the
    /// memo action's zone; whether it now fits them.
    pub(super) fn refresh_memo(&self, state: &mut State) -> bool {
        let Some(a) = self.memo_action else {
            return false;
        };
        // Only where the step offers the action: the memo is read nowhere else.
        if !self
            .steps
            .get(usize::from(state.step))
            .is_some_and(|s| s.actions.contains(&a))
        {
            return false;
        }
        let (Some(pay), super::model::Param::Card(zone)) =
            (&self.actions[a].pay, &self.actions[a].param)
        else {
            return false;
        };
        let Meets::Own {
            programs, readers, ..
        } = &pay.meets
        else {
            return false;
        };
        let ctx = Ctx::current(state, Args::NONE);
        let (hand, n) = self.hand(&pay.from, &ctx);
        let hand = *hand;
        let seat = usize::from(state.decider()).min(MEMO_SEATS - 1);
        // The same hand: the answers known are right. A card the zone gained since (a quest
        // embarked on, the hand unchanged) has none: `payable` asks the solver for it.
        if memo_fits(&state.memo, seat, &hand) {
            return true;
        }
        let mut wanted = 0u64;
        for p in self.piles_of(zone, &ctx) {
            for &c in &state.piles[p] {
                wanted |= 1 << (c & 63);
            }
        }
        let counts = &hand.as_slice()[..n];
        state.memo.made[seat] = true;
        state.memo.own[seat].refresh(
            &hand,
            readers,
            |i| i < 64 && wanted & (1 << i) != 0,
            |i| {
                programs
                    .get(i)
                    .and_then(Option::as_ref)
                    .is_some_and(|p| solve::exists(p, counts, &[]))
            },
        );
        true
    }

    /// Calls `f` with each way to pay for the chosen action, in the solver's order.
    pub(super) fn payments(&self, state: &State, mut f: impl FnMut(&Payment)) {
        let Some((a, binding)) = state.pending else {
            return;
        };
        let Some(pay) = &self.actions[usize::from(a)].pay else {
            return;
        };
        let ctx = Ctx::current(state, binding);
        let Some(program) = Self::program_for(&pay.meets, binding.card()) else {
            return;
        };
        let (hand, n) = self.hand(&pay.from, &ctx);
        let (args, len) = self.pay_args(pay, &ctx);
        solve::payments(program, &hand.as_slice()[..n], &args[..len], |p| {
            f(p);
            true
        });
    }

    /// Moves the cards `action` pays, type by type, from the payer's zone to where payments
    /// go.
    pub(super) fn pay(
        &self,
        state: &mut State,
        action: &Action,
        events: &mut impl EventSink<Event>,
    ) {
        let Some((a, binding)) = state.pending else {
            return;
        };
        let Some(pay) = &self.actions[usize::from(a)].pay else {
            return;
        };
        let ctx = Ctx::current(state, binding);
        let from = self.piles_of(&pay.from, &ctx).start;
        let to = self.piles_of(&pay.to, &ctx).start;
        self.paid.each(&action.paid, |t, n| {
            for _ in 0..n {
                let t = t as u16;
                if let Some(i) = state.piles[from].iter().rposition(|&c| c == t) {
                    self.take_card(state, from, i);
                    let to = if pay.to.row.is_some() {
                        to
                    } else {
                        to + self.row_for(pay.to.zone, t)
                    };
                    self.put(state, to, t);
                    events.emit(|| Event::Moved {
                        card: t,
                        from: from as u32,
                        to: to as u32,
                    });
                }
            }
        });
    }

    /// "When the supply runs out, shuffle the discards as the new supply": a stack with a
    /// `refill` zone takes all of its cards, shuffled, when it is empty.
    pub(super) fn refill(
        &self,
        state: &mut State,
        pile: usize,
        events: &mut impl EventSink<Event>,
    ) {
        let Some(source) = self.zones[self.zone_of(pile)].refill else {
            return;
        };
        let source = self.pile(source, 0, 0);
        if !state.piles[pile].is_empty() || state.piles[source].is_empty() {
            return;
        }
        if !super::fault::spend(state.piles[source].len() as u64) {
            return;
        }
        state.rng.shuffle(&mut state.piles[source]);
        let cards = std::mem::take(&mut state.piles[source]);
        // The emptied stack's buffer goes to the source: nothing is allocated.
        state.piles[source] = std::mem::replace(&mut state.piles[pile], cards);
        // The stack refilled is face down, whatever it was when it ran out.
        state.face_up.turn(pile, false);
        self.recount_pile(state, pile);
        self.recount_pile(state, source);
        events.emit(|| Event::Shuffled { pile: pile as u32 });
    }

    /// `reveal Z into R until E`.
    pub(super) fn reveal(
        &self,
        state: &mut State,
        from: &ZoneRef,
        into: usize,
        until: &Expr,
        events: &mut impl EventSink<Event>,
    ) {
        let z = &self.zones[into];
        let by = &self.sets[z.set].values[z.by.unwrap_or(0)];
        loop {
            if !super::fault::spend(1) {
                return;
            }
            let ctx = Ctx::current(state, Args::NONE);
            let from = self.piles_of(from, &ctx).start;
            let Some(card) = self.pop_card(state, from) else {
                return;
            };
            let row = usize::try_from(by[usize::from(card)]).unwrap_or(0);
            let to = self.pile(into, 0, row);
            self.put(state, to, card);
            events.emit(|| Event::Moved {
                card,
                from: from as u32,
                to: to as u32,
            });
            let ctx = Ctx::current(state, Args::NONE);
            if self.eval(until, &ctx) != 0 {
                return;
            }
        }
    }

    /// The expressions of [`super::mechanics`].
    pub(super) fn eval_mechanic(&self, e: &Expr, ctx: &Ctx) -> i64 {
        match e {
            Expr::Fullest(z) => self
                .piles_of(z, ctx)
                .map(|p| ctx.state.piles[p].len() as i64)
                .max()
                .unwrap_or(0),
            Expr::If(c, a, b) => {
                if self.operand(c, ctx) != 0 {
                    self.operand(a, ctx)
                } else {
                    self.operand(b, ctx)
                }
            }
            Expr::Best { zone, body } => {
                super::eval::best_over(ctx, self.piles_of(zone, ctx), |on| self.eval(body, on))
            }
            Expr::Cheapest {
                meets,
                card,
                from,
                cost,
            } => {
                let card = card.as_ref().map_or(-1, |c| self.eval(c, ctx) as i32);
                let Some(program) = Self::program_for(meets, card) else {
                    return NONE;
                };
                let (hand, n) = self.hand(from, ctx);
                let counts = &hand.as_slice()[..n];
                if !solve::exists(program, counts, &[]) {
                    return NONE;
                }
                solve::cheapest(program, counts, &[], cost).map_or(NONE, |(c, _)| c)
            }
            Expr::Paying(a) => i64::from(
                ctx.player == usize::from(ctx.state.decider())
                    && ctx.state.pending.is_some_and(|(p, _)| usize::from(p) == *a),
            ),
            _ => self.eval_mark(e, ctx),
        }
    }
}

/// The memo's answer for a card, when it knows one for the hand it was made for: a card
/// the zone gained since (the hand unchanged) has none yet, and is asked of the solver.
#[inline]
fn known_answer(memo: &grail_engine::cond::affordable::Affordable, card: i32) -> Option<bool> {
    let c = usize::try_from(card).ok().filter(|&c| c < 64)?;
    memo.knows(1 << c).then(|| memo.met(c))
}

/// Whether a memo was brought up to date for exactly this hand.
fn memo_fits(memo: &Memo, seat: usize, hand: &Counts) -> bool {
    memo.made[seat] && memo.own[seat].hand() == hand
}
