//! `outer(X, Y, FUN = "*")`: FUN called once on `X` repeated and `Y`
//! stretched, as R's `outer` calls it, the result shaped `c(dim(X),
//! dim(Y))` (a vector's dimension is its length), so two vectors give a
//! matrix and a matrix with anything an array. FUN is a function's name
//! (`"-"`, `"pmax"`, `">"`) or a `function(x, y) expr` closure, vectorised
//! as R requires. Names and dimnames become the result's dimnames.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::arrays::{array_dimnames, array_dims, shaped};
use crate::kernels::fun::{self, Fun, FunShape};
use crate::kernels::names::{self, dimnamed, with_attr};
use crate::kernels::value::List;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

use super::pick;

/// One operand as R's `outer` sees it: its values as a plain vector, its
/// dimensions (`dim(X)`, or its length) and their names.
struct Operand {
    values: Value,
    dims: Vec<usize>,
    dimnames: Vec<Option<Vec<String>>>,
}

impl Operand {
    fn of(v: &Value) -> Operand {
        let plain = names::strip_value(v.clone());
        if let Some(dims) = array_dims(v) {
            let dimnames = match array_dimnames(v) {
                Some((d, _)) if d.len() == dims.len() => d,
                _ => vec![None; dims.len()],
            };
            return Operand {
                values: plain,
                dims,
                dimnames,
            };
        }
        if let Some((r, c)) = plain.dims() {
            let (rows, cols) = names::dimnames(v);
            let values = match plain {
                Value::Mat(m) => Value::Num(m.as_slice().to_vec()),
                Value::BoolMat(m) => Value::Bool(m.as_slice().to_vec()),
                Value::ComplexMat(m) => Value::Complex(m.as_slice().to_vec()),
                Value::StrMat(m) => Value::Str(m.as_slice().to_vec()),
                other => other,
            };
            return Operand {
                values,
                dims: vec![r, c],
                dimnames: vec![rows.map(<[String]>::to_vec), cols.map(<[String]>::to_vec)],
            };
        }
        Operand {
            dims: vec![plain.len()],
            dimnames: vec![names::names(v).map(<[String]>::to_vec)],
            values: plain,
        }
    }
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "X");
    let y = super::arg_or_null(args, "Y");
    let f = fun::resolve_or(args.get("FUN"), ctx, "*")?;
    let vector = |v: &Value| !matches!(v, Value::List(_) | Value::Formula(_) | Value::Lang(_));
    if !vector(names::bare(x)) || !vector(names::bare(y)) {
        return Err(KernelError::new("outer(): X and Y must be vectors"));
    }
    let (ox, oy) = (Operand::of(x), Operand::of(y));
    let (x, y) = (&ox.values, &oy.values);
    let (nx, ny) = (x.len(), y.len());
    let n = nx
        .checked_mul(ny)
        .filter(|&n| n <= 1 << 31)
        .ok_or_else(|| KernelError::new("outer(): the result is too large"))?;
    let plain = product(x, y, n, &f, args, ctx)?;
    let dims: Vec<usize> = ox.dims.iter().chain(&oy.dims).copied().collect();
    let dimnames: Vec<Option<Vec<String>>> = ox.dimnames.into_iter().chain(oy.dimnames).collect();
    let data = match plain {
        Value::Bool(b) => Value::Bool(b),
        Value::BoolMat(m) => Value::Bool(m.as_slice().to_vec()),
        Value::Num(d) => Value::Num(d),
        Value::Str(s) => Value::Str(s),
        Value::StrMat(m) => Value::Str(m.as_slice().to_vec()),
        other => match other.as_f64_slice() {
            Some(d) => Value::Num(d.into_owned()),
            None => {
                return Err(KernelError::new(format!(
                    "outer(): FUN gave {}, not numbers, logicals or text",
                    other.type_name()
                )))
            }
        },
    };
    let result = shaped(data, &dims)?;
    if dimnames.iter().all(Option::is_none) {
        return Ok(result);
    }
    Ok(match &dimnames[..] {
        [rows, cols] => dimnamed(result, rows.clone(), cols.clone()),
        _ => with_attr(
            result,
            "dimnames",
            Value::List(List::sequence(
                dimnames
                    .into_iter()
                    .map(|d| d.map_or(Value::Null, Value::Str))
                    .collect(),
            )),
        ),
    })
}

/// FUN on `x` repeated and `y` stretched to `n` values, checked to give
/// `n` values.
fn product(
    x: &Value,
    y: &Value,
    n: usize,
    f: &Fun,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let nx = x.len();
    // R's `outer` forms the product of two numeric vectors as
    // `X %*% t(Y)`: one multiplication per cell, which this does directly.
    if let (Value::Num(xs), Value::Num(ys), Fun::Kernel(k)) = (x, y, f) {
        if k.name == "*" && args.dots().next().is_none() {
            let mut out = crate::kernels::alloc::vec_with_capacity(n)?;
            for &b in ys {
                out.extend(xs.iter().map(|&a| a * b));
            }
            return Ok(Value::Num(out));
        }
    }
    let (xr, yr) = match (x, y) {
        (Value::Num(xs), Value::Num(ys)) => {
            let mut xr = crate::kernels::alloc::vec_with_capacity(n)?;
            let mut yr = crate::kernels::alloc::vec_with_capacity(n)?;
            for &b in ys {
                xr.extend_from_slice(xs);
                yr.extend(std::iter::repeat_n(b, nx));
            }
            (Value::Num(xr), Value::Num(yr))
        }
        _ if n == 0 => (pick(x, &[]), pick(y, &[])),
        _ => (
            pick(x, &(0..n).map(|i| i % nx).collect::<Vec<_>>()),
            pick(y, &(0..n).map(|i| i / nx).collect::<Vec<_>>()),
        ),
    };
    let mut given = vec![(None, &xr), (None, &yr)];
    given.extend(args.dots().map(|(n, v)| (n.map(str::to_string), v)));
    let r = f.call(given, ctx)?;
    if r.len() != n {
        return Err(KernelError::new(format!(
            "dims [product {n}] do not match the length of object [{}]",
            r.len()
        )));
    }
    Ok(r)
}

pub(super) fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let len = |n: &str| args.ty(n).and_then(Type::len);
    // A matrix (or what may be an array) operand makes an array of three
    // or more dimensions, which shape inference leaves untyped.
    let flat = |n: &str| {
        !matches!(
            args.ty(n),
            Some(Type::Mat { .. } | Type::BoolMat { .. } | Type::StrMat { .. } | Type::Any)
        )
    };
    // FUN runs once, on X and Y each repeated to the product's length.
    let n = len("X").zip(len("Y")).map(|(a, b)| a * b);
    let of = |t: Option<&Type>| match t {
        Some(Type::Bool { .. } | Type::BoolMat { .. }) => Type::logical(n),
        Some(Type::Str { .. } | Type::StrMat { .. }) => Type::Str {
            len: n,
            value: None,
        },
        _ => Type::Num {
            len: n,
            value: None,
        },
    };
    let given = || {
        let mut given = vec![(None, of(args.ty("X"))), (None, of(args.ty("Y")))];
        given.extend(args.dots().map(|(n, t)| (n.map(str::to_string), t.clone())));
        given
    };
    let name = match fun::resolve_shape(args.ty("FUN"), ctx) {
        Err(m) => return Err(args.error("FUN", m)),
        Ok(None) if args.ty("FUN").is_some() => return Ok(Type::Any),
        Ok(None) => "*",
        Ok(Some(f @ FunShape::Kernel(k))) => {
            // A function of text (`paste`) makes a character matrix; a
            // kernel whose rule refuses these types is left to its run.
            if let Ok(Type::Str { .. }) = f.shape(given(), Some(1), ctx) {
                if !flat("X") || !flat("Y") {
                    return Ok(Type::Any);
                }
                return Ok(Type::str_mat(len("X"), len("Y")));
            }
            k.name
        }
        Ok(Some(f)) => {
            let one = f
                .shape(given(), Some(1), ctx)
                .map_err(|m| args.error("FUN", m))?;
            if !flat("X") || !flat("Y") {
                return Ok(Type::Any);
            }
            let (rows, cols) = (len("X"), len("Y"));
            return Ok(match one {
                Type::Bool { .. } | Type::BoolMat { .. } => Type::BoolMat { rows, cols },
                Type::Str { .. } | Type::StrMat { .. } => Type::StrMat { rows, cols },
                _ => Type::Mat { rows, cols },
            });
        }
    };
    if !flat("X") || !flat("Y") {
        return Ok(Type::Any);
    }
    let (rows, cols) = (len("X"), len("Y"));
    let logical = matches!(
        name,
        "==" | "!=" | "<" | ">" | "<=" | ">=" | "&" | "|" | "xor"
    );
    Ok(if logical {
        Type::BoolMat { rows, cols }
    } else {
        Type::Mat { rows, cols }
    })
}
