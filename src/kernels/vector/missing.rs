//! `complete.cases(...)`, `na.omit(object)` and its siblings `na.exclude`,
//! `na.fail` and `na.pass`, as R 4.2's: a case is an element of a vector or
//! a row of a matrix or data frame, complete when nothing in it is NA (or
//! NaN); `na.omit` and `na.exclude` keep the complete ones.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::factor::text_is_na;
use crate::kernels::frame::{as_frame, frame_fields};
use crate::kernels::index::index_drop;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// Each case of `v` that has an NA; `None` for what has no cases.
fn incomplete(v: &Value) -> Option<Vec<bool>> {
    let column = |v: &Value| -> Option<Vec<bool>> {
        Some(match v {
            Value::Num(x) => x.iter().map(|x| x.is_nan()).collect(),
            Value::Str(s) => s.iter().map(|s| text_is_na(s)).collect(),
            Value::Bool(b) => b.iter().map(Option::is_none).collect(),
            Value::Factor(f) => f.codes.iter().map(Option::is_none).collect(),
            _ => return None,
        })
    };
    if let Some(l) = as_frame(v) {
        let mut out = vec![false; crate::kernels::frame::nrow(l)];
        for c in &l.items {
            for (o, na) in out.iter_mut().zip(column(c)?) {
                *o |= na;
            }
        }
        return Some(out);
    }
    match v {
        Value::Mat(m) => Some(
            (0..m.nrows())
                .map(|i| m.row(i).iter().any(|x| x.is_nan()))
                .collect(),
        ),
        Value::BoolMat(m) => Some(
            (0..m.nrows())
                .map(|i| m.row(i).iter().any(Option::is_none))
                .collect(),
        ),
        other => column(other),
    }
}

pub(super) fn complete_cases_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut out: Option<Vec<bool>> = None;
    for (_, v) in args.dots() {
        if matches!(v, Value::Null) {
            continue;
        }
        let na = incomplete(v).ok_or_else(|| {
            KernelError::new(format!("invalid 'type' ({}) of argument", v.type_name()))
        })?;
        match &mut out {
            None => out = Some(na),
            Some(o) if o.len() != na.len() => {
                return Err(KernelError::new("not all arguments have the same length"))
            }
            Some(o) => o.iter_mut().zip(na).for_each(|(a, b)| *a |= b),
        }
    }
    let out = out.ok_or_else(|| KernelError::new("no input has determined the number of cases"))?;
    Ok(Value::Bool(out.into_iter().map(|na| Some(!na)).collect()))
}

pub(super) fn complete_cases_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mut len = None;
    for (_, t) in args.dots() {
        let n = match t {
            Type::Mat { rows, .. } | Type::BoolMat { rows, .. } => *rows,
            t if frame_fields(t).is_some() => crate::kernels::frame::type_dims(t).and_then(|d| d.0),
            t => t.len(),
        };
        len = len.or(n);
    }
    Ok(Type::logical(len))
}

pub(super) fn na_omit_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    omit(args, "omit")
}

pub(super) fn na_exclude_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    omit(args, "exclude")
}

/// `na.fail(object)`: the object when nothing in it is NA.
pub(super) fn na_fail_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "object");
    match incomplete(crate::kernels::names::bare(x)) {
        Some(na) if na.iter().any(|&b| b) => Err(KernelError::new("missing values in object")),
        _ => Ok(x.clone()),
    }
}

pub(super) fn na_pass_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(super::arg_or_null(args, "object").clone())
}

/// na.omit.default and na.omit.data.frame (nafns.R), and their
/// na.exclude twins: the complete cases, with the dropped ones recorded
/// in the `na.action` attribute (class `class`) where the value can hold
/// one. A matrix's dropped rows are listed in the order its NAs come in
/// column-major order, as na.omit.default's `unique((omit-1) %% d[1] + 1)`
/// lists them.
fn omit(args: &Args<&Value>, class: &str) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "object");
    let bare = crate::kernels::names::bare(x);
    let Some(na) = incomplete(bare) else {
        return Ok(x.clone());
    };
    let keep: Vec<usize> = (0..na.len()).filter(|&i| !na[i]).collect();
    if keep.len() == na.len() {
        return Ok(x.clone());
    }
    if as_frame(bare).is_some() {
        let rows = Value::Num(keep.iter().map(|&i| i as f64 + 1.0).collect());
        return index_drop(bare, &[Some(rows), None], false);
    }
    let (names, rownames, colnames) = match x {
        Value::Named(n) => (n.names.clone(), n.rownames.clone(), n.colnames.clone()),
        _ => (None, None, None),
    };
    if let Some((r, _)) = bare.dims() {
        let mut dropped: Vec<usize> = Vec::new();
        let cells: Vec<bool> = match bare {
            Value::Mat(m) => m.iter().map(|v| v.is_nan()).collect(),
            Value::BoolMat(m) => m.iter().map(Option::is_none).collect(),
            _ => Vec::new(),
        };
        for (k, _) in cells.iter().enumerate().filter(|(_, c)| **c) {
            if !dropped.contains(&(k % r)) {
                dropped.push(k % r);
            }
        }
        let rows = Value::Num(keep.iter().map(|&i| i as f64 + 1.0).collect());
        let kept = index_drop(bare, &[Some(rows), None], false)?;
        let kept_rows = rownames
            .as_ref()
            .map(|n| keep.iter().map(|&i| n[i].clone()).collect());
        let kept = crate::kernels::names::dimnamed(kept, kept_rows, colnames);
        let dropped_names = rownames.map(|n| dropped.iter().map(|&i| n[i].clone()).collect());
        let record = crate::kernels::na_action::record(&dropped, dropped_names, class);
        return Ok(crate::kernels::names::with_attr(kept, "na.action", record));
    }
    let dropped: Vec<usize> = (0..na.len()).filter(|&i| na[i]).collect();
    let kept = super::pick(bare, &keep);
    let kept = match &names {
        Some(n) => crate::kernels::names::named(kept, keep.iter().map(|&i| n[i].clone()).collect()),
        None => kept,
    };
    let dropped_names = names.map(|n| dropped.iter().map(|&i| n[i].clone()).collect());
    let record = crate::kernels::na_action::record(&dropped, dropped_names, class);
    Ok(crate::kernels::names::with_attr(kept, "na.action", record))
}

pub(super) fn na_omit_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("object").cloned().unwrap_or(Type::Null);
    Ok(match &x {
        Type::Mat { cols, .. } => Type::Mat {
            rows: None,
            cols: *cols,
        },
        Type::BoolMat { cols, .. } => Type::BoolMat {
            rows: None,
            cols: *cols,
        },
        t if frame_fields(t).is_some() => {
            crate::kernels::frame::index_type(t, &[Some(Type::num_unknown()), None])
                .and_then(Result::ok)
                .unwrap_or(Type::Any)
        }
        Type::Num { .. } | Type::Str { .. } | Type::Bool { .. } | Type::Factor { .. } => {
            super::like(&x, None)
        }
        other => other.clone(),
    })
}

/// na.fail and na.pass return their object as it is.
pub(super) fn na_same_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(args.ty("object").cloned().unwrap_or(Type::Null))
}
