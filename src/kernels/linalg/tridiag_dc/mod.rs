//! Symmetric tridiagonal eigen-decomposition by divide and conquer, after
//! LAPACK's `dstedc`/`dlaed0`–`dlaed4` (Cuppen's method with the deflation
//! of Dongarra & Sorensen and the eigenvector formula of Gu & Eisenstat).
//! The algorithms, tolerances and the secular-equation iteration follow the
//! LAPACK routines (University of Tennessee et al., modified BSD licence).
//!
//! The matrix is cut in half by a rank-one correction, the halves solved
//! recursively, and each merge solves a secular equation for the roots; the
//! new eigenvectors are the old ones times a `k x k` matrix, multiplied only
//! over the nonzero blocks of `diag(Q1, Q2)` and the non-deflated columns.

mod deflate;
mod leaf;
mod merge;
mod secular;
#[cfg(test)]
mod tests;

use std::sync::atomic::AtomicBool;

use faer::reborrow::ReborrowMut;
use faer::MatMut;

use merge::{merge, Scratch};

use crate::kernels::{check_cancel, KernelError};

/// Largest block solved directly by QL.
const LEAF: usize = 32;

/// Eigenvalues (increasing, into `d`) and eigenvectors (column `j` of `out`
/// for `d[j]`) of the symmetric tridiagonal matrix with diagonal `d` and
/// off-diagonal `e` (`e.len() + 1 == d.len()`). `out` is `n x n` with unit
/// row stride and must be zero on entry (a fresh zeroed matrix costs no
/// second pass over memory); every entry is written. Entries must be finite.
/// `Err` when `cancel` is set before a merge.
pub(crate) fn tridiagonal_eigen(
    d: &mut [f64],
    e: &[f64],
    mut out: MatMut<'_, f64>,
    cancel: &AtomicBool,
) -> Result<(), KernelError> {
    let n = d.len();
    assert_eq!(
        e.len() + 1,
        n.max(1),
        "tridiagonal_eigen: e must have n - 1 entries"
    );
    debug_assert!(
        (0..n).all(|j| (0..n).all(|i| out[(i, j)] == 0.0)),
        "tridiagonal_eigen: out must be zero on entry"
    );
    if n == 0 {
        return Ok(());
    }
    // Solve at unit scale (as `dstedc` does) so that no intermediate can
    // overflow or underflow; powers of two make the scaling exact.
    let norm = d.iter().chain(e).fold(0.0f64, |a, v| a.max(v.abs()));
    if norm == 0.0 {
        for i in 0..n {
            out[(i, i)] = 1.0;
        }
        return Ok(());
    }
    let shift = -norm.log2().round() as i32;
    let mut e = e.to_vec();
    scale_pow2(d, shift);
    scale_pow2(&mut e, shift);
    let mut scratch = Scratch::new(n);
    solve(d, &e, out, &mut scratch, cancel)?;
    scale_pow2(d, -shift);
    Ok(())
}

fn scale_pow2(x: &mut [f64], mut k: i32) {
    while k != 0 {
        let step = k.clamp(-1000, 1000);
        let f = 2f64.powi(step);
        for v in x.iter_mut() {
            *v *= f;
        }
        k -= step;
    }
}

/// `q` is zero outside the diagonal block this call fills.
fn solve(
    d: &mut [f64],
    e: &[f64],
    mut q: MatMut<'_, f64>,
    s: &mut Scratch,
    cancel: &AtomicBool,
) -> Result<(), KernelError> {
    let n = d.len();
    if n == 1 {
        q[(0, 0)] = 1.0;
        return Ok(());
    }
    if n <= LEAF {
        // A block whose QL fails (never seen) is split further instead,
        // down to 1 x 1 if need be.
        let original = d.to_vec();
        if leaf::leaf_eigen(d, e, q.rb_mut(), s.leaf_work(n * n + n)) {
            return Ok(());
        }
        d.copy_from_slice(&original);
    }
    let m = n / 2;
    // T = diag(T1, T2) + |beta| v v' with v = e_{m-1} + sign(beta) e_m.
    let beta = e[m - 1];
    d[m - 1] -= beta.abs();
    d[m] -= beta.abs();
    let (d1, d2) = d.split_at_mut(m);
    solve(
        d1,
        &e[..m - 1],
        q.rb_mut().submatrix_mut(0, 0, m, m),
        s,
        cancel,
    )?;
    solve(
        d2,
        &e[m..],
        q.rb_mut().submatrix_mut(m, m, n - m, n - m),
        s,
        cancel,
    )?;
    check_cancel(cancel)?;
    merge(d, q, m, beta, s);
    Ok(())
}
