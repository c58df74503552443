//! The greedy bot's worth (`[bot] worth`). Like every expression it is reckoned in whole
//! numbers, unless it divides: `/` divides exactly, so a worth with `/` is reckoned in real
//! numbers (f64), in the order it is written, which lets a description state a hand-written
//! bot's formula and get its values to the bit (ties split by rounding split alike). Only the
//! worth's arithmetic is real: `+ - * /`, the branches of `if(c, a, b)` and `others(e)` (summed
//! seat by seat in seat order); every other part (a count, a sum, `best`, a condition) is a
//! whole number, converted. Dividing by zero, like an undefined part, leaves it undefined.

use grail_engine::diag::Diagnostic;
use grail_schema::model::Sp;

use super::Rulebook;
use super::compile::{Compiler, Kind, Scope};
use super::eval::Ctx;
use super::model::{CounterExpr, Expr, NONE};
use super::syntax::{self, Ast, Node, Op};

#[derive(Debug)]
pub enum Worth {
    /// No division: whole numbers.
    Whole(Expr),
    /// Divides: real numbers.
    Real(Expr),
}

impl Compiler<'_> {
    /// `[bot] worth`: whole unless it divides.
    pub fn worth(&mut self, s: &Sp<String>, scope: Scope) -> Option<Worth> {
        let node = match syntax::expression(&s.value) {
            Ok(n) => n,
            Err(e) => {
                self.syntax_error(s, e);
                return None;
            }
        };
        if !divides(&node) {
            return self.typed(&node, s, scope, Kind::Int).map(Worth::Whole);
        }
        self.real(&node, s, scope).map(Worth::Real)
    }

    /// The real arithmetic of a worth; anything else is a whole number (where `/` is refused).
    fn real(&mut self, node: &Node, s: &Sp<String>, scope: Scope) -> Option<Expr> {
        match &node.ast {
            Ast::Bin(op @ (Op::Add | Op::Sub | Op::Mul | Op::Div), l, r) => {
                let (le, re) = (self.real(l, s, scope), self.real(r, s, scope));
                if *op == Op::Div
                    && let Some(divisor) = &re
                {
                    self.check_divisor(divisor, s, l.span.end..r.span.start, &r.span);
                }
                Some(Expr::Bin(*op, Box::new(le?), Box::new(re?)))
            }
            Ast::Call(f, args) if f == "if" && args.len() == 3 => {
                let c = self.typed(&args[0], s, scope, Kind::Bool);
                let (a, b) = (self.real(&args[1], s, scope), self.real(&args[2], s, scope));
                Some(Expr::If(Box::new(c?), Box::new(a?), Box::new(b?)))
            }
            Ast::Call(f, args) if f == "others" && args.len() == 1 && scope.player => {
                let e = self.real(&args[0], s, scope)?;
                Some(Expr::Counter(CounterExpr::Others(Box::new(e))))
            }
            _ => self.typed(node, s, scope, Kind::Int),
        }
    }
}

impl Compiler<'_> {
    /// A divisor fixed by the player count (`players - 1`) must not be 0 for any count the
    /// pack allows: reported at the `/`, with the count.
    fn check_divisor(
        &mut self,
        divisor: &Expr,
        s: &Sp<String>,
        between: std::ops::Range<usize>,
        written: &std::ops::Range<usize>,
    ) {
        let (min, max) = self.pack.players;
        let Some(n) = (min..=max).find(|&n| fixed(divisor, i64::from(n)) == Some(0)) else {
            return;
        };
        let slash = s.value.get(between.clone()).and_then(|t| t.find('/'));
        let at = self.span(
            s,
            &slash.map_or(written.clone(), |i| {
                between.start + i..between.start + i + 1
            }),
        );
        let text = s.value.get(written.clone()).unwrap_or("").trim();
        let players = self.pack.players_loc().clone();
        let d = Diagnostic::error(
            "divide-by-zero",
            format!(
                "with {n} player{} `{text}` is 0, and this divides by it",
                if n == 1 { "" } else { "s" }
            ),
        )
        .at(s.loc.source, at, "divides by 0")
        .also(players.source, players.span, format!("allows {n}"));
        self.diags.push(d);
    }
}

/// Calls `f` on each whole-number part of a worth reckoned in real numbers: the parts
/// below its real arithmetic (`+ - * /`, the branches of `if`, `others`), and the conditions
/// of its `if`s. What walks a real worth to change its parts (kept parts, closures) walks it
/// here.
pub(super) fn each_whole_part(e: &mut Expr, f: &mut impl FnMut(&mut Expr)) {
    match e {
        Expr::Bin(Op::Add | Op::Sub | Op::Mul | Op::Div, l, r) => {
            each_whole_part(l, f);
            each_whole_part(r, f);
        }
        Expr::If(c, a, b) => {
            f(c);
            each_whole_part(a, f);
            each_whole_part(b, f);
        }
        Expr::Counter(CounterExpr::Others(x)) => each_whole_part(x, f),
        _ => f(e),
    }
}

/// An expression's value when only the player count decides it (numbers, params, `players`,
/// `+ - *`); `None` when the game's state does.
fn fixed(e: &Expr, players: i64) -> Option<i64> {
    match e {
        Expr::Const(v) => Some(*v),
        Expr::Counter(CounterExpr::Players) => Some(players),
        Expr::Counter(CounterExpr::ByPlayers(v)) => usize::try_from(players)
            .ok()
            .and_then(|n| v.get(n).copied()),
        Expr::Bin(op, a, b) => {
            let (a, b) = (fixed(a, players)?, fixed(b, players)?);
            op.arith(a, b)
        }
        _ => None,
    }
}

/// Whether the worth's arithmetic divides (a `/` elsewhere is refused when it compiles).
fn divides(node: &Node) -> bool {
    match &node.ast {
        Ast::Bin(Op::Div, ..) => true,
        Ast::Bin(Op::Add | Op::Sub | Op::Mul, l, r) => divides(l) || divides(r),
        Ast::Call(f, args) if f == "if" && args.len() == 3 => {
            divides(&args[1]) || divides(&args[2])
        }
        Ast::Call(f, args) if f == "others" && args.len() == 1 => divides(&args[0]),
        _ => false,
    }
}

impl Rulebook {
    /// A seat's worth for the greedy bot; undefined is the lowest whole number.
    pub(super) fn worth_of(&self, worth: &Worth, ctx: &Ctx) -> f64 {
        match worth {
            Worth::Whole(e) => self.eval(e, ctx) as f64,
            Worth::Real(e) => {
                let v = self.real(e, ctx);
                if v.is_nan() { NONE as f64 } else { v }
            }
        }
    }

    /// Real arithmetic, undefined as NaN.
    fn real(&self, e: &Expr, ctx: &Ctx) -> f64 {
        match e {
            Expr::Bin(op @ (Op::Add | Op::Sub | Op::Mul | Op::Div), l, r) => {
                let (a, b) = (self.real(l, ctx), self.real(r, ctx));
                match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    Op::Mul => a * b,
                    _ if b == 0.0 => f64::NAN,
                    _ => a / b,
                }
            }
            Expr::If(c, a, b) => {
                if self.eval(c, ctx) != 0 {
                    self.real(a, ctx)
                } else {
                    self.real(b, ctx)
                }
            }
            // Seat by seat, in seat order, as a hand-written bot would sum them.
            Expr::Counter(CounterExpr::Others(e)) => (0..usize::from(ctx.state.players))
                .filter(|&q| q != ctx.player)
                .map(|q| self.real(e, &Ctx { player: q, ..*ctx }))
                .sum(),
            _ => match self.eval(e, ctx) {
                NONE => f64::NAN,
                v => v as f64,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixed;
    use crate::rulebook::model::CounterExpr;
    use crate::rulebook::model::Expr;
    use crate::rulebook::syntax::Op;

    /// `players - 1` is fixed by the player count; a read of the game's state is not.
    #[test]
    fn a_divisor_fixed_by_the_player_count() {
        let less_one = Expr::Bin(
            Op::Sub,
            Box::new(Expr::Counter(CounterExpr::Players)),
            Box::new(Expr::Const(1)),
        );
        assert_eq!(fixed(&less_one, 1), Some(0));
        assert_eq!(fixed(&less_one, 4), Some(3));
        assert_eq!(fixed(&Expr::Counter(CounterExpr::Turn), 4), None);
    }
}
