//! One merge of two solved children, port of LAPACK `dlasd1` and `dlasd3`:
//! deflate, solve the secular equation for the `k` surviving values, build
//! the singular vectors of the rank-one-modified problem from a recomputed
//! `z` (Gu & Eisenstat, so they are orthogonal to working precision), and
//! multiply them into the children's vectors block by block.

use faer::linalg::matmul::matmul;
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, MatRef};

use super::deflate::{deflate, merge_order, ColumnTypes};
use super::secular::{root, NoConvergence};
use super::{col, col_mut, Node, Scratch};

/// Merge `node`, whose children are solved in place: `d[..n]`, the node's
/// diagonal blocks of `u` (`n × n`) and `v` (`m × m`), `idxq[..n]` the
/// children's ascending orders. On return the node is solved and `idxq`
/// orders its values ascending.
pub(super) fn merge(
    node: &Node,
    d: &mut [f64],
    idxq: &mut [usize],
    mut u: Option<MatMut<'_, f64>>,
    mut v: MatMut<'_, f64>,
    s: &mut Scratch,
) -> Result<(), NoConvergence> {
    let (nl, n) = (node.nl, node.n());
    // Scale to the largest entry so the tolerances are absolute.
    d[nl] = 0.0;
    let mut orgnrm = node.alpha.abs().max(node.beta.abs());
    for x in d.iter() {
        orgnrm = orgnrm.max(x.abs());
    }
    if orgnrm == 0.0 {
        orgnrm = 1.0;
    }
    for x in d.iter_mut() {
        *x /= orgnrm;
    }
    let scaled = Node {
        alpha: node.alpha / orgnrm,
        beta: node.beta / orgnrm,
        ..*node
    };
    let (k, ctot) = deflate(
        &scaled,
        d,
        idxq,
        u.as_mut().map(|u| u.rb_mut()),
        v.rb_mut(),
        s,
    );
    secular_vectors(node, k, ctot, d, u, v, s)?;
    for x in d.iter_mut() {
        *x *= orgnrm;
    }
    merge_order(d, k, n - k, 1, -1, idxq);
    Ok(())
}

/// `sqrt(sum x^2)` without overflow for any finite `x`.
fn norm(x: &[f64]) -> f64 {
    let big = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if big == 0.0 {
        return 0.0;
    }
    let inv = 1.0 / big;
    big * x.iter().map(|v| (v * inv) * (v * inv)).sum::<f64>().sqrt()
}

/// `dst = a * b`, or `dst += a * b`, sequentially; nothing for empty `a`.
fn gemm(dst: MatMut<'_, f64>, accum: Accum, a: MatRef<'_, f64>, b: MatRef<'_, f64>) {
    if a.ncols() == 0 {
        if accum == Accum::Replace {
            let mut dst = dst;
            dst.fill(0.0);
        }
        return;
    }
    matmul(dst, accum, a, b, 1.0, crate::kernels::width::par());
}

/// LAPACK `dlasd3` with `v` in place of `vt`.
fn secular_vectors(
    node: &Node,
    k: usize,
    ctot: ColumnTypes,
    d: &mut [f64],
    u: Option<MatMut<'_, f64>>,
    mut v: MatMut<'_, f64>,
    s: &mut Scratch,
) -> Result<(), NoConvergence> {
    let (nl, n, m) = (node.nl, node.n(), node.m());
    let [c1, c2, c3, _] = ctot.0;
    if k == 1 {
        d[0] = s.z[0].abs();
        v.rb_mut()
            .subcols_mut(0, 1)
            .copy_from(s.v2.as_ref().submatrix(0, 0, m, 1));
        if let Some(mut u) = u {
            let sign = if s.z[0] > 0.0 { 1.0 } else { -1.0 };
            let src = col(s.u2.as_ref().subrows(0, n), 0);
            for (o, x) in col_mut(u.rb_mut(), 0).iter_mut().zip(src) {
                *o = sign * x;
            }
        }
        return Ok(());
    }
    let dsigma = &s.dsigma[..k];
    let z = &mut s.z[..k];
    let zkeep = &mut s.zw[..k];
    zkeep.copy_from_slice(z);
    let rho = norm(z);
    for x in z.iter_mut() {
        *x /= rho;
    }
    let rho = rho * rho;

    // delta (sigma_i's distances to the poles) go in column i of `dl`,
    // work (sums with the poles) in column i of `v`; both are consumed
    // before the products overwrite them.
    let mut u = u;
    let with_u = u.is_some();
    let mut dl = match u.as_mut() {
        Some(u) => u.rb_mut(),
        None => s.u2.as_mut(),
    };
    for (j, dj) in d[..k].iter_mut().enumerate() {
        let delta = &mut col_mut(dl.rb_mut(), j)[..k];
        let work = &mut col_mut(v.rb_mut(), j)[..k];
        *dj = root(j, dsigma, z, delta, work, rho)?;
    }

    // The z for which the computed values are exact (Gu & Eisenstat).
    let prod = &mut s.prod[..k];
    {
        let dlk = col(dl.rb(), k - 1);
        let wk = col(v.rb(), k - 1);
        for i in 0..k {
            prod[i] = dlk[i] * wk[i];
        }
    }
    for j in 0..k - 1 {
        let dlj = col(dl.rb(), j);
        let wj = col(v.rb(), j);
        for i in 0..k {
            let pole = if i <= j { dsigma[j + 1] } else { dsigma[j] };
            prod[i] *= dlj[i] * wj[i] / (dsigma[i] - pole) / (dsigma[i] + pole);
        }
    }
    for i in 0..k {
        z[i] = prod[i].abs().sqrt().copysign(zkeep[i]);
    }

    // Vectors of the modified problem; rows of `q` in grouped order.
    let idxc = &s.idxc[..k];
    let q = &mut s.q;
    for i in 0..k {
        let dli = &mut col_mut(dl.rb_mut(), i)[..k];
        let wi = &mut col_mut(v.rb_mut(), i)[..k];
        wi[0] = z[0] / dli[0] / wi[0];
        dli[0] = -1.0;
        for j in 1..k {
            wi[j] = z[j] / dli[j] / wi[j];
            dli[j] = dsigma[j] * wi[j];
        }
        if with_u {
            let t = norm(dli);
            let qi = &mut col_mut(q.as_mut(), i)[..k];
            qi[0] = dli[0] / t;
            for j in 1..k {
                qi[j] = dli[idxc[j]] / t;
            }
        }
    }

    if let Some(mut u) = u {
        let u2 = s.u2.as_ref();
        let q = q.as_ref();
        if k == 2 {
            gemm(
                u.rb_mut().subcols_mut(0, k),
                Accum::Replace,
                u2.submatrix(0, 0, n, k),
                q.submatrix(0, 0, k, k),
            );
        } else {
            // Left rows: types 1 and 3; middle row: q's first row; right
            // rows: types 2 and 3.
            let t3 = 1 + c1 + c2;
            let mut top = u.rb_mut().submatrix_mut(0, 0, nl, k);
            gemm(
                top.rb_mut(),
                Accum::Replace,
                u2.submatrix(0, 1, nl, c1),
                q.submatrix(1, 0, c1, k),
            );
            if c3 > 0 {
                gemm(
                    top.rb_mut(),
                    Accum::Add,
                    u2.submatrix(0, t3, nl, c3),
                    q.submatrix(t3, 0, c3, k),
                );
            }
            for i in 0..k {
                u[(nl, i)] = q[(0, i)];
            }
            gemm(
                u.rb_mut().submatrix_mut(nl + 1, 0, n - nl - 1, k),
                Accum::Replace,
                u2.submatrix(nl + 1, 1 + c1, n - nl - 1, c2 + c3),
                q.submatrix(1 + c1, 0, c2 + c3, k),
            );
        }
    }

    // Right vectors, normalised, rows in grouped order.
    for i in 0..k {
        let wi = &col(v.rb(), i)[..k];
        let t = norm(wi);
        let qi = &mut col_mut(q.as_mut(), i)[..k];
        qi[0] = wi[0] / t;
        for j in 1..k {
            qi[j] = wi[idxc[j]] / t;
        }
    }
    if k == 2 {
        gemm(
            v.rb_mut().subcols_mut(0, k),
            Accum::Replace,
            s.v2.as_ref().submatrix(0, 0, m, k),
            q.as_ref().submatrix(0, 0, k, k),
        );
        return Ok(());
    }
    let t3 = 1 + c1 + c2;
    {
        let (v2, qr) = (s.v2.as_ref(), q.as_ref());
        let mut top = v.rb_mut().submatrix_mut(0, 0, nl + 1, k);
        gemm(
            top.rb_mut(),
            Accum::Replace,
            v2.submatrix(0, 0, nl + 1, 1 + c1),
            qr.submatrix(0, 0, 1 + c1, k),
        );
        if c3 > 0 {
            gemm(
                top.rb_mut(),
                Accum::Add,
                v2.submatrix(0, t3, nl + 1, c3),
                qr.submatrix(t3, 0, c3, k),
            );
        }
    }
    // The first column also feeds the right rows: move it next to types 2
    // and 3 (over the last type-1 column, no longer needed).
    if c1 > 0 {
        for i in 0..k {
            q[(c1, i)] = q[(0, i)];
        }
        for r in nl + 1..m {
            s.v2[(r, c1)] = s.v2[(r, 0)];
        }
    }
    gemm(
        v.rb_mut().submatrix_mut(nl + 1, 0, m - nl - 1, k),
        Accum::Replace,
        s.v2.as_ref().submatrix(nl + 1, c1, m - nl - 1, 1 + c2 + c3),
        q.as_ref().submatrix(c1, 0, 1 + c2 + c3, k),
    );
    Ok(())
}
