//! R's `acf(x, lag.max, type, plot, na.action, demean)` and
//! `pacf(x, lag.max, plot, na.action)`: the sample auto-correlations (or
//! covariances) of a series or of each pair of a matrix's columns, by
//! stats/src/filter.c's `acf0`, and the partial auto-correlations of one
//! series by pacf.c's `uni_pacf` (Durbin-Levinson). No plot is drawn
//! (`plot` is accepted and ignored, as with `plot = FALSE`).
//!
//! The result is R's `acf` object. R's `acf` and `lag` fields are arrays
//! of lag × series × series; flowcast's values have no third dimension,
//! so they are matrices of one row per lag and one column per pair of
//! series, in R's order (series² columns: column u + nser·v holds R's
//! `[, u, v]`), which for one series is R's array without its last
//! dimension. `series`, which R deparses from the call, is added by the
//! evaluator, as `data.name` is for tests. `snames` are R's for a matrix
//! without column names ("Series 1", …): the kernel never sees a
//! matrix's or data frame's column names. `na.action` may only be left
//! as R's default, `na.fail`.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::bare;
use super::summary::ldouble;
use super::ts::{frequency_of, has_tsp};
use super::value::{List, Value, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "acf",
        params: &[
            req("x"),
            opt("lag.max"),
            opt("type"),
            opt("plot"),
            opt("na.action"),
            opt("demean"),
            DOTS,
        ],
        random: false,
        shape: acf_shape,
        eval: acf_eval,
    },
    Kernel {
        name: "pacf",
        params: &[
            req("x"),
            opt("lag.max"),
            opt("plot"),
            opt("na.action"),
            DOTS,
        ],
        random: false,
        shape: acf_shape,
        eval: pacf_eval,
    },
    Kernel {
        name: "ccf",
        params: &[
            req("x"),
            req("y"),
            opt("lag.max"),
            opt("type"),
            opt("plot"),
            opt("na.action"),
            DOTS,
        ],
        random: false,
        shape: ccf_shape,
        eval: ccf_eval,
    },
];

const TYPES: &[&str] = &["correlation", "covariance", "partial"];

/// R's `match.arg(arg)` against `choices` (the formal's default when not
/// given).
pub(crate) fn match_arg(
    v: Option<&Value>,
    choices: &[&'static str],
) -> Result<&'static str, KernelError> {
    let wrong = || {
        let quoted: Vec<String> = choices
            .iter()
            .map(|c| format!("\u{201c}{c}\u{201d}"))
            .collect();
        KernelError::new(format!("'arg' should be one of {}", quoted.join(", ")))
    };
    let given = match v.map(bare) {
        None | Some(Value::Null) => return Ok(choices[0]),
        Some(Value::Str(s)) => s,
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    if given.len() == choices.len() && given.iter().zip(choices).all(|(g, c)| g == c) {
        return Ok(choices[0]);
    }
    let [given] = given.as_slice() else {
        return Err(KernelError::new("'arg' must be of length 1"));
    };
    if let Some(c) = choices.iter().find(|c| *c == given) {
        return Ok(c);
    }
    let mut partial = choices
        .iter()
        .filter(|c| !given.is_empty() && c.starts_with(given.as_str()));
    match (partial.next(), partial.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(wrong()),
    }
}

/// `na.action(as.ts(x))` then `as.matrix(x)` and the numeric check, as
/// acf, pacf and ar.yw do them; `na_pass` for Box.test's `na.pass`.
pub(crate) fn series_matrix(x: Option<&Value>, na_pass: bool) -> Result<DMatrix<f64>, KernelError> {
    let no_obs = || KernelError::new("'ts' object must have one or more observations");
    let not_numeric = || KernelError::new("'x' must be numeric");
    let has_na = |v: &Value| match v {
        Value::Num(x) => x.iter().any(|v| v.is_nan()),
        Value::Mat(m) => m.iter().any(|v| v.is_nan()),
        Value::Bool(b) => b.iter().any(Option::is_none),
        Value::BoolMat(b) => b.iter().any(Option::is_none),
        Value::Str(s) => s.iter().any(|s| s == "NA"),
        Value::Factor(f) => f.codes.iter().any(Option::is_none),
        _ => false,
    };
    let v = bare(x.unwrap_or(&Value::Null));
    if v.is_empty() || matches!(v, Value::Null) {
        return Err(no_obs());
    }
    if !na_pass && has_na(v) {
        return Err(KernelError::new("missing values in object"));
    }
    match v {
        Value::Num(x) => Ok(DMatrix::from_column_slice(x.len(), 1, x)),
        Value::Mat(m) => Ok(m.clone()),
        // A factor's series is its codes.
        Value::Factor(f) => {
            let codes: Vec<f64> = f
                .codes
                .iter()
                .map(|c| c.map_or(NA, |c| f64::from(c) + 1.0))
                .collect();
            Ok(DMatrix::from_column_slice(codes.len(), 1, &codes))
        }
        _ => Err(not_numeric()),
    }
}

/// `colMeans(x, na.rm = TRUE)`: long double sums of each column's
/// non-missing values over their count.
pub(crate) fn col_means(x: &DMatrix<f64>) -> Vec<f64> {
    x.column_iter()
        .map(|c| {
            let kept: Vec<f64> = c.iter().copied().filter(|v| !v.is_nan()).collect();
            ldouble::sum(&kept).div_count(kept.len()).to_f64()
        })
        .collect()
}

/// `sweep(x, 2, m)`.
pub(crate) fn sweep(x: &mut DMatrix<f64>, m: &[f64]) {
    for (j, mut col) in x.column_iter_mut().enumerate() {
        col.iter_mut().for_each(|v| *v -= m[j]);
    }
}

/// filter.c's `acf0(x, n, ns, nl, correlation, acf)`: lags 0..=nl of
/// every pair of columns, over the pairs of values neither of which is
/// missing, each sum divided by its count plus the lag; correlations
/// scaled by the lag-0 standard deviations and kept within [-1, 1].
pub(crate) fn acf0(x: &DMatrix<f64>, nl: usize, correlation: bool) -> Vec<f64> {
    let (n, ns) = x.shape();
    let d1 = nl + 1;
    let d2 = ns * d1;
    let x = x.as_slice();
    let mut acf = vec![0.0; d1 * ns * ns];
    for u in 0..ns {
        for v in 0..ns {
            for lag in 0..=nl {
                let mut sum = 0.0;
                let mut nu = 0usize;
                for i in 0..n.saturating_sub(lag) {
                    let (a, b) = (x[i + lag + n * u], x[i + n * v]);
                    if !a.is_nan() && !b.is_nan() {
                        nu += 1;
                        sum += a * b;
                    }
                }
                acf[lag + d1 * u + d2 * v] = if nu > 0 { sum / (nu + lag) as f64 } else { NA };
            }
        }
    }
    if correlation {
        if n == 1 {
            for u in 0..ns {
                acf[d1 * u + d2 * u] = 1.0;
            }
        } else {
            let se: Vec<f64> = (0..ns).map(|u| acf[d1 * u + d2 * u].sqrt()).collect();
            for u in 0..ns {
                for v in 0..ns {
                    for lag in 0..=nl {
                        let a = acf[lag + d1 * u + d2 * v] / (se[u] * se[v]);
                        // ensure correlations remain in [-1, 1] (NaN stays NaN)
                        acf[lag + d1 * u + d2 * v] = a.clamp(-1.0, 1.0);
                    }
                }
            }
        }
    }
    acf
}

/// pacf.c's `uni_pacf(cor, p, nlag)`: Durbin-Levinson on the
/// autocorrelations `cor` (lag 0 first), the partial ones for lags
/// 1..=nlag.
pub(crate) fn uni_pacf(cor: &[f64], nlag: usize) -> Vec<f64> {
    let mut p = vec![0.0; nlag];
    let mut v = vec![0.0; nlag];
    let mut w = vec![0.0; nlag];
    w[0] = cor[1];
    p[0] = cor[1];
    for ll in 1..nlag {
        let mut a = cor[ll + 1];
        let mut b = 1.0;
        for i in 0..ll {
            a -= w[i] * cor[ll - i];
            b -= w[i] * cor[i + 1];
        }
        let c = a / b;
        p[ll] = c;
        if ll + 1 == nlag {
            break;
        }
        w[ll] = c;
        for i in 0..ll {
            v[ll - i - 1] = w[i];
        }
        for i in 0..ll {
            w[i] -= c * v[i];
        }
    }
    p
}

/// `lag.max` as given: NULL, or its numbers (R takes the least).
fn lag_max_arg(args: &Args<&Value>) -> Result<Option<f64>, KernelError> {
    match args.get("lag.max") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            let s = v
                .as_f64_slice()
                .ok_or_else(|| KernelError::new("'lag.max' must be at least 0"))?;
            // min(lag.max, …): NA when any is, +Inf when empty.
            Ok(Some(s.iter().copied().fold(f64::INFINITY, |m, x| {
                if x.is_nan() || m.is_nan() {
                    f64::NAN
                } else {
                    m.min(x)
                }
            })))
        }
    }
}

/// Refuses an `na.action` other than R's default (flowcast has no
/// function values for it).
fn na_action_default(args: &Args<&Value>) -> Result<(), KernelError> {
    if args.has("na.action") {
        return Err(KernelError::new(format!(
            "flowcast's {} takes only R's default na.action (na.fail)",
            args.func
        )));
    }
    Ok(())
}

/// acf's computation once `x` is a matrix: the lag.max R settles on and
/// the acf values.
pub(crate) fn acf_values(
    mut x: DMatrix<f64>,
    lag_max: Option<f64>,
    correlation: bool,
    demean: bool,
) -> Result<(usize, Vec<f64>), KernelError> {
    let (sample_t, nser) = x.shape();
    let lag_max = lag_max
        .unwrap_or_else(|| (10.0 * ((sample_t as f64).log10() - (nser as f64).log10())).floor());
    // as.integer(min(lag.max, sampleT - 1L)): NA stays NA.
    let lag_max = if lag_max.is_nan() {
        lag_max
    } else {
        lag_max.min(sample_t as f64 - 1.0)
    };
    if lag_max.is_nan() || lag_max.trunc() < 0.0 || lag_max >= 2147483648.0 {
        return Err(KernelError::new("'lag.max' must be at least 0"));
    }
    let lag_max = lag_max.trunc() as usize;
    if demean {
        let m = col_means(&x);
        sweep(&mut x, &m);
    }
    Ok((lag_max, acf0(&x, lag_max, correlation)))
}

/// R's `acf` object.
fn acf_object(
    acf: Vec<f64>,
    lags: Vec<f64>,
    rows: usize,
    nser: usize,
    ty: &str,
    n_used: usize,
    snames: Value,
) -> Value {
    let cols = nser * nser;
    Value::List(List::record(
        "acf",
        vec![
            ("acf", Value::Mat(DMatrix::from_vec(rows, cols, acf))),
            ("type", Value::string(ty)),
            ("n.used", Value::scalar(n_used as f64)),
            ("lag", Value::Mat(DMatrix::from_vec(rows, cols, lags))),
            ("snames", snames),
        ],
    ))
}

fn acf_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let ty = match_arg(args.get("type"), TYPES)?;
    if ty == "partial" {
        return pacf_eval(args, ctx);
    }
    na_action_default(args)?;
    let x = series_matrix(args.get("x"), false)?;
    let (sample_t, nser) = x.shape();
    let lag_max = lag_max_arg(args)?;
    let demean = match args.get("demean") {
        Some(v) if v.as_flag().is_none() => {
            return Err(KernelError::new("missing value where TRUE/FALSE needed"))
        }
        Some(v) => v.as_flag() == Some(true),
        None => true,
    };
    let (lag_max, acf) = acf_values(x, lag_max, ty == "correlation", demean)?;
    // lag <- outer(0:lag.max, lag/x.freq): +1 on and above the diagonal
    // of series × series, -1 below, in units of the series' time.
    let freq = args.get("x").map_or(1.0, frequency_of);
    let rows = lag_max + 1;
    let mut lags = Vec::with_capacity(acf.len());
    for v in 0..nser {
        for u in 0..nser {
            let sign = if u > v { -1.0 } else { 1.0 };
            lags.extend((0..rows).map(|l| l as f64 * (sign / freq)));
        }
    }
    // as.ts names a matrix's unnamed columns "Series 1", "Series 2", …
    let snames = if nser > 1 {
        Value::Str((1..=nser).map(|i| format!("Series {i}")).collect())
    } else {
        Value::Null
    };
    Ok(acf_object(acf, lags, rows, nser, ty, sample_t, snames))
}

fn pacf_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    na_action_default(args)?;
    let x = series_matrix(args.get("x"), false)?;
    let (sample_t, ncol) = x.shape();
    if ncol > 1 {
        return Err(KernelError::new(
            "flowcast's pacf takes one series (R's multivariate pacf, by ar.yw, is not ported)",
        ));
    }
    let lag_max = lag_max_arg(args)?
        .unwrap_or_else(|| (10.0 * (sample_t as f64 / ncol as f64).log10()).floor());
    let lag_max = if lag_max.is_nan() {
        lag_max
    } else {
        lag_max.min(sample_t as f64 - 1.0)
    };
    if lag_max.is_nan() || lag_max < 1.0 {
        return Err(KernelError::new("'lag.max' must be at least 1"));
    }
    // x <- scale(x, TRUE, FALSE), then acf demeans it once more.
    let mut x = x;
    let m = col_means(&x);
    sweep(&mut x, &m);
    let (nl, acf) = acf_values(x, Some(lag_max), true, true)?;
    let nlag = lag_max.trunc() as usize;
    let mut cor = acf;
    cor.resize(nlag.max(nl) + 1, NA);
    let pacf = uni_pacf(&cor, nlag);
    // lag = (1:lag.max)/xfreq
    let freq = args.get("x").map_or(1.0, frequency_of);
    let lags: Vec<f64> = (1..=nlag).map(|l| l as f64 / freq).collect();
    Ok(acf_object(
        pacf,
        lags,
        nlag,
        1,
        "partial",
        sample_t,
        Value::Null,
    ))
}

/// R's `ccf`: acf of `ts.intersect(as.ts(x), as.ts(y))` (the times the
/// two have in common; plain vectors both start at time 1), then the
/// cross-correlations of y leading x (R's `[-1, 2, 1]`, reversed) and of x
/// leading y (`[, 1, 2]`). `series` is acf's own "X" (ccf calls acf on its
/// local `X`); `snames`, "x & y" as written, is added by the evaluator.
fn ccf_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let ty = match_arg(args.get("type"), &TYPES[..2])?;
    let is_matrix =
        |v: Option<&Value>| matches!(v.map(bare), Some(Value::Mat(_) | Value::BoolMat(_)));
    if is_matrix(args.get("x")) || is_matrix(args.get("y")) {
        return Err(KernelError::new("univariate time series only"));
    }
    na_action_default(args)?;
    let x = series_matrix(args.get("x"), true)?;
    let y = series_matrix(args.get("y"), true)?;
    let (n, ox, oy, freq) = intersect(args.get("x"), x.nrows(), args.get("y"), y.nrows())?;
    let mut both = DMatrix::zeros(n, 2);
    both.column_mut(0).copy_from(&x.column(0).rows(ox, n));
    both.column_mut(1).copy_from(&y.column(0).rows(oy, n));
    // na.fail(X): only the intersected values count.
    if both.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new("missing values in object"));
    }
    let lag_max = lag_max_arg(args)?;
    let (nl, acf) = acf_values(both, lag_max, ty == "correlation", true)?;
    let d1 = nl + 1;
    // acf[lag + d1 * u + 2 * d1 * v] is R's acf[lag, u, v].
    let mut out: Vec<f64> = (1..d1).rev().map(|l| acf[l + d1]).collect();
    out.extend((0..d1).map(|l| acf[l + 2 * d1]));
    // acf's lags, l * (±1 / frequency), reversed and joined.
    let lags: Vec<f64> = (-(nl as i64)..=nl as i64)
        .map(|l| l as f64 * (1.0 / freq))
        .collect();
    let rows = out.len();
    Ok(Value::List(List::record(
        "acf",
        vec![
            ("acf", Value::Mat(DMatrix::from_vec(rows, 1, out))),
            ("type", Value::string(ty)),
            ("n.used", Value::scalar(n as f64)),
            ("lag", Value::Mat(DMatrix::from_vec(rows, 1, lags))),
            ("series", Value::string("X")),
        ],
    )))
}

/// `ts.intersect(as.ts(x), as.ts(y))` (ts.R's `.cbind.ts` with `union =
/// FALSE`) for series of `nx` and `ny` rows: the rows in common, where
/// each series' part begins, and their frequency.
fn intersect(
    x: Option<&Value>,
    nx: usize,
    y: Option<&Value>,
    ny: usize,
) -> Result<(usize, usize, usize, f64), KernelError> {
    let tx = x.map_or([1.0, nx as f64, 1.0], has_tsp);
    let ty = y.map_or([1.0, ny as f64, 1.0], has_tsp);
    let ts_eps = 1e-5;
    if (tx[2] - ty[2]).abs() > ts_eps {
        return Err(KernelError::new("not all series have the same frequency"));
    }
    let freq = tx[2];
    let st = tx[0].max(ty[0]);
    let en = tx[1].min(ty[1]);
    if st > en + ts_eps / freq {
        // R warns "non-intersecting series", then fails naming columns.
        return Err(KernelError::new(
            "attempt to set 'colnames' on an object with less than two dimensions",
        ));
    }
    // Whole numbers of periods apart, as ts.R's checks require.
    let offset = |start: f64| ((st - start) * freq).round().max(0.0) as usize;
    let n = ((en - st) * freq).round() as usize + 1;
    let (ox, oy) = (offset(tx[0]), offset(ty[0]));
    if ox + n > nx || oy + n > ny {
        return Err(KernelError::new("non-intersecting series"));
    }
    Ok((n, ox, oy, freq))
}

fn ccf_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("y") {
        if matches!(t, Type::Str { .. } | Type::Bool { .. } | Type::List { .. }) {
            return Err(args.error("y", "'x' must be numeric"));
        }
    }
    acf_shape(args, ctx)?;
    let Type::Record { class, mut fields } = acf_type() else {
        unreachable!("acf_type is a record")
    };
    fields.push((
        "snames".into(),
        Type::Str {
            len: Some(1),
            value: None,
        },
    ));
    Ok(Type::Record { class, fields })
}

fn acf_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("x") {
        if matches!(t, Type::Str { .. } | Type::Bool { .. } | Type::List { .. }) {
            return Err(args.error("x", "'x' must be numeric"));
        }
    }
    Ok(acf_type())
}

/// The type of an `acf` object (`series` added by the evaluator).
pub(crate) fn acf_type() -> Type {
    let mat = || Type::Mat {
        rows: None,
        cols: None,
    };
    Type::record(
        "acf",
        vec![
            ("acf", mat()),
            (
                "type",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
            ("n.used", Type::num(1)),
            ("lag", mat()),
            (
                "series",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
        ],
    )
}
