//! Singular value decomposition of an upper bidiagonal matrix by divide and
//! conquer: a port of LAPACK's `dbdsdc` path through `dlasd0` (recursion),
//! `dlasd1` (merge), `dlasd2` (deflation), `dlasd3` (vectors), `dlasd4` and
//! `dlasd5` (secular equation), `dlaed6` (three-pole step) and `dlamrg`,
//! by Ming Gu, Huan Ren and Ren-Cang Li (LAPACK, University of Tennessee,
//! UC Berkeley, University of Colorado Denver and NAG, BSD licence).
//!
//! Differences from LAPACK: right singular vectors are kept as `V` (columns)
//! rather than `V^T`, so every update works on contiguous columns; leaves use
//! faer's dense SVD; products go through faer's sequential `matmul`; `U` is
//! optional (prcomp needs only `V`), `V` always computed as the merges need
//! its rows.

mod deflate;
mod leaf;
mod merge;
mod secular;
#[cfg(test)]
mod tests;
mod three_poles;

use faer::reborrow::ReborrowMut;
use faer::{Mat, MatMut, MatRef};

pub(crate) use secular::NoConvergence;

/// A node of the recursion: rows `f .. f + n` of the bidiagonal, `n = nl +
/// 1 + nr` (left child, coupling row, right child), columns `f .. f + m`
/// with `m = n + sqre` (the extra column couples to the next row).
#[derive(Clone, Copy)]
pub(super) struct Node {
    nl: usize,
    nr: usize,
    sqre: usize,
    /// The coupling row's diagonal and superdiagonal entries.
    alpha: f64,
    beta: f64,
}

impl Node {
    fn n(&self) -> usize {
        self.nl + 1 + self.nr
    }
    fn m(&self) -> usize {
        self.n() + self.sqre
    }
}

/// Workspace for every merge, sized once for the whole matrix.
pub(super) struct Scratch {
    z: Vec<f64>,
    zw: Vec<f64>,
    dsigma: Vec<f64>,
    prod: Vec<f64>,
    /// `z`'s entry for the extra column when `sqre = 1`.
    z_last: f64,
    idx: Vec<usize>,
    idxp: Vec<usize>,
    idxc: Vec<usize>,
    coltyp: Vec<usize>,
    u2: Mat<f64>,
    v2: Mat<f64>,
    q: Mat<f64>,
}

/// Column `j` of a column-major view as a slice.
fn col(m: MatRef<'_, f64>, j: usize) -> &[f64] {
    m.col(j)
        .try_as_col_major()
        .expect("column-major")
        .as_slice()
}

fn col_mut(m: MatMut<'_, f64>, j: usize) -> &mut [f64] {
    col_slice(m.col_mut(j))
}

/// Columns `a` and `b` (distinct) of a column-major view as slices.
fn two_cols_mut(m: MatMut<'_, f64>, a: usize, b: usize) -> (&mut [f64], &mut [f64]) {
    let (x, y) = m.two_cols_mut(a, b);
    (col_slice(x), col_slice(y))
}

fn col_slice(c: faer::col::ColMut<'_, f64>) -> &mut [f64] {
    c.try_as_col_major_mut()
        .expect("column-major")
        .as_slice_mut()
}

/// `B = U diag(d) V^T` for the `n × n` upper bidiagonal `B` with diagonal
/// `d` and superdiagonal `e` (`n - 1` entries), as LAPACK's `dbdsdc` finds
/// it: `d` becomes the singular values, decreasing; `u` (optional) and
/// `v`, both `n × n` and column-major, the singular vectors. `lower`: B is
/// the transpose of the lower bidiagonal `dgebrd` makes of a wide matrix,
/// which `dbdsdc` first rotates to upper bidiagonal form; the vectors'
/// signs depend on that path.
pub(crate) fn bidiag_svd(
    d: &mut [f64],
    e: &[f64],
    u: Option<MatMut<'_, f64>>,
    mut v: MatMut<'_, f64>,
    lower: bool,
) -> Result<(), NoConvergence> {
    let n = d.len();
    if !lower || n < 2 {
        return upper_svd(d, e, u, v);
    }
    // B^T = G B' with B' upper bidiagonal and G the rotations on the left;
    // B = B'^T G^T = V' S (G U')^T.
    let mut e: Vec<f64> = e[..n - 1].to_vec();
    let (mut cs, mut sn) = (vec![0.0; n - 1], vec![0.0; n - 1]);
    for i in 0..n - 1 {
        let (c, s, r) = super::givens::dlartg(d[i], e[i]);
        d[i] = r;
        e[i] = s * d[i + 1];
        d[i + 1] *= c;
        cs[i] = c;
        sn[i] = -s;
    }
    let mut u_prime = Mat::<f64>::zeros(n, n);
    let mut v_prime = Mat::<f64>::zeros(n, n);
    upper_svd(d, &e, Some(u_prime.as_mut()), v_prime.as_mut())?;
    // dlasr('L', 'V', 'B') on U' is G U'.
    let mut gu = u_prime.transpose().to_owned();
    super::givens::rotate_columns(gu.as_mut(), &cs, &sn, super::givens::Direct::Backward);
    v.copy_from(gu.transpose());
    if let Some(mut u) = u {
        u.copy_from(&v_prime);
    }
    Ok(())
}

/// `bidiag_svd` of an upper bidiagonal matrix: `dbdsqr` up to the leaf
/// size (as `dbdsdc` calls it through `dlasdq`, unscaled), divide and
/// conquer above.
fn upper_svd(
    d: &mut [f64],
    e: &[f64],
    mut u: Option<MatMut<'_, f64>>,
    mut v: MatMut<'_, f64>,
) -> Result<(), NoConvergence> {
    let n = d.len();
    if let Some(u) = u.as_mut() {
        u.fill(0.0);
    }
    v.fill(0.0);
    if n == 0 {
        return Ok(());
    }
    if n == 1 {
        // dbdsdc's own case: U = sign(d), V = 1.
        if let Some(u) = u.as_mut() {
            u[(0, 0)] = 1f64.copysign(d[0]);
        }
        v[(0, 0)] = 1.0;
        d[0] = d[0].abs();
        return Ok(());
    }
    if n <= leaf::LEAF {
        if let Some(u) = u.as_mut() {
            u.rb_mut().diagonal_mut().fill(1.0);
        }
        v.rb_mut().diagonal_mut().fill(1.0);
        let mut e = e[..n - 1].to_vec();
        super::bdsqr::dbdsqr(d, &mut e, u, v.rb_mut())?;
        return Ok(());
    }
    let scale = d
        .iter()
        .chain(&e[..n - 1])
        .fold(0.0f64, |m, x| m.max(x.abs()));
    if scale == 0.0 {
        if let Some(u) = u.as_mut() {
            u.rb_mut().diagonal_mut().fill(1.0);
        }
        v.rb_mut().diagonal_mut().fill(1.0);
        return Ok(());
    }
    for x in d.iter_mut() {
        *x /= scale;
    }
    let e: Vec<f64> = e[..n - 1].iter().map(|x| x / scale).collect();
    let mut idxq = vec![0usize; n];
    let mut s = Scratch {
        z: vec![0.0; n],
        zw: vec![0.0; n],
        dsigma: vec![0.0; n],
        prod: vec![0.0; n],
        z_last: 0.0,
        idx: vec![0; n],
        idxp: vec![0; n],
        idxc: vec![0; n],
        coltyp: vec![0; n],
        u2: Mat::zeros(if u.is_some() || n > leaf::LEAF { n } else { 0 }, n),
        v2: Mat::zeros(n, n),
        q: Mat::zeros(n, n),
    };
    solve(
        0,
        n,
        0,
        d,
        &e,
        &mut idxq,
        u.as_mut().map(|u| u.rb_mut()),
        v.rb_mut(),
        &mut s,
    )?;
    for x in d.iter_mut() {
        *x *= scale;
    }
    sort_decreasing(d, u, v);
    Ok(())
}

/// Solve rows `f .. f + n` (with `sqre` extra column) in place.
#[allow(clippy::too_many_arguments)]
fn solve(
    f: usize,
    n: usize,
    sqre: usize,
    d: &mut [f64],
    e: &[f64],
    idxq: &mut [usize],
    mut u: Option<MatMut<'_, f64>>,
    mut v: MatMut<'_, f64>,
    s: &mut Scratch,
) -> Result<(), NoConvergence> {
    let m = n + sqre;
    if n <= leaf::LEAF {
        let ue = (f + n - 1 + sqre).min(e.len());
        return leaf::solve(
            &mut d[f..f + n],
            &e[f..ue],
            sqre,
            u.map(|u| u.submatrix_mut(f, f, n, n)),
            v.submatrix_mut(f, f, m, m),
            &mut idxq[f..f + n],
        );
    }
    let nl = n / 2;
    let node = Node {
        nl,
        nr: n - nl - 1,
        sqre,
        alpha: d[f + nl],
        beta: e[f + nl],
    };
    solve(
        f,
        nl,
        1,
        d,
        e,
        idxq,
        u.as_mut().map(|u| u.rb_mut()),
        v.rb_mut(),
        s,
    )?;
    solve(
        f + nl + 1,
        node.nr,
        sqre,
        d,
        e,
        idxq,
        u.as_mut().map(|u| u.rb_mut()),
        v.rb_mut(),
        s,
    )?;
    merge::merge(
        &node,
        &mut d[f..f + n],
        &mut idxq[f..f + n],
        u.map(|u| u.submatrix_mut(f, f, n, n)),
        v.submatrix_mut(f, f, m, m),
        s,
    )
}

/// Selection sort into decreasing order, swapping vector columns along
/// (at most `n - 1` swaps, as `dbdsdc`).
fn sort_decreasing(d: &mut [f64], mut u: Option<MatMut<'_, f64>>, mut v: MatMut<'_, f64>) {
    let n = d.len();
    for i in 0..n.saturating_sub(1) {
        let mut kk = i;
        for j in i + 1..n {
            if d[j] > d[kk] {
                kk = j;
            }
        }
        if kk != i {
            d.swap(i, kk);
            if let Some(u) = u.as_mut() {
                swap_cols(u.rb_mut(), i, kk);
            }
            swap_cols(v.rb_mut(), i, kk);
        }
    }
}

fn swap_cols(m: MatMut<'_, f64>, a: usize, b: usize) {
    let (x, y) = two_cols_mut(m, a, b);
    x.swap_with_slice(y);
}
