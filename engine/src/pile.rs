//! An ordered pile of cards (a supply, a discard stack), as card-type ids.
//!
//! The top of the pile is the end of the vector, so drawing is a `pop`. Piles are allocated
//! once at setup with room for the whole deck; drawing, discarding and reshuffling in play
//! never allocate.

use std::fmt;

use crate::counts::Counts;
use crate::rng::GameRng;

#[derive(Default, PartialEq, Eq, Hash)]
pub struct Pile {
    /// Bottom first, top last.
    cards: Vec<u8>,
}

impl Clone for Pile {
    /// Keeps the room the pile was given, so moves into a copy do not allocate either.
    fn clone(&self) -> Self {
        let mut cards = Vec::with_capacity(self.cards.capacity());
        cards.extend_from_slice(&self.cards);
        Pile { cards }
    }

    /// Reuses the allocation: bots copy states many times per decision.
    fn clone_from(&mut self, source: &Self) {
        self.cards.clone_from(&source.cards);
    }
}

/// A script asked for more copies of a card than the pile holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackError {
    pub card: u8,
    pub wanted: usize,
    pub available: usize,
}

impl fmt::Display for StackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "asked for {} of card type {} but the pile holds {}",
            self.wanted, self.card, self.available
        )
    }
}

impl Pile {
    /// An empty pile with room for `capacity` cards, so later moves into it never allocate.
    pub fn with_capacity(capacity: usize) -> Self {
        Pile {
            cards: Vec::with_capacity(capacity),
        }
    }

    /// A pile from cards listed bottom first. Reserves room for at least `capacity` cards.
    pub fn from_bottom_up(cards: &[u8], capacity: usize) -> Self {
        let mut v = Vec::with_capacity(capacity.max(cards.len()));
        v.extend_from_slice(cards);
        Pile { cards: v }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Takes the top card.
    #[inline]
    pub fn draw(&mut self) -> Option<u8> {
        self.cards.pop()
    }

    /// The top card, without taking it.
    #[inline]
    pub fn top(&self) -> Option<u8> {
        self.cards.last().copied()
    }

    /// Lays a card on top (a discard).
    #[inline]
    pub fn push(&mut self, card: u8) {
        self.cards.push(card);
    }

    /// Slides a card under the pile.
    pub fn push_bottom(&mut self, card: u8) {
        self.cards.insert(0, card);
    }

    /// The cards, bottom first (the last one is the top).
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.cards
    }

    /// The cards from the top down, in drawing order.
    pub fn top_down(&self) -> impl Iterator<Item = u8> + '_ {
        self.cards.iter().rev().copied()
    }

    pub fn clear(&mut self) {
        self.cards.clear();
    }

    /// Replaces the cards with those of `counts`, in type order (bottom first): a canonical
    /// order to shuffle from, whatever order they were in.
    pub fn fill_from(&mut self, counts: &Counts) {
        // Each type is written a whole run at a time (one store for the usual one to three
        // copies), the copies past its count overwritten by the next type or cut off at the
        // end; hence a run's room past the last card.
        const RUN: usize = 8;
        let total = counts.total() as usize;
        self.cards.clear();
        self.cards.resize(total + RUN, 0);
        let mut at = 0;
        for (card, copies) in counts.iter() {
            let mut left = usize::from(copies);
            while left > 0 {
                self.cards[at..at + RUN].copy_from_slice(&[card; RUN]);
                let step = left.min(RUN);
                at += step;
                left -= step;
            }
        }
        self.cards.truncate(total);
    }

    /// Takes out the card `at` places from the bottom.
    pub fn take_at(&mut self, at: usize) -> u8 {
        self.cards.remove(at)
    }

    /// Removes every card, keeping the allocation.
    pub fn take_all(&mut self, into: &mut Vec<u8>) {
        into.append(&mut self.cards);
    }

    pub fn shuffle(&mut self, rng: &mut GameRng) {
        rng.shuffle(&mut self.cards);
    }

    /// The usual "when the supply runs out, shuffle the discards as the new supply": the
    /// discards are shuffled and slid under whatever this pile still holds, leaving
    /// `discard` empty. Allocation-free when this pile is empty (the vectors are swapped),
    /// which is the common case.
    pub fn refill_from(&mut self, discard: &mut Pile, rng: &mut GameRng) {
        discard.shuffle(rng);
        discard.cards.extend_from_slice(&self.cards);
        self.cards.clear();
        std::mem::swap(&mut self.cards, &mut discard.cards);
    }

    /// Puts the chosen cards on top for a script: `chosen[0]` becomes the top card,
    /// `chosen[1]` the next, and so on. Each is taken out of the rest of the pile (its
    /// topmost copy), so the rest keeps its shuffled order. On an error nothing changes.
    pub fn stack_top(&mut self, chosen: &[u8]) -> Result<(), StackError> {
        let mut rest = self.cards.clone();
        for &card in chosen {
            match rest.iter().rposition(|&c| c == card) {
                Some(i) => {
                    rest.remove(i);
                }
                None => {
                    return Err(StackError {
                        card,
                        wanted: chosen.iter().filter(|&&c| c == card).count(),
                        available: self.cards.iter().filter(|&&c| c == card).count(),
                    });
                }
            }
        }
        rest.extend(chosen.iter().rev());
        self.cards = rest;
        Ok(())
    }
}

impl fmt::Debug for Pile {
    /// Top first, as a player would draw them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.top_down()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_from_the_top() {
        let mut p = Pile::from_bottom_up(&[1, 2, 3], 3);
        assert_eq!(p.top(), Some(3));
        assert_eq!(p.draw(), Some(3));
        p.push(9);
        assert_eq!(p.top_down().collect::<Vec<_>>(), vec![9, 2, 1]);
        p.push_bottom(0);
        assert_eq!(p.as_slice(), &[0, 1, 2, 9]);
    }

    #[test]
    fn stacked_cards_come_first_in_the_given_order_and_the_rest_keeps_its_order() {
        let mut p = Pile::from_bottom_up(&[5, 1, 2, 5, 3, 4], 6);
        p.stack_top(&[2, 5]).unwrap();
        let drawn: Vec<u8> = std::iter::from_fn(|| p.draw()).collect();
        // 2 then 5 on top; the rest, top down, was 4 3 5 1 with the topmost 5 taken out.
        assert_eq!(drawn, vec![2, 5, 4, 3, 1, 5]);
    }

    #[test]
    fn stacking_more_copies_than_the_pile_holds_fails_and_changes_nothing() {
        let mut p = Pile::from_bottom_up(&[1, 2, 1], 3);
        let err = p.stack_top(&[1, 1, 1]).unwrap_err();
        assert_eq!(
            err,
            StackError {
                card: 1,
                wanted: 3,
                available: 2
            }
        );
        assert_eq!(p.as_slice(), &[1, 2, 1]);
        assert!(p.stack_top(&[7]).is_err());
    }

    #[test]
    fn refill_shuffles_the_discards_under_the_remaining_cards() {
        let mut supply = Pile::from_bottom_up(&[9], 8);
        let mut discard = Pile::from_bottom_up(&[1, 2, 3, 4], 8);
        supply.refill_from(&mut discard, &mut GameRng::new(3));
        assert!(discard.is_empty());
        assert_eq!(supply.len(), 5);
        assert_eq!(supply.top(), Some(9));
        let mut under = supply.as_slice()[..4].to_vec();
        under.sort_unstable();
        assert_eq!(under, vec![1, 2, 3, 4]);
    }

    #[test]
    fn filling_lays_out_the_counts_in_type_order() {
        let mut p = Pile::from_bottom_up(&[9, 9], 8);
        p.fill_from(&Counts::from_types(&[5, 1, 5, 3]));
        assert_eq!(p.as_slice(), &[1, 3, 5, 5]);
        assert_eq!(p.take_at(1), 3);
        assert_eq!(p.as_slice(), &[1, 5, 5]);
        // More copies of a type than are written at once, then a type after them.
        let mut many = Counts::EMPTY;
        many.add(2, 19);
        many.add(7, 1);
        p.fill_from(&many);
        let mut expected = vec![2; 19];
        expected.push(7);
        assert_eq!(p.as_slice(), expected.as_slice());
    }

    #[test]
    fn shuffle_is_the_pinned_rng_shuffle() {
        let mut p = Pile::from_bottom_up(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 10);
        p.shuffle(&mut GameRng::new(7));
        let mut expected: Vec<u8> = (0..10).collect();
        GameRng::new(7).shuffle(&mut expected);
        assert_eq!(p.as_slice(), expected.as_slice());
    }

    proptest::proptest! {
        #[test]
        fn stacking_keeps_the_cards_and_puts_the_chosen_on_top(
            cards in proptest::collection::vec(0u8..6, 0..30),
            picks in proptest::collection::vec(proptest::prelude::any::<proptest::sample::Index>(), 0..8),
        ) {
            let mut p = Pile::from_bottom_up(&cards, cards.len());
            // Choose cards that are there, without using a copy twice.
            let mut pool = cards.clone();
            let mut chosen = Vec::new();
            for pick in picks {
                if pool.is_empty() { break; }
                chosen.push(pool.remove(pick.index(pool.len())));
            }
            p.stack_top(&chosen).unwrap();
            let mut sorted_before = cards.clone();
            sorted_before.sort_unstable();
            let mut sorted_after = p.as_slice().to_vec();
            sorted_after.sort_unstable();
            proptest::prop_assert_eq!(sorted_before, sorted_after);
            let drawn: Vec<u8> = p.top_down().take(chosen.len()).collect();
            proptest::prop_assert_eq!(drawn, chosen);
        }

        #[test]
        fn refilling_keeps_every_card(
            supply in proptest::collection::vec(0u8..6, 0..10),
            discard in proptest::collection::vec(0u8..6, 0..20),
            seed in proptest::prelude::any::<u64>(),
        ) {
            let mut s = Pile::from_bottom_up(&supply, 30);
            let mut d = Pile::from_bottom_up(&discard, 30);
            s.refill_from(&mut d, &mut GameRng::new(seed));
            proptest::prop_assert!(d.is_empty());
            let mut all: Vec<u8> = supply.iter().chain(&discard).copied().collect();
            all.sort_unstable();
            let mut now = s.as_slice().to_vec();
            now.sort_unstable();
            proptest::prop_assert_eq!(all, now);
            // The cards that were left stay on top, in order.
            let top: Vec<u8> = s.top_down().take(supply.len()).collect();
            let expected: Vec<u8> = supply.iter().rev().copied().collect();
            proptest::prop_assert_eq!(top, expected);
        }
    }
}
