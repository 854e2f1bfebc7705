//! Matrix-vector products on column-major views, four columns at a time so
//! that the vector is loaded once per four columns, compiled for the best
//! instruction set found at run time. The products over the trailing matrix
//! are bound by memory: `dots_then_combine` makes the two of a panel step
//! one pass.

use faer::MatRef;
use pulp::{Simd, WithSimd};

/// Columns handled together.
const COLS: usize = 4;

/// Column `j` of a column-major view as a slice.
fn col(a: MatRef<'_, f64>, j: usize) -> &[f64] {
    a.col(j)
        .try_as_col_major()
        .expect("column-major view")
        .as_slice()
}

/// The columns `j..j + COLS` of `a`, the last one repeated past the end
/// (the caller uses only the first ones then).
fn group(a: MatRef<'_, f64>, j: usize) -> [&[f64]; COLS] {
    let last = a.ncols() - 1;
    std::array::from_fn(|c| col(a, (j + c).min(last)))
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
        let mut j = 0;
        while j < n {
            let w = COLS.min(n - j);
            let cols = group(a, j);
            let d = dots(simd, cols, u);
            let mut coef = [0.0; COLS];
            for c in 0..w {
                coef[c] = f(j + c, d[c]);
            }
            if !z.is_empty() && coef.iter().any(|&c| c != 0.0) {
                combine(simd, cols, coef, z);
            }
            j += w;
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
    let heads: [&[S::f64s]; COLS] = cols.map(|c| &S::as_simd_f64s(c).0[..uh.len()]);
    // Two accumulators per column hide the latency of the fused
    // multiply-adds.
    let mut acc = [[simd.splat_f64s(0.0); 2]; COLS];
    let pairs = uh.len() / 2;
    for k in 0..pairs {
        let (u0, u1) = (uh[2 * k], uh[2 * k + 1]);
        for c in 0..COLS {
            acc[c][0] = simd.mul_add_f64s(heads[c][2 * k], u0, acc[c][0]);
            acc[c][1] = simd.mul_add_f64s(heads[c][2 * k + 1], u1, acc[c][1]);
        }
    }
    if uh.len() % 2 == 1 {
        let k = uh.len() - 1;
        for c in 0..COLS {
            acc[c][0] = simd.mul_add_f64s(heads[c][k], uh[k], acc[c][0]);
        }
    }
    let lanes = u.len() - ut.len();
    std::array::from_fn(|c| {
        let mut s = simd.reduce_sum_f64s(simd.add_f64s(acc[c][0], acc[c][1]));
        for (x, y) in cols[c][lanes..].iter().zip(ut) {
            s += x * y;
        }
        s
    })
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
