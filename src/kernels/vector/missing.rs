//! `complete.cases(...)` and `na.omit(object)`, as R 4.2's: a case is an
//! element of a vector or a row of a matrix or data frame, complete when
//! nothing in it is NA (or NaN); `na.omit` keeps the complete ones.

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
    let x = super::arg_or_null(args, "object");
    let Some(na) = incomplete(x) else {
        return Ok(x.clone());
    };
    let keep: Vec<usize> = (0..na.len()).filter(|&i| !na[i]).collect();
    if as_frame(x).is_some() || matches!(x, Value::Mat(_) | Value::BoolMat(_)) {
        let rows = Value::Num(keep.iter().map(|&i| i as f64 + 1.0).collect());
        return index_drop(x, &[Some(rows), None], false);
    }
    Ok(super::pick(x, &keep))
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
