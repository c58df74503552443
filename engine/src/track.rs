//! A score track that laps: a marker runs round `lap` spaces, and each full lap is kept as
//! a tile ("take a 50 tile on reaching 50, give it back on dropping below"). A score below
//! zero is shown by laying the marker on its side.

/// A track of `lap` spaces (`lap` at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScoreTrack {
    pub lap: i64,
}

/// Where a score shows on the track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Marker {
    /// The space the marker stands on, `0..lap`.
    pub space: i64,
    /// Lap tiles held (never negative).
    pub tiles: i64,
    /// Below zero: the marker lies on its side.
    pub on_side: bool,
}

impl ScoreTrack {
    pub fn new(lap: i64) -> Self {
        ScoreTrack { lap: lap.max(1) }
    }

    pub fn marker(&self, score: i64) -> Marker {
        Marker {
            space: score.rem_euclid(self.lap),
            tiles: score.max(0) / self.lap,
            on_side: score < 0,
        }
    }

    /// Tiles taken (positive) or given back (negative) when a score goes from `before` to
    /// `after`.
    pub fn tiles_change(&self, before: i64, after: i64) -> i64 {
        self.marker(after).tiles - self.marker(before).tiles
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_become_tiles_and_come_back() {
        let t = ScoreTrack::new(50);
        assert_eq!(
            t.marker(49),
            Marker {
                space: 49,
                tiles: 0,
                on_side: false
            }
        );
        assert_eq!(t.marker(50).tiles, 1);
        assert_eq!(t.marker(50).space, 0);
        assert_eq!(t.marker(123).tiles, 2);
        assert_eq!(t.tiles_change(45, 52), 1);
        assert_eq!(t.tiles_change(52, 49), -1);
        assert_eq!(t.tiles_change(10, 20), 0);
    }

    #[test]
    fn below_zero_the_marker_lies_on_its_side() {
        let t = ScoreTrack::new(50);
        let m = t.marker(-3);
        assert!(m.on_side);
        assert_eq!((m.space, m.tiles), (47, 0));
        assert!(!t.marker(0).on_side);
    }
}
