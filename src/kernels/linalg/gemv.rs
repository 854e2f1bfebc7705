//! Matrix-vector products on column-major views, four columns at a time so
//! that the vector is loaded once per four columns, compiled for the best
//! instruction set found at run time. The products over the trailing matrix
//! are bound by memory: `dots_then_combine` makes the two of a panel step
//! one pass. Shared by the blocked reductions (`bidiag`, `tridiag`).

use faer::MatRef;
use pulp::{Simd, WithSimd};

/// Columns handled together (the kernels below name four of each).
const COLS: usize = 4;

/// Column `j` of a column-major view as a slice.
#[inline(always)]
pub(super) fn col(a: MatRef<'_, f64>, j: usize) -> &[f64] {
    a.col(j)
        .try_as_col_major()
        .expect("column-major view")
        .as_slice()
}

/// The columns `j..j + COLS` of `a`, the last one repeated past the end
/// (the caller uses only the first ones then).
#[inline(always)]
fn group(a: MatRef<'_, f64>, j: usize) -> [&[f64]; COLS] {
    let last = a.ncols() - 1;
    let at = |c: usize| col(a, (j + c).min(last));
    [at(0), at(1), at(2), at(3)]
}

/// `x · y` over `x`'s length.
pub(super) fn dot(x: &[f64], y: &[f64]) -> f64 {
    pulp::Arch::new().dispatch(Dot { x, y })
}

struct Dot<'a> {
    x: &'a [f64],
    y: &'a [f64],
}

impl WithSimd for Dot<'_> {
    type Output = f64;

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) -> f64 {
        let (xh, xt) = S::as_simd_f64s(self.x);
        let (yh, yt) = S::as_simd_f64s(&self.y[..self.x.len()]);
        // Two accumulators: one FMA chain would bound the loop.
        let zero = simd.splat_f64s(0.0);
        let (mut s0, mut s1) = (zero, zero);
        let pairs = xh.len() / 2;
        for (x, y) in xh[..2 * pairs].chunks_exact(2).zip(yh.chunks_exact(2)) {
            s0 = simd.mul_add_e_f64s(x[0], y[0], s0);
            s1 = simd.mul_add_e_f64s(x[1], y[1], s1);
        }
        if xh.len() > 2 * pairs {
            s0 = simd.mul_add_e_f64s(xh[2 * pairs], yh[2 * pairs], s0);
        }
        let tail: f64 = xt.iter().zip(yt).map(|(a, b)| a * b).sum();
        simd.reduce_sum_f64s(simd.add_f64s(s0, s1)) + tail
    }
}

/// `out[j] = a(:, j) · u` for every column `j`.
pub(super) fn gemv_t(a: MatRef<'_, f64>, u: &[f64], out: &mut [f64]) {
    out.fill(0.0);
    gemv_t_add(a, u, out);
}

/// `out[j] += a(:, j) · u` for every column `j`.
pub(super) fn gemv_t_add(a: MatRef<'_, f64>, u: &[f64], out: &mut [f64]) {
    dots_then_combine(
        a,
        u,
        |j, d| {
            out[j] += d;
            0.0
        },
        &mut [],
    );
}

/// `out += a c`.
pub(super) fn gemv_n_add(a: MatRef<'_, f64>, c: &[f64], out: &mut [f64]) {
    assert!(a.nrows() == out.len() && a.ncols() == c.len());
    if a.nrows() > 0 && a.ncols() > 0 {
        pulp::Arch::new().dispatch(Combine { a, c, out });
    }
}

/// For each column `j` of `a` in turn: `d = a(:, j) · u`, then
/// `z += a(:, j) f(j, d)`, the column read once from memory for both.
/// `z` may be empty when every `f(j, d)` is zero.
pub(super) fn dots_then_combine<F: FnMut(usize, f64) -> f64>(
    a: MatRef<'_, f64>,
    u: &[f64],
    f: F,
    z: &mut [f64],
) {
    assert!(a.nrows() == u.len() && (z.is_empty() || z.len() == u.len()));
    if a.nrows() > 0 && a.ncols() > 0 {
        pulp::Arch::new().dispatch(DotsThenCombine { a, u, f, z });
    }
}

struct DotsThenCombine<'a, F> {
    a: MatRef<'a, f64>,
    u: &'a [f64],
    f: F,
    z: &'a mut [f64],
}

impl<F: FnMut(usize, f64) -> f64> WithSimd for DotsThenCombine<'_, F> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) -> Self::Output {
        let DotsThenCombine { a, u, mut f, z } = self;
        let n = a.ncols();
        // Software-pipelined: one loop over the rows takes the products of
        // a group of columns from memory and adds the previous group, still
        // in cache, into z.
        let mut prev: Option<([&[f64]; COLS], [f64; COLS])> = None;
        let mut j = 0;
        while j < n {
            let w = COLS.min(n - j);
            let cols = group(a, j);
            let d = match prev.take() {
                Some((pc, coef)) => dots_and_combine(simd, cols, u, pc, coef, z),
                None => dots(simd, cols, u),
            };
            let mut coef = [0.0; COLS];
            for c in 0..w {
                coef[c] = f(j + c, d[c]);
            }
            if !z.is_empty() && coef.iter().any(|&c| c != 0.0) {
                prev = Some((cols, coef));
            }
            j += w;
        }
        if let Some((pc, coef)) = prev {
            combine(simd, pc, coef, z);
        }
    }
}

struct Combine<'a> {
    a: MatRef<'a, f64>,
    c: &'a [f64],
    out: &'a mut [f64],
}

impl WithSimd for Combine<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) -> Self::Output {
        let Combine { a, c, out } = self;
        let n = c.len();
        let mut j = 0;
        while j < n {
            let w = COLS.min(n - j);
            let mut coef = [0.0; COLS];
            coef[..w].copy_from_slice(&c[j..j + w]);
            combine(simd, group(a, j), coef, out);
            j += w;
        }
    }
}

/// The four dot products `cols[c] · u`.
#[inline(always)]
fn dots<S: Simd>(simd: S, cols: [&[f64]; COLS], u: &[f64]) -> [f64; COLS] {
    let (uh, ut) = S::as_simd_f64s(u);
    let [c0, c1, c2, c3] = cols.map(|c| &S::as_simd_f64s(c).0[..uh.len()]);
    // Two accumulators per column hide the latency of the fused
    // multiply-adds; named locals (not an array) stay in registers.
    let z = simd.splat_f64s(0.0);
    let (mut a0, mut a1, mut a2, mut a3) = (z, z, z, z);
    let (mut b0, mut b1, mut b2, mut b3) = (z, z, z, z);
    let pairs = uh.len() / 2;
    for k in 0..pairs {
        let (i, j) = (2 * k, 2 * k + 1);
        let (u0, u1) = (uh[i], uh[j]);
        a0 = simd.mul_add_f64s(c0[i], u0, a0);
        a1 = simd.mul_add_f64s(c1[i], u0, a1);
        a2 = simd.mul_add_f64s(c2[i], u0, a2);
        a3 = simd.mul_add_f64s(c3[i], u0, a3);
        b0 = simd.mul_add_f64s(c0[j], u1, b0);
        b1 = simd.mul_add_f64s(c1[j], u1, b1);
        b2 = simd.mul_add_f64s(c2[j], u1, b2);
        b3 = simd.mul_add_f64s(c3[j], u1, b3);
    }
    if uh.len() % 2 == 1 {
        let i = uh.len() - 1;
        a0 = simd.mul_add_f64s(c0[i], uh[i], a0);
        a1 = simd.mul_add_f64s(c1[i], uh[i], a1);
        a2 = simd.mul_add_f64s(c2[i], uh[i], a2);
        a3 = simd.mul_add_f64s(c3[i], uh[i], a3);
    }
    let sums = [
        simd.add_f64s(a0, b0),
        simd.add_f64s(a1, b1),
        simd.add_f64s(a2, b2),
        simd.add_f64s(a3, b3),
    ];
    let lanes = u.len() - ut.len();
    finish_dots(simd, sums, cols, lanes, ut)
}

/// The dot products from their vector accumulators and the rows past the
/// last full vector.
#[inline(always)]
fn finish_dots<S: Simd>(
    simd: S,
    sums: [S::f64s; COLS],
    cols: [&[f64]; COLS],
    lanes: usize,
    ut: &[f64],
) -> [f64; COLS] {
    let mut d = [0.0; COLS];
    for c in 0..COLS {
        d[c] = simd.reduce_sum_f64s(sums[c]);
        for (x, y) in cols[c][lanes..].iter().zip(ut) {
            d[c] += x * y;
        }
    }
    d
}

/// `dots(cols, u)` and `combine(prev, coef, z)` in one loop.
#[inline(always)]
fn dots_and_combine<S: Simd>(
    simd: S,
    cols: [&[f64]; COLS],
    u: &[f64],
    prev: [&[f64]; COLS],
    coef: [f64; COLS],
    z: &mut [f64],
) -> [f64; COLS] {
    let (uh, ut) = S::as_simd_f64s(u);
    let len = uh.len();
    let [c0, c1, c2, c3] = cols.map(|c| &S::as_simd_f64s(c).0[..len]);
    let [p0, p1, p2, p3] = prev.map(|c| &S::as_simd_f64s(c).0[..len]);
    let [k0, k1, k2, k3] = coef.map(|c| simd.splat_f64s(c));
    let lanes = u.len() - ut.len();
    let (zh, zt) = S::as_mut_simd_f64s(z);
    let zh = &mut zh[..len];
    let zero = simd.splat_f64s(0.0);
    let (mut a0, mut a1, mut a2, mut a3) = (zero, zero, zero, zero);
    for i in 0..len {
        let ui = uh[i];
        a0 = simd.mul_add_f64s(c0[i], ui, a0);
        a1 = simd.mul_add_f64s(c1[i], ui, a1);
        a2 = simd.mul_add_f64s(c2[i], ui, a2);
        a3 = simd.mul_add_f64s(c3[i], ui, a3);
        let mut zi = zh[i];
        zi = simd.mul_add_f64s(p0[i], k0, zi);
        zi = simd.mul_add_f64s(p1[i], k1, zi);
        zi = simd.mul_add_f64s(p2[i], k2, zi);
        zi = simd.mul_add_f64s(p3[i], k3, zi);
        zh[i] = zi;
    }
    for (i, z) in zt.iter_mut().enumerate() {
        for c in 0..COLS {
            *z += prev[c][lanes + i] * coef[c];
        }
    }
    let sums = [a0, a1, a2, a3];
    finish_dots(simd, sums, cols, lanes, ut)
}

/// `out += Σ cols[c] coef[c]`.
#[inline(always)]
fn combine<S: Simd>(simd: S, cols: [&[f64]; COLS], coef: [f64; COLS], out: &mut [f64]) {
    let lanes = out.len() - out.len() % (core::mem::size_of::<S::f64s>() / 8);
    let (oh, ot) = S::as_mut_simd_f64s(out);
    let heads: [&[S::f64s]; COLS] = cols.map(|c| &S::as_simd_f64s(c).0[..oh.len()]);
    let splat: [S::f64s; COLS] = coef.map(|c| simd.splat_f64s(c));
    for (i, o) in oh.iter_mut().enumerate() {
        let mut s = *o;
        for c in 0..COLS {
            s = simd.mul_add_f64s(heads[c][i], splat[c], s);
        }
        *o = s;
    }
    for (i, o) in ot.iter_mut().enumerate() {
        for c in 0..COLS {
            *o += cols[c][lanes + i] * coef[c];
        }
    }
}
