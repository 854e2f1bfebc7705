//! A fast hash for the keys kernels look up many times: function names in
//! the registry, and numbers in `match`, `%in%` and `unique`. The default
//! SipHash resists keys chosen to collide, which costs several times more
//! per key; neither a fixed set of names nor a data vector needs that.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash's step, with a final mix so that keys differing only in their
/// high bits (doubles holding small whole numbers differ only there) still
/// spread over the table's buckets, which the low bits choose.
#[derive(Default)]
pub struct FastHasher(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl Hasher for FastHasher {
    /// Eight bytes a step, as FxHash does: strings (`match` of text, factor
    /// levels) hash at a word a multiply rather than a byte.
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut word = [0u8; 8];
            word.copy_from_slice(w);
            self.write_u64(u64::from_le_bytes(word));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(K);
    }

    fn finish(&self) -> u64 {
        // The last steps of MurmurHash3's fmix64.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;
