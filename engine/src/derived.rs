//! [`Derived`]: a value kept in a game state that is worked out from the rest of it (a cache
//! of what the player to move can afford, say). It is not part of the state's identity: it
//! never changes a digest, and two states that differ only in it are equal. Whoever reads it
//! must check that it still fits the state (keep the inputs it was computed from beside it).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

#[derive(Clone, Copy, Default)]
pub struct Derived<T>(pub T);

impl<T> Derived<T> {
    pub fn new(value: T) -> Self {
        Derived(value)
    }
}

impl<T> Deref for Derived<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Derived<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// Not part of the state's identity: hashes to nothing.
impl<T> Hash for Derived<T> {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

/// Not part of the state's identity: always equal.
impl<T> PartialEq for Derived<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Derived<T> {}

impl<T> fmt::Debug for Derived<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(derived)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::digest;

    #[derive(Hash, PartialEq, Debug)]
    struct State {
        cards: u32,
        cache: Derived<u64>,
    }

    #[test]
    fn a_derived_value_changes_neither_digest_nor_equality() {
        let a = State {
            cards: 3,
            cache: Derived(1),
        };
        let b = State {
            cards: 3,
            cache: Derived(2),
        };
        assert_eq!(a, b);
        assert_eq!(digest(&a), digest(&b));
        assert_ne!(
            digest(&a),
            digest(&State {
                cards: 4,
                cache: Derived(1)
            })
        );
        assert_eq!(format!("{:?}", a.cache), "(derived)");
    }
}
