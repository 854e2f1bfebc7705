//! `cbind` and `rbind` of numeric or character vectors and matrices (R's `do_bind`
//! rules: vectors are recycled to the matrices' extent, or to the longest
//! vector when there is no matrix; empty vectors are dropped). `rbind`
//! with a data frame stacks rows (`frame::rbind_frames`); `cbind` with one
//! joins columns (`data_frame::cbind_frames`).

use std::borrow::Cow;

use nalgebra::DMatrix;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::frame;
use crate::kernels::{Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value, DOTS};

const BIND_PARAMS: &[Param] = &[DOTS];

pub(super) const CBIND: Kernel = Kernel {
    name: "cbind",
    params: BIND_PARAMS,
    random: false,
    shape: bind_shape,
    eval: bind_eval,
};

pub(super) const RBIND: Kernel = Kernel {
    name: "rbind",
    params: BIND_PARAMS,
    random: false,
    shape: bind_shape,
    eval: bind_eval,
};

/// One piece: its numbers or strings (column-major) and, for a matrix,
/// its shape.
struct Piece<'a, T: Clone> {
    /// Its 1-based position among the arguments, for messages.
    arg: usize,
    data: Cow<'a, [T]>,
    /// `(rows, cols)` of a matrix.
    mat: Option<(usize, usize)>,
}

/// The bound matrix, written in its final column-major order: `cbind`
/// appends each piece's columns; `rbind` builds each column from every
/// piece's stretch of it (a matrix's column is contiguous), so neither
/// transposes a copy. A vector is recycled to the extent.
fn bind<T: nalgebra::Scalar>(
    parts: &[Piece<T>],
    nulls: usize,
    by_col: bool,
    warnings: &mut Vec<String>,
    zero: T,
) -> Result<DMatrix<T>, String> {
    // A matrix's extent across the binding, and the slices it adds along it.
    let across = |(r, c): (usize, usize)| if by_col { (r, c) } else { (c, r) };
    let mut extent = None;
    for p in parts {
        if let Some(shape) = p.mat {
            let e = across(shape).0;
            match extent {
                None => extent = Some(e),
                Some(x) if x != e => {
                    return Err(format!(
                        "number of {} of matrices must match (see arg {})",
                        if by_col { "rows" } else { "columns" },
                        p.arg
                    ))
                }
                _ => {}
            }
        }
    }
    let extent = extent.unwrap_or_else(|| parts.iter().map(|p| p.data.len()).max().unwrap_or(0));
    // Empty vectors add nothing, unless the result has no extent: then
    // each, NULL included, is a slice (R's rule for S compatibility).
    let slices = |p: &Piece<T>| match p.mat {
        Some(shape) => across(shape).1,
        None => usize::from(!p.data.is_empty()),
    };
    let mut n_slices: usize = parts.iter().map(slices).sum();
    if extent == 0 {
        n_slices += nulls
            + parts
                .iter()
                .filter(|p| p.mat.is_none() && p.data.is_empty())
                .count();
    }
    for p in parts {
        let len = p.data.len();
        if p.mat.is_none() && len > 0 && extent % len != 0 {
            warnings.push(format!(
                "number of {} of result is not a multiple of vector length (arg {})",
                if by_col { "rows" } else { "columns" },
                p.arg
            ));
        }
    }
    let mut out: Vec<T> = Vec::with_capacity(extent.saturating_mul(n_slices));
    if by_col {
        for p in parts {
            match p.mat {
                Some(_) => out.extend_from_slice(&p.data),
                None if p.data.len() == extent => out.extend_from_slice(&p.data),
                None if p.data.is_empty() => {}
                None => out.extend(p.data.iter().cycle().take(extent).cloned()),
            }
        }
        return Ok(DMatrix::from_vec(extent, n_slices, out));
    }
    // Each piece fills its rows of every column: a stride of `n_slices`.
    out.resize(extent.saturating_mul(n_slices), zero);
    if out.is_empty() {
        return Ok(DMatrix::from_vec(n_slices, extent, out));
    }
    let mut row = 0;
    for p in parts {
        match p.mat {
            Some((0, _)) => {}
            Some((rows, _)) => {
                for (column, slice) in out
                    .chunks_exact_mut(n_slices)
                    .zip(p.data.chunks_exact(rows))
                {
                    column[row..row + rows].clone_from_slice(slice);
                }
                row += rows;
            }
            None if p.data.is_empty() => {}
            None => {
                let mine = out.iter_mut().skip(row).step_by(n_slices);
                for (o, v) in mine.zip(p.data.iter().cycle()) {
                    *o = v.clone();
                }
                row += 1;
            }
        }
    }
    Ok(DMatrix::from_vec(n_slices, extent, out))
}

fn bind_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let by_col = args.func == "cbind";
    if args.dots().any(|(_, v)| frame::as_frame(v).is_some()) {
        if by_col {
            return crate::kernels::data_frame::cbind_frames(args.dots(), ctx);
        }
        return frame::rbind_frames(&args.dots().collect::<Vec<_>>(), ctx);
    }
    // cbind.ts: R dispatches on the series among the arguments.
    if by_col
        && args
            .dots()
            .any(|(_, v)| crate::kernels::ts::tsp_of(v).is_some())
    {
        return crate::kernels::ts_bind::cbind_ts(args.dots(), true, ctx);
    }
    // cbind reads names for the data frames it makes (a named vector's
    // names are their row names); a matrix is bound by its numbers.
    let bare: Vec<Cow<Value>> = args
        .dots()
        .map(|(_, v)| crate::kernels::names::strip(v))
        .collect();
    // Text among the pieces makes a character matrix: every piece as R's
    // as.character gives it.
    if bare
        .iter()
        .any(|v| matches!(**v, Value::Str(_) | Value::StrMat(_)))
    {
        return bind_text(args, &bare, by_col, ctx);
    }
    let mut parts = Vec::new();
    let mut nulls = 0;
    for (arg, v) in (1..).zip(bare.iter().map(|v| &**v)) {
        match v {
            Value::Null => nulls += 1,
            Value::Mat(m) => parts.push(Piece {
                arg,
                data: Cow::Borrowed(m.as_slice()),
                mat: Some((m.nrows(), m.ncols())),
            }),
            other => parts.push(Piece {
                arg,
                data: other.as_f64_slice().ok_or_else(|| {
                    KernelError::new(format!(
                        "{}() needs numeric vectors or matrices, not {}",
                        args.func,
                        other.type_name()
                    ))
                })?,
                mat: other.dims(),
            }),
        }
    }
    if parts.is_empty() {
        return Ok(Value::Null);
    }
    let mut warnings = Vec::new();
    let m = bind(&parts, nulls, by_col, &mut warnings, 0.0).map_err(KernelError)?;
    for w in warnings {
        ctx.warn(w);
    }
    Ok(bound_names(args, Value::Mat(m), by_col))
}

/// `cbind`/`rbind` with text among the pieces: numbers and logicals are
/// turned into text as `as.character` does (1 "1", 0.5 "0.5", NA "NA").
fn bind_text(
    args: &Args<&Value>,
    bare: &[Cow<Value>],
    by_col: bool,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let mut parts = Vec::new();
    let mut nulls = 0;
    for (arg, v) in (1..).zip(bare.iter().map(|v| &**v)) {
        if matches!(v, Value::Null) {
            nulls += 1;
            continue;
        }
        let text = match v {
            Value::StrMat(m) => Cow::Borrowed(m.as_slice()),
            Value::BoolMat(m) => Cow::Owned(
                m.iter()
                    .map(|b| match b {
                        Some(true) => "TRUE".to_string(),
                        Some(false) => "FALSE".to_string(),
                        None => "NA".to_string(),
                    })
                    .collect(),
            ),
            Value::Num(_) | Value::Mat(_) | Value::Str(_) | Value::Bool(_) => Cow::Owned(
                crate::kernels::factor::as_text(v)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|t| t.unwrap_or_else(|| "NA".to_string()))
                    .collect(),
            ),
            other => {
                return Err(KernelError::new(format!(
                    "{}() binds numbers, logicals or text, not {}",
                    args.func,
                    other.type_name()
                )))
            }
        };
        parts.push(Piece {
            arg,
            data: text,
            mat: v.dims(),
        });
    }
    let mut warnings = Vec::new();
    let m = bind(&parts, nulls, by_col, &mut warnings, String::new()).map_err(KernelError)?;
    for w in warnings {
        ctx.warn(w);
    }
    Ok(bound_names(args, Value::StrMat(m), by_col))
}

/// The bound matrix with R's dimnames (do_bind at `deparse.level = 1`):
/// along the binding, each matrix's own names and each vector's tag (the
/// evaluator tags a bare symbol with its name), blank where there is none,
/// and none at all when all are blank; across it, the first matrix's names
/// that way, or else the first vector's names that span it.
fn bound_names(args: &Args<&Value>, m: Value, by_col: bool) -> Value {
    use crate::kernels::names;
    let (nr, nc) = m.dims().unwrap_or((0, 0));
    let extent = if by_col { nr } else { nc };
    let mut along: Vec<String> = Vec::new();
    let mut any_along = false;
    let mut across: Option<Vec<String>> = None;
    for (tag, v) in args.dots() {
        let bare = names::bare(v);
        match bare {
            // Slices only when the result has no extent (see `bind`).
            Value::Null | Value::Num(_) | Value::Bool(_) | Value::Str(_)
                if extent == 0 && bare.is_empty() =>
            {
                any_along |= tag.is_some();
                along.push(tag.unwrap_or_default().to_string());
            }
            Value::Null => {}
            Value::Mat(_) | Value::BoolMat(_) | Value::StrMat(_) => {
                let (xr, xc) = bare.dims().unwrap_or((0, 0));
                let (rows, cols) = names::dimnames(v);
                let (own, other) = if by_col { (cols, rows) } else { (rows, cols) };
                let count = if by_col { xc } else { xr };
                match own {
                    Some(n) => {
                        any_along = true;
                        along.extend(n.iter().cloned());
                    }
                    None => along.extend((0..count).map(|_| String::new())),
                }
                if across.is_none() {
                    across = other.map(<[String]>::to_vec);
                }
            }
            _ if bare.is_empty() => {}
            _ => {
                any_along |= tag.is_some();
                along.push(tag.unwrap_or_default().to_string());
                if across.is_none() {
                    across = names::names(v)
                        .filter(|n| n.len() == extent)
                        .map(<[String]>::to_vec);
                }
            }
        }
    }
    let along = any_along.then_some(along);
    if along.is_none() && across.is_none() {
        return m;
    }
    let (rows, cols) = if by_col {
        (across, along)
    } else {
        (along, across)
    };
    names::dimnamed(m, rows, cols)
}

fn bind_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let by_col = args.func == "cbind";
    if args.dots().any(|(_, t)| frame::frame_fields(t).is_some()) {
        if by_col {
            return crate::kernels::data_frame::cbind_frames_type(args.dots())
                .map_err(|(k, m)| args.dots_error(k, m));
        }
        let parts: Vec<&Type> = args.dots().map(|(_, t)| t).collect();
        return Ok(frame::rbind_frames_type(&parts).unwrap_or(Type::Any));
    }
    let mut extent: Option<Option<usize>> = None;
    let mut max_len = Some(0usize);
    let mut slices = Some(0usize);
    let mut any = false;
    let mut empties = 0;
    let mut text = false;
    let add = |s: &mut Option<usize>, n: Option<usize>| *s = s.zip(n).map(|(a, b)| a + b);
    for (k, (_, t)) in args.dots().enumerate() {
        match t {
            Type::Null => empties += 1,
            Type::Mat { rows, cols } | Type::StrMat { rows, cols } => {
                any = true;
                text |= matches!(t, Type::StrMat { .. });
                let (e, s) = if by_col {
                    (*rows, *cols)
                } else {
                    (*cols, *rows)
                };
                if let (Some(Some(x)), Some(e)) = (extent, e) {
                    if x != e {
                        return Err(args.dots_error(
                            k,
                            format!(
                                "number of {} of matrices must match (see arg {})",
                                if by_col { "rows" } else { "columns" },
                                k + 1
                            ),
                        ));
                    }
                }
                if extent.flatten().is_none() {
                    extent = Some(e);
                }
                add(&mut slices, s);
            }
            Type::Num { len, .. } | Type::Bool { len, .. } | Type::Str { len, .. } => {
                any = true;
                text |= matches!(t, Type::Str { .. });
                max_len = max_len.zip(*len).map(|(a, b)| a.max(b));
                empties += usize::from(*len == Some(0));
                add(
                    &mut slices,
                    if *len == Some(0) {
                        Some(0)
                    } else {
                        len.map(|_| 1)
                    },
                );
            }
            Type::Any => return Ok(Type::Any),
            other => {
                return Err(args.dots_error(
                    k,
                    format!(
                        "{}() needs numeric vectors or matrices, not {}",
                        args.func,
                        other.describe()
                    ),
                ))
            }
        }
    }
    if !any {
        return Ok(Type::Null);
    }
    let e = extent.unwrap_or(max_len);
    // With no extent, each empty argument is a slice (see `bind`).
    match e {
        Some(0) => add(&mut slices, Some(empties)),
        None if empties > 0 => slices = None,
        _ => {}
    }
    let (rows, cols) = if by_col { (e, slices) } else { (slices, e) };
    Ok(if text {
        Type::StrMat { rows, cols }
    } else {
        Type::Mat { rows, cols }
    })
}
