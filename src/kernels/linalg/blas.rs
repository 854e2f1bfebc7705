//! Reference BLAS level 1 (netlib's ddot, dnrm2, daxpy, dscal, dasum) in
//! its own order of operations, for the ports of R's C and Fortran that
//! call them (LINPACK, uncmin, lbfgsb, dloess, sbart): summing left to
//! right is what makes those ports agree with R to the last bit. The fast
//! kernels have their own reordered sums (`linpack`'s `dot`, `gemv`).
//!
//! Vectors are slices with unit stride: callers pass the `n` elements the
//! Fortran would walk.

/// `ddot`: the sum of x[i] y[i], left to right (the reference loop's
/// five-fold unrolling still adds in this order), over the shorter length.
pub(crate) fn ddot(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().zip(y) {
        s += a * b;
    }
    s
}

/// `dnrm2` of reference BLAS 3.11 (Blue's algorithm): values between
/// 1e-150 and 1e150 accumulate as plain squares, as the routine's
/// mid-range accumulator does; only near overflow or underflow is the sum
/// scaled.
pub(crate) fn dnrm2(x: &[f64]) -> f64 {
    let mut big = 0.0f64;
    for &v in x {
        big = big.max(v.abs());
    }
    if big == 0.0 || !big.is_finite() {
        return if big.is_nan() { f64::NAN } else { big };
    }
    if !(1e-150..=1e150).contains(&big) {
        let s: f64 = x.iter().map(|v| (v / big) * (v / big)).sum();
        return big * s.sqrt();
    }
    let mut s = 0.0;
    for &v in x {
        s += v * v;
    }
    s.sqrt()
}

/// `daxpy`: y += a x. Nothing when a is 0, as the routine returns early,
/// so an infinite or NaN x leaves y alone.
pub(crate) fn daxpy(a: f64, x: &[f64], y: &mut [f64]) {
    if a == 0.0 {
        return;
    }
    for (v, u) in y.iter_mut().zip(x) {
        *v += a * u;
    }
}

/// `dscal`: x *= a.
pub(crate) fn dscal(a: f64, x: &mut [f64]) {
    for v in x {
        *v *= a;
    }
}

/// `dasum`: the absolute values summed left to right.
pub(crate) fn dasum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v.abs();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dnrm2_scales_only_at_the_extremes() {
        assert_eq!(dnrm2(&[3.0, 4.0]), 5.0);
        assert_eq!(dnrm2(&[]), 0.0);
        assert!((dnrm2(&[3e200, 4e200]) / 5e200 - 1.0).abs() < 1e-15);
        assert!((dnrm2(&[3e-200, 4e-200]) / 5e-200 - 1.0).abs() < 1e-15);
        assert!(dnrm2(&[1.0, f64::NAN]).is_nan());
        assert_eq!(dnrm2(&[1.0, f64::INFINITY]), f64::INFINITY);
    }

    #[test]
    fn daxpy_with_zero_leaves_y_alone() {
        let mut y = [1.0, -0.0];
        daxpy(0.0, &[f64::INFINITY, 1.0], &mut y);
        assert_eq!(y[0], 1.0);
        assert!(y[1].is_sign_negative());
        daxpy(2.0, &[1.0, 1.0], &mut y);
        assert_eq!(y, [3.0, 2.0]);
    }

    #[test]
    fn ddot_adds_left_to_right() {
        // (1e16 + 1) - 1e16 is 0 in this order, 1 in another.
        assert_eq!(ddot(&[1e16, 1.0, -1e16], &[1.0, 1.0, 1.0]), 0.0);
        assert_eq!(dasum(&[-1.0, 2.0]), 3.0);
    }
}
