//! An exchange: a group trades items by offers, and nothing changes hands until everyone is
//! content. Participants take turns in a fixed order; on his turn a participant makes one
//! move:
//!
//! - **offer** another participant an item for an item (`give` for `ask`), a gift (`ask`
//!   empty) or a request (`give` empty);
//! - **accept** or **refuse** an offer addressed to him;
//! - **cancel** an offer he made that is still open, or any accepted offer he is party to
//!   (either side may back out until the exchange settles);
//! - declare himself **done**, which he may only do with no offer waiting for his answer.
//!
//! Any change (every move but `done`) makes everyone undecided again, so a participant can
//! react to what the others did. The exchange ends when every participant is done; the
//! accepted offers then settle, in the order they were made.
//!
//! Items are promised as they are offered: a participant cannot offer or agree to pay an
//! item he does not hold beyond what his open offers and accepted deals already promise, so
//! settling never fails. The caller says how many of each item a participant holds.
//!
//! Every exchange ends: each participant makes at most `limit` offers, each offer is
//! answered or cancelled at most once, and `done` is only undone by a change.
//!
//! Seats are `u8` here (a table has far fewer than 256 seats).

/// A tradable thing: a card type `card` of the caller's card set `set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Item {
    pub set: u8,
    pub card: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Offer {
    /// Numbered from 1 in the order offers are made; the number players refer to.
    pub id: u16,
    pub from: u8,
    pub to: u8,
    /// What `from` hands over, if anything.
    pub give: Option<Item>,
    /// What `from` wants back from `to`, if anything.
    pub ask: Option<Item>,
    /// `to` agreed; it settles unless one of them cancels.
    pub accepted: bool,
}

impl Offer {
    /// Whether `seat` is one side of the offer.
    pub fn involves(&self, seat: u8) -> bool {
        self.from == seat || self.to == seat
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExchangeMove {
    Offer {
        to: u8,
        give: Option<Item>,
        ask: Option<Item>,
    },
    Accept(u16),
    Refuse(u16),
    Cancel(u16),
    Done,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Exchange {
    /// Participants in turn order.
    order: Vec<u8>,
    /// Index into `order` of the participant to move.
    turn: u8,
    /// Per position in `order`: done until something changes.
    done: Vec<bool>,
    /// Per position in `order`: offers made so far.
    made: Vec<u8>,
    /// Open and accepted offers, in the order made.
    offers: Vec<Offer>,
    next_id: u16,
    limit: u8,
}

impl Exchange {
    /// An exchange among `order` (turn order, the first moves first), each making at most
    /// `limit` offers.
    pub fn new(order: &[u8], limit: u8) -> Exchange {
        Exchange {
            order: order.to_vec(),
            turn: 0,
            done: vec![false; order.len()],
            made: vec![0; order.len()],
            offers: Vec::with_capacity(usize::from(limit) * order.len()),
            next_id: 1,
            limit,
        }
    }

    pub fn participants(&self) -> &[u8] {
        &self.order
    }

    pub fn is_participant(&self, seat: u8) -> bool {
        self.order.contains(&seat)
    }

    /// Open and accepted offers, in the order made.
    pub fn offers(&self) -> &[Offer] {
        &self.offers
    }

    pub fn offer(&self, id: u16) -> Option<&Offer> {
        self.offers.iter().find(|o| o.id == id)
    }

    /// The accepted offers, which settle when the exchange ends, in the order made.
    pub fn accepted(&self) -> impl Iterator<Item = &Offer> {
        self.offers.iter().filter(|o| o.accepted)
    }

    /// Every participant is done (so no offer waits for an answer).
    pub fn finished(&self) -> bool {
        self.done.iter().all(|&d| d)
    }

    /// Who moves now; `None` once finished.
    pub fn to_move(&self) -> Option<u8> {
        (!self.finished()).then(|| self.order[usize::from(self.turn)])
    }

    /// Whether `seat` has declared himself done (and nothing changed since).
    pub fn is_done(&self, seat: u8) -> bool {
        self.position(seat).is_some_and(|p| self.done[p])
    }

    /// Offers `seat` may still make.
    pub fn offers_left(&self, seat: u8) -> u8 {
        self.position(seat)
            .map_or(0, |p| self.limit.saturating_sub(self.made[p]))
    }

    /// How many of `item` `seat` has promised: gives of its live offers and asks of the
    /// offers it accepted.
    pub fn promised(&self, seat: u8, item: Item) -> u8 {
        let mut n = 0u8;
        for o in &self.offers {
            if o.from == seat && o.give == Some(item) {
                n = n.saturating_add(1);
            }
            if o.to == seat && o.accepted && o.ask == Some(item) {
                n = n.saturating_add(1);
            }
        }
        n
    }

    /// Whether `seat` holds an unpromised `item`, given it holds `held` of them.
    fn free(&self, seat: u8, item: Item, held: u8) -> bool {
        held > self.promised(seat, item)
    }

    /// Every legal move of the participant to move, in a stable order: answers to offers
    /// made to him, cancellations, new offers (to each other participant in turn order; for
    /// each thing to give, nothing first, each thing to ask, nothing first), then done.
    /// `gives` lists the items that may be offered, `asks` those that may be asked for;
    /// `held(seat, item)` says how many a seat holds; `push` receives each move.
    pub fn legal(
        &self,
        gives: &[Item],
        asks: &[Item],
        held: impl Fn(u8, Item) -> u8,
        mut push: impl FnMut(ExchangeMove),
    ) {
        let Some(me) = self.to_move() else {
            return;
        };
        for o in self.offers.iter().filter(|o| o.to == me && !o.accepted) {
            let payable = o.ask.is_none_or(|a| self.free(me, a, held(me, a)));
            if payable {
                push(ExchangeMove::Accept(o.id));
            }
            push(ExchangeMove::Refuse(o.id));
        }
        for o in &self.offers {
            if (o.from == me && !o.accepted) || (o.accepted && o.involves(me)) {
                push(ExchangeMove::Cancel(o.id));
            }
        }
        if self.offers_left(me) > 0 {
            for &to in self.order.iter().filter(|&&s| s != me) {
                let to_give = std::iter::once(None).chain(
                    gives
                        .iter()
                        .filter(|&&i| self.free(me, i, held(me, i)))
                        .map(|&i| Some(i)),
                );
                for give in to_give {
                    for ask in std::iter::once(None).chain(asks.iter().map(|&i| Some(i))) {
                        if give.is_some() || ask.is_some() {
                            push(ExchangeMove::Offer { to, give, ask });
                        }
                    }
                }
            }
        }
        if !self.awaits_answer(me) {
            push(ExchangeMove::Done);
        }
    }

    /// Whether an offer to `seat` waits for its answer.
    pub fn awaits_answer(&self, seat: u8) -> bool {
        self.offers.iter().any(|o| o.to == seat && !o.accepted)
    }

    /// Why `mv` is not legal for the participant to move, or `None` if it is.
    pub fn why_not(&self, mv: &ExchangeMove, held: impl Fn(u8, Item) -> u8) -> Option<String> {
        let Some(me) = self.to_move() else {
            return Some("the exchange is over".into());
        };
        let find = |id: u16| {
            self.offer(id)
                .ok_or_else(|| format!("there is no offer #{id}"))
        };
        let reason = match *mv {
            ExchangeMove::Offer { to, give, ask } => {
                if to == me {
                    "you cannot trade with yourself".into()
                } else if !self.is_participant(to) {
                    "that player is not taking part".into()
                } else if give.is_none() && ask.is_none() {
                    "an offer must give or ask something".into()
                } else if self.offers_left(me) == 0 {
                    format!("you have made all {} offers you may make", self.limit)
                } else if give.is_some_and(|g| !self.free(me, g, held(me, g))) {
                    "you do not hold that card, or it is already promised".into()
                } else {
                    return None;
                }
            }
            ExchangeMove::Accept(id) | ExchangeMove::Refuse(id) => match find(id) {
                Err(e) => e,
                Ok(o) if o.to != me => format!("offer #{id} is not addressed to you"),
                Ok(o) if o.accepted => format!("you already accepted offer #{id}"),
                Ok(o) => match (mv, o.ask) {
                    (ExchangeMove::Accept(_), Some(a)) if !self.free(me, a, held(me, a)) => {
                        "you do not hold what it asks for, or it is already promised".into()
                    }
                    _ => return None,
                },
            },
            ExchangeMove::Cancel(id) => match find(id) {
                Err(e) => e,
                Ok(o) if !o.involves(me) => format!("offer #{id} is not yours"),
                Ok(o) if !o.accepted && o.from != me => {
                    format!("offer #{id} was made to you: accept or refuse it")
                }
                Ok(_) => return None,
            },
            ExchangeMove::Done => {
                if self.awaits_answer(me) {
                    "answer the offers made to you first".into()
                } else {
                    return None;
                }
            }
        };
        Some(reason)
    }

    /// Carries out a legal move of the participant to move.
    pub fn apply(&mut self, mv: &ExchangeMove) {
        let Some(me) = self.to_move() else {
            return;
        };
        let at = usize::from(self.turn);
        match *mv {
            ExchangeMove::Done => {
                self.done[at] = true;
                self.advance();
                return;
            }
            ExchangeMove::Offer { to, give, ask } => {
                self.made[at] = self.made[at].saturating_add(1);
                self.offers.push(Offer {
                    id: self.next_id,
                    from: me,
                    to,
                    give,
                    ask,
                    accepted: false,
                });
                self.next_id += 1;
            }
            ExchangeMove::Accept(id) => {
                if let Some(o) = self.offers.iter_mut().find(|o| o.id == id) {
                    o.accepted = true;
                }
            }
            ExchangeMove::Refuse(id) | ExchangeMove::Cancel(id) => {
                self.offers.retain(|o| o.id != id);
            }
        }
        // A change: everyone may want to react to it.
        self.done.iter_mut().for_each(|d| *d = false);
        self.advance();
    }

    /// The next participant in order who is not done.
    fn advance(&mut self) {
        let n = self.order.len();
        for step in 1..=n {
            let i = (usize::from(self.turn) + step) % n;
            if !self.done[i] {
                self.turn = i as u8;
                return;
            }
        }
    }

    fn position(&self, seat: u8) -> Option<usize> {
        self.order.iter().position(|&s| s == seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Item = Item { set: 0, card: 0 };
    const B: Item = Item { set: 0, card: 1 };

    /// Seat 0 holds one A, seat 1 one B, seat 2 nothing.
    fn held(seat: u8, item: Item) -> u8 {
        u8::from((seat == 0 && item == A) || (seat == 1 && item == B))
    }

    fn legal(x: &Exchange) -> Vec<ExchangeMove> {
        let mut out = Vec::new();
        x.legal(&[A, B], &[A, B], held, |m| out.push(m));
        out
    }

    #[test]
    fn nothing_settles_until_everyone_is_done() {
        let mut x = Exchange::new(&[0, 1, 2], 2);
        assert_eq!(x.to_move(), Some(0));
        let offer = ExchangeMove::Offer {
            to: 1,
            give: Some(A),
            ask: Some(B),
        };
        assert!(legal(&x).contains(&offer));
        x.apply(&offer);
        assert_eq!(x.to_move(), Some(1));
        // An offer waits for its answer: no `done` for its addressee.
        assert!(!legal(&x).contains(&ExchangeMove::Done));
        assert!(x.why_not(&ExchangeMove::Done, held).is_some());
        x.apply(&ExchangeMove::Accept(1));
        assert_eq!(x.promised(1, B), 1);
        for seat in [2, 0, 1] {
            assert_eq!(x.to_move(), Some(seat));
            x.apply(&ExchangeMove::Done);
        }
        assert!(x.finished());
        assert_eq!(x.accepted().count(), 1);
    }

    #[test]
    fn a_change_makes_everyone_undecided_again() {
        let mut x = Exchange::new(&[0, 1, 2], 2);
        x.apply(&ExchangeMove::Done);
        x.apply(&ExchangeMove::Done);
        // Seat 2 asks seat 0 for A: seats 0 and 1 must decide again.
        x.apply(&ExchangeMove::Offer {
            to: 0,
            give: None,
            ask: Some(A),
        });
        assert_eq!(x.to_move(), Some(0));
        x.apply(&ExchangeMove::Refuse(1));
        assert!(x.offers().is_empty());
        for seat in [1, 2, 0] {
            assert_eq!(x.to_move(), Some(seat));
            x.apply(&ExchangeMove::Done);
        }
        assert!(x.finished());
    }

    #[test]
    fn promised_cards_cannot_be_promised_twice() {
        let mut x = Exchange::new(&[0, 1, 2], 3);
        x.apply(&ExchangeMove::Offer {
            to: 1,
            give: Some(A),
            ask: None,
        });
        // Seat 0's only A is promised; seat 1 asks for it anyway, seat 0 cannot accept.
        x.apply(&ExchangeMove::Offer {
            to: 0,
            give: None,
            ask: Some(A),
        });
        x.apply(&ExchangeMove::Done); // seat 2
        assert_eq!(x.to_move(), Some(0));
        let moves = legal(&x);
        assert!(!moves.contains(&ExchangeMove::Accept(2)));
        assert!(moves.contains(&ExchangeMove::Refuse(2)));
        assert!(
            !moves
                .iter()
                .any(|m| matches!(m, ExchangeMove::Offer { give: Some(_), .. }))
        );
        assert!(x.why_not(&ExchangeMove::Accept(2), held).is_some());
    }

    #[test]
    fn either_side_may_back_out_of_an_accepted_deal() {
        let mut x = Exchange::new(&[0, 1], 1);
        x.apply(&ExchangeMove::Offer {
            to: 1,
            give: Some(A),
            ask: None,
        });
        x.apply(&ExchangeMove::Accept(1));
        assert_eq!(x.to_move(), Some(0));
        assert!(legal(&x).contains(&ExchangeMove::Cancel(1)));
        // The limit is reached: seat 0 may not offer again.
        assert!(
            !legal(&x)
                .iter()
                .any(|m| matches!(m, ExchangeMove::Offer { .. }))
        );
        x.apply(&ExchangeMove::Done);
        x.apply(&ExchangeMove::Cancel(1));
        assert_eq!(x.accepted().count(), 0);
    }

    #[test]
    fn every_exchange_ends() {
        // Always take the first legal move: offers are made, answered, cancelled, and the
        // exchange still ends.
        let mut x = Exchange::new(&[0, 1, 2], 2);
        let mut moves = 0;
        while !x.finished() {
            let mv = legal(&x)[0];
            x.apply(&mv);
            moves += 1;
            assert!(moves < 500, "the exchange does not end");
        }
    }
}
