//! Effects' numbers and conditions read directly: the shapes effects use most (a number, the
//! figure parameter, a figure's counter, the plate under a figure, `chosen`, and arithmetic,
//! comparisons, `min`/`max` of them) found when the description compiles and read by a small
//! match, not by walking the expression through `eval` → `eval_more` → `eval_figures` (30 to
//! 50 instructions of dispatch per node). An expression of any other shape keeps its `eval`.
//! Each direct reading gives what `eval` gives, in every state (the test below holds them to
//! it over random games).

use super::Rulebook;
use super::eval::{Ctx, binary, decided};
use super::model::{Arg, CounterExpr, CounterRef, Direct, Expr, FigureExpr, TYPE_MASK, Who};
use super::syntax::Op;

/// The comparison that holds of `-x` and `-k` when `op` holds of `x` and `k`.
fn mirrored(op: Op) -> Op {
    match op {
        Op::Lt => Op::Gt,
        Op::Le => Op::Ge,
        Op::Gt => Op::Lt,
        Op::Ge => Op::Le,
        other => other,
    }
}

impl Direct {
    /// The direct reading of an expression, when all of it has one.
    pub fn of(e: &Expr) -> Option<Direct> {
        let of = |e: &Expr| Direct::of(e).map(Box::new);
        Some(match e {
            Expr::Const(v) => Direct::Const(*v),
            Expr::Figures(FigureExpr::ParamFigure) => Direct::Figure,
            Expr::Figures(FigureExpr::ParamSteps) => Direct::Steps,
            Expr::Figures(FigureExpr::Chosen) => Direct::Chosen,
            Expr::Counter(CounterExpr::Holder(r)) => Direct::Holder(*r),
            Expr::Counter(CounterExpr::Turn) => Direct::Turn,
            Expr::Counter(CounterExpr::Players) => Direct::Players,
            Expr::Figures(FigureExpr::Total { counter, kind, who }) => Direct::Total {
                counter: *counter,
                kind: *kind,
                who: *who,
            },
            Expr::Counter(CounterExpr::Read(CounterRef::Figure(counter, figure))) => {
                Direct::Counter {
                    counter: *counter,
                    figure: of(figure)?,
                }
            }
            Expr::Counter(CounterExpr::Min(a, b)) => Direct::Min(of(a)?, of(b)?),
            Expr::Counter(CounterExpr::Max(a, b)) => Direct::Max(of(a)?, of(b)?),
            Expr::Attr { set, attr, card } => match &**card {
                Expr::Figures(FigureExpr::Plate(seat)) => match &**seat {
                    Expr::Figures(FigureExpr::SeatOf(figure)) => Direct::PlateAttr {
                        set: *set,
                        attr: *attr,
                        figure: of(figure)?,
                    },
                    _ => return None,
                },
                _ => return None,
            },
            Expr::Figures(FigureExpr::Plates(r)) => Direct::Plates(*r),
            Expr::Not(inner) => Direct::Not(of(inner)?),
            Expr::Bin(op, l, r) => Direct::bin(*op, Direct::of(l)?, Direct::of(r)?),
            _ => return None,
        })
    }

    /// `l op r`, with a number moved across a comparison of a sum of counters: `c - x ⋈ k`
    /// read as `x ⋈' c - k`, `x ± c ⋈ k` as `x ⋈ k ∓ c`, one arithmetic node fewer (a
    /// supply check, `$rings - total(rings, prince) > 0`, is asked at every listing). A sum
    /// of counters is never NONE and the numbers are small, so nothing saturates: the same
    /// truth in every state.
    fn bin(op: Op, l: Direct, r: Direct) -> Direct {
        let small = |v: i64| v.abs() < 1 << 40;
        let cmp = |op: Op, x: Direct, k: i64| match x {
            Direct::Total { counter, kind, who } => Direct::TotalCompared {
                counter,
                kind,
                who,
                op,
                bound: k,
            },
            x => Direct::Bin(op, Box::new(x), Box::new(Direct::Const(k))),
        };
        let compares = matches!(op, Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge);
        match (l, r) {
            (x @ Direct::Total { .. }, Direct::Const(k)) if compares => cmp(op, x, k),
            (Direct::Bin(inner, a, b), Direct::Const(k)) if compares && small(k) => {
                match (inner, *a, *b) {
                    (Op::Sub, Direct::Const(c), x @ Direct::Total { .. }) if small(c) => {
                        cmp(mirrored(op), x, c - k)
                    }
                    (Op::Sub, x @ Direct::Total { .. }, Direct::Const(c)) if small(c) => {
                        cmp(op, x, k + c)
                    }
                    (Op::Add, Direct::Const(c), x @ Direct::Total { .. })
                    | (Op::Add, x @ Direct::Total { .. }, Direct::Const(c))
                        if small(c) =>
                    {
                        cmp(op, x, k - c)
                    }
                    (inner, a, b) => cmp(op, Direct::Bin(inner, Box::new(a), Box::new(b)), k),
                }
            }
            (l, r) => Direct::Bin(op, Box::new(l), Box::new(r)),
        }
    }
}

impl Rulebook {
    /// An effect's number or condition.
    #[inline(always)]
    pub(super) fn arg(&self, a: &Arg, ctx: &Ctx) -> i64 {
        match &a.direct {
            Some(d) => self.read(d, ctx),
            None => self.operand(&a.expr, ctx),
        }
    }

    /// [`Rulebook::direct`] with the commonest leaves read in place, not worth a call each.
    #[inline(always)]
    pub(super) fn read(&self, d: &Direct, ctx: &Ctx) -> i64 {
        match d {
            Direct::Const(v) => *v,
            Direct::Figure => self.param_figure(ctx),
            Direct::Steps => self.param_steps(ctx),
            Direct::Holder(r) => Self::holder(*r, ctx),
            // `turn >= $rounds * players`, the end asked after every turn: no call per leaf.
            Direct::Turn => i64::from(ctx.state.turn),
            Direct::Players => i64::from(ctx.state.players),
            _ => self.direct(d, ctx),
        }
    }

    /// `holder(role)` (-1 without a ring).
    #[inline(always)]
    fn holder(role: usize, ctx: &Ctx) -> i64 {
        (ctx.state.figures.0.as_ref()).map_or(-1, |f| i64::from(f.roles[role]))
    }

    /// `figure` (0 without a ring, as [`Rulebook::eval_figures`] gives it).
    #[inline(always)]
    fn param_figure(&self, ctx: &Ctx) -> i64 {
        match (&self.board, &ctx.state.figures.0) {
            (Some(_), Some(_)) => i64::from(ctx.args.figure()),
            _ => 0,
        }
    }

    /// `steps` (0 without a ring).
    #[inline(always)]
    fn param_steps(&self, ctx: &Ctx) -> i64 {
        match (&self.board, &ctx.state.figures.0) {
            (Some(_), Some(_)) => i64::from(ctx.args.steps()),
            _ => 0,
        }
    }

    /// `total(counter, kind)` of an owner's figures (0 without a ring).
    #[inline(always)]
    fn total(&self, counter: usize, kind: usize, who: Who, ctx: &Ctx) -> i64 {
        (self.board.as_ref().zip(ctx.state.figures.0.as_ref())).map_or(0, |(board, f)| {
            board.total(f, counter, kind, self.owner_of(who, ctx))
        })
    }

    /// What [`Rulebook::eval`] gives for the expression `d` was made from.
    fn direct(&self, d: &Direct, ctx: &Ctx) -> i64 {
        // Without a ring a figure read is 0 (`eval_figures`) and so is a figure's counter.
        let ring = || self.board.as_ref().zip(ctx.state.figures.0.as_ref());
        match d {
            Direct::Const(v) => *v,
            Direct::Figure => self.param_figure(ctx),
            Direct::Steps => self.param_steps(ctx),
            Direct::Chosen => ring().map_or(0, |_| i64::from(ctx.state.chosen.made)),
            Direct::Turn => i64::from(ctx.state.turn),
            Direct::Players => i64::from(ctx.state.players),
            Direct::Holder(r) => Self::holder(*r, ctx),
            Direct::Total { counter, kind, who } => self.total(*counter, *kind, *who, ctx),
            Direct::TotalCompared {
                counter,
                kind,
                who,
                op,
                bound,
            } => binary(*op, self.total(*counter, *kind, *who, ctx), *bound),
            Direct::Counter { counter, figure } => {
                let m = self.read(figure, ctx);
                self.figure_count(ctx.state, *counter, m)
            }
            Direct::PlateAttr { set, attr, figure } => {
                // The plate's card type, -1 off the ring (0 without a ring), as `value(…)`
                // reads it: its type bits.
                let plate = match ring() {
                    Some((board, f)) => board.plate_under(f, self.read(figure, ctx)),
                    None => 0,
                };
                let t = (plate & i64::from(TYPE_MASK)) as usize;
                self.sets[*set].values[*attr].get(t).copied().unwrap_or(0)
            }
            // 0 without a ring, as `eval_figures` gives it.
            Direct::Plates(r) => ring().map_or(0, |(board, f)| self.plate_read(r, board, f, ctx)),
            Direct::Not(inner) => i64::from(self.read(inner, ctx) == 0),
            Direct::Min(a, b) => self.read(a, ctx).min(self.read(b, ctx)),
            Direct::Max(a, b) => self.read(a, ctx).max(self.read(b, ctx)),
            Direct::Bin(op, l, r) => {
                let a = self.read(l, ctx);
                if let Some(v) = decided(*op, a) {
                    return v;
                }
                binary(*op, a, self.read(r, ctx))
            }
        }
    }
}

impl From<Expr> for Arg {
    fn from(expr: Expr) -> Arg {
        let direct = Direct::of(&expr);
        Arg { expr, direct }
    }
}

#[cfg(test)]
mod tests {
    use super::super::args::Args;
    use super::super::model::Effect;
    use super::*;
    use grail_engine::game::{NoEvents, Rules, Setup};
    use grail_engine::rng::GameRng;

    /// Every argument of the effects, through `if` lines.
    fn args<'e>(effects: &'e [Effect], out: &mut Vec<&'e Arg>) {
        for e in effects {
            match e {
                Effect::Deal { count, .. }
                | Effect::Draw { count, .. }
                | Effect::DrawAtRandom { count, .. } => out.push(count),
                Effect::Step { figure, by } => out.extend([figure, by]),
                Effect::Add { amount, .. } => out.push(amount),
                Effect::Set { value, .. } => out.push(value),
                Effect::Give { figure, .. } => out.push(figure),
                Effect::ForEach { body, .. } => args(std::slice::from_ref(body.as_ref()), out),
                Effect::If { cond, then } => {
                    out.push(cond);
                    args(std::slice::from_ref(then.as_ref()), out);
                }
                _ => {}
            }
        }
    }

    /// Comparisons of a sum of counters with a number, added or taken away or not (`c -
    /// total(…) > k`, `total(…) + c <= k`, `total(…) = k`, …), every way round, for the
    /// counters of every figure kind.
    fn numbers_moved_across(rules: &Rulebook) -> Vec<Arg> {
        use super::super::model::FigureExpr;
        let Some(board) = &rules.board else {
            return Vec::new();
        };
        let n = |v: i64| Box::new(Expr::Const(v));
        let mut out = Vec::new();
        for kind in 0..board.kinds.len() {
            for counter in 0..board.counters.len() {
                let total = || {
                    Box::new(Expr::Figures(FigureExpr::Total {
                        counter,
                        kind,
                        who: Who::Table,
                    }))
                };
                for (c, k) in [(10, 0), (1, 1), (0, -1), (-3, 2), (2, 9)] {
                    let shapes = [
                        Some((Op::Sub, true)),
                        Some((Op::Sub, false)),
                        Some((Op::Add, true)),
                        Some((Op::Add, false)),
                        None,
                    ];
                    for shape in shapes {
                        for op in [Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge] {
                            let side = match shape {
                                Some((inner, true)) => Expr::Bin(inner, n(c), total()),
                                Some((inner, false)) => Expr::Bin(inner, total(), n(c)),
                                None => *total(),
                            };
                            let e = Expr::Bin(op, Box::new(side), n(k));
                            let arg = Arg::from(e);
                            assert!(
                                matches!(&arg.direct, Some(Direct::TotalCompared { .. })),
                                "moved across: {:?}",
                                arg.direct
                            );
                            out.push(arg);
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_direct_reads_give_what_eval_gives() {
        let (mut direct, mut ends_direct) = (0, 0);
        for (game, variant) in [
            ("artus", Some("advanced")),
            ("artus", None),
            ("king-arthur", None),
        ] {
            let rules = super::super::random_games::bundled(game, variant);
            let mut all = Vec::new();
            args(&rules.setup, &mut all);
            for a in &rules.actions {
                args(&a.effects, &mut all);
            }
            let moved = numbers_moved_across(&rules);
            all.extend(&moved);
            // The end condition, asked after every turn (Artus: `turn >= $rounds * players`).
            ends_direct += usize::from(rules.end_when.direct.is_some());
            all.push(&rules.end_when);
            direct += all.iter().filter(|a| a.direct.is_some()).count();
            let (lo, hi) = rules.players;
            for seed in 0..6u64 {
                let players = lo + seed as usize % (hi - lo + 1);
                let mut state = rules.setup(&Setup::new(players, seed)).unwrap();
                let mut rng = GameRng::new(seed);
                let mut legal = Vec::new();
                while rules.to_move(&state).is_some() {
                    rules.legal_actions(&state, &mut legal);
                    // Every figure id (on the ring, off it, beyond the figures), none, a place;
                    // with no card and with cards.
                    let figures = (0..70).map(|m| Some((m, 1))).chain([None]);
                    for (figure, place) in figures.flat_map(|f| [(f, false), (f, true)]) {
                        for card in [-1, 0, 3] {
                            let mut args = Args::of_entry(card);
                            if let Some((m, n)) = figure {
                                args = args.with_figure(m, n);
                            }
                            if place {
                                args = args.with_place(0);
                            }
                            let ctx = Ctx {
                                state: &state,
                                player: usize::from(state.current),
                                args,
                            };
                            for a in all.iter() {
                                if let Some(d) = &a.direct {
                                    assert_eq!(
                                        rules.direct(d, &ctx),
                                        rules.eval(&a.expr, &ctx),
                                        "{game}: {:?}",
                                        a.expr
                                    );
                                }
                            }
                        }
                    }
                    let i = rng.index(legal.len());
                    rules.apply(&mut state, &legal[i], &mut NoEvents);
                }
            }
        }
        // Artus's plate values, ring counts, crown and `chosen` conditions, the draws' counts.
        assert!(direct >= 10, "only {direct} direct reads");
        assert_eq!(ends_direct, 2, "both Artus ends read directly");
    }
}
