//! Seats as values: `current`, `P`, `left(…)`, `right(…)`, `highest(…)`, `lowest(…)`, a
//! counter holding a seat; whose zone or counter an owner argument names; the seats a
//! `for each` goes through; who takes the next turn.

use crate::rulebook::model::{Deciders, Expr, Param, SeatExpr, SeatSet, Who};
use crate::rulebook::syntax;
use crate::rulebook::syntax::{Ast, Node, Op};
use grail_schema::model::Sp;

use super::{Compiler, Kind, NO_SCOPE, Scope};

/// The seat functions (`seats.rs` evaluates them).
pub const SEAT_FUNCTIONS: &[&str] = &["left", "right", "highest", "lowest"];

/// What an owner argument may be, for the message when it is none.
const SEAT_WORDS: &str =
    "`current`, `left(current)`, `highest(…)`, a counter holding a seat, `owner(figure)`";

impl Compiler<'_> {
    /// A seat expression: `Some(None)` when it is one and wrong (reported), `None` when it
    /// is not one at all.
    pub(in crate::rulebook) fn seat_expr(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        scope: Scope,
    ) -> Option<Option<(Expr, Kind)>> {
        let seat = |e: SeatExpr| Some(Some((Expr::Seat(e), Kind::Int)));
        match &node.ast {
            Ast::Name(n) if n == "current" => seat(SeatExpr::Current),
            Ast::Name(n) if n == "P" && scope.player => seat(SeatExpr::Player),
            Ast::Call(f, args) if SEAT_FUNCTIONS.contains(&f.as_str()) => {
                let [arg] = args.as_slice() else {
                    let at = self.span(s, &node.span);
                    let msg = match f.as_str() {
                        "left" | "right" => format!("`{f}` takes one seat: `{f}(current)`"),
                        _ => format!(
                            "`{f}` takes one expression over the seat `P`: `{f}(count(tricks(P)))`"
                        ),
                    };
                    self.error("invalid-expression", msg, &s.loc, at);
                    return Some(None);
                };
                // `highest`/`lowest` ask their expression of every seat, as `P`.
                let inner = match f.as_str() {
                    "left" | "right" => scope,
                    _ => Scope {
                        player: true,
                        ..scope
                    },
                };
                let Some(e) = self.typed(arg, s, inner, Kind::Int) else {
                    return Some(None);
                };
                let e = Box::new(e);
                seat(match f.as_str() {
                    "left" => SeatExpr::Left(e),
                    "right" => SeatExpr::Right(e),
                    "highest" => SeatExpr::Highest(e),
                    _ => SeatExpr::Lowest(e),
                })
            }
            _ => None,
        }
    }

    /// Whose a zone or counter is: `current`, `P`, `each` (a zone, where `each_allowed`), or
    /// any seat expression (kept in `seat_exprs`, read when the reference is).
    pub(in crate::rulebook) fn owner(
        &mut self,
        name: &str,
        arg: &Node,
        s: &Sp<String>,
        scope: Scope,
        each_allowed: bool,
    ) -> Option<Who> {
        match &arg.ast {
            Ast::Name(w) if w == "current" => return Some(Who::Current),
            Ast::Name(w) if w == "each" && each_allowed => return Some(Who::Each),
            Ast::Name(w) if w == "P" && scope.player => return Some(Who::Player),
            // `P` outside a score has its own message (`exprs.rs`).
            // A counter or a named expression may hold a seat: read below.
            Ast::Name(w)
                if !(w == "P"
                    || (w == "target" && scope.target)
                    || self.counter_defs.iter().any(|c| c.name == *w)
                    || self.named.iter().any(|d| d.name == *w)) =>
            {
                // A bare word that names no counter: say what an owner is, not only that
                // the word means nothing.
                let at = self.span(s, &arg.span);
                let mut words = SEAT_WORDS.to_string();
                if each_allowed {
                    words.push_str(", `each`");
                }
                if scope.player {
                    words.push_str(", `P`");
                }
                let msg = format!("`{w}` is no seat: the owner of `{name}` is a seat, {words}");
                self.error("invalid-expression", msg, &s.loc, at);
                return None;
            }
            _ => {}
        }
        let e = self.typed(arg, s, scope, Kind::Int)?;
        self.fixed_seat(&e, s, &arg.span)?;
        let i = u16::try_from(self.seat_exprs.len()).ok()?;
        self.seat_exprs.push(e);
        Some(Who::Seat(i))
    }

    /// The seats of a `for each`: `each` or `others`.
    pub(in crate::rulebook) fn seat_set(&mut self, node: &Node, s: &Sp<String>) -> Option<SeatSet> {
        match &node.ast {
            Ast::Name(w) if w == "each" => Some(SeatSet::Each),
            Ast::Name(w) if w == "others" => Some(SeatSet::Others),
            _ => {
                let at = self.span(s, &node.span);
                let msg = "the seats are `each` (every seat, the player to move first) or \
                           `others` (every seat but theirs)"
                    .to_string();
                self.error("invalid-expression", msg, &s.loc, at);
                None
            }
        }
    }

    /// `target = "seat in others"`: a player, the action's one parameter.
    pub fn target_param(&mut self, def: &Sp<String>, other: bool) -> Option<Param> {
        if other {
            let msg = "an action takes one parameter: `card`, `row`, `seat`, `target`, `number` \
                       or `figure` (or a card and a figure, or a player and a card)"
                .to_string();
            self.error("invalid-value", msg, &def.loc, def.loc.span.clone());
            return None;
        }
        let node = self.parameter(def, "seat")?;
        self.seat_set(&node, def).map(Param::Player)
    }

    /// `target` and `card` together: a player, and a card of a zone read with them
    /// (`card = "card in allies(target)"`, where `target` is the player named).
    pub fn player_card_param(
        &mut self,
        target: &Sp<String>,
        card: &Sp<String>,
        other: Option<&Sp<String>>,
        scope: Scope,
    ) -> Option<Param> {
        if let Some(other) = other {
            let msg = "an action takes a player and a card, or one parameter: not a row, seat, \
                       number or figure besides"
                .to_string();
            self.error("invalid-value", msg, &other.loc, other.loc.span.clone());
            return None;
        }
        let node = self.parameter(target, "seat")?;
        let set = self.seat_set(&node, target)?;
        let node = self.parameter(card, "card")?;
        let scope = Scope {
            target: true,
            ..scope
        };
        let zone = self.zone_ref(&node, card, scope)?;
        if self.zones[zone.zone].marks.is_some() {
            let msg = format!(
                "cards of `{}` carry marks, which an action taking a player and a card cannot \
                 name: give the card an action of its own",
                self.zones[zone.zone].name
            );
            self.error("invalid-value", msg, &card.loc, card.loc.span.clone());
            return None;
        }
        Some(Param::PlayerCard { set, card: zone })
    }

    /// Whether `node`, where a seat goes, is written as a condition (`count(…) > 2`): an
    /// error saying so, `what` being what the seat is for.
    pub(in crate::rulebook) fn condition_for_seat(
        &mut self,
        node: &Node,
        s: &Sp<String>,
        what: &str,
    ) -> bool {
        let condition = match &node.ast {
            Ast::Not(_) => true,
            Ast::Bin(op, _, _) => !matches!(op, Op::Add | Op::Sub | Op::Mul | Op::Div),
            _ => false,
        };
        if condition {
            let at = self.span(s, &node.span);
            let msg = format!(
                "{what} (`current`, `left(current)`, `P`, a counter holding one), not a condition"
            );
            self.error("type-mismatch", msg, &s.loc, at);
        }
        condition
    }

    /// `[steps.*] who`: the seats that decide the step.
    pub fn deciders(&mut self, who: &Sp<String>) -> Option<Deciders> {
        let (first, seats, from) = match syntax::deciders(&who.value) {
            Ok(syntax::DecidersAst::Seats { first, seats, from }) => (first, seats, from),
            Ok(syntax::DecidersAst::One(node)) => {
                let seat = self.decider_seat(&node, who)?;
                return Some(Deciders {
                    seats: SeatSet::Each,
                    first: false,
                    from: Some(seat),
                    one: Some(who.value.trim().to_string()),
                });
            }
            Err(e) => {
                self.syntax_error(who, e);
                return None;
            }
        };
        let seats = self.seat_set(&seats, who)?;
        let from = match from {
            Some(node) => Some(self.decider_seat(&node, who)?),
            None => None,
        };
        Some(Deciders {
            seats,
            first,
            from,
            one: None,
        })
    }

    /// A seat `who` names (where the order starts, or the one seat deciding).
    fn decider_seat(&mut self, node: &Node, who: &Sp<String>) -> Option<Expr> {
        let (e, kind) = self.expr(node, who, NO_SCOPE)?;
        if kind != Kind::Int {
            let found = match kind {
                Kind::Bool => "a condition",
                _ => "a card",
            };
            let span = self.span(who, &node.span);
            let msg = format!("`who` names a seat here, not {found}");
            let d = grail_engine::diag::Diagnostic::error("type-mismatch", msg)
                .at(who.loc.source, span, "here")
                .with_help(
                    "a seat is `current`, `left(…)`, `holder(role)` or a counter holding one (`set sponsor to P`); several seats are `each P in …` or `first P in …`",
                );
            self.diags.push(d);
            return None;
        }
        self.fixed_seat(&e, who, &node.span)?;
        Some(e)
    }

    /// The actions some step with `who` offers: `P` in them is the seat deciding.
    pub fn decided_actions(&self) -> Vec<String> {
        let rb = &self.pack.rulebook;
        (rb.steps.iter())
            .filter(|(_, d)| d.who.is_some())
            .flat_map(|(_, d)| d.actions.iter().map(|a| a.value.clone()))
            // A standing action is taken by the seat deciding, whoever that is.
            .chain(
                (rb.actions.iter())
                    .filter(|(_, d)| d.standing.is_some())
                    .map(|(n, _)| n.value.clone()),
            )
            .collect()
    }

    /// `[stages.turn] next`: who takes the next turn, read when a turn ends.
    pub fn next_turn(&mut self) -> Option<Expr> {
        let rb = &self.pack.rulebook;
        for (name, def) in rb.stages.iter().filter(|(k, _)| k.value != "turn") {
            if let Some(next) = &def.next {
                let msg = format!(
                    "`next` says who takes the next turn: it belongs to `[stages.turn]`, not to stage `{}`",
                    name.value
                );
                self.error("invalid-value", msg, &next.loc, next.loc.span.clone());
            }
        }
        let next = rb.stages.get("turn")?.next.as_ref()?;
        let e = self.expression(next, NO_SCOPE, false)?;
        let whole = 0..next.value.len();
        self.fixed_seat(&e, next, &whole)?;
        Some(e)
    }

    /// A seat written as a number must be a seat of every game the pack allows (from 0, P1,
    /// to the fewest players less one); `None` (reported) when it is not.
    pub(in crate::rulebook) fn fixed_seat(
        &mut self,
        e: &Expr,
        s: &Sp<String>,
        span: &std::ops::Range<usize>,
    ) -> Option<()> {
        let Expr::Const(v) = e else {
            return Some(());
        };
        let fewest = i64::from(self.pack.players.0);
        if (0..fewest).contains(v) {
            return Some(());
        }
        let at = self.span(s, span);
        let msg = format!(
            "seat {v} names no player: seats run from 0 (P1) to {} (P{fewest}) in a game of \
             {fewest}, the fewest this pack allows",
            fewest - 1
        );
        self.error("no-such-player", msg, &s.loc, at);
        None
    }
}
