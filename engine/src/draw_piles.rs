//! A player's own draw piles (one per card back: knight cards, king cards, …), each
//! shuffled on its own. The player draws from the pile of his choice; an exhausted pile can
//! no longer be chosen, and once all are exhausted there is nothing to draw.

use crate::pile::Pile;
use crate::rng::GameRng;

/// At most this many piles per player (choices are a bit mask).
pub const MAX_PILES: usize = 8;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DrawPiles {
    piles: Vec<Pile>,
}

impl DrawPiles {
    /// One pile per deck, each listed bottom first (at most [`MAX_PILES`]).
    pub fn new(decks: impl IntoIterator<Item = Pile>) -> Self {
        let piles: Vec<Pile> = decks.into_iter().collect();
        assert!(piles.len() <= MAX_PILES, "at most {MAX_PILES} piles");
        DrawPiles { piles }
    }

    pub fn len(&self) -> usize {
        self.piles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.piles.is_empty()
    }

    #[inline]
    pub fn pile(&self, i: usize) -> &Pile {
        &self.piles[i]
    }

    #[inline]
    pub fn pile_mut(&mut self, i: usize) -> &mut Pile {
        &mut self.piles[i]
    }

    pub fn iter(&self) -> impl Iterator<Item = &Pile> {
        self.piles.iter()
    }

    /// Shuffles every pile separately.
    pub fn shuffle(&mut self, rng: &mut GameRng) {
        for p in &mut self.piles {
            p.shuffle(rng);
        }
    }

    /// The piles that can be drawn from, as a bit mask (bit `i`: pile `i` is not empty).
    #[inline]
    pub fn open(&self) -> u8 {
        self.piles
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_empty())
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// The pile indices that can be drawn from, in order.
    pub fn choices(&self) -> impl Iterator<Item = usize> + '_ {
        self.piles
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_empty())
            .map(|(i, _)| i)
    }

    /// The one pile left to draw from, when there is no choice.
    pub fn forced(&self) -> Option<usize> {
        let open = self.open();
        (open.count_ones() == 1).then(|| open.trailing_zeros() as usize)
    }

    /// Takes the top card of pile `i` (none if it is exhausted).
    #[inline]
    pub fn draw(&mut self, i: usize) -> Option<u8> {
        self.piles.get_mut(i)?.draw()
    }

    /// Cards left in all piles.
    pub fn total(&self) -> usize {
        self.piles.iter().map(Pile::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_from_the_chosen_pile_and_skips_exhausted_ones() {
        let mut p = DrawPiles::new([
            Pile::from_bottom_up(&[1, 2], 2),
            Pile::from_bottom_up(&[7], 1),
        ]);
        assert_eq!(p.open(), 0b11);
        assert_eq!(p.forced(), None);
        assert_eq!(p.draw(1), Some(7));
        assert_eq!(p.choices().collect::<Vec<_>>(), vec![0]);
        assert_eq!(p.forced(), Some(0));
        assert_eq!(p.draw(1), None);
        assert_eq!(p.draw(0), Some(2));
        assert_eq!(p.draw(0), Some(1));
        assert_eq!((p.open(), p.forced(), p.total()), (0, None, 0));
    }
}
