//! `cor`, `cov`, `var` and `sd`; `cor` and `cov` with `method =` pearson, kendall or spearman and every
//! `use =`: R's `corcov` (stats/src/cov.c) ported routine by routine
//! (`cov_complete1/2`, `cov_na_1/2`, `cov_pairwise1/2`), with the R-level
//! ranking `cor()`/`cov()` do for the rank methods.

use std::borrow::Cow;

use nalgebra::DMatrix;

use super::ldouble::{self, LongDouble};
use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::NA;
use crate::kernels::width;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// A data argument as R's C code sees it: column-major numbers, borrowed
/// from the argument where they can be (a 10⁶ copy costs more than the
/// sums).
#[derive(Clone)]
struct Data<'a> {
    v: Cow<'a, [f64]>,
    n: usize,
    nc: usize,
    matrix: bool,
}

impl Data<'_> {
    fn col(&self, j: usize) -> &[f64] {
        &self.v[j * self.n..(j + 1) * self.n]
    }

    /// Keeps the rows `keep` says to.
    fn rows(&self, keep: &[bool]) -> Data<'static> {
        let n = keep.iter().filter(|&&k| k).count();
        let v = (0..self.nc)
            .flat_map(|j| {
                self.col(j)
                    .iter()
                    .zip(keep)
                    .filter(|(_, &k)| k)
                    .map(|(&x, _)| x)
            })
            .collect();
        Data {
            v: Cow::Owned(v),
            n,
            nc: self.nc,
            matrix: self.matrix,
        }
    }

    /// R's `Rank()` inside `cor`: each column ranked, NA kept.
    fn ranked(&self) -> Data<'static> {
        // Each column ranked whole by one worker of a wide call.
        let v = width::map_each(self.nc, |j| rank_keep(self.col(j)))
            .into_iter()
            .flatten()
            .collect();
        Data {
            v: Cow::Owned(v),
            n: self.n,
            nc: self.nc,
            matrix: self.matrix,
        }
    }
}

/// `rank(x, na.last = "keep")`, ties averaged.
pub(crate) fn rank_keep(x: &[f64]) -> Vec<f64> {
    let idx: Vec<usize> = (0..x.len()).filter(|&i| !x[i].is_nan()).collect();
    let vals: Vec<f64> = idx.iter().map(|&i| x[i]).collect();
    let r = crate::kernels::htest::rank(&vals);
    let mut out = vec![NA; x.len()];
    for (k, &i) in idx.iter().enumerate() {
        out[i] = r[k];
    }
    out
}

fn data<'a>(v: &'a Value, what: &str) -> Result<Data<'a>, KernelError> {
    match v {
        Value::Mat(m) => Ok(Data {
            v: Cow::Borrowed(m.as_slice()),
            n: m.nrows(),
            nc: m.ncols(),
            matrix: true,
        }),
        Value::Num(_) | Value::Bool(_) => {
            let v = v.as_f64_slice().unwrap_or_default();
            Ok(Data {
                n: v.len(),
                v,
                nc: 1,
                matrix: false,
            })
        }
        // A dist is its numbers (cor(cophenetic(hc), d), R's cophenetic
        // correlation).
        Value::List(_) if v.dist_values().is_some() => {
            let v = Cow::Borrowed(v.dist_values().unwrap_or_default());
            Ok(Data {
                n: v.len(),
                v,
                nc: 1,
                matrix: false,
            })
        }
        _ => Err(KernelError::new(format!("'{what}' must be numeric"))),
    }
}

fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else if x == 0.0 {
        0.0
    } else {
        x
    }
}

fn clamp(x: f64) -> f64 {
    x.clamp(-1.0, 1.0)
}

fn ld(x: f64) -> LongDouble {
    LongDouble::from_f64(x)
}

/// cov.c's two-pass `MEAN` of each column present (the others NA); two
/// columns at a time, their passes fused.
fn means_of(cols: &[Option<&[f64]>]) -> Vec<f64> {
    let mut out = vec![NA; cols.len()];
    let present: Vec<(usize, &[f64])> = cols
        .iter()
        .enumerate()
        .filter_map(|(j, c)| c.map(|c| (j, c)))
        .collect();
    for pair in present.chunks(2) {
        match pair {
            [(a, x), (b, y)] => (out[*a], out[*b]) = super::mean2(x, y),
            [(a, x)] => out[*a] = super::mean(x),
            _ => {}
        }
    }
    out
}

/// Σ (x−xm)(y−ym) in long double: cov.c's cross products with `LDOUBLE
/// xxm, yym` (COV_ini_0), so the deviations from the (double) means are
/// long-double differences too, not rounded to doubles. The sum runs in
/// the FPU's registers (`ldouble::sum_products`).
fn cross(x: &[f64], xm: f64, y: &[f64], ym: f64) -> LongDouble {
    ldouble::sum_products(x, ld(xm), y, ld(ym))
}

/// [`cross`] of x with each column of `ys`, two columns per pass.
fn crosses(x: &[f64], xm: f64, ys: &[(&[f64], f64)]) -> Vec<LongDouble> {
    let mut out = Vec::with_capacity(ys.len());
    for pair in ys.chunks(2) {
        match pair {
            [(a, am), (b, bm)] => {
                let (sa, sb) = ldouble::sum_products2(x, ld(xm), a, ld(*am), b, ld(*bm));
                out.extend([sa, sb]);
            }
            [(a, am)] => out.push(cross(x, xm, a, *am)),
            _ => {}
        }
    }
    out
}

/// [`cross`] of x with y, x with x and y with y, in one pass.
fn cross3(x: &[f64], xm: f64, y: &[f64], ym: f64) -> (LongDouble, LongDouble, LongDouble) {
    ldouble::sum_products3(x, ld(xm), y, ld(ym))
}

/// Kendall's Σ sign(x_k − x_l) sign(y_k − y_l) over all ordered pairs:
/// cov.c's double loop. The sum is an integer, which
/// R's long double holds exactly, so Knight's O(n log n) count
/// ([`kendall_count`]) gives the same number whenever every value is
/// finite (always after `cor`'s ranking); otherwise a difference may be
/// NaN and the loop runs as R's does.
fn kendall_sum(x: &[f64], y: &[f64]) -> LongDouble {
    if x.iter().chain(y).all(|v| v.is_finite()) {
        return ld(kendall_count(x, y).score as f64);
    }
    let mut s = LongDouble::ZERO;
    for k in 0..x.len() {
        for l in 0..x.len() {
            s = s.add(ld(sign(x[k] - x[l]) * sign(y[k] - y[l])));
        }
    }
    s
}

/// COV_SDEV's Kendall sum: the ordered pairs whose values differ.
fn kendall_pairs_differing(c: &[f64]) -> LongDouble {
    if c.iter().all(|v| v.is_finite()) {
        return ld(kendall_count(c, c).differ_x as f64);
    }
    let mut s = LongDouble::ZERO;
    for k in 0..c.len() {
        for l in 0..c.len() {
            if c[k] != c[l] {
                s = s.add(ld(1.0));
            }
        }
    }
    s
}

/// Kendall's pair counts over ordered pairs of finite values.
#[derive(Debug, PartialEq)]
struct KendallCount {
    /// Σ sign(x_k − x_l) sign(y_k − y_l): twice concordant minus discordant.
    score: i64,
    /// The ordered pairs whose x differ, and whose y differ.
    differ_x: i64,
    differ_y: i64,
}

/// Knight's algorithm (Knight 1966, as in scipy's `kendalltau`): sort the
/// pairs by x then y; the discordant pairs are then the inversions of y,
/// counted while merge-sorting it, and the tied pairs are runs.
fn kendall_count(x: &[f64], y: &[f64]) -> KendallCount {
    use std::cmp::Ordering;
    let order = |a: &f64, b: &f64| a.partial_cmp(b).unwrap_or(Ordering::Equal);
    let mut pairs: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
    pairs.sort_unstable_by(|a, b| order(&a.0, &b.0).then(order(&a.1, &b.1)));
    // Σ t(t − 1)/2 over the runs of equal neighbours.
    let tied = |len: usize, same: &dyn Fn(usize) -> bool| -> i64 {
        let (mut total, mut run) = (0i64, 1i64);
        for k in 1..len {
            if same(k) {
                run += 1;
            } else {
                total += run * (run - 1) / 2;
                run = 1;
            }
        }
        total + run * (run - 1) / 2
    };
    let n = pairs.len();
    let x_ties = tied(n, &|k| pairs[k].0 == pairs[k - 1].0);
    let both_ties = tied(n, &|k| pairs[k] == pairs[k - 1]);
    let mut ys: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let discordant = inversions(&mut ys);
    let y_ties = tied(n, &|k| ys[k] == ys[k - 1]);
    let all = (n as i64) * (n as i64 - 1) / 2;
    let unordered = all - x_ties - y_ties + both_ties - 2 * discordant;
    KendallCount {
        score: 2 * unordered,
        differ_x: 2 * (all - x_ties),
        differ_y: 2 * (all - y_ties),
    }
}

/// Sorts `v` (bottom-up merge sort) and returns how many pairs were out
/// of order (`v[i] > v[j]` for i < j; equal values are in order).
fn inversions(v: &mut Vec<f64>) -> i64 {
    let n = v.len();
    let mut buf = vec![0.0; n];
    let mut count = 0i64;
    let mut width = 1;
    while width < n {
        for lo in (0..n).step_by(2 * width) {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                if v[j] < v[i] {
                    count += (mid - i) as i64;
                    buf[k] = v[j];
                    j += 1;
                } else {
                    buf[k] = v[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + mid - i].copy_from_slice(&v[i..mid]);
            k += mid - i;
            buf[k..k + hi - j].copy_from_slice(&v[j..hi]);
        }
        std::mem::swap(v, &mut buf);
        width *= 2;
    }
    count
}

struct Out {
    ans: Vec<f64>,
    sd_0: bool,
}

/// `use =` after `pmatch`: 1 all.obs … 5 na.or.complete.
/// `missing`: the code when `use` is not given.
fn use_code(args: &Args<&Value>, missing: u8) -> Result<u8, KernelError> {
    const USES: [&str; 5] = [
        "all.obs",
        "complete.obs",
        "pairwise.complete.obs",
        "everything",
        "na.or.complete",
    ];
    let u = match args.get("use") {
        None => return Ok(missing),
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        Some(_) => return Err(KernelError::new("invalid 'use' argument")),
    };
    if let Some(i) = USES.iter().position(|n| *n == u) {
        return Ok(i as u8 + 1);
    }
    let hits: Vec<usize> = (0..5)
        .filter(|&i| !u.is_empty() && USES[i].starts_with(u))
        .collect();
    match hits[..] {
        [i] => Ok(i as u8 + 1),
        _ => Err(KernelError::new("invalid 'use' argument")),
    }
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Method {
    Pearson,
    Kendall,
    Spearman,
}

const METHOD_ERROR: &str =
    "'arg' should be one of \u{201c}pearson\u{201d}, \u{201c}kendall\u{201d}, \u{201c}spearman\u{201d}";

pub(crate) fn method_arg(args: &Args<&Value>) -> Result<Method, KernelError> {
    let s = match args.get("method") {
        None => return Ok(Method::Pearson),
        Some(Value::Str(s)) if s.len() == 3 => return Ok(Method::Pearson),
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    match_method(s).ok_or_else(|| KernelError::new(METHOD_ERROR))
}

/// The method `s` names, as the cost model's path tag (see
/// `kernels::path`).
pub(crate) fn method_tag(s: &str) -> Option<&'static str> {
    Some(match match_method(s)? {
        Method::Pearson => "pearson",
        Method::Kendall => "kendall",
        Method::Spearman => "spearman",
    })
}

fn match_method(s: &str) -> Option<Method> {
    if s.is_empty() {
        return None;
    }
    [
        ("pearson", Method::Pearson),
        ("kendall", Method::Kendall),
        ("spearman", Method::Spearman),
    ]
    .into_iter()
    .find(|(n, _)| n.starts_with(s))
    .map(|(_, m)| m)
}

/// R's `corcov(x, y, na_method, kendall, cor)`.
fn corcov(
    x: &Data,
    y: Option<&Data>,
    method: u8,
    kendall: bool,
    cor: bool,
) -> Result<Out, KernelError> {
    let n = x.n;
    if let Some(y) = y {
        if y.n != n {
            return Err(KernelError::new("incompatible dimensions"));
        }
    }
    let (na_fail, everything, empty_err, pair) = match method {
        1 => (true, false, true, false),
        2 => {
            if x.v.is_empty() {
                return Err(KernelError::new("no complete element pairs"));
            }
            (false, false, true, false)
        }
        3 => (false, false, true, true),
        4 => (false, true, false, false),
        _ => (false, false, false, false),
    };
    if empty_err && x.v.is_empty() {
        return Err(KernelError::new("'x' is empty"));
    }
    let ncx = x.nc;
    let ncy = y.map_or(ncx, |y| y.nc);
    let mut ans = vec![NA; ncx * ncy];
    let mut sd_0 = false;
    let yy = y.unwrap_or(x);
    if pair {
        // Row i of the answer on one worker of a wide call.
        let rows = width::map_each(ncx, |i| {
            let last = if y.is_none() { i + 1 } else { ncy };
            (0..last)
                .map(|j| pairwise_body(x.col(i), yy.col(j), kendall, cor))
                .collect::<Vec<_>>()
        });
        for (i, row) in rows.into_iter().enumerate() {
            for (j, (v, zero)) in row.into_iter().enumerate() {
                sd_0 |= zero;
                ans[i + j * ncx] = v;
                if y.is_none() {
                    ans[j + i * ncx] = v;
                }
            }
        }
        return Ok(Out { ans, sd_0 });
    }
    // has_na per column (everything) or complete rows (the others).
    let has_na = |d: &Data| -> Vec<bool> {
        (0..d.nc)
            .map(|j| d.col(j).iter().any(|v| v.is_nan()))
            .collect()
    };
    let (xna, yna, ind) = if everything {
        (has_na(x), has_na(yy), None)
    } else {
        let mut ind = vec![true; n];
        for d in std::iter::once(x).chain(y) {
            for j in 0..d.nc {
                for (k, v) in d.col(j).iter().enumerate() {
                    if v.is_nan() {
                        if na_fail {
                            return Err(KernelError::new("missing observations in cov/cor"));
                        }
                        ind[k] = false;
                    }
                }
            }
        }
        (vec![false; ncx], vec![false; ncy], Some(ind))
    };
    let nobs = ind.as_ref().map_or(n, |i| i.iter().filter(|&&k| k).count());
    if nobs <= 1 {
        // COV_n_le_1: all NA, before the empty check.
        if empty_err && !ind.as_ref().is_some_and(|i| i.iter().any(|&k| k)) {
            return Err(KernelError::new("no complete element pairs"));
        }
        return Ok(Out { ans, sd_0 });
    }
    // The incomplete rows are dropped once, here; every sum below then runs
    // over whole columns, as cov.c's `if (ind[k])` loops do.
    let (kept_x, kept_y);
    let (x, yy) = match &ind {
        Some(ind) if nobs < n => {
            kept_x = x.rows(ind);
            kept_y = y.map(|y| y.rows(ind));
            (&kept_x, kept_y.as_ref().unwrap_or(&kept_x))
        }
        _ => (x, yy),
    };
    let y = y.map(|_| yy);
    let n1 = nobs - 1;
    // Kendall needs no means; a column with NA has none.
    let wanted =
        |d: &Data, na: &[bool]| -> Vec<bool> { (0..d.nc).map(|j| !na[j] && !kendall).collect() };
    let (xw, yw) = (wanted(x, &xna), wanted(yy, &yna));
    let (xm, ym) = match y {
        Some(y) => {
            let cols: Vec<_> = (0..ncx)
                .map(|j| xw[j].then(|| x.col(j)))
                .chain((0..ncy).map(|j| yw[j].then(|| y.col(j))))
                .collect();
            let mut m = means_of(&cols);
            let ym = m.split_off(ncx);
            (m, ym)
        }
        None => {
            let cols: Vec<_> = (0..ncx).map(|j| xw[j].then(|| x.col(j))).collect();
            let m = means_of(&cols);
            (m.clone(), m)
        }
    };
    // cor(x, y) of two vectors: the cross products and both sums of
    // squares in one pass (Pearson), or one Knight's count for the score
    // and both columns' differing pairs (Kendall), each sum still R's.
    let fused = cor && ncx == 1 && ncy == 1 && y.is_some() && !xna[0] && !yna[0];
    let mut sdevs = None;
    if fused && kendall && x.v.iter().chain(yy.v.iter()).all(|v| v.is_finite()) {
        let c = kendall_count(x.col(0), yy.col(0));
        let root = |pairs: i64| sqrt_ld(ld(pairs as f64));
        sdevs = Some((root(c.differ_x), root(c.differ_y)));
        ans[0] = c.score as f64;
    } else if fused && !kendall {
        let (sxy, sxx, syy) = cross3(x.col(0), xm[0], yy.col(0), ym[0]);
        sdevs = Some((sqrt_ld(sxx.div_count(n1)), sqrt_ld(syy.div_count(n1))));
        ans[0] = sxy.div_count(n1).to_f64();
    } else {
        // Row i of the answer on one worker of a wide call: every sum is
        // computed whole, so the bits do not depend on the width.
        let rows = width::map_each(ncx, |i| {
            if xna[i] {
                return (Vec::new(), Vec::new());
            }
            let js: Vec<usize> = (0..ncy)
                .filter(|&j| (y.is_some() || j <= i) && !yna[j])
                .collect();
            let sums: Vec<f64> = if kendall {
                js.iter()
                    .map(|&j| kendall_sum(x.col(i), yy.col(j)).to_f64())
                    .collect()
            } else {
                let ys: Vec<(&[f64], f64)> = js.iter().map(|&j| (yy.col(j), ym[j])).collect();
                crosses(x.col(i), xm[i], &ys)
                    .into_iter()
                    .map(|s| s.div_count(n1).to_f64())
                    .collect()
            };
            (js, sums)
        });
        for (i, (js, sums)) in rows.into_iter().enumerate() {
            for (j, s) in js.into_iter().zip(sums) {
                ans[i + j * ncx] = s;
                if y.is_none() {
                    ans[j + i * ncx] = s;
                }
            }
        }
    }
    if cor {
        if y.is_none() {
            let sd: Vec<f64> = (0..ncx).map(|i| ans[i + i * ncx].sqrt()).collect();
            for i in 0..ncx {
                // cov_na_1 sets the diagonal to 1 even for a column with NA.
                if xna[i] {
                    ans[i + i * ncx] = 1.0;
                    continue;
                }
                for j in 0..i {
                    if xna[j] {
                        continue;
                    }
                    let v = if sd[i] == 0.0 || sd[j] == 0.0 {
                        sd_0 = true;
                        NA
                    } else {
                        clamp(ans[i + j * ncx] / (sd[i] * sd[j]))
                    };
                    ans[i + j * ncx] = v;
                    ans[j + i * ncx] = v;
                }
                ans[i + i * ncx] = 1.0;
            }
        } else {
            // COV_SDEV
            let sdev = |d: &Data, m: &[f64], na: &[bool]| -> Vec<f64> {
                (0..d.nc)
                    .map(|j| {
                        if na[j] {
                            return NA;
                        }
                        let c = d.col(j);
                        if kendall {
                            sqrt_ld(kendall_pairs_differing(c))
                        } else {
                            sqrt_ld(cross(c, m[j], c, m[j]).div_count(n1))
                        }
                    })
                    .collect()
            };
            let (sx, sy) = match sdevs {
                Some((a, b)) => (vec![a], vec![b]),
                None => (sdev(x, &xm, &xna), sdev(yy, &ym, &yna)),
            };
            for i in 0..ncx {
                for j in 0..ncy {
                    if xna[i] || yna[j] {
                        continue;
                    }
                    let a = &mut ans[i + j * ncx];
                    if sx[i] == 0.0 || sy[j] == 0.0 {
                        sd_0 = true;
                        *a = NA;
                    } else {
                        *a = clamp(*a / (sx[i] * sy[j]));
                    }
                }
            }
        }
    }
    Ok(Out { ans, sd_0 })
}

/// `(double) SQRTL(sum)`: the long double's square root, then rounded
/// to a double. (The square root of the double nearest the sum can be an
/// ulp off, and then `cor(x, x)` is exactly 1 where R's is 1 − 2⁻⁵², which
/// cor.test's Spearman statistic and p-value magnify.)
fn sqrt_ld(s: LongDouble) -> f64 {
    s.sqrt().to_f64()
}

/// cov.c's `COV_PAIRWISE_BODY` for one pair of columns, and whether a
/// standard deviation was zero.
fn pairwise_body(xx: &[f64], yy: &[f64], kendall: bool, cor: bool) -> (f64, bool) {
    let ok: Vec<bool> = xx
        .iter()
        .zip(yy)
        .map(|(a, b)| !a.is_nan() && !b.is_nan())
        .collect();
    let nobs = ok.iter().filter(|&&k| k).count();
    if nobs < 2 {
        return (NA, false);
    }
    let (mut sum, mut xsd, mut ysd) = (LongDouble::ZERO, LongDouble::ZERO, LongDouble::ZERO);
    let mut xmean = LongDouble::ZERO;
    let mut ymean = LongDouble::ZERO;
    if !kendall {
        for k in 0..xx.len() {
            if ok[k] {
                xmean = xmean.add(ld(xx[k]));
                ymean = ymean.add(ld(yy[k]));
            }
        }
        xmean = xmean.div_count(nobs);
        ymean = ymean.div_count(nobs);
    }
    for k in 0..xx.len() {
        if !ok[k] {
            continue;
        }
        if !kendall {
            let xm = ld(xx[k]).sub(xmean);
            let ym = ld(yy[k]).sub(ymean);
            sum = sum.add(xm.mul(ym));
            if cor {
                xsd = xsd.add(xm.mul(xm));
                ysd = ysd.add(ym.mul(ym));
            }
        } else {
            for l in 0..k {
                if ok[l] {
                    let xm = ld(sign(xx[k] - xx[l]));
                    let ym = ld(sign(yy[k] - yy[l]));
                    sum = sum.add(xm.mul(ym));
                    if cor {
                        xsd = xsd.add(xm.mul(xm));
                        ysd = ysd.add(ym.mul(ym));
                    }
                }
            }
        }
    }
    if cor {
        if xsd.to_f64() == 0.0 || ysd.to_f64() == 0.0 {
            return (NA, true);
        }
        let (mut s, mut a, mut b) = (sum, xsd, ysd);
        if !kendall {
            s = s.div_count(nobs - 1);
            a = a.div_count(nobs - 1);
            b = b.div_count(nobs - 1);
        }
        // COV_PAIRWISE_BODY: `sum /= (SQRTL(xsd) * SQRTL(ysd))`, all long
        // double, so a column with itself is exactly 1 as in R.
        (clamp(s.div(a.sqrt().mul(b.sqrt())).to_f64()), false)
    } else if !kendall {
        (sum.div_count(nobs - 1).to_f64(), false)
    } else {
        (sum.to_f64(), false)
    }
}

/// R's `cor()` / `cov()` at the R level.
fn cor_or_cov(args: &Args<&Value>, ctx: &mut Ctx, is_cor: bool) -> Result<Value, KernelError> {
    let use_ = use_code(args, 4)?;
    let method = method_arg(args)?;
    let xv = args.get("x").unwrap_or(&Value::Null);
    if matches!(xv, Value::Null) {
        return Err(KernelError::new("'x' is NULL"));
    }
    let yv = match args.get("y") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v),
    };
    if !matches!(xv, Value::Mat(_)) && yv.is_none() {
        return Err(KernelError::new(
            "supply both 'x' and 'y' or a matrix-like 'x'",
        ));
    }
    let x = data(xv, "x")?;
    let y = match yv {
        Some(v) => Some(data(v, "y")?),
        None => None,
    };
    let kendall = method == Method::Kendall;
    let out = if method == Method::Pearson {
        corcov(&x, y.as_ref(), use_, false, is_cor)?
    } else if use_ == 2 || use_ == 5 {
        if let Some(y) = &y {
            if y.n != x.n {
                return Err(KernelError::new("incompatible dimensions"));
            }
        }
        let keep: Vec<bool> = (0..x.n)
            .map(|k| {
                (0..x.nc).all(|j| !x.col(j)[k].is_nan())
                    && y.as_ref()
                        .is_none_or(|y| (0..y.nc).all(|j| !y.col(j)[k].is_nan()))
            })
            .collect();
        let xr = x.rows(&keep).ranked();
        let yr = y.as_ref().map(|y| y.rows(&keep).ranked());
        corcov(&xr, yr.as_ref(), use_, kendall, is_cor)?
    } else if use_ != 3 {
        let xr = x.ranked();
        let yr = y.as_ref().map(Data::ranked);
        corcov(&xr, yr.as_ref(), use_, kendall, is_cor)?
    } else if !is_cor {
        return Err(KernelError::new("cannot handle 'pairwise.complete.obs'"));
    } else {
        pairwise_ranks(&x, y.as_ref(), kendall)?
    };
    if out.sd_0 && is_cor {
        ctx.warn("the standard deviation is zero");
    }
    let ncy = y.as_ref().map_or(x.nc, |y| y.nc);
    let matrix = x.matrix || y.as_ref().is_some_and(|y| y.matrix);
    Ok(if matrix {
        Value::Mat(DMatrix::from_vec(x.nc, ncy, out.ans))
    } else {
        Value::Num(out.ans)
    })
}

/// `cor(..., method = "spearman"/"kendall", use = "pairwise.complete.obs")`:
/// R loops over the pairs, ranking each pair's complete cases.
fn pairwise_ranks(x: &Data, y: Option<&Data>, kendall: bool) -> Result<Out, KernelError> {
    let yy = y.unwrap_or(x);
    if y.is_none() && x.nc == 0 {
        return Err(KernelError::new("'x' is empty"));
    }
    if y.is_some() && (x.v.is_empty() || yy.v.is_empty()) {
        return Err(KernelError::new("both 'x' and 'y' must be non-empty"));
    }
    if yy.n != x.n {
        return Err(KernelError::new("incompatible dimensions"));
    }
    let mut ans = vec![0.0; x.nc * yy.nc];
    let mut sd_0 = false;
    // Row i of the answer on one worker of a wide call.
    let rows = width::map_each(x.nc, |i| {
        let last = if y.is_none() { i + 1 } else { yy.nc };
        (0..last)
            .map(|j| pairwise_rank_cor(x.col(i), yy.col(j), kendall))
            .collect::<Result<Vec<_>, KernelError>>()
    });
    for (i, row) in rows.into_iter().enumerate() {
        for (j, (v, zero)) in row?.into_iter().enumerate() {
            sd_0 |= zero;
            ans[i + j * x.nc] = v;
            if y.is_none() {
                ans[j + i * x.nc] = v;
            }
        }
    }
    Ok(Out { ans, sd_0 })
}

/// One pair of columns of [`pairwise_ranks`]: their complete cases
/// ranked and correlated, and whether a standard deviation was zero.
fn pairwise_rank_cor(a: &[f64], b: &[f64], kendall: bool) -> Result<(f64, bool), KernelError> {
    let ok: Vec<bool> = a
        .iter()
        .zip(b)
        .map(|(u, v)| !u.is_nan() && !v.is_nan())
        .collect();
    if !ok.iter().any(|&k| k) {
        return Ok((NA, false));
    }
    let ranked = |c: &[f64]| {
        let r = crate::kernels::htest::rank(
            &c.iter()
                .zip(&ok)
                .filter(|(_, &k)| k)
                .map(|(&v, _)| v)
                .collect::<Vec<f64>>(),
        );
        Data {
            n: r.len(),
            v: Cow::Owned(r),
            nc: 1,
            matrix: false,
        }
    };
    let o = corcov(&ranked(a), Some(&ranked(b)), 1, kendall, true)?;
    Ok((o.ans[0], o.sd_0))
}

/// R's `var(x, y, na.rm, use)`: cov.c's Pearson covariance, `use`
/// defaulting to "na.or.complete" under `na.rm = TRUE`.
pub(super) fn var_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let na_rm = args.bool_or("na.rm", false)?;
    let use_ = use_code(args, if na_rm { 5 } else { 4 })?;
    let x = data(args.get("x").unwrap_or(&Value::Null), "x")?;
    let y = match args.get("y") {
        None | Some(Value::Null) => None,
        Some(v) => Some(data(v, "y")?),
    };
    let out = corcov(&x, y.as_ref(), use_, false, false)?;
    let ncy = y.as_ref().map_or(x.nc, |y| y.nc);
    Ok(if x.matrix || y.as_ref().is_some_and(|y| y.matrix) {
        Value::Mat(DMatrix::from_vec(x.nc, ncy, out.ans))
    } else {
        Value::Num(out.ans)
    })
}

/// R's `sd(x, na.rm)`: the square root of `var` of the values as a vector.
pub(super) fn sd_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let use_ = if args.bool_or("na.rm", false)? { 5 } else { 4 };
    let x = args.nums("x")?;
    let d = Data {
        n: x.len(),
        v: x,
        nc: 1,
        matrix: false,
    };
    Ok(Value::scalar(
        corcov(&d, None, use_, false, false)?.ans[0].sqrt(),
    ))
}

pub(super) fn cor_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    cor_or_cov(args, ctx, true)
}

pub(super) fn cov_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    cor_or_cov(args, ctx, false)
}

/// (rows, columns, is a matrix) of a data argument's type.
fn dims(t: &Type) -> Option<(Option<usize>, Option<usize>, bool)> {
    match t {
        Type::Mat { rows, cols } => Some((*rows, *cols, true)),
        Type::Num { len, .. } | Type::Bool { len, .. } => Some((*len, Some(1), false)),
        Type::Record { class, .. } if class == "dist" => {
            Some((t.field("values").and_then(Type::len), Some(1), false))
        }
        _ => None,
    }
}

/// `cor` and `cov`'s result type: a vector `x` needs a `y`.
pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    xy_shape(args, true)
}

/// `var`'s result type: `var(x)` of a vector is its variance.
pub(super) fn var_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    xy_shape(args, false)
}

pub(super) fn sd_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(t) if !t.is_numeric() => {
            Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())))
        }
        _ => Ok(Type::num(1)),
    }
}

fn xy_shape(args: &Args<Type>, vector_needs_y: bool) -> Result<Type, ArgError> {
    // var() has no `method`; cor and cov do.
    if let Some(m) = args.get_if_formal("method").and_then(Type::const_str) {
        if match_method(m).is_none() {
            return Err(args.error("method", METHOD_ERROR));
        }
    }
    let xt = match args.ty("x") {
        None | Some(Type::Any) => return Ok(Type::Any),
        Some(t) => t,
    };
    let (xn, xp, xmat) = dims(xt)
        .ok_or_else(|| args.error("x", format!("'x' must be numeric, not {}", xt.describe())))?;
    let (yp, ymat) = match args.ty("y") {
        None | Some(Type::Null) => {
            if !xmat && vector_needs_y {
                return Err(args.error("x", "supply both 'x' and 'y' or a matrix-like 'x'"));
            }
            (xp, false)
        }
        Some(Type::Any) => return Ok(Type::Any),
        Some(yt) => {
            let (yn, yp, ymat) = dims(yt).ok_or_else(|| {
                args.error("y", format!("'y' must be numeric, not {}", yt.describe()))
            })?;
            if let (Some(a), Some(b)) = (xn, yn) {
                if a != b {
                    return Err(args.error(
                        "y",
                        format!("incompatible dimensions: 'x' has {a} rows, 'y' has {b}"),
                    ));
                }
            }
            (yp, ymat)
        }
    };
    Ok(if xmat || ymat {
        Type::Mat { rows: xp, cols: yp }
    } else {
        Type::num(1)
    })
}

/// R's `var(x)` of a vector without NA (cov.c with `use = "everything"`).
pub(crate) fn var(x: &[f64]) -> f64 {
    let d = Data {
        v: Cow::Borrowed(x),
        n: x.len(),
        nc: 1,
        matrix: false,
    };
    corcov(&d, None, 4, false, false).map_or(NA, |o| o.ans[0])
}

/// R's `cor(x, y, method = "kendall")` of two vectors without NA.
pub(crate) fn kendall_xy(x: &[f64], y: &[f64]) -> f64 {
    let d = |v: &[f64]| Data {
        v: Cow::Owned(rank_keep(v)),
        n: v.len(),
        nc: 1,
        matrix: false,
    };
    corcov(&d(x), Some(&d(y)), 4, true, true).map_or(NA, |o| o.ans[0])
}

/// `cor(x, y)` of two vectors, warning as R does when an sd is zero.
pub(crate) fn cor_or_na(x: &[f64], y: &[f64], ctx: &mut Ctx) -> f64 {
    fn d(v: &[f64]) -> Data<'_> {
        Data {
            v: Cow::Borrowed(v),
            n: v.len(),
            nc: 1,
            matrix: false,
        }
    }
    match corcov(&d(x), Some(&d(y)), 4, false, true) {
        Ok(o) => {
            if o.sd_0 {
                ctx.warn("the standard deviation is zero");
            }
            o.ans[0]
        }
        Err(_) => NA,
    }
}

#[cfg(test)]
mod tests {
    use super::{kendall_count, sign, KendallCount};

    /// cov.c's double loop, the definition the fast count must equal.
    fn by_pairs(x: &[f64], y: &[f64]) -> KendallCount {
        let (mut score, mut differ_x, mut differ_y) = (0.0, 0.0, 0.0);
        for k in 0..x.len() {
            for l in 0..x.len() {
                score += sign(x[k] - x[l]) * sign(y[k] - y[l]);
                if x[k] != x[l] {
                    differ_x += 1.0;
                }
                if y[k] != y[l] {
                    differ_y += 1.0;
                }
            }
        }
        KendallCount {
            score: score as i64,
            differ_x: differ_x as i64,
            differ_y: differ_y as i64,
        }
    }

    #[test]
    fn knights_count_is_the_double_loops() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u64| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % m) as f64
        };
        for n in [0, 1, 2, 3, 5, 8, 17, 64, 200] {
            for levels in [2, 5, 1000] {
                let x: Vec<f64> = (0..n).map(|_| next(levels) - 2.0).collect();
                let y: Vec<f64> = (0..n).map(|_| next(levels) * 0.5).collect();
                assert_eq!(kendall_count(&x, &y), by_pairs(&x, &y), "n {n}");
                assert_eq!(kendall_count(&x, &x), by_pairs(&x, &x), "n {n}");
            }
        }
        // -0 ties with 0, as their difference's sign is 0; infinities order.
        let x = [0.0, -0.0, 1.0, f64::INFINITY, -3.0];
        let y = [2.0, 1.0, 1.0, 0.0, f64::NEG_INFINITY];
        assert_eq!(kendall_count(&x, &y), by_pairs(&x, &y));
    }
}
