//! `anova(object, ...)` of an `lm`: R's `anova.lm` (sequential sums of
//! squares from the QR's effects) or, given further models, `anova.lmlist`
//! (F tests between nested fits).
//!
//! R's result is a data frame of class `anova`; flowcast's is a data
//! frame with R's columns ("Df", "Sum Sq", "Mean Sq", "F value", "Pr(>F)",
//! or "Res.Df", "RSS", "Df", "Sum of Sq", "F", "Pr(>F)") and R's row
//! names: the fit's `terms$term.labels` and "Residuals", or the models'
//! numbers.

use super::super::frame;
use super::super::nmath::pf;
use super::super::summary::sum;
use super::super::value::{RowNames, NA};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::fit::{model_type, Fit, Kind};

pub(super) fn anova_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(Type::Record { class, .. }) = model_type(args, "object")? {
        if class == "glm" {
            return Err(args.error("object", GLM));
        }
    }
    let several = args.dots().next().is_some();
    let names: &[&str] = if several { LIST_COLUMNS } else { COLUMNS };
    Ok(Type::record(
        frame::CLASS,
        names.iter().map(|n| (*n, Type::num_unknown())).collect(),
    ))
}

const GLM: &str = "flowcast's anova() takes lm fits; anova of a glm is not supported yet";
const COLUMNS: &[&str] = &["Df", "Sum Sq", "Mean Sq", "F value", "Pr(>F)"];
const LIST_COLUMNS: &[&str] = &["Res.Df", "RSS", "Df", "Sum of Sq", "F", "Pr(>F)"];

pub(super) fn anova_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let fit = Fit::from_arg(args, "object", "anova")?;
    if fit.kind != Kind::Lm {
        return Err(KernelError::new(GLM));
    }
    let mut others = Vec::new();
    for (_, v) in args.dots() {
        match Fit::from_value(v) {
            Some(f) if f.kind == Kind::Lm => others.push(f),
            Some(_) => return Err(KernelError::new(GLM)),
            // anova.lm: "objects other than lm fits are ignored" (R warns).
            None => {}
        }
    }
    if others.is_empty() {
        anova_lm(&fit)
    } else {
        others.insert(0, fit);
        anova_lmlist(&others)
    }
}

fn columns(names: &[&str], cols: Vec<Vec<f64>>, rows: Option<RowNames>) -> Value {
    frame::named_frame(
        names.iter().map(|n| n.to_string()).collect(),
        cols.into_iter().map(Value::Num).collect(),
        rows,
    )
}

/// `sum(w * r^2)`, or `sum(r^2)` without weights.
fn rss(fit: &Fit) -> Result<f64, KernelError> {
    let r = fit.nums("residuals")?;
    let sq: Vec<f64> = match fit.prior_weights() {
        Some(w) if w.len() == r.len() => r.iter().zip(w).map(|(r, w)| w * (r * r)).collect(),
        _ => r.iter().map(|r| r * r).collect(),
    };
    Ok(sum(&sq, false))
}

/// R's `anova.lm`.
fn anova_lm(fit: &Fit) -> Result<Value, KernelError> {
    let ssr = rss(fit)?;
    let dfr = fit.scalar("df.residual")?;
    let (qr, effects, asgn) = fit.pivoted_effects()?;
    let p = qr.rank;
    let mut df = Vec::new();
    let mut ss = Vec::new();
    // split(comp^2, asgn): groups in the order of their (sorted) levels.
    let mut levels = asgn.clone();
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    for &l in &levels {
        let sq: Vec<f64> = (0..p)
            .filter(|&i| asgn[i] == l)
            .map(|i| effects[i] * effects[i])
            .collect();
        df.push(sq.len() as f64);
        ss.push(sum(&sq, false));
    }
    df.push(dfr);
    ss.push(ssr);
    let ms: Vec<f64> = ss.iter().zip(&df).map(|(s, d)| s / d).collect();
    let scale = ssr / dfr;
    let mut f: Vec<f64> = ms.iter().map(|m| m / scale).collect();
    let mut pv: Vec<f64> = f
        .iter()
        .zip(&df)
        .map(|(&f, &d)| pf(f, d, dfr, false, false))
        .collect();
    let last = f.len() - 1;
    f[last] = NA;
    pv[last] = NA;
    let mut cols = vec![df, ss, ms, f, pv];
    let mut rows = fit.effect_names(&levels);
    rows.push("Residuals".to_string());
    if fit.intercept() && levels.first() == Some(&0.0) {
        for c in &mut cols {
            c.remove(0);
        }
        rows.remove(0);
    }
    Ok(columns(COLUMNS, cols, Some(RowNames::Text(rows))))
}

/// R's `anova.lmlist` with its default F test.
fn anova_lmlist(fits: &[Fit]) -> Result<Value, KernelError> {
    let n0 = fits[0].nums("residuals")?.len();
    for f in &fits[1..] {
        if f.nums("residuals")?.len() != n0 {
            return Err(KernelError::new(
                "models were not all fitted to the same size of dataset",
            ));
        }
    }
    let resdf: Vec<f64> = fits
        .iter()
        .map(|f| f.scalar("df.residual"))
        .collect::<Result<_, _>>()?;
    let resdev: Vec<f64> = fits
        .iter()
        .map(Fit::weighted_rss)
        .collect::<Result<_, _>>()?;
    let m = fits.len();
    let mut df = vec![NA];
    let mut ssq = vec![NA];
    for i in 1..m {
        df.push(-(resdf[i] - resdf[i - 1]));
        ssq.push(-(resdev[i] - resdev[i - 1]));
    }
    // order(resdf)[1]: the first of the smallest.
    let big = (0..m).fold(0, |b, i| if resdf[i] < resdf[b] { i } else { b });
    let scale = resdev[big] / resdf[big];
    let df_scale = resdf[big];
    let f: Vec<f64> = (0..m)
        .map(|i| {
            let v = (ssq[i] / df[i]) / scale;
            if df[i] == 0.0 || (!v.is_nan() && v < 0.0) {
                NA
            } else {
                v
            }
        })
        .collect();
    let p: Vec<f64> = (0..m)
        .map(|i| pf(f[i], df[i].abs(), df_scale, false, false))
        .collect();
    // R's `dimnames(table) <- list(1L:nmodels, ...)`: numbers, not
    // automatic row names.
    let rows = RowNames::Numbers((1..=m as i32).collect());
    Ok(columns(
        LIST_COLUMNS,
        vec![resdf, resdev, df, ssq, f, p],
        Some(rows),
    ))
}
