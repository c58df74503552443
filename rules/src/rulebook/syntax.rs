//! Parsing the description's strings: expressions (guards, the end, scores, the bot's
//! worth), parameters (`card in hand(current)`) and effect lines (`move card to …`). A
//! small recursive-descent parser; every node keeps its byte span inside the string, so
//! the checker can point into the pack file.

use std::ops::Range;

#[derive(Clone, Debug, PartialEq)]
pub enum Ast {
    Num(i64),
    /// `$name`: a pack param.
    Param(String),
    /// A bare name: `card`, `row`, `current`, `P`, a zone.
    Name(String),
    /// `f(a, b)`: a function or a zone with its owner and row.
    Call(String, Vec<Node>),
    /// `action.param`: the parameter an action done this turn was given.
    Field(String, String),
    Bin(Op, Box<Node>, Box<Node>),
    Not(Box<Node>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    /// `/`: exact division, only in the bot's worth (`worth.rs`), which is reckoned in real
    /// numbers; whole numbers divide with `div(a, b)`.
    Div,
}

impl Op {
    pub fn text(self) -> &'static str {
        match self {
            Op::Or => "or",
            Op::And => "and",
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
        }
    }

    /// `+ - *` of two whole numbers, `None` on overflow or for any other operator: what the
    /// checker folds when it works a value out before play.
    pub fn arith(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Op::Add => a.checked_add(b),
            Op::Sub => a.checked_sub(b),
            Op::Mul => a.checked_mul(b),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub ast: Ast,
    pub span: Range<usize>,
}

/// A parse error: what and where (a span inside the string), and its diagnostic code
/// (`invalid-expression`, or `expression-too-deep` / `expression-too-long` past the limits).
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub code: &'static str,
    pub message: String,
    pub span: Range<usize>,
}

/// Deepest nesting of parentheses, function calls, `not` and minus signs in one expression
/// (as the condition language's `MAX_DEPTH`): the parser refuses more before it recurses
/// further, so no input can exhaust its stack.
pub const MAX_DEPTH: usize = 48;

/// Most parts (values and operators: `a + b` is three) in one expression or one effect
/// line. A chain of `+` or `and` is a tree as deep as it is long, and everything that walks a
/// parsed description walks it recursively: this bounds every such walk.
pub const MAX_NODES: usize = 256;

/// The operands of a chain of one operator, left to right (`a and b and c`, `Z1 + Z2`).
pub fn chain<'n>(n: &'n Node, op: Op, out: &mut Vec<&'n Node>) {
    match &n.ast {
        Ast::Bin(o, l, r) if *o == op => {
            chain(l, op, out);
            chain(r, op, out);
        }
        _ => out.push(n),
    }
}

/// An effect line.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    Shuffle(Node),
    /// `deal N from Z to Z(each)`: one card at a time, in seat order.
    Deal {
        count: Node,
        from: Node,
        to: Node,
    },
    /// `move card to Z`: the action's card parameter, from the zone it was drawn from;
    /// `move <card> from Z to Z2`: a card named otherwise (`move crown-of-camelot from
    /// treasures(king) to treasures(P)`), its first copy in `Z`.
    Move {
        card: Node,
        from: Option<Node>,
        to: Node,
    },
    /// `draw N from Z to Z`: from the top of a stack or the end of a row; `draw N at random
    /// from Z to Z`: each card any of the pile's, alike.
    Draw {
        count: Node,
        random: bool,
        from: Node,
        to: Node,
    },
    /// `reveal Z into R until E`: top cards of a stack into their rows until `E` holds.
    Reveal {
        from: Node,
        into: Node,
        until: Node,
    },
    /// `mark card`.
    Mark(Node),
    /// `turn up Z` or `turn down Z`.
    Turn {
        zone: Node,
        up: bool,
    },
    /// `show Z to S`.
    Show {
        zone: Node,
        to: Node,
    },
    /// `award marked rows of Z to Z2`.
    Award {
        zone: Node,
        to: Node,
    },
    /// `place F at S`: a figure onto a seat of the ring.
    Place {
        figure: Node,
        seat: Node,
    },
    /// `step F by N`: a figure round the ring.
    Step {
        figure: Node,
        by: Node,
    },
    /// `add N to C`: to a counter (`score(current)`, `supply`, `rings(figure)`).
    Add {
        amount: Node,
        to: Node,
    },
    /// `give R to F`: a role to a figure.
    Give {
        role: Node,
        to: Node,
    },
    /// `tally <kind> [card]`: a count for the balance report, under a kind (and a card).
    Tally {
        kind: Node,
        item: Option<Node>,
    },
    /// `set C to N`: a counter to a value.
    Set {
        counter: Node,
        value: Node,
    },
    /// `for each P in <seats> [from <seat>]: <statement>`: the statement once per seat of
    /// the set, in turn order (from the seat named), `P` naming the seat (the line's `if` is
    /// read per seat too).
    ForEach {
        seats: Node,
        from: Option<Node>,
        body: Box<Statement>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub statement: Statement,
    pub span: Range<usize>,
    /// `… if <condition>`: the effect happens only when it holds.
    pub guard: Option<Node>,
}

/// Words that end an expression inside a statement or parameter.
const KEYWORDS: &[&str] = &["from", "to", "in", "and", "or", "not", "if"];

pub fn expression(text: &str) -> Result<Node, SyntaxError> {
    let mut p = Parser::new(text, 0);
    let node = p.expr()?;
    p.end()?;
    Ok(node)
}

/// `name in <zone>`: a parameter drawn from a zone.
pub fn parameter(text: &str, name: &str) -> Result<Node, SyntaxError> {
    let mut p = Parser::new(text, 0);
    p.word(name)?;
    p.word("in")?;
    let zone = p.expr()?;
    p.end()?;
    Ok(zone)
}

/// A step's `repeat = "while <condition>"`: the condition, or `None` when the text is a
/// count (no `while`).
pub fn repeat_while(text: &str) -> Option<Result<Node, SyntaxError>> {
    let mut p = Parser::new(text, 0);
    if !p.keyword("while") {
        return None;
    }
    Some(p.expr().and_then(|node| p.end().map(|()| node)))
}

/// A step's `who`, as written.
pub enum DecidersAst {
    /// `<each|first> P in <seats> [from <seat>]`: whether the first to act ends it, the
    /// seats, where the order starts.
    Seats {
        first: bool,
        seats: Node,
        from: Option<Node>,
    },
    /// One seat, any seat expression (`sponsor`, `holder(king)`): it alone decides.
    One(Node),
}

/// A step's `who`: `<each|first> P in <seats> [from <seat>]`, or one seat.
pub fn deciders(text: &str) -> Result<DecidersAst, SyntaxError> {
    let mut p = Parser::new(text, 0);
    let first = match p.peek_ident() {
        Some(("each", span)) => {
            p.pos = span.end;
            false
        }
        Some(("first", span)) => {
            p.pos = span.end;
            true
        }
        _ => {
            let seat = p.expr()?;
            p.end()?;
            return Ok(DecidersAst::One(seat));
        }
    };
    p.word("P")?;
    p.word("in")?;
    let seats = p.expr()?;
    let from = if p.keyword("from") {
        Some(p.expr()?)
    } else {
        None
    };
    p.end()?;
    Ok(DecidersAst::Seats { first, seats, from })
}

/// Effect lines, one statement a line; blank lines and `#` comments are skipped.
pub fn statements(text: &str) -> Result<Vec<Line>, SyntaxError> {
    let mut out = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.split('#').next().unwrap_or("");
        if !line.trim().is_empty() {
            let mut p = Parser::new(line, offset);
            let start = offset + (line.len() - line.trim_start().len());
            let statement = p.statement()?;
            let guard = if p.keyword("if") {
                Some(p.expr()?)
            } else {
                None
            };
            p.end()?;
            let end = offset + line.trim_end().len();
            out.push(Line {
                guard,
                statement,
                span: start..end,
            });
        }
        offset += raw.len();
    }
    Ok(out)
}

struct Parser<'t> {
    text: &'t str,
    pos: usize,
    /// Where `text` starts in the whole string.
    base: usize,
    /// How deep the parser is nested now ([`MAX_DEPTH`]).
    depth: usize,
    /// Nodes made so far ([`MAX_NODES`]).
    nodes: usize,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str, base: usize) -> Self {
        Parser {
            text,
            pos: 0,
            base,
            depth: 0,
            nodes: 0,
        }
    }

    /// One level deeper (a parenthesis, a call, `not`, a minus sign), refused past
    /// [`MAX_DEPTH`] before anything recurses; [`Parser::leave`] undoes it.
    fn enter(&mut self, start: usize) -> Result<(), SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let end = (start + 1).min(self.text.len()).max(start);
            return Err(SyntaxError {
                code: "expression-too-deep",
                message: format!("this expression nests more than {MAX_DEPTH} levels deep"),
                span: self.base + start..self.base + end,
            });
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Counts a node, refused past [`MAX_NODES`].
    fn count(&mut self, start: usize) -> Result<(), SyntaxError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            let end = self.pos.max(start + 1).min(self.text.len()).max(start);
            return Err(SyntaxError {
                code: "expression-too-long",
                message: format!(
                    "this expression has more than {MAX_NODES} parts (values and operators)"
                ),
                span: self.base + start..self.base + end,
            });
        }
        Ok(())
    }

    fn error<T>(&self, message: impl Into<String>, span: Range<usize>) -> Result<T, SyntaxError> {
        Err(SyntaxError {
            code: "invalid-expression",
            message: message.into(),
            span: self.base + span.start..self.base + span.end,
        })
    }

    fn skip_space(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// The identifier at the cursor, without taking it.
    fn peek_ident(&mut self) -> Option<(&'t str, Range<usize>)> {
        self.skip_space();
        let rest = &self.text[self.pos..];
        let first = rest.chars().next()?;
        if !(first.is_ascii_alphabetic() || first == '_') {
            return None;
        }
        let bytes = rest.as_bytes();
        let mut len = 0;
        while len < bytes.len() {
            let c = bytes[len];
            let inner_dash = c == b'-'
                && bytes
                    .get(len + 1)
                    .is_some_and(|n| n.is_ascii_alphanumeric());
            if c.is_ascii_alphanumeric() || c == b'_' || inner_dash {
                len += 1;
            } else {
                break;
            }
        }
        Some((&rest[..len], self.pos..self.pos + len))
    }

    fn word(&mut self, word: &str) -> Result<Range<usize>, SyntaxError> {
        match self.peek_ident() {
            Some((w, span)) if w == word => {
                self.pos = span.end;
                Ok(span)
            }
            _ => {
                let at = self.pos;
                let end = (at + 1).min(self.text.len()).max(at);
                self.error(format!("expected `{word}`"), at..end)
            }
        }
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_space();
        if self.text[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn end(&mut self) -> Result<(), SyntaxError> {
        self.skip_space();
        if self.pos < self.text.len() {
            let end = self.text.len();
            return self.error("unexpected text", self.pos..end);
        }
        Ok(())
    }

    fn statement(&mut self) -> Result<Statement, SyntaxError> {
        let Some((verb, span)) = self.peek_ident() else {
            let at = self.pos;
            return self.error(
                "expected an effect: shuffle, deal, move, draw, reveal, turn, mark, award, place, step, add, set, give, tally or for each",
                at..at + 1,
            );
        };
        self.pos = span.end;
        match verb {
            "shuffle" => Ok(Statement::Shuffle(self.expr()?)),
            "deal" | "draw" => {
                let count = self.expr()?;
                let random = verb == "draw"
                    && match self.peek_ident() {
                        Some(("at", span)) => {
                            self.pos = span.end;
                            self.word("random")?;
                            true
                        }
                        _ => false,
                    };
                self.word("from")?;
                let from = self.expr()?;
                self.word("to")?;
                let to = self.expr()?;
                Ok(if verb == "deal" {
                    Statement::Deal { count, from, to }
                } else {
                    Statement::Draw {
                        count,
                        random,
                        from,
                        to,
                    }
                })
            }
            "reveal" => {
                let from = self.expr()?;
                self.word("into")?;
                let into = self.expr()?;
                self.word("until")?;
                let until = self.expr()?;
                Ok(Statement::Reveal { from, into, until })
            }
            "mark" => Ok(Statement::Mark(self.expr()?)),
            "turn" => {
                let up = match self.peek_ident() {
                    Some((w @ ("up" | "down"), span)) => {
                        self.pos = span.end;
                        w == "up"
                    }
                    _ => {
                        let at = self.pos;
                        let end = (at + 1).min(self.text.len()).max(at);
                        return self.error("expected `up` or `down`: `turn up stages(P)`", at..end);
                    }
                };
                let zone = self.expr()?;
                Ok(Statement::Turn { zone, up })
            }
            "show" => {
                let zone = self.expr()?;
                self.word("to")?;
                let to = self.expr()?;
                Ok(Statement::Show { zone, to })
            }
            "award" => {
                self.word("marked")?;
                self.word("rows")?;
                self.word("of")?;
                let zone = self.expr()?;
                self.word("to")?;
                let to = self.expr()?;
                Ok(Statement::Award { zone, to })
            }
            "move" => {
                let card = self.expr()?;
                let from = match self.keyword("from") {
                    true => Some(self.expr()?),
                    false => None,
                };
                self.word("to")?;
                let to = self.expr()?;
                Ok(Statement::Move { card, from, to })
            }
            "place" => {
                let figure = self.expr()?;
                self.word("at")?;
                let seat = self.expr()?;
                Ok(Statement::Place { figure, seat })
            }
            "tally" => {
                let kind = self.tally_kind()?;
                self.skip_space();
                let rest = &self.text[self.pos..];
                let item = match self.peek_ident() {
                    _ if rest.trim().is_empty() || rest.trim_start().starts_with('#') => None,
                    Some(("if", _)) => None,
                    _ => Some(self.expr()?),
                };
                Ok(Statement::Tally { kind, item })
            }
            "set" => {
                let counter = self.expr()?;
                self.word("to")?;
                let value = self.expr()?;
                Ok(Statement::Set { counter, value })
            }
            "add" | "give" => {
                let what = self.expr()?;
                self.word("to")?;
                let to = self.expr()?;
                Ok(if verb == "add" {
                    Statement::Add { amount: what, to }
                } else {
                    Statement::Give { role: what, to }
                })
            }
            "step" => {
                let figure = self.expr()?;
                self.word("by")?;
                let by = self.expr()?;
                Ok(Statement::Step { figure, by })
            }
            "for" => {
                self.word("each")?;
                self.word("P")?;
                self.word("in")?;
                let seats = self.expr()?;
                let from = match self.peek_ident() {
                    Some(("from", span)) => {
                        self.pos = span.end;
                        Some(self.expr()?)
                    }
                    _ => None,
                };
                if !self.eat(":") {
                    let at = self.pos;
                    return self.error(
                        "expected `:` and the effect for each seat",
                        at..(at + 1).min(self.text.len()).max(at),
                    );
                }
                self.skip_space();
                let inner = self.pos;
                let body = self.statement()?;
                if let Statement::ForEach { .. } = body {
                    // `P` would name two seats at once.
                    let end = self.text.trim_end().len().max(inner);
                    return self.error("one `for each` per line: `P` names one seat", inner..end);
                }
                Ok(Statement::ForEach {
                    seats,
                    from,
                    body: Box::new(body),
                })
            }
            other => self.error(
                format!(
                    "`{other}` is not an effect; the effects are shuffle, deal, move, draw, reveal, turn, mark, award, place, step, add, set, give, tally, for each"
                ),
                span,
            ),
        }
    }

    /// A tally's kind: a word (`tally trick-won`) or words in quotes, as the balance report
    /// prints them (`tally "quest completed" shown`).
    fn tally_kind(&mut self) -> Result<Node, SyntaxError> {
        self.skip_space();
        let start = self.pos;
        let rest = &self.text[start..];
        let Some(quoted) = rest.strip_prefix('"') else {
            return self.expr();
        };
        let Some(len) = quoted
            .find(['"', '\n'])
            .filter(|&n| quoted[n..].starts_with('"'))
        else {
            return self.error("the tally's kind has no closing `\"`", start..start + 1);
        };
        let words = quoted[..len].trim();
        if words.is_empty() {
            return self.error(
                "the tally's kind is empty: `tally \"quest won\" card`",
                start..start + len + 2,
            );
        }
        let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
        self.pos = start + len + 2;
        self.node(Ast::Name(words), start)
    }

    fn node(&mut self, ast: Ast, start: usize) -> Result<Node, SyntaxError> {
        self.count(start)?;
        Ok(Node {
            ast,
            span: self.base + start..self.base + self.pos,
        })
    }

    fn expr(&mut self) -> Result<Node, SyntaxError> {
        self.skip_space();
        let start = self.pos;
        let mut left = self.and()?;
        while self.keyword("or") {
            let right = self.and()?;
            left = self.node(Ast::Bin(Op::Or, Box::new(left), Box::new(right)), start)?;
        }
        Ok(left)
    }

    fn keyword(&mut self, word: &str) -> bool {
        match self.peek_ident() {
            Some((w, span)) if w == word => {
                self.pos = span.end;
                true
            }
            _ => false,
        }
    }

    fn and(&mut self) -> Result<Node, SyntaxError> {
        self.skip_space();
        let start = self.pos;
        let mut left = self.not()?;
        while self.keyword("and") {
            let right = self.not()?;
            left = self.node(Ast::Bin(Op::And, Box::new(left), Box::new(right)), start)?;
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Node, SyntaxError> {
        self.skip_space();
        let start = self.pos;
        if self.keyword("not") {
            self.enter(start)?;
            let inner = self.not()?;
            self.leave();
            return self.node(Ast::Not(Box::new(inner)), start);
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Node, SyntaxError> {
        self.skip_space();
        let start = self.pos;
        let left = self.sum()?;
        let op = [
            ("!=", Op::Ne),
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("=", Op::Eq),
            ("<", Op::Lt),
            (">", Op::Gt),
        ]
        .into_iter()
        .find(|(s, _)| self.eat(s));
        let Some((_, op)) = op else {
            return Ok(left);
        };
        let right = self.sum()?;
        self.node(Ast::Bin(op, Box::new(left), Box::new(right)), start)
    }

    fn sum(&mut self) -> Result<Node, SyntaxError> {
        self.skip_space();
        let start = self.pos;
        let mut left = self.product()?;
        loop {
            let op = if self.eat("+") {
                Op::Add
            } else if self.eat("-") {
                Op::Sub
            } else {
                return Ok(left);
            };
            let right = self.product()?;
            left = self.node(Ast::Bin(op, Box::new(left), Box::new(right)), start)?;
        }
    }

    fn product(&mut self) -> Result<Node, SyntaxError> {
        self.skip_space();
        let start = self.pos;
        let mut left = self.primary()?;
        loop {
            let op = if self.eat("*") {
                Op::Mul
            } else if self.eat("/") {
                Op::Div
            } else {
                return Ok(left);
            };
            let right = self.primary()?;
            left = self.node(Ast::Bin(op, Box::new(left), Box::new(right)), start)?;
        }
    }

    fn primary(&mut self) -> Result<Node, SyntaxError> {
        self.skip_space();
        let start = self.pos;
        let rest = &self.text[self.pos..];
        if self.eat("(") {
            self.enter(start)?;
            let inner = self.expr()?;
            self.leave();
            if !self.eat(")") {
                let at = self.pos;
                return self.error("expected `)`", at..at + 1);
            }
            return Ok(inner);
        }
        // A minus sign before a value: `-1`, `-value(card)`.
        if self.eat("-") {
            self.count(start)?;
            let zero = Node {
                ast: Ast::Num(0),
                span: self.base + start..self.base + start + 1,
            };
            self.enter(start)?;
            let inner = self.primary()?;
            self.leave();
            return self.node(Ast::Bin(Op::Sub, Box::new(zero), Box::new(inner)), start);
        }
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            let len = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let Ok(n) = rest[..len].parse::<i64>() else {
                return self.error("number too large", start..start + len);
            };
            self.pos += len;
            return self.node(Ast::Num(n), start);
        }
        if self.eat("$") {
            let Some((name, span)) = self.peek_ident() else {
                return self.error("expected a param name after `$`", start..start + 1);
            };
            self.pos = span.end;
            return self.node(Ast::Param(name.to_string()), start);
        }
        let Some((name, span)) = self.peek_ident() else {
            let end = (start + 1).min(self.text.len());
            return self.error("expected a value", start..end.max(start));
        };
        // `if(c, a, b)` is a value; `if` alone starts an effect line's guard.
        let call = self.text[span.end..].starts_with('(');
        if KEYWORDS.contains(&name) && !(name == "if" && call) {
            return self.error(format!("expected a value before `{name}`"), span);
        }
        self.pos = span.end;
        if self.text[self.pos..].starts_with('.') {
            self.pos += 1;
            let Some((field, fspan)) = self.peek_ident() else {
                let at = self.pos;
                return self.error("expected a parameter name after `.`", at..at + 1);
            };
            self.pos = fspan.end;
            return self.node(Ast::Field(name.to_string(), field.to_string()), start);
        }
        // A name ends where it is written, not after the space (or line break) looked past
        // for a `(`.
        let name_end = self.pos;
        if self.eat("(") {
            self.enter(start)?;
            let mut args = Vec::new();
            if !self.eat(")") {
                loop {
                    args.push(self.expr()?);
                    if self.eat(")") {
                        break;
                    }
                    if !self.eat(",") {
                        let at = self.pos;
                        return self.error("expected `,` or `)`", at..at + 1);
                    }
                }
            }
            self.leave();
            return self.node(Ast::Call(name.to_string(), args), start);
        }
        self.pos = name_end;
        self.node(Ast::Name(name.to_string()), start)
    }
}

#[cfg(test)]
#[path = "syntax_tests.rs"]
mod tests;
