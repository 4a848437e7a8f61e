//! A fast hash for the search's own keys (the edits tried, positions and tokens): nobody
//! chooses them to collide, so SipHash's guard is not needed, and it was a tenth of the time a
//! medium OCR page took.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Each word folded in by a rotate, xor and multiply (the hash rustc uses for its own tables).
#[derive(Clone, Copy, Default)]
pub(crate) struct FastHasher(u64);

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

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
