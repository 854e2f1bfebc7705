//! `medpolish(x, eps, maxiter, trace.iter, na.rm)`: stats::medpolish,
//! Tukey's median polish of a two-way table, a port of R's
//! src/library/stats/R/medpolish.R with R's `median` (median.default:
//! the middle order statistic, or the long-double mean of the middle
//! two). The value's `name`, which R deparses from the call, is added by
//! the evaluator, as `data.name` is for tests. `trace.iter` prints
//! nothing: a step has no console.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::{bare, dimnamed, named};
use super::summary::ldouble;
use super::summary::quantile::median;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "medpolish",
    params: &[
        req("x"),
        opt("eps"),
        opt("maxiter"),
        opt("trace.iter"),
        opt("na.rm"),
    ],
    random: false,
    shape,
    eval,
}];

pub(crate) const CLASS: &str = "medpolish";

fn err(m: impl Into<String>) -> KernelError {
    KernelError::new(m)
}

const NOT_LOGICAL: &str = "missing value where TRUE/FALSE needed";

/// A matrix with its row and column names.
type Dimnamed = (DMatrix<f64>, Option<Vec<String>>, Option<Vec<String>>);

/// `as.matrix(x)` with its dimnames: a vector is one column, named rows
/// where it has names; a data frame its columns.
fn as_matrix(v: &Value) -> Result<Dimnamed, KernelError> {
    if let Some(l) = super::frame::as_frame(v) {
        let m = super::frame::numeric_matrix(l, "medpolish")?;
        return Ok((m, super::row_names::matrix_rownames(l), l.names.clone()));
    }
    let (rows, cols) = super::names::dimnames(v);
    let (rows, cols) = (rows.map(<[String]>::to_vec), cols.map(<[String]>::to_vec));
    match bare(v) {
        Value::Mat(m) => Ok((m.clone(), rows, cols)),
        Value::BoolMat(m) => Ok((
            m.map(|b| b.map_or(super::value::NA, |b| f64::from(u8::from(b)))),
            rows,
            cols,
        )),
        b @ (Value::Num(_) | Value::Bool(_) | Value::Factor(_)) => {
            let x: Vec<f64> = match b {
                Value::Factor(f) => f.integer_codes(),
                other => other
                    .as_f64_slice()
                    .map(|c| c.into_owned())
                    .unwrap_or_default(),
            };
            let names = super::names::names(v).map(<[String]>::to_vec);
            Ok((DMatrix::from_column_slice(x.len(), 1, &x), names, None))
        }
        other => Err(err(format!(
            "flowcast's medpolish() needs a numeric matrix for 'x', not {}",
            other.type_name()
        ))),
    }
}

/// R's `||` of two logicals, NA as `None`.
fn or(a: Option<bool>, b: impl FnOnce() -> Option<bool>) -> Option<bool> {
    match a {
        Some(true) => Some(true),
        Some(false) => b(),
        None => match b() {
            Some(true) => Some(true),
            _ => None,
        },
    }
}

/// A comparison of numbers as R gives it: NA when either is NA or NaN.
fn cmp(a: f64, b: f64, f: impl Fn(f64, f64) -> bool) -> Option<bool> {
    (!a.is_nan() && !b.is_nan()).then(|| f(a, b))
}

/// How many times `for(iter in 1L:maxiter)` runs.
fn iterations(maxiter: &Value) -> Result<usize, KernelError> {
    let v = bare(maxiter)
        .as_f64_slice()
        .ok_or_else(|| err("argument of length 0"))?;
    let Some(&to) = v.first() else {
        return Err(err("argument of length 0"));
    };
    if to.is_nan() {
        return Err(err("NA/NaN argument"));
    }
    // `from:to` has floor(|to - from| + 1e-10) + 1 elements.
    let n = ((to - 1.0).abs() + 1e-10).floor() + 1.0;
    if n > 1e9 {
        return Err(err("result would be too long a vector"));
    }
    Ok(n as usize)
}

/// R's `if(cond)` of a flag such as trace.iter.
fn flag(v: &Value) -> Result<Option<bool>, KernelError> {
    match bare(v) {
        Value::Bool(b) if !b.is_empty() => Ok(b[0]),
        Value::Str(s) if !s.is_empty() => match s[0].as_str() {
            "TRUE" | "true" | "T" | "True" => Ok(Some(true)),
            "FALSE" | "false" | "F" | "False" => Ok(Some(false)),
            "NA" => Ok(None),
            _ => Err(err("argument is not interpretable as logical")),
        },
        other => match other.as_f64_slice().as_deref().and_then(|s| s.first()) {
            Some(x) if x.is_nan() => Ok(None),
            Some(&x) => Ok(Some(x != 0.0)),
            None => Err(err("argument is of length zero")),
        },
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| err("argument \"x\" is missing, with no default"))?;
    let (mut z, rownames, colnames) = as_matrix(xv)?;
    let eps = match args.get("eps") {
        Some(v) => bare(v)
            .as_f64_slice()
            .and_then(|s| s.first().copied())
            .ok_or_else(|| err("flowcast's medpolish() needs a number for 'eps'"))?,
        None => 0.01,
    };
    let maxiter_default = Value::Num(vec![10.0]);
    let maxiter_v = args.get("maxiter").unwrap_or(&maxiter_default);
    let iters = iterations(maxiter_v)?;
    let na_rm = match args.get("na.rm") {
        Some(v) => flag(v)?.ok_or_else(|| err(NOT_LOGICAL))?,
        None => false,
    };
    let trace = args.get("trace.iter");
    let (nr, nc) = z.shape();
    let mut t = 0.0;
    let mut r = vec![0.0; nr];
    let mut c = vec![0.0; nc];
    let mut oldsum = 0.0;
    let mut converged = false;
    for _ in 0..iters {
        let rdelta: Vec<f64> = (0..nr)
            .map(|i| median(z.row(i).iter().copied().collect(), na_rm))
            .collect();
        for j in 0..nc {
            for i in 0..nr {
                z[(i, j)] -= rdelta[i];
            }
        }
        for i in 0..nr {
            r[i] += rdelta[i];
        }
        let delta = median(c.clone(), na_rm);
        for cj in &mut c {
            *cj -= delta;
        }
        t += delta;
        let cdelta: Vec<f64> = (0..nc)
            .map(|j| median(z.column(j).iter().copied().collect(), na_rm))
            .collect();
        for j in 0..nc {
            for i in 0..nr {
                z[(i, j)] -= cdelta[j];
            }
        }
        for j in 0..nc {
            c[j] += cdelta[j];
        }
        let delta = median(r.clone(), na_rm);
        for ri in &mut r {
            *ri -= delta;
        }
        t += delta;
        // sum(abs(z), na.rm): R's long-double sum.
        let abs: Vec<f64> = z
            .iter()
            .map(|v| v.abs())
            .filter(|v| !na_rm || !v.is_nan())
            .collect();
        let newsum = ldouble::sum(&abs).to_f64();
        let conv = or(cmp(newsum, 0.0, |a, b| a == b), || {
            cmp((newsum - oldsum).abs(), eps * newsum, |a, b| a < b)
        });
        match conv {
            None => return Err(err(NOT_LOGICAL)),
            Some(true) => {
                converged = true;
                break;
            }
            Some(false) => {}
        }
        oldsum = newsum;
        if let Some(v) = trace {
            flag(v)?.ok_or_else(|| err(NOT_LOGICAL))?;
        }
    }
    if converged {
        if let Some(v) = trace {
            flag(v)?.ok_or_else(|| err(NOT_LOGICAL))?;
        }
    } else {
        // sprintf(ngettext(maxiter, ...), maxiter): ngettext reads it as
        // an integer, sprintf's %d refuses a double that is not whole.
        let maxiter = bare(maxiter_v)
            .as_f64_slice()
            .and_then(|s| s.first().copied())
            .unwrap_or(f64::NAN);
        let n = maxiter.trunc();
        if !(0.0..=2147483647.0).contains(&n) {
            return Err(err("invalid 'n' argument"));
        }
        if maxiter != n {
            return Err(err(
                "invalid format '%d'; use format %f, %e, %g or %a for numeric objects",
            ));
        }
        let word = if n == 1.0 { "iteration" } else { "iterations" };
        ctx.warn(format!("medpolish() did not converge in {n} {word}"));
    }
    let row = match rownames.clone() {
        Some(names) => named(Value::Num(r), names),
        None => Value::Num(r),
    };
    let col = match colnames.clone() {
        Some(names) => named(Value::Num(c), names),
        None => Value::Num(c),
    };
    Ok(Value::List(List::record(
        CLASS,
        vec![
            ("overall", Value::Num(vec![t])),
            ("row", row),
            ("col", col),
            ("residuals", dimnamed(Value::Mat(z), rownames, colnames)),
        ],
    )))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (rows, cols) = match args.ty("x") {
        Some(Type::Mat { rows, cols }) => (*rows, *cols),
        Some(t @ (Type::Num { .. } | Type::Bool { .. } | Type::Factor { .. })) => {
            (t.len(), Some(1))
        }
        Some(t @ (Type::Str { .. } | Type::Formula { .. } | Type::Null)) => {
            return Err(args.error(
                "x",
                format!(
                    "flowcast's medpolish() needs a numeric matrix for 'x', not {}",
                    t.describe()
                ),
            ))
        }
        _ => (None, None),
    };
    Ok(Type::record(
        CLASS,
        vec![
            ("overall", Type::num(1)),
            (
                "row",
                Type::Num {
                    len: rows,
                    value: None,
                },
            ),
            (
                "col",
                Type::Num {
                    len: cols,
                    value: None,
                },
            ),
            ("residuals", Type::Mat { rows, cols }),
            (
                "name",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
        ],
    ))
}
