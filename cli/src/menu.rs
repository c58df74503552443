//! The numbered list of legal moves `grail play` shows, each saying what it gives and costs
//! where the game tells (`adventure holy-grail (score +20, pay cards worth 12 or more in
//! total)`), a cost every move of a kind shares said once above them. Most decisions have a
//! handful of moves and all are listed. A long list (a feast's trade offers run to hundreds) is
//! shortened: each family of many moves sharing a first word becomes one line saying how
//! many there are and how to list them (`moves offer`, `moves offer P2`). Numbers always
//! count in the full list, so every move can still be played by number or typed out.

use std::io::Write;

/// Lists with more moves than this are shortened.
const LONG: usize = 40;
/// In a shortened list, families with more moves than this get one line.
const FAMILY: usize = 8;

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
/// starting with `only` if given.
pub fn write_moves(
    out: &mut dyn Write,
    entries: &[Entry],
    notes: &[String],
    only: Option<&str>,
) -> std::io::Result<()> {
    for note in notes {
        writeln!(out, "  {note}")?;
    }
    let shown: Vec<String> = entries.iter().map(Entry::shown).collect();
    let numbered = shown.iter().enumerate().map(|(i, m)| (i + 1, m.as_str()));
    if let Some(start) = only {
        let chosen: Vec<_> = (numbered.zip(entries))
            .filter(|(_, e)| e.text.starts_with(start))
            .map(|(n, _)| n)
            .collect();
        if chosen.is_empty() {
            return writeln!(out, "No legal move starts with '{start}'.");
        }
        return write_grid(out, &chosen);
    }
    // Families, groups and examples go by the moves as typed.
    let legal: Vec<&str> = entries.iter().map(|e| e.text.as_str()).collect();
    if legal.len() <= LONG {
        return write_grid(out, &numbered.collect::<Vec<_>>());
    }
    let mut families: Vec<(&str, usize)> = Vec::new();
    for m in &legal {
        let word = first_word(m);
        match families.iter_mut().find(|(w, _)| *w == word) {
            Some((_, n)) => *n += 1,
            None => families.push((word, 1)),
        }
    }
    let big = |word: &str| families.iter().any(|&(w, n)| w == word && n > FAMILY);
    let listed: Vec<_> = (numbered.zip(&legal))
        .filter(|(_, m)| !big(first_word(m)))
        .map(|(n, _)| n)
        .collect();
    write_grid(out, &listed)?;
    for &(word, n) in families.iter().filter(|&&(_, n)| n > FAMILY) {
        // A big family by its first two words (`play 1-4`: one card's moves), each group
        // with the numbers it takes, so a number typed is never a move unseen; a family of
        // too many groups is one line.
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, m) in legal
            .iter()
            .enumerate()
            .filter(|(_, m)| first_word(m) == word)
        {
            let head = first_words(m, 2);
            match groups.iter_mut().find(|(h, _)| *h == head) {
                Some((_, at)) => at.push(i + 1),
                None => groups.push((head, vec![i + 1])),
            }
        }
        if groups.len() > 1 && groups.len() <= GROUPS {
            for (head, at) in &groups {
                let example = legal[at[at.len() - 1] - 1];
                writeln!(
                    out,
                    "  {head} …  {} moves, {}: e.g. '{example}', or 'moves {head}' lists them",
                    at.len(),
                    numbers(at)
                )?;
            }
            continue;
        }
        let example = legal
            .iter()
            .rfind(|m| first_word(m) == word)
            .map_or("", |m| m);
        writeln!(
            out,
            "  {word} …  {n} moves, e.g. '{example}': type one, or 'moves {word}' lists them"
        )?;
    }
    Ok(())
}

/// In a shortened list, a family split into at most this many groups shows one line each.
const GROUPS: usize = 12;

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

/// Numbered moves in columns fitting 78 characters.
fn write_grid(out: &mut dyn Write, moves: &[(usize, &str)]) -> std::io::Result<()> {
    let items: Vec<String> = moves.iter().map(|(n, m)| format!("{n:>3}) {m}")).collect();
    let width = items.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 2;
    let per_line = (78 / width.max(1)).max(1);
    for row in items.chunks(per_line) {
        let line: String = row.iter().map(|s| format!("{s:<width$}")).collect();
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(legal: &[String], only: Option<&str>) -> String {
        let entries: Vec<Entry> = legal.iter().map(Entry::plain).collect();
        let mut out = Vec::new();
        write_moves(&mut out, &entries, &[], only).unwrap();
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
        assert_eq!(text.lines().count(), 4, "{text}");
    }

    /// Each move says what it changes in the score and what it pays; a cost shared by a
    /// kind of move is said once above them; a family's example is a move as it is typed.
    #[test]
    fn moves_say_what_they_give_and_cost() {
        let entries = vec![
            Entry {
                text: "adventure holy-grail".into(),
                score: Some(20),
                pays: Some("cards worth 12 or more in total".into()),
            },
            Entry {
                text: "challenge red-3".into(),
                score: Some(3),
                pays: None,
            },
            Entry::plain("pass"),
        ];
        let notes = ["challenge pays from your knights: knight cards of one colour".to_string()];
        let mut out = Vec::new();
        write_moves(&mut out, &entries, &notes, None).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("  challenge pays from your knights: knight cards of one colour\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "  1) adventure holy-grail (score +20, pay cards worth 12 or more in total)"
            ),
            "{text}"
        );
        assert!(text.contains("  2) challenge red-3 (score +3)"), "{text}");
        assert!(text.contains("  3) pass"), "{text}");
        let many: Vec<Entry> = (0..48)
            .map(|i| Entry {
                text: format!("play card-{} knight@{i} 1", i / 12),
                score: Some(-7),
                pays: None,
            })
            .collect();
        let mut out = Vec::new();
        write_moves(&mut out, &many, &[], None).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("e.g. 'play card-0 knight@11 1'"), "{text}");
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
