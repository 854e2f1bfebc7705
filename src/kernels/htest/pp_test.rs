//! R's `PP.test(x, lshort)` (stats/R/PP.test.R): the Phillips-Perron
//! unit root test. The regression `lm(yt ~ 1 + u + yt1)` goes through the
//! same `dqrls` as lm, the standard error through summary.lm's
//! `chol2inv`, the long-run variance through stats/src/PPsum.c's
//! `R_pp_sum`, and the p-value is R's two `approx(rule = 2)`
//! interpolations in the Dickey-Fuller table.

use super::super::approx::{approx1, Method};
use super::super::args::ArgError;
use super::super::linalg::la_chol2inv;
use super::super::linalg::linpack::dqrls;
use super::super::summary::ldouble;
use super::super::value::{List, Value, NA};
use super::super::{Args, Ctx, KernelError, ShapeCtx, Type};

/// PPsum.c's `R_pp_sum(u, n, l)`.
fn r_pp_sum(u: &[f64], l: usize) -> f64 {
    let n = u.len();
    let mut tmp1 = 0.0;
    for i in 1..=l {
        let mut tmp2 = 0.0;
        for j in i..n {
            tmp2 += u[j] * u[j - i];
        }
        tmp2 *= 1.0 - i as f64 / (l as f64 + 1.0);
        tmp1 += tmp2;
    }
    2.0 * tmp1 / n as f64
}

/// `approx(x, y, v, rule = 2)$y` over `x` already sorted and distinct.
fn approx_rule2(x: &[f64], y: &[f64], v: f64) -> f64 {
    if v.is_nan() {
        return NA;
    }
    let m = Method {
        ylow: y[0],
        yhigh: y[y.len() - 1],
        f1: 0.0,
        f2: 0.0,
        kind: 1,
    };
    approx1(v, x, y, &m)
}

/// `sum()` in long double.
fn lsum(v: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = v.collect();
    ldouble::sum(&v).to_f64()
}

const TABLE: [[f64; 6]; 8] = [
    [4.38, 4.15, 4.04, 3.99, 3.98, 3.96],
    [3.95, 3.8, 3.73, 3.69, 3.68, 3.66],
    [3.6, 3.5, 3.45, 3.43, 3.42, 3.41],
    [3.24, 3.18, 3.15, 3.13, 3.13, 3.12],
    [1.14, 1.19, 1.22, 1.23, 1.24, 1.25],
    [0.8, 0.87, 0.9, 0.92, 0.93, 0.94],
    [0.5, 0.58, 0.62, 0.64, 0.65, 0.66],
    [0.15, 0.24, 0.28, 0.31, 0.32, 0.33],
];

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args.get("x").unwrap_or(&Value::Null);
    if xv.dims().is_some_and(|(_, c)| c > 1) {
        return Err(KernelError::new(
            "x is not a vector or univariate time series",
        ));
    }
    let x = match xv {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::Named(_) => xv
            .as_f64_slice()
            .ok_or_else(|| KernelError::new("'x' must be numeric"))?
            .into_owned(),
        Value::Null => Vec::new(),
        _ => {
            return Err(KernelError::new(
                "flowcast's PP.test takes a numeric series",
            ))
        }
    };
    let lshort = match args.get("lshort") {
        None => true,
        Some(v) => super::super::logical::if_condition(v)?,
    };
    // embed(x, 2)
    if x.len() < 2 {
        return Err(KernelError::new("wrong embedding dimension"));
    }
    if x.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new(
            "flowcast's PP.test takes a series without NA",
        ));
    }
    let yt = &x[1..];
    let yt1 = &x[..x.len() - 1];
    let n = yt.len();
    let nf = n as f64;
    let u: Vec<f64> = (1..=n).map(|i| i as f64 - nf / 2.0).collect();
    let mut mm = vec![1.0; n];
    mm.extend_from_slice(&u);
    mm.extend_from_slice(yt1);
    if mm.iter().chain(yt).any(|v| !v.is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'x'"));
    }
    let fit = dqrls(mm, n, 3, yt, 1e-7);
    if fit.qr.rank < 3 {
        return Err(KernelError::new("singularities in regression"));
    }
    // The pivot is the identity at full rank: coefficient 3 is yt1's.
    let resvar = lsum(fit.residuals.iter().map(|r| r * r)) / (nf - 3.0);
    let cov = la_chol2inv(&fit.qr.qr, fit.qr.n, 3)?;
    let se = (cov[8] * resvar).sqrt();
    let tstat = (fit.coef[2] - 1.0) / se;
    let res = &fit.residuals;
    let ssqru = lsum(res.iter().map(|r| r * r)) / nf;
    let l = if lshort {
        (4.0 * (nf / 100.0).powf(0.25)).trunc()
    } else {
        (12.0 * (nf / 100.0).powf(0.25)).trunc()
    };
    let ssqrtl = ssqru + r_pp_sum(res, l as usize);
    let n2 = nf * nf;
    let s_sq = lsum(yt1.iter().map(|v| v * v));
    let s_t = lsum(yt1.iter().enumerate().map(|(i, v)| v * (i + 1) as f64));
    let s = lsum(yt1.iter().copied());
    let trm1 = n2 * (n2 - 1.0) * s_sq / 12.0;
    let trm2 = nf * (s_t * s_t);
    let trm3 = nf * (nf + 1.0) * s_t * s;
    let trm4 = (nf * (nf + 1.0) * (2.0 * nf + 1.0) * (s * s)) / 6.0;
    let dx = trm1 - trm2 + trm3 - trm4;
    let stat = ssqru.sqrt() / ssqrtl.sqrt() * tstat
        - nf.powf(3.0) / (4.0 * 3f64.sqrt() * dx.sqrt() * ssqrtl.sqrt()) * (ssqrtl - ssqru);
    let table_t = [25.0, 50.0, 100.0, 250.0, 500.0, 1e5];
    let tablep = [0.01, 0.025, 0.05, 0.1, 0.9, 0.95, 0.975, 0.99];
    let tableipl: Vec<f64> = TABLE
        .iter()
        .map(|col| {
            let col: Vec<f64> = col.iter().map(|v| -v).collect();
            approx_rule2(&table_t, &col, nf)
        })
        .collect();
    let pval = approx_rule2(&tableipl, &tablep, stat);
    Ok(Value::List(List::record(
        "htest",
        vec![
            ("statistic", super::nm(stat, "Dickey-Fuller")),
            ("parameter", super::nm(l, "Truncation lag parameter")),
            ("p.value", Value::scalar(pval)),
            ("method", Value::string("Phillips-Perron Unit Root Test")),
        ],
    )))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Str { .. } | Type::List { .. })) = args.ty("x") {
        return Err(args.error(
            "x",
            format!(
                "flowcast's PP.test takes a numeric series, not {}",
                t.describe()
            ),
        ));
    }
    Ok(super::htest_type_no_alt())
}
