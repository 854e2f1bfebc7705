//! `upper.tri(x, diag)` and `lower.tri(x, diag)`: R's
//! `.row(d) < .col(d)` (or `<=`, `>`, `>=`) over the dimensions of `x`, or
//! of `as.matrix(x)` when `x` is not a matrix. Only the shape of `x` is
//! read, so the result serves as an index (`m[upper.tri(m)]`).

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::logical::if_condition;
use super::names::bare;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "upper.tri",
        params: &[req("x"), opt("diag")],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "lower.tri",
        params: &[req("x"), opt("diag")],
        random: false,
        shape,
        eval,
    },
];

/// `dim(x)`, else `dim(as.matrix(x))`: a vector (or list) is one column,
/// a data frame its rows by its columns.
fn dims_of(x: &Value) -> Result<(usize, usize), KernelError> {
    if let Some(d) = x.dims() {
        return Ok(d);
    }
    match bare(x) {
        Value::Null => Err(KernelError::new(
            "'data' must be of a vector type, was 'NULL'",
        )),
        Value::List(l) if l.class.as_deref() == Some(super::frame::CLASS) => {
            Ok((super::frame::nrow(l), l.items.len()))
        }
        other => Ok((other.len(), 1)),
    }
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (r, c) = dims_of(x)?;
    let diag = match args.get("diag") {
        Some(d) => if_condition(d)?,
        None => false,
    };
    let upper = args.func == "upper.tri";
    super::alloc::ensure_room(r as f64 * c as f64)?;
    Ok(Value::BoolMat(DMatrix::from_fn(r, c, |i, j| {
        Some(match (upper, diag) {
            (true, false) => i < j,
            (true, true) => i <= j,
            (false, false) => i > j,
            (false, true) => i >= j,
        })
    })))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        None | Some(Type::Any | Type::Record { .. } | Type::List { .. }) => Type::BoolMat {
            rows: None,
            cols: None,
        },
        Some(Type::Null) => {
            return Err(args.error("x", "'data' must be of a vector type, was 'NULL'"))
        }
        Some(t) => match t.dims() {
            Some((rows, cols)) => Type::BoolMat { rows, cols },
            None => Type::BoolMat {
                rows: t.len(),
                cols: Some(1),
            },
        },
    })
}
