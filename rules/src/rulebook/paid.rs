//! What a `pay` move pays, kept small so that a move is 16 bytes and `Copy`: every listing
//! writes its moves and `legal_actions` copies them, so a move's size is on the hot path, while
//! payments are listed rarely. A payment of up to [`FEW`] card types is held in the move
//! itself; a larger one is kept once in the rulebook's table of payments ([`PaidTable`]) and
//! the move holds its number, so any payment can be a move and equal payments make equal moves.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use grail_engine::cond::solve::Payment;

/// Card types a payment held in the move may have.
const FEW: usize = 5;
/// The first byte of [`Paid`] for a move without a payment.
const NONE: u8 = 0xff;
/// The first byte for a payment kept in the table; its number follows.
const KEPT: u8 = 0xfe;

/// A move's payment: (type, count) pairs in type order, unused pairs `(0, 0)` (no pair at
/// all is the empty payment); or [`NONE`]; or [`KEPT`] and a number into [`PaidTable`]. Card
/// types are below 64, so the two markers are never a type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Paid([u8; 2 * FEW]);

impl Paid {
    pub const NONE: Paid = {
        let mut bytes = [0; 2 * FEW];
        bytes[0] = NONE;
        Paid(bytes)
    };

    fn kept(&self) -> Option<usize> {
        (self.0[0] == KEPT).then(|| {
            let number = [self.0[1], self.0[2], self.0[3], self.0[4]];
            u32::from_le_bytes(number) as usize
        })
    }
}

impl std::fmt::Debug for Paid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.0[0], self.kept()) {
            (NONE, _) => write!(f, "None"),
            (_, Some(n)) => write!(f, "Kept({n})"),
            _ => {
                let pairs: Vec<(u8, u8)> = (self.0.chunks_exact(2))
                    .take_while(|p| p[1] > 0)
                    .map(|p| (p[0], p[1]))
                    .collect();
                write!(f, "Few{pairs:?}")
            }
        }
    }
}

/// The payments of more than [`FEW`] card types moves have held, each once (by its counts
/// with trailing zeros cut, so that equal payments get one number), numbered in the order
/// first seen: with games in parallel that order varies, but only a move's identity depends
/// on the number, never what it does or how it reads (the map is only looked up).
#[derive(Debug, Default)]
pub(super) struct PaidTable(Mutex<(Vec<Payment>, HashMap<Payment, u32>)>);

impl PaidTable {
    /// What a move paying `payment` holds.
    pub(super) fn paid(&self, payment: &Payment) -> Paid {
        let mut bytes = [0u8; 2 * FEW];
        let mut pairs = 0;
        for (t, &n) in payment.counts().iter().enumerate() {
            if n == 0 {
                continue;
            }
            if pairs == FEW {
                return self.keep(payment);
            }
            // At most 64 types (`Payment`), so a type fits a byte below the markers.
            bytes[2 * pairs] = t as u8;
            bytes[2 * pairs + 1] = n;
            pairs += 1;
        }
        Paid(bytes)
    }

    /// Calls `f` with each card type a move holding `paid` pays and how many, in type order.
    pub(super) fn each(&self, paid: &Paid, mut f: impl FnMut(usize, u8)) {
        let number = paid.kept();
        let paid = &paid.0;
        if let Some(number) = number {
            let kept = self.get(number);
            for (t, &n) in kept.iter().flat_map(Payment::counts).enumerate() {
                if n > 0 {
                    f(t, n);
                }
            }
        } else if paid[0] != NONE {
            for pair in paid.chunks_exact(2).take_while(|p| p[1] > 0) {
                f(usize::from(pair[0]), pair[1]);
            }
        }
    }

    /// What a move holding `paid` pays, counted by type over all 64 types.
    pub(super) fn of(&self, paid: &Paid) -> Option<Payment> {
        if paid.0[0] == NONE {
            return None;
        }
        let mut counts = [0u8; 64];
        self.each(paid, |t, n| counts[t % 64] = n);
        Payment::from_counts(&counts)
    }

    fn keep(&self, payment: &Payment) -> Paid {
        let counts = payment.counts();
        let used = counts.iter().rposition(|&n| n > 0).map_or(0, |t| t + 1);
        let Some(key) = Payment::from_counts(&counts[..used]) else {
            return Paid::NONE;
        };
        let mut table = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let (kept, numbers) = &mut *table;
        let number = *numbers.entry(key).or_insert_with(|| {
            kept.push(key);
            // Billions of distinct payments would not fit in memory first.
            u32::try_from(kept.len() - 1).unwrap_or(u32::MAX)
        });
        let mut bytes = [0u8; 2 * FEW];
        bytes[0] = KEPT;
        bytes[1..5].copy_from_slice(&number.to_le_bytes());
        Paid(bytes)
    }

    fn get(&self, number: usize) -> Option<Payment> {
        let table = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        table.0.get(number).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payment(pairs: &[(usize, u8)]) -> Payment {
        let mut counts = [0u8; 64];
        for &(t, n) in pairs {
            counts[t] = n;
        }
        Payment::from_counts(&counts).unwrap()
    }

    #[test]
    fn payments_of_few_and_many_types_come_back_as_they_went() {
        let table = PaidTable::default();
        for pairs in [
            &[][..],
            &[(0, 1)],
            &[(63, 255)],
            &[(2, 3), (5, 1), (9, 2), (40, 1), (63, 7)],
            &[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)],
            &[(1, 2), (7, 1), (8, 1), (20, 4), (33, 1), (62, 9), (63, 1)],
        ] {
            let pairs: Vec<(usize, u8)> = pairs.to_vec();
            let pairs = &pairs[..];
            let p = payment(pairs);
            let paid = table.paid(&p);
            assert_eq!(table.of(&paid), Some(p), "{pairs:?}");
            let mut each = Vec::new();
            table.each(&paid, |t, n| each.push((t, n)));
            assert_eq!(each, pairs, "{pairs:?}");
        }
        assert_eq!(table.of(&Paid::NONE), None);
    }

    #[test]
    fn equal_payments_make_equal_moves_however_long_their_counts() {
        let table = PaidTable::default();
        let six = [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)];
        let short = Payment::from_counts(&[1, 1, 1, 1, 1, 1]).unwrap();
        assert_eq!(table.paid(&payment(&six)), table.paid(&short));
        assert_eq!(
            table.paid(&payment(&[(3, 2)])),
            table.paid(&Payment::from_counts(&[0, 0, 0, 2]).unwrap())
        );
        let other = payment(&[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (6, 1)]);
        assert_ne!(table.paid(&payment(&six)), table.paid(&other));
        // The empty payment is a payment, not none.
        let empty = table.paid(&payment(&[]));
        assert_ne!(empty, Paid::NONE);
        assert_eq!(table.of(&empty), Some(payment(&[])));
    }
}
