//! What a move gives and costs, for the terminal's menu, derived from the description: a
//! move whose payment is chosen as the next move (`adventure holy-grail`, then `pay …`)
//! changes nothing yet, so the menu is told what its effects will add to the mover's score
//! once it is paid (its effects run on a copy of the game, the payment left out; only where
//! the score is public), and what it costs in words: the card's own condition
//! (`condition(card)`) for that move, or a named condition's words (the pack's `text`,
//! else the condition in words) with what its arguments are, said once for all the moves
//! of the action.

use grail_engine::game::{MoveTerms, NoEvents};

use super::Rulebook;
use super::args::Args;
use super::effects::Subject;
use super::eval::Ctx;
use super::model::{Meets, TYPE_MASK};
use super::state::{Action, State};

impl Rulebook {
    /// What `action` gives and costs, when it has a payment; nothing otherwise (the
    /// engine works out what a move changes in the score by playing it on a copy).
    pub(super) fn terms_of(&self, state: &State, action: &Action) -> MoveTerms {
        let a = usize::from(action.action);
        if self.actions.get(a).is_none_or(|d| d.pay.is_none()) {
            return MoveTerms::default();
        }
        let (pays, note) = self.costs_of(state, action);
        MoveTerms {
            score: self.paid_gain(state, a, action),
            pays,
            note,
        }
    }

    /// What `action` costs, in words: its own (the card's condition) and what every move
    /// of its kind costs (said once); none without a payment. The pay step's prompt says
    /// them too, without the score change [`Rulebook::terms_of`] plays the move out for.
    pub(super) fn costs_of(
        &self,
        state: &State,
        action: &Action,
    ) -> (Option<String>, Option<String>) {
        let a = usize::from(action.action);
        let Some(pay) = self.actions.get(a).and_then(|d| d.pay.as_ref()) else {
            return (None, None);
        };
        let name = &self.actions[a].name;
        let from =
            (self.explain.pay_text(a)).map_or(String::new(), |(f, _)| self.in_words(f, false));
        match &pay.meets {
            Meets::Named { .. } => (None, self.named_note(state, a)),
            Meets::Own { sources, .. } => {
                let card = action.args.card() & i32::from(TYPE_MASK);
                let set = self.zones[pay.from.zone].set;
                let pays = (usize::try_from(card).ok())
                    .and_then(|c| sources.get(c))
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| self.explain.condition(set, s));
                let note = format!("{name} pays from {from} what its card asks");
                (pays, Some(note))
            }
        }
    }

    /// What the actions of this step paying as action `a` does (the same named condition
    /// from the same zone) cost, said once: "challenge and double pay from your knights:
    /// knight cards … meets its power (power: the value of the card; for double, the value
    /// of the card times 2)".
    fn named_note(&self, state: &State, a: usize) -> Option<String> {
        let words_of = |a: usize| match self.actions[a].pay.as_ref().map(|p| &p.meets) {
            Some(Meets::Named {
                words, arg_names, ..
            }) => Some((words, arg_names)),
            _ => None,
        };
        let (words, arg_names) = words_of(a)?;
        let from_of = |a: usize| self.explain.pay_text(a).map(|(f, _)| f);
        let step = (self.steps.get(usize::from(state.step))).map_or(&[][..], |s| &s.actions[..]);
        let mut alike: Vec<usize> = (step.iter().copied())
            .filter(|&b| words_of(b).is_some_and(|w| w.0 == words) && from_of(b) == from_of(a))
            .collect();
        if !alike.contains(&a) {
            alike = vec![a];
        }
        // An argument by its name ("its power"), and what it is said after.
        let mut words = words.clone();
        let mut by_length: Vec<&String> = arg_names.iter().collect();
        by_length.sort_by_key(|n| std::cmp::Reverse(n.len()));
        for n in by_length {
            words = words.replace(&format!("${n}"), &format!("the {}", n.replace('_', " ")));
        }
        let args_of = |b: usize, named: bool| {
            let args = self.explain.pay_text(b).map_or(&[][..], |(_, x)| x);
            let said: Vec<String> = (arg_names.iter().zip(args))
                .map(|(n, x)| match named {
                    true => format!("{}: {}", n.replace('_', " "), self.in_words(x, false)),
                    false => self.in_words(x, false),
                })
                .collect();
            said.join(", ")
        };
        let mut names: Vec<&str> = Vec::new();
        let mut args = args_of(alike[0], true);
        for &b in &alike {
            let name = self.actions[b].name.as_str();
            if !names.contains(&name) {
                names.push(name);
            }
            if b != alike[0] && args_of(b, true) != args_of(alike[0], true) {
                args += &format!("; for {name}, {}", args_of(b, arg_names.len() > 1));
            }
        }
        let args = match args.is_empty() {
            true => String::new(),
            false => format!(" ({args})"),
        };
        let (names, verb) = match names.len() {
            1 => (names[0].to_string(), "pays"),
            n => (
                format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
                "pay",
            ),
        };
        let from = (from_of(a)).map_or(String::new(), |f| self.in_words(f, false));
        Some(format!("{names} {verb} from {from}: {words}{args}"))
    }

    /// What action `a`'s effects add to the mover's score, run on a copy of the game as if
    /// its payment were made (the payment's own change left out); `None` when the score
    /// reads what not every player sees, or the effects fail.
    fn paid_gain(&self, state: &State, a: usize, action: &Action) -> Option<i64> {
        if !self.score_public() {
            return None;
        }
        let player = usize::from(state.decider());
        let score = |s: &State| {
            let ctx = Ctx {
                state: s,
                player,
                args: Args::NONE,
            };
            self.eval(&self.score, &ctx)
        };
        let on = Subject {
            args: action.args,
            pile: self.move_pile(state, a, action.args),
            stack: &[],
            player: None,
        };
        let mut after = state.clone();
        super::fault::begin(self.work_budget);
        self.run(&self.actions[a].effects, &mut after, &on, &mut NoEvents);
        match super::fault::end() {
            Some(_) => None,
            None => Some(score(&after) - score(state)),
        }
    }
}
