//! What R users read off a fit besides its coefficients: `logLik`, `AIC`,
//! `BIC`, `deviance`, `df.residual`, `nobs`, `vcov` and `confint`, for an
//! `lm` or `glm`, as R 4.2's methods compute them (`logLik.lm`,
//! `logLik.glm`, `AIC.default`, `BIC.default`, `deviance.lm`,
//! `nobs.lm`/`nobs.glm`, `vcov.lm`/`vcov.glm` with `.vcov.aliased`,
//! `confint.lm` and `confint.default`).
//!
//! R's `logLik` is a number with attributes (`df`, `nobs`); flowcast gives
//! the number. R's `vcov` and `confint` have dimnames; flowcast's matrices
//! have none, rows are in the order of `coef(fit)`.

use crate::kernels::names;
use nalgebra::DMatrix;

use super::super::linalg::la_chol2inv;
use super::super::nmath::qnorm::qnorm;
use super::super::nmath::qt::qt;
use super::super::summary::sum;
use super::super::value::NA;
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::family::Dist;
use super::fit::{model_type, Fit, Kind};
use super::mlm::Mlm;
use super::nls::Nls;
use super::summary::estimated_dispersion;

/// `logLik(fit)`'s value and its `df` and `nobs` attributes.
struct LogLik {
    value: f64,
    df: f64,
    nobs: f64,
    /// logLik.lm's `nall`: the cases of non-zero weight, before REML
    /// takes the rank off `nobs`; logLik.glm sets none.
    nall: Option<f64>,
}

impl LogLik {
    /// The value as R's logLik.lm and logLik.glm return it: the number
    /// with its attributes, in R's order, and class "logLik" (what
    /// `attr(logLik(fit), "df")` reads).
    fn value(&self) -> Value {
        use crate::kernels::names::with_attr;
        let mut v = Value::scalar(self.value);
        if let Some(nall) = self.nall {
            v = with_attr(v, "nall", Value::scalar(nall));
        }
        v = with_attr(v, "nobs", Value::scalar(self.nobs));
        v = with_attr(v, "df", Value::scalar(self.df));
        with_attr(v, "class", Value::string("logLik"))
    }
}

/// R's `logLik.lm` (REML = FALSE unless asked) and `logLik.glm`.
fn log_lik(fit: &Fit, reml: bool) -> Result<LogLik, KernelError> {
    let p = fit.scalar("rank")?;
    match fit.kind {
        Kind::Lm => {
            let all = fit.nums("residuals")?;
            // Zero weights drop their cases; the weights and the residuals
            // are both of the cases used.
            let (res, w): (Vec<f64>, Vec<f64>) = match fit.prior_weights() {
                Some(w) if w.len() == all.len() => all
                    .iter()
                    .zip(w)
                    .filter(|(_, w)| **w != 0.0)
                    .map(|(r, w)| (*r, *w))
                    .unzip(),
                _ => (all.to_vec(), vec![1.0; all.len()]),
            };
            let n0 = res.len() as f64;
            let n = if reml { n0 - p } else { n0 };
            let logw: Vec<f64> = w.iter().map(|w| w.ln()).collect();
            let wr2: Vec<f64> = w.iter().zip(&res).map(|(w, r)| w * r.powi(2)).collect();
            let mut value = 0.5
                * (sum(&logw, false)
                    - n * ((2.0 * std::f64::consts::PI).ln() + 1.0 - n.ln()
                        + sum(&wr2, false).ln()));
            if reml {
                let qr = fit.qr()?;
                let k = (p as usize).min(qr.n).min(qr.p);
                let diag: Vec<f64> = (0..k).map(|i| qr.qr[i * qr.n + i].abs().ln()).collect();
                value -= sum(&diag, false);
            }
            Ok(LogLik {
                value,
                df: p + 1.0,
                nobs: n,
                nall: Some(n0),
            })
        }
        Kind::Glm(family) => {
            // logLik.glm counts the dispersion these families estimate as
            // one more parameter (the quasi families have no likelihood).
            let df = if matches!(
                family.dist,
                Dist::Gaussian | Dist::Gamma | Dist::InverseGaussian
            ) {
                p + 1.0
            } else {
                p
            };
            let aic = fit.scalar("aic")?;
            let nobs = fit
                .nums("residuals")?
                .iter()
                .filter(|r| !r.is_nan())
                .count();
            Ok(LogLik {
                value: df - aic / 2.0,
                df,
                nobs: nobs as f64,
                nall: None,
            })
        }
    }
}

/// `logLik`'s extra arguments: `logLik.lm` reads `REML` and ignores the
/// rest; `logLik.glm` reads none and warns that it discarded them.
fn reml_arg(args: &Args<&Value>, kind: Kind, ctx: &mut Ctx) -> Result<bool, KernelError> {
    if kind != Kind::Lm {
        if args.dots().next().is_some() {
            ctx.warn("extra arguments discarded");
        }
        return Ok(false);
    }
    match args.dots().find(|(n, _)| *n == Some("REML")) {
        Some((_, v)) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("invalid 'REML' argument: TRUE or FALSE")),
        None => Ok(false),
    }
}

/// One model's `logLik` for `AIC`/`BIC`: its value, `df` and `nobs`.
fn model_log_lik(v: &Value, func: &str) -> Result<LogLik, KernelError> {
    if crate::kernels::arima::is_arima(Some(v)) {
        let (value, df, nobs) = crate::kernels::arima::log_lik(v)?;
        // logLik.Arima of a CSS fit (its aic NA) is a bare NA, without
        // the df R's AIC and BIC read: NaN marks it for them.
        let df = if value.is_nan() { f64::NAN } else { df };
        return Ok(LogLik {
            value,
            df,
            nobs,
            nall: None,
        });
    }
    if let Some(fit) = Nls::of(Some(v)) {
        let (value, df, nobs) = fit.log_lik()?;
        return Ok(LogLik {
            value,
            df,
            nobs,
            nall: None,
        });
    }
    match Fit::from_value(v) {
        Some(fit) => log_lik(&fit, false),
        None => Err(super::fit::not_a_model(func, v.type_name())),
    }
}

/// The models of `AIC(object, ...)`/`BIC(object, ...)`, `object` first.
fn models<'a>(args: &'a Args<&Value>) -> Result<Vec<&'a Value>, KernelError> {
    let object = args
        .get("object")
        .ok_or_else(|| KernelError::new("argument \"object\" is missing, with no default"))?;
    Ok(std::iter::once(object)
        .chain(args.dots().map(|(_, v)| v))
        .collect())
}

/// `AIC.default`/`BIC.default` of several models: a data frame of each
/// model's `df` and criterion, a row per model (the evaluator names the
/// rows by the arguments' text, as R's `as.character(Call[-1L])`).
fn table_of(lls: &[LogLik], column: &str, crit: impl Fn(&LogLik) -> f64, ctx: &mut Ctx) -> Value {
    let nobs: Vec<f64> = lls.iter().map(|l| l.nobs).filter(|n| !n.is_nan()).collect();
    if nobs.iter().any(|n| *n != nobs[0]) {
        ctx.warn("models are not all fitted to the same number of observations");
    }
    super::super::frame::frame(
        vec!["df".to_string(), column.to_string()],
        vec![
            Value::Num(lls.iter().map(|l| l.df).collect()),
            Value::Num(lls.iter().map(crit).collect()),
        ],
    )
}

pub(super) fn scalar_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let arima =
        matches!(args.func, "logLik" | "AIC" | "BIC") && super::accessors::is_arima_type(args);
    if !arima {
        model_type(args, "object")?;
    }
    if super::mlm::is_mlm_type(args) {
        match args.func {
            "logLik" | "AIC" | "BIC" => return Err(args.error("object", super::mlm::NO_LOGLIK)),
            "deviance" => return Ok(Type::num_unknown()),
            _ => {}
        }
    }
    if args.func == "AIC" {
        args.const_scalar_or("k", Some(2.0))?;
    }
    let more = args.dots().count();
    if matches!(args.func, "AIC" | "BIC") && more > 0 {
        let rows = Some(more + 1);
        return Ok(Type::Record {
            class: super::super::frame::CLASS.to_string(),
            fields: vec![
                (
                    "df".to_string(),
                    Type::Num {
                        len: rows,
                        value: None,
                    },
                ),
                (
                    args.func.to_string(),
                    Type::Num {
                        len: rows,
                        value: None,
                    },
                ),
            ],
        });
    }
    // A CSS fit's AIC and BIC are numeric(0).
    if arima && args.func != "logLik" {
        return Ok(Type::num_unknown());
    }
    Ok(Type::num(1))
}

pub(super) fn log_lik_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(v) = args
        .get("object")
        .filter(|v| crate::kernels::arima::is_arima(Some(*v)))
    {
        return Ok(Value::scalar(crate::kernels::arima::log_lik(v)?.0));
    }
    if let Some(fit) = Nls::of(args.get("object")) {
        // logLik.nls refuses REML and reads nothing else.
        if let Some((_, v)) = args.dots().find(|(n, _)| *n == Some("REML")) {
            if v.as_flag() == Some(true) {
                return Err(KernelError::new(
                    "cannot calculate REML log-likelihood for \"nls\" objects",
                ));
            }
        }
        return Ok(Value::scalar(fit.log_lik()?.0));
    }
    let fit = Fit::from_arg(args, "object", "logLik")?;
    let reml = reml_arg(args, fit.kind, ctx)?;
    Ok(log_lik(&fit, reml)?.value())
}

pub(super) fn aic_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let k = args.scalar_or("k", 2.0)?;
    let lls = models(args)?
        .into_iter()
        .map(|v| model_log_lik(v, "AIC"))
        .collect::<Result<Vec<_>, _>>()?;
    let aic = |l: &LogLik| -2.0 * l.value + k * l.df;
    without_df(&lls)?;
    Ok(match lls.as_slice() {
        [one] if one.df.is_nan() => Value::Num(Vec::new()),
        [one] => Value::scalar(aic(one)),
        _ => table_of(&lls, "AIC", aic, ctx),
    })
}

pub(super) fn bic_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let lls = models(args)?
        .into_iter()
        .map(|v| model_log_lik(v, "BIC"))
        .collect::<Result<Vec<_>, _>>()?;
    let bic = |l: &LogLik| -2.0 * l.value + l.df * l.nobs.ln();
    without_df(&lls)?;
    Ok(match lls.as_slice() {
        [one] if one.df.is_nan() => Value::Num(Vec::new()),
        [one] => Value::scalar(bic(one)),
        _ => table_of(&lls, "BIC", bic, ctx),
    })
}

/// A log-likelihood without its `df` (a CSS arima fit's): alone, R's
/// `-2 * NA + k * NULL` is `numeric(0)`; among several, R's table of
/// them fails as here.
fn without_df(lls: &[LogLik]) -> Result<(), KernelError> {
    if lls.len() > 1 && lls.iter().any(|l| l.df.is_nan()) {
        return Err(KernelError::new("incorrect number of dimensions"));
    }
    Ok(())
}

/// `deviance.lm`: the weighted residual sum of squares (NA cases left
/// out); `deviance.glm`: the fit's deviance.
pub(super) fn deviance_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(fit) = Nls::of(args.get("object")) {
        return Ok(Value::scalar(fit.deviance()?));
    }
    if let Some(m) = Mlm::of(args.get("object")) {
        return m.deviance();
    }
    let fit = Fit::from_arg(args, "object", "deviance")?;
    Ok(Value::scalar(match fit.kind {
        Kind::Lm => fit.weighted_rss()?,
        Kind::Glm(_) => fit.scalar("deviance")?,
    }))
}

pub(super) fn df_residual_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(fit) = Nls::of(args.get("object")) {
        return Ok(Value::scalar(fit.df_residual()?));
    }
    if let Some(m) = Mlm::of(args.get("object")) {
        return Ok(Value::scalar(m.df_residual()?));
    }
    let fit = Fit::from_arg(args, "object", "df.residual")?;
    Ok(Value::scalar(fit.scalar("df.residual")?))
}

/// `nobs.lm`/`nobs.glm`: the cases with a non-zero weight.
pub(super) fn nobs_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(fit) = Nls::of(args.get("object")) {
        return Ok(Value::scalar(fit.nobs()?));
    }
    if let Some(m) = Mlm::of(args.get("object")) {
        return Ok(Value::scalar(m.mat("residuals")?.nrows() as f64));
    }
    let fit = Fit::from_arg(args, "object", "nobs")?;
    let n = match fit.prior_weights() {
        Some(w) => w.iter().filter(|w| **w != 0.0).count(),
        None => fit.nums("residuals")?.len(),
    };
    Ok(Value::scalar(n as f64))
}

/// The coefficients' covariance matrix: `sigma^2 (R'R)^-1` for an lm, the
/// dispersion times it for a glm (summary's `cov.scaled`), in pivot order
/// and, with `complete`, NA rows and columns for aliased coefficients
/// (`.vcov.aliased`).
fn vcov_of(fit: &Fit, complete: bool, ctx: &mut Ctx) -> Result<DMatrix<f64>, KernelError> {
    let qr = fit.qr()?;
    let k = qr.rank;
    let cov = la_chol2inv(&qr.qr, qr.n, k)?;
    let scale = match fit.kind {
        Kind::Lm => {
            let sigma = fit.scalar("sigma")?;
            sigma * sigma
        }
        Kind::Glm(family) => estimated_dispersion(fit, family, ctx)?,
    };
    let vc = DMatrix::from_fn(k, k, |i, j| scale * cov[j * k + i]);
    let p = fit.nums("coefficients")?.len();
    if !complete || k >= p {
        return Ok(vc);
    }
    let mut full = DMatrix::from_element(p, p, NA);
    for i in 0..k {
        for j in 0..k {
            let (a, b) = (qr.pivot[i] - 1, qr.pivot[j] - 1);
            if a < p && b < p {
                full[(a, b)] = vc[(i, j)];
            }
        }
    }
    Ok(full)
}

pub(super) fn vcov_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if super::mlm::is_mlm_type(args) {
        return Ok(Type::Mat {
            rows: None,
            cols: None,
        });
    }
    let p = model_type(args, "object")?
        .and_then(|t| t.field("coefficients"))
        .and_then(Type::len);
    Ok(Type::Mat { rows: p, cols: p })
}

pub(super) fn vcov_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(fit) = Nls::of(args.get("object")) {
        return fit.vcov();
    }
    if let Some(m) = Mlm::of(args.get("object")) {
        return m.vcov();
    }
    let fit = Fit::from_arg(args, "object", "vcov")?;
    let complete = match args.dots().find(|(n, _)| *n == Some("complete")) {
        Some((_, v)) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("invalid 'complete' argument: TRUE or FALSE"))?,
        None => true,
    };
    let vc = Value::Mat(vcov_of(&fit, complete, ctx)?);
    // Pivoted-out rows are dropped without `complete`: name only the full one.
    let names = fit.names();
    Ok(names::dimnamed(vc, Some(names.clone()), Some(names)))
}

/// R's `parm`: coefficients by name or by position (`pnames[parm]`), each
/// `None` where R's subscript gives NA.
fn parm_rows(parm: Option<&Value>, names: &[String]) -> Result<Vec<Option<usize>>, KernelError> {
    let all = || (0..names.len()).map(Some).collect();
    match parm {
        None => Ok(all()),
        Some(Value::Str(s)) => Ok(s
            .iter()
            .map(|s| names.iter().position(|n| n == s))
            .collect()),
        Some(v) => {
            let Some(idx) = v.as_f64_slice() else {
                return Err(KernelError::new(format!(
                    "invalid subscript type '{}'",
                    v.type_name()
                )));
            };
            let negative = idx.iter().any(|&i| i < 0.0 && i.trunc() != 0.0);
            let positive = idx.iter().any(|&i| i.is_nan() || i.trunc() > 0.0);
            if negative && positive {
                return Err(KernelError::new(
                    "only 0's may be mixed with negative subscripts",
                ));
            }
            if negative {
                let drop: Vec<usize> = idx
                    .iter()
                    .filter(|i| i.trunc() < 0.0)
                    .map(|i| (-i.trunc()) as usize - 1)
                    .collect();
                return Ok((0..names.len())
                    .filter(|i| !drop.contains(i))
                    .map(Some)
                    .collect());
            }
            Ok(idx
                .iter()
                .filter(|i| i.is_nan() || i.trunc() != 0.0)
                .map(|&i| {
                    let j = i.trunc();
                    (!j.is_nan() && j <= names.len() as f64).then(|| j as usize - 1)
                })
                .collect())
        }
    }
}

pub(super) fn confint_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let model = model_type(args, "object")?;
    if let Some(Type::Record { class, .. }) = model {
        if class == "glm" && args.func == "confint" {
            return Err(args.error("object", GLM_PROFILE));
        }
    }
    // R's confint computes `(1 - level) / 2` first: text fails there.
    if let Some(Type::Str { .. }) = args.ty("level") {
        return Err(args.error("level", "non-numeric argument to binary operator"));
    }
    args.const_scalar_or("level", Some(0.95))?;
    let rows = match args.ty("parm") {
        None => model
            .and_then(|t| t.field("coefficients"))
            .and_then(Type::len),
        Some(Type::Str { len, .. }) => *len,
        Some(_) => None,
    };
    Ok(Type::Mat {
        rows,
        cols: Some(2),
    })
}

const GLM_PROFILE: &str = "confint() of a glm is R's profile-likelihood interval \
     (MASS's confint.glm), which flowcast does not compute; \
     confint.default(fit) gives the Wald interval (estimate +- qnorm * se)";

/// `confint.lm` (t quantiles on the residual degrees of freedom) and
/// `confint.default` (normal quantiles): `cf[parm] + ses[parm] %o% fac`.
pub(super) fn confint_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "object", args.func)?;
    let wald = args.func == "confint.default";
    if !wald && matches!(fit.kind, Kind::Glm(_)) {
        return Err(KernelError::new(GLM_PROFILE));
    }
    let level = match args.get("level") {
        None => 0.95,
        Some(v) => match v.as_f64_slice() {
            Some(l) if l.len() == 1 => l[0],
            Some(_) => {
                return Err(KernelError::new(
                    "flowcast's confint() takes one confidence level",
                ))
            }
            None => return Err(KernelError::new("non-numeric argument to binary operator")),
        },
    };
    let cf = fit.nums("coefficients")?;
    let ses: Vec<f64> = {
        let vc = vcov_of(&fit, true, ctx)?;
        (0..cf.len())
            .map(|i| {
                if i < vc.nrows() {
                    vc[(i, i)].sqrt()
                } else {
                    NA
                }
            })
            .collect()
    };
    let mut names = fit.names();
    names.resize(cf.len(), String::new());
    let rows = parm_rows(args.get("parm"), &names)?;
    let a = (1.0 - level) / 2.0;
    let a = [a, 1.0 - a];
    let fac: Vec<f64> = if wald {
        a.iter().map(|&p| qnorm(p, 0.0, 1.0, true, false)).collect()
    } else {
        let df = fit.scalar("df.residual")?;
        a.iter().map(|&p| qt(p, df, true, false)).collect()
    };
    if fac.iter().zip(&a).any(|(f, p)| f.is_nan() && !p.is_nan()) {
        ctx.warn("NaNs produced");
    }
    let n = rows.len();
    let mut ci = DMatrix::from_element(n, 2, NA);
    for (r, row) in rows.iter().enumerate() {
        let (est, se) = row.map_or((NA, NA), |i| (cf[i], ses[i]));
        for c in 0..2 {
            ci[(r, c)] = est + se * fac[c];
        }
    }
    let labels = rows
        .iter()
        .map(|r| r.map_or_else(|| "NA".to_string(), |i| names[i].clone()))
        .collect();
    Ok(names::dimnamed(
        Value::Mat(ci),
        Some(labels),
        Some(names::percent_labels(&a, 3, true, " %")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["(Intercept)", "x", "z"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn parm_follows_r_subscripts() {
        let n = names();
        assert_eq!(
            parm_rows(None, &n).unwrap(),
            vec![Some(0), Some(1), Some(2)]
        );
        assert_eq!(
            parm_rows(Some(&Value::Num(vec![2.0, 0.0, 7.0])), &n).unwrap(),
            vec![Some(1), None]
        );
        assert_eq!(
            parm_rows(Some(&Value::Num(vec![-1.0])), &n).unwrap(),
            vec![Some(1), Some(2)]
        );
        assert_eq!(
            parm_rows(Some(&Value::Str(vec!["z".into(), "w".into()])), &n).unwrap(),
            vec![Some(2), None]
        );
        assert!(parm_rows(Some(&Value::Num(vec![-1.0, 2.0])), &n).is_err());
        assert_eq!(
            parm_rows(Some(&Value::Num(vec![f64::NAN])), &n).unwrap(),
            vec![None]
        );
    }
}
