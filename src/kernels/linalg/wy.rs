//! The trailing update of [`super::linpack::dqrdc2`] for a block of
//! Householder steps at once, in compact WY form (LAPACK's `dlarft` +
//! `dlarfb`), so that nearly all the flops are two faer matrix products
//! instead of one pass of dot/axpy per reflector and column.
//!
//! dqrdc2's pivoting needs, for every trailing column, its norm downdated
//! after each reflector from the entry that reflector has just finished (row
//! `r` after reflectors `..=r`), and occasionally the norm of the rest of the
//! column at that point. Both are read off the block form without applying
//! the reflectors one by one: later reflectors leave row `r` alone, so its
//! final value is the one dqrdc2 reads; and with `Y = CᵀV T` (`T` upper
//! triangular), the column after reflectors `..=k` is the final column plus
//! `V[:, k+1..] Y[j, k+1..]ᵀ`. So the same decisions are taken on the same
//! values, up to rounding.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatMut, MatRef, Par};

use super::linpack::nrm2;

/// Applies the reflectors held in columns `s..s + b` of `x` (`n` rows,
/// LINPACK form: vector in rows `r..`, its first entry not yet replaced by
/// the diagonal of R) to columns `first..p`, downdating their norms in
/// `qraux` (and `work1` on a recomputation) exactly as dqrdc2 does.
pub(super) fn apply_block(
    x: &mut [f64],
    n: usize,
    p: usize,
    (s, b): (usize, usize),
    first: usize,
    qraux: &mut [f64],
    work1: &mut [f64],
) {
    let m = n - s;
    let mt = p - first;
    // V, lower trapezoidal with explicit zeros above each vector.
    let v = Mat::<f64>::from_fn(
        m,
        b,
        |i, k| {
            if i >= k {
                x[(s + k) * n + s + i]
            } else {
                0.0
            }
        },
    );
    let t = triangular_factor(v.as_ref());
    // Wᵀ = VᵀC and Yᵀ = TᵀWᵀ, transposed so each column's row of Y is a
    // contiguous slice.
    let mut wt = Mat::<f64>::zeros(b, mt);
    let c = MatRef::from_column_major_slice_with_stride(&x[first * n + s..], m, mt, n);
    matmul(wt.as_mut(), Accum::Replace, v.transpose(), c, 1.0, Par::Seq);
    let mut yt = Mat::<f64>::zeros(b, mt);
    matmul(
        yt.as_mut(),
        Accum::Replace,
        t.transpose(),
        wt.as_ref(),
        1.0,
        Par::Seq,
    );
    let c = MatMut::from_column_major_slice_with_stride_mut(&mut x[first * n + s..], m, mt, n);
    matmul(c, Accum::Add, v.as_ref(), yt.as_ref(), -1.0, Par::Seq);
    for jj in 0..mt {
        let col = (first + jj) * n;
        downdate(
            &x[col + s..col + n],
            v.as_ref(),
            yt.col_as_slice(jj),
            &mut qraux[first + jj],
            &mut work1[first + jj],
        );
    }
}

/// dqrdc2's norm downdates of one trailing column `c` (rows `s..`, after
/// the whole block) through the block's `b` reflectors; `y` is the column's
/// row of `Y = CᵀV T` (C before the block).
fn downdate(c: &[f64], v: MatRef<'_, f64>, y: &[f64], qraux: &mut f64, work1: &mut f64) {
    let b = v.ncols();
    for k in 0..b {
        if *qraux == 0.0 {
            return;
        }
        // Reflectors after `k` leave row `k` alone, so its final value is
        // the one dqrdc2 reads after reflector `k`.
        let tt = (1.0 - (c[k].abs() / *qraux).powi(2)).max(0.0);
        if tt.abs() < 1e-6 {
            // The rest of the column after reflectors `..=k`: the final
            // column with the later reflectors' terms added back.
            let rest: Vec<f64> = (k + 1..c.len())
                .map(|row| {
                    let mut s = c[row];
                    for (i, yi) in y.iter().enumerate().skip(k + 1) {
                        s += v[(row, i)] * yi;
                    }
                    s
                })
                .collect();
            *qraux = nrm2(&rest);
            *work1 = *qraux;
        } else {
            *qraux *= tt.sqrt();
        }
    }
}

/// The upper triangular `T` with `H_0 H_1 … H_{b-1} = I - V T Vᵀ`, where
/// `H_k = I - v_k v_kᵀ / v_k[k]` (LINPACK's reflector: its first entry is
/// `1 + |x|/‖x‖`, not 1).
fn triangular_factor(v: MatRef<'_, f64>) -> Mat<f64> {
    let b = v.ncols();
    let mut g = Mat::<f64>::zeros(b, b);
    matmul(g.as_mut(), Accum::Replace, v.transpose(), v, 1.0, Par::Seq);
    let mut t = Mat::<f64>::zeros(b, b);
    for i in 0..b {
        let tau = 1.0 / v[(i, i)];
        t[(i, i)] = tau;
        // T[..i, i] = -tau T[..i, ..i] G[..i, i]
        for k in 0..i {
            let mut z = 0.0;
            for q in k..i {
                z += t[(k, q)] * g[(q, i)];
            }
            t[(k, i)] = -tau * z;
        }
    }
    t
}
