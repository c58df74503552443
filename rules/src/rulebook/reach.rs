//! Cards no action can ever take. Where the price of an action on a card depends only on
//! the card (`pay = { meets = "challenge", args = ["value(card)"] }`), each card of the
//! action's zone is checked against every card the payer's set holds: a card that none of
//! the actions on its zone could ever take (a mod's adversary too strong for any hand) is
//! refused when the pack is checked, instead of stalling every game that reveals it.
//!
//! Guards are probed the same way: evaluated for each card type (and each figure and
//! distance an action may take with it) with everything the game's state decides left
//! unknown, a guard that is false whatever happens rules the card out. A card no action's
//! guard lets through is `unreachable`; a card whose action has no figure to take while some
//! figure holds a role the guard reads (a ring card whose colour only the King wears) is
//! `no-target`.

use grail_engine::cond::solve::{Satisfiable, satisfiable};
use grail_engine::diag::Diagnostic;

use super::compile::Compiler;
use super::model::{
    Action, Board, CardSet, CounterExpr, Effect, Expr, FigureExpr, Meets, Members, Param,
};
use super::reads::reads;
use super::syntax::Op;

/// Why one action cannot take a card, or that it can (or cannot be told here).
enum Reach {
    Yes,
    Never(String),
    Undecided { steps: usize, condition: String },
}

impl Compiler<'_> {
    pub(super) fn check_reach(&mut self, actions: &[Action]) {
        let zones: Vec<usize> = actions.iter().filter_map(card_zone).collect();
        let mut seen = Vec::new();
        for zone in zones {
            if seen.contains(&zone) {
                continue;
            }
            seen.push(zone);
            let (set, types) = (self.zones[zone].set, self.zones[zone].types.clone());
            let union = !self.sets[set].members.is_empty();
            for t in types.map(usize::from) {
                if self.sets[set].copies[t] == 0 {
                    continue;
                }
                let on_zone = || actions.iter().filter(|a| card_zone(a) == Some(zone));
                let probe = Probe {
                    sets: &self.sets,
                    board: self.board.as_ref(),
                    set,
                    card: t,
                    holders: &[],
                };
                let guarded: Vec<&Action> = on_zone().filter(|a| probe.may_take(a)).collect();
                // A card some payment spends is used, if no action takes it as its card
                // (King Arthur's knights pay challenges; a house rule may play only Merlins).
                let spent = || {
                    actions.iter().any(|a| {
                        a.pay
                            .as_ref()
                            .is_some_and(|p| self.zones[p.from.zone].set == set)
                    })
                };
                if guarded.is_empty() && spent() {
                    continue;
                }
                if guarded.is_empty() {
                    let names: Vec<String> = on_zone()
                        .map(|a| format!("`{}`", self.def_name(actions, a)))
                        .collect();
                    let why = format!(
                        "the guard{} of {} {} false for it whatever the game's state",
                        if names.len() == 1 { "" } else { "s" },
                        names.join(", "),
                        if names.len() == 1 { "is" } else { "are" },
                    );
                    self.unreached(set, t, Reach::Never(why));
                    continue;
                }
                self.check_targets(&guarded, set, t, actions);
                self.check_own_condition(&guarded, set, t, actions);
                // The payments are checked for the sets of listed cards.
                if union {
                    continue;
                }
                let mut answers = guarded.into_iter().map(|a| self.reach(a, set, t));
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
        let Some(loc) = self.card_loc(set, t) else {
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
            op.arith(a, b)
        }
        _ => None,
    }
}

/// The zone an action's card parameter is drawn from (with or without a figure).
fn card_zone(a: &Action) -> Option<usize> {
    match &a.param {
        Param::Card(z) | Param::CardFigure { card: z, .. } | Param::PlayerCard { card: z, .. } => {
            Some(z.zone)
        }
        _ => None,
    }
}

/// A figure as a probe knows it: its kind and, for a kind drawn from a set, which one.
const FIGURE: i64 = 1 << 40;

fn figure_token(kind: usize, member: usize) -> i64 {
    FIGURE + (kind as i64) * 256 + member as i64
}

/// A guard evaluated for one card type before play: what the card, the figure and the
/// distance tried, and the figures holding roles (when given) decide is known; the rest
/// (`None`) is not.
struct Probe<'a> {
    sets: &'a [CardSet],
    board: Option<&'a Board>,
    set: usize,
    card: usize,
    /// The member of its kind holding each role; empty: unknown.
    holders: &'a [usize],
}

/// The figure and distance tried.
#[derive(Clone, Copy)]
struct Try {
    figure: Option<i64>,
    /// The figure's kind and member, to read its card's attributes.
    member: Option<(usize, usize)>,
    steps: Option<i64>,
}

impl Probe<'_> {
    /// Whether some figure and distance the action may take leaves its guard possibly true.
    fn may_take(&self, a: &Action) -> bool {
        let Some(guard) = &a.guard else { return true };
        self.tries(a)
            .into_iter()
            .any(|tr| self.eval(&guard.expr, tr) != Some(0))
    }

    fn tries(&self, a: &Action) -> Vec<Try> {
        let (refs, steps): (&[(usize, super::model::Who)], &[i8]) = match &a.param {
            Param::CardFigure { refs, steps, .. } | Param::Figure { refs, steps } => (refs, steps),
            _ => (&[], &[]),
        };
        let mut figures = Vec::new();
        for &(kind, _) in refs {
            match self.board.map(|b| &b.kinds[kind].members) {
                Some(Members::Cards { seats, .. }) => figures.extend(
                    (0..seats.len()).map(|m| (Some(figure_token(kind, m)), Some((kind, m)))),
                ),
                _ => figures.push((None, None)),
            }
        }
        if figures.is_empty() {
            figures.push((None, None));
        }
        let steps: Vec<Option<i64>> = match steps {
            [] => vec![None],
            s => s.iter().map(|&d| Some(i64::from(d))).collect(),
        };
        figures
            .iter()
            .flat_map(|&(figure, member)| {
                steps.iter().map(move |&steps| Try {
                    figure,
                    member,
                    steps,
                })
            })
            .collect()
    }

    fn eval(&self, e: &Expr, tr: Try) -> Option<i64> {
        match e {
            Expr::Const(v) => Some(*v),
            Expr::Card => Some(self.card as i64),
            Expr::Attr { set, attr, card } if *set == self.set => {
                let t = usize::try_from(self.eval(card, tr)?).ok()?;
                self.sets[*set].values.get(*attr)?.get(t).copied()
            }
            Expr::Figures(FigureExpr::ParamFigure) => tr.figure,
            Expr::Figures(FigureExpr::ParamSteps) => tr.steps,
            Expr::Figures(FigureExpr::CardAttr {
                kind,
                set,
                attr,
                figure,
            }) if matches!(**figure, Expr::Figures(FigureExpr::ParamFigure)) => {
                let (k, m) = tr.member?;
                if k != *kind {
                    return Some(-1);
                }
                self.sets[*set].values.get(*attr)?.get(m).copied()
            }
            Expr::Counter(CounterExpr::Holder(role)) => {
                let kind = self.board?.roles.get(*role)?.kind;
                Some(figure_token(kind, *self.holders.get(*role)?))
            }
            Expr::Not(inner) => self.eval(inner, tr).map(|v| i64::from(v == 0)),
            Expr::If(c, a, b) => match self.eval(c, tr) {
                Some(0) => self.eval(b, tr),
                Some(_) => self.eval(a, tr),
                None => {
                    let (a, b) = (self.eval(a, tr)?, self.eval(b, tr)?);
                    (a == b).then_some(a)
                }
            },
            Expr::Bin(Op::And, l, r) => match (self.eval(l, tr), self.eval(r, tr)) {
                (Some(0), _) | (_, Some(0)) => Some(0),
                (Some(_), Some(_)) => Some(1),
                _ => None,
            },
            Expr::Bin(Op::Or, l, r) => match (self.eval(l, tr), self.eval(r, tr)) {
                (Some(a), _) | (_, Some(a)) if a != 0 => Some(1),
                (Some(_), Some(_)) => Some(0),
                _ => None,
            },
            Expr::Bin(op, l, r) => {
                let (a, b) = (self.eval(l, tr)?, self.eval(r, tr)?);
                // A figure is known to a probe by its kind and member, not by the number it
                // has in a game: it compares with another figure only.
                let figures = (a >= FIGURE, b >= FIGURE);
                if figures.0 != figures.1 || (figures.0 && !matches!(op, Op::Eq | Op::Ne)) {
                    return None;
                }
                Some(match op {
                    Op::Add | Op::Sub | Op::Mul => op.arith(a, b)?,
                    Op::Lt => i64::from(a < b),
                    Op::Le => i64::from(a <= b),
                    Op::Gt => i64::from(a > b),
                    Op::Ge => i64::from(a >= b),
                    Op::Eq => i64::from(a == b),
                    Op::Ne => i64::from(a != b),
                    _ => return None,
                })
            }
            _ => None,
        }
    }
}

/// Whether some effect gives `role` (else it stays with the figure it starts with).
fn given(actions: &[Action], role: usize) -> bool {
    fn gives(e: &Effect, role: usize) -> bool {
        matches!(e.innermost(), Effect::Give { role: r, .. } if *r == role)
    }
    actions
        .iter()
        .any(|a| a.effects.iter().any(|e| gives(e, role)))
}

impl Compiler<'_> {
    /// Card `t` of `set` is taken by some of `guarded`; those that take a figure and read a
    /// role's holder must have a figure to take whoever holds the role (any figure of its
    /// kind, when some effect gives it). One error per card, at the card.
    fn check_targets(&mut self, guarded: &[&Action], set: usize, t: usize, actions: &[Action]) {
        let Some(board) = self.board.as_ref() else {
            return;
        };
        let roles = board.roles.len();
        if roles == 0 {
            return;
        }
        // Every assignment of holders, one role varying at a time from the start.
        let start: Vec<usize> = board.roles.iter().map(|r| r.start).collect();
        let mut found = None;
        'actions: for a in guarded {
            let Some(guard) = &a.guard else { continue };
            if !matches!(a.param, Param::CardFigure { .. }) || !reads(&guard.expr).names_holder() {
                continue;
            }
            for (r, role) in board.roles.iter().enumerate() {
                let Members::Cards { seats, .. } = &board.kinds[role.kind].members else {
                    continue;
                };
                let candidates: Vec<usize> = if given(actions, r) {
                    (0..seats.len()).collect()
                } else {
                    vec![role.start]
                };
                for h in candidates {
                    let mut holders = start.clone();
                    holders[r] = h;
                    let probe = Probe {
                        sets: &self.sets,
                        board: Some(board),
                        set,
                        card: t,
                        holders: &holders,
                    };
                    if !probe.may_take(a) {
                        found = Some((self.def_name(actions, a), r, role.kind, h));
                        break 'actions;
                    }
                }
            }
        }
        let Some((action, r, kind, h)) = found else {
            return;
        };
        let holder = match &board.kinds[kind].members {
            Members::Cards { set: s, .. } => self.sets[*s].cards[h].clone(),
            Members::Each { .. } => h.to_string(),
        };
        let role = board.roles[r].name.clone();
        let id = self.sets[set].cards[t].clone();
        let Some(loc) = self.card_loc(set, t) else {
            return;
        };
        let mut d = Diagnostic::error(
            "no-target",
            format!(
                "while figure `{holder}` holds role `{role}`, no figure satisfies the guard of action `{action}` for card `{id}`"
            ),
        )
        .at(loc.source, loc.span, "this card");
        if let Some(g) = self
            .pack
            .rulebook
            .actions
            .get(&action)
            .and_then(|d| d.guard.as_ref())
        {
            d = d.also(g.loc.source, g.loc.span.clone(), "the guard");
        }
        self.diags.push(d.with_help(
            "the card cannot be played for as long as that figure holds the role: let another figure meet the guard for it",
        ));
    }
}

impl Compiler<'_> {
    /// An action that takes card `t` and pays or chooses figures to meet the card's own
    /// condition (`condition(card)`) needs the card to have one. One error per card.
    fn check_own_condition(&mut self, guarded: &[&Action], set: usize, t: usize, all: &[Action]) {
        let lacks = |m: &Meets| matches!(m, Meets::Own { programs, .. } if programs.get(t).is_some_and(Option::is_none));
        let Some(a) = guarded.iter().find(|a| {
            a.pay.as_ref().is_some_and(|p| lacks(&p.meets))
                || a.choose.as_ref().is_some_and(|c| lacks(&c.meets))
        }) else {
            return;
        };
        let (id, name) = (self.sets[set].cards[t].clone(), self.def_name(all, a));
        let Some(loc) = self.card_loc(set, t) else {
            return;
        };
        let msg = format!(
            "card `{id}` may be played by action `{name}`, which meets the card's own condition, and it has no `condition`"
        );
        self.diags.push(
            Diagnostic::error("missing-condition", msg)
                .at(loc.source, loc.span, "this card")
                .with_help("give the card a `condition`, or change its attributes so that the action does not take it"),
        );
    }

    /// An action's name as the description gives it (several may share a verb).
    fn def_name(&self, actions: &[Action], a: &Action) -> String {
        let i = actions.iter().position(|x| std::ptr::eq(x, a));
        match i {
            Some(i) if actions.len() == self.action_names.len() => self.action_names[i].clone(),
            _ => a.name.clone(),
        }
    }

    /// Where card type `t` of `set` is declared (a union's card in its member set).
    fn card_loc(&self, set: usize, t: usize) -> Option<grail_schema::model::Loc> {
        let (set, t) = match self.sets[set]
            .members
            .iter()
            .rev()
            .find(|&&(_, first)| usize::from(first) <= t)
        {
            Some(&(member, first)) => (member, t - usize::from(first)),
            None => (set, t),
        };
        let s = self.pack.set(&self.sets[set].id).ok()?;
        s.cards.get(t).map(|c| c.loc.clone())
    }
}
