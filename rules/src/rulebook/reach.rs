//! Cards no action can ever take. Where the price of an action on a card depends only on
//! the card (`pay = { meets = "challenge", args = ["value(card)"] }`), each card of the
//! action's zone is checked against every card the payer's set holds: a card that none of
//! the actions on its zone could ever take (a mod's adversary too strong for any hand) is
//! refused when the pack is checked, instead of stalling every game that reveals it.

use grail_engine::cond::solve::{Satisfiable, satisfiable};
use grail_engine::diag::Diagnostic;

use super::compile::Compiler;
use super::model::{Action, CardSet, Expr, Meets, Param};
use super::syntax::Op;

/// Why one action cannot take a card, or that it can (or cannot be told here).
enum Reach {
    Yes,
    Never(String),
    Undecided { steps: usize, condition: String },
}

impl Compiler<'_> {
    pub(super) fn check_reach(&mut self, actions: &[Action]) {
        let zones: Vec<usize> = actions
            .iter()
            .filter_map(|a| match &a.param {
                Param::Card(z) => Some(z.zone),
                _ => None,
            })
            .collect();
        let mut seen = Vec::new();
        for zone in zones {
            if seen.contains(&zone) {
                continue;
            }
            seen.push(zone);
            let (set, types) = (self.zones[zone].set, self.zones[zone].types.clone());
            if !self.sets[set].members.is_empty() {
                continue;
            }
            for t in types.map(usize::from) {
                if self.sets[set].copies[t] == 0 {
                    continue;
                }
                let on_zone = actions
                    .iter()
                    .filter(|a| matches!(&a.param, Param::Card(z) if z.zone == zone));
                let mut answers = on_zone.map(|a| self.reach(a, set, t));
                let mut first = None;
                let taken = answers.any(|r| match r {
                    Reach::Yes => true,
                    other => {
                        first.get_or_insert(other);
                        false
                    }
                });
                if !taken && let Some(answer) = first {
                    self.unreached(set, t, answer);
                }
            }
        }
    }

    /// Whether `action` can take card type `t` of `set` with some cards of its payer's set.
    fn reach(&self, action: &Action, set: usize, t: usize) -> Reach {
        let Some(pay) = &action.pay else {
            return Reach::Yes;
        };
        let Meets::Named {
            program, source, ..
        } = &pay.meets
        else {
            return Reach::Yes;
        };
        let args: Option<Vec<i64>> = pay
            .args
            .iter()
            .map(|a| card_value(a, &self.sets, set, t))
            .collect();
        let Some(args) = args else {
            return Reach::Yes;
        };
        let payer = &self.zones[pay.from.zone];
        let mut deck = vec![0u8; self.sets[payer.set].copies.len()];
        for p in payer.types.clone().map(usize::from) {
            deck[p] = self.sets[payer.set].copies[p];
        }
        let decision = satisfiable(program, source, &deck, &args);
        match decision.answer {
            Satisfiable::Never(why) => Reach::Never(format!(
                "`{}` pays with cards of `{}` meeting `{source}`: {why}",
                action.name, self.sets[payer.set].id
            )),
            Satisfiable::GaveUp => Reach::Undecided {
                steps: decision.steps,
                condition: source.clone(),
            },
            Satisfiable::Yes | Satisfiable::NeedsArguments => Reach::Yes,
        }
    }

    fn unreached(&mut self, set: usize, t: usize, answer: Reach) {
        let id = &self.sets[set].cards[t];
        let Some(loc) = self
            .pack
            .set(&self.sets[set].id)
            .ok()
            .and_then(|s| s.card(id))
            .map(|(_, c)| c.loc.clone())
        else {
            return;
        };
        let d = match answer {
            Reach::Never(why) => Diagnostic::error(
                "unreachable",
                format!("no action can ever take card `{id}`"),
            )
            .at(loc.source, loc.span.clone(), "never taken")
            .with_note(why),
            Reach::Undecided { steps, condition } => Diagnostic::error(
                "could-not-decide",
                format!(
                    "could not decide whether card `{id}` can be taken (the search of \
                     `{condition}` gave up after {steps} steps)"
                ),
            )
            .at(loc.source, loc.span.clone(), "not checked")
            .with_help(
                "write the condition so that it grows or shrinks as cards are added \
                 (`count(…) >= n`, `sum(…) <= $arg`), which is decided at once",
            ),
            Reach::Yes => return,
        };
        self.diags.push(d);
    }
}

/// An argument's value for card type `t` of `set`, when it depends on nothing but the card
/// (its attributes, numbers, params): `value(card) * $factor`.
fn card_value(e: &Expr, sets: &[CardSet], set: usize, t: usize) -> Option<i64> {
    match e {
        Expr::Const(v) => Some(*v),
        Expr::Attr { set: s, attr, card } if *s == set && matches!(**card, Expr::Card) => {
            sets[set].values.get(*attr)?.get(t).copied()
        }
        Expr::Bin(op, a, b) => {
            let (a, b) = (card_value(a, sets, set, t)?, card_value(b, sets, set, t)?);
            match op {
                Op::Add => a.checked_add(b),
                Op::Sub => a.checked_sub(b),
                Op::Mul => a.checked_mul(b),
                _ => None,
            }
        }
        _ => None,
    }
}
