//! `toeplitz(x)`: R 4.2.2's stats::toeplitz, `matrix(x[abs(col(A) -
//! row(A)) + 1L], n, n)` for a vector `x`: the symmetric Toeplitz matrix
//! whose first row and column are `x`, of x's type.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::{req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "toeplitz",
    params: &[req("x")],
    random: false,
    shape,
    eval,
}];

fn square<T: Clone + nalgebra::Scalar>(x: &[T]) -> DMatrix<T> {
    let n = x.len();
    DMatrix::from_fn(n, n, |i, j| x[i.abs_diff(j)].clone())
}

/// What `is.vector` refuses: a matrix, a factor, a formula.
const NOT_A_VECTOR: &str = "'x' is not a vector";

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    // A named vector is still a vector (is.vector allows names); the
    // result has none.
    Ok(match super::names::bare(x) {
        Value::Num(v) => Value::Mat(square(v)),
        Value::Bool(v) => Value::BoolMat(square(v)),
        Value::Complex(v) => Value::ComplexMat(square(v)),
        Value::Str(v) => Value::StrMat(square(v)),
        Value::List(_) => {
            return Err(KernelError::new(
                "flowcast's toeplitz refuses a list 'x' (R makes a matrix of list cells)",
            ))
        }
        _ => return Err(KernelError::new(NOT_A_VECTOR)),
    })
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let square = |n: Option<usize>| (n, n);
    match args.ty("x") {
        None | Some(Type::Any) => Ok(Type::Any),
        Some(Type::Null) => Err(args.error("x", NOT_A_VECTOR)),
        Some(t @ Type::Num { .. }) => {
            let (rows, cols) = square(t.len());
            Ok(Type::Mat { rows, cols })
        }
        Some(t @ Type::Bool { .. }) => {
            let (rows, cols) = square(t.len());
            Ok(Type::BoolMat { rows, cols })
        }
        Some(t @ Type::Complex { .. }) => {
            let (rows, cols) = square(t.len());
            Ok(Type::ComplexMat { rows, cols })
        }
        Some(t @ Type::Str { .. }) => {
            let (rows, cols) = square(t.len());
            Ok(Type::StrMat { rows, cols })
        }
        Some(
            Type::Mat { .. } | Type::BoolMat { .. } | Type::ComplexMat { .. } | Type::StrMat { .. },
        ) => Err(args.error("x", NOT_A_VECTOR)),
        Some(_) => Ok(Type::Any),
    }
}
