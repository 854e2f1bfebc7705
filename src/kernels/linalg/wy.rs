//! The trailing update of [`super::linpack::dqrdc2`] for a block of
//! Householder steps at once, in compact WY form (LAPACK's `dlarft` +
//! `dlarfb`), so that nearly all the flops are two faer matrix products
//! instead of one pass of dot/axpy per reflector and column.
//!
//! dqrdc2's pivoting needs, for every trailing column, its norm downdated
//! after each reflector from the entry that reflector has just finished (row
//! `r` after reflectors `..=r`), and occasionally the norm of the rest of the
//! column (rows `r + 1..`) at that point. Both are read off the column after
//! the whole block: later reflectors leave row `r` alone, and they are
//! orthogonal and act within rows `r + 1..`, so that norm is unchanged. So
//! the same decisions are taken on the same values, up to rounding.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatMut, MatRef};

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
    matmul(
        wt.as_mut(),
        Accum::Replace,
        v.transpose(),
        c,
        1.0,
        crate::kernels::width::par(),
    );
    let mut yt = Mat::<f64>::zeros(b, mt);
    matmul(
        yt.as_mut(),
        Accum::Replace,
        t.transpose(),
        wt.as_ref(),
        1.0,
        crate::kernels::width::par(),
    );
    let c = MatMut::from_column_major_slice_with_stride_mut(&mut x[first * n + s..], m, mt, n);
    matmul(
        c,
        Accum::Add,
        v.as_ref(),
        yt.as_ref(),
        -1.0,
        crate::kernels::width::par(),
    );
    for jj in 0..mt {
        let col = (first + jj) * n;
        downdate(
            &x[col + s..col + n],
            b,
            &mut qraux[first + jj],
            &mut work1[first + jj],
        );
    }
}

/// dqrdc2's norm downdates of one trailing column `c` (rows `s..`, after
/// the whole block) through the block's `b` reflectors.
fn downdate(c: &[f64], b: usize, qraux: &mut f64, work1: &mut f64) {
    for k in 0..b {
        if *qraux == 0.0 {
            return;
        }
        // Reflectors after `k` leave row `k` alone, so its final value is
        // the one dqrdc2 reads after reflector `k`.
        let tt = (1.0 - (c[k].abs() / *qraux).powi(2)).max(0.0);
        if tt.abs() < 1e-6 {
            // The later reflectors are orthogonal and act within rows
            // `k + 1..`, so the norm there is the same as after reflector k.
            *qraux = nrm2(&c[k + 1..]);
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
    matmul(
        g.as_mut(),
        Accum::Replace,
        v.transpose(),
        v,
        1.0,
        crate::kernels::width::par(),
    );
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

#[cfg(test)]
mod tests {
    use super::super::linpack::{apply_step, make_reflector};
    use super::*;

    /// A seeded `n x p` column-major matrix of uniforms in (-1, 1).
    fn matrix(n: usize, p: usize) -> Vec<f64> {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        (0..n * p)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 11) as f64 / (1u64 << 52) as f64 - 1.0
            })
            .collect()
    }

    #[test]
    fn block_update_downdates_norms_as_one_step_at_a_time() {
        let (n, p, b) = (120, 100, 32);
        let mut x = matrix(n, p);
        // Column 40 nearly parallel to column 5: after reflector 5 its norm
        // collapses and dqrdc2 recomputes it from the rest of the column.
        for i in 0..n {
            x[40 * n + i] = x[5 * n + i] + 1e-5 * x[60 * n + i];
        }
        let mut qraux: Vec<f64> = (0..p).map(|j| nrm2(&x[j * n..(j + 1) * n])).collect();
        let mut work1 = qraux.clone();
        let original = work1[40];
        for l in 0..b {
            for r in 0..l {
                apply_step(&mut x, n, r, l, &mut qraux, &mut work1);
            }
            make_reflector(&mut x, n, l).expect("a nonzero column");
        }
        let (mut xs, mut qs, mut ws) = (x.clone(), qraux.clone(), work1.clone());
        for j in b..p {
            for r in 0..b {
                apply_step(&mut xs, n, r, j, &mut qs, &mut ws);
            }
        }
        assert_ne!(ws[40], original, "the recomputation branch ran");
        apply_block(&mut x, n, p, (0, b), b, &mut qraux, &mut work1);
        let close = |a: f64, e: f64| (a - e).abs() <= 1e-10 * e.abs().max(1e-300);
        for j in b..p {
            assert!(
                close(qraux[j], qs[j]),
                "qraux[{j}]: {} vs {}",
                qraux[j],
                qs[j]
            );
            assert!(
                close(work1[j], ws[j]),
                "work1[{j}]: {} vs {}",
                work1[j],
                ws[j]
            );
            let scale = xs[j * n..(j + 1) * n]
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
            for i in 0..n {
                let (a, e) = (x[j * n + i], xs[j * n + i]);
                assert!((a - e).abs() <= 1e-12 * scale, "x[{i},{j}]: {a} vs {e}");
            }
        }
    }
}
