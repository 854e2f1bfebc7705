//! R's default random number generator, bit for bit: Mersenne-Twister
//! seeded by `set.seed`, normals by inversion, `sample.int` by rejection.
//!
//! A port of R 4.2's `src/main/RNG.c` (kind "Mersenne-Twister", normal.kind
//! "Inversion", sample.kind "Rejection", the defaults since R 3.6.0) and of
//! the non-weighted part of `do_sample` in `src/main/random.c`.

use std::collections::HashSet;

use super::nmath::qnorm::qnorm;

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;
/// 2^-32 as R writes it in `MT_genrand`.
const TWO_M32: f64 = 2.328_306_436_538_696_3e-10;
/// R's `i2_32m1` = 1/(2^32 - 1), used by `fixup`.
const I2_32M1: f64 = 2.328_306_437_080_797e-10;
/// 2^27: `norm_rand` builds a 2^27 * 2^32-grid uniform from two draws.
const BIG: f64 = 134_217_728.0;

/// One random stream (R's `.Random.seed` with kind Mersenne-Twister/Inversion).
#[derive(Clone, Debug)]
pub struct Rng {
    mt: Vec<u32>,
    mti: usize,
    /// 32-bit outputs taken since the stream was made: what a step's
    /// known draw count is checked against.
    drawn: u64,
}

impl Rng {
    /// The stream after R's `set.seed(seed)`.
    ///
    /// R takes the seed as a C `int`; a seed outside the 32-bit range is
    /// reduced modulo 2^32 (R itself would reject it as NA).
    pub fn from_seed(seed: i64) -> Rng {
        // RNG_Init: initial scrambling, then the seed words by the same LCG.
        let mut s = seed as u32;
        for _ in 0..50 {
            s = s.wrapping_mul(69069).wrapping_add(1);
        }
        let mut words = [0u32; N + 1];
        for w in &mut words {
            s = s.wrapping_mul(69069).wrapping_add(1);
            *w = s;
        }
        // FixupSeeds(initial = TRUE): dummy[0] (mti) = 624, forcing a
        // regeneration on the first draw; words 1..=624 are the state.
        Rng {
            mt: words[1..].to_vec(),
            mti: N,
            drawn: 0,
        }
    }

    /// The stream for iteration `iteration` of loop step `step`.
    ///
    /// Derived from the workflow seed, the step name and the iteration only,
    /// never from which worker runs the iteration or in what order, so a
    /// loop's result does not depend on how it is partitioned. The
    /// derivation (stable across platforms and releases):
    ///
    /// 1. `h = FNV-1a-64(step as UTF-8)`;
    /// 2. `x = splitmix64(splitmix64(seed as u64 ^ h) ^ iteration)`;
    /// 3. the R seed is the high 32 bits of `x` read as a signed integer, and
    ///    the stream is `set.seed` of it ([`Rng::from_seed`]).
    ///
    /// So `for_iteration(s, step, i)` equals R's `set.seed(k)` for the
    /// printed `k = Rng::iteration_seed(s, step, i)`, and an R user can
    /// replay any single iteration.
    pub fn for_iteration(seed: i64, step: &str, iteration: u64) -> Rng {
        Rng::from_seed(i64::from(Rng::iteration_seed(seed, step, iteration)))
    }

    /// The R integer seed [`Rng::for_iteration`] uses.
    pub fn iteration_seed(seed: i64, step: &str, iteration: u64) -> i32 {
        let h = fnv1a64(step.as_bytes());
        let x = splitmix64(splitmix64(seed as u64 ^ h) ^ iteration);
        (x >> 32) as u32 as i32
    }

    /// The stream's state as plain numbers: the 624 words, the position in
    /// them and the outputs drawn. What a cached step's stream is stored as.
    pub fn to_parts(&self) -> (Vec<u32>, u64, u64) {
        (self.mt.clone(), self.mti as u64, self.drawn)
    }

    /// The stream [`Rng::to_parts`] described; `None` when the parts cannot
    /// be a Mersenne-Twister state (read back from a damaged file).
    pub fn from_parts(mt: Vec<u32>, mti: u64, drawn: u64) -> Option<Rng> {
        let mti = usize::try_from(mti).ok().filter(|&i| i <= N)?;
        (mt.len() == N).then_some(Rng { mt, mti, drawn })
    }

    /// Outputs taken from this stream since it was made.
    pub fn drawn(&self) -> u64 {
        self.drawn
    }

    /// The stream `draws` outputs later, as if `draws` uniforms had been
    /// drawn (each of R's `unif_rand` takes one; `norm_rand`, two): the
    /// state is regenerated once per 624 outputs, without tempering any.
    /// This is what lets a step start before the steps that draw ahead of
    /// it on the stream have run, when their counts are known.
    pub fn skip(&mut self, draws: u64) {
        let mut left = draws;
        while left > 0 {
            if self.mti >= N {
                self.twist();
            }
            let k = left.min((N - self.mti) as u64);
            self.mti += k as usize;
            left -= k;
        }
        self.drawn = self.drawn.saturating_add(draws);
    }

    /// MT's regeneration of all 624 state words (the first half of
    /// `MT_genrand`).
    fn twist(&mut self) {
        let mag01 = |y: u32| if y & 1 == 1 { MATRIX_A } else { 0 };
        for kk in 0..N - M {
            let y = (self.mt[kk] & UPPER_MASK) | (self.mt[kk + 1] & LOWER_MASK);
            self.mt[kk] = self.mt[kk + M] ^ (y >> 1) ^ mag01(y);
        }
        for kk in N - M..N - 1 {
            let y = (self.mt[kk] & UPPER_MASK) | (self.mt[kk + 1] & LOWER_MASK);
            self.mt[kk] = self.mt[kk + M - N] ^ (y >> 1) ^ mag01(y);
        }
        let y = (self.mt[N - 1] & UPPER_MASK) | (self.mt[0] & LOWER_MASK);
        self.mt[N - 1] = self.mt[M - 1] ^ (y >> 1) ^ mag01(y);
        self.mti = 0;
    }

    /// R's `MT_genrand()`: the next 32-bit output scaled into [0, 1).
    fn mt_genrand(&mut self) -> f64 {
        if self.mti >= N {
            self.twist();
        }
        let mut y = self.mt[self.mti];
        self.mti += 1;
        self.drawn += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        f64::from(y) * TWO_M32
    }

    /// R's `unif_rand()`: uniform on (0, 1) (R's `fixup` keeps it off 0 and 1).
    pub fn unif_rand(&mut self) -> f64 {
        let x = self.mt_genrand();
        if x <= 0.0 {
            return 0.5 * I2_32M1;
        }
        if 1.0 - x <= 0.0 {
            return 1.0 - 0.5 * I2_32M1;
        }
        x
    }

    /// R's `norm_rand()` with normal.kind "Inversion".
    pub fn norm_rand(&mut self) -> f64 {
        let mut u = self.unif_rand();
        // (int)(BIG * u): truncation toward zero, u is positive and below
        // 2^27, so the cast is exact (and, unlike `trunc`, no libm call).
        u = ((BIG * u) as i64) as f64 + self.unif_rand();
        qnorm(u / BIG, 0.0, 1.0, true, false)
    }

    /// R's `rbits(bits)`: `bits` random bits from 16-bit chunks.
    fn rbits(&mut self, bits: u32) -> f64 {
        let mut v: i64 = 0;
        let mut n = 0;
        while n <= bits {
            // floor(): the product is positive, so the cast truncates to
            // the same integer without a libm call.
            let v1 = (self.unif_rand() * 65536.0) as i64;
            v = v.wrapping_mul(65536).wrapping_add(v1);
            n += 16;
        }
        let mask = if bits >= 63 {
            i64::MAX
        } else {
            (1i64 << bits) - 1
        };
        (v & mask) as f64
    }

    /// R's `R_unif_index(dn)` (sample.kind "Rejection"): uniform on
    /// `0..dn` (an integer-valued double), by rejection from the next power
    /// of two.
    pub fn unif_index(&mut self, dn: f64) -> f64 {
        if dn <= 0.0 {
            return 0.0;
        }
        let bits = dn.log2().ceil() as u32;
        loop {
            let dv = self.rbits(bits);
            if dn > dv {
                return dv;
            }
        }
    }

    /// R's `sample.int(n, k)` without replacement (1-based results).
    ///
    /// `k` larger than `n` is clamped to `n` (R refuses it; the kernels check
    /// first).
    pub fn sample_int(&mut self, n: usize, k: usize) -> Vec<usize> {
        self.sample_dn(n as f64, k.min(n), false)
            .into_iter()
            .map(|v| v as usize)
            .collect()
    }

    /// R's `sample.int(dn, k, replace)` without `prob`, 1-based, exactly as
    /// R 4.2 draws it: with replacement (or for `k < 2`) one
    /// `R_unif_index(dn)` per draw; without, R's swap-remove permutation of
    /// `0..dn` — or, as R's `sample.int` chooses for `dn > 1e7` and
    /// `k <= dn/2` (`useHash`), `sample2`'s rejection of duplicates. The paths
    /// consume the stream differently, so all are needed to match R.
    ///
    /// The caller checks R's preconditions (`dn` finite and >= 0, `k <= dn`
    /// without replacement).
    pub fn sample_dn(&mut self, dn: f64, k: usize, replace: bool) -> Vec<f64> {
        if replace || k < 2 {
            return (0..k).map(|_| self.unif_index(dn) + 1.0).collect();
        }
        if dn > 1e7 && (k as f64) <= dn / 2.0 {
            let mut seen = HashSet::with_capacity(k);
            let mut out = Vec::with_capacity(k);
            while out.len() < k {
                let v = self.unif_index(dn) + 1.0;
                if seen.insert(v.to_bits()) {
                    out.push(v);
                }
            }
            return out;
        }
        // R's `int x[n]`: 4-byte positions, half the memory the random
        // reads below touch, where n allows.
        match u32::try_from(dn as usize) {
            Ok(n) => self.draw_without_replacement((0..n).collect(), k),
            Err(_) => self.draw_without_replacement((0..dn as u64).collect(), k),
        }
    }

    /// `do_sample`'s loop without replacement: each draw takes a uniform
    /// position among those left and moves the last one into its place.
    fn draw_without_replacement<T: Copy + Into<u64>>(
        &mut self,
        mut x: Vec<T>,
        k: usize,
    ) -> Vec<f64> {
        // The positions are drawn a batch ahead of the swaps (each draw
        // depends only on how many are left, so the stream is R's): the
        // swap loop is then a few instructions per draw, and the processor
        // overlaps its cache misses into x instead of waiting out each.
        const BATCH: usize = 512;
        let k = k.min(x.len());
        let mut left = x.len();
        let mut out = Vec::with_capacity(k);
        let mut js = [0usize; BATCH];
        while out.len() < k {
            let b = (k - out.len()).min(BATCH);
            for (i, j) in js[..b].iter_mut().enumerate() {
                *j = self.unif_index((left - i) as f64) as usize;
            }
            for &j in &js[..b] {
                out.push((x[j].into() + 1) as f64);
                left -= 1;
                x[j] = x[left];
            }
        }
        out
    }
}

/// FNV-1a, 64-bit: a stable hash of a step name (std's hasher is not stable).
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// splitmix64's output function: a bijective 64-bit mix.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_seed_42_matches_r() {
        let mut g = Rng::from_seed(42);
        assert_eq!(g.norm_rand(), 1.370_958_447_146_668_5);
        let mut g = Rng::from_seed(42);
        assert_eq!(g.unif_rand(), 0.914_806_043_496_355_4);
    }

    #[test]
    fn iteration_seed_derivation_is_pinned() {
        // Values from an independent Python model of the documented
        // derivation: changing it would change every workflow's loop draws.
        assert_eq!(Rng::iteration_seed(42, "b", 0), -211_501_103);
        assert_eq!(Rng::iteration_seed(42, "b", 1199), -1_766_960_266);
        assert_eq!(Rng::iteration_seed(-7, "loop.step", 3), 1_003_329_253);
    }

    #[test]
    fn iteration_streams_are_stable_and_distinct() {
        let a = Rng::iteration_seed(42, "b", 0);
        assert_eq!(a, Rng::iteration_seed(42, "b", 0));
        assert_ne!(a, Rng::iteration_seed(42, "b", 1));
        assert_ne!(a, Rng::iteration_seed(42, "c", 0));
        assert_ne!(a, Rng::iteration_seed(43, "b", 0));
    }
}
