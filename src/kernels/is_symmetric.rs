//! `isSymmetric(object, tol)`: R 4.2.2's isSymmetric.matrix, all.equal of
//! the matrix and its (conjugate) transpose within `tol` (100 eps),
//! dimnames included, after R's cheap pretests of rows and columns 1, 2,
//! n-1 and n within `tol1` (8 tol).

use nalgebra::DMatrix;

use super::all_equal::all_equal_within;
use super::args::{ArgError, Args};
use super::names::{bare, dimnamed, dimnames, named};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "isSymmetric",
    params: &[req("object"), opt("tol"), opt("tol1"), DOTS],
    random: false,
    shape,
    eval,
}];

/// R's message when no isSymmetric method fits `v`'s implicit class.
fn no_method(v: &Value, integer: bool) -> KernelError {
    let class = match bare(v) {
        Value::Num(_) if integer => "c('integer', 'numeric')",
        Value::Num(_) => "c('double', 'numeric')",
        Value::Bool(_) => "logical",
        Value::Str(_) => "character",
        Value::Complex(_) => "complex",
        Value::Null => "NULL",
        Value::Factor(_) => "factor",
        Value::Formula(_) => "formula",
        Value::Lang(l) if l.symbol => "name",
        Value::Lang(_) => "call",
        Value::List(l) => return no_method_class(l.class.as_deref().unwrap_or("list")),
        _ => "matrix",
    };
    no_method_class(class)
}

fn no_method_class(class: &str) -> KernelError {
    KernelError::new(format!(
        "no applicable method for 'isSymmetric' applied to an object of class \"{class}\""
    ))
}

/// Row or column `k` of `m` as a vector named by `names`.
fn slice<T: Clone + nalgebra::Scalar>(
    m: &DMatrix<T>,
    k: usize,
    row: bool,
    names: Option<&[String]>,
    wrap: fn(Vec<T>) -> Value,
) -> Value {
    let v: Vec<T> = if row {
        m.row(k).iter().cloned().collect()
    } else {
        m.column(k).iter().cloned().collect()
    };
    match names {
        Some(n) => named(wrap(v), n.to_vec()),
        None => wrap(v),
    }
}

fn tolerance(args: &Args<&Value>, name: &str, default: f64) -> Result<Option<f64>, KernelError> {
    match args.get(name).map(bare) {
        None => Ok(Some(default)),
        Some(v) if v.is_empty() => Ok(None),
        Some(v) => v
            .as_scalar()
            .map(Some)
            .ok_or_else(|| KernelError::new("'tolerance' should be numeric")),
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("object")
        .ok_or_else(|| KernelError::new("argument \"object\" is missing, with no default"))?;
    let Some((n, c)) = x.dims() else {
        return Err(no_method(x, ctx.is_integer(x)));
    };
    if n != c {
        return Ok(Value::flag(false));
    }
    let tol = tolerance(args, "tol", 100.0 * f64::EPSILON)?.unwrap_or(f64::NAN);
    let tol1 = tolerance(args, "tol1", 8.0 * tol)?;
    let (rows, cols) = dimnames(x);
    let transposed = |v: Value| {
        dimnamed(
            v,
            cols.map(<[String]>::to_vec),
            rows.map(<[String]>::to_vec),
        )
    };
    // (row i, column i) of the pretests, and t(object) (conjugated).
    type Parts = (Box<dyn Fn(usize) -> (Value, Value)>, Value);
    let (pair, t): Parts = match bare(x) {
        Value::Mat(m) => {
            let (m2, r, c) = (
                m.clone(),
                rows.map(<[String]>::to_vec),
                cols.map(<[String]>::to_vec),
            );
            (
                Box::new(move |i| {
                    (
                        slice(&m2, i, true, c.as_deref(), Value::Num),
                        slice(&m2, i, false, r.as_deref(), Value::Num),
                    )
                }),
                transposed(Value::Mat(m.transpose())),
            )
        }
        Value::BoolMat(m) => {
            let (m2, r, c) = (
                m.clone(),
                rows.map(<[String]>::to_vec),
                cols.map(<[String]>::to_vec),
            );
            (
                Box::new(move |i| {
                    (
                        slice(&m2, i, true, c.as_deref(), Value::Bool),
                        slice(&m2, i, false, r.as_deref(), Value::Bool),
                    )
                }),
                transposed(Value::BoolMat(m.transpose())),
            )
        }
        Value::ComplexMat(m) => {
            let (m2, r, c) = (
                m.clone(),
                rows.map(<[String]>::to_vec),
                cols.map(<[String]>::to_vec),
            );
            let conj = m.map(|z| z.conj());
            (
                Box::new(move |i| {
                    (
                        slice(&m2, i, true, c.as_deref(), Value::Complex),
                        slice(&conj, i, false, r.as_deref(), Value::Complex),
                    )
                }),
                transposed(Value::ComplexMat(m.adjoint())),
            )
        }
        _ => return Err(no_method(x, false)),
    };
    if n > 1 {
        if let Some(tol1) = tol1 {
            let mut seen = Vec::new();
            for i in [0, 1, n - 2, n - 1] {
                if seen.contains(&i) {
                    continue;
                }
                seen.push(i);
                let (r, c) = pair(i);
                if !all_equal_within(&r, &c, tol1)? {
                    return Ok(Value::flag(false));
                }
            }
        }
    }
    Ok(Value::flag(all_equal_within(x, &t, tol)?))
}

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::logical(Some(1)))
}
