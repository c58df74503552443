//! What `grail play` explains beyond the table, for every game alike, from the pack and the
//! `Rules` interface: the scoring rule and the attribute legends in the help, and the
//! game-over screen (every hand revealed, each score broken into its parts).

use std::io::Write;

use grail_engine::facade::DynMatch;
use grail_engine::seats::seat_name;
use grail_schema::Pack;

use crate::excerpt::escape;

/// The help's lines about the game itself: how it is scored (`[pack] scoring`) and what
/// attribute values mean.
pub fn pack_help(pack: &Pack) -> String {
    let mut out = String::new();
    // A described game's `[end] score` is said in words by its rulebook's own help.
    if !pack.scoring.trim().is_empty() {
        out += &format!("Scoring: {}\n", escape(pack.scoring.trim()));
    }
    for set in &pack.sets {
        for legend in &set.legend {
            out += &format!(
                "Legend ({}): {}\n",
                escape(&set.name),
                escape(&legend.line())
            );
        }
    }
    out
}

/// Whether a zone named by `Rules::zones` belongs to seat `seat` (`P2 hand`, `trails P2 red`).
fn owned_by(zone: &str, seat: usize) -> bool {
    let name = seat_name(seat);
    zone.split_whitespace().any(|w| w == name)
}

/// After the last move: every seat's cards (hidden ones too, the game being over), and
/// each score in the parts the rules give, with their sum.
pub fn write_game_over(out: &mut dyn Write, m: &dyn DynMatch) -> std::io::Result<()> {
    let players = m.setup().players;
    let zones = m.zones();
    if !zones.is_empty() {
        writeln!(out, "\nEvery player's cards, revealed:")?;
    }
    for seat in (0..players).filter(|_| !zones.is_empty()) {
        writeln!(out, "  {}:", seat_name(seat))?;
        let mut any = false;
        for (zone, cards) in zones
            .iter()
            .filter(|(z, c)| owned_by(z, seat) && !c.is_empty())
        {
            writeln!(out, "    {}: {}", escape(zone), cards.join(" "))?;
            any = true;
        }
        if !any {
            writeln!(out, "    no cards")?;
        }
    }
    let breakdown = m.score_breakdown();
    if breakdown.is_empty() {
        return Ok(());
    }
    writeln!(out, "\nWhere the scores come from:")?;
    for (seat, parts) in breakdown {
        let total: i64 = parts.iter().map(|(_, v)| v).sum();
        writeln!(out, "  {}: {total}", seat_name(seat))?;
        let width = parts
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        for (label, value) in parts {
            writeln!(out, "    {:<width$}  {value:>5}", escape(&label))?;
        }
    }
    Ok(())
}

/// Under a rendered table: the legend of an attribute whose values the table uses next to
/// cards of its set (cards laid out in rows by colour), and the text (else the condition
/// in words) of each card with a condition that the table names by id; each unless the
/// table already says it. Only what the rendered view names, so nothing the viewer cannot
/// see. Every game gets these from its pack, without a rules module's help.
pub fn card_notes(pack: &Pack, table: &str) -> String {
    let words: Vec<&str> = table
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .collect();
    let mut out = String::new();
    for set in &pack.sets {
        if !set.cards.iter().any(|c| words.contains(&c.id.as_str())) {
            continue;
        }
        for legend in &set.legend {
            let line = legend.line();
            let used = legend
                .entries
                .iter()
                .any(|(v, _)| words.contains(&v.as_str()));
            if used && !table.contains(&line) {
                out += &format!("Legend: {}\n", escape(&line));
            }
        }
    }
    for set in &pack.sets {
        for card in set.cards.iter().filter(|c| c.condition.is_some()) {
            if !words.contains(&card.id.as_str()) {
                continue;
            }
            let note = match card.text.trim() {
                "" => crate::cards::condition_in_words(pack, set, card),
                text => Some(text.to_string()),
            };
            if let Some(note) = note.filter(|n| !table.contains(n.as_str())) {
                out += &format!("  {}: {}\n", card.id, escape(&note));
            }
        }
    }
    out
}
