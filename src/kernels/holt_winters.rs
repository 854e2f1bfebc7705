//! `HoltWinters(x, alpha, beta, gamma, seasonal, start.periods, l.start,
//! b.start, s.start, optim.start, optim.control)`: R's Holt-Winters
//! filtering, HoltWinters.R over a port of HoltWinters.c's `HoltWinters`,
//! and `predict(fit, n.ahead)` of its value (predict.HoltWinters without
//! prediction intervals).
//!
//! Start values are R's: decompose of the first `start.periods` periods
//! and `.lm.fit` (LINPACK dqrls) of a line through its trend. The free
//! parameters (those left NULL) are found as R finds them: one by
//! `optimize` on [0, 1] (Brent_fmin), two or three by `optim(...,
//! method = "L-BFGS-B", lower = 0, upper = 1, control = optim.control)`
//! from `optim.start` (flowcast's port of optim.c and lbfgsb.c), with R's
//! "optimization failure" when optim does not converge and its warning
//! "optimization difficulties" when L-BFGS-B reports an error (code 51
//! or 52). Every run of the filter refuses a non-finite argument, as
//! `.C` does.

// The C indexes as written; it reads better against the original.
#![allow(clippy::needless_range_loop)]

use super::args::{ArgError, Args};
use super::names::{bare, named};
use super::ts::{self, series, with_tsp};
use super::value::{List, NA};
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

    /// The parameter as the fit keeps it; an estimate by optim carries
    /// the name its start value had.
    fn to_value(self, name: Option<String>) -> Value {
        match (self, name) {
            (Par::Off, _) => Value::Bool(vec![Some(false)]),
            (Par::True, _) => Value::Bool(vec![Some(true)]),
            (Par::Num(v), Some(n)) => named(Value::Num(vec![v]), vec![n]),
            (Par::Num(v), None) => Value::Num(vec![v]),
            (Par::Free, _) => Value::Null,
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
    /// Whether every value of `x` is finite (`.C`'s argument 1).
    x_finite: bool,
    /// The first of `.C`'s arguments 11 to 13 (`a`, `b`, `s`: the start
    /// values, whole) with a non-finite value.
    starts_bad: Option<u32>,
}

/// `max(min(p, 1), 0)` as HoltWinters.R clamps each parameter.
fn clamp(p: f64) -> f64 {
    p.clamp(0.0, 1.0)
}

/// `.C`'s refusal (NAOK = FALSE) of a double argument holding a
/// non-finite value, in the order of hw's arguments: R checks them before
/// the C runs, so a NA start value or parameter is an error, not a NA SSE.
fn c_args_finite(st: &Setup, alpha: f64, beta: f64, gamma: f64) -> Result<(), KernelError> {
    let bad = |arg: u32| {
        Err(KernelError::new(format!(
            "NA/NaN/Inf in foreign function call (arg {arg})"
        )))
    };
    if !st.x_finite {
        return bad(1);
    }
    for (arg, p) in [(3, alpha), (4, beta), (5, gamma)] {
        if !p.is_finite() {
            return bad(arg);
        }
    }
    match st.starts_bad {
        Some(arg) => bad(arg),
        None => Ok(()),
    }
}

/// HoltWinters.R's `hw`: `.C(C_HoltWinters, ...)` of the clamped
/// parameters, then HoltWinters.c's `HoltWinters`.
fn filter(st: &Setup, alpha: f64, beta: f64, gamma: f64) -> Result<Filtered, KernelError> {
    let (alpha, beta, gamma) = (clamp(alpha), clamp(beta), clamp(gamma));
    c_args_finite(st, alpha, beta, gamma)?;
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
    Ok(Filtered {
        sse,
        level,
        trend,
        season,
    })
}

/// `coef(.lm.fit(x = cbind(1, seq_along(dat)), y = dat))`: LINPACK's
/// dqrls (dqrdc2, then dqrsl with job 1110) on the two columns, in the
/// Fortran's order with reference BLAS's left-to-right sums, so the
/// start values are R's to the bit on any number of periods. `None` where
/// dqrdc2 would pivot or meet a zero column (never for two or more
/// points: the columns are independent), for the general dqrls.
fn line_fit(dat: &[f64]) -> Option<(f64, f64)> {
    // Reference BLAS sums left to right; linpack's own dot sums in lanes.
    use super::linalg::blas::{daxpy, ddot, dnrm2 as nrm2};
    const TOL: f64 = 1e-7;
    let n = dat.len();
    if n < 2 {
        return None;
    }
    let mut x = vec![1.0; n];
    x.extend((1..=n).map(|i| i as f64));
    let (c0, c1) = x.split_at_mut(n);
    let mut qraux = [nrm2(c0), nrm2(c1)];
    let orig = qraux.map(|q| if q == 0.0 { 1.0 } else { q });
    // Step 1: column 1 is not negligible (its norm is its original one).
    let mut nrmxl = nrm2(c0);
    if nrmxl == 0.0 {
        return None;
    }
    if c0[0] != 0.0 {
        nrmxl = nrmxl.abs().copysign(c0[0]);
    }
    let s = 1.0 / nrmxl;
    for v in c0.iter_mut() {
        *v *= s;
    }
    c0[0] += 1.0;
    let t = -ddot(c0, c1) / c0[0];
    daxpy(t, c0, c1);
    if qraux[1] != 0.0 {
        let tt = (1.0 - (c1[0].abs() / qraux[1]).powi(2)).max(0.0);
        if tt.abs() < 1e-6 {
            qraux[1] = nrm2(&c1[1..]);
        } else {
            qraux[1] *= tt.sqrt();
        }
    }
    qraux[0] = c0[0];
    c0[0] = -nrmxl;
    // Step 2: a column fallen below tol of its norm would be pivoted.
    if qraux[1] < orig[1] * TOL {
        return None;
    }
    if n > 2 {
        let mut nrmxl = nrm2(&c1[1..]);
        if nrmxl == 0.0 {
            return None;
        }
        if c1[1] != 0.0 {
            nrmxl = nrmxl.abs().copysign(c1[1]);
        }
        let s = 1.0 / nrmxl;
        for v in c1[1..].iter_mut() {
            *v *= s;
        }
        c1[1] += 1.0;
        qraux[1] = c1[1];
        c1[1] = -nrmxl;
    }
    // dqrsl: qty = Q'y over min(k, n - 1) reflections, then b = R^-1 qty.
    let mut qty = dat.to_vec();
    let ju = 2.min(n - 1);
    for (j, col) in [&mut *c0, &mut *c1].into_iter().enumerate().take(ju) {
        if qraux[j] != 0.0 {
            let temp = col[j];
            col[j] = qraux[j];
            let t = -ddot(&col[j..], &qty[j..]) / col[j];
            daxpy(t, &col[j..], &mut qty[j..]);
            col[j] = temp;
        }
    }
    if c1[1] == 0.0 || c0[0] == 0.0 {
        return None;
    }
    let b1 = qty[1] / c1[1];
    let b0 = (qty[0] + -b1 * c1[0]) / c0[0];
    Some((b0, b1))
}

/// A start value: `as.double(v)`, whole (the C reads its first).
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

/// `optim.start` as optim reads it: its elements (`None`: a list element
/// that is not one number, which optim's coercion to double refuses) and
/// names. It is read only when optim runs, as R's lazy argument is.
struct OptimStart {
    items: Vec<Option<f64>>,
    names: Option<Vec<String>>,
    list: bool,
    null: bool,
}

impl OptimStart {
    fn of(v: Option<&Value>) -> Result<OptimStart, KernelError> {
        let Some(v) = v else {
            return Ok(OptimStart {
                items: vec![Some(0.3), Some(0.1), Some(0.1)],
                names: Some(vec!["alpha".into(), "beta".into(), "gamma".into()]),
                list: false,
                null: false,
            });
        };
        let refuse = || err("flowcast's HoltWinters takes numbers as 'optim.start'");
        match bare(v) {
            Value::Null => Ok(OptimStart {
                items: Vec::new(),
                names: None,
                list: false,
                null: true,
            }),
            Value::List(l) => {
                let mut items = Vec::with_capacity(l.items.len());
                for item in &l.items {
                    items.push(match bare(item) {
                        Value::Str(_) => return Err(refuse()),
                        one => one
                            .as_scalar()
                            .filter(|_| one.len() == 1 && one.dims().is_none()),
                    });
                }
                Ok(OptimStart {
                    items,
                    names: l.names.clone(),
                    list: true,
                    null: false,
                })
            }
            b @ (Value::Num(_) | Value::Bool(_) | Value::Mat(_)) => {
                let items = match b {
                    Value::Bool(x) => x.iter().map(|t| Some(t.map_or(NA, f64::from))).collect(),
                    b => b
                        .as_f64_slice()
                        .ok_or_else(refuse)?
                        .iter()
                        .map(|&x| Some(x))
                        .collect(),
                };
                Ok(OptimStart {
                    items,
                    names: super::names::names(v).map(<[String]>::to_vec),
                    list: false,
                    null: false,
                })
            }
            _ => Err(refuse()),
        }
    }

    /// optim's `coerceVector(par, REALSXP)` of a list.
    fn coerce(items: impl IntoIterator<Item = Option<f64>>) -> Result<Vec<f64>, KernelError> {
        items
            .into_iter()
            .map(|x| x.ok_or_else(|| err("'list' object cannot be coerced to type 'double'")))
            .collect()
    }

    /// `optim.start` whole, as the three-parameter search starts.
    fn whole(self) -> Result<(Vec<f64>, Option<Vec<String>>), KernelError> {
        Ok((Self::coerce(self.items)?, self.names))
    }

    /// `c(optim.start["alpha"], optim.start["gamma"])` (or the pair
    /// wanted): a name `[` does not find is NA in a vector, NULL in a
    /// list (which optim then cannot coerce); NULL's are nothing.
    fn pick(self, wanted: &[&str]) -> Result<(Vec<f64>, Option<Vec<String>>), KernelError> {
        if self.null {
            return Ok((Vec::new(), None));
        }
        let mut items = Vec::with_capacity(wanted.len());
        let mut names = Vec::with_capacity(wanted.len());
        for w in wanted {
            let at = self
                .names
                .as_ref()
                .and_then(|n| n.iter().position(|n| n == w));
            match at {
                Some(i) => {
                    items.push(self.items[i]);
                    names.push(w.to_string());
                }
                None => {
                    items.push(if self.list { None } else { Some(NA) });
                    names.push("NA".into());
                }
            }
        }
        Ok((Self::coerce(items)?, Some(names)))
    }
}

/// HoltWinters.R's `optim(start, error, method = "L-BFGS-B", lower = 0,
/// upper = 1, control = optim.control)` over `npar` parameters and its
/// check of the result: "optimization failure" unless optim converged
/// (or L-BFGS-B reported an error, codes 51 and 52, which R only warns of).
fn hw_optim(
    start: &[f64],
    error: &dyn Fn(&[f64]) -> Result<f64, KernelError>,
    npar: usize,
    control: Option<&Value>,
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    let (lower, upper) = (vec![0.0; npar], vec![1.0; npar]);
    let sol = super::optim::optim_native_try(
        start,
        error,
        Some(&Value::string("L-BFGS-B")),
        Some((&lower, &upper)),
        control,
        false,
        ctx,
    )?;
    // `sol$convergence || any(sol$par < 0 | sol$par > 1)`: a NA par makes
    // the `||` NA when optim converged.
    let outside = sol
        .par
        .iter()
        .any(|&p| !p.is_nan() && !(0.0..=1.0).contains(&p));
    let na = sol.par.iter().any(|p| p.is_nan());
    if sol.convergence == 0 && !outside && na {
        return Err(err("missing value where TRUE/FALSE needed"));
    }
    if sol.convergence != 0 || outside {
        if sol.convergence > 50 {
            ctx.warn(format!(
                "optimization difficulties: {}",
                sol.message.as_deref().unwrap_or("")
            ));
        } else {
            return Err(err("optimization failure"));
        }
    }
    Ok(sol.par)
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
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
    // The start values as `.C` receives them, whole: each element of a
    // given one is checked, though the C reads only the first.
    let mut l_start = start_value(args.get("l.start"), "l.start")?;
    let mut b_start = start_value(args.get("b.start"), "b.start")?;
    let mut s_start = start_value(args.get("s.start"), "s.start")?;
    let start_time: f64;
    if gamma == Par::Off {
        let expsmooth = beta == Par::Off;
        let at = |i: usize| x.get(i).copied().unwrap_or(f64::NAN);
        if l_start.is_none() {
            l_start = Some(vec![if expsmooth { at(0) } else { at(1) }]);
        }
        if b_start.is_none() && beta != Par::Off {
            b_start = Some(vec![at(1) - at(0)]);
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
            let (l, b) = line_fit(&dat).unwrap_or_else(|| {
                let mut design = vec![1.0; n];
                design.extend((1..=n).map(|i| i as f64));
                let fit = super::linalg::linpack::dqrls(design, n, 2, &dat, 1e-7);
                (fit.coef[0], fit.coef[1])
            });
            if l_start.is_none() {
                l_start = Some(vec![l]);
            }
            if b_start.is_none() {
                b_start = Some(vec![b]);
            }
        }
        if s_start.is_none() {
            s_start = Some(d.figure);
        }
    }
    let period = f as usize;
    let doseasonal = gamma.on();
    let a_all = l_start.unwrap_or_default();
    let b_all = b_start.unwrap_or_default();
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
    let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
    let starts_bad = [(11, &a_all), (12, &b_all), (13, &s)]
        .into_iter()
        .find(|(_, v)| !finite(v))
        .map(|(arg, _)| arg);
    let setup = Setup {
        x: &x,
        start_time: start_time as usize,
        additive,
        period,
        dotrend: beta.on(),
        doseasonal,
        a: a_all.first().copied().unwrap_or(f64::NAN),
        b: b_all.first().copied().unwrap_or(f64::NAN),
        s: &s,
        len: len as usize,
        x_finite: finite(&x),
        starts_bad,
    };
    let tol = f64::EPSILON.powf(0.25);
    let value = |p: Par| p.value().unwrap_or(f64::NAN);
    let sse = |a: f64, b: f64, g: f64| filter(&setup, a, b, g).map(|f| f.sse);
    // The names R's estimates carry: optim's `par` keeps optim.start's.
    let mut par_names: [Option<String>; 3] = [None, None, None];
    let (alpha, beta, gamma) = match (alpha, beta, gamma) {
        (Par::Free, Par::Free, Par::Free) => {
            let (start, names) = OptimStart::of(args.get("optim.start"))?.whole()?;
            let at = |p: &[f64], i: usize| p.get(i).copied().unwrap_or(f64::NAN);
            let sol = hw_optim(
                &start,
                &|p| sse(at(p, 0), at(p, 1), at(p, 2)),
                3,
                args.get("optim.control"),
                ctx,
            )?;
            if let Some(n) = names {
                for (k, name) in par_names.iter_mut().enumerate() {
                    *name = n.get(k).cloned();
                }
            }
            let p = |i: usize| Par::Num(at(&sol, i));
            (p(0), p(1), p(2))
        }
        (Par::Free, _, Par::Free) | (Par::Free, Par::Free, _) | (_, Par::Free, Par::Free) => {
            // Which two are free, as HoltWinters.R's branches take them.
            let free: Vec<usize> = [alpha, beta, gamma]
                .iter()
                .enumerate()
                .filter(|(_, p)| **p == Par::Free)
                .map(|(i, _)| i)
                .collect();
            let wanted: Vec<&str> = free
                .iter()
                .map(|&i| ["alpha", "beta", "gamma"][i])
                .collect();
            let (start, names) = OptimStart::of(args.get("optim.start"))?.pick(&wanted)?;
            let fixed = [value(alpha), value(beta), value(gamma)];
            let at = |p: &[f64], i: usize| p.get(i).copied().unwrap_or(f64::NAN);
            let params = |p: &[f64]| {
                let mut abg = fixed;
                abg[free[0]] = at(p, 0);
                abg[free[1]] = at(p, 1);
                abg
            };
            let sol = hw_optim(
                &start,
                &|p| {
                    let [a, b, g] = params(p);
                    sse(a, b, g)
                },
                2,
                args.get("optim.control"),
                ctx,
            )?;
            for (k, &i) in free.iter().enumerate() {
                par_names[i] = names.as_ref().and_then(|n| n.get(k).cloned());
            }
            let [a, b, g] = params(&sol);
            let keep = |p: Par, v: f64| if p == Par::Free { Par::Num(v) } else { p };
            (keep(alpha, a), keep(beta, b), keep(gamma, g))
        }
        (_, _, Par::Free) => {
            let g = super::optimize::brent_fmin(
                0.0,
                1.0,
                &mut |p| sse(value(alpha), value(beta), p),
                tol,
            )?;
            (alpha, beta, Par::Num(g))
        }
        (Par::Free, _, _) => {
            let a = super::optimize::brent_fmin(
                0.0,
                1.0,
                &mut |p| sse(p, value(beta), value(gamma)),
                tol,
            )?;
            (Par::Num(a), beta, gamma)
        }
        (_, Par::Free, _) => {
            let b = super::optimize::brent_fmin(
                0.0,
                1.0,
                &mut |p| sse(value(alpha), p, value(gamma)),
                tol,
            )?;
            (alpha, Par::Num(b), gamma)
        }
        _ => (alpha, beta, gamma),
    };
    let fit = filter(&setup, value(alpha), value(beta), value(gamma))?;
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
            ("alpha", alpha.to_value(par_names[0].take())),
            ("beta", beta.to_value(par_names[1].take())),
            ("gamma", gamma.to_value(par_names[2].take())),
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
/// one-column series `fit`, dated one step past the fitted values.
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
    let m = super::names::dimnamed(m, None, Some(vec!["fit".into()]));
    // ts(fit, start = end(lag(fitted(object)[, 1], k = -1)), frequency =
    // frequency(fitted(object)[, 1])): one step past the fitted values.
    let dated = l
        .field("fitted")
        .and_then(ts::tsp_of)
        .or_else(|| l.field("x").and_then(ts::tsp_of));
    Ok(match dated {
        Some(t) => {
            let end = t[1] + 1.0 / t[2];
            with_tsp(m, ts::restart([end, end, t[2]], n))
        }
        None => m,
    })
}
