//! `StructTS(x, type, init, fixed, optim.control)`: R's structural time
//! series models (local level, local linear trend, basic structural model)
//! fitted by maximum likelihood, a port of src/library/stats/R/StructTS.R
//! (R 4.2.2) kept in its shape: the model of makeLevel, makeTrend or
//! makeBSM, its variances found by optim's "L-BFGS-B" (flowcast's port of
//! optim.c and lbfgsb.c) on getLike, the Kalman filter of arima.c's
//! `KalmanLike` (kalman.rs), and `tsSmooth` and `predict` of a fit.
//!
//! The value is R's "StructTS" list without `call` and `series`: coef,
//! loglik, loglik0, data, residuals, fitted, code, model, model0 and xtsp.

// The R code indexes as written; it reads better against the original.
#![allow(clippy::needless_range_loop)]

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::kalman::{self, StateSpace};
use super::names;
use super::summary::ldouble;
use super::value::{List, Named, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "StructTS",
        params: &[
            req("x"),
            opt("type"),
            opt("init"),
            opt("fixed"),
            opt("optim.control"),
        ],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "tsSmooth",
        params: &[req("object")],
        random: false,
        shape: |_, _| Ok(Type::Any),
        eval: ts_smooth_eval,
    },
];

/// The class of StructTS's value.
pub(crate) const CLASS: &str = "StructTS";

/// makeBSM's state has `frequency + 1` elements, and the filter does
/// `p^3` work per observation.
const MAX_FREQUENCY: f64 = 999.0;

fn err(message: impl Into<String>) -> KernelError {
    KernelError::new(message)
}

pub(crate) fn is_struct_ts(v: Option<&Value>) -> bool {
    matches!(v.map(names::bare), Some(Value::List(l)) if l.class.as_deref() == Some(CLASS))
}

/// StructTS's `type`.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Level,
    Trend,
    Bsm,
}

impl Kind {
    /// `np`: the state variances estimated beside the observation's.
    fn np(self) -> usize {
        match self {
            Kind::Level => 1,
            Kind::Trend => 2,
            Kind::Bsm => 3,
        }
    }

    /// `cn`: the fitted states' names.
    fn states(self) -> &'static [&'static str] {
        &["level", "slope", "sea"][..self.np()]
    }

    /// The names of `coef`.
    fn coef_names(self) -> &'static [&'static str] {
        match self {
            Kind::Level => &["level", "epsilon"],
            Kind::Trend => &["level", "slope", "epsilon"],
            Kind::Bsm => &["level", "slope", "seas", "epsilon"],
        }
    }
}

/// A `p x p` identity-shaped diagonal of `d`.
fn diag(d: &[f64]) -> Vec<f64> {
    let p = d.len();
    let mut m = vec![0.0; p * p];
    for i in 0..p {
        m[i + p * i] = d[i];
    }
    m
}

/// StructTS.R's `makeLevel`, `makeTrend` and `makeBSM` (Harvey 1993,
/// p. 143): the model before its variances, from `xm = x[1]` (StructTS
/// has refused a missing first value). `nf`'s whole part sizes the
/// seasonal state, as R's `matrix(0, nf + 1L, nf + 1L)` and `rep` take it.
fn make_model(kind: Kind, xm: f64, nf: f64) -> Result<StateSpace, KernelError> {
    Ok(match kind {
        Kind::Level => StateSpace {
            z: vec![1.0],
            a: vec![xm],
            p: vec![0.0],
            t: vec![1.0],
            v: diag(&[1.0]),
            h: 1.0,
            pn: vec![0.0],
        },
        Kind::Trend => StateSpace {
            z: vec![1.0, 0.0],
            a: vec![xm, 0.0],
            p: vec![0.0; 4],
            t: vec![1.0, 0.0, 1.0, 1.0],
            v: diag(&[1.0, 1.0]),
            h: 1.0,
            pn: vec![0.0; 4],
        },
        Kind::Bsm => {
            if nf <= 1.0 {
                return Err(err("frequency must be a positive integer >= 2 for BSM"));
            }
            if nf > MAX_FREQUENCY {
                return Err(err(format!(
                    "flowcast's StructTS fits a BSM of frequency up to {MAX_FREQUENCY}: \
                     its state has frequency + 1 elements"
                )));
            }
            let k = nf.trunc() as usize;
            let p = k + 1;
            let mut t = vec![0.0; p * p];
            // T[1:2, 1:2] <- c(1, 0, 1, 1)
            t[0] = 1.0;
            t[p] = 1.0;
            t[1 + p] = 1.0;
            // T[3, ] <- c(0, 0, rep(-1, nf - 1))
            for j in 2..p {
                t[2 + p * j] = -1.0;
            }
            // T[cbind(ind + 1, ind)] <- 1 for ind in 3:nf
            for ind in 3..=k {
                t[ind + p * (ind - 1)] = 1.0;
            }
            let mut z = vec![0.0; p];
            z[0] = 1.0;
            z[2] = 1.0;
            let mut a = vec![0.0; p];
            a[0] = xm;
            let mut vd = vec![0.0; p];
            vd[..3].fill(1.0);
            StateSpace {
                z,
                a,
                p: vec![0.0; p * p],
                t,
                v: diag(&vd),
                h: 1.0,
                pn: vec![0.0; p * p],
            }
        }
    })
}

/// The numbers of `fixed` or `init` (NULL: `None`), as doubles.
fn numbers(v: Option<&Value>, name: &str) -> Result<Option<Vec<f64>>, KernelError> {
    match v.map(names::bare) {
        None | Some(Value::Null) => Ok(None),
        Some(v @ (Value::Num(_) | Value::Bool(_))) => Ok(v.as_f64_slice().map(|s| s.into_owned())),
        Some(v) => Err(err(format!(
            "flowcast's StructTS takes numbers as '{name}', not a {}",
            v.type_name()
        ))),
    }
}

/// `ts(states, start = xtsp[1], frequency = nf)` of states given the
/// dimnames `list(time(x), cn)`, which keeps only `cn` (ts's
/// `attr(data, "tsp") <-` drops a matrix's row names): the first
/// `cn.len()` of the `p` columns of an `n x p` column-major matrix.
fn states_ts(states: &[f64], n: usize, cn: &[&str], xtsp: [f64; 3]) -> Value {
    let k = cn.len();
    let m = DMatrix::from_vec(n, k, states[..n * k].to_vec());
    let f = xtsp[2];
    let start = xtsp[0];
    Value::Named(Box::new(Named {
        colnames: Some(cn.iter().map(|s| s.to_string()).collect()),
        tsp: Some([start, start + (n as f64 - 1.0) / f, f]),
        ..Named::plain(Value::Mat(m))
    }))
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x_arg = args.get("x").unwrap_or(&Value::Null);
    let x_bare = names::bare(x_arg);
    if x_bare.dims().is_some_and(|(_, c)| c > 1) {
        return Err(err("only implemented for univariate time series"));
    }
    // as.ts(x), then is.numeric(x).
    if x_bare.is_empty() {
        return Err(err("'ts' object must have one or more observations"));
    }
    let x: Vec<f64> = match x_bare {
        Value::Num(_) | Value::Mat(_) => x_bare
            .as_f64_slice()
            .map(|s| s.into_owned())
            .unwrap_or_default(),
        Value::List(_) => {
            return Err(err(
                "flowcast's StructTS takes a numeric series, not a list",
            ))
        }
        _ => return Err(err("'x' must be numeric")),
    };
    if x[0].is_nan() {
        return Err(err(
            "the first value of the time series must not be missing",
        ));
    }
    let xtsp = super::ts::has_tsp(x_arg);
    let nf = xtsp[2];
    let kind = match args.get("type") {
        None => {
            if nf > 1.0 {
                Kind::Bsm
            } else {
                Kind::Trend
            }
        }
        t => match super::filter::choice(t, &["level", "trend", "BSM"])? {
            "level" => Kind::Level,
            "trend" => Kind::Trend,
            _ => Kind::Bsm,
        },
    };
    let mut model0 = make_model(kind, x[0], nf)?;
    kalman::check_states(x.len(), model0.a.len(), "StructTS")?;
    let present: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
    let vx = super::summary::corcov::var(&present) / 100.0;
    model0.p.fill(1e6 * vx);
    let np = kind.np();
    let fixed = numbers(args.get("fixed"), "fixed")?.unwrap_or_else(|| vec![NA; np + 1]);
    if fixed.len() != np + 1 {
        return Err(err(format!(
            "flowcast's StructTS takes a 'fixed' of length {} (one value or NA per variance): \
             R recycles one of length {} with a warning",
            np + 1,
            fixed.len()
        )));
    }
    let mask: Vec<bool> = fixed.iter().map(|v| v.is_nan()).collect();
    if !mask.iter().any(|&m| m) {
        return Err(err("all parameters were fixed"));
    }
    let cf: Vec<f64> = fixed.iter().map(|v| v / vx).collect();
    let init: Vec<f64> = match numbers(args.get("init"), "init")? {
        None => vec![1.0; np + 1],
        Some(init) if init.len() > np + 1 => {
            return Err(err(format!(
                "flowcast's StructTS takes an 'init' of length {}, not {}",
                np + 1,
                init.len()
            )))
        }
        // init[mask] past init's end is NA.
        Some(init) => (0..=np)
            .map(|i| init.get(i).map_or(NA, |v| v / vx))
            .collect(),
    };
    let start: Vec<f64> = (0..=np).filter(|&i| mask[i]).map(|i| init[i]).collect();

    let y = &x;
    let set_variances = |m: &mut StateSpace, p: &[f64]| {
        let dim = m.a.len();
        for i in 0..np {
            m.v[i + dim * i] = p[i] * vx;
        }
        m.h = p[np] * vx;
    };
    let get_like = |par: &[f64]| -> Result<f64, KernelError> {
        let mut p = cf.clone();
        let mut k = 0;
        for i in 0..=np {
            if mask[i] {
                p[i] = par[k];
                k += 1;
            }
        }
        // if(all(p == 0)) return(1000): NA where no p is non-zero and
        // one is NA.
        if !p.iter().any(|v| !v.is_nan() && *v != 0.0) {
            if p.iter().any(|v| v.is_nan()) {
                return Err(err("missing value where TRUE/FALSE needed"));
            }
            return Ok(1000.0);
        }
        let mut m = model0.clone();
        set_variances(&mut m, &p);
        let z = kalman::kalman_like(y, &mut m, -1, false).values;
        Ok(0.5 * ldouble::sum(&z).to_f64())
    };
    let lower = vec![0.0; np + 1];
    let upper = vec![f64::INFINITY; np + 1];
    let res = super::optim::optim_native_try(
        &start,
        &get_like,
        Some(&Value::string("L-BFGS-B")),
        Some((&lower, &upper)),
        args.get("optim.control"),
        false,
        ctx,
    )?;
    if res.convergence > 0 {
        ctx.warn(format!(
            "possible convergence problem: 'optim' gave code = {} and message \u{2018}{}\u{2019}",
            res.convergence,
            res.message.as_deref().unwrap_or("NULL")
        ));
    }
    let mut coef = cf.clone();
    let mut k = 0;
    for i in 0..=np {
        if mask[i] {
            coef[i] = res.par[k];
            k += 1;
        }
    }
    set_variances(&mut model0, &coef);
    let mut model = model0.clone();
    let run = kalman::kalman_like(y, &mut model, -1, true);
    let n = y.len();
    let residuals = super::ts::with_tsp(Value::Num(run.resid), xtsp);
    let fitted = states_ts(&run.states, n, kind.states(), xtsp);
    // computed values just below 0 are possible
    let coef: Vec<f64> = coef.iter().map(|c| r_pmax0(c * vx)).collect();
    let coef = names::named(
        Value::Num(coef),
        kind.coef_names().iter().map(|s| s.to_string()).collect(),
    );
    let nobs = y.iter().filter(|v| !v.is_nan()).count() as f64;
    let two_pi_log = (2.0 * std::f64::consts::PI).ln();
    let loglik = -(n as f64) * res.value - 0.5 * nobs * two_pi_log;
    let loglik0 = -(n as f64) * res.value + n as f64 * two_pi_log;
    Ok(Value::List(List::record(
        CLASS,
        vec![
            ("coef", coef),
            ("loglik", Value::scalar(loglik)),
            ("loglik0", Value::scalar(loglik0)),
            ("data", super::ts::with_tsp(Value::Num(x.clone()), xtsp)),
            ("residuals", residuals),
            ("fitted", fitted),
            ("code", Value::scalar(res.convergence as f64)),
            ("model", model.to_value()),
            ("model0", model0.to_value()),
            ("xtsp", Value::Num(xtsp.to_vec())),
        ],
    )))
}

/// `pmax(v, 0)`: NA stays NA.
fn r_pmax0(v: f64) -> f64 {
    if v.is_nan() {
        v
    } else {
        v.max(0.0)
    }
}

/// A field of a StructTS fit.
fn field<'a>(l: &'a List, name: &str) -> Result<&'a Value, KernelError> {
    l.field(name)
        .map(names::bare)
        .ok_or_else(|| err(format!("a StructTS fit without its '{name}'")))
}

/// The fit's `xtsp`.
fn fit_tsp(l: &List) -> Result<[f64; 3], KernelError> {
    match field(l, "xtsp")?.as_f64_slice() {
        Some(s) if s.len() == 3 => Ok([s[0], s[1], s[2]]),
        _ => Err(err("a StructTS fit whose 'xtsp' is not a tsp")),
    }
}

/// StructTS.R's `tsSmooth.StructTS`: KalmanSmooth of the data from the
/// initial model (`model0`), its first columns named as `fitted`'s.
fn ts_smooth_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let object = args.get("object").unwrap_or(&Value::Null);
    let Some(Value::List(l)) = is_struct_ts(Some(object)).then(|| names::bare(object)) else {
        return Err(err(
            "flowcast's tsSmooth takes a StructTS fit (R's only tsSmooth method)",
        ));
    };
    let y = field(l, "data")?
        .as_f64_slice()
        .map(|s| s.into_owned())
        .ok_or_else(|| err("a StructTS fit whose 'data' is not numbers"))?;
    let m = StateSpace::from_value(field(l, "model0")?, true)?;
    let k = match field(l, "fitted")? {
        Value::Mat(f) => f.ncols(),
        _ => return Err(err("a StructTS fit whose 'fitted' is not a matrix")),
    };
    let cn: &[&str] = match k {
        1 => Kind::Level.states(),
        2 => Kind::Trend.states(),
        3 => Kind::Bsm.states(),
        _ => return Err(err("a StructTS fit of neither type")),
    };
    let n = y.len();
    if m.a.len() < k {
        return Err(err("subscript out of bounds"));
    }
    if (n as f64) * (m.a.len() as f64).powi(2) > 1e7 {
        return Err(err(
            "flowcast's tsSmooth keeps at most 1e7 covariances (n p^2)",
        ));
    }
    let (smooth, _) = kalman::kalman_smooth(&y, &m, -1);
    Ok(states_ts(&smooth, n, cn, fit_tsp(l)?))
}

/// StructTS.R's `predict.StructTS`: KalmanForecast from the fitted
/// model, as series starting one step after the data.
pub(crate) fn predict(
    object: &Value,
    n_ahead: Option<&Value>,
    se_fit: Option<&Value>,
) -> Result<Value, KernelError> {
    let Value::List(l) = names::bare(object) else {
        return Err(err("not a StructTS fit"));
    };
    let se_fit = super::logical::if_given(se_fit, true)?;
    let n = match n_ahead.map(names::bare) {
        None => 1.0,
        Some(v) => v
            .as_f64_slice()
            .and_then(|s| s.first().copied())
            .unwrap_or(NA),
    };
    if n.is_nan() || n.trunc() < 0.0 || n >= 2147483648.0 {
        return Err(err("negative length vectors are not allowed"));
    }
    if n > 1e7 {
        return Err(err(
            "flowcast's predict of a StructTS fit takes an 'n.ahead' up to 1e7",
        ));
    }
    let n = n.trunc() as usize;
    let xtsp = fit_tsp(l)?;
    let mut m = StateSpace::from_value(field(l, "model")?, false)?;
    let (pred, var) = kalman::kalman_fore(n, &mut m);
    if n == 0 {
        return Err(err("'ts' object must have one or more observations"));
    }
    let f = xtsp[2];
    let start = xtsp[1] + 1.0 / f;
    let tsp = [start, start + (n as f64 - 1.0) / f, f];
    let pred = super::ts::with_tsp(Value::Num(pred), tsp);
    if !se_fit {
        return Ok(pred);
    }
    let se = super::ts::with_tsp(Value::Num(var.iter().map(|v| v.sqrt()).collect()), tsp);
    Ok(Value::List(List::named(vec![("pred", pred), ("se", se)])))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Str { .. } | Type::Bool { .. })) = args.ty("x") {
        return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())));
    }
    let n = args.ty("x").and_then(Type::len);
    let v = Type::num_unknown;
    Ok(Type::record(
        CLASS,
        vec![
            ("coef", v()),
            ("loglik", Type::num(1)),
            ("loglik0", Type::num(1)),
            ("data", n.map_or_else(v, Type::num)),
            ("residuals", n.map_or_else(v, Type::num)),
            ("fitted", Type::Any),
            ("code", Type::num(1)),
            ("model", kalman::state_space_type()),
            ("model0", kalman::state_space_type()),
            ("xtsp", Type::num(3)),
        ],
    ))
}
