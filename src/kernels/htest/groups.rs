//! Tests across groups: `kruskal.test` and `bartlett.test`, given a list
//! of samples or a data vector and its groups (numbers or labels), as R
//! 4.2's `kruskal.test.default` and `bartlett.test.default`.

use super::{rank, record, tie_counts};
use crate::kernels::factor::as_factor;
use crate::kernels::nmath::{pchisq, rsum};
use crate::kernels::summary::var;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

/// The samples, one per group in level order; `finite` keeps only finite
/// values of a list's samples (bartlett) rather than complete ones.
fn samples(args: &Args<&Value>, finite: bool) -> Result<Vec<Vec<f64>>, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    if let Value::List(l) = x {
        if l.items.len() < 2 {
            return Err(KernelError::new(
                "'x' must be a list with at least 2 elements",
            ));
        }
        return l
            .items
            .iter()
            .map(|v| {
                let s = v
                    .as_f64_slice()
                    .ok_or_else(|| KernelError::new("all elements of 'x' must be numeric"))?;
                Ok(s.iter()
                    .copied()
                    .filter(|v| if finite { v.is_finite() } else { !v.is_nan() })
                    .collect())
            })
            .collect();
    }
    let xs = x
        .as_f64_slice()
        .ok_or_else(|| KernelError::new("'x' must be numeric"))?
        .into_owned();
    let g = args
        .get("g")
        .ok_or_else(|| KernelError::new("argument \"g\" is missing, with no default"))?;
    if g.len() != xs.len() {
        return Err(KernelError::new("'x' and 'g' must have the same length"));
    }
    // factor(g[OK]): a factor keeps its level order, other groups are
    // sorted as `factor` sorts them; levels with no complete case go.
    let f = as_factor(g).map_err(|_| KernelError::new("'g' must be a vector of groups"))?;
    let mut out = vec![Vec::new(); f.levels.len()];
    for (x, code) in xs.iter().zip(&f.codes) {
        if let (false, Some(c)) = (x.is_nan(), code) {
            out[*c as usize].push(*x);
        }
    }
    out.retain(|s| !s.is_empty());
    if out.len() < 2 {
        return Err(KernelError::new("all observations are in the same group"));
    }
    Ok(out)
}

pub(super) fn kruskal_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let groups = samples(args, false)?;
    if groups.iter().any(Vec::is_empty) {
        return Err(KernelError::new("all groups must contain data"));
    }
    let x: Vec<f64> = groups.iter().flatten().copied().collect();
    let n = x.len() as f64;
    if x.len() < 2 {
        return Err(KernelError::new("not enough observations"));
    }
    let r = rank(&x);
    let mut at = 0;
    let mut terms = Vec::with_capacity(groups.len());
    for g in &groups {
        let s = rsum(&r[at..at + g.len()]);
        terms.push(s * s / g.len() as f64);
        at += g.len();
    }
    let stat = rsum(&terms);
    let ties: Vec<f64> = tie_counts(&x).iter().map(|t| t * t * t - t).collect();
    let stat =
        (12.0 * stat / (n * (n + 1.0)) - 3.0 * (n + 1.0)) / (1.0 - rsum(&ties) / (n * n * n - n));
    let df = (groups.len() - 1) as f64;
    Ok(record(vec![
        ("statistic", super::nm(stat, "Kruskal-Wallis chi-squared")),
        ("parameter", super::nm(df, "df")),
        ("p.value", Value::scalar(pchisq(stat, df, false, false))),
        ("method", Value::string("Kruskal-Wallis rank sum test")),
    ]))
}

pub(super) fn bartlett_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let groups = samples(args, true)?;
    let k = groups.len() as f64;
    let n: Vec<f64> = groups.iter().map(|g| g.len() as f64 - 1.0).collect();
    if n.iter().any(|v| *v <= 0.0) {
        return Err(KernelError::new(
            "there must be at least 2 observations in each group",
        ));
    }
    let v: Vec<f64> = groups.iter().map(|g| var(g)).collect();
    let n_total = rsum(&n);
    let nv: Vec<f64> = n.iter().zip(&v).map(|(a, b)| a * b).collect();
    let v_total = rsum(&nv) / n_total;
    let nlv: Vec<f64> = n.iter().zip(&v).map(|(a, b)| a * b.ln()).collect();
    let inv: Vec<f64> = n.iter().map(|a| 1.0 / a).collect();
    let stat = (n_total * v_total.ln() - rsum(&nlv))
        / (1.0 + (rsum(&inv) - 1.0 / n_total) / (3.0 * (k - 1.0)));
    let df = k - 1.0;
    Ok(record(vec![
        ("statistic", super::nm(stat, "Bartlett's K-squared")),
        ("parameter", super::nm(df, "df")),
        ("p.value", Value::scalar(pchisq(stat, df, false, false))),
        (
            "method",
            Value::string("Bartlett test of homogeneity of variances"),
        ),
    ]))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        None | Some(Type::Any | Type::List { .. }) => {}
        Some(t) if t.is_numeric() => {
            if !args.has("g") {
                return Err(args.error("x", "argument \"g\" is missing, with no default"));
            }
            if let (Some(a), Some(b)) = (t.len(), args.ty("g").and_then(Type::len)) {
                if a != b {
                    return Err(args.error("g", "'x' and 'g' must have the same length"));
                }
            }
        }
        Some(t) => {
            return Err(args.error(
                "x",
                format!("'x' must be numeric or a list, not {}", t.describe()),
            ))
        }
    }
    Ok(super::htest_type_no_alt())
}
