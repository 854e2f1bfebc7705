//! `lm(formula)`: least squares through R's own `dqrls` (LINPACK QR with
//! limited pivoting, tol 1e-7), so aliased columns get NA coefficients as in
//! R, plus the numbers `summary.lm` prints.

use super::linalg::linpack::{dqrls, Dqrls};
use super::nmath::{pf, pt};
use super::value::{Formula, List, NA};
use super::{req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "lm",
    params: &[req("formula")],
    random: false,
    shape: lm_shape,
    eval: lm_eval,
}];

/// Columns one term contributes to the design matrix, when known.
fn term_columns(t: &Type) -> Result<Option<usize>, String> {
    match t {
        Type::Num { .. } | Type::Bool { .. } => Ok(Some(1)),
        Type::Mat { cols, .. } => Ok(*cols),
        Type::Any => Ok(None),
        other => Err(format!(
            "invalid type ({}) for a variable in lm()",
            other.describe()
        )),
    }
}

fn lm_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (n, p) = match args.ty("formula") {
        Some(Type::Formula {
            response,
            terms,
            intercept,
        }) => {
            let n = match response.as_deref() {
                Some(Type::Num { len, .. } | Type::Bool { len, .. }) => *len,
                Some(Type::Mat {
                    rows,
                    cols: Some(1),
                }) => *rows,
                Some(Type::Any) => None,
                Some(t) => {
                    return Err(args.error(
                        "formula",
                        format!("lm() needs a numeric vector response, not {}", t.describe()),
                    ))
                }
                None => return Err(args.error("formula", "lm() needs a response: y ~ x")),
            };
            let mut p = Some(usize::from(*intercept));
            for (label, t) in terms {
                let cols =
                    term_columns(t).map_err(|m| args.error("formula", format!("{m} '{label}'")))?;
                p = p.zip(cols).map(|(a, b)| a + b);
                let len = match t {
                    Type::Mat { rows, .. } => *rows,
                    t => t.len(),
                };
                if let (Some(n), Some(len)) = (n, len) {
                    if len != n && !matches!(t, Type::Any) {
                        return Err(args.error(
                            "formula",
                            format!("variable lengths differ (found for '{label}')"),
                        ));
                    }
                }
            }
            (n, p)
        }
        None | Some(Type::Any) => (None, None),
        Some(t) => {
            return Err(args.error(
                "formula",
                format!("lm() needs a formula, not {}", t.describe()),
            ))
        }
    };
    let num = |len| Type::Num { len, value: None };
    // Residuals have one entry per complete case: at most n.
    let _ = n;
    Ok(Type::record(
        "lm",
        vec![
            ("coefficients", num(p)),
            (
                "coefficient.names",
                Type::Str {
                    len: p,
                    value: None,
                },
            ),
            ("residuals", Type::num_unknown()),
            ("effects", Type::num_unknown()),
            ("fitted.values", Type::num_unknown()),
            ("rank", Type::num(1)),
            ("df.residual", Type::num(1)),
            ("std.error", num(p)),
            ("t.value", num(p)),
            ("p.value", num(p)),
            ("sigma", Type::num(1)),
            ("r.squared", Type::num(1)),
            ("adj.r.squared", Type::num(1)),
            ("fstatistic", Type::num(3)),
            ("f.p.value", Type::num(1)),
        ],
    ))
}

/// The design matrix (column-major, intercept first) and response, with
/// rows holding any NA dropped (R's default `na.omit`).
struct Design {
    x: Vec<f64>,
    y: Vec<f64>,
    n: usize,
    p: usize,
}

fn design(f: &Formula) -> Result<Design, KernelError> {
    let y: Vec<f64> = match f.response.as_deref() {
        None => return Err(KernelError::new("lm() needs a response: y ~ x")),
        Some(Value::Mat(m)) if m.ncols() != 1 => {
            return Err(KernelError::new(
                "lm() with a matrix response is not supported",
            ))
        }
        Some(v) => v
            .as_f64_slice()
            .ok_or_else(|| {
                KernelError::new(format!("invalid type ({}) for the response", v.type_name()))
            })?
            .to_vec(),
    };
    let n = y.len();
    let mut cols: Vec<Vec<f64>> = Vec::new();
    if f.intercept {
        cols.push(vec![1.0; n]);
    }
    for (label, v) in &f.terms {
        let (data, k) = match v {
            Value::Mat(m) => (m.as_slice().to_vec(), m.ncols()),
            other => (
                other
                    .as_f64_slice()
                    .ok_or_else(|| {
                        KernelError::new(format!(
                            "invalid type ({}) for variable '{label}'",
                            other.type_name()
                        ))
                    })?
                    .to_vec(),
                1,
            ),
        };
        if k == 0 || data.len() != n * k {
            return Err(KernelError::new(format!(
                "variable lengths differ (found for '{label}')"
            )));
        }
        if n == 0 {
            // No rows, no columns to cut: R fails below with "0 (non-NA) cases".
            continue;
        }
        cols.extend(data.chunks(n).map(<[f64]>::to_vec));
    }
    let keep: Vec<usize> = (0..n)
        .filter(|&i| !y[i].is_nan() && cols.iter().all(|c| !c[i].is_nan()))
        .collect();
    if keep.is_empty() {
        return Err(KernelError::new("0 (non-NA) cases"));
    }
    let p = cols.len();
    let x = cols
        .iter()
        .flat_map(|c| keep.iter().map(move |&i| c[i]))
        .collect();
    let y = keep.iter().map(|&i| y[i]).collect();
    Ok(Design {
        x,
        y,
        n: keep.len(),
        p,
    })
}

/// R's names of the coefficients (`names(coef(fit))`): "(Intercept)", then
/// each term's label; a matrix term of k > 1 columns without column names
/// gives `label1` … `labelk`.
fn coefficient_names(f: &Formula) -> Vec<String> {
    let mut names = Vec::new();
    if f.intercept {
        names.push("(Intercept)".to_string());
    }
    for (label, v) in &f.terms {
        match v {
            Value::Mat(m) if m.ncols() > 1 => {
                names.extend((1..=m.ncols()).map(|j| format!("{label}{j}")));
            }
            _ => names.push(label.clone()),
        }
    }
    names
}

/// A mean accumulated with compensation, standing in for R's long double
/// `mean`.
fn mean(v: &[f64]) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for &x in v {
        let t = s + x;
        c += if s.abs() >= x.abs() {
            (s - t) + x
        } else {
            (x - t) + s
        };
        s = t;
    }
    (s + c) / v.len() as f64
}

fn lm_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Formula(f)) = args.get("formula") else {
        return Err(KernelError::new(
            "lm() needs a formula as its first argument (y ~ x)",
        ));
    };
    let d = design(f)?;
    if d.x.iter().chain(&d.y).any(|v| v.is_infinite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'x'"));
    }
    let fit = dqrls(d.x, d.n, d.p, &d.y, 1e-7);
    let mut fields = summarise(&fit, &d.y, f.intercept);
    // --out writes a named vector as an array (as jsonlite does), so the
    // names travel beside it; they label std.error, t.value and p.value too.
    fields.insert(1, ("coefficient.names", Value::Str(coefficient_names(f))));
    Ok(Value::List(List::record("lm", fields)))
}

fn summarise(fit: &Dqrls, y: &[f64], intercept: bool) -> Vec<(&'static str, Value)> {
    let (n, p) = (fit.qr.n, fit.qr.p);
    let rank = fit.qr.rank;
    let pivot = &fit.qr.pivot;
    // Coefficients back in formula order; those beyond the rank are aliased.
    let mut coef = vec![NA; p];
    for i in 0..rank {
        coef[pivot[i] - 1] = fit.coef[i];
    }
    let residuals = fit.residuals.clone();
    let fitted: Vec<f64> = y.iter().zip(&residuals).map(|(y, r)| y - r).collect();
    let rdf = (n - rank) as f64;
    let rss: f64 = residuals.iter().map(|r| r * r).sum();
    let mut se = vec![NA; p];
    let mut tval = vec![NA; p];
    let mut pval = vec![NA; p];
    let na3 = || Value::Num(vec![NA; 3]);
    let mut fields = vec![
        ("coefficients", Value::Num(coef.clone())),
        ("residuals", Value::Num(residuals.clone())),
        ("effects", Value::Num(fit.effects.clone())),
        ("fitted.values", Value::Num(fitted.clone())),
        ("rank", Value::scalar(rank as f64)),
        ("df.residual", Value::scalar(rdf)),
    ];
    if rank == 0 {
        fields.extend([
            ("std.error", Value::Num(se)),
            ("t.value", Value::Num(tval)),
            ("p.value", Value::Num(pval)),
            ("sigma", Value::scalar((rss / rdf).sqrt())),
            ("r.squared", Value::scalar(0.0)),
            ("adj.r.squared", Value::scalar(0.0)),
            ("fstatistic", na3()),
            ("f.p.value", Value::scalar(NA)),
        ]);
        return fields;
    }
    let mss = if intercept {
        let m = mean(&fitted);
        fitted.iter().map(|f| (f - m) * (f - m)).sum()
    } else {
        fitted.iter().map(|f| f * f).sum::<f64>()
    };
    let resvar = rss / rdf;
    // chol2inv(R): diag((R'R)^-1) is the row sums of squares of R^-1.
    let r = |i: usize, j: usize| fit.qr.qr[j * n + i];
    let mut rinv = vec![0.0; rank * rank];
    for j in 0..rank {
        rinv[j * rank + j] = 1.0 / r(j, j);
        for i in (0..j).rev() {
            let mut s = 0.0;
            for k in i + 1..=j {
                s += r(i, k) * rinv[j * rank + k];
            }
            rinv[j * rank + i] = -s / r(i, i);
        }
    }
    for i in 0..rank {
        let d: f64 = (i..rank).map(|j| rinv[j * rank + i].powi(2)).sum();
        let s = (d * resvar).sqrt();
        let t = fit.coef[i] / s;
        let o = pivot[i] - 1;
        se[o] = s;
        tval[o] = t;
        pval[o] = 2.0 * pt(t.abs(), rdf, false, false);
    }
    fields.extend([
        ("std.error", Value::Num(se)),
        ("t.value", Value::Num(tval)),
        ("p.value", Value::Num(pval)),
        ("sigma", Value::scalar(resvar.sqrt())),
    ]);
    let df_int = usize::from(intercept);
    if rank != df_int {
        let r2 = mss / (mss + rss);
        let adj = 1.0 - (1.0 - r2) * ((n - df_int) as f64 / rdf);
        let numdf = (rank - df_int) as f64;
        let fstat = (mss / numdf) / resvar;
        fields.extend([
            ("r.squared", Value::scalar(r2)),
            ("adj.r.squared", Value::scalar(adj)),
            ("fstatistic", Value::Num(vec![fstat, numdf, rdf])),
            (
                "f.p.value",
                Value::scalar(pf(fstat, numdf, rdf, false, false)),
            ),
        ]);
    } else {
        fields.extend([
            ("r.squared", Value::scalar(0.0)),
            ("adj.r.squared", Value::scalar(0.0)),
            ("fstatistic", na3()),
            ("f.p.value", Value::scalar(NA)),
        ]);
    }
    fields
}
