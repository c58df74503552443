//! A part that reads nothing but the card (`kind(card) = weapon`, `if(slot(card) = 1,
//! bp(card), 0)`): its value for every type of the card's set, worked out when compiling, so
//! that a listing asking it card by card reads a table (`fast.rs`).
//!
//! Folding gives what evaluating gives, or nothing: a part that reads anything else, or
//! that would fault for some card (a number out of range, a division by 0), is not folded,
//! and is evaluated as written, where the fault is raised.

use super::eval::{binary, decided};
use super::fault::LIMIT;
use super::model::{CardSet, CounterExpr, Expr, NONE, TYPE_MASK};
use super::syntax::Op;

/// The set whose attributes `e` reads of the card, when it reads nothing else (and reads at
/// least one: a part of numbers alone is no table).
pub(super) fn card_set(e: &Expr) -> Option<usize> {
    let mut set = None;
    let ok = only_card(e, &mut set);
    set.filter(|_| ok)
}

/// Whether `e` reads the card only through its attributes (`attr(card)`: by its type, marks
/// aside), all of one set, and nothing else.
fn only_card(e: &Expr, set: &mut Option<usize>) -> bool {
    match e {
        Expr::Attr { set: s, card, .. } => {
            matches!(**card, Expr::Card) && *set.get_or_insert(*s) == *s
        }
        Expr::Const(_) | Expr::Not(_) | Expr::If(..) | Expr::Bin(..) => {
            let mut ok = true;
            e.each_child(&mut |x| ok = ok && only_card(x, set));
            ok
        }
        Expr::Counter(
            CounterExpr::Min(..)
            | CounterExpr::Max(..)
            | CounterExpr::Div(..)
            | CounterExpr::Mod(..),
        ) => {
            let mut ok = true;
            e.each_child(&mut |x| ok = ok && only_card(x, set));
            ok
        }
        _ => false,
    }
}

/// `e`'s value for every type of `set` (by the card's type: [`card_set`] said it reads
/// nothing more of it), when none of them faults.
pub(super) fn table(e: &Expr, sets: &[CardSet], set: usize) -> Option<Box<[i64]>> {
    let types = sets.get(set)?.cards.len();
    (0..types).map(|t| fold(e, sets, t as i64)).collect()
}

/// `e`'s value for a card.
fn fold(e: &Expr, sets: &[CardSet], card: i64) -> Option<i64> {
    let f = |x: &Expr| fold(x, sets, card);
    let in_range = |v: Option<i64>| v.filter(|v| (-LIMIT..=LIMIT).contains(v));
    Some(match e {
        Expr::Const(v) if *v != NONE => *v,
        Expr::Card => card,
        Expr::Attr { set, attr, card } => {
            let c = usize::try_from(f(card)? & i64::from(TYPE_MASK)).ok()?;
            let values = sets.get(*set)?.values.get(*attr)?;
            values.get(c).copied().unwrap_or(0)
        }
        Expr::Not(x) => i64::from(f(x)? == 0),
        Expr::If(c, a, b) => match f(c)? {
            0 => f(b)?,
            _ => f(a)?,
        },
        Expr::Bin(op, l, r) => {
            let a = f(l)?;
            if let Some(v) = decided(*op, a) {
                return Some(v);
            }
            let b = f(r)?;
            match op {
                Op::Add | Op::Sub | Op::Mul => in_range(op.arith(a, b))?,
                Op::Div => return None,
                _ => binary(*op, a, b),
            }
        }
        Expr::Counter(CounterExpr::Min(a, b)) => f(a)?.min(f(b)?),
        Expr::Counter(CounterExpr::Max(a, b)) => f(a)?.max(f(b)?),
        Expr::Counter(CounterExpr::Div(a, b)) => {
            let (a, b) = (f(a)?, f(b)?);
            in_range(a.checked_div_euclid(b))?
        }
        Expr::Counter(CounterExpr::Mod(a, b)) => {
            let (a, b) = (f(a)?, f(b)?);
            in_range(a.checked_rem_euclid(b))?
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use grail_engine::game::{Rules, Setup};

    use super::super::args::Args;
    use super::super::eval::Ctx;
    use super::super::model::{CounterRef, Who, ZoneRef};
    use super::super::random_games::pack_in;
    use super::super::{Rulebook, compile};
    use super::*;

    fn draft() -> Rulebook {
        compile(&pack_in("../tests/packs", "quests-rulebook", None)).expect("the draft compiles")
    }

    fn attr(rules: &Rulebook, name: &str) -> Expr {
        let set = rules.sets.iter().position(|s| s.id == "adventure").unwrap();
        let attr = rules.sets[set]
            .attrs
            .iter()
            .position(|a| a == name)
            .unwrap();
        Expr::Attr {
            set,
            attr,
            card: Box::new(Expr::Card),
        }
    }

    fn bin(op: Op, l: Expr, r: Expr) -> Expr {
        Expr::Bin(op, Box::new(l), Box::new(r))
    }

    /// A part of the card's attributes and numbers is folded; one that reads the card
    /// itself (marks and all), a zone or a counter is not.
    #[test]
    fn only_the_cards_attributes_fold() {
        let rules = draft();
        let bp = || attr(&rules, "bp");
        let weapon = bin(Op::Mul, bp(), Expr::Const(2));
        assert!(card_set(&weapon).is_some());
        assert!(card_set(&Expr::Const(3)).is_none(), "no card read");
        assert!(card_set(&bin(Op::Eq, Expr::Card, Expr::Const(3))).is_none());
        let hand = ZoneRef {
            zone: rules.zones.iter().position(|z| z.name == "hand").unwrap(),
            who: Who::Player,
            row: None,
        };
        assert!(card_set(&bin(Op::Add, bp(), Expr::Count(hand))).is_none());
        let counter = Expr::Counter(CounterExpr::Read(CounterRef::Table(0)));
        assert!(card_set(&bin(Op::Add, bp(), counter)).is_none());
    }

    /// Every type's entry is what evaluating the part for that card gives; a part that
    /// faults for some card (a division by 0) has no table.
    #[test]
    fn a_table_holds_what_evaluating_gives() {
        let rules = draft();
        let state = rules.setup(&Setup::new(3, 1)).unwrap();
        let slot = || attr(&rules, "slot");
        let part = Expr::If(
            Box::new(bin(Op::Eq, slot(), Expr::Const(2))),
            Box::new(attr(&rules, "bp")),
            Box::new(bin(Op::Sub, Expr::Const(0), slot())),
        );
        let set = card_set(&part).expect("a card part");
        let values = table(&part, &rules.sets, set).expect("no fault");
        assert_eq!(values.len(), rules.sets[set].cards.len());
        for (t, &v) in values.iter().enumerate() {
            let ctx = Ctx::current(&state, Args::of_card(t as u16));
            assert_eq!(v, rules.eval(&part, &ctx), "type {t}");
        }
        let divides = Expr::Counter(CounterExpr::Div(
            Box::new(Expr::Const(10)),
            Box::new(slot()),
        ));
        assert!(
            table(&divides, &rules.sets, set).is_none(),
            "some slot is 0"
        );
    }
}
