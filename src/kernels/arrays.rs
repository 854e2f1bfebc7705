//! Array indexing: `aperm`, `arrayInd` and `slice.index`, as R 4.2.2's
//! (array.c's do_aperm, which.R's arrayInd, array.R's slice.index), and
//! R's arrays of three or more dimensions.
//!
//! A matrix is flowcast's own value (`Value::Mat`); an array of more
//! dimensions is a numeric or logical vector carrying R's `dim` attribute
//! (a [`super::value::Named`] whose `attrs` hold `dim`), as R itself holds
//! it. Kernels that know nothing of arrays are handed the bare vector, which
//! is what R's `sum`, `mean`, `range` or `length` read; R's arithmetic and
//! Math functions keep the attribute (`names::carry`). The functions whose
//! result depends on the dimensions (`dim`, `x[i, j, k]`, `[<-`, `apply`,
//! `aperm`, `colSums` and kin) read them here. Shape inference types an
//! array as unknown (`Type::Any`): true, if imprecise.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::{bare, dimnamed, with_attr};
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
        name: "is.array",
        params: &[req("x")],
        random: false,
        shape: is_array_shape,
        eval: is_array_eval,
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
        Value::StrMat(m) => {
            Value::StrMat(DMatrix::from_column_slice(nr, nc, m.transpose().as_slice()))
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
        Some(Type::StrMat { rows, cols }) => {
            let (rows, cols) = swapped(rows, cols);
            Ok(Type::StrMat { rows, cols })
        }
        Some(Type::ComplexMat { rows, cols }) => {
            let (rows, cols) = swapped(rows, cols);
            Ok(Type::ComplexMat { rows, cols })
        }
        // An array, typed unknown or as what it holds.
        Some(Type::Any | Type::Num { .. } | Type::Bool { .. }) | None => Ok(Type::Any),
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
        Some(v) => super::logical::if_condition(v)?,
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
            | Type::StrMat { rows, cols }
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

/// The `dim` attribute of an array of three or more dimensions (a matrix's
/// are its own; a one-dimensional array flowcast holds as its vector).
pub fn array_dims(v: &Value) -> Option<Vec<usize>> {
    let Value::Named(n) = v else {
        return None;
    };
    let (_, d) = n.attrs.iter().find(|(k, _)| k == "dim")?;
    let d = d.as_f64_slice()?;
    let dims: Vec<usize> = d
        .iter()
        .map(|&x| (x >= 0.0 && x.fract() == 0.0).then_some(x as usize))
        .collect::<Option<_>>()?;
    // Only a vector whose length the dimensions multiply to is an array.
    let total = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
    (dims.len() >= 3 && total == Some(n.value.len())).then_some(dims)
}

/// `data` (a bare numeric or logical vector) with the dimensions `dims`,
/// as R's `dim<-` leaves it: a vector for one, a matrix for two, an array
/// for more. A length that does not fit is R's `dim<-` error.
pub fn shaped(data: Value, dims: &[usize]) -> Result<Value, KernelError> {
    let total = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
    if dims.len() >= 2 && total != Some(data.len()) {
        return Err(KernelError::new(format!(
            "dims [product {}] do not match the length of object [{}]",
            total.map_or_else(|| "NA".to_string(), |t| t.to_string()),
            data.len()
        )));
    }
    Ok(match (dims, data) {
        ([r, c], Value::Num(d)) => Value::Mat(DMatrix::from_vec(*r, *c, d)),
        ([r, c], Value::Bool(d)) => Value::BoolMat(DMatrix::from_vec(*r, *c, d)),
        ([r, c], Value::Str(d)) => Value::StrMat(DMatrix::from_vec(*r, *c, d)),
        (d, v @ (Value::Num(_) | Value::Bool(_))) if d.len() >= 3 => {
            with_attr(v, "dim", Value::Num(d.iter().map(|&x| x as f64).collect()))
        }
        (d, v) if d.len() >= 2 => {
            return Err(KernelError::new(format!(
                "flowcast's arrays of more than 2 dimensions hold numbers or logicals, not a {}",
                v.type_name()
            )))
        }
        (_, v) => v,
    })
}

/// Column-major strides of `dims`: how far one step along each moves.
fn strides(dims: &[usize]) -> Vec<usize> {
    let mut s = Vec::with_capacity(dims.len());
    let mut acc = 1usize;
    for &d in dims {
        s.push(acc);
        acc = acc.saturating_mul(d);
    }
    s
}

/// Steps `at` to the next cell of an array of extents `counts`, the first
/// varying fastest.
fn advance(at: &mut [usize], counts: &[usize]) {
    for (a, &c) in at.iter_mut().zip(counts) {
        *a += 1;
        if *a < c {
            return;
        }
        *a = 0;
    }
}

fn cells(counts: &[usize]) -> Result<usize, KernelError> {
    let n = counts
        .iter()
        .try_fold(1usize, |a, &c| a.checked_mul(c))
        .ok_or_else(|| KernelError::new("'dim' specifies too large an array"))?;
    super::alloc::ensure_room(n as f64 * 8.0)?;
    Ok(n)
}

/// Each subscript resolved over its extent (`None` subscript: all of it),
/// as R's arraySubscript does: past the end is out of bounds.
fn selections(
    indices: &[Option<&Value>],
    dims: &[usize],
) -> Result<Vec<Vec<Option<usize>>>, KernelError> {
    indices
        .iter()
        .zip(dims)
        .map(|(i, &n)| match i {
            None => Ok((0..n).map(Some).collect()),
            Some(i) => super::index::resolve(bare(i), n, true, None),
        })
        .collect()
}

/// The offsets into the array of every cell the selections pick (`None`
/// where a subscript was NA), the first subscript varying fastest.
fn picked_offsets(
    sel: &[Vec<Option<usize>>],
    dims: &[usize],
) -> Result<Vec<Option<usize>>, KernelError> {
    let counts: Vec<usize> = sel.iter().map(Vec::len).collect();
    let total = cells(&counts)?;
    let st = strides(dims);
    let mut at = vec![0usize; dims.len()];
    let mut pos = Vec::with_capacity(total);
    for _ in 0..total {
        let off = at
            .iter()
            .enumerate()
            .try_fold(0usize, |acc, (k, &a)| sel[k][a].map(|q| acc + q * st[k]));
        pos.push(off);
        advance(&mut at, &counts);
    }
    Ok(pos)
}

/// `x[i, j, k, ...]` of an array (R's ArraySubset, subset.c): one subscript
/// per dimension; with `drop`, extents of one are dropped (DropDims), down
/// to a matrix or a vector.
pub fn index_array(
    x: &Value,
    dims: &[usize],
    indices: &[Option<Value>],
    drop: bool,
) -> Result<Value, KernelError> {
    if indices.len() != dims.len() {
        return Err(KernelError::new("incorrect number of dimensions"));
    }
    let dn = array_dimnames(x);
    // A name subscript is the position of that name among its dimension's
    // dimnames (R's arraySubscript: none is out of bounds).
    let by_name: Vec<Option<Value>> = indices
        .iter()
        .enumerate()
        .map(|(k, i)| match (i.as_ref().map(bare), dn.as_ref()) {
            (Some(Value::Str(s)), Some((dn, _))) => {
                let names = dn[k].as_deref().unwrap_or_default();
                s.iter()
                    .map(|s| {
                        names
                            .iter()
                            .position(|n| n == s)
                            .map(|p| p as f64 + 1.0)
                            .ok_or_else(|| KernelError::new("subscript out of bounds"))
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(|p| Some(Value::Num(p)))
            }
            (Some(Value::Str(_)), None) => {
                Err(KernelError::new("no 'dimnames' attribute for array"))
            }
            _ => Ok(i.clone()),
        })
        .collect::<Result<_, _>>()?;
    let idx: Vec<Option<&Value>> = by_name.iter().map(Option::as_ref).collect();
    let sel = selections(&idx, dims)?;
    let pos = picked_offsets(&sel, dims)?;
    let picked = super::index::pick_value(bare(x), &pos)?;
    let kept: Vec<usize> = (0..sel.len())
        .filter(|&k| !drop || sel[k].len() != 1)
        .collect();
    let out: Vec<usize> = kept.iter().map(|&k| sel[k].len()).collect();
    let value = shaped(picked, &out)?;
    // The dimnames of the dimensions kept, and a table stays one.
    let Some((dn, dnn)) = dn else {
        return Ok(value);
    };
    let names_of = |k: usize| -> Option<Vec<String>> {
        let names = dn[k].as_ref()?;
        sel[k]
            .iter()
            .map(|p| p.and_then(|p| names.get(p).cloned()))
            .collect()
    };
    let table = super::class::class_attr(x).is_some_and(|c| c.iter().any(|c| c == "table"));
    let tnames = |ks: &[usize]| -> Option<Vec<String>> {
        let d = dnn.as_ref()?;
        Some(ks.iter().map(|&k| d[k].clone()).collect())
    };
    Ok(match kept[..] {
        [k] if out[0] > 1 || !drop => match names_of(k) {
            Some(n) => {
                let v = super::names::named(value, n);
                match tnames(&[k]).filter(|_| table) {
                    Some(d) => super::names::tabled(v, d),
                    None => v,
                }
            }
            None => value,
        },
        [r, c] => {
            let v = dimnamed(value, names_of(r), names_of(c));
            match tnames(&[r, c]).filter(|_| table) {
                Some(d) => super::names::tabled(v, d),
                None => v,
            }
        }
        _ => value,
    })
}

/// An array's dimnames attribute: each dimension's names (or none) and
/// the names of the dimnames.
pub(crate) type ArrayDimnames = (Vec<Option<Vec<String>>>, Option<Vec<String>>);

pub(crate) fn array_dimnames(x: &Value) -> Option<ArrayDimnames> {
    let Value::Named(n) = x else { return None };
    match n.attrs.iter().find(|(k, _)| k == "dimnames") {
        Some((_, Value::List(l))) => Some((
            l.items
                .iter()
                .map(|v| match bare(v) {
                    Value::Str(s) => Some(s.clone()),
                    _ => None,
                })
                .collect(),
            l.names.clone(),
        )),
        _ => None,
    }
}

/// `x[i, j, k, ...] <- value` on an array (R's ArrayAssign, subassign.c):
/// subscripts within their extents, NA positions skipped, the value
/// recycled over the cells, which must be a whole number of it.
pub fn assign_array(
    x: &Value,
    dims: &[usize],
    indices: &[Option<&Value>],
    value: &Value,
) -> Result<Value, KernelError> {
    if indices.len() != dims.len() {
        return Err(KernelError::new(if indices.len() == 2 {
            "incorrect number of subscripts on matrix"
        } else {
            "incorrect number of subscripts"
        }));
    }
    let sel = selections(indices, dims)?;
    let pos = picked_offsets(&sel, dims)?;
    let v = bare(value);
    let n = pos.len();
    if n > 0 && v.is_empty() {
        return Err(KernelError::new("replacement has length zero"));
    }
    if n > 0 && n % v.len() != 0 {
        return Err(KernelError::new(
            "number of items to replace is not a multiple of replacement length",
        ));
    }
    let base = bare(x);
    let refused = || {
        KernelError::new(format!(
            "flowcast's arrays hold numbers or logicals: a {} cannot be put into one",
            v.type_name()
        ))
    };
    let out = match (base, v) {
        (Value::Bool(b), Value::Bool(_) | Value::BoolMat(_)) => {
            let vs = v.as_logicals().ok_or_else(refused)?;
            let mut out = b.clone();
            for (k, p) in pos.iter().enumerate() {
                if let Some(p) = p {
                    out[*p] = vs[k % vs.len()];
                }
            }
            Value::Bool(out)
        }
        (
            Value::Num(_) | Value::Bool(_),
            Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_),
        ) => {
            let vs = v.as_f64_slice().ok_or_else(refused)?;
            let mut out = base.as_f64_slice().ok_or_else(refused)?.into_owned();
            for (k, p) in pos.iter().enumerate() {
                if let Some(p) = p {
                    out[*p] = vs[k % vs.len()];
                }
            }
            Value::Num(out)
        }
        _ => return Err(refused()),
    };
    shaped(out, dims)
}

/// do_aperm (array.c) on an array: `perm` (by default the dimensions
/// reversed) must name each dimension once; the result's dimensions are
/// `dim(a)[perm]`, or `dim(a)` when not `resize`.
fn aperm_array(
    a: &Value,
    dims: &[usize],
    perm: Option<&Value>,
    resize: bool,
) -> Result<Value, KernelError> {
    let k = dims.len();
    let pp: Vec<usize> = match perm.map(bare) {
        None | Some(Value::Null) => (0..k).rev().collect(),
        Some(p) if p.is_empty() => (0..k).rev().collect(),
        Some(Value::Str(_) | Value::Factor(_)) => {
            return Err(KernelError::new("'a' does not have named dimnames"))
        }
        Some(p) => {
            let v = match p {
                Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => {
                    p.as_f64_slice().unwrap_or_default()
                }
                _ => return Err(KernelError::new("invalid 'perm' argument")),
            };
            if v.len() != k {
                return Err(KernelError::new(format!(
                    "'perm' is of wrong length {} (!= {k})",
                    v.len()
                )));
            }
            let mut pp = Vec::with_capacity(k);
            for &x in v.iter() {
                if x.is_nan() || x.trunc() < 1.0 || x.trunc() > k as f64 {
                    return Err(KernelError::new("value out of range in 'perm'"));
                }
                pp.push(x.trunc() as usize - 1);
            }
            pp
        }
    };
    let mut seen = vec![false; k];
    for &p in &pp {
        seen[p] = true;
    }
    if seen.contains(&false) {
        return Err(KernelError::new("invalid 'perm' argument"));
    }
    let nd: Vec<usize> = pp.iter().map(|&p| dims[p]).collect();
    let total = cells(&nd)?;
    let st = strides(dims);
    let mut at = vec![0usize; k];
    let mut pos = Vec::with_capacity(total);
    for _ in 0..total {
        pos.push(Some((0..k).map(|m| at[m] * st[pp[m]]).sum()));
        advance(&mut at, &nd);
    }
    let picked = super::index::pick_value(bare(a), &pos)?;
    shaped(picked, if resize { &nd[..] } else { dims })
}

/// The cells of `x` taken one margin cell at a time for apply.R: for each
/// cell of the margins `s_ans` (the first fastest), the cells of the other
/// dimensions `s_call` in order.
pub(super) fn margin_slices(
    x: &Value,
    dims: &[usize],
    s_call: &[usize],
    s_ans: &[usize],
) -> Result<Vec<Value>, KernelError> {
    let st = strides(dims);
    let d_call: Vec<usize> = s_call.iter().map(|&d| dims[d]).collect();
    let d_ans: Vec<usize> = s_ans.iter().map(|&d| dims[d]).collect();
    let d1 = cells(&d_call)?;
    let d2 = cells(&d_ans)?;
    cells(&[d1, d2])?;
    let mut out = Vec::with_capacity(d2);
    let mut at_ans = vec![0usize; s_ans.len()];
    for _ in 0..d2 {
        let base: usize = s_ans.iter().zip(&at_ans).map(|(&d, &a)| a * st[d]).sum();
        let mut at = vec![0usize; s_call.len()];
        let mut pos = Vec::with_capacity(d1);
        for _ in 0..d1 {
            let off: usize = s_call.iter().zip(&at).map(|(&d, &a)| a * st[d]).sum();
            pos.push(Some(base + off));
            advance(&mut at, &d_call);
        }
        let slice = super::index::pick_value(bare(x), &pos)?;
        out.push(if d_call.len() >= 2 {
            shaped(slice, &d_call)?
        } else {
            slice
        });
        advance(&mut at_ans, &d_ans);
    }
    Ok(out)
}

/// R's arithmetic and comparison operators on an array (R's
/// R_binary and do_relop, arithmetic.c and relop.c): another operand with
/// dimensions must have the same ones, and a plain vector may not be
/// longer than the array.
pub fn check_conformable(func: &str, operands: &[&Value]) -> Result<(), KernelError> {
    let operator = super::names::is_operator(func);
    let [a, b] = operands else {
        return Ok(());
    };
    if !operator {
        return Ok(());
    }
    let dims = |v: &Value| array_dims(v).or_else(|| bare(v).dims().map(|(r, c)| vec![r, c]));
    let (da, db) = (dims(a), dims(b));
    if da.is_none() && db.is_none() {
        return Ok(());
    }
    if array_dims(a).is_none() && array_dims(b).is_none() {
        return Ok(());
    }
    match (&da, &db) {
        (Some(x), Some(y)) if x != y => Err(KernelError::new("non-conformable arrays")),
        (Some(_), None) | (None, Some(_)) => {
            let (arr, other) = if da.is_some() { (a, b) } else { (b, a) };
            let (n, m) = (bare(arr).len(), bare(other).len());
            if m > n && n > 0 {
                return Err(KernelError::new(format!(
                    "dims [product {n}] do not match the length of object [{m}]"
                )));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The functions whose result on an array depends on its dimensions, which
/// the evaluator hands the array itself ([`array_call`]).
pub fn reads_dims(func: &str) -> bool {
    matches!(
        func,
        "apply"
            | "aperm"
            | "colSums"
            | "rowSums"
            | "colMeans"
            | "rowMeans"
            | "nrow"
            | "ncol"
            | "NROW"
            | "NCOL"
            | "t"
            | "which"
    )
}

/// `func` (one of [`reads_dims`]) on arguments of which one is an array.
pub fn array_call(args: &Args<&Value>, ctx: &mut Ctx) -> Option<Result<Value, KernelError>> {
    let first = match args.func {
        "apply" => "X",
        "aperm" => "a",
        _ => "x",
    };
    let x = args.get(first)?;
    let dims = array_dims(x)?;
    Some(match args.func {
        "nrow" | "NROW" => Ok(Value::Num(vec![dims[0] as f64])),
        "ncol" | "NCOL" => Ok(Value::Num(vec![dims[1] as f64])),
        "t" => Err(KernelError::new("argument is not a matrix")),
        "which" => match args.bool_or("arr.ind", false) {
            Ok(false) => return None,
            Ok(true) => which_array(x, &dims),
            Err(e) => Err(e),
        },
        "apply" => super::apply::apply_array(args, x, &dims, ctx),
        "aperm" => resize_flag(args.get("resize"))
            .and_then(|resize| aperm_array(x, &dims, args.get("perm"), resize)),
        _ => margin_sums(args, x, &dims, ctx),
    })
}

/// `which(x, arr.ind = TRUE)` of a logical array: which.R's arrayInd of
/// the TRUE cells, a row of subscripts each, its columns named `dim1`,
/// `dim2`, ... as R names them.
fn which_array(x: &Value, dims: &[usize]) -> Result<Value, KernelError> {
    let Value::Bool(b) = bare(x) else {
        return Err(KernelError::new("argument to 'which' is not logical"));
    };
    let at: Vec<usize> = (0..b.len()).filter(|&i| b[i] == Some(true)).collect();
    let k = dims.len();
    let mut out = Vec::with_capacity(at.len() * k);
    let mut stride = 1usize;
    for &d in dims {
        out.extend(at.iter().map(|&i| ((i / stride) % d + 1) as f64));
        stride *= d;
    }
    let m = Value::Mat(DMatrix::from_vec(at.len(), k, out));
    Ok(dimnamed(
        m,
        None,
        Some((1..=k).map(|i| format!("dim{i}")).collect()),
    ))
}

/// colSums, rowSums, colMeans and rowMeans of an array (R's colSums in
/// colSums.R): the array read as a matrix of `prod(dim(x)[1:dims])` rows,
/// the result given the dimensions left (`dim(x)[-(1:dims)]` for the
/// column functions, `dim(x)[1:dims]` for the row ones) when more than one.
fn margin_sums(
    args: &Args<&Value>,
    x: &Value,
    dims: &[usize],
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let invalid = || KernelError::new("invalid 'dims'");
    let nd = match args.get("dims").map(bare) {
        None => 1.0,
        Some(v) => v.as_scalar().ok_or_else(invalid)?,
    };
    if nd.is_nan() || nd.trunc() < 1.0 || nd.trunc() > (dims.len() - 1) as f64 {
        return Err(invalid());
    }
    let nd = nd.trunc() as usize;
    let n: usize = dims[..nd].iter().product();
    let p: usize = dims[nd..].iter().product();
    let data = bare(x)
        .as_f64_slice()
        .ok_or_else(|| KernelError::new("'x' must be numeric"))?
        .into_owned();
    let m = Value::Mat(DMatrix::from_vec(n, p, data));
    let kernel = super::registry()
        .get(args.func)
        .ok_or_else(|| KernelError::new(format!("{}() is missing", args.func)))?;
    let mut given: Vec<(Option<String>, &Value)> = vec![(None, &m)];
    if let Some(rm) = args.get("na.rm") {
        given.push((Some("na.rm".into()), rm));
    }
    let matched = Args::match_call(kernel.name, kernel.params, given)
        .map_err(|e| KernelError::new(e.message))?;
    let out = kernel.call(&matched, ctx)?;
    let kept = if args.func.starts_with("col") {
        &dims[nd..]
    } else {
        &dims[..nd]
    };
    if kept.len() > 1 {
        shaped(super::names::strip_value(out), kept)
    } else {
        Ok(out)
    }
}

/// R's `is.array`: a `dim` attribute (a matrix, an array, a one-way table).
fn is_array_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").ok_or_else(|| missing("x"))?;
    Ok(Value::Bool(vec![Some(super::class::dim_count(x) > 0)]))
}

fn is_array_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::logical(Some(1)))
}
