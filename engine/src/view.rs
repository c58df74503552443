//! One view model of a game under way: what one viewer (a seat, or a spectator) may see of
//! it — the table in parts (zones, counters, lines), the scores when they are public, the
//! step being decided, the legal moves with their words and what they change in the score,
//! and the log of moves as that viewer was shown them. The terminal and the browser both
//! show it ([`View::table_text`] is the terminal's table); it is serialisable, so the web
//! server sends it as it is. Nothing in it names a card the viewer cannot see: the table
//! is drawn from the viewer's observation, the log from what each move showed them.

use serde::Serialize;

use crate::game::Seat;
use crate::seats::seat_name;

/// What one viewer may see of a game under way.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub game: String,
    pub variant: Option<String>,
    pub players: usize,
    /// Whose view this is (0-based); `None`: a spectator, who sees what is public.
    pub viewer: Option<Seat>,
    /// The seat deciding now (`None`: the game is over).
    pub to_move: Option<Seat>,
    /// Moves made so far.
    pub moves_made: usize,
    /// The table as the viewer sees it, in the order the rules draw it.
    pub table: Vec<Part>,
    /// Each seat's score with its labelled parts, when every player may see them (or the
    /// game is over); empty otherwise.
    pub scores: Vec<SeatScore>,
    /// The step being decided, in words (empty: not named).
    pub prompt: String,
    /// The moves the viewer may make now (empty unless the viewer is to move).
    pub moves: Vec<MoveView>,
    /// What happened during setup, then each move, as the viewer was shown them.
    pub setup_log: Vec<String>,
    pub log: Vec<LogEntry>,
    /// How the game ended, once it has.
    pub over: Option<Over>,
}

/// One part of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Part {
    /// A zone (a pile, a hand), and whose it is: the cards the viewer sees, and how many
    /// more lie there face down (`seen`: whether the viewer sees into it at all). A zone
    /// kept in rows has its cards in `rows` instead.
    Zone {
        name: String,
        owner: Option<Seat>,
        seen: bool,
        cards: Vec<String>,
        hidden: usize,
        rows: Vec<Row>,
    },
    /// A counter (`points`): the table's one value, or one per seat (`owned`); with the
    /// pack's word for each value where it names them (`rank: P1 squire`).
    Counter {
        name: String,
        owned: bool,
        values: Vec<i64>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        words: Vec<String>,
    },
    /// Anything else the rules draw (a ring of seats, whose turn it is), as a line of text.
    Line { text: String },
}

/// One row of a zone kept in rows (a column of adversaries by colour).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    pub name: String,
    pub seen: bool,
    pub cards: Vec<String>,
    pub hidden: usize,
}

/// One seat's score and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatScore {
    pub seat: Seat,
    pub total: i64,
    pub parts: Vec<(String, i64)>,
}

/// One legal move, numbered as the menu numbers it (from 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveView {
    pub number: usize,
    /// The move as it is typed (`play red-3`).
    pub text: String,
    /// What it changes in the mover's score, when the score is public (none: nothing).
    pub gain: Option<i64>,
    /// What it costs, in words, when that is the move's own.
    pub pays: Option<String>,
    /// What every move of its kind costs, in words (the same for each of them).
    pub note: Option<String>,
}

/// One move of the log, as the viewer was shown it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    pub seat: Seat,
    pub text: String,
    pub events: Vec<String>,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Over {
    pub winners: Vec<Seat>,
    pub scores: Vec<i64>,
    /// The ending's key (`rounds-played`).
    pub end: String,
}

impl Part {
    /// A zone's part, read from its cards as the viewer sees them: `None` for a card the
    /// viewer cannot see.
    pub fn zone(name: impl Into<String>, owner: Option<Seat>, cards: &[Option<String>]) -> Part {
        Part::Zone {
            name: name.into(),
            owner,
            seen: cards.iter().any(Option::is_some),
            cards: cards.iter().flatten().cloned().collect(),
            hidden: cards.iter().filter(|c| c.is_none()).count(),
            rows: Vec::new(),
        }
    }

    /// The part as one line of the terminal's table (`hand P1: red-2 blue-5`,
    /// `deck: 31 cards`, `points: P1 3, P2 5`).
    pub fn line(&self) -> String {
        match self {
            Part::Zone {
                name,
                owner,
                seen,
                cards,
                hidden,
                rows,
            } => {
                let name = match owner {
                    Some(s) => format!("{name} {}", seat_name(*s)),
                    None => name.clone(),
                };
                let body = match rows.is_empty() {
                    true => cards_text(*seen, cards, *hidden),
                    false => (rows.iter())
                        .map(|r| format!("{}: {}", r.name, cards_text(r.seen, &r.cards, r.hidden)))
                        .collect::<Vec<_>>()
                        .join("; "),
                };
                format!("{name}: {body}")
            }
            Part::Counter {
                name,
                owned,
                values,
                words,
            } => {
                let said = |i: usize| match words.get(i) {
                    Some(word) => word.clone(),
                    None => values.get(i).copied().unwrap_or(0).to_string(),
                };
                let body = match owned {
                    true => (0..values.len())
                        .map(|s| format!("{} {}", seat_name(s), said(s)))
                        .collect::<Vec<_>>()
                        .join(", "),
                    false => said(0),
                };
                format!("{name}: {body}")
            }
            Part::Line { text } => text.clone(),
        }
    }
}

/// Cards as a line shows them: their names, then how many lie face down (`—`: none, in a
/// zone the viewer sees into).
fn cards_text(seen: bool, cards: &[String], hidden: usize) -> String {
    let face_down = match hidden {
        1 => "1 card".to_string(),
        n => format!("{n} cards"),
    };
    match (cards.is_empty(), hidden) {
        (true, 0) if seen => "—".to_string(),
        (true, _) => face_down,
        (false, 0) => cards.join(" "),
        (false, _) => format!("{} (+{face_down} face down)", cards.join(" ")),
    }
}

impl View {
    /// The table as the terminal prints it: a line per part.
    pub fn table_text(&self) -> String {
        let mut out = String::new();
        for part in &self.table {
            out.push_str(&part.line());
            out.push('\n');
        }
        out
    }

    /// Every card name the view shows, wherever it shows it (the tests' check that a view
    /// names no card hidden from its viewer reads this).
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        let table = self.table.iter().flat_map(|p| {
            let (head, cards, rows): (&str, &[String], &[Row]) = match p {
                Part::Zone {
                    name, cards, rows, ..
                } => (name, cards, rows),
                Part::Counter { name, .. } => (name, &[], &[]),
                Part::Line { text } => (text, &[], &[]),
            };
            let in_rows = rows.iter().flat_map(|r| r.cards.iter().map(String::as_str));
            (std::iter::once(head).chain(cards.iter().map(String::as_str))).chain(in_rows)
        });
        let log = self.log.iter().flat_map(|e| {
            std::iter::once(e.text.as_str()).chain(e.events.iter().map(String::as_str))
        });
        table
            .chain(self.setup_log.iter().map(String::as_str))
            .chain(log)
            .chain(self.moves.iter().map(|m| m.text.as_str()))
            .chain(std::iter::once(self.prompt.as_str()))
    }
}

/// The table drawn as text, read back as lines: the parts of a game whose rules draw only
/// text (the default of [`crate::game::Rules::table_parts`]).
pub fn lines_of(text: &str) -> Vec<Part> {
    text.lines()
        .map(|l| Part::Line {
            text: l.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zone_shows_the_cards_seen_and_counts_the_rest() {
        let seen = Part::zone("hand", Some(0), &[Some("red-2".into()), None, None]);
        assert_eq!(seen.line(), "hand P1: red-2 (+2 cards face down)");
        let unseen = Part::zone("deck", None, &[None]);
        assert_eq!(unseen.line(), "deck: 1 card");
        let empty = |seen| Part::Zone {
            name: "discard".into(),
            owner: None,
            seen,
            cards: Vec::new(),
            hidden: 0,
            rows: Vec::new(),
        };
        assert_eq!(empty(true).line(), "discard: —");
        assert_eq!(empty(false).line(), "discard: 0 cards");
    }

    #[test]
    fn the_texts_leave_out_the_face_down_cards() {
        let view = View {
            game: "g".into(),
            variant: None,
            players: 2,
            viewer: Some(1),
            to_move: Some(0),
            moves_made: 0,
            table: vec![Part::zone("hand", Some(0), &[None, None])],
            scores: Vec::new(),
            prompt: String::new(),
            moves: Vec::new(),
            setup_log: Vec::new(),
            log: Vec::new(),
            over: None,
        };
        assert!(view.texts().all(|t| !t.contains("red")));
        assert_eq!(view.table_text(), "hand P1: 2 cards\n");
    }
}
