//! Queries a description names (`[queries]`): script and terminal questions in the words
//! the game's players use (`knights P1`, `column red`, `seals P2`), each a zone to list or
//! a number; and the built-in questions about the outcome (`scores`, `winners`, `end`).

use grail_engine::game::Rules;
use grail_schema::model::Sp;

use super::Rulebook;
use super::args::Args;
use super::compile::{Compiler, Kind, Scope};
use super::eval::Ctx;
use super::model::{Expr, Who, ZoneRef};
use super::state::State;
use super::syntax::{self, Ast};

#[derive(Debug)]
pub struct Query {
    /// The words; `P` stands for a seat, `row` for a row of the listed zone, `S` for a seat of
    /// the ring (read as `seat` in the value: `"plate S" = "value(plate(seat))"`).
    words: Vec<String>,
    value: Value,
}

#[derive(Debug)]
enum Value {
    /// A zone's cards (`-` for none); a zone with rows and no row given, row by row.
    Listing(ZoneRef),
    Number(Expr),
    /// The seats a kind's figures stand on, rising (`seats(knight(P))`; `-` for none).
    Seats {
        kind: usize,
        who: Who,
    },
    /// Words with values in them (`texts.rs`).
    Text(Vec<super::model::Piece>),
}

impl Compiler<'_> {
    pub(super) fn queries(&mut self) -> Vec<Query> {
        let mut out = Vec::new();
        for (name, value) in self.pack.rulebook.queries.iter() {
            let words: Vec<String> = name.value.split_whitespace().map(str::to_string).collect();
            let ring_seat = words.iter().any(|w| w == "S");
            if let Some(value) = self.query(value, ring_seat) {
                out.push(Query { words, value });
            }
        }
        out
    }

    fn query(&mut self, s: &Sp<String>, ring_seat: bool) -> Option<Value> {
        let scope = Scope {
            card: None,
            row: None,
            player: true,
            seat: ring_seat,
            target: false,
            number: false,
            figure: false,
            chosen: false,
        };
        if s.value.contains('{') {
            return self.template(s, scope, false).map(Value::Text);
        }
        let node = match syntax::expression(&s.value) {
            Ok(n) => n,
            Err(e) => {
                self.syntax_error(s, e);
                return None;
            }
        };
        let zone_named = |c: &Self, n: &str| c.zones.iter().position(|z| z.name == n);
        let (zone, rows) = match &node.ast {
            Ast::Name(n) | Ast::Call(n, _) => match zone_named(self, n) {
                Some(z) => (Some(z), self.zones[z].by.is_some().then_some(z)),
                None => (None, None),
            },
            _ => (None, None),
        };
        let scope = Scope { row: rows, ..scope };
        if let Ast::Call(f, args) = &node.ast
            && f == "seats"
            && let [figures] = args.as_slice()
            && self.board.is_some()
        {
            let (kind, who) = self.figure_ref(figures, s, scope)?;
            return Some(Value::Seats { kind, who });
        }
        if zone.is_some() {
            return self.zone_ref(&node, s, scope).map(Value::Listing);
        }
        let (expr, kind) = self.expr(&node, s, scope)?;
        if matches!(kind, Kind::Card(_)) {
            let at = self.span(s, &node.span);
            self.error(
                "type-mismatch",
                "a query lists a zone or gives a number".into(),
                &s.loc,
                at,
            );
            return None;
        }
        Some(Value::Number(expr))
    }
}

impl Rulebook {
    /// Answers `query` from the description's `[queries]` or the built-in questions about
    /// the outcome; `None` when neither knows it.
    pub(super) fn named_query(&self, state: &State, query: &str) -> Option<Result<String, String>> {
        let words: Vec<&str> = query.split_whitespace().collect();
        match words[..] {
            ["scores"] => {
                let scores: Vec<String> = self.scores(state).iter().map(i64::to_string).collect();
                return Some(Ok(scores.join(" ")));
            }
            ["winner"] | ["winners"] => {
                return Some(Ok(match self.outcome(state) {
                    Some(o) => o
                        .winners
                        .iter()
                        .map(|w| format!("P{}", w + 1))
                        .collect::<Vec<_>>()
                        .join(" "),
                    None => "none yet".into(),
                }));
            }
            ["end"] => {
                return Some(Ok(self.outcome(state).map_or("none yet".into(), |o| o.end)));
            }
            _ => {}
        }
        for q in &self.queries {
            if q.words.len() != words.len() {
                continue;
            }
            let (mut seat, mut row, mut ring_seat) = (0, None, -1);
            let fits = q
                .words
                .iter()
                .zip(&words)
                .all(|(want, got)| match want.as_str() {
                    "P" => match got
                        .strip_prefix(['P', 'p'])
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|&n| (1..=usize::from(state.players)).contains(&n))
                    {
                        Some(n) => {
                            seat = n - 1;
                            true
                        }
                        None => false,
                    },
                    "row" => {
                        row = Some(*got);
                        true
                    }
                    "S" => match got.parse::<usize>() {
                        Ok(s) if s < self.board.as_ref().map_or(0, |b| b.seats) => {
                            ring_seat = s as i32;
                            true
                        }
                        _ => false,
                    },
                    w => w == *got,
                });
            if fits {
                return Some(self.query_answer(state, &q.value, seat, row, ring_seat));
            }
        }
        None
    }

    fn query_answer(
        &self,
        state: &State,
        value: &Value,
        seat: usize,
        row: Option<&str>,
        ring_seat: i32,
    ) -> Result<String, String> {
        // A seat of the ring is read as an action's seat parameter is.
        let mut ctx = Ctx {
            state,
            player: seat,
            args: usize::try_from(ring_seat).map_or(Args::NONE, Args::of_place),
        };
        let z = match value {
            Value::Number(e) => return Ok(self.eval(e, &ctx).to_string()),
            Value::Listing(z) => z,
            Value::Text(pieces) => {
                let mut out = String::new();
                self.render_text(pieces, &ctx, &mut out);
                return Ok(out);
            }
            Value::Seats { kind, who } => return Ok(self.seats_text(state, *kind, *who, seat)),
        };
        let zone = &self.zones[z.zone];
        if let (Some(word), Some(by)) = (row, zone.by) {
            let names = &self.sets[zone.set].symbols[by];
            let Some(r) = names.iter().position(|n| n == word) else {
                return Err(grail_engine::diag::no_such(
                    &format!("row of {}", zone.name),
                    word,
                    names.iter().map(String::as_str),
                ));
            };
            ctx.args = Args::of_place(r);
        }
        let list = |p: usize| {
            let cards = &state.piles[p];
            if cards.is_empty() {
                return "-".to_string();
            }
            cards
                .iter()
                .map(|&c| self.card_text(z.zone, c))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let piles = self.piles_of(z, &ctx);
        if z.row.is_none() && zone.by.is_some() {
            return Ok(piles
                .enumerate()
                .map(|(r, p)| {
                    format!(
                        "{}: {}",
                        self.sets[zone.set].symbols[zone.by.unwrap_or(0)][r],
                        list(p)
                    )
                })
                .collect::<Vec<_>>()
                .join("; "));
        }
        Ok(piles.map(list).collect::<Vec<_>>().join(" "))
    }
}

impl Rulebook {
    /// The seats of a kind's figures (of the seat `P` or the one to move), rising; `-` for
    /// none.
    fn seats_text(&self, state: &State, kind: usize, who: Who, seat: usize) -> String {
        let (Some(board), Some(f)) = (&self.board, &state.figures.0) else {
            return "-".into();
        };
        let owner = match who {
            Who::Player => Some(seat),
            Who::Current => Some(usize::from(state.current)),
            _ => None,
        };
        let mut seats: Vec<u8> = board
            .members(f, kind, owner)
            .filter_map(|m| f.ring.seat_of(m))
            .collect();
        seats.sort_unstable();
        if seats.is_empty() {
            return "-".into();
        }
        seats
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}
