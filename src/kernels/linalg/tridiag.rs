//! Householder reduction of a symmetric matrix to tridiagonal form, blocked
//! as LAPACK's `dsytrd`/`dlatrd` (lower triangle): panels of [`PANEL`]
//! columns are reduced while their effect on the rest is kept as `V` and
//! `W`, then the trailing matrix takes one rank-`2 PANEL` update
//! `A22 -= V Wᵀ + W Vᵀ`. Half the flops become a matrix product; the other
//! half, one symmetric matrix-vector product per column, reads each entry
//! of the lower triangle once (dot and axpy fused, as OpenBLAS `dsymv`).
//!
//! The output is faer's `tridiag_in_place`'s, so faer's block Householder
//! back-transform applies to it: the tridiagonal on the diagonal and
//! subdiagonal, the reflectors' essential parts below the subdiagonal
//! (`H = I - v vᵀ / τ`, `v₀ = 1`), and the `τ`s upgraded to block factors.

use std::sync::atomic::AtomicBool;

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::householder;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::{Accum, ColMut, MatMut, MatRef};
use pulp::{Simd, WithSimd};

use super::gemv::{dot, gemv_n_add, gemv_t};
use crate::kernels::{check_cancel, KernelError};

/// Columns reduced per panel.
const PANEL: usize = 32;
/// The last columns (fewer than this) go to faer's unblocked reduction: on
/// a small trailing matrix the panel's bookkeeping costs more than the
/// product saves.
const CROSSOVER: usize = 128;

/// Reduces the lower triangle of the `n x n` column-major `a` in place,
/// as faer's `tridiag_in_place` does (the upper triangle is not read).
/// `house` is `b x (n - 1)` for the back-transform's block size `b`.
/// `Err` (and `a` half reduced) when `cancel` is set between panels.
pub(super) fn tridiag_in_place(
    a: &mut [f64],
    n: usize,
    mut house: MatMut<'_, f64>,
    cancel: &AtomicBool,
) -> Result<(), KernelError> {
    assert_eq!(a.len(), n * n);
    assert_eq!(house.ncols(), n.saturating_sub(1));
    if n == 0 {
        return Ok(());
    }
    // faer's τ for each reflector, upgraded to block factors at the end.
    let mut taus = vec![0.0; n - 1];
    let mut w = vec![0.0; n * PANEL];
    // [V W] and [W V] for the trailing update.
    let mut vw = vec![0.0; 4 * n * PANEL];
    let mut p = 0;
    while n - p > CROSSOVER {
        check_cancel(cancel)?;
        reduce_panel(a, n, p, &mut w, &mut vw, &mut taus);
        p += PANEL;
    }
    let m = n - p;
    let rest = MatMut::from_column_major_slice_with_stride_mut(&mut a[p * n + p..], m, m, n);
    // A one-row factor: faer leaves plain τs, upgraded with ours below.
    let rest_taus = MatMut::from_column_major_slice_with_stride_mut(&mut taus[p..], 1, m - 1, 1);
    let par = crate::kernels::width::par();
    let mut mem = MemBuffer::new(faer::linalg::evd::tridiag::tridiag_in_place_scratch::<f64>(
        m,
        par,
        Default::default(),
    ));
    faer::linalg::evd::tridiag::tridiag_in_place(
        rest,
        rest_taus,
        par,
        MemStack::new(&mut mem),
        Default::default(),
    );
    upgrade_factors(a, n, &taus, house.as_mut());
    Ok(())
}

/// The end of faer's `tridiag_in_place`: each block of `b` reflectors gets
/// its triangular factor, from the τs on its diagonal.
fn upgrade_factors(a: &[f64], n: usize, taus: &[f64], mut house: MatMut<'_, f64>) {
    let b = house.nrows();
    let n = n - 1;
    let v = MatRef::from_column_major_slice_with_stride(&a[1..], n, n, n + 1);
    let mut j = 0;
    while j < n {
        let bs = b.min(n - j);
        let mut h = house.as_mut().submatrix_mut(0, j, bs, bs);
        for k in 0..bs {
            h[(k, k)] = taus[j + k];
        }
        householder::upgrade_householder_factor(
            h,
            v.submatrix(j, j, n - j, bs),
            bs,
            1,
            crate::kernels::width::par(),
        );
        j += bs;
    }
}

/// dlatrd then the trailing update: reduces columns `p..p + PANEL` of the
/// trailing matrix `a[p.., p..]`, which must have more than `PANEL + 1`
/// rows.
fn reduce_panel(
    a: &mut [f64],
    n: usize,
    p: usize,
    w: &mut [f64],
    vw: &mut [f64],
    taus: &mut [f64],
) {
    let m = n - p;
    // W is `m x PANEL` with rows p.., column stride m.
    let w = &mut w[..m * PANEL];
    let mut e = [0.0; PANEL];
    let mut dots = [0.0; 2 * PANEL];
    for i in 0..PANEL {
        let k = p + i;
        let (left, right) = a.split_at_mut(k * n);
        let (w, w_rest) = w.split_at_mut(i * m);
        // V: this panel's reflectors so far (columns p..k, from row p),
        // W likewise.
        let pv = Panel {
            v: &left[(p * n + p).min(k * n)..],
            v_ld: n,
            w,
            w_ld: m,
        };
        // Column k, rows k.., as the previous reflectors of this panel
        // leave it: A -= V Wᵀ + W Vᵀ restricted to that column.
        let (mut wk, mut vk) = ([0.0; PANEL], [0.0; PANEL]);
        for c in 0..i {
            (wk[c], vk[c]) = (pv.w[c * m + i], pv.v[c * n + i]);
        }
        pv.subtract(&mut right[k..n], i, &wk[..i], &vk[..i]);
        // The reflector annihilating rows k + 2.. of column k; its unit
        // head is stored explicitly while V is in use (LAPACK does the
        // same), the subdiagonal entry is kept in `e`.
        let (head, tail) = right[k + 1..n].split_at_mut(1);
        let info =
            householder::make_householder_in_place(&mut head[0], ColMut::from_slice_mut(tail));
        taus[k] = info.tau;
        e[i] = head[0];
        head[0] = 1.0;
        // LAPACK's τ; faer's is infinite for the identity.
        let tau = if info.tau.is_finite() {
            info.tau.recip()
        } else {
            0.0
        };

        // w = τ (A22 v - V (Wᵀ v) - W (Vᵀ v)), then w -= (τ/2)(wᵀv) v, so
        // that A22 - v wᵀ - w vᵀ = H A22 H (rows and columns k + 1..).
        let (col_k, a22) = right.split_at_mut(n);
        let v = &col_k[k + 1..n];
        let r0 = i + 1; // row k + 1 of V and W
        let wi = &mut w_rest[r0..m];
        symv_lower(&a22[k + 1..], n, v, wi);
        let (dw, dv) = dots.split_at_mut(PANEL);
        pv.dots(v, r0, &mut dw[..i], &mut dv[..i]);
        pv.subtract(wi, r0, &dw[..i], &dv[..i]);
        wi.iter_mut().for_each(|y| *y *= tau);
        let alpha = -0.5 * tau * dot(wi, v);
        wi.iter_mut().zip(v).for_each(|(y, &x)| *y += alpha * x);
        // Rows k+1.. of W's column are set; rows above are never read.
    }

    // A22 -= V Wᵀ + W Vᵀ on the lower triangle, as one product of inner
    // dimension 2 PANEL, [V W] [W V]ᵀ: the destination is read and written
    // once instead of twice.
    let q = p + PANEL;
    let m2 = n - q;
    let (left, right) = a.split_at_mut(q * n);
    let (lhs, rhs) = vw.split_at_mut(2 * PANEL * m2);
    for c in 0..PANEL {
        let vc = &left[(p + c) * n + q..(p + c) * n + n];
        let wc = &w[c * m + PANEL..c * m + m];
        lhs[c * m2..(c + 1) * m2].copy_from_slice(vc);
        lhs[(PANEL + c) * m2..(PANEL + c + 1) * m2].copy_from_slice(wc);
        rhs[c * m2..(c + 1) * m2].copy_from_slice(wc);
        rhs[(PANEL + c) * m2..(PANEL + c + 1) * m2].copy_from_slice(vc);
    }
    let lhs = MatRef::from_column_major_slice(&lhs[..2 * PANEL * m2], m2, 2 * PANEL);
    let rhs = MatRef::from_column_major_slice(&rhs[..2 * PANEL * m2], m2, 2 * PANEL);
    let a22 = MatMut::from_column_major_slice_with_stride_mut(&mut right[q..], m2, m2, n);
    triangular::matmul(
        a22,
        BlockStructure::TriangularLower,
        Accum::Add,
        lhs,
        BlockStructure::Rectangular,
        rhs.transpose(),
        BlockStructure::Rectangular,
        -1.0,
        crate::kernels::width::par(),
    );
    for (i, &ei) in e.iter().enumerate() {
        let k = p + i;
        a[k * n + k + 1] = ei;
    }
}

/// The first columns of a panel's V and W, from its first row.
struct Panel<'a> {
    v: &'a [f64],
    v_ld: usize,
    w: &'a [f64],
    w_ld: usize,
}

impl Panel<'_> {
    /// Rows `r..r + len` of the first `cols` columns of V and of W.
    fn blocks(&self, r: usize, len: usize, cols: usize) -> (MatRef<'_, f64>, MatRef<'_, f64>) {
        (
            block(self.v, self.v_ld, r, len, cols),
            block(self.w, self.w_ld, r, len, cols),
        )
    }

    /// `y -= V x + W z` on rows `r..r + y.len()`, the columns `..x.len()`.
    fn subtract(&self, y: &mut [f64], r: usize, x: &[f64], z: &[f64]) {
        let (v, w) = self.blocks(r, y.len(), x.len());
        let neg = |c: &[f64]| -> [f64; PANEL] {
            let mut out = [0.0; PANEL];
            out.iter_mut().zip(c).for_each(|(o, &c)| *o = -c);
            out
        };
        gemv_n_add(v, &neg(x)[..x.len()], y);
        gemv_n_add(w, &neg(z)[..z.len()], y);
    }

    /// `Wᵀ x` and `Vᵀ x` on rows `r..r + x.len()`, the columns `..dw.len()`.
    fn dots(&self, x: &[f64], r: usize, dw: &mut [f64], dv: &mut [f64]) {
        let (v, w) = self.blocks(r, x.len(), dw.len());
        gemv_t(w, x, dw);
        gemv_t(v, x, dv);
    }
}

/// Rows `r..r + len` of the first `cols` columns of the column-major `x`
/// (column stride `ld`).
fn block(x: &[f64], ld: usize, r: usize, len: usize, cols: usize) -> MatRef<'_, f64> {
    let x = if cols == 0 {
        &x[..0]
    } else {
        &x[r..(cols - 1) * ld + r + len]
    };
    MatRef::from_column_major_slice_with_stride(x, len, cols, ld)
}

/// `y = A x` for the symmetric `A` (`m x m`, `m = x.len()`) whose lower
/// triangle is held column-major in `a` with column stride `ld`.
fn symv_lower(a: &[f64], ld: usize, x: &[f64], y: &mut [f64]) {
    // Compiled for the best instruction set found at run time: this is
    // half the reduction's flops.
    pulp::Arch::new().dispatch(Symv { a, ld, x, y });
}

struct Symv<'a> {
    a: &'a [f64],
    ld: usize,
    x: &'a [f64],
    y: &'a mut [f64],
}

impl WithSimd for Symv<'_> {
    type Output = ();

    /// Four columns at a time, one pass down them: each entry `A[r, j]`
    /// below the diagonal block adds `A[r, j] x[j]` to `y[r]` (the lower
    /// triangle) and `A[r, j] x[r]` to `y[j]` (its transpose, the upper).
    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        let Self { a, ld, x, y } = self;
        let m = x.len();
        y.fill(0.0);
        let mut j = 0;
        while j + 4 <= m {
            let col = |c: usize| &a[(j + c) * ld..(j + c) * ld + m];
            let cols = [col(0), col(1), col(2), col(3)];
            // The 4 x 4 diagonal block.
            for c in 0..4 {
                let xj = x[j + c];
                y[j + c] += cols[c][j + c] * xj;
                for r in j + c + 1..j + 4 {
                    y[r] += cols[c][r] * xj;
                    y[j + c] += cols[c][r] * x[r];
                }
            }
            let r0 = j + 4;
            let (yh, yt) = S::as_mut_simd_f64s(&mut y[r0..]);
            let (xh, xt) = S::as_simd_f64s(&x[r0..]);
            let (a0, a0t) = S::as_simd_f64s(&cols[0][r0..]);
            let (a1, a1t) = S::as_simd_f64s(&cols[1][r0..]);
            let (a2, a2t) = S::as_simd_f64s(&cols[2][r0..]);
            let (a3, a3t) = S::as_simd_f64s(&cols[3][r0..]);
            let xs = [
                simd.splat_f64s(x[j]),
                simd.splat_f64s(x[j + 1]),
                simd.splat_f64s(x[j + 2]),
                simd.splat_f64s(x[j + 3]),
            ];
            let zero = simd.splat_f64s(0.0);
            let mut t = [zero; 4];
            for (((((yv, &xv), &c0), &c1), &c2), &c3) in
                yh.iter_mut().zip(xh).zip(a0).zip(a1).zip(a2).zip(a3)
            {
                // Two short chains rather than one of four FMAs: the
                // loop is latency-bound otherwise.
                let lo = simd.mul_add_e_f64s(c1, xs[1], simd.mul_f64s(c0, xs[0]));
                let hi = simd.mul_add_e_f64s(c3, xs[3], simd.mul_f64s(c2, xs[2]));
                *yv = simd.add_f64s(*yv, simd.add_f64s(lo, hi));
                t[0] = simd.mul_add_e_f64s(c0, xv, t[0]);
                t[1] = simd.mul_add_e_f64s(c1, xv, t[1]);
                t[2] = simd.mul_add_e_f64s(c2, xv, t[2]);
                t[3] = simd.mul_add_e_f64s(c3, xv, t[3]);
            }
            let mut s = [
                simd.reduce_sum_f64s(t[0]),
                simd.reduce_sum_f64s(t[1]),
                simd.reduce_sum_f64s(t[2]),
                simd.reduce_sum_f64s(t[3]),
            ];
            let tails = [a0t, a1t, a2t, a3t];
            for (r, (yr, &xr)) in yt.iter_mut().zip(xt).enumerate() {
                for c in 0..4 {
                    *yr += tails[c][r] * x[j + c];
                    s[c] += tails[c][r] * xr;
                }
            }
            for c in 0..4 {
                y[j + c] += s[c];
            }
            j += 4;
        }
        // The last (fewer than 4) columns.
        for jj in j..m {
            let colj = &a[jj * ld..jj * ld + m];
            let xj = x[jj];
            let mut s = colj[jj] * xj;
            for r in jj + 1..m {
                y[r] += colj[r] * xj;
                s += colj[r] * x[r];
            }
            y[jj] += s;
        }
    }
}

#[cfg(test)]
mod tests;
