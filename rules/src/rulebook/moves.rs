//! The two moves every description has without declaring them: `pass` (leave an optional
//! step out) and `pay <card> …` (pay for the action just chosen; `card*2` pays two), their
//! notation, parsing and refusals.

use grail_engine::cond::solve::{self, Payment};
use grail_engine::diag::no_such;

use super::Rulebook;
use super::args::Args;
use super::eval::Ctx;
use super::model::Meets;
use super::state::{Action, PASS, PAY, State};

impl Rulebook {
    /// The set a pending payment is made of.
    fn paying_set(&self, state: &State) -> Option<usize> {
        let (a, _) = state.pending?;
        let pay = self.actions[usize::from(a)].pay.as_ref()?;
        Some(self.zones[pay.from.zone].set)
    }

    /// The word for leaving the step the state is at out (`pass`, or the step's `pass`).
    pub(super) fn pass_word(&self, state: &State) -> &str {
        (self.steps.get(usize::from(state.step)))
            .and_then(|s| s.pass.as_deref())
            .unwrap_or("pass")
    }

    pub(super) fn move_notation(&self, state: &State, action: &Action) -> Option<String> {
        match action.action {
            PASS => Some(self.pass_word(state).into()),
            PAY => {
                let set = &self.sets[self.paying_set(state).unwrap_or(0)];
                let mut text = String::from("pay");
                if let Some(paid) = self.paid.of(&action.paid) {
                    for (t, &n) in paid.counts().iter().enumerate() {
                        for _ in 0..n {
                            text.push(' ');
                            text.push_str(set.cards.get(t).map_or("?", String::as_str));
                        }
                    }
                }
                Some(text)
            }
            _ => None,
        }
    }

    pub(super) fn parse_move(&self, state: &State, text: &str) -> Option<Result<Action, String>> {
        let mut words = text.split_whitespace();
        match words.next()? {
            // `pass` is understood wherever a step has a word of its own for it.
            w if w == "pass" || w == self.pass_word(state) => Some(match words.next() {
                None => Ok(Action::new(PASS, Args::NONE)),
                Some(next) => Err(format!("`{w}` takes nothing after it, not `{next}`")),
            }),
            // Another step's word for passing, and no action's: said to be that step's.
            w if let Some(step) = self.steps.iter().find(|s| s.pass.as_deref() == Some(w))
                && !(self.actions.iter()).any(|a| a.name.split_whitespace().next() == Some(w)) =>
            {
                Some(Err(format!(
                    "`{w}` leaves step `{}` out; now the step is `{}`",
                    step.name,
                    self.steps
                        .get(usize::from(state.step))
                        .map_or("none", |s| s.name.as_str())
                )))
            }
            "pay" if !self.actions.iter().any(|a| a.name == "pay") => Some((|| {
                let set = &self.sets[self
                    .paying_set(state)
                    .ok_or("there is nothing to pay for now")?];
                let mut counts = vec![0u8; set.cards.len()];
                let mut any = false;
                for word in words {
                    let (id, times) = match word.split_once('*') {
                        Some((id, n)) => (
                            id,
                            n.parse::<u8>()
                                .map_err(|_| format!("`{word}`: expected card*count"))?,
                        ),
                        None => (word, 1),
                    };
                    let t =
                        set.cards.iter().position(|c| c == id).ok_or_else(|| {
                            no_such("card", id, set.cards.iter().map(String::as_str))
                        })?;
                    counts[t] = counts[t].saturating_add(times);
                    any = true;
                }
                if !any {
                    return Err("pay with which cards? e.g. `pay <card> <card>`".into());
                }
                let paid = Payment::from_counts(&counts).ok_or("too many card types")?;
                Ok(Action::paying(self.paid.paid(&paid)))
            })()),
            _ => None,
        }
    }

    /// Why `pass` or `pay` is refused, or why any move is while a payment is awaited.
    pub(super) fn move_refusal(&self, state: &State, action: &Action) -> Option<String> {
        match (action.action, state.pending) {
            (PAY, None) => Some("there is nothing to pay for now".into()),
            (PAY, Some((a, chosen))) => {
                Some(self.payment_refusal(state, usize::from(a), chosen, action))
            }
            (_, Some(_)) => Some("you have chosen; now choose how to pay".into()),
            (PASS, None) => Some("there is nothing to leave out now".into()),
            _ => self.why_refusal(state, action),
        }
    }

    fn payment_refusal(&self, state: &State, a: usize, chosen: Args, action: &Action) -> String {
        let Some(pay) = &self.actions[a].pay else {
            return "not legal now".into();
        };
        let Some(paid) = self.paid.of(&action.paid) else {
            return "pay with which cards?".into();
        };
        let ctx = Ctx::current(state, chosen);
        let (hand, n) = self.counts(&pay.from, &ctx);
        // Counted over all 64 types: a card beyond the payer's set is not held either.
        let (counts, beyond) = paid.counts().split_at(n.min(paid.counts().len()));
        if counts.iter().zip(&hand[..n]).any(|(p, h)| p > h) || beyond.iter().any(|&p| p > 0) {
            return "you do not hold those cards".into();
        }
        let mut args = [0i64; 4];
        for (slot, e) in args.iter_mut().zip(&pay.args) {
            *slot = self.eval(e, &ctx);
        }
        let args = &args[..pay.args.len().min(4)];
        let (program, source, what) = match &pay.meets {
            Meets::Named {
                program,
                source,
                words,
                ..
            } => (
                &**program,
                source.as_str(),
                format!("`{}` needs {words}", self.actions[a].name),
            ),
            Meets::Own {
                programs,
                sources,
                names,
                ..
            } => {
                let c = usize::try_from(chosen.card()).unwrap_or(0);
                let Some(Some(program)) = programs.get(c) else {
                    return "not legal now".into();
                };
                (
                    program,
                    sources[c].as_str(),
                    format!("those cards do not meet the condition of {}", names[c]),
                )
            }
        };
        let set_index = self.zones[pay.from.zone].set;
        let set = &self.sets[set_index];
        if let Some((part, sides)) = solve::failing_conjunct(program, source, counts, args) {
            let mut part = self.explain.condition(set_index, &part);
            // A named condition's arguments by their values: "3 or less", not "$power or less".
            if let Meets::Named { arg_names, .. } = &pay.meets {
                let mut named: Vec<(&String, &i64)> = arg_names.iter().zip(args).collect();
                named.sort_by_key(|(n, _)| std::cmp::Reverse(n.len()));
                for (name, v) in named {
                    part = part.replace(&format!("${name}"), &v.to_string());
                }
            }
            return match sides {
                Some((l, r)) => format!("{what}; it needs {part} ({l} against {r})"),
                None => format!("{what}; it needs {part}"),
            };
        }
        let mut rest = counts.to_vec();
        for t in 0..rest.len() {
            if rest[t] > 0 {
                rest[t] -= 1;
                let still = program.test(&rest, args);
                rest[t] += 1;
                if still {
                    return format!(
                        "`{}` is superfluous: the payment meets the condition without it (pay \
                         more only when no card could be left out)",
                        set.cards[t]
                    );
                }
            }
        }
        "not legal now".into()
    }

    /// Why an action whose guard holds is still refused: nothing in the payer's zone meets
    /// what it costs.
    pub(super) fn unpayable(&self, state: &State, action: &Action) -> String {
        let a = usize::from(action.action);
        let Some(pay) = &self.actions[a].pay else {
            return "not legal now".into();
        };
        match &pay.meets {
            Meets::Named { words, .. } => {
                let ctx = Ctx::current(state, action.args);
                let args: Vec<String> = pay
                    .args
                    .iter()
                    .map(|e| self.eval(e, &ctx).to_string())
                    .collect();
                format!(
                    "your cards cannot pay for `{}` ({}): it needs {words}",
                    self.actions[a].name,
                    args.join(", ")
                )
            }
            Meets::Own { names, .. } => {
                let c = usize::try_from(action.args.card()).unwrap_or(0);
                let name = names.get(c).map_or("?", String::as_str);
                // The card's own text, else its condition in words (`explain.rs`).
                let set = match &self.actions[a].param {
                    super::model::Param::Card(z) => Some(self.zones[z.zone].set),
                    _ => None,
                };
                match set.and_then(|s| self.explain.note(s, c)) {
                    Some(note) => format!("your cards cannot meet the condition of {name}: {note}"),
                    None => format!("your cards cannot meet the condition of {name}"),
                }
            }
        }
    }

    /// An action with a `why` whose guard is false is refused for it, in any step, in the
    /// pack's words. For a card parameter, the first copy of the card
    /// in its zone is asked (with its mark).
    pub(super) fn why_refusal(&self, state: &State, action: &Action) -> Option<String> {
        let a = self.actions.get(usize::from(action.action))?;
        let (why, guard) = (a.why.as_ref()?, a.guard.as_ref()?);
        let args = match &a.param {
            super::model::Param::Card(z) => {
                let ctx = Ctx::current(state, Args::NONE);
                let t = action.args.card() & i32::from(super::model::TYPE_MASK);
                let entry = self
                    .piles_of(z, &ctx)
                    .flat_map(|p| state.piles[p].iter())
                    .find(|&&c| i32::from(c & super::model::TYPE_MASK) == t)?;
                Args::of_card(*entry)
            }
            // A card and a figure, or a player and a card: the card must be where it is drawn
            // from, unless the move is not offered at this step at all (then the guard says
            // why, whatever the card).
            super::model::Param::CardFigure { .. } | super::model::Param::PlayerCard { .. } => {
                let a = usize::from(action.action);
                let offered = (self.steps.get(usize::from(state.step)))
                    .is_some_and(|s| s.actions.contains(&a));
                if offered {
                    self.card_pile(state, a, action.args)?;
                }
                action.args
            }
            super::model::Param::None
            | super::model::Param::Seat
            | super::model::Param::Player(_)
            | super::model::Param::Number { .. }
            | super::model::Param::Figure { .. } => action.args,
            super::model::Param::Row { .. } => return None,
        };
        let ctx = Ctx {
            state,
            player: usize::from(state.decider()),
            args,
        };
        if self.eval(&guard.expr, &ctx) != 0 {
            return None;
        }
        let mut text = String::new();
        self.render_text(why, &ctx, &mut text);
        // The pack's own words, and only them: a player is not shown the rule language.
        Some(text)
    }
}
