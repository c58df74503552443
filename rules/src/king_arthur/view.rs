//! What a player sees: the determinised observation for bots, the table for the terminal,
//! answers to script questions, and the event log in words.
//!
//! Hidden: the order of both supplies and every other player's knight cards. Public: the
//! columns, the discards, the adventures, and adversary hands (every adversary is taken
//! from and paid to the open table, so all players can know them).

use std::fmt::Write as _;

use grail_engine::game::Seat;
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;

use super::state::{Card, End, Event, Mode, Phase, State};
use super::{CardSet, KingArthur};
use crate::wording::Count;

impl KingArthur {
    pub(crate) fn determinise(&self, state: &State, seat: Seat, rng: &mut GameRng) -> State {
        let mut view = state.clone();
        view.rng = rng.fork();
        // The knight cards `seat` cannot see: the supply and the other hands. Pool them in a
        // canonical order, shuffle, and deal them back into the same places.
        let mut unseen: Vec<Card> = view.knight_supply.as_slice().to_vec();
        for (other, player) in view.players.iter().enumerate() {
            if other != seat {
                unseen.extend(player.knights.cards());
            }
        }
        unseen.sort_unstable();
        view.rng.shuffle(&mut unseen);
        for (other, player) in view.players.iter_mut().enumerate() {
            if other != seat {
                let held = player.knights.total() as usize;
                player.knights = unseen.drain(unseen.len() - held..).collect();
            }
        }
        view.knight_supply = Pile::from_bottom_up(&unseen, unseen.len());
        let mut adversaries = view.adversary_supply.as_slice().to_vec();
        adversaries.sort_unstable();
        view.rng.shuffle(&mut adversaries);
        view.adversary_supply = Pile::from_bottom_up(&adversaries, adversaries.len());
        view
    }

    fn card_list(set: &CardSet, counts: &[u8]) -> String {
        let words: Vec<&str> = counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .flat_map(|(t, &n)| std::iter::repeat_n(set.ids[t].as_str(), n as usize))
            .collect();
        if words.is_empty() {
            "-".into()
        } else {
            words.join(" ")
        }
    }

    fn column_text(&self, state: &State, column: usize) -> String {
        let words: Vec<String> = state.columns[column]
            .iter()
            .map(|slot| match slot.seal {
                None => self.adversaries.ids[slot.card as usize].clone(),
                Some(owner) => format!(
                    "{}[P{}]",
                    self.adversaries.ids[slot.card as usize],
                    owner + 1
                ),
            })
            .collect();
        if words.is_empty() {
            "-".into()
        } else {
            words.join(" ")
        }
    }

    pub(crate) fn phase_text(&self, phase: Phase) -> String {
        match phase {
            Phase::Replenish => "1. draw adversaries?".into(),
            Phase::Challenge => "2. challenge an adversary?".into(),
            Phase::PayChallenge { target, mode } => format!(
                "2. pay knights for {} (strength {})",
                self.adversaries.names[target as usize],
                self.price(target, mode)
            ),
            Phase::Adventure => "3. take an adventure?".into(),
            Phase::PayAdventure { adventure } => {
                format!(
                    "3. pay adversaries for {}",
                    self.adventures[adventure as usize].name
                )
            }
            Phase::Draw => "4. draw knight cards?".into(),
            Phase::Over => "game over".into(),
        }
    }

    /// The table as `seat` sees it; `None` shows only what every player sees.
    pub(crate) fn table(&self, state: &State, seat: Option<Seat>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Turn {} · P{} · {}",
            state.turn + 1,
            state.current + 1,
            self.phase_text(state.phase)
        );
        let _ = writeln!(out, "Adventures left:");
        for (i, adventure) in self.adventures.iter().enumerate() {
            if state.adventures[i].is_none() {
                let _ = writeln!(
                    out,
                    "  {:<24} {:>3}  {}",
                    adventure.id, adventure.points, adventure.source
                );
            }
        }
        let _ = writeln!(out, "Adversaries face up:");
        for (c, name) in self.column_names.iter().enumerate() {
            let _ = writeln!(out, "  {:<8} {}", name, self.column_text(state, c));
        }
        let _ = writeln!(
            out,
            "Supplies: adversaries {} · knights {} (discard {})",
            state.adversary_supply.len(),
            state.knight_supply.len(),
            state.knight_discard.len()
        );
        for (p, player) in state.players.iter().enumerate() {
            let who = if Some(p) == seat { " (you)" } else { "" };
            let knights = if Some(p) == seat {
                Self::card_list(&self.knights, player.knights.as_slice())
            } else {
                match player.knights.total() {
                    1 => "1 card".to_string(),
                    n => format!("{n} cards"),
                }
            };
            let adventures: Vec<&str> = (0..self.adventures.len())
                .filter(|&a| state.adventures[a] == Some(p as u8))
                .map(|a| self.adventures[a].id.as_str())
                .collect();
            let _ = write!(
                out,
                "P{}{who}: score {} · knights {} · adversaries {} · adventures {}",
                p + 1,
                self.score(state, p),
                knights,
                Self::card_list(&self.adversaries, player.adversaries.as_slice()),
                if adventures.is_empty() {
                    "-".into()
                } else {
                    adventures.join(" ")
                }
            );
            if self.seals() {
                let _ = write!(out, " · seals {} ({})", player.seals, self.seal_color(p));
            }
            out.push('\n');
        }
        out
    }

    pub(crate) fn seal_color(&self, seat: usize) -> &str {
        self.seal_colors.get(seat).map_or("?", String::as_str)
    }

    /// Answers a script's question. Seats are written P1, P2, …
    pub(crate) fn answer(&self, state: &State, query: &str) -> Result<String, String> {
        let words: Vec<&str> = query.split_whitespace().collect();
        let seat = |word: &str| -> Result<usize, String> {
            word.strip_prefix(['P', 'p'])
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n >= 1 && n <= state.players.len())
                .map(|n| n - 1)
                .ok_or_else(|| {
                    format!(
                        "`{word}` is not a seat here (P1 … P{})",
                        state.players.len()
                    )
                })
        };
        Ok(match words.as_slice() {
            ["score", p] => self.score(state, seat(p)?).to_string(),
            ["scores"] => (0..state.players.len())
                .map(|p| self.score(state, p).to_string())
                .collect::<Vec<_>>()
                .join(" "),
            ["knights", p] | ["hand", p] => Self::card_list(
                &self.knights,
                state.player(seat(p)? as u8).knights.as_slice(),
            ),
            ["adversaries", p] => Self::card_list(
                &self.adversaries,
                state.player(seat(p)? as u8).adversaries.as_slice(),
            ),
            ["seals", p] => state.player(seat(p)? as u8).seals.to_string(),
            ["adventures", p] => {
                let p = seat(p)? as u8;
                let ids: Vec<&str> = (0..self.adventures.len())
                    .filter(|&a| state.adventures[a] == Some(p))
                    .map(|a| self.adventures[a].id.as_str())
                    .collect();
                if ids.is_empty() {
                    "-".into()
                } else {
                    ids.join(" ")
                }
            }
            ["adventures"] => {
                let ids: Vec<&str> = (0..self.adventures.len())
                    .filter(|&a| state.adventures[a].is_none())
                    .map(|a| self.adventures[a].id.as_str())
                    .collect();
                ids.join(" ")
            }
            ["column", name] => {
                let c = self
                    .column_names
                    .iter()
                    .position(|n| n == name)
                    .ok_or_else(|| {
                        format!(
                            "no column `{name}`; the columns are {}",
                            self.column_names.join(", ")
                        )
                    })?;
                self.column_text(state, c)
            }
            ["columns"] => (0..self.column_names.len())
                .map(|c| format!("{}: {}", self.column_names[c], self.column_text(state, c)))
                .collect::<Vec<_>>()
                .join("; "),
            ["adversary", "supply"] => state.adversary_supply.len().to_string(),
            ["knight", "supply"] => state.knight_supply.len().to_string(),
            ["knight", "discard"] => state.knight_discard.len().to_string(),
            ["turn"] => (state.turn + 1).to_string(),
            ["player"] => format!("P{}", state.current + 1),
            ["phase"] => self.phase_text(state.phase),
            ["winner"] | ["winners"] => match self.final_outcome(state) {
                Some(o) => o
                    .winners
                    .iter()
                    .map(|w| format!("P{}", w + 1))
                    .collect::<Vec<_>>()
                    .join(" "),
                None => "none yet".into(),
            },
            ["end"] => state.end.map_or("none yet", End::key).to_string(),
            _ => {
                return Err(format!(
                    "unknown question `{query}`; ask: score P1, scores, knights P1, adversaries P1, seals P1, \
                     adventures P1, adventures, column <name>, columns, adversary supply, knight supply, \
                     knight discard, turn, player, phase, winner, end"
                ));
            }
        })
    }

    /// Every place a card can be (see [`Rules::zones`](grail_engine::game::Rules::zones)).
    /// Adventures are public cards that never move but to their taker; they are left out.
    pub(crate) fn zones_of(&self, s: &State) -> Vec<(String, Vec<String>)> {
        let (k, a) = (&self.knights, &self.adversaries);
        let mut zones = vec![
            k.zone("knight supply", s.knight_supply.top_down()),
            k.zone("knight discard", s.knight_discard.top_down()),
            a.zone("adversary supply", s.adversary_supply.top_down()),
            a.zone("adversaries out", s.adversaries_out.cards()),
        ];
        for (i, column) in s.columns.iter().enumerate() {
            zones.push(a.zone(
                format!("column {}", self.column_names[i]),
                column.iter().map(|slot| slot.card),
            ));
        }
        for (p, player) in s.players.iter().enumerate() {
            zones.push(k.zone(format!("P{} knights", p + 1), player.knights.cards()));
            zones.push(a.zone(
                format!("P{} adversaries", p + 1),
                player.adversaries.cards(),
            ));
        }
        zones
    }

    pub(crate) fn describe(&self, event: &Event) -> String {
        let adversary = |c: Card| self.adversaries.names[c as usize].as_str();
        match event {
            Event::Revealed { card } => format!(
                "revealed {} ({})",
                adversary(*card),
                self.adversaries.ids[*card as usize]
            ),
            Event::Challenged {
                seat,
                target,
                mode,
                paid,
            } => {
                let how = match mode {
                    Mode::Take | Mode::Seal => "challenges",
                    Mode::Repeat => "challenges again",
                    Mode::Double => "double-challenges",
                };
                format!(
                    "P{} {how} {} with {}",
                    seat + 1,
                    adversary(*target),
                    Self::card_list(&self.knights, paid.counts())
                )
            }
            Event::Sealed { seat, card } => format!("P{} seals {}", seat + 1, adversary(*card)),
            Event::ColumnDefeated { column, takers } => {
                let parts: Vec<String> = takers
                    .iter()
                    .map(|(s, c)| format!("P{} {}", s + 1, adversary(*c)))
                    .collect();
                format!(
                    "the {} column is all sealed and defeated; the seals go back to their owners \
                     with the cards under them: {}",
                    self.column_names[*column as usize],
                    parts.join(", ")
                )
            }
            Event::TookAdversary { seat, card } => {
                format!("P{} takes {}", seat + 1, adversary(*card))
            }
            Event::TookAdventure {
                seat,
                adventure,
                paid,
            } => {
                let a = &self.adventures[*adventure as usize];
                format!(
                    "P{} takes {} ({} points) paying {}",
                    seat + 1,
                    a.name,
                    a.points,
                    Self::card_list(&self.adversaries, paid.counts())
                )
            }
            Event::DrewKnights { seat, count } => {
                format!(
                    "P{} draws {}",
                    seat + 1,
                    Count((*count).into(), "knight card")
                )
            }
            Event::Reshuffled { cards } => {
                format!("the knight discards ({cards}) are shuffled into a new supply")
            }
            Event::Passed { seat, phase } => {
                format!("P{} passes ({})", seat + 1, self.phase_text(*phase))
            }
            Event::TurnEnded { seat } => format!("P{} ends the turn", seat + 1),
            Event::GameOver { end } => format!(
                "the game ends: {}",
                match end {
                    End::Adventures => "the second-to-last adventure was taken",
                    End::Adversaries => "the adversaries are exhausted",
                    End::TurnLimit => "the turn limit was reached",
                }
            ),
        }
    }
}
