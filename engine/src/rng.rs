//! Seeded randomness with a pinned algorithm, so a seed gives the same game on every machine
//! and every version: ChaCha8 for the stream, seeds expanded with SplitMix64, and the range
//! and shuffle algorithms written out here rather than borrowed from a crate whose value
//! stability is not promised.

use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    pub fn new(seed: u64) -> Self {
        let mut seed_bytes = [0u8; 32];
        let mut state = seed;
        for chunk in seed_bytes.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        GameRng(ChaCha8Rng::from_seed(seed_bytes))
    }

    /// The seed of game `index` in a run seeded with `seed`: independent of thread count.
    pub fn derive_seed(seed: u64, index: u64) -> u64 {
        let mut state = seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F);
        splitmix64(&mut state) ^ splitmix64(&mut state).rotate_left(17)
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (Lemire's multiply-and-reject). `n` must be at least 1.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0, "below(0)");
        let n = n.max(1);
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// Uniform index into a slice of length `len` (at least 1).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(u32::try_from(len).unwrap_or(u32::MAX)) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den) < num
    }

    /// Fisher–Yates, from the back.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        // Decks are far shorter than `u32::MAX`: the bound is counted down as a `u32`
        // rather than converted from each index.
        let len = u32::try_from(items.len()).unwrap_or(u32::MAX);
        for n in (2..=len).rev() {
            let j = self.below(n) as usize;
            items.swap(n as usize - 1, j);
        }
    }

    /// An independent generator for a sub-purpose (an agent, a determinised view).
    pub fn fork(&mut self) -> GameRng {
        GameRng::new(self.next_u64())
    }
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Digests must see the generator's position, so two states that will draw differently
/// never digest alike.
impl std::hash::Hash for GameRng {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.get_seed().hash(state);
        self.0.get_stream().hash(state);
        self.0.get_word_pos().hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned values: if these change, every recorded replay and seeded test changes with
    /// them. Do not update them to make a test pass; find what changed the stream.
    #[test]
    fn stream_is_pinned() {
        let mut rng = GameRng::new(42);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(first, PINNED_42);
        let mut rng = GameRng::new(7);
        let mut deck: Vec<u8> = (0..10).collect();
        rng.shuffle(&mut deck);
        assert_eq!(deck, PINNED_SHUFFLE_7);
        assert_eq!(GameRng::derive_seed(1, 2), PINNED_DERIVED_1_2);
    }

    const PINNED_42: [u64; 3] = [
        3536907876931541756,
        1681417456739323905,
        17856965759995586207,
    ];
    const PINNED_SHUFFLE_7: [u8; 10] = [1, 7, 8, 0, 2, 6, 5, 4, 9, 3];
    const PINNED_DERIVED_1_2: u64 = 5973395615928649091;

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = GameRng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }

    #[test]
    fn derived_seeds_differ_by_index() {
        let seeds: std::collections::BTreeSet<u64> =
            (0..1000).map(|i| GameRng::derive_seed(9, i)).collect();
        assert_eq!(seeds.len(), 1000);
    }
}
