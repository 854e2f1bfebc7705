//! Householder bidiagonalization `A = Ql B Qr^T` of a matrix with at least
//! as many rows as columns, blocked as LAPACK's `dgebrd`/`dlabrd`: a panel
//! of `BLOCK` columns and rows is reduced while its updates are gathered in
//! two thin matrices `X` and `Y`, then the trailing matrix takes them at once
//! in one matrix product (`A22 -= V Y^T + X U^T`).
//!
//! faer's unblocked `bidiag_in_place` reads and writes the whole trailing
//! matrix at every step; here half the arithmetic goes to the matrix
//! product and each step only reads the trailing matrix, once: its two
//! matrix-vector products (with `A^T` and with `A`) share one pass, the
//! second taking each column while the first has it in cache (the row
//! reflector is the row scaled, and the scale is applied after the pass).
//! The last columns, whose trailing matrix is in cache, go to faer's
//! unblocked reduction, as LAPACK's go to `dgebd2`.
//!
//! The output is laid out as faer's, so faer's block-Householder
//! back-transforms apply unchanged: left reflectors below the diagonal,
//! right reflectors right of the superdiagonal, faer's coefficients
//! (`H = I - v v^T / tau`, infinite for the identity) in row 0 of `hl`/`hr`,
//! then each block's triangular factor built from them.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::householder::{make_householder_in_place, upgrade_householder_factor};
use faer::linalg::matmul::matmul;
use faer::linalg::svd::bidiag::{bidiag_in_place as faer_bidiag, bidiag_in_place_scratch};
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, ColMut, Mat, MatMut, MatRef, RowMut};

use super::gemv::{dots_then_combine, gemv_n_add, gemv_t, gemv_t_add};

/// Columns (and rows) reduced per panel. Smaller than LAPACK's 32: the
/// panel's products with its own reflectors grow with it, and the trailing
/// update is already efficient at inner dimension 32 (measured at n = 250 to
/// 2000: 16 is 2-8% faster than 24 and 32, 48 slower still).
const BLOCK: usize = 16;

/// From this many remaining columns down, the reduction is unblocked: the
/// trailing matrix is small enough for the cache and the panel's extra
/// products would not pay (LAPACK's `nx`).
const CROSSOVER: usize = 128;

/// Reduces `a` (`m × n`, `m ≥ n ≥ 1`) in place to upper bidiagonal form, as
/// faer's `bidiag_in_place` does: `hl` is `bl × n`, `hr` is `br × (n - 1)`
/// for block sizes `bl`, `br` of the later back-transforms.
pub(super) fn bidiag_in_place(a: MatMut<'_, f64>, hl: MatMut<'_, f64>, hr: MatMut<'_, f64>) {
    reduce(a, hl, hr, BLOCK, CROSSOVER);
}

/// `bidiag_in_place` with its block size and crossover as parameters, so
/// that tests reach panel boundaries on small matrices.
fn reduce(
    mut a: MatMut<'_, f64>,
    mut hl: MatMut<'_, f64>,
    mut hr: MatMut<'_, f64>,
    block: usize,
    crossover: usize,
) {
    let (m, n) = a.shape();
    assert!(m >= n && n >= 1);
    assert!(hl.ncols() == n && hr.ncols() == n - 1);
    // A blocked panel needs a trailing matrix right of it (its last row's
    // reflector), hence more than `block` columns left.
    let last = crossover.max(block);
    let mut k = 0;
    if n > last {
        let mut work = Panel::new(m, n, block);
        while n - k > last {
            let mut rest = a.rb_mut().submatrix_mut(k, k, m - k, n - k);
            work.reduce(rest.rb_mut());
            work.update_trailing(rest.rb_mut());
            work.finish(
                rest,
                hl.rb_mut().row_mut(0).subcols_mut(k, block),
                hr.rb_mut().row_mut(0).subcols_mut(k, block),
            );
            k += block;
        }
    }
    // The rest unblocked (LAPACK's `dgebd2`), by faer's fused rank-2
    // update, twice as fast as a single panel here: each step's trailing
    // matrix is in cache. One-row coefficient blocks leave faer's factors
    // unbuilt, so the coefficients are copied to row 0 for ours.
    let (mm, nn) = (m - k, n - k);
    let mut tl = Mat::<f64>::zeros(1, nn);
    let mut tr = Mat::<f64>::zeros(1, nn - 1);
    let mut mem = MemBuffer::new(bidiag_in_place_scratch::<f64>(
        mm,
        nn,
        crate::kernels::width::par(),
        Default::default(),
    ));
    faer_bidiag(
        a.rb_mut().submatrix_mut(k, k, mm, nn),
        tl.as_mut(),
        tr.as_mut(),
        crate::kernels::width::par(),
        MemStack::new(&mut mem),
        Default::default(),
    );
    hl.rb_mut()
        .row_mut(0)
        .subcols_mut(k, nn)
        .copy_from(tl.row(0));
    hr.rb_mut()
        .row_mut(0)
        .subcols_mut(k, nn - 1)
        .copy_from(tr.row(0));
    upgrade_factors(a.rb(), hl, hr);
}

/// Builds each block's triangular factor from the coefficients in row 0,
/// as faer's `bidiag_in_place` does at its end.
fn upgrade_factors(a: MatRef<'_, f64>, mut hl: MatMut<'_, f64>, mut hr: MatMut<'_, f64>) {
    let n = a.ncols();
    let bl = hl.nrows();
    let mut j = 0;
    while j < n {
        let b = bl.min(n - j);
        let mut h = hl.rb_mut().submatrix_mut(0, j, b, b);
        for i in 0..b {
            h[(i, i)] = h[(0, i)];
        }
        upgrade_householder_factor(
            h,
            a.submatrix(j, j, a.nrows() - j, b),
            b,
            1,
            crate::kernels::width::par(),
        );
        j += b;
    }
    // The right reflectors are the rows of a[.., 1..] right of the diagonal.
    let r = a.submatrix(0, 1, n - 1, n - 1).transpose();
    let br = hr.nrows();
    let mut j = 0;
    while j < n - 1 {
        let b = br.min(n - 1 - j);
        let mut h = hr.rb_mut().submatrix_mut(0, j, b, b);
        for i in 0..b {
            h[(i, i)] = h[(0, i)];
        }
        upgrade_householder_factor(
            h,
            r.submatrix(j, j, n - 1 - j, b),
            b,
            1,
            crate::kernels::width::par(),
        );
        j += b;
    }
}

/// The work of one panel (`dlabrd`): `X` and `Y` hold the panel's pending
/// updates to the trailing matrix, `A ← A - V Y^T - X U^T`.
struct Panel {
    x: Mat<f64>,
    y: Mat<f64>,
    /// `[V X]` and `[Y U^T]^T`, the factors of the trailing update.
    left: Mat<f64>,
    right: Mat<f64>,
    /// The diagonal and superdiagonal of the panel, kept while their places
    /// in `A` hold the reflectors' unit heads.
    d: Vec<f64>,
    e: Vec<f64>,
    tauq: Vec<f64>,
    taup: Vec<f64>,
    /// The current left reflector, the products of a step (see `reduce`)
    /// and small products with the panel.
    u: Vec<f64>,
    z: Vec<f64>,
    cy: Vec<f64>,
    cr: Vec<f64>,
    r: Vec<f64>,
    t: Vec<f64>,
}

impl Panel {
    fn new(m: usize, n: usize, b: usize) -> Self {
        Panel {
            x: Mat::zeros(m, b),
            y: Mat::zeros(n, b),
            left: Mat::zeros(m, 2 * b),
            right: Mat::zeros(2 * b, n),
            d: vec![0.0; b],
            e: vec![0.0; b],
            tauq: vec![0.0; b],
            taup: vec![0.0; b],
            u: vec![0.0; m],
            z: vec![0.0; m],
            cy: vec![0.0; n],
            cr: vec![0.0; n],
            r: vec![0.0; n],
            t: vec![0.0; 4 * b + 1],
        }
    }

    /// Reduces the first `b` columns and rows of `a` (`mm × nn`, `nn > b`)
    /// to bidiagonal form, leaving the unit heads of the reflectors in place
    /// and `X`, `Y` such that the trailing matrix is `A22 - V Y^T - X U^T`.
    fn reduce(&mut self, mut a: MatMut<'_, f64>) {
        let (mm, nn) = a.shape();
        let b = self.x.ncols();
        assert!(nn > b);
        let x = &mut self.x;
        let y = &mut self.y;
        for i in 0..b {
            // Column i takes the panel's earlier reflectors:
            // A(i:, i) -= A(i:, :i) Y(i, :i)^T + X(i:, :i) A(:i, i).
            {
                let t = &mut self.t[..2 * i];
                for j in 0..i {
                    t[j] = -y[(i, j)];
                    t[i + j] = -a[(j, i)];
                }
                let (left, right) = a.rb_mut().split_at_col_mut(i);
                let col = right.col_mut(0).subrows_mut(i, mm - i);
                let col = col.try_as_col_major_mut().unwrap().as_slice_mut();
                gemv_n_add(left.rb().subrows(i, mm - i), &t[..i], col);
                gemv_n_add(x.as_ref().submatrix(i, 0, mm - i, i), &t[i..], col);
            }
            let tq = {
                let (mut head, tail) = a
                    .rb_mut()
                    .col_mut(i)
                    .subrows_mut(i, mm - i)
                    .split_at_row_mut(1);
                let info = make_householder_in_place(&mut head[0], tail);
                self.tauq[i] = info.tau;
                self.d[i] = head[0];
                head[0] = 1.0;
                // LAPACK's coefficient: H = I - tau v v^T.
                1.0 / info.tau
            };
            let rest = nn - i - 1;
            let u = &mut self.u[..mm - i];
            u.copy_from_slice(col(a.rb(), i, i));

            // What the panel's earlier reflectors add to this step's two
            // products, gathered before the pass over the trailing matrix:
            // cy = Y(i+1:, :i) A(i:, :i)^T u + A(:i, i+1:)^T X(i:, :i)^T u,
            // cr = A(i, i+1:) - Y(i+1:, :i) A(i, :i)^T - A(:i, i+1:)^T X(i, :i)^T.
            let (w1, t) = self.t.split_at_mut(i);
            let (w2, t) = t.split_at_mut(i);
            let (ai, t) = t.split_at_mut(i);
            let xr = &mut t[..i];
            gemv_t(a.rb().submatrix(i, 0, mm - i, i), u, w1);
            gemv_t(x.as_ref().submatrix(i, 0, mm - i, i), u, w2);
            for j in 0..i {
                ai[j] = -a[(i, j)];
                xr[j] = -x[(i, j)];
            }
            let y_left = y.as_ref().submatrix(i + 1, 0, rest, i);
            let a_top = a.rb().submatrix(0, i + 1, i, rest);
            let cy = &mut self.cy[..rest];
            cy.fill(0.0);
            gemv_n_add(y_left, w1, cy);
            gemv_t_add(a_top, w2, cy);
            let cr = &mut self.cr[..rest];
            for (j, c) in cr.iter_mut().enumerate() {
                *c = a[(i, i + 1 + j)];
            }
            gemv_n_add(y_left, ai, cr);
            gemv_t_add(a_top, xr, cr);

            // One pass over A(i:, i+1:): column j's product with u gives
            // Y(j, i), so row i's entry r_j, with which the same column
            // goes into z = A(i:, i+2:) r(i+2:) while it is in cache. The
            // row's reflector is r scaled, so A(i+1:, i+1:) v comes from z.
            let yi = y.as_mut().col_mut(i).subrows_mut(i + 1, rest);
            let yi = yi.try_as_col_major_mut().unwrap().as_slice_mut();
            let r = &mut self.r[..rest];
            let z = &mut self.z[..mm - i];
            z.fill(0.0);
            dots_then_combine(
                a.rb().submatrix(i, i + 1, mm - i, rest),
                u,
                |j, d| {
                    yi[j] = tq * (d - cy[j]);
                    r[j] = cr[j] - yi[j];
                    if j == 0 {
                        0.0
                    } else {
                        r[j]
                    }
                },
                z,
            );
            let (head, tail) = r.split_at_mut(1);
            let info = make_householder_in_place(&mut head[0], ColMut::from_slice_mut(tail));
            self.taup[i] = info.tau;
            self.e[i] = head[0];
            head[0] = 1.0;
            for (j, v) in r.iter().enumerate() {
                a[(i, i + 1 + j)] = *v;
            }
            let v = &*r;
            let tp = 1.0 / info.tau;

            // X(i+1:, i) = tp (A(i+1:, i+1:) v - A(i+1:, :i+1) Y(i+1:, :i+1)^T v
            //                  - X(i+1:, :i) A(:i, i+1:) v).
            let (xl, xr) = x.as_mut().split_at_col_mut(i);
            let xi = xr.col_mut(0).subrows_mut(i + 1, mm - i - 1);
            let xi = xi.try_as_col_major_mut().unwrap().as_slice_mut();
            if tp == 0.0 {
                xi.fill(0.0);
                continue;
            }
            let hbi = info.head_with_beta_inv;
            for ((x, c), z) in xi.iter_mut().zip(col(a.rb(), i + 1, i + 1)).zip(&z[1..]) {
                *x = c + hbi * z;
            }
            let s = &mut self.t[..i + 1];
            gemv_t(y.as_ref().submatrix(i + 1, 0, rest, i + 1), v, s);
            for s in s.iter_mut() {
                *s = -*s;
            }
            gemv_n_add(a.rb().submatrix(i + 1, 0, mm - i - 1, i + 1), s, xi);
            let w4 = &mut self.t[..i];
            w4.fill(0.0);
            gemv_n_add(a.rb().submatrix(0, i + 1, i, rest), v, w4);
            for s in w4.iter_mut() {
                *s = -*s;
            }
            gemv_n_add(xl.rb().subrows(i + 1, mm - i - 1), w4, xi);
            for s in xi.iter_mut() {
                *s *= tp;
            }
        }
    }

    /// `A22 -= V Y^T + X U^T` after `reduce`, as one product of inner
    /// dimension 2b: the reflectors' heads are still 1 in the panel, so V
    /// and U are read from `a`.
    fn update_trailing(&mut self, a: MatMut<'_, f64>) {
        let (mm, nn) = a.shape();
        let b = self.x.ncols();
        let (m2, n2) = (mm - b, nn - b);
        let mut left = self.left.as_mut().submatrix_mut(0, 0, m2, 2 * b);
        let mut right = self.right.as_mut().submatrix_mut(0, 0, 2 * b, n2);
        let (mut v, mut x) = left.rb_mut().split_at_col_mut(b);
        v.copy_from(a.rb().submatrix(b, 0, m2, b));
        x.copy_from(self.x.as_ref().subrows(b, m2));
        let (mut yt, mut u) = right.rb_mut().split_at_row_mut(b);
        yt.copy_from(self.y.as_ref().subrows(b, n2).transpose());
        u.copy_from(a.rb().submatrix(0, b, b, n2));
        matmul(
            a.submatrix_mut(b, b, m2, n2),
            Accum::Add,
            left.rb(),
            right.rb(),
            -1.0,
            crate::kernels::width::par(),
        );
    }

    /// Puts the panel's diagonal and superdiagonal back in place of the
    /// reflectors' unit heads and hands over faer's coefficients.
    fn finish(&self, mut a: MatMut<'_, f64>, mut hl: RowMut<'_, f64>, mut hr: RowMut<'_, f64>) {
        for i in 0..self.x.ncols() {
            a[(i, i)] = self.d[i];
            a[(i, i + 1)] = self.e[i];
            hl[i] = self.tauq[i];
            hr[i] = self.taup[i];
        }
    }
}

/// Column `j` of `a` from row `i` on, as a slice.
fn col(a: MatRef<'_, f64>, i: usize, j: usize) -> &[f64] {
    super::gemv::col(a.subrows(i, a.nrows() - i), j)
}

#[cfg(test)]
mod bench;
#[cfg(test)]
mod tests;
