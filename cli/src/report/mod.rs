//! Rendering a simulation report for people (text, HTML with charts: [`html`]) and
//! spreadsheets (CSV). JSON is the report serialised as is.

pub mod command;
pub mod html;
pub mod svg;

use std::fmt::Write as _;

use grail_engine::sim::Report;

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

pub fn text(report: &Report) -> String {
    let mut out = String::new();
    let name = match &report.variant {
        Some(v) => format!("{}/{v}", report.game),
        None => report.game.clone(),
    };
    let shard = (report.shard)
        .map(|s| {
            let games = s.range(report.games);
            match games.end.checked_sub(1) {
                Some(last) if !games.is_empty() => {
                    format!(", shard {s}: games {} to {last}", games.start)
                }
                _ => format!(", shard {s}: no games"),
            }
        })
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{name}: {} games per player count, seed {}{shard}",
        report.games, report.seed
    );
    for r in &report.results {
        let _ = writeln!(
            out,
            "\n{} players: {} games, {} completed; {:.1} turns (sd {:.1}), {:.1} moves",
            r.players, r.games, r.completed, r.mean_turns, r.sd_turns, r.mean_moves
        );
        let _ = writeln!(
            out,
            "  seat  agent    win rate  95% interval      wins (sole/shared)          score (sd)"
        );
        for s in &r.seats {
            let _ = writeln!(
                out,
                "  {:<5} {:<8} {:>8}  [{:>6}, {:>6}]  {:<26} {:>7.2} ({:.2})",
                s.seat,
                s.agent,
                pct(s.win_rate),
                pct(s.win_rate_low),
                pct(s.win_rate_high),
                format!("{:.2} ({}/{})", s.wins, s.sole_wins, s.shared_wins),
                s.mean_score,
                s.sd_score
            );
        }
        let ends: Vec<String> = r
            .end_reasons
            .iter()
            .map(|(reason, n)| format!("{reason} {n}"))
            .collect();
        let _ = writeln!(out, "  ends: {}", ends.join(", "));
        if !r.tallies.is_empty() {
            let label = |t: &grail_engine::sim::TallyReport| format!("{} {}", t.kind, t.item);
            let width = r
                .tallies
                .iter()
                .map(|t| label(t).chars().count())
                .max()
                .unwrap_or(0)
                .max(8);
            let _ = writeln!(
                out,
                "  {:<width$}    count   per game   mean turn",
                "tallies:",
                width = width + 2
            );
            for t in &r.tallies {
                let _ = writeln!(
                    out,
                    "    {:<width$} {:>6}   {:>8.3}   {:>9.1}",
                    label(t),
                    t.count,
                    t.per_game,
                    t.mean_turn
                );
            }
        }
        // Gathered with `--detail` only.
        if !r.actions.is_empty() {
            let _ = writeln!(out, "  moves by kind:        count   per game   by winner");
            for t in &r.actions {
                let _ = writeln!(
                    out,
                    "    {:<18} {:>6}   {:>8.3}   {:>9}",
                    t.item,
                    t.count,
                    t.per_game,
                    pct(t.winner_share)
                );
            }
        }
        if let Some(leads) = r.mean_lead_changes {
            let _ = writeln!(out, "  lead changes: {leads:.2} per game");
        }
    }
    out
}

/// One value per row (`players,section,key,metric,value`), so every part of the report
/// fits one table that tools can filter and pivot.
pub fn csv(report: &Report) -> String {
    let mut out = String::from("players,section,key,metric,value\n");
    let mut row = |players: usize, section: &str, key: &str, metric: &str, value: String| {
        let _ = writeln!(
            out,
            "{players},{section},{},{metric},{value}",
            csv_field(key)
        );
    };
    for r in &report.results {
        let p = r.players;
        row(p, "game", "", "games", r.games.to_string());
        row(p, "game", "", "completed", r.completed.to_string());
        row(p, "game", "", "mean_turns", r.mean_turns.to_string());
        row(p, "game", "", "sd_turns", r.sd_turns.to_string());
        row(p, "game", "", "mean_moves", r.mean_moves.to_string());
        for s in &r.seats {
            row(p, "seat", &s.seat, "agent", csv_field(&s.agent));
            row(p, "seat", &s.seat, "wins", s.wins.to_string());
            row(p, "seat", &s.seat, "sole_wins", s.sole_wins.to_string());
            row(p, "seat", &s.seat, "shared_wins", s.shared_wins.to_string());
            row(p, "seat", &s.seat, "win_rate", s.win_rate.to_string());
            row(
                p,
                "seat",
                &s.seat,
                "win_rate_low",
                s.win_rate_low.to_string(),
            );
            row(
                p,
                "seat",
                &s.seat,
                "win_rate_high",
                s.win_rate_high.to_string(),
            );
            row(p, "seat", &s.seat, "mean_score", s.mean_score.to_string());
            row(p, "seat", &s.seat, "sd_score", s.sd_score.to_string());
        }
        for (reason, n) in &r.end_reasons {
            row(p, "end", reason, "count", n.to_string());
        }
        for t in &r.tallies {
            let key = format!("{}:{}", t.kind, t.item);
            row(p, "tally", &key, "count", t.count.to_string());
            row(p, "tally", &key, "per_game", t.per_game.to_string());
            row(p, "tally", &key, "mean_turn", t.mean_turn.to_string());
            // A tally no seat makes (a card the game draws) has no winner's share.
            if html::tally_by_a_seat(r, t) {
                row(p, "tally", &key, "winner_share", t.winner_share.to_string());
            }
        }
        for t in &r.actions {
            row(p, "action", &t.item, "count", t.count.to_string());
            row(p, "action", &t.item, "per_game", t.per_game.to_string());
            row(
                p,
                "action",
                &t.item,
                "winner_share",
                t.winner_share.to_string(),
            );
        }
        if let Some(leads) = r.mean_lead_changes {
            row(p, "game", "", "mean_lead_changes", leads.to_string());
        }
    }
    out
}

/// Quotes a field when it holds a comma, quote or line break (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_only_when_needed() {
        assert_eq!(csv_field("v1"), "v1");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    /// Issue 29: a tally no seat makes has no winner's share in the spreadsheet either.
    #[test]
    fn csv_gives_no_winners_share_for_a_tally_no_seat_makes() {
        let report = Report {
            game: "g".to_string(),
            variant: None,
            content_hash: None,
            seed: 1,
            games: 10,
            players: vec![2],
            max_moves: 100,
            detail: false,
            shard: None,
            results: vec![html::tests::drawn_and_sponsored()],
        };
        let csv = csv(&report);
        assert!(
            csv.contains("2,tally,quest drawn:boar-hunt,count,20\n"),
            "{csv}"
        );
        assert!(!csv.contains("quest drawn:boar-hunt,winner_share"), "{csv}");
        assert!(csv.contains("2,tally,quest sponsored:boar-hunt,winner_share,0.6\n"));
    }
}
