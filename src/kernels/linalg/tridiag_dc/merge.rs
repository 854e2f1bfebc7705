//! One rank-one merge (LAPACK `dlaed1`/`dlaed3`): the eigenpairs of
//! `diag(Q1 D1 Q1', Q2 D2 Q2') + rho v v'` from those of the two halves.

use faer::linalg::matmul::matmul;
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, MatRef};

use super::deflate::{deflate, Deflation, Part};
use super::secular::secular_root;

/// Scratch for merges of up to `n` columns, allocated once per solve.
pub(super) struct Scratch {
    /// Compact copies of the old eigenvector columns (`n * n`).
    cols: Vec<f64>,
    /// Secular differences, then the secular eigenvectors (`n * n`).
    vecs: Vec<f64>,
    z: Vec<f64>,
    poles: Vec<f64>,
    weights: Vec<f64>,
    roots: Vec<f64>,
    tmp: Vec<f64>,
}

impl Scratch {
    pub(super) fn new(n: usize) -> Scratch {
        Scratch {
            cols: vec![0.0; n * n],
            vecs: vec![0.0; n * n + n],
            z: vec![0.0; n],
            poles: vec![0.0; n],
            weights: vec![0.0; n],
            roots: vec![0.0; n],
            tmp: vec![0.0; n],
        }
    }

    /// Room for a leaf solve (`leaf * leaf + leaf`), taken from `vecs`.
    pub(super) fn leaf_work(&mut self, len: usize) -> &mut [f64] {
        &mut self.vecs[..len]
    }
}

fn col(q: MatRef<'_, f64>, j: usize) -> &[f64] {
    q.col(j)
        .try_as_col_major()
        .expect("eigenvector blocks have unit row stride")
        .as_slice()
}

/// `d[..m]` and `d[m..]` hold the halves' eigenvalues (each increasing) and
/// `q` their eigenvectors on its diagonal blocks (zero elsewhere); `beta` is
/// the off-diagonal entry that was cut. On return `d` is increasing and `q`
/// holds the matching eigenvectors.
pub(super) fn merge(d: &mut [f64], mut q: MatMut<'_, f64>, m: usize, beta: f64, s: &mut Scratch) {
    let n = d.len();
    let n2 = n - m;
    // z = Q' v with v = (e_{m-1} + sign(beta) e_m) / sqrt(2), so |z| = 1.
    let z = &mut s.z[..n];
    let scale = std::f64::consts::FRAC_1_SQRT_2;
    let sign = if beta < 0.0 { -scale } else { scale };
    for i in 0..m {
        z[i] = q[(m - 1, i)] * scale;
    }
    for i in 0..n2 {
        z[m + i] = q[(m, m + i)] * sign;
    }
    let rho = 2.0 * beta.abs();

    let order = merged_order(d, m);
    let Deflation { kept, deflated } = deflate(d, z, rho, m, &order, q.rb_mut());
    let k = kept.len();

    // Column groups top-only, mixed, bottom-only, so that the top rows are
    // a product over the first two groups and the bottom rows over the last
    // two: the zero blocks of diag(Q1, Q2) are never multiplied.
    let count = |p: Part| kept.iter().filter(|c| c.1 == p).count();
    let (c1, c2) = (count(Part::Top), count(Part::Both));
    let mut group_pos = vec![0usize; k];
    {
        let mut next = [0, c1, c1 + c2];
        for (i, &(_, p)) in kept.iter().enumerate() {
            let g = match p {
                Part::Top => 0,
                Part::Both => 1,
                Part::Bottom => 2,
            };
            group_pos[i] = next[g];
            next[g] += 1;
        }
    }
    let top_len = c1 + c2;
    let bottom_len = k - c1;
    let (top, rest) = s.cols.split_at_mut(m * top_len);
    let (bottom, defl_cols) = rest.split_at_mut(n2 * bottom_len);
    for (i, &(c, _)) in kept.iter().enumerate() {
        let g = group_pos[i];
        let src = col(q.rb(), c);
        if g < top_len {
            top[g * m..(g + 1) * m].copy_from_slice(&src[..m]);
        }
        if g >= c1 {
            let b = g - c1;
            bottom[b * n2..(b + 1) * n2].copy_from_slice(&src[m..]);
        }
    }
    for (t, &c) in deflated.iter().enumerate() {
        defl_cols[t * n..(t + 1) * n].copy_from_slice(col(q.rb(), c));
    }
    let defl_vals: Vec<f64> = deflated.iter().map(|&c| d[c]).collect();

    let sec = Secular {
        poles: &mut s.poles[..k],
        weights: &mut s.weights[..k],
        roots: &mut s.roots[..k],
        tmp: &mut s.tmp[..k],
    };
    let vecs = &mut s.vecs[..k * k];
    // Compiled for the best instruction set found at run time (AVX2 and
    // FMA where available): the secular loops are most of a merge's
    // non-product work.
    pulp::Arch::new().dispatch(
        #[inline(always)]
        || secular_vectors(d, z, rho, &kept, &group_pos, vecs, sec),
    );
    let vecs = MatRef::from_column_major_slice(&s.vecs[..k * k], k, k);
    let top = MatRef::from_column_major_slice(&*top, m, top_len);
    let bottom = MatRef::from_column_major_slice(&*bottom, n2, bottom_len);

    // Interleave the secular roots and deflated values in increasing
    // order; runs of consecutive roots become one product each.
    let roots = &s.roots[..k];
    let (mut j, mut t, mut p) = (0, 0, 0);
    while p < n {
        if t < deflated.len() && (j == k || defl_vals[t] < roots[j]) {
            d[p] = defl_vals[t];
            q.rb_mut()
                .col_mut(p)
                .try_as_col_major_mut()
                .expect("eigenvector blocks have unit row stride")
                .as_slice_mut()
                .copy_from_slice(&defl_cols[t * n..(t + 1) * n]);
            t += 1;
            p += 1;
            continue;
        }
        let j0 = j;
        while j < k && (t == deflated.len() || roots[j] <= defl_vals[t]) {
            d[p + j - j0] = roots[j];
            j += 1;
        }
        let len = j - j0;
        let mut dst = q.rb_mut().subcols_mut(p, len);
        let (dst_top, dst_bottom) = dst.rb_mut().split_at_row_mut(m);
        product(dst_top, top, vecs.submatrix(0, j0, top_len, len));
        product(dst_bottom, bottom, vecs.submatrix(c1, j0, bottom_len, len));
        p += len;
    }
}

/// Length-`k` work vectors of one merge's secular problem.
struct Secular<'a> {
    poles: &'a mut [f64],
    weights: &'a mut [f64],
    roots: &'a mut [f64],
    tmp: &'a mut [f64],
}

fn product(dst: MatMut<'_, f64>, lhs: MatRef<'_, f64>, rhs: MatRef<'_, f64>) {
    let mut dst = dst;
    if lhs.ncols() == 0 {
        dst.fill(0.0);
    } else {
        matmul(
            dst,
            Accum::Replace,
            lhs,
            rhs,
            1.0,
            crate::kernels::width::par(),
        );
    }
}

/// Columns of `d` by increasing value, merging the two sorted halves.
fn merged_order(d: &[f64], m: usize) -> Vec<usize> {
    let n = d.len();
    let mut order = Vec::with_capacity(n);
    let (mut a, mut b) = (0, m);
    while a < m || b < n {
        if b == n || (a < m && d[a] <= d[b]) {
            order.push(a);
            a += 1;
        } else {
            order.push(b);
            b += 1;
        }
    }
    order
}

/// Solves the secular equation for the kept columns and writes the unit
/// eigenvectors of `diag(poles) + rho w w'` into `vecs` (`k x k`), row `i`
/// of column `j` at row `group_pos[i]`, roots into `s.roots`. The weights
/// are recomputed from the roots (Gu & Eisenstat's Löwner formula) so the
/// vectors are orthogonal to working precision.
#[inline(always)]
fn secular_vectors(
    d: &[f64],
    z: &[f64],
    rho: f64,
    kept: &[(usize, Part)],
    group_pos: &[usize],
    vecs: &mut [f64],
    sec: Secular<'_>,
) {
    let k = kept.len();
    let Secular {
        poles,
        weights: w,
        roots,
        tmp,
    } = sec;
    for (i, &(c, _)) in kept.iter().enumerate() {
        poles[i] = d[c];
        tmp[i] = z[c];
    }
    for j in 0..k {
        roots[j] = secular_root(poles, tmp, rho, j, &mut vecs[j * k..(j + 1) * k]);
    }
    // w_i^2 = -prod_j (pole_i - root_j) / prod_{j != i} (pole_i - pole_j).
    for i in 0..k {
        w[i] = vecs[i * k + i];
    }
    for j in 0..k {
        let delta = &vecs[j * k..(j + 1) * k];
        let pj = poles[j];
        // Two loops around i == j so that each vectorises.
        for ((wi, di), pi) in w[..j].iter_mut().zip(&delta[..j]).zip(&poles[..j]) {
            *wi *= di / (pi - pj);
        }
        for ((wi, di), pi) in w[j + 1..]
            .iter_mut()
            .zip(&delta[j + 1..])
            .zip(&poles[j + 1..])
        {
            *wi *= di / (pi - pj);
        }
    }
    for i in 0..k {
        w[i] = (-w[i]).max(0.0).sqrt().copysign(tmp[i]);
    }
    for j in 0..k {
        let col = &mut vecs[j * k..(j + 1) * k];
        for ((t, wi), di) in tmp.iter_mut().zip(&*w).zip(&*col) {
            *t = wi / di;
        }
        let norm = sum_squares(tmp);
        let norm = norm.sqrt();
        if !(norm > 0.0 && norm.is_finite()) {
            // Cannot happen for roots strictly between the poles; keep the
            // result a unit vector regardless.
            tmp.fill(0.0);
            tmp[j] = 1.0;
            for (i, &g) in group_pos.iter().enumerate() {
                col[g] = tmp[i];
            }
            continue;
        }
        for (i, &g) in group_pos.iter().enumerate() {
            col[g] = tmp[i] / norm;
        }
    }
}

/// Sum of squares in four lanes (a single running sum does not vectorise).
#[inline(always)]
fn sum_squares(x: &[f64]) -> f64 {
    let mut acc = [0.0; 4];
    let chunks = x.chunks_exact(4);
    let rest = chunks.remainder();
    for c in chunks {
        for l in 0..4 {
            acc[l] += c[l] * c[l];
        }
    }
    rest.iter().map(|v| v * v).sum::<f64>() + acc.iter().sum::<f64>()
}
