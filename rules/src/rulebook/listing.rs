//! Listing the legal moves of the step the state is at: each action's bindings whose guard
//! holds, and the payments of an action chosen.

use grail_engine::cond::solve::Payment;
use grail_engine::ring::Ring;

use super::Rulebook;
use super::args::Args;
use super::card_tables::PerBinding;
use super::eval::Ctx;
use super::listed::Out;
use super::model::{CounterExpr, Expr, Param};
use super::payment::Dearest;
use super::state::{Action, PASS, Seen, State};
use super::syntax::Op;

impl Rulebook {
    /// Calls `f` with every binding of action `a` whose guard holds, in zone order.
    pub(super) fn bindings(&self, state: &State, a: usize, f: impl FnMut(Args) -> bool) {
        self.bindings_with(state, a, &Dearest::default(), f);
    }

    /// [`Rulebook::bindings`] with what is known of the payer's cards.
    fn bindings_with(
        &self,
        state: &State,
        a: usize,
        dearest: &Dearest,
        mut f: impl FnMut(Args) -> bool,
    ) {
        let action = &self.actions[a];
        // The seat deciding, once for every binding.
        let decider = usize::from(state.decider());
        // The guard as it reads at this step (`step_guards.rs`).
        let guard = (self.step_guard(state.step, a).map(|at| &at.expr))
            .or(action.guard.as_ref().map(|g| &g.expr));
        let holds = |args: Args| {
            guard.is_none_or(|g| {
                let ctx = Ctx {
                    state,
                    player: decider,
                    args,
                };
                self.eval(g, &ctx) != 0
            }) && self.payable(state, a, args, dearest)
        };
        match &action.param {
            Param::None => {
                // The `step(…)` conjuncts the state's step makes true are not asked again.
                let guard = action
                    .guard
                    .as_ref()
                    .map(|g| after_steps(&g.expr, state.step));
                let ctx = Ctx {
                    state,
                    player: decider,
                    args: Args::NONE,
                };
                if guard.is_none_or(|g| g.is_some_and(|g| self.operand(g, &ctx) != 0))
                    && self.payable(state, a, Args::NONE, dearest)
                {
                    f(Args::NONE);
                }
            }
            Param::Card(z) => {
                // The part of the guard that reads no card is asked once.
                let (free, per_card) = self.card_guard(state, a);
                if !free {
                    return;
                }
                let ctx = Ctx::current(state, Args::NONE);
                for p in self.piles_of(z, &ctx) {
                    for c in Seen::distinct(&state.piles[p]) {
                        let card = i32::from(c);
                        if self.admits(state, a, card, per_card, dearest) && !f(Args::of_card(c)) {
                            return;
                        }
                    }
                }
            }
            Param::Figure { refs, steps } => {
                // The part of the guard that reads no figure is asked once.
                let Some(rest) = self.binding_guard(state, a) else {
                    return;
                };
                self.figure_bindings(state, refs, steps, |args| {
                    !(self.binding_holds(state, a, rest, args)
                        && self.payable(state, a, Args::NONE, dearest))
                        || f(args)
                });
            }
            p @ Param::CardFigure { .. } => {
                self.card_figure_bindings(state, p, |args| !holds(args) || f(args));
            }
            Param::Seat => {
                let Some(rest) = self.binding_guard(state, a) else {
                    return;
                };
                // What it costs does not depend on the seat: asked once.
                if !self.payable(state, a, Args::NONE, dearest) {
                    return;
                }
                let seats = self.board.as_ref().map_or(0, |b| b.seats);
                if rest == PerBinding::FreeSeat {
                    // `empty(seat)` alone: the ring's free seats, read in place.
                    let Some(figures) = &state.figures.0 else {
                        return;
                    };
                    for s in self.free_seats(&figures.ring) {
                        if !f(Args::of_place(s)) {
                            return;
                        }
                    }
                    return;
                }
                for s in 0..seats {
                    let seat = Args::of_place(s);
                    if self.binding_holds(state, a, rest, seat) && !f(seat) {
                        return;
                    }
                }
            }
            Param::Number { low, high } => {
                for n in *low..=*high {
                    let number = Args::of_number(n);
                    if holds(number) && !f(number) {
                        return;
                    }
                }
            }
            Param::Player(set) => {
                // The players as the seat deciding sees them: from itself, or from the next.
                for p in Self::seats_from(*set, decider, state.players) {
                    let player = Args::of_player(p);
                    if holds(player) && !f(player) {
                        return;
                    }
                }
            }
            Param::PlayerCard { set, card } => {
                // Player by player, from the seat deciding; each one's cards in zone order.
                for p in Self::seats_from(*set, decider, state.players) {
                    let player = Args::of_player(p);
                    let ctx = Ctx {
                        state,
                        player: decider,
                        args: player,
                    };
                    for pile in self.piles_of(card, &ctx) {
                        for c in Seen::distinct(&state.piles[pile]) {
                            let args = player.with_card(c);
                            if holds(args) && !f(args) {
                                return;
                            }
                        }
                    }
                }
            }
            Param::Row { zone, who } => {
                let seat = self.seat_of(
                    *who,
                    &Ctx {
                        state,
                        player: 0,
                        args: Args::NONE,
                    },
                );
                for r in 0..self.zones[*zone].rows {
                    if !state.piles[self.pile(*zone, seat, r)].is_empty()
                        && holds(Args::of_place(r))
                        && !f(Args::of_place(r))
                    {
                        return;
                    }
                }
            }
        }
    }

    /// The moves of action `a` ([`Rulebook::takes_a_free_seat`]) to the free seats of the
    /// ring, in seat order, as [`Rulebook::bindings_with`] lists them, written in one
    /// `extend` (the list's length kept in a register, not stored back move by move).
    fn free_seat_moves(&self, state: &State, a: usize, dearest: &Dearest, out: &mut Out) {
        if self.binding_guard(state, a).is_none() || !self.payable(state, a, Args::NONE, dearest) {
            return;
        }
        let Some(figures) = &state.figures.0 else {
            return;
        };
        let free = self.free_seats(&figures.ring);
        out.moves
            .extend(free.map(|s| Action::new(a as u16, Args::of_place(s))));
    }

    /// The free seats of a game's ring in seat order.
    #[inline(always)]
    fn free_seats<'r>(&self, ring: &'r Ring) -> impl Iterator<Item = usize> + 'r {
        let seats = self.board.as_ref().map_or(0, |b| b.seats);
        let seats = seats.min(usize::from(u8::MAX)) as u8;
        (0..seats).filter(|&s| ring.is_free(s)).map(usize::from)
    }

    /// The moves of the step the state is at (a payment's, when one is awaited);
    /// `memo_fits`: the state's memo was just made for the payer's cards.
    #[cfg(test)]
    pub(super) fn list(&self, state: &State, out: &mut Vec<Action>, memo_fits: bool) {
        let mut written = Out::written(std::mem::take(out));
        self.list_into(state, &mut written, memo_fits);
        *out = written.moves;
    }

    /// [`Rulebook::list`] into `out`, which may keep a card table's runs.
    pub(super) fn list_into(&self, state: &State, out: &mut Out, memo_fits: bool) {
        out.clear();
        let Some(step) = self.steps.get(usize::from(state.step)) else {
            return;
        };
        if state.pending.is_some() {
            let mut push = |p: &Payment| out.push(Action::paying(self.paid.paid(p)));
            self.payments(state, &mut push);
            self.choices(state, &mut push);
            return;
        }
        if step.by_card {
            self.by_card(state, step, out, memo_fits);
        } else {
            let plain = (self.derived.plain_guards.get(usize::from(state.step)))
                .map_or(&[][..], |p| &p[..]);
            for (i, &a) in step.actions.iter().enumerate() {
                if let Some(Some(guard)) = plain.get(i) {
                    if self.plain_holds(state, a, guard)
                        && (self.actions[a].pay.is_none()
                            || self.payable(
                                state,
                                a,
                                Args::NONE,
                                &Dearest::after_refresh(memo_fits),
                            ))
                    {
                        out.push(Action::new(a as u16, Args::NONE));
                    }
                    continue;
                }
                let dearest = Dearest::after_refresh(memo_fits);
                if self.takes_a_free_seat(a) {
                    self.free_seat_moves(state, a, &dearest, out);
                    continue;
                }
                self.bindings_with(state, a, &dearest, |args| {
                    out.push(Action::new(a as u16, args));
                    true
                });
            }
        }
        if step.optional && !out.is_empty() {
            out.push(Action::new(PASS, Args::NONE));
        }
    }
}

/// What is left to ask of a guard at `step` once its leading `step(…)` conjuncts are
/// answered: `None` when one of them is false (the guard is), else the rest of the chain.
fn after_steps(guard: &Expr, step: u8) -> Option<&Expr> {
    let at = |mask: u64| step < 64 && mask & (1 << step) != 0;
    match guard.spine() {
        Expr::Counter(CounterExpr::AtStep(mask)) if !at(*mask) => None,
        Expr::Bin(Op::And, l, r) => match l.spine() {
            Expr::Counter(CounterExpr::AtStep(mask)) => at(*mask).then(|| after_steps(r, step))?,
            _ => Some(guard),
        },
        _ => Some(guard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(mask: u64) -> Expr {
        Expr::Counter(CounterExpr::AtStep(mask))
    }

    #[test]
    fn a_guard_keeps_only_what_its_step_leaves_to_ask() {
        let rest = || Expr::Bin(Op::Gt, Box::new(Expr::Const(3)), Box::new(Expr::Const(0)));
        let guard = Expr::Bin(Op::And, Box::new(at(0b10)), Box::new(rest()));
        // At step 1 only the count is left; at step 0 the guard is false.
        assert!(matches!(
            after_steps(&guard, 1),
            Some(Expr::Bin(Op::Gt, ..))
        ));
        assert!(after_steps(&guard, 0).is_none());
        assert!(after_steps(&at(0b10), 0).is_none());
        // A guard not led by a step is asked whole.
        let plain = rest();
        assert!(std::ptr::eq(after_steps(&plain, 0).unwrap(), &plain));
    }
}
