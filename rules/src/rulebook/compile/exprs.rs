//! Expressions: the rulebook's strings parsed and checked into [`Expr`] trees, each
//! function call resolved to its meaning with its types checked.

use crate::rulebook::model::{Expr, Guard};
use crate::rulebook::syntax::{self, Ast, Node, Op};
use grail_engine::diag::{Diagnostic, did_you_mean};
use grail_schema::model::Sp;
use std::ops::Range;

use super::{Compiler, FUNCTIONS, Kind, MORE_FUNCTIONS, RING_FUNCTIONS, SEAT_FUNCTIONS, Scope};

impl Compiler<'_> {
    pub(in crate::rulebook) fn expr(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<(Expr, Kind)> {
        let at = |c: &Self| c.span(s, &node.span);
        if !self.named.is_empty()
            && let Some(named) = self.named_expr(node, s, scope)
        {
            return named;
        }
        if matches!(node.ast, Ast::Name(_) | Ast::Call(..))
            && let Some(counter) = self.counter_expr(node, s, scope)
        {
            return counter;
        }
        if let Some(seat) = self.seat_expr(node, s, scope) {
            return seat;
        }
        match &node.ast {
            Ast::Num(n) => Some((Expr::Const(*n), Kind::Int)),
            Ast::Param(name) if self.pack.by_players.iter().any(|p| p.name == *name) => {
                Some((self.by_players_param(name), Kind::Int))
            }
            Ast::Param(name) => match self.pack.param(name).map(|p| p.value.clone()) {
                Ok(grail_schema::model::ParamValue::Int(v)) => Some((Expr::Const(v), Kind::Int)),
                Ok(grail_schema::model::ParamValue::Bool(b)) => {
                    Some((Expr::Const(i64::from(b)), Kind::Bool))
                }
                _ => {
                    let known = self.number_params();
                    let msg = grail_engine::diag::no_such("number param", name, known);
                    let span = at(self);
                    self.error("unknown-param", msg, &s.loc, span);
                    None
                }
            },
            Ast::Name(n) if n == "card" && scope.card.is_some() => {
                Some((Expr::Card, Kind::Card(scope.card?)))
            }
            Ast::Name(n) if n == "row" && scope.row.is_some() => Some((Expr::Row, Kind::Int)),
            // A seat of the ring is a place, as a row is (an action has one of them).
            Ast::Name(n) if n == "seat" && scope.seat => Some((Expr::Row, Kind::Int)),
            Ast::Name(n) if n == "target" && scope.target => Some((Expr::Target, Kind::Int)),
            // A number travels where a seat does (`Args::of_number`).
            Ast::Name(n) if n == "number" && scope.number => Some((Expr::Row, Kind::Int)),
            Ast::Name(n) if scope.figure && (n == "figure" || n == "steps") => {
                Some((crate::rulebook::model::FigureExpr::param(n), Kind::Int))
            }
            Ast::Name(n) if n == "chosen" => {
                if !scope.chosen {
                    self.chosen_outside(node, s);
                    return None;
                }
                Some((
                    Expr::Figures(crate::rulebook::model::FigureExpr::Chosen),
                    Kind::Bool,
                ))
            }
            Ast::Name(n) if n == "number" => {
                let msg = "`number` is the number a move names, read only by an action that \
                           takes one: `number = \"1..6\"`"
                    .to_string();
                let span = at(self);
                self.error("unknown-name", msg, &s.loc, span);
                None
            }
            Ast::Name(n) if n == "P" => {
                let msg = "`P` names a seat only where one is given: in `[end] score`, `[bot] \
                           worth`, a `for each P` line, `highest(…)`, `lowest(…)` and an \
                           action a step with `who` offers (the seat asked)"
                    .to_string();
                let span = at(self);
                self.error("unknown-name", msg, &s.loc, span);
                None
            }
            Ast::Name(n) => {
                // A card's id names that card (`crown-of-camelot`), in the one set that has it.
                if let Some((set, t)) = self.card_named(n) {
                    return Some((Expr::Const(i64::from(t)), Kind::Card(set)));
                }
                let mut known = vec![];
                if scope.card.is_some() {
                    known.push("card");
                }
                if scope.row.is_some() {
                    known.push("row");
                }
                // A misspelt card id (`holy-graal`) is told the card's.
                let cards = (self.sets.iter()).flat_map(|set| set.cards.iter().map(String::as_str));
                let near =
                    did_you_mean(n, known.iter().copied()).or_else(|| did_you_mean(n, cards));
                let msg = match near {
                    Some(near) => format!("`{n}` means nothing here; did you mean `{near}`?"),
                    None if known.is_empty() => format!("`{n}` means nothing here"),
                    None => format!(
                        "`{n}` means nothing here; the parameters are {}",
                        known.join(", ")
                    ),
                };
                let span = at(self);
                self.error("unknown-name", msg, &s.loc, span);
                None
            }
            Ast::Field(action, param) => {
                let Some(a) = self.action_names.iter().position(|n| n == action) else {
                    let msg = grail_engine::diag::no_such(
                        "action",
                        action,
                        self.action_names.iter().map(String::as_str),
                    );
                    let span = at(self);
                    self.error("unknown-action", msg, &s.loc, span);
                    return None;
                };
                match (param.as_str(), self.action_cards[a]) {
                    ("card", Some(set)) => Some((Expr::ActionCard(a), Kind::Card(set))),
                    _ => {
                        let msg = format!("action `{action}` has no card parameter `{param}`");
                        let span = at(self);
                        self.error("unknown-name", msg, &s.loc, span);
                        None
                    }
                }
            }
            Ast::Not(inner) => {
                let e = self.typed(inner, s, scope, Kind::Bool)?;
                Some((Expr::Not(Box::new(e)), Kind::Bool))
            }
            Ast::Bin(Op::Div, ..) => {
                let msg = "`/` divides exactly, in real numbers: only the arithmetic of `[bot] worth` may; in whole numbers write `div(a, b)`".into();
                let span = at(self);
                self.error("invalid-expression", msg, &s.loc, span);
                None
            }
            Ast::Bin(op, l, r) => {
                let (operand, result) = match op {
                    Op::And | Op::Or => (Some(Kind::Bool), Kind::Bool),
                    Op::Add | Op::Sub | Op::Mul | Op::Div => (Some(Kind::Int), Kind::Int),
                    Op::Lt | Op::Le | Op::Gt | Op::Ge => (Some(Kind::Int), Kind::Bool),
                    Op::Eq | Op::Ne => (None, Kind::Bool),
                };
                let (le, lk) = self.expr(l, s, scope)?;
                // A named attribute compared with one of its names: `color(figure) = silver`.
                let symbol = match (&r.ast, op) {
                    (Ast::Name(n), Op::Eq | Op::Ne) => self
                        .symbols_of(&le)
                        .and_then(|names| names.iter().position(|x| x == n)),
                    _ => None,
                };
                let (re, rk) = match symbol {
                    Some(i) => (Expr::Const(i as i64), Kind::Int),
                    None => self.expr(r, s, scope)?,
                };
                let fits = match operand {
                    Some(k) => lk == k && rk == k,
                    None => lk == rk && lk != Kind::Bool,
                };
                if !fits {
                    let msg = format!("`{}` cannot compare or combine these two sides", op.text());
                    let span = at(self);
                    self.error("type-mismatch", msg, &s.loc, span);
                    return None;
                }
                Some((Expr::Bin(*op, Box::new(le), Box::new(re)), result))
            }
            Ast::Call(f, args) => self.call(node, f, args, s, scope),
        }
    }

    fn call(
        &mut self,
        node: &Node,
        f: &str,
        args: &[Node],
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<(Expr, Kind)> {
        let arity = |c: &mut Self, n: usize| {
            if args.len() == n {
                return true;
            }
            let span = c.span(s, &node.span);
            c.error(
                "invalid-expression",
                format!("`{f}` takes {n} argument(s)"),
                &s.loc,
                span,
            );
            false
        };
        if let Some(found) = self.mechanic(node, f, args, s, scope) {
            return found;
        }
        if let Some(ring) = self.figure_call(node, f, args, s, scope) {
            return ring;
        }
        // A card attribute a pack names as a function of the language (`top`) is read of a
        // card as the attribute, `top(card)`: the function is for the other calls.
        let attribute = args.len() == 1
            && (self.sets.iter()).any(|set| set.attrs.iter().any(|a| a == f))
            && self.is_card(&args[0], s, scope);
        match if attribute { "" } else { f } {
            "count" | "nonempty" => {
                if !arity(self, 1) {
                    return None;
                }
                let z = self.zone_ref(&args[0], s, scope)?;
                if f == "nonempty" && self.zones[z.zone].by.is_none() {
                    let span = self.span(s, &args[0].span);
                    self.error(
                        "invalid-expression",
                        "`nonempty` counts the rows of a zone with rows".into(),
                        &s.loc,
                        span,
                    );
                    return None;
                }
                Some((
                    if f == "count" {
                        Expr::Count(z)
                    } else {
                        Expr::NonEmpty(z)
                    },
                    Kind::Int,
                ))
            }
            "sum" | "last" => {
                if !arity(self, 2) {
                    return None;
                }
                let z = self.zone_ref(&args[1], s, scope)?;
                let attr = self.attr_of(self.zones[z.zone].set, &args[0], s)?;
                if f == "last" && self.all_rows(f, &z, &args[1], s) {
                    return None;
                }
                Some((
                    if f == "sum" {
                        Expr::Sum { attr, zone: z }
                    } else {
                        Expr::Last { attr, zone: z }
                    },
                    Kind::Int,
                ))
            }
            "top_card" => {
                if !arity(self, 1) {
                    return None;
                }
                let z = self.zone_ref(&args[0], s, scope)?;
                if self.all_rows(f, &z, &args[0], s) {
                    return None;
                }
                let set = self.zones[z.zone].set;
                Some((Expr::TopCard(z), Kind::Card(set)))
            }
            "top" => {
                if !arity(self, 3) {
                    return None;
                }
                let k = self.typed(&args[0], s, scope, Kind::Int)?;
                let zone = self.zone_ref(&args[2], s, scope)?;
                let attr = self.attr_of(self.zones[zone.zone].set, &args[1], s)?;
                Some((
                    Expr::Top {
                        k: Box::new(k),
                        attr,
                        zone,
                    },
                    Kind::Int,
                ))
            }
            "done" => {
                if !arity(self, 1) {
                    return None;
                }
                let a = self.action_named(&args[0], s)?;
                Some((Expr::Done(a), Kind::Bool))
            }
            _ => {
                let attr = f;
                // A name that is no function and no attribute of any set is an unknown
                // function, named as such before its arguments are read.
                // (Of a card, `valeu(card)`, it is a misspelt attribute, reported below.)
                let is_attr = (self.sets.iter()).any(|set| set.attrs.iter().any(|a| a == attr));
                let of_card =
                    |c: &mut Self| (1..=2).contains(&args.len()) && c.is_card(&args[0], s, scope);
                if !is_attr && !of_card(self) {
                    self.unknown_function(node, attr, s, scope);
                    return None;
                }
                // An attribute of a card, `value(card)`, or of a card in the situation some
                // zones make, `bp(card, quest + allies(P))`.
                if (1..=2).contains(&args.len()) {
                    let (card, kind) = self.expr(&args[0], s, scope)?;
                    if let Kind::Card(set) = kind {
                        let name = Node {
                            ast: Ast::Name(attr.to_string()),
                            span: node.span.start..node.span.start + attr.len(),
                        };
                        let a = self.attr_of(set, &name, s)?;
                        if let Some(zones) = args.get(1) {
                            return self.situational_attr(set, (attr, a), card, zones, s, scope);
                        }
                        return Some((
                            Expr::Attr {
                                set,
                                attr: a,
                                card: Box::new(card),
                            },
                            Kind::Int,
                        ));
                    }
                }
                let mut known: Vec<&str> = FUNCTIONS.to_vec();
                if let Some(set) = scope.card {
                    known.extend(self.sets[set].attrs.iter().map(String::as_str));
                }
                let msg = grail_engine::diag::no_such("function", attr, known);
                let span = self.span(s, &(node.span.start..node.span.start + attr.len()));
                self.error("unknown-function", msg, &s.loc, span);
                None
            }
        }
    }

    /// Whether an expression is a card, reporting nothing.
    fn is_card(&mut self, node: &Node, s: &Sp<String>, scope: Scope) -> bool {
        let before = self.diags.len();
        let card = matches!(self.expr(node, s, scope), Some((_, Kind::Card(_))));
        self.diags.truncate(before);
        card
    }

    /// `f(…)` where `f` names no function, attribute, counter or zone: an unknown function,
    /// with did-you-mean among everything that may be called.
    fn unknown_function(&mut self, node: &Node, f: &str, s: &Sp<String>, scope: Scope) {
        let span = self.span(s, &(node.span.start..node.span.start + f.len()));
        if self.zones.iter().any(|z| z.name == f) {
            let msg = format!(
                "`{f}` is a zone, not a value: count its cards with `count({f}(…))`, or read them with `sum(attr, …)`, `last(attr, …)`"
            );
            self.error("invalid-expression", msg, &s.loc, span);
            return;
        }
        let mut known: Vec<&str> = FUNCTIONS.to_vec();
        known.extend(MORE_FUNCTIONS);
        known.extend(SEAT_FUNCTIONS);
        if self.board.is_some() {
            known.extend(RING_FUNCTIONS);
        }
        known.extend(self.counter_defs.iter().map(|c| c.name.as_str()));
        match scope.card {
            Some(set) => known.extend(self.sets[set].attrs.iter().map(String::as_str)),
            None => known.extend(
                self.sets
                    .iter()
                    .flat_map(|set| set.attrs.iter().map(String::as_str)),
            ),
        }
        let mut seen = std::collections::BTreeSet::new();
        known.retain(|k| seen.insert(*k));
        let msg = grail_engine::diag::no_such("function", f, known);
        self.error("unknown-function", msg, &s.loc, span);
    }

    /// The names of a named attribute an expression reads (`color(card)`, `color(figure)`).
    pub(in crate::rulebook) fn symbols_of(&self, e: &Expr) -> Option<&[String]> {
        let (set, attr) = self.symbol_attr(e)?;
        let names = &self.sets[set].symbols[attr];
        (!names.is_empty()).then_some(names.as_slice())
    }

    /// The set and attribute a value of a named attribute is of: a card's (`suit(card)`), a
    /// figure's card's, or a zone's last card's (`last(suit, played(winner))`).
    pub(in crate::rulebook) fn symbol_attr(&self, e: &Expr) -> Option<(usize, usize)> {
        let (set, attr) = match e {
            Expr::Attr { set, attr, .. } => (*set, *attr),
            Expr::Figures(crate::rulebook::model::FigureExpr::CardAttr { set, attr, .. }) => {
                (*set, *attr)
            }
            Expr::Last { attr, zone } => (self.zones[zone.zone].set, *attr),
            _ => return None,
        };
        (!self.sets[set].symbols[attr].is_empty()).then_some((set, attr))
    }

    pub(in crate::rulebook) fn typed(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
        want: Kind,
    ) -> Option<Expr> {
        let (e, k) = self.expr(node, s, scope)?;
        if k != want {
            let what = match want {
                Kind::Bool => "a condition (true or false)",
                Kind::Int => "a number",
                Kind::Card(_) => "a card",
            };
            let found = match k {
                Kind::Bool => "a condition",
                Kind::Int => "a number",
                Kind::Card(_) => "a card",
            };
            let help = match (want, k) {
                (Kind::Bool, Kind::Int) => "compare the number to make a condition (`… >= 1`)",
                (Kind::Int, Kind::Bool) => "turn the condition into a number with `if(…, 1, 0)`",
                (Kind::Int, Kind::Card(_)) => "read a number from the card (`value(card)`)",
                _ => "see docs/pack-format.md for what each place takes",
            };
            let span = self.span(s, &node.span);
            let d = Diagnostic::error("type-mismatch", format!("expected {what}, found {found}"))
                .at(s.loc.source, span, "here")
                .with_help(help);
            self.diags.push(d);
            return None;
        }
        Some(e)
    }

    /// Whether `z`, read by `f` (`last`, `top_card`), names a zone with rows but not one of
    /// them: an error there, since the last card is a row's.
    fn all_rows(
        &mut self,
        f: &str,
        z: &crate::rulebook::model::ZoneRef,
        node: &Node,
        s: &Sp<String>,
    ) -> bool {
        let whole = self.zones[z.zone].by.is_some() && z.row.is_none();
        if whole {
            let span = self.span(s, &node.span);
            let msg = format!("`{f}` reads one row: name it");
            self.error("invalid-expression", msg, &s.loc, span);
        }
        whole
    }

    /// The set and type of the card whose id is `id`, when exactly one set (not a union)
    /// has a card of that id.
    fn card_named(&self, id: &str) -> Option<(usize, u16)> {
        let mut found = (self.sets.iter().enumerate())
            .filter(|(_, set)| set.members.is_empty())
            .filter_map(|(i, set)| Some((i, set.cards.iter().position(|c| c == id)? as u16)));
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }

    /// A whole string as an expression of the given kind.
    pub fn expression(&mut self, s: &Sp<String>, scope: Scope, want_bool: bool) -> Option<Expr> {
        let node = match syntax::expression(&s.value) {
            Ok(n) => n,
            Err(e) => {
                self.syntax_error(s, e);
                return None;
            }
        };
        self.typed(
            &node,
            s,
            scope,
            if want_bool { Kind::Bool } else { Kind::Int },
        )
    }

    pub fn guard(&mut self, s: &Sp<String>, scope: Scope) -> Option<Guard> {
        let expr = self.expression(s, scope, true)?;
        Some(Guard {
            expr,
            text: s.value.clone(),
        })
    }

    /// Cards only move between zones of one set: conservation by construction.
    pub(in crate::rulebook) fn same_set(
        &mut self,
        from: usize,
        to: usize,
        s: &Sp<String>,
        span: &Range<usize>,
    ) -> bool {
        let (a, b) = (&self.zones[from], &self.zones[to]);
        if self.set_fits(a.declared, b.declared) {
            return true;
        }
        let back = if self.set_fits(b.declared, a.declared) {
            " (cards go from a member's zone into a union's, not back)"
        } else {
            ""
        };
        let msg = format!(
            "cards of set `{}` cannot go to zone `{}`, which holds set `{}`{back}",
            self.sets[a.declared].id, b.name, self.sets[b.declared].id
        );
        let at = self.span(s, span);
        self.error("zone-set-mismatch", msg, &s.loc, at);
        false
    }
}
