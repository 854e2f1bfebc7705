//! `asplit(x, MARGIN)`: base R 4.2.2's asplit (base/R/asplit.R) of a matrix
//! (or a data frame, through as.matrix) along one margin: a list of its
//! rows or columns, named by that margin's dimnames, each named by the
//! other's. R's result is a list array of one dimension, which is a list
//! with names; a split by both margins (a list matrix) is refused.

use super::names::{bare, dimnames, named, table_dnn};
use super::value::List;
use super::{req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "asplit",
    params: &[req("x"), req("MARGIN")],
    random: false,
    shape: asplit_shape,
    eval: asplit_eval,
}];

fn margin(args: &Args<&Value>, x: &Value) -> Result<usize, KernelError> {
    let m = args.get("MARGIN").unwrap_or(&Value::Null);
    let k = match bare(m) {
        Value::Str(s) => {
            let Some(dnn) = table_dnn(x) else {
                return Err(KernelError::new("'x' must have named dimnames"));
            };
            let hits: Vec<usize> = s
                .iter()
                .map(|name| dnn.iter().position(|d| d == name).map(|p| p + 1))
                .collect::<Option<_>>()
                .ok_or_else(|| {
                    KernelError::new("not all elements of 'MARGIN' are names of dimensions")
                })?;
            hits.iter().map(|&p| p as f64).collect::<Vec<f64>>()
        }
        other => other
            .as_f64_slice()
            .map(std::borrow::Cow::into_owned)
            .unwrap_or_default(),
    };
    match k.as_slice() {
        [m] if *m == 1.0 || *m == 2.0 => Ok(*m as usize),
        [m] if *m >= 3.0 => Err(KernelError::new(format!(
            "'perm' is of wrong length {} (!= 2)",
            *m as usize
        ))),
        [a, b] if (*a - *b).abs() == 1.0 && a.min(*b) == 1.0 => Err(KernelError::new(
            "asplit() by both margins is not supported: R's result is a list matrix, \
             which a flowcast list cannot hold",
        )),
        _ => Err(KernelError::new(
            "asplit() needs MARGIN 1 (rows) or 2 (columns) of a matrix",
        )),
    }
}

fn asplit_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x0 = args.get("x").unwrap_or(&Value::Null);
    // R: `if (is.object(x)) x <- as.matrix(x)` for a data frame.
    let converted;
    let x = if let Some(l) = super::frame::as_frame(x0) {
        let m = super::frame::numeric_matrix(l, "asplit")?;
        converted = super::names::dimnamed(
            Value::Mat(m),
            super::row_names::matrix_rownames(l),
            l.names.clone(),
        );
        &converted
    } else {
        x0
    };
    let Some((r, c)) = bare(x).dims() else {
        return Err(KernelError::new("dim(x) must have a positive length"));
    };
    let by = margin(args, x)?;
    let (rows, cols) = dimnames(x);
    let cell = |i: usize, j: usize| -> Value {
        match bare(x) {
            Value::Mat(m) => Value::Num(vec![m[(i, j)]]),
            Value::BoolMat(m) => Value::Bool(vec![m[(i, j)]]),
            Value::ComplexMat(m) => Value::Complex(vec![m[(i, j)]]),
            _ => Value::Null,
        }
    };
    // Each piece is one row (by 1) or column (by 2), gathered cell by cell.
    let (pieces, along, outer_names, inner_names) = if by == 1 {
        (r, c, rows, cols)
    } else {
        (c, r, cols, rows)
    };
    let mut items = Vec::with_capacity(pieces);
    for p in 0..pieces {
        let cells: Vec<Value> = (0..along)
            .map(|q| if by == 1 { cell(p, q) } else { cell(q, p) })
            .collect();
        let piece = match bare(x) {
            Value::Mat(_) => Value::Num(cells.iter().filter_map(Value::as_scalar).collect()),
            Value::BoolMat(_) => Value::Bool(
                cells
                    .iter()
                    .flat_map(|v| match v {
                        Value::Bool(b) => b.clone(),
                        _ => Vec::new(),
                    })
                    .collect(),
            ),
            Value::ComplexMat(_) => Value::Complex(
                cells
                    .iter()
                    .flat_map(|v| match v {
                        Value::Complex(z) => z.clone(),
                        _ => Vec::new(),
                    })
                    .collect(),
            ),
            other => {
                return Err(KernelError::new(format!(
                    "asplit() of {} is not supported",
                    other.type_name()
                )))
            }
        };
        items.push(match inner_names {
            Some(n) => named(piece, n.to_vec()),
            None => piece,
        });
    }
    let mut l = List::sequence(items);
    l.names = outer_names.map(<[String]>::to_vec);
    Ok(Value::List(l))
}

fn asplit_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let by = a.get("MARGIN").and_then(Type::const_scalar);
    Ok(match (a.ty("x"), by) {
        (Some(Type::Mat { rows, cols }), Some(m)) if m == 1.0 || m == 2.0 => {
            let (n, len) = if m == 1.0 {
                (*rows, *cols)
            } else {
                (*cols, *rows)
            };
            Type::List {
                len: n,
                elem: Box::new(Type::Num { len, value: None }),
            }
        }
        (
            Some(Type::Num { .. } | Type::Str { .. } | Type::Bool { .. } | Type::Factor { .. }),
            _,
        ) => return Err(a.error("x", "dim(x) must have a positive length")),
        _ => Type::Any,
    })
}
