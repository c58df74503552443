//! Which of a list of conditions a hand can pay for, kept from one question to the next.
//!
//! Whether some part of a hand meets a condition depends only on the counts of the types the
//! condition reads, and only grows with the hand (a payment found in a hand is still there
//! when cards are added). So when the hand changes, an answer stays good if the condition
//! reads none of the changed types, or if the hand only grew and the answer was yes, or only
//! shrank and the answer was no. Only the rest are asked again, and only when wanted.

use crate::counts::Counts;

/// The most conditions one [`Affordable`] keeps answers for.
pub const MAX_CONDITIONS: usize = 256;

const WORDS: usize = MAX_CONDITIONS / 64;

/// Per condition (by index): whether the hand it was last brought up to date for can pay it,
/// and whether that answer is known.
#[derive(Clone, Copy, Debug, Default)]
pub struct Affordable {
    hand: Counts,
    known: [u64; WORDS],
    met: [u64; WORDS],
}

/// Which conditions read each type: built once per list of conditions, so that a change to a
/// hand turns into the set of answers it touches in a few word operations.
#[derive(Clone, Debug)]
pub struct Readers {
    by_type: Vec<[u64; WORDS]>,
    count: usize,
}

impl Readers {
    /// `reads[i]` is the types condition `i` reads ([`super::Program::reads`]). Conditions
    /// past [`MAX_CONDITIONS`] are never met.
    pub fn new(reads: &[u64]) -> Readers {
        let mut by_type = vec![[0u64; WORDS]; 64];
        for (i, &read) in reads.iter().enumerate().take(MAX_CONDITIONS) {
            for t in crate::cond::compile::bits(read) {
                by_type[t as usize][i / 64] |= 1 << (i % 64);
            }
        }
        Readers {
            by_type,
            count: reads.len().min(MAX_CONDITIONS),
        }
    }

    /// The conditions that read any of the types in `types`.
    fn of(&self, types: u64) -> [u64; WORDS] {
        let mut out = [0u64; WORDS];
        for t in crate::cond::compile::bits(types) {
            for (o, r) in out.iter_mut().zip(&self.by_type[t as usize]) {
                *o |= r;
            }
        }
        out
    }
}

impl Affordable {
    /// The hand the answers were last brought up to date for.
    #[inline]
    pub fn hand(&self) -> &Counts {
        &self.hand
    }

    /// Whether the answers of the conditions `mask` names (bit `i`: condition `i`, the first
    /// 64) are all known for the hand held: asked since it changed, or not turnable by how it
    /// changed.
    #[inline]
    pub fn knows(&self, mask: u64) -> bool {
        self.known[0] & mask == mask
    }

    /// Whether condition `i` was payable at the last [`Affordable::refresh`] that wanted it.
    #[inline]
    pub fn met(&self, i: usize) -> bool {
        i < MAX_CONDITIONS && self.met[i / 64] & (1 << (i % 64)) != 0
    }

    /// The conditions met at their last refresh, in index order (an answer not refreshed
    /// since the hand changed may be stale: refresh with them wanted first).
    pub fn each_met(&self) -> impl Iterator<Item = usize> + '_ {
        self.met.iter().enumerate().flat_map(|(word, &bits)| {
            crate::cond::compile::bits(bits).map(move |b| 64 * word + b as usize)
        })
    }

    /// Brings the answers up to date for `hand`. `readers` says which types each condition
    /// reads; `wanted(i)` says whether its answer is needed now, and `exists(i)` asks the
    /// solver.
    pub fn refresh(
        &mut self,
        hand: &Counts,
        readers: &Readers,
        wanted: impl Fn(usize) -> bool,
        mut exists: impl FnMut(usize) -> bool,
    ) {
        if self.hand != *hand {
            self.forget_changed(hand, readers);
            self.hand = *hand;
        }
        let count = readers.count;
        for word in 0..count.div_ceil(64) {
            let all = if count - 64 * word >= 64 {
                u64::MAX
            } else {
                (1u64 << (count - 64 * word)) - 1
            };
            let mut unknown = all & !self.known[word];
            while unknown != 0 {
                let bit = unknown & unknown.wrapping_neg();
                unknown &= unknown - 1;
                let i = 64 * word + bit.trailing_zeros() as usize;
                if wanted(i) {
                    self.known[word] |= bit;
                    if exists(i) {
                        self.met[word] |= bit;
                    } else {
                        self.met[word] &= !bit;
                    }
                }
            }
        }
    }

    /// Forgets the answers the change from the kept hand to `hand` could have turned: a yes
    /// when the hand shrank, a no when it grew, of the conditions reading a changed type.
    fn forget_changed(&mut self, hand: &Counts, readers: &Readers) {
        let (changed, grew, shrank) = self.hand.changes_to(hand);
        let touched = readers.of(changed);
        for ((known, &met), touched) in self.known.iter_mut().zip(&self.met).zip(touched) {
            let turnable = if shrank { met } else { 0 } | if grew { !met } else { 0 };
            *known &= !(touched & turnable);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Condition 0 reads type 0, condition 1 reads type 1; "payable" = holds two of its type.
    fn refresh(memo: &mut Affordable, hand: &Counts, asked: &mut Vec<usize>) {
        memo.refresh(
            hand,
            &Readers::new(&[0b01, 0b10]),
            |_| true,
            |i| {
                asked.push(i);
                hand.get(i as u8) >= 2
            },
        );
    }

    #[test]
    fn only_answers_a_change_could_turn_are_asked_again() {
        let mut memo = Affordable::default();
        let mut asked = Vec::new();
        let mut hand = Counts::from_types(&[0, 0, 1]);
        refresh(&mut memo, &hand, &mut asked);
        assert_eq!(asked, [0, 1]);
        assert!(memo.met(0) && !memo.met(1));

        // Another type-0 card: condition 0 was met and stays met; 1 reads nothing changed.
        asked.clear();
        hand.add(0, 1);
        refresh(&mut memo, &hand, &mut asked);
        assert!(asked.is_empty());

        // A type-1 card: condition 1 was not met and the hand grew, so it is asked.
        hand.add(1, 1);
        refresh(&mut memo, &hand, &mut asked);
        assert_eq!(asked, [1]);
        assert!(memo.met(0) && memo.met(1));

        // Paying two type-0 cards: 0 was met and the hand shrank, so it is asked.
        asked.clear();
        hand.remove(0, 2);
        refresh(&mut memo, &hand, &mut asked);
        assert_eq!(asked, [0]);
        assert!(!memo.met(0) && memo.met(1));
    }

    #[test]
    fn unwanted_answers_are_worked_out_when_wanted() {
        let mut memo = Affordable::default();
        let hand = Counts::from_types(&[1, 1]);
        let mut asked = Vec::new();
        memo.refresh(
            &hand,
            &Readers::new(&[0b01, 0b10]),
            |i| i == 0,
            |i| {
                asked.push(i);
                hand.get(i as u8) >= 2
            },
        );
        assert_eq!(asked, [0]);
        assert!(!memo.met(1), "not asked yet");
        refresh(&mut memo, &hand, &mut asked);
        assert_eq!(asked, [0, 1]);
        assert!(memo.met(1));
    }
}
