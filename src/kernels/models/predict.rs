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
use super::super::value::{Formula, NA};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::accessors::{arg_error, matching};
use super::fit::{model_type, Fit, Kind};
use super::glm::xb;

const LM_TYPES: &[&str] = &["response", "terms"];
const GLM_TYPES: &[&str] = &["link", "response", "terms"];

pub(super) fn predict_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
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
    if args.ty("se.fit").and_then(Type::const_scalar) == Some(1.0) {
        return Err(args.error("se.fit", SE_FIT));
    }
    let len = match args.ty("newdata") {
        Some(t @ Type::Record { .. }) => frame::frame_fields(t)
            .and_then(|f| f.first())
            .and_then(|(_, c)| c.len()),
        _ => None,
    };
    Ok(Type::Num { len, value: None })
}

const TERMS: &str = "predict(type = \"terms\") is not supported by flowcast yet";
const SE_FIT: &str = "predict(se.fit = TRUE) is not supported by flowcast yet";

pub(super) fn predict_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
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
    if args.bool_or("se.fit", false)? {
        return Err(KernelError::new(SE_FIT));
    }
    let newdata = args.get("newdata").filter(|v| !matches!(v, Value::Null));
    let Some(newdata) = newdata else {
        let field = match (fit.kind, ty) {
            (Kind::Glm(_), "link") => "linear.predictors",
            _ => "fitted.values",
        };
        return Ok(Value::Num(fit.nums(field)?.to_vec()));
    };
    let (x, n) = model_matrix(&fit, newdata)?;
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
    let eta = xb(&xp, n, &beta);
    Ok(Value::Num(match (fit.kind, ty) {
        (Kind::Glm(f), "response") => eta.iter().map(|&e| f.linkinv(e)).collect(),
        _ => eta,
    }))
}

/// The model matrix of `newdata`: the intercept, then each term's columns
/// coded as `lm` codes them. Column-major, with its row count.
fn model_matrix(fit: &Fit, newdata: &Value) -> Result<(Vec<f64>, usize), KernelError> {
    let labels = fit.term_labels();
    let terms: Vec<(String, Value)> = match newdata {
        Value::Formula(Formula { terms, .. }) => terms.clone(),
        Value::List(l) if l.names.is_some() => {
            // Called without the evaluator's help (or an intercept-only
            // model): each term must be a column of newdata.
            let mut out = Vec::new();
            for label in &labels {
                let v = l.field(label).filter(|_| {
                    l.names
                        .as_ref()
                        .is_some_and(|n| n.iter().any(|n| n == label))
                });
                match v {
                    Some(v) => out.push((label.clone(), v.clone())),
                    None => return Err(KernelError::new(format!("object '{label}' not found"))),
                }
            }
            if labels.is_empty() {
                let n = frame::nrow(l);
                return Ok((
                    if fit.intercept() {
                        vec![1.0; n]
                    } else {
                        Vec::new()
                    },
                    n,
                ));
            }
            out
        }
        other => {
            return Err(KernelError::new(format!(
                "'newdata' must be a data frame or a named list, not {}",
                other.type_name()
            )))
        }
    };
    let n = match terms.first() {
        Some((_, Value::Mat(m))) => m.nrows(),
        Some((_, v)) => v.len(),
        None => 0,
    };
    let mut x: Vec<f64> = Vec::new();
    if fit.intercept() {
        x.extend(std::iter::repeat_n(1.0, n));
    }
    let mut full_coding = !fit.intercept();
    for (label, v) in &terms {
        let len = match v {
            Value::Mat(m) => m.nrows(),
            v => v.len(),
        };
        if len != n {
            return Err(KernelError::new(format!(
                "variable lengths differ (found for '{label}')"
            )));
        }
        match v {
            Value::Bool(b) => {
                let b: Vec<f64> = b
                    .iter()
                    .map(|&b| b.map_or(NA, |b| f64::from(u8::from(b))))
                    .collect();
                if full_coding {
                    x.extend(b.iter().map(|b| 1.0 - b));
                    full_coding = false;
                }
                x.extend(b);
            }
            Value::Num(_) | Value::Mat(_) => {
                x.extend(v.as_f64_slice().unwrap_or_default().iter());
            }
            Value::Str(_) | Value::Factor(_) => {
                // model.frame(Terms, newdata, xlev = object$xlevels): the
                // fit's levels, coded as the fit coded them.
                let levels = fit.xlevels(label).ok_or_else(|| {
                    KernelError::new(format!(
                        "variable '{label}' was fitted with type \"numeric\" but type \"factor\" was supplied"
                    ))
                })?;
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
                let first = usize::from(!full_coding);
                full_coding = false;
                for level in first..levels.len() {
                    x.extend(codes.iter().map(|c| match c {
                        None => NA,
                        Some(c) => f64::from(u8::from(*c == level)),
                    }));
                }
            }
            other => {
                return Err(KernelError::new(format!(
                    "invalid type ({}) for variable '{label}'",
                    other.type_name()
                )))
            }
        }
    }
    Ok((x, n))
}
