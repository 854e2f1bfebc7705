//! `HoltWinters(x, alpha, beta, gamma, seasonal, start.periods, l.start,
//! b.start, s.start)`: R's Holt-Winters filtering, HoltWinters.R over a
//! port of HoltWinters.c's `HoltWinters`, and `predict(fit, n.ahead)` of
//! its value (predict.HoltWinters without prediction intervals).
//!
//! Start values are R's: decompose of the first `start.periods` periods
//! and `.lm.fit` (LINPACK dqrls) of a line through its trend. A single
//! free parameter is found by `optimize` on [0, 1] as R does (Brent_fmin);
//! R finds two or three free ones by optim's L-BFGS-B, which flowcast
//! does not have, so such a call is refused: give all of alpha, beta and
//! gamma but one.

// The C indexes as written; it reads better against the original.
#![allow(clippy::needless_range_loop)]

use super::args::{ArgError, Args};
use super::names::{bare, named};
use super::ts::{self, series, with_tsp};
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "HoltWinters",
    params: &[
        req("x"),
        opt("alpha"),
        opt("beta"),
        opt("gamma"),
        opt("seasonal"),
        opt("start.periods"),
        opt("l.start"),
        opt("b.start"),
        opt("s.start"),
        opt("optim.start"),
        opt("optim.control"),
    ],
    random: false,
    shape,
    eval,
}];

pub(crate) const CLASS: &str = "HoltWinters";

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Record {
        class: CLASS.into(),
        fields: [
            "fitted",
            "x",
            "alpha",
            "beta",
            "gamma",
            "coefficients",
            "seasonal",
            "SSE",
        ]
        .iter()
        .map(|n| (n.to_string(), Type::Any))
        .collect(),
    })
}

fn err(msg: &str) -> KernelError {
    KernelError::new(msg)
}

/// The longest series HoltWinters takes.
const MAX_N: usize = 1 << 28;

/// alpha, beta or gamma as given: NULL (to estimate), FALSE (the
/// component left out), or a number (TRUE is 1, kept logical).
#[derive(Clone, Copy, PartialEq)]
enum Par {
    Free,
    Off,
    Num(f64),
    True,
}

impl Par {
    fn of(v: Option<&Value>, name: &str) -> Result<Par, KernelError> {
        match v.map(bare) {
            None | Some(Value::Null) => Ok(Par::Free),
            Some(Value::Bool(b)) if b.len() == 1 => match b[0] {
                Some(false) => Ok(Par::Off),
                Some(true) => Ok(Par::True),
                None => Err(err("missing value where TRUE/FALSE needed")),
            },
            Some(Value::Num(n)) if n.len() == 1 => {
                if n[0].is_nan() {
                    Err(err("missing value where TRUE/FALSE needed"))
                } else {
                    Ok(Par::Num(n[0]))
                }
            }
            Some(_) => Err(KernelError::new(format!(
                "flowcast's HoltWinters takes NULL, FALSE or one number as '{name}'"
            ))),
        }
    }

    /// Its value as a number (FALSE is 0).
    fn value(self) -> Option<f64> {
        match self {
            Par::Free => None,
            Par::Off => Some(0.0),
            Par::True => Some(1.0),
            Par::Num(v) => Some(v),
        }
    }

    /// `!is.logical(p) || p`: the component is fitted.
    fn on(self) -> bool {
        self != Par::Off
    }

    fn to_value(self) -> Value {
        match self {
            Par::Off => Value::Bool(vec![Some(false)]),
            Par::True => Value::Bool(vec![Some(true)]),
            Par::Num(v) => Value::Num(vec![v]),
            Par::Free => Value::Null,
        }
    }
}

/// What one run of the filter returns.
struct Filtered {
    sse: f64,
    level: Vec<f64>,
    trend: Vec<f64>,
    season: Vec<f64>,
}

/// The fixed inputs of the filter.
struct Setup<'a> {
    x: &'a [f64],
    start_time: usize,
    additive: bool,
    period: usize,
    dotrend: bool,
    doseasonal: bool,
    a: f64,
    b: f64,
    s: &'a [f64],
    len: usize,
}

/// `max(min(p, 1), 0)` as HoltWinters.R clamps each parameter.
fn clamp(p: f64) -> f64 {
    p.clamp(0.0, 1.0)
}

/// HoltWinters.c's `HoltWinters`.
fn filter(st: &Setup, alpha: f64, beta: f64, gamma: f64) -> Filtered {
    let (alpha, beta, gamma) = (clamp(alpha), clamp(beta), clamp(gamma));
    let len = st.len;
    let p = st.period;
    let mut level = vec![0.0; len + 1];
    let mut trend = vec![0.0; len + 1];
    let mut season = vec![0.0; len + p];
    level[0] = st.a;
    if st.dotrend {
        trend[0] = st.b;
    }
    if st.doseasonal && p > 0 {
        season[..p].copy_from_slice(&st.s[..p]);
    }
    let mut sse = 0.0;
    let seasonal_add = st.additive;
    for i in st.start_time - 1..st.x.len() {
        let i0 = i + 2 - st.start_time;
        let s0 = i0 + p - 1;
        let mut xhat = level[i0 - 1] + if st.dotrend { trend[i0 - 1] } else { 0.0 };
        let stmp = if st.doseasonal {
            season[s0 - p]
        } else if seasonal_add {
            0.0
        } else {
            1.0
        };
        if seasonal_add {
            xhat += stmp;
        } else {
            xhat *= stmp;
        }
        let res = st.x[i] - xhat;
        sse += res * res;
        level[i0] = if seasonal_add {
            alpha * (st.x[i] - stmp) + (1.0 - alpha) * (level[i0 - 1] + trend[i0 - 1])
        } else {
            alpha * (st.x[i] / stmp) + (1.0 - alpha) * (level[i0 - 1] + trend[i0 - 1])
        };
        if st.dotrend {
            trend[i0] = beta * (level[i0] - level[i0 - 1]) + (1.0 - beta) * trend[i0 - 1];
        }
        if st.doseasonal {
            season[s0] = if seasonal_add {
                gamma * (st.x[i] - level[i0]) + (1.0 - gamma) * stmp
            } else {
                gamma * (st.x[i] / level[i0]) + (1.0 - gamma) * stmp
            };
        }
    }
    Filtered {
        sse,
        level,
        trend,
        season,
    }
}

/// A start value: `as.double(v)`'s first element.
fn start_value(v: Option<&Value>, name: &str) -> Result<Option<Vec<f64>>, KernelError> {
    match v.map(bare) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64_slice() {
            Some(s) if !s.is_empty() && !matches!(v, Value::Mat(_)) => Ok(Some(s.to_vec())),
            _ => Err(KernelError::new(format!(
                "flowcast's HoltWinters takes a numeric '{name}'"
            ))),
        },
    }
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x_arg = args.get("x").unwrap_or(&Value::Null);
    if bare(x_arg).dims().is_some() {
        return Err(err("flowcast's HoltWinters takes one series, not a matrix"));
    }
    let (x, tsp) = series(x_arg, "HoltWinters")?;
    if x.is_empty() {
        return Err(err("'ts' object must have one or more observations"));
    }
    if x.len() > MAX_N {
        return Err(err(
            "flowcast refuses a series of more than 2^28 values for HoltWinters",
        ));
    }
    let kind = super::filter::choice(args.get("seasonal"), &["additive", "multiplicative"])?;
    let additive = kind == "additive";
    let f = tsp[2];
    let alpha = Par::of(args.get("alpha"), "alpha")?;
    let beta = Par::of(args.get("beta"), "beta")?;
    let gamma = Par::of(args.get("gamma"), "gamma")?;
    if alpha.value() == Some(0.0) {
        return Err(err(
            "cannot fit models without level ('alpha' must not be 0 or FALSE)",
        ));
    }
    if [alpha, beta, gamma]
        .iter()
        .filter_map(|p| p.value())
        .any(|v| !(0.0..=1.0).contains(&v))
    {
        return Err(err(
            "'alpha', 'beta' and 'gamma' must be within the unit interval",
        ));
    }
    let start_periods = match args.get("start.periods").map(bare) {
        None => 2.0,
        Some(v) => v
            .as_scalar()
            .filter(|v| !v.is_nan())
            .ok_or_else(|| err("flowcast's HoltWinters takes one number as 'start.periods'"))?,
    };
    if gamma == Par::Free || gamma.value().is_some_and(|g| g > 0.0) {
        if !additive {
            if x.contains(&0.0) {
                return Err(err("data must be non-zero for multiplicative Holt-Winters"));
            }
            if x.iter().any(|v| v.is_nan()) {
                return Err(err("missing value where TRUE/FALSE needed"));
            }
        }
        if start_periods < 2.0 {
            return Err(err(
                "need at least 2 periods to compute seasonal start values",
            ));
        }
    }
    let mut l_start = start_value(args.get("l.start"), "l.start")?.map(|v| v[0]);
    let mut b_start = start_value(args.get("b.start"), "b.start")?.map(|v| v[0]);
    let mut s_start = start_value(args.get("s.start"), "s.start")?;
    let start_time: f64;
    if gamma == Par::Off {
        let expsmooth = beta == Par::Off;
        let at = |i: usize| x.get(i).copied().unwrap_or(f64::NAN);
        if l_start.is_none() {
            l_start = Some(if expsmooth { at(0) } else { at(1) });
        }
        if b_start.is_none() && beta != Par::Off {
            b_start = Some(at(1) - at(0));
        }
        start_time = if expsmooth { 2.0 } else { 3.0 };
        s_start = Some(vec![0.0]);
    } else {
        start_time = f + 1.0;
        let wind = start_periods * f;
        if wind.is_nan() || wind > x.len() as f64 {
            return Err(err(
                "flowcast's HoltWinters needs start.periods whole periods of data",
            ));
        }
        let wind = wind as usize;
        let d = ts::decompose_parts(&x[..wind], f, additive, None)?;
        if l_start.is_none() || b_start.is_none() {
            let dat: Vec<f64> = d.trend.iter().copied().filter(|v| !v.is_nan()).collect();
            let n = dat.len();
            let mut design = vec![1.0; n];
            design.extend((1..=n).map(|i| i as f64));
            let fit = super::linalg::linpack::dqrls(design, n, 2, &dat, 1e-7);
            if l_start.is_none() {
                l_start = Some(fit.coef[0]);
            }
            if b_start.is_none() {
                b_start = Some(fit.coef[1]);
            }
        }
        if s_start.is_none() {
            s_start = Some(d.figure);
        }
    }
    let period = f as usize;
    let doseasonal = gamma.on();
    let s = s_start.unwrap_or_default();
    if doseasonal && s.len() < period {
        return Err(err(
            "flowcast refuses an 's.start' shorter than the period (R's C reads past it)",
        ));
    }
    let lenx = x.len() as f64;
    let len = lenx - start_time + 1.0;
    if len < 0.0 {
        return Err(err("flowcast's HoltWinters needs a longer series"));
    }
    let setup = Setup {
        x: &x,
        start_time: start_time as usize,
        additive,
        period,
        dotrend: beta.on(),
        doseasonal,
        a: l_start.unwrap_or(f64::NAN),
        b: b_start.unwrap_or(f64::NAN),
        s: &s,
        len: len as usize,
    };
    let free = [alpha, beta, gamma]
        .iter()
        .filter(|p| **p == Par::Free)
        .count();
    if free > 1 {
        return Err(err(
            "flowcast does not have optim's method \"L-BFGS-B\", by which R's HoltWinters \
             estimates two or three of alpha, beta and gamma: give all but one",
        ));
    }
    let tol = f64::EPSILON.powf(0.25);
    let value = |p: Par| p.value().unwrap_or(f64::NAN);
    let (alpha, beta, gamma) = if gamma == Par::Free {
        let g = super::optimize::brent_fmin(
            0.0,
            1.0,
            &mut |p| Ok(filter(&setup, value(alpha), value(beta), p).sse),
            tol,
        )?;
        (alpha, beta, Par::Num(g))
    } else if alpha == Par::Free {
        let a = super::optimize::brent_fmin(
            0.0,
            1.0,
            &mut |p| Ok(filter(&setup, p, value(beta), value(gamma)).sse),
            tol,
        )?;
        (Par::Num(a), beta, gamma)
    } else if beta == Par::Free {
        let b = super::optimize::brent_fmin(
            0.0,
            1.0,
            &mut |p| Ok(filter(&setup, value(alpha), p, value(gamma)).sse),
            tol,
        )?;
        (alpha, Par::Num(b), gamma)
    } else {
        (alpha, beta, gamma)
    };
    let fit = filter(&setup, value(alpha), value(beta), value(gamma));
    let len = setup.len;
    // fitted: xhat, level, trend, season; xhat = level + trend, then the
    // season added or multiplied.
    let level = &fit.level[..len];
    let mut cols: Vec<(&str, Vec<f64>)> = vec![("xhat", level.to_vec()), ("level", level.to_vec())];
    if beta.on() {
        cols.push(("trend", fit.trend[..len].to_vec()));
    }
    if gamma.on() {
        cols.push(("season", fit.season[..len].to_vec()));
    }
    let mut xhat = level.to_vec();
    if beta.on() {
        for (v, t) in xhat.iter_mut().zip(&fit.trend[..len]) {
            *v += t;
        }
    }
    if gamma.on() {
        for (v, s) in xhat.iter_mut().zip(&fit.season[..len]) {
            if additive {
                *v += s;
            } else {
                *v *= s;
            }
        }
    }
    cols[0].1 = xhat;
    let ncol = cols.len();
    let names: Vec<String> = cols.iter().map(|(n, _)| n.to_string()).collect();
    let data: Vec<f64> = cols.into_iter().flat_map(|(_, v)| v).collect();
    let fitted = if len > 0 {
        let m = Value::Mat(nalgebra::DMatrix::from_vec(len, ncol, data));
        let m = super::names::dimnamed(m, None, Some(names));
        // start(lag(x, k = 1 - start.time))
        let lagged = [
            tsp[0] + (start_time - 1.0) / f,
            tsp[1] + (start_time - 1.0) / f,
            f,
        ];
        with_tsp(m, ts::restart(lagged, len))
    } else {
        Value::Null
    };
    let mut coef = vec![fit.level[len]];
    let mut coef_names = vec!["a".to_string()];
    if beta.on() {
        coef.push(fit.trend[len]);
        coef_names.push("b".into());
    }
    if gamma.on() {
        for k in 1..=period {
            coef.push(fit.season[len + k - 1]);
            coef_names.push(format!("s{k}"));
        }
    }
    Ok(Value::List(List::record(
        CLASS,
        vec![
            ("fitted", fitted),
            ("x", with_tsp(Value::Num(x.clone()), tsp)),
            ("alpha", alpha.to_value()),
            ("beta", beta.to_value()),
            ("gamma", gamma.to_value()),
            ("coefficients", named(Value::Num(coef), coef_names)),
            ("seasonal", Value::string(kind)),
            ("SSE", Value::Num(vec![fit.sse])),
        ],
    )))
}

/// Whether `v` is a HoltWinters value.
pub(crate) fn is_holt_winters(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::List(l)) if l.class.as_deref() == Some(CLASS))
}

/// `predict(fit, n.ahead)` (predict.HoltWinters without prediction
/// intervals): the level, plus the trend times the steps ahead, with the
/// seasonal coefficients added or multiplied in turn. The value is R's
/// one-column matrix `fit`, without its tsp.
pub(crate) fn predict(
    object: &Value,
    n_ahead: Option<&Value>,
    interval: Option<&Value>,
) -> Result<Value, KernelError> {
    let Value::List(l) = object else {
        return Err(err("not a HoltWinters fit"));
    };
    if let Some(v) = interval {
        if bare(v).as_flag() != Some(false) {
            return Err(err(
                "flowcast's predict of a HoltWinters fit gives no prediction intervals",
            ));
        }
    }
    let n = match n_ahead.map(bare) {
        None => 1.0,
        Some(v) => v
            .as_scalar()
            .ok_or_else(|| err("flowcast takes one number as 'n.ahead'"))?,
    };
    // rep(a, n.ahead): as.integer(n.ahead) times.
    let n = n.trunc();
    if n.is_nan() || n < 0.0 {
        return Err(err("invalid 'times' argument"));
    }
    if n == 0.0 {
        return Err(err("'ts' object must have one or more observations"));
    }
    if n > 1e8 {
        return Err(err(
            "flowcast's predict of a HoltWinters fit takes an 'n.ahead' up to 1e8",
        ));
    }
    let n = n as usize;
    let field = |name: &str| l.field(name).map(bare);
    let coef: Vec<f64> = field("coefficients")
        .and_then(|v| v.as_f64_slice().map(|s| s.to_vec()))
        .ok_or_else(|| err("a HoltWinters fit without coefficients"))?;
    let on = |name: &str| !matches!(field(name), Some(Value::Bool(b)) if b == &[Some(false)]);
    let trend = on("beta");
    let seasonal = on("gamma");
    let additive = matches!(field("seasonal"), Some(Value::Str(s)) if s.first().map(String::as_str) == Some("additive"));
    let Some(&a) = coef.first() else {
        return Err(err("a HoltWinters fit without coefficients"));
    };
    let mut fit = vec![a; n];
    let skip = if trend { 2 } else { 1 };
    if trend {
        let b = coef.get(1).copied().unwrap_or(f64::NAN);
        for (h, v) in fit.iter_mut().enumerate() {
            *v += (h + 1) as f64 * b;
        }
    }
    if seasonal {
        let s = coef.get(skip..).unwrap_or(&[]);
        if s.is_empty() {
            return Err(err("a HoltWinters fit without seasonal coefficients"));
        }
        for (h, v) in fit.iter_mut().enumerate() {
            let sv = s[h % s.len()];
            if additive {
                *v += sv;
            } else {
                *v *= sv;
            }
        }
    }
    let m = Value::Mat(nalgebra::DMatrix::from_vec(n, 1, fit));
    Ok(super::names::dimnamed(m, None, Some(vec!["fit".into()])))
}
