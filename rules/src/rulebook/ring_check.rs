//! Checking and compiling a ring's description: the `ring` zone, `[figures.*]` and
//! `[roles.*]`, the seat parameter, `place`, and the ring's functions in expressions. Every
//! problem is a diagnostic pointing into the pack, with did-you-mean for names.

use grail_engine::diag::{Diagnostic, did_you_mean, no_such};
use grail_engine::ring::{MAX_FIGURES, MAX_SEATS};
use grail_engine::seats::Direction;
use grail_schema::model::{Layout, Sp, ZoneOwner};

use super::compile::{Compiler, Kind, Scope};
use super::model::{
    Board, Effect, Expr, FigureExpr, FigureKind, Members, Param, Plates, Role, Total, Who,
};
use super::syntax::{Ast, Node};

fn direction(s: Option<&Sp<String>>) -> Result<Option<Direction>, String> {
    match s.map(|s| s.value.as_str()) {
        None => Ok(None),
        Some("clockwise") => Ok(Some(Direction::Clockwise)),
        Some("counter-clockwise") => Ok(Some(Direction::CounterClockwise)),
        Some(other) => Err(format!(
            "a direction is `clockwise` or `counter-clockwise`, not `{other}`"
        )),
    }
}

impl Compiler<'_> {
    /// The ring zone, `[figures.*]` and `[roles.*]`; `None` when the game has no ring.
    pub fn board(&mut self) -> Option<Board> {
        let rb = &self.pack.rulebook;
        let rings: Vec<_> = rb
            .zones
            .iter()
            .filter(|(_, z)| z.layout.value == Layout::Ring)
            .collect();
        let Some(&(name, def)) = rings.first() else {
            if let Some((k, _)) = rb.figures.iter().next() {
                let msg = format!(
                    "figure `{}` needs a zone with `layout = \"ring\"` to stand on",
                    k.value
                );
                self.error("unknown-zone", msg, &k.loc, k.loc.span.clone());
            }
            return None;
        };
        if let Some((second, _)) = rings.get(1) {
            let msg = "one ring per game so far: a second `ring` zone".to_string();
            self.error("invalid-value", msg, &second.loc, second.loc.span.clone());
        }
        let seats_set = self.set_index(&def.holds)?;
        let seats = self.sets[seats_set].cards.len();
        // A board of the wrong size is reported once, at its set; the figures' seats and the
        // counts that fit it are then not checked (each would only repeat it), but the names
        // still compile, so the rest of the description is checked as usual.
        let sized = (2..=MAX_SEATS).contains(&seats);
        if !sized {
            let msg = format!(
                "ring `{}` has {seats} seat{} (the cards of set `{}`); a ring needs 2 to {MAX_SEATS}",
                name.value,
                if seats == 1 { "" } else { "s" },
                def.holds.value
            );
            self.at_set("board-size", msg, &def.holds.value, "the seats");
        }
        let mut dirs = [None; 3];
        for (i, d) in [&def.numbered, &def.forward, &def.displace]
            .into_iter()
            .enumerate()
        {
            match direction(d.as_ref()) {
                Ok(v) => dirs[i] = v,
                Err(msg) => {
                    let at = d.as_ref().map_or(&name.loc, |d| &d.loc);
                    self.error("invalid-value", msg, at, at.span.clone());
                }
            }
        }
        let mut board = Board {
            name: name.value.clone(),
            seats_set,
            seats,
            plates: None,
            numbered: dirs[0].unwrap_or(Direction::CounterClockwise),
            forward: dirs[1],
            displace: dirs[2],
            kinds: Vec::new(),
            roles: Vec::new(),
            counters: Vec::new(),
            totals: Vec::new(),
        };
        for (_, f) in rb.figures.iter() {
            for c in &f.counters {
                if !board.counters.contains(&c.value) {
                    board.counters.push(c.value.clone());
                }
            }
        }
        // Each kind's `count`, beside `board.kinds`, to say where a count that does not fit is.
        let mut counts_at = Vec::new();
        for (kname, f) in rb.figures.iter() {
            if f.on.value != board.name {
                let msg = no_such("ring zone", &f.on.value, [board.name.as_str()]);
                self.error("unknown-zone", msg, &f.on.loc, f.on.loc.span.clone());
                continue;
            }
            let owned = f.owner.as_ref().map(|o| o.value) == Some(ZoneOwner::Each);
            let members = match (owned, &f.count, &f.set) {
                (true, Some(count), None) => self.counts_by_players(count),
                (false, None, Some(set)) => {
                    self.members_from_set(set, f.start.as_ref(), &board, sized)
                }
                _ => {
                    let msg = format!(
                        "figure `{}` is either owned by each seat (`owner = \"each\"` and `count`) or drawn from a set (`set` and `start`)",
                        kname.value
                    );
                    self.error("missing-field", msg, &kname.loc, kname.loc.span.clone());
                    None
                }
            };
            if let Some(members) = members {
                counts_at.push(f.count.clone());
                board.kinds.push(FigureKind {
                    name: kname.value.clone(),
                    members,
                });
            }
        }
        // The roles of figures (a card's are `card_roles.rs`').
        let figure_roles = rb.roles.iter().filter(|(_, r)| r.holds.is_none());
        for (rname, r) in figure_roles {
            let (Some(figure), Some(start)) = (&r.figure, &r.start) else {
                continue;
            };
            let Some(kind) = board.kinds.iter().position(|k| k.name == figure.value) else {
                let msg = no_such(
                    "figure",
                    &figure.value,
                    board.kinds.iter().map(|k| k.name.as_str()),
                );
                self.error("unknown-name", msg, &figure.loc, figure.loc.span.clone());
                continue;
            };
            let Members::Cards { set, .. } = board.kinds[kind].members else {
                let msg = format!(
                    "role `{}` starts with a figure drawn from a set",
                    rname.value
                );
                self.error("invalid-value", msg, &figure.loc, figure.loc.span.clone());
                continue;
            };
            let cards = &self.sets[set].cards;
            let Some(start) = cards.iter().position(|c| *c == start.value) else {
                let msg = no_such("card", &start.value, cards.iter().map(String::as_str));
                self.error("unknown-name", msg, &start.loc, start.loc.span.clone());
                continue;
            };
            board.roles.push(Role {
                name: rname.value.clone(),
                kind,
                start,
                tally: r.tally.as_ref().map(|t| t.value.clone()),
            });
        }
        board.plates = self.plates(
            def.plates.as_ref(),
            def.follow.as_ref(),
            def.at.as_ref(),
            &board,
            name,
        );
        if sized {
            self.fits(&board, name, counts_at);
        }
        board.totals = self.figure_totals(&board);
        Some(board)
    }

    /// An owned kind's count: a param, plain or by player count (or `+ - *` of params and
    /// numbers: `knights - score_markers`), for every count played.
    fn counts_by_players(&mut self, count: &Sp<String>) -> Option<Members> {
        let (min, max) = self.pack.players;
        let mut counts = vec![0u8; usize::from(max) + 1];
        for n in min..=max {
            match self.start_value(count, n) {
                Ok(v) => {
                    counts[usize::from(n)] =
                        u8::try_from(v.clamp(0, MAX_FIGURES as i64)).unwrap_or(0)
                }
                Err(d) => {
                    self.diags.push(d);
                    return None;
                }
            }
        }
        Some(Members::Each { count: counts })
    }

    fn members_from_set(
        &mut self,
        set: &Sp<String>,
        start: Option<&Sp<String>>,
        board: &Board,
        sized: bool,
    ) -> Option<Members> {
        let si = self.set_index(set)?;
        let Some(start) = start else {
            let msg = format!(
                "figures drawn from set `{}` need `start`: the attribute naming each one's seat",
                set.value
            );
            self.error("missing-field", msg, &set.loc, set.loc.span.clone());
            return None;
        };
        let s = &self.sets[si];
        let Some(a) = s.attrs.iter().position(|x| *x == start.value) else {
            let msg = no_such(
                &format!("attribute of set `{}` named", s.id),
                &start.value,
                s.attrs.iter().map(String::as_str),
            );
            self.error("unknown-attribute", msg, &start.loc, start.loc.span.clone());
            return None;
        };
        // Each figure's problem is reported at its card, and the figure kept (on seat 0), so
        // that one figure off the board is one error.
        let mut seats = Vec::new();
        let mut taken: Vec<Option<usize>> = vec![None; board.seats];
        let mut problems = Vec::new();
        for (t, &v) in s.values[a].iter().enumerate() {
            let seat = usize::try_from(v).ok().filter(|&v| v < board.seats);
            match seat {
                None if sized => problems.push((
                    "no-such-seat",
                    t,
                    format!(
                        "figure `{}` starts on seat {v}, but ring `{}`'s seats are 0 to {}",
                        s.cards[t],
                        board.name,
                        board.seats - 1
                    ),
                )),
                Some(seat) if sized && taken[seat].is_some() => problems.push((
                    "seat-taken",
                    t,
                    format!(
                        "figures `{}` and `{}` both start on seat {seat}: one figure a seat",
                        s.cards[taken[seat].unwrap_or(0)],
                        s.cards[t]
                    ),
                )),
                Some(seat) => taken[seat] = Some(t),
                None => {}
            }
            seats.push(seat.unwrap_or(0) as u8);
        }
        let set_id = s.id.clone();
        for (code, t, msg) in problems {
            self.at_card(code, msg, (&set_id, t, &start.value), "this figure's seat");
        }
        let s = &self.sets[si];
        let counters = (0..s.cards.len())
            .map(|t| {
                board
                    .counters
                    .iter()
                    .map(|c| {
                        s.attrs
                            .iter()
                            .position(|x| x == c)
                            .map_or(0, |a| s.values[a][t].clamp(0, i64::from(i16::MAX)) as i16)
                    })
                    .collect()
            })
            .collect();
        let names = self
            .pack
            .sets
            .iter()
            .find(|x| x.id == set.value)
            .map(|x| x.cards.iter().map(|c| c.name.clone()).collect())
            .unwrap_or_default();
        Some(Members::Cards {
            set: si,
            seats,
            counters,
            names,
        })
    }

    fn plates(
        &mut self,
        set: Option<&Sp<String>>,
        follow: Option<&Sp<String>>,
        at: Option<&Sp<String>>,
        board: &Board,
        zone: &Sp<String>,
    ) -> Option<Plates> {
        let set = set?;
        let (Some(follow), Some(at)) = (follow, at) else {
            let msg = format!(
                "ring `{}` has plates: it needs `follow` (a role) and `at` (the plate facing it)",
                zone.value
            );
            self.error("missing-field", msg, &set.loc, set.loc.span.clone());
            return None;
        };
        let si = self.set_index(set)?;
        let pack_set = self.pack.sets.iter().find(|s| s.id == set.value)?;
        // No card gives a position (the set's checks refuse some without the others): one
        // error at the first card, where it is written (a mod's card in the mod); the plates
        // then stand in list order, so what reads them is checked as usual.
        let order = match pack_set.by_position() {
            Some(order) => order,
            None => {
                let msg = format!(
                    "the plates of ring `{}` need a `position` on each card, 0 to {}, one per \
                     seat; card `{}` has none",
                    zone.value,
                    pack_set.cards.len().saturating_sub(1),
                    pack_set.cards.first().map_or("", |c| c.id.as_str())
                );
                let loc = pack_set.cards.first().map_or(&set.loc, |c| &c.loc).clone();
                self.diags.push(
                    Diagnostic::error("missing-position", msg)
                        .at(loc.source, loc.span, "no `position`")
                        .with_help(
                            "give every plate its place round the table: `position = 0` for \
                             the plate facing the role's figure, then 1, 2, … the way seats \
                             are numbered",
                        ),
                );
                (0..pack_set.cards.len()).collect()
            }
        };
        // Plates and seats that differ in number are reported once; the plates still
        // compile, so what reads them is checked as usual.
        if order.len() != board.seats {
            let msg = format!(
                "ring `{}` has {} seat{} but set `{}` {} plates: {} (each seat faces exactly one plate)",
                zone.value,
                board.seats,
                if board.seats == 1 { "" } else { "s" },
                set.value,
                order.len(),
                if order.len() < board.seats {
                    "a plate is missing"
                } else {
                    "there are plates to spare"
                }
            );
            self.at_set("board-mismatch", msg, &set.value, "the plates");
        }
        let Some(role) = board.roles.iter().position(|r| r.name == follow.value) else {
            let msg = no_such(
                "role",
                &follow.value,
                board.roles.iter().map(|r| r.name.as_str()),
            );
            self.error("unknown-name", msg, &follow.loc, follow.loc.span.clone());
            return None;
        };
        let by_position: Vec<u16> = order.iter().map(|&t| t as u16).collect();
        // `at = "$crown_plate"`: a text param naming the plate, reported where it is given.
        let at = match at.value.strip_prefix('$') {
            Some(name) => match self.pack.param(name) {
                Ok(p) => match &p.value {
                    grail_schema::model::ParamValue::Text(t) => Sp::new(t.clone(), p.loc.clone()),
                    _ => self.param_text(at),
                },
                Err(_) => self.param_text(at),
            },
            None => at.clone(),
        };
        let cards = &self.sets[si].cards;
        // An unknown plate is reported once; the first plate stands in for it, so that what
        // reads the plates is checked as usual.
        let t = match cards.iter().position(|c| *c == at.value) {
            Some(t) => t,
            None => {
                let msg = no_such("plate", &at.value, cards.iter().map(String::as_str));
                self.error("unknown-name", msg, &at.loc, at.loc.span.clone());
                usize::from(by_position.first().copied().unwrap_or(0))
            }
        };
        let at = by_position
            .iter()
            .position(|&p| usize::from(p) == t)
            .unwrap_or(0);
        Some(Plates {
            set: si,
            by_position,
            at,
            role,
        })
    }

    /// With every player count allowed, each owned kind has figures and all of them fit the
    /// ring, one a seat: reported at the count's value for that player count.
    fn fits(&mut self, board: &Board, zone: &Sp<String>, counts_at: Vec<Option<Sp<String>>>) {
        let (min, max) = self.pack.players;
        for n in min..=max {
            let players = usize::from(n);
            for (k, count) in counts_at.iter().enumerate() {
                let Some(count) = count else { continue };
                let value = self.start_value(count, n).unwrap_or(0);
                if value <= 0 {
                    let msg = format!(
                        "with {n} players figure `{}` has none: its count `{}` comes to {value}",
                        board.kinds[k].name,
                        count.value.trim()
                    );
                    self.at_count("no-figures", msg, count, n);
                }
            }
            let total: usize = (0..board.kinds.len())
                .map(|k| board.kind_size(k, players))
                .sum();
            if total > MAX_FIGURES.min(board.seats) {
                let msg = format!(
                    "with {n} players {total} figures need seats, but ring `{}` has {}",
                    zone.value, board.seats
                );
                let count = counts_at.iter().flatten().next();
                match count {
                    Some(count) => self.at_count("seats-short", msg, count, n),
                    None => self.error("seats-short", msg, &zone.loc, zone.loc.span.clone()),
                }
            }
        }
    }

    /// Reports at the value a count takes for `n` players: the param's entry for that count
    /// when the count reads a param by player count, else the count itself.
    fn at_count(&mut self, code: &'static str, msg: String, count: &Sp<String>, n: u8) {
        let words: Vec<&str> = count
            .value
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .collect();
        let by_count = self
            .pack
            .by_players
            .iter()
            .find(|p| words.contains(&p.name.as_str()) && p.get(n).is_some());
        let loc = by_count
            .and_then(|p| p.get(n))
            .map_or(count.loc.clone(), |v| v.loc.clone());
        self.error(code, msg, &loc, loc.span.clone());
    }

    /// Reports at a set of the pack (its table's name).
    fn at_set(&mut self, code: &'static str, msg: String, set: &str, label: &str) {
        let Ok(loc) = self.pack.set(set).map(|s| s.loc.clone()) else {
            return;
        };
        self.diags
            .push(Diagnostic::error(code, msg).at(loc.source, loc.span, label));
    }

    /// Reports at a card's attribute, where its value is written (a mod's override in the
    /// mod), else at the card.
    fn at_card(
        &mut self,
        code: &'static str,
        msg: String,
        (set, t, attr): (&str, usize, &str),
        label: &str,
    ) {
        let Some(loc) = self
            .pack
            .set(set)
            .ok()
            .and_then(|s| s.cards.get(t))
            .map(|c| c.attr_loc(attr).clone())
        else {
            return;
        };
        self.diags
            .push(Diagnostic::error(code, msg).at(loc.source, loc.span, label));
    }

    /// A figure kind and whose: `knight(current)`, `knight(P)`; `knight` or `prince`: all of
    /// them. Reports what is wrong with a reference that is not one.
    pub(super) fn figure_ref(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<(usize, Who)> {
        let board = self.board.as_ref()?;
        let (name, args): (&str, &[Node]) = match &node.ast {
            Ast::Name(n) => (n, &[]),
            Ast::Call(n, a) => (n, a),
            _ => ("", &[]),
        };
        let Some(kind) = board.kinds.iter().position(|k| k.name == name) else {
            let msg = no_such("figure", name, board.kinds.iter().map(|k| k.name.as_str()));
            let at = self.span(s, &node.span);
            self.error("unknown-name", msg, &s.loc, at);
            return None;
        };
        let owned = matches!(board.kinds[kind].members, Members::Each { .. });
        let who = match (owned, args) {
            (_, []) => Who::Table,
            (true, [owner]) => match &owner.ast {
                Ast::Name(w) if w == "current" => Who::Current,
                Ast::Name(w) if w == "P" && scope.player => Who::Player,
                _ => {
                    let at = self.span(s, &owner.span);
                    let msg = format!(
                        "the owner of `{name}` is `current`{}; every seat's are `{name}`, and \
                         another player's those with `owner(figure) != current` in the guard",
                        if scope.player { " or `P`" } else { "" }
                    );
                    self.error("invalid-expression", msg, &s.loc, at);
                    return None;
                }
            },
            _ => {
                let at = self.span(s, &node.span);
                let msg = if owned {
                    format!("`{name}` takes one owner: `{name}(current)`")
                } else {
                    format!("`{name}` figures belong to no seat: write `{name}`")
                };
                self.error("invalid-expression", msg, &s.loc, at);
                return None;
            }
        };
        Some((kind, who))
    }

    /// The ring's functions: `empty(seat)`, `plate(seat)`, `placed(knight(current))`,
    /// `unplaced(…)`, `seat(king)`, `sum(value, plates(knight(P)))`. `None`: not one of
    /// them (the caller goes on); `Some(None)`: one of them, with an error reported.
    pub fn figure_call(
        &mut self,
        node: &Node,
        f: &str,
        args: &[Node],
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Option<(Expr, Kind)>> {
        self.board.as_ref()?;
        if let Some(read) = self.plate_call(node, f, args, s, scope) {
            return Some(read);
        }
        let board = self.board.as_ref()?;
        let one = |c: &mut Self| {
            if args.len() == 1 {
                return true;
            }
            let at = c.span(s, &node.span);
            c.error(
                "invalid-expression",
                format!("`{f}` takes 1 argument"),
                &s.loc,
                at,
            );
            false
        };
        let fe = match f {
            "empty" | "plate" => {
                if f == "plate" && board.plates.is_none() {
                    return None;
                }
                let plates = board.plates.as_ref().map(|p| p.set);
                if !one(self) {
                    return Some(None);
                }
                let seat = self.typed(&args[0], s, scope, Kind::Int);
                let Some(seat) = seat else { return Some(None) };
                return Some(Some(if f == "empty" {
                    (Expr::Figures(FigureExpr::Empty(Box::new(seat))), Kind::Bool)
                } else {
                    (
                        Expr::Figures(FigureExpr::Plate(Box::new(seat))),
                        Kind::Card(plates?),
                    )
                }));
            }
            "occupant" | "owner" => {
                if !one(self) {
                    return Some(None);
                }
                let Some(e) = self.typed(&args[0], s, scope, Kind::Int) else {
                    return Some(None);
                };
                if f == "occupant" {
                    FigureExpr::Occupant(Box::new(e))
                } else {
                    FigureExpr::Owner(Box::new(e))
                }
            }
            "card" => {
                // The one kind of figures drawn from a set.
                let kinds: Vec<(usize, usize)> = (board.kinds.iter().enumerate())
                    .filter_map(|(k, kind)| match &kind.members {
                        Members::Cards { set, .. } => Some((k, *set)),
                        Members::Each { .. } => None,
                    })
                    .collect();
                let [(kind, set)] = kinds[..] else {
                    let at = self.span(s, &node.span);
                    let msg = "`card(figure)` reads the card of a figure drawn from a set, and needs exactly one such kind".to_string();
                    self.error("invalid-expression", msg, &s.loc, at);
                    return Some(None);
                };
                if !one(self) {
                    return Some(None);
                }
                let Some(figure) = self.typed(&args[0], s, scope, Kind::Int) else {
                    return Some(None);
                };
                let e = FigureExpr::CardOf {
                    kind,
                    figure: Box::new(figure),
                };
                return Some(Some((Expr::Figures(e), Kind::Card(set))));
            }
            "total" => {
                let [
                    Node {
                        ast: Ast::Name(c),
                        span,
                    },
                    figs,
                ] = args
                else {
                    let at = self.span(s, &node.span);
                    let msg = "`total` sums a figure counter over a kind: `total(rings, prince)`"
                        .to_string();
                    self.error("invalid-expression", msg, &s.loc, at);
                    return Some(None);
                };
                let Some(counter) = board.counters.iter().position(|x| x == c) else {
                    let msg = no_such(
                        "figure counter",
                        c,
                        board.counters.iter().map(String::as_str),
                    );
                    let at = self.span(s, span);
                    self.error("unknown-name", msg, &s.loc, at);
                    return Some(None);
                };
                let Some((kind, who)) = self.figure_ref(figs, s, scope) else {
                    return Some(None);
                };
                FigureExpr::Total { counter, kind, who }
            }
            "placed" | "unplaced" => {
                if !one(self) {
                    return Some(None);
                }
                let Some((kind, who)) = self.figure_ref(&args[0], s, scope) else {
                    return Some(None);
                };
                FigureExpr::Count {
                    kind,
                    who,
                    on: f == "placed",
                }
            }
            "seat" => {
                if let [
                    Node {
                        ast: Ast::Name(r), ..
                    },
                ] = args
                    && let Some(role) = board.roles.iter().position(|x| x.name == *r)
                {
                    FigureExpr::RoleSeat(role)
                } else {
                    if !one(self) {
                        return Some(None);
                    }
                    let Some(figure) = self.typed(&args[0], s, scope, Kind::Int) else {
                        return Some(None);
                    };
                    FigureExpr::SeatOf(Box::new(figure))
                }
            }
            "sum" => {
                let [
                    attr,
                    Node {
                        ast: Ast::Call(p, inner),
                        ..
                    },
                ] = args
                else {
                    return None;
                };
                if p != "plates" {
                    return None;
                }
                let set = board.plates.as_ref()?.set;
                let [figs] = inner.as_slice() else {
                    return None;
                };
                let Some((kind, who)) = self.figure_ref(figs, s, scope) else {
                    return Some(None);
                };
                let Ast::Name(a) = &attr.ast else { return None };
                let Some(a) = self.sets[set].attrs.iter().position(|x| x == a) else {
                    let at = self.span(s, &attr.span);
                    let msg = no_such(
                        "plate attribute",
                        a,
                        self.sets[set].attrs.iter().map(String::as_str),
                    );
                    self.error("unknown-attribute", msg, &s.loc, at);
                    return Some(None);
                };
                FigureExpr::PlateSum { attr: a, kind, who }
            }
            // An attribute of a seat, by its number: `carpet(seat)`; else of the card a figure
            // drawn from a set stands for: `metal(figure)`.
            attr if args.len() == 1 => {
                let set = board.seats_set;
                let Some(a) = self.sets[set].attrs.iter().position(|x| x == attr) else {
                    return self.figure_card_attr(attr, &args[0], s, scope);
                };
                let seat = self.typed(&args[0], s, scope, Kind::Int);
                let Some(seat) = seat else { return Some(None) };
                return Some(Some((
                    Expr::Attr {
                        set,
                        attr: a,
                        card: Box::new(seat),
                    },
                    Kind::Int,
                )));
            }
            _ => return None,
        };
        Some(Some((Expr::Figures(fe), Kind::Int)))
    }

    /// `metal(figure)`: the attribute of the card a figure drawn from a set stands for;
    /// `None` when no such set has it.
    fn figure_card_attr(
        &mut self,
        attr: &str,
        figure: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Option<(Expr, Kind)>> {
        let board = self.board.as_ref()?;
        let (kind, set, a) =
            board
                .kinds
                .iter()
                .enumerate()
                .find_map(|(k, kind)| match &kind.members {
                    Members::Cards { set, .. } => self.sets[*set]
                        .attrs
                        .iter()
                        .position(|x| x == attr)
                        .map(|a| (k, *set, a)),
                    Members::Each { .. } => None,
                })?;
        let Some(figure) = self.typed(figure, s, scope, Kind::Int) else {
            return Some(None);
        };
        let e = FigureExpr::CardAttr {
            kind,
            set,
            attr: a,
            figure: Box::new(figure),
        };
        Some(Some((Expr::Figures(e), Kind::Int)))
    }

    /// `seat = "seat in table"`: a seat of the ring, the action's one parameter.
    pub fn seat_param(&mut self, def: Option<&Sp<String>>, other: bool) -> Option<Param> {
        let def = def?;
        if other {
            let msg = "an action takes one parameter: `card`, `row` or `seat`".to_string();
            self.error("invalid-value", msg, &def.loc, def.loc.span.clone());
            return None;
        }
        let node = self.parameter(def, "seat")?;
        let ring = self.board.as_ref().map(|b| b.name.clone());
        match (&node.ast, ring) {
            (Ast::Name(n), Some(ring)) if *n == ring => Some(Param::Seat),
            (_, ring) => {
                let at = self.span(def, &node.span);
                let msg = match ring {
                    Some(ring) => {
                        format!("a seat parameter is drawn from the ring: `seat in {ring}`")
                    }
                    None => "a seat parameter needs a zone with `layout = \"ring\"`".to_string(),
                };
                self.error("unknown-zone", msg, &def.loc, at);
                None
            }
        }
    }

    /// `place knight(current) at seat`: the seat's next figure of that kind not yet placed.
    pub fn place_effect(
        &mut self,
        figure: &Node,
        seat: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Effect> {
        let (kind, who) = self.figure_ref(figure, s, scope)?;
        if who != Who::Current {
            let at = self.span(s, &figure.span);
            self.error(
                "invalid-expression",
                "`place` places a figure of the player to move: `(current)`".into(),
                &s.loc,
                at,
            );
            return None;
        }
        let seat = self.typed(seat, s, scope, Kind::Int)?;
        Some(Effect::Place { kind, seat })
    }
}

impl Compiler<'_> {
    /// `[figures.*] totals`: how many of a counter's things the game has, for every count
    /// played; each names one of the kind's counters.
    fn figure_totals(&mut self, board: &Board) -> Vec<Total> {
        let (min, max) = self.pack.players;
        let mut out = Vec::new();
        for (kname, def) in self.pack.rulebook.figures.iter() {
            let Some(kind) = board.kinds.iter().position(|k| k.name == kname.value) else {
                continue;
            };
            for (counter, total) in def.totals.iter() {
                if !def.counters.iter().any(|c| c.value == counter.value) {
                    let near = did_you_mean(
                        &counter.value,
                        def.counters.iter().map(|c| c.value.as_str()),
                    )
                    .map_or(String::new(), |c| format!("; did you mean `{c}`?"));
                    let msg = format!(
                        "`totals` counts a counter the `{}` figures carry, and `{}` is none{near}",
                        kname.value, counter.value
                    );
                    self.error("unknown-name", msg, &counter.loc, counter.loc.span.clone());
                    continue;
                }
                let mut by_players = vec![0; usize::from(max) + 1];
                for n in min..=max {
                    match self.start_value(total, n) {
                        Ok(v) => by_players[usize::from(n)] = v,
                        Err(d) => {
                            self.diags.push(d);
                            break;
                        }
                    }
                }
                out.push(Total {
                    kind,
                    counter: board
                        .counters
                        .iter()
                        .position(|c| *c == counter.value)
                        .unwrap_or(0),
                    by_players,
                });
            }
        }
        out
    }
}
