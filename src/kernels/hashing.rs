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
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
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
