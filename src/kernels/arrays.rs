//! Array indexing: `aperm`, `arrayInd` and `slice.index`, as R 4.2.2's
//! (array.c's do_aperm, which.R's arrayInd, array.R's slice.index).
//! flowcast's arrays are its matrices (and, for `slice.index`, a vector
//! read as a one-dimensional array), so a permutation has two entries.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::{bare, dimnamed};
use super::value::NA;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "aperm",
        params: &[req("a"), opt("perm"), opt("resize"), super::DOTS],
        random: false,
        shape: aperm_shape,
        eval: aperm_eval,
    },
    Kernel {
        name: "arrayInd",
        params: &[req("ind"), req(".dim"), opt(".dimnames"), opt("useNames")],
        random: false,
        shape: array_ind_shape,
        eval: array_ind_eval,
    },
    Kernel {
        name: "slice.index",
        params: &[req("x"), req("MARGIN")],
        random: false,
        shape: slice_index_shape,
        eval: slice_index_eval,
    },
];

fn missing(n: &str) -> KernelError {
    KernelError::new(format!("argument \"{n}\" is missing, with no default"))
}

/// do_aperm's check of `perm` for a matrix: whether it swaps the two
/// dimensions. NULL (or empty) reverses them; numbers are truncated as
/// `coerceVector(perm, INTSXP)` truncates them.
fn swaps(perm: Option<&Value>) -> Result<bool, KernelError> {
    let Some(perm) = perm.map(bare) else {
        return Ok(true);
    };
    if perm.is_empty() {
        return Ok(true);
    }
    if perm.len() != 2 {
        return Err(KernelError::new(format!(
            "'perm' is of wrong length {} (!= 2)",
            perm.len()
        )));
    }
    let pp: Vec<i64> = match perm {
        // Names of the dimnames: flowcast's matrices name none.
        Value::Str(_) | Value::Factor(_) => {
            return Err(KernelError::new("'a' does not have named dimnames"));
        }
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => perm
            .as_f64_slice()
            .unwrap_or_default()
            .iter()
            .map(|&p| {
                if p.is_nan() || p.abs() >= 2_147_483_648.0 {
                    i64::MIN
                } else {
                    p.trunc() as i64 - 1
                }
            })
            .collect(),
        _ => return Err(KernelError::new("invalid 'perm' argument")),
    };
    let mut seen = [0usize; 2];
    for &p in &pp {
        match p {
            0 | 1 => seen[p as usize] += 1,
            _ => return Err(KernelError::new("value out of range in 'perm'")),
        }
    }
    if seen.contains(&0) {
        return Err(KernelError::new("invalid 'perm' argument"));
    }
    Ok(pp[0] == 1)
}

/// asLogical of `resize`: NA (or what is no logical) is R's error.
fn resize_flag(v: Option<&Value>) -> Result<bool, KernelError> {
    let bad = || KernelError::new("'resize' must be TRUE or FALSE");
    match v.map(bare) {
        None => Ok(true),
        Some(Value::Str(s)) if !s.is_empty() => match s[0].as_str() {
            "TRUE" | "true" | "True" | "T" => Ok(true),
            "FALSE" | "false" | "False" | "F" => Ok(false),
            _ => Err(bad()),
        },
        Some(v) => match v.as_f64_slice().and_then(|d| d.first().copied()) {
            Some(x) if !x.is_nan() => Ok(x != 0.0),
            _ => Err(bad()),
        },
    }
}

fn aperm_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let a = args.get("a").ok_or_else(|| missing("a"))?;
    let Some((r, c)) = a.dims() else {
        return Err(KernelError::new("invalid first argument, must be an array"));
    };
    let swap = swaps(args.get("perm"))?;
    let resize = resize_flag(args.get("resize"))?;
    if !swap {
        return Ok(bare(a).clone());
    }
    // resize = FALSE keeps dim(a) over the permuted elements.
    let (nr, nc) = if resize { (c, r) } else { (r, c) };
    Ok(match bare(a) {
        Value::Mat(m) => Value::Mat(DMatrix::from_column_slice(nr, nc, m.transpose().as_slice())),
        Value::BoolMat(m) => {
            Value::BoolMat(DMatrix::from_column_slice(nr, nc, m.transpose().as_slice()))
        }
        Value::ComplexMat(m) => {
            Value::ComplexMat(DMatrix::from_column_slice(nr, nc, m.transpose().as_slice()))
        }
        _ => return Err(KernelError::new("invalid first argument, must be an array")),
    })
}

fn aperm_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let swapped = |rows: &Option<usize>, cols: &Option<usize>| {
        let resize = args
            .ty("resize")
            .and_then(Type::const_scalar)
            .is_none_or(|x| x != 0.0);
        let perm = args.ty("perm").and_then(Type::const_nums);
        match perm {
            Some(p) if p.len() == 2 && p[0].trunc() == 1.0 => (*rows, *cols),
            _ if !resize => (*rows, *cols),
            _ if args.ty("perm").is_some_and(|t| !matches!(t, Type::Null)) && perm.is_none() => {
                if rows == cols {
                    (*rows, *cols)
                } else {
                    (None, None)
                }
            }
            _ => (*cols, *rows),
        }
    };
    match args.ty("a") {
        Some(Type::Mat { rows, cols }) => {
            let (rows, cols) = swapped(rows, cols);
            Ok(Type::Mat { rows, cols })
        }
        Some(Type::BoolMat { rows, cols }) => {
            let (rows, cols) = swapped(rows, cols);
            Ok(Type::BoolMat { rows, cols })
        }
        Some(Type::ComplexMat { rows, cols }) => {
            let (rows, cols) = swapped(rows, cols);
            Ok(Type::ComplexMat { rows, cols })
        }
        Some(Type::Any) | None => Ok(Type::Any),
        Some(t) => Err(args.error(
            "a",
            format!("invalid first argument, must be an array: {}", t.describe()),
        )),
    }
}

/// R's `as.integer` of a whole-number result: NA past the integer range.
fn as_integer(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= 2_147_483_648.0 {
        NA
    } else {
        x.trunc()
    }
}

/// The numbers of a numeric or logical argument; R's error for text
/// (from the arithmetic `ind - 1L`).
fn numeric_arg<'a>(v: &'a Value) -> Result<std::borrow::Cow<'a, [f64]>, KernelError> {
    match bare(v) {
        Value::Null => Ok(std::borrow::Cow::Borrowed(&[])),
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            Ok(v.as_f64_slice().unwrap_or_default())
        }
        _ => Err(KernelError::new("non-numeric argument to binary operator")),
    }
}

/// which.R's arrayInd: `1 + (ind - 1) %/% prod(.dim[seq_len(i - 1)]) %%
/// .dim[i]` in column i, as R's loop computes it (`%%` and `%/%` as R's
/// arithmetic has them, the product built up column by column).
fn array_ind_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let ind = numeric_arg(args.get("ind").ok_or_else(|| missing("ind"))?)?;
    let dim = numeric_arg(args.get(".dim").ok_or_else(|| missing(".dim"))?)?;
    let use_names = match args.get("useNames") {
        None => false,
        Some(v) => super::triangle::if_condition(v)?,
    };
    let m = ind.len();
    let rank = dim.len();
    super::alloc::ensure_room(m as f64 * rank as f64 * 8.0)?;
    let wh1: Vec<f64> = ind.iter().map(|&i| i - 1.0).collect();
    let d1 = dim.first().copied().unwrap_or(NA);
    let first: Vec<f64> = wh1.iter().map(|&w| 1.0 + r_mod(w, d1)).collect();
    let mut out = Vec::with_capacity(m * rank);
    if rank > 0 {
        out.extend(first.iter().copied());
    }
    let mut denom = 1.0;
    for i in 1..rank {
        denom *= dim[i - 1];
        out.extend(wh1.iter().map(|&w| 1.0 + r_mod(r_intdiv(w, denom), dim[i])));
    }
    let out: Vec<f64> = out.into_iter().map(as_integer).collect();
    let value = Value::Mat(DMatrix::from_vec(m, rank, out));
    if !use_names {
        return Ok(value);
    }
    // list(.dimnames[[1L]][ind], names(.dimnames) or "row", "col").
    let dn = args.get(".dimnames").map(bare);
    let (rows, dnn) = match dn {
        Some(Value::List(l)) => {
            let rows = l.items.first().and_then(|r| match bare(r) {
                Value::Str(s) => Some(
                    first
                        .iter()
                        .map(|&k| {
                            let k = as_integer(k);
                            if k >= 1.0 && (k as usize) <= s.len() {
                                s[k as usize - 1].clone()
                            } else {
                                "NA".to_string()
                            }
                        })
                        .collect::<Vec<_>>(),
                ),
                _ => None,
            });
            let dnn = l.names.clone().filter(|n| n.iter().any(|s| !s.is_empty()));
            (rows, dnn)
        }
        _ => (None, None),
    };
    let cols = dnn.unwrap_or_else(|| {
        if rank == 2 {
            vec!["row".to_string(), "col".to_string()]
        } else {
            (1..=rank).map(|i| format!("dim{i}")).collect()
        }
    });
    Ok(dimnamed(value, rows, Some(cols)))
}

fn r_mod(x: f64, y: f64) -> f64 {
    super::arith::r_mod(x, y)
}

fn r_intdiv(x: f64, y: f64) -> f64 {
    super::arith::r_intdiv(x, y)
}

fn array_ind_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["ind", ".dim"] {
        match args.ty(name) {
            None | Some(Type::Any | Type::Null) => {}
            Some(t) if t.is_numeric() => {}
            Some(t) => {
                return Err(args.error(
                    name,
                    format!("non-numeric argument to binary operator: {}", t.describe()),
                ))
            }
        }
    }
    Ok(Type::Mat {
        rows: args.ty("ind").and_then(Type::len),
        cols: args.ty(".dim").and_then(Type::len),
    })
}

/// array.R's slice.index: each element's index along MARGIN (several
/// margins numbered together, the first varying fastest), shaped as `x`.
fn slice_index_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").ok_or_else(|| missing("x"))?;
    let margin = args.get("MARGIN").ok_or_else(|| missing("MARGIN"))?;
    let dims = x.dims();
    let d: Vec<usize> = match dims {
        Some((r, c)) => vec![r, c],
        None => vec![x.len()],
    };
    let n = d.len();
    let margin: Vec<f64> = match bare(margin) {
        Value::Str(_) | Value::Factor(_) => {
            return Err(KernelError::new("'x' must have named dimnames"))
        }
        Value::Null => Vec::new(),
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        _ => {
            return Err(KernelError::new(
                "comparison (<) is possible only for atomic and list types",
            ))
        }
    };
    // if(!length(MARGIN) || any(MARGIN < 1L) || any(MARGIN > n)): `any`
    // is NA (an error in `if`) only when no element is TRUE.
    if margin.is_empty() {
        return Err(KernelError::new("incorrect value for 'MARGIN'"));
    }
    let below = margin.iter().any(|&m| !m.is_nan() && m < 1.0);
    let above = margin.iter().any(|&m| !m.is_nan() && m > n as f64);
    if below || above {
        return Err(KernelError::new("incorrect value for 'MARGIN'"));
    }
    if margin.iter().any(|m| m.is_nan()) {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let len: usize = d.iter().product();
    if d.contains(&0) {
        return Ok(Value::nums_shaped(Vec::new(), dims));
    }
    super::alloc::ensure_room(len as f64 * 8.0)?;
    // Subscripts truncate: d[1.5] is d[1].
    let margin: Vec<usize> = margin.iter().map(|&m| m as usize - 1).collect();
    let mut out = Vec::with_capacity(len);
    for e in 0..len {
        let coord = |k: usize| -> usize {
            let stride: usize = d[..k].iter().product();
            (e / stride) % d[k]
        };
        let mut y = coord(margin[0]) as f64 + 1.0;
        let mut p = d[margin[0]] as f64;
        for &m in &margin[1..] {
            y += p * coord(m) as f64;
            p *= d[m] as f64;
        }
        out.push(y);
    }
    Ok(Value::nums_shaped(out, dims))
}

fn slice_index_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(
            Type::Mat { rows, cols }
            | Type::BoolMat { rows, cols }
            | Type::ComplexMat { rows, cols },
        ) => Type::Mat {
            rows: *rows,
            cols: *cols,
        },
        Some(Type::Any) | None => Type::Any,
        Some(t) => match t.len() {
            Some(n) => Type::num(n),
            None => Type::num_unknown(),
        },
    })
}
