//! The balance report as one self-contained HTML page: inline CSS and inline SVG charts,
//! no scripts, no fonts or images to fetch, so it opens offline and can be mailed. Several
//! reports (`grail report --compare`) are shown side by side, chart by chart.
//!
//! The page is well-formed XML (every element closed, void elements written `<… />`), so
//! tests can check its structure with a simple parser.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use grail_engine::sim::{PlayersReport, Report, TallyReport};

use super::svg::{self, Bar, escape};

/// Pick-rate charts show at most this many items (the most frequent).
const MAX_ITEMS: usize = 20;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#111;background:#fff}\
h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}\
h3{font-size:1em;margin:1em 0 .3em}.row{display:grid;gap:1em;grid-template-columns:repeat(var(--sides),minmax(0,1fr))}\
figure{margin:0}figcaption{font-size:.85em;color:#444;margin:.2em 0 .6em}\
.chart{max-width:100%;height:auto;font-size:10px}.tick{fill:#333}.note{fill:#555}\
table{border-collapse:collapse;font-size:.85em}td,th{padding:.15em .6em;text-align:right;border-bottom:1px solid #eee}\
th:first-child,td:first-child{text-align:left}.side{font-weight:600}";

/// One report on the page, with the name it is shown under.
pub struct Side<'a> {
    pub name: String,
    pub report: &'a Report,
}

/// The name a report is shown under: the game, its variant, the agents.
pub fn side_name(report: &Report) -> String {
    match &report.variant {
        Some(v) => format!("{}/{v}", report.game),
        None => report.game.clone(),
    }
}

/// The whole page.
pub fn page(title: &str, sides: &[Side<'_>]) -> String {
    page_with(title, "", sides)
}

/// The page with `extra` (charts of its own, already HTML) before the reports.
pub fn page_with(title: &str, extra: &str, sides: &[Side<'_>]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\" /><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" /><title>{}</title><style>{STYLE}</style></head><body style=\"--sides:{}\">\n<h1>{}</h1>\n",
        escape(title),
        sides.len().max(1),
        escape(title)
    );
    out.push_str(extra);
    summary(&mut out, sides);
    row(&mut out, "First-player advantage", sides, |r| {
        first_player(r).map(|svg| {
            (
                svg,
                "Win rate of the first seat by player count, with 95% intervals; dashed: a fair share (1/players)."
                    .to_string(),
            )
        })
    });
    let counts: BTreeSet<usize> = sides
        .iter()
        .flat_map(|s| s.report.results.iter().map(|r| r.players))
        .collect();
    for players in counts {
        let _ = writeln!(out, "<h2>{players} players</h2>");
        let at = |r: &Report| r.results.iter().find(|p| p.players == players).cloned();
        let charts: [(&str, ChartFn); 6] = [
            ("Win rate per seat", win_rates),
            ("Score distribution", scores),
            ("Game length", lengths),
            ("How games ended", ends),
            ("Picks and winning", picks),
            ("Lead changes (drama)", leads),
        ];
        for (heading, chart) in charts {
            row(&mut out, heading, sides, |r| at(r).and_then(|p| chart(&p)));
        }
    }
    out.push_str("</body></html>\n");
    out
}

type ChartFn = fn(&PlayersReport) -> Option<(String, String)>;

/// A heading and one figure per side (an empty cell where a side has no such chart).
fn row(
    out: &mut String,
    heading: &str,
    sides: &[Side<'_>],
    chart: impl Fn(&Report) -> Option<(String, String)>,
) {
    let figures: Vec<Option<(String, String)>> = sides.iter().map(|s| chart(s.report)).collect();
    if figures.iter().all(Option::is_none) {
        return;
    }
    let _ = writeln!(out, "<h3>{}</h3><div class=\"row\">", escape(heading));
    for (side, figure) in sides.iter().zip(figures) {
        match figure {
            Some((svg, caption)) => {
                let _ = writeln!(
                    out,
                    "<figure>{svg}<figcaption><span class=\"side\">{}</span> — {}</figcaption></figure>",
                    escape(&side.name),
                    escape(&caption)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "<figure><figcaption><span class=\"side\">{}</span> — not gathered</figcaption></figure>",
                    escape(&side.name)
                );
            }
        }
    }
    out.push_str("</div>\n");
}

fn summary(out: &mut String, sides: &[Side<'_>]) {
    out.push_str("<div class=\"row\">\n");
    for side in sides {
        let r = side.report;
        let agents: Vec<String> = r
            .results
            .first()
            .map(|p| p.seats.iter().map(|s| s.agent.clone()).collect())
            .unwrap_or_default();
        let _ = write!(
            out,
            "<div><p><span class=\"side\">{}</span>: {} games per player count, seed {}, agents {}{}</p><table><tr><th>players</th><th>games</th><th>completed</th><th>mean turns</th><th>mean moves</th><th>P1 win rate</th></tr>",
            escape(&side.name),
            r.games,
            r.seed,
            escape(&agents.join(", ")),
            r.content_hash
                .as_deref()
                .map(|h| format!(", content {}", escape(h)))
                .unwrap_or_default()
        );
        for p in &r.results {
            let p1 = p.seats.first().map_or(0.0, |s| s.win_rate);
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.1}</td><td>{} (fair {})</td></tr>",
                p.players,
                p.games,
                p.completed,
                p.mean_turns,
                p.mean_moves,
                pct(p1),
                pct(1.0 / p.players.max(1) as f64)
            );
        }
        out.push_str("</table></div>\n");
    }
    out.push_str("</div>\n");
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn first_player(r: &Report) -> Option<String> {
    let bars: Vec<Bar> = r
        .results
        .iter()
        .filter_map(|p| {
            let s = p.seats.first()?;
            Some(Bar {
                label: format!("{} players", p.players),
                value: s.win_rate,
                interval: Some((s.win_rate_low, s.win_rate_high)),
                reference: Some(1.0 / p.players as f64),
                note: pct(s.win_rate),
            })
        })
        .collect();
    (!bars.is_empty()).then(|| svg::bars("first seat's win rate by player count", &bars, 1.0, true))
}

fn win_rates(p: &PlayersReport) -> Option<(String, String)> {
    let bars: Vec<Bar> = p
        .seats
        .iter()
        .map(|s| Bar {
            label: format!("{} {}", s.seat, s.agent),
            value: s.win_rate,
            interval: Some((s.win_rate_low, s.win_rate_high)),
            reference: Some(1.0 / p.players as f64),
            note: pct(s.win_rate),
        })
        .collect();
    let max = svg::nice_max(
        bars.iter()
            .map(|b| b.interval.map_or(b.value, |i| i.1))
            .fold(0.0, f64::max),
    );
    Some((
        svg::bars("win rate per seat", &bars, max, true),
        format!(
            "Share of {} completed games won (shared wins split), with 95% Wilson intervals; dashed: a fair share.",
            p.completed
        ),
    ))
}

/// The share of games at each (binned) value of a histogram.
fn shares<K: Copy + Ord + Into<i64>>(
    hist: &std::collections::BTreeMap<K, u64>,
    bins: usize,
) -> Vec<(f64, f64)> {
    let total: u64 = hist.values().sum();
    svg::bins(hist, bins)
        .into_iter()
        .map(|(lo, hi, n)| ((lo + hi) as f64 / 2.0, n as f64 / total.max(1) as f64))
        .collect()
}

fn scores(p: &PlayersReport) -> Option<(String, String)> {
    if p.completed == 0 {
        return None;
    }
    let series: Vec<(String, Vec<(f64, f64)>)> = p
        .seats
        .iter()
        .zip(&p.totals.seats)
        .map(|(s, t)| {
            (
                format!("{} {}", s.seat, s.agent),
                shares(&t.score_histogram, 30),
            )
        })
        .collect();
    let means: Vec<String> = p
        .seats
        .iter()
        .map(|s| format!("{} {:.1} (sd {:.1})", s.seat, s.mean_score, s.sd_score))
        .collect();
    Some((
        svg::lines("final scores", "final score", &series),
        format!(
            "Share of games by final score, per seat. Means: {}.",
            means.join(", ")
        ),
    ))
}

fn lengths(p: &PlayersReport) -> Option<(String, String)> {
    if p.completed == 0 {
        return None;
    }
    let total = p.completed as f64;
    let (bars, max) = histogram_bars(&p.totals.turns_histogram, total);
    Some((
        svg::bars("game length in turns", &bars, max, true),
        format!(
            "Share of games by turns played: mean {:.1}, sd {:.1}; {:.1} moves per game.",
            p.mean_turns, p.sd_turns, p.mean_moves
        ),
    ))
}

fn ends(p: &PlayersReport) -> Option<(String, String)> {
    let total = p.games.max(1) as f64;
    let bars: Vec<Bar> = p
        .end_reasons
        .iter()
        .map(|(reason, &n)| Bar {
            label: reason.clone(),
            value: n as f64 / total,
            note: format!("{n} ({})", pct(n as f64 / total)),
            ..Bar::default()
        })
        .collect();
    (!bars.is_empty()).then(|| {
        (
            svg::hbars("how games ended", &bars, 1.0, true),
            "Share of games by how they ended; a reason in parentheses is a game the engine abandoned.".to_string(),
        )
    })
}

/// The rules' tallies and (with detail) the moves by kind: how often each happened per game,
/// and the share of them made by the game's winner against a fair share.
fn picks(p: &PlayersReport) -> Option<(String, String)> {
    // Each with whether a seat made it: moves always are.
    let tallies = (p.tallies.iter()).map(|t| (t, tally_by_a_seat(p, t)));
    let actions = p.actions.iter().map(|t| (t, true));
    let mut items: Vec<(&TallyReport, bool)> = tallies
        .chain(actions)
        .filter(|(t, _)| t.count > 0)
        .collect();
    if items.is_empty() {
        return None;
    }
    // Most frequent first; ties by name, so the page is deterministic.
    items.sort_by(|(a, _), (b, _)| {
        b.count
            .cmp(&a.count)
            .then_with(|| (&a.kind, &a.item).cmp(&(&b.kind, &b.item)))
    });
    items.truncate(MAX_ITEMS);
    let fair = 1.0 / p.players as f64;
    let bars: Vec<Bar> = items
        .iter()
        .map(|&(t, by_a_seat)| {
            let label = format!("{} {}", t.kind, t.item);
            if by_a_seat {
                Bar {
                    label,
                    value: t.winner_share,
                    reference: Some(fair),
                    note: format!("{} · {:.2}/game", pct(t.winner_share), t.per_game),
                    ..Bar::default()
                }
            } else {
                Bar {
                    label,
                    note: format!("no seat · {:.2}/game", t.per_game),
                    ..Bar::default()
                }
            }
        })
        .collect();
    let seatless = if bars.iter().any(|b| b.reference.is_none()) {
        " A row with no bar is one no seat makes (a card the game draws): it has no winner's share."
    } else {
        ""
    };
    Some((
        svg::hbars("share made by the winner", &bars, 1.0, true),
        format!(
            "The {} most frequent picks (cards taken, moves by kind): the share made by the game's eventual winner, and how often per game. Right of the dashed fair share (1/{}): it goes with winning.{seatless}",
            bars.len(),
            p.players
        ),
    ))
}

/// Whether a seat made any of a tally, so that its winner's share means something: a
/// rule's tally may have no seat (a quest drawn from the deck by the game), and its share
/// is then 0 for want of any seat, not because winners avoid it.
pub fn tally_by_a_seat(p: &PlayersReport, t: &TallyReport) -> bool {
    (p.totals.items.get(&t.kind))
        .and_then(|items| items.get(&t.item))
        .is_some_and(|t| t.by_seat > 0)
}

fn leads(p: &PlayersReport) -> Option<(String, String)> {
    let h = p.totals.lead_changes.as_ref()?;
    let total = h.sums.n.max(1) as f64;
    let (bars, max) = histogram_bars(&h.counts, total);
    Some((
        svg::bars("lead changes per game", &bars, max, true),
        format!(
            "Share of games by how often the sole leader in score changed: mean {:.2}.",
            h.sums.mean()
        ),
    ))
}

/// A histogram as at most 30 bars of its share of `total` games, and the axis maximum.
fn histogram_bars(counts: &std::collections::BTreeMap<u32, u64>, total: f64) -> (Vec<Bar>, f64) {
    let bars: Vec<Bar> = svg::bins(counts, 30)
        .into_iter()
        .map(|(lo, hi, n)| Bar {
            label: if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}–{hi}")
            },
            value: n as f64 / total,
            note: n.to_string(),
            ..Bar::default()
        })
        .collect();
    let max = svg::nice_max(bars.iter().map(|b| b.value).fold(0.0, f64::max));
    (bars, max)
}

#[cfg(test)]
pub(crate) mod tests {
    use grail_engine::stats::{ItemTotals, SeatTotals, Totals};

    use super::*;

    /// Two player games where a quest is drawn 20 times by the game (no seat: a tally
    /// `Tally { seat: None }`) and sponsored 10 times by a seat, 6 of them by the winner.
    pub(crate) fn drawn_and_sponsored() -> PlayersReport {
        let item = |count, by_seat, winner_units| ItemTotals {
            count,
            turns: u128::from(count) * 3,
            by_seat,
            winner_units,
        };
        let totals = Totals {
            unit: 2,
            games: 10,
            completed: 10,
            seats: vec![SeatTotals::default(); 2],
            items: [
                (
                    "quest drawn".to_string(),
                    [("boar-hunt".to_string(), item(20, 0, 0))].into(),
                ),
                (
                    "quest sponsored".to_string(),
                    [("boar-hunt".to_string(), item(10, 10, 12))].into(),
                ),
            ]
            .into(),
            ..Totals::default()
        };
        totals.report(2, |_| "random".to_string())
    }

    /// The text after `<title>{label}: ` (a bar's hover: its label and its note).
    fn hover<'a>(svg: &'a str, label: &str) -> &'a str {
        let at = svg.find(&format!("<title>{label}: ")).expect(label) + label.len() + 9;
        &svg[at..at + svg[at..].find('<').unwrap()]
    }

    /// Issue 29: a tally no seat makes ("quest drawn") showed a 0.0% winner's share, as if
    /// drawing it predicted losing. Only picks a seat makes have a winner's share.
    #[test]
    fn a_tally_no_seat_makes_shows_no_winners_share() {
        let p = drawn_and_sponsored();
        let (svg, caption) = picks(&p).unwrap();
        assert_eq!(hover(&svg, "quest drawn boar-hunt"), "no seat · 2.00/game");
        assert_eq!(
            hover(&svg, "quest sponsored boar-hunt"),
            "60.0% · 1.00/game"
        );
        // One fair-share mark: the sponsored quest's.
        assert_eq!(svg.matches("stroke-dasharray").count(), 1, "{svg}");
        assert!(caption.contains("no seat makes"), "{caption}");
        // Every pick made by a seat: no word of it.
        let mut seated = p.clone();
        seated.tallies.retain(|t| t.kind != "quest drawn");
        let (svg, caption) = picks(&seated).unwrap();
        assert!(!svg.contains("no seat") && !caption.contains("no seat"));
    }
}
