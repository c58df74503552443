//! What an action asks of its card, worked out once per card type when the description is
//! compiled: a payment's first argument that reads nothing but the card's attributes and
//! numbers (`value(card)`, `value(card) * $double_challenge_factor`) becomes a table by type,
//! so a listing trying every face-up card looks its price up instead of evaluating it.

use super::Rulebook;
use super::eval::{Ctx, binary, decided};
use super::model::{Action, CardSet, Expr, TYPE_MASK, Zone};

/// Per action: its payment's first argument for each type of its card's set, when the
/// argument can be known from the card's type alone.
pub(super) fn first_args(
    actions: &[Action],
    zones: &[Zone],
    sets: &[CardSet],
) -> Vec<Option<Box<[i64]>>> {
    actions
        .iter()
        .map(|a| {
            let arg = a.pay.as_ref()?.args.first()?;
            let set = zones[a.param.card_zone()?.zone].set;
            (0..sets[set].cards.len())
                .map(|t| fold(arg, sets, t))
                .collect::<Option<Box<[i64]>>>()
        })
        .collect()
}

/// The value of `e` for a card of type `t`, when it reads only the card's attributes and
/// numbers (as [`Rulebook::eval`] would give it); `None` when it reads anything else.
fn fold(e: &Expr, sets: &[CardSet], t: usize) -> Option<i64> {
    Some(match e {
        Expr::Const(v) => *v,
        Expr::Attr { set, attr, card } if matches!(**card, Expr::Card) => {
            sets[*set].values[*attr].get(t).copied().unwrap_or(0)
        }
        Expr::Not(x) => i64::from(fold(x, sets, t)? == 0),
        Expr::If(c, a, b) => {
            if fold(c, sets, t)? != 0 {
                fold(a, sets, t)?
            } else {
                fold(b, sets, t)?
            }
        }
        Expr::Bin(op, l, r) => {
            let (a, b) = (fold(l, sets, t)?, fold(r, sets, t)?);
            decided(*op, a).unwrap_or_else(|| binary(*op, a, b))
        }
        _ => return None,
    })
}

impl Rulebook {
    /// The first argument of action `a`'s payment (`e`) for the card in `ctx`: from the
    /// table when there is one.
    #[inline(always)]
    pub(super) fn first_arg(&self, a: usize, e: &Expr, ctx: &Ctx) -> i64 {
        let card = ctx.args.card();
        let t = (card & i32::from(TYPE_MASK)) as usize;
        match self.derived.first_args.get(a).and_then(Option::as_deref) {
            Some(table) if card >= 0 && t < table.len() => table[t],
            _ => self.operand(e, ctx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::syntax::Op;
    use super::*;

    fn set() -> CardSet {
        CardSet {
            id: "adversaries".into(),
            cards: vec!["a".into(), "b".into()],
            names: vec!["A".into(), "B".into()],
            copies: vec![1, 1],
            attrs: vec!["value".into()],
            values: vec![vec![2, 5]],
            symbols: vec![vec![]],
            members: vec![],
        }
    }

    fn value() -> Expr {
        Expr::Attr {
            set: 0,
            attr: 0,
            card: Box::new(Expr::Card),
        }
    }

    #[test]
    fn a_price_read_from_the_card_alone_is_folded_by_type() {
        let sets = [set()];
        let double = Expr::Bin(Op::Mul, Box::new(value()), Box::new(Expr::Const(2)));
        assert_eq!(fold(&double, &sets, 0), Some(4));
        assert_eq!(fold(&double, &sets, 1), Some(10));
        let either = Expr::If(
            Box::new(Expr::Bin(
                Op::Gt,
                Box::new(value()),
                Box::new(Expr::Const(3)),
            )),
            Box::new(Expr::Const(1)),
            Box::new(Expr::Const(0)),
        );
        assert_eq!(fold(&either, &sets, 0), Some(0));
        assert_eq!(fold(&either, &sets, 1), Some(1));
    }

    #[test]
    fn anything_read_from_the_table_is_left_to_eval() {
        let sets = [set()];
        // The card itself (a marked entry carries its mark), `done`, marks: not by type.
        assert_eq!(fold(&Expr::Card, &sets, 0), None);
        assert_eq!(fold(&Expr::Done(0), &sets, 0), None);
        let marked = Expr::Bin(
            Op::Add,
            Box::new(value()),
            Box::new(Expr::Marked(Box::new(Expr::Card))),
        );
        assert_eq!(fold(&marked, &sets, 0), None);
    }
}
