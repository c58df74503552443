//! Figures on a ring of seats: a `ring` zone (its seats, and plates that turn with the
//! figure holding a role), the figure kinds standing on it with their counters, and the
//! roles, in play: placing and reading figures, script queries and positions. Compiled from
//! `[zones.*]` with `layout = "ring"`, `[figures.*]` and `[roles.*]` in `ring_check.rs`;
//! played on the engine's fixed-size [`Ring`], so placing and reading figures never
//! allocates. One ring per game so far.
//!
//! Figure ids: the kinds one after another in declaration order; a kind drawn from a set
//! has one figure per card, an owned kind `count` per seat (`base + seat * count + i`).

use std::fmt::Write;

use grail_engine::ring::{MAX_FIGURES, Ring};

use super::Rulebook;
use super::eval::Ctx;
use super::model::{Board, Expr, FigureExpr, Members, Total, Who};
use super::state::{Figures, State};

impl Board {
    pub(super) fn kind_size(&self, k: usize, players: usize) -> usize {
        match &self.kinds[k].members {
            Members::Each { count } => {
                players * usize::from(count.get(players).copied().unwrap_or(0))
            }
            Members::Cards { seats, .. } => seats.len(),
        }
    }

    /// The ring at the start of a game of `players`: figures drawn from sets on their seats.
    pub fn start(&self, players: usize) -> Figures {
        let mut ring = Ring::new(self.seats, self.numbered);
        let (mut base, mut per, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
        let mut next = 0usize;
        let mut counters = Vec::new();
        for (k, kind) in self.kinds.iter().enumerate() {
            base.push(next as u8);
            let size = self.kind_size(k, players);
            sizes.push(size as u8);
            match &kind.members {
                Members::Each { count } => {
                    per.push(count.get(players).copied().unwrap_or(0));
                    counters.extend(std::iter::repeat_n(0, size * self.counters.len()));
                }
                Members::Cards {
                    seats,
                    counters: start,
                    ..
                } => {
                    per.push(seats.len() as u8);
                    for (i, &s) in seats.iter().enumerate() {
                        ring.place((next + i) as u8, s);
                        counters.extend_from_slice(&start[i]);
                    }
                }
            }
            next += size;
        }
        let roles = self
            .roles
            .iter()
            .map(|r| base[r.kind] + r.start as u8)
            .collect();
        let mut f = Figures {
            ring,
            base,
            per,
            size: sizes,
            counters,
            roles,
            kind_totals: Default::default(),
        };
        self.recount_totals(&mut f);
        f
    }

    /// Each kind's counter totals worked out again from the counters.
    pub fn recount_totals(&self, f: &mut Figures) {
        let totals = self.summed_totals(f);
        f.kind_totals.0 = totals;
    }

    /// Each kind's counter totals (`kind * counters + c`), summed from the counters.
    pub fn summed_totals(&self, f: &Figures) -> Vec<i64> {
        let n = self.counters.len();
        (0..self.kinds.len() * n)
            .map(|i| self.summed_total(f, i % n, i / n, None))
            .collect()
    }

    /// Sets counter `i` (`figure * counters + c`) to `value`, its kind's total with it.
    pub fn set_counter(&self, f: &mut Figures, i: usize, value: i16) {
        let n = self.counters.len().max(1);
        let Some(old) = f.counters.get(i).copied() else {
            return;
        };
        f.counters[i] = value;
        let (kind, _, _) = self.figure(f, (i / n) as u8);
        if let Some(t) = f.kind_totals.get_mut(kind * n + i % n) {
            *t += i64::from(value) - i64::from(old);
        }
    }

    /// The figures of kind `k` (of `owner`, for an owned kind; all for `None`).
    #[inline]
    pub fn members(&self, f: &Figures, k: usize, owner: Option<usize>) -> std::ops::Range<u8> {
        let (base, per) = (f.base[k], f.per[k]);
        match (&self.kinds[k].members, owner) {
            (Members::Each { .. }, Some(seat)) => {
                let first = base + seat as u8 * per;
                first..first + per
            }
            _ => base..base + f.size[k],
        }
    }

    /// The sum of a counter over the figures of kind `k` (of `owner`; all for `None`, kept).
    #[inline]
    pub fn total(&self, f: &Figures, counter: usize, k: usize, owner: Option<usize>) -> i64 {
        match owner {
            None => (f
                .kind_totals
                .get(k * self.counters.len() + counter)
                .copied())
            .unwrap_or_else(|| self.summed_total(f, counter, k, None)),
            Some(_) => self.summed_total(f, counter, k, owner),
        }
    }

    /// [`Board::total`] summed over the figures.
    fn summed_total(&self, f: &Figures, counter: usize, k: usize, owner: Option<usize>) -> i64 {
        self.members(f, k, owner)
            .map(|m| {
                let i = usize::from(m) * self.counters.len() + counter;
                f.counters.get(i).map_or(0, |&v| i64::from(v))
            })
            .sum()
    }

    /// The kind of a figure, its owner (owned kinds) and index within the kind.
    pub fn figure(&self, f: &Figures, figure: u8) -> (usize, Option<usize>, usize) {
        let k = f.base.iter().rposition(|&b| b <= figure).unwrap_or(0);
        let i = usize::from(figure - f.base[k]);
        match self.kinds[k].members {
            Members::Each { .. } => {
                let per = usize::from(f.per[k].max(1));
                (k, Some(i / per), i % per)
            }
            Members::Cards { .. } => (k, None, i),
        }
    }

    /// The plate (card type) in front of `seat`; `None` without plates. Inlined: read for
    /// the figure of every move that scores the seat it leaves.
    #[inline]
    pub fn plate_at(&self, f: &Figures, seat: usize) -> Option<u16> {
        let p = self.plates.as_ref()?;
        let holder = f.ring.seat_of(f.roles[p.role]).map_or(0, usize::from);
        let n = self.seats;
        Some(p.by_position[grail_engine::ring::wrap(p.at + seat + n - holder, n)])
    }

    /// The plate (card type) in front of the seat of `figure`: -1 when it is off the ring or
    /// there are no plates (`plate(seat(figure))`).
    #[inline]
    pub fn plate_under(&self, f: &Figures, figure: i64) -> i64 {
        u8::try_from(figure)
            .ok()
            .filter(|&m| usize::from(m) < MAX_FIGURES)
            .and_then(|m| f.ring.seat_of(m))
            .filter(|&s| usize::from(s) < self.seats)
            .and_then(|s| self.plate_at(f, usize::from(s)))
            .map_or(-1, i64::from)
    }

    /// A counter the figures of a kind hold more of together than the game has
    /// (`[figures.*] totals`): the total, what they hold, and what the game has.
    pub fn over_total(&self, f: &Figures, players: u8) -> Option<(&Total, i64, i64)> {
        self.totals.iter().find_map(|t| {
            let held: i64 = self
                .members(f, t.kind, None)
                .map(|m| i64::from(f.counters[usize::from(m) * self.counters.len() + t.counter]))
                .sum();
            let game = t.by_players.get(usize::from(players)).copied().unwrap_or(0);
            (held > game).then_some((t, held, game))
        })
    }

    /// A figure's name in views: `P1 knight`, `silver-1`.
    pub fn figure_name(&self, sets: &[super::model::CardSet], f: &Figures, figure: u8) -> String {
        let (k, owner, i) = self.figure(f, figure);
        match (&self.kinds[k].members, owner) {
            (Members::Cards { set, .. }, _) => sets[*set].cards[i].clone(),
            (_, Some(o)) => format!("P{} {}", o + 1, self.kinds[k].name),
            _ => self.kinds[k].name.clone(),
        }
    }
}

impl Rulebook {
    /// Whose figures a read covers: a seat's, or all (`None`).
    pub(super) fn owner_of(&self, who: Who, ctx: &Ctx) -> Option<usize> {
        match who {
            Who::Table | Who::Each => None,
            Who::Current | Who::Player | Who::Seat(_) => Some(self.seat_of(who, ctx)),
        }
    }

    #[inline(never)]
    pub(super) fn eval_figures(&self, e: &FigureExpr, ctx: &Ctx) -> i64 {
        let (Some(board), Some(f)) = (&self.board, &ctx.state.figures.0) else {
            return 0;
        };
        let seat = |e: &Expr| {
            usize::try_from(self.eval(e, ctx))
                .ok()
                .filter(|&s| s < board.seats)
        };
        match e {
            FigureExpr::Empty(s) => i64::from(seat(s).is_some_and(|s| f.ring.is_free(s as u8))),
            FigureExpr::Plate(s) => seat(s)
                .and_then(|s| board.plate_at(f, s))
                .map_or(-1, i64::from),
            FigureExpr::Count { kind, who, on } => board
                .members(f, *kind, self.owner_of(*who, ctx))
                .filter(|&m| f.ring.seat_of(m).is_some() == *on)
                .count() as i64,
            FigureExpr::RoleSeat(r) => f.ring.seat_of(f.roles[*r]).map_or(-1, i64::from),
            FigureExpr::SeatOf(m) => u8::try_from(self.eval(m, ctx))
                .ok()
                .filter(|&m| usize::from(m) < MAX_FIGURES)
                .and_then(|m| f.ring.seat_of(m))
                .map_or(-1, i64::from),
            FigureExpr::CardAttr {
                kind,
                set,
                attr,
                figure,
            } => match u8::try_from(self.eval(figure, ctx)) {
                Ok(m) => match board.figure(f, m) {
                    (k, None, i) if k == *kind => {
                        self.sets[*set].values[*attr].get(i).copied().unwrap_or(-1)
                    }
                    _ => -1,
                },
                Err(_) => -1,
            },
            FigureExpr::Occupant(s) => seat(s)
                .and_then(|s| f.ring.figure_at(s as u8))
                .map_or(-1, i64::from),
            FigureExpr::Owner(m) => u8::try_from(self.eval(m, ctx))
                .ok()
                .filter(|&m| f.size.iter().map(|&n| usize::from(n)).sum::<usize>() > usize::from(m))
                .and_then(|m| board.figure(f, m).1)
                .map_or(-1, |o| o as i64),
            FigureExpr::Total { counter, kind, who } => {
                board.total(f, *counter, *kind, self.owner_of(*who, ctx))
            }
            FigureExpr::CardOf { kind, figure } => match u8::try_from(self.eval(figure, ctx)) {
                Ok(m) if usize::from(m) < MAX_FIGURES => match board.figure(f, m) {
                    (k, None, i) if k == *kind => i as i64,
                    _ => -1,
                },
                _ => -1,
            },
            FigureExpr::ParamFigure => i64::from(ctx.args.figure()),
            FigureExpr::ParamSteps => i64::from(ctx.args.steps()),
            FigureExpr::Plates(r) => self.plate_read(r, board, f, ctx),
            FigureExpr::Chosen => i64::from(ctx.state.chosen.made),
            FigureExpr::PlateSum { attr, kind, who } => {
                let Some(plates) = &board.plates else {
                    return 0;
                };
                let values = &self.sets[plates.set].values[*attr];
                board
                    .members(f, *kind, self.owner_of(*who, ctx))
                    .filter_map(|m| f.ring.seat_of(m))
                    .filter_map(|s| board.plate_at(f, usize::from(s)))
                    .map(|p| values[usize::from(p)])
                    .sum()
            }
        }
    }

    /// Puts the player to move's next unplaced figure of `kind` on `seat`, if it is empty.
    pub(super) fn place_figure(&self, state: &mut State, kind: usize, seat: i64) {
        let (Some(board), Some(f)) = (&self.board, &mut state.figures.0) else {
            return;
        };
        let Some(seat) = u8::try_from(seat)
            .ok()
            .filter(|&s| usize::from(s) < board.seats)
        else {
            return;
        };
        if !f.ring.is_free(seat) {
            return;
        }
        let me = usize::from(state.current);
        if let Some(m) = board
            .members(f, kind, Some(me))
            .find(|&m| f.ring.seat_of(m).is_none())
        {
            f.ring.place(m, seat);
        }
    }

    /// Script queries on the ring: `seat 4`, `plate 4`, `knight P1` (its seats), `prince`,
    /// `king` (the role holder's seat), `rings silver-1`. `None`: not a ring query.
    pub(super) fn ring_answer(
        &self,
        state: &State,
        words: &[&str],
    ) -> Option<Result<String, String>> {
        let (board, f) = (self.board.as_ref()?, state.figures.0.as_ref()?);
        let seat_arg = |w: &str| {
            w.parse::<usize>()
                .ok()
                .filter(|&s| s < board.seats)
                .ok_or_else(|| format!("the seats are 0 to {}, not `{w}`", board.seats - 1))
        };
        Some(match words {
            ["seat", n] => seat_arg(n).map(|s| match f.ring.figure_at(s as u8) {
                Some(m) => board.figure_name(&self.sets, f, m),
                None => "·".into(),
            }),
            ["plate", n] => seat_arg(n).map(|s| {
                board.plate_at(f, s).map_or("no plates".into(), |p| {
                    self.sets[board.plates.as_ref().map_or(0, |p| p.set)].cards[usize::from(p)]
                        .clone()
                })
            }),
            [name] if board.roles.iter().any(|r| r.name == *name) => {
                let r = board.roles.iter().position(|r| r.name == *name)?;
                Ok(f.ring
                    .seat_of(f.roles[r])
                    .map_or("off the table".into(), |s| s.to_string()))
            }
            [name, rest @ ..] if board.kinds.iter().any(|k| k.name == *name) => {
                let k = board.kinds.iter().position(|k| k.name == *name)?;
                let owner = match rest {
                    [] => None,
                    [p] => match p.strip_prefix('P').and_then(|n| n.parse::<usize>().ok()) {
                        Some(n) if (1..=usize::from(state.players)).contains(&n) => Some(n - 1),
                        _ => {
                            return Some(Err(format!(
                                "`{p}` is not a seat here (P1 … P{})",
                                state.players
                            )));
                        }
                    },
                    _ => return Some(Err(format!("`{name}` takes at most a seat: `{name} P1`"))),
                };
                let mut seats: Vec<u8> = board
                    .members(f, k, owner)
                    .filter_map(|m| f.ring.seat_of(m))
                    .collect();
                seats.sort_unstable();
                Ok(seats
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(" "))
            }
            [counter, id] if board.counters.iter().any(|c| c == counter) => {
                let c = board.counters.iter().position(|c| c == counter)?;
                let total: u8 = f.size.iter().sum();
                let found = (0..total).find(|&m| board.figure_name(&self.sets, f, m) == *id);
                match found {
                    Some(m) => {
                        Ok(f.counters[usize::from(m) * board.counters.len() + c].to_string())
                    }
                    None => Err(format!("there is no figure `{id}`")),
                }
            }
            _ => return None,
        })
    }

    /// The ring's line in the table view: every occupied seat and who stands there.
    pub(super) fn ring_text(&self, state: &State, out: &mut String) {
        let (Some(board), Some(f)) = (&self.board, &state.figures.0) else {
            return;
        };
        // Without plates a seat is worth nothing to show: the figures where they stand.
        let Some(plates) = &board.plates else {
            let seats: Vec<String> = (f.ring.figures())
                .map(|(s, m)| format!("{s}: {}", self.figure_label(state, m)))
                .collect();
            let _ = writeln!(out, "{}: {}", board.name, seats.join("; "));
            return;
        };
        // Seat by seat: its number, the plate in front of it (by its name: its value), and
        // the figure on it with its counters (`rings 3`); the seats flow in lines of 78.
        let _ = writeln!(out, "{} (seat:plate figure):", board.name);
        let mut line = String::from(" ");
        for s in 0..board.seats {
            let plate = board
                .plate_at(f, s)
                .and_then(|t| self.sets[plates.set].names.get(usize::from(t)))
                .map_or("?", String::as_str);
            let mut cell = format!("{s}:{plate}");
            if let Some((_, m)) = u8::try_from(s)
                .ok()
                .and_then(|s| f.ring.figures().find(|&(at, _)| at == s))
            {
                cell += &format!(" {}", self.figure_label(state, m));
                for (c, name) in board.counters.iter().enumerate() {
                    let v = self.figure_count(state, c, i64::from(m));
                    if v != 0 {
                        cell += &format!(" {name} {v}");
                    }
                }
            }
            if line.chars().count() + cell.chars().count() + 3 > 78 {
                let _ = writeln!(out, "{}", line.trim_end());
                line = String::from(" ");
            }
            line += &format!(" {cell} ");
            line.push('|');
        }
        let _ = writeln!(out, "{}", line.trim_end().trim_end_matches('|').trim_end());
    }
}
