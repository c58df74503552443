//! Climbing ranks with points that carry over: "If you have more shields than are needed to
//! advance, place the extra shields on your new rank card." Each rank needs its own number
//! of points to leave; leaving the last rank completes the ladder. Losses stop at zero on
//! the current rank: nobody loses a rank.

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ladder {
    /// Points needed to leave rank `i`.
    thresholds: Vec<u32>,
}

impl Ladder {
    pub fn new(thresholds: Vec<u32>) -> Self {
        Ladder { thresholds }
    }

    /// The number of ranks; rank `ranks()` is the completed ladder.
    pub fn ranks(&self) -> usize {
        self.thresholds.len()
    }

    /// Points needed to leave `rank` (`None` at the top).
    pub fn threshold(&self, rank: usize) -> Option<u32> {
        self.thresholds.get(rank).copied()
    }

    pub fn is_top(&self, rank: usize) -> bool {
        rank >= self.thresholds.len()
    }

    /// Adds `n` points at `rank` and advances as often as the points allow, carrying the
    /// surplus over. Returns how many ranks were gained. At the top, points stay as they are.
    pub fn gain(&self, rank: &mut u8, points: &mut u32, n: u32) -> u8 {
        if self.is_top(usize::from(*rank)) {
            return 0;
        }
        *points = points.saturating_add(n);
        let mut gained = 0;
        while let Some(need) = self.threshold(usize::from(*rank)) {
            if *points < need {
                break;
            }
            *points -= need;
            *rank += 1;
            gained += 1;
        }
        if self.is_top(usize::from(*rank)) {
            *points = 0;
        }
        gained
    }

    /// Takes up to `n` points away, never below zero and never down a rank. Returns how
    /// many were lost.
    pub fn lose(points: &mut u32, n: u32) -> u32 {
        let lost = n.min(*points);
        *points -= lost;
        lost
    }

    /// Points earned in all: those spent on the ranks left behind plus those held.
    pub fn progress(&self, rank: usize, points: u32) -> u32 {
        self.thresholds[..rank.min(self.thresholds.len())]
            .iter()
            .sum::<u32>()
            + points
    }

    /// Points earned in all when the ladder is completed.
    pub fn total(&self) -> u32 {
        self.thresholds.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surplus_carries_over_and_advances_cascade() {
        let l = Ladder::new(vec![5, 7, 10]);
        let (mut rank, mut points) = (0u8, 3u32);
        assert_eq!(l.gain(&mut rank, &mut points, 4), 1);
        assert_eq!((rank, points), (1, 2));
        assert_eq!(l.gain(&mut rank, &mut points, 16), 2);
        assert_eq!((rank, points), (3, 0));
        assert!(l.is_top(usize::from(rank)));
        assert_eq!(l.gain(&mut rank, &mut points, 4), 0);
        assert_eq!(l.progress(1, 2), 7);
        assert_eq!(l.total(), 22);
    }

    #[test]
    fn losses_stop_at_zero() {
        let mut points = 1;
        assert_eq!(Ladder::lose(&mut points, 2), 1);
        assert_eq!(points, 0);
    }
}
