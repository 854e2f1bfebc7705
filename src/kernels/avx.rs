//! The AVX registers' upper halves, left dirty by faer.
//!
//! faer's matrix products run hand-written assembly micro-kernels that
//! return without `vzeroupper`. Until something clears them, every SSE
//! instruction on that thread (flowcast is built for baseline x86-64, so
//! nearly all of its arithmetic) pays for the dirty upper state, and a
//! thread spawned then inherits it: on the 2-core development VM, `rnorm`
//! ran 2x and a do-all loop of `mean(c %*% a[i, ])` 4x slower after one
//! `%*%` had run on the thread that spawned the workers. So every call
//! ends with [`clear_upper`].

use pulp::{Simd, WithSimd};

/// Clears the upper halves of the AVX registers (compiled code that uses
/// them ends with `vzeroupper`; an AVX function that did not touch them
/// would not). Some nanoseconds; nothing on a machine without AVX.
pub fn clear_upper() {
    std::hint::black_box(pulp::Arch::new().dispatch(Touch));
}

/// Sums a few vectors' worth of numbers in the machine's widest registers.
struct Touch;

impl WithSimd for Touch {
    type Output = f64;

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) -> f64 {
        let x = std::hint::black_box([1.0f64; 16]);
        let (head, _) = S::as_simd_f64s(&x);
        let mut acc = simd.splat_f64s(0.0);
        for v in head {
            acc = simd.add_f64s(acc, *v);
        }
        simd.reduce_sum_f64s(acc)
    }
}
