//! R's Kalman filter on a state-space model `list(Z, a, P, T, V, h, Pn)`:
//! `KalmanLike`, `KalmanRun`, `KalmanSmooth` and `KalmanForecast` of
//! src/library/stats/R/Kalman.R, over the C of
//! src/library/stats/src/arima.c (`KalmanLike`, `KalmanSmooth`,
//! `KalmanFore`), kept in the original's shape; and `makeARIMA` of
//! src/library/stats/R/arima.R, which builds such a model for an ARMA
//! process (arima's own `make_arima` and getQ0).
//!
//! The C reads `p = length(a)` and trusts every other part to fit; here a
//! model whose parts do not is refused. R's `update = TRUE` hangs the
//! updated model on the value as an attribute, which flowcast's lists
//! cannot carry, so it is refused.

// The C indexes as written; it reads better against the original.
#![allow(clippy::needless_range_loop)]

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names;
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "KalmanLike",
        params: &[req("y"), req("mod"), opt("nit"), opt("update")],
        random: false,
        shape: like_shape,
        eval: like_eval,
    },
    Kernel {
        name: "KalmanRun",
        params: &[req("y"), req("mod"), opt("nit"), opt("update")],
        random: false,
        shape: run_shape,
        eval: run_eval,
    },
    Kernel {
        name: "KalmanSmooth",
        params: &[req("y"), req("mod"), opt("nit")],
        random: false,
        shape: smooth_shape,
        eval: smooth_eval,
    },
    Kernel {
        name: "KalmanForecast",
        params: &[opt("n.ahead"), req("mod"), opt("update")],
        random: false,
        shape: fore_shape,
        eval: fore_eval,
    },
    Kernel {
        name: "makeARIMA",
        params: &[
            req("phi"),
            req("theta"),
            req("Delta"),
            opt("kappa"),
            opt("SSinit"),
            opt("tol"),
        ],
        random: false,
        shape: make_arima_shape,
        eval: make_arima_eval,
    },
];

/// The state vector's length above which the filter's `p^3` work per
/// observation is refused.
const MAX_STATE: usize = 1000;

/// KalmanSmooth keeps `n p^2` doubles of covariances twice over.
const MAX_SMOOTH_CELLS: f64 = 1e7;

/// The most filtered states (`n p` doubles) KalmanRun and StructTS keep.
const MAX_STATES: f64 = 1e8;

/// KalmanRun's (and StructTS's) `n x p` states, refused past
/// [`MAX_STATES`].
pub(crate) fn check_states(n: usize, p: usize, fname: &str) -> Result<(), KernelError> {
    if n as f64 * p as f64 > MAX_STATES {
        return Err(err(format!(
            "flowcast's {fname} keeps at most {MAX_STATES:e} filtered states (n p)"
        )));
    }
    Ok(())
}

/// KalmanForecast's longest horizon.
const MAX_AHEAD: f64 = 1e7;

fn err(message: impl Into<String>) -> KernelError {
    KernelError::new(message)
}

/// A state-space model as arima.c reads it: `Z` (length p), the state
/// `a`, its covariance `P`, the transition `T`, the state noise `V` and
/// the last predicted covariance `Pn` (column-major `p x p`), and the
/// observation noise `h`.
#[derive(Clone, Debug)]
pub(crate) struct StateSpace {
    pub z: Vec<f64>,
    pub a: Vec<f64>,
    pub p: Vec<f64>,
    pub t: Vec<f64>,
    pub v: Vec<f64>,
    pub h: f64,
    pub pn: Vec<f64>,
}

impl StateSpace {
    /// The model list `mod`, as `getListElement` finds its parts; `Pn` is
    /// only read where the C reads it (`need_pn`).
    pub(crate) fn from_value(model: &Value, need_pn: bool) -> Result<StateSpace, KernelError> {
        let Value::List(l) = names::bare(model) else {
            return Err(err("invalid argument type"));
        };
        // TYPEOF(...) != REALSXP: a part missing or not numbers.
        let part = |name: &str| -> Result<Vec<f64>, KernelError> {
            match l.field(name).map(names::bare) {
                Some(v @ (Value::Num(_) | Value::Mat(_))) => {
                    Ok(v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default())
                }
                Some(v) if super::arrays::array_dims(v).is_some() => {
                    Ok(v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default())
                }
                _ => Err(err("invalid argument type")),
            }
        };
        let (z, a, p, t, v) = (part("Z")?, part("a")?, part("P")?, part("T")?, part("V")?);
        let pn = if need_pn { part("Pn")? } else { Vec::new() };
        // asReal(sh): NA for a missing or non-numeric h.
        let h = l
            .field("h")
            .map(names::bare)
            .and_then(|v| v.as_f64_slice().and_then(|s| s.first().copied()))
            .unwrap_or(NA);
        let np = a.len();
        if np > MAX_STATE {
            return Err(err(format!(
                "flowcast's Kalman filter takes a state of at most {MAX_STATE} elements, not {np}"
            )));
        }
        let square = np * np;
        let fits = z.len() == np
            && p.len() == square
            && t.len() == square
            && v.len() == square
            && (!need_pn || pn.len() == square);
        if !fits {
            return Err(err(format!(
                "flowcast's Kalman filter needs a model whose 'Z' has length(a) = {np} elements \
                 and whose 'P', 'T', 'V' and 'Pn' are {np} x {np} (R's C reads past them)"
            )));
        }
        let pn = if need_pn { pn } else { vec![0.0; square] };
        Ok(StateSpace {
            z,
            a,
            p,
            t,
            v,
            h,
            pn,
        })
    }

    /// The model as the list StructTS and KalmanRun's `mod` hold it:
    /// `list(Z, a, P, T, V, h, Pn)`.
    pub(crate) fn to_value(&self) -> Value {
        let np = self.a.len();
        let mat = |x: &[f64]| Value::Mat(DMatrix::from_vec(np, np, x.to_vec()));
        Value::List(List::named(vec![
            ("Z", Value::Num(self.z.clone())),
            ("a", Value::Num(self.a.clone())),
            ("P", mat(&self.p)),
            ("T", mat(&self.t)),
            ("V", mat(&self.v)),
            ("h", Value::scalar(self.h)),
            ("Pn", mat(&self.pn)),
        ]))
    }
}

/// What arima.c's `KalmanLike` computes: `ssq / nu` and `sumlog / nu`,
/// and with `op` the standardized residuals and the filtered states
/// (`n x p` column-major).
pub(crate) struct Filtered {
    pub values: [f64; 2],
    pub resid: Vec<f64>,
    pub states: Vec<f64>,
}

/// arima.c's `KalmanLike`: the filter over `y` from the model's state,
/// which it leaves updated (R's `mod` after `duplicate`). Covariances are
/// predicted for the observations after `up` (`sUP`).
pub(crate) fn kalman_like(y: &[f64], m: &mut StateSpace, up: i64, op: bool) -> Filtered {
    let n = y.len();
    let p = m.a.len();
    let (z, t, v, h) = (&m.z, &m.t, &m.v, m.h);
    let (a, pp, pnew) = (&mut m.a, &mut m.p, &mut m.pn);
    let mut anew = vec![0.0; p];
    let mut mv = vec![0.0; p];
    let mut mm = vec![0.0; p * p];
    let (mut resid, mut states) = if op {
        (vec![0.0; n], vec![0.0; n * p])
    } else {
        (Vec::new(), Vec::new())
    };
    let mut sumlog = 0.0;
    let mut ssq = 0.0;
    let mut nu = 0i64;
    for l in 0..n {
        predict_state(&t[..], &a[..], &mut anew[..], p);
        if l as i64 > up {
            predict_covariance(&t[..], &pp[..], &v[..], &mut mm[..], &mut pnew[..], p);
        }
        if !y[l].is_nan() {
            nu += 1;
            let (resid0, gain) = observe(
                y[l],
                &z[..],
                h,
                &anew[..],
                &pnew[..],
                &mut mv[..],
                &mut a[..],
                &mut pp[..],
                p,
            );
            ssq += resid0 * resid0 / gain;
            if op {
                resid[l] = resid0 / gain.sqrt();
            }
            sumlog += gain.ln();
        } else {
            a.copy_from_slice(&anew);
            pp.copy_from_slice(pnew);
            if op {
                resid[l] = NA;
            }
        }
        if op {
            for j in 0..p {
                states[l + n * j] = a[j];
            }
        }
    }
    Filtered {
        values: [ssq / nu as f64, sumlog / nu as f64],
        resid,
        states,
    }
}

/// arima.c's `KalmanSmooth`: the smoothed states (`n x p`) and their
/// variances (`n x p x p`), both column-major. The model is not changed.
pub(crate) fn kalman_smooth(y: &[f64], m: &StateSpace, up: i64) -> (Vec<f64>, Vec<f64>) {
    let n = y.len();
    let p = m.a.len();
    let (z, t, v, h) = (&m.z, &m.t, &m.v, m.h);
    let mut a = m.a.clone();
    let mut pp = m.p.clone();
    let mut pnew = m.pn.clone();
    let var = true;
    let mut at = vec![0.0; n * p];
    let mut nt = vec![0.0; n * p * p];
    let mut anew = vec![0.0; p];
    let mut mv = vec![0.0; p];
    let mut mm = vec![0.0; p * p];
    let mut pt = vec![0.0; n * p * p];
    let mut gains = vec![0.0; n];
    let mut resids = vec![0.0; n];
    let mut mt = vec![0.0; n * p];
    let mut ll = vec![0.0; p * p];

    for l in 0..n {
        predict_state(&t[..], &a[..], &mut anew[..], p);
        if l as i64 > up {
            predict_covariance(&t[..], &pp[..], &v[..], &mut mm[..], &mut pnew[..], p);
        }
        for i in 0..p {
            at[l + n * i] = anew[i];
        }
        for i in 0..p * p {
            pt[l + n * i] = pnew[i];
        }
        if !y[l].is_nan() {
            let (resid0, gain) = observe(
                y[l],
                &z[..],
                h,
                &anew[..],
                &pnew[..],
                &mut mv[..],
                &mut a[..],
                &mut pp[..],
                p,
            );
            for i in 0..p {
                mt[l + n * i] = mv[i];
            }
            gains[l] = gain;
            resids[l] = resid0;
        } else {
            for i in 0..p {
                a[i] = anew[i];
                mt[l + n * i] = 0.0;
            }
            pp.copy_from_slice(&pnew);
            gains[l] = NA;
            resids[l] = NA;
        }
    }

    // rt stores r_{t-1}
    let mut rt = vec![0.0; n * p];
    for l in (0..n).rev() {
        let gn;
        if !gains[l].is_nan() {
            gn = 1.0 / gains[l];
            for i in 0..p {
                rt[l + n * i] = z[i] * resids[l] * gn;
            }
        } else {
            for i in 0..p {
                rt[l + n * i] = 0.0;
            }
            gn = 0.0;
        }

        if var {
            for i in 0..p {
                for j in 0..p {
                    nt[l + n * i + n * p * j] = z[i] * z[j] * gn;
                }
            }
        }

        if l + 1 < n {
            // compute r_{t-1}
            for i in 0..p {
                for j in 0..p {
                    mm[i + p * j] = f64::from(u8::from(i == j)) - mt[l + n * i] * z[j] * gn;
                }
            }
            for i in 0..p {
                for j in 0..p {
                    let mut tmp = 0.0;
                    for k in 0..p {
                        tmp += t[i + p * k] * mm[k + p * j];
                    }
                    ll[i + p * j] = tmp;
                }
            }
            for i in 0..p {
                let mut tmp = 0.0;
                for j in 0..p {
                    tmp += ll[j + p * i] * rt[l + 1 + n * j];
                }
                rt[l + n * i] += tmp;
            }
            if var {
                // compute N_{t-1}
                for i in 0..p {
                    for j in 0..p {
                        let mut tmp = 0.0;
                        for k in 0..p {
                            tmp += ll[k + p * i] * nt[l + 1 + n * k + n * p * j];
                        }
                        mm[i + p * j] = tmp;
                    }
                }
                for i in 0..p {
                    for j in 0..p {
                        let mut tmp = 0.0;
                        for k in 0..p {
                            tmp += mm[i + p * k] * ll[k + p * j];
                        }
                        nt[l + n * i + n * p * j] += tmp;
                    }
                }
            }
        }

        for i in 0..p {
            let mut tmp = 0.0;
            for j in 0..p {
                tmp += pt[l + n * i + n * p * j] * rt[l + n * j];
            }
            at[l + n * i] += tmp;
        }
    }
    if var {
        for l in 0..n {
            for i in 0..p {
                for j in 0..p {
                    let mut tmp = 0.0;
                    for k in 0..p {
                        tmp += pt[l + n * i + n * p * k] * nt[l + n * k + n * p * j];
                    }
                    mm[i + p * j] = tmp;
                }
            }
            for i in 0..p {
                for j in 0..p {
                    let mut tmp = pt[l + n * i + n * p * j];
                    for k in 0..p {
                        tmp -= mm[i + p * k] * pt[l + n * k + n * p * j];
                    }
                    nt[l + n * i + n * p * j] = tmp;
                }
            }
        }
    }
    (at, nt)
}

/// arima.c's `KalmanFore`: `n` forecasts from the model's state and
/// their variances, the state and `P` left where the last step put them.
pub(crate) fn kalman_fore(n: usize, m: &mut StateSpace) -> (Vec<f64>, Vec<f64>) {
    let p = m.a.len();
    let (z, t, v, h) = (&m.z, &m.t, &m.v, m.h);
    let (a, pp) = (&mut m.a, &mut m.p);
    let mut anew = vec![0.0; p];
    let mut pnew = vec![0.0; p * p];
    let mut mm = vec![0.0; p * p];
    let mut forecasts = vec![0.0; n];
    let mut se = vec![0.0; n];
    for l in 0..n {
        predict_state(&t[..], &a[..], &mut anew[..], p);
        let mut fc = 0.0;
        for i in 0..p {
            fc += anew[i] * z[i];
        }
        a.copy_from_slice(&anew);
        forecasts[l] = fc;

        predict_covariance(&t[..], &pp[..], &v[..], &mut mm[..], &mut pnew[..], p);
        let mut tmp = h;
        for i in 0..p {
            for j in 0..p {
                pp[i + j * p] = pnew[i + j * p];
                tmp += z[i] * z[j] * pp[i + j * p];
            }
        }
        se[l] = tmp;
    }
    (forecasts, se)
}

/// `y` as the C takes it: a double vector (REALSXP), a series' values.
fn observations(y: Option<&Value>) -> Result<Vec<f64>, KernelError> {
    match y.map(names::bare) {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            Ok(v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default())
        }
        _ => Err(err("invalid argument type")),
    }
}

/// `asInteger(nit)`: NA (R's INT_MIN) for anything that is not a number.
fn nit(v: Option<&Value>) -> i64 {
    let Some(v) = v else { return 0 };
    match names::bare(v).as_f64_slice() {
        None => i64::from(i32::MIN),
        Some(s) => match s.first() {
            Some(x) if x.is_finite() && x.abs() < 2147483648.0 => x.trunc() as i64,
            _ => i64::from(i32::MIN),
        },
    }
}

/// `update`: only FALSE, as flowcast's lists carry no attributes.
fn no_update(v: Option<&Value>, fname: &str) -> Result<(), KernelError> {
    let Some(v) = v else { return Ok(()) };
    match names::bare(v).as_flag() {
        Some(false) => Ok(()),
        Some(true) => Err(err(format!(
            "flowcast's {fname} takes update = FALSE: R's update = TRUE hangs the model on \
             the value as its \"mod\" attribute, which flowcast's lists cannot carry"
        ))),
        None => Err(err("argument is not interpretable as logical")),
    }
}

/// Kalman.R's `KalmanLike`: `list(Lik = 0.5 * (log(s2) + sumlog / nu),
/// s2 = ssq / nu)`.
fn like_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let y = observations(args.get("y"))?;
    let mut m = StateSpace::from_value(args.get("mod").unwrap_or(&Value::Null), true)?;
    no_update(args.get("update"), "KalmanLike")?;
    let x = kalman_like(&y, &mut m, nit(args.get("nit")), false).values;
    Ok(Value::List(List::named(vec![
        ("Lik", Value::scalar(0.5 * (x[0].ln() + x[1]))),
        ("s2", Value::scalar(x[0])),
    ])))
}

/// Kalman.R's `KalmanRun`: `values = c(Lik, s2)`, the standardized
/// residuals and the filtered states.
fn run_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let y = observations(args.get("y"))?;
    let mut m = StateSpace::from_value(args.get("mod").unwrap_or(&Value::Null), true)?;
    no_update(args.get("update"), "KalmanRun")?;
    let n = y.len();
    let p = m.a.len();
    check_states(n, p, "KalmanRun")?;
    let f = kalman_like(&y, &mut m, nit(args.get("nit")), true);
    let x = f.values;
    let values = names::named(
        Value::Num(vec![0.5 * (x[0].ln() + x[1]), x[0]]),
        vec!["Lik".into(), "s2".into()],
    );
    Ok(Value::List(List::named(vec![
        ("values", values),
        ("resid", Value::Num(f.resid)),
        ("states", Value::Mat(DMatrix::from_vec(n, p, f.states))),
    ])))
}

/// Kalman.R's `KalmanSmooth`: `smooth` (`n x p`) and `var` (`n x p x
/// p`).
fn smooth_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let y = observations(args.get("y"))?;
    let m = StateSpace::from_value(args.get("mod").unwrap_or(&Value::Null), true)?;
    let n = y.len();
    let p = m.a.len();
    if (n as f64) * (p * p) as f64 > MAX_SMOOTH_CELLS {
        return Err(err(format!(
            "flowcast's KalmanSmooth keeps at most {MAX_SMOOTH_CELLS:e} covariances (n p^2)"
        )));
    }
    let (smooth, var) = kalman_smooth(&y, &m, nit(args.get("nit")));
    Ok(Value::List(List::named(vec![
        ("smooth", Value::Mat(DMatrix::from_vec(n, p, smooth))),
        ("var", super::arrays::shaped(Value::Num(var), &[n, p, p])?),
    ])))
}

/// `as.integer(n.ahead)`, then R's allocVector of that length.
fn n_ahead(v: Option<&Value>, default: f64) -> Result<usize, KernelError> {
    let n = match v.map(names::bare) {
        None => default,
        Some(v) => v
            .as_f64_slice()
            .and_then(|s| s.first().copied())
            .unwrap_or(NA),
    };
    if n.is_nan() || n.trunc() < 0.0 || n >= 2147483648.0 {
        // allocVector of NA_INTEGER (INT_MIN) or a negative length.
        return Err(err("negative length vectors are not allowed"));
    }
    if n > MAX_AHEAD {
        return Err(err(format!(
            "flowcast's Kalman forecasts go at most {MAX_AHEAD:e} steps ahead"
        )));
    }
    Ok(n.trunc() as usize)
}

/// Kalman.R's `KalmanForecast`: `list(pred, var)`.
fn fore_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut m = StateSpace::from_value(args.get("mod").unwrap_or(&Value::Null), false)?;
    let n = n_ahead(args.get("n.ahead"), 10.0)?;
    no_update(args.get("update"), "KalmanForecast")?;
    let (pred, var) = kalman_fore(n, &mut m);
    Ok(Value::List(List::named(vec![
        ("pred", Value::Num(pred)),
        ("var", Value::Num(var)),
    ])))
}

/// arima.R's `makeARIMA`, through arima's own port of it.
fn make_arima_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let nums = |name: &str| -> Result<Vec<f64>, KernelError> {
        match args.get(name).map(names::bare) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(v @ (Value::Num(_) | Value::Bool(_) | Value::Mat(_))) => {
                Ok(v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default())
            }
            Some(v) => Err(err(format!(
                "flowcast's makeARIMA takes numbers as '{name}', not a {}",
                v.type_name()
            ))),
        }
    };
    let (phi, theta, delta) = (nums("phi")?, nums("theta")?, nums("Delta")?);
    let scalar = |name: &str, default: f64| -> Result<f64, KernelError> {
        match args.get(name).map(names::bare) {
            None => Ok(default),
            Some(v) => v
                .as_f64_slice()
                .filter(|s| s.len() == 1)
                .map(|s| s[0])
                .ok_or_else(|| err(format!("flowcast's makeARIMA takes one number as '{name}'"))),
        }
    };
    let kappa = scalar("kappa", 1e6)?;
    let tol = scalar("tol", f64::EPSILON)?;
    // R's switch(match.arg(SSinit)) is only reached for an ARMA part of
    // more than one state.
    let ss_g = phi.len().max(theta.len() + 1) <= 1
        || super::filter::choice(args.get("SSinit"), &["Gardner1980", "Rossignol2011"])?
            == "Gardner1980";
    super::arima::make_arima_value(phi, theta, &delta, kappa, ss_g, tol, ctx)
}

fn model_type() -> Type {
    let v = Type::num_unknown;
    Type::record(
        "list",
        vec![
            ("Z", v()),
            ("a", v()),
            ("P", Type::Any),
            ("T", Type::Any),
            ("V", Type::Any),
            ("h", Type::num(1)),
            ("Pn", Type::Any),
        ],
    )
}

fn like_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::record(
        "list",
        vec![("Lik", Type::num(1)), ("s2", Type::num(1))],
    ))
}

fn run_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = args.ty("y").and_then(Type::len);
    Ok(Type::record(
        "list",
        vec![
            ("values", Type::num(2)),
            ("resid", n.map_or_else(Type::num_unknown, Type::num)),
            ("states", Type::Any),
        ],
    ))
}

fn smooth_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::record(
        "list",
        vec![("smooth", Type::Any), ("var", Type::Any)],
    ))
}

fn fore_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let v = Type::num_unknown;
    Ok(Type::record("list", vec![("pred", v()), ("var", v())]))
}

fn make_arima_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let Type::Record { mut fields, .. } = model_type() else {
        return Ok(Type::Any);
    };
    let v = Type::num_unknown;
    fields.insert(0, ("Delta".into(), v()));
    fields.insert(0, ("theta".into(), v()));
    fields.insert(0, ("phi".into(), v()));
    Ok(Type::Record {
        class: "list".into(),
        fields,
    })
}

/// StructTS's model type, for its shape.
pub(crate) fn state_space_type() -> Type {
    model_type()
}

/// anew = T a: the state's time update, as arima.c's KalmanLike,
/// KalmanSmooth and KalmanFore each write it.
fn predict_state(t: &[f64], a: &[f64], anew: &mut [f64], p: usize) {
    for i in 0..p {
        let mut tmp = 0.0;
        for k in 0..p {
            tmp += t[i + p * k] * a[k];
        }
        anew[i] = tmp;
    }
}

/// pnew = T P T' + V, through mm = T P: the covariance's time update, as
/// the same three routines write it.
fn predict_covariance(
    t: &[f64],
    pp: &[f64],
    v: &[f64],
    mm: &mut [f64],
    pnew: &mut [f64],
    p: usize,
) {
    for i in 0..p {
        for j in 0..p {
            let mut tmp = 0.0;
            for k in 0..p {
                tmp += t[i + p * k] * pp[k + p * j];
            }
            mm[i + p * j] = tmp;
        }
    }
    for i in 0..p {
        for j in 0..p {
            let mut tmp = v[i + p * j];
            for k in 0..p {
                tmp += mm[i + p * k] * t[j + p * k];
            }
            pnew[i + p * j] = tmp;
        }
    }
}

/// The update on an observed y: its innovation y - z'anew and the
/// innovation's variance (the gain) h + z'M with M = Pnew z, then
/// a = anew + M·innovation/gain and P = Pnew - M M'/gain, as KalmanLike
/// and KalmanSmooth each write it. Returns (innovation, gain).
#[allow(clippy::too_many_arguments)]
fn observe(
    y: f64,
    z: &[f64],
    h: f64,
    anew: &[f64],
    pnew: &[f64],
    mv: &mut [f64],
    a: &mut [f64],
    pp: &mut [f64],
    p: usize,
) -> (f64, f64) {
    let mut resid0 = y;
    for i in 0..p {
        resid0 -= z[i] * anew[i];
    }
    let mut gain = h;
    for i in 0..p {
        let mut tmp = 0.0;
        for j in 0..p {
            tmp += pnew[i + j * p] * z[j];
        }
        mv[i] = tmp;
        gain += z[i] * mv[i];
    }
    for i in 0..p {
        a[i] = anew[i] + mv[i] * resid0 / gain;
    }
    for i in 0..p {
        for j in 0..p {
            pp[i + j * p] = pnew[i + j * p] - mv[i] * mv[j] / gain;
        }
    }
    (resid0, gain)
}
