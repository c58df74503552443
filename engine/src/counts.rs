//! A multiset of card types as per-type counts: how hands, trophies and payments are held.
//!
//! Copies of one type are interchangeable, so a hand is not a list but `counts[t]` copies of
//! each type `t`. The condition language evaluates over exactly this slice
//! ([`Counts::as_slice`]), and the whole value is 72 bytes and `Copy`, so trying a payment is
//! a copy and a subtraction, never an allocation.

use std::fmt;

use crate::cond::universe::MAX_TYPES;

/// Per-type counts for up to [`MAX_TYPES`] card types (ids `0..64`), at most 255 copies each.
///
/// Adding past 255 copies or removing copies that are not there is a bug in the rules module,
/// not bad input: the checked forms ([`Counts::try_remove`]) exist for decisions, the plain
/// ones assert in debug builds.
///
/// Ordered by the counts (the mask of held types is worked out from them, so it never decides).
#[derive(Clone, Copy, Eq, PartialOrd, Ord)]
pub struct Counts {
    copies: [u8; MAX_TYPES],
    /// Bit `t` set exactly when `copies[t] > 0`, kept up to date by every change: rules ask
    /// which types a hand holds far more often than they change it.
    held: u64,
}

/// By the counts alone (hashed as the 64 bytes they are, so state digests stay as they were).
impl std::hash::Hash for Counts {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.copies.hash(state);
    }
}

/// Eight bytes at a time, without branching or calling `memcmp`: memos compare whole hands
/// on every question, so this is on the hot path.
impl PartialEq for Counts {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let differ = self
            .copies
            .chunks_exact(8)
            .zip(other.copies.chunks_exact(8))
            .fold(0u64, |differ, (a, b)| {
                let word = |w: &[u8]| u64::from_le_bytes(w.try_into().unwrap_or_default());
                differ | (word(a) ^ word(b))
            });
        differ == 0
    }
}

impl Default for Counts {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Counts {
    pub const EMPTY: Counts = Counts {
        copies: [0; MAX_TYPES],
        held: 0,
    };

    pub fn new() -> Self {
        Self::EMPTY
    }

    /// One copy per listed type id (repeats add up).
    pub fn from_types(types: &[u8]) -> Self {
        let mut c = Self::EMPTY;
        for &t in types {
            c.add(t, 1);
        }
        c
    }

    /// Copies of type `t`.
    #[inline]
    pub fn get(&self, t: u8) -> u8 {
        self.copies[usize::from(t)]
    }

    #[inline]
    pub fn contains(&self, t: u8) -> bool {
        self.get(t) > 0
    }

    /// Going from `self` to `to`: the types whose count changed (bit per type), whether any
    /// count grew, and whether any shrank.
    pub fn changes_to(&self, to: &Counts) -> (u64, bool, bool) {
        let (mut changed, mut grew, mut shrank) = (0u64, false, false);
        // Eight types at a time: a change touches a type or two, so most words are equal.
        for w in 0..MAX_TYPES / 8 {
            let word = |c: &Counts| {
                let bytes: [u8; 8] = c.copies[8 * w..8 * w + 8].try_into().expect("eight bytes");
                u64::from_le_bytes(bytes)
            };
            if word(self) == word(to) {
                continue;
            }
            // The bytes that differ, lowest first.
            let mut differ = word(self) ^ word(to);
            while differ != 0 {
                let byte = differ.trailing_zeros() / 8;
                let i = 8 * w + byte as usize;
                let (x, y) = (self.copies[i], to.copies[i]);
                changed |= 1 << i;
                grew |= y > x;
                shrank |= y < x;
                differ &= !(0xff << (8 * byte));
            }
        }
        (changed, grew, shrank)
    }

    /// True when every copy in `other` is also here.
    pub fn contains_all(&self, other: &Counts) -> bool {
        self.copies.iter().zip(&other.copies).all(|(a, b)| a >= b)
    }

    #[inline]
    pub fn add(&mut self, t: u8, n: u8) {
        let slot = &mut self.copies[usize::from(t)];
        debug_assert!(
            slot.checked_add(n).is_some(),
            "more than 255 copies of type {t}"
        );
        *slot = slot.wrapping_add(n);
        self.held |= u64::from(*slot != 0) << t;
    }

    /// Removes `n` copies of `t`; they must be there.
    #[inline]
    pub fn remove(&mut self, t: u8, n: u8) {
        let slot = &mut self.copies[usize::from(t)];
        debug_assert!(*slot >= n, "removing {n} of type {t}, holding {slot}");
        *slot = slot.wrapping_sub(n);
        self.held &= !(u64::from(*slot == 0) << t);
    }

    /// Removes `n` copies of `t` if there are that many; otherwise changes nothing.
    #[inline]
    pub fn try_remove(&mut self, t: u8, n: u8) -> bool {
        let slot = &mut self.copies[usize::from(t)];
        if *slot >= n {
            *slot -= n;
            self.held &= !(u64::from(*slot == 0) << t);
            true
        } else {
            false
        }
    }

    pub fn add_all(&mut self, other: &Counts) {
        for (a, b) in self.copies.iter_mut().zip(&other.copies) {
            debug_assert!(a.checked_add(*b).is_some(), "more than 255 copies");
            *a = a.wrapping_add(*b);
        }
        self.held |= other.held;
    }

    /// Removes every copy in `other` if all are here (a payment); otherwise changes nothing.
    pub fn try_remove_all(&mut self, other: &Counts) -> bool {
        if !self.contains_all(other) {
            return false;
        }
        for (a, b) in self.copies.iter_mut().zip(&other.copies) {
            *a -= *b;
        }
        self.held = nonzero_mask(&self.copies);
        true
    }

    /// Number of cards (all copies of all types).
    #[inline]
    pub fn total(&self) -> u32 {
        self.copies.iter().map(|&c| u32::from(c)).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.held == 0
    }

    pub fn clear(&mut self) {
        *self = Self::EMPTY;
    }

    /// The types held, as a bit mask (bit `t`: at least one copy of type `t`).
    #[inline]
    pub fn held(&self) -> u64 {
        self.held
    }

    /// `(type, copies)` for each type held, in type order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.iter_among(u64::MAX)
    }

    /// `(type, copies)` for each type held whose bit is set in `types`, in type order: a
    /// kind of card, say, without visiting the others.
    #[inline]
    pub fn iter_among(&self, types: u64) -> impl Iterator<Item = (u8, u8)> + '_ {
        let mut held = self.held() & types;
        std::iter::from_fn(move || {
            (held != 0).then(|| {
                let t = held.trailing_zeros() as u8;
                held &= held - 1;
                (t, self.copies[usize::from(t)])
            })
        })
    }

    /// Every card, one item per copy, in type order.
    pub fn cards(&self) -> impl Iterator<Item = u8> + '_ {
        self.iter()
            .flat_map(|(t, c)| std::iter::repeat_n(t, usize::from(c)))
    }

    /// The counts indexed by type, as the condition language reads them.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.copies
    }
}

/// Which of the first 64 bytes are above zero, as a bit mask. Eight bytes at a time, and
/// only the bytes that are set are visited, so a sparse hand of dozens of types costs a few
/// operations.
#[inline]
pub fn nonzero_mask(bytes: &[u8]) -> u64 {
    let bytes = &bytes[..bytes.len().min(64)];
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    let mut mask = 0u64;
    let mut base = 0;
    for word in words {
        let mut w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        while w != 0 {
            let byte = w.trailing_zeros() / 8;
            mask |= 1 << (base + byte);
            w &= !(0xff << (8 * byte));
        }
        base += 8;
    }
    for (i, &c) in tail.iter().enumerate() {
        if c != 0 {
            mask |= 1 << (base + i as u32);
        }
    }
    mask
}

impl fmt::Debug for Counts {
    /// Only the types held: `{3: 2, 7: 1}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl FromIterator<u8> for Counts {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        let mut c = Counts::EMPTY;
        for t in iter {
            c.add(t, 1);
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_copies_per_type() {
        let mut hand = Counts::from_types(&[3, 7, 3]);
        assert_eq!(hand.get(3), 2);
        assert_eq!(hand.total(), 3);
        assert!(hand.contains(7) && !hand.contains(0));
        hand.remove(3, 1);
        assert_eq!(hand.iter().collect::<Vec<_>>(), vec![(3, 1), (7, 1)]);
        assert_eq!(hand.cards().collect::<Vec<_>>(), vec![3, 7]);
        assert_eq!(format!("{hand:?}"), "{3: 1, 7: 1}");
    }

    #[test]
    fn checked_removal_leaves_the_hand_alone_when_short() {
        let mut hand = Counts::from_types(&[1, 1, 2]);
        assert!(!hand.try_remove(2, 2));
        assert!(!hand.try_remove_all(&Counts::from_types(&[1, 2, 2])));
        assert_eq!(hand, Counts::from_types(&[1, 1, 2]));
        assert!(hand.try_remove_all(&Counts::from_types(&[1, 2])));
        assert_eq!(hand, Counts::from_types(&[1]));
        assert!(hand.try_remove(1, 1));
        assert!(hand.is_empty());
    }

    #[test]
    fn slice_is_indexed_by_type_over_the_whole_universe() {
        let c = Counts::from_types(&[63, 0]);
        assert_eq!(c.as_slice().len(), MAX_TYPES);
        assert_eq!((c.as_slice()[0], c.as_slice()[63]), (1, 1));
    }

    proptest::proptest! {
        /// Whatever a hand goes through, the types it holds are what a byte-by-byte look at
        /// its counts says (the top bit of a byte included), and so are its emptiness and
        /// its listing.
        #[test]
        fn held_types_follow_every_change(
            steps in proptest::collection::vec((0u8..6, 0u8..64, 0u8..200), 0..40),
            types in proptest::prelude::any::<u64>(),
        ) {
            let mut c = Counts::EMPTY;
            for (op, t, n) in steps {
                match op {
                    0 if c.get(t).checked_add(n).is_some() => c.add(t, n),
                    1 => c.remove(t, n.min(c.get(t))),
                    2 => {
                        c.try_remove(t, n);
                    }
                    3 if c.get(t).checked_add(n).is_some() => {
                        let mut more = Counts::EMPTY;
                        more.add(t, n);
                        c.add_all(&more);
                    }
                    4 => {
                        c.try_remove_all(&Counts::from_types(&[t, t]));
                    }
                    5 => c.clear(),
                    _ => {}
                }
                let mut held = 0u64;
                for (t, &n) in c.as_slice().iter().enumerate() {
                    held |= u64::from(n != 0) << t;
                }
                proptest::prop_assert_eq!(c.held(), held);
                proptest::prop_assert_eq!(c.held(), nonzero_mask(c.as_slice()));
                proptest::prop_assert_eq!(c.is_empty(), held == 0);
                let among: Vec<(u8, u8)> =
                    c.iter().filter(|&(t, _)| types & (1 << t) != 0).collect();
                proptest::prop_assert_eq!(c.iter_among(types).collect::<Vec<_>>(), among);
            }
        }
    }
}
