//! Queries answered in words (`[queries]` values with `{…}` holes): a text with values in
//! it, chosen parts and parts repeated for each figure of a kind, so a game's script
//! questions read as its players say them (`seat 4` → `King (silver, 3 rings)`).
//!
//! ```toml
//! "seat S" = "{if empty(seat)}·{else if owner(occupant(seat)) >= 0}P{owner(occupant(seat)) + 1} Knight{else}Prince ({color(occupant(seat))}){end}"
//! "rings" = "{for figure in prince}{card(figure)} {rings(figure)}, {end}supply {$rings - total(rings, prince)}"
//! ```
//!
//! The same texts say why a move is refused (`[actions.*] why`), for players: there a card
//! shows its name, and `$param`s in the words their values.
//!
//! A hole shows its value as what it is: a number, a card by its id (`{plate(seat)}`), a named
//! attribute by its name (`{color(figure)}`); `{name(<card>)}` shows the card's name for
//! players, `{current}` and `{P}` a seat (`P2`). `{if c}…{else if c}…{else}…{end}` keeps one
//! part; `{for figure in <kind>}…{end}` repeats its part for each figure of the kind, in
//! figure order, with `figure` bound to it, and `{for P in each}…{end}` for each seat, in
//! seat order, with `P` bound to it (`"questors" = "{for P in each}{if questing(P) = 1}{P}
//! {end}{end}"`: `P2 P3`).

use grail_engine::diag::Diagnostic;
use grail_schema::model::{Sp, Visibility};

use super::Rulebook;
use super::compile::{Compiler, Kind, Scope};
use super::eval::Ctx;
use super::model::{Expr, Piece, Shown, TYPE_MASK, Who};
use super::syntax::{self, Ast, Node};

/// A piece of a template before it is built into the tree: literal text or a hole (its text
/// and where it starts in the string).
enum Token<'t> {
    Text(&'t str),
    Hole(&'t str, usize),
}

fn tokens(text: &str) -> Result<Vec<Token<'_>>, (String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(open) = text[rest..].find('{').map(|i| rest + i) {
        if open > rest {
            out.push(Token::Text(&text[rest..open]));
        }
        let Some(close) = text[open..].find('}').map(|i| open + i) else {
            return Err(("a `{` without its `}`".into(), open..open + 1));
        };
        out.push(Token::Hole(&text[open + 1..close], open + 1));
        rest = close + 1;
    }
    if rest < text.len() {
        out.push(Token::Text(&text[rest..]));
    }
    Ok(out)
}

/// Moves every span of a node parsed from a part of a string to where it is in the string.
fn shift(node: &mut Node, by: usize) {
    node.span = node.span.start + by..node.span.end + by;
    match &mut node.ast {
        Ast::Call(_, args) => args.iter_mut().for_each(|a| shift(a, by)),
        Ast::Bin(_, l, r) => {
            shift(l, by);
            shift(r, by);
        }
        Ast::Not(inner) => shift(inner, by),
        _ => {}
    }
}

/// The most named texts one text may reach through others.
const MOST_TEXTS: usize = 6;

/// What ends a part: `{else if …}`, `{else}`, `{end}`, or the end of the text.
enum Stop {
    ElseIf(Expr),
    Else,
    End,
    Done,
}

impl Compiler<'_> {
    /// `[texts] status` is shown to every seat: reading the cards of a zone some seats
    /// cannot see (`visible = "owner"` or `"count"`) shows them to all (a warning; how many
    /// cards a zone holds is public).
    pub(super) fn check_status_reads(&mut self, text: &Sp<String>, pieces: &[Piece]) {
        let mut hidden: Vec<usize> = Vec::new();
        let mut note = |e: &Expr| {
            super::reads::cards_read(e, &mut |z| {
                if self
                    .zones
                    .get(z)
                    .is_some_and(|z| z.visible != Visibility::Public)
                    && !hidden.contains(&z)
                {
                    hidden.push(z);
                }
            })
        };
        fn walk(pieces: &[Piece], note: &mut impl FnMut(&Expr)) {
            for p in pieces {
                match p {
                    Piece::Value(e, _) | Piece::Name(e, _) => note(e),
                    Piece::Choice(parts, last) => {
                        for (cond, part) in parts {
                            note(cond);
                            walk(part, note);
                        }
                        walk(last, note);
                    }
                    Piece::ForSeats(body) | Piece::ForEach { body, .. } => walk(body, note),
                    Piece::Text(_) | Piece::Seat(_) => {}
                }
            }
        }
        walk(pieces, &mut note);
        for z in hidden {
            let name = &self.zones[z].name;
            let msg = format!(
                "the table's head line (`[texts] status`) reads the cards of `{name}`, which \
                     not every seat sees: every seat is shown it"
            );
            let d = Diagnostic::warning("status-hidden", msg)
                    .at(text.loc.source, text.loc.span.clone(), "shown to every seat")
                    .with_help(format!(
                        "read only what every seat sees: how many cards `{name}` holds (`count({name})`), or the cards of a public zone"
                    ));
            self.diags.push(d);
        }
    }

    /// A text with holes; `None` (with errors reported) when it does not compile. For
    /// `players` (an action's `why`), a card shows its name and `$param`s in the words their
    /// values; for scripts (a query), a card shows its id.
    pub(super) fn template(
        &mut self,
        s: &Sp<String>,
        scope: Scope,
        players: bool,
    ) -> Option<Vec<Piece>> {
        let tokens = match tokens(&s.value) {
            Ok(t) => t,
            Err((message, span)) => {
                let at = self.span(s, &span);
                self.error("invalid-expression", message, &s.loc, at);
                return None;
            }
        };
        // `{if …}` and `{for …}` parts nest, and are read and shown recursively: as deep as
        // an expression may nest, no deeper.
        let mut depth = 0usize;
        for token in &tokens {
            let Token::Hole(hole, start) = token else {
                continue;
            };
            match hole.split_whitespace().next() {
                Some("if" | "for") => depth += 1,
                Some("end") => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth > syntax::MAX_DEPTH {
                let at = self.span(s, &(*start..start + hole.len()));
                let msg = format!(
                    "this text nests more than {} `{{if …}}` or `{{for …}}` parts",
                    syntax::MAX_DEPTH
                );
                self.error("expression-too-deep", msg, &s.loc, at);
                return None;
            }
        }
        let mut at = 0;
        let (pieces, stop) = self.part(&tokens, &mut at, s, scope, players)?;
        if !matches!(stop, Stop::Done) {
            let at = self.span(s, &(0..s.value.len()));
            let msg = "`{else}` or `{end}` without its `{if …}` or `{for …}`".into();
            self.error("invalid-expression", msg, &s.loc, at);
            return None;
        }
        Some(pieces)
    }

    /// An expression written in a hole, `skip` bytes into it.
    fn hole_expr(&mut self, hole: &str, start: usize, skip: usize, s: &Sp<String>) -> Option<Node> {
        match syntax::expression(&hole[skip..]) {
            Ok(mut node) => {
                shift(&mut node, start + skip);
                Some(node)
            }
            Err(mut e) => {
                e.span = e.span.start + start + skip..e.span.end + start + skip;
                self.syntax_error(s, e);
                None
            }
        }
    }

    /// Pieces up to the next `{else …}`, `{end}` or the end.
    fn part(
        &mut self,
        tokens: &[Token],
        at: &mut usize,
        s: &Sp<String>,
        scope: Scope,
        players: bool,
    ) -> Option<(Vec<Piece>, Stop)> {
        let mut out = Vec::new();
        while let Some(token) = tokens.get(*at) {
            *at += 1;
            let (hole, start) = match token {
                Token::Text(t) if players => {
                    self.fill_params(t, &mut out);
                    continue;
                }
                Token::Text(t) => {
                    out.push(Piece::Text(t.to_string()));
                    continue;
                }
                Token::Hole(h, start) => (*h, *start),
            };
            let words: Vec<&str> = hole.split_whitespace().collect();
            let lead = hole.len() - hole.trim_start().len();
            match words.as_slice() {
                ["end"] => return Some((out, Stop::End)),
                ["else"] => return Some((out, Stop::Else)),
                ["else", "if", ..] => {
                    let skip = lead + hole.trim_start().find("if")? + 2;
                    let node = self.hole_expr(hole, start, skip, s)?;
                    let cond = self.typed(&node, s, scope, Kind::Bool)?;
                    return Some((out, Stop::ElseIf(cond)));
                }
                ["if", ..] => {
                    let node = self.hole_expr(hole, start, lead + 2, s)?;
                    let cond = self.typed(&node, s, scope, Kind::Bool)?;
                    out.push(self.choice(cond, tokens, at, s, scope, players)?);
                }
                ["for", "P", "in", "each"] => {
                    let inner = Scope {
                        player: true,
                        ..scope
                    };
                    let body = self.loop_body(tokens, at, s, inner, players, (start, hole))?;
                    out.push(Piece::ForSeats(body));
                }
                ["for", "P", ..] => {
                    let at = self.span(s, &(start..start + hole.len()));
                    let msg = "a text goes through the seats as `{for P in each}…{end}`, in seat \
                               order"
                        .into();
                    self.error("invalid-expression", msg, &s.loc, at);
                    return None;
                }
                ["for", "figure", "in", ..] => {
                    let skip = lead + hole.trim_start().find("in")? + 2;
                    let node = self.hole_expr(hole, start, skip, s)?;
                    if scope.seat {
                        let at = self.span(s, &(start..start + hole.len()));
                        let msg = "a query naming a seat (`S`) cannot go through figures: both are read as `seat`".into();
                        self.error("invalid-expression", msg, &s.loc, at);
                        return None;
                    }
                    let (kind, who) = self.figure_ref(&node, s, scope)?;
                    let inner = Scope {
                        figure: true,
                        ..scope
                    };
                    let body = self.loop_body(tokens, at, s, inner, players, (start, hole))?;
                    out.push(Piece::ForEach { kind, who, body });
                }
                [word] if let Some(k) = self.texts.iter().position(|(n, _)| n == word) => {
                    let text = self.texts[k].1.clone();
                    if self.reading_texts.contains(&k) || self.reading_texts.len() >= MOST_TEXTS {
                        let at = self.span(s, &(start..start + hole.len()));
                        let msg = match self.reading_texts.contains(&k) {
                            true => format!("the named text `{word}` reads itself"),
                            false => format!(
                                "`{word}` is reached through {MOST_TEXTS} named texts: at most {MOST_TEXTS} deep"
                            ),
                        };
                        self.error("expression-too-deep", msg, &s.loc, at);
                        return None;
                    }
                    // Read in this place (its `P`, `card` and words are this text's), and
                    // said wrong where it is written.
                    self.reading_texts.push(k);
                    let pieces = self.template(&text, scope, players);
                    self.reading_texts.pop();
                    out.extend(pieces?);
                }
                ["current"] => out.push(Piece::Seat(Who::Current)),
                ["P"] if scope.player => out.push(Piece::Seat(Who::Player)),
                _ => {
                    let node = self.hole_expr(hole, start, 0, s)?;
                    out.push(self.value_piece(&node, s, scope, players)?);
                }
            }
        }
        Some((out, Stop::Done))
    }

    /// The part a `{for …}` (the hole `opened`, and where it starts) repeats, up to its
    /// `{end}`.
    fn loop_body(
        &mut self,
        tokens: &[Token],
        at: &mut usize,
        s: &Sp<String>,
        scope: Scope,
        players: bool,
        (start, hole): (usize, &str),
    ) -> Option<Vec<Piece>> {
        let (body, stop) = self.part(tokens, at, s, scope, players)?;
        if !matches!(stop, Stop::End) {
            return self.unclosed(s, start, hole, "for");
        }
        Some(body)
    }

    fn unclosed<T>(&mut self, s: &Sp<String>, start: usize, hole: &str, what: &str) -> Option<T> {
        let at = self.span(s, &(start..start + hole.len()));
        let msg = format!("`{{{what} …}}` needs its `{{end}}`");
        self.error("invalid-expression", msg, &s.loc, at);
        None
    }

    /// The parts of an `{if …}` after its condition, up to its `{end}`.
    fn choice(
        &mut self,
        first: Expr,
        tokens: &[Token],
        at: &mut usize,
        s: &Sp<String>,
        scope: Scope,
        players: bool,
    ) -> Option<Piece> {
        let open = *at;
        let mut arms = Vec::new();
        let mut cond = first;
        loop {
            let (body, stop) = self.part(tokens, at, s, scope, players)?;
            arms.push((cond, body));
            match stop {
                Stop::ElseIf(c) => cond = c,
                Stop::End => return Some(Piece::Choice(arms, Vec::new())),
                Stop::Else => {
                    let (last, stop) = self.part(tokens, at, s, scope, players)?;
                    if !matches!(stop, Stop::End) {
                        break;
                    }
                    return Some(Piece::Choice(arms, last));
                }
                Stop::Done => break,
            }
        }
        let (hole, start) = match tokens.get(open - 1) {
            Some(Token::Hole(h, start)) => (*h, *start),
            _ => ("", 0),
        };
        self.unclosed(s, start, hole, "if")
    }

    /// A hole with a value: `{name(card)}`, or an expression shown as what it is.
    fn value_piece(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
        players: bool,
    ) -> Option<Piece> {
        if let Ast::Call(f, args) = &node.ast
            && f == "name"
            && let [card] = args.as_slice()
        {
            let (e, kind) = self.expr(card, s, scope)?;
            let Kind::Card(set) = kind else {
                let at = self.span(s, &card.span);
                self.error(
                    "type-mismatch",
                    "`name(…)` shows a card's name: expected a card".into(),
                    &s.loc,
                    at,
                );
                return None;
            };
            return Some(Piece::Name(e, set));
        }
        let (e, kind) = self.expr(node, s, scope)?;
        let shown = match kind {
            Kind::Card(set) if players => return Some(Piece::Name(e, set)),
            Kind::Card(set) => Shown::Card(set),
            Kind::Int => match self.symbol_attr(&e) {
                Some((set, attr)) => Shown::Symbol(set, attr),
                None => Shown::Number,
            },
            Kind::Bool => {
                let at = self.span(s, &node.span);
                let msg = "a hole shows a value; a condition chooses a part: `{if …}…{end}`".into();
                self.error("type-mismatch", msg, &s.loc, at);
                return None;
            }
        };
        Some(Piece::Value(e, shown))
    }
}

impl Rulebook {
    /// The text of a template in a state.
    pub(super) fn render_text(&self, pieces: &[Piece], ctx: &Ctx, out: &mut String) {
        for piece in pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Value(e, shown) => {
                    let v = self.eval(e, ctx);
                    let name = |names: &[String]| {
                        usize::try_from(v)
                            .ok()
                            .and_then(|i| names.get(i))
                            .map_or("?".to_string(), Clone::clone)
                    };
                    // A card is its type (a marked card carries its mark above it).
                    let card = |v: i64| if v < 0 { v } else { v & i64::from(TYPE_MASK) };
                    let text = match *shown {
                        Shown::Number => v.to_string(),
                        Shown::Card(set) => {
                            let names = &self.sets[set].cards;
                            usize::try_from(card(v))
                                .ok()
                                .and_then(|i| names.get(i))
                                .map_or("?".to_string(), Clone::clone)
                        }
                        Shown::Symbol(set, attr) => name(&self.sets[set].symbols[attr]),
                    };
                    out.push_str(&text);
                }
                Piece::Name(e, set) => {
                    let v = self.eval(e, ctx);
                    let v = if v < 0 { v } else { v & i64::from(TYPE_MASK) };
                    let names = &self.sets[*set].names;
                    out.push_str(
                        usize::try_from(v)
                            .ok()
                            .and_then(|i| names.get(i))
                            .map_or("?", |n| n),
                    );
                }
                Piece::Seat(who) => {
                    let seat = match who {
                        Who::Player => ctx.player,
                        _ => usize::from(ctx.state.current),
                    };
                    out.push_str(&format!("P{}", seat + 1));
                }
                Piece::Choice(arms, last) => {
                    let part = arms
                        .iter()
                        .find(|(c, _)| self.eval(c, ctx) != 0)
                        .map_or(last.as_slice(), |(_, p)| p.as_slice());
                    self.render_text(part, ctx, out);
                }
                Piece::ForSeats(body) => {
                    for p in 0..usize::from(ctx.state.players) {
                        let inner = Ctx { player: p, ..*ctx };
                        self.render_text(body, &inner, out);
                    }
                }
                Piece::ForEach { kind, who, body } => {
                    let (Some(board), Some(f)) = (&self.board, &ctx.state.figures.0) else {
                        continue;
                    };
                    let owner = match who {
                        Who::Current => Some(usize::from(ctx.state.current)),
                        Who::Player => Some(ctx.player),
                        _ => None,
                    };
                    for m in board.members(f, *kind, owner) {
                        let inner = Ctx {
                            args: ctx.args.with_figure(m, 0),
                            ..*ctx
                        };
                        self.render_text(body, &inner, out);
                    }
                }
            }
        }
    }
}
