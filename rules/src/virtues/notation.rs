//! The move notation. Actions: `embark green-knight`, `pray`, `pray for P3 with piety`,
//! `feast`, `tax guile`, `joust P2`, `duel P2`. On a quest: `present courage courage`,
//! `give up`, `stay`, `wait`. Others: `contribute`, `withhold`, `decline`, `discard mercy`,
//! `honor P2`, `dishonor P2`, `pass`, `expire rescue-the-lady`, `prize saxon-gold`; feasts:
//! `offer P2 courage for guile`, `offer P2 love-token`, `ask P2 mercy`, `accept 1`,
//! `refuse 1`, `cancel 1`, `done`; matches: `open courage`, `skip`, `answer mercy`,
//! `refuse`; splits: `allot P2`, `dispute`, `agree`, `disagree`.
//!
//! A quest in play is named by its card id, with `#2`, `#3` … for a second or third copy in
//! play (in the order they were placed).

use grail_engine::counts::Counts;
use grail_engine::diag::no_such;
use grail_engine::exchange::{ExchangeMove, Item};
use grail_engine::joint::JointMove;
use grail_engine::proposal::ProposalMove;
use grail_engine::seats::parse_seat;
use grail_engine::showdown::ShowdownMove;

use super::state::{Action, Card, Seat, State, TREASURE_SET, VIRTUE_SET};
use super::{CardSet, Virtues};

const VERBS: [&str; 31] = [
    "embark",
    "pray",
    "feast",
    "tax",
    "joust",
    "duel",
    "stay",
    "give",
    "present",
    "wait",
    "decline",
    "contribute",
    "withhold",
    "discard",
    "honor",
    "dishonor",
    "pass",
    "expire",
    "prize",
    "offer",
    "ask",
    "accept",
    "refuse",
    "cancel",
    "done",
    "open",
    "skip",
    "answer",
    "allot",
    "dispute",
    "agree",
];

impl Virtues {
    pub(crate) fn notation(&self, state: &State, action: &Action) -> String {
        let seat = |s: Seat| format!("P{}", s + 1);
        let virtue = |t: Card| self.virtues.ids[usize::from(t)].as_str();
        match *action {
            Action::Embark(i) => format!("embark {}", self.quest_ref(state, i)),
            Action::Pray { knight, aid } => {
                let mut text = "pray".to_string();
                if let Some(k) = knight {
                    text += &format!(" for {}", seat(k));
                }
                if let Some(a) = aid {
                    text += &format!(" with {}", virtue(a));
                }
                text
            }
            Action::Feast => "feast".into(),
            Action::Tax(t) => format!("tax {}", virtue(t)),
            Action::Joust(s) => format!("joust {}", seat(s)),
            Action::Duel(s) => format!("duel {}", seat(s)),
            Action::Stay => "stay".into(),
            Action::GiveUp => "give up".into(),
            Action::Present(cards) => format!("present {}", self.virtue_list(&cards)),
            Action::Wait => "wait".into(),
            Action::Decline => "decline".into(),
            Action::Joint(JointMove::Contribute) => "contribute".into(),
            Action::Joint(JointMove::Withhold) => "withhold".into(),
            Action::Discard(t) => format!("discard {}", virtue(t)),
            Action::Honor(s) => format!("honor {}", seat(s)),
            Action::Dishonor(s) => format!("dishonor {}", seat(s)),
            Action::Pass => "pass".into(),
            Action::Expire(i) => format!("expire {}", self.quest_ref(state, i)),
            Action::Prize(t) => format!("prize {}", self.treasures.ids[usize::from(t)]),
            Action::DrawPrize => "prize".into(),
            Action::Trade(mv) => match mv {
                ExchangeMove::Offer {
                    to,
                    give: Some(g),
                    ask: Some(a),
                } => format!(
                    "offer {} {} for {}",
                    seat(to),
                    self.item_id(g),
                    self.item_id(a)
                ),
                ExchangeMove::Offer {
                    to, give: Some(g), ..
                } => format!("offer {} {}", seat(to), self.item_id(g)),
                ExchangeMove::Offer {
                    to, ask: Some(a), ..
                } => format!("ask {} {}", seat(to), self.item_id(a)),
                ExchangeMove::Offer { to, .. } => format!("offer {} nothing", seat(to)),
                ExchangeMove::Accept(n) => format!("accept {n}"),
                ExchangeMove::Refuse(n) => format!("refuse {n}"),
                ExchangeMove::Cancel(n) => format!("cancel {n}"),
                ExchangeMove::Done => "done".into(),
            },
            Action::Show(mv) => match mv {
                ShowdownMove::Open(t) => format!("open {}", virtue(t)),
                ShowdownMove::Skip => "skip".into(),
                ShowdownMove::Answer(t) => format!("answer {}", virtue(t)),
                ShowdownMove::Refuse => "refuse".into(),
            },
            Action::Split(mv) => match mv {
                ProposalMove::Allot(s) => format!("allot {}", seat(s)),
                ProposalMove::Withdraw => "dispute".into(),
                ProposalMove::Agree => "agree".into(),
                ProposalMove::Disagree => "disagree".into(),
            },
        }
    }

    /// A quest in play by id, numbered when several copies are in play.
    pub(crate) fn quest_ref(&self, state: &State, i: u8) -> String {
        let Some(slot) = state.layout.get(usize::from(i)) else {
            return format!("#{}", i + 1);
        };
        let id = &self.quest_cards.ids[usize::from(slot.quest)];
        let same: Vec<usize> = (0..state.layout.len())
            .filter(|&j| state.layout[j].quest == slot.quest)
            .collect();
        if same.len() == 1 {
            id.clone()
        } else {
            let k = same.iter().position(|&j| j == usize::from(i)).unwrap_or(0);
            format!("{id}#{}", k + 1)
        }
    }

    pub(crate) fn item_id(&self, item: Item) -> &str {
        let set = if item.set == VIRTUE_SET {
            &self.virtues
        } else {
            &self.treasures
        };
        set.ids
            .get(usize::from(item.card))
            .map_or("?", String::as_str)
    }

    /// Virtue cards as ids, repeated per copy.
    pub(crate) fn virtue_list(&self, cards: &Counts) -> String {
        card_list(&self.virtues, cards)
    }

    pub(crate) fn read(&self, state: &State, text: &str) -> Result<Action, String> {
        let lower = text.trim().to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let Some((&verb, rest)) = words.split_first() else {
            return Err("type a move, or `help`".into());
        };
        let none = |action: Action| {
            if rest.is_empty() {
                Ok(action)
            } else {
                Err(format!("`{verb}` takes nothing more"))
            }
        };
        let players = state.count();
        let one_seat = |rest: &[&str]| -> Result<Seat, String> {
            match rest {
                [word] => seat_of(word, players),
                _ => Err(format!("`{verb}` names one player, e.g. `{verb} P2`")),
            }
        };
        let one_virtue = |rest: &[&str]| -> Result<Card, String> {
            match rest {
                [word] => card_of(&self.virtues, word, "virtue"),
                _ => Err(format!(
                    "`{verb}` names one virtue card, e.g. `{verb} courage`"
                )),
            }
        };
        let number = |rest: &[&str]| -> Result<u16, String> {
            match rest {
                [word] => word
                    .trim_start_matches('#')
                    .parse()
                    .map_err(|_| format!("`{verb}` takes an offer's number, e.g. `{verb} 1`")),
                _ => Err(format!("`{verb}` takes an offer's number, e.g. `{verb} 1`")),
            }
        };
        match verb {
            "embark" => Ok(Action::Embark(self.read_quest(state, rest)?)),
            "expire" => Ok(Action::Expire(self.read_quest(state, rest)?)),
            "pray" => {
                let mut knight = None;
                let mut aid = None;
                let mut words = rest.iter();
                while let Some(&w) = words.next() {
                    match (w, words.next()) {
                        ("for", Some(s)) => knight = Some(seat_of(s, players)?),
                        ("with", Some(c)) => aid = Some(card_of(&self.virtues, c, "virtue")?),
                        _ => {
                            return Err(
                                "pray as `pray`, `pray for P3`, `pray with piety` or `pray for P3 with piety`"
                                    .into(),
                            );
                        }
                    }
                }
                Ok(Action::Pray { knight, aid })
            }
            "feast" => none(Action::Feast),
            "tax" => Ok(Action::Tax(one_virtue(rest)?)),
            "joust" => Ok(Action::Joust(one_seat(rest)?)),
            "duel" => Ok(Action::Duel(one_seat(rest)?)),
            "stay" => none(Action::Stay),
            "give" => match rest {
                ["up"] => Ok(Action::GiveUp),
                _ => Err("did you mean `give up`?".into()),
            },
            "present" => Ok(Action::Present(self.read_virtues(rest)?)),
            "wait" => none(Action::Wait),
            "decline" => none(Action::Decline),
            "contribute" => none(Action::Joint(JointMove::Contribute)),
            "withhold" => none(Action::Joint(JointMove::Withhold)),
            "discard" => Ok(Action::Discard(one_virtue(rest)?)),
            "honor" => Ok(Action::Honor(one_seat(rest)?)),
            "dishonor" => Ok(Action::Dishonor(one_seat(rest)?)),
            "pass" => none(Action::Pass),
            "prize" => match rest {
                [word] => Ok(Action::Prize(card_of(&self.treasures, word, "treasure")?)),
                [] => Ok(Action::DrawPrize),
                _ => Err(
                    "`prize` names one treasure (`prize silver-goblet`), or none when prizes \
                     are drawn from the treasure deck"
                        .into(),
                ),
            },
            "offer" => {
                let (to, rest) = match rest.split_first() {
                    Some((w, rest)) => (seat_of(w, players)?, rest),
                    None => return Err("offer to whom? e.g. `offer P2 courage for guile`".into()),
                };
                let (give, ask) = match rest {
                    [g] => (self.read_item(g)?, None),
                    [g, "for", a] => (self.read_item(g)?, self.read_item(a)?),
                    _ => {
                        return Err(
                            "offer as `offer P2 <card>` (a gift) or `offer P2 <card> for <card>`"
                                .into(),
                        );
                    }
                };
                Ok(Action::Trade(ExchangeMove::Offer { to, give, ask }))
            }
            "ask" => match rest {
                [s, a] => Ok(Action::Trade(ExchangeMove::Offer {
                    to: seat_of(s, players)?,
                    give: None,
                    ask: self.read_item(a)?,
                })),
                _ => Err("ask as `ask P2 <card>`".into()),
            },
            "accept" => Ok(Action::Trade(ExchangeMove::Accept(number(rest)?))),
            "cancel" => Ok(Action::Trade(ExchangeMove::Cancel(number(rest)?))),
            "refuse" => match rest {
                [] => Ok(Action::Show(ShowdownMove::Refuse)),
                _ => Ok(Action::Trade(ExchangeMove::Refuse(number(rest)?))),
            },
            "done" => none(Action::Trade(ExchangeMove::Done)),
            "open" => Ok(Action::Show(ShowdownMove::Open(one_virtue(rest)?))),
            "skip" => none(Action::Show(ShowdownMove::Skip)),
            "answer" => Ok(Action::Show(ShowdownMove::Answer(one_virtue(rest)?))),
            "allot" => Ok(Action::Split(ProposalMove::Allot(one_seat(rest)?))),
            "dispute" => none(Action::Split(ProposalMove::Withdraw)),
            "agree" => none(Action::Split(ProposalMove::Agree)),
            "disagree" => none(Action::Split(ProposalMove::Disagree)),
            other => Err(no_such(
                "move",
                other,
                VERBS.iter().copied().chain(["disagree", "give up"]),
            )),
        }
    }

    fn read_quest(&self, state: &State, rest: &[&str]) -> Result<u8, String> {
        let [word] = rest else {
            return Err("name one quest in play by its id, e.g. `embark green-knight`".into());
        };
        let (id, copy) = match word.split_once('#') {
            Some((id, k)) => (
                id,
                k.parse::<usize>()
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or_else(|| format!("`{word}`: expected quest#number, e.g. `{id}#2`"))?,
            ),
            None => (*word, 1),
        };
        let Some(quest) = self.quest_cards.index(id) else {
            return Err(no_such(
                "quest",
                id,
                self.quest_cards.ids.iter().map(String::as_str),
            ));
        };
        (0..state.layout.len())
            .filter(|&j| state.layout[j].quest == quest)
            .nth(copy - 1)
            .map(|j| j as u8)
            .ok_or_else(|| {
                format!(
                    "{} is not in play",
                    self.quest_cards.names[usize::from(quest)]
                )
            })
    }

    fn read_virtues(&self, words: &[&str]) -> Result<Counts, String> {
        if words.is_empty() {
            return Err("present which virtue cards? e.g. `present courage courage`".into());
        }
        let mut counts = Counts::new();
        for word in words {
            let (id, times) = match word.split_once('*') {
                Some((id, n)) => (
                    id,
                    n.parse::<u8>()
                        .ok()
                        .filter(|&n| n <= 60)
                        .ok_or_else(|| format!("`{word}`: expected card*count"))?,
                ),
                None => (*word, 1),
            };
            let t = card_of(&self.virtues, id, "virtue")?;
            if u32::from(counts.get(t)) + u32::from(times) > 200 {
                return Err("that is more cards than the game has".into());
            }
            counts.add(t, times);
        }
        Ok(counts)
    }

    fn read_item(&self, word: &str) -> Result<Option<Item>, String> {
        if word == "nothing" {
            return Ok(None);
        }
        if let Some(t) = self.virtues.index(word) {
            return Ok(Some(Item {
                set: VIRTUE_SET,
                card: t,
            }));
        }
        if let Some(t) = self.treasures.index(word) {
            return Ok(Some(Item {
                set: TREASURE_SET,
                card: t,
            }));
        }
        Err(no_such(
            "card",
            word,
            self.virtues
                .ids
                .iter()
                .chain(&self.treasures.ids)
                .map(String::as_str),
        ))
    }

    pub(crate) fn help(&self) -> String {
        [
            "Your turn (one action):",
            "  embark <quest>            go on a quest in play (quest#2 for a second copy)",
            "  pray [for P3] [with <v>]  draw a virtue for yourself or a knight on a quest;",
            "                            `with piety` discards a prayer aid to draw more",
            "  feast                     everyone not on a quest offers and answers trades",
            "  tax <virtue>              discard a virtue card, draw a treasure",
            "  joust P2 | duel P2        challenge a knight who is not on a quest",
            "On a quest (your turn, or when asked after an action):",
            "  present <virtue> …        present the quest's virtues (card*2 = twice); the",
            "                            knights with you are asked for what you lack",
            "  give up | stay | wait",
            "Asked of you: contribute | withhold (cards for a fellow knight),",
            "  decline (a trial), discard <virtue> (a penalty), expire <quest>,",
            if self.n.joust_prize_from_deck {
                "  prize | pass (a joust: draw one),"
            } else {
                "  prize <treasure> | pass (a joust),"
            },
            "  honor P2 | dishonor P2 | pass (the king, after his action)",
            "Feast: offer P2 <card> [for <card>], ask P2 <card>, accept N, refuse N,",
            "  cancel N, done",
            "Joust or duel: open <virtue>, skip, answer <virtue>, refuse",
            "Sharing a reward: allot P2 (the next item), dispute, agree, disagree",
        ]
        .join("\n")
    }
}

pub(crate) fn card_list(set: &CardSet, cards: &Counts) -> String {
    let words: Vec<&str> = cards
        .cards()
        .filter_map(|t| set.ids.get(usize::from(t)).map(String::as_str))
        .collect();
    if words.is_empty() {
        "-".into()
    } else {
        words.join(" ")
    }
}

fn seat_of(word: &str, players: usize) -> Result<Seat, String> {
    parse_seat(word, players).map(|s| s as Seat).ok_or_else(|| {
        format!(
            "`{}` is not a player here (P1 … P{players})",
            word.to_uppercase()
        )
    })
}

fn card_of(set: &CardSet, word: &str, what: &str) -> Result<Card, String> {
    set.index(word)
        .ok_or_else(|| no_such(what, word, set.ids.iter().map(String::as_str)))
}
