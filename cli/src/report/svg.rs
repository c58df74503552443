//! Small inline SVG charts for the HTML report: bars with intervals and reference marks,
//! horizontal bars, and line plots of distributions. No scripts, no external resources;
//! every text is escaped, and numbers are printed with fixed decimals so the output is
//! deterministic.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One bar: a value, optionally its 95% interval and a reference mark (the fair share).
#[derive(Clone, Debug, Default)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub interval: Option<(f64, f64)>,
    pub reference: Option<f64>,
    /// Printed beside the bar (a count, a percentage).
    pub note: String,
}

/// Series colours, told apart in greyscale too (dark, light, mid …).
pub const COLOURS: [&str; 8] = [
    "#1f4e79", "#e08a1e", "#5b9b4a", "#b23a48", "#7a5195", "#3c9fa8", "#8c6d31", "#555555",
];

/// Escapes text for HTML and SVG.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

const W: f64 = 480.0;
const H: f64 = 240.0;
/// Plot area: left, top, right, bottom margins.
const L: f64 = 48.0;
const T: f64 = 12.0;
const R: f64 = 12.0;
const B: f64 = 44.0;

fn open(out: &mut String, title: &str, height: f64) {
    let _ = write!(
        out,
        r#"<svg class="chart" viewBox="0 0 {W} {height}" width="{W}" height="{height}" role="img" aria-label="{}"><title>{}</title>"#,
        escape(title),
        escape(title)
    );
}

/// A value on an axis, as a short label.
fn tick(x: f64, percent: bool) -> String {
    let p = x * 100.0;
    if percent && (p - p.round()).abs() < 1e-9 {
        format!("{p:.0}%")
    } else if percent {
        format!("{p:.1}%")
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// A round maximum for an axis that must show `max`.
pub fn nice_max(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let step = 10f64.powf(max.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if m * step >= max {
            return m * step;
        }
    }
    10.0 * step
}

fn y_axis(out: &mut String, max: f64, percent: bool) {
    let plot = H - T - B;
    for i in 0..=4 {
        let v = max * f64::from(i) / 4.0;
        let y = T + plot - plot * f64::from(i) / 4.0;
        let _ = write!(
            out,
            r##"<line x1="{L}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end" class="tick">{}</text>"##,
            W - R,
            L - 4.0,
            y + 4.0,
            tick(v, percent)
        );
    }
}

/// Vertical bars from 0 to `max` (`percent`: values are rates), with 95% intervals as
/// whiskers and reference values as dashed marks.
pub fn bars(title: &str, bars: &[Bar], max: f64, percent: bool) -> String {
    let mut out = String::new();
    open(&mut out, title, H);
    y_axis(&mut out, max, percent);
    let plot = H - T - B;
    let slot = (W - L - R) / bars.len().max(1) as f64;
    let y = |v: f64| T + plot - plot * (v / max).clamp(0.0, 1.0);
    for (i, b) in bars.iter().enumerate() {
        let x = L + slot * i as f64;
        let width = (slot * 0.7).max(1.0);
        let left = x + (slot - width) / 2.0;
        let _ = write!(
            out,
            r#"<rect x="{left:.1}" y="{:.1}" width="{width:.1}" height="{:.1}" fill="{}"><title>{}: {}</title></rect>"#,
            y(b.value),
            (T + plot - y(b.value)).max(0.0),
            COLOURS[0],
            escape(&b.label),
            escape(&b.note)
        );
        let mid = x + slot / 2.0;
        if let Some((lo, hi)) = b.interval {
            let _ = write!(
                out,
                r##"<path d="M{mid:.1} {:.1}V{:.1}M{:.1} {:.1}h{:.1}M{:.1} {:.1}h{:.1}" stroke="#111" fill="none"/>"##,
                y(lo),
                y(hi),
                mid - 5.0,
                y(lo),
                10.0,
                mid - 5.0,
                y(hi),
                10.0
            );
        }
        if let Some(r) = b.reference {
            let _ = write!(
                out,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#b23a48" stroke-dasharray="4 3" stroke-width="2"/>"##,
                x + 2.0,
                y(r),
                x + slot - 2.0,
                y(r)
            );
        }
        // Labels thin out when there are many bars.
        let every = bars
            .len()
            .div_ceil(if b.label.len() > 4 { 8 } else { 16 })
            .max(1);
        if i % every == 0 {
            let _ = write!(
                out,
                r#"<text x="{mid:.1}" y="{:.1}" text-anchor="middle" class="tick">{}</text>"#,
                H - B + 14.0,
                escape(&b.label)
            );
        }
        if bars.len() <= 8 && !b.note.is_empty() {
            let _ = write!(
                out,
                r#"<text x="{mid:.1}" y="{:.1}" text-anchor="middle" class="note">{}</text>"#,
                H - B + 28.0,
                escape(&b.note)
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// A line of a label: its words, each with whether a space comes before it.
type Line<'a> = Vec<(bool, &'a str)>;

/// A label in at most `lines` lines of at most `width` characters, broken only between
/// words: at a space (preferred), or after a hyphen (`vanquish-` `king-` …, as card ids are
/// written). What does not fit is left off at a word boundary and marked `…`; a word longer
/// than a line is kept whole on its own line (the chart squeezes it), never cut. Also says
/// whether the label is shown whole.
pub fn wrap(label: &str, width: usize, lines: usize) -> (Vec<String>, bool) {
    let lines = lines.max(1);
    let mut words: Line<'_> = Vec::new();
    for part in label.split_whitespace() {
        let mut spaced = true;
        for word in part.split_inclusive('-') {
            words.push((spaced, word));
            spaced = false;
        }
    }
    // Each line filled in turn; or broken first at the last space the first line can hold
    // ("quest drawn" / "boar-hunt"), preferred when it shows as many words.
    let filled = shorten(greedy(&words, width), width, lines);
    let at_space = (1..words.len())
        .rev()
        .find(|&i| words[i].0 && len(&words[..i]) <= width)
        .map(|i| [vec![words[..i].to_vec()], greedy(&words[i..], width)].concat())
        .map(|out| shorten(out, width, lines));
    let shown = |out: &[Line<'_>]| out.iter().map(Vec::len).sum::<usize>();
    let out = match at_space {
        Some(out) if len(&words) > width && shown(&out) >= shown(&filled) => out,
        _ => filled,
    };
    let whole = shown(&out) == words.len();
    let mut text: Vec<String> = out.iter().map(|line| join(line)).collect();
    if !whole && let Some(last) = text.last_mut() {
        last.push('…');
    }
    (text, whole)
}

/// Lines cut down to `lines`, the last with room for a `…` if words were left off.
fn shorten(mut out: Vec<Line<'_>>, width: usize, lines: usize) -> Vec<Line<'_>> {
    if out.len() > lines {
        out.truncate(lines);
        let last = out.last_mut().expect("one line at least");
        while last.len() > 1 && len(last) + 1 > width {
            last.pop();
        }
    }
    out
}

/// Words in lines filled in turn (one line at least).
fn greedy<'a>(words: &[(bool, &'a str)], width: usize) -> Vec<Line<'a>> {
    let mut out: Vec<Line<'_>> = vec![Vec::new()];
    for &word in words {
        let line = out.last_mut().expect("one line at least");
        line.push(word);
        if line.len() > 1 && len(line) > width {
            line.pop();
            out.push(vec![word]);
        }
    }
    out
}

/// The characters of a line of words.
fn len(line: &[(bool, &str)]) -> usize {
    join(line).chars().count()
}

fn join(line: &[(bool, &str)]) -> String {
    let mut s = String::new();
    for (i, (spaced, w)) in line.iter().enumerate() {
        if i > 0 && *spaced {
            s.push(' ');
        }
        s.push_str(w);
    }
    s
}

/// Horizontal bars, one row each, from 0 to `max`; reference marks dashed. Labels are
/// wrapped onto two lines at a word (rows grow to fit), and shortened at a word beyond
/// that, with the full label on hover.
pub fn hbars(title: &str, bars: &[Bar], max: f64, percent: bool) -> String {
    const LINE: usize = 30;
    let labels: Vec<(Vec<String>, bool)> = bars.iter().map(|b| wrap(&b.label, LINE, 2)).collect();
    let row = if labels.iter().any(|(lines, _)| lines.len() > 1) {
        28.0
    } else {
        18.0
    };
    let label_width = 170.0;
    let height = T + row * bars.len() as f64 + 24.0;
    let mut out = String::new();
    open(&mut out, title, height);
    // Room on the right for the notes.
    let plot = W - label_width - R - 110.0;
    let x = |v: f64| label_width + plot * (v / max).clamp(0.0, 1.0);
    for i in 0..=4 {
        let v = max * f64::from(i) / 4.0;
        let _ = write!(
            out,
            r##"<line x1="{:.1}" y1="{T}" x2="{:.1}" y2="{:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="middle" class="tick">{}</text>"##,
            x(v),
            x(v),
            height - 20.0,
            x(v),
            height - 6.0,
            tick(v, percent)
        );
    }
    for (i, (b, (lines, whole))) in bars.iter().zip(&labels).enumerate() {
        let top = T + row * i as f64;
        let bar = top + (row - 12.0) / 2.0;
        let middle = top + row / 2.0 + 3.0;
        let text_x = label_width - 4.0;
        // A word longer than the line is squeezed into the label column, never cut.
        let squeeze = |line: &str| {
            if line.chars().count() > LINE {
                format!(
                    r#" textLength="{:.1}" lengthAdjust="spacingAndGlyphs""#,
                    text_x - 2.0
                )
            } else {
                String::new()
            }
        };
        let _ = write!(
            out,
            r#"<text x="{text_x:.1}" y="{middle:.1}" text-anchor="end" class="tick""#
        );
        match lines.as_slice() {
            [line] if *whole => {
                let _ = write!(out, "{}>{}</text>", squeeze(line), escape(line));
            }
            _ => {
                let _ = write!(out, "><title>{}</title>", escape(&b.label));
                let first = middle - 5.5 * (lines.len() - 1) as f64;
                for (j, line) in lines.iter().enumerate() {
                    let _ = write!(
                        out,
                        r#"<tspan x="{text_x:.1}" y="{:.1}"{}>{}</tspan>"#,
                        first + 11.0 * j as f64,
                        squeeze(line),
                        escape(line)
                    );
                }
                out.push_str("</text>");
            }
        }
        let _ = write!(
            out,
            r#"<rect x="{label_width}" y="{bar:.1}" width="{:.1}" height="12.0" fill="{}"><title>{}: {}</title></rect><text x="{:.1}" y="{middle:.1}" class="note">{}</text>"#,
            (x(b.value) - label_width).max(0.0),
            COLOURS[0],
            escape(&b.label),
            escape(&b.note),
            x(b.value) + 4.0,
            escape(&b.note)
        );
        if let Some(r) = b.reference {
            let _ = write!(
                out,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#b23a48" stroke-dasharray="3 2" stroke-width="2"/>"##,
                x(r),
                bar - 2.0,
                x(r),
                bar + 14.0
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// Line plots of several distributions over one x axis (`series`: name and share of games
/// at each x), with a legend.
pub fn lines(title: &str, x_label: &str, series: &[(String, Vec<(f64, f64)>)]) -> String {
    let mut out = String::new();
    open(&mut out, title, H);
    let points = series.iter().flat_map(|(_, p)| p.iter());
    let (mut x_min, mut x_max, mut y_max) = (f64::MAX, f64::MIN, 0f64);
    for &(x, y) in points {
        x_min = x_min.min(x);
        x_max = x_max.max(x);
        y_max = y_max.max(y);
    }
    if x_min > x_max {
        (x_min, x_max) = (0.0, 1.0);
    }
    if x_max - x_min < 1.0 {
        x_max = x_min + 1.0;
    }
    let y_max = nice_max(y_max);
    y_axis(&mut out, y_max, true);
    let plot_w = W - L - R;
    let plot_h = H - T - B;
    let px = |x: f64| L + plot_w * (x - x_min) / (x_max - x_min);
    let py = |y: f64| T + plot_h - plot_h * (y / y_max).clamp(0.0, 1.0);
    for i in 0..=4 {
        let v = x_min + (x_max - x_min) * f64::from(i) / 4.0;
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="tick">{}</text>"#,
            px(v),
            H - B + 14.0,
            tick((v * 10.0).round() / 10.0, false)
        );
    }
    let _ = write!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="note">{}</text>"#,
        L + plot_w / 2.0,
        H - B + 28.0,
        escape(x_label)
    );
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mut d = String::new();
        for (j, &(x, y)) in points.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1} {:.1}",
                if j == 0 { "M" } else { "L" },
                px(x),
                py(y)
            );
        }
        let _ = write!(
            out,
            r#"<path d="{d}" stroke="{colour}" stroke-width="2" fill="none"><title>{}</title></path>"#,
            escape(name)
        );
        let ly = T + 4.0 + 14.0 * i as f64;
        let _ = write!(
            out,
            r#"<rect x="{:.1}" y="{ly:.1}" width="10" height="10" fill="{colour}"/><text x="{:.1}" y="{:.1}" class="note">{}</text>"#,
            W - R - 90.0,
            W - R - 76.0,
            ly + 9.0,
            escape(name)
        );
    }
    out.push_str("</svg>");
    out
}

/// Groups a histogram into at most `max_bins` bins of equal width: (first value, last
/// value, count) each, empty bins included, so a distribution keeps its shape.
pub fn bins<K: Copy + Ord + Into<i64>>(
    hist: &BTreeMap<K, u64>,
    max_bins: usize,
) -> Vec<(i64, i64, u64)> {
    let (Some((&lo, _)), Some((&hi, _))) = (hist.first_key_value(), hist.last_key_value()) else {
        return Vec::new();
    };
    let (lo, hi): (i64, i64) = (lo.into(), hi.into());
    let span = (hi - lo + 1) as u64;
    let width = span.div_ceil(max_bins.max(1) as u64).max(1) as i64;
    let count = (span as i64 + width - 1) / width;
    let mut out: Vec<(i64, i64, u64)> = (0..count)
        .map(|i| (lo + i * width, lo + i * width + width - 1, 0))
        .collect();
    for (&k, &n) in hist {
        out[((k.into() - lo) / width) as usize].2 += n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_keep_every_count_and_empty_bins() {
        let hist: BTreeMap<i64, u64> = [(0, 1), (3, 2), (10, 4)].into();
        let b = bins(&hist, 4);
        assert_eq!(b, vec![(0, 2, 1), (3, 5, 2), (6, 8, 0), (9, 11, 4)]);
        let b = bins(&hist, 100);
        assert_eq!(b.len(), 11);
        assert_eq!(b.iter().map(|b| b.2).sum::<u64>(), 7);
        assert!(bins(&BTreeMap::<i64, u64>::new(), 5).is_empty());
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let svg = bars(
            "t<",
            &[Bar {
                label: "<script>".into(),
                ..Bar::default()
            }],
            1.0,
            true,
        );
        assert!(!svg.contains("<script>") && svg.contains("&lt;script&gt;"));
    }

    /// Issue 29: "quest drawn vanquish-king-ar" — a label is broken or shortened between
    /// words only (a space, or after a hyphen of a card id), never inside one.
    #[test]
    fn labels_wrap_and_shorten_between_words() {
        let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // Fits: as is.
        assert_eq!(
            wrap("quest drawn boar-hunt", 30, 2),
            (lines(&["quest drawn boar-hunt"]), true)
        );
        // Two lines, broken at the space where the rest fits.
        assert_eq!(
            wrap("quest drawn vanquish-king-arthurs-enemies", 30, 2),
            (
                lines(&["quest drawn", "vanquish-king-arthurs-enemies"]),
                true
            )
        );
        // Else filled in turn, broken after a hyphen.
        assert_eq!(
            wrap("event prosperity-throughout-the-realm", 20, 2),
            (lines(&["event prosperity-", "throughout-the-realm"]), true)
        );
        // Too long for the lines: shortened at a word, marked.
        assert_eq!(
            wrap("quest drawn vanquish-king-arthurs-enemies", 28, 1),
            (lines(&["quest drawn vanquish-king-…"]), false)
        );
        assert_eq!(
            wrap("quest drawn journey-through-the-enchanted-forest", 20, 2),
            (lines(&["quest drawn journey-", "through-the-…"]), false)
        );
        // A word longer than a line is kept whole, never cut.
        let long = "x".repeat(40);
        assert_eq!(wrap(&long, 30, 2), (lines(&[&long]), true));
        assert_eq!(wrap(&format!("a {long} b"), 30, 1), (lines(&["a…"]), false));
        assert_eq!(wrap("", 30, 2), (lines(&[""]), true));
    }

    /// The words of a label as shown (a space, or a hyphen ends one).
    fn words(s: &str) -> Vec<&str> {
        s.split_whitespace()
            .flat_map(|w| w.split_inclusive('-'))
            .collect()
    }

    /// Issue 29: every label of a horizontal bar chart is made of whole words of its name,
    /// and a label not shown as is carries the full name for hover (an SVG `<title>`).
    #[test]
    fn bar_labels_are_whole_words_with_the_full_name_on_hover() {
        let names = [
            "quest drawn vanquish-king-arthurs-enemies",
            "quest sponsored journey-through-the-enchanted-forest-of-broceliande-and-beyond",
            "event court-called-to-camelot",
            "action add",
        ];
        let bars: Vec<Bar> = (names.iter())
            .map(|n| Bar {
                label: n.to_string(),
                value: 0.5,
                note: "50.0%".into(),
                ..Bar::default()
            })
            .collect();
        let svg = hbars("share", &bars, 1.0, true);
        // The label texts: right-aligned, the rest of the chart is not.
        let mut shown: Vec<String> = Vec::new();
        for label in svg.split(r#"text-anchor="end" class="tick">"#).skip(1) {
            let label = &label[..label.find("</text>").unwrap()];
            let title = label
                .strip_prefix("<title>")
                .map(|t| t[..t.find("</title>").unwrap()].to_string());
            // The lines shown, without the markup between them.
            let mut text = String::new();
            let mut rest = label;
            if title.is_some() {
                rest = &rest[rest.find("</title>").unwrap() + 8..];
            }
            while let Some(at) = rest.find('>') {
                let line = &rest[at + 1..];
                let line = &line[..line.find('<').unwrap_or(line.len())];
                if !line.is_empty() {
                    if !text.is_empty() && !text.ends_with('-') {
                        text.push(' ');
                    }
                    text.push_str(line);
                }
                rest = &rest[at + 1..];
            }
            if title.is_none() {
                text = label.to_string();
            }
            shown.push(text.clone());
            let name = title.clone().unwrap_or(text.clone());
            assert!(names.contains(&name.as_str()), "{name}");
            let whole = words(&name);
            for word in words(text.trim_end_matches('…')) {
                assert!(whole.contains(&word), "`{word}` is cut from `{name}`");
            }
            assert!(
                text == name || title.as_deref() == Some(name.as_str()),
                "`{name}` shown as `{text}` without its full name"
            );
        }
        assert_eq!(shown.len(), names.len(), "{svg}");
        assert!(shown[1].ends_with('…'), "{shown:?}");
        assert_eq!(shown[3], "action add");
    }

    #[test]
    fn axes_end_on_round_numbers() {
        assert_eq!(nice_max(0.37), 0.5);
        assert_eq!(nice_max(1.0), 1.0);
        assert_eq!(nice_max(73.0), 100.0);
        assert_eq!(nice_max(0.0), 1.0);
    }
}
