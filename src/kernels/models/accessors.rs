//! `coef`, `residuals` (`resid`) and `fitted` (`fitted.values`) of an `lm`
//! or `glm`: R's `coef.default`, `residuals.lm`, `residuals.glm` and
//! `fitted.default`.

use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::fit::{model_type, Fit, Kind};
use super::mlm::Mlm;
use super::nls::Nls;
use crate::kernels::na_action::pad_fit;

/// Classes whose `coef` is computed here; any other object's is R's
/// `coef.default`, its `coefficients` element (`coef.Arima`: its `coef`).
fn fitted_here(class: &str) -> bool {
    [
        "lm",
        "glm",
        super::aov::CLASS,
        super::nls::CLASS,
        super::mlm::CLASS,
        super::mlm::MANOVA,
    ]
    .contains(&class)
}

/// The element `coef.default` (or `coef.Arima`) returns.
fn default_coef_field(class: Option<&str>) -> &'static str {
    if class == Some("Arima") {
        "coef"
    } else {
        "coefficients"
    }
}

pub(super) fn coef_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    // coef.default of a model summary (its coefficient table) or any
    // other list: its `coefficients`.
    match args.ty("object") {
        Some(t @ Type::Record { class, .. }) if !fitted_here(class) => {
            return Ok(t
                .field(default_coef_field(Some(class)))
                .cloned()
                .unwrap_or(Type::Any));
        }
        Some(Type::List { .. }) => return Ok(Type::Any),
        _ => {}
    }
    Ok(match model_type(args, "object")? {
        // coef.aov leaves aliased coefficients out: known at run time.
        Some(Type::Record { class, .. }) if class == super::aov::CLASS => Type::num_unknown(),
        Some(t) => t
            .field("coefficients")
            .cloned()
            .unwrap_or(Type::num_unknown()),
        None => Type::num_unknown(),
    })
}

pub(super) fn coef_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    // coef.default: object$coefficients (a summary's table, lm.fit's
    // estimates), NULL when it has none.
    if let Some(Value::List(l)) = args.get("object").map(crate::kernels::names::bare) {
        if !l.class.as_deref().is_some_and(fitted_here) {
            let field = default_coef_field(l.class.as_deref());
            return Ok(l.field(field).cloned().unwrap_or(Value::Null));
        }
    }
    if let Some(fit) = Nls::of(args.get("object")) {
        return fit.coef();
    }
    if let Some(m) = Mlm::of(args.get("object")) {
        return Ok(m.field("coefficients")?.clone());
    }
    let fit = Fit::from_arg(args, "object", "coef")?;
    let mut coef = fit.nums("coefficients")?.to_vec();
    let mut labels = match fit.record.field("coefficient.names") {
        Some(Value::Str(labels)) if labels.len() == coef.len() => Some(labels.clone()),
        _ => None,
    };
    // coef.aov: aliased coefficients left out unless `complete = TRUE`.
    if fit.record.class.as_deref() == Some(super::aov::CLASS) {
        let complete = match args.dots().find(|(n, _)| *n == Some("complete")) {
            Some((_, v)) => v
                .as_flag()
                .ok_or_else(|| KernelError::new("invalid 'complete' argument: TRUE or FALSE"))?,
            None => false,
        };
        if !complete {
            let estimated: Vec<usize> = (0..coef.len()).filter(|&i| !coef[i].is_nan()).collect();
            labels = labels.map(|l| estimated.iter().map(|&i| l[i].clone()).collect());
            coef = estimated.iter().map(|&i| coef[i]).collect();
        }
    }
    let coef = Value::Num(coef);
    Ok(match labels {
        Some(labels) => crate::kernels::names::named(coef, labels),
        None => coef,
    })
}

/// A loess value: fitted and residuals are fitted.default's and
/// residuals.default's, its own components.
fn is_loess_type(args: &Args<Type>) -> bool {
    matches!(args.ty("object"), Some(Type::Record { class, .. }) if class == crate::kernels::loess::CLASS)
}

/// A smooth.spline value: fitted.smooth.spline.
fn is_smooth_spline_type(args: &Args<Type>) -> bool {
    matches!(args.ty("object"), Some(Type::Record { class, .. }) if class == crate::kernels::smooth_spline::CLASS)
}

/// An isoreg value: fitted.isoreg and residuals.isoreg.
fn is_isoreg_type(args: &Args<Type>) -> bool {
    matches!(args.ty("object"), Some(Type::Record { class, .. }) if class == crate::kernels::isoreg::CLASS)
}

/// `object$name` of a loess value.
fn loess_component(args: &Args<&Value>, name: &str) -> Option<Result<Value, KernelError>> {
    if !crate::kernels::loess::is_loess(args.get("object")) {
        return None;
    }
    let Some(Value::List(l)) = args.get("object").map(crate::kernels::names::bare) else {
        return None;
    };
    Some(
        l.field(name)
            .cloned()
            .ok_or_else(|| KernelError::new(format!("a loess value without its '{name}'"))),
    )
}

/// An `arima` fit, whose residuals are its own field.
pub(super) fn is_arima_type(args: &Args<Type>) -> bool {
    matches!(args.ty("object"), Some(Type::Record { class, .. }) if class == crate::kernels::arima::CLASS)
}

pub(super) fn fitted_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if is_loess_type(args) || is_isoreg_type(args) || is_smooth_spline_type(args) {
        return Ok(Type::num_unknown());
    }
    if let Some(t) = super::mlm::field_type(args, "fitted.values") {
        return Ok(t);
    }
    model_type(args, "object")?;
    Ok(Type::num_unknown())
}

pub(super) fn fitted_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(v) = loess_component(args, "fitted") {
        return v;
    }
    if let Some(object) = args
        .get("object")
        .filter(|v| crate::kernels::isoreg::is_isoreg(Some(*v)))
    {
        return crate::kernels::isoreg::fitted(object).map(Value::Num);
    }
    if let Some(object) = args
        .get("object")
        .filter(|v| crate::kernels::smooth_spline::is_smooth_spline(Some(*v)))
    {
        return crate::kernels::smooth_spline::fitted(object);
    }
    if let Some(fit) = Nls::of(args.get("object")) {
        return fit.fitted();
    }
    if let Some(m) = Mlm::of(args.get("object")) {
        return pad_fit(m.record, m.field("fitted.values")?.clone());
    }
    let fit = Fit::from_arg(args, "object", "fitted")?;
    // fitted.default: napredict(object$na.action, object$fitted.values).
    pad_fit(fit.record, Value::Num(fit.nums("fitted.values")?.to_vec()))
}

const MLM_PARTIAL: &str = "flowcast's residuals() of an mlm fit takes no type = \"partial\"";
const LM_TYPES: &[&str] = &["working", "response", "deviance", "pearson", "partial"];
const NLS_TYPES: &[&str] = &["response", "pearson"];
const GLM_TYPES: &[&str] = &["deviance", "pearson", "working", "response", "partial"];

pub(super) fn residuals_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if is_loess_type(args) || is_isoreg_type(args) || is_arima_type(args) {
        return Ok(Type::num_unknown());
    }
    let model = model_type(args, "object")?;
    if let (Some(t), Some(ty)) = (
        super::mlm::field_type(args, "residuals"),
        args.const_str("type"),
    ) {
        return match matching(ty, LM_TYPES) {
            None => Err(args.error("type", arg_error(LM_TYPES))),
            Some("partial") => Err(args.error("type", MLM_PARTIAL)),
            Some(_) => Ok(t),
        };
    }
    if let Some(t) = super::mlm::field_type(args, "residuals") {
        return Ok(t);
    }
    if let (Some(Type::Record { class, .. }), Some(ty)) = (model, args.const_str("type")) {
        let types = if class == "lm" || class == super::aov::CLASS {
            LM_TYPES
        } else if class == super::nls::CLASS {
            NLS_TYPES
        } else {
            GLM_TYPES
        };
        if matching(ty, types).is_none() {
            return Err(args.error("type", arg_error(types)));
        }
    }
    Ok(Type::num_unknown())
}

/// R's `match.arg`: an exact or unique partial match.
pub(super) fn matching<'a>(given: &str, choices: &[&'a str]) -> Option<&'a str> {
    if let Some(c) = choices.iter().find(|c| **c == given) {
        return Some(c);
    }
    let mut partial = choices
        .iter()
        .filter(|c| c.starts_with(given) && !given.is_empty());
    match (partial.next(), partial.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

pub(super) fn arg_error(choices: &[&str]) -> String {
    let quoted: Vec<String> = choices
        .iter()
        .map(|c| format!("\u{201c}{c}\u{201d}"))
        .collect();
    format!("'arg' should be one of {}", quoted.join(", "))
}

pub(super) fn residuals_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(v) = loess_component(args, "residuals") {
        return v;
    }
    if crate::kernels::arima::is_arima(args.get("object")) {
        // residuals.default: the fit's own, any `type` ignored.
        if let Some(Value::List(l)) = args.get("object").map(crate::kernels::names::bare) {
            return l
                .field("residuals")
                .cloned()
                .ok_or_else(|| KernelError::new("an Arima fit without its 'residuals'"));
        }
    }
    if let Some(object) = args
        .get("object")
        .filter(|v| crate::kernels::isoreg::is_isoreg(Some(*v)))
    {
        return crate::kernels::isoreg::residuals(object).map(Value::Num);
    }
    if let Some(fit) = Nls::of(args.get("object")) {
        let ty = args.str_or("type", NLS_TYPES[0])?;
        let ty = matching(ty, NLS_TYPES).ok_or_else(|| KernelError::new(arg_error(NLS_TYPES)))?;
        return fit.residuals(ty == "pearson");
    }
    if let Some(m) = Mlm::of(args.get("object")) {
        // residuals.lm of an unweighted fit: every type but "partial" is
        // the residuals themselves.
        let ty = args.str_or("type", LM_TYPES[0])?;
        return match matching(ty, LM_TYPES) {
            None => Err(KernelError::new(arg_error(LM_TYPES))),
            Some("partial") => Err(KernelError::new(MLM_PARTIAL)),
            Some(_) => pad_fit(m.record, m.field("residuals")?.clone()),
        };
    }
    let fit = Fit::from_arg(args, "object", "residuals")?;
    let types = match fit.kind {
        Kind::Lm => LM_TYPES,
        Kind::Glm(_) => GLM_TYPES,
    };
    let ty = args.str_or("type", types[0])?;
    let ty = matching(ty, types).ok_or_else(|| KernelError::new(arg_error(types)))?;
    // residuals.lm and residuals.glm end with naresid(object$na.action, r).
    pad_fit(fit.record, Value::Num(residuals_of(&fit, ty)?))
}

/// `residuals(fit, type)` for a type already matched.
pub(super) fn residuals_of(fit: &Fit, ty: &str) -> Result<Vec<f64>, KernelError> {
    let r = fit.nums("residuals")?;
    let family = match fit.kind {
        Kind::Lm => {
            // residuals.lm: scaled by sqrt(weights) for deviance and pearson.
            return Ok(match (ty, fit.prior_weights()) {
                ("deviance" | "pearson", Some(w)) if w.len() == r.len() => {
                    r.iter().zip(w).map(|(r, w)| r * w.sqrt()).collect()
                }
                _ => r.to_vec(),
            });
        }
        Kind::Glm(f) => f,
    };
    let y = fit.nums("y")?;
    let mu = fit.nums("fitted.values")?;
    let wts = fit.prior_weights().unwrap_or_default();
    if y.len() != mu.len() || wts.len() != mu.len() {
        return Err(KernelError::new(
            "the model's y, fitted values and weights differ in length",
        ));
    }
    Ok(match ty {
        "deviance" => {
            if fit.scalar("df.residual")? > 0.0 {
                family
                    .dev_resids(y, mu, wts)
                    .iter()
                    .zip(y.iter().zip(mu))
                    .map(|(d, (y, mu))| {
                        // sqrt(pmax(d, 0)): pmax keeps an NA.
                        let d = if d.is_nan() { *d } else { d.max(0.0) }.sqrt();
                        if y > mu {
                            d
                        } else {
                            -d
                        }
                    })
                    .collect()
            } else {
                vec![0.0; mu.len()]
            }
        }
        "pearson" => (0..mu.len())
            .map(|i| (y[i] - mu[i]) * wts[i].sqrt() / family.variance(mu[i]).sqrt())
            .collect(),
        "response" => y.iter().zip(mu).map(|(y, m)| y - m).collect(),
        _ => r.to_vec(),
    })
}
