//! Check and compile: the description's names become indices, its strings expressions and
//! effects over them. Every problem is a diagnostic pointing into the pack file (with
//! did-you-mean for names); all are reported, not only the first.

use std::ops::Range;

use grail_engine::cond::{Domain, Value};
use grail_engine::diag::{Diagnostic, did_you_mean};
use grail_schema::Pack;
use grail_schema::model::{Layout, Loc, Sp, ZoneOwner, ZoneStart};

use super::model::{Action, CardSet, Effect, Expr, Guard, Param, Step, Who, Zone, ZoneRef};
use super::syntax::{self, Ast, Node, Op, Statement};

/// What an expression stands for, for checking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Bool,
    Card(usize),
}

/// The names an expression may use where it is written.
#[derive(Clone, Copy)]
pub struct Scope {
    /// The card parameter's set, when the action has one.
    pub card: Option<usize>,
    /// The row parameter's zone, when the action has one.
    pub row: Option<usize>,
    /// `P` (a score) or not.
    pub player: bool,
    /// The action has a seat parameter (`seat`).
    pub seat: bool,
    /// The action has a figure parameter (`figure`, and `steps` with a distance).
    pub figure: bool,
    /// The action chooses figures (`choose`): `chosen` reads them.
    pub chosen: bool,
}

pub const NO_SCOPE: Scope = Scope {
    card: None,
    row: None,
    player: false,
    seat: false,
    figure: false,
    chosen: false,
};

const FUNCTIONS: &[&str] = &[
    "count", "sum", "last", "nonempty", "done", "fullest", "if", "best", "cheapest", "paying",
    "marked", "mine", "marks",
];

/// Most steps in all stages together: the state's step is a byte, and `step(…)` and the card
/// tables keep a bit per step in 64.
pub const MAX_STEPS: usize = 64;
/// Most zones (a tallied card keeps its zone's index in 15 bits; far more than any game).
pub const MAX_ZONES: usize = 1024;
/// Most stages before the turns (the state's stage is a byte).
pub const MAX_STAGES: usize = 64;
/// Most actions: the actions done this turn are a bit each in 64.
pub const MAX_ACTIONS: usize = 64;
/// Most actions a step takes (`repeat`): they are counted in a byte.
pub const MAX_REPEAT: i64 = 255;
/// Most times the seats play a stage before the turns in all (`rounds` × players): counted
/// in 16 bits.
pub const MAX_STAGE_TURNS: i64 = u16::MAX as i64;

/// Functions read by `counters.rs` (`min`, `div`, `step`, …) and, on a ring, by
/// `ring_check.rs`: what an unknown function's did-you-mean offers besides [`FUNCTIONS`].
const MORE_FUNCTIONS: &[&str] = &["min", "max", "div", "mod", "others", "holder", "step"];
const RING_FUNCTIONS: &[&str] = &[
    "empty",
    "plate",
    "placed",
    "unplaced",
    "seat",
    "most",
    "best_figure",
    "occupant",
    "owner",
    "total",
    "card",
];

pub struct Compiler<'p> {
    pub pack: &'p Pack,
    pub diags: Vec<Diagnostic>,
    pub sets: Vec<CardSet>,
    pub zones: Vec<Zone>,
    pub table_piles: usize,
    pub seat_piles: usize,
    /// Action names, known before their bodies compile (for `done(…)`), and their card
    /// parameter's set.
    pub action_names: Vec<String>,
    pub action_cards: Vec<Option<usize>>,
    /// The ring and its figures, when the game has one (`ring.rs`).
    pub board: Option<super::ring::Board>,
    /// `[counters.*]` (`counters.rs`).
    pub counter_defs: Vec<super::counters::Counter>,
    /// The stages before the turns (`stages.rs`) and how many steps the turn has.
    pub stages: Vec<super::stages::Stage>,
    pub turn_steps: usize,
}

impl<'p> Compiler<'p> {
    pub fn new(pack: &'p Pack) -> Self {
        Compiler {
            pack,
            diags: Vec::new(),
            sets: Vec::new(),
            zones: Vec::new(),
            table_piles: 0,
            seat_piles: 0,
            action_names: Vec::new(),
            action_cards: Vec::new(),
            board: None,
            counter_defs: Vec::new(),
            stages: Vec::new(),
            turn_steps: 0,
        }
    }

    pub(super) fn error(
        &mut self,
        code: &'static str,
        message: String,
        loc: &Loc,
        span: Range<usize>,
    ) {
        self.diags
            .push(Diagnostic::error(code, message).at(loc.source, span, "here"));
    }

    /// Where a string's text starts inside its quotes (`"…"` or `"""…"""`).
    fn inner(&self, s: &Sp<String>) -> usize {
        let text = &self.pack.sources().get(s.loc.source).text;
        let token = text.get(s.loc.span.clone()).unwrap_or("");
        if token.starts_with("\"\"\"") || token.starts_with("'''") {
            let after = s.loc.span.start + 3;
            after + usize::from(text[after..].starts_with('\n'))
        } else if token.starts_with('"') || token.starts_with('\'') {
            s.loc.span.start + 1
        } else {
            s.loc.span.start
        }
    }

    /// The span of `part` (a span inside the string `s`) in the file.
    /// The action an argument names (`done(challenge)`), or `unknown-action` with
    /// did-you-mean.
    pub(super) fn action_named(&mut self, arg: &Node, s: &Sp<String>) -> Option<usize> {
        let name = match &arg.ast {
            Ast::Name(n) => n.as_str(),
            _ => "",
        };
        if let Some(a) = self.action_names.iter().position(|n| n == name) {
            return Some(a);
        }
        let msg = grail_engine::diag::no_such(
            "action",
            name,
            self.action_names.iter().map(String::as_str),
        );
        let span = self.span(s, &arg.span);
        self.error("unknown-action", msg, &s.loc, span);
        None
    }

    pub(super) fn span(&self, s: &Sp<String>, part: &Range<usize>) -> Range<usize> {
        let base = self.inner(s);
        base + part.start..base + part.end
    }

    pub fn place(&self, s: &Sp<String>) -> String {
        let sources = self.pack.sources();
        let (line, col) = sources.line_col(s.loc.source, self.inner(s));
        // The file inside its pack: the same text wherever the pack folder lies.
        let name = &sources.get(s.loc.source).name;
        let file = std::path::Path::new(name)
            .file_name()
            .map_or(name.as_str(), |f| f.to_str().unwrap_or(name));
        format!("{file}:{line}:{col}")
    }

    pub(super) fn syntax_error(&mut self, s: &Sp<String>, e: syntax::SyntaxError) {
        let span = self.span(s, &e.span);
        self.error(e.code, e.message, &s.loc, span);
    }

    pub(super) fn set_index(&mut self, id: &Sp<String>) -> Option<usize> {
        if let Some(union) = self.union_set(id) {
            return union;
        }
        if let Some(i) = self.sets.iter().position(|s| s.id == id.value) {
            return Some(i);
        }
        let Some(set) = self.pack.sets.iter().find(|s| s.id == id.value) else {
            let known: Vec<&str> = self.pack.sets.iter().map(|s| s.id.as_str()).collect();
            let msg = grail_engine::diag::no_such("card set", &id.value, known);
            self.error("unknown-set", msg, &id.loc, id.loc.span.clone());
            return None;
        };
        let u = &set.universe;
        let values = (0..u.attrs.len())
            .map(|a| {
                (0..u.types.len())
                    .map(|t| match u.value(t, a) {
                        Some(Value::Int(v)) => v,
                        Some(Value::Sym(i)) => i64::from(i),
                        None => 0,
                    })
                    .collect()
            })
            .collect();
        let symbols = u
            .attrs
            .iter()
            .map(|a| match &a.domain {
                Domain::Symbols(names) => names.clone(),
                Domain::Int { .. } => Vec::new(),
            })
            .collect();
        let mut attrs: Vec<String> = u.attrs.iter().map(|a| a.name.clone()).collect();
        let (mut values, mut symbols): (Vec<Vec<i64>>, Vec<Vec<String>>) = (values, symbols);
        // A card's victory points read like a number attribute: `points(card)`.
        if set.cards.iter().any(|c| c.points.is_some()) && !attrs.iter().any(|a| a == "points") {
            attrs.push("points".into());
            values.push(set.cards.iter().map(|c| c.points.unwrap_or(0)).collect());
            symbols.push(Vec::new());
        }
        self.sets.push(CardSet {
            id: set.id.clone(),
            cards: set.cards.iter().map(|c| c.id.clone()).collect(),
            names: set.cards.iter().map(|c| c.name.clone()).collect(),
            copies: set.deck(),
            attrs,
            values,
            symbols,
            members: Vec::new(),
        });
        Some(self.sets.len() - 1)
    }

    /// `[zones.*]`, laid out into piles: the table's first, then one block per seat.
    pub fn zones(&mut self) {
        let defs = &self.pack.rulebook.zones;
        // A tallied card keeps its zone in 15 bits (`ROLE_TALLY` is the 16th).
        if let Some((at, _)) = defs.0.get(MAX_ZONES) {
            let msg = format!(
                "{} zones; a description has at most {MAX_ZONES}",
                defs.0.len()
            );
            self.error("over-limit", msg, &at.loc, at.loc.span.clone());
        }
        let mut starts: Vec<(usize, &Sp<String>)> = Vec::new();
        for (name, def) in defs.iter() {
            // A ring holds figures on seats, not cards (`ring.rs`).
            if def.layout.value == Layout::Ring {
                continue;
            }
            let Some(set) = self.set_index(&def.holds) else {
                continue;
            };
            let owned = def.owner.as_ref().map(|o| o.value) == Some(ZoneOwner::Each);
            let layout = def.layout.value;
            let by = match (&def.by, layout) {
                (Some(by), Layout::Rows) => {
                    let by = &self.param_text(by);
                    let attrs = &self.sets[set].attrs;
                    match attrs.iter().position(|a| *a == by.value) {
                        Some(a) if !self.sets[set].symbols[a].is_empty() => Some(a),
                        Some(_) => {
                            let msg = format!(
                                "rows are keyed by a named attribute, and `{}` is a number",
                                by.value
                            );
                            self.error("invalid-value", msg, &by.loc, by.loc.span.clone());
                            continue;
                        }
                        None => {
                            let msg = grail_engine::diag::no_such(
                                &format!("attribute of set `{}` named", self.sets[set].id),
                                &by.value,
                                attrs.iter().map(String::as_str),
                            );
                            self.error("unknown-attribute", msg, &by.loc, by.loc.span.clone());
                            continue;
                        }
                    }
                }
                (None, Layout::Rows) => {
                    let msg = format!(
                        "zone `{}` has rows: it needs `by`, the attribute that keys them",
                        name.value
                    );
                    self.error("missing-field", msg, &name.loc, name.loc.span.clone());
                    continue;
                }
                (Some(by), _) => {
                    let msg = "`by` is for zones with `layout = \"rows\"`".to_string();
                    self.error("invalid-value", msg, &by.loc, by.loc.span.clone());
                    continue;
                }
                (None, _) => None,
            };
            let rows = by.map_or(1, |a| self.sets[set].symbols[a].len());
            let counter = if owned {
                &mut self.seat_piles
            } else {
                &mut self.table_piles
            };
            let first = *counter;
            *counter += rows;
            let start_all = def.start.as_ref().map(|s| s.value) == Some(ZoneStart::All);
            if start_all {
                // A zone per seat starting with every card: each seat has its own copy of
                // the set (its own deck).
                if layout == Layout::Rows {
                    let msg = format!(
                        "zone `{}` cannot start with every card: a zone with rows cannot",
                        name.value
                    );
                    self.error("invalid-value", msg, &name.loc, name.loc.span.clone());
                }
                if let Some((_, first)) = starts.iter().find(|(s, _)| *s == set) {
                    let d = Diagnostic::error(
                        "duplicate-id",
                        format!(
                            "two zones start with every card of set `{}`",
                            self.sets[set].id
                        ),
                    )
                    .at(name.loc.source, name.loc.span.clone(), "second")
                    .also(first.loc.source, first.loc.span.clone(), "first");
                    self.diags.push(d);
                }
                starts.push((set, name));
            }
            let marks = def.marks.as_ref().and_then(|m| {
                let n = self.param_int(m)?;
                // Each seat's marks left are a byte.
                if !(0..=i64::from(u8::MAX)).contains(&n) {
                    let msg = format!(
                        "zone `{}` gives each seat {n} marks; a zone gives 0 to 255",
                        name.value
                    );
                    self.error("over-limit", msg, &m.loc, m.loc.span.clone());
                    return None;
                }
                Some(n)
            });
            let types = 0..self.sets[set].cards.len() as u16;
            self.zones.push(Zone {
                name: name.value.clone(),
                set,
                declared: set,
                types,
                layout,
                visible: def.visible.value,
                owned,
                by,
                rows,
                first,
                start_all,
                refill: None,
                tally: def.tally.as_ref().map(|t| t.value.clone()),
                marks,
            });
        }
        self.refills();
        for (i, set) in self.sets.iter().enumerate() {
            // A union starts with its members' cards.
            if set.members.is_empty() && !starts.iter().any(|(s, _)| *s == i) {
                let at = &self.pack.rulebook.zones.0[0].0.loc;
                let d = Diagnostic::error(
                    "missing-field",
                    format!("no zone starts with the cards of set `{}`", set.id),
                )
                .at(at.source, at.span.clone(), "zones")
                .with_help("give the deck `start = \"all\"`");
                self.diags.push(d);
            }
        }
        self.rehome_unions();
    }

    pub(super) fn zone_index(
        &mut self,
        name: &str,
        s: &Sp<String>,
        span: &Range<usize>,
    ) -> Option<usize> {
        if let Some(i) = self.zones.iter().position(|z| z.name == name) {
            return Some(i);
        }
        let msg =
            grail_engine::diag::no_such("zone", name, self.zones.iter().map(|z| z.name.as_str()));
        let at = self.span(s, span);
        self.error("unknown-zone", msg, &s.loc, at);
        None
    }

    /// A zone reference: `deck`, `hand(current)`, `trails(P, color(card))`, `discards(row)`.
    pub(super) fn zone_ref(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<ZoneRef> {
        let (name, args): (&str, &[Node]) = match &node.ast {
            Ast::Name(n) => (n, &[]),
            Ast::Call(n, a) => (n, a),
            _ => {
                let at = self.span(s, &node.span);
                self.error("invalid-expression", "expected a zone".into(), &s.loc, at);
                return None;
            }
        };
        let zone = self.zone_index(name, s, &node.span)?;
        let (owned, rows) = (self.zones[zone].owned, self.zones[zone].by.is_some());
        let mut args = args.iter();
        let who = if owned {
            let Some(owner) = args.next() else {
                let at = self.span(s, &node.span);
                let msg = format!("zone `{name}` has one per seat: say whose, `{name}(current)`");
                self.error("invalid-expression", msg, &s.loc, at);
                return None;
            };
            match &owner.ast {
                Ast::Name(w) if w == "current" => Who::Current,
                Ast::Name(w) if w == "each" => Who::Each,
                Ast::Name(w) if w == "P" && scope.player => Who::Player,
                _ => {
                    let at = self.span(s, &owner.span);
                    let msg = format!(
                        "the owner of `{name}` is `current`, `each`{}",
                        if scope.player { " or `P`" } else { "" }
                    );
                    self.error("invalid-expression", msg, &s.loc, at);
                    return None;
                }
            }
        } else {
            Who::Table
        };
        let row = match args.next() {
            Some(key) if rows => {
                let expr = self.expr(key, s, scope)?;
                Some(Box::new(expr.0))
            }
            Some(extra) => {
                let at = self.span(s, &extra.span);
                let msg = format!(
                    "zone `{name}` takes no {}",
                    if owned { "more arguments" } else { "arguments" }
                );
                self.error("invalid-expression", msg, &s.loc, at);
                return None;
            }
            None => None,
        };
        if let Some(extra) = args.next() {
            let at = self.span(s, &extra.span);
            self.error(
                "invalid-expression",
                "too many arguments".into(),
                &s.loc,
                at,
            );
            return None;
        }
        Some(ZoneRef { zone, who, row })
    }

    pub(super) fn attr_of(&mut self, set: usize, name: &Node, s: &Sp<String>) -> Option<usize> {
        let Ast::Name(attr) = &name.ast else {
            let at = self.span(s, &name.span);
            self.error(
                "invalid-expression",
                "expected an attribute name".into(),
                &s.loc,
                at,
            );
            return None;
        };
        let attrs = &self.sets[set].attrs;
        if let Some(a) = attrs.iter().position(|a| a == attr) {
            return Some(a);
        }
        let msg = grail_engine::diag::no_such(
            &format!("attribute of set `{}` named", self.sets[set].id),
            attr,
            attrs.iter().map(String::as_str),
        );
        let at = self.span(s, &name.span);
        self.error("unknown-attribute", msg, &s.loc, at);
        None
    }

    /// `$name` of a param given per player count: its value for the game's player count
    /// (a plain value holds for the counts `[params.by-players]` does not give), a number
    /// when it is one for every count the pack allows.
    pub(super) fn by_players_param(&self, name: &str) -> Expr {
        let (min, max) = self.pack.players;
        let mut values = vec![0; usize::from(max) + 1];
        for n in min..=max {
            // A count without a value is reported where the params are (`missing-player-count`).
            values[usize::from(n)] = self.pack.param_for_players(name, n).unwrap_or(0);
        }
        let first = values[usize::from(min)];
        if values[usize::from(min)..].iter().all(|&v| v == first) {
            return Expr::Const(first);
        }
        Expr::Counter(super::counters::CounterExpr::ByPlayers(values.into()))
    }

    /// The names of the params that may be read as numbers, plain or per player count.
    pub(super) fn number_params(&self) -> Vec<&str> {
        let mut known: Vec<&str> = (self.pack.params.iter())
            .filter(|p| !matches!(p.value, grail_schema::model::ParamValue::Text(_)))
            .map(|p| p.name.as_str())
            .collect();
        for p in &self.pack.by_players {
            if !known.contains(&p.name.as_str()) {
                known.push(p.name.as_str());
            }
        }
        known
    }

    pub(super) fn expr(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<(Expr, Kind)> {
        let at = |c: &Self| c.span(s, &node.span);
        if matches!(node.ast, Ast::Name(_) | Ast::Call(..))
            && let Some(counter) = self.counter_expr(node, s, scope)
        {
            return counter;
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
            // A seat parameter travels in the row's slot (an action has one parameter).
            Ast::Name(n) if n == "seat" && scope.seat => Some((Expr::Row, Kind::Int)),
            Ast::Name(n) if scope.figure && (n == "figure" || n == "steps") => {
                Some((super::ring::FigureExpr::param(n), Kind::Int))
            }
            Ast::Name(n) if n == "chosen" => {
                if !scope.chosen {
                    self.chosen_outside(node, s);
                    return None;
                }
                Some((Expr::Figures(super::ring::FigureExpr::Chosen), Kind::Bool))
            }
            Ast::Name(n) => {
                let mut known = vec![];
                if scope.card.is_some() {
                    known.push("card");
                }
                if scope.row.is_some() {
                    known.push("row");
                }
                let msg = match did_you_mean(n, known.iter().copied()) {
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
        match f {
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
                if f == "last" && self.zones[z.zone].by.is_some() && z.row.is_none() {
                    let span = self.span(s, &args[1].span);
                    self.error(
                        "invalid-expression",
                        "`last` reads one row: name it".into(),
                        &s.loc,
                        span,
                    );
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
            "done" => {
                if !arity(self, 1) {
                    return None;
                }
                let a = self.action_named(&args[0], s)?;
                Some((Expr::Done(a), Kind::Bool))
            }
            attr => {
                // A name that is no function and no attribute of any set is an unknown
                // function, named as such before its arguments are read.
                // (Of a card, `valeu(card)`, it is a misspelt attribute, reported below.)
                let is_attr = (self.sets.iter()).any(|set| set.attrs.iter().any(|a| a == attr));
                let of_card = |c: &mut Self| args.len() == 1 && c.is_card(&args[0], s, scope);
                if !is_attr && !of_card(self) {
                    self.unknown_function(node, attr, s, scope);
                    return None;
                }
                // An attribute of a card: `value(card)`.
                if args.len() == 1 {
                    let (card, kind) = self.expr(&args[0], s, scope)?;
                    if let Kind::Card(set) = kind {
                        let name = Node {
                            ast: Ast::Name(attr.to_string()),
                            span: node.span.start..node.span.start + attr.len(),
                        };
                        let a = self.attr_of(set, &name, s)?;
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
    pub(super) fn symbols_of(&self, e: &Expr) -> Option<&[String]> {
        let (set, attr) = match e {
            Expr::Attr { set, attr, .. } => (*set, *attr),
            Expr::Figures(super::ring::FigureExpr::CardAttr { set, attr, .. }) => (*set, *attr),
            _ => return None,
        };
        let names = &self.sets[set].symbols[attr];
        (!names.is_empty()).then_some(names.as_slice())
    }

    pub(super) fn typed(
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
            place: self.place(s),
        })
    }

    /// Cards only move between zones of one set: conservation by construction.
    pub(super) fn same_set(
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
            let effect = match &line.statement {
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
                    self.check_deal(&count, &from, s, &line.span);
                    self.same_set(from.zone, target.zone, s, &line.span)
                        .then_some(Effect::Deal {
                            count: count.into(),
                            from,
                            to: target.zone,
                        })
                })(),
                Statement::Draw { count, from, to } => (|| {
                    let count = self.typed(count, s, scope, Kind::Int)?;
                    let from = self.zone_ref(from, s, scope)?;
                    let to = self.zone_ref(to, s, scope)?;
                    self.check_draw(&count, &from, s, &line.span);
                    self.same_set(from.zone, to.zone, s, &line.span)
                        .then_some(Effect::Draw {
                            count: count.into(),
                            from,
                            to,
                        })
                })(),
                Statement::Reveal { from, into, until } => self.reveal(s, scope, from, into, until),
                Statement::Mark(card) => self.mark(s, card, card_zone),
                Statement::Award { zone, to } => self.award(s, zone, to),
                Statement::Move { card, to } => (|| {
                    let Some(from) = card_zone.filter(|_| card.ast == Ast::Name("card".into()))
                    else {
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
                    self.same_set(from, to.zone, s, &line.span)
                        .then_some(Effect::Move { to })
                })(),
                Statement::Place { figure, seat } => self.place_effect(figure, seat, s, scope),
                Statement::Step { figure, by } => self.step_effect(figure, by, s, scope),
                Statement::Add { amount, to } => self.counter_effect(true, amount, to, s, scope),
                Statement::Give { role, to } => self.counter_effect(false, role, to, s, scope),
            };
            let effect = match (&line.guard, effect) {
                (Some(g), Some(e)) => self.typed(g, s, scope, Kind::Bool).map(|cond| Effect::If {
                    cond: cond.into(),
                    then: Box::new(e),
                }),
                (_, e) => e,
            };
            if let Some(e) = effect {
                let misplaced = match e {
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

    /// `[actions.*]`.
    pub fn actions(&mut self) -> Vec<Action> {
        let defs = &self.pack.rulebook.actions;
        self.action_names = defs.keys().map(str::to_string).collect();
        // Card parameters first: `discard.card` may be read by an action listed earlier.
        let mut params = Vec::new();
        for (_, def) in defs.iter() {
            let param = match (&def.card, &def.row) {
                _ if def.seat.is_some() => {
                    self.seat_param(def.seat.as_ref(), def.card.is_some() || def.row.is_some())
                }
                _ if def.figure.is_some() => self.figure_param(def),
                (Some(c), None) => match syntax::parameter(&c.value, "card") {
                    Ok(node) => self.zone_ref(&node, c, NO_SCOPE).map(Param::Card),
                    Err(e) => {
                        self.syntax_error(c, e);
                        None
                    }
                },
                (None, Some(r)) => match syntax::parameter(&r.value, "row") {
                    Ok(node) => match self.zone_ref(&node, r, NO_SCOPE) {
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
                    },
                    Err(e) => {
                        self.syntax_error(r, e);
                        None
                    }
                },
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
            params.push(param.unwrap_or(Param::None));
        }
        self.action_cards = params
            .iter()
            .map(|p| p.card_zone().map(|z| self.zones[z.zone].set))
            .collect();
        let mut out = Vec::new();
        for ((name, def), param) in defs.iter().zip(params) {
            let scope = Scope {
                card: param.card_zone().map(|z| self.zones[z.zone].set),
                row: match &param {
                    Param::Row { zone, .. } => Some(*zone),
                    _ => None,
                },
                player: false,
                seat: matches!(param, Param::Seat),
                // A figure parameter refused above is not reported again where it is read.
                figure: matches!(param, Param::Figure { .. } | Param::CardFigure { .. })
                    || def.figure.is_some(),
                chosen: def.choose.is_some(),
            };
            let guard = def.guard.as_ref().and_then(|g| self.guard(g, scope));
            let card_zone = param.card_zone().map(|z| z.zone);
            let effects = self.effects(&def.effects, scope, card_zone, false);
            let pay = def.pay.as_ref().and_then(|p| self.pay(p, scope));
            let choose = self.action_choice(def, scope);
            let why = def.why.as_ref().and_then(|w| self.template(w, scope, true));
            let reveals = effects.iter().any(|e| matches!(e, Effect::Move { to } if self.zones[to.zone].visible == grail_schema::model::Visibility::Public));
            out.push(Action {
                // The verb of its moves: its `verb`, else its name.
                name: def.verb.as_ref().unwrap_or(name).value.clone(),
                param,
                guard,
                effects,
                reveals,
                pay,
                choose,
                why,
                place: self.place(&def.effects),
                loc: def.effects.loc.clone(),
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
        let mut step_of = |c: &mut Self, step: &Sp<String>| -> Option<Step> {
            let rb = &c.pack.rulebook;
            let Some(def) = rb.steps.get(&step.value) else {
                let msg = grail_engine::diag::no_such("step", &step.value, rb.steps.keys());
                c.error("unknown-step", msg, &step.loc, step.loc.span.clone());
                return None;
            };
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
            let repeat = def
                .repeat
                .as_ref()
                .and_then(|r| c.expression(r, NO_SCOPE, false));
            // The actions taken at a step are counted in a byte: a fixed count past it is
            // refused (one read from the state is bounded where it is read).
            // A param given per player count is checked for each count.
            let fixed: &[i64] = match &repeat {
                Some(Expr::Const(n)) => std::slice::from_ref(n),
                Some(Expr::Counter(super::counters::CounterExpr::ByPlayers(v))) => {
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
                prompt: def.prompt.as_ref().map(|p| p.value.clone()),
                by_card: def.by_card.as_ref().is_some_and(|b| b.value),
                auto: def.auto.as_ref().is_some_and(|b| b.value),
                repeat,
                loc: step.loc.clone(),
                repeat_text: def.repeat.as_ref().map(|r| r.value.trim().to_string()),
            })
        };
        for step in &turn.steps {
            if let Some(st) = step_of(self, step) {
                steps.push(st);
            }
        }
        self.turn_steps = steps.len();
        self.stages = self.pre_stages(&mut steps, &mut step_of);
        self.step_limits(steps.len());
        for (name, _) in rb.steps.iter() {
            if !steps.iter().any(|s| s.name == name.value) {
                let msg = format!("step `{}` is in no stage", name.value);
                self.error("unreachable", msg, &name.loc, name.loc.span.clone());
            }
        }
        for (i, (name, _)) in rb.actions.iter().enumerate() {
            if !steps.iter().any(|s: &Step| s.actions.contains(&i)) {
                let msg = format!("action `{}` is offered by no step", name.value);
                self.error("unreachable", msg, &name.loc, name.loc.span.clone());
            }
        }
        steps
    }
}
