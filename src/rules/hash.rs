//! A fast hash for the tables of the margin search and of repair's search (packed states, the
//! edits tried, positions and tokens): nobody chooses those keys to collide, so SipHash's guard
//! is not needed, and it cost a tenth of the time a medium OCR page took to mend.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-xorshift mix of each word.
#[derive(Default)]
pub(crate) struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }

    fn write_u16(&mut self, v: u16) {
        self.write_u64(v as u64);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }

    fn write_u64(&mut self, v: u64) {
        let x = (self.0 ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 29);
    }

    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<MixHasher>>;
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<MixHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_that_differ_in_one_field_hash_apart() {
        let mut set: FastSet<(usize, usize, Vec<u32>)> = FastSet::default();
        for a in 0..20 {
            for b in 0..20 {
                assert!(set.insert((a, b, vec![a as u32, b as u32])));
            }
        }
        assert_eq!(set.len(), 400);
        assert!(set.contains(&(3, 7, vec![3, 7])));
        assert!(!set.contains(&(3, 7, vec![7, 3])));
    }
}
