//! Small pieces of English the game views share.

use std::fmt;

/// `n` followed by `noun`, plural unless `n` is one: "1 card", "3 knight cards".
pub(crate) struct Count<'a>(pub u64, pub &'a str);

impl fmt::Display for Count<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Count(n, noun) = *self;
        write!(f, "{n} {noun}{}", if n == 1 { "" } else { "s" })
    }
}

/// A card named to nobody but its owner, as the other seats read it in a move.
pub(crate) const FACE_DOWN: &str = "a card face down";

#[cfg(test)]
mod tests {
    use super::Count;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(Count(1, "card").to_string(), "1 card");
        assert_eq!(Count(0, "card").to_string(), "0 cards");
        assert_eq!(Count(2, "knight card").to_string(), "2 knight cards");
    }
}
