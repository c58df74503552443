//! The terminal's size, for laying out what `grail play` shows a human: each line of the
//! table, the menu, the help and the messages is wrapped to the screen's width, and the menu
//! is kept short enough that the hand above it and the prompt below it are on the screen
//! together. The size is the terminal's (`COLUMNS` and `LINES` when set, as a shell exports
//! them or to try another size), else the smallest screen laid out for, 80×24.

/// A screen of `columns` × `rows` characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Screen {
    pub columns: usize,
    pub rows: usize,
}

impl Default for Screen {
    /// 80×24: the smallest terminal `grail play` is laid out for.
    fn default() -> Self {
        Screen {
            columns: 80,
            rows: 24,
        }
    }
}

/// Narrower or shorter than this, a screen is laid out as this (nothing fits below it).
const LEAST: Screen = Screen {
    columns: 40,
    rows: 12,
};

impl Screen {
    /// The terminal's size: `COLUMNS` and `LINES` where set to numbers, else what the
    /// terminal on stdout says, else 80×24.
    pub fn of_terminal() -> Screen {
        let told = terminal_size();
        let env = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok())
                .filter(|&n| n > 0)
        };
        let default = Screen::default();
        Screen {
            columns: env("COLUMNS")
                .or(told.map(|t| t.0))
                .unwrap_or(default.columns),
            rows: env("LINES").or(told.map(|t| t.1)).unwrap_or(default.rows),
        }
        .at_least()
    }

    /// This screen, or the least laid out for.
    pub fn at_least(self) -> Screen {
        Screen {
            columns: self.columns.max(LEAST.columns),
            rows: self.rows.max(LEAST.rows),
        }
    }

    /// `text` with each line wrapped to the screen's width (see [`wrap_line`]): a line's
    /// continuation is indented two more than the line, or, for a line of two columns (a
    /// name, two spaces or more, what it means), under its second column.
    pub fn wrap(&self, text: &str) -> String {
        let mut out = Vec::new();
        for line in text.lines() {
            let lead = line.len() - line.trim_start_matches(' ').len();
            let column = line[lead..]
                .find("  ")
                .map(|gap| {
                    let from = lead + gap;
                    from + line[from..].len() - line[from..].trim_start_matches(' ').len()
                })
                .map(|at| line[..at].chars().count())
                .filter(|&at| at < self.columns / 2);
            out.extend(wrap_line(line, self.columns, column.unwrap_or(lead + 2)));
        }
        out.join("\n")
    }

    /// How many lines the menu, with the lines said above it, may take: the rest of the
    /// screen shows the hand (the table's last lines, up to three), the step, the decision
    /// being asked and the prompt.
    pub fn menu_rows(&self) -> usize {
        self.rows.saturating_sub(8).max(4)
    }
}

/// `line` broken at spaces into lines of at most `width` characters, each after the first
/// indented by `indent` spaces. A word wider than the screen (a path to copy) is left whole.
pub fn wrap_line(line: &str, width: usize, indent: usize) -> Vec<String> {
    if line.chars().count() <= width {
        return vec![line.trim_end().to_string()];
    }
    let indent = indent.min(width / 2);
    let lead = line.len() - line.trim_start_matches(' ').len();
    let mut lines = Vec::new();
    let mut current = " ".repeat(lead);
    let mut bare = true;
    for word in line[lead..].split(' ') {
        let fits = current.chars().count() + 1 + word.chars().count() <= width;
        if bare {
            current.push_str(word);
            bare = word.is_empty();
        } else if fits {
            current.push(' ');
            current.push_str(word);
        } else {
            // A list breaks after a comma or semicolon, or before a `·`, in the line's last
            // quarter rather than inside an item ("P3 8 (8 + 0)" stays whole); a `·` that
            // does not fit starts the next line anyway.
            let at = (current.rmatch_indices([',', ';', '·']))
                .map(|(i, c)| if c == "·" { i } else { i + 1 })
                .filter(|_| word != "·")
                .find(|&i| {
                    let item = current[i..].starts_with(' ') || current[i..].starts_with('·');
                    item && current[..i].chars().count() > width * 3 / 4
                });
            let carried = match at {
                Some(i) => {
                    let tail = current[i..].trim().to_string();
                    current.truncate(i);
                    format!("{tail} ")
                }
                None => String::new(),
            };
            lines.push(current.trim_end().to_string());
            current = format!("{}{carried}{word}", " ".repeat(indent));
            bare = word.is_empty() && carried.is_empty();
        }
    }
    lines.push(current.trim_end().to_string());
    lines
}

#[cfg(unix)]
fn terminal_size() -> Option<(usize, usize)> {
    // SAFETY: `winsize` is plain numbers; TIOCGWINSZ writes one into `size`, which lives
    // across the call, and touches nothing else.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let asked = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
    (asked == 0 && size.ws_col > 0 && size.ws_row > 0)
        .then(|| (usize::from(size.ws_col), usize::from(size.ws_row)))
}

#[cfg(not(unix))]
fn terminal_size() -> Option<(usize, usize)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_at_spaces_with_an_indent_and_long_words_stay_whole() {
        let line = "score (a + b): P1 12 (10 + 2), P2 3 (0 + 3), P3 8 (8 + 0)";
        let lines = wrap_line(line, 50, 2);
        assert!(lines.iter().all(|l| l.chars().count() <= 50), "{lines:?}");
        // Broken after the comma near the end rather than inside "P3 8 (8 + 0)".
        assert_eq!(
            lines,
            [
                "score (a + b): P1 12 (10 + 2), P2 3 (0 + 3),",
                "  P3 8 (8 + 0)"
            ]
        );
        assert_eq!(
            lines.join(" ").split_whitespace().collect::<Vec<_>>(),
            line.split_whitespace().collect::<Vec<_>>()
        );
        // Not after a comma early in the line: that would waste most of it.
        let lines = wrap_line("a, bb cc dd ee ff gg hh ii jj kk ll mm", 20, 2);
        assert_eq!(lines, ["a, bb cc dd ee ff gg", "  hh ii jj kk ll mm"]);
        let path = format!("Saved to {}", "/very/long".repeat(8));
        let lines = wrap_line(&path, 40, 2);
        assert_eq!(
            lines,
            vec![
                "Saved to".to_string(),
                format!("  {}", "/very/long".repeat(8))
            ]
        );
        assert_eq!(wrap_line("    short", 40, 6), vec!["    short"]);
        // Runs of spaces inside a line are kept, and no word is lost.
        let help = "  play <card>   a card from hand   if the value of the card is more than the last value of the player's trails";
        let lines = wrap_line(help, 40, 4);
        assert_eq!(
            lines.join(" ").split_whitespace().collect::<Vec<_>>(),
            help.split_whitespace().collect::<Vec<_>>(),
            "{lines:?}"
        );
    }

    #[test]
    fn a_line_of_two_columns_wraps_under_its_second() {
        let screen = Screen {
            columns: 40,
            rows: 24,
        };
        let text = screen.wrap("  play <ally>    over the hand limit, or bidding on a test");
        assert_eq!(
            text,
            "  play <ally>    over the hand limit,\n                 or bidding on a test"
        );
    }

    #[test]
    fn a_screen_wraps_each_line_by_its_own_indent() {
        let screen = Screen {
            columns: 20,
            rows: 24,
        };
        let text = screen.wrap("    orange-1: knights P3 → knight-discard\nok");
        assert_eq!(
            text,
            "    orange-1:\n      knights P3 →\n      knight-discard\nok"
        );
    }
}
