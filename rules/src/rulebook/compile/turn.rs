//! The turn: effects, actions and steps compiled, and the limits a turn keeps.

use crate::rulebook::model::{Action, Effect, Expr, MOST_NUMBER, Param, Step, Who};
use crate::rulebook::syntax::{self, Ast, Statement};
use grail_engine::diag::Diagnostic;
use grail_schema::model::Sp;

use super::{Compiler, Kind, MAX_ACTIONS, MAX_REPEAT, MAX_STAGES, MAX_STEPS, NO_SCOPE, Scope};

impl Compiler<'_> {
    /// Effect lines; `card` is the action's card parameter zone, if any.
    pub fn effects(
        &mut self,
        s: &Sp<String>,
        scope: Scope,
        card_zone: Option<usize>,
        setup: bool,
    ) -> Vec<Effect> {
        let lines = match syntax::statements(&s.value) {
            Ok(l) => l,
            Err(e) => {
                self.syntax_error(s, e);
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for line in lines {
            let effect = self.statement(&line.statement, s, scope, card_zone, &line.span);
            let effect = match (&line.guard, effect) {
                // A `for each` line's condition is asked of each seat, as `P`.
                (Some(g), Some(Effect::ForEach { seats, from, body })) => {
                    let each = Scope {
                        player: true,
                        ..scope
                    };
                    self.typed(g, s, each, Kind::Bool)
                        .map(|cond| Effect::ForEach {
                            seats,
                            from,
                            body: Box::new(Effect::If {
                                cond: cond.into(),
                                then: body,
                            }),
                        })
                }
                (Some(g), Some(e)) => self.typed(g, s, scope, Kind::Bool).map(|cond| Effect::If {
                    cond: cond.into(),
                    then: Box::new(e),
                }),
                (_, e) => e,
            };
            if let Some(e) = effect {
                let inner = match &e {
                    Effect::ForEach { body, .. } => body.as_ref(),
                    e => e,
                };
                let misplaced = match inner {
                    Effect::Move { .. } => setup,
                    Effect::Deal { .. } => !setup,
                    _ => false,
                };
                if misplaced {
                    let what = if setup {
                        "`move` is for actions"
                    } else {
                        "`deal` is for the setup"
                    };
                    let at = self.span(s, &line.span);
                    self.error("invalid-expression", what.into(), &s.loc, at);
                    continue;
                }
                out.push(e);
            }
        }
        out
    }

    /// `tally <kind> [card]`: the kind a word (`trick-won`), the item a card if given.
    fn tally_effect(
        &mut self,
        kind: &crate::rulebook::syntax::Node,
        item: Option<&crate::rulebook::syntax::Node>,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Effect> {
        let Ast::Name(name) = &kind.ast else {
            let at = self.span(s, &kind.span);
            let msg =
                "`tally` counts under a kind, a word: `tally trick-won` or `tally taken card`"
                    .to_string();
            self.error("invalid-expression", msg, &s.loc, at);
            return None;
        };
        let (item, set) = match item {
            None => (None, None),
            Some(node) => match self.expr(node, s, scope)? {
                (e, Kind::Card(set)) => (Some(e), Some(set)),
                _ => {
                    let at = self.span(s, &node.span);
                    let msg =
                        "`tally` counts a card under its kind: `tally taken card`".to_string();
                    self.error("type-mismatch", msg, &s.loc, at);
                    return None;
                }
            },
        };
        let key = (name.clone(), set);
        let entry = match self.effect_tallies.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                self.effect_tallies.push(key);
                self.effect_tallies.len() - 1
            }
        };
        // The entry shares a 16-bit word with the tally bits (`model::EFFECT_TALLY`).
        let entry = u16::try_from(entry).ok().filter(|&e| e < 0x1000)?;
        Some(Effect::Tally { entry, item })
    }

    /// One effect line's statement.
    fn statement(
        &mut self,
        statement: &Statement,
        s: &Sp<String>,
        scope: Scope,
        card_zone: Option<usize>,
        span: &std::ops::Range<usize>,
    ) -> Option<Effect> {
        match statement {
            Statement::Shuffle(z) => self.shuffle_effect(z, s, scope),
            Statement::Deal { count, from, to } => (|| {
                let count = self.typed(count, s, scope, Kind::Int)?;
                let from = self.zone_ref(from, s, scope)?;
                let target = self.zone_ref(to, s, scope)?;
                if target.who != Who::Each {
                    let at = self.span(s, &to.span);
                    self.error(
                        "invalid-expression",
                        "`deal` deals to every seat: `to zone(each)`".into(),
                        &s.loc,
                        at,
                    );
                    return None;
                }
                self.check_deal(&count, &from, s, span);
                self.same_set(from.zone, target.zone, s, span)
                    .then_some(Effect::Deal {
                        count: count.into(),
                        from,
                        to: target.zone,
                    })
            })(),
            Statement::Draw {
                count,
                random,
                from,
                to,
            } => (|| {
                let count = self.typed(count, s, scope, Kind::Int)?;
                let from = self.zone_ref(from, s, scope)?;
                let to = self.zone_ref(to, s, scope)?;
                self.check_draw(&count, &from, s, span);
                let same = self.same_set(from.zone, to.zone, s, span);
                let count = count.into();
                same.then_some(match random {
                    true => Effect::DrawAtRandom { count, from, to },
                    false => Effect::Draw { count, from, to },
                })
            })(),
            Statement::Reveal { from, into, until } => self.reveal(s, scope, from, into, until),
            Statement::Mark(card) => self.mark(s, card, card_zone),
            Statement::Turn { zone, up } => self.turn_effect(zone, *up, s, scope),
            Statement::Show { zone, to } => self.show_effect(zone, to, s, scope),
            Statement::Award { zone, to } => self.award(s, zone, to),
            Statement::Move {
                card,
                from: Some(from),
                to,
            } => (|| {
                let (card, set) = match self.expr(card, s, scope)? {
                    (e, Kind::Card(set)) => (e, set),
                    _ => {
                        let at = self.span(s, &card.span);
                        let msg = "`move … from Z to Z2` moves a card: a card's id \
                                   (`crown-of-camelot`), `card`, or `top_card(Z)`"
                            .to_string();
                        self.error("type-mismatch", msg, &s.loc, at);
                        return None;
                    }
                };
                let from = self.zone_ref(from, s, scope)?;
                let to = self.zone_ref(to, s, scope)?;
                if self.zones[from.zone].set != set {
                    let at = self.span(s, span);
                    let msg = format!(
                        "the card moved is of set `{}`, and zone `{}` holds set `{}`",
                        self.sets[set].id,
                        self.zones[from.zone].name,
                        self.sets[self.zones[from.zone].set].id
                    );
                    self.error("zone-set-mismatch", msg, &s.loc, at);
                    return None;
                }
                self.same_set(from.zone, to.zone, s, span)
                    .then_some(Effect::MoveNamed { card, from, to })
            })(),
            Statement::Move {
                card,
                from: None,
                to,
            } => (|| {
                let Some(from) = card_zone.filter(|_| card.ast == Ast::Name("card".into())) else {
                    let at = self.span(s, &card.span);
                    self.error(
                        "invalid-expression",
                        "`move` moves the action's `card` parameter".into(),
                        &s.loc,
                        at,
                    );
                    return None;
                };
                let to = self.zone_ref(to, s, scope)?;
                self.same_set(from, to.zone, s, span)
                    .then_some(Effect::Move { to })
            })(),
            Statement::Place { figure, seat } => self.place_effect(figure, seat, s, scope),
            Statement::Step { figure, by } => self.step_effect(figure, by, s, scope),
            Statement::Add { amount, to } => self.counter_effect(true, amount, to, s, scope),
            Statement::Give { role, to } => self.counter_effect(false, role, to, s, scope),
            Statement::Set { counter, value } => self.set_effect(counter, value, s, scope),
            Statement::Tally { kind, item } => self.tally_effect(kind, item.as_ref(), s, scope),
            Statement::ForEach { seats, from, body } => {
                let seats = self.seat_set(seats, s)?;
                let from = match from {
                    Some(node) => {
                        if self.condition_for_seat(node, s, "`from` names the seat to start at") {
                            return None;
                        }
                        let e = self.typed(node, s, scope, Kind::Int)?;
                        self.fixed_seat(&e, s, &node.span)?;
                        Some(e)
                    }
                    None => None,
                };
                let each = Scope {
                    player: true,
                    ..scope
                };
                let body = self.statement(body, s, each, card_zone, span)?;
                Some(Effect::ForEach {
                    seats,
                    from,
                    body: Box::new(body),
                })
            }
        }
    }

    /// `number = "1..12"`: a number, the action's one parameter; its bounds are numbers or
    /// `$params` from 0 to [`MOST_NUMBER`], the lower first.
    fn number_param(&mut self, def: &Sp<String>, other: bool) -> Option<Param> {
        if other {
            let msg = "an action takes one parameter: `card`, `row`, `seat`, `target`, `number` \
                       or `figure` (or a card and a figure)"
                .to_string();
            self.error("invalid-value", msg, &def.loc, def.loc.span.clone());
            return None;
        }
        // A bound that does not compile is reported as it is; one that is not a number is
        // `None` here, and the range is refused below.
        let bound = |c: &mut Self, text: &str| -> Result<Option<i64>, ()> {
            let part = Sp {
                value: text.trim().to_string(),
                loc: def.loc.clone(),
            };
            match c.expression(&part, NO_SCOPE, false).ok_or(())? {
                Expr::Const(v) => Ok(Some(v)),
                _ => Ok(None),
            }
        };
        let Some((lo, hi)) = def.value.split_once("..") else {
            let msg = format!("`number` is a range like `1..12`, not `{}`", def.value);
            self.error("invalid-value", msg, &def.loc, def.loc.span.clone());
            return None;
        };
        let msg = match (bound(self, lo).ok()?, bound(self, hi).ok()?) {
            (Some(low), Some(high))
                if 0 <= low && low <= high && high <= i64::from(MOST_NUMBER) =>
            {
                return Some(Param::Number {
                    low: low as u8,
                    high: high as u8,
                });
            }
            (Some(low), Some(high)) if low > high => format!(
                "`{}` is upside down: the lower bound comes first, `{high}..{low}`",
                def.value
            ),
            (Some(_), Some(_)) => format!(
                "a move names a number from 0 to {MOST_NUMBER}, so `number` cannot range over `{}`",
                def.value
            ),
            _ => format!(
                "the bounds of `number` are numbers or `$params`, so that its moves can be listed \
                 (let the guard ask the rest: `if = \"number <= count(hand(current))\"`), not \
                 `{}`",
                def.value
            ),
        };
        self.error("invalid-value", msg, &def.loc, def.loc.span.clone());
        None
    }

    /// `[actions.*]`.
    pub fn actions(&mut self) -> Vec<Action> {
        let defs = &self.pack.rulebook.actions;
        self.action_names = defs.keys().map(str::to_string).collect();
        // Card parameters first: `discard.card` may be read by an action listed earlier.
        let mut params = Vec::new();
        let mut failed = Vec::new();
        let decided = self.decided_actions();
        for (name, def) in defs.iter() {
            // Offered to other seats (`who`): `P` is the seat deciding, its zones theirs.
            let param_scope = Scope {
                player: decided.contains(&name.value),
                ..NO_SCOPE
            };
            let param = match (&def.card, &def.row) {
                (Some(c), _) if def.target.is_some() => def.target.as_ref().and_then(|t| {
                    let other = (def.row.as_ref())
                        .or(def.seat.as_ref())
                        .or(def.number.as_ref())
                        .or(def.figure.as_ref());
                    self.player_card_param(t, c, other, param_scope)
                }),
                _ if def.target.is_some() => def.target.as_ref().and_then(|t| {
                    let other = def.row.is_some()
                        || def.seat.is_some()
                        || def.number.is_some()
                        || def.figure.is_some();
                    self.target_param(t, other)
                }),
                _ if def.number.is_some() => def.number.as_ref().and_then(|n| {
                    let other = def.card.is_some()
                        || def.row.is_some()
                        || def.seat.is_some()
                        || def.figure.is_some();
                    self.number_param(n, other)
                }),
                _ if def.seat.is_some() => {
                    self.seat_param(def.seat.as_ref(), def.card.is_some() || def.row.is_some())
                }
                _ if def.figure.is_some() => self.figure_param(def),
                (Some(c), None) => self
                    .parameter(c, "card")
                    .and_then(|node| self.zone_ref(&node, c, param_scope))
                    .map(Param::Card),
                (None, Some(r)) => self.parameter(r, "row").and_then(|node| {
                    match self.zone_ref(&node, r, param_scope) {
                        Some(z) if self.zones[z.zone].by.is_some() && z.row.is_none() => {
                            Some(Param::Row {
                                zone: z.zone,
                                who: z.who,
                            })
                        }
                        Some(_) => {
                            let at = self.span(r, &node.span);
                            self.error(
                                "invalid-expression",
                                "a row parameter is drawn from a zone with rows".into(),
                                &r.loc,
                                at,
                            );
                            None
                        }
                        None => None,
                    }
                }),
                (None, None) => Some(Param::None),
                (Some(c), Some(_)) => {
                    self.error(
                        "invalid-value",
                        "an action takes one parameter: `card` or `row`".into(),
                        &c.loc,
                        c.loc.span.clone(),
                    );
                    None
                }
            };
            // A parameter refused (reported where it is written): its action's lines would
            // only repeat the mistake as names that mean nothing, so they are not compiled.
            failed.push(param.is_none());
            params.push(param.unwrap_or(Param::None));
        }
        self.action_cards = params
            .iter()
            .map(|p| p.card_zone().map(|z| self.zones[z.zone].set))
            .collect();
        let mut out = Vec::new();
        self.param_failed = failed.contains(&true);
        for (((name, def), param), failed) in defs.iter().zip(params).zip(failed) {
            if failed {
                out.push(Action {
                    name: def.verb.as_ref().unwrap_or(name).value.clone(),
                    param,
                    before_card: None,
                    guard: None,
                    effects: Vec::new(),
                    reveals: false,
                    pay: None,
                    choose: None,
                    why: None,
                    missing: None,
                    place: self.place(&def.effects),
                    loc: def.effects.loc.clone(),
                    standing: None,
                });
                continue;
            }
            let scope = Scope {
                card: param.card_zone().map(|z| self.zones[z.zone].set),
                row: match &param {
                    Param::Row { zone, .. } => Some(*zone),
                    _ => None,
                },
                // Offered to other seats (`who`): `P` is the seat deciding.
                player: decided.contains(&name.value),
                seat: matches!(param, Param::Seat),
                target: matches!(param, Param::Player(_) | Param::PlayerCard { .. }),
                number: matches!(param, Param::Number { .. }),
                // A figure parameter refused above is not reported again where it is read.
                figure: matches!(param, Param::Figure { .. } | Param::CardFigure { .. })
                    || def.figure.is_some(),
                chosen: def.choose.is_some(),
            };
            let guard = def.guard.as_ref().and_then(|g| self.guard(g, scope));
            let card_zone = param.card_zone().map(|z| z.zone);
            let effects = self.effects(&def.effects, scope, card_zone, false);
            // A seat asked pays from its own cards (`from = "hand(P)"`), but the figures a
            // choice is made of are the player to move's, and a standing action is taken by
            // whichever seat is deciding.
            let refused = match def.standing {
                Some(_) => (def.pay.as_ref().map(|p| &p.from.loc))
                    .or(def.choose.as_ref().map(|c| &c.figures.loc)),
                None => def.choose.as_ref().map(|c| &c.figures.loc),
            };
            if scope.player
                && let Some(at) = refused
            {
                let msg = match def.standing {
                    Some(_) => format!(
                        "action `{}` is a standing action, taken by whichever seat is deciding: \
                         it takes no payment or choice of figures",
                        name.value
                    ),
                    None => format!(
                        "action `{}` is offered to other seats (a step's `who`): it takes no \
                         choice of figures (it may take a payment, from the seat's own cards)",
                        name.value
                    ),
                };
                self.error("invalid-value", msg, at, at.span.clone());
            }
            let pay = def.pay.as_ref().and_then(|p| self.pay(p, scope));
            // A seat asked pays from its own cards (the payment memo is the payer's).
            if let (Some(p), Some(written)) = (&pay, &def.pay)
                && scope.player
                && def.standing.is_none()
                && !matches!(p.from.who, Who::Player | Who::Table)
            {
                let msg = format!(
                    "action `{}` is offered to other seats (a step's `who`): the seat asked pays \
                     from its own cards, `{}(P)`, or the table's, not `{}`",
                    name.value, self.zones[p.from.zone].name, written.from.value
                );
                let at = &written.from.loc;
                self.error("invalid-value", msg, at, at.span.clone());
            }
            let choose = self.action_choice(def, scope);
            let why = def.why.as_ref().and_then(|w| self.template(w, scope, true));
            let missing = def.missing.as_ref().and_then(|w| {
                if param.card_zone().is_none() {
                    let msg = format!(
                        "action `{}` takes no card: `missing` says what a move naming a card \
                         not where the action draws it from is told",
                        name.value
                    );
                    self.error("invalid-value", msg, &w.loc, w.loc.span.clone());
                    return None;
                }
                self.template(w, scope, true)
            });
            let before_card = def.before_card.as_ref().and_then(|w| {
                let word = w.value.trim();
                let msg = if !matches!(param, Param::PlayerCard { .. }) {
                    format!(
                        "action `{}` takes no player and card: `before_card` is the word between \
                         them in its moves (`pray for P3 with piety`)",
                        name.value
                    )
                } else if word.is_empty() || !word.chars().all(|c| c.is_alphabetic() || c == '-') {
                    format!("`before_card` is one word (`with`), not `{}`", w.value)
                } else {
                    return Some(word.to_string());
                };
                self.error("invalid-value", msg, &w.loc, w.loc.span.clone());
                None
            });
            let standing = (def.standing.as_ref())
                .and_then(|w| Some((self.expression(w, scope, true)?, w.value.trim().to_string())));
            let reveals = effects.iter().any(|e| matches!(e, Effect::Move { to } if self.zones[to.zone].visible == grail_schema::model::Visibility::Public));
            out.push(Action {
                // The verb of its moves: its `verb`, else its name.
                name: def.verb.as_ref().unwrap_or(name).value.clone(),
                param,
                before_card,
                guard,
                effects,
                reveals,
                pay,
                choose,
                why,
                missing,
                place: self.place(&def.effects),
                loc: def.effects.loc.clone(),
                standing,
            });
        }
        out
    }

    /// What the state counts in fixed widths, refused past its limit where the description
    /// writes the first one too many: the steps of every stage together ([`MAX_STEPS`]: a
    /// step is a bit of `step(…)`'s mask and of the card tables'), the stages before the
    /// turns ([`MAX_STAGES`]) and the actions ([`MAX_ACTIONS`]: `done(…)` is a bit per action).
    fn step_limits(&mut self, steps: usize) {
        let rb = &self.pack.rulebook;
        if steps > MAX_STEPS {
            let turn = rb.stages.get("turn").into_iter();
            let others = (rb.stages.iter())
                .filter(|(k, _)| k.value != "turn")
                .map(|(_, d)| d);
            if let Some(at) = turn
                .chain(others)
                .flat_map(|d| d.steps.iter())
                .nth(MAX_STEPS)
            {
                let msg = format!(
                    "the stages list {steps} steps in all; a description has at most {MAX_STEPS} (a step listed twice counts twice)"
                );
                self.error("over-limit", msg, &at.loc, at.loc.span.clone());
            }
        }
        let stages = rb.stages.0.iter().filter(|(k, _)| k.value != "turn");
        if let Some((at, _)) = stages.clone().nth(MAX_STAGES) {
            let msg = format!(
                "{} stages before the turns; a description has at most {MAX_STAGES}",
                stages.count()
            );
            self.error("over-limit", msg, &at.loc, at.loc.span.clone());
        }
        if let Some((at, _)) = rb.actions.0.get(MAX_ACTIONS) {
            let msg = format!(
                "{} actions; a description has at most {MAX_ACTIONS} (`done(…)` keeps a bit per action)",
                rb.actions.0.len()
            );
            self.error("over-limit", msg, &at.loc, at.loc.span.clone());
        }
    }

    /// The `turn` stage's steps, each offering known actions; every action offered somewhere.
    pub fn steps(&mut self) -> Vec<Step> {
        let rb = &self.pack.rulebook;
        let Some(turn) = rb.stages.get("turn") else {
            let at = self
                .pack
                .rulebook
                .zones
                .0
                .first()
                .map(|(k, _)| k.loc.clone());
            let mut d = Diagnostic::error(
                "missing-field",
                "the description needs `[stages.turn]`: the steps of one player's turn",
            );
            if let Some(at) = at {
                d = d.at(at.source, at.span, "in this pack");
            }
            self.diags.push(d);
            return Vec::new();
        };
        let mut steps = Vec::new();
        let names = self.stage_names();
        let mut step_of = |c: &mut Self, step: &Sp<String>| -> Option<Step> {
            let rb = &c.pack.rulebook;
            if super::stages::entered_name(&step.value).is_some() {
                return c.entering_step(&names, step);
            }
            let Some(def) = rb.steps.get(&step.value) else {
                let msg = grail_engine::diag::no_such("step", &step.value, rb.steps.keys());
                c.error("unknown-step", msg, &step.loc, step.loc.span.clone());
                return None;
            };
            let enter = c.dispatch(&names, step, def);
            if enter.is_none() && def.dispatch.is_none() && def.actions.is_empty() {
                let msg = format!(
                    "step `{}` offers no action: it needs `actions` (or `dispatch`, to enter a stage)",
                    step.value
                );
                c.error("missing-field", msg, &step.loc, step.loc.span.clone());
            }
            let mut actions = Vec::new();
            for a in &def.actions {
                match c.action_names.iter().position(|n| *n == a.value) {
                    Some(i) => actions.push(i),
                    None => {
                        let msg = grail_engine::diag::no_such(
                            "action",
                            &a.value,
                            c.action_names.iter().map(String::as_str),
                        );
                        c.error("unknown-action", msg, &a.loc, a.loc.span.clone());
                    }
                }
            }
            // `P` in a step other seats decide is the seat asked.
            let step_scope = Scope {
                player: def.who.is_some(),
                ..NO_SCOPE
            };
            let looped = def
                .repeat
                .as_ref()
                .and_then(|r| Some((r, syntax::repeat_while(&r.value)?)));
            let repeat_while = looped.is_some();
            let repeat = match looped {
                Some((r, Ok(node))) => c.typed(&node, r, step_scope, Kind::Bool),
                Some((r, Err(e))) => {
                    c.syntax_error(r, e);
                    None
                }
                None => def
                    .repeat
                    .as_ref()
                    .and_then(|r| c.expression(r, NO_SCOPE, false)),
            };
            // The actions taken at a step are counted in a byte: a fixed count past it is
            // refused (one read from the state is bounded where it is read).
            // A param given per player count is checked for each count.
            let fixed: &[i64] = match &repeat {
                Some(Expr::Const(n)) => std::slice::from_ref(n),
                Some(Expr::Counter(crate::rulebook::model::CounterExpr::ByPlayers(v))) => {
                    let (min, max) = c.pack.players;
                    &v[usize::from(min).min(v.len())..(usize::from(max) + 1).min(v.len())]
                }
                _ => &[],
            };
            if let (Some(n), Some(r)) = (
                fixed.iter().find(|n| !(1..=MAX_REPEAT).contains(*n)),
                &def.repeat,
            ) {
                let msg = format!(
                    "step `{}` repeats {n} times; a step takes 1 to {MAX_REPEAT} actions",
                    step.value
                );
                // A step listed in two stages compiles twice: reported once.
                if !c.diags.iter().any(|d| d.message == msg) {
                    c.error("over-limit", msg, &r.loc, r.loc.span.clone());
                }
            }
            Some(Step {
                name: step.value.clone(),
                actions,
                optional: def.optional.as_ref().is_some_and(|o| o.value),
                pass: def
                    .pass
                    .as_ref()
                    .and_then(|w| c.pass_word(&step.value, def, w)),
                prompt: def.prompt.as_ref().map(|p| p.value.clone()),
                by_card: def.by_card.as_ref().is_some_and(|b| b.value),
                auto: def.auto.as_ref().is_some_and(|b| b.value),
                who: def.who.as_ref().and_then(|w| c.deciders(w)),
                keep: def.keep.as_ref().and_then(|k| {
                    Some((c.expression(k, step_scope, true)?, k.value.trim().into()))
                }),
                repeat,
                loc: step.loc.clone(),
                repeat_text: def.repeat.as_ref().map(|r| r.value.trim().to_string()),
                repeat_while,
                enter,
            })
        };
        for step in &turn.steps {
            if let Some(st) = step_of(self, step) {
                steps.push(st);
            }
        }
        self.turn_steps = steps.len();
        self.stages = self.other_stages(&names, &mut steps, &mut step_of);
        let stages = std::mem::take(&mut self.stages);
        self.check_entered(&steps, &stages, self.turn_steps);
        self.stages = stages;
        self.step_limits(steps.len());
        for (name, _) in rb.steps.iter() {
            if !steps.iter().any(|s| s.name == name.value) {
                let msg = format!("step `{}` is in no stage", name.value);
                self.error("unreachable", msg, &name.loc, name.loc.span.clone());
            }
        }
        for (i, (name, def)) in rb.actions.iter().enumerate() {
            let listed = steps.iter().find(|s: &&Step| s.actions.contains(&i));
            if let (Some(_), Some(step)) = (&def.standing, listed) {
                let msg = format!(
                    "action `{}` is a standing action, offered at every decision while its window holds: it is listed in no step",
                    name.value
                );
                self.error("invalid-value", msg, &step.loc, step.loc.span.clone());
            }
            if listed.is_none() && def.standing.is_none() {
                let msg = format!("action `{}` is offered by no step", name.value);
                self.error("unreachable", msg, &name.loc, name.loc.span.clone());
            }
        }
        steps
    }
}
