//! A joint payment: a group pays one bill of cards together (knights combining cards on a
//! quest). Whoever starts it pays what he can of the bill from his own hand; then each other
//! member in turn who holds something still missing is asked to add what he can of it, or
//! to withhold. The bill is met as soon as nothing is missing, and unmet once everyone has
//! been asked and something still is.
//!
//! Nothing is moved here: the caller passes what each member holds and, when the payment is
//! met, takes each member's part ([`JointPayment::parts`]) from his hand.

use crate::counts::Counts;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JointMove {
    /// Add what one holds of the missing cards.
    Contribute,
    Withhold,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JointPayment {
    bill: Counts,
    missing: Counts,
    /// Each member's part so far, the starter first.
    parts: Vec<(u8, Counts)>,
    /// The other members, in the order they are asked.
    asked: Vec<u8>,
    /// Index into `asked` of the member to answer.
    next: u8,
}

/// What of `want` can be paid from `held`: the per-type minimum.
fn part_of(want: &Counts, held: &Counts) -> Counts {
    let mut part = Counts::EMPTY;
    for (t, n) in want.iter() {
        part.add(t, n.min(held.get(t)));
    }
    part
}

impl JointPayment {
    /// `payer` starts paying `bill`; `others` (in the order to ask them) may add to it.
    /// `held(seat)` is what a member holds.
    pub fn new(
        payer: u8,
        others: &[u8],
        bill: Counts,
        held: impl Fn(u8) -> Counts,
    ) -> JointPayment {
        let own = part_of(&bill, &held(payer));
        let mut missing = bill;
        for (t, n) in own.iter() {
            missing.remove(t, n);
        }
        let mut payment = JointPayment {
            bill,
            missing,
            parts: vec![(payer, own)],
            asked: others.to_vec(),
            next: 0,
        };
        payment.settle(held);
        payment
    }

    pub fn bill(&self) -> &Counts {
        &self.bill
    }

    /// What is still missing.
    pub fn missing(&self) -> &Counts {
        &self.missing
    }

    /// Each member's part, the starter first (members who gave nothing included).
    pub fn parts(&self) -> &[(u8, Counts)] {
        &self.parts
    }

    /// `Some(true)` once met, `Some(false)` once unmet, `None` while members are asked.
    pub fn result(&self) -> Option<bool> {
        if self.missing.is_empty() {
            Some(true)
        } else if usize::from(self.next) >= self.asked.len() {
            Some(false)
        } else {
            None
        }
    }

    /// The member asked now.
    pub fn to_move(&self) -> Option<u8> {
        match self.result() {
            None => Some(self.asked[usize::from(self.next)]),
            Some(_) => None,
        }
    }

    /// The legal moves of the member asked, each given to `push`.
    pub fn legal(&self, mut push: impl FnMut(JointMove)) {
        if self.to_move().is_some() {
            push(JointMove::Contribute);
            push(JointMove::Withhold);
        }
    }

    pub fn apply(&mut self, mv: &JointMove, held: impl Fn(u8) -> Counts) {
        let Some(seat) = self.to_move() else {
            return;
        };
        if *mv == JointMove::Contribute {
            let part = part_of(&self.missing, &held(seat));
            for (t, n) in part.iter() {
                self.missing.remove(t, n);
            }
            self.parts.push((seat, part));
        }
        self.next += 1;
        self.settle(held);
    }

    /// Members who hold nothing that is missing are not asked.
    fn settle(&mut self, held: impl Fn(u8) -> Counts) {
        while self.result().is_none() {
            let seat = self.asked[usize::from(self.next)];
            if !part_of(&self.missing, &held(seat)).is_empty() {
                return;
            }
            self.next += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(seat: u8) -> Counts {
        match seat {
            0 => Counts::from_types(&[0]),
            1 => Counts::from_types(&[2]),
            2 => Counts::from_types(&[1, 1, 1]),
            _ => Counts::EMPTY,
        }
    }

    #[test]
    fn members_add_what_is_missing_in_turn() {
        // Two of type 1 and one of type 0: seat 0 pays the 0, seat 1 holds nothing missing
        // and is not asked, seat 2 adds two 1s (not its third).
        let bill = Counts::from_types(&[0, 1, 1]);
        let mut p = JointPayment::new(0, &[1, 2], bill, held);
        assert_eq!(p.to_move(), Some(2));
        p.apply(&JointMove::Contribute, held);
        assert_eq!(p.result(), Some(true));
        assert_eq!(
            p.parts(),
            &[
                (0, Counts::from_types(&[0])),
                (2, Counts::from_types(&[1, 1]))
            ]
        );
    }

    #[test]
    fn unmet_when_everyone_asked_withholds_or_lacks() {
        let bill = Counts::from_types(&[0, 1]);
        let mut p = JointPayment::new(0, &[2], bill, held);
        p.apply(&JointMove::Withhold, held);
        assert_eq!(p.result(), Some(false));
        let alone = JointPayment::new(1, &[], bill, held);
        assert_eq!(alone.result(), Some(false));
        let paid = JointPayment::new(0, &[], Counts::from_types(&[0]), held);
        assert_eq!(paid.result(), Some(true));
    }
}
