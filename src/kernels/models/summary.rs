//! `summary(object)` of an `lm` (R's `summary.lm`) or a `glm`
//! (`summary.glm`).
//!
//! R's coefficient table is a matrix with dimnames; flowcast's matrices
//! have none, so the table is `coefficients` (one row per estimated
//! coefficient, in R's row order: the QR's pivot order) and its row and
//! column names travel beside it as `coefficient.names` and
//! `coefficient.colnames` ("Estimate", "Std. Error", "t value" or
//! "z value", "Pr(>|t|)" or "Pr(>|z|)").

use crate::kernels::names;
use nalgebra::DMatrix;

use super::super::linalg::la_chol2inv;
use super::super::nmath::{pnorm, pt};
use super::super::summary::sum;
use super::super::value::{List, NA};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::accessors::residuals_of;
use super::family::Family;
use super::fit::{model_type, Fit, Kind};

pub(super) fn summary_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(Type::Record { class, .. }) = args.ty("object") {
        if class == "ecdf" {
            if let Some(t) = crate::kernels::summary::summary_default_type(&Type::num_unknown()) {
                return Ok(t);
            }
        }
    }
    if let Some(t) = args
        .ty("object")
        .and_then(crate::kernels::summary::summary_default_type)
    {
        return Ok(t);
    }
    if let Some(Type::Record { class, fields }) = args.ty("object") {
        if class == "prcomp" {
            let mut fields = fields.clone();
            fields.push((
                "importance".to_string(),
                Type::Mat {
                    rows: Some(3),
                    cols: None,
                },
            ));
            return Ok(Type::Record {
                class: "summary.prcomp".to_string(),
                fields,
            });
        }
    }
    let Some(Type::Record { class, .. }) = model_type(args, "object")? else {
        return Ok(Type::Any);
    };
    if class == super::mlm::CLASS || class == super::mlm::MANOVA {
        return Ok(Type::Any);
    }
    let num = Type::num_unknown;
    let one = || Type::num(1);
    let strs = || Type::Str {
        len: None,
        value: None,
    };
    let table = || Type::Mat {
        rows: None,
        cols: Some(4),
    };
    let square = || Type::Mat {
        rows: None,
        cols: None,
    };
    let aliased = || Type::Bool {
        len: None,
        value: None,
    };
    if class == super::aov::CLASS {
        return Ok(super::aov::summary_aov_type());
    }
    if class == super::nls::CLASS {
        return Ok(super::nls::summary_type());
    }
    Ok(if class == "lm" {
        Type::record(
            "summary.lm",
            vec![
                ("residuals", num()),
                ("coefficients", table()),
                ("coefficient.names", strs()),
                ("coefficient.colnames", strs()),
                ("aliased", aliased()),
                ("sigma", one()),
                ("df", Type::num(3)),
                ("r.squared", one()),
                ("adj.r.squared", one()),
                ("fstatistic", Type::num(3)),
                ("cov.unscaled", square()),
            ],
        )
    } else {
        Type::record(
            "summary.glm",
            vec![
                ("family", Type::Any),
                ("deviance", one()),
                ("aic", one()),
                ("df.residual", one()),
                ("null.deviance", one()),
                ("df.null", one()),
                ("iter", one()),
                ("deviance.resid", num()),
                ("coefficients", table()),
                ("coefficient.names", strs()),
                ("coefficient.colnames", strs()),
                ("aliased", aliased()),
                ("dispersion", one()),
                ("df", Type::num(3)),
                ("cov.unscaled", square()),
                ("cov.scaled", square()),
            ],
        )
    })
}

pub(super) fn summary_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    // summary.ecdf: the summary of its knots (R's header attribute aside).
    if let Some(Value::List(l)) = args.get("object") {
        if l.class.as_deref() == Some("ecdf") {
            if let Some(Value::Num(x)) = l.field("x") {
                if let Some(v) = crate::kernels::summary::summary_default(&Value::Num(x.clone())) {
                    return v;
                }
            }
        }
    }
    if let Some(v) = args
        .get("object")
        .and_then(crate::kernels::summary::summary_default)
    {
        return v;
    }
    if let Some(Value::List(pc)) = args.get("object") {
        if pc.class.as_deref() == Some("prcomp") {
            return summary_prcomp(pc);
        }
    }
    if let Some(fit) = super::nls::Nls::of(args.get("object")) {
        return fit.summary();
    }
    if let Some(m) = super::mlm::Mlm::of(args.get("object")) {
        return if m.is_manova() {
            super::mlm::summary_manova(m, args, ctx)
        } else {
            m.summary()
        };
    }
    let fit = Fit::from_arg(args, "object", "summary")?;
    match fit.kind {
        Kind::Lm if fit.record.class.as_deref() == Some(super::aov::CLASS) => {
            super::aov::summary_aov(&fit)
        }
        Kind::Lm => {
            perfect_fit_warning(&fit, ctx)?;
            summary_lm(&fit)
        }
        Kind::Glm(family) => summary_glm(&fit, family, args, ctx),
    }
}

/// summary.lm's warning when the residual variance is rounding noise
/// beside the fitted values' size.
fn perfect_fit_warning(fit: &Fit, ctx: &mut Ctx) -> Result<(), KernelError> {
    let resvar = fit.scalar("sigma")?.powi(2);
    let f = fit.nums("fitted.values")?;
    if f.len() < 2 {
        return Ok(());
    }
    let m = crate::kernels::summary::mean(f);
    let var = crate::kernels::summary::corcov::var(f);
    if resvar.is_finite() && resvar < (m * m + var) * 1e-30 {
        ctx.warn("essentially perfect fit: summary may be unreliable");
    }
    Ok(())
}

fn strings(v: &[&str]) -> Value {
    Value::Str(v.iter().map(|s| s.to_string()).collect())
}

/// The table's rows: each estimated coefficient in pivot order, with its
/// standard error from `dispersion * diag(chol2inv(R))`, its statistic and
/// its p-value.
struct Table {
    matrix: Value,
    names: Value,
    cov_unscaled: Value,
}

fn table(fit: &Fit, dispersion: f64, p_value: impl Fn(f64) -> f64) -> Result<Table, KernelError> {
    let qr = fit.qr()?;
    let coef = fit.nums("coefficients")?;
    let names = fit.names();
    let k = qr.rank;
    let cov = la_chol2inv(&qr.qr, qr.n, k)?;
    let mut m = DMatrix::<f64>::zeros(k, 4);
    let mut row_names = Vec::with_capacity(k);
    for i in 0..k {
        let j = qr.pivot[i] - 1;
        let est = coef.get(j).copied().unwrap_or(NA);
        let se = (dispersion * cov[i * k + i]).sqrt();
        let t = est / se;
        m[(i, 0)] = est;
        m[(i, 1)] = se;
        m[(i, 2)] = t;
        m[(i, 3)] = p_value(t);
        row_names.push(names.get(j).cloned().unwrap_or_default());
    }
    Ok(Table {
        matrix: Value::Mat(m),
        names: Value::Str(row_names),
        cov_unscaled: Value::Mat(DMatrix::from_vec(k, k, cov)),
    })
}

fn aliased(fit: &Fit) -> Result<Value, KernelError> {
    Ok(Value::Bool(
        fit.nums("coefficients")?
            .iter()
            .map(|c| Some(c.is_nan()))
            .collect(),
    ))
}

pub(super) fn summary_lm(fit: &Fit) -> Result<Value, KernelError> {
    let rank = fit.scalar("rank")?;
    let rdf = fit.scalar("df.residual")?;
    let r = fit.nums("residuals")?;
    let qr = fit.qr()?;
    let residuals = match fit.prior_weights() {
        Some(w) if w.len() == r.len() => r.iter().zip(w).map(|(r, w)| w.sqrt() * r).collect(),
        _ => r.to_vec(),
    };
    let sigma = fit.scalar("sigma")?;
    // The lm record's standard errors, statistics and p-values are
    // summary.lm's; the table puts them in its order.
    let se = fit.nums("std.error")?;
    let t = fit.nums("t.value")?;
    let pv = fit.nums("p.value")?;
    let coef = fit.nums("coefficients")?;
    let names = fit.names();
    let k = qr.rank;
    let mut m = DMatrix::<f64>::zeros(k, 4);
    let mut row_names = Vec::with_capacity(k);
    for i in 0..k {
        let j = qr.pivot[i] - 1;
        let at = |v: &[f64]| v.get(j).copied().unwrap_or(NA);
        m[(i, 0)] = at(coef);
        m[(i, 1)] = at(se);
        m[(i, 2)] = at(t);
        m[(i, 3)] = at(pv);
        row_names.push(names.get(j).cloned().unwrap_or_default());
    }
    let mut fields = vec![
        ("residuals", Value::Num(residuals)),
        (
            "coefficients",
            names::dimnamed(
                Value::Mat(m),
                Some(row_names.clone()),
                Some(labels(&["Estimate", "Std. Error", "t value", "Pr(>|t|)"])),
            ),
        ),
        ("coefficient.names", Value::Str(row_names)),
        (
            "coefficient.colnames",
            strings(&["Estimate", "Std. Error", "t value", "Pr(>|t|)"]),
        ),
        ("aliased", aliased(fit)?),
        ("sigma", Value::scalar(sigma)),
        ("df", Value::Num(vec![rank, rdf, qr.p as f64])),
        ("r.squared", Value::scalar(fit.scalar("r.squared")?)),
        ("adj.r.squared", Value::scalar(fit.scalar("adj.r.squared")?)),
    ];
    if let Some(w) = fit.prior_weights() {
        fields.insert(0, ("weights", Value::Num(w.to_vec())));
    }
    let fstat = fit.nums("fstatistic")?;
    if !fstat.iter().all(|v| v.is_nan()) {
        fields.push(("fstatistic", Value::Num(fstat.to_vec())));
    }
    let cov = la_chol2inv(&qr.qr, qr.n, k)?;
    fields.push(("cov.unscaled", Value::Mat(DMatrix::from_vec(k, k, cov))));
    Ok(Value::List(List::record("summary.lm", fields)))
}

/// summary.glm's dispersion when none is given: 1 for the binomial and
/// Poisson families, else the Pearson estimate from the working weights
/// and residuals of the cases with positive weight (vcov.glm uses it too).
pub(super) fn estimated_dispersion(
    fit: &Fit,
    family: Family,
    ctx: &mut Ctx,
) -> Result<f64, KernelError> {
    let df_r = fit.scalar("df.residual")?;
    Ok(match family.fixed_dispersion() {
        true => 1.0,
        false => {
            if df_r > 0.0 {
                let w = fit.nums("weights")?;
                let r = fit.nums("residuals")?;
                if w.contains(&0.0) {
                    ctx.warn("observations with zero weight not used for calculating dispersion");
                }
                let wr: Vec<f64> = w
                    .iter()
                    .zip(r)
                    .filter(|(w, _)| **w > 0.0)
                    .map(|(w, r)| w * (r * r))
                    .collect();
                sum(&wr, false) / df_r
            } else {
                f64::NAN
            }
        }
    })
}

fn summary_glm(
    fit: &Fit,
    family: Family,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let df_r = fit.scalar("df.residual")?;
    let (dispersion, estimated) = match args.get("dispersion") {
        Some(Value::Null) | None => (
            estimated_dispersion(fit, family, ctx)?,
            !family.fixed_dispersion(),
        ),
        Some(_) => (args.scalar("dispersion")?, false),
    };
    let rank = fit.scalar("rank")?;
    let (stat, pname) = if estimated {
        ("t value", "Pr(>|t|)")
    } else {
        ("z value", "Pr(>|z|)")
    };
    let t = if !estimated {
        table(fit, dispersion, |t| {
            2.0 * pnorm(-t.abs(), 0.0, 1.0, true, false)
        })?
    } else if df_r > 0.0 {
        table(fit, dispersion, |t| 2.0 * pt(-t.abs(), df_r, true, false))?
    } else {
        let mut t = table(fit, dispersion, |_| f64::NAN)?;
        if let Value::Mat(m) = &mut t.matrix {
            for i in 0..m.nrows() {
                m[(i, 1)] = f64::NAN;
                m[(i, 2)] = f64::NAN;
            }
        }
        t
    };
    let cov_scaled = match &t.cov_unscaled {
        Value::Mat(m) => Value::Mat(m * dispersion),
        other => other.clone(),
    };
    let qr = fit.qr()?;
    let copy = |name: &str| fit.exact(name).cloned().unwrap_or(Value::Null);
    let deviance_resid = Value::Num(residuals_of(fit, "deviance")?);
    Ok(Value::List(List::record(
        "summary.glm",
        vec![
            ("terms", copy("terms")),
            ("family", copy("family")),
            ("deviance", copy("deviance")),
            ("aic", copy("aic")),
            ("df.residual", copy("df.residual")),
            ("null.deviance", copy("null.deviance")),
            ("df.null", copy("df.null")),
            ("iter", copy("iter")),
            ("deviance.resid", deviance_resid),
            (
                "coefficients",
                match &t.names {
                    Value::Str(rows) => names::dimnamed(
                        t.matrix,
                        Some(rows.clone()),
                        Some(labels(&["Estimate", "Std. Error", stat, pname])),
                    ),
                    _ => t.matrix,
                },
            ),
            ("coefficient.names", t.names),
            (
                "coefficient.colnames",
                strings(&["Estimate", "Std. Error", stat, pname]),
            ),
            ("aliased", aliased(fit)?),
            ("dispersion", Value::scalar(dispersion)),
            ("df", Value::Num(vec![rank, df_r, qr.p as f64])),
            ("cov.unscaled", t.cov_unscaled),
            ("cov.scaled", cov_scaled),
        ],
    )))
}

fn labels(l: &[&str]) -> Vec<String> {
    l.iter().map(|s| s.to_string()).collect()
}

/// R's `summary.prcomp`: the fit's fields, then `importance`, each
/// component's standard deviation and its share of the variance, alone and
/// cumulated (both rounded to 5 digits, as R rounds them).
fn summary_prcomp(pc: &List) -> Result<Value, KernelError> {
    let Some(Value::Num(sdev)) = pc.field("sdev") else {
        return Err(KernelError::new("the prcomp result has no 'sdev'"));
    };
    let vars: Vec<f64> = sdev.iter().map(|s| s * s).collect();
    let total = sum(&vars, false);
    let mut importance = DMatrix::<f64>::zeros(3, sdev.len());
    let mut cumulated = 0.0;
    for (j, v) in vars.iter().enumerate() {
        let share = v / total;
        cumulated += share;
        importance[(0, j)] = sdev[j];
        importance[(1, j)] = super::super::arith::fround(share, 5.0);
        importance[(2, j)] = super::super::arith::fround(cumulated, 5.0);
    }
    let components = (1..=sdev.len()).map(|j| format!("PC{j}")).collect();
    let mut out = pc.clone();
    out.class = Some("summary.prcomp".to_string());
    if let Some(names) = out.names.as_mut() {
        names.push("importance".to_string());
    }
    out.items.push(names::dimnamed(
        Value::Mat(importance),
        Some(labels(&[
            "Standard deviation",
            "Proportion of Variance",
            "Cumulative Proportion",
        ])),
        Some(components),
    ));
    Ok(Value::List(out))
}
