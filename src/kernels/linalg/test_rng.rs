//! A fixed stream of test numbers for the linear-algebra unit tests.

/// Uniform numbers in [-0.5, 0.5) from a fixed xorshift stream.
pub(super) fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed | 1;
    move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    }
}
