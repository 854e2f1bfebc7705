//! R's `prop.trend.test(x, n, score)` (stats/R/prop.trend.test.R): the
//! chi-squared test for a linear trend in proportions, the sum of squares
//! of `score` in `anova(lm(x/n ~ score, weights = n/p/(1 - p)))` with one
//! degree of freedom. The weighted fit is lm.wfit's (`Cdqrls` on the rows
//! scaled by the square roots of the weights), so the sum of squares is
//! the square of the fit's second effect, as anova.lm takes it.

use super::super::args::ArgError;
use super::super::linalg::linpack::dqrls;
use super::super::nmath::pchisq;
use super::super::summary::ldouble;
use super::super::value::{Value, NA};
use super::super::{Args, Ctx, KernelError, ShapeCtx, Type};

fn numbers(args: &Args<&Value>, name: &str) -> Result<Option<Vec<f64>>, KernelError> {
    match args.get(name) {
        None => Ok(None),
        Some(v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::Named(_))) => v
            .as_f64_slice()
            .map(|s| Some(s.into_owned()))
            .ok_or_else(|| KernelError::new("invalid 'type' (character) of argument")),
        Some(_) => Err(KernelError::new("invalid 'type' (character) of argument")),
    }
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = numbers(args, "x")?.unwrap_or_default();
    let n = numbers(args, "n")?
        .ok_or_else(|| KernelError::new("argument \"n\" is missing, with no default"))?;
    let score =
        numbers(args, "score")?.unwrap_or_else(|| (1..=x.len()).map(|i| i as f64).collect());
    if x.len() != n.len() {
        return Err(KernelError::new(
            "flowcast's prop.trend.test takes 'x' and 'n' of one length",
        ));
    }
    if score.len() != x.len() {
        return Err(KernelError::new(format!(
            "arguments imply differing number of rows: {}, {}",
            x.len(),
            score.len()
        )));
    }
    let p = ldouble::sum(&x).to_f64() / ldouble::sum(&n).to_f64();
    let w: Vec<f64> = n.iter().map(|n| n / p / (1.0 - p)).collect();
    // model.frame's na.omit over freq, score and the weights.
    let rows: Vec<usize> = (0..x.len())
        .filter(|&i| !(x[i] / n[i]).is_nan() && !score[i].is_nan() && !w[i].is_nan())
        .collect();
    if rows.is_empty() {
        return Err(KernelError::new("0 (non-NA) cases"));
    }
    if rows.iter().any(|&i| w[i] < 0.0) {
        return Err(KernelError::new("missing or negative weights not allowed"));
    }
    if rows.iter().any(|&i| w[i] == 0.0) {
        return Err(KernelError::new(
            "flowcast's prop.trend.test takes no group with n = 0",
        ));
    }
    let m = rows.len();
    let wts: Vec<f64> = rows.iter().map(|&i| w[i].sqrt()).collect();
    let mut mm = Vec::with_capacity(2 * m);
    mm.extend(wts.iter().copied());
    mm.extend(rows.iter().zip(&wts).map(|(&i, s)| score[i] * s));
    let y: Vec<f64> = rows
        .iter()
        .zip(&wts)
        .map(|(&i, s)| x[i] / n[i] * s)
        .collect();
    if mm.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'x'"));
    }
    if y.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'y'"));
    }
    let fit = dqrls(mm, m, 2, &y, 1e-7);
    // anova.lm's check, on lm.wfit's residuals and fitted values put back
    // on the response's scale.
    let ssr: Vec<f64> = (0..m)
        .map(|i| {
            let r = fit.residuals[i] / wts[i];
            w[rows[i]] * r * r
        })
        .collect();
    let mss: Vec<f64> = (0..m)
        .map(|i| {
            let f = (y[i] - fit.residuals[i]) / wts[i];
            w[rows[i]] * f * f
        })
        .collect();
    if ldouble::sum(&ssr).to_f64() < 1e-10 * ldouble::sum(&mss).to_f64() {
        ctx.warn("ANOVA F-tests on an essentially perfect fit are unreliable");
    }
    // An aliased score has no row in the table: a["score", ] is NA.
    let chisq = if fit.qr.rank == 2 {
        fit.effects[1] * fit.effects[1]
    } else {
        NA
    };
    let pv = if chisq.is_nan() {
        NA
    } else {
        pchisq(chisq, 1.0, false, false)
    };
    Ok(Value::List(super::super::value::List::record(
        "htest",
        vec![
            ("statistic", super::nm(chisq, "X-squared")),
            ("parameter", super::nm(1.0, "df")),
            ("p.value", Value::scalar(pv)),
            (
                "method",
                Value::string("Chi-squared Test for Trend in Proportions"),
            ),
        ],
    )))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "n", "score"] {
        if let Some(Type::Str { .. }) = args.ty(name) {
            return Err(args.error(name, "invalid 'type' (character) of argument"));
        }
    }
    Ok(super::htest_type_no_alt())
}
