//! Regression diagnostics of an `lm` or `glm`: `lm.influence` (and
//! `influence`), `weighted.residuals`, `hatvalues`, `rstandard`,
//! `rstudent`, `cooks.distance`, `dffits`, `dfbeta`, `dfbetas`,
//! `covratio` and `influence.measures`, as R 4.2's `stats/R/lm.influence.R` computes them, with the
//! hat values and leave-one-out sigmas of its Fortran `lminfl` (Q's columns
//! through the fit's own LINPACK QR, `dqrsl`), so the leverages are R's to
//! the bit where the QR is.
//!
//! The results are named by the observations, as R's are: the data's row
//! names of the rows the fit kept, else their row numbers.

use nalgebra::DMatrix;

use super::super::linalg::la_chol2inv;
use super::super::linalg::linpack::{dqrsl, Job, Qr};
use super::super::names::{dimnamed, named};
use super::super::summary::sum;
use super::super::value::{List, NA};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::accessors::{arg_error, matching, residuals_of};
use super::family::Family;
use super::fit::{model_type, Fit, Kind};
use super::summary::estimated_dispersion;
use crate::kernels::na_action::{fit_excluded, pad_fit, pad_fit_with};

/// R's `lm.influence(model)`; `pear_res` is `influence.glm`'s addition.
struct Influence {
    hat: Vec<f64>,
    /// `n x k` (column-major): the change in each estimated coefficient
    /// when the observation is left out.
    coefficients: Option<Vec<f64>>,
    sigma: Vec<f64>,
    wt_res: Vec<f64>,
    pear_res: Option<Vec<f64>>,
    /// The observations' names.
    labels: Vec<String>,
}

const TOL: f64 = 10.0 * f64::EPSILON;

/// The observations' names of the cases the fit used (its `obs.names`,
/// else row numbers).
fn labels(fit: &Fit, n: usize) -> Vec<String> {
    match fit.exact("obs.names") {
        Some(Value::Str(s)) if s.len() == n => s.clone(),
        _ => (1..=n).map(|i| i.to_string()).collect(),
    }
}

/// The indices of the cases of nonzero prior weight (`weighted.residuals`'
/// `drop0`): all of them when the fit has no weights.
fn nonzero(fit: &Fit, n: usize) -> Vec<usize> {
    match fit.prior_weights() {
        Some(w) if w.len() == n => (0..n).filter(|&i| w[i] != 0.0).collect(),
        _ => (0..n).collect(),
    }
}

fn pick<T: Clone>(v: &[T], at: &[usize]) -> Vec<T> {
    at.iter().filter_map(|&i| v.get(i).cloned()).collect()
}

/// R's `weighted.residuals(obj, drop0)`: the deviance residuals, those of
/// weight zero left out when `drop0`; with the observations' names.
fn weighted_residuals(fit: &Fit, drop0: bool) -> Result<(Vec<f64>, Vec<String>), KernelError> {
    let r = residuals_of(fit, "deviance")?;
    let n = r.len();
    let names = labels(fit, n);
    if !drop0 {
        return Ok((r, names));
    }
    let keep = nonzero(fit, n);
    Ok((pick(&r, &keep), pick(&names, &keep)))
}

/// `deviance(model) / df.residual(model)`.
fn deviance_per_df(fit: &Fit) -> Result<f64, KernelError> {
    let dev = match fit.kind {
        Kind::Lm => fit.weighted_rss()?,
        Kind::Glm(_) => fit.scalar("deviance")?,
    };
    Ok(dev / fit.scalar("df.residual")?)
}

/// R's `median(abs(e))`.
fn median_abs(e: &[f64]) -> f64 {
    let mut a: Vec<f64> = e.iter().map(|x| x.abs()).collect();
    if a.is_empty() {
        return f64::NAN;
    }
    a.sort_by(f64::total_cmp);
    let h = a.len() / 2;
    if a.len() % 2 == 1 {
        a[h]
    } else {
        (a[h - 1] + a[h]) / 2.0
    }
}

/// Q's first `k` columns (R's `qr.Q(qr)[, 1:k]`, each `qr.qy` of a unit
/// vector through the first `k` reflections, as `lminfl` computes them).
fn q_columns(qr: &Qr, k: usize) -> Vec<Vec<f64>> {
    (0..k)
        .map(|j| {
            let mut e = vec![0.0; qr.n];
            e[j] = 1.0;
            dqrsl(
                qr,
                k,
                &e,
                Job {
                    qy: true,
                    ..Job::default()
                },
            )
            .qy
        })
        .collect()
}

/// `lm.influence(model, do.coef)` (with `influence.glm`'s Pearson
/// residuals for a glm).
fn lm_influence(fit: &Fit, do_coef: bool) -> Result<Influence, KernelError> {
    let (mut e, labels) = weighted_residuals(fit, true)?;
    let rank = fit.scalar("rank")?;
    let pear_res = match fit.kind {
        Kind::Lm => None,
        Kind::Glm(_) => {
            let p = residuals_of(fit, "pearson")?;
            Some(pick(&p, &nonzero(fit, p.len())))
        }
    };
    let n = e.len();
    if rank == 0.0 {
        let sigma = deviance_per_df(fit)?.sqrt();
        return Ok(Influence {
            hat: vec![0.0; n],
            coefficients: do_coef.then(Vec::new),
            sigma: vec![sigma; n],
            wt_res: e,
            pear_res,
            labels,
        });
    }
    // A case of hat 1 has a zero residual: exactly zero, not rounding noise
    // that would make its deletion statistics infinite.
    let small = 100.0 * f64::EPSILON * median_abs(&e);
    for x in e.iter_mut() {
        if x.abs() < small {
            *x = 0.0;
        }
    }
    let qr = fit.qr()?;
    if n != qr.n {
        return Err(KernelError::new(
            "non-NA residual length does not match cases used in fitting",
        ));
    }
    let k = qr.rank;
    let q = q_columns(&qr, k);
    let mut hat = vec![0.0; n];
    for col in &q {
        for (h, v) in hat.iter_mut().zip(col) {
            *h += v * v;
        }
    }
    for h in hat.iter_mut() {
        if *h >= 1.0 - TOL {
            *h = 1.0;
        }
    }
    let denom = n as f64 - k as f64 - 1.0;
    let mut ss = 0.0;
    for r in &e {
        ss += r * r;
    }
    let sigma = (0..n)
        .map(|i| {
            if hat[i] < 1.0 {
                ((ss - e[i] * e[i] / (1.0 - hat[i])) / denom).sqrt()
            } else {
                (ss / denom).sqrt()
            }
        })
        .collect();
    let coefficients = do_coef.then(|| {
        // t(backsolve(R, t(Q))) as reference BLAS dtrsm solves it, a row
        // of Q at a time, times e / (1 - h).
        let r = |i: usize, j: usize| qr.qr[j * qr.n + i];
        let mut out = vec![0.0; n * k];
        for i in 0..n {
            let mut b: Vec<f64> = q.iter().map(|c| c[i]).collect();
            for kk in (0..k).rev() {
                if b[kk] != 0.0 {
                    b[kk] /= r(kk, kk);
                    let t = b[kk];
                    for (l, bl) in b.iter_mut().enumerate().take(kk) {
                        *bl -= t * r(l, kk);
                    }
                }
            }
            let f = if hat[i] == 1.0 {
                0.0
            } else {
                e[i] / (1.0 - hat[i])
            };
            for (l, bl) in b.iter().enumerate() {
                out[l * n + i] = bl * f;
            }
        }
        out
    });
    Ok(Influence {
        hat,
        coefficients,
        sigma,
        wt_res: e,
        pear_res,
        labels,
    })
}

/// The names of the estimated (non-aliased) coefficients:
/// `variable.names(model)`.
fn estimated_names(fit: &Fit) -> Result<Vec<String>, KernelError> {
    let coef = fit.nums("coefficients")?;
    let names = fit.names();
    Ok((0..coef.len())
        .filter(|&i| !coef[i].is_nan())
        .map(|i| names.get(i).cloned().unwrap_or_default())
        .collect())
}

/// Infinite values made NaN, as R's `res[is.infinite(res)] <- NaN`.
fn finite_or_nan(mut v: Vec<f64>) -> Vec<f64> {
    for x in v.iter_mut() {
        if x.is_infinite() {
            *x = f64::NAN;
        }
    }
    v
}

/// A numeric argument that stands in for a default vector of `n` values:
/// `None` when not given.
fn given_vec(args: &Args<&Value>, name: &str, n: usize) -> Result<Option<Vec<f64>>, KernelError> {
    match args.get_if_formal(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            let x = v.as_f64_slice().ok_or_else(|| {
                KernelError::new(format!("non-numeric argument '{name}' ({})", v.type_name()))
            })?;
            match x.len() {
                1 => Ok(Some(vec![x[0]; n])),
                m if m == n => Ok(Some(x.to_vec())),
                m => Err(KernelError::new(format!(
                    "flowcast's {}() takes '{name}' of one value or one per observation ({n}), not {m}",
                    args.func
                ))),
            }
        }
    }
}

fn numbers_of(l: &List, name: &str) -> Option<Vec<f64>> {
    l.field(name)
        .map(super::super::names::bare)
        .and_then(Value::as_f64_slice)
        .map(std::borrow::Cow::into_owned)
}

/// The influence the call's `infl` holds (a `lm.influence` or `influence`
/// result), else the fit's own.
fn influence_arg(args: &Args<&Value>, fit: &Fit, do_coef: bool) -> Result<Influence, KernelError> {
    let given = match args.get_if_formal("infl") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v),
    };
    let Some(v) = given else {
        return lm_influence(fit, do_coef);
    };
    let bad = || {
        KernelError::new(format!(
            "'infl' must be a list as lm.influence() or influence() returns, not a {}",
            v.type_name()
        ))
    };
    let Value::List(l) = super::super::names::bare(v) else {
        return Err(bad());
    };
    let hat = numbers_of(l, "hat").ok_or_else(bad)?;
    let n = hat.len();
    let field = |name: &str| numbers_of(l, name).filter(|v| v.len() == n);
    let wt_res = field("wt.res").or_else(|| field("dev.res"));
    let labels = l
        .field("hat")
        .and_then(|h| super::super::names::names(h).map(<[String]>::to_vec))
        .unwrap_or_else(|| (1..=n).map(|i| i.to_string()).collect());
    let coefficients = match l.field("coefficients").map(super::super::names::bare) {
        Some(Value::Mat(m)) if m.nrows() == n => Some(m.as_slice().to_vec()),
        _ => None,
    };
    if do_coef && coefficients.is_none() {
        return Err(bad());
    }
    Ok(Influence {
        hat,
        coefficients,
        sigma: field("sigma").unwrap_or_else(|| vec![f64::NAN; n]),
        wt_res: wt_res.unwrap_or_else(|| vec![f64::NAN; n]),
        pear_res: field("pear.res"),
        labels,
    })
}

fn family(fit: &Fit) -> Option<Family> {
    match fit.kind {
        Kind::Glm(f) => Some(f),
        Kind::Lm => None,
    }
}

/// `summary(model)$dispersion` of a glm.
fn dispersion(fit: &Fit, f: Family, ctx: &mut Ctx) -> Result<f64, KernelError> {
    estimated_dispersion(fit, f, ctx)
}

pub(super) fn vector_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    model_type(args, "model")?;
    Ok(Type::num_unknown())
}

pub(super) fn matrix_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    model_type(args, "model")?;
    Ok(Type::Mat {
        rows: None,
        cols: None,
    })
}

pub(super) fn weighted_residuals_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    model_type(args, "obj")?;
    Ok(Type::num_unknown())
}

pub(super) fn influence_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let model = model_type(args, "model")?;
    let glm = matches!(model, Some(Type::Record { class, .. }) if class == "glm");
    let v = Type::num_unknown;
    let mut fields = vec![
        ("hat".to_string(), v()),
        (
            "coefficients".to_string(),
            Type::Mat {
                rows: None,
                cols: None,
            },
        ),
        ("sigma".to_string(), v()),
    ];
    if glm && args.func == "influence" {
        fields.push(("dev.res".to_string(), v()));
        fields.push(("pear.res".to_string(), v()));
    } else {
        fields.push(("wt.res".to_string(), v()));
    }
    if args.ty("do.coef").and_then(Type::const_scalar) == Some(0.0) {
        fields.remove(1);
    }
    Ok(Type::Record {
        class: "list".into(),
        fields,
    })
}

fn do_coef(args: &Args<&Value>) -> Result<bool, KernelError> {
    match args.get_if_formal("do.coef") {
        None => Ok(true),
        Some(v) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("invalid 'do.coef' argument: TRUE or FALSE")),
    }
}

/// `lm.influence(model, do.coef)` and `influence(model, do.coef)`.
pub(super) fn influence_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "model", args.func)?;
    let do_coef = do_coef(args)?;
    let infl = lm_influence(&fit, do_coef)?;
    let n = infl.hat.len();
    let name = |v: Vec<f64>| named(Value::Num(v), infl.labels.clone());
    // lm.influence's na.action branch: omitted cases have 0 leverage, 0
    // change in the coefficients, sigma the fit's own and NA residuals.
    let record = fit.record;
    let mut fields = vec![("hat", pad_fit_with(record, name(infl.hat.clone()), 0.0)?)];
    if let Some(c) = &infl.coefficients {
        let k = c.len() / n.max(1);
        let cols = estimated_names(&fit)?;
        let m = if n == 0 {
            DMatrix::zeros(0, cols.len())
        } else {
            DMatrix::from_vec(n, k, c.clone())
        };
        let coefficients = dimnamed(Value::Mat(m), Some(infl.labels.clone()), Some(cols));
        fields.push(("coefficients", pad_fit_with(record, coefficients, 0.0)?));
    }
    let own_sigma = if fit_excluded(record).is_some() {
        deviance_per_df(&fit)?.sqrt()
    } else {
        NA
    };
    fields.push((
        "sigma",
        pad_fit_with(record, name(infl.sigma.clone()), own_sigma)?,
    ));
    match (&infl.pear_res, args.func) {
        (Some(p), "influence") => {
            fields.push(("dev.res", pad_fit(record, name(infl.wt_res.clone()))?));
            fields.push(("pear.res", pad_fit(record, name(p.clone()))?));
        }
        _ => fields.push(("wt.res", pad_fit(record, name(infl.wt_res.clone()))?)),
    }
    Ok(Value::List(List::named(fields)))
}

pub(super) fn weighted_residuals_eval(
    args: &Args<&Value>,
    _: &mut Ctx,
) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "obj", "weighted.residuals")?;
    let drop0 = match args.get_if_formal("drop0") {
        None => true,
        Some(v) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("invalid 'drop0' argument: TRUE or FALSE"))?,
    };
    let (r, names) = weighted_residuals(&fit, drop0)?;
    pad_fit(fit.record, named(Value::Num(r), names))
}

/// `hatvalues(model, infl)`.
pub(super) fn hatvalues_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "model", "hatvalues")?;
    let infl = influence_arg(args, &fit, false)?;
    // lm.influence: "omitted cases have 0 leverage".
    pad_fit_with(fit.record, named(Value::Num(infl.hat), infl.labels), 0.0)
}

const LM_STANDARD: &[&str] = &["sd.1", "predictive"];
const GLM_STANDARD: &[&str] = &["deviance", "pearson"];

pub(super) fn rstandard_shape(args: &Args<Type>, c: &ShapeCtx) -> Result<Type, ArgError> {
    if let (Some(Type::Record { class, .. }), Some(ty)) =
        (model_type(args, "model")?, args.const_str("type"))
    {
        let types = if class == "glm" {
            GLM_STANDARD
        } else {
            LM_STANDARD
        };
        if matching(ty, types).is_none() {
            return Err(args.error("type", arg_error(types)));
        }
    }
    vector_shape(args, c)
}

/// `rstandard.lm(model, infl, sd, type)` and `rstandard.glm(model, infl,
/// type)`.
pub(super) fn rstandard_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "model", "rstandard")?;
    let types = match fit.kind {
        Kind::Lm => LM_STANDARD,
        Kind::Glm(_) => GLM_STANDARD,
    };
    let ty = args.str_or("type", types[0])?;
    let ty = matching(ty, types).ok_or_else(|| KernelError::new(arg_error(types)))?;
    let infl = influence_arg(args, &fit, false)?;
    let n = infl.hat.len();
    let res: Vec<f64> = match family(&fit) {
        None => {
            let sd = match given_vec(args, "sd", n)? {
                Some(sd) => sd,
                None => vec![deviance_per_df(&fit)?.sqrt(); n],
            };
            (0..n)
                .map(|i| {
                    let d = if ty == "sd.1" {
                        (1.0 - infl.hat[i]).sqrt() * sd[i]
                    } else {
                        1.0 - infl.hat[i]
                    };
                    infl.wt_res[i] / d
                })
                .collect()
        }
        Some(f) => {
            let r = if ty == "pearson" {
                infl.pear_res.clone().unwrap_or_else(|| vec![f64::NAN; n])
            } else {
                infl.wt_res.clone()
            };
            let disp = dispersion(&fit, f, ctx)?;
            (0..n)
                .map(|i| {
                    r.get(i).copied().unwrap_or(f64::NAN) / (disp * (1.0 - infl.hat[i])).sqrt()
                })
                .collect()
        }
    };
    pad_fit(
        fit.record,
        named(Value::Num(finite_or_nan(res)), infl.labels),
    )
}

/// `rstudent.lm(model, infl, res)` and `rstudent.glm(model, infl)`.
pub(super) fn rstudent_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "model", "rstudent")?;
    let infl = influence_arg(args, &fit, false)?;
    let n = infl.hat.len();
    let res: Vec<f64> = match family(&fit) {
        None => {
            let res = given_vec(args, "res", n)?.unwrap_or_else(|| infl.wt_res.clone());
            (0..n)
                .map(|i| res[i] / (infl.sigma[i] * (1.0 - infl.hat[i]).sqrt()))
                .collect()
        }
        Some(f) => {
            let pear = infl.pear_res.clone().unwrap_or_else(|| vec![f64::NAN; n]);
            let r: Vec<f64> = (0..n)
                .map(|i| {
                    let r = infl.wt_res[i];
                    let h = infl.hat[i];
                    let p = pear.get(i).copied().unwrap_or(f64::NAN);
                    sign(r) * (r * r + (h * (p * p)) / (1.0 - h)).sqrt()
                })
                .collect();
            let r = finite_or_nan(r);
            if f.fixed_dispersion() {
                r
            } else {
                r.iter().zip(&infl.sigma).map(|(r, s)| r / s).collect()
            }
        }
    };
    pad_fit(
        fit.record,
        named(Value::Num(finite_or_nan(res)), infl.labels),
    )
}

/// R's `sign`: 0 for 0, NaN for NaN.
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x
    }
}

/// `cooks.distance.lm(model, infl, res, sd, hat)` and
/// `cooks.distance.glm(model, infl, res, dispersion, hat)`.
pub(super) fn cooks_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "model", "cooks.distance")?;
    let infl = influence_arg(args, &fit, false)?;
    let n = infl.hat.len();
    let p = fit.scalar("rank")?;
    let hat = given_vec(args, "hat", n)?.unwrap_or_else(|| infl.hat.clone());
    let res: Vec<f64> = match family(&fit) {
        None => {
            let res = match given_vec(args, "res", n)? {
                Some(r) => r,
                None => weighted_residuals(&fit, true)?.0,
            };
            let sd = match given_vec(args, "sd", n)? {
                Some(sd) => sd,
                None => vec![deviance_per_df(&fit)?.sqrt(); n],
            };
            (0..n)
                .map(|i| {
                    let z = res.get(i).copied().unwrap_or(f64::NAN) / ((1.0 - hat[i]) * sd[i]);
                    (z * z * hat[i]) / p
                })
                .collect()
        }
        Some(f) => {
            let res = match given_vec(args, "res", n)? {
                Some(r) => r,
                None => infl.pear_res.clone().unwrap_or_else(|| vec![f64::NAN; n]),
            };
            let disp = match args.get_if_formal("dispersion") {
                None | Some(Value::Null) => dispersion(&fit, f, ctx)?,
                Some(_) => args.scalar("dispersion")?,
            };
            (0..n)
                .map(|i| {
                    let z = res.get(i).copied().unwrap_or(f64::NAN) / (1.0 - hat[i]);
                    z * z * hat[i] / (disp * p)
                })
                .collect()
        }
    };
    pad_fit(
        fit.record,
        named(Value::Num(finite_or_nan(res)), infl.labels),
    )
}

/// `dffits(model, infl, res)`.
pub(super) fn dffits_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "model", "dffits")?;
    let infl = influence_arg(args, &fit, false)?;
    let n = infl.hat.len();
    let res = match given_vec(args, "res", n)? {
        Some(r) => r,
        None => weighted_residuals(&fit, true)?.0,
    };
    let out = (0..n)
        .map(|i| {
            let h = infl.hat[i];
            res.get(i).copied().unwrap_or(f64::NAN) * h.sqrt() / (infl.sigma[i] * (1.0 - h))
        })
        .collect();
    pad_fit(
        fit.record,
        named(Value::Num(finite_or_nan(out)), infl.labels),
    )
}

/// `covratio(model, infl, res)`.
pub(super) fn covratio_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "model", "covratio")?;
    let infl = influence_arg(args, &fit, false)?;
    let n = infl.hat.len();
    let res = match given_vec(args, "res", n)? {
        Some(r) => r,
        None => weighted_residuals(&fit, true)?.0,
    };
    let rows = fit.qr()?.n as f64;
    let p = fit.scalar("rank")?;
    let out = (0..n)
        .map(|i| {
            let omh = 1.0 - infl.hat[i];
            let mut e = res.get(i).copied().unwrap_or(f64::NAN) / (infl.sigma[i] * omh.sqrt());
            if e.is_infinite() {
                e = f64::NAN;
            }
            1.0 / (omh * r_pow(((rows - p - 1.0) + e * e) / (rows - p), p))
        })
        .collect();
    pad_fit(fit.record, named(Value::Num(out), infl.labels))
}

/// R's `x^y` (`R_POW`): `x * x` for a square, else libm's pow.
fn r_pow(x: f64, y: f64) -> f64 {
    if y == 2.0 {
        x * x
    } else if x == 1.0 || y == 0.0 {
        1.0
    } else {
        x.powf(y)
    }
}

/// `dfbeta(model, infl)` and `dfbetas(model, infl)`.
pub(super) fn dfbeta_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "model", args.func)?;
    let infl = influence_arg(args, &fit, true)?;
    let n = infl.hat.len();
    let cols = estimated_names(&fit)?;
    let mut c = infl.coefficients.unwrap_or_default();
    let k = c.len().checked_div(n).unwrap_or(cols.len());
    if args.func == "dfbetas" {
        let qr = fit.qr()?;
        let kk = qr.rank.min(k);
        // chol2inv(qr$qr, qr$rank): R's (X'X)^-1, to its last bits.
        let xxi = la_chol2inv(&qr.qr, qr.n, qr.rank)?;
        for l in 0..kk {
            let s = xxi[l * qr.rank + l].sqrt();
            for i in 0..n {
                c[l * n + i] /= infl.sigma[i] * s;
            }
        }
    }
    let m = if n == 0 || c.len() != n * k {
        DMatrix::zeros(n, if n == 0 { k } else { 0 })
    } else {
        DMatrix::from_vec(n, k, c)
    };
    let cols = (cols.len() == k).then_some(cols);
    // lm.influence: "omitted cases have 0 change".
    pad_fit_with(
        fit.record,
        dimnamed(Value::Mat(m), Some(infl.labels), cols),
        0.0,
    )
}

/// One name as base R's C `stripchars` (character.c, behind
/// `abbreviate`) shortens it to `minlen`: drop lower-case vowels at the
/// ends of words, then the other inner ones, then lower-case letters the
/// same way, and last any character but a word's first.
fn stripchars(name: &str, minlen: usize) -> String {
    let mut s: Vec<char> = name.chars().collect();
    let ascii = name.is_ascii();
    let space = |c: char| c.is_whitespace();
    let vowel = |c: char| {
        matches!(c, 'a' | 'e' | 'i' | 'o' | 'u') || (!ascii && WIDE_VOWELS.contains(&(c as u32)))
    };
    let lower = |c: char| {
        if ascii {
            c.is_ascii_lowercase()
        } else {
            c.is_lowercase()
        }
    };
    let mut nspace = 0usize;
    'done: {
        if s.len() < minlen {
            break 'done;
        }
        // Spaces are word boundaries, removed at the end; trailing ones go now.
        let mut trailing = true;
        let mut i = s.len().saturating_sub(1);
        while i > 0 {
            if space(s[i]) {
                if trailing {
                    s.truncate(i);
                } else {
                    nspace += 1;
                }
            } else {
                trailing = false;
            }
            if s.len() - nspace <= minlen {
                break 'done;
            }
            i -= 1;
        }
        let first = |s: &[char], i: usize| space(s[i - 1]);
        let last = |s: &[char], i: usize| !space(s[i - 1]) && (i + 1 >= s.len() || space(s[i + 1]));
        type Drop<'a> = &'a dyn Fn(&[char], usize) -> bool;
        let passes: [Drop; 5] = [
            &|s, i| vowel(s[i]) && last(s, i),
            &|s, i| vowel(s[i]) && !first(s, i),
            &|s, i| lower(s[i]) && last(s, i),
            &|s, i| lower(s[i]) && !first(s, i),
            &|s, i| !first(s, i) && !space(s[i]),
        ];
        for pass in passes {
            let mut i = s.len().saturating_sub(1);
            while i > 0 {
                if i < s.len() && pass(&s, i) {
                    s.remove(i);
                }
                if s.len() - nspace <= minlen {
                    break 'done;
                }
                i -= 1;
            }
        }
    }
    if s.len() > minlen {
        let mut i = s.len() - 1;
        while i > 0 {
            if space(s[i]) {
                s.remove(i);
            }
            i -= 1;
        }
    }
    s.into_iter().collect()
}

/// wstripchars' lower-case vowels beyond ASCII (its list, `.` included).
const WIDE_VOWELS: &[u32] = &[
    0xe0, 0xe1, 0x2e, 0xe3, 0xe4, 0xe5, 0xe8, 0xe9, 0xea, 0xeb, 0xec, 0xed, 0xee, 0xef, 0xf2, 0xf3,
    0xf4, 0xf5, 0xf6, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0x101, 0x103, 0x105, 0x113, 0x115, 0x117,
    0x118, 0x11b, 0x129, 0x12b, 0x12d, 0x12f, 0x131, 0x14d, 0x14f, 0x151, 0x169, 0x16b, 0x16d,
    0x16f, 0x171, 0x173,
];

/// R's `abbreviate(names)` with its defaults (minlength 4, "left.kept"):
/// names that collide are abbreviated again one character longer.
fn abbreviate(names: &[String]) -> Vec<String> {
    let trimmed: Vec<String> = names
        .iter()
        .map(|n| n.trim_matches(' ').to_string())
        .collect();
    let mut unique: Vec<String> = Vec::new();
    for n in &trimmed {
        if !unique.contains(n) {
            unique.push(n.clone());
        }
    }
    let mut x = unique.clone();
    let mut minlen = 4;
    let mut redo = vec![true; unique.len()];
    loop {
        for (i, u) in unique.iter().enumerate() {
            if redo[i] {
                x[i] = stripchars(u, minlen);
            }
        }
        let dup: Vec<bool> = (0..x.len()).map(|i| x[..i].contains(&x[i])).collect();
        if !dup.iter().any(|&d| d) || minlen > 1 << 20 {
            break;
        }
        minlen += 1;
        let clashing: Vec<String> = (0..x.len())
            .filter(|&i| dup[i])
            .map(|i| x[i].clone())
            .collect();
        redo = (0..x.len())
            .map(|i| dup[i] || clashing.contains(&x[i]))
            .collect();
    }
    trimmed
        .iter()
        .map(|n| x[unique.iter().position(|u| u == n).unwrap_or(0)].clone())
        .collect()
}

pub(super) fn influence_measures_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    model_type(args, "model")?;
    Ok(Type::Record {
        class: "infl".into(),
        fields: vec![
            (
                "infmat".to_string(),
                Type::Mat {
                    rows: None,
                    cols: None,
                },
            ),
            (
                "is.inf".to_string(),
                Type::BoolMat {
                    rows: None,
                    cols: None,
                },
            ),
        ],
    })
}

/// `influence.measures(model, infl)` of an lm or glm, as lm.influence.R
/// computes it (without its `call`, which flowcast's fits do not keep).
pub(super) fn influence_measures_eval(
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "model", "influence.measures")?;
    if fit_excluded(fit.record).is_some() {
        return Err(KernelError::new(
            "flowcast's influence.measures() does not take a fit made with na.action = na.exclude \
             (R pads its table's rows with the omitted cases): refit with na.omit",
        ));
    }
    let p = fit.scalar("rank")?;
    if p == 0.0 {
        // qr.lm's refusal: lm.fit keeps no qr of an empty model.
        return Err(KernelError::new(
            "lm object does not have a proper 'qr' component.\n Rank zero or should not have used lm(.., qr=FALSE).",
        ));
    }
    let infl = influence_arg(args, &fit, true)?;
    // Its own weighted residuals, not lm.influence's with the tiny ones zeroed.
    let (e, _) = weighted_residuals(&fit, true)?;
    let n = infl.hat.len();
    if e.len() != n || infl.sigma.len() != n {
        return Err(KernelError::new("'infl' does not match the model's cases"));
    }
    let sq: Vec<f64> = e.iter().map(|x| x * x).collect();
    let s = (sum(&sq, true) / fit.scalar("df.residual")?).sqrt();
    let qr = fit.qr()?;
    let xxi = la_chol2inv(&qr.qr, qr.n, qr.rank)?;
    let vn = estimated_names(&fit)?;
    let c = infl.coefficients.clone().unwrap_or_default();
    let k = vn.len();
    if c.len() != n * k || qr.rank != k {
        return Err(KernelError::new(
            "'infl' does not match the model's coefficients",
        ));
    }
    let (si, h) = (&infl.sigma, &infl.hat);
    let mut cols: Vec<Vec<f64>> = (0..k)
        .map(|l| {
            let d = xxi[l * qr.rank + l].sqrt();
            (0..n).map(|i| c[l * n + i] / (si[i] * d)).collect()
        })
        .collect();
    cols.push(
        (0..n)
            .map(|i| e[i] * h[i].sqrt() / (si[i] * (1.0 - h[i])))
            .collect(),
    );
    cols.push(
        (0..n)
            .map(|i| r_pow(si[i] / s, 2.0 * p) / (1.0 - h[i]))
            .collect(),
    );
    cols.push(match family(&fit) {
        None => (0..n)
            .map(|i| {
                let z = e[i] / (s * (1.0 - h[i]));
                (z * z * h[i]) / p
            })
            .collect(),
        Some(f) => {
            let pear = infl.pear_res.clone().unwrap_or_else(|| vec![f64::NAN; n]);
            let disp = dispersion(&fit, f, ctx)?;
            (0..n)
                .map(|i| {
                    let z = pear.get(i).copied().unwrap_or(f64::NAN) / (1.0 - h[i]);
                    z * z * h[i] / (disp * p)
                })
                .collect()
        }
    });
    cols.push(h.clone());
    let infmat: Vec<f64> = finite_or_nan(cols.concat());
    // is.influential(infmat, sum(h > 0)).
    let m = h.iter().filter(|&&x| x > 0.0).count();
    if m <= k {
        return Err(KernelError::new("too few cases i with h_ii > 0), n < k"));
    }
    let (kf, mf) = (k as f64, m as f64);
    let at = |j: usize, i: usize| infmat[j * n + i];
    let cmp = |x: f64, over: f64| (!x.is_nan()).then_some(x > over);
    let mut flags: Vec<Option<bool>> = Vec::with_capacity(n * (k + 4));
    for j in 0..k {
        flags.extend((0..n).map(|i| cmp(at(j, i).abs(), 1.0)));
    }
    flags.extend((0..n).map(|i| cmp(at(k, i).abs(), 3.0 * (kf / (mf - kf)).sqrt())));
    flags.extend((0..n).map(|i| cmp((1.0 - at(k + 1, i)).abs(), (3.0 * kf) / (mf - kf))));
    flags.extend((0..n).map(|i| {
        let x = at(k + 2, i);
        (!x.is_nan()).then(|| super::super::nmath::pf(x, kf, mf - kf, true, false) > 0.5)
    }));
    flags.extend((0..n).map(|i| cmp(at(k + 3, i), (3.0 * kf) / mf)));
    let mut names: Vec<String> = vn
        .iter()
        .map(|v| {
            if v == "(Intercept)" {
                "1_".to_string()
            } else {
                v.clone()
            }
        })
        .collect();
    names = abbreviate(&names)
        .into_iter()
        .map(|a| format!("dfb.{a}"))
        .collect();
    names.extend(["dffit", "cov.r", "cook.d", "hat"].map(String::from));
    let infmat = dimnamed(
        Value::Mat(DMatrix::from_vec(n, k + 4, infmat)),
        Some(infl.labels.clone()),
        Some(names.clone()),
    );
    let is_inf = dimnamed(
        Value::BoolMat(DMatrix::from_vec(n, k + 4, flags)),
        Some(infl.labels),
        Some(names),
    );
    Ok(Value::List(List::record(
        "infl",
        vec![("infmat", infmat), ("is.inf", is_inf)],
    )))
}
