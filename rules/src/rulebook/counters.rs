//! Numbers the game keeps (`[counters.*]`: one for the table, or one per seat, like a score)
//! and the counters figures carry (`rings(figure)`): reading them, `add N to C`, giving a
//! role to a figure, `min`/`max`, `turn` (the turn's number, from 1: at `[end] when`, the turns
//! played, so "after 16 rounds" is `turn >= 16 * players`), and over the seats `players` (how
//! many play) and
//! `others(e)` (`e` summed over the seats other than `P`: a rival's standing, for a bot's
//! worth or a score). Effects may end with `if <condition>`.

use grail_engine::diag::{Diagnostic, no_such};
use grail_schema::model::{Sp, ZoneOwner};

use super::Rulebook;
use super::compile::{Compiler, Kind, Scope};
use super::eval::Ctx;
use super::model::{Climb, Counter, CounterExpr, CounterRef, Effect, Expr, ROLE_TALLY};
use super::state::{Counts, State};
use super::syntax::{self, Ast, Node, Op};

/// The numbers every game has, read by name unless a counter takes the name: how many play,
/// the turn's number, the moves made at the step (besides them, `over`, a condition).
pub(super) const BUILT_IN_NUMBERS: [&str; 3] = ["players", "turn", "taken"];

impl Compiler<'_> {
    /// `[counters.*]`, each start value for every player count.
    pub fn counters(&mut self) -> Vec<Counter> {
        let (min, max) = self.pack.players;
        let mut out = Vec::new();
        for (name, def) in self.pack.rulebook.counters.iter() {
            let mut start = vec![0; usize::from(max) + 1];
            if let Some(s) = &def.start {
                for n in min..=max {
                    match self.start_value(s, n) {
                        Ok(v) => start[usize::from(n)] = v,
                        Err(d) => {
                            self.diags.push(d);
                            break;
                        }
                    }
                }
            }
            out.push(Counter {
                name: name.value.clone(),
                owned: def.owner.as_ref().map(|o| o.value) == Some(ZoneOwner::Each),
                start,
                slot: 0,
                stride: 0,
                climb: None,
                names: def.names.iter().map(|n| n.value.clone()).collect(),
                listing: def.table.as_ref().map(|t| t.value).unwrap_or_default(),
            });
        }
        self.climbs(&mut out);
        // The table's counters first, then a block per seat (`start_counts`).
        let table = out.iter().filter(|c| !c.owned).count();
        let per_seat = out.len() - table;
        let (mut t, mut o) = (0, 0);
        for c in &mut out {
            if c.owned {
                (c.slot, c.stride) = (table + o, per_seat);
                o += 1;
            } else {
                c.slot = t;
                t += 1;
            }
        }
        out
    }

    /// The ladders (`climbs`, `needs`): the rank counter another of the same owner, and for
    /// each player count the points each rank needs, at least 1 each.
    fn climbs(&mut self, out: &mut [Counter]) {
        let pack = self.pack;
        let (min, max) = pack.players;
        for (i, (name, def)) in pack.rulebook.counters.iter().enumerate() {
            let Some(climbs) = &def.climbs else {
                if let Some(first) = def.needs.first() {
                    let msg = format!(
                        "counter `{}` has `needs` but climbs no rank: `climbs = \"<rank counter>\"`",
                        name.value
                    );
                    self.error("missing-field", msg, &first.loc, first.loc.span.clone());
                }
                continue;
            };
            let known = || out.iter().map(|c| c.name.as_str());
            let Some(rank) = out.iter().position(|c| c.name == climbs.value) else {
                let msg = no_such("counter", &climbs.value, known());
                self.error("unknown-name", msg, &climbs.loc, climbs.loc.span.clone());
                continue;
            };
            if rank == i || out[rank].owned != out[i].owned {
                let msg = match rank == i {
                    true => format!(
                        "counter `{}` cannot climb itself: name its rank counter",
                        name.value
                    ),
                    false => format!(
                        "counter `{}` climbs `{}`, which is {}: a ladder's points and its rank have the same owner",
                        name.value,
                        climbs.value,
                        if out[rank].owned {
                            "each seat's"
                        } else {
                            "the table's"
                        }
                    ),
                };
                self.error("invalid-value", msg, &climbs.loc, climbs.loc.span.clone());
                continue;
            }
            if def.needs.len() > 64 {
                let msg = format!(
                    "counter `{}` climbs {} ranks; a ladder has at most 64",
                    name.value,
                    def.needs.len()
                );
                self.error("over-limit", msg, &climbs.loc, climbs.loc.span.clone());
                continue;
            }
            if def.needs.is_empty() {
                let msg = format!(
                    "counter `{}` climbs `{}` but says no rank's needs: `needs = [5, 7, 10]`",
                    name.value, climbs.value
                );
                self.error("missing-field", msg, &climbs.loc, climbs.loc.span.clone());
                continue;
            }
            let mut ladders = Vec::with_capacity(usize::from(max) + 1);
            'players: for n in 0..=max {
                let mut needs = Vec::with_capacity(def.needs.len());
                for need in &def.needs {
                    // Below the fewest players no game is set up: an empty ladder stands in.
                    if n < min {
                        break;
                    }
                    match self.start_value(need, n) {
                        Ok(v) if (1..=i64::from(u32::MAX)).contains(&v) => needs.push(v as u32),
                        Ok(v) => {
                            let msg = format!(
                                "counter `{}`: a rank needs at least 1 point to leave, not {v} \
                                 (with {n} players)",
                                name.value
                            );
                            self.error("invalid-value", msg, &need.loc, need.loc.span.clone());
                            return;
                        }
                        Err(d) => {
                            self.diags.push(d);
                            break 'players;
                        }
                    }
                }
                ladders.push(grail_engine::ladder::Ladder::new(needs));
            }
            out[i].climb = Some(Climb { rank, ladders });
        }
    }

    /// A number fixed before play for a player count: a number, a param (plain or by player
    /// count, with or without `$`), or `+ - *` of them (`knights - score_markers`).
    pub(super) fn start_value(&self, s: &Sp<String>, players: u8) -> Result<i64, Diagnostic> {
        let max = grail_schema::decode::MAX_NUMBER;
        if let Ok(v) = s.value.trim().parse::<i64>() {
            if v.abs() > max {
                let msg = format!("{v} is outside the number range (±{max})");
                return Err(Diagnostic::error("out-of-range", msg).at(
                    s.loc.source,
                    s.loc.span.clone(),
                    "here",
                ));
            }
            return Ok(v);
        }
        if let Ok(node) = syntax::expression(&s.value)
            && let Ast::Bin(op @ (Op::Add | Op::Sub | Op::Mul), l, r) = &node.ast
        {
            let side = |n: &Node| Sp {
                value: s.value[n.span.clone()].to_string(),
                loc: s.loc.clone(),
            };
            let (a, b) = (
                self.start_value(&side(l), players)?,
                self.start_value(&side(r), players)?,
            );
            // Within the number range of params (±10⁹), as everything a pack declares.
            return op.arith(a, b).filter(|v| v.abs() <= max).ok_or_else(|| {
                Diagnostic::error(
                    "out-of-range",
                    format!(
                        "`{}` comes to a number outside the number range (±{max}) with {players} players",
                        s.value.trim()
                    ),
                )
                .at(s.loc.source, s.loc.span.clone(), "here")
            });
        }
        let name = s.value.trim().trim_start_matches('$');
        self.pack.param_for_players(name, players).map_err(|d| {
            // A param that exists but lacks this player count says so itself.
            if self.pack.by_players.iter().any(|p| p.name == name) {
                return d;
            }
            let known = self.number_params();
            Diagnostic::error(
                "unknown-param",
                format!(
                    "expected a number or a param; {}",
                    no_such("number param", name, known)
                ),
            )
            .at(s.loc.source, s.loc.span.clone(), "here")
        })
    }

    /// A counter named by an expression: `supply`, `score(current)`, `rings(figure)`.
    /// `None`: not a counter.
    fn counter_ref(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Option<CounterRef>> {
        let (name, args): (&str, &[Node]) = match &node.ast {
            Ast::Name(n) => (n, &[]),
            Ast::Call(n, a) => (n, a),
            _ => return None,
        };
        if let Some(c) = self.counter_defs.iter().position(|c| c.name == name) {
            let owned = self.counter_defs[c].owned;
            // A table counter named as a function of the language (`top`) is read bare;
            // called, the name is the function's (`top(shown)`).
            if !owned && !args.is_empty() && super::compile::FUNCTIONS.contains(&name) {
                return None;
            }
            return Some(match (owned, args) {
                (false, []) => Some(CounterRef::Table(c)),
                (true, [owner]) => self
                    .owner(name, owner, s, scope, false)
                    .map(|who| CounterRef::Seat(c, who)),
                _ => {
                    let at = self.span(s, &node.span);
                    let msg = if owned {
                        format!("each seat has its own `{name}`: `{name}(current)`")
                    } else {
                        format!("`{name}` is the table's: write `{name}`")
                    };
                    self.error("invalid-expression", msg, &s.loc, at);
                    None
                }
            });
        }
        let c = self
            .board
            .as_ref()?
            .counters
            .iter()
            .position(|c| c == name)?;
        let [figure] = args else {
            let at = self.span(s, &node.span);
            let msg = format!("`{name}` is a figure's: `{name}(figure)`");
            self.error("invalid-expression", msg, &s.loc, at);
            return Some(None);
        };
        Some(
            self.typed(figure, s, scope, Kind::Int)
                .map(|f| CounterRef::Figure(c, Box::new(f))),
        )
    }

    /// Counters, `holder(role)`, `min` and `max` in expressions; `None`: none of them.
    pub fn counter_expr(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Option<(Expr, Kind)>> {
        if let Ast::Call(f, args) = &node.ast {
            match (f.as_str(), args.as_slice()) {
                (
                    "step",
                    [
                        Node {
                            ast: Ast::Name(name),
                            span,
                        },
                    ],
                ) => {
                    let Some(mask) = self.step_mask(name) else {
                        let steps = self.pack.rulebook.steps.keys();
                        let msg = no_such("step", name, steps);
                        let at = self.span(s, span);
                        self.error("unknown-step", msg, &s.loc, at);
                        return Some(None);
                    };
                    return Some(Some((Expr::Counter(CounterExpr::AtStep(mask)), Kind::Bool)));
                }
                ("div" | "mod" | "min" | "max" | "odds", [a, b]) => {
                    let (Some(a), Some(b)) = (
                        self.typed(a, s, scope, Kind::Int),
                        self.typed(b, s, scope, Kind::Int),
                    ) else {
                        return Some(None);
                    };
                    if matches!(f.as_str(), "div" | "mod" | "odds")
                        && let Some(Ok(0)) = Self::fixed_count(&b)
                    {
                        let at = self.span(s, &node.span);
                        let msg = match f.as_str() {
                            "odds" => "`odds(…)` with a spread of 0: it is always 0, and the \
                                       curve has no width"
                                .to_string(),
                            _ => format!("`{f}(…)` by 0: its divisor is always 0"),
                        };
                        self.error("divide-by-zero", msg, &s.loc, at);
                        return Some(None);
                    }
                    let (a, b) = (Box::new(a), Box::new(b));
                    let e = match f.as_str() {
                        "div" => CounterExpr::Div(a, b),
                        "mod" => CounterExpr::Mod(a, b),
                        "odds" => CounterExpr::Odds(a, b),
                        "min" => CounterExpr::Min(a, b),
                        _ => CounterExpr::Max(a, b),
                    };
                    return Some(Some((Expr::Counter(e), Kind::Int)));
                }
                ("each", [e]) => {
                    // `P` is each seat in turn, whatever it is around the call.
                    let inner = Scope {
                        player: true,
                        ..scope
                    };
                    // Wrong inside (reported there), not an unknown function.
                    let Some(e) = self.typed(e, s, inner, Kind::Int) else {
                        return Some(None);
                    };
                    return Some(Some((
                        Expr::Counter(CounterExpr::Each(Box::new(e))),
                        Kind::Int,
                    )));
                }
                ("each", _) => {
                    let at = self.span(s, &node.span);
                    let msg = "`each(…)` sums one expression over every seat, as `P`: \
                               `each(count(honor(P)))`"
                        .into();
                    self.error("invalid-expression", msg, &s.loc, at);
                    return Some(None);
                }
                ("others", [e]) => {
                    if !scope.player {
                        let at = self.span(s, &node.span);
                        let msg = "`others(…)` sums over the seats besides `P`: it is for `[end] score`, `tiebreak` and `[bot] worth`".into();
                        self.error("invalid-expression", msg, &s.loc, at);
                        return Some(None);
                    }
                    let Some(e) = self.typed(e, s, scope, Kind::Int) else {
                        return Some(None);
                    };
                    return Some(Some((
                        Expr::Counter(CounterExpr::Others(Box::new(e))),
                        Kind::Int,
                    )));
                }
                (
                    "holder",
                    [
                        Node {
                            ast: Ast::Name(r),
                            span,
                        },
                    ],
                ) => {
                    if let Some(role) = self.card_roles.iter().position(|x| x.name == *r) {
                        let e = Expr::Counter(CounterExpr::CardHolder(role));
                        return Some(Some((e, Kind::Int)));
                    }
                    let figure_roles = self.board.as_ref().map_or(&[][..], |b| &b.roles[..]);
                    let Some(role) = figure_roles.iter().position(|x| x.name == *r) else {
                        let roles = figure_roles.iter().map(|x| x.name.as_str());
                        let roles = roles.chain(self.card_roles.iter().map(|x| x.name.as_str()));
                        let msg = no_such("role", r, roles);
                        let at = self.span(s, span);
                        self.error("unknown-name", msg, &s.loc, at);
                        return Some(None);
                    };
                    return Some(Some((Expr::Counter(CounterExpr::Holder(role)), Kind::Int)));
                }
                _ => {}
            }
        }
        if let Ast::Name(n) = &node.ast
            && (BUILT_IN_NUMBERS.contains(&n.as_str()) || n == "over")
            && !self.counter_defs.iter().any(|c| c.name == *n)
        {
            let (e, kind) = match n.as_str() {
                "turn" => (CounterExpr::Turn, Kind::Int),
                "over" => (CounterExpr::Over, Kind::Bool),
                "taken" => (CounterExpr::Taken, Kind::Int),
                _ => (CounterExpr::Players, Kind::Int),
            };
            return Some(Some((Expr::Counter(e), kind)));
        }
        let r = self.counter_ref(node, s, scope)?;
        Some(r.map(|r| (Expr::Counter(CounterExpr::Read(r)), Kind::Int)))
    }

    /// The indices a step has in the compiled list (the turn's steps, then each earlier
    /// stage's, as `steps()` lays them out), as a mask; `None`: no such step.
    fn step_mask(&self, name: &str) -> Option<u64> {
        let stages = &self.pack.rulebook.stages;
        let turn = stages.get("turn").into_iter();
        let others = stages
            .iter()
            .filter(|(k, _)| k.value != "turn")
            .map(|(_, d)| d);
        let order = turn.chain(others).flat_map(|d| d.steps.iter());
        let mask = order
            .enumerate()
            .filter(|(i, s)| s.value == name && *i < 64)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        (mask != 0).then_some(mask)
    }

    /// The counter an `add` or `set` line changes; an unknown one with did-you-mean.
    fn counter_target(&mut self, to: &Node, s: &Sp<String>, scope: Scope) -> Option<CounterRef> {
        if let Some(to) = self.counter_ref(to, s, scope) {
            return to;
        }
        // The name as written, without the space before the next word (`set x to …`).
        let written = s.value.get(to.span.clone()).unwrap_or("").trim_end();
        let at = self.span(s, &(to.span.start..to.span.start + written.len()));
        let mut known: Vec<String> = self.counter_defs.iter().map(|c| c.name.clone()).collect();
        if let Some(b) = &self.board {
            known.extend(b.counters.iter().cloned());
        }
        let msg = no_such("counter", written, known.iter().map(String::as_str));
        self.error("unknown-name", msg, &s.loc, at);
        None
    }

    /// `set C to N`: a seat's or the table's counter (a figure's changes only by `add`,
    /// which keeps it at 0 or more).
    pub fn set_effect(
        &mut self,
        counter: &Node,
        value: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Effect> {
        let value = self.typed(value, s, scope, Kind::Int);
        let to = self.counter_target(counter, s, scope)?;
        if let CounterRef::Figure(..) = to {
            let at = self.span(s, &counter.span);
            let msg = "`set` sets a seat's or the table's counter; a figure's changes by `add`"
                .to_string();
            self.error("invalid-expression", msg, &s.loc, at);
            return None;
        }
        Some(Effect::Set {
            value: value?.into(),
            to,
        })
    }

    /// `add N to C` and `give R to F`.
    pub fn counter_effect(
        &mut self,
        add: bool,
        what: &Node,
        to: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Effect> {
        if add {
            let amount = self.typed(what, s, scope, Kind::Int)?;
            let to = self.counter_target(to, s, scope)?;
            return Some(Effect::Add {
                amount: amount.into(),
                to,
            });
        }
        let Ast::Name(r) = &what.ast else {
            let at = self.span(s, &what.span);
            self.error(
                "invalid-expression",
                "`give` gives a role: `give king to figure`".into(),
                &s.loc,
                at,
            );
            return None;
        };
        let roles: Vec<String> = self.board.as_ref().map_or(Vec::new(), |b| {
            b.roles.iter().map(|x| x.name.clone()).collect()
        });
        let Some(role) = roles.iter().position(|x| x == r) else {
            let at = self.span(s, &what.span);
            self.error(
                "unknown-name",
                no_such("role", r, roles.iter().map(String::as_str)),
                &s.loc,
                at,
            );
            return None;
        };
        let figure = self.typed(to, s, scope, Kind::Int)?;
        Some(Effect::Give {
            role,
            figure: figure.into(),
        })
    }
}

impl Rulebook {
    /// Where a counter's value lives in a state's `Counts` (figure counters live with the
    /// figures).
    #[inline]
    pub(super) fn counter_slot(&self, state: &State, c: usize, seat: usize) -> usize {
        let c = &self.counters[c];
        c.slot + seat.min(usize::from(state.players).saturating_sub(1)) * c.stride
    }

    /// Counter `c`'s value for `seat` (the table's: any seat), 0 where there is none.
    pub(super) fn counter_value(&self, state: &State, c: usize, seat: usize) -> i64 {
        let at = self.counter_slot(state, c, seat);
        state.counts.0.get(at).copied().unwrap_or(0)
    }

    /// The counters at the start of a game of `players`.
    pub(super) fn start_counts(&self, players: usize) -> Counts {
        let mut v = Vec::new();
        for c in self.counters.iter().filter(|c| !c.owned) {
            v.push(c.start.get(players).copied().unwrap_or(0));
        }
        for _ in 0..players {
            for c in self.counters.iter().filter(|c| c.owned) {
                v.push(c.start.get(players).copied().unwrap_or(0));
            }
        }
        Counts(v)
    }

    #[inline(never)]
    pub(super) fn eval_counter(&self, e: &CounterExpr, ctx: &Ctx) -> i64 {
        match e {
            CounterExpr::Min(a, b) => self.eval(a, ctx).min(self.eval(b, ctx)),
            CounterExpr::Max(a, b) => self.eval(a, ctx).max(self.eval(b, ctx)),
            CounterExpr::Players => i64::from(ctx.state.players),
            CounterExpr::ByPlayers(v) => v.get(usize::from(ctx.state.players)).map_or(0, |&v| v),
            CounterExpr::Odds(a, b) => super::eval::odds(self.eval(a, ctx), self.eval(b, ctx)),
            CounterExpr::Div(a, b) => {
                let (a, b) = (self.eval(a, ctx), self.eval(b, ctx));
                super::fault::divide("div", a, b)
            }
            CounterExpr::Mod(a, b) => {
                let (a, b) = (self.eval(a, ctx), self.eval(b, ctx));
                super::fault::divide("mod", a, b)
            }
            CounterExpr::Over => i64::from(ctx.state.ended.is_some()),
            CounterExpr::Taken => i64::from(ctx.state.reps.0),
            CounterExpr::AtStep(mask) => {
                i64::from(ctx.state.step < 64 && mask & (1 << ctx.state.step) != 0)
            }
            CounterExpr::Turn => i64::from(ctx.state.turn),
            CounterExpr::Each(e) => super::eval::over_seats(ctx, false, |on| self.eval(e, on)),
            CounterExpr::Others(e) => super::eval::over_seats(ctx, true, |on| self.eval(e, on)),
            CounterExpr::CardHolder(r) => self.card_holder(*r, ctx.state),
            CounterExpr::Holder(r) => ctx
                .state
                .figures
                .0
                .as_ref()
                .map_or(-1, |f| i64::from(f.roles[*r])),
            CounterExpr::Read(CounterRef::Table(c)) => {
                ctx.state.counts.0[self.counter_slot(ctx.state, *c, 0)]
            }
            CounterExpr::Read(CounterRef::Seat(c, who)) => {
                ctx.state.counts.0[self.counter_slot(ctx.state, *c, self.seat_of(*who, ctx))]
            }
            CounterExpr::Read(CounterRef::Figure(c, figure)) => {
                let m = self.eval(figure, ctx);
                self.figure_count(ctx.state, *c, m)
            }
        }
    }

    /// Figure `figure`'s counter `c` (0 for no such figure).
    #[inline]
    pub(super) fn figure_count(&self, state: &State, c: usize, figure: i64) -> i64 {
        self.figure_counter(state, c, figure).map_or(0, |i| {
            i64::from(state.figures.0.as_ref().map_or(0, |f| f.counters[i]))
        })
    }

    #[inline]
    fn figure_counter(&self, state: &State, c: usize, figure: i64) -> Option<usize> {
        let n = self.board.as_ref()?.counters.len();
        let i = usize::try_from(figure).ok()? * n + c;
        (i < state.figures.0.as_ref()?.counters.len()).then_some(i)
    }

    /// `set C to N`: the value must lie in the range of a pack's numbers, as every counter's.
    pub(super) fn set_counter(&self, state: &mut State, to: &CounterRef, value: i64, seat: usize) {
        if let CounterRef::Table(c) | CounterRef::Seat(c, _) = to {
            let i = self.counter_slot(state, *c, seat);
            if (-super::fault::LIMIT..=super::fault::LIMIT).contains(&value) {
                state.counts.0[i] = value;
            } else {
                let was = state.counts.0[i];
                super::fault::fail(super::fault::Fault::Counter {
                    counter: *c as u16,
                    value: was,
                    amount: value - was.clamp(-super::fault::LIMIT, super::fault::LIMIT),
                });
            }
        }
    }

    /// `add N to C`: to the counter of `seat` (a seat's), the table's or `figure`'s.
    pub(super) fn add_to(
        &self,
        state: &mut State,
        to: &CounterRef,
        amount: i64,
        figure: i64,
        seat: usize,
    ) {
        match to {
            CounterRef::Table(c) | CounterRef::Seat(c, _) if self.counters[*c].climb.is_some() => {
                self.climb(state, *c, amount, seat);
            }
            CounterRef::Table(c) | CounterRef::Seat(c, _) => {
                let i = self.counter_slot(state, *c, seat);
                let was = state.counts.0[i];
                match was.checked_add(amount) {
                    Some(v) if (-super::fault::LIMIT..=super::fault::LIMIT).contains(&v) => {
                        state.counts.0[i] = v;
                    }
                    _ => super::fault::fail(super::fault::Fault::Counter {
                        counter: *c as u16,
                        value: was,
                        amount,
                    }),
                }
            }
            CounterRef::Figure(c, _) => {
                if let Some(i) = self.figure_counter(state, *c, figure)
                    && let (Some(board), Some(f)) = (&self.board, state.figures.0.as_mut())
                {
                    // Never below 0 (a rule: "stays at 0 or more"); past what a figure
                    // holds, the move fails rather than clamp (`fault.rs`).
                    let was = i64::from(f.counters[i]);
                    let value = was.saturating_add(amount).max(0);
                    match i16::try_from(value) {
                        Ok(value) => board.set_counter(f, i, value),
                        Err(_) => super::fault::fail(super::fault::Fault::FigureCounter {
                            counter: *c as u16,
                            value: was,
                            amount,
                        }),
                    }
                }
            }
        }
    }

    /// Points added to a ladder's counter (`climbs`): the rank rises each time they reach
    /// what it needs, the surplus carried over (at the top they stay at 0); points taken away
    /// stop at 0 and never lower the rank. A rank or points set out of the ladder's range
    /// (`set rank to …`) is read clamped into it.
    #[inline(never)]
    fn climb(&self, state: &mut State, counter: usize, amount: i64, seat: usize) {
        let Some(climb) = &self.counters[counter].climb else {
            return;
        };
        let Some(ladder) = climb.ladders.get(usize::from(state.players)) else {
            return;
        };
        let (p, r) = (
            self.counter_slot(state, counter, seat),
            self.counter_slot(state, climb.rank, seat),
        );
        let top = ladder.ranks();
        let mut rank = state.counts.0[r].clamp(0, top as i64) as u8;
        let mut points = state.counts.0[p].clamp(0, i64::from(u32::MAX)) as u32;
        match u32::try_from(amount) {
            Ok(n) => {
                ladder.gain(&mut rank, &mut points, n);
            }
            Err(_) => {
                let n = u32::try_from(amount.unsigned_abs()).unwrap_or(u32::MAX);
                grail_engine::ladder::Ladder::lose(&mut points, n);
            }
        }
        // Points past the counters' range (`fault::LIMIT`) fail the move, as any counter's.
        if i64::from(points) > super::fault::LIMIT {
            super::fault::fail(super::fault::Fault::Counter {
                counter: counter as u16,
                value: state.counts.0[p],
                amount,
            });
            return;
        }
        state.counts.0[p] = i64::from(points);
        state.counts.0[r] = i64::from(rank);
    }

    pub(super) fn give(&self, state: &mut State, role: usize, figure: i64) {
        if let (Some(board), Some(f)) = (&self.board, state.figures.0.as_mut())
            && let Ok(m) = u8::try_from(figure)
            && board.figure(f, m).0 == board.roles[role].kind
        {
            f.roles[role] = m;
            if board.roles[role].tally.is_some() {
                // Counted under the figure's card (its index in its kind's set).
                let (_, _, i) = board.figure(f, m);
                let entry = (
                    ROLE_TALLY | role as u16,
                    i as u16,
                    state.turn,
                    state.current,
                );
                state.tallies.push(entry);
            }
        }
    }

    /// A counter's entry in a script's position: `"points P1": ["5"]`, `"supply": ["3"]`.
    pub(super) fn counter_position(
        &self,
        state: &mut State,
        words: &[&str],
        held: &[String],
    ) -> Option<Result<(), String>> {
        let c = self
            .counters
            .iter()
            .position(|c| Some(&c.name.as_str()) == words.first())?;
        let seat = match (self.counters[c].owned, &words[1..]) {
            (false, []) => 0,
            (true, [p]) => match grail_engine::seats::parse_seat(p, usize::from(state.players)) {
                Some(s) => s,
                None => {
                    return Some(Err(format!(
                        "`{p}` is not a seat here (P1 … P{})",
                        state.players
                    )));
                }
            },
            (true, _) => return Some(Err(format!("name whose it is: `{} P1`", words[0]))),
            (false, _) => return Some(Err(format!("`{}` is the table's: name no seat", words[0]))),
        };
        let [v] = held else {
            return Some(Err(format!("give one value, not {}", held.len())));
        };
        let Ok(v) = v.parse::<i64>() else {
            return Some(Err(format!("a counter holds a number, not `{v}`")));
        };
        let i = self.counter_slot(state, c, seat);
        state.counts.0[i] = v;
        Some(Ok(()))
    }

    /// `score P1`-style queries for seat counters, `supply` for the table's.
    pub(super) fn counter_answer(
        &self,
        state: &State,
        words: &[&str],
    ) -> Option<Result<String, String>> {
        let c = self
            .counters
            .iter()
            .position(|c| Some(&c.name.as_str()) == words.first())?;
        let seat = match (self.counters[c].owned, &words[1..]) {
            (false, []) => 0,
            (true, [p]) => match grail_engine::seats::parse_seat(p, usize::from(state.players)) {
                Some(s) => s,
                None => {
                    return Some(Err(format!(
                        "`{p}` is not a seat here (P1 … P{})",
                        state.players
                    )));
                }
            },
            _ => return None,
        };
        Some(Ok(
            state.counts.0[self.counter_slot(state, c, seat)].to_string()
        ))
    }
}
