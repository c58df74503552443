//! Evaluating a compiled expression over a state (`operand`, `eval`, and the binary
//! operators); what it is evaluated for is a [`Ctx`]. A new expression function's meaning
//! goes in [`Rulebook::eval_more`] (or its family's dispatch: counters, the ring, marks,
//! mechanics).

use super::Rulebook;
use super::args::Args;
use super::model::{CounterExpr, CounterRef, Expr, FigureExpr, NONE, TYPE_MASK, Who, ZoneRef};
use super::state::State;
use super::syntax::Op;

/// What an expression is evaluated for.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'s> {
    pub state: &'s State,
    pub player: usize,
    /// The move's arguments: what `card`, `row`, `seat`, `target`, `figure` and `steps` read.
    pub args: Args,
}

impl<'s> Ctx<'s> {
    /// The seat deciding asking, about `args`.
    #[inline(always)]
    pub(super) fn current(state: &'s State, args: Args) -> Self {
        Ctx {
            state,
            player: usize::from(state.decider()),
            args,
        }
    }
}

impl Rulebook {
    /// [`Rulebook::eval`] with the commonest leaves answered in place, and a comparison or
    /// sum of two of them (`count(Z) > 0`, `value(card) * $factor`): most guards, ends and
    /// payment arguments are made of these, not worth a call each.
    #[inline(always)]
    pub(super) fn operand(&self, e: &Expr, ctx: &Ctx) -> i64 {
        // An operator is never a leaf: not asked as one (a dispatch less per node).
        if !matches!(e, Expr::Bin(..)) {
            return self.leaf(e, ctx).unwrap_or_else(|| self.eval(e, ctx));
        }
        if let Expr::Bin(op, l, r) = e
            && let Some(a) = self.leaf(l, ctx)
        {
            if let Some(v) = decided(*op, a) {
                return v;
            }
            let b = match self.leaf(r, ctx) {
                Some(b) => b,
                None => self.eval(r, ctx),
            };
            return binary(*op, a, b);
        }
        self.eval(e, ctx)
    }

    /// `count(Z)` of a whole zone (no row): the cards in all its piles.
    #[inline(always)]
    fn whole_count(&self, z: &ZoneRef, ctx: &Ctx) -> i64 {
        count_cards(ctx.state, self.piles_of(z, ctx))
    }

    /// `sum(attr, Z)`: the attribute over the zone's cards.
    #[inline(never)]
    fn sum_of(&self, attr: usize, zone: &ZoneRef, ctx: &Ctx) -> i64 {
        let values = &self.sets[self.zones[zone.zone].set].values[attr];
        sum_values(ctx.state, self.piles_of(zone, ctx), values)
    }

    /// `fullest(Z)` of a whole zone (no row): the cards in its fullest pile.
    #[inline(always)]
    fn whole_fullest(&self, z: &ZoneRef, ctx: &Ctx) -> i64 {
        let p = self.piles_of(z, ctx);
        ctx.state.piles[p]
            .iter()
            .map(|c| c.len() as i64)
            .max()
            .unwrap_or(0)
    }

    /// The value of a leaf read in place: a number, the card parameter, `done`, a whole
    /// zone's count or fullest pile, an attribute of the card; `None` for anything else.
    #[inline(always)]
    fn leaf(&self, e: &Expr, ctx: &Ctx) -> Option<i64> {
        Some(match e {
            Expr::Const(v) => *v,
            Expr::Card => i64::from(ctx.args.card()),
            Expr::Done(a) => i64::from(ctx.state.done & (1 << a) != 0),
            // `step(x)`: the first conjunct of most guards.
            Expr::Counter(CounterExpr::AtStep(mask)) => {
                i64::from(ctx.state.step < 64 && mask & (1 << ctx.state.step) != 0)
            }
            // A counter of the table's or of `P`'s: `questing(P) = 1`, `high > 0`.
            Expr::Counter(CounterExpr::Read(CounterRef::Table(c))) => {
                ctx.state.counts.0[self.counter_slot(ctx.state, *c, 0)]
            }
            Expr::Counter(CounterExpr::Read(CounterRef::Seat(c, Who::Player))) => {
                ctx.state.counts.0[self.counter_slot(ctx.state, *c, ctx.player)]
            }
            // `count(Z)`: most guards and ends.
            Expr::Count(z) if z.row.is_none() => self.whole_count(z, ctx),
            // `sum(attr, Z) > 0` and a part kept (`bar`) without a dispatch more.
            Expr::Sum { attr, zone } => self.sum_of(*attr, zone, ctx),
            Expr::Memo(slot, part) => self.memoized(*slot, &part.0, ctx),
            Expr::Fullest(z) if z.row.is_none() => self.whole_fullest(z, ctx),
            // `figure` and `steps`: most effects on the ring (0 without one, as
            // [`Rulebook::eval_figures`] gives them).
            Expr::Figures(FigureExpr::ParamFigure) if self.board.is_some() => ctx
                .state
                .figures
                .0
                .as_ref()
                .map_or(0, |_| i64::from(ctx.args.figure())),
            Expr::Figures(FigureExpr::ParamSteps) if self.board.is_some() => ctx
                .state
                .figures
                .0
                .as_ref()
                .map_or(0, |_| i64::from(ctx.args.steps())),
            // `value(card)`: most payment arguments.
            Expr::Attr { set, attr, card } if matches!(**card, Expr::Card) => {
                let c = i64::from(ctx.args.card()) & i64::from(TYPE_MASK);
                self.sets[*set].values[*attr]
                    .get(c as usize)
                    .copied()
                    .unwrap_or(0)
            }
            _ => return None,
        })
    }

    /// The arms most guards, counts and payment arguments are made of are answered here;
    /// the rest go to [`Rulebook::eval_more`], kept out of line so this dispatch stays small
    /// (it runs for every node of every guard of every listing).
    pub(super) fn eval(&self, e: &Expr, ctx: &Ctx) -> i64 {
        match e {
            Expr::Const(v) => *v,
            Expr::Card => i64::from(ctx.args.card()),
            Expr::Done(a) => i64::from(ctx.state.done & (1 << a) != 0),
            Expr::Attr { set, attr, card } => {
                // A marked card is its type with the mark above it.
                let c = self.operand(card, ctx) & i64::from(TYPE_MASK);
                usize::try_from(c)
                    .ok()
                    .and_then(|c| self.sets[*set].values[*attr].get(c))
                    .copied()
                    .unwrap_or(0)
            }
            Expr::Count(z) if z.row.is_none() => self.whole_count(z, ctx),
            Expr::Fullest(z) if z.row.is_none() => self.whole_fullest(z, ctx),
            Expr::Not(inner) => i64::from(self.operand(inner, ctx) == 0),
            // The guards of actions on marked cards, asked card by card.
            Expr::Marked(_) | Expr::Mine(_) | Expr::Marks(_) => self.eval_mark(e, ctx),
            Expr::Bin(op, l, r) => {
                let a = self.operand(l, ctx);
                if let Some(v) = decided(*op, a) {
                    return v;
                }
                let b = self.operand(r, ctx);
                binary(*op, a, b)
            }
            // The ring and the counters straight to their own dispatch, not through
            // `eval_more`'s: a call less per node.
            Expr::Figures(f) => self.eval_figures(f, ctx),
            Expr::Counter(c) => self.eval_counter(c, ctx),
            Expr::If(..) | Expr::Best { .. } => self.eval_mechanic(e, ctx),
            Expr::Situational(s) => self.situational(s, ctx),
            Expr::Seat(seat) => self.eval_seat(seat, ctx),
            Expr::Fast(f) => self.codes.run(f, self, ctx),
            _ => self.eval_more(e, ctx),
        }
    }

    #[inline(never)]
    fn eval_more(&self, e: &Expr, ctx: &Ctx) -> i64 {
        let set_of = |z: &ZoneRef| self.zones[z.zone].set;
        match e {
            Expr::Const(_)
            | Expr::Card
            | Expr::Done(_)
            | Expr::Attr { .. }
            | Expr::Not(_)
            | Expr::Marked(_)
            | Expr::Mine(_)
            | Expr::Marks(_)
            | Expr::Bin(..)
            | Expr::Fast(_) => self.eval(e, ctx),
            Expr::Row => i64::from(ctx.args.place()),
            Expr::Target => i64::from(ctx.args.player()),
            Expr::Situational(s) => self.situational(s, ctx),
            Expr::ActionCard(a) => {
                if let Some((p, args)) = ctx.state.pending
                    && usize::from(p) == *a
                {
                    i64::from(args.kept())
                } else if ctx.state.done & (1 << a) == 0 {
                    -1
                } else {
                    i64::from(ctx.state.args[*a])
                }
            }
            Expr::Count(z) => self
                .piles_of(z, ctx)
                .map(|p| ctx.state.piles[p].len() as i64)
                .sum(),
            Expr::Sum { attr, zone } => self.sum_of(*attr, zone, ctx),
            Expr::Last { attr, zone } => {
                let values = &self.sets[set_of(zone)].values[*attr];
                last_value(ctx.state, self.piles_of(zone, ctx), values)
            }
            Expr::TopCard(zone) => self
                .piles_of(zone, ctx)
                .filter_map(|p| ctx.state.piles[p].last())
                .next_back()
                .map_or(-1, |&c| i64::from(c)),
            Expr::NonEmpty(z) => self
                .piles_of(z, ctx)
                .filter(|&p| !ctx.state.piles[p].is_empty())
                .count() as i64,
            Expr::Figures(f) => self.eval_figures(f, ctx),
            Expr::Counter(c) => self.eval_counter(c, ctx),
            Expr::Seat(seat) => self.eval_seat(seat, ctx),
            Expr::Top { k, attr, zone } => {
                let k = self.operand(k, ctx);
                let values = &self.sets[set_of(zone)].values[*attr];
                let cards = self
                    .piles_of(zone, ctx)
                    .flat_map(|p| ctx.state.piles[p].iter())
                    .map(|&c| values[usize::from(c & TYPE_MASK)]);
                top_sum(k, cards)
            }
            Expr::Rising(r) => self.eval_rising(r, ctx),
            Expr::Memo(slot, part) => self.memoized(*slot, &part.0, ctx),
            Expr::Fullest(_)
            | Expr::If(..)
            | Expr::Best { .. }
            | Expr::Cheapest { .. }
            | Expr::Paying(_) => self.eval_mechanic(e, ctx),
        }
    }

    /// A part kept per decision (`memo.rs`): read again if kept, else evaluated and kept
    /// (not when it faulted: the fault is the move's, and is raised again).
    #[inline(never)]
    fn memoized(&self, slot: u32, part: &Expr, ctx: &Ctx) -> i64 {
        if let Some(v) = super::memo::recall(ctx.state, slot, ctx.player) {
            return v;
        }
        let v = self.eval(part, ctx);
        if !super::fault::failed() {
            super::memo::keep(ctx.state, slot, ctx.player, v);
        }
        v
    }
}

/// The meanings the tree walk and the closures (`fast.rs`) share: one place for each.
///
/// `count(Z)`: the cards of the zone's piles.
#[inline(always)]
pub(super) fn count_cards(state: &State, piles: std::ops::Range<usize>) -> i64 {
    state.piles[piles].iter().map(|c| c.len() as i64).sum()
}

/// `sum(attr, Z)`: the attribute's values (by type) over the cards of the zone's piles.
#[inline(always)]
pub(super) fn sum_values(state: &State, piles: std::ops::Range<usize>, values: &[i64]) -> i64 {
    let mut sum = 0;
    for p in piles {
        for &c in &state.piles[p] {
            sum += values[usize::from(c & TYPE_MASK)];
        }
    }
    sum
}

/// `last(attr, Z)`: the attribute of the last card of the last pile holding one; 0 when
/// the zone is empty.
#[inline(always)]
pub(super) fn last_value(state: &State, piles: std::ops::Range<usize>, values: &[i64]) -> i64 {
    (piles.rev())
        .find_map(|p| state.piles[p].last())
        .map_or(0, |&c| values[usize::from(c & TYPE_MASK)])
}

/// `best(Z, e)`: the largest `e` over the distinct cards of the zone's piles (each bound to
/// `card`), skipping those where it is undefined; 0 when there is none or all are below 0.
#[inline(always)]
pub(super) fn best_over(
    ctx: &Ctx,
    piles: std::ops::Range<usize>,
    mut body: impl FnMut(&Ctx) -> i64,
) -> i64 {
    let mut best = 0;
    for p in piles {
        for c in super::state::Seen::distinct(&ctx.state.piles[p]) {
            let v = body(&Ctx {
                args: Args::of_card(c),
                ..*ctx
            });
            if v != NONE {
                best = best.max(v);
            }
        }
    }
    best
}

/// `each(e)`, and `others(e)` (every seat but `P`): `e` summed over the seats, `P` bound
/// to each in seat order; leaving the range of a pack's numbers fails the move.
#[inline(always)]
pub(super) fn over_seats(ctx: &Ctx, others: bool, mut f: impl FnMut(&Ctx) -> i64) -> i64 {
    let mut sum = 0i64;
    for q in 0..usize::from(ctx.state.players) {
        if others && q == ctx.player {
            continue;
        }
        let v = f(&Ctx { player: q, ..*ctx });
        sum = super::fault::in_range(sum.checked_add(v), "+", sum, v);
    }
    sum
}

/// `odds(x, spread)`: the logistic chance in thousandths; a spread of 0 fails the move.
#[inline(always)]
pub(super) fn odds(x: i64, spread: i64) -> i64 {
    if spread == 0 {
        return super::fault::divide("odds", x, spread);
    }
    i64::from(grail_engine::odds::logistic_permille(x, spread))
}

/// What `a op …` is whatever its right side, when the left decides: `and` and `or` do not
/// read their right side then.
#[inline(always)]
pub(super) fn decided(op: Op, a: i64) -> Option<i64> {
    match op {
        Op::And if a == 0 => Some(0),
        Op::Or if a != 0 => Some(1),
        _ => None,
    }
}

/// A binary operator on two evaluated sides (`and`/`or` once the left did not decide):
/// arithmetic keeps an undefined side ([`NONE`]) undefined.
#[inline(always)]
pub(super) fn binary(op: Op, a: i64, b: i64) -> i64 {
    match op {
        Op::And | Op::Or => i64::from(b != 0),
        Op::Eq => i64::from(a == b),
        Op::Ne => i64::from(a != b),
        Op::Lt => i64::from(a < b),
        Op::Le => i64::from(a <= b),
        Op::Gt => i64::from(a > b),
        Op::Ge => i64::from(a >= b),
        Op::Add | Op::Sub | Op::Mul => arithmetic(op, a, b),
        // Only a worth divides, in real numbers (`worth.rs`); never reached.
        Op::Div => a.checked_div(b).unwrap_or(NONE),
    }
}

/// `+ - *`: an undefined side ([`NONE`]) keeps the result undefined; leaving the range of a
/// pack's numbers fails the move (`fault.rs`).
#[inline(always)]
fn arithmetic(op: Op, a: i64, b: i64) -> i64 {
    if a == NONE || b == NONE {
        return NONE;
    }
    match op {
        Op::Add => super::fault::in_range(a.checked_add(b), "+", a, b),
        Op::Sub => super::fault::in_range(a.checked_sub(b), "-", a, b),
        _ => super::fault::in_range(a.checked_mul(b), "*", a, b),
    }
}

/// The sum of the `k` highest of `values` (all when there are fewer; none when `k` is 0 or
/// less): `top(k, attr, Z)`. Kept in a buffer on the stack for a zone of up to 64 cards.
fn top_sum(k: i64, values: impl Iterator<Item = i64>) -> i64 {
    let Ok(k) = usize::try_from(k) else {
        return 0;
    };
    if k == 0 {
        return 0;
    }
    let mut few = [0i64; 64];
    let mut n = 0;
    let mut more = Vec::new();
    for v in values {
        match few.get_mut(n) {
            Some(slot) => *slot = v,
            None => more.push(v),
        }
        n += 1;
    }
    let all: &mut [i64] = if more.is_empty() {
        &mut few[..n]
    } else {
        more.extend_from_slice(&few);
        &mut more
    };
    if k < all.len() {
        all.select_nth_unstable_by(k - 1, |a, b| b.cmp(a));
    }
    all[..k.min(all.len())]
        .iter()
        .fold(0i64, |s, &v| s.saturating_add(v))
}

#[cfg(test)]
mod tests {
    use super::top_sum;

    /// The k highest, whatever their order; all when fewer; none for k of 0 or less; past
    /// 64 values too.
    #[test]
    fn top_sums_the_k_highest() {
        assert_eq!(top_sum(2, [3, 9, 1, 5].into_iter()), 14);
        assert_eq!(top_sum(3, [3, 9, 1, 5].into_iter()), 17);
        assert_eq!(top_sum(9, [3, 9].into_iter()), 12);
        assert_eq!(top_sum(0, [3, 9].into_iter()), 0);
        assert_eq!(top_sum(-1, [3, 9].into_iter()), 0);
        assert_eq!(top_sum(1, [-3, -9].into_iter()), -3);
        assert_eq!(top_sum(2, 0..100), 99 + 98);
        assert_eq!(top_sum(1, std::iter::empty()), 0);
    }
}
