//! "Bank race", a toy card game that exists only to exercise the engine in tests and
//! benchmarks (the CLI includes it too, behind the `toy-game` feature). It is small but
//! has what the real games have: a shuffled deck, hidden hands, a reshuffle from the
//! discard, a decision by a player whose turn it is not, and a shared win.
//!
//! 24 cards: values 1..=6 (`v1`..`v6`), four copies each. Each player is dealt 2 cards
//! (seat order, top of the deck first). On your turn: `draw` the top card, or `bank vN`: lay
//! a card from your hand face up to score its value. If the next player (clockwise) holds a
//! card of that value, they decide: `block` (both cards go to the discard, nobody scores) or
//! `pass` (the bank stands). The game ends after a turn when someone has 20 points
//! (`target`), after 80 turns (`time`), or when deck and discard are both empty
//! (`cards-out`). Most points wins; ties share the win.

#![allow(dead_code)]

use std::ops::RangeInclusive;

use grail_engine::counts::Counts;
use grail_engine::game::{EventSink, Outcome, Rules, Seat, Setup, Tally};
use grail_engine::pile::Pile;
use grail_engine::rng::GameRng;
use grail_engine::seats::{next_seat, parse_seat, seat_name};

const VALUES: u8 = 6;
const COPIES: u8 = 4;
const HAND: usize = 2;
const TARGET: u32 = 20;
const MAX_TURNS: u32 = 80;

#[derive(Clone, Debug, Default)]
pub struct Toy;

#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct ToyState {
    pub players: usize,
    pub deck: Pile,
    pub discard: Pile,
    pub hands: Vec<Counts>,
    pub banks: Vec<u32>,
    pub turn_seat: Seat,
    pub turns: u32,
    /// A bank waiting for the next player's answer: (banker, card).
    pub pending: Option<(Seat, u8)>,
    pub end: Option<&'static str>,
    /// (kind, card, turn, seat) for the balance tallies.
    pub log: Vec<(&'static str, u8, u32, Seat)>,
    pub rng: GameRng,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToyAction {
    Draw,
    Bank(u8),
    Block,
    Pass,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToyEvent {
    Drew(Seat),
    Reshuffled,
    Banked(Seat, u8),
    Blocked(Seat, u8),
    Ended(&'static str),
}

fn value(card: u8) -> u32 {
    u32::from(card) + 1
}

fn card_name(card: u8) -> String {
    format!("v{}", value(card))
}

fn parse_card(text: &str) -> Result<u8, String> {
    let digits = text.strip_prefix('v').unwrap_or(text);
    match digits.parse::<u8>() {
        Ok(v) if (1..=VALUES).contains(&v) => Ok(v - 1),
        _ => Err(format!(
            "'{text}' is no card; the cards are v1 to v{VALUES}"
        )),
    }
}

fn hand_text(hand: &Counts) -> String {
    let names: Vec<String> = hand.cards().map(card_name).collect();
    if names.is_empty() {
        "-".to_string()
    } else {
        names.join(" ")
    }
}

impl Toy {
    fn end_turn(&self, s: &mut ToyState, events: &mut impl EventSink<ToyEvent>) {
        s.turns += 1;
        let end = if s.banks.iter().any(|&b| b >= TARGET) {
            Some("target")
        } else if s.turns >= MAX_TURNS {
            Some("time")
        } else if s.deck.is_empty() && s.discard.is_empty() {
            Some("cards-out")
        } else {
            None
        };
        if let Some(reason) = end {
            s.end = Some(reason);
            events.emit(|| ToyEvent::Ended(reason));
        } else {
            s.turn_seat = next_seat(s.turn_seat, s.players);
        }
    }
}

impl Rules for Toy {
    type State = ToyState;
    type Action = ToyAction;
    type Event = ToyEvent;

    fn game_id(&self) -> &str {
        "toy"
    }
    fn variant(&self) -> Option<&str> {
        None
    }
    fn players(&self) -> RangeInclusive<usize> {
        2..=4
    }

    fn setup(&self, setup: &Setup) -> Result<ToyState, String> {
        let players = setup.players;
        if !self.players().contains(&players) {
            return Err(format!("the toy game is for 2 to 4 players, not {players}"));
        }
        let mut rng = GameRng::new(setup.seed);
        let all: Vec<u8> = (0..VALUES)
            .flat_map(|c| std::iter::repeat_n(c, usize::from(COPIES)))
            .collect();
        let mut deck = Pile::from_bottom_up(&all, all.len());
        deck.shuffle(&mut rng);
        for (pile, cards) in &setup.stack {
            if pile != "deck" {
                return Err(format!("unknown pile '{pile}'; the toy game has: deck"));
            }
            let ids = cards
                .iter()
                .map(|c| parse_card(c))
                .collect::<Result<Vec<u8>, String>>()?;
            deck.stack_top(&ids)
                .map_err(|e| format!("cannot stack {}: {e}", card_name(e.card)))?;
        }
        let mut hands = vec![Counts::new(); players];
        for hand in &mut hands {
            for _ in 0..HAND {
                hand.add(deck.draw().expect("24 cards deal 4 hands"), 1);
            }
        }
        Ok(ToyState {
            players,
            deck,
            discard: Pile::with_capacity(all.len()),
            hands,
            banks: vec![0; players],
            turn_seat: 0,
            turns: 0,
            pending: None,
            end: None,
            log: Vec::with_capacity(64),
            rng,
        })
    }

    fn to_move(&self, s: &ToyState) -> Option<Seat> {
        if s.end.is_some() {
            None
        } else if let Some((banker, _)) = s.pending {
            Some(next_seat(banker, s.players))
        } else {
            Some(s.turn_seat)
        }
    }

    fn legal_actions(&self, s: &ToyState, out: &mut Vec<ToyAction>) {
        out.clear();
        if s.end.is_some() {
            return;
        }
        if s.pending.is_some() {
            out.push(ToyAction::Block);
            out.push(ToyAction::Pass);
            return;
        }
        if !(s.deck.is_empty() && s.discard.is_empty()) {
            out.push(ToyAction::Draw);
        }
        for (card, _) in s.hands[s.turn_seat].iter() {
            out.push(ToyAction::Bank(card));
        }
    }

    fn apply(&self, s: &mut ToyState, action: &ToyAction, events: &mut impl EventSink<ToyEvent>) {
        let seat = self.to_move(s).expect("apply on a finished game");
        match *action {
            ToyAction::Draw => {
                if s.deck.is_empty() {
                    s.deck.refill_from(&mut s.discard, &mut s.rng);
                    events.emit(|| ToyEvent::Reshuffled);
                }
                let card = s.deck.draw().expect("draw is legal only with cards left");
                s.hands[seat].add(card, 1);
                events.emit(|| ToyEvent::Drew(seat));
                self.end_turn(s, events);
            }
            ToyAction::Bank(card) => {
                s.hands[seat].remove(card, 1);
                let responder = next_seat(seat, s.players);
                if s.hands[responder].contains(card) {
                    s.pending = Some((seat, card));
                } else {
                    s.banks[seat] += value(card);
                    s.log.push(("bank", card, s.turns, seat));
                    events.emit(|| ToyEvent::Banked(seat, card));
                    self.end_turn(s, events);
                }
            }
            ToyAction::Block => {
                let (banker, card) = s.pending.take().expect("block answers a bank");
                let _ = banker;
                s.hands[seat].remove(card, 1);
                s.discard.push(card);
                s.discard.push(card);
                s.log.push(("block", card, s.turns, seat));
                events.emit(|| ToyEvent::Blocked(seat, card));
                self.end_turn(s, events);
            }
            ToyAction::Pass => {
                let (banker, card) = s.pending.take().expect("pass answers a bank");
                s.banks[banker] += value(card);
                s.log.push(("bank", card, s.turns, banker));
                events.emit(|| ToyEvent::Banked(banker, card));
                self.end_turn(s, events);
            }
        }
    }

    fn why_illegal(&self, s: &ToyState, action: &ToyAction) -> String {
        if s.end.is_some() {
            return "the game is over".into();
        }
        match (s.pending, action) {
            (Some((banker, card)), ToyAction::Draw | ToyAction::Bank(_)) => format!(
                "{} must first answer {}'s bank of {}: block or pass",
                seat_name(next_seat(banker, s.players)),
                seat_name(banker),
                card_name(card)
            ),
            (None, ToyAction::Block | ToyAction::Pass) => "no bank is waiting for an answer".into(),
            (None, ToyAction::Bank(card)) => format!("you hold no {}", card_name(*card)),
            (None, ToyAction::Draw) => "the deck and the discard are empty".into(),
            (Some(_), _) => "not legal now".into(),
        }
    }

    fn outcome(&self, s: &ToyState) -> Option<Outcome> {
        let end = s.end?;
        let best = *s.banks.iter().max().expect("at least two players");
        Some(Outcome {
            scores: s.banks.iter().map(|&b| i64::from(b)).collect(),
            winners: (0..s.players).filter(|&p| s.banks[p] == best).collect(),
            end: end.to_string(),
            turns: s.turns,
            tallies: s
                .log
                .iter()
                .map(|&(kind, card, turn, seat)| Tally {
                    kind: kind.into(),
                    item: card_name(card).into(),
                    turn,
                    seat: Some(seat),
                })
                .collect(),
        })
    }

    fn observe(&self, s: &ToyState, seat: Seat, rng: &mut GameRng) -> ToyState {
        let mut view = s.clone();
        // Everything `seat` cannot see: the deck and the other hands. Re-deal it from a
        // canonical order so the result does not depend on where the cards really are.
        let mut unseen = Counts::new();
        for &c in s.deck.as_slice() {
            unseen.add(c, 1);
        }
        for (p, hand) in s.hands.iter().enumerate() {
            if p != seat {
                unseen.add_all(hand);
            }
        }
        let mut cards: Vec<u8> = unseen.cards().collect();
        rng.shuffle(&mut cards);
        let mut next = cards.into_iter();
        for p in 0..s.players {
            if p != seat {
                let n = s.hands[p].total();
                view.hands[p] = next.by_ref().take(n as usize).collect();
            }
        }
        let rest: Vec<u8> = next.collect();
        view.deck = Pile::from_bottom_up(&rest, 24);
        view.rng = rng.fork();
        view
    }

    fn heuristic(&self, s: &ToyState, seat: Seat) -> f64 {
        let mine = f64::from(s.banks[seat]);
        let best_other = (0..s.players)
            .filter(|&p| p != seat)
            .map(|p| s.banks[p])
            .max()
            .unwrap_or(0);
        let hand: u32 = s.hands[seat].cards().map(value).sum();
        mine - f64::from(best_other) + 0.5 * f64::from(hand)
    }

    fn format_action(&self, _: &ToyState, action: &ToyAction) -> String {
        match action {
            ToyAction::Draw => "draw".into(),
            ToyAction::Bank(c) => format!("bank {}", card_name(*c)),
            ToyAction::Block => "block".into(),
            ToyAction::Pass => "pass".into(),
        }
    }

    fn parse_action(&self, _: &ToyState, text: &str) -> Result<ToyAction, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["draw"] => Ok(ToyAction::Draw),
            ["block"] => Ok(ToyAction::Block),
            ["pass"] => Ok(ToyAction::Pass),
            ["bank", card] => parse_card(card).map(ToyAction::Bank),
            ["bank"] => Err("bank which card? e.g. 'bank v3'".into()),
            _ => Err("expected draw, bank vN, block or pass".into()),
        }
    }

    fn describe_event(&self, _: &ToyState, event: &ToyEvent) -> String {
        match event {
            ToyEvent::Drew(p) => format!("{} draws a card", seat_name(*p)),
            ToyEvent::Reshuffled => "the discard is shuffled into a new deck".into(),
            ToyEvent::Banked(p, c) => format!("{} banks {}", seat_name(*p), card_name(*c)),
            ToyEvent::Blocked(p, c) => format!("{} blocks the {}", seat_name(*p), card_name(*c)),
            ToyEvent::Ended(r) => format!("the game ends ({r})"),
        }
    }

    fn render(&self, s: &ToyState, seat: Option<Seat>) -> String {
        let mut out = format!(
            "turn {}  deck {}  discard {}\n",
            s.turns + 1,
            s.deck.len(),
            s.discard.len()
        );
        for p in 0..s.players {
            let hand = if seat == Some(p) {
                hand_text(&s.hands[p])
            } else {
                format!("{} cards", s.hands[p].total())
            };
            out += &format!("{}: bank {:>2}  hand {}\n", seat_name(p), s.banks[p], hand);
        }
        if let Some((banker, card)) = s.pending {
            out += &format!(
                "{} banks {}; {} may block\n",
                seat_name(banker),
                card_name(card),
                seat_name(next_seat(banker, s.players))
            );
        }
        out
    }

    fn inspect(&self, s: &ToyState, query: &str) -> Result<String, String> {
        let words: Vec<&str> = query.split_whitespace().collect();
        let seat =
            |w: &str| parse_seat(w, s.players).ok_or_else(|| format!("no seat '{w}' in this game"));
        match words.as_slice() {
            ["score", p] => Ok(s.banks[seat(p)?].to_string()),
            ["hand", p] => Ok(hand_text(&s.hands[seat(p)?])),
            ["deck"] => Ok(s.deck.len().to_string()),
            ["top"] => Ok(s.deck.top().map_or("-".into(), card_name)),
            ["turn"] => Ok(s.turns.to_string()),
            ["to-move"] => Ok(self.to_move(s).map_or("-".into(), seat_name)),
            _ => Err(format!(
                "unknown query '{query}'; try: score P1, hand P1, deck, top, turn, to-move"
            )),
        }
    }

    fn prompt(&self, state: &ToyState) -> String {
        match state.pending {
            Some((banker, card)) => {
                format!("answer P{}'s bank of v{card}: block or pass", banker + 1)
            }
            None => "draw a card or bank one".into(),
        }
    }

    fn notation_help(&self) -> String {
        "draw       take the top card of the deck\n\
         bank vN    score a card of value N from your hand\n\
         block      (answering a bank) discard the same value to cancel it\n\
         pass       (answering a bank) let it stand"
            .into()
    }

    /// The 24 cards are in the deck, the discard, a hand, a pending bank, or banked.
    fn check_invariants(&self, s: &ToyState) -> Result<(), String> {
        let banked = s.log.iter().filter(|(kind, ..)| *kind == "bank").count();
        let held: usize = s.hands.iter().map(|h| h.total() as usize).sum();
        let total =
            s.deck.len() + s.discard.len() + held + usize::from(s.pending.is_some()) + banked;
        let expected = usize::from(VALUES) * usize::from(COPIES);
        if total == expected {
            Ok(())
        } else {
            Err(format!("{total} cards accounted for, not {expected}"))
        }
    }
}
