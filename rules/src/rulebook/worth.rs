//! The greedy bot's worth (`[bot] worth`). Like every expression it is reckoned in whole
//! numbers, unless it divides: `/` divides exactly, so a worth with `/` is reckoned in real
//! numbers (f64), in the order it is written, which lets a description state a hand-written
//! bot's formula and get its values to the bit (ties split by rounding split alike). Only the
//! worth's arithmetic is real: `+ - * /`, the branches of `if(c, a, b)` and `others(e)` (summed
//! seat by seat in seat order); every other part (a count, a sum, `best`, a condition) is a
//! whole number, converted. Dividing by zero, like an undefined part, leaves it undefined.

use grail_schema::model::Sp;

use super::Rulebook;
use super::compile::{Compiler, Kind, Scope};
use super::counters::CounterExpr;
use super::model::{Expr, NONE};
use super::run::Ctx;
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
                let (l, r) = (self.real(l, s, scope), self.real(r, s, scope));
                Some(Expr::Bin(*op, Box::new(l?), Box::new(r?)))
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
