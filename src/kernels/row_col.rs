//! `row(x)` and `col(x)`: R's integer matrices of row and column indices
//! over the dimensions of a matrix or data frame (base's row and col,
//! `.Internal(row(dim(x)))`).

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::bare;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "row",
        params: &[req("x"), opt("as.factor")],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "col",
        params: &[req("x"), opt("as.factor")],
        random: false,
        shape,
        eval,
    },
];

/// `dim(x)`: a matrix's, a data frame's rows by columns; anything else
/// has none, which R refuses.
fn dims_of(x: &Value, func: &str) -> Result<(usize, usize), KernelError> {
    if let Some(d) = x.dims() {
        return Ok(d);
    }
    match bare(x) {
        Value::List(l) if l.class.as_deref() == Some(super::frame::CLASS) => {
            Ok((super::frame::nrow(l), l.items.len()))
        }
        _ => Err(KernelError::new(format!(
            "a matrix-like object is required as argument to '{func}'"
        ))),
    }
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (r, c) = dims_of(x, args.func)?;
    // A factor matrix has no place in flowcast's values.
    if let Some(f) = args.get("as.factor") {
        if super::logical::if_condition(f)? {
            return Err(KernelError::new(format!(
                "{}(as.factor = TRUE) is not supported: flowcast has no factor matrices",
                args.func
            )));
        }
    }
    super::alloc::ensure_room(r as f64 * c as f64 * 8.0)?;
    let by_row = args.func == "row";
    Ok(Value::Mat(DMatrix::from_fn(r, c, |i, j| {
        (if by_row { i + 1 } else { j + 1 }) as f64
    })))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(
            Type::Mat { rows, cols }
            | Type::BoolMat { rows, cols }
            | Type::ComplexMat { rows, cols },
        ) => Ok(Type::Mat {
            rows: *rows,
            cols: *cols,
        }),
        Some(
            Type::Num { .. }
            | Type::Str { .. }
            | Type::Bool { .. }
            | Type::Null
            | Type::Factor { .. }
            | Type::Complex { .. },
        ) => Err(args.error(
            "x",
            format!(
                "a matrix-like object is required as argument to '{}'",
                args.func
            ),
        )),
        Some(t) => Ok(match super::frame::type_dims(t) {
            Some((rows, cols)) => Type::Mat { rows, cols },
            None => Type::Mat {
                rows: None,
                cols: None,
            },
        }),
        None => Ok(Type::Mat {
            rows: None,
            cols: None,
        }),
    }
}
