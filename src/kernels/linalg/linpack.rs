//! Ports of the LINPACK routines R still uses by default: `dqrdc2` (QR with
//! R's limited column pivoting), `dqrsl` (applying it) and `dqrls` (least
//! squares, behind `lm`). The loops keep Fortran's order of operations
//! (reference BLAS `ddot`/`daxpy` sum left to right), so results agree with
//! R's to the last bits, not merely to a tolerance.
//!
//! Matrices are column-major slices with leading dimension `n`; indices are
//! 0-based here where the Fortran is 1-based.

use super::blas::ddot as dot;
pub(super) use super::blas::dnrm2 as nrm2;

/// [`dot`] of `h` with four columns at once, each summed in `ddot`'s own
/// order: four independent chains keep the adder busy where one waits on
/// the latency of each addition, without reordering any sum.
#[inline(always)]
fn dot4(h: &[f64], c: [&[f64]; 4]) -> [f64; 4] {
    let len = h.len();
    let [c0, c1, c2, c3] = c.map(|c| &c[..len]);
    let mut s = [0.0; 4];
    for i in 0..len {
        let a = h[i];
        s[0] += a * c0[i];
        s[1] += a * c1[i];
        s[2] += a * c2[i];
        s[3] += a * c3[i];
    }
    s
}

#[inline(always)]
fn axpy(t: f64, x: &[f64], y: &mut [f64]) {
    for (a, b) in x.iter().zip(y.iter_mut()) {
        *b += t * a;
    }
}

/// How many Householder steps [`dqrdc2`] applies per pass over the columns
/// of a small trailing matrix (one dot/axpy per step and column).
const BLOCK: usize = 8;

/// Steps per block, and the smallest trailing matrix (rows and columns),
/// for the compact WY update (two matrix products per block), which only
/// pays off once the products are large.
pub(crate) const WY_BLOCK: usize = 32;
pub(crate) const WY_MIN: usize = 96;

/// Forms step `l`'s Householder vector in column `l` (rows `l..`), returning
/// the signed norm, or `None` when the column is zero there (no reflection).
pub(super) fn make_reflector(x: &mut [f64], n: usize, l: usize) -> Option<f64> {
    let ll = l * n + l;
    let mut nrmxl = nrm2(&x[ll..(l + 1) * n]);
    if nrmxl == 0.0 {
        return None;
    }
    if x[ll] != 0.0 {
        nrmxl = nrmxl.abs().copysign(x[ll]);
    }
    let s = 1.0 / nrmxl;
    for v in &mut x[ll..(l + 1) * n] {
        *v *= s;
    }
    x[ll] += 1.0;
    Some(nrmxl)
}

/// Applies step `r`'s reflector (column `r`, not yet finalised) to column
/// `j > r` and downdates `j`'s norm as dqrdc2 does.
#[inline(always)]
pub(super) fn apply_step(
    x: &mut [f64],
    n: usize,
    r: usize,
    j: usize,
    qraux: &mut [f64],
    work1: &mut [f64],
) {
    let (head, tail) = x.split_at_mut(j * n);
    let hv = &head[r * n + r..(r + 1) * n];
    let col = &mut tail[r..n];
    let t = -dot(hv, col) / hv[0];
    axpy(t, hv, col);
    downdate(col, &mut qraux[j], &mut work1[j]);
}

/// [`apply_step`] on the four columns `j..j + 4`, their dot products
/// computed together ([`dot4`]); each column's arithmetic is unchanged.
#[inline(always)]
fn apply_step4(x: &mut [f64], n: usize, r: usize, j: usize, qraux: &mut [f64], work1: &mut [f64]) {
    let (head, tail) = x.split_at_mut(j * n);
    let hv = &head[r * n + r..(r + 1) * n];
    let (c0, tail) = tail.split_at_mut(n);
    let (c1, tail) = tail.split_at_mut(n);
    let (c2, tail) = tail.split_at_mut(n);
    let c3 = &mut tail[..n];
    let mut cols = [&mut c0[r..], &mut c1[r..], &mut c2[r..], &mut c3[r..]];
    let s = dot4(hv, [&*cols[0], &*cols[1], &*cols[2], &*cols[3]]);
    for (k, col) in cols.iter_mut().enumerate() {
        let t = -s[k] / hv[0];
        axpy(t, hv, col);
        downdate(col, &mut qraux[j + k], &mut work1[j + k]);
    }
}

/// dqrdc2's update of a column's norm after a reflection: scaled down
/// while that is accurate, recomputed once most of the norm is gone.
#[inline(always)]
fn downdate(col: &[f64], qraux: &mut f64, work1: &mut f64) {
    if *qraux == 0.0 {
        return;
    }
    let tt = (1.0 - (col[0].abs() / *qraux).powi(2)).max(0.0);
    if tt.abs() < 1e-6 {
        *qraux = nrm2(&col[1..]);
        *work1 = *qraux;
    } else {
        *qraux *= tt.sqrt();
    }
}

/// The result of [`dqrdc2`].
#[derive(Clone, Debug)]
pub(crate) struct Qr {
    /// `n x p`, column-major: R above the diagonal, Householder vectors below.
    pub qr: Vec<f64>,
    pub n: usize,
    pub p: usize,
    pub rank: usize,
    pub qraux: Vec<f64>,
    /// 1-based original column indices, as R's `$pivot`.
    pub pivot: Vec<usize>,
}

/// LINPACK `dqrdc2` as modified for R: Householder QR that moves columns
/// whose norm has fallen below `tol` times their original norm to the end.
pub(crate) fn dqrdc2(mut x: Vec<f64>, n: usize, p: usize, tol: f64) -> Qr {
    debug_assert_eq!(x.len(), n * p);
    let mut qraux = vec![0.0; p];
    let mut work1 = vec![0.0; p];
    let mut work2 = vec![0.0; p];
    let mut jpvt: Vec<usize> = (1..=p).collect();
    for j in 0..p {
        let nrm = nrm2(&x[j * n..(j + 1) * n]);
        qraux[j] = nrm;
        work1[j] = nrm;
        work2[j] = if nrm == 0.0 { 1.0 } else { nrm };
    }
    let lup = n.min(p);
    let arch = faer::traits::pulp::Arch::new();
    // `k` is Fortran's (1-based) k: columns k..p have been cycled to the end.
    let mut k = p + 1;
    let mut l = 0;
    while l < lup {
        // Cycle negligible columns to the end; `l + 1 >= k` stops the cycling
        // once every remaining column has been moved.
        while l + 1 < k && qraux[l] < work2[l] * tol {
            x[l * n..p * n].rotate_left(n);
            jpvt[l..].rotate_left(1);
            qraux[l..].rotate_left(1);
            work1[l..].rotate_left(1);
            work2[l..].rotate_left(1);
            k -= 1;
        }
        if l + 1 == n {
            break;
        }
        let Some(nrmxl) = make_reflector(&mut x, n, l) else {
            l += 1;
            continue;
        };
        // Each column's updates by successive reflectors are independent of
        // the other columns, so the next steps' reflectors can be formed
        // early (look-ahead) as long as their columns are not cycled, and
        // then applied together: one pass over the trailing matrix per
        // block instead of per column, same arithmetic per column.
        let wide = n - l >= WY_MIN && p - l >= WY_MIN;
        let max_block = if wide { WY_BLOCK } else { BLOCK };
        let mut block = vec![(l, nrmxl)];
        let mut next = l + 1; // first column not yet updated by the block
        while block.len() < max_block && next < lup && next + 1 < n {
            let c = next;
            arch.dispatch(|| {
                for &(r, _) in &block {
                    apply_step(&mut x, n, r, c, &mut qraux, &mut work1);
                }
            });
            next = c + 1;
            if c + 1 < k && qraux[c] < work2[c] * tol {
                break;
            }
            match make_reflector(&mut x, n, c) {
                Some(nrm) => block.push((c, nrm)),
                None => break,
            }
        }
        if wide && next < p {
            super::wy::apply_block(&mut x, n, p, (l, block.len()), next, &mut qraux, &mut work1);
        } else {
            // The trailing update is almost all of the work: run it with the
            // widest SIMD the CPU has (pulp compiles the closure for AVX2
            // when available, while the crate itself targets baseline x86-64).
            arch.dispatch(|| {
                let mut j = next;
                while j + 4 <= p {
                    for &(r, _) in &block {
                        apply_step4(&mut x, n, r, j, &mut qraux, &mut work1);
                    }
                    j += 4;
                }
                for j in j..p {
                    for &(r, _) in &block {
                        apply_step(&mut x, n, r, j, &mut qraux, &mut work1);
                    }
                }
            });
        }
        for &(r, nrm) in &block {
            let rr = r * n + r;
            qraux[r] = x[rr];
            x[rr] = -nrm;
        }
        // A column that stopped the look-ahead (cycled or zero) is handled
        // by the next iteration, already updated.
        l = block.last().map_or(next, |&(r, _)| r + 1);
    }
    let rank = (k - 1).min(n);
    Qr {
        qr: x,
        n,
        p,
        rank,
        qraux,
        pivot: jpvt,
    }
}

/// Which products [`dqrsl`] computes (LINPACK's `job` digits).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Job {
    pub qy: bool,
    pub qty: bool,
    pub b: bool,
    pub rsd: bool,
    pub xb: bool,
}

/// The outputs of [`dqrsl`] that were asked for (others are empty).
#[derive(Clone, Debug, Default)]
pub(crate) struct Dqrsl {
    pub qy: Vec<f64>,
    pub qty: Vec<f64>,
    pub b: Vec<f64>,
    pub rsd: Vec<f64>,
    pub xb: Vec<f64>,
    /// Nonzero (1-based) when R's diagonal has a zero at that position.
    pub info: usize,
}

/// Applies Householder transformation `j` of `qr` (its vector with the
/// diagonal entry replaced by `qraux[j]`, as dqrsl does) to `y[j..]`.
fn reflect(qr: &Qr, j: usize, y: &mut [f64]) {
    let n = qr.n;
    let col = &qr.qr[j * n + j..(j + 1) * n];
    let d = qr.qraux[j];
    // ddot sums from its first product on, the diagonal's first.
    let mut s = 0.0 + d * y[j];
    for (a, b) in col[1..].iter().zip(&y[j + 1..n]) {
        s += a * b;
    }
    let t = -s / d;
    y[j] += t * d;
    axpy(t, &col[1..], &mut y[j + 1..n]);
}

/// LINPACK `dqrsl` with the first `k` columns of a [`dqrdc2`] result.
pub(crate) fn dqrsl(qr: &Qr, k: usize, y: &[f64], job: Job) -> Dqrsl {
    let n = qr.n;
    let x = &qr.qr;
    let mut out = Dqrsl::default();
    let ju = k.min(n.saturating_sub(1));
    if k == 0 {
        // Nothing fitted (a rank-0 `qr`, e.g. of a zero matrix): Q is the
        // identity. LINPACK leaves these outputs as its callers set them,
        // which in R is a copy of y (xb: nothing is fitted).
        let copy = |asked: bool| if asked { y.to_vec() } else { Vec::new() };
        out.qy = copy(job.qy);
        out.qty = copy(job.qty);
        out.rsd = copy(job.rsd);
        out.xb = if job.xb {
            vec![0.0; y.len()]
        } else {
            Vec::new()
        };
        return out;
    }
    if ju == 0 {
        if job.qy {
            out.qy = vec![y[0]];
        }
        if job.qty {
            out.qty = vec![y[0]];
        }
        if job.xb {
            out.xb = vec![y[0]];
        }
        if job.b {
            if x[0] == 0.0 {
                out.info = 1;
                out.b = vec![0.0];
            } else {
                out.b = vec![y[0] / x[0]];
            }
        }
        if job.rsd {
            out.rsd = vec![0.0];
        }
        return out;
    }
    if job.qy {
        let mut qy = y.to_vec();
        for j in (0..ju).rev() {
            if qr.qraux[j] != 0.0 {
                reflect(qr, j, &mut qy);
            }
        }
        out.qy = qy;
    }
    if !(job.qty || job.b || job.rsd || job.xb) {
        return out;
    }
    let mut qty = y.to_vec();
    for j in 0..ju {
        if qr.qraux[j] != 0.0 {
            reflect(qr, j, &mut qty);
        }
    }
    if job.b {
        let mut b = qty[..k].to_vec();
        for j in (0..k).rev() {
            let d = x[j * n + j];
            if d == 0.0 {
                out.info = j + 1;
                break;
            }
            b[j] /= d;
            if j > 0 {
                let t = -b[j];
                axpy(t, &x[j * n..j * n + j], &mut b[..j]);
            }
        }
        out.b = b;
    }
    if job.rsd || job.xb {
        let mut rsd = if job.rsd {
            let mut r = qty.clone();
            r[..k].fill(0.0);
            r
        } else {
            Vec::new()
        };
        let mut xb = if job.xb {
            let mut r = qty.clone();
            r[k.min(n)..].fill(0.0);
            r
        } else {
            Vec::new()
        };
        for j in (0..ju).rev() {
            if qr.qraux[j] == 0.0 {
                continue;
            }
            if job.rsd {
                reflect(qr, j, &mut rsd);
            }
            if job.xb {
                reflect(qr, j, &mut xb);
            }
        }
        out.rsd = rsd;
        out.xb = xb;
    }
    if job.qty {
        out.qty = qty;
    }
    out
}

/// The result of [`dqrls`] for one response.
#[derive(Clone, Debug)]
pub(crate) struct Dqrls {
    pub qr: Qr,
    /// Coefficients in pivoted order; entries past `rank` are 0.
    pub coef: Vec<f64>,
    pub residuals: Vec<f64>,
    pub effects: Vec<f64>,
}

/// R's `dqrls`: least squares fit of `y` on the `n x p` matrix `x` through
/// [`dqrdc2`] with tolerance `tol`.
pub(crate) fn dqrls(x: Vec<f64>, n: usize, p: usize, y: &[f64], tol: f64) -> Dqrls {
    let qr = dqrdc2(x, n, p, tol);
    let k = qr.rank;
    let (mut coef, residuals, effects) = if k > 0 {
        let r = dqrsl(
            &qr,
            k,
            y,
            Job {
                qty: true,
                b: true,
                rsd: true,
                ..Job::default()
            },
        );
        (r.b, r.rsd, r.qty)
    } else {
        (Vec::new(), y.to_vec(), y.to_vec())
    };
    coef.resize(p, 0.0);
    Dqrls {
        qr,
        coef,
        residuals,
        effects,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dqrdc2_moves_a_dependent_column_last() {
        // x3 = x1 + x2: R gives rank 2, pivot 1 2 3 after moving nothing
        // (x3 is already last); with x2 = 2 * x1 first, x2 goes last.
        let x = vec![1.0, 2.0, 3.0, 4.0, 2.0, 4.0, 6.0, 8.0, 1.0, 0.0, 1.0, 0.0];
        let q = dqrdc2(x, 4, 3, 1e-7);
        assert_eq!(q.rank, 2);
        assert_eq!(q.pivot, vec![1, 3, 2]);
    }

    #[test]
    fn dqrls_fits_a_line_exactly() {
        let x = vec![1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 4.0];
        let y = [3.0, 5.0, 7.0, 9.0];
        let f = dqrls(x, 4, 2, &y, 1e-7);
        assert!((f.coef[0] - 1.0).abs() < 1e-12 && (f.coef[1] - 2.0).abs() < 1e-12);
        assert!(f.residuals.iter().all(|r| r.abs() < 1e-12));
    }
}
