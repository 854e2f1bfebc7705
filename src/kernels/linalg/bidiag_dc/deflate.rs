//! Deflation of a merge, port of LAPACK `dlasd2` (and `dlamrg`): sort the
//! children's singular values, drop those with a negligible `z` component
//! and rotate away near-duplicates, then group the surviving columns by
//! their sparsity pattern (`ColumnTypes`) so the merge's products skip the
//! zero blocks.

use faer::reborrow::{Reborrow, ReborrowMut};
use faer::MatMut;

use super::{col, col_mut, Node, Scratch};

/// How many columns of each sparsity type survived deflation: type 1 lives
/// in the left child's rows only, type 2 in the right child's, type 3 in
/// both (rotated together), type 4 was deflated.
#[derive(Clone, Copy, Default)]
pub(super) struct ColumnTypes(pub [usize; 4]);

/// `index` such that `a[index[..]]` is ascending, merging the run
/// `a[..n1]` and the run `a[n1..n1 + n2]`, each ascending (`+1`) or
/// descending (`-1`) as `s1`/`s2` say (LAPACK `dlamrg`).
pub(super) fn merge_order(
    a: &[f64],
    n1: usize,
    n2: usize,
    s1: isize,
    s2: isize,
    index: &mut [usize],
) {
    let mut i1 = if s1 > 0 { 0 } else { n1 as isize - 1 };
    let mut i2 = if s2 > 0 {
        n1 as isize
    } else {
        (n1 + n2) as isize - 1
    };
    let (mut left1, mut left2) = (n1, n2);
    let mut out = 0;
    while left1 > 0 && left2 > 0 {
        if a[i1 as usize] <= a[i2 as usize] {
            index[out] = i1 as usize;
            i1 += s1;
            left1 -= 1;
        } else {
            index[out] = i2 as usize;
            i2 += s2;
            left2 -= 1;
        }
        out += 1;
    }
    for _ in 0..left1 {
        index[out] = i1 as usize;
        i1 += s1;
        out += 1;
    }
    for _ in 0..left2 {
        index[out] = i2 as usize;
        i2 += s2;
        out += 1;
    }
}

/// Plane rotation of two columns: `x <- c x + s y`, `y <- c y - s x`.
fn rotate(mut m: MatMut<'_, f64>, a: usize, b: usize, c: f64, s: f64) {
    let (x, y) = super::two_cols_mut(m.rb_mut(), a, b);
    for (x, y) in x.iter_mut().zip(y.iter_mut()) {
        let t = c * *x + s * *y;
        *y = c * *y - s * *x;
        *x = t;
    }
}

/// Deflate the merge of `node` (values in `d`, scaled so the largest is
/// about 1); returns the number `k` of values left for the secular
/// equation, which are in `s.dsigma[..k]` and `s.z[..k]`, the children's
/// vectors in grouped order in `s.u2`/`s.v2`, and the deflated ones
/// already in place in `u`/`v`.
pub(super) fn deflate(
    node: &Node,
    d: &mut [f64],
    idxq: &mut [usize],
    mut u: Option<MatMut<'_, f64>>,
    mut v: MatMut<'_, f64>,
    s: &mut Scratch,
) -> (usize, ColumnTypes) {
    let (nl, n, m) = (node.nl, node.n(), node.m());
    let (alpha, beta) = (node.alpha, node.beta);
    let z = &mut s.z[..n];
    let zw = &mut s.zw[..n];
    let dsigma = &mut s.dsigma[..n];
    let idx = &mut s.idx[..n];
    let idxp = &mut s.idxp[..n];
    let idxc = &mut s.idxc[..n];
    let coltyp = &mut s.coltyp[..n];

    // The updating row: alpha times the left child's last row of V,
    // beta times the right child's first; the left values move one place
    // down to make room for the new one at position 0.
    let z1 = alpha * v[(nl, nl)];
    z[0] = z1;
    for i in (0..nl).rev() {
        z[i + 1] = alpha * v[(nl, i)];
        d[i + 1] = d[i];
        idxq[i + 1] = idxq[i] + 1;
    }
    for i in nl + 1..m {
        let zi = beta * v[(nl + 1, i)];
        if i < n {
            z[i] = zi;
        } else {
            s.z_last = zi;
        }
    }
    coltyp[1..=nl].fill(1);
    coltyp[nl + 1..n].fill(2);
    for q in &mut idxq[nl + 1..n] {
        *q += nl + 1;
    }
    for i in 1..n {
        dsigma[i] = d[idxq[i]];
        zw[i] = z[idxq[i]];
        idxc[i] = coltyp[idxq[i]];
    }
    merge_order(&dsigma[1..n], nl, n - nl - 1, 1, 1, &mut idx[1..n]);
    for i in 1..n {
        let from = 1 + idx[i];
        d[i] = dsigma[from];
        z[i] = zw[from];
        coltyp[i] = idxc[from];
    }

    let eps = f64::EPSILON;
    let tol = 8.0 * eps * d[n - 1].abs().max(alpha.abs().max(beta.abs()));
    // The column of `u`/`v` that holds the vector of sorted position `j`.
    let column = |idxq: &[usize], idx: &[usize], j: usize| {
        let c = idxq[idx[j] + 1];
        if c <= nl {
            c - 1
        } else {
            c
        }
    };

    let mut k = 1;
    let mut k2 = n;
    let mut jprev = None;
    for j in 1..n {
        if z[j].abs() <= tol {
            k2 -= 1;
            idxp[k2] = j;
            coltyp[j] = 4;
            continue;
        }
        let Some(jp) = jprev else {
            jprev = Some(j);
            continue;
        };
        if (d[j] - d[jp]).abs() <= tol {
            // Equal values: rotate so that z[jp] vanishes, and deflate it.
            let sv = z[jp];
            let cv = z[j];
            let tau = cv.hypot(sv);
            let (c, sn) = (cv / tau, -sv / tau);
            z[j] = tau;
            z[jp] = 0.0;
            let (a, b) = (column(idxq, idx, jp), column(idxq, idx, j));
            if let Some(u) = u.as_mut() {
                rotate(u.rb_mut(), a, b, c, sn);
            }
            rotate(v.rb_mut().subrows_mut(0, m), a, b, c, sn);
            if coltyp[j] != coltyp[jp] {
                coltyp[j] = 3;
            }
            coltyp[jp] = 4;
            k2 -= 1;
            idxp[k2] = jp;
        } else {
            k += 1;
            zw[k - 1] = z[jp];
            dsigma[k - 1] = d[jp];
            idxp[k - 1] = jp;
        }
        jprev = Some(j);
    }
    if let Some(jp) = jprev {
        k += 1;
        zw[k - 1] = z[jp];
        dsigma[k - 1] = d[jp];
        idxp[k - 1] = jp;
    }

    let mut ctot = ColumnTypes::default();
    for &t in &coltyp[1..n] {
        ctot.0[t - 1] += 1;
    }
    let mut psm = [
        1,
        1 + ctot.0[0],
        1 + ctot.0[0] + ctot.0[1],
        1 + ctot.0[0] + ctot.0[1] + ctot.0[2],
    ];
    for j in 1..n {
        let t = coltyp[idxp[j]] - 1;
        idxc[psm[t]] = j;
        psm[t] += 1;
    }
    // Gather values (deflation order) and vectors (grouped order).
    for j in 1..n {
        dsigma[j] = d[idxp[j]];
        let from = column(idxq, idx, idxp[idxc[j]]);
        if let Some(u) = u.as_ref() {
            col_mut(s.u2.as_mut().subrows_mut(0, n), j).copy_from_slice(col(u.rb(), from));
        }
        col_mut(s.v2.as_mut().subrows_mut(0, m), j)
            .copy_from_slice(col(v.rb().subrows(0, m), from));
    }

    dsigma[0] = 0.0;
    let hlftol = tol / 2.0;
    if dsigma[1].abs() <= hlftol {
        dsigma[1] = hlftol;
    }
    let (mut c, mut sn) = (1.0, 0.0);
    if m > n {
        z[0] = z1.hypot(s.z_last);
        if z[0] <= tol {
            z[0] = tol;
        } else {
            c = z1 / z[0];
            sn = s.z_last / z[0];
        }
    } else if z1.abs() <= tol {
        z[0] = tol;
    } else {
        z[0] = z1;
    }
    z[1..k].copy_from_slice(&zw[1..k]);

    // First column of u2: the middle row; first column of v2 and the
    // extra (null) column of `v`: the two null vectors rotated together.
    if u.is_some() {
        let c0 = col_mut(s.u2.as_mut().subrows_mut(0, n), 0);
        c0.fill(0.0);
        c0[nl] = 1.0;
    }
    if m > n {
        for i in 0..=nl {
            let x = v[(i, nl)];
            v[(i, m - 1)] = -sn * x;
            s.v2[(i, 0)] = c * x;
        }
        for i in nl + 1..m {
            let x = v[(i, m - 1)];
            s.v2[(i, 0)] = sn * x;
            v[(i, m - 1)] = c * x;
        }
    } else {
        for i in 0..m {
            s.v2[(i, 0)] = v[(i, nl)];
        }
    }

    if n > k {
        d[k..n].copy_from_slice(&dsigma[k..n]);
        if let Some(u) = u.as_mut() {
            u.rb_mut()
                .subcols_mut(k, n - k)
                .copy_from(s.u2.as_ref().submatrix(0, k, n, n - k));
        }
        v.rb_mut()
            .submatrix_mut(0, k, m, n - k)
            .copy_from(s.v2.as_ref().submatrix(0, k, m, n - k));
    }
    (k, ctot)
}
