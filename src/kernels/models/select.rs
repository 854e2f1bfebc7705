//! Model selection on a fitted `lm` or `glm`: R's `extractAIC` and
//! `drop1`, ports of stats' add.R (`extractAIC.lm`, `extractAIC.glm`,
//! `drop1.lm`, `drop1.glm`, `drop.scope`, `factor.scope`, `check_exact`,
//! `safe_pchisq`, `safe_pf`).
//!
//! drop1 refits on columns of the model matrix the fit kept (`x`), as
//! R's drop1 methods refit on `model.matrix(object)`: `lm.fit` or
//! `lm.wfit` (R's `dqrls`, tol 1e-7) for an lm, `glm.fit` for a glm.
//! R's result is a data frame of class `anova` with a heading; flowcast's
//! is the data frame with R's columns and row names ("<none>", then the
//! terms), as flowcast's `anova` gives it, the heading not kept.
//!
//! `add1` (R's `add1.lm`, `add1.glm`, `add.scope`) refits on columns of
//! the model matrix of the model's terms and the scope's, as R does on
//! `model.matrix(update.formula(object, ~ . + scope))`: the evaluator
//! (`exec::eval::update`) hands it that formula evaluated among the fit's
//! data. `update` refits the new formula on the same data, with the fit's
//! weights and family (R's `update.default` evaluating the call again).
//!
//! `step` (R's `step`) drops as drop1 does, refitting on the model matrix
//! less the term's columns (what R's `update(fit, ~ . - term)` fits on
//! the same rows), and with a scope (`factor.scope`) adds as add1 does,
//! refitting the model's formula and the term on the fit's data.

use super::super::frame;
use super::super::linalg::linpack::dqrls;
use super::super::lm::{design, fit_design, fit_formula, keep_model, Design};
use super::super::nmath::{pchisq, pf};
use super::super::summary::sum;
use super::super::value::{Formula, List, RowNames, NA};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::family::{Dist, Family, Link};
use super::fit::{model_type, Fit, Kind};
use super::glm::{glm_formula, glm_record, refit};
use super::summary::estimated_dispersion;
use crate::kernels::value::SCOPE_CLASS;

pub(super) fn extract_aic_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    nls_refused(args, "fit")?;
    Ok(Type::num(2))
}

pub(super) fn drop1_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    nls_refused(args, "object")?;
    Ok(Type::Any)
}

fn nls_refused(args: &Args<Type>, name: &str) -> Result<(), ArgError> {
    if let Some(Type::Record { class, .. }) = model_type(args, name)? {
        if class == super::nls::CLASS {
            return Err(args.error(
                name,
                format!(
                    "flowcast's {}() takes a model fitted by lm() or glm()",
                    args.func
                ),
            ));
        }
    }
    Ok(())
}

/// The model of `extractAIC(fit, ...)` or `drop1(object, ...)`.
fn model<'a>(args: &'a Args<&Value>, name: &str) -> Result<Fit<'a>, KernelError> {
    Fit::from_arg(args, name, args.func)
}

/// A number argument R compares (`if (scale > 0)`): NA is R's error.
fn number(args: &Args<&Value>, name: &str, default: f64) -> Result<f64, KernelError> {
    let v = args.scalar_or(name, default)?;
    if v.is_nan() && name == "scale" {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    Ok(v)
}

/// R's `extractAIC(fit, scale = 0, k = 2)`: `extractAIC.lm` or
/// `extractAIC.glm`, the equivalent degrees of freedom and the AIC.
pub(super) fn extract_aic_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let fit = model(args, "fit")?;
    let scale = number(args, "scale", 0.0)?;
    let k = number(args, "k", 2.0)?;
    let (edf, aic) = extract_aic(&fit, scale, k)?;
    Ok(Value::Num(vec![edf, aic]))
}

fn extract_aic(fit: &Fit, scale: f64, k: f64) -> Result<(f64, f64), KernelError> {
    let n = fit.nums("residuals")?.len() as f64;
    let edf = n - fit.scalar("df.residual")?;
    Ok(match fit.kind {
        // extractAIC.lm
        Kind::Lm => {
            let rss = fit.weighted_rss()?;
            let dev = if scale > 0.0 {
                rss / scale - n
            } else {
                n * (rss / n).ln()
            };
            (edf, dev + k * edf)
        }
        // extractAIC.glm: "assumes dispersion is known"
        Kind::Glm(_) => (edf, fit.scalar("aic")? + (k - 2.0) * edf),
    })
}

/// The tests of drop1.lm and drop1.glm.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Test {
    None,
    Rao,
    Lrt,
    F,
}

/// `match.arg(test)` over the method's choices.
fn test_arg(args: &Args<&Value>, glm: bool) -> Result<Test, KernelError> {
    let choices: &[(&str, Test)] = if glm {
        &[
            ("none", Test::None),
            ("Rao", Test::Rao),
            ("LRT", Test::Lrt),
            ("Chisq", Test::Lrt),
            ("F", Test::F),
        ]
    } else {
        &[("none", Test::None), ("Chisq", Test::Lrt), ("F", Test::F)]
    };
    let s = match args.get("test") {
        None => return Ok(Test::None),
        Some(Value::Str(s)) => s,
        Some(Value::Null) => return Ok(Test::None),
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    // match.arg: the whole choices vector given means the default.
    if s.len() == choices.len() && s.iter().zip(choices).all(|(a, (b, _))| a == b) {
        return Ok(Test::None);
    }
    let [s] = s.as_slice() else {
        return Err(KernelError::new("'arg' must be of length 1"));
    };
    if let Some((_, t)) = choices.iter().find(|(n, _)| n == s) {
        return Ok(*t);
    }
    let partial: Vec<Test> = choices
        .iter()
        .filter(|(n, _)| !s.is_empty() && n.starts_with(s.as_str()))
        .map(|(_, t)| *t)
        .collect();
    match partial.as_slice() {
        [t] => Ok(*t),
        _ => {
            let quoted: Vec<String> = choices
                .iter()
                .map(|(n, _)| format!("\u{201c}{n}\u{201d}"))
                .collect();
            Err(KernelError::new(format!(
                "'arg' should be one of {}",
                quoted.join(", ")
            )))
        }
    }
}

/// R's `drop.scope(object)`, through `factor.scope(factor, list(drop =
/// numeric()))`: the terms no other term contains all the variables of
/// (`crossprod(facs > 0)`), so that no interaction is left without its
/// margins.
fn drop_scope(fit: &Fit) -> Vec<String> {
    let labels = fit.term_labels();
    let (_, terms) = fit.term_variables();
    if terms.len() != labels.len() || labels.len() <= 1 {
        return labels;
    }
    let shared = |i: usize, j: usize| terms[i].iter().filter(|v| terms[j].contains(v)).count();
    labels
        .iter()
        .enumerate()
        .filter(|&(i, _)| {
            let own = shared(i, i);
            let most = (0..labels.len())
                .filter(|&j| j != i)
                .map(|j| shared(i, j))
                .max()
                .unwrap_or(0);
            most != own
        })
        .map(|(_, l)| l.clone())
        .collect()
}

/// drop1's `scope`: missing, `drop.scope(object)`; a character vector,
/// term labels; a formula, the labels of its terms (R's
/// `attr(terms(update.formula(object, scope)), "term.labels")`, the same
/// for a formula without `.`). Each must be a term of the fit.
fn scope_arg(args: &Args<&Value>, fit: &Fit) -> Result<Vec<String>, KernelError> {
    let scope = match args.get("scope") {
        None => return Ok(drop_scope(fit)),
        Some(Value::Str(s)) => s.clone(),
        Some(Value::Formula(f)) => f.terms.iter().map(|(l, _)| l.clone()).collect(),
        Some(v) => {
            return Err(KernelError::new(format!(
                "flowcast's drop1() takes 'scope' as term labels or a formula, not {}",
                v.type_name()
            )))
        }
    };
    let tl = fit.term_labels();
    if !scope.iter().all(|s| tl.contains(s)) {
        return Err(KernelError::new("scope is not a subset of term labels"));
    }
    Ok(scope)
}

/// `x[, jj, drop = FALSE]`: the columns `jj` of column-major `x`.
fn columns(x: &[f64], n: usize, jj: &[usize]) -> Vec<f64> {
    jj.iter()
        .flat_map(|&j| x[j * n..(j + 1) * n].iter().copied())
        .collect()
}

/// The model matrix the fit kept, column-major, with its rows.
fn model_x<'a>(fit: &Fit<'a>, p: usize) -> Result<(&'a [f64], usize), KernelError> {
    match fit.exact("x") {
        Some(Value::Mat(m)) if m.ncols() == p => Ok((m.as_slice(), m.nrows())),
        _ => Err(KernelError::new(
            "the fit keeps no model matrix 'x': refit it with this flowcast's lm() or glm()",
        )),
    }
}

/// `setdiff(cols, ii)` where `ii` are the columns `asgn` gives term
/// `term` (1-based).
fn kept_columns(cols: &[usize], asgn: &[f64], term: usize) -> Vec<usize> {
    cols.iter()
        .copied()
        .filter(|&j| asgn[j] != term as f64)
        .collect()
}

/// R's `safe_pchisq(q, df, lower.tail = FALSE)` at each row with a
/// statistic: df <= 0 gives NA.
fn upper_chisq(q: &[f64], df: &[f64]) -> Vec<f64> {
    q.iter()
        .zip(df)
        .map(|(&q, &d)| {
            if q.is_nan() || d.is_nan() || d <= 0.0 {
                if q.is_nan() && !is_na(q) {
                    q
                } else {
                    NA
                }
            } else {
                pchisq(q, d, false, false)
            }
        })
        .collect()
}

fn is_na(x: f64) -> bool {
    x.to_bits() == NA.to_bits()
}

/// R's F test of drop1.lm and drop1.glm: `Fs <- (dev/dfs)/rms`,
/// `Fs[dfs < 1e-4] <- NA`, then `safe_pf(Fs, dfs, rdf, lower.tail =
/// FALSE)` where Fs is not NA.
fn f_test(dev: &[f64], dfs: &[f64], rms: f64, rdf: f64) -> (Vec<f64>, Vec<f64>) {
    let fs: Vec<f64> = dev
        .iter()
        .zip(dfs)
        .map(|(&d, &df)| {
            if df.is_nan() || df < 1e-4 {
                NA
            } else {
                (d / df) / rms
            }
        })
        .collect();
    let p = fs
        .iter()
        .zip(dfs)
        .map(|(&f, &df)| {
            if is_na(f) || df <= 0.0 {
                NA
            } else {
                pf(f, df, rdf, false, false)
            }
        })
        .collect();
    (fs, p)
}

fn table(names: Vec<&str>, cols: Vec<Vec<f64>>, rows: Vec<String>) -> Value {
    frame::named_frame(
        names.into_iter().map(String::from).collect(),
        cols.into_iter().map(Value::Num).collect(),
        Some(RowNames::Text(rows)),
    )
}

/// R's `drop1(object, scope, scale = 0, test, k = 2)`.
pub(super) fn drop1_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let fit = model(args, "object")?;
    let scale = number(args, "scale", 0.0)?;
    let k = number(args, "k", 2.0)?;
    let scope = scope_arg(args, &fit)?;
    let (names, cols, rows) = match fit.kind {
        Kind::Lm => {
            super::fit::no_offset(&fit)?;
            let all_cols = args.bool_or("all.cols", true)?;
            let test = test_arg(args, false)?;
            drop1_lm(&fit, scope, all_cols, test, scale, k, ctx)?
        }
        Kind::Glm(family) => {
            let test = test_arg(args, true)?;
            drop1_glm(&fit, scope, test, family, scale, k, ctx)?
        }
    };
    Ok(table(names, cols, rows))
}

/// A drop1 table: its columns' names, the columns, the rows' names.
type Table = (Vec<&'static str>, Vec<Vec<f64>>, Vec<String>);

/// R's `check_exact`: the warning for a fit with next to no residual
/// sum of squares.
fn check_exact(fit: &Fit, ctx: &mut Ctx) -> Result<(), KernelError> {
    let fitted = fit.nums("fitted.values")?;
    let r = fit.nums("residuals")?;
    let (mss, rss) = match fit.exact("weights") {
        Some(Value::Num(w)) => (
            sum(
                &w.iter()
                    .zip(fitted)
                    .map(|(w, f)| w * (f * f))
                    .collect::<Vec<_>>(),
                false,
            ),
            sum(
                &w.iter()
                    .zip(r)
                    .map(|(w, r)| w * (r * r))
                    .collect::<Vec<_>>(),
                false,
            ),
        ),
        _ => (
            sum(&fitted.iter().map(|f| f * f).collect::<Vec<_>>(), false),
            sum(&r.iter().map(|r| r * r).collect::<Vec<_>>(), false),
        ),
    };
    if rss < 1e-10 * mss {
        ctx.warn("attempting model selection on an essentially perfect fit is nonsense");
    }
    Ok(())
}

/// `deviance(lm.fit(x, y))` or `deviance(lm.wfit(x, y, w))` with the
/// fit's rank: the sum of squared weighted residuals, rows of weight zero
/// left out.
fn lm_refit(
    x: Vec<f64>,
    n: usize,
    y: &[f64],
    w: Option<&[f64]>,
) -> Result<(f64, f64), KernelError> {
    let p = x.len().checked_div(n).unwrap_or(0);
    let Some(w) = w else {
        // lm.fit: a matrix of no columns leaves y as the residuals.
        let (rank, r) = if p == 0 {
            (0, y.to_vec())
        } else {
            let z = dqrls(x, n, p, y, 1e-7);
            (z.qr.rank, z.residuals)
        };
        let sq: Vec<f64> = r.iter().map(|r| r * r).collect();
        return Ok((rank as f64, sum(&sq, true)));
    };
    // lm.wfit: rows of weight zero left out, the rest scaled by sqrt(w).
    if w.iter().any(|&w| w < 0.0 || w.is_nan()) {
        return Err(KernelError::new("missing or negative weights not allowed"));
    }
    let ok: Vec<usize> = (0..n).filter(|&i| w[i] != 0.0).collect();
    let m = ok.len();
    let wts: Vec<f64> = ok.iter().map(|&i| w[i].sqrt()).collect();
    let yw: Vec<f64> = ok.iter().zip(&wts).map(|(&i, s)| y[i] * s).collect();
    let (rank, rw) = if p == 0 || m == 0 {
        (0, yw)
    } else {
        let mut xw = Vec::with_capacity(m * p);
        for j in 0..p {
            xw.extend(ok.iter().zip(&wts).map(|(&i, s)| x[j * n + i] * s));
        }
        let z = dqrls(xw, m, p, &yw, 1e-7);
        (z.qr.rank, z.residuals)
    };
    // z$residuals <- z$residuals/wts; weighted.residuals: r * sqrt(w).
    let sq: Vec<f64> = rw
        .iter()
        .zip(&wts)
        .zip(&ok)
        .map(|((r, s), &i)| {
            let x = (r / s) * w[i].sqrt();
            x * x
        })
        .collect();
    Ok((rank as f64, sum(&sq, true)))
}

/// R's `drop1.lm`.
fn drop1_lm(
    fit: &Fit,
    scope: Vec<String>,
    all_cols: bool,
    test: Test,
    scale: f64,
    k: f64,
    ctx: &mut Ctx,
) -> Result<Table, KernelError> {
    check_exact(fit, ctx)?;
    let asgn = fit.nums("assign")?;
    let (x, n) = model_x(fit, asgn.len())?;
    let wt = match fit.exact("weights") {
        Some(Value::Num(w)) if w.len() == n => Some(w.as_slice()),
        _ => None,
    };
    let tl = fit.term_labels();
    let rdf = fit.scalar("df.residual")?;
    let chisq = fit.weighted_rss()?;
    let residuals = fit.nums("residuals")?;
    let fitted = fit.nums("fitted.values")?;
    if residuals.len() != n || fitted.len() != n {
        return Err(KernelError::new(
            "the fit's residuals do not match its model matrix",
        ));
    }
    let y: Vec<f64> = residuals.iter().zip(fitted).map(|(r, f)| r + f).collect();
    let coef = fit.nums("coefficients")?;
    let cols: Vec<usize> = if all_cols {
        (0..asgn.len()).collect()
    } else {
        (0..asgn.len())
            .filter(|&j| !coef.get(j).is_some_and(|c| c.is_nan()))
            .collect()
    };
    let mut dfs = vec![fit.scalar("rank")?];
    let mut rss = vec![chisq];
    for s in &scope {
        let term = tl.iter().position(|t| t == s).map_or(0, |i| i + 1);
        let jj = kept_columns(&cols, asgn, term);
        let (rank, dev) = lm_refit(columns(x, n, &jj), n, &y, wt)?;
        dfs.push(rank);
        rss.push(dev);
    }
    let nf = n as f64;
    let aic: Vec<f64> = rss
        .iter()
        .zip(&dfs)
        .map(|(&r, &d)| {
            if scale > 0.0 {
                r / scale - nf + k * d
            } else {
                nf * (r / nf).ln() + k * d
            }
        })
        .collect();
    let mut df: Vec<f64> = dfs.iter().map(|d| dfs[0] - d).collect();
    df[0] = NA;
    let mut ss: Vec<f64> = rss.iter().map(|r| r - rss[0]).collect();
    ss[0] = NA;
    let mut rows = vec!["<none>".to_string()];
    rows.extend(scope);
    let mut names = vec![
        "Df",
        "Sum of Sq",
        "RSS",
        if scale > 0.0 { "Cp" } else { "AIC" },
    ];
    let mut cols = vec![df.clone(), ss.clone(), rss.clone(), aic];
    match test {
        Test::None | Test::Rao => {}
        Test::Lrt => {
            let mut dev: Vec<f64> = if scale == 0.0 {
                let d: Vec<f64> = rss.iter().map(|r| nf * (r / nf).ln()).collect();
                d.iter().map(|v| v - d[0]).collect()
            } else {
                ss.iter().map(|s| s / scale).collect()
            };
            dev[0] = NA;
            let mut p = upper_chisq(&dev, &df);
            p[0] = NA;
            names.push("Pr(>Chi)");
            cols.push(p);
        }
        Test::F => {
            let rms = rss[0] / rdf;
            let (fs, p) = f_test(&ss, &df, rms, rdf);
            names.extend(["F value", "Pr(>F)"]);
            cols.extend([fs, p]);
        }
    }
    Ok((names, cols, rows))
}

/// R's `drop1.glm`.
fn drop1_glm(
    fit: &Fit,
    scope: Vec<String>,
    test: Test,
    family: Family,
    scale: f64,
    k: f64,
    ctx: &mut Ctx,
) -> Result<Table, KernelError> {
    let asgn = fit.nums("assign")?;
    let (x, n) = model_x(fit, asgn.len())?;
    let tl = fit.term_labels();
    let rdf = fit.scalar("df.residual")?;
    let chisq = fit.scalar("deviance")?;
    let y = fit.nums("y")?;
    let wt = fit.nums("prior.weights")?;
    if y.len() != n || wt.len() != n {
        return Err(KernelError::new(
            "the fit's y does not match its model matrix",
        ));
    }
    // drop1.glm refits with `offset = object$offset`. The Rao score's
    // refit reads glm.fit's null deviance, which refit gives only without
    // an offset.
    let offset = match fit.exact("offset") {
        Some(Value::Num(o)) if o.len() == n && test != Test::Rao => Some(o.as_slice()),
        _ => {
            super::fit::no_offset(fit)?;
            None
        }
    };
    let all: Vec<usize> = (0..asgn.len()).collect();
    let mut dfs = vec![fit.scalar("rank")?];
    let mut dev = vec![chisq];
    let mut score = vec![NA];
    for s in &scope {
        let term = tl.iter().position(|t| t == s).map_or(0, |i| i + 1);
        let jj = kept_columns(&all, asgn, term);
        // glm.fit's default intercept = TRUE.
        let z = refit(columns(x, n, &jj), n, y, wt, offset, family, true, ctx)?;
        dfs.push(z.rank);
        dev.push(z.deviance);
        if test == Test::Rao {
            // "Approximative refit of full model to residuals using WLS":
            // glm.fit(x, r, w), gaussian.
            let gaussian = Family::new(Dist::Gaussian, Link::Identity);
            let zz = refit(
                x.to_vec(),
                n,
                &z.residuals,
                &z.weights,
                None,
                gaussian,
                true,
                ctx,
            )?;
            score.push(zz.null_deviance - zz.deviance);
        }
    }
    let (dispersion, loglik, aic) = glm_aic(fit, family, (&dev, &dfs), n, (scale, k), ctx)?;
    let mut df: Vec<f64> = dfs.iter().map(|d| dfs[0] - d).collect();
    df[0] = NA;
    let mut rows = vec!["<none>".to_string()];
    rows.extend(scope);
    let (mut names, mut cols) = glm_head(&df, &dev, aic);
    let is_one = || dispersion_is_one(dispersion);
    match test {
        Test::None => {}
        Test::Lrt => {
            let mut d: Vec<f64> = loglik.iter().map(|l| pmax0(l - loglik[0])).collect();
            d[0] = NA;
            names.push(if is_one()? { "LRT" } else { "scaled dev." });
            let p = upper_chisq(&d, &df);
            cols.extend([d, p]);
            names.push("Pr(>Chi)");
        }
        Test::Rao => {
            let sc = if is_one()? {
                "Rao score"
            } else {
                "scaled Rao sc."
            };
            let d: Vec<f64> = score
                .iter()
                .map(|&s| if is_na(s) { NA } else { pmax0(s) / dispersion })
                .collect();
            let p = upper_chisq(&d, &df);
            names.extend([sc, "Pr(>Chi)"]);
            cols.extend([d, p]);
        }
        Test::F => {
            if matches!(family.dist, Dist::Binomial | Dist::Poisson) {
                ctx.warn(format!(
                    "F test assumes 'quasi{}' family",
                    family.dist.name()
                ));
            }
            let rms = dev[0] / rdf;
            let d: Vec<f64> = dev.iter().map(|v| pmax0(v - dev[0])).collect();
            let (fs, p) = f_test(&d, &df, rms, rdf);
            names.extend(["F value", "Pr(>F)"]);
            cols.extend([fs, p]);
        }
    }
    Ok((names, cols, rows))
}

/// drop1.glm's and add1.glm's dispersion (their tests divide by it), each
/// model's deviance as a log-likelihood (the gaussian family's through its
/// residual sum of squares), and the AIC column: that plus `k` per degree
/// of freedom, shifted so that the first row is the fit's own extractAIC.
fn glm_aic(
    fit: &Fit,
    family: Family,
    (dev, dfs): (&[f64], &[f64]),
    n: usize,
    (scale, k): (f64, f64),
    ctx: &mut Ctx,
) -> Result<(f64, Vec<f64>, Vec<f64>), KernelError> {
    let dispersion = if scale == 0.0 {
        estimated_dispersion(fit, family, ctx)?
    } else {
        scale
    };
    let nf = n as f64;
    let gaussian = family.dist == Dist::Gaussian;
    let loglik: Vec<f64> = dev
        .iter()
        .map(|&d| {
            if !gaussian {
                d / dispersion
            } else if scale > 0.0 {
                d / scale - nf
            } else {
                nf * (d / nf).ln()
            }
        })
        .collect();
    let mut aic: Vec<f64> = loglik.iter().zip(dfs).map(|(l, d)| l + k * d).collect();
    let (_, extracted) = extract_aic(fit, 0.0, k)?;
    let shift = extracted - aic[0];
    for a in &mut aic {
        *a += shift;
    }
    Ok((dispersion, loglik, aic))
}

/// drop1.glm's and add1.glm's first columns: Df, Deviance, and AIC unless
/// every AIC is NA (`if(all(is.na(aic))) aod <- aod[, -3]`).
fn glm_head(df: &[f64], dev: &[f64], aic: Vec<f64>) -> (Vec<&'static str>, Vec<Vec<f64>>) {
    let mut names = vec!["Df", "Deviance"];
    let mut cols = vec![df.to_vec(), dev.to_vec()];
    if !aic.iter().all(|a| a.is_nan()) {
        names.push("AIC");
        cols.push(aic);
    }
    (names, cols)
}

/// `if(dispersion == 1)` in drop1.glm and add1.glm: R stops on NA.
fn dispersion_is_one(dispersion: f64) -> Result<bool, KernelError> {
    if dispersion.is_nan() {
        Err(KernelError::new("missing value where TRUE/FALSE needed"))
    } else {
        Ok(dispersion == 1.0)
    }
}

/// R's `pmax(0, x)`: NA and NaN stay.
fn pmax0(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else {
        x.max(0.0)
    }
}

pub(super) fn step_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    nls_refused(args, "object")?;
    Ok(Type::Any)
}

/// `match.arg(direction)`: "both", "backward" or "forward".
fn direction_arg(args: &Args<&Value>) -> Result<&'static str, KernelError> {
    const CHOICES: [&str; 3] = ["both", "backward", "forward"];
    let s = match args.get("direction") {
        None => return Ok("both"),
        Some(Value::Str(s)) => s,
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    if s.len() == CHOICES.len() && s.iter().zip(CHOICES).all(|(a, b)| a == b) {
        return Ok("both");
    }
    let [s] = s.as_slice() else {
        return Err(KernelError::new("'arg' must be of length 1"));
    };
    if let Some(c) = CHOICES.iter().find(|c| **c == s.as_str()) {
        return Ok(c);
    }
    let hits: Vec<&'static str> = CHOICES
        .iter()
        .copied()
        .filter(|c| !s.is_empty() && c.starts_with(s.as_str()))
        .collect();
    if let [one] = hits.as_slice() {
        return Ok(one);
    }
    Err(KernelError::new(
        "'arg' should be one of \u{201c}both\u{201d}, \u{201c}backward\u{201d}, \u{201c}forward\u{201d}",
    ))
}

/// R's `nobs(object, use.fallback = TRUE)`: the cases of non-zero weight.
fn nobs(fit: &Fit) -> Result<f64, KernelError> {
    let n = fit.nums("residuals")?.len();
    Ok(match fit.prior_weights() {
        Some(w) if w.len() == n => w.iter().filter(|&&w| w != 0.0).count() as f64,
        _ => n as f64,
    })
}

/// step's `mydeviance`: `deviance(x)`.
fn deviance(fit: &Fit) -> Result<f64, KernelError> {
    match fit.kind {
        Kind::Lm => fit.weighted_rss(),
        Kind::Glm(_) => fit.scalar("deviance"),
    }
}

/// R's `update(fit, ~ . - term)` on the fit's own rows: the model matrix
/// less the term's columns, refitted by lm or glm, the terms renumbered
/// and the variables no term uses any more dropped.
fn drop_term(fit: &Fit, label: &str, ctx: &mut Ctx) -> Result<List, KernelError> {
    // A glm's offset (its formula's offset() terms and its `offset`
    // argument, summed) is kept as update keeps it; an lm's is not held.
    let (offset, offset_labels) = match (fit.kind, fit.exact("offset")) {
        (Kind::Glm(_), Some(Value::Num(o))) => {
            let labels = match fit.exact("terms") {
                Some(Value::List(t)) => match t.field("offset") {
                    Some(Value::Str(s)) => s.clone(),
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            };
            (Some(o.clone()), labels)
        }
        _ => {
            super::fit::no_offset(fit)?;
            (None, Vec::new())
        }
    };
    let asgn = fit.nums("assign")?;
    let (x, n) = model_x(fit, asgn.len())?;
    let labels = fit.term_labels();
    let Some(at) = labels.iter().position(|l| l == label) else {
        return Err(KernelError::new("scope is not a subset of term labels"));
    };
    let term = at + 1;
    let jj: Vec<usize> = (0..asgn.len())
        .filter(|&j| asgn[j] != term as f64)
        .collect();
    let names = fit.names();
    let (variables, mut term_vars) = fit.term_variables();
    if term_vars.len() != labels.len() {
        return Err(KernelError::new("the fit's terms do not match its labels"));
    }
    term_vars.remove(at);
    let used: Vec<usize> = (0..variables.len())
        .filter(|v| term_vars.iter().any(|t| t.contains(v)))
        .collect();
    let renumber = |v: &usize| used.iter().position(|u| u == v).unwrap_or(0);
    let term_variables = term_vars
        .iter()
        .map(|t| t.iter().map(renumber).collect())
        .collect();
    let kept_vars: Vec<String> = used.iter().map(|&v| variables[v].clone()).collect();
    let predvars = fit.predvars(&variables);
    let kept_predvars = used.iter().map(|&v| predvars[v].clone()).collect();
    let xlevels = kept_vars
        .iter()
        .filter_map(|v| fit.xlevels(v).map(|l| (v.clone(), l.to_vec())))
        .collect();
    let contrasts = kept_vars
        .iter()
        .filter_map(|v| fit.contrast_of(v).map(|c| (v.clone(), c.clone())))
        .collect();
    let y = fit.nums("y")?.to_vec();
    let w = match fit.kind {
        Kind::Lm => match fit.exact("weights") {
            Some(Value::Num(w)) => Some(w.clone()),
            _ => None,
        },
        Kind::Glm(_) => Some(fit.nums("prior.weights")?.to_vec()),
    };
    let mut labels = labels;
    labels.remove(at);
    let d = Design {
        x: columns(x, n, &jj),
        y,
        w,
        names: jj
            .iter()
            .map(|&j| names.get(j).cloned().unwrap_or_default())
            .collect(),
        n,
        p: jj.len(),
        rows: (0..n).collect(),
        assign: jj
            .iter()
            .map(|&j| {
                let a = asgn[j] as usize;
                if a > term {
                    a - 1
                } else {
                    a
                }
            })
            .collect(),
        labels,
        variables: kept_vars,
        predvars: kept_predvars,
        term_variables,
        xlevels,
        contrasts,
        offset,
        offset_labels,
        omitted: Vec::new(),
        formula: None,
    };
    let obs = fit.exact("obs.names").cloned().unwrap_or(Value::Null);
    let mut record = match fit.kind {
        Kind::Lm => fit_design(d, fit.intercept(), obs)?,
        Kind::Glm(family) => {
            let response = match fit.exact("response") {
                Some(Value::Str(s)) => s.first().cloned(),
                _ => None,
            };
            glm_record(
                &d,
                None,
                family,
                fit.intercept(),
                obs,
                response.as_deref(),
                ctx,
            )?
        }
    };
    carry_model(fit, &mut record);
    Ok(record)
}

/// step's `aod`: drop1's table, then add1's rows below it (R's `rbind`),
/// as each row's name, Df and AIC (or Cp).
#[derive(Default)]
struct Aod {
    names: Vec<&'static str>,
    rows: Vec<String>,
    df: Vec<f64>,
    crit: Vec<f64>,
}

impl Aod {
    /// A table's rows, named `"{sign} {term}"`; its `<none>` only first.
    fn read(&mut self, (names, cols, rows): Table, sign: &str) {
        let at = |c: &str| names.iter().position(|n| *n == c);
        let nc = at("Cp").or_else(|| at("AIC"));
        let first = self.rows.is_empty();
        for (i, r) in rows.iter().enumerate() {
            if i == 0 && !first {
                continue;
            }
            self.rows.push(if i == 0 {
                r.clone()
            } else {
                format!("{sign} {r}")
            });
            self.df.push(cols[0][i]);
            self.crit.push(nc.map_or(NA, |c| cols[c][i]));
        }
        self.names = names;
    }
}

/// One row of step's path: `models[[nm]]`.
struct Model {
    deviance: f64,
    df_resid: f64,
    change: String,
    aic: f64,
}

/// R's `step(object, scope, scale = 0, direction, trace = 1, keep = NULL,
/// steps = 1000, k = 2)`, backward from the model: the final fit with
/// R's `anova` path table ("Step", "Df", "Deviance", "Resid. Df",
/// "Resid. Dev", "AIC" or "Cp"). `trace` prints nothing.
pub(super) fn step_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if args.get("keep").is_some_and(|v| !matches!(v, Value::Null)) {
        return Err(KernelError::new(
            "flowcast's step() takes no 'keep' function",
        ));
    }
    let object = model(args, "object")?;
    // Dropping terms keeps a glm's offset (drop_term); the refits that
    // add terms are made from formulas, which hold none.
    if matches!(object.kind, Kind::Lm)
        || args.get("scope").is_some_and(|v| !matches!(v, Value::Null))
    {
        super::fit::no_offset(&object)?;
    }
    let scale = number(args, "scale", 0.0)?;
    let k = number(args, "k", 2.0)?;
    let direction = direction_arg(args)?;
    let backward = direction != "forward";
    let mut forward = direction != "backward";
    // With its scope missing R's step adds nothing: the upper scope is the
    // model, and forward is off unless asked for.
    let sc = match args.get("scope") {
        None | Some(Value::Null) => {
            if args.get("direction").is_none() {
                forward = false;
            }
            None
        }
        Some(v) => Some(scope_of(v).ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's step() takes 'scope' as a formula or list(lower = , upper = ) of formulas, not {}",
                v.type_name()
            ))
        })?),
    };
    let mut steps = args.scalar_or("steps", 1000.0)?;
    if steps.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let n = nobs(&object)?;
    let mut record: List = object.record.clone();
    let (edf, mut b_aic) = extract_aic(&object, scale, k)?;
    if b_aic.is_nan() {
        return Err(KernelError::new(
            "AIC is not defined for this model, so 'step' cannot proceed",
        ));
    }
    if b_aic == f64::NEG_INFINITY {
        return Err(KernelError::new(
            "AIC is -infinity for this model, so 'step' cannot proceed",
        ));
    }
    let mut models = vec![Model {
        deviance: deviance(&object)?,
        df_resid: n - edf,
        change: String::new(),
        aic: b_aic,
    }];
    let mut using_cp = false;
    while steps > 0.0 {
        steps -= 1.0;
        let aic_before = b_aic;
        let holder = Value::List(record.clone());
        let fit =
            Fit::from_value(&holder).ok_or_else(|| KernelError::new("step() lost its model"))?;
        // factor.scope(ffac, list(add = fadd, drop = fdrop))
        let (drop, add) = match &sc {
            None => (drop_scope(&fit), Vec::new()),
            Some(sc) => {
                let drop = factor_scope_drop(&fit, sc.lower.as_ref())?;
                let add = factor_scope_add(&fit, sc.upper.as_ref(), &drop)?;
                (drop, add)
            }
        };
        let mut aod = Aod::default();
        let mut change = None;
        if backward && !drop.is_empty() {
            // drop1(fit, scope$drop, scale = scale, k = k)
            let t = match fit.kind {
                Kind::Lm => drop1_lm(&fit, drop, true, Test::None, scale, k, ctx)?,
                Kind::Glm(family) => drop1_glm(&fit, drop, Test::None, family, scale, k, ctx)?,
            };
            aod.read(t, "-");
            // Zero-df terms first, one at a time: the last of them.
            change = (1..aod.rows.len())
                .rev()
                .find(|&i| aod.df[i] == 0.0)
                .map(|i| aod.rows[i].clone());
        }
        if change.is_none() {
            if forward && !add.is_empty() {
                if let Some(sc) = &sc {
                    let t = add1_table(&fit, sc, add, Test::None, scale, k, ctx)?;
                    aod.read(t, "+");
                }
            }
            let Aod {
                names,
                rows,
                df,
                crit,
            } = &aod;
            if rows.is_empty() {
                break;
            }
            let keep: Vec<usize> = (0..rows.len())
                .filter(|&i| df[i] != 0.0 || df[i].is_nan())
                .collect();
            if !names.iter().any(|&c| c == "Cp" || c == "AIC") {
                break;
            }
            // order(aod[, nc]): stable, NA last.
            let mut o = keep.clone();
            o.sort_by(|&a, &b| {
                let (x, y) = (crit[a], crit[b]);
                match (x.is_nan(), y.is_nan()) {
                    (true, true) => std::cmp::Ordering::Equal,
                    (true, false) => std::cmp::Ordering::Greater,
                    (false, true) => std::cmp::Ordering::Less,
                    _ => x.total_cmp(&y),
                }
            });
            if o.first() == Some(&0) || o.is_empty() {
                break;
            }
            change = Some(rows[o[0]].clone());
        }
        let Some(change) = change else { break };
        using_cp = aod.names.contains(&"Cp");
        let next = match (change.strip_prefix("+ "), &sc) {
            (Some(term), Some(sc)) => add_term(&fit, term, sc, ctx)?,
            _ => drop_term(&fit, change.trim_start_matches("- "), ctx)?,
        };
        let holder = Value::List(next);
        let refit =
            Fit::from_value(&holder).ok_or_else(|| KernelError::new("step() lost its model"))?;
        let nnew = nobs(&refit)?;
        if n.is_finite() && nnew.is_finite() && nnew != n {
            return Err(KernelError::new(
                "number of rows in use has changed: remove missing values?",
            ));
        }
        let (edf, aic) = extract_aic(&refit, scale, k)?;
        let dev = deviance(&refit)?;
        if let Value::List(next) = holder {
            // R's `fit <- update(...)` comes before the AIC check: the
            // fit returned is the last one made.
            record = next;
        }
        b_aic = aic;
        // "a tolerance as dropping 0-df terms might increase AIC slightly"
        if b_aic >= aic_before + 1e-7 {
            break;
        }
        models.push(Model {
            deviance: dev,
            df_resid: n - edf,
            change,
            aic: b_aic,
        });
    }
    // step.results
    let rd: Vec<f64> = models.iter().map(|m| m.deviance).collect();
    let rdf: Vec<f64> = models.iter().map(|m| m.df_resid).collect();
    let mut dd = vec![NA];
    dd.extend(rd.windows(2).map(|w| (w[1] - w[0]).abs()));
    let mut ddf = vec![NA];
    ddf.extend(rdf.windows(2).map(|w| w[1] - w[0]));
    let aod = frame::named_frame(
        [
            "Step",
            "Df",
            "Deviance",
            "Resid. Df",
            "Resid. Dev",
            if using_cp { "Cp" } else { "AIC" },
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        vec![
            Value::Str(models.iter().map(|m| m.change.clone()).collect()),
            Value::Num(ddf),
            Value::Num(dd),
            Value::Num(rdf),
            Value::Num(rd),
            Value::Num(models.iter().map(|m| m.aic).collect()),
        ],
        None,
    );
    let mut names = record.names.clone().unwrap_or_default();
    let mut items = record.items.clone();
    if let Some(i) = names.iter().position(|n| n == "anova") {
        items[i] = aod;
    } else {
        names.push("anova".to_string());
        items.push(aod);
    }
    record.names = Some(names);
    record.items = items;
    Ok(Value::List(record))
}

/// The scope `add1` and `step` get from the evaluator
/// (`exec::eval::update`): every term of the model and the scope,
/// evaluated among the fit's data, and the scope's own terms.
struct ScopeArg<'a> {
    formula: &'a Formula,
    upper: Option<ScopeTerms>,
    lower: Option<ScopeTerms>,
    /// add1's scope given as term labels.
    labels: Option<Vec<String>>,
}

/// A scope formula's term labels and each term's variables.
struct ScopeTerms {
    labels: Vec<String>,
    vars: Vec<Vec<String>>,
}

fn scope_of(v: &Value) -> Option<ScopeArg<'_>> {
    let Value::List(l) = v else { return None };
    if l.class.as_deref() != Some(SCOPE_CLASS) {
        return None;
    }
    let Some(Value::Formula(formula)) = l.field("formula") else {
        return None;
    };
    let terms = |name: &str, vars: &str| -> Option<ScopeTerms> {
        let Some(Value::Str(labels)) = l.field(name) else {
            return None;
        };
        let Some(Value::List(v)) = l.field(vars) else {
            return None;
        };
        let vars = v
            .items
            .iter()
            .map(|x| match x {
                Value::Str(s) => s.clone(),
                _ => Vec::new(),
            })
            .collect();
        Some(ScopeTerms {
            labels: labels.clone(),
            vars,
        })
    };
    Some(ScopeArg {
        formula,
        upper: terms("upper", "upper.vars"),
        lower: terms("lower", "lower.vars"),
        labels: match l.field("labels") {
            Some(Value::Str(s)) => Some(s.clone()),
            _ => None,
        },
    })
}

/// R's workaround for PR#7842 (`terms.formula` may have `a:b` not
/// `b:a`): a label with its variables sorted.
fn sorted_key(label: &str) -> String {
    let mut parts: Vec<&str> = label.split(':').collect();
    parts.sort_unstable();
    parts.join(":")
}

/// `sQuote`d labels joined by ", ", as factor.scope's errors list them.
fn quoted(labels: &[String]) -> String {
    labels
        .iter()
        .map(|l| format!("\u{2018}{l}\u{2019}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The shared-variable counts of terms (`crossprod(facs > 0)`).
fn shared(a: &[String], b: &[String]) -> usize {
    a.iter().filter(|v| b.contains(v)).count()
}

/// R's `factor.scope(factor, list(drop = lower))$drop`: the model's terms
/// less the lower scope's, those no other remaining term contains.
fn factor_scope_drop(fit: &Fit, lower: Option<&ScopeTerms>) -> Result<Vec<String>, KernelError> {
    let labels = fit.term_labels();
    if labels.is_empty() {
        return Ok(Vec::new());
    }
    let (variables, terms) = fit.term_variables();
    let vars: Vec<Vec<String>> = terms
        .iter()
        .map(|t| t.iter().map(|&v| variables[v].clone()).collect())
        .collect();
    let mut keep: Vec<usize> = (0..labels.len()).collect();
    if let Some(lower) = lower.filter(|l| !l.labels.is_empty()) {
        let keys: Vec<String> = labels.iter().map(|l| sorted_key(l)).collect();
        let missing: Vec<String> = lower
            .labels
            .iter()
            .filter(|l| !keys.contains(&sorted_key(l)))
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Err(KernelError::new(format!(
                "lower scope has term{} {} not included in model",
                if missing.len() == 1 { "" } else { "s" },
                quoted(&missing)
            )));
        }
        let lower_keys: Vec<String> = lower.labels.iter().map(|l| sorted_key(l)).collect();
        keep.retain(|&i| !lower_keys.contains(&keys[i]));
    }
    if keep.len() > 1 && vars.len() == labels.len() {
        let kept: Vec<usize> = keep
            .iter()
            .copied()
            .filter(|&i| {
                let own = shared(&vars[i], &vars[i]);
                let most = keep
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| shared(&vars[i], &vars[j]))
                    .max()
                    .unwrap_or(0);
                most != own
            })
            .collect();
        keep = kept;
    }
    Ok(keep.into_iter().map(|i| labels[i].clone()).collect())
}

/// R's `factor.scope(factor, list(add = upper))$add`: the upper scope's
/// terms not in the model, those that contain no other of them.
/// `nmdrop` is the drop half's answer, which R's error names by mistake
/// (`nmdrop[where == 0]`, NA past its end): kept, as R's message.
fn factor_scope_add(
    fit: &Fit,
    upper: Option<&ScopeTerms>,
    nmdrop: &[String],
) -> Result<Vec<String>, KernelError> {
    let Some(upper) = upper.filter(|u| !u.labels.is_empty()) else {
        return Ok(Vec::new());
    };
    let labels = fit.term_labels();
    let upper_keys: Vec<String> = upper.labels.iter().map(|l| sorted_key(l)).collect();
    let missing: Vec<String> = labels
        .iter()
        .enumerate()
        .filter(|(_, l)| !upper_keys.contains(&sorted_key(l)))
        .map(|(i, _)| nmdrop.get(i).cloned().unwrap_or_else(|| "NA".to_string()))
        .collect();
    if !missing.is_empty() {
        return Err(KernelError::new(format!(
            "upper scope has term{} {} not included in model",
            if missing.len() == 1 { "" } else { "s" },
            quoted(&missing)
        )));
    }
    let keys: Vec<String> = labels.iter().map(|l| sorted_key(l)).collect();
    let add: Vec<usize> = (0..upper.labels.len())
        .filter(|&i| !keys.contains(&upper_keys[i]))
        .collect();
    let vars = |i: usize| upper.vars.get(i).map_or(&[][..], |v| v.as_slice());
    let mut keep = vec![true; add.len()];
    if add.len() > 1 {
        for (a, &i) in add.iter().enumerate() {
            let own = shared(vars(i), vars(i));
            for (b, &j) in add.iter().enumerate() {
                if a != b && shared(vars(i), vars(j)) >= own {
                    keep[b] = false;
                }
            }
        }
    }
    Ok(add
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(&i, _)| upper.labels[i].clone())
        .collect())
}

/// `update.formula(object, ~ . + labels)`'s formula: the terms `labels`
/// name, their values from the scope's formula, in R's order (by how many
/// variables each joins, stably).
fn formula_with(fit: &Fit, all: &Formula, labels: &[String]) -> Result<Formula, KernelError> {
    let mut picked: Vec<(String, Value)> = Vec::with_capacity(labels.len());
    let mut keys: Vec<String> = Vec::new();
    for l in labels {
        let key = sorted_key(l);
        if keys.contains(&key) {
            continue;
        }
        let Some((_, v)) = all.terms.iter().find(|(t, _)| sorted_key(t) == key) else {
            return Err(KernelError::new(format!(
                "the scope's formula has no term `{l}`"
            )));
        };
        keys.push(key);
        picked.push((l.clone(), v.clone()));
    }
    picked.sort_by_key(|(l, _)| l.split(':').count());
    Ok(Formula {
        response: all.response.clone(),
        response_label: all.response_label.clone(),
        terms: picked,
        intercept: fit.intercept(),
        predvars: all.predvars.clone(),
        text: None,
        source: None,
    })
}

const ROWS_CHANGED: &str = "flowcast refits on every row of the fit's data: the fit left some \
                            out (subset or missing values), or the new terms miss some";

/// `update(fit, formula)` on the fit's data: lm or glm of the formula
/// with the fit's weights and family, keeping what a later refit needs.
fn refit_formula(fit: &Fit, f: &Formula, ctx: &mut Ctx) -> Result<List, KernelError> {
    let n_old = fit.nums("residuals")?.len();
    let n_all = f
        .response
        .as_deref()
        .map_or(0, |r| r.dims().map_or_else(|| r.len(), |d| d.0));
    if n_all != n_old {
        return Err(KernelError::new(ROWS_CHANGED));
    }
    let data = fit.exact("data");
    let weights = fit.exact("(weights)");
    let contrasts = fit.contrasts();
    let mut record = match fit.kind {
        Kind::Lm => fit_formula(f, None, weights, data, contrasts, None)?.0,
        Kind::Glm(family) => glm_formula(
            f,
            family,
            None,
            weights,
            data,
            contrasts,
            None,
            super::super::na_action::NaAction::Omit,
            ctx,
        )?,
    };
    let n_new = match record.field("residuals") {
        Some(Value::Num(r)) => r.len(),
        _ => 0,
    };
    if n_new != n_old {
        return Err(KernelError::new(ROWS_CHANGED));
    }
    keep_model(&mut record, f.response_label.as_deref(), data, weights);
    Ok(record)
}

/// The fit's own terms' values, as the model matrix path cannot give
/// them: carried to the record `drop_term` makes.
fn carry_model(fit: &Fit, record: &mut List) {
    let response = match fit.exact("response") {
        Some(Value::Str(s)) => s.first().map(String::as_str),
        _ => None,
    };
    keep_model(record, response, fit.exact("data"), fit.exact("(weights)"));
}

pub(super) fn update_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(Type::Formula { .. }) = args.ty("object") {
        return Ok(Type::Any);
    }
    nls_refused(args, "object")?;
    Ok(Type::Any)
}

/// R's `update(object, formula., ...)`: `update.formula` of a formula,
/// `update.default` of an lm or glm fit (the call evaluated again with
/// the new formula, on the fit's data).
pub(super) fn update_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let object = args
        .get("object")
        .ok_or_else(|| KernelError::new("argument \"object\" is missing, with no default"))?;
    let new = args.get("formula.");
    if let Value::Formula(_) = object {
        return match new {
            Some(f @ Value::Formula(_)) => Ok(f.clone()),
            None => Err(KernelError::new(
                "argument \"new\" is missing, with no default",
            )),
            Some(v) => Err(KernelError::new(format!(
                "flowcast's update() takes the new formula written as one (. ~ . + x), not {}",
                v.type_name()
            ))),
        };
    }
    let fit = model(args, "object")?;
    if fit.record.class.as_deref() == Some(super::aov::CLASS) {
        return Err(KernelError::new(
            "flowcast's update() refits lm and glm fits, not aov",
        ));
    }
    if let Some(e) = args.get("evaluate") {
        if e.as_flag() != Some(true) {
            return Err(KernelError::new(
                "flowcast's update() evaluates the new call: evaluate = FALSE (an unevaluated call) is refused",
            ));
        }
    }
    if args.dots().next().is_some() {
        return Err(KernelError::new(
            "flowcast's update() takes only a new formula: other arguments (data, weights, subset, family) are refused",
        ));
    }
    match new {
        None => Ok(Value::List(fit.record.clone())),
        Some(Value::Formula(f)) => Ok(Value::List(refit_formula(&fit, f, ctx)?)),
        Some(v) => Err(KernelError::new(format!(
            "flowcast's update() takes the new formula written as one (. ~ . + x), not {}",
            v.type_name()
        ))),
    }
}

pub(super) fn add1_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    nls_refused(args, "object")?;
    Ok(Type::Any)
}

/// R's `add1(object, scope, scale = 0, test, k = 2)`: `add1.lm` or
/// `add1.glm`.
pub(super) fn add1_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let fit = model(args, "object")?;
    let scale = number(args, "scale", 0.0)?;
    let k = number(args, "k", 2.0)?;
    let glm = matches!(fit.kind, Kind::Glm(_));
    let test = test_arg(args, glm)?;
    // add1.glm refits with the fit's offset. add1.lm's offset and the Rao
    // score's refit (whose glm.fit null deviance ignores the offset,
    // where flowcast's refit gives glm()'s) are not held.
    if !glm || test == Test::Rao {
        super::fit::no_offset(&fit)?;
    }
    if !glm {
        check_exact(&fit, ctx)?;
    }
    let sc = match args.get("scope") {
        None | Some(Value::Null) => {
            return Err(KernelError::new(if glm {
                "argument \"scope\" is missing, with no default"
            } else {
                "no terms in scope"
            }))
        }
        Some(v) => scope_of(v).ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's add1() takes 'scope' as a formula or term labels, not {}",
                v.type_name()
            ))
        })?,
    };
    let scope = match &sc.labels {
        Some(l) => l.clone(),
        None => factor_scope_add(&fit, sc.upper.as_ref(), &[])?,
    };
    if scope.is_empty() {
        return Err(KernelError::new("no terms in scope for adding to object"));
    }
    let (names, cols, rows) = add1_table(&fit, &sc, scope, test, scale, k, ctx)?;
    Ok(table(names, cols, rows))
}

/// The model matrix of the model's terms and `scope`'s, its columns of
/// the model (`ousex`) and of each scope term (`usex`).
struct AddDesign {
    x: Vec<f64>,
    n: usize,
    y: Vec<f64>,
    ousex: Vec<bool>,
    usex: Vec<Vec<bool>>,
}

fn add_design(fit: &Fit, sc: &ScopeArg, scope: &[String]) -> Result<AddDesign, KernelError> {
    let o_terms = fit.term_labels();
    let mut labels = o_terms.clone();
    labels.extend(scope.iter().cloned());
    let mut f = formula_with(fit, sc.formula, &labels)?;
    // A glm's two-column response (cbind(successes, failures)): the fit
    // keeps y and the weights it makes, so only the rows matter here.
    if let Some(Value::Mat(m)) = f.response.as_deref() {
        if m.ncols() == 2 {
            let y = m
                .column(0)
                .iter()
                .zip(m.column(1).iter())
                .map(|(&s, &fl)| if fl.is_nan() { NA } else { s })
                .collect();
            f.response = Some(Box::new(Value::Num(y)));
        }
    }
    let d = design(&f, None, fit.exact("(weights)"), fit.contrasts(), None)?;
    let n_old = fit.nums("residuals")?.len();
    if d.n != n_old {
        return Err(KernelError::new(ROWS_CHANGED));
    }
    let keys: Vec<String> = d.labels.iter().map(|l| sorted_key(l)).collect();
    // match(asgn, match(terms, Terms), 0L) > 0L
    let columns_of = |wanted: &[String]| -> Vec<bool> {
        let at: Vec<usize> = wanted
            .iter()
            .filter_map(|t| keys.iter().position(|k| *k == sorted_key(t)).map(|i| i + 1))
            .collect();
        d.assign.iter().map(|a| at.contains(a)).collect()
    };
    let mut ousex = columns_of(&o_terms);
    if fit.intercept() {
        if let Some(first) = ousex.first_mut() {
            *first = true;
        }
    }
    let usex = scope
        .iter()
        .map(|t| columns_of(std::slice::from_ref(t)))
        .collect();
    Ok(AddDesign {
        x: d.x,
        n: d.n,
        y: d.y,
        ousex,
        usex,
    })
}

/// `x[, use, drop = FALSE]`.
fn used(ad: &AddDesign, usex: Option<&[bool]>) -> Vec<f64> {
    let jj: Vec<usize> = (0..ad.ousex.len())
        .filter(|&j| ad.ousex[j] || usex.is_some_and(|u| u[j]))
        .collect();
    columns(&ad.x, ad.n, &jj)
}

/// add1.lm's or add1.glm's table.
fn add1_table(
    fit: &Fit,
    sc: &ScopeArg,
    scope: Vec<String>,
    test: Test,
    scale: f64,
    k: f64,
    ctx: &mut Ctx,
) -> Result<Table, KernelError> {
    let ad = add_design(fit, sc, &scope)?;
    let n = ad.n;
    let nf = n as f64;
    let mut rows = vec!["<none>".to_string()];
    rows.extend(scope.iter().cloned());
    match fit.kind {
        Kind::Lm => {
            let wt = match fit.exact("weights") {
                Some(Value::Num(w)) if w.len() == n => Some(w.as_slice()),
                _ => None,
            };
            let mut dfs = Vec::with_capacity(scope.len() + 1);
            let mut rss = Vec::with_capacity(scope.len() + 1);
            let (rank, dev) = lm_refit(used(&ad, None), n, &ad.y, wt)?;
            dfs.push(rank);
            rss.push(dev);
            for u in &ad.usex {
                let (rank, dev) = lm_refit(used(&ad, Some(u)), n, &ad.y, wt)?;
                dfs.push(rank);
                rss.push(dev);
            }
            let aic: Vec<f64> = rss
                .iter()
                .zip(&dfs)
                .map(|(&r, &d)| {
                    if scale > 0.0 {
                        r / scale - nf + k * d
                    } else {
                        nf * (r / nf).ln() + k * d
                    }
                })
                .collect();
            let mut df: Vec<f64> = dfs.iter().map(|d| d - dfs[0]).collect();
            df[0] = NA;
            let mut ss: Vec<f64> = rss.iter().map(|r| rss[0] - r).collect();
            ss[0] = NA;
            let mut names = vec![
                "Df",
                "Sum of Sq",
                "RSS",
                if scale > 0.0 { "Cp" } else { "AIC" },
            ];
            let mut cols = vec![df.clone(), ss.clone(), rss.clone(), aic];
            match test {
                Test::None | Test::Rao => {}
                Test::Lrt => {
                    let mut dev: Vec<f64> = if scale == 0.0 {
                        let d: Vec<f64> = rss.iter().map(|r| nf * (r / nf).ln()).collect();
                        let mut d: Vec<f64> = d.iter().map(|v| d[0] - v).collect();
                        d[0] = NA;
                        d
                    } else {
                        ss.iter().map(|s| s / scale).collect()
                    };
                    let p = upper_chisq(&dev[1..], &df[1..]);
                    dev[1..].copy_from_slice(&p);
                    names.push("Pr(>Chi)");
                    cols.push(dev);
                }
                Test::F => {
                    // add1.lm's Fstat
                    let rdf = fit.scalar("df.residual")?;
                    let mut fs = vec![NA; df.len()];
                    let mut p = vec![NA; df.len()];
                    for i in 1..df.len() {
                        let rms = (rss[0] - ss[i]) / (rdf - df[i]);
                        let f = (ss[i] / df[i]) / rms;
                        if df[i] < f64::EPSILON {
                            continue;
                        }
                        fs[i] = f;
                        let d2 = rdf - df[i];
                        // safe_pf on the Fs not NA; a NaN stays.
                        p[i] = if f.is_nan() {
                            f
                        } else if df[i] <= 0.0 {
                            NA
                        } else {
                            pf(f, df[i], d2, false, false)
                        };
                    }
                    names.extend(["F value", "Pr(>F)"]);
                    cols.extend([fs, p]);
                }
            }
            Ok((names, cols, rows))
        }
        Kind::Glm(family) => {
            let y = fit.nums("y")?;
            let wt = fit.nums("prior.weights")?;
            if y.len() != n || wt.len() != n {
                return Err(KernelError::new(ROWS_CHANGED));
            }
            let offset = match fit.exact("offset") {
                Some(Value::Num(o)) if o.len() == n => Some(o.as_slice()),
                _ => None,
            };
            let z = refit(used(&ad, None), n, y, wt, offset, family, true, ctx)?;
            let mut dfs = vec![z.rank];
            let mut dev = vec![z.deviance];
            let mut score = vec![0.0];
            let gaussian = Family::new(Dist::Gaussian, Link::Identity);
            for u in &ad.usex {
                let x = used(&ad, Some(u));
                let zt = refit(x.clone(), n, y, wt, offset, family, true, ctx)?;
                dfs.push(zt.rank);
                dev.push(zt.deviance);
                if test == Test::Rao {
                    let zz = refit(x, n, &z.residuals, &z.weights, None, gaussian, true, ctx)?;
                    score.push(zz.null_deviance - zz.deviance);
                } else {
                    score.push(0.0);
                }
            }
            let (dispersion, loglik, aic) = glm_aic(fit, family, (&dev, &dfs), n, (scale, k), ctx)?;
            let mut df: Vec<f64> = dfs.iter().map(|d| d - dfs[0]).collect();
            df[0] = NA;
            let (mut names, mut cols) = glm_head(&df, &dev, aic);
            let is_one = || dispersion_is_one(dispersion);
            match test {
                Test::None => {}
                Test::Lrt => {
                    let mut d: Vec<f64> = loglik.iter().map(|l| pmax0(loglik[0] - l)).collect();
                    d[0] = NA;
                    names.push(if is_one()? { "LRT" } else { "scaled dev." });
                    let mut p = d.clone();
                    let q = upper_chisq(&d[1..], &df[1..]);
                    p[1..].copy_from_slice(&q);
                    cols.extend([d, p]);
                    names.push("Pr(>Chi)");
                }
                Test::Rao => {
                    let sc_name = if is_one()? {
                        "Rao score"
                    } else {
                        "scaled Rao sc."
                    };
                    let mut d: Vec<f64> = score.iter().map(|&s| pmax0(s) / dispersion).collect();
                    d[0] = NA;
                    let mut p = d.clone();
                    let q = upper_chisq(&d[1..], &df[1..]);
                    p[1..].copy_from_slice(&q);
                    names.extend([sc_name, "Pr(>Chi)"]);
                    cols.extend([d, p]);
                }
                Test::F => {
                    if matches!(family.dist, Dist::Binomial | Dist::Poisson) {
                        ctx.warn(format!("F test assumes quasi{} family", family.dist.name()));
                    }
                    // add1.glm's Fstat
                    let rdf = fit.scalar("df.residual")?;
                    let mut fs = vec![NA; df.len()];
                    let mut p = vec![NA; df.len()];
                    for i in 1..df.len() {
                        let diff = pmax0((dev[0] - dev[i]) / df[i]);
                        let f = diff / (dev[i] / (rdf - df[i]));
                        if df[i] < f64::EPSILON {
                            continue;
                        }
                        fs[i] = f;
                        // safe_pf on the Fs not NA; a NaN stays.
                        p[i] = if f.is_nan() {
                            f
                        } else if df[i] <= 0.0 {
                            NA
                        } else {
                            pf(f, df[i], rdf - df[i], false, false)
                        };
                    }
                    names.extend(["F value", "Pr(>F)"]);
                    cols.extend([fs, p]);
                }
            }
            Ok((names, cols, rows))
        }
    }
}

/// step's `update(fit, ~ . + term)`: the model's terms and `label`,
/// refitted on the fit's data.
fn add_term(fit: &Fit, label: &str, sc: &ScopeArg, ctx: &mut Ctx) -> Result<List, KernelError> {
    let mut labels = fit.term_labels();
    labels.push(label.to_string());
    let f = formula_with(fit, sc.formula, &labels)?;
    refit_formula(fit, &f, ctx)
}
