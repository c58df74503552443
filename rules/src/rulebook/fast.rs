//! Expressions compiled to closures: the last stage of compiling. A tree walk pays a
//! dispatch over every kind of expression at every node, and a large recursive function's
//! entry; a closure per node knows its kind when it is made, and reads its zone's piles, its
//! counter's slot and its attribute's values from numbers worked out once. The guards,
//! standing windows and `keep` conditions (the parts a listing asks for every card and every
//! move tried), the steps' and stages' conditions, the effects' numbers, the end and the
//! score are wrapped ([`Expr::Fast`]) below their `and`/`or` spine, which the listings split
//! by conjunct; a leaf stays as it is (`operand` reads it in place). What has no closure of
//! its own here is evaluated as before, by `eval`; the bot's worth is not compiled yet.
//!
//! A closure gives what [`Rulebook::eval`] gives for the same expression, on every state: the
//! same operators (`binary`, `decided`), the same kept parts (`memo.rs`), the same faults.

use std::sync::Arc;

use super::Rulebook;
use super::card_fold;
use super::eval::{
    Ctx, best_over, binary, count_cards, decided, last_value, odds, over_seats, sum_values,
};
use super::memo;
use super::model::{Compiled, CounterExpr, CounterRef, Expr, TYPE_MASK, Who, ZoneRef};
use super::syntax::Op;
use super::worth::Worth;

/// An expression's closure: its value for a context.
pub(super) type Code = Arc<dyn Fn(&Rulebook, &Ctx) -> i64 + Send + Sync>;

/// The rulebook's closures, by number ([`Compiled::code`]).
#[derive(Default)]
pub(super) struct Codes(Vec<Code>);

impl std::fmt::Debug for Codes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} closures", self.0.len())
    }
}

impl Codes {
    /// The value of the compiled expression `c`.
    #[inline(always)]
    pub(super) fn run(&self, c: &Compiled, rb: &Rulebook, ctx: &Ctx) -> i64 {
        match self.0.get(c.code as usize) {
            Some(code) => code(rb, ctx),
            None => rb.eval(&c.expr, ctx),
        }
    }
}

/// Whose piles a zone reference reads.
#[derive(Clone)]
enum Whose {
    /// The player `P`.
    Player,
    /// The player to move.
    Current,
    /// The seat a seat expression names.
    Named(Code),
}

/// The piles a whole zone (no row) covers, as numbers: its first pile, how many rows, and
/// whose block it is in.
#[derive(Clone)]
struct Piles {
    first: usize,
    rows: usize,
    /// The seat block's size when the zone is a seat's (`None`: the table's).
    per_seat: Option<usize>,
    whose: Whose,
}

impl Piles {
    #[inline(always)]
    fn range(&self, rb: &Rulebook, ctx: &Ctx) -> std::ops::Range<usize> {
        let p = match self.per_seat {
            None => self.first,
            Some(size) => self.first + self.whose.seat(rb, ctx) * size,
        };
        p..p + self.rows
    }
}

impl Whose {
    #[inline(always)]
    fn seat(&self, rb: &Rulebook, ctx: &Ctx) -> usize {
        match self {
            Whose::Player => ctx.player,
            Whose::Current => usize::from(ctx.state.current),
            Whose::Named(seat) => super::fault::seat(seat(rb, ctx), ctx.state.players),
        }
    }
}

/// A leaf read in place by the closure of the comparison or sum it is in (no call of its
/// own): one type per kind, so each such closure is made for its kind.
trait Read: Send + Sync + 'static {
    fn get(&self, rb: &Rulebook, ctx: &Ctx) -> i64;
}

/// A counter of the table's: its slot.
struct TableCounter(usize);
/// A counter of `P`'s: its first slot, and the stride between seats.
struct PlayerCounter(usize, usize);
/// `count(Z)` of a whole zone.
struct CountOf(Piles);
/// `sum(attr, Z)` of a whole zone: the attribute's values by type.
struct SumOf(Piles, Box<[i64]>);
/// `step(…)`: a mask of steps.
struct AtStep(u64);

impl Read for TableCounter {
    #[inline(always)]
    fn get(&self, _: &Rulebook, ctx: &Ctx) -> i64 {
        ctx.state.counts.0[self.0]
    }
}

impl Read for PlayerCounter {
    #[inline(always)]
    fn get(&self, _: &Rulebook, ctx: &Ctx) -> i64 {
        let seat = ctx
            .player
            .min(usize::from(ctx.state.players).saturating_sub(1));
        ctx.state.counts.0[self.0 + seat * self.1]
    }
}

impl Read for CountOf {
    #[inline(always)]
    fn get(&self, rb: &Rulebook, ctx: &Ctx) -> i64 {
        count_cards(ctx.state, self.0.range(rb, ctx))
    }
}

impl Read for SumOf {
    #[inline(always)]
    fn get(&self, rb: &Rulebook, ctx: &Ctx) -> i64 {
        sum_values(ctx.state, self.0.range(rb, ctx), &self.1)
    }
}

impl Read for AtStep {
    #[inline(always)]
    fn get(&self, _: &Rulebook, ctx: &Ctx) -> i64 {
        i64::from(ctx.state.step < 64 && self.0 & (1 << ctx.state.step) != 0)
    }
}

/// The closure of a leaf read alone.
fn alone<R: Read>(r: R) -> Code {
    Arc::new(move |rb, ctx| r.get(rb, ctx))
}

/// The closure of `read op k`, a comparison with a number.
fn compared<R: Read>(r: R, op: Op, k: i64) -> Option<Code> {
    Some(match op {
        Op::Eq => Arc::new(move |rb, ctx| i64::from(r.get(rb, ctx) == k)),
        Op::Ne => Arc::new(move |rb, ctx| i64::from(r.get(rb, ctx) != k)),
        Op::Lt => Arc::new(move |rb, ctx| i64::from(r.get(rb, ctx) < k)),
        Op::Le => Arc::new(move |rb, ctx| i64::from(r.get(rb, ctx) <= k)),
        Op::Gt => Arc::new(move |rb, ctx| i64::from(r.get(rb, ctx) > k)),
        Op::Ge => Arc::new(move |rb, ctx| i64::from(r.get(rb, ctx) >= k)),
        _ => return None,
    })
}

/// What the closure of a leaf is made with: alone, or compared with a number.
enum Made {
    Alone,
    Compared(Op, i64),
}

impl Made {
    fn with<R: Read>(self, r: R) -> Option<Code> {
        match self {
            Made::Alone => Some(alone(r)),
            Made::Compared(op, k) => compared(r, op, k),
        }
    }
}

impl Rulebook {
    /// The closure of a leaf read in place (a counter, a whole zone's count or sum, a step
    /// test), made as `made` says; `None` for any other expression.
    fn leaf_code(&self, e: &Expr, made: Made) -> Option<Code> {
        match e {
            Expr::Counter(CounterExpr::AtStep(mask)) => made.with(AtStep(*mask)),
            Expr::Counter(CounterExpr::Read(CounterRef::Table(c))) => {
                made.with(TableCounter(self.counters[*c].slot))
            }
            Expr::Counter(CounterExpr::Read(CounterRef::Seat(c, Who::Player))) => {
                let c = &self.counters[*c];
                made.with(PlayerCounter(c.slot, c.stride))
            }
            Expr::Count(z) => made.with(CountOf(self.piles(z)?)),
            Expr::Sum { attr, zone } => {
                let values = self.sets[self.zones[zone.zone].set].values[*attr].clone();
                made.with(SumOf(self.piles(zone)?, values.into()))
            }
            _ => None,
        }
    }
}

impl Rulebook {
    /// Wraps the guards, standing windows, `keep` conditions and step guards below their
    /// `and`/`or` spines. The last stage of [`super::compile`].
    pub(super) fn wrap_fast(&mut self) {
        // The seats first: the zones and counters they name read them compiled.
        // (One at a time, each compiled with those before it in place.)
        for i in 0..self.seat_exprs.len() {
            let mut seat = std::mem::replace(&mut self.seat_exprs[i], Expr::Const(0));
            self.wrap_spine(&mut seat);
            self.seat_exprs[i] = seat;
        }
        let mut actions = std::mem::take(&mut self.actions);
        for action in &mut actions {
            if let Some(guard) = &mut action.guard {
                self.wrap_spine(&mut guard.expr);
            }
            if let Some((window, _)) = &mut action.standing {
                self.wrap_spine(window);
            }
            for effect in &mut action.effects {
                self.wrap_effect(effect);
            }
            for arg in action.pay.iter_mut().flat_map(|p| p.args.iter_mut()) {
                self.wrap_spine(arg);
            }
        }
        self.actions = actions;
        let mut steps = std::mem::take(&mut self.steps);
        for step in &mut steps {
            let enter = step.enter.as_mut().and_then(|e| e.on.as_mut());
            let from = step.who.as_mut().and_then(|w| w.from.as_mut());
            let keep = step.keep.as_mut().map(|(keep, _)| keep);
            for e in [keep, step.repeat.as_mut(), enter, from]
                .into_iter()
                .flatten()
            {
                self.wrap_spine(e);
            }
        }
        self.steps = steps;
        let mut stages = std::mem::take(&mut self.stages);
        for repeat in stages.iter_mut().filter_map(|s| s.repeat.as_mut()) {
            self.wrap_spine(repeat);
        }
        self.stages = stages;
        let mut guards = std::mem::take(&mut self.derived.step_guards);
        for at in guards.iter_mut().flatten() {
            for guard in at.iter_mut().flatten() {
                self.wrap_spine(&mut guard.expr);
            }
        }
        self.derived.step_guards = guards;
        let mut score = std::mem::replace(&mut self.score, Expr::Const(0));
        self.wrap_spine(&mut score);
        self.score = score;
        let (mut now, mut next_turn) = (self.now.take(), self.next_turn.take());
        for e in [now.as_mut(), next_turn.as_mut()].into_iter().flatten() {
            self.wrap_spine(e);
        }
        (self.now, self.next_turn) = (now, next_turn);
        if self.end_when.direct.is_none() {
            let mut when = std::mem::replace(&mut self.end_when.expr, Expr::Const(0));
            self.wrap_spine(&mut when);
            self.end_when.expr = when;
        }
        let mut endings = std::mem::take(&mut self.endings);
        for ending in &mut endings {
            self.wrap_spine(&mut ending.when);
            if let Some(score) = &mut ending.score {
                self.wrap_spine(score);
            }
            if let super::endings::Winners::Where(e) = &mut ending.winners {
                self.wrap_spine(e);
            }
        }
        self.endings = endings;
        let mut tiebreak = self.tiebreak.take();
        if let Some(e) = &mut tiebreak {
            self.wrap_spine(e);
        }
        self.tiebreak = tiebreak;
        let mut worth = self.worth.take();
        match &mut worth {
            Some(Worth::Whole(e)) => self.wrap_spine(e),
            Some(Worth::Real(e)) => self.wrap_real(e),
            None => {}
        }
        self.worth = worth;
    }

    /// A worth that divides: its whole-number parts (`worth.rs` reckons the rest in real
    /// numbers, and reads them by `eval`).
    fn wrap_real(&mut self, e: &mut Expr) {
        super::worth::each_whole_part(e, &mut |part| self.wrap_spine(part));
    }

    /// An effect's numbers and conditions read by the tree (not those read directly).
    fn wrap_effect(&mut self, e: &mut super::model::Effect) {
        use super::model::Effect;
        let arg = match e {
            Effect::Deal { count, .. }
            | Effect::Draw { count, .. }
            | Effect::DrawAtRandom { count, .. } => count,
            Effect::Add { amount: a, .. }
            | Effect::Set { value: a, .. }
            | Effect::Give { figure: a, .. } => a,
            Effect::Step { figure, by } => {
                for a in [figure, by] {
                    if a.direct.is_none() {
                        self.wrap_spine(&mut a.expr);
                    }
                }
                return;
            }
            Effect::MoveNamed { card: e, .. }
            | Effect::Reveal { until: e, .. }
            | Effect::Place { seat: e, .. }
            | Effect::Tally { item: Some(e), .. } => return self.wrap_spine(e),
            Effect::If { cond, then } => {
                if cond.direct.is_none() {
                    self.wrap_spine(&mut cond.expr);
                }
                return self.wrap_effect(then);
            }
            Effect::ForEach { body, from, .. } => {
                if let Some(from) = from {
                    self.wrap_spine(from);
                }
                return self.wrap_effect(body);
            }
            _ => return,
        };
        if arg.direct.is_none() {
            self.wrap_spine(&mut arg.expr);
        }
    }

    /// Down an `and`/`or` spine, each part off it wrapped whole.
    fn wrap_spine(&mut self, e: &mut Expr) {
        match e {
            Expr::Bin(Op::And | Op::Or, l, r) => {
                self.wrap_spine(l);
                self.wrap_spine(r);
                // The node too, read through by what walks the chain (`Expr::spine`);
                // not where marks are (their listings answer them in place).
                if !reads_marks(e) {
                    self.wrap(e);
                }
            }
            // The listings answer marks in place.
            Expr::Marked(_) | Expr::Mine(_) | Expr::Fast(_) => {}
            Expr::Not(x) if matches!(**x, Expr::Marked(_) | Expr::Mine(_)) => {}
            // A leaf is read in place by `operand` (no call): left as it is.
            _ if !matches!(e, Expr::Memo(..)) && !has_children(e) => {}
            _ => {
                self.wrap_searches(e);
                self.wrap(e);
            }
        }
    }

    /// `e` with its closure.
    fn wrap(&mut self, e: &mut Expr) {
        let code = self.code(e);
        let expr = Box::new(std::mem::replace(e, Expr::Const(0)));
        let number = u32::try_from(self.codes.0.len()).unwrap_or(u32::MAX);
        self.codes.0.push(code);
        *e = Expr::Fast(Compiled { code: number, expr });
    }

    /// The arguments of the `rising` searches inside `e`, which the search reads by `eval`,
    /// and the zones their card roles read.
    fn wrap_searches(&mut self, e: &mut Expr) {
        if let Expr::Rising(r) = e {
            // Its card roles kept from decision to decision when they read zones alone.
            let written = super::rising::roles_written(r);
            let next = self.roles_read.len() as u32;
            let id = *self.roles_read.entry(written).or_insert(next);
            r.role_zones =
                super::rising::role_zones(r).map(|zones| super::model::RoleZones { id, zones });
            for x in [
                &mut r.n,
                &mut r.above,
                &mut r.lead,
                &mut r.member,
                &mut r.value,
            ] {
                self.wrap_spine(x);
            }
            return;
        }
        e.each_child_mut(&mut |x| self.wrap_searches(x));
    }

    /// The piles of a whole zone, as numbers and the seat's closure.
    fn piles(&self, z: &ZoneRef) -> Option<Piles> {
        if z.row.is_some() {
            return None;
        }
        let zone = &self.zones[z.zone];
        if !zone.owned {
            let (first, rows, whose) = (zone.first, zone.rows, Whose::Current);
            return Some(Piles {
                first,
                rows,
                per_seat: None,
                whose,
            });
        }
        Some(Piles {
            first: self.table_piles + zone.first,
            rows: zone.rows,
            per_seat: Some(self.seat_piles),
            whose: self.whose(z.who)?,
        })
    }

    /// Whose a zone or counter of a seat is.
    fn whose(&self, who: Who) -> Option<Whose> {
        Some(match who {
            Who::Player => Whose::Player,
            Who::Table | Who::Current | Who::Each => Whose::Current,
            Who::Seat(i) => Whose::Named(self.code(self.seat_exprs.get(usize::from(i))?)),
        })
    }

    /// The closure of `e`.
    pub(super) fn code(&self, e: &Expr) -> Code {
        // A part that reads only the card's attributes: a table by the card's type.
        if has_children(e)
            && let Some(set) = card_fold::card_set(e)
            && let Some(table) = card_fold::table(e, &self.sets, set)
        {
            // A card past the table (no card: -1) as the tree reads it.
            let beyond = self.tree(e);
            return Arc::new(move |rb, ctx| {
                let c = i64::from(ctx.args.card()) & i64::from(TYPE_MASK);
                match table.get(c as usize) {
                    Some(&v) => v,
                    None => beyond(rb, ctx),
                }
            });
        }
        if let Some(code) = self.leaf_code(e, Made::Alone) {
            return code;
        }
        match e {
            Expr::Const(v) => {
                let v = *v;
                Arc::new(move |_, _| v)
            }
            Expr::Card => Arc::new(|_, ctx| i64::from(ctx.args.card())),
            Expr::Attr { set, attr, card } => {
                let values: Box<[i64]> = self.sets[*set].values[*attr].clone().into();
                let read = move |c: i64| {
                    usize::try_from(c & i64::from(TYPE_MASK))
                        .ok()
                        .and_then(|c| values.get(c))
                        .copied()
                        .unwrap_or(0)
                };
                match &**card {
                    Expr::Card => Arc::new(move |_, ctx| read(i64::from(ctx.args.card()))),
                    card => {
                        let card = self.code(card);
                        Arc::new(move |rb, ctx| read(card(rb, ctx)))
                    }
                }
            }
            Expr::Last { attr, zone } => match self.piles(zone) {
                Some(piles) => {
                    let values: Box<[i64]> = self.sets[self.zones[zone.zone].set].values[*attr]
                        .clone()
                        .into();
                    Arc::new(move |rb, ctx| last_value(ctx.state, piles.range(rb, ctx), &values))
                }
                None => self.tree(e),
            },
            Expr::Row => Arc::new(|_, ctx| i64::from(ctx.args.place())),
            Expr::Target => Arc::new(|_, ctx| i64::from(ctx.args.player())),
            Expr::Done(a) => {
                let bit = 1u64 << a;
                Arc::new(move |_, ctx| i64::from(ctx.state.done & bit != 0))
            }
            Expr::Not(x) => {
                let x = self.code(x);
                Arc::new(move |rb, ctx| i64::from(x(rb, ctx) == 0))
            }
            Expr::If(c, a, b) => {
                let (c, a, b) = (self.code(c), self.code(a), self.code(b));
                Arc::new(move |rb, ctx| {
                    if c(rb, ctx) != 0 {
                        a(rb, ctx)
                    } else {
                        b(rb, ctx)
                    }
                })
            }
            Expr::Bin(op, l, r) => self.binary_code(*op, l, r),
            Expr::Counter(c) => self.counter_code(c, e),
            Expr::Memo(slot, part) => {
                let (slot, part) = (*slot, self.code(&part.0));
                Arc::new(move |rb, ctx| {
                    if let Some(v) = memo::recall(ctx.state, slot, ctx.player) {
                        return v;
                    }
                    let v = part(rb, ctx);
                    if !super::fault::failed() {
                        memo::keep(ctx.state, slot, ctx.player, v);
                    }
                    v
                })
            }
            Expr::Best { zone, body } => match self.piles(zone) {
                Some(piles) => {
                    let body = self.code(body);
                    Arc::new(move |rb, ctx| best_over(ctx, piles.range(rb, ctx), |on| body(rb, on)))
                }
                None => self.tree(e),
            },
            Expr::Situational(s) => {
                let s = s.clone();
                Arc::new(move |rb, ctx| rb.situational(&s, ctx))
            }
            Expr::Seat(s) => {
                let s = s.clone();
                Arc::new(move |rb, ctx| rb.eval_seat(&s, ctx))
            }
            Expr::Rising(r) => {
                let r = r.clone();
                Arc::new(move |rb, ctx| rb.eval_rising(&r, ctx))
            }
            Expr::Fast(f) => match self.codes.0.get(f.code as usize) {
                Some(code) => code.clone(),
                None => self.code(&f.expr),
            },
            _ => self.tree(e),
        }
    }

    /// A closure that walks the tree, for what has none of its own.
    fn tree(&self, e: &Expr) -> Code {
        let e = e.clone();
        Arc::new(move |rb, ctx| rb.eval(&e, ctx))
    }

    fn binary_code(&self, op: Op, l: &Expr, r: &Expr) -> Code {
        // A leaf compared with a number: one closure for both.
        if let Expr::Const(k) = *r
            && let Some(code) = self.leaf_code(l, Made::Compared(op, k))
        {
            return code;
        }
        let a = self.code(l);
        // A comparison or sum with a number: the number in place.
        if let Expr::Const(k) = *r {
            return match op {
                Op::Eq => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) == k)),
                Op::Ne => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) != k)),
                Op::Lt => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) < k)),
                Op::Le => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) <= k)),
                Op::Gt => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) > k)),
                Op::Ge => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) >= k)),
                _ => Arc::new(move |rb, ctx| {
                    let x = a(rb, ctx);
                    match decided(op, x) {
                        Some(v) => v,
                        None => binary(op, x, k),
                    }
                }),
            };
        }
        let b = self.code(r);
        match op {
            Op::And => Arc::new(move |rb, ctx| {
                if a(rb, ctx) == 0 {
                    0
                } else {
                    i64::from(b(rb, ctx) != 0)
                }
            }),
            Op::Or => Arc::new(move |rb, ctx| {
                if a(rb, ctx) != 0 {
                    1
                } else {
                    i64::from(b(rb, ctx) != 0)
                }
            }),
            Op::Eq => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) == b(rb, ctx))),
            Op::Ne => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) != b(rb, ctx))),
            Op::Lt => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) < b(rb, ctx))),
            Op::Le => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) <= b(rb, ctx))),
            Op::Gt => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) > b(rb, ctx))),
            Op::Ge => Arc::new(move |rb, ctx| i64::from(a(rb, ctx) >= b(rb, ctx))),
            _ => Arc::new(move |rb, ctx| {
                let x = a(rb, ctx);
                binary(op, x, b(rb, ctx))
            }),
        }
    }

    fn counter_code(&self, c: &CounterExpr, e: &Expr) -> Code {
        match c {
            CounterExpr::Read(CounterRef::Seat(c, who)) => {
                let (slot, stride) = (self.counters[*c].slot, self.counters[*c].stride);
                let Some(whose) = self.whose(*who) else {
                    return self.tree(e);
                };
                Arc::new(move |rb, ctx| {
                    let seat = whose.seat(rb, ctx);
                    let seat = seat.min(usize::from(ctx.state.players).saturating_sub(1));
                    ctx.state.counts.0[slot + seat * stride]
                })
            }
            CounterExpr::Players => Arc::new(|_, ctx| i64::from(ctx.state.players)),
            CounterExpr::Others(x) | CounterExpr::Each(x) => {
                let others = matches!(c, CounterExpr::Others(_));
                let x = self.code(x);
                Arc::new(move |rb, ctx| over_seats(ctx, others, |on| x(rb, on)))
            }
            CounterExpr::Odds(a, b) => {
                let (a, b) = (self.code(a), self.code(b));
                Arc::new(move |rb, ctx| odds(a(rb, ctx), b(rb, ctx)))
            }
            CounterExpr::Min(a, b) => {
                let (a, b) = (self.code(a), self.code(b));
                Arc::new(move |rb, ctx| a(rb, ctx).min(b(rb, ctx)))
            }
            CounterExpr::Max(a, b) => {
                let (a, b) = (self.code(a), self.code(b));
                Arc::new(move |rb, ctx| a(rb, ctx).max(b(rb, ctx)))
            }
            CounterExpr::Div(a, b) | CounterExpr::Mod(a, b) => {
                let word = if matches!(c, CounterExpr::Div(..)) {
                    "div"
                } else {
                    "mod"
                };
                let (a, b) = (self.code(a), self.code(b));
                Arc::new(move |rb, ctx| {
                    let (x, y) = (a(rb, ctx), b(rb, ctx));
                    super::fault::divide(word, x, y)
                })
            }
            _ => {
                let c = c.clone();
                let _ = e;
                Arc::new(move |rb, ctx| rb.eval_counter(&c, ctx))
            }
        }
    }
}

fn reads_marks(e: &Expr) -> bool {
    let mut marks = matches!(e, Expr::Marked(_) | Expr::Mine(_) | Expr::Marks(_));
    e.each_child(&mut |x| marks |= reads_marks(x));
    marks
}

fn has_children(e: &Expr) -> bool {
    let mut any = false;
    e.each_child(&mut |_| any = true);
    any
}

#[cfg(test)]
mod tests {
    use grail_engine::game::{NoEvents, Rules, Setup};
    use grail_engine::rng::GameRng;

    use super::super::args::Args;
    use super::super::random_games::pack_in;
    use super::super::{Rulebook, compile, compile_walked};
    use super::*;

    /// Plays `rules` and `walked` side by side from one seed, each move picked at random
    /// among those `rules` lists: at every decision both list the same moves and judge every
    /// seat's worth the same, and after every move both states are the same. The moves played.
    fn in_step(rules: &Rulebook, walked: &Rulebook, players: usize, seed: u64) -> usize {
        let setup = Setup::new(players, seed);
        let (mut a, mut b) = (rules.setup(&setup).unwrap(), walked.setup(&setup).unwrap());
        let mut rng = GameRng::new(seed);
        let (mut moves, mut others) = (Vec::new(), Vec::new());
        let mut played = 0;
        while rules.to_move(&a).is_some() && played < 3_000 {
            rules.list(&a, &mut moves, false);
            walked.list(&b, &mut others, false);
            assert_eq!(
                moves, others,
                "{players} players, seed {seed}, move {played}"
            );
            for seat in 0..players {
                let (x, y) = (rules.heuristic(&a, seat), walked.heuristic(&b, seat));
                assert!(x == y || x.is_nan() && y.is_nan(), "worth {x} against {y}");
            }
            let m = &moves[rng.index(moves.len())];
            rules.apply(&mut a, m, &mut NoEvents);
            walked.apply(&mut b, m, &mut NoEvents);
            assert!(
                a == b,
                "{players} players, seed {seed}, after move {played}"
            );
            played += 1;
        }
        played
    }

    /// Every bundled rulebook and both drafts play the same games compiled to closures as
    /// walked as trees: the same moves listed, the same worths, the same states.
    #[test]
    fn closures_play_the_games_the_tree_plays() {
        let packs = [
            ("../content", "king-arthur", None, 4),
            ("../content", "artus", Some("advanced"), 4),
            ("../tests/packs", "quests-rulebook", None, 4),
            ("../tests/packs", "virtues-rulebook", None, 5),
        ];
        for (folder, game, variant, players) in packs {
            let pack = pack_in(folder, game, variant);
            let rules = compile(&pack).expect("the description compiles");
            let walked = compile_walked(&pack).expect("the description compiles");
            assert!(!rules.codes.0.is_empty(), "{game}: nothing compiled");
            assert!(walked.codes.0.is_empty());
            let mut played = 0;
            for (n, seed) in [(2, 1), (players, 2), (players, 3)] {
                played += in_step(&rules, &walked, n, seed);
            }
            assert!(played > 100, "{game}: {played} moves");
        }
    }

    /// A closure reads what the tree reads: a comparison with a number, an `and` whose left
    /// side decides, arithmetic that leaves the range of a pack's numbers (a fault either way).
    #[test]
    fn a_closure_gives_the_trees_value() {
        let pack = pack_in("../tests/packs", "quests-rulebook", None);
        let rules = compile(&pack).expect("the draft compiles");
        let state = rules.setup(&Setup::new(3, 7)).unwrap();
        let ctx = Ctx::current(&state, Args::NONE);
        let n = |v: i64| Box::new(Expr::Const(v));
        let bin = |op, l, r| Expr::Bin(op, l, r);
        let hand = Expr::Count(ZoneRef {
            zone: rules.zones.iter().position(|z| z.name == "hand").unwrap(),
            who: Who::Player,
            row: None,
        });
        for e in [
            bin(Op::Eq, Box::new(hand.clone()), n(12)),
            bin(Op::Gt, Box::new(hand.clone()), n(12)),
            bin(Op::And, n(0), Box::new(bin(Op::Div, n(1), n(0)))),
            bin(Op::Sub, Box::new(hand.clone()), n(i64::MAX)),
            Expr::If(Box::new(hand.clone()), n(4), n(5)),
        ] {
            super::super::fault::begin(1_000);
            let tree = rules.eval(&e, &ctx);
            let tree_fault = super::super::fault::end();
            super::super::fault::begin(1_000);
            let closure = rules.code(&e)(&rules, &ctx);
            let closure_fault = super::super::fault::end();
            assert_eq!((closure, closure_fault), (tree, tree_fault), "{e:?}");
        }
    }
}
