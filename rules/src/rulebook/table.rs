//! The table as a seat sees it (`grail play`, the browser view, `inspect`): a part per
//! zone and seat, with the cards the seat sees, else how many; the counters; then the score,
//! the ring, the legends and the step being decided. What the pack says of its table is read
//! here: a zone's `shows` attribute beside its cards, a counter's `names`, and what `table`
//! leaves out.

use std::fmt::Write;

use grail_engine::game::Seat;
use grail_engine::seats::seat_name;
use grail_engine::view::{Part, Row};
use grail_schema::model::{TableListing, Visibility};

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::state::State;

impl Rulebook {
    /// A pile's cards as the table names them: with the zone's `shows` attribute beside
    /// each card worth something (`lance(20)`).
    fn table_cards(
        &self,
        state: &State,
        pile: usize,
        viewer: Option<Seat>,
    ) -> (Vec<String>, usize) {
        let (mut cards, hidden) = self.pile_cards(state, pile, viewer);
        let zone = self.locate(pile).0;
        if let Some(attr) = self.zones[zone].shows
            && !cards.is_empty()
        {
            let values = &self.sets[self.zones[zone].set].values[attr];
            for (name, &c) in cards.iter_mut().zip(&state.piles[pile]) {
                match values.get(usize::from(c & super::model::TYPE_MASK)) {
                    Some(&v) if v != 0 => name.push_str(&format!("({v})")),
                    _ => {}
                }
            }
        }
        (cards, hidden)
    }

    /// One line per part of [`Rulebook::table_parts`].
    pub(super) fn table(&self, state: &State, seat: Option<Seat>) -> String {
        let mut out = String::new();
        for part in self.table_parts(state, seat) {
            let _ = writeln!(out, "{}", part.line());
        }
        out
    }

    /// The table in parts: a zone per zone (and seat), its cards where `seat` sees them,
    /// else how many; the counters (public); then the score, the ring and the legends as
    /// lines. The viewer's own hidden zones (their hand) come last, after the notes and just
    /// before the step being decided, so that on a small screen the hand stays above the
    /// menu.
    pub(super) fn table_parts(&self, state: &State, seat: Option<Seat>) -> Vec<Part> {
        let mut parts = Vec::new();
        // The pack's head line, when it writes one (`[texts] status`), in place of the
        // step's name at the foot.
        if let Some(status) = &self.status
            && state.ended.is_none()
        {
            let mut out = String::new();
            self.render_text(status, &Ctx::current(state, Args::NONE), &mut out);
            parts.extend(grail_engine::view::lines_of(&out));
        }
        let mut own = Vec::new();
        for (zi, z) in self.zones.iter().enumerate() {
            if z.listing == TableListing::Never {
                continue;
            }
            let seats: Vec<Option<usize>> = if z.owned {
                (0..usize::from(state.players)).map(Some).collect()
            } else {
                vec![None]
            };
            for s in seats {
                let first = self.pile(zi, s.unwrap_or(0), 0);
                let empty = (first..first + z.rows).all(|p| state.piles[p].is_empty());
                if z.listing == TableListing::Held && empty {
                    continue;
                }
                let (cards, hidden) = self.table_cards(state, first, seat);
                let rows = match z.by.is_some() {
                    true => (0..z.rows)
                        .map(|r| {
                            let (cards, hidden) = self.table_cards(state, first + r, seat);
                            let name = self.row_name(zi, r as i32).to_string();
                            Row {
                                name,
                                seen: self.sees(state, first + r, seat),
                                cards,
                                hidden,
                            }
                        })
                        .collect(),
                    false => Vec::new(),
                };
                let hand = z.owned && s == seat && z.visible == Visibility::Owner;
                let part = Part::Zone {
                    name: z.name.clone(),
                    owner: s,
                    seen: self.sees(state, first, seat),
                    cards: if rows.is_empty() { cards } else { Vec::new() },
                    hidden: if rows.is_empty() { hidden } else { 0 },
                    rows,
                };
                match hand {
                    true => own.push(part),
                    false => parts.push(part),
                }
            }
        }
        // Counters are public: each with its value, a seat's by seat (`points: P1 3, P2 5`).
        for (ci, c) in self.counters.iter().enumerate() {
            let seats = if c.owned {
                usize::from(state.players)
            } else {
                1
            };
            let values: Vec<i64> = (0..seats)
                .map(|s| self.counter_value(state, ci, s))
                .collect();
            let listed = match c.listing {
                TableListing::Always => true,
                TableListing::Held => values.iter().any(|&v| v != 0),
                TableListing::Never => false,
            };
            if !listed {
                continue;
            }
            // The pack's words for the values; a value past them is said as a number. Points
            // climbing a ladder are said with what the seat's rank needs (`shields: P1 3 of
            // 5`), none at the top.
            let ladder = (c.climb.as_ref())
                .and_then(|climb| Some((climb, climb.ladders.get(usize::from(state.players))?)));
            let words = match (c.names.is_empty(), ladder) {
                (false, _) => (values.iter())
                    .map(
                        |&v| match usize::try_from(v).ok().and_then(|v| c.names.get(v)) {
                            Some(word) => word.clone(),
                            None => v.to_string(),
                        },
                    )
                    .collect(),
                (true, Some((climb, ladder))) => (values.iter().enumerate())
                    .map(|(s, &v)| {
                        let rank = self.counter_value(state, climb.rank, s);
                        match usize::try_from(rank).ok().and_then(|r| ladder.threshold(r)) {
                            Some(need) => format!("{v} of {need}"),
                            None => v.to_string(),
                        }
                    })
                    .collect(),
                (true, None) => Vec::new(),
            };
            parts.push(Part::Counter {
                name: c.name.clone(),
                owned: c.owned,
                values,
                words,
            });
        }
        let mut out = String::new();
        // A role held by whoever holds a card, and who holds it (`king: P2`): known to all.
        for (r, role) in self.card_roles.iter().enumerate() {
            let holder = match usize::try_from(self.card_holder(r, state)) {
                Ok(s) => seat_name(s),
                Err(_) => "nobody".to_string(),
            };
            let _ = writeln!(out, "{}: {holder}", role.name);
        }
        if let Some(score) = self.score_line(state) {
            let _ = writeln!(out, "{score}");
        }
        self.ring_text(state, &mut out);
        self.explain_table(state, seat, &mut out);
        parts.extend(grail_engine::view::lines_of(&out));
        parts.extend(own);
        let mut out = String::new();
        match (state.ended, self.steps.get(usize::from(state.step))) {
            (Some(_), _) => out.push_str("the game is over\n"),
            (None, Some(_)) if self.status.is_some() => {}
            (None, Some(step)) => {
                let when = match state.stage.stage {
                    0 => format!("turn {}", state.turn),
                    k => match &self.stages[usize::from(k) - 1] {
                        s if s.sub => format!("turn {}, stage `{}`", state.turn, s.name),
                        s => format!("stage `{}`", s.name),
                    },
                };
                let asked = match state.asking.active {
                    true => format!(" (asked of {})", seat_name(usize::from(state.asking.seat))),
                    false => String::new(),
                };
                let _ = writeln!(
                    out,
                    "{when}: {} at step `{}`{asked}",
                    seat_name(usize::from(state.current)),
                    step.name
                );
            }
            (None, None) => {}
        }
        parts.extend(grail_engine::view::lines_of(&out));
        parts
    }
}
