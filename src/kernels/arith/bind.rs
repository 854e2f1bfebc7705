//! `cbind` and `rbind` of numeric vectors and matrices (R's `do_bind`
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

/// One piece: its numbers (column-major) and, for a matrix, its extent
/// along the binding direction's other axis and the number of slices it
/// contributes. For `cbind` a slice is a column.
struct Piece<'a> {
    data: Cow<'a, [f64]>,
    /// `(extent, slices)` of a matrix, seen in cbind orientation.
    mat: Option<(usize, usize)>,
}

fn bind(parts: &[Piece], by_col: bool) -> Result<DMatrix<f64>, String> {
    let mut extent = None;
    for (k, p) in parts.iter().enumerate() {
        if let Some((e, _)) = p.mat {
            match extent {
                None => extent = Some(e),
                Some(x) if x != e => {
                    return Err(format!(
                        "number of {} of matrices must match (see arg {})",
                        if by_col { "rows" } else { "columns" },
                        k + 1
                    ))
                }
                _ => {}
            }
        }
    }
    let extent = extent.unwrap_or_else(|| parts.iter().map(|p| p.data.len()).max().unwrap_or(0));
    // In cbind orientation: `extent` rows, one column per vector.
    let mut cols: Vec<f64> = Vec::new();
    let mut ncol = 0;
    for p in parts {
        match p.mat {
            Some((_, slices)) => {
                cols.extend_from_slice(&p.data);
                ncol += slices;
            }
            None if p.data.is_empty() => {}
            None => {
                cols.extend((0..extent).map(|i| p.data[i % p.data.len()]));
                ncol += 1;
            }
        }
    }
    let m = DMatrix::from_vec(extent, ncol, cols);
    Ok(if by_col { m } else { m.transpose() })
}

fn bind_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let by_col = args.func == "cbind";
    if args.dots().any(|(_, v)| frame::as_frame(v).is_some()) {
        if by_col {
            return crate::kernels::data_frame::cbind_frames(args.dots(), ctx);
        }
        return frame::rbind_frames(&args.dots().collect::<Vec<_>>(), ctx);
    }
    // cbind reads names for the data frames it makes (a named vector's
    // names are their row names); a matrix is bound by its numbers.
    let bare: Vec<Cow<Value>> = args
        .dots()
        .map(|(_, v)| crate::kernels::names::strip(v))
        .collect();
    let mut parts = Vec::new();
    for v in bare.iter().map(|v| &**v) {
        match v {
            Value::Null => {}
            Value::Mat(m) if by_col => parts.push(Piece {
                data: Cow::Borrowed(m.as_slice()),
                mat: Some((m.nrows(), m.ncols())),
            }),
            Value::Mat(m) => {
                let t = m.transpose();
                parts.push(Piece {
                    mat: Some((t.nrows(), t.ncols())),
                    data: Cow::Owned(t.as_slice().to_vec()),
                });
            }
            other => parts.push(Piece {
                data: other.as_f64_slice().ok_or_else(|| {
                    KernelError::new(format!(
                        "{}() needs numeric vectors or matrices, not {}",
                        args.func,
                        other.type_name()
                    ))
                })?,
                mat: None,
            }),
        }
    }
    if parts.is_empty() {
        return Ok(Value::Null);
    }
    let m = bind(&parts, by_col).map_err(KernelError)?;
    Ok(bound_names(args, m, by_col))
}

/// The bound matrix with R's dimnames (do_bind at `deparse.level = 1`):
/// along the binding, each matrix's own names and each vector's tag (the
/// evaluator tags a bare symbol with its name), blank where there is none,
/// and none at all when all are blank; across it, the first matrix's names
/// that way, or else the first vector's names that span it.
fn bound_names(args: &Args<&Value>, m: DMatrix<f64>, by_col: bool) -> Value {
    use crate::kernels::names;
    let extent = if by_col { m.nrows() } else { m.ncols() };
    let mut along: Vec<String> = Vec::new();
    let mut any_along = false;
    let mut across: Option<Vec<String>> = None;
    for (tag, v) in args.dots() {
        let bare = names::bare(v);
        match bare {
            Value::Null => {}
            Value::Mat(x) => {
                let (rows, cols) = names::dimnames(v);
                let (own, other) = if by_col { (cols, rows) } else { (rows, cols) };
                let count = if by_col { x.ncols() } else { x.nrows() };
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
        return Value::Mat(m);
    }
    let (rows, cols) = if by_col {
        (across, along)
    } else {
        (along, across)
    };
    names::dimnamed(Value::Mat(m), rows, cols)
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
    for (k, (_, t)) in args.dots().enumerate() {
        let add = |s: &mut Option<usize>, n: Option<usize>| *s = s.zip(n).map(|(a, b)| a + b);
        match t {
            Type::Null => {}
            Type::Mat { rows, cols } => {
                any = true;
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
            Type::Num { len, .. } | Type::Bool { len, .. } => {
                any = true;
                max_len = max_len.zip(*len).map(|(a, b)| a.max(b));
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
    let (rows, cols) = if by_col { (e, slices) } else { (slices, e) };
    Ok(Type::Mat { rows, cols })
}
