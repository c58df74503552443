//! A stable fingerprint of any `Hash` value: FNV-1a over little-endian bytes, with `usize`
//! widened to 64 bits, so the same state digests the same on every platform and version
//! (unlike `DefaultHasher`, whose algorithm may change).

use std::hash::{Hash, Hasher};

pub fn digest<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut h = StableHasher::default();
    value.hash(&mut h);
    h.finish()
}

/// Eight hex digits of [`digest`], as replays store it.
pub fn short_digest<T: Hash + ?Sized>(value: &T) -> String {
    let d = digest(value);
    format!("{:08x}", (d ^ (d >> 32)) as u32)
}

pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }
    fn write_u16(&mut self, i: u16) {
        self.write(&i.to_le_bytes());
    }
    fn write_u32(&mut self, i: u32) {
        self.write(&i.to_le_bytes());
    }
    fn write_u64(&mut self, i: u64) {
        self.write(&i.to_le_bytes());
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64);
    }
    fn write_isize(&mut self, i: isize) {
        self.write_u64(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_is_pinned() {
        assert_eq!(digest(&(1u8, vec![2u16, 3], "x")), 3976701605494337814);
    }
}
