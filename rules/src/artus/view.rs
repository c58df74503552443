//! What a player sees: the determinised observation for bots, the round table for the
//! terminal, answers to script questions, and the event log in words.
//!
//! Hidden: the order of every draw pile (the owner's too) and the other players' hand cards.
//! Public: the board, rings, scores, the cards played, and which pile each card was drawn
//! from — so how many cards of each deck a hand holds is known to all.

use std::fmt::Write as _;

use grail_engine::counts::Counts;
use grail_engine::game::Seat;
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;
use grail_engine::seats::parse_seat;

use super::Artus;
use super::state::{Event, Phase, State};
use crate::cards::zone;
use crate::wording::Count;

impl Artus {
    pub(crate) fn determinise(&self, state: &State, seat: Seat, rng: &mut GameRng) -> State {
        let mut view = state.clone();
        view.rng = rng.fork();
        let mut pool: Vec<u8> = Vec::new();
        for (q, player) in view.players.iter_mut().enumerate() {
            for (d, deck) in self.decks.iter().enumerate() {
                pool.clear();
                pool.extend_from_slice(player.piles.pile(d).as_slice());
                let range = deck.first..deck.first + deck.len;
                let mut in_hand = 0u8;
                if q != seat {
                    for t in range.clone() {
                        let n = player.hand.get(t);
                        pool.extend(std::iter::repeat_n(t, usize::from(n)));
                        in_hand += n;
                        player.hand.remove(t, n);
                    }
                }
                pool.sort_unstable();
                view.rng.shuffle(&mut pool);
                for _ in 0..in_hand {
                    if let Some(t) = pool.pop() {
                        player.hand.add(t, 1);
                    }
                }
                *player.piles.pile_mut(d) = Pile::from_bottom_up(&pool, pool.len());
            }
        }
        view
    }

    fn card_list(&self, counts: &Counts) -> String {
        let words: Vec<&str> = counts
            .cards()
            .map(|t| self.cards[usize::from(t)].id.as_str())
            .collect();
        if words.is_empty() {
            "-".into()
        } else {
            words.join(" ")
        }
    }

    /// The figure on `seat` for the table: "P2 Knight", "King (silver, 3 rings)", "·".
    fn seat_text(&self, state: &State, seat: u8) -> String {
        match state.ring.figure_at(seat) {
            None => "·".into(),
            Some(f) => match state.knight_of(f) {
                Some((owner, _)) => format!("P{} Knight", owner + 1),
                None => {
                    let p = &self.princes[usize::from(f)];
                    let color = &self.colors[usize::from(p.color)];
                    let rings = state.rings[usize::from(f)];
                    let word = if f == state.king { "King" } else { "Prince" };
                    let s = if rings == 1 { "" } else { "s" };
                    format!("{word} ({color}, {rings} ring{s})")
                }
            },
        }
    }

    fn score_text(&self, score: i64) -> String {
        let m = self.track.marker(score);
        let mut t = format!("{score} points");
        if m.tiles > 0 {
            let _ = write!(t, " ({}×{} tile)", m.tiles, self.track.lap);
        }
        if m.on_side {
            t.push_str(" (marker on its side)");
        }
        t
    }

    /// The table as `seat` sees it; `None` shows only what every player sees.
    pub(crate) fn table(&self, state: &State, seat: Option<Seat>) -> String {
        let mut out = String::new();
        let round = (state.round + 1).min(self.n.rounds);
        let _ = writeln!(
            out,
            "Round {round} of {} · {}",
            self.n.rounds,
            self.phase_text(state)
        );
        let _ = writeln!(
            out,
            "The round table from the King's seat, counter-clockwise (forward = clockwise = up the list):"
        );
        let _ = writeln!(out, "  seat    plate  figure");
        let n = self.board.seats;
        for k in 0..n {
            let s = ((usize::from(state.table) + k) % n) as u8;
            let plate = &self.board.plates[self.plate_at(state, s)];
            let value = if k == 0 {
                format!("{} crown", plate.value)
            } else {
                plate.value.to_string()
            };
            let color = if k == 0 { "" } else { plate.color.as_str() };
            let marks = self.board.seat_marks[usize::from(s)].join(" ");
            let line = format!(
                "  {s:>4}  {value:>7}  {:<24} {color:<7} {marks}",
                self.seat_text(state, s),
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
        let _ = writeln!(out, "Rings in the supply: {}", state.supply);
        for (p, player) in state.players.iter().enumerate() {
            let mine = Some(p) == seat;
            let who = if mine { " (you)" } else { "" };
            let hand = if mine {
                self.card_list(&player.hand)
            } else {
                format!("{} cards", player.hand.total())
            };
            let piles: Vec<String> = self
                .decks
                .iter()
                .enumerate()
                .filter(|(_, d)| d.in_game)
                .map(|(d, deck)| format!("{} {}", deck.word, player.piles.pile(d).len()))
                .collect();
            let mut seats: Vec<u8> = state.knight_seats(p as u8).map(|(_, s)| s).collect();
            seats.sort_unstable();
            let seats: Vec<String> = seats.iter().map(u8::to_string).collect();
            let _ = writeln!(
                out,
                "P{}{who}: {} · Knights on {} · hand {hand} · piles {}",
                p + 1,
                self.score_text(player.score),
                if seats.is_empty() {
                    "-".into()
                } else {
                    seats.join(" ")
                },
                piles.join(", ")
            );
        }
        out
    }

    /// Answers a script's question. Seats are written P1, P2, …
    pub(crate) fn answer(&self, state: &State, query: &str) -> Result<String, String> {
        let words: Vec<&str> = query.split_whitespace().collect();
        let player = |word: &str| -> Result<u8, String> {
            parse_seat(word, state.players.len())
                .map(|s| s as u8)
                .ok_or_else(|| {
                    format!(
                        "`{word}` is not a seat here (P1 … P{})",
                        state.players.len()
                    )
                })
        };
        let board_seat = |word: &str| -> Result<u8, String> {
            word.parse::<u8>()
                .ok()
                .filter(|&s| usize::from(s) < self.board.seats)
                .ok_or_else(|| format!("`{word}` is not a seat (0 … {})", self.board.seats - 1))
        };
        Ok(match words.as_slice() {
            ["score", p] => state.player(player(p)?).score.to_string(),
            ["scores"] => state
                .players
                .iter()
                .map(|p| p.score.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            ["tiles", p] => self
                .track
                .marker(state.player(player(p)?).score)
                .tiles
                .to_string(),
            ["marker", p] => {
                let m = self.track.marker(state.player(player(p)?).score);
                let side = if m.on_side { ", on its side" } else { "" };
                format!("space {}{side}", m.space)
            }
            ["hand", p] => self.card_list(&state.player(player(p)?).hand),
            ["played", p] => self.card_list(&state.player(player(p)?).played),
            ["piles", p] => {
                let p = state.player(player(p)?);
                self.decks
                    .iter()
                    .enumerate()
                    .filter(|(_, deck)| deck.in_game)
                    .map(|(d, deck)| format!("{} {}", deck.word, p.piles.pile(d).len()))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            ["knights", p] => {
                let mut seats: Vec<u8> = state.knight_seats(player(p)?).map(|(_, s)| s).collect();
                seats.sort_unstable();
                let seats: Vec<String> = seats.iter().map(u8::to_string).collect();
                if seats.is_empty() {
                    "-".into()
                } else {
                    seats.join(" ")
                }
            }
            ["seat", s] => self.seat_text(state, board_seat(s)?),
            ["plate", s] => self.value_at(state, board_seat(s)?).to_string(),
            ["king"] => state.king_seat().to_string(),
            ["table"] => state.table.to_string(),
            ["rings"] => {
                let mut parts: Vec<String> = self
                    .princes
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("{} {}", p.id, state.rings[i]))
                    .collect();
                parts.push(format!("supply {}", state.supply));
                parts.join(", ")
            }
            ["supply"] => state.supply.to_string(),
            ["round"] => (state.round + 1).min(self.n.rounds).to_string(),
            ["rounds", "played"] => state.round.to_string(),
            ["player"] => format!("P{}", state.current + 1),
            ["phase"] => self.phase_text(state),
            ["winner"] | ["winners"] => match self.final_outcome(state) {
                Some(o) => o
                    .winners
                    .iter()
                    .map(|w| format!("P{}", w + 1))
                    .collect::<Vec<_>>()
                    .join(" "),
                None => "none yet".into(),
            },
            ["end"] => if state.phase == Phase::Over {
                "rounds-played"
            } else {
                "none yet"
            }
            .into(),
            _ => {
                return Err(format!(
                    "unknown question `{query}`; ask: score P1, scores, tiles P1, marker P1, hand P1, played P1, piles P1, \
                     knights P1, seat <n>, plate <n>, king, table, rings, supply, round, rounds played, player, \
                     phase, winner, end"
                ));
            }
        })
    }

    /// Every place a card can be (see [`Rules::zones`](grail_engine::game::Rules::zones)).
    pub(crate) fn zones_of(&self, s: &State) -> Vec<(String, Vec<String>)> {
        let id = |c: u8| self.cards[usize::from(c)].id.as_str();
        let mut zones = Vec::new();
        for (p, player) in s.players.iter().enumerate() {
            zones.push(zone(format!("P{} hand", p + 1), player.hand.cards(), id));
            zones.push(zone(
                format!("P{} played", p + 1),
                player.played.cards(),
                id,
            ));
            for (d, pile) in player.piles.iter().enumerate() {
                zones.push(zone(
                    format!("P{} pile {}", p + 1, d + 1),
                    pile.top_down(),
                    id,
                ));
            }
        }
        zones
    }

    pub(crate) fn describe(&self, state: &State, event: &Event) -> String {
        let card = |c: u8| self.cards[usize::from(c)].id.as_str();
        let prince = |f: u8| -> String {
            let p = &self.princes[usize::from(f)];
            format!("the {} Prince {}", self.colors[usize::from(p.color)], p.id)
        };
        let figure = |f: u8| self.figure_name(state, f);
        match event {
            Event::Placed { seat, at } => format!("P{} places a Knight on seat {at}", seat + 1),
            Event::Played { seat, card: c } => {
                format!(
                    "P{} plays {} ({})",
                    seat + 1,
                    card(*c),
                    self.cards[usize::from(*c)].name
                )
            }
            Event::Moved {
                figure: f,
                from,
                to,
                steps,
            } => {
                let way = if *steps > 0 { "forward" } else { "backward" };
                format!(
                    "{} moves {} {way}, from {from} to {to}",
                    figure(*f),
                    Count(steps.unsigned_abs().into(), "seat")
                )
            }
            Event::Displaced {
                figure: f,
                from,
                to,
            } => {
                format!("{} is displaced from seat {from} to seat {to}", figure(*f))
            }
            Event::TableTurned { to } => {
                format!("the table turns: the crown is at seat {to}, the King's")
            }
            Event::RingAdded { prince: p, rings } => {
                format!("{} receives a ring ({rings} now)", prince(*p))
            }
            Event::Crowned {
                prince: p,
                old,
                returned,
            } => format!(
                "{} is crowned King; the old King, {}, returns {} to the supply",
                prince(*p),
                prince(*old),
                Count((*returned).into(), "ring")
            ),
            Event::KnightsScored { seats } => {
                let seats: Vec<String> = seats.iter().map(u8::to_string).collect();
                let noun = if seats.len() == 1 { "seat" } else { "seats" };
                format!("Knights scored on {noun} {}", seats.join(", "))
            }
            Event::Penalty { card: c } => {
                let def = &self.cards[usize::from(*c)];
                let points = def.score_effect().map_or(0, |(_, _, o)| o);
                format!(
                    "no choice of Knights meets `{}`: {} scores {points} instead",
                    def.condition_text, def.id
                )
            }
            Event::Points {
                seat,
                points,
                total,
            } => format!("P{} scores {points:+} (now {total})", seat + 1),
            Event::Tiles { seat, change } => {
                if *change > 0 {
                    format!(
                        "P{} takes {}",
                        seat + 1,
                        Count(change.unsigned_abs(), "point tile")
                    )
                } else {
                    format!(
                        "P{} returns {}",
                        seat + 1,
                        Count(change.unsigned_abs(), "point tile")
                    )
                }
            }
            Event::Drew { seat, pile } => format!(
                "P{} draws from the {} pile",
                seat + 1,
                self.decks
                    .get(usize::from(*pile))
                    .map_or("?", |d| d.word.as_str())
            ),
            Event::GameOver => format!("the game ends after round {}", self.n.rounds),
        }
    }
}
