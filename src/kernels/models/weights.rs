//! A fit's cases and their weights: `weights` (stats' `weights.default`
//! and `weights.glm`) and `case.names` (`case.names.lm`).

use super::super::names::{bare, named};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::accessors::{arg_error, matching};
use super::fit::{model_type, Fit, Kind};
use crate::kernels::na_action::pad_fit;

const GLM_TYPES: &[&str] = &["prior", "working"];

pub(super) fn weights_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(Type::Record { class, .. }) = args.ty("object") {
        if class == "glm" {
            if let Some(ty) = args.const_str("type") {
                if matching(ty, GLM_TYPES).is_none() {
                    return Err(args.error("type", arg_error(GLM_TYPES)));
                }
            }
        }
    }
    Ok(Type::Any)
}

/// A fit's weights as `weights()` gives them: `weights.default` (the
/// lm's prior weights, NULL when it has none) or `weights.glm` (its
/// prior or working weights, named by the cases), padded with NA at the
/// cases an `na.exclude` fit dropped.
fn of_fit(fit: &Fit, ty: &str) -> Result<Value, KernelError> {
    let field = match (fit.kind, ty) {
        (Kind::Lm, _) => "weights",
        (Kind::Glm(_), "working") => "weights",
        (Kind::Glm(_), _) => "prior.weights",
    };
    let Some(Value::Num(w)) = fit.exact(field).map(bare) else {
        return Ok(Value::Null);
    };
    let w = Value::Num(w.clone());
    let w = match (fit.kind, fit.exact("obs.names")) {
        (Kind::Glm(_), Some(Value::Str(obs))) if obs.len() == w.len() => named(w, obs.clone()),
        _ => w,
    };
    pad_fit(fit.record, w)
}

fn not_a_fit(func: &str, v: &Value) -> Option<KernelError> {
    (super::mlm::Mlm::of(Some(v)).is_some() || super::nls::Nls::of(Some(v)).is_some())
        .then(|| super::fit::not_a_model(func, v.type_name()))
}

pub(super) fn weights_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let object = args
        .get("object")
        .ok_or_else(|| KernelError::new("argument \"object\" is missing, with no default"))?;
    if let Some(fit) = Fit::from_value(bare(object)) {
        let ty = match fit.kind {
            Kind::Lm => "prior",
            Kind::Glm(_) => {
                let ty = args.str_or("type", GLM_TYPES[0])?;
                matching(ty, GLM_TYPES).ok_or_else(|| KernelError::new(arg_error(GLM_TYPES)))?
            }
        };
        return of_fit(&fit, ty);
    }
    if let Some(e) = not_a_fit("weights", object) {
        return Err(e);
    }
    // weights.default: object$weights.
    match bare(object) {
        Value::List(l) => Ok(l.field("weights").cloned().unwrap_or(Value::Null)),
        Value::Null => Ok(Value::Null),
        _ => Err(KernelError::new("$ operator is invalid for atomic vectors")),
    }
}

pub(super) fn case_names_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    model_type(args, "object")?;
    Ok(Type::Any)
}

pub(super) fn case_names_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let full = match args.get("full") {
        None => false,
        Some(v) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed"))?,
    };
    let object = args
        .get("object")
        .ok_or_else(|| KernelError::new("argument \"object\" is missing, with no default"))?;
    if let Some(e) = not_a_fit("case.names", object) {
        return Err(e);
    }
    let Some(fit) = Fit::from_value(bare(object)) else {
        // case.names.default: rownames(object).
        return match bare(object) {
            Value::List(l) if l.class.as_deref() == Some(crate::kernels::frame::CLASS) => {
                Ok(Value::Str(crate::kernels::row_names::labels(l)))
            }
            Value::Null | Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_) => {
                Ok(Value::Null)
            }
            other => Err(KernelError::new(format!(
                "flowcast's case.names() takes a model fitted by lm() or glm(), or a data frame, not a {}",
                other.type_name()
            ))),
        };
    };
    // case.names.lm: names(residuals(object)), those of weight zero left
    // out unless `full`.
    let obs = match fit.exact("obs.names") {
        Some(Value::Str(s)) => s.clone(),
        _ => return Err(KernelError::new("the fit has no names of its cases")),
    };
    let n = obs.len();
    let names = match pad_fit(fit.record, named(Value::Num(vec![0.0; n]), obs.clone()))? {
        Value::Named(v) => v.names.unwrap_or(obs),
        _ => obs,
    };
    let w = of_fit(&fit, "prior")?;
    let w = match bare(&w) {
        Value::Num(w) if !full && w.len() == names.len() => w.clone(),
        _ => return Ok(Value::Str(names)),
    };
    // `dn[w != 0]`: an NA weight picks an NA name.
    Ok(Value::Str(
        names
            .into_iter()
            .zip(&w)
            .filter(|(_, w)| **w != 0.0)
            .map(|(n, w)| if w.is_nan() { "NA".to_string() } else { n })
            .collect(),
    ))
}
