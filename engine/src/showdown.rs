//! A showdown: two sides show cards in alternating rounds until one cannot answer — the shape
//! of a joust or a duel.
//!
//! The first side opens round one, the second round two, and so on. The opener shows a card
//! of an *allowed* type, or skips the round (he has none, or says so); then the other side
//! opens. The side not opening must answer with a card: an allowed type continues the
//! showdown, any other type loses it, and so does refusing to answer or having no card left
//! to show. When both sides skip in a row, it is a draw. Shown cards stay out until the end.
//!
//! Cards are not moved here: the caller says what each side may show (`avail`, usually the
//! hand) and the showdown keeps what was shown. Steps nobody decides (an opener with no
//! allowed card skips; a side with no card left loses) happen in [`Showdown::settle`].

use crate::counts::Counts;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShowdownMove {
    /// The opener shows a card of this allowed type.
    Open(u8),
    /// The opener has (or claims to have) no allowed card: the other side opens.
    Skip,
    /// The other side answers with a card of this type.
    Answer(u8),
    /// The other side will not answer, and loses.
    Refuse,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShowdownEnd {
    /// `winner` is a side (0 first, 1 second).
    Won {
        winner: u8,
        how: Loss,
    },
    Drawn,
}

/// How the loser lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loss {
    Refused,
    WrongCard,
    OutOfCards,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Showdown {
    /// The seats of the first and second side.
    pub seats: [u8; 2],
    /// Bit `t` set: type `t` may open and continue the showdown.
    allowed: u64,
    /// Cards each side has shown so far.
    pub shown: [Counts; 2],
    /// The side opening the current round.
    opener: u8,
    /// The opener's card, while the other side must answer it.
    opened: Option<u8>,
    /// Rounds skipped in a row.
    skips: u8,
    end: Option<ShowdownEnd>,
}

impl Showdown {
    /// `first` opens the first round. `allowed` has bit `t` set for each allowed type.
    pub fn new(first: u8, second: u8, allowed: u64) -> Showdown {
        Showdown {
            seats: [first, second],
            allowed,
            shown: [Counts::EMPTY; 2],
            opener: 0,
            opened: None,
            skips: 0,
            end: None,
        }
    }

    pub fn is_allowed(&self, card: u8) -> bool {
        card < 64 && self.allowed & (1 << card) != 0
    }

    pub fn end(&self) -> Option<ShowdownEnd> {
        self.end
    }

    /// The side (0 or 1) of `seat`, if it takes part.
    pub fn side_of(&self, seat: u8) -> Option<u8> {
        self.seats.iter().position(|&s| s == seat).map(|p| p as u8)
    }

    /// The side opening the current round.
    pub fn opener(&self) -> u8 {
        self.opener
    }

    /// The card the other side must answer now, if any.
    pub fn opened(&self) -> Option<u8> {
        self.opened
    }

    /// The side to decide now (the opener, or the side that must answer).
    fn deciding_side(&self) -> u8 {
        if self.opened.is_some() {
            1 - self.opener
        } else {
            self.opener
        }
    }

    /// Who decides now; `None` once the showdown is over.
    pub fn to_move(&self) -> Option<u8> {
        self.end
            .is_none()
            .then(|| self.seats[usize::from(self.deciding_side())])
    }

    /// What `side` may still show: `avail` minus what it has shown.
    fn left(&self, side: u8, avail: &[Counts; 2]) -> Counts {
        let mut left = avail[usize::from(side)];
        let shown = &self.shown[usize::from(side)];
        for (t, n) in shown.iter() {
            left.remove(t, n.min(left.get(t)));
        }
        left
    }

    fn has_allowed(&self, left: &Counts) -> bool {
        left.iter().any(|(t, _)| self.is_allowed(t))
    }

    /// Plays the steps nobody decides: an opener without an allowed card skips; a side that
    /// must answer with no card left loses.
    pub fn settle(&mut self, avail: &[Counts; 2]) {
        self.settle_telling(avail, |_| {});
    }

    /// [`Showdown::settle`], telling `skipped` the seat of each opener who skips because he
    /// holds no allowed card (so the log can say so).
    pub fn settle_telling(&mut self, avail: &[Counts; 2], mut skipped: impl FnMut(u8)) {
        while self.end.is_none() {
            match self.opened {
                None if !self.has_allowed(&self.left(self.opener, avail)) => {
                    skipped(self.seats[usize::from(self.opener)]);
                    self.skip();
                }
                Some(_) if self.left(1 - self.opener, avail).is_empty() => {
                    self.end = Some(ShowdownEnd::Won {
                        winner: self.opener,
                        how: Loss::OutOfCards,
                    });
                }
                _ => return,
            }
        }
    }

    fn skip(&mut self) {
        self.skips += 1;
        if self.skips >= 2 {
            self.end = Some(ShowdownEnd::Drawn);
        } else {
            self.opener = 1 - self.opener;
        }
    }

    /// The legal moves now, in a stable order (cards in type order, then skip or refuse),
    /// each given to `push`.
    pub fn legal(&self, avail: &[Counts; 2], mut push: impl FnMut(ShowdownMove)) {
        if self.end.is_some() {
            return;
        }
        let side = self.deciding_side();
        let left = self.left(side, avail);
        if self.opened.is_none() {
            for (t, _) in left.iter().filter(|&(t, _)| self.is_allowed(t)) {
                push(ShowdownMove::Open(t));
            }
            push(ShowdownMove::Skip);
        } else {
            for (t, _) in left.iter() {
                push(ShowdownMove::Answer(t));
            }
            push(ShowdownMove::Refuse);
        }
    }

    /// Why `mv` is not legal now, or `None` if it is.
    pub fn why_not(&self, mv: &ShowdownMove, avail: &[Counts; 2]) -> Option<String> {
        if self.end.is_some() {
            return Some("the match is over".into());
        }
        let left = self.left(self.deciding_side(), avail);
        let opening = self.opened.is_none();
        Some(match *mv {
            ShowdownMove::Open(_) | ShowdownMove::Skip if !opening => {
                "your opponent has opened: answer with a card, or refuse".into()
            }
            ShowdownMove::Answer(_) | ShowdownMove::Refuse if opening => {
                "you open this round: show a card, or skip".into()
            }
            ShowdownMove::Open(t) if !self.is_allowed(t) => {
                "that kind of card cannot open a round".into()
            }
            ShowdownMove::Open(t) | ShowdownMove::Answer(t) if !left.contains(t) => {
                "you have no such card left to show".into()
            }
            _ => return None,
        })
    }

    /// Carries out a legal move, then the steps nobody decides.
    pub fn apply(&mut self, mv: &ShowdownMove, avail: &[Counts; 2]) {
        if self.end.is_some() {
            return;
        }
        let side = self.deciding_side();
        match *mv {
            ShowdownMove::Open(t) => {
                self.shown[usize::from(side)].add(t, 1);
                self.opened = Some(t);
                self.skips = 0;
            }
            ShowdownMove::Skip => self.skip(),
            ShowdownMove::Answer(t) => {
                self.shown[usize::from(side)].add(t, 1);
                if self.is_allowed(t) {
                    // The answering side opens the next round.
                    self.opened = None;
                    self.opener = side;
                } else {
                    self.end = Some(ShowdownEnd::Won {
                        winner: 1 - side,
                        how: Loss::WrongCard,
                    });
                }
            }
            ShowdownMove::Refuse => {
                self.end = Some(ShowdownEnd::Won {
                    winner: 1 - side,
                    how: Loss::Refused,
                });
            }
        }
        self.settle(avail);
    }
}

/// How a showdown ends when both sides always open and answer with an allowed card while
/// they have one: `Some(side)` wins, `None` is a draw. `allowed[s]` counts side `s`'s
/// allowed cards (other cards only lose an answer, as having none does); side `first`
/// opens. (A bot's forecast.)
pub fn forecast(allowed: [u32; 2], first: u8) -> Option<u8> {
    let (mut allowed, mut opener, mut skips) = (allowed, usize::from(first & 1), 0);
    loop {
        if allowed[opener] == 0 {
            skips += 1;
            if skips >= 2 {
                return None;
            }
            opener = 1 - opener;
            continue;
        }
        skips = 0;
        allowed[opener] -= 1;
        let answer = 1 - opener;
        if allowed[answer] == 0 {
            return Some(opener as u8);
        }
        allowed[answer] -= 1;
        opener = answer;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Types 0 and 1 are allowed, 2 is not.
    const ALLOWED: u64 = 0b011;

    fn moves(s: &Showdown, avail: &[Counts; 2]) -> Vec<ShowdownMove> {
        let mut out = Vec::new();
        s.legal(avail, |m| out.push(m));
        out
    }

    #[test]
    fn rounds_alternate_until_one_side_cannot_answer() {
        let avail = [Counts::from_types(&[0, 1]), Counts::from_types(&[1])];
        let mut s = Showdown::new(7, 9, ALLOWED);
        s.settle(&avail);
        assert_eq!(s.to_move(), Some(7));
        assert_eq!(
            moves(&s, &avail),
            vec![
                ShowdownMove::Open(0),
                ShowdownMove::Open(1),
                ShowdownMove::Skip
            ]
        );
        s.apply(&ShowdownMove::Open(0), &avail);
        assert_eq!(s.to_move(), Some(9));
        s.apply(&ShowdownMove::Answer(1), &avail);
        // Round two: the second side opens, but has nothing left: it skips, the first side
        // opens round three, and the second side, out of cards, loses.
        assert_eq!(s.to_move(), Some(7));
        s.apply(&ShowdownMove::Open(1), &avail);
        assert_eq!(
            s.end(),
            Some(ShowdownEnd::Won {
                winner: 0,
                how: Loss::OutOfCards
            })
        );
    }

    #[test]
    fn a_wrong_card_or_a_refusal_loses() {
        let avail = [Counts::from_types(&[0]), Counts::from_types(&[2, 0])];
        let mut s = Showdown::new(0, 1, ALLOWED);
        s.apply(&ShowdownMove::Open(0), &avail);
        let mut t = s.clone();
        s.apply(&ShowdownMove::Answer(2), &avail);
        assert_eq!(
            s.end(),
            Some(ShowdownEnd::Won {
                winner: 0,
                how: Loss::WrongCard
            })
        );
        t.apply(&ShowdownMove::Refuse, &avail);
        assert_eq!(
            t.end(),
            Some(ShowdownEnd::Won {
                winner: 0,
                how: Loss::Refused
            })
        );
    }

    #[test]
    fn two_skips_in_a_row_draw() {
        let avail = [Counts::from_types(&[2]), Counts::from_types(&[0])];
        let mut s = Showdown::new(0, 1, ALLOWED);
        s.settle(&avail);
        // The first side has no allowed card and skips; the second may open or claim none.
        assert_eq!(s.to_move(), Some(1));
        s.apply(&ShowdownMove::Skip, &avail);
        assert_eq!(s.end(), Some(ShowdownEnd::Drawn));
    }

    #[test]
    fn illegal_moves_are_explained() {
        let avail = [Counts::from_types(&[0]), Counts::from_types(&[1])];
        let s = Showdown::new(0, 1, ALLOWED);
        assert!(s.why_not(&ShowdownMove::Open(2), &avail).is_some());
        assert!(s.why_not(&ShowdownMove::Open(1), &avail).is_some());
        assert!(s.why_not(&ShowdownMove::Refuse, &avail).is_some());
        assert_eq!(s.why_not(&ShowdownMove::Open(0), &avail), None);
    }

    #[test]
    fn the_forecast_follows_the_rounds() {
        // Round one uses the second side's only card; it skips round two, and cannot answer
        // the first side's opening of round three.
        assert_eq!(forecast([2, 1], 0), Some(0));
        // Both spend their only card in round one; neither can open again: a draw.
        assert_eq!(forecast([1, 1], 0), None);
        assert_eq!(forecast([0, 0], 0), None);
        // The first side skips; the second opens and the first cannot answer.
        assert_eq!(forecast([0, 1], 0), Some(1));
    }
}
