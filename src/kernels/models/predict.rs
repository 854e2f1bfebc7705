//! `predict(object, newdata, type)` of an `lm` (R's `predict.lm`) or a
//! `glm` (`predict.glm`, type "link" or "response").
//!
//! R rebuilds the model's terms in `newdata` (`model.frame(Terms,
//! newdata)`). The evaluator does that before the call: it reads the fit's
//! `terms$term.labels` (R text) among `newdata`'s columns and hands the
//! kernel the evaluated terms as a formula without a response. Rows with
//! an NA predict NA (`na.action = na.pass`).

use super::super::factor::as_text;
use super::super::frame;
use super::super::loess;
use super::super::model_matrix::{self, Coded};
use super::super::smooth_spline;
use super::super::value::Formula;
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::accessors::{arg_error, matching};
use super::fit::{model_type, Fit, Kind};
use super::glm::xb;
use super::summary::estimated_dispersion;
use crate::kernels::linalg::linpack::{dqrsl, Job};
use crate::kernels::na_action::pad_fit;
use crate::kernels::value::List;

const LM_TYPES: &[&str] = &["response", "terms"];
const GLM_TYPES: &[&str] = &["link", "response", "terms"];

pub(super) fn predict_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(Type::Record { class, .. }) = args.ty("object") {
        if class == loess::CLASS {
            return Ok(Type::Any);
        }
        if class == smooth_spline::CLASS {
            let len = args.ty("newdata").and_then(Type::len);
            let v = || Type::Num { len, value: None };
            return Ok(Type::Record {
                class: "list".into(),
                fields: vec![("x".into(), v()), ("y".into(), v())],
            });
        }
    }
    if let Some(Type::Record { class, .. }) = args.ty("object") {
        if class == super::super::holt_winters::CLASS
            || class == super::super::arima::CLASS
            || class == super::super::struct_ts::CLASS
            || class == "ar"
        {
            return Ok(Type::Any);
        }
    }
    if super::mlm::is_mlm_type(args) {
        return Ok(Type::Mat {
            rows: None,
            cols: None,
        });
    }
    let model = model_type(args, "object")?;
    if let (Some(Type::Record { class, .. }), Some(ty)) = (model, args.const_str("type")) {
        let types = if class == "lm" || class == super::aov::CLASS {
            LM_TYPES
        } else {
            GLM_TYPES
        };
        match matching(ty, types) {
            None => return Err(args.error("type", arg_error(types))),
            Some("terms") => return Err(args.error("type", TERMS)),
            Some(_) => {}
        }
    }
    let len = match args.ty("newdata") {
        Some(t @ Type::Record { .. }) => frame::frame_fields(t)
            .and_then(|f| f.first())
            .and_then(|(_, c)| c.len()),
        _ => None,
    };
    let glm = matches!(model, Some(Type::Record { class, .. }) if class == "glm");
    match args.ty("se.fit").map(Type::const_scalar) {
        None | Some(Some(0.0)) => {}
        Some(Some(_)) if model.is_some() => {
            let v = Type::num_unknown;
            let mut fields = vec![("fit", Type::Any), ("se.fit", v())];
            if !glm {
                fields.push(("df", Type::num(1)));
            }
            fields.push(("residual.scale", Type::num(1)));
            return Ok(Type::Record {
                class: "list".into(),
                fields: fields
                    .into_iter()
                    .map(|(n, t)| (n.to_string(), t))
                    .collect(),
            });
        }
        Some(_) => return Ok(Type::Any),
    }
    if args.has("interval") && !glm {
        match args.const_str("interval").map(|i| matching(i, INTERVALS)) {
            Some(None) => return Err(args.error("interval", arg_error(INTERVALS))),
            Some(Some("none")) => {}
            Some(Some(_)) if model.is_some() => {
                return Ok(Type::Mat {
                    rows: len,
                    cols: Some(3),
                })
            }
            _ => return Ok(Type::Any),
        }
    }
    Ok(Type::Num { len, value: None })
}

const INTERVALS: &[&str] = &["none", "confidence", "prediction"];

const TERMS: &str = "predict(type = \"terms\") is not supported by flowcast yet";

pub(super) fn predict_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    // The methods' own arguments past predict's formals arrive in `...`.
    let dot = |name: &str| args.dots().find(|(n, _)| *n == Some(name)).map(|(_, v)| v);
    if smooth_spline::is_smooth_spline(args.get("object")) {
        // predict.smooth.spline(object, x, deriv = 0, ...): its `x` is the
        // second argument (newdata here) or a named one, `deriv` named or
        // the third (here `type`).
        let x = args.get("newdata").or_else(|| dot("x"));
        let deriv = dot("deriv").or_else(|| args.get("type"));
        return smooth_spline::predict(args.get("object").unwrap_or(&Value::Null), x, deriv);
    }
    if super::super::holt_winters::is_holt_winters(args.get("object")) {
        // predict.HoltWinters(object, n.ahead = 1, prediction.interval,
        // level): n.ahead is the second argument (newdata here) or named.
        let n_ahead = dot("n.ahead").or_else(|| args.get("newdata"));
        return super::super::holt_winters::predict(
            args.get("object").unwrap_or(&Value::Null),
            n_ahead,
            dot("prediction.interval"),
        );
    }
    if super::super::arima::is_arima(args.get("object")) {
        // predict.Arima(object, n.ahead = 1L, newxreg = NULL, se.fit =
        // TRUE): n.ahead is the second argument (newdata here) or named.
        return super::super::arima::predict(
            args.get("object").unwrap_or(&Value::Null),
            dot("n.ahead").or_else(|| args.get("newdata")),
            dot("newxreg"),
            args.get("se.fit"),
        );
    }
    if super::super::struct_ts::is_struct_ts(args.get("object")) {
        // predict.StructTS(object, n.ahead = 1L, se.fit = TRUE, ...):
        // n.ahead is the second argument (newdata here) or named.
        return super::super::struct_ts::predict(
            args.get("object").unwrap_or(&Value::Null),
            dot("n.ahead").or_else(|| args.get("newdata")),
            args.get("se.fit"),
        );
    }
    if super::super::ar::is_ar(args.get("object")) {
        // predict.ar(object, newdata, n.ahead = 1L, se.fit = TRUE).
        return super::super::ar::predict(
            args.get("object").unwrap_or(&Value::Null),
            args.get("newdata"),
            dot("n.ahead"),
            args.get("se.fit"),
        );
    }
    if loess::is_loess(args.get("object")) {
        // predict.loess(object, newdata = NULL, se = FALSE, ...).
        return loess::predict(
            args.get("object").unwrap_or(&Value::Null),
            args.get("newdata"),
            // `se` matches predict's `se.fit` partially, as in R.
            args.get("se.fit").or_else(|| dot("se")),
        );
    }
    if let Some(fit) = super::nls::Nls::of(args.get("object")) {
        return super::nls::predict(&fit, args.get("newdata"));
    }
    if let Some(m) = super::mlm::Mlm::of(args.get("object")) {
        // predict.mlm: no standard errors or intervals.
        if args.bool_or("se.fit", false)? {
            return Err(KernelError::new(
                "the 'se.fit' argument is not yet implemented for \"mlm\" objects",
            ));
        }
        if super::super::filter::choice(args.get("interval"), INTERVALS)? != "none" {
            return Err(KernelError::new(
                "flowcast's predict() of an mlm fit gives no intervals, as R's predict.mlm",
            ));
        }
        return m.predict(args.get("newdata"), ctx);
    }
    let fit = Fit::from_arg(args, "object", "predict")?;
    let types = match fit.kind {
        Kind::Lm => LM_TYPES,
        Kind::Glm(_) => GLM_TYPES,
    };
    let ty = args.str_or("type", types[0])?;
    let ty = matching(ty, types).ok_or_else(|| KernelError::new(arg_error(types)))?;
    if ty == "terms" {
        return Err(KernelError::new(TERMS));
    }
    let se_fit = args.bool_or("se.fit", false)?;
    // predict.glm has no interval (its `...` swallow one); predict.lm's.
    let interval = match fit.kind {
        Kind::Lm => super::super::filter::choice(args.get("interval"), INTERVALS)?,
        Kind::Glm(_) => "none",
    };
    let newdata = args.get("newdata").filter(|v| !matches!(v, Value::Null));
    let Some(newdata) = newdata else {
        // predict.lm and predict.glm on the fit's own cases end with
        // napredict(object$na.action, ...).
        return pad_fit(fit.record, current(&fit, args, ty, interval, se_fit, ctx)?);
    };
    let (x, n, offset) = model_matrix(&fit, newdata)?;
    let qr = fit.qr()?;
    let coef = fit.nums("coefficients")?;
    if x.len() != n * qr.p || coef.len() != qr.p {
        return Err(KernelError::new(format!(
            "'newdata' gives {} columns of the model matrix, the fit has {}",
            x.len().checked_div(n).unwrap_or(0),
            qr.p
        )));
    }
    let piv: Vec<usize> = qr.pivot[..qr.rank].iter().map(|p| p - 1).collect();
    if qr.rank < qr.p {
        ctx.warn("prediction from a rank-deficient fit may be misleading");
    }
    let xp: Vec<f64> = piv
        .iter()
        .flat_map(|&j| x[j * n..(j + 1) * n].to_vec())
        .collect();
    let beta: Vec<f64> = piv.iter().map(|&j| coef[j]).collect();
    let mut eta = xb(&xp, n, &beta);
    if let Some(o) = &offset {
        eta.iter_mut().zip(o).for_each(|(e, o)| *e += o);
    }
    if interval == "none" && !se_fit {
        return Ok(Value::Num(match (fit.kind, ty) {
            (Kind::Glm(f), "response") => eta.iter().map(|&e| f.linkinv(e)).collect(),
            _ => eta,
        }));
    }
    // predict.lm: res.var = RSS / df, XRinv = X[, piv] %*% solve(R[p1, p1]),
    // ip = XRinv^2 %*% rep(res.var, p).
    let (res_var, df) = residual_variance(&fit, args, ctx)?;
    let k = qr.rank;
    let r = |i: usize, j: usize| qr.qr[j * qr.n + i];
    let ips: Vec<f64> = (0..n)
        .map(|i| {
            let mut z = vec![0.0; k];
            for j in 0..k {
                let mut s = xp[j * n + i];
                for (l, zl) in z.iter().enumerate().take(j) {
                    s -= zl * r(l, j);
                }
                z[j] = s / r(j, j);
            }
            z.iter().map(|z| z * z * res_var).sum()
        })
        .collect();
    if interval == "none" {
        return Ok(with_se(&fit, ty, eta, &ips, res_var, df));
    }
    intervals(args, interval, se_fit, &eta, &ips, res_var, df)
}

/// predict.lm's intervals: the fit, then its lower and upper ends, the
/// half-width qt((1 - level)/2, df) times sqrt(ip) (confidence) or
/// sqrt(ip + res.var) (prediction); with `se.fit`, the list predict.lm
/// gives.
fn intervals(
    args: &Args<&Value>,
    interval: &str,
    se_fit: bool,
    eta: &[f64],
    ips: &[f64],
    res_var: f64,
    df: f64,
) -> Result<Value, KernelError> {
    let level = match args.get("level") {
        None => 0.95,
        Some(v) => v
            .as_scalar()
            .ok_or_else(|| KernelError::new("'level' must be a number"))?,
    };
    let n = eta.len();
    let tfrac = crate::kernels::nmath::qt::qt((1.0 - level) / 2.0, df, true, false);
    let mut out = nalgebra::DMatrix::zeros(n, 3);
    for (i, ip) in ips.iter().enumerate() {
        let hwid = tfrac
            * if interval == "confidence" {
                ip.sqrt()
            } else {
                (ip + res_var).sqrt()
            };
        out[(i, 0)] = eta[i];
        out[(i, 1)] = eta[i] + hwid;
        out[(i, 2)] = eta[i] - hwid;
    }
    if !se_fit {
        return Ok(Value::Mat(out));
    }
    let se = ips.iter().map(|ip| ip.sqrt()).collect();
    Ok(Value::List(List::named(vec![
        ("fit", Value::Mat(out)),
        ("se.fit", Value::Num(se)),
        ("df", Value::scalar(df)),
        ("residual.scale", Value::scalar(res_var.sqrt())),
    ])))
}

/// predict.lm's `res.var` and `df`: the residual mean square and the
/// residual degrees of freedom of an lm; a glm's `scale^2` (its
/// dispersion, `summary(object)$dispersion` unless given) with `df = Inf`.
fn residual_variance(
    fit: &Fit,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<(f64, f64), KernelError> {
    match fit.kind {
        Kind::Lm => {
            let df = fit.scalar("df.residual")?;
            Ok((fit.weighted_rss()? / df, df))
        }
        Kind::Glm(f) => {
            let given = args
                .dots()
                .find(|(n, _)| *n == Some("dispersion"))
                .map(|(_, v)| v);
            let d = match given.and_then(Value::as_scalar) {
                Some(d) if d != 0.0 => d,
                _ => estimated_dispersion(fit, f, ctx)?,
            };
            let scale = d.sqrt();
            Ok((scale * scale, f64::INFINITY))
        }
    }
}

/// `predict(se.fit = TRUE)`'s list: predict.lm's `fit`, `se.fit`, `df`
/// and `residual.scale`, or predict.glm's `fit`, `se.fit` and
/// `residual.scale` (on the response scale through `mu.eta` when asked).
fn with_se(fit: &Fit, ty: &str, eta: Vec<f64>, ips: &[f64], res_var: f64, df: f64) -> Value {
    let mut se: Vec<f64> = ips.iter().map(|ip| ip.sqrt()).collect();
    let scale = Value::scalar(res_var.sqrt());
    match fit.kind {
        Kind::Lm => Value::List(List::named(vec![
            ("fit", Value::Num(eta)),
            ("se.fit", Value::Num(se)),
            ("df", Value::scalar(df)),
            ("residual.scale", scale),
        ])),
        Kind::Glm(f) => {
            let mut out = eta;
            if ty == "response" {
                for (s, e) in se.iter_mut().zip(out.iter_mut()) {
                    *s *= f.mu_eta(*e).abs();
                    *e = f.linkinv(*e);
                }
            }
            Value::List(List::named(vec![
                ("fit", Value::Num(out)),
                ("se.fit", Value::Num(se)),
                ("residual.scale", scale),
            ]))
        }
    }
}

/// `predict(fit, se.fit = TRUE)` without newdata: R's `X[, piv] %*%
/// solve(R)` is Q's first `rank` columns over the square roots of the
/// fit's weights (lm's prior weights, glm's working weights), row by row.
/// The fit's own linear predictors (or fitted values) and each one's
/// variance `ip`, with `res.var` and `df`: what predict.lm computes from
/// the model matrix when there is no newdata, here from the QR's Q.
fn current_variances(
    fit: &Fit,
    ty: &str,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<(Vec<f64>, Vec<f64>, f64, f64), KernelError> {
    let qr = fit.qr()?;
    let field = match (fit.kind, ty) {
        (Kind::Glm(_), _) => "linear.predictors",
        _ => "fitted.values",
    };
    let eta = fit.nums(field)?.to_vec();
    let n = eta.len();
    let w: Option<&[f64]> = match fit.kind {
        Kind::Lm => fit.prior_weights(),
        Kind::Glm(_) => Some(fit.nums("weights")?),
    };
    if qr.n != n || w.is_some_and(|w| w.len() != n || w.contains(&0.0)) {
        return Err(KernelError::new(
            "predict() without 'newdata' of a fit with cases of weight zero is not supported by flowcast yet",
        ));
    }
    let (res_var, df) = residual_variance(fit, args, ctx)?;
    let k = qr.rank;
    let mut ips = vec![0.0; n];
    for j in 0..k {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        let q = dqrsl(
            &qr,
            k,
            &e,
            Job {
                qy: true,
                ..Job::default()
            },
        )
        .qy;
        for (i, ip) in ips.iter_mut().enumerate() {
            let x = match w {
                Some(w) => q[i] / w[i].sqrt(),
                None => q[i],
            };
            *ip += x * x * res_var;
        }
    }
    Ok((eta, ips, res_var, df))
}

/// The model matrix of `newdata`, built as the fit's was: its variables
/// from the evaluated formula (or newdata's columns), factors coded by the
/// fit's levels. Column-major, with its row count and the offset at each
/// row (its parts evaluated in newdata by the evaluator), when the fit has
/// one.
pub(super) fn model_matrix(fit: &Fit, newdata: &Value) -> Result<NewData, KernelError> {
    let (variables, terms) = fit.term_variables();
    let listed: Vec<(String, Value)>;
    let mut offset: Option<Vec<f64>> = None;
    let columns: &[(String, Value)] = match newdata {
        Value::Formula(Formula { terms, .. }) => {
            for (label, v) in terms {
                let Some(o) = model_matrix::offset_of(v) else {
                    continue;
                };
                let o = o.as_f64_slice().ok_or_else(|| {
                    KernelError::new(format!("invalid type ({}) for '{label}'", o.type_name()))
                })?;
                match &mut offset {
                    None => offset = Some(o.into_owned()),
                    Some(t) if t.len() == o.len() => {
                        t.iter_mut().zip(o.iter()).for_each(|(t, o)| *t += o)
                    }
                    Some(_) => {
                        return Err(KernelError::new(format!(
                            "variable lengths differ (found for '{label}')"
                        )))
                    }
                }
            }
            if variables.is_empty() {
                if let Some(o) = offset {
                    let n = o.len();
                    let x = if fit.intercept() {
                        vec![1.0; n]
                    } else {
                        Vec::new()
                    };
                    return Ok((x, n, Some(o)));
                }
            }
            terms
        }
        Value::List(l) if l.names.is_some() => {
            if fit.has_offset() {
                return Err(KernelError::new(
                    "flowcast's predict() of a fit with an offset reads newdata through the \
                     workflow: call it as predict(fit, newdata = d) in a step",
                ));
            }
            // Called without the evaluator's help (or an intercept-only
            // model): each variable must be a column of newdata.
            if variables.is_empty() {
                let n = frame::nrow(l);
                let x = if fit.intercept() {
                    vec![1.0; n]
                } else {
                    Vec::new()
                };
                return Ok((x, n, None));
            }
            listed = l
                .names
                .iter()
                .flatten()
                .cloned()
                .zip(l.items.iter().cloned())
                .collect();
            &listed
        }
        other => {
            return Err(KernelError::new(format!(
                "'newdata' must be a data frame or a named list, not {}",
                other.type_name()
            )))
        }
    };
    let mut coded = Vec::with_capacity(variables.len());
    let mut n = None;
    for label in &variables {
        let v = columns
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v)
            .ok_or_else(|| KernelError::new(format!("object '{label}' not found")))?;
        let c = coded_as_fitted(fit, label, v)?;
        let rows = match &c {
            Coded::Numbers(cols) => cols.first().map_or(0, Vec::len),
            Coded::Factor { codes, .. } => codes.len(),
        };
        if *n.get_or_insert(rows) != rows {
            return Err(KernelError::new(format!(
                "variable lengths differ (found for '{label}')"
            )));
        }
        coded.push((label.as_str(), c));
    }
    let n = n.unwrap_or(0);
    if offset.as_ref().is_some_and(|o| o.len() != n) {
        return Err(KernelError::new(
            "variable lengths differ (found for the offset)",
        ));
    }
    let m = model_matrix::build(&coded, &terms, fit.intercept(), n)?;
    Ok((m.x, n, offset))
}

/// newdata's model matrix (column-major), its rows, and its offset.
pub(super) type NewData = (Vec<f64>, usize, Option<Vec<f64>>);

/// A newdata variable coded as the fit coded it (`model.frame(Terms,
/// newdata, xlev = object$xlevels)`); NA rows predict NA.
fn coded_as_fitted(fit: &Fit, label: &str, v: &Value) -> Result<Coded, KernelError> {
    let levels = fit.xlevels(label);
    let supplied = |what: &str| {
        KernelError::new(format!(
            "variable '{label}' was fitted with type \"{}\" but type \"{what}\" was supplied",
            if levels.is_some() {
                "factor"
            } else {
                "numeric"
            }
        ))
    };
    match (v, levels) {
        (Value::Bool(b), None) => Ok(Coded::logical(b)),
        (Value::Num(_), None) => Ok(Coded::Numbers(vec![v
            .as_f64_slice()
            .unwrap_or_default()
            .into_owned()])),
        (Value::Mat(m), None) => Ok(Coded::Numbers(
            m.column_iter()
                .map(|c| c.iter().copied().collect())
                .collect(),
        )),
        (Value::Str(_) | Value::Factor(_), Some(levels)) => {
            let codes = as_text(v)
                .unwrap_or_default()
                .into_iter()
                .map(|t| match t {
                    None => Ok(None),
                    Some(t) => levels
                        .iter()
                        .position(|l| *l == t)
                        .map(Some)
                        .ok_or_else(|| {
                            KernelError::new(format!("factor {label} has new level {t}"))
                        }),
                })
                .collect::<Result<Vec<_>, _>>()?;
            let contrasts = fit
                .contrast_of(label)
                .map(|spec| super::super::contrasts::for_factor(spec, levels))
                .transpose()?;
            Ok(Coded::Factor {
                levels: levels.to_vec(),
                codes,
                contrasts,
            })
        }
        (Value::Str(_) | Value::Factor(_), None) => Err(supplied("factor")),
        (Value::Num(_) | Value::Mat(_), Some(_)) => Err(supplied("numeric")),
        (Value::Bool(_), Some(_)) => Err(supplied("logical")),
        (other, _) => Err(KernelError::new(format!(
            "invalid type ({}) for variable '{label}'",
            other.type_name()
        ))),
    }
}

/// predict's value on the fit's own cases (no newdata).
fn current(
    fit: &Fit,
    args: &Args<&Value>,
    ty: &str,
    interval: &str,
    se_fit: bool,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    if interval != "none" {
        // predict.lm on the fit's own data: the same intervals, from
        // the fitted values and their variances.
        if fit.prior_weights().is_some() && interval == "prediction" {
            return Err(KernelError::new(
                "predict(interval = \"prediction\") without 'newdata' of a weighted fit is not supported by flowcast yet",
            ));
        }
        let (eta, ips, res_var, df) = current_variances(fit, ty, args, ctx)?;
        if interval == "prediction" {
            ctx.warn("predictions on current data refer to _future_ responses\n");
        }
        return intervals(args, interval, se_fit, &eta, &ips, res_var, df);
    }
    if se_fit {
        let (eta, ips, res_var, df) = current_variances(fit, ty, args, ctx)?;
        return Ok(with_se(fit, ty, eta, &ips, res_var, df));
    }
    let field = match (fit.kind, ty) {
        (Kind::Glm(_), "link") => "linear.predictors",
        _ => "fitted.values",
    };
    Ok(Value::Num(fit.nums(field)?.to_vec()))
}
