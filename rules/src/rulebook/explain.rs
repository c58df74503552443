//! What the terminal says about a described game beyond its moves, all derived from the
//! pack: the step being decided (from the step and action names), a legend line under
//! zones kept in rows by an explained attribute, each visible card's text (or its
//! condition in words) where the table lists it, and each seat's score split into the
//! top-level terms of `[end] score`, each labelled by its source text. (The scoring rule
//! and the legends in the help come from the pack, for every game, in the CLI.)

use std::fmt::Write;

use grail_engine::cond::words::describe;
use grail_engine::game::Seat;
use grail_schema::Pack;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::model::{CardSet, Effect, Expr};
use super::state::State;
use super::syntax::{self, Ast, Node, Op};

/// The explanations, gathered once from the pack when the description compiles.
#[derive(Debug, Default)]
pub struct Explain {
    /// `[end] score` as written, and parsed: its terms label the breakdown.
    score_text: String,
    score: Option<Node>,
    /// By set and attribute: the legend as one line, if the pack gives one.
    legends: Vec<Vec<Option<String>>>,
    /// By set and card type: the card's text, else its condition in words (empty: none),
    /// for cards that carry a condition or a text.
    notes: Vec<Vec<String>>,
    /// The pack's params that are one number, for expressions in words (`words.rs`).
    params: Vec<(String, i64)>,
    /// By set: its universe and its cards' names, for conditions over it in words.
    conds: Vec<Option<(grail_engine::cond::universe::Universe, Vec<String>)>>,
    /// By action: its payment's zone and arguments as written, for what a move costs in
    /// words (`terms.rs`).
    pays: Vec<Option<(String, Vec<String>)>>,
    /// By action: what the move does in the pack's words (`help`), for the help.
    helps: Vec<Option<String>>,
    /// How a player scores in the pack's words (`[end] help`), for the help.
    score_help: Option<String>,
    /// The words for the score's terms (`[end] parts`), in order; empty: said from the terms.
    part_words: Vec<String>,
}

impl Explain {
    /// A card's text, else its condition in words, if it has either.
    pub(super) fn note(&self, set: usize, card: usize) -> Option<&str> {
        let note = self.notes.get(set)?.get(card)?;
        (!note.is_empty()).then_some(note.as_str())
    }

    /// A condition over `set`'s cards in words; the text itself when it cannot be put so.
    pub(super) fn condition(&self, set: usize, text: &str) -> String {
        self.conds
            .get(set)
            .and_then(Option::as_ref)
            .and_then(|(universe, names)| {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                describe(text, universe, &names)
            })
            .unwrap_or_else(|| text.to_string())
    }

    /// What action `a` does, in the pack's words (`help`).
    pub(super) fn help_of(&self, a: usize) -> Option<&str> {
        self.helps.get(a)?.as_deref()
    }

    /// How a player scores, in the pack's words (`[end] help`).
    pub(super) fn score_help(&self) -> Option<&str> {
        self.score_help.as_deref()
    }

    /// Action `a`'s payment: the zone paid from and the condition's arguments, as written.
    pub(super) fn pay_text(&self, a: usize) -> Option<(&str, &[String])> {
        let (from, args) = self.pays.get(a)?.as_ref()?;
        Some((from.as_str(), &args[..]))
    }

    /// `[end] score` as written.
    pub(super) fn score_text(&self) -> &str {
        &self.score_text
    }

    /// A param's value, when it is one number.
    pub(super) fn param(&self, name: &str) -> Option<i64> {
        (self.params.iter())
            .find(|(n, _)| n == name)
            .map(|&(_, v)| v)
    }

    pub fn new(pack: &Pack, sets: &[CardSet]) -> Self {
        let score_text = pack
            .rulebook
            .end
            .as_ref()
            .map_or(String::new(), |e| e.score.value.clone());
        let score = syntax::expression(&score_text).ok();
        let mut legends = Vec::with_capacity(sets.len());
        let mut notes = Vec::with_capacity(sets.len());
        for set in sets {
            let Ok(ps) = pack.set(&set.id) else {
                legends.push(vec![None; set.attrs.len()]);
                notes.push(vec![String::new(); set.cards.len()]);
                continue;
            };
            legends.push(
                set.attrs
                    .iter()
                    .map(|a| ps.legend_of(a).map(|l| l.line()))
                    .collect(),
            );
            notes.push(ps.cards.iter().map(|c| card_note(pack, ps, c)).collect());
        }
        Explain {
            score_text,
            score,
            legends,
            notes,
            conds: (sets.iter())
                .map(|set| {
                    let ps = pack.set(&set.id).ok()?;
                    let names = ps.cards.iter().map(|c| c.name.clone()).collect();
                    Some((ps.universe().clone(), names))
                })
                .collect(),
            helps: (pack.rulebook.actions.0.iter())
                .map(|(_, a)| a.help.as_ref().map(|h| h.value.clone()))
                .collect(),
            score_help: (pack.rulebook.end.as_ref())
                .and_then(|e| e.help.as_ref())
                .map(|h| h.value.clone()),
            part_words: (pack.rulebook.end.as_ref())
                .map(|e| e.parts.iter().map(|p| p.value.clone()).collect())
                .unwrap_or_default(),
            pays: (pack.rulebook.actions.0.iter())
                .map(|(_, a)| {
                    let pay = a.pay.as_ref()?;
                    let args = pay.args.iter().map(|x| x.value.clone()).collect();
                    Some((pay.from.value.clone(), args))
                })
                .collect(),
            params: (pack.params.iter())
                .filter_map(|p| match p.value {
                    grail_schema::model::ParamValue::Int(v) => Some((p.name.clone(), v)),
                    _ => None,
                })
                .collect(),
        }
    }
}

/// A card's text, else its condition in words (over the set its conditions range over).
fn card_note(
    pack: &Pack,
    set: &grail_schema::pack::CardSet,
    card: &grail_schema::pack::Card,
) -> String {
    if !card.text.trim().is_empty() {
        return card.text.trim().to_string();
    }
    let Some(condition) = &card.condition else {
        return String::new();
    };
    let over = set.condition_over.as_deref().unwrap_or_default();
    let Ok(over) = pack.set(over) else {
        return condition.text.clone();
    };
    let names: Vec<&str> = over.cards.iter().map(|c| c.name.as_str()).collect();
    describe(&condition.text, over.universe(), &names).unwrap_or_else(|| condition.text.clone())
}

/// The first function a term calls, through the arithmetic around it (`$cost * nonempty(…)`:
/// `nonempty`).
fn outer_call(n: &Node) -> Option<(&str, &[Node])> {
    match &n.ast {
        Ast::Call(f, args) => Some((f.as_str(), &args[..])),
        Ast::Bin(_, l, r) => outer_call(l).or_else(|| outer_call(r)),
        Ast::Not(x) => outer_call(x),
        _ => None,
    }
}

/// The terms of a score as written (`a + b - c`: `a`, `b`, `c`), for `[end] parts`.
pub(super) fn score_terms(text: &str) -> Vec<String> {
    fn walk(node: &Node, text: &str, out: &mut Vec<String>) {
        match &node.ast {
            Ast::Bin(Op::Add | Op::Sub, l, r) => {
                walk(l, text, out);
                walk(r, text, out);
            }
            _ => out.push(
                text.get(node.span.clone())
                    .unwrap_or("?")
                    .trim()
                    .to_string(),
            ),
        }
    }
    let mut out = Vec::new();
    if let Ok(node) = syntax::expression(text) {
        walk(&node, text, &mut out);
    }
    out
}

/// The top-level terms of a sum, source and compiled side by side: (label, sign, term).
fn terms<'e>(
    node: &Node,
    expr: &'e Expr,
    text: &str,
    sign: i64,
    out: &mut Vec<(String, i64, &'e Expr)>,
) {
    // A score compiled to a closure (`fast.rs`) is split as written.
    match (&node.ast, expr.written()) {
        (Ast::Bin(op @ (Op::Add | Op::Sub), nl, nr), Expr::Bin(_, el, er)) => {
            terms(nl, el, text, sign, out);
            let right = if *op == Op::Sub { -sign } else { sign };
            terms(nr, er, text, right, out);
        }
        _ => {
            let label = text.get(node.span.clone()).unwrap_or("?").trim();
            out.push((label.to_string(), sign, expr));
        }
    }
}

impl Rulebook {
    /// "step `lay` of P1's turn: play or discard".
    pub(super) fn step_prompt(&self, state: &State) -> String {
        if state.ended.is_some() {
            return String::new();
        }
        let Some(step) = self.steps.get(usize::from(state.step)) else {
            return String::new();
        };
        // A move chosen and its payment to choose: the move, and what it costs in words
        // (public words: a card the table cannot see is "a card").
        if let Some((a, args)) = state.pending {
            let action = super::state::Action::new(a, args);
            let chosen = self.notation(state, &action, None, true);
            let (pays, note) = self.costs_of(state, &action);
            return match pays.or(note) {
                Some(cost) => format!("pay for `{chosen}`: {cost}"),
                None => format!("pay for `{chosen}`"),
            };
        }
        // The pack's own words for the step, else its name and actions.
        if let Some(prompt) = &step.prompt {
            return prompt.clone();
        }
        let actions = self.step_verbs(step);
        // A step another seat decides says whose turn it is and who is asked.
        let asked = match state.asking.active {
            true => format!(", asked of P{}", usize::from(state.asking.seat) + 1),
            false => String::new(),
        };
        format!(
            "step `{}` of P{}'s turn{asked}: {}",
            step.name,
            usize::from(state.current) + 1,
            actions.join(" or ")
        )
    }

    /// The verbs of a step's actions in order, each once (Artus' six `play`s are one).
    pub(super) fn step_verbs<'s>(&'s self, step: &super::model::Step) -> Vec<&'s str> {
        let mut verbs: Vec<&str> = Vec::new();
        for &a in &step.actions {
            let name = self.actions[a].name.as_str();
            if !verbs.contains(&name) {
                verbs.push(name);
            }
        }
        verbs
    }

    /// Each seat's score by the top-level terms of `[end] score`; they add up to it.
    pub(super) fn breakdown(&self, state: &State) -> Vec<(Seat, Vec<(String, i64)>)> {
        let mut parts = Vec::new();
        match &self.explain.score {
            Some(node) => terms(node, &self.score, &self.explain.score_text, 1, &mut parts),
            None => parts.push((self.explain.score_text.clone(), 1, &self.score)),
        }
        // Labelled in the pack's words (`[end] parts`), else in words from the terms: "the
        // total value of the player's adversaries", not its source.
        let words = &self.explain.part_words;
        let parts_len = parts.len();
        for (k, part) in parts.iter_mut().enumerate() {
            part.0 = match words.get(k).filter(|_| words.len() == parts_len) {
                Some(w) => w.clone(),
                None => self.in_words(&part.0, false),
            };
        }
        (0..usize::from(state.players))
            .map(|player| {
                let ctx = Ctx {
                    state,
                    player,
                    args: Args::NONE,
                };
                let shown = parts
                    .iter()
                    .map(|(label, sign, e)| (label.clone(), sign * self.eval(e, &ctx)))
                    .collect();
                (player, shown)
            })
            .collect()
    }

    /// The running score: its parts named once, each labelled by the zone or counter it
    /// reads, then each seat's score with its parts in that order (`score (points of won +
    /// value of adversaries): P1 12 (10 + 2), P2 …`); `None` when the score has one part (its
    /// counter is shown already) or reads a zone not every player sees (it would tell what
    /// is hidden).
    pub(super) fn score_line(&self, state: &State) -> Option<String> {
        let node = self.explain.score.as_ref()?;
        let mut parts = Vec::new();
        terms(node, &self.score, &self.explain.score_text, 1, &mut parts);
        if parts.len() < 2 || !self.score_public() {
            return None;
        }
        let mut labels = Vec::new();
        // The pack's words for the parts, when it gives one for each (`[end] parts`).
        if self.explain.part_words.len() == parts.len() {
            labels.clone_from(&self.explain.part_words);
        }
        for (text, _, _) in parts.iter().skip(labels.len()) {
            let mut names = Vec::new();
            if let Ok(n) = syntax::expression(text) {
                self.names_read(&n, &mut names);
            }
            let zone = names.last().cloned();
            let label = match syntax::expression(text).ok().as_ref().and_then(outer_call) {
                Some((f, args)) => match (f, args, &zone) {
                    ("sum" | "most" | "total", [a, ..], Some(z)) => match &a.ast {
                        Ast::Name(attr) => format!("{} of {z}", attr.replace('_', " ")),
                        _ => z.clone(),
                    },
                    ("count", _, Some(z)) => format!("cards in {z}"),
                    ("nonempty", _, Some(z)) => format!("rows of {z}"),
                    (_, _, Some(z)) => z.clone(),
                    _ => self.in_words(text, false),
                },
                None => zone.unwrap_or_else(|| self.in_words(text, false)),
            };
            labels.push(label);
        }
        // The parts joined by the signs they are counted with: "a + b − c".
        let joined = |said: &[String]| {
            let mut out = String::new();
            for (i, (s, (_, sign, _))) in said.iter().zip(&parts).enumerate() {
                match (i, *sign < 0) {
                    (0, false) => {}
                    (0, true) => out.push_str("− "),
                    (_, false) => out.push_str(" + "),
                    (_, true) => out.push_str(" − "),
                }
                out.push_str(s);
            }
            out
        };
        let seats: Vec<String> = (0..usize::from(state.players))
            .map(|player| {
                let ctx = Ctx {
                    state,
                    player,
                    args: Args::NONE,
                };
                let values: Vec<i64> = (parts.iter()).map(|(_, _, e)| self.eval(e, &ctx)).collect();
                let total: i64 = (values.iter().zip(&parts))
                    .map(|(v, (_, sign, _))| sign * v)
                    .sum();
                let said: Vec<String> = values.iter().map(i64::to_string).collect();
                format!(
                    "{} {total} ({})",
                    grail_engine::seats::seat_name(player),
                    joined(&said)
                )
            })
            .collect();
        Some(format!("score ({}): {}", joined(&labels), seats.join(", ")))
    }

    /// Whether `[end] score` reads only zones every player sees (counters are public).
    pub(super) fn score_public(&self) -> bool {
        let mut names = Vec::new();
        if let Some(n) = &self.explain.score {
            self.names_read(n, &mut names);
        }
        let public = |z: usize| self.zones[z].visible == grail_schema::model::Visibility::Public;
        let read = |z: usize| names.contains(&self.zones[z].name);
        if names
            .iter()
            .any(|n| (self.zones.iter().position(|z| &z.name == n)).is_some_and(|z| !public(z)))
        {
            return false;
        }
        // Nor may a move draw a hidden card into a zone the score reads: a score shown
        // before the move would tell the card.
        fn hidden_draw(
            e: &Effect,
            public: &dyn Fn(usize) -> bool,
            read: &dyn Fn(usize) -> bool,
        ) -> bool {
            match e {
                Effect::Draw { from, to, .. }
                | Effect::DrawAtRandom { from, to, .. }
                | Effect::MoveNamed { from, to, .. } => !public(from.zone) && read(to.zone),
                Effect::Deal { from, to, .. } => !public(from.zone) && read(*to),
                Effect::Reveal { from, into, .. } => !public(from.zone) && read(*into),
                Effect::If { then, .. } => hidden_draw(then, public, read),
                Effect::ForEach { body, .. } => hidden_draw(body, public, read),
                _ => false,
            }
        }
        !(self.actions.iter())
            .flat_map(|a| &a.effects)
            .any(|e| hidden_draw(e, &public, &read))
    }

    /// The zones and counters an expression names, in the order written.
    fn names_read(&self, n: &Node, out: &mut Vec<String>) {
        match &n.ast {
            Ast::Call(f, args) => {
                for a in args {
                    self.names_read(a, out);
                }
                if matches!(
                    self.named(f),
                    super::words::Named::Zone | super::words::Named::Counter
                ) {
                    out.push(f.clone());
                }
            }
            Ast::Bin(_, l, r) => {
                self.names_read(l, out);
                self.names_read(r, out);
            }
            Ast::Not(x) => self.names_read(x, out),
            _ => {}
        }
    }

    /// Under the table: a legend line for each attribute that keys the rows of a zone, and
    /// the text (or condition in words) of each card the viewer sees that has one.
    pub(super) fn explain_table(&self, state: &State, seat: Option<Seat>, out: &mut String) {
        let mut shown: Vec<(usize, usize)> = Vec::new();
        for z in &self.zones {
            let Some(by) = z.by else { continue };
            if shown.contains(&(z.set, by)) {
                continue;
            }
            shown.push((z.set, by));
            if let Some(Some(line)) = self.explain.legends.get(z.set).and_then(|l| l.get(by)) {
                let _ = writeln!(out, "Legend: {line}");
            }
        }
        let mut noted: Vec<(usize, u16)> = Vec::new();
        for (p, pile) in state.piles.iter().enumerate() {
            if !self.sees(state, p, seat) {
                continue;
            }
            let set = self.zones[self.locate(p).0].set;
            for &card in pile {
                let note = self
                    .explain
                    .notes
                    .get(set)
                    .and_then(|n| n.get(usize::from(card)));
                if note.is_some_and(|n| !n.is_empty()) && !noted.contains(&(set, card)) {
                    noted.push((set, card));
                }
            }
        }
        for (set, card) in noted {
            let _ = writeln!(
                out,
                "  {}: {}",
                self.sets[set].cards[usize::from(card)],
                self.explain.notes[set][usize::from(card)]
            );
        }
    }
}

impl Rulebook {
    /// Why a move failed, naming the action (and where its lines are) or the setup.
    pub(super) fn failure(
        &self,
        state: &State,
        fault: super::fault::Fault,
        action: u16,
    ) -> grail_engine::game::Stuck {
        use super::fault::Fault;
        let by = match self.actions.get(usize::from(action)) {
            Some(a) => format!("action `{}` ({})", a.name, a.place),
            None => "the setup".to_string(),
        };
        let at = format!(
            "at turn {}, P{}'s move: {by}",
            state.turn,
            usize::from(state.current) + 1
        );
        let why = match fault {
            Fault::Runaway => format!(
                "{at} did not end: it did more than {} units of work (cards moved, steps \
                 skipped, `auto` moves), more than every card of the game moved many times \
                 over; a `draw` from a zone that refills from where it draws to, a count far \
                 larger than the cards, or `auto` steps that never reach a decision never end",
                self.work_budget
            ),
            Fault::Range { op, a, b } => format!(
                "{at} computed `{a} {op} {b}`, outside the range of a pack's numbers \
                 (±1,000,000,000)"
            ),
            Fault::Counter {
                counter,
                value,
                amount,
            } => format!(
                "{at} added {amount} to counter `{}` ({value}): the sum leaves the range of a \
                 pack's numbers (±1,000,000,000)",
                self.counters
                    .get(usize::from(counter))
                    .map_or("?", |c| c.name.as_str())
            ),
            Fault::FigureCounter {
                counter,
                value,
                amount,
            } => format!(
                "{at} added {amount} to a figure's `{}` ({value}): a figure holds at most {}",
                self.board
                    .as_ref()
                    .and_then(|b| b.counters.get(usize::from(counter)))
                    .map_or("?", String::as_str),
                i16::MAX
            ),
            Fault::DivideByZero { op, a } => {
                format!("{at} computed `{op}({a}, 0)`: a division by zero")
            }
            Fault::NoSuchSeat { seat, players } => format!(
                "{at} named a player by a seat expression that came to {seat}, and seats run \
                 from 0 (P1) to {} (P{players})",
                players.saturating_sub(1)
            ),
        };
        grail_engine::game::Stuck::new(fault.code(), why)
    }
}
