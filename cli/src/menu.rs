//! The numbered list of legal moves `grail play` shows. Each move says what it gives and
//! costs, where the game tells: its change in your score and what it pays (`adventure
//! holy-grail (score +20, pay cards worth 12 or more in total)`), and a cost every move of a
//! kind shares is said once above them. The list fits the screen: lines no wider than it,
//! and no more of them than leave the hand and the prompt in view (`Screen::menu_rows`). A
//! list that would not fit, or of more than 40 moves, is shortened, its biggest family
//! first: a family of moves sharing a first word becomes a line per group of its first two
//! words (`play 1-4 …  20 moves, 1–20, score -4 to +8`), or one line, each saying the numbers
//! its moves take and what they change in the score, and a last line how to list them
//! (`moves play 1-4`). Numbers always count in the full list, so every move can still be
//! played by number or typed out.

use std::io::Write;

use crate::screen::{Screen, wrap_line};

/// Lists with more moves than this are shortened, however many lines they take.
const LONG: usize = 40;
/// A family split into at most this many groups shows one line each.
const GROUPS: usize = 12;

/// One move of the menu: its notation and what the game says it gives and costs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The move as it is typed.
    pub text: String,
    /// What it changes in the mover's score (`None`: nothing, or not public).
    pub score: Option<i64>,
    /// What it costs, in words, when that is its own.
    pub pays: Option<String>,
}

impl Entry {
    /// A move the menu says nothing more of.
    pub fn plain(text: impl Into<String>) -> Entry {
        Entry {
            text: text.into(),
            ..Entry::default()
        }
    }

    /// As listed: `adventure holy-grail (score +20, pay cards worth 12 or more in total)`.
    pub fn shown(&self) -> String {
        let mut terms = Vec::new();
        if let Some(g) = self.score {
            terms.push(format!("score {g:+}"));
        }
        if let Some(p) = &self.pays {
            terms.push(format!("pay {p}"));
        }
        match terms.is_empty() {
            true => self.text.clone(),
            false => format!("{} ({})", self.text, terms.join(", ")),
        }
    }
}

/// Writes the moves (numbered from 1), after the `notes` said once above them; only those
/// starting with `only` if given (then all of them, however long).
pub fn write_moves(
    out: &mut dyn Write,
    entries: &[Entry],
    notes: &[String],
    only: Option<&str>,
    screen: &Screen,
) -> std::io::Result<()> {
    let width = screen.columns;
    let mut lines: Vec<String> = Vec::new();
    for note in notes {
        lines.extend(wrap_line(&format!("  {note}"), width, 4));
    }
    let numbered: Vec<(usize, &Entry)> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (i + 1, e))
        .collect();
    match only {
        Some(start) => {
            let chosen: Vec<_> = (numbered.iter().copied())
                .filter(|(_, e)| e.text.starts_with(start))
                .collect();
            if chosen.is_empty() {
                return writeln!(out, "No legal move starts with '{start}'.");
            }
            lines.extend(grid(&chosen, width));
        }
        None => {
            let budget = screen.menu_rows().saturating_sub(lines.len());
            lines.extend(fit(&numbered, budget, width));
        }
    }
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The lines of the moves, shortened family by family, the biggest first, until they fit in
/// `budget` lines and list at most [`LONG`] moves one by one.
fn fit(moves: &[(usize, &Entry)], budget: usize, width: usize) -> Vec<String> {
    // The families shortened, and whether to one line each.
    let mut short: Vec<&str> = Vec::new();
    let mut one_line = false;
    loop {
        let listed: Vec<(usize, &Entry)> = (moves.iter().copied())
            .filter(|(_, e)| !short.contains(&first_word(&e.text)))
            .collect();
        let mut lines = grid(&listed, width);
        for word in &short {
            lines.extend(family(moves, word, width, one_line));
        }
        if !short.is_empty() {
            let head = (moves.iter())
                .find(|(_, e)| first_word(&e.text) == short[0])
                .map_or("", |(_, e)| e.text.as_str());
            let head = match one_line {
                true => first_words(head, 1),
                false => first_words(head, 2),
            };
            lines.push(format!("  ('moves {head}' lists the moves starting so)"));
        }
        if lines.len() <= budget && listed.len() <= LONG {
            return lines;
        }
        // The biggest family of the moves listed one by one, if any has several.
        let mut families: Vec<(&str, usize)> = Vec::new();
        for (_, e) in &listed {
            let word = first_word(&e.text);
            match families.iter_mut().find(|(w, _)| *w == word) {
                Some((_, n)) => *n += 1,
                None => families.push((word, 1)),
            }
        }
        let biggest = (families.iter())
            .filter(|&&(_, n)| n > 1)
            .max_by_key(|&&(_, n)| n)
            .map(|&(w, _)| w);
        match (biggest, one_line) {
            (Some(word), _) => short.push(word),
            (None, false) => one_line = true,
            (None, true) => return lines,
        }
    }
}

/// A family of moves sharing a first word, shortened: a line per group of its first two
/// words, each with the numbers its moves take and what they change in the score (one line
/// for the family when it has one group, too many, or `one_line`).
fn family(moves: &[(usize, &Entry)], word: &str, width: usize, one_line: bool) -> Vec<String> {
    let members: Vec<(usize, &Entry)> = (moves.iter().copied())
        .filter(|(_, e)| first_word(&e.text) == word)
        .collect();
    let mut groups: Vec<(String, Vec<(usize, &Entry)>)> = Vec::new();
    for &(n, e) in &members {
        let head = first_words(&e.text, 2);
        match groups.iter_mut().find(|(h, _)| *h == head) {
            Some((_, at)) => at.push((n, e)),
            None => groups.push((head, vec![(n, e)])),
        }
    }
    if one_line || groups.len() <= 1 || groups.len() > GROUPS {
        groups = vec![(word.to_string(), members)];
    }
    (groups.iter())
        .flat_map(|(head, at)| {
            let numbers = numbers(&at.iter().map(|(n, _)| *n).collect::<Vec<_>>());
            let line = format!("  {head} …  {} moves, {numbers}{}", at.len(), scores(at));
            // The last move as an example of how they are typed, where it fits.
            let example = at.last().map_or("", |(_, e)| e.text.as_str());
            let with = format!("{line}: e.g. '{example}'");
            match with.chars().count() <= width {
                true => vec![with],
                false => wrap_line(&line, width, 6),
            }
        })
        .collect()
}

/// What a group's moves change in the score: ", score -4 to +8" (nothing when none does).
fn scores(group: &[(usize, &Entry)]) -> String {
    if group.iter().all(|(_, e)| e.score.is_none()) {
        return String::new();
    }
    let each = group.iter().map(|(_, e)| e.score.unwrap_or(0));
    let (low, high) = (each.clone().min().unwrap_or(0), each.max().unwrap_or(0));
    match low == high {
        true => format!(", score {}", signed(low)),
        false => format!(", score {} to {}", signed(low), signed(high)),
    }
}

/// A change in the score: "+3", "-2", "0".
fn signed(v: i64) -> String {
    match v {
        0 => "0".into(),
        _ => format!("{v:+}"),
    }
}

/// The first `n` words of a move.
fn first_words(text: &str, n: usize) -> String {
    text.split_whitespace()
        .take(n)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Move numbers as ranges: "3–23", "1–4, 9".
fn numbers(at: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut start = 0;
    for i in 1..=at.len() {
        if i == at.len() || at[i] != at[i - 1] + 1 {
            parts.push(match i - 1 == start {
                true => at[start].to_string(),
                false => format!("{}–{}", at[start], at[i - 1]),
            });
            start = i;
        }
    }
    parts.join(", ")
}

fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// Numbered moves in columns two narrower than the screen; a move wider than a line wraps,
/// indented under its text.
fn grid(moves: &[(usize, &Entry)], width: usize) -> Vec<String> {
    let items: Vec<String> = (moves.iter())
        .map(|(n, e)| format!("{n:>3}) {}", e.shown()))
        .collect();
    let room = width.saturating_sub(2).max(1);
    let cell = items.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 2;
    let per_line = (room / cell.max(1)).max(1);
    let mut lines = Vec::new();
    if per_line == 1 {
        for item in &items {
            lines.extend(wrap_line(item, width, 5));
        }
        return lines;
    }
    for row in items.chunks(per_line) {
        let line: String = row.iter().map(|s| format!("{s:<cell$}")).collect();
        lines.push(line.trim_end().to_string());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(legal: &[String], only: Option<&str>) -> String {
        let entries: Vec<Entry> = legal.iter().map(Entry::plain).collect();
        let mut out = Vec::new();
        write_moves(&mut out, &entries, &[], only, &Screen::default()).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn feast() -> Vec<String> {
        let mut legal = vec!["accept 1".to_string(), "refuse 1".to_string()];
        for to in ["P2", "P3"] {
            for give in ["courage", "mercy", "piety"] {
                for ask in [
                    "courage", "mercy", "piety", "sin", "guile", "goblet", "grail",
                ] {
                    legal.push(format!("offer {to} {give} for {ask}"));
                }
            }
        }
        legal.push("done".into());
        legal
    }

    #[test]
    fn short_lists_show_every_move() {
        let legal: Vec<String> = (0..12).map(|i| format!("tax v{i}")).collect();
        let text = shown(&legal, None);
        assert!(
            text.contains("  1) tax v0") && text.contains(" 12) tax v11"),
            "{text}"
        );
    }

    #[test]
    fn long_families_are_summed_up_and_numbers_count_in_the_full_list() {
        let legal = feast();
        let text = shown(&legal, None);
        assert!(text.contains("  1) accept 1"), "{text}");
        assert!(text.contains("  2) refuse 1"), "{text}");
        assert!(text.contains(" 45) done"), "{text}");
        assert!(!text.contains("offer P2 mercy for sin"), "{text}");
        // By its first two words, each group with the numbers it takes.
        assert!(
            text.contains("offer P2 …  21 moves, 3–23: e.g. 'offer P2 piety for grail'"),
            "{text}"
        );
        assert!(text.contains("offer P3 …  21 moves, 24–44"), "{text}");
        assert_eq!(numbers(&[1, 2, 3, 7, 9, 10]), "1–3, 7, 9–10");
    }

    /// Artus: one verb for every card; grouped by card, every number is on the screen.
    #[test]
    fn one_verb_for_every_card_is_grouped_by_card() {
        let mut legal = Vec::new();
        for card in ["1-4", "4-7", "silver-1-7", "bronze-1-7"] {
            for knight in [3, 9, 14] {
                for d in 1..=4 {
                    legal.push(format!("play {card} knight@{knight} {d}"));
                }
            }
        }
        let text = shown(&legal, None);
        assert!(
            text.contains("  play 1-4 …  12 moves, 1–12: e.g."),
            "{text}"
        );
        assert!(
            text.contains("  play bronze-1-7 …  12 moves, 37–48"),
            "{text}"
        );
        assert!(
            text.ends_with("  ('moves play 1-4' lists the moves starting so)\n"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 5, "{text}");
    }

    /// Each move says what it changes in the score and what it pays; a cost shared by a
    /// kind of move is said once above; a group says its moves' scores; nothing passes
    /// the screen's width, and the menu stays within its rows.
    #[test]
    fn moves_say_what_they_give_and_cost_within_the_screen() {
        let screen = Screen::default();
        let entries = vec![
            Entry {
                text: "adventure green-knight".into(),
                score: Some(11),
                pays: Some(
                    "two different cards: one of value 3 or more and one of value 4 or more".into(),
                ),
            },
            Entry {
                text: "challenge red-3".into(),
                score: Some(3),
                pays: None,
            },
            Entry::plain("pass"),
        ];
        let notes = ["challenge pays from your knights: knight cards of one colour (Merlins count as any colour, doubles as two knights) whose strength meets its power (power: the value of the card)".to_string()];
        let mut out = Vec::new();
        write_moves(&mut out, &entries, &notes, None, &screen).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(
            text.starts_with("  challenge pays from your knights: "),
            "{text}"
        );
        assert!(
            text.contains("  1) adventure green-knight (score +11, pay two different cards:"),
            "{text}"
        );
        assert!(text.contains("  2) challenge red-3 (score +3)\n"), "{text}");
        assert!(text.contains("  3) pass"), "{text}");
        // Many moves with scores: grouped, each group with the scores of its moves.
        let many: Vec<Entry> = (0..60)
            .map(|i| Entry {
                text: format!("play card-{} knight@{i} 1", i / 20),
                score: Some(i64::from(i % 7) - 3),
                pays: None,
            })
            .collect();
        let mut out = Vec::new();
        write_moves(&mut out, &many, &[], None, &screen).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(
                "  play card-0 …  20 moves, 1–20, score -3 to +3: e.g. 'play card-0 knight@19 1'"
            ),
            "{text}"
        );
        assert!(text.lines().count() <= screen.menu_rows(), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    }

    #[test]
    fn moves_can_be_listed_by_how_they_start() {
        let legal = feast();
        let text = shown(&legal, Some("offer P3 piety"));
        assert_eq!(text.matches(") offer").count(), 7, "{text}");
        assert!(text.contains(" 38) offer P3 piety for courage"), "{text}");
        assert!(!text.contains("P2"), "{text}");
        assert_eq!(
            shown(&legal, Some("joust")),
            "No legal move starts with 'joust'.\n"
        );
    }
}
