//! `%*%`, `crossprod`, `t` and `diag`, with R's promotion of vectors to
//! row or column matrices.
//!
//! Products are summed in the order the reference BLAS (R's default) sums
//! them, so small and matrix-vector products equal R's to the bit; large
//! matrix-matrix products go to faer, whose blocked order differs from R's
//! only in rounding.

use nalgebra::DMatrix;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) const MATPROD: Kernel = Kernel {
    name: "%*%",
    params: &[req("x"), req("y")],
    random: false,
    shape: matprod_shape,
    eval: matprod_eval,
};

pub(super) const CROSSPROD: Kernel = Kernel {
    name: "crossprod",
    params: &[req("x"), opt("y")],
    random: false,
    shape: crossprod_shape,
    eval: crossprod_eval,
};

pub(super) const TCROSSPROD: Kernel = Kernel {
    name: "tcrossprod",
    params: &[req("x"), opt("y")],
    random: false,
    shape: tcrossprod_shape,
    eval: tcrossprod_eval,
};

pub(super) const TRANSPOSE: Kernel = Kernel {
    name: "t",
    params: &[req("x")],
    random: false,
    shape: t_shape,
    eval: t_eval,
};

pub(super) const DIAG: Kernel = Kernel {
    name: "diag",
    params: &[opt("x"), opt("nrow"), opt("ncol"), opt("names")],
    random: false,
    shape: diag_shape,
    eval: diag_eval,
};

/// Above this many multiply-adds a matrix-matrix product goes to faer.
const FAER_FLOPS: usize = 1 << 21;

/// An operand's shape: a matrix, or a plain vector of some length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Mat(Option<usize>, Option<usize>),
    Vec(Option<usize>),
}

/// `(nrx, ncx, nry, ncy)`, each known or not.
pub type ProdDims = (Option<usize>, Option<usize>, Option<usize>, Option<usize>);

/// `(nrx, ncx, nry, ncy)`: how R's `%*%` reads its operands (as in
/// `do_matprod`), or `Err` when they cannot conform. Unknown sizes give
/// `None` where the reading cannot be decided.
pub fn matprod_dims(x: Shape, y: Shape) -> Result<ProdDims, ()> {
    let one = Some(1);
    let dims = match (x, y) {
        (Shape::Mat(r1, c1), Shape::Mat(r2, c2)) => (r1, c1, r2, c2),
        (Shape::Mat(r1, c1), Shape::Vec(n)) => match (c1, n) {
            (Some(c), Some(n)) if n == c => (r1, c1, Some(n), one),
            (Some(1), Some(n)) => (r1, one, one, Some(n)),
            (Some(_), Some(_)) => return Err(()),
            (Some(c), None) if c != 1 => (r1, c1, c1, one),
            _ => (r1, c1, None, if n == one { one } else { None }),
        },
        (Shape::Vec(n), Shape::Mat(r2, c2)) => match (n, r2) {
            (Some(n), Some(r)) if n == r => (one, Some(n), r2, c2),
            (Some(n), Some(1)) => (Some(n), one, one, c2),
            (Some(_), Some(_)) => return Err(()),
            (None, Some(r)) if r != 1 => (one, r2, r2, c2),
            _ => (if n == one { one } else { None }, None, r2, c2),
        },
        (Shape::Vec(n1), Shape::Vec(n2)) => match (n1, n2) {
            (Some(a), Some(b)) if a == b => (one, n1, n2, one),
            (Some(1), _) => (one, one, one, n2),
            (Some(_), Some(_)) => return Err(()),
            (Some(_), None) => (one, n1, n1, one),
            (None, _) => (one, None, None, if n2 == one { one } else { None }),
        },
    };
    match (dims.1, dims.2) {
        (Some(a), Some(b)) if a != b => Err(()),
        _ => Ok(dims),
    }
}

/// The same for `crossprod(x, y)` = `t(x) %*% y`: `(nrx, ncx, nry, ncy)` of
/// the operands before transposing x.
pub fn crossprod_dims(x: Shape, y: Shape) -> Result<(usize, usize, usize, usize), ()> {
    let known = |s: Shape| match s {
        Shape::Mat(Some(r), Some(c)) => Some(Shape::Mat(Some(r), Some(c))),
        Shape::Vec(Some(n)) => Some(Shape::Vec(Some(n))),
        _ => None,
    };
    let (Some(x), Some(y)) = (known(x), known(y)) else {
        return Err(());
    };
    let dims = match (x, y) {
        (Shape::Mat(Some(r1), Some(c1)), Shape::Mat(Some(r2), Some(c2))) => (r1, c1, r2, c2),
        (Shape::Mat(Some(r1), Some(c1)), Shape::Vec(Some(n))) => {
            if n == r1 {
                (r1, c1, n, 1)
            } else if r1 == 1 {
                (r1, c1, 1, n)
            } else {
                return Err(());
            }
        }
        // A vector x is only ever read as a column here.
        (Shape::Vec(Some(n)), Shape::Mat(Some(r2), Some(c2))) if n == r2 => (n, 1, r2, c2),
        (Shape::Vec(Some(a)), Shape::Vec(Some(b))) => {
            if a == b {
                (a, 1, b, 1)
            } else if a == 1 {
                (1, 1, 1, b)
            } else {
                return Err(());
            }
        }
        _ => return Err(()),
    };
    if dims.0 != dims.2 {
        return Err(());
    }
    Ok(dims)
}

/// `x (m x k) %*% y (k x n)`, column-major slices.
pub fn matmul(x: &[f64], m: usize, k: usize, y: &[f64], n: usize) -> DMatrix<f64> {
    let mut z = DMatrix::<f64>::zeros(m, n);
    if m == 0 || n == 0 || k == 0 {
        return z;
    }
    if m == 1 {
        // A row times a matrix: one dot product per column.
        let out = z.as_mut_slice();
        dots(x, y, k, out);
        return z;
    }
    if n == 1 || m * k * n <= FAER_FLOPS {
        // dgemm/dgemv order: each column of z accumulates x's columns.
        let out = z.as_mut_slice();
        for j in 0..n {
            let zc = &mut out[j * m..(j + 1) * m];
            for l in 0..k {
                let b = y[j * k + l];
                let xc = &x[l * m..(l + 1) * m];
                for (zi, &xi) in zc.iter_mut().zip(xc) {
                    *zi += b * xi;
                }
            }
        }
        return z;
    }
    let lhs = faer::MatRef::from_column_major_slice(x, m, k);
    let rhs = faer::MatRef::from_column_major_slice(y, k, n);
    let dst = faer::MatMut::from_column_major_slice_mut(z.as_mut_slice(), m, n);
    faer::linalg::matmul::matmul(
        dst,
        faer::Accum::Replace,
        lhs,
        rhs,
        1.0,
        crate::kernels::width::par(),
    );
    z
}

/// `out[j] = sum_l a[l] * b[l, j]` summed in order, four columns at a time
/// for instruction-level parallelism (each sum keeps its own order).
fn dots(a: &[f64], b: &[f64], k: usize, out: &mut [f64]) {
    let n = out.len();
    let mut j = 0;
    while j + 4 <= n {
        let (c0, c1, c2, c3) = (
            &b[j * k..(j + 1) * k],
            &b[(j + 1) * k..(j + 2) * k],
            &b[(j + 2) * k..(j + 3) * k],
            &b[(j + 3) * k..(j + 4) * k],
        );
        let mut s = [0.0f64; 4];
        for l in 0..k {
            let x = a[l];
            s[0] += x * c0[l];
            s[1] += x * c1[l];
            s[2] += x * c2[l];
            s[3] += x * c3[l];
        }
        out[j..j + 4].copy_from_slice(&s);
        j += 4;
    }
    for (jj, o) in out.iter_mut().enumerate().skip(j) {
        let c = &b[jj * k..(jj + 1) * k];
        *o = a.iter().zip(c).fold(0.0, |s, (&p, &q)| s + p * q);
    }
}

/// `t(x) %*% y` for x (k x m) and y (k x n): each entry is an in-order dot
/// product of two columns, as dsyrk/dgemm("T") sum them.
pub fn crossprod(x: &[f64], k: usize, m: usize, y: &[f64], n: usize) -> DMatrix<f64> {
    let mut z = DMatrix::<f64>::zeros(m, n);
    if m == 0 || n == 0 || k == 0 {
        return z;
    }
    if m * k * n > FAER_FLOPS {
        let lhs = faer::MatRef::from_column_major_slice(x, k, m);
        let rhs = faer::MatRef::from_column_major_slice(y, k, n);
        let dst = faer::MatMut::from_column_major_slice_mut(z.as_mut_slice(), m, n);
        faer::linalg::matmul::matmul(
            dst,
            faer::Accum::Replace,
            lhs.transpose(),
            rhs,
            1.0,
            crate::kernels::width::par(),
        );
        return z;
    }
    let mut col = vec![0.0; m];
    for j in 0..n {
        // Row of t(x) i against column j of y: reuse `dots` with x's
        // columns as the "matrix".
        dots(&y[j * k..(j + 1) * k], x, k, &mut col);
        z.column_mut(j).copy_from_slice(&col);
    }
    z
}

fn shape_of_value(v: &Value) -> Option<(Shape, std::borrow::Cow<'_, [f64]>)> {
    let s = match v {
        Value::Mat(m) => Shape::Mat(Some(m.nrows()), Some(m.ncols())),
        other => Shape::Vec(Some(other.len())),
    };
    Some((s, v.as_f64_slice()?))
}

fn shape_of_type(t: &Type) -> Option<Shape> {
    match t {
        Type::Mat { rows, cols } => Some(Shape::Mat(*rows, *cols)),
        Type::Num { len, .. } | Type::Bool { len, .. } => Some(Shape::Vec(*len)),
        _ => None,
    }
}

fn describe(s: Shape) -> String {
    let f = |n: Option<usize>| n.map_or_else(|| "?".to_string(), |n| n.to_string());
    match s {
        Shape::Mat(r, c) => format!("{}x{}", f(r), f(c)),
        Shape::Vec(n) => format!("vector of length {}", f(n)),
    }
}

const NUMERIC_ONLY: &str = "requires numeric/complex matrix/vector arguments";

/// An operand's shape and numbers.
type Operand<'a> = (Shape, std::borrow::Cow<'a, [f64]>);

fn operands<'a>(args: &'a Args<&Value>) -> Result<(Operand<'a>, Option<Operand<'a>>), KernelError> {
    let x = args
        .get("x")
        .and_then(shape_of_value)
        .ok_or_else(|| KernelError::new(NUMERIC_ONLY))?;
    let y = match args.get("y") {
        None | Some(Value::Null) => None,
        Some(v) => Some(shape_of_value(v).ok_or_else(|| KernelError::new(NUMERIC_ONLY))?),
    };
    Ok((x, y))
}

fn matprod_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let ((xs, x), y) = operands(args)?;
    let (ys, y) = y.ok_or_else(|| KernelError::new(NUMERIC_ONLY))?;
    let non_conformable = || KernelError::new("non-conformable arguments");
    match matprod_dims(xs, ys) {
        Ok((Some(m), Some(k), Some(_), Some(n))) => Ok(Value::Mat(matmul(&x, m, k, &y, n))),
        _ => Err(non_conformable()),
    }
}

fn crossprod_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let ((xs, x), y) = operands(args)?;
    let (ys, y) = match &y {
        Some((s, d)) => (*s, d.as_ref()),
        None => (xs, x.as_ref()),
    };
    let (k, m, _, n) =
        crossprod_dims(xs, ys).map_err(|()| KernelError::new("non-conformable arguments"))?;
    Ok(Value::Mat(crossprod(&x, k, m, y, n)))
}

fn type_operand(args: &Args<Type>, name: &str) -> Result<Option<Shape>, ArgError> {
    match args.ty(name) {
        None | Some(Type::Null) | Some(Type::Any) => Ok(None),
        Some(t) => shape_of_type(t)
            .map(Some)
            .ok_or_else(|| args.error(name, format!("{NUMERIC_ONLY}, not {}", t.describe()))),
    }
}

fn matprod_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (x, y) = (type_operand(args, "x")?, type_operand(args, "y")?);
    let (Some(x), Some(y)) = (x, y) else {
        // Whatever the unknown side is, a matrix x fixes the rows and a
        // matrix y the columns.
        let rows = match x {
            Some(Shape::Mat(r, _)) => r,
            _ => None,
        };
        let cols = match y {
            Some(Shape::Mat(_, c)) => c,
            _ => None,
        };
        return Ok(Type::Mat { rows, cols });
    };
    match matprod_dims(x, y) {
        Ok((r, _, _, c)) => Ok(Type::Mat { rows: r, cols: c }),
        Err(()) => Err(args.error(
            "y",
            format!(
                "non-conformable arguments: {} %*% {}",
                describe(x),
                describe(y)
            ),
        )),
    }
}

/// Which cross product: `t(x) %*% y` or `x %*% t(y)`.
#[derive(Clone, Copy)]
enum Cross {
    Crossprod,
    Tcrossprod,
}

fn crossprod_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    cross_shape(args, Cross::Crossprod)
}

fn tcrossprod_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    cross_shape(args, Cross::Tcrossprod)
}

/// The shape rule of `crossprod` and `tcrossprod`.
fn cross_shape(args: &Args<Type>, which: Cross) -> Result<Type, ArgError> {
    let x = type_operand(args, "x")?;
    let y = if args.has("y") && !matches!(args.ty("y"), Some(Type::Null)) {
        type_operand(args, "y")?
    } else {
        x
    };
    let (Some(x), Some(y)) = (x, y) else {
        return Ok(Type::Mat {
            rows: None,
            cols: None,
        });
    };
    let all_known = |s: Shape| matches!(s, Shape::Mat(Some(_), Some(_)) | Shape::Vec(Some(_)));
    if all_known(x) && all_known(y) {
        let dims = match which {
            Cross::Crossprod => crossprod_dims(x, y).map(|(_, m, _, n)| (m, n)),
            Cross::Tcrossprod => tcrossprod_dims(x, y).map(|(m, _, n, _)| (m, n)),
        };
        let (x, y) = (describe(x), describe(y));
        return match dims {
            Ok((m, n)) => Ok(Type::mat(m, n)),
            Err(()) => Err(args.error(
                "y",
                match which {
                    Cross::Crossprod => format!("non-conformable arguments: t({x}) %*% {y}"),
                    Cross::Tcrossprod => format!("non-conformable arguments: {x} %*% t({y})"),
                },
            )),
        };
    }
    // Partly known: the result's rows are x's columns (crossprod) or rows
    // (tcrossprod), and its columns y's.
    let side = |s: Shape| match (s, which) {
        (Shape::Mat(_, c), Cross::Crossprod) => c,
        (Shape::Mat(r, _), Cross::Tcrossprod) => r,
        (Shape::Vec(_), _) => None,
    };
    Ok(Type::Mat {
        rows: side(x),
        cols: side(y),
    })
}

/// `(nrx, ncx, nry, ncy)` as R's `do_matprod` reads the operands of
/// `tcrossprod(x, y)` = `x %*% t(y)`: two vectors are columns (an outer
/// product), a vector beside a matrix is a row when that conforms.
fn tcrossprod_dims(x: Shape, y: Shape) -> Result<(usize, usize, usize, usize), ()> {
    let dims = match (x, y) {
        (Shape::Mat(Some(r1), Some(c1)), Shape::Mat(Some(r2), Some(c2))) => (r1, c1, r2, c2),
        (Shape::Vec(Some(n)), Shape::Mat(Some(r2), Some(c2))) => {
            if n == c2 {
                (1, n, r2, c2)
            } else if c2 == 1 {
                (n, 1, r2, c2)
            } else {
                return Err(());
            }
        }
        (Shape::Mat(Some(r1), Some(c1)), Shape::Vec(Some(n))) => {
            if r1 == 1 {
                (r1, c1, 1, n)
            } else {
                (r1, c1, n, 1)
            }
        }
        (Shape::Vec(Some(a)), Shape::Vec(Some(b))) => (a, 1, b, 1),
        _ => return Err(()),
    };
    if dims.1 != dims.3 {
        return Err(());
    }
    Ok(dims)
}

/// Column-major `r x c` data transposed.
fn transposed(d: &[f64], r: usize, c: usize) -> Vec<f64> {
    let mut out = vec![0.0; d.len()];
    for j in 0..c {
        for i in 0..r {
            out[i * c + j] = d[j * r + i];
        }
    }
    out
}

fn tcrossprod_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let ((xs, x), y) = operands(args)?;
    let (ys, y) = match &y {
        Some((s, d)) => (*s, d.as_ref()),
        None => (xs, x.as_ref()),
    };
    let (nrx, ncx, nry, _) =
        tcrossprod_dims(xs, ys).map_err(|()| KernelError::new("non-conformable arguments"))?;
    // x %*% t(y) is crossprod(t(x), t(y)): each element sums over the
    // shared columns in order, as the reference BLAS's dgemm("N", "T").
    let tx = transposed(&x, nrx, ncx);
    let ty = transposed(y, nry, ncx);
    Ok(Value::Mat(crossprod(&tx, ncx, nrx, &ty, nry)))
}

fn t_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    match args.get("x") {
        Some(Value::Mat(m)) => Ok(Value::Mat(m.transpose())),
        Some(Value::ComplexMat(m)) => Ok(Value::ComplexMat(m.transpose())),
        Some(Value::Complex(v)) => Ok(Value::ComplexMat(DMatrix::from_row_slice(1, v.len(), v))),
        // t() keeps a logical's type (do_transpose copies the elements).
        Some(Value::BoolMat(m)) => Ok(Value::BoolMat(m.transpose())),
        Some(Value::Bool(v)) => Ok(Value::BoolMat(DMatrix::from_row_slice(1, v.len(), v))),
        Some(Value::StrMat(m)) => Ok(Value::StrMat(m.transpose())),
        Some(Value::Str(v)) => Ok(Value::StrMat(DMatrix::from_row_slice(1, v.len(), v))),
        Some(v) => match v.as_f64_slice() {
            Some(d) => Ok(Value::Mat(DMatrix::from_row_slice(1, d.len(), &d))),
            None => Err(KernelError::new("argument is not a matrix")),
        },
        None => Err(KernelError::new(
            "argument \"x\" is missing, with no default",
        )),
    }
}

fn t_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat { rows, cols }) => Ok(Type::Mat {
            rows: *cols,
            cols: *rows,
        }),
        Some(Type::ComplexMat { rows, cols }) => Ok(Type::ComplexMat {
            rows: *cols,
            cols: *rows,
        }),
        Some(Type::Complex { len }) => Ok(Type::ComplexMat {
            rows: Some(1),
            cols: *len,
        }),
        Some(Type::BoolMat { rows, cols }) => Ok(Type::BoolMat {
            rows: *cols,
            cols: *rows,
        }),
        Some(t @ Type::Bool { .. }) => Ok(Type::BoolMat {
            rows: Some(1),
            cols: t.len(),
        }),
        Some(Type::StrMat { rows, cols }) => Ok(Type::str_mat(*cols, *rows)),
        Some(t @ Type::Str { .. }) => Ok(Type::str_mat(Some(1), t.len())),
        Some(t @ Type::Num { .. }) => Ok(Type::Mat {
            rows: Some(1),
            cols: t.len(),
        }),
        Some(Type::Any) | None => Ok(Type::Any),
        Some(t) => Err(args.error("x", format!("argument is not a matrix: {}", t.describe()))),
    }
}

/// R's `.Internal(diag(x, nrow, ncol))`: x recycled along the diagonal.
fn diag_fill(x: &[f64], nrow: f64, ncol: f64) -> Result<DMatrix<f64>, String> {
    let check = |v: f64, what: &str| -> Result<usize, String> {
        if v.is_nan() || v >= 2_147_483_648.0 {
            Err(format!("invalid '{what}' value (too large or NA)"))
        } else if v < 0.0 {
            Err(format!("invalid '{what}' value (< 0)"))
        } else {
            Ok(v as usize)
        }
    };
    let nr = check(nrow, "nrow")?;
    let nc = check(ncol, "ncol")?;
    if nr.saturating_mul(nc) > super::ops::MAX_ALLOC {
        return Err(format!("cannot allocate a {nr}x{nc} matrix"));
    }
    let mn = nr.min(nc);
    if mn > 0 && x.is_empty() {
        return Err("'x' must have positive length".into());
    }
    let mut m = DMatrix::zeros(nr, nc);
    for i in 0..mn {
        m[(i, i)] = x[i % x.len()];
    }
    Ok(m)
}

/// The arguments of `diag` after R's R-level logic: (x, nrow, ncol), or
/// the diagonal of a matrix.
enum DiagPlan {
    Extract,
    Build {
        x_is_one: bool,
        n: Option<f64>,
        ncol: Option<f64>,
    },
}

/// R's `diag()` prologue; `x_len` and `x_scalar` describe x when present.
fn diag_plan(
    has_x: bool,
    x_is_matrix: bool,
    x_len: Option<usize>,
    x_scalar: Option<f64>,
    nrow: Option<Option<f64>>,
    ncol: Option<Option<f64>>,
    nargs: usize,
) -> Result<DiagPlan, String> {
    if x_is_matrix {
        if nargs > 1 {
            return Err("'nrow' or 'ncol' cannot be specified when 'x' is a matrix".into());
        }
        return Ok(DiagPlan::Extract);
    }
    let mut x_is_one = false;
    let mut n;
    if !has_x {
        match nrow {
            Some(v) => n = v,
            None => return Err("argument \"nrow\" is missing, with no default".into()),
        }
        x_is_one = true;
    } else if x_len == Some(1) && nargs == 1 {
        // diag(3): the size of an identity matrix, truncated like as.integer.
        n = x_scalar.map(f64::trunc);
        x_is_one = true;
    } else {
        n = x_len.map(|l| l as f64);
    }
    if let Some(v) = nrow {
        n = v;
    }
    let ncol = match ncol {
        Some(v) => v,
        None => n,
    };
    Ok(DiagPlan::Build { x_is_one, n, ncol })
}

fn diag_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let nargs = ["x", "nrow", "ncol", "names"]
        .iter()
        .filter(|n| args.has(n))
        .count();
    let x = args.get("x");
    let dim_arg = |name: &str| -> Result<Option<Option<f64>>, KernelError> {
        match args.get(name) {
            None => Ok(None),
            Some(v) => match v.as_f64_slice() {
                Some(d) if !d.is_empty() => Ok(Some(Some(d[0]))),
                _ => Err(KernelError::new(format!("invalid '{name}' value"))),
            },
        }
    };
    let plan = diag_plan(
        x.is_some(),
        matches!(x, Some(Value::Mat(_))),
        x.map(Value::len),
        x.and_then(Value::as_scalar),
        dim_arg("nrow")?,
        dim_arg("ncol")?,
        nargs,
    )
    .map_err(KernelError)?;
    match plan {
        DiagPlan::Extract => {
            let Some(Value::Mat(m)) = x else {
                return Err(KernelError::new("'x' is not a matrix"));
            };
            Ok(Value::Num(
                (0..m.nrows().min(m.ncols())).map(|i| m[(i, i)]).collect(),
            ))
        }
        DiagPlan::Build { x_is_one, n, ncol } => {
            let data = if x_is_one {
                std::borrow::Cow::Owned(vec![1.0])
            } else {
                args.nums("x")?
            };
            let m = diag_fill(&data, n.unwrap_or(f64::NAN), ncol.unwrap_or(f64::NAN))
                .map_err(KernelError)?;
            Ok(Value::Mat(m))
        }
    }
}

fn diag_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let nargs = ["x", "nrow", "ncol", "names"]
        .iter()
        .filter(|n| args.has(n))
        .count();
    let x = args.ty("x");
    if let Some(Type::Any) = x {
        return Ok(Type::Any);
    }
    if let Some(t) = x {
        if !t.is_numeric() {
            return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())));
        }
    }
    let dim = |name: &str| -> Result<Option<Option<f64>>, ArgError> {
        if args.has(name) {
            Ok(Some(args.const_scalar_or(name, None)?))
        } else {
            Ok(None)
        }
    };
    let plan = diag_plan(
        x.is_some(),
        matches!(x, Some(Type::Mat { .. })),
        x.and_then(Type::len),
        x.and_then(Type::const_scalar),
        dim("nrow")?,
        dim("ncol")?,
        nargs,
    )
    .map_err(|m| args.error("nrow", m))?;
    // R's do_diag names nrow and ncol, whichever argument gave them.
    let size = |v: Option<f64>, what: &str, name: &str| -> Result<Option<usize>, ArgError> {
        match v {
            Some(v) if v < 0.0 => Err(args.error(name, format!("invalid '{what}' value (< 0)"))),
            Some(v) if v.is_nan() => {
                Err(args.error(name, format!("invalid '{what}' value (too large or NA)")))
            }
            Some(v) => Ok(Some(v as usize)),
            None => Ok(None),
        }
    };
    match plan {
        DiagPlan::Extract => {
            let (r, c) = x.and_then(Type::dims).unwrap_or((None, None));
            Ok(Type::Num {
                len: match (r, c) {
                    (Some(r), Some(c)) => Some(r.min(c)),
                    _ => None,
                },
                value: None,
            })
        }
        DiagPlan::Build { n, ncol, .. } => {
            let point = if args.has("nrow") { "nrow" } else { "x" };
            Ok(Type::Mat {
                rows: size(n, "nrow", point)?,
                cols: size(ncol, "ncol", if args.has("ncol") { "ncol" } else { point })?,
            })
        }
    }
}
