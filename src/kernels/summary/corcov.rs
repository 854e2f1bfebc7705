//! `cor` and `cov` with `method =` pearson, kendall or spearman and every
//! `use =`: R's `corcov` (stats/src/cov.c) ported routine by routine
//! (`cov_complete1/2`, `cov_na_1/2`, `cov_pairwise1/2`), with the R-level
//! ranking `cor()`/`cov()` do for the rank methods.

use nalgebra::DMatrix;

use super::ldouble::{self, LongDouble};
use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::NA;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// A data argument as R's C code sees it: column-major numbers.
#[derive(Clone)]
struct Data {
    v: Vec<f64>,
    n: usize,
    nc: usize,
    matrix: bool,
}

impl Data {
    fn col(&self, j: usize) -> &[f64] {
        &self.v[j * self.n..(j + 1) * self.n]
    }

    /// Keeps the rows `keep` says to.
    fn rows(&self, keep: &[bool]) -> Data {
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
            v,
            n,
            nc: self.nc,
            matrix: self.matrix,
        }
    }

    /// R's `Rank()` inside `cor`: each column ranked, NA kept.
    fn ranked(&self) -> Data {
        if self.v.is_empty() {
            return self.clone();
        }
        let v = (0..self.nc).flat_map(|j| rank_keep(self.col(j))).collect();
        Data { v, ..self.clone() }
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

fn data(v: &Value, what: &str) -> Result<Data, KernelError> {
    match v {
        Value::Mat(m) => Ok(Data {
            v: m.as_slice().to_vec(),
            n: m.nrows(),
            nc: m.ncols(),
            matrix: true,
        }),
        Value::Num(_) | Value::Bool(_) => {
            let v = v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default();
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

/// cov.c's two-pass `MEAN` over the rows `ind` marks.
fn mean_of(x: &[f64], ind: Option<&[bool]>) -> f64 {
    let kept: Vec<f64> = match ind {
        Some(ind) => x
            .iter()
            .zip(ind)
            .filter(|(_, &k)| k)
            .map(|(&v, _)| v)
            .collect(),
        None => x.to_vec(),
    };
    let nobs = kept.len();
    let tmp = ldouble::sum(&kept).div_count(nobs);
    if tmp.is_finite_f64() {
        tmp.add(ldouble::sum_deviations(&kept, tmp).div_count(nobs))
            .to_f64()
    } else {
        tmp.to_f64()
    }
}

/// Σ (x−xm)(y−ym) in long double: cov.c's cross products with `LDOUBLE
/// xxm, yym` (COV_ini_0), so the deviations from the (double) means are
/// long-double differences too, not rounded to doubles.
/// The sum runs in the FPU's registers (`ldouble::sum_products`); the
/// rows `ind` drops are left out first.
fn cross(x: &[f64], xm: f64, y: &[f64], ym: f64, ind: Option<&[bool]>) -> LongDouble {
    let (xm, ym) = (ld(xm), ld(ym));
    match ind {
        None => ldouble::sum_products(x, xm, y, ym),
        Some(ind) => {
            let (kx, ky): (Vec<f64>, Vec<f64>) = (0..x.len())
                .filter(|&k| ind[k])
                .map(|k| (x[k], y[k]))
                .unzip();
            ldouble::sum_products(&kx, xm, &ky, ym)
        }
    }
}

/// Kendall's Σ sign(x_k − x_l) sign(y_k − y_l) over all ordered pairs.
fn kendall_sum(x: &[f64], y: &[f64], ind: Option<&[bool]>) -> LongDouble {
    let n = x.len();
    let mut s = LongDouble::ZERO;
    for k in 0..n {
        if ind.is_some_and(|i| !i[k]) {
            continue;
        }
        for l in 0..n {
            if ind.is_some_and(|i| !i[l]) {
                continue;
            }
            s = s.add(ld(sign(x[k] - x[l]) * sign(y[k] - y[l])));
        }
    }
    s
}

struct Out {
    ans: Vec<f64>,
    sd_0: bool,
}

/// `use =` after `pmatch`: 1 all.obs … 5 na.or.complete.
fn use_code(args: &Args<&Value>) -> Result<u8, KernelError> {
    const USES: [&str; 5] = [
        "all.obs",
        "complete.obs",
        "pairwise.complete.obs",
        "everything",
        "na.or.complete",
    ];
    let u = match args.get("use") {
        None => return Ok(4),
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
        for i in 0..ncx {
            for j in 0..ncy {
                if y.is_none() && j > i {
                    continue;
                }
                let v = pairwise_body(x.col(i), yy.col(j), kendall, cor, &mut sd_0);
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
    let indr = ind.as_deref();
    let n1 = nobs - 1;
    let means = |d: &Data, na: &[bool]| -> Vec<f64> {
        (0..d.nc)
            .map(|j| {
                if na[j] || kendall {
                    NA
                } else {
                    mean_of(d.col(j), indr)
                }
            })
            .collect()
    };
    let xm = means(x, &xna);
    let ym = if y.is_some() {
        means(yy, &yna)
    } else {
        xm.clone()
    };
    for i in 0..ncx {
        for j in 0..ncy {
            if y.is_none() && j > i {
                continue;
            }
            if xna[i] || yna[j] {
                continue;
            }
            let s = if kendall {
                kendall_sum(x.col(i), yy.col(j), indr).to_f64()
            } else {
                cross(x.col(i), xm[i], yy.col(j), ym[j], indr)
                    .div_count(n1)
                    .to_f64()
            };
            ans[i + j * ncx] = s;
            if y.is_none() {
                ans[j + i * ncx] = s;
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
                            let mut s = 0.0f64;
                            for k in 0..c.len() {
                                if indr.is_some_and(|i| !i[k]) {
                                    continue;
                                }
                                for l in 0..c.len() {
                                    if indr.is_none_or(|i| i[l]) && c[k] != c[l] {
                                        s += 1.0;
                                    }
                                }
                            }
                            s.sqrt()
                        } else {
                            sqrt_ld(cross(c, m[j], c, m[j], indr).div_count(n1))
                        }
                    })
                    .collect()
            };
            let sx = sdev(x, &xm, &xna);
            let sy = sdev(yy, &ym, &yna);
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

/// cov.c's `COV_PAIRWISE_BODY` for one pair of columns.
fn pairwise_body(xx: &[f64], yy: &[f64], kendall: bool, cor: bool, sd_0: &mut bool) -> f64 {
    let ok: Vec<bool> = xx
        .iter()
        .zip(yy)
        .map(|(a, b)| !a.is_nan() && !b.is_nan())
        .collect();
    let nobs = ok.iter().filter(|&&k| k).count();
    if nobs < 2 {
        return NA;
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
            *sd_0 = true;
            return NA;
        }
        let (mut s, mut a, mut b) = (sum, xsd, ysd);
        if !kendall {
            s = s.div_count(nobs - 1);
            a = a.div_count(nobs - 1);
            b = b.div_count(nobs - 1);
        }
        // COV_PAIRWISE_BODY: `sum /= (SQRTL(xsd) * SQRTL(ysd))`, all long
        // double, so a column with itself is exactly 1 as in R.
        clamp(s.div(a.sqrt().mul(b.sqrt())).to_f64())
    } else if !kendall {
        sum.div_count(nobs - 1).to_f64()
    } else {
        sum.to_f64()
    }
}

/// R's `cor()` / `cov()` at the R level.
fn cor_or_cov(args: &Args<&Value>, ctx: &mut Ctx, is_cor: bool) -> Result<Value, KernelError> {
    let use_ = use_code(args)?;
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
    for i in 0..x.nc {
        for j in 0..yy.nc {
            if y.is_none() && j > i {
                continue;
            }
            let (a, b) = (x.col(i), yy.col(j));
            let ok: Vec<bool> = a
                .iter()
                .zip(b)
                .map(|(u, v)| !u.is_nan() && !v.is_nan())
                .collect();
            let v = if ok.iter().any(|&k| k) {
                let pick = |c: &[f64]| -> Vec<f64> {
                    c.iter()
                        .zip(&ok)
                        .filter(|(_, &k)| k)
                        .map(|(&v, _)| v)
                        .collect()
                };
                let (ra, rb) = (
                    crate::kernels::htest::rank(&pick(a)),
                    crate::kernels::htest::rank(&pick(b)),
                );
                let da = Data {
                    n: ra.len(),
                    v: ra,
                    nc: 1,
                    matrix: false,
                };
                let db = Data {
                    n: rb.len(),
                    v: rb,
                    nc: 1,
                    matrix: false,
                };
                let o = corcov(&da, Some(&db), 1, kendall, true)?;
                sd_0 |= o.sd_0;
                o.ans[0]
            } else {
                NA
            };
            ans[i + j * x.nc] = v;
            if y.is_none() {
                ans[j + i * x.nc] = v;
            }
        }
    }
    Ok(Out { ans, sd_0 })
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
        _ => None,
    }
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(m) = args.const_str("method") {
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
            if !xmat {
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
                    return Err(args.error("y", "incompatible dimensions"));
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
        v: x.to_vec(),
        n: x.len(),
        nc: 1,
        matrix: false,
    };
    corcov(&d, None, 4, false, false).map_or(NA, |o| o.ans[0])
}

/// R's `cor(x, y, method = "kendall")` of two vectors without NA.
pub(crate) fn kendall_xy(x: &[f64], y: &[f64]) -> f64 {
    let d = |v: &[f64]| Data {
        v: rank_keep(v),
        n: v.len(),
        nc: 1,
        matrix: false,
    };
    corcov(&d(x), Some(&d(y)), 4, true, true).map_or(NA, |o| o.ans[0])
}

/// `cor(x, y)` of two vectors, warning as R does when an sd is zero.
pub(crate) fn cor_or_na(x: &[f64], y: &[f64], ctx: &mut Ctx) -> f64 {
    let d = |v: &[f64]| Data {
        v: v.to_vec(),
        n: v.len(),
        nc: 1,
        matrix: false,
    };
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
