//! Zones and sets: `[zones.*]` laid out into piles, zone and attribute names resolved,
//! and the numbers a pack names (`$name`).

use crate::rulebook::model::{Expr, Who, Zone, ZoneRef};
use crate::rulebook::syntax::{Ast, Node};
use grail_engine::diag::Diagnostic;
use grail_schema::model::{Layout, Sp, ZoneOwner, ZoneStart};
use std::ops::Range;

use super::{Compiler, MAX_ZONES, Scope};

impl Compiler<'_> {
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
        // Per set, the zone each card type starts in (its name), as `start`s are met.
        let mut starts: Vec<(usize, u16, Sp<String>)> = Vec::new();
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
            let start = self.zone_start(name, def.start.as_ref(), set, layout, &mut starts);
            let starts = !start.is_empty();
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
            let shows = def.shows.as_ref().and_then(|shows| {
                let attrs = &self.sets[set].attrs;
                let found = attrs.iter().position(|a| *a == shows.value);
                if found.is_none() {
                    let msg = grail_engine::diag::no_such(
                        &format!("attribute of set `{}` named", self.sets[set].id),
                        &shows.value,
                        attrs.iter().map(String::as_str),
                    );
                    self.error("unknown-attribute", msg, &shows.loc, shows.loc.span.clone());
                }
                found
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
                starts,
                start,
                refill: None,
                tally: def.tally.as_ref().map(|t| t.value.clone()),
                marks,
                turned: false,
                shows,
                listing: def.table.as_ref().map(|t| t.value).unwrap_or_default(),
            });
        }
        self.refills();
        for (i, set) in self.sets.iter().enumerate() {
            // A union starts with its members' cards.
            if set.members.is_empty() && !starts.iter().any(|(s, _, _)| *s == i) {
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

    /// What zone `name` starts with (`start`): types of `set` counted from its first, each
    /// claimed in `starts` (a card starting in two zones is an error).
    fn zone_start(
        &mut self,
        name: &Sp<String>,
        start: Option<&Sp<ZoneStart>>,
        set: usize,
        layout: Layout,
        starts: &mut Vec<(usize, u16, Sp<String>)>,
    ) -> Vec<u16> {
        let Some(start) = start else {
            return Vec::new();
        };
        if layout == Layout::Rows {
            let msg = format!(
                "zone `{}` cannot start with cards: a zone with rows cannot",
                name.value
            );
            self.error("invalid-value", msg, &name.loc, name.loc.span.clone());
        }
        let cards = self.sets[set].cards.clone();
        let types: Vec<u16> = match &start.value {
            ZoneStart::All(_) => (0..cards.len() as u16).collect(),
            ZoneStart::Cards(ids) => {
                if ids.is_empty() {
                    let msg = format!("zone `{}` starts with no card: `start = []`", name.value);
                    self.error("invalid-value", msg, &start.loc, start.loc.span.clone());
                }
                let mut types = Vec::new();
                for id in ids {
                    match cards.iter().position(|c| *c == id.value) {
                        Some(t) if !types.contains(&(t as u16)) => types.push(t as u16),
                        Some(_) => {
                            let msg = format!("`{}` is listed twice", id.value);
                            self.error("duplicate-id", msg, &id.loc, id.loc.span.clone());
                        }
                        None => {
                            let msg = grail_engine::diag::no_such(
                                &format!("card in set `{}`", self.sets[set].id),
                                &id.value,
                                cards.iter().map(String::as_str),
                            );
                            self.error("unknown-card", msg, &id.loc, id.loc.span.clone());
                        }
                    }
                }
                types.sort_unstable();
                types
            }
        };
        for &t in &types {
            if let Some((_, _, first)) = starts.iter().find(|(s, u, _)| *s == set && *u == t) {
                let d = Diagnostic::error(
                    "duplicate-id",
                    format!(
                        "card `{}` of set `{}` starts in two zones, `{}` and `{}`",
                        self.sets[set].cards[usize::from(t)],
                        self.sets[set].id,
                        first.value,
                        name.value
                    ),
                )
                .at(name.loc.source, name.loc.span.clone(), "second")
                .also(first.loc.source, first.loc.span.clone(), "first");
                self.diags.push(d);
                break;
            }
        }
        starts.extend(types.iter().map(|&t| (set, t, name.clone())));
        types
    }

    pub(in crate::rulebook) fn zone_index(
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
    pub(in crate::rulebook) fn zone_ref(
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
            self.owner(name, owner, s, scope, true)?
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

    pub(in crate::rulebook) fn attr_of(
        &mut self,
        set: usize,
        name: &Node,
        s: &Sp<String>,
    ) -> Option<usize> {
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
    pub(in crate::rulebook) fn by_players_param(&self, name: &str) -> Expr {
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
        Expr::Counter(crate::rulebook::model::CounterExpr::ByPlayers(
            values.into(),
        ))
    }

    /// The names of the params that may be read as numbers, plain or per player count.
    pub(in crate::rulebook) fn number_params(&self) -> Vec<&str> {
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
}
