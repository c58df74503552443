//! Checking and compiling the mechanics of card-challenge games, none named after a game:
//! rows keyed by a param, `reveal … until`, refilling stacks, payments
//! (`pay = { from, meets, args, to }`), and the expressions `fullest`, `if`, `best`,
//! `rising`, `cheapest` and `paying`.

use grail_engine::cond::ceiling::Ceiling;
use grail_engine::diag::Diagnostic;
use grail_schema::model::{Layout, ParamValue, PayDef, Sp};

use super::compile::{Compiler, Kind, Scope};
use super::model::{Action, Effect, Expr, Meets, Pay, Rising, Step, Who};
use super::syntax::{self, Ast, Node};

impl Compiler<'_> {
    /// `by = "$column_attribute"`: a text param naming the attribute; else the text itself.
    pub(super) fn param_text(&mut self, by: &Sp<String>) -> Sp<String> {
        let Some(name) = by.value.strip_prefix('$') else {
            return by.clone();
        };
        match self.pack.param(name).map(|p| p.value.clone()) {
            Ok(ParamValue::Text(t)) => Sp::new(t, by.loc.clone()),
            _ => {
                let known: Vec<&str> = self.pack.params.iter().map(|p| p.name.as_str()).collect();
                let msg = grail_engine::diag::no_such("text param", name, known);
                self.error("unknown-param", msg, &by.loc, by.loc.span.clone());
                by.clone()
            }
        }
    }

    /// `refill = "<zone>"`: a table zone of the same set, shuffled into the stack when it
    /// runs out.
    pub(super) fn refills(&mut self) {
        let defs = &self.pack.rulebook.zones;
        for (name, def) in defs.iter() {
            let Some(refill) = &def.refill else { continue };
            let Some(to) = self.zones.iter().position(|z| z.name == name.value) else {
                continue;
            };
            let Some(from) = self.zones.iter().position(|z| z.name == refill.value) else {
                let msg = grail_engine::diag::no_such(
                    "zone",
                    &refill.value,
                    self.zones.iter().map(|z| z.name.as_str()),
                );
                self.error("unknown-zone", msg, &refill.loc, refill.loc.span.clone());
                continue;
            };
            let (a, b) = (&self.zones[from], &self.zones[to]);
            let problem = if from == to {
                Some(format!(
                    "zone `{}` refills from itself: an empty stack cannot take its own cards",
                    a.name
                ))
            } else if a.set != b.set {
                Some(format!(
                    "zone `{}` holds set `{}`, not `{}`",
                    a.name, self.sets[a.set].id, self.sets[b.set].id
                ))
            } else if b.layout != Layout::Stack || b.owned || a.owned || a.by.is_some() {
                Some("a table stack is refilled from a table zone without rows".into())
            } else {
                None
            };
            match problem {
                Some(msg) => {
                    let code = if from == to {
                        "refill-cycle"
                    } else if a.set != b.set {
                        "zone-set-mismatch"
                    } else {
                        "invalid-value"
                    };
                    self.error(code, msg, &refill.loc, refill.loc.span.clone());
                }
                None => self.zones[to].refill = Some(from),
            }
        }
        self.refill_cycles();
    }

    /// A chain of refills that comes back to where it started (each zone refilling the
    /// next): no draw from them would ever run out. Reported once a circle, at the `refill`
    /// of its first zone, and the circle's refills dropped.
    fn refill_cycles(&mut self) {
        let n = self.zones.len();
        for start in 0..n {
            let mut circle = vec![start];
            let mut at = start;
            while let Some(next) = self.zones[at].refill {
                if next == start || circle.len() > n {
                    break;
                }
                circle.push(next);
                at = next;
            }
            let closed = self.zones[at].refill == Some(start);
            if !closed || circle.iter().any(|&z| z < start) {
                continue;
            }
            let names: Vec<&str> = circle
                .iter()
                .map(|&z| self.zones[z].name.as_str())
                .collect();
            let msg = format!(
                "refills go round in a circle ({} ← {}, each taking the next one's cards): a draw from one into another would take back the cards it gives and might never end",
                names.join(" ← "),
                names[0]
            );
            let defs = &self.pack.rulebook.zones;
            if let Some(r) = defs.get(names[0]).and_then(|d| d.refill.as_ref()) {
                self.error("refill-cycle", msg, &r.loc, r.loc.span.clone());
            }
            for z in circle {
                self.zones[z].refill = None;
            }
        }
    }

    /// `reveal Z into R until E`.
    pub(super) fn reveal(
        &mut self,
        s: &Sp<String>,
        scope: Scope,
        from: &Node,
        into: &Node,
        until: &Node,
    ) -> Option<Effect> {
        let from = self.zone_ref(from, s, scope)?;
        let Ast::Name(name) = &into.ast else {
            let at = self.span(s, &into.span);
            self.error(
                "invalid-expression",
                "`reveal … into` names a table zone with rows".into(),
                &s.loc,
                at,
            );
            return None;
        };
        let to = self.zone_index(name, s, &into.span)?;
        if self.zones[to].by.is_none() || self.zones[to].owned {
            let at = self.span(s, &into.span);
            self.error(
                "invalid-expression",
                format!(
                    "`reveal` lays cards into their rows: `{name}` is not a table zone with rows"
                ),
                &s.loc,
                at,
            );
            return None;
        }
        if !self.same_set(from.zone, to, s, &into.span) {
            return None;
        }
        let until = self.typed(until, s, scope, Kind::Bool)?;
        Some(Effect::Reveal {
            from,
            into: to,
            until,
        })
    }

    fn zone_text(&mut self, s: &Sp<String>, scope: Scope) -> Option<super::model::ZoneRef> {
        match syntax::expression(&s.value) {
            Ok(node) => self.zone_ref(&node, s, scope),
            Err(e) => {
                self.syntax_error(s, e);
                None
            }
        }
    }

    /// A named condition over `set` taking `args` arguments.
    fn named(
        &mut self,
        name: &str,
        set: usize,
        args: usize,
        s: &Sp<String>,
        span: std::ops::Range<usize>,
    ) -> Option<Meets> {
        let pack = self.pack;
        let Ok(c) = pack.condition(name) else {
            let msg = grail_engine::diag::no_such(
                "condition",
                name,
                pack.conditions.iter().map(|c| c.name.as_str()),
            );
            let at = self.span(s, &span);
            self.error("missing-condition", msg, &s.loc, at);
            return None;
        };
        if c.over == [self.sets[set].id.clone()] && c.args.len() != args {
            let msg = format!(
                "condition `{name}` declares {} argument(s) [{}]; here it is given {args}",
                c.args.len(),
                c.args.join(", ")
            );
            let at = self.span(s, &span);
            self.error("condition-args", msg, &s.loc, at);
            return None;
        }
        if c.over != [self.sets[set].id.clone()] || c.args.len() != args {
            let msg = format!(
                "condition `{name}` ranges over {} with {} argument(s); here it is met by cards of `{}` with {args}",
                c.over.join(", "),
                c.args.len(),
                self.sets[set].id
            );
            let at = self.span(s, &span);
            self.error("type-mismatch", msg, &s.loc, at);
            return None;
        }
        Some(Meets::Named {
            ceiling: if args == 1 {
                Ceiling::new(&c.program, 0).map(Box::new)
            } else {
                None
            },
            program: Box::new(c.program.clone()),
            source: c.expr.clone(),
            // The pack's words, else the condition put in words, else as written.
            words: c.text.clone().unwrap_or_else(|| {
                (pack.set(&self.sets[set].id).ok())
                    .and_then(|ps| {
                        let names: Vec<&str> = ps.cards.iter().map(|c| c.name.as_str()).collect();
                        grail_engine::cond::words::describe(&c.expr, ps.universe(), &names)
                    })
                    .unwrap_or_else(|| format!("`{}`", c.expr))
            }),
            arg_names: c.args.clone(),
        })
    }

    /// `condition(card)`: the own conditions of the cards of `card_set`, over `set`. For a
    /// union of sets (a hand of several decks), its members' conditions one after another;
    /// members without conditions have none.
    fn own(
        &mut self,
        card_set: usize,
        set: usize,
        s: &Sp<String>,
        span: std::ops::Range<usize>,
    ) -> Option<Meets> {
        let pack = self.pack;
        let union = !self.sets[card_set].members.is_empty();
        let ids: Vec<String> = if union {
            self.sets[card_set]
                .members
                .iter()
                .map(|&(m, _)| self.sets[m].id.clone())
                .collect()
        } else {
            vec![self.sets[card_set].id.clone()]
        };
        let defs: Vec<_> = ids
            .iter()
            .filter_map(|id| pack.sets.iter().find(|x| x.id == *id))
            .collect();
        let over = Some(self.sets[set].id.as_str());
        // In a union only the members with conditions must range over `set`.
        let wrong = defs.iter().find(|d| {
            d.condition_over.as_deref() != over
                && (!union || d.cards.iter().any(|c| c.condition.is_some()))
        });
        let none = union && defs.iter().all(|d| d.condition_over.as_deref() != over);
        if let Some(def) = wrong.or(none.then(|| defs.first()).flatten()) {
            let msg = format!(
                "the conditions of `{}` do not range over `{}`",
                def.id, self.sets[set].id
            );
            let at = self.span(s, &span);
            self.error("type-mismatch", msg, &s.loc, at);
            return None;
        }
        let cards: Vec<_> = defs.iter().flat_map(|d| d.cards.iter()).collect();
        let readers = grail_engine::cond::affordable::Readers::new(
            &cards
                .iter()
                .map(|c| c.condition.as_ref().map_or(0, |x| x.program.reads()))
                .collect::<Vec<_>>(),
        );
        Some(Meets::Own {
            readers: Box::new(readers),
            programs: cards
                .iter()
                .map(|c| c.condition.as_ref().map(|x| x.program.clone()))
                .collect(),
            sources: cards
                .iter()
                .map(|c| {
                    c.condition
                        .as_ref()
                        .map_or(String::new(), |x| x.text.clone())
                })
                .collect(),
            names: cards.iter().map(|c| c.name.clone()).collect(),
        })
    }

    /// `meets`: a condition name, or `condition(<card>)`; returns the card expression too.
    pub(super) fn meets(
        &mut self,
        node: &Node,
        set: usize,
        args: usize,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<(Meets, Option<Expr>)> {
        match &node.ast {
            Ast::Name(name) => Some((self.named(name, set, args, s, node.span.clone())?, None)),
            Ast::Call(f, a) if f == "condition" && a.len() == 1 => {
                let (card, kind) = self.expr(&a[0], s, scope)?;
                let Kind::Card(card_set) = kind else {
                    let at = self.span(s, &a[0].span);
                    self.error("type-mismatch", "expected a card".into(), &s.loc, at);
                    return None;
                };
                Some((self.own(card_set, set, s, node.span.clone())?, Some(card)))
            }
            _ => {
                let at = self.span(s, &node.span);
                self.error(
                    "invalid-expression",
                    "expected a condition's name or `condition(card)`".into(),
                    &s.loc,
                    at,
                );
                None
            }
        }
    }

    /// `pay = { from, meets, args, to }`.
    pub(super) fn pay(&mut self, def: &PayDef, scope: Scope) -> Option<Pay> {
        let from = self.zone_text(&def.from, scope)?;
        let to = self.zone_text(&def.to, scope)?;
        let whole = 0..def.to.value.len();
        if !self.same_set(from.zone, to.zone, &def.to, &whole) {
            return None;
        }
        let set = self.zones[from.zone].set;
        let node = match syntax::expression(&def.meets.value) {
            Ok(n) => n,
            Err(e) => {
                self.syntax_error(&def.meets, e);
                return None;
            }
        };
        let (meets, card) = self.meets(&node, set, def.args.len(), &def.meets, scope)?;
        if card.as_ref().is_some_and(|c| !matches!(c, Expr::Card)) {
            let at = self.span(&def.meets, &node.span);
            self.error(
                "invalid-expression",
                "a payment meets the action's own card: `condition(card)`".into(),
                &def.meets.loc,
                at,
            );
            return None;
        }
        let args = def
            .args
            .iter()
            .filter_map(|a| self.expression(a, scope, false))
            .collect::<Vec<_>>();
        (args.len() == def.args.len()).then_some(Pay {
            from,
            to,
            meets,
            args,
        })
    }

    /// The functions added with payments; `None` when `f` is none of them.
    pub(super) fn mechanic(
        &mut self,
        node: &Node,
        f: &str,
        args: &[Node],
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Option<(Expr, Kind)>> {
        let want = match f {
            "fullest" | "paying" | "marked" | "mine" | "marks" => 1,
            "best" => 2,
            "if" | "cheapest" => 3,
            // A group begun is optional.
            "rising" if args.len() == 7 => 7,
            "rising" => 6,
            _ => return None,
        };
        if args.len() != want {
            let span = self.span(s, &node.span);
            let takes = match f {
                "rising" => "6 or 7 arguments".to_string(),
                _ => format!("{want} argument(s)"),
            };
            self.error(
                "invalid-expression",
                format!("`{f}` takes {takes}"),
                &s.loc,
                span,
            );
            return Some(None);
        }
        Some((|| match f {
            "marked" | "mine" | "marks" => self.mark_call(f, &args[0], s, scope),
            "fullest" => Some((Expr::Fullest(self.zone_ref(&args[0], s, scope)?), Kind::Int)),
            "paying" => {
                let a = self.action_named(&args[0], s)?;
                Some((Expr::Paying(a), Kind::Bool))
            }
            "if" => {
                let c = self.typed(&args[0], s, scope, Kind::Bool)?;
                let a = self.typed(&args[1], s, scope, Kind::Int)?;
                let b = self.typed(&args[2], s, scope, Kind::Int)?;
                Some((Expr::If(Box::new(c), Box::new(a), Box::new(b)), Kind::Int))
            }
            "best" => {
                let zone = self.zone_ref(&args[0], s, scope)?;
                let inner = Scope {
                    card: Some(self.zones[zone.zone].set),
                    ..scope
                };
                let body = self.typed(&args[1], s, inner, Kind::Int)?;
                Some((
                    Expr::Best {
                        zone,
                        body: Box::new(body),
                    },
                    Kind::Int,
                ))
            }
            "rising" => {
                let n = self.typed(&args[0], s, scope, Kind::Int)?;
                let above = self.typed(&args[1], s, scope, Kind::Int)?;
                let from = self.zone_ref(&args[2], s, scope)?;
                let set = self.zones[from.zone].set;
                let seed = match args.get(6) {
                    Some(g) => {
                        let seed = self.zone_ref(g, s, scope)?;
                        if self.zones[seed.zone].set != set {
                            let span = self.span(s, &g.span);
                            let msg = format!(
                                "the group begun holds set `{}`, the cards it is finished \
                                 with set `{}`",
                                self.sets[self.zones[seed.zone].set].id, self.sets[set].id
                            );
                            self.error("invalid-expression", msg, &s.loc, span);
                            return None;
                        }
                        Some(seed)
                    }
                    None => None,
                };
                let inner = Scope {
                    card: Some(set),
                    ..scope
                };
                let lead = self.typed(&args[3], s, inner, Kind::Bool)?;
                let member = self.typed(&args[4], s, inner, Kind::Bool)?;
                let value = self.typed(&args[5], s, inner, Kind::Int)?;
                Some((
                    Expr::Rising(Box::new(Rising {
                        n,
                        above,
                        from,
                        lead,
                        member,
                        value,
                        seed,
                        roles: None,
                        role_zones: None,
                    })),
                    Kind::Bool,
                ))
            }
            "cheapest" => {
                let from = self.zone_ref(&args[1], s, scope)?;
                let set = self.zones[from.zone].set;
                let (meets, card) = self.meets(&args[0], set, 0, s, scope)?;
                let Ast::Name(cost) = &args[2].ast else {
                    let span = self.span(s, &args[2].span);
                    self.error(
                        "invalid-expression",
                        "the cost is a named condition".into(),
                        &s.loc,
                        span,
                    );
                    return None;
                };
                let Meets::Named { program: cost, .. } =
                    self.named(cost, set, 0, s, args[2].span.clone())?
                else {
                    return None;
                };
                Some((
                    Expr::Cheapest {
                        meets: Box::new(meets),
                        card: card.map(Box::new),
                        from,
                        cost,
                    },
                    Kind::Int,
                ))
            }
            _ => None,
        })())
    }

    /// A count written as a number or a number param (`"$seals_per_player"`).
    pub(super) fn param_int(&mut self, s: &Sp<String>) -> Option<i64> {
        if let Ok(n) = s.value.trim().parse::<i64>() {
            return Some(n);
        }
        let name = s.value.trim().strip_prefix('$').unwrap_or(&s.value);
        if let Some(p) = self.pack.by_players.iter().find(|p| p.name == name) {
            let msg = format!(
                "param `{name}` is given per player count ([params.by-players]), but this \
                 field takes one number for every count"
            );
            let d = grail_engine::diag::Diagnostic::error("param-type", msg)
                .at(
                    s.loc.source,
                    s.loc.span.clone(),
                    "one number for every count",
                )
                .also(p.loc.source, p.loc.span.clone(), "given per player count")
                .with_help(format!("give `{name}` one value, under [params]"));
            self.diags.push(d);
            // The most players' value stands in, so that what reads the field is checked.
            return self.pack.param_for_players(name, self.pack.players.1).ok();
        }
        match self.pack.param(name).map(|p| p.value.clone()) {
            Ok(ParamValue::Int(v)) => Some(v),
            _ => {
                let known = self.number_params();
                let msg = grail_engine::diag::no_such("number param", name, known);
                self.error("unknown-param", msg, &s.loc, s.loc.span.clone());
                None
            }
        }
    }

    /// `mark card`: the action's card, in a zone with marks.
    pub(super) fn mark(
        &mut self,
        s: &Sp<String>,
        card: &Node,
        card_zone: Option<usize>,
    ) -> Option<Effect> {
        match card_zone {
            Some(z) if card.ast == Ast::Name("card".into()) && self.zones[z].marks.is_some() => {
                Some(Effect::Mark)
            }
            _ => {
                let at = self.span(s, &card.span);
                self.error(
                    "invalid-expression",
                    "`mark` marks the action's `card`, drawn from a zone with `marks`".into(),
                    &s.loc,
                    at,
                );
                None
            }
        }
    }

    /// A warning when `zone` is seen by every seat already: `turn` or `show` (`[verb, what it
    /// does]`) changes nothing there.
    fn public_to_no_end(
        &mut self,
        zone: usize,
        node: &Node,
        s: &Sp<String>,
        [verb, does]: [&str; 2],
    ) {
        let z = &self.zones[zone];
        if z.visible != grail_schema::model::Visibility::Public {
            return;
        }
        let msg = format!(
            "`{verb}` {does}, but every seat sees the cards of `{}` (`visible = \"public\"`): \
             the line does nothing",
            z.name
        );
        let help = format!(
            "{} a zone whose cards are hidden (`visible = \"owner\"` or `\"count\"`)",
            if verb == "turn" { "turn up" } else { verb }
        );
        let at = self.span(s, &node.span);
        self.diags.push(
            Diagnostic::warning("turn-public", msg)
                .at(s.loc.source, at, "seen by all already")
                .with_help(help),
        );
    }

    /// `show Z to S`: the zone's piles seen by one seat as well. A zone everyone sees already
    /// has nothing to show (the same warning as `turn`'s).
    pub(super) fn show_effect(
        &mut self,
        zone: &Node,
        to: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Effect> {
        let zone_ref = self.zone_ref(zone, s, scope)?;
        if self.condition_for_seat(to, s, "`show` shows the zone to a seat") {
            return None;
        }
        let who = self.owner("show", to, s, scope, false)?;
        self.zones[zone_ref.zone].turned = true;
        self.public_to_no_end(
            zone_ref.zone,
            zone,
            s,
            ["show", "shows a hidden pile to a seat"],
        );
        Some(Effect::Show {
            zone: zone_ref,
            to: who,
        })
    }

    /// `turn up Z` / `turn down Z`: the zone's piles seen by all, or hidden again. A zone
    /// everyone sees already has nothing to turn (a warning: the line does nothing).
    pub(super) fn turn_effect(
        &mut self,
        zone: &Node,
        up: bool,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Effect> {
        let zone_ref = self.zone_ref(zone, s, scope)?;
        self.zones[zone_ref.zone].turned |= up;
        self.public_to_no_end(
            zone_ref.zone,
            zone,
            s,
            ["turn", "turns a hidden pile up or down"],
        );
        Some(Effect::Turn { zone: zone_ref, up })
    }

    /// `award marked rows of Z to Z2`: `Z` a table zone with rows and marks, `Z2` a zone
    /// of the same set with one per seat.
    pub(super) fn award(&mut self, s: &Sp<String>, zone: &Node, to: &Node) -> Option<Effect> {
        let (Ast::Name(from_name), Ast::Name(to_name)) = (&zone.ast, &to.ast) else {
            let at = self.span(s, &zone.span);
            self.error(
                "invalid-expression",
                "`award marked rows of <zone> to <zone>` names two zones".into(),
                &s.loc,
                at,
            );
            return None;
        };
        let from = self.zone_index(from_name, s, &zone.span)?;
        let to_zone = self.zone_index(to_name, s, &to.span)?;
        let (f, t) = (&self.zones[from], &self.zones[to_zone]);
        let problem = if f.by.is_none() || f.marks.is_none() || f.owned {
            Some((
                zone,
                format!("`{from_name}` is not a table zone with rows and marks"),
            ))
        } else if !t.owned {
            Some((
                to,
                format!("`{to_name}` has no zone per seat to award the cards to"),
            ))
        } else {
            None
        };
        if let Some((node, msg)) = problem {
            let at = self.span(s, &node.span);
            self.error("invalid-expression", msg, &s.loc, at);
            return None;
        }
        self.same_set(from, to_zone, s, &to.span)
            .then_some(Effect::Award {
                zone: from,
                to: to_zone,
            })
    }

    /// A step offered card by card: its actions all draw their card from one zone.
    pub(super) fn check_by_card(&mut self, steps: &[Step], actions: &[Action]) {
        let defs = &self.pack.rulebook.steps;
        for step in steps.iter().filter(|s| s.by_card) {
            let zones: Vec<Option<usize>> = step
                .actions
                .iter()
                .map(
                    |&a| match (&actions[a].param, actions[a].param.card_zone()) {
                        (super::model::Param::PlayerCard { .. }, _) => None,
                        (_, Some(z)) if z.row.is_none() => Some(z.zone),
                        _ => None,
                    },
                )
                .collect();
            let one = zones.first().copied().flatten();
            if one.is_none() || zones.iter().any(|z| *z != one) {
                let Some(def) = defs.get(&step.name) else {
                    continue;
                };
                let Some(b) = &def.by_card else { continue };
                let msg = format!(
                    "step `{}` is offered card by card: each of its actions takes a card from the same zone",
                    step.name
                );
                self.error("invalid-value", msg, &b.loc, b.loc.span.clone());
            }
        }
    }

    /// `marked(card)`, `mine(card)`, `marks(current)`.
    pub(super) fn mark_call(
        &mut self,
        f: &str,
        arg: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<(Expr, Kind)> {
        if f == "marks" {
            let who = match &arg.ast {
                Ast::Name(w) if w == "current" => Who::Current,
                Ast::Name(w) if w == "P" && scope.player => Who::Player,
                _ => {
                    let at = self.span(s, &arg.span);
                    self.error(
                        "invalid-expression",
                        "`marks` counts a seat's marks left: `marks(current)` (or `P`)".into(),
                        &s.loc,
                        at,
                    );
                    return None;
                }
            };
            return Some((Expr::Marks(who), Kind::Int));
        }
        let (card, kind) = self.expr(arg, s, scope)?;
        if !matches!(kind, Kind::Card(_)) {
            let at = self.span(s, &arg.span);
            self.error("type-mismatch", "expected a card".into(), &s.loc, at);
            return None;
        }
        let card = Box::new(card);
        Some((
            if f == "marked" {
                Expr::Marked(card)
            } else {
                Expr::Mine(card)
            },
            Kind::Bool,
        ))
    }

    /// A text's pieces with its `$param`s filled in (numbers, flags and texts); a param
    /// given per player count is read for the game's count.
    pub(super) fn fill_params(&self, text: &str, pieces: &mut Vec<super::model::Piece>) {
        use super::model::{Piece, Shown};
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find('$') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            let name = &after[..len];
            if self.pack.by_players.iter().any(|p| p.name == name) {
                match self.by_players_param(name) {
                    Expr::Const(v) => out.push_str(&v.to_string()),
                    e => {
                        pieces.push(Piece::Text(std::mem::take(&mut out)));
                        pieces.push(Piece::Value(e, Shown::Number));
                    }
                }
                rest = &after[len..];
                continue;
            }
            match self.pack.param(name).map(|p| p.value.clone()) {
                Ok(ParamValue::Int(v)) => out.push_str(&v.to_string()),
                Ok(ParamValue::Bool(b)) => out.push_str(&b.to_string()),
                Ok(ParamValue::Text(t)) => out.push_str(&t),
                _ => out.push_str(&rest[i..i + 1 + len]),
            }
            rest = &after[len..];
        }
        out.push_str(rest);
        pieces.push(Piece::Text(out));
    }
}

impl Compiler<'_> {
    /// `shuffle Z` or, seat by seat, `shuffle A(each) and B(each)`.
    pub fn shuffle_effect(&mut self, z: &Node, s: &Sp<String>, scope: Scope) -> Option<Effect> {
        use super::syntax::Op;
        let Ast::Bin(Op::And, ..) = &z.ast else {
            return self.zone_ref(z, s, scope).map(Effect::Shuffle);
        };
        let mut parts = Vec::new();
        super::syntax::chain(z, Op::And, &mut parts);
        let mut zones = Vec::new();
        for part in parts {
            let r = self.zone_ref(part, s, scope)?;
            if r.who != Who::Each {
                let at = self.span(s, &part.span);
                let name = &self.zones[r.zone].name;
                let msg = if self.zones[r.zone].owned {
                    format!(
                        "`shuffle … and …` shuffles every seat's zones, seat by seat: `{name}(each)`"
                    )
                } else {
                    format!(
                        "`shuffle … and …` shuffles every seat's zones, seat by seat; `{name}` is the table's: shuffle it on a line of its own"
                    )
                };
                self.error("invalid-expression", msg, &s.loc, at);
                return None;
            }
            zones.push(r.zone);
        }
        Some(Effect::ShuffleSeats(zones))
    }
}
