//! `anova(object, ...)` of an `lm`: R's `anova.lm` (sequential sums of
//! squares from the QR's effects) or, given further models, `anova.lmlist`
//! (F tests between nested fits).
//!
//! Of a `glm`: R 4.2's `anova.glm` (the analysis of deviance, refitting
//! the model matrix's leading terms in order) or `anova.glmlist`, with
//! `stat.anova`'s tests.
//!
//! R's result is a data frame of class `anova`; flowcast's is a data
//! frame with R's columns ("Df", "Sum Sq", "Mean Sq", "F value", "Pr(>F)",
//! or "Res.Df", "RSS", "Df", "Sum of Sq", "F", "Pr(>F)"; for glm fits
//! "Df", "Deviance", "Resid. Df", "Resid. Dev", or "Resid. Df", "Resid.
//! Dev", "Df", "Deviance", then the test's) and R's row names: the fit's
//! `terms$term.labels` after "NULL" or before "Residuals", or the models'
//! numbers. The heading R prints is not kept.

use super::super::frame;
use super::super::nmath::pchisq;
use super::super::nmath::pf;
use super::super::summary::sum;
use super::super::value::{RowNames, NA};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::family::{Dist, Family};
use super::fit::{model_type, Fit, Kind};
use super::glm::refit;
use super::nls::Nls;
use super::summary::estimated_dispersion;

pub(super) fn anova_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if super::mlm::is_mlm_type(args) {
        return Ok(Type::Any);
    }
    let glm = match model_type(args, "object")? {
        Some(Type::Record { class, .. }) => class == "glm",
        _ => return Ok(Type::Any),
    };
    if !glm {
        let several = args.dots().next().is_some();
        if several {
            if args
                .ty("dispersion")
                .is_some_and(|t| !matches!(t, Type::Null))
            {
                return Err(args.error("dispersion", LM_TEST));
            }
            if let Some(t) = args.ty("test").and_then(Type::const_str) {
                if t != "F" {
                    return Err(args.error("test", LM_TEST));
                }
            }
        }
        let nls = matches!(model_type(args, "object")?, Some(Type::Record { class, .. }) if class == super::nls::CLASS);
        let names: &[&str] = match (several, nls) {
            (true, true) => NLS_COLUMNS,
            (true, false) => LIST_COLUMNS,
            (false, _) => COLUMNS,
        };
        return Ok(frame_type(names.iter().map(|n| n.to_string()).collect()));
    }
    let test = match args.ty("test") {
        None | Some(Type::Null) => None,
        Some(t @ Type::Str { .. }) => match t.const_str() {
            Some(s) => Some(test_of(s).map_err(|e| args.error("test", e.0))?),
            None => return Ok(Type::Any),
        },
        Some(Type::Any) => return Ok(Type::Any),
        Some(_) => return Err(args.error("test", TEST_TYPE)),
    };
    // anova.glm passes on only the glm fits among its unnamed `...`.
    let mut several = false;
    for (name, t) in args.dots() {
        match (name, t) {
            (Some(_), _) => {}
            (None, Type::Record { class, .. }) => several |= class == "glm",
            (None, Type::Any) => return Ok(Type::Any),
            _ => {}
        }
    }
    Ok(frame_type(glm_columns(several, test)))
}

fn frame_type(names: Vec<String>) -> Type {
    Type::Record {
        class: frame::CLASS.to_string(),
        fields: names
            .into_iter()
            .map(|n| (n, Type::num_unknown()))
            .collect(),
    }
}

const GLM: &str = "flowcast's anova() of an lm fit takes further lm fits, not glm fits";
const LM_TEST: &str =
    "flowcast's anova() of several lm fits takes no 'dispersion', and only test = \"F\"";
const TEST_TYPE: &str = "'arg' must be NULL or a character vector";
const COLUMNS: &[&str] = &["Df", "Sum Sq", "Mean Sq", "F value", "Pr(>F)"];
const LIST_COLUMNS: &[&str] = &["Res.Df", "RSS", "Df", "Sum of Sq", "F", "Pr(>F)"];

pub(super) fn anova_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(fit) = Nls::of(args.get("object")) {
        return anova_nls(fit, args, ctx);
    }
    if let Some(m) = super::mlm::Mlm::of(args.get("object")) {
        return super::mlm::anova(m, args, ctx);
    }
    let fit = Fit::from_arg(args, "object", "anova")?;
    if let Kind::Glm(_) = fit.kind {
        return anova_glm_eval(&fit, args, ctx);
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
        // R's anova.lmlist of one model is anova.lm, whatever its test.
        anova_lm(&fit)
    } else {
        let f_test = match args.get("test") {
            None | Some(Value::Null) => true,
            Some(Value::Str(t)) => t.len() == 1 && t[0] == "F",
            Some(_) => false,
        };
        if !f_test
            || args
                .get("dispersion")
                .is_some_and(|v| !matches!(v, Value::Null))
        {
            return Err(KernelError::new(LM_TEST));
        }
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
const NLS_COLUMNS: &[&str] = &["Res.Df", "Res.Sum Sq", "Df", "Sum Sq", "F value", "Pr(>F)"];

/// R's `anovalist.nls`: nested nls fits compared by the F test of the
/// residual sums of squares, fits of another response than the first's
/// dropped with R's warning.
fn anova_nls(first: Nls, args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if args.dots().next().is_none() {
        return Err(KernelError::new(
            "anova is only defined for sequences of \"nls\" objects",
        ));
    }
    let mut fits = vec![first];
    for (_, v) in args.dots() {
        match Nls::of(Some(v)) {
            Some(f) => fits.push(f),
            None => {
                return Err(KernelError::new(format!(
                    "flowcast's anova() compares nls fits with nls fits only, not a {}",
                    v.type_name()
                )))
            }
        }
    }
    let response = fits[0].response();
    let (same, other): (Vec<Nls>, Vec<Nls>) =
        fits.into_iter().partition(|f| f.response() == response);
    if !other.is_empty() {
        let quoted: Vec<String> = other
            .iter()
            .map(|f| format!("\u{2018}\"{}\"\u{2019}", f.response()))
            .collect();
        ctx.warn(format!(
            "models with response {} removed because response differs from model 1",
            quoted.join(", ")
        ));
    }
    let m = same.len();
    if m == 1 {
        return Err(KernelError::new(
            "'anova' is only defined for sequences of \"nls\" objects",
        ));
    }
    let dfr: Vec<f64> = same
        .iter()
        .map(Nls::df_residual)
        .collect::<Result<_, _>>()?;
    let ssr: Vec<f64> = same.iter().map(Nls::deviance).collect::<Result<_, _>>()?;
    let mut df = vec![NA; m];
    let mut ss = vec![NA; m];
    let mut f = vec![NA; m];
    let mut p = vec![NA; m];
    for i in 1..m {
        df[i] = -(dfr[i] - dfr[i - 1]);
        ss[i] = -(ssr[i] - ssr[i - 1]);
        let ms = ss[i] / df[i];
        if df[i] > 0.0 {
            f[i] = ms / (ssr[i] / dfr[i]);
            p[i] = pf(f[i], df[i], dfr[i], false, false);
        } else if df[i] < 0.0 {
            f[i] = ms / (ssr[i - 1] / dfr[i - 1]);
            p[i] = pf(f[i], -df[i], dfr[i - 1], false, false);
        } else {
            ss[i] = 0.0;
        }
    }
    let rows = RowNames::Numbers((1..=m as i32).collect());
    Ok(columns(
        NLS_COLUMNS,
        vec![dfr, ssr, df, ss, f, p],
        Some(rows),
    ))
}

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

/// `stat.anova`'s tests, as `match.arg` picks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Test {
    Rao,
    Lrt,
    Chisq,
    F,
    Cp,
}

const TESTS: [(&str, Test); 5] = [
    ("Rao", Test::Rao),
    ("LRT", Test::Lrt),
    ("Chisq", Test::Chisq),
    ("F", Test::F),
    ("Cp", Test::Cp),
];

/// `match.arg(test)`: an exact name, else a unique partial one. A partial
/// "R" or "Ra" is refused as R ends up refusing it: anova.glm computes
/// score statistics only for "Rao" written out, so stat.anova finds no
/// column to test.
fn test_of(s: &str) -> Result<Test, KernelError> {
    if let Some((_, t)) = TESTS.iter().find(|(n, _)| *n == s) {
        return Ok(*t);
    }
    let partial: Vec<Test> = TESTS
        .iter()
        .filter(|(n, _)| !s.is_empty() && n.starts_with(s))
        .map(|(_, t)| *t)
        .collect();
    match partial.as_slice() {
        [Test::Rao] => Err(KernelError::new("undefined columns selected")),
        [t] => Ok(*t),
        _ => Err(KernelError::new(
            "'arg' should be one of \u{201c}Rao\u{201d}, \u{201c}LRT\u{201d}, \u{201c}Chisq\u{201d}, \u{201c}F\u{201d}, \u{201c}Cp\u{201d}",
        )),
    }
}

/// The `test` argument: NULL (no test) or one of stat.anova's names.
fn test_arg(args: &Args<&Value>) -> Result<Option<(Test, bool)>, KernelError> {
    match args.get("test") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Str(s)) => match s.as_slice() {
            [t] => Ok(Some((test_of(t)?, t == "F"))),
            _ => Err(KernelError::new("'arg' must be of length 1")),
        },
        Some(_) => Err(KernelError::new(TEST_TYPE)),
    }
}

const TEST_NA: &str = "missing value where TRUE/FALSE needed";

/// The columns of anova.glm's (`several`: anova.glmlist's) table.
fn glm_columns(several: bool, test: Option<Test>) -> Vec<String> {
    let mut names: Vec<&str> = if several {
        vec!["Resid. Df", "Resid. Dev", "Df", "Deviance"]
    } else {
        vec!["Df", "Deviance", "Resid. Df", "Resid. Dev"]
    };
    if test == Some(Test::Rao) {
        names.push("Rao");
    }
    match test {
        None => {}
        Some(Test::Rao | Test::Lrt | Test::Chisq) => names.push("Pr(>Chi)"),
        Some(Test::F) => names.extend(["F", "Pr(>F)"]),
        Some(Test::Cp) => names.push("Cp"),
    }
    names.into_iter().map(String::from).collect()
}

/// The optional `dispersion` argument: NULL, or one number.
fn dispersion_arg(args: &Args<&Value>) -> Result<Option<f64>, KernelError> {
    match args.get("dispersion") {
        None | Some(Value::Null) => Ok(None),
        Some(_) => Ok(Some(args.scalar("dispersion")?)),
    }
}

/// R's `if (dispersion == 1)`: an NA dispersion (no residual degrees of
/// freedom left to estimate it) is R's error.
fn is_one(dispersion: f64) -> Result<bool, KernelError> {
    if dispersion.is_nan() {
        return Err(KernelError::new(TEST_NA));
    }
    Ok(dispersion == 1.0)
}

/// anova.glm's and anova.glmlist's warning for an F test where the
/// dispersion is not estimated.
fn warn_f(family: Family, ctx: &mut Ctx) {
    match family.dist {
        Dist::Binomial | Dist::Poisson => ctx.warn(format!(
            "using F test with a '{}' family is inappropriate",
            family.name()
        )),
        _ => ctx.warn("using F test with a fixed dispersion is inappropriate"),
    }
}

/// R's `anova.glm(object, ..., dispersion, test)`: the glm fits among the
/// unnamed `...` make it `anova.glmlist`.
fn anova_glm_eval(fit: &Fit, args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let test = test_arg(args)?;
    let dispersion = dispersion_arg(args)?;
    let mut fits = vec![Fit {
        kind: fit.kind,
        record: fit.record,
    }];
    for (name, v) in args.dots() {
        if name.is_some() {
            continue;
        }
        if let Some(f) = Fit::from_value(v) {
            if let Kind::Glm(_) = f.kind {
                fits.push(f);
            }
        }
    }
    // anova.glmlist: the fits of another response than the first's are
    // dropped, with R's warning.
    let response = |f: &Fit| match f.exact("response") {
        Some(Value::Str(s)) => s.first().cloned(),
        _ => None,
    };
    let first = response(&fits[0]);
    let other: Vec<String> = fits
        .iter()
        .filter_map(|f| response(f).filter(|r| Some(r) != first.as_ref()))
        .collect();
    if !other.is_empty() {
        let quoted: Vec<String> = other.iter().map(|r| format!("\"{r}\"")).collect();
        let deparsed = match quoted.as_slice() {
            [one] => one.clone(),
            many => format!("c({})", many.join(", ")),
        };
        ctx.warn(format!(
            "models with response \u{2018}{deparsed}\u{2019} removed because response differs from model 1"
        ));
        fits.retain(|f| response(f).is_none() || response(f) == first);
    }
    if fits.len() > 1 {
        anova_glmlist(&fits, dispersion, test, ctx)
    } else {
        anova_glm(fit, dispersion, test, ctx)
    }
}

/// A glm's family (`Fit::from_value` read it).
fn family(fit: &Fit) -> Family {
    match fit.kind {
        Kind::Glm(f) => f,
        Kind::Lm => Family::new(Dist::Gaussian, super::family::Link::Identity),
    }
}

/// The model matrix the glm was fitted on (R's `model.matrix(object)`):
/// its values, column-major, and rows.
fn model_x(fit: &Fit) -> Result<(Vec<f64>, usize), KernelError> {
    match fit.exact("x") {
        Some(Value::Mat(m)) => Ok((m.as_slice().to_vec(), m.nrows())),
        _ => Err(KernelError::new(
            "the glm fit keeps no model matrix 'x': refit it with this flowcast's glm()",
        )),
    }
}

/// The columns of `x` (`n` rows) whose `assign` passes `keep`.
fn columns_where(x: &[f64], n: usize, assign: &[f64], keep: impl Fn(f64) -> bool) -> Vec<f64> {
    assign
        .iter()
        .enumerate()
        .filter(|(_, &a)| keep(a))
        .flat_map(|(j, _)| x[j * n..(j + 1) * n].iter().copied())
        .collect()
}

/// R's `anova.glm` for one fit.
fn anova_glm(
    fit: &Fit,
    dispersion: Option<f64>,
    test: Option<(Test, bool)>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let fam = family(fit);
    let doscore = matches!(test, Some((Test::Rao, _)));
    let (x, n) = model_x(fit)?;
    let varseq = fit.nums("assign")?;
    if x.len() != n * varseq.len() {
        return Err(KernelError::new(
            "the glm fit's model matrix does not match its 'assign'",
        ));
    }
    let nvars = varseq.iter().fold(0.0f64, |m, &a| m.max(a)) as usize;
    let y = fit.nums("y")?;
    let prior = fit.nums("prior.weights")?;
    // anova.glm refits with `offset = object$offset`; the score refits of
    // working residuals take none.
    let offset = match fit.exact("offset") {
        Some(Value::Num(o)) if o.len() == n => Some(o.as_slice()),
        _ => {
            super::fit::no_offset(fit)?;
            None
        }
    };
    let icpt = fit.intercept();
    let mut resdev = vec![fit.scalar("null.deviance")?];
    let mut resdf = vec![fit.scalar("df.null")?];
    let mut score = vec![0.0; nvars];
    if doscore || nvars > 1 {
        // The score test of each term is a weighted least-squares fit of
        // the previous model's working residuals, as R's glm.fit computes
        // it (gaussian family).
        let gaussian = Family::new(Dist::Gaussian, super::family::Link::Identity);
        let mut rw = if doscore {
            let null = columns_where(&x, n, varseq, |a| a == 0.0);
            let f = refit(null, n, y, prior, offset, fam, true, ctx)?;
            Some((f.residuals, f.weights))
        } else {
            None
        };
        for i in 1..nvars {
            let xi = columns_where(&x, n, varseq, |a| a <= i as f64);
            let f = refit(xi.clone(), n, y, prior, offset, fam, true, ctx)?;
            if let Some((r, w)) = &rw {
                let zz = refit(xi, n, r, w, None, gaussian, icpt, ctx)?;
                score[i - 1] = zz.null_deviance - zz.deviance;
                rw = Some((f.residuals.clone(), f.weights.clone()));
            }
            resdev.push(f.deviance);
            resdf.push(f.df_residual);
        }
        if let (Some((r, w)), true) = (&rw, nvars > 0) {
            let zz = refit(x.clone(), n, r, w, None, gaussian, icpt, ctx)?;
            score[nvars - 1] = zz.null_deviance - zz.deviance;
        }
    }
    resdev.push(fit.scalar("deviance")?);
    resdf.push(fit.scalar("df.residual")?);
    let m = resdf.len();
    let mut df = vec![NA];
    let mut dev = vec![NA];
    for i in 1..m {
        df.push(-(resdf[i] - resdf[i - 1]));
        // pmax(0, .) keeps an NaN as R's pmax does.
        let d = -(resdev[i] - resdev[i - 1]);
        dev.push(if d < 0.0 { 0.0 } else { d });
    }
    let mut rows = vec!["NULL".to_string()];
    rows.extend(fit.term_labels());
    let mut cols = vec![df, dev, resdf, resdev];
    if rows.len() == 1 {
        // "kludge for null model": the first row alone.
        for c in &mut cols {
            c.truncate(1);
        }
    }
    if rows.len() != cols[0].len() {
        return Err(KernelError::new(
            "the glm fit's terms do not match its 'assign'",
        ));
    }
    if doscore {
        let mut rao = vec![NA];
        rao.extend(score);
        rao.truncate(rows.len());
        cols.push(rao);
    }
    let (dispersion, df_dispersion) = match dispersion {
        Some(d) => (d, f64::INFINITY),
        None => {
            let d = estimated_dispersion(fit, fam, ctx)?;
            let dfd = if is_one(d)? {
                f64::INFINITY
            } else {
                fit.scalar("df.residual")?
            };
            (d, dfd)
        }
    };
    if let Some((t, exact_f)) = test {
        if exact_f && df_dispersion == f64::INFINITY {
            warn_f(fam, ctx);
        }
        stat_anova(&mut cols, t, false, dispersion, df_dispersion, n as f64);
    }
    let names = glm_columns(false, test.map(|t| t.0));
    Ok(columns(
        &names.iter().map(String::as_str).collect::<Vec<_>>(),
        cols,
        Some(RowNames::Text(rows)),
    ))
}

/// R's `anova.glmlist`.
fn anova_glmlist(
    fits: &[Fit],
    dispersion: Option<f64>,
    test: Option<(Test, bool)>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let n0 = fits[0].nums("residuals")?.len();
    for f in &fits[1..] {
        if f.nums("residuals")?.len() != n0 {
            return Err(KernelError::new(
                "models were not all fitted to the same size of dataset",
            ));
        }
    }
    let m = fits.len();
    let resdf: Vec<f64> = fits
        .iter()
        .map(|f| f.scalar("df.residual"))
        .collect::<Result<_, _>>()?;
    let resdev: Vec<f64> = fits
        .iter()
        .map(|f| f.scalar("deviance"))
        .collect::<Result<_, _>>()?;
    let mut df = vec![NA];
    let mut dev = vec![NA];
    for i in 1..m {
        df.push(-(resdf[i] - resdf[i - 1]));
        dev.push(-(resdev[i] - resdev[i - 1]));
    }
    let mut cols = vec![resdf.clone(), resdev, df.clone(), dev];
    if matches!(test, Some((Test::Rao, _))) {
        let gaussian = Family::new(Dist::Gaussian, super::family::Link::Identity);
        let mut score = vec![NA];
        for i in 1..m {
            // The smaller model's working residuals against the larger
            // model's matrix.
            let (m1, m2) = if df[i] > 0.0 {
                (&fits[i - 1], &fits[i])
            } else {
                (&fits[i], &fits[i - 1])
            };
            let (x, n) = model_x(m2)?;
            let zz = refit(
                x,
                n,
                m1.nums("residuals")?,
                m1.nums("weights")?,
                None,
                gaussian,
                m1.intercept(),
                ctx,
            )?;
            let s = zz.null_deviance - zz.deviance;
            score.push(if df[i] < 0.0 { -s } else { s });
        }
        cols.push(score);
    }
    if let Some((t, exact_f)) = test {
        // order(resdf)[1]: the first of the smallest.
        let big = (0..m).fold(0, |b, i| if resdf[i] < resdf[b] { i } else { b });
        let bigmodel = &fits[big];
        let fam = family(bigmodel);
        let dispersion = match dispersion {
            Some(d) => d,
            None => estimated_dispersion(bigmodel, fam, ctx)?,
        };
        let df_dispersion = if is_one(dispersion)? {
            f64::INFINITY
        } else {
            resdf.iter().fold(f64::INFINITY, |a, &b| a.min(b))
        };
        if exact_f && df_dispersion == f64::INFINITY {
            warn_f(fam, ctx);
        }
        let n = bigmodel.nums("residuals")?.len() as f64;
        stat_anova(&mut cols, t, true, dispersion, df_dispersion, n);
    }
    let names = glm_columns(true, test.map(|t| t.0));
    let rows = RowNames::Numbers((1..=m as i32).collect());
    Ok(columns(
        &names.iter().map(String::as_str).collect::<Vec<_>>(),
        cols,
        Some(rows),
    ))
}

/// R's `stat.anova` on a deviance table's columns (`several`: anova.glmlist's
/// order, Resid. Df, Resid. Dev, Df, Deviance; else anova.glm's, Df,
/// Deviance, Resid. Df, Resid. Dev; a Rao column after them when present).
fn stat_anova(
    cols: &mut Vec<Vec<f64>>,
    test: Test,
    several: bool,
    scale: f64,
    df_scale: f64,
    n: f64,
) {
    let (idf, idev, iresdf, iresdev) = if several { (2, 3, 0, 1) } else { (0, 1, 2, 3) };
    let dfs = cols[idf].clone();
    let stat = if test == Test::Rao { 4 } else { idev };
    match test {
        Test::Rao | Test::Lrt | Test::Chisq => {
            let p = (0..dfs.len())
                .map(|i| {
                    // `* sign(dfs)`: a model with more parameters listed
                    // first still tests a positive deviance.
                    let v = cols[stat][i] / scale * dfs[i].signum();
                    if dfs[i] == 0.0 || dfs[i].is_nan() || v.is_nan() || v < 0.0 {
                        NA
                    } else {
                        pchisq(v, dfs[i].abs(), false, false)
                    }
                })
                .collect();
            cols.push(p);
        }
        Test::F => {
            let f: Vec<f64> = (0..dfs.len())
                .map(|i| {
                    let v = (cols[idev][i] / dfs[i]) / scale;
                    if dfs[i] == 0.0 || (!v.is_nan() && v < 0.0) {
                        NA
                    } else {
                        v
                    }
                })
                .collect();
            let p = (0..dfs.len())
                .map(|i| pf(f[i], dfs[i].abs(), df_scale, false, false))
                .collect();
            cols.push(f);
            cols.push(p);
        }
        Test::Cp => {
            let cp = (0..dfs.len())
                .map(|i| cols[iresdev][i] + 2.0 * scale * (n - cols[iresdf][i]))
                .collect();
            cols.push(cp);
        }
    }
}
