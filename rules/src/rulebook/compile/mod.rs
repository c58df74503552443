//! Check and compile: the description's names become indices, its strings expressions and
//! effects over them. Every problem is a diagnostic pointing into the pack file (with
//! did-you-mean for names); all are reported, not only the first.

use std::ops::Range;

use grail_engine::cond::{Domain, Value};
use grail_engine::diag::Diagnostic;
use grail_schema::Pack;
use grail_schema::model::{Loc, Sp};

use super::model::{CardSet, Zone};
use super::syntax::{self, Ast, Node};

mod exprs;
pub mod named;
mod seats;
mod stages;
mod turn;
mod zones;

pub use seats::SEAT_FUNCTIONS;

/// What an expression stands for, for checking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Bool,
    Card(usize),
}

/// The names an expression may use where it is written.
#[derive(Clone, Copy)]
pub struct Scope {
    /// The card parameter's set, when the action has one.
    pub card: Option<usize>,
    /// The row parameter's zone, when the action has one.
    pub row: Option<usize>,
    /// `P` (a score) or not.
    pub player: bool,
    /// The action has a seat parameter (`seat`).
    pub seat: bool,
    /// The action has a player parameter (`target`).
    pub target: bool,
    /// The action has a number parameter (`number`).
    pub number: bool,
    /// The action has a figure parameter (`figure`, and `steps` with a distance).
    pub figure: bool,
    /// The action chooses figures (`choose`): `chosen` reads them.
    pub chosen: bool,
}

pub const NO_SCOPE: Scope = Scope {
    card: None,
    row: None,
    player: false,
    seat: false,
    target: false,
    number: false,
    figure: false,
    chosen: false,
};

pub(in crate::rulebook) const FUNCTIONS: &[&str] = &[
    "count", "sum", "last", "top", "top_card", "nonempty", "done", "fullest", "if", "best",
    "cheapest", "paying", "marked", "mine", "marks", "rising",
];

/// Most steps in all stages together: the state's step is a byte, and `step(…)` and the card
/// tables keep a bit per step in 64.
pub const MAX_STEPS: usize = 64;
/// Most zones (a tallied card keeps its zone's index in 15 bits; far more than any game).
pub const MAX_ZONES: usize = 1024;
/// Most stages besides `turn` (the state's stage is a byte).
pub const MAX_STAGES: usize = 64;
pub use super::model::MAX_NESTING;
/// Most actions: the actions done this turn are a bit each in 64.
pub const MAX_ACTIONS: usize = 64;
/// Most actions a step takes (`repeat`): they are counted in a byte.
pub const MAX_REPEAT: i64 = 255;
/// Most times the seats play a stage before the turns in all (`rounds` × players): counted
/// in 16 bits.
pub const MAX_STAGE_TURNS: i64 = u16::MAX as i64;

/// Functions read by `counters.rs` (`min`, `div`, `step`, …) and, on a ring, by
/// `ring_check.rs`: what an unknown function's did-you-mean offers besides [`FUNCTIONS`].
const MORE_FUNCTIONS: &[&str] = &[
    "min", "max", "div", "mod", "odds", "others", "each", "holder", "step",
];
const RING_FUNCTIONS: &[&str] = &[
    "empty",
    "plate",
    "placed",
    "unplaced",
    "seat",
    "most",
    "best_figure",
    "occupant",
    "owner",
    "total",
    "card",
];

pub struct Compiler<'p> {
    pub pack: &'p Pack,
    pub diags: Vec<Diagnostic>,
    pub sets: Vec<CardSet>,
    pub zones: Vec<Zone>,
    pub table_piles: usize,
    pub seat_piles: usize,
    /// Action names, known before their bodies compile (for `done(…)`), and their card
    /// parameter's set.
    pub action_names: Vec<String>,
    pub action_cards: Vec<Option<usize>>,
    /// The ring and its figures, when the game has one (`ring.rs`).
    pub board: Option<super::model::Board>,
    /// The roles held by whoever holds a card (`card_roles.rs`).
    pub card_roles: Vec<super::model::CardRole>,
    /// `[counters.*]` (`counters.rs`).
    pub counter_defs: Vec<super::model::Counter>,
    /// The stages before the turns (`stages.rs`) and how many steps the turn has.
    pub stages: Vec<super::model::Stage>,
    pub turn_steps: usize,
    /// The seat expressions owner arguments name (`model::Who::Seat`).
    pub seat_exprs: Vec<super::model::Expr>,
    /// The kinds (and card sets) `tally` lines count under, each once.
    pub effect_tallies: Vec<(String, Option<usize>)>,
    /// The attributes read in a situation (`bp(card, quest)`): the pack set's id and the
    /// attribute's name, for `unused-override`.
    pub situational_reads: Vec<(String, String)>,
    /// Some action's parameter was refused: the analyses of what the actions can take
    /// would only report its consequences.
    pub param_failed: bool,
    /// `[expressions]` (`named.rs`), and those being read in place now (innermost last).
    pub named: Vec<named::Named>,
    pub expanding: Vec<usize>,
    /// The parts the named expressions read in the present place have made (`named.rs`).
    pub expanded_parts: usize,
    /// `[texts]` by name (`texts.rs`), and those being read in place now.
    pub texts: Vec<(String, Sp<String>)>,
    pub reading_texts: Vec<usize>,
}

impl<'p> Compiler<'p> {
    pub fn new(pack: &'p Pack) -> Self {
        Compiler {
            pack,
            diags: Vec::new(),
            sets: Vec::new(),
            zones: Vec::new(),
            table_piles: 0,
            seat_piles: 0,
            action_names: Vec::new(),
            action_cards: Vec::new(),
            board: None,
            card_roles: Vec::new(),
            counter_defs: Vec::new(),
            stages: Vec::new(),
            turn_steps: 0,
            seat_exprs: Vec::new(),
            param_failed: false,
            effect_tallies: Vec::new(),
            situational_reads: Vec::new(),
            named: Vec::new(),
            expanding: Vec::new(),
            expanded_parts: 0,
            texts: Vec::new(),
            reading_texts: Vec::new(),
        }
    }

    pub(super) fn error(
        &mut self,
        code: &'static str,
        message: String,
        loc: &Loc,
        span: Range<usize>,
    ) {
        self.diags
            .push(Diagnostic::error(code, message).at(loc.source, span, "here"));
    }

    /// Where a string's text starts inside its quotes (`"…"` or `"""…"""`).
    fn inner(&self, s: &Sp<String>) -> usize {
        let text = &self.pack.sources().get(s.loc.source).text;
        let token = text.get(s.loc.span.clone()).unwrap_or("");
        if token.starts_with("\"\"\"") || token.starts_with("'''") {
            let after = s.loc.span.start + 3;
            after + usize::from(text[after..].starts_with('\n'))
        } else if token.starts_with('"') || token.starts_with('\'') {
            s.loc.span.start + 1
        } else {
            s.loc.span.start
        }
    }

    /// The span of `part` (a span inside the string `s`) in the file.
    /// The action an argument names (`done(challenge)`), or `unknown-action` with
    /// did-you-mean.
    pub(super) fn action_named(&mut self, arg: &Node, s: &Sp<String>) -> Option<usize> {
        let name = match &arg.ast {
            Ast::Name(n) => n.as_str(),
            _ => "",
        };
        if let Some(a) = self.action_names.iter().position(|n| n == name) {
            return Some(a);
        }
        let msg = grail_engine::diag::no_such(
            "action",
            name,
            self.action_names.iter().map(String::as_str),
        );
        let span = self.span(s, &arg.span);
        self.error("unknown-action", msg, &s.loc, span);
        None
    }

    pub(super) fn span(&self, s: &Sp<String>, part: &Range<usize>) -> Range<usize> {
        let base = self.inner(s);
        base + part.start..base + part.end
    }

    pub fn place(&self, s: &Sp<String>) -> String {
        let sources = self.pack.sources();
        let (line, col) = sources.line_col(s.loc.source, self.inner(s));
        // The file inside its pack: the same text wherever the pack folder lies.
        let name = &sources.get(s.loc.source).name;
        let file = std::path::Path::new(name)
            .file_name()
            .map_or(name.as_str(), |f| f.to_str().unwrap_or(name));
        format!("{file}:{line}:{col}")
    }

    /// An action's parameter, `name in <…>`, parsed; a syntax error is reported where it is.
    pub(in crate::rulebook) fn parameter(&mut self, def: &Sp<String>, name: &str) -> Option<Node> {
        match syntax::parameter(&def.value, name) {
            Ok(node) => Some(node),
            Err(e) => {
                self.syntax_error(def, e);
                None
            }
        }
    }

    pub(super) fn syntax_error(&mut self, s: &Sp<String>, e: syntax::SyntaxError) {
        let span = self.span(s, &e.span);
        self.error(e.code, e.message, &s.loc, span);
    }

    pub(super) fn set_index(&mut self, id: &Sp<String>) -> Option<usize> {
        if let Some(union) = self.union_set(id) {
            return union;
        }
        if let Some(i) = self.sets.iter().position(|s| s.id == id.value) {
            return Some(i);
        }
        let Some(set) = self.pack.sets.iter().find(|s| s.id == id.value) else {
            let known: Vec<&str> = self.pack.sets.iter().map(|s| s.id.as_str()).collect();
            let msg = grail_engine::diag::no_such("card set", &id.value, known);
            self.error("unknown-set", msg, &id.loc, id.loc.span.clone());
            return None;
        };
        let u = &set.universe;
        let values = (0..u.attrs.len())
            .map(|a| {
                (0..u.types.len())
                    .map(|t| match u.value(t, a) {
                        Some(Value::Int(v)) => v,
                        Some(Value::Sym(i)) => i64::from(i),
                        None => 0,
                    })
                    .collect()
            })
            .collect();
        let symbols = u
            .attrs
            .iter()
            .map(|a| match &a.domain {
                Domain::Symbols(names) => names.clone(),
                Domain::Int { .. } => Vec::new(),
            })
            .collect();
        let mut attrs: Vec<String> = u.attrs.iter().map(|a| a.name.clone()).collect();
        let (mut values, mut symbols): (Vec<Vec<i64>>, Vec<Vec<String>>) = (values, symbols);
        // A card's victory points read like a number attribute: `points(card)`.
        if set.cards.iter().any(|c| c.points.is_some()) && !attrs.iter().any(|a| a == "points") {
            attrs.push("points".into());
            values.push(set.cards.iter().map(|c| c.points.unwrap_or(0)).collect());
            symbols.push(Vec::new());
        }
        self.sets.push(CardSet {
            id: set.id.clone(),
            cards: set.cards.iter().map(|c| c.id.clone()).collect(),
            names: set.cards.iter().map(|c| c.name.clone()).collect(),
            copies: set.deck(),
            attrs,
            values,
            symbols,
            members: Vec::new(),
        });
        Some(self.sets.len() - 1)
    }
}
