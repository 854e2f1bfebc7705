//! `ifelse(test, yes, no)` as R's closure computes it: the answer starts
//! as `test` (so keeps its dims and its NAs), and takes its type from the
//! branches actually used (`ifelse(TRUE, 1, "a")` is numeric).

use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::NA;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Logical,
    Number,
    Text,
}

fn kind(v: &Value, which: &str) -> Result<Kind, KernelError> {
    Ok(match v {
        Value::Bool(_) | Value::BoolMat(_) | Value::Null => Kind::Logical,
        Value::Num(_) | Value::Mat(_) => Kind::Number,
        Value::Str(_) | Value::StrMat(_) => Kind::Text,
        other => {
            return Err(KernelError::new(format!(
                "ifelse(): '{which}' must be a vector, not {}",
                other.type_name()
            )))
        }
    })
}

fn text_of(v: &Value, i: usize) -> String {
    match v {
        Value::Str(_) | Value::StrMat(_) => {
            let s = v.as_strs().unwrap_or_default();
            s[i % s.len()].clone()
        }
        other => {
            let l = other.as_f64_slice().unwrap_or_default();
            match other {
                Value::Bool(_) | Value::BoolMat(_) => match l[i % l.len()] {
                    x if x.is_nan() => "NA".into(),
                    x if x != 0.0 => "TRUE".into(),
                    _ => "FALSE".into(),
                },
                _ => crate::kernels::data::r_num_to_string(l[i % l.len()]),
            }
        }
    }
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let test = super::arg_or_null(args, "test");
    let yes = super::arg_or_null(args, "yes");
    let no = super::arg_or_null(args, "no");
    // storage.mode(test) <- "logical": text as as.logical reads it; a
    // factor's storage mode cannot change.
    let from_text: Option<Vec<Option<bool>>> = match crate::kernels::names::bare(test) {
        Value::Factor(_) => {
            return Err(KernelError::new(
                "invalid to change the storage mode of a factor",
            ))
        }
        t @ (Value::Str(_) | Value::StrMat(_)) => Some(
            t.as_strs()
                .unwrap_or_default()
                .iter()
                .map(|s| match s.as_str() {
                    "T" | "TRUE" | "true" | "True" => Some(true),
                    "F" | "FALSE" | "false" | "False" => Some(false),
                    _ => None,
                })
                .collect(),
        ),
        _ => None,
    };
    let t: Vec<Option<bool>> = match from_text {
        Some(t) => t,
        None => test
            .as_logicals()
            .ok_or_else(|| {
                KernelError::new(format!(
                    "ifelse(): 'test' must be logical or numeric, not {}",
                    test.type_name()
                ))
            })?
            .into_owned(),
    };
    let mut k = Kind::Logical;
    if t.contains(&Some(true)) {
        k = k.max(kind(yes, "yes")?);
    }
    if t.contains(&Some(false)) {
        k = k.max(kind(no, "no")?);
    }
    let dims = test.dims();
    let source = |b: bool| if b { yes } else { no };
    Ok(match k {
        Kind::Logical => {
            let data = t
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let b = (*b)?;
                    let l = source(b).as_logicals().unwrap_or_default();
                    if l.is_empty() {
                        None
                    } else {
                        l[i % l.len()]
                    }
                })
                .collect();
            Value::logicals_shaped(data, dims)
        }
        Kind::Number => {
            let (y, n) = (
                yes.as_f64_slice().unwrap_or_default(),
                no.as_f64_slice().unwrap_or_default(),
            );
            let data = t
                .iter()
                .enumerate()
                .map(|(i, b)| match b {
                    None => NA,
                    Some(b) => {
                        let s = if *b { &y } else { &n };
                        if s.is_empty() {
                            NA
                        } else {
                            s[i % s.len()]
                        }
                    }
                })
                .collect();
            Value::nums_shaped(data, dims)
        }
        Kind::Text => Value::strs_shaped(
            t.iter()
                .enumerate()
                .map(|(i, b)| match b {
                    None => "NA".to_string(),
                    Some(b) => {
                        let s = source(*b);
                        if s.is_empty() {
                            "NA".to_string()
                        } else {
                            text_of(s, i)
                        }
                    }
                })
                .collect(),
            dims,
        ),
    })
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let test = args.ty("test").cloned().unwrap_or(Type::Null);
    let (len, dims) = match &test {
        Type::Mat { rows, cols } | Type::BoolMat { rows, cols } | Type::StrMat { rows, cols } => {
            (test.len(), Some((*rows, *cols)))
        }
        Type::Num { .. } | Type::Bool { .. } | Type::Str { .. } | Type::Null => (test.len(), None),
        Type::Factor { .. } => {
            return Err(args.error("test", "invalid to change the storage mode of a factor"))
        }
        Type::Any => (None, None),
        other => {
            return Err(args.error(
                "test",
                format!(
                    "'test' must be logical or numeric, not {}",
                    other.describe()
                ),
            ))
        }
    };
    let kind_of = |name: &str| match args.ty(name) {
        Some(Type::Bool { .. } | Type::BoolMat { .. } | Type::Null) => Some(Kind::Logical),
        Some(Type::Num { .. } | Type::Mat { .. }) => Some(Kind::Number),
        Some(Type::Str { .. } | Type::StrMat { .. }) => Some(Kind::Text),
        _ => None,
    };
    let k = match (kind_of("yes"), kind_of("no")) {
        (Some(a), Some(b)) if a == b => Some(a),
        (Some(Kind::Text), _) | (_, Some(Kind::Text)) => None,
        (Some(_), Some(_)) => Some(Kind::Number),
        _ => None,
    };
    Ok(match (k, dims) {
        (None, _) => Type::Any,
        (Some(Kind::Logical), Some((rows, cols))) => Type::BoolMat { rows, cols },
        (Some(Kind::Number), Some((rows, cols))) => Type::Mat { rows, cols },
        (Some(Kind::Logical), None) => Type::logical(len),
        (Some(Kind::Number), None) => Type::Num { len, value: None },
        (Some(Kind::Text), Some((rows, cols))) => Type::StrMat { rows, cols },
        (Some(Kind::Text), None) => Type::Str { len, value: None },
    })
}
