//! R's `Box.test(x, lag, type, fitdf)` (stats/R/ts-tests.R): the
//! Box-Pierce or Ljung-Box portmanteau statistic over the first `lag`
//! autocorrelations (acf with `na.action = na.pass`), against a
//! chi-squared of `lag - fitdf` degrees of freedom.

use super::super::acf::{acf_values, match_arg, series_matrix};
use super::super::args::ArgError;
use super::super::nmath::pchisq;
use super::super::summary::ldouble;
use super::super::value::{Value, NA};
use super::super::{Args, Ctx, KernelError, ShapeCtx, Type};

const TYPES: &[&str] = &["Box-Pierce", "Ljung-Box"];

/// R's `from:to`.
fn colon(from: f64, to: f64) -> Vec<f64> {
    let n = (to - from).abs().floor() as usize + 1;
    let step = if from <= to { 1.0 } else { -1.0 };
    (0..n).map(|i| from + step * i as f64).collect()
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = series_matrix(args.get("x"), true);
    // NCOL(x) > 1 is checked before acf sees x.
    if let Some(Value::Mat(m)) = args.get("x") {
        if m.ncols() > 1 {
            return Err(KernelError::new(
                "x is not a vector or univariate time series",
            ));
        }
    }
    let ty = match_arg(args.get("type"), TYPES)?;
    let lag = match args.get("lag") {
        None => 1.0,
        Some(v) => match v.as_f64_slice().as_deref() {
            Some([l]) => *l,
            _ => {
                return Err(KernelError::new(
                    "flowcast's Box.test takes one number as 'lag'",
                ))
            }
        },
    };
    let fitdf = match args.get("fitdf") {
        None => 0.0,
        Some(v) => match v.as_f64_slice().as_deref() {
            Some([f]) => *f,
            _ => {
                return Err(KernelError::new(
                    "flowcast's Box.test takes one number as 'fitdf'",
                ))
            }
        },
    };
    let x = x?;
    let n = x.iter().filter(|v| !v.is_nan()).count() as f64;
    let (_, acf) = acf_values(x, Some(lag), true, true)?;
    if !lag.is_finite() {
        return Err(KernelError::new("result would be too long a vector"));
    }
    super::super::alloc::ensure_room(lag.abs() * 16.0)?;
    // obs <- cor$acf[2:(lag+1)]: NA past the lags acf computed.
    let obs: Vec<f64> = colon(2.0, lag + 1.0)
        .iter()
        .map(|&i| acf.get(i as usize - 1).copied().unwrap_or(NA))
        .collect();
    let df = lag - fitdf;
    let (method, statistic) = if ty == "Box-Pierce" {
        let sq: Vec<f64> = obs.iter().map(|o| o * o).collect();
        ("Box-Pierce test", n * ldouble::sum(&sq).to_f64())
    } else {
        let s = colon(n - 1.0, n - lag);
        let len = s.len().max(obs.len());
        let terms: Vec<f64> = (0..len)
            .map(|i| 1.0 / s[i % s.len()] * (obs[i % obs.len()] * obs[i % obs.len()]))
            .collect();
        (
            "Box-Ljung test",
            n * (n + 2.0) * ldouble::sum(&terms).to_f64(),
        )
    };
    let p = pchisq(statistic, df, true, false);
    if p.is_nan() && !statistic.is_nan() && !df.is_nan() {
        ctx.warn("NaNs produced");
    }
    Ok(Value::List(super::super::value::List::record(
        "htest",
        vec![
            ("statistic", super::nm(statistic, "X-squared")),
            ("parameter", super::nm(df, "df")),
            ("p.value", Value::scalar(1.0 - p)),
            ("method", Value::string(method)),
        ],
    )))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Str { .. } | Type::Bool { .. })) = args.ty("x") {
        return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())));
    }
    let s = || Type::Str {
        len: Some(1),
        value: None,
    };
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(1)),
            ("p.value", Type::num(1)),
            ("method", s()),
        ],
    ))
}
