//! The move notation: `replenish`, `challenge red-4`, `double red-4`, `repeat red-4`,
//! `adventure holy-grail`, `pay red-1 red-1 merlin`, `draw`, `pass`.

use grail_engine::cond::solve::Payment;
use grail_engine::diag::no_such;

use super::state::{Action, Mode, Phase, State};
use super::{CardSet, KingArthur};
use crate::wording::Count;

const VERBS: [&str; 8] = [
    "replenish",
    "challenge",
    "double",
    "repeat",
    "adventure",
    "pay",
    "draw",
    "pass",
];

impl KingArthur {
    pub(crate) fn notation(&self, state: &State, action: &Action) -> String {
        match action {
            Action::Replenish => "replenish".into(),
            Action::Challenge { target, mode } => {
                let verb = match mode {
                    Mode::Take | Mode::Seal => "challenge",
                    Mode::Repeat => "repeat",
                    Mode::Double => "double",
                };
                format!("{verb} {}", self.adversaries.ids[*target as usize])
            }
            Action::Adventure(a) => format!("adventure {}", self.adventures[*a as usize].id),
            Action::Pay(paid) => {
                let set = self.paying_with(state).unwrap_or(&self.knights);
                let mut words = vec!["pay".to_string()];
                for (t, &n) in paid.counts().iter().enumerate() {
                    words.extend(std::iter::repeat_n(set.ids[t].clone(), n as usize));
                }
                words.join(" ")
            }
            Action::Draw => "draw".into(),
            Action::Pass => "pass".into(),
        }
    }

    /// The cards a payment is made of in the current phase.
    fn paying_with(&self, state: &State) -> Option<&CardSet> {
        match state.phase {
            Phase::PayChallenge { .. } => Some(&self.knights),
            Phase::PayAdventure { .. } => Some(&self.adversaries),
            _ => None,
        }
    }

    pub(crate) fn read(&self, state: &State, text: &str) -> Result<Action, String> {
        let lower = text.trim().to_lowercase();
        let mut words = lower.split_whitespace();
        let Some(verb) = words.next() else {
            return Err("type a move, or `help`".into());
        };
        let rest: Vec<&str> = words.collect();
        let no_argument = |action: Action| {
            if rest.is_empty() {
                Ok(action)
            } else {
                Err(format!("`{verb}` takes no argument"))
            }
        };
        match verb {
            "replenish" => no_argument(Action::Replenish),
            "draw" => no_argument(Action::Draw),
            "pass" => no_argument(Action::Pass),
            "challenge" | "double" | "repeat" => {
                let target = one_card(&self.adversaries, verb, &rest, "adversary")?;
                let mode = match verb {
                    "double" => Mode::Double,
                    "repeat" => Mode::Repeat,
                    _ if self.seals() => Mode::Seal,
                    _ => Mode::Take,
                };
                Ok(Action::Challenge { target, mode })
            }
            "adventure" => {
                let wanted = rest.join(" ");
                if wanted.is_empty() {
                    return Err("which adventure? e.g. `adventure holy-grail`".into());
                }
                let found = self.adventures.iter().position(|a| {
                    a.id == wanted
                        || a.name.to_lowercase() == wanted
                        || a.id == wanted.replace(' ', "-")
                });
                match found {
                    Some(i) => Ok(Action::Adventure(i as u8)),
                    None => Err(no_such(
                        "adventure",
                        &wanted,
                        self.adventures.iter().map(|a| a.id.as_str()),
                    )),
                }
            }
            "pay" => {
                let Some(set) = self.paying_with(state) else {
                    return Err("there is nothing to pay for now".into());
                };
                if rest.is_empty() {
                    return Err("pay with which cards? e.g. `pay red-1 red-1`".into());
                }
                let mut counts = vec![0u8; set.len()];
                for word in &rest {
                    let (id, times) = match word.split_once('*') {
                        Some((id, n)) => (
                            id,
                            n.parse::<u8>()
                                .map_err(|_| format!("`{word}`: expected card*count"))?,
                        ),
                        None => (*word, 1),
                    };
                    let t = set
                        .index(id)
                        .ok_or_else(|| no_such("card", id, set.ids.iter().map(String::as_str)))?;
                    counts[t as usize] = counts[t as usize].saturating_add(times);
                }
                Payment::from_counts(&counts)
                    .map(Action::Pay)
                    .ok_or_else(|| "too many card types".into())
            }
            other => Err(no_such("move", other, VERBS)),
        }
    }

    pub(crate) fn help(&self) -> String {
        let mut lines = vec![
            "Moves, in the order of a turn (each is optional; `pass` leaves it out):".to_string(),
            "  replenish              1. draw adversaries (only while every column is short)"
                .into(),
        ];
        if self.seals() {
            lines.push(
                "  challenge <adversary>  2. usual challenge: pay its power, put your seal on it"
                    .into(),
            );
            lines.push("  repeat <adversary>     2. one with your seal: pay its power again, take card and seal".into());
            lines.push(format!(
                "  double <adversary>     2. an unsealed one: pay {}× its power, take it at once",
                self.n.double_challenge_factor
            ));
        } else {
            lines.push(
                "  challenge <adversary>  2. pay its power in knight cards and take it".into(),
            );
        }
        lines.extend([
            "  adventure <adventure>  3. take an adventure, then pay adversaries for it".into(),
            "  pay <card> <card> …    pay for the challenge or adventure just chosen (card*2 = twice)".into(),
            format!(
                "  draw                   4. draw {}, {} if you neither challenged nor took an adventure",
                Count(self.n.knight_draw.into(), "knight card"),
                self.n.rest_draw
            ),
            "  pass                   leave out the current action (at the draw: end the turn)".into(),
        ]);
        lines.join("\n")
    }
}

fn one_card(set: &CardSet, verb: &str, rest: &[&str], what: &str) -> Result<u8, String> {
    match rest {
        [id] => set
            .index(id)
            .ok_or_else(|| no_such(what, id, set.ids.iter().map(String::as_str))),
        [] => Err(format!(
            "{verb} which {what}? e.g. `{verb} {}`",
            set.ids.last().map_or("", String::as_str)
        )),
        _ => Err(format!("`{verb}` takes one {what}")),
    }
}
