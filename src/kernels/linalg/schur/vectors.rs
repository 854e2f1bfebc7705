//! Right eigenvectors of a real quasi-triangular Schur form T (the job of
//! LAPACK's `dtrevc3`), by back substitution against each eigenvalue.
//!
//! The substitution is blocked as `dtrevc3` blocks it: T's rows are taken
//! in blocks from the bottom; within a block each eigenvector is solved on
//! its own, then one matrix product carries the block's part of every
//! vector into all the rows above it. Done vector by vector, each solve
//! reads all of T again, and the whole is bound by memory.
//!
//! The pivot floor (eps times T's 1-norm-like sum) is faer 0.24's, whose
//! unblocked version this replaces.

use faer::linalg::matmul::matmul;
use faer::prelude::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, MatRef};

use super::super::gemv::col;

/// Rows per block: the in-block solves stay in cache, the products have
/// enough depth to run at speed.
const BLOCK: usize = 64;

/// One eigenvalue's vector: column `k` for a real one; for a complex pair
/// (p ± iq) from the 2-by-2 block at rows/columns (k - 1, k), columns k - 1
/// and k hold the real and imaginary parts of the vector for p + iq.
#[derive(Clone, Copy)]
enum Vector {
    Real { k: usize, p: f64 },
    Pair { k: usize, p: f64, q: f64 },
}

impl Vector {
    /// The first row (from the top) whose entry is known from the start;
    /// the rows above it are the unknowns.
    fn top(self) -> usize {
        match self {
            Vector::Real { k, .. } => k,
            Vector::Pair { k, .. } => k - 1,
        }
    }
}

/// Writes into `x` (`n`-by-`n`, column-major, zeroed) the eigenvectors of
/// the upper quasi-triangular `t`, in the layout of [`Vector`]. `x` stays
/// upper triangular, so `Z x` is a triangular product giving the
/// eigenvectors of the original matrix.
pub(in crate::kernels::linalg) fn schur_eigenvectors(t: MatRef<'_, f64>, x: &mut [f64]) {
    let n = t.nrows();
    let mut x = MatMut::from_column_major_slice_mut(x, n, n);
    let mut norm = 0.0;
    for j in 0..n {
        for i in 0..Ord::min(j + 2, n) {
            norm += t[(i, j)].abs();
        }
    }
    let floor = f64::EPSILON * norm;
    let vectors = known_entries(t, x.rb_mut());
    let mut end = n;
    while end > 0 {
        let mut start = end.saturating_sub(BLOCK);
        // Never split a 2-by-2 block.
        if start > 0 && t[(start, start - 1)] != 0.0 {
            start -= 1;
        }
        for &v in vectors.iter().filter(|v| v.top() > start) {
            solve_block(t, v, start, end, x.rb_mut(), floor);
        }
        if start > 0 {
            // Every vector reaching into the block passes its block rows on
            // to the rows above.
            let (mut above, block) = x.rb_mut().split_at_row_mut(start);
            matmul(
                above.rb_mut().subcols_mut(start, n - start),
                Accum::Add,
                t.submatrix(0, start, start, end - start),
                block.rb().submatrix(0, start, end - start, n - start),
                -1.0,
                crate::kernels::width::par(),
            );
        }
        end = start;
    }
}

/// Sets each vector's known top entries, as faer and `dtrevc` choose them,
/// and lists the vectors.
fn known_entries(t: MatRef<'_, f64>, mut x: MatMut<'_, f64>) -> Vec<Vector> {
    let n = t.nrows();
    let mut vectors = Vec::with_capacity(n);
    let mut k = n;
    while k > 0 {
        k -= 1;
        if k == 0 || t[(k, k - 1)] == 0.0 {
            x[(k, k)] = 1.0;
            vectors.push(Vector::Real { k, p: t[(k, k)] });
        } else {
            let p = t[(k, k)];
            let q = t[(k, k - 1)].abs().sqrt() * t[(k - 1, k)].abs().sqrt();
            if t[(k - 1, k)].abs() >= t[(k, k - 1)].abs() {
                x[(k - 1, k - 1)] = 1.0;
                x[(k, k)] = q / t[(k - 1, k)];
            } else {
                x[(k - 1, k - 1)] = -q / t[(k, k - 1)];
                x[(k, k)] = 1.0;
            }
            vectors.push(Vector::Pair { k, p, q });
            k -= 1;
        }
    }
    vectors
}

/// Solves vector `v` on rows `start..end`, given that every row at or
/// beyond `end` has already been subtracted from the right-hand side:
/// first the known entries inside the block are passed up, then each
/// unknown is solved for bottom up and passed up the block by a column of
/// T (contiguous).
fn solve_block(
    t: MatRef<'_, f64>,
    v: Vector,
    start: usize,
    end: usize,
    x: MatMut<'_, f64>,
    floor: f64,
) {
    let top = Ord::min(v.top(), end);
    match v {
        Vector::Real { k, p } => {
            let xk = column(x, k);
            if k < end {
                let known = xk[k];
                axpy(&mut xk[start..top], -known, &col(t, k)[start..top]);
            }
            solve_real(t, p, start, top, xk, floor);
        }
        Vector::Pair { k, p, q } => {
            let (xr, xi) = columns(x, k - 1);
            if k < end {
                let (r, s) = (xr[k - 1], xi[k]);
                axpy(&mut xr[start..top], -r, &col(t, k - 1)[start..top]);
                axpy(&mut xi[start..top], -s, &col(t, k)[start..top]);
            }
            solve_complex(t, (p, q), start, top, (xr, xi), floor);
        }
    }
}

/// (T - p) x = rhs on rows `start..top`, the rest already subtracted.
fn solve_real(t: MatRef<'_, f64>, p: f64, start: usize, top: usize, x: &mut [f64], floor: f64) {
    let mut i = top;
    while i > start {
        i -= 1;
        if i == start || t[(i, i - 1)] == 0.0 {
            let mut z = t[(i, i)] - p;
            if z.abs() < floor {
                z = floor;
            }
            if x[i] != 0.0 {
                x[i] /= z;
            }
            let xi = x[i];
            axpy(&mut x[start..i], -xi, &col(t, i)[start..i]);
        } else {
            let a = t[(i, i)] - p;
            let b = t[(i - 1, i)];
            let c = t[(i, i - 1)];
            let (r0, r1) = (x[i - 1], x[i]);
            let inv_det = (a * a - b * c).recip();
            x[i - 1] = (a * r0 - b * r1) * inv_det;
            x[i] = (a * r1 - c * r0) * inv_det;
            let (x0, x1) = (x[i - 1], x[i]);
            axpy(&mut x[start..i - 1], -x0, &col(t, i - 1)[start..i - 1]);
            axpy(&mut x[start..i - 1], -x1, &col(t, i)[start..i - 1]);
            i -= 1;
        }
    }
}

/// (T - (p + iq)) x = rhs on rows `start..top`, x as its real and
/// imaginary parts, the rest already subtracted.
fn solve_complex(
    t: MatRef<'_, f64>,
    (p, q): (f64, f64),
    start: usize,
    top: usize,
    (xr, xi): (&mut [f64], &mut [f64]),
    floor: f64,
) {
    // 1 / z as (re, im), with |z| floored like the real case.
    let inverse = |z_re: f64, z_im: f64| {
        let z = z_re.hypot(z_im);
        if z < floor {
            (1.0 / floor, 0.0)
        } else {
            ((z_re / z) / z, (-z_im / z) / z)
        }
    };
    let mut i = top;
    while i > start {
        i -= 1;
        if i == start || t[(i, i - 1)] == 0.0 {
            let (z_re, z_im) = inverse(t[(i, i)] - p, -q);
            let (x_re, x_im) = (xr[i], xi[i]);
            xr[i] = x_re * z_re - x_im * z_im;
            xi[i] = x_re * z_im + x_im * z_re;
            let c = &col(t, i)[start..i];
            let (vr, vi) = (xr[i], xi[i]);
            axpy(&mut xr[start..i], -vr, c);
            axpy(&mut xi[start..i], -vi, c);
        } else {
            let (a_re, a_im) = (t[(i, i)] - p, -q);
            let b = t[(i - 1, i)];
            let c = t[(i, i - 1)];
            let (r0_re, r0_im) = (xr[i - 1], xi[i - 1]);
            let (r1_re, r1_im) = (xr[i], xi[i]);
            let (z_re, z_im) = inverse(a_re * a_re - a_im * a_im - b * c, 2.0 * (a_re * a_im));
            let x0_re = (a_re * r0_re - a_im * r0_im) - b * r1_re;
            let x0_im = (a_re * r0_im + a_im * r0_re) - b * r1_im;
            let x1_re = (a_re * r1_re - a_im * r1_im) - c * r0_re;
            let x1_im = (a_re * r1_im + a_im * r1_re) - c * r0_im;
            xr[i - 1] = x0_re * z_re - x0_im * z_im;
            xi[i - 1] = x0_re * z_im + x0_im * z_re;
            xr[i] = x1_re * z_re - x1_im * z_im;
            xi[i] = x1_re * z_im + x1_im * z_re;
            for r in [i - 1, i] {
                let c = &col(t, r)[start..i - 1];
                let (vr, vi) = (xr[r], xi[r]);
                axpy(&mut xr[start..i - 1], -vr, c);
                axpy(&mut xi[start..i - 1], -vi, c);
            }
            i -= 1;
        }
    }
}

/// y += a x.
fn axpy(y: &mut [f64], a: f64, x: &[f64]) {
    if a != 0.0 {
        y.iter_mut().zip(x).for_each(|(y, &x)| *y += a * x);
    }
}

/// Column `k` of the column-major `x` as a slice.
fn column(x: MatMut<'_, f64>, k: usize) -> &mut [f64] {
    x.col_mut(k)
        .try_as_col_major_mut()
        .expect("column-major view")
        .as_slice_mut()
}

/// Columns `k` and `k + 1` of the column-major `x` as slices.
fn columns(x: MatMut<'_, f64>, k: usize) -> (&mut [f64], &mut [f64]) {
    let (left, right) = x.split_at_col_mut(k + 1);
    (column(left, k), column(right, 0))
}
