//! `toString(x, width)`: the elements pasted with ", ", cut to `width`
//! display columns with "...." as toString.default (toString.R) does.
//! Other arguments reach no one there (`collapse = "; "` is ignored), so
//! they are ignored here too.

use super::strtrim::{display_width, strtrim};
use super::text::as_character;
use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn to_string_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if matches!(
        args.ty("x"),
        Some(Type::Record { .. } | Type::Formula { .. })
    ) {
        return Err(args.error("x", "toString() needs a vector"));
    }
    Ok(Type::Str {
        len: Some(1),
        value: None,
    })
}

pub(super) fn to_string_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let texts = as_character(x).ok_or_else(|| {
        KernelError::new(format!("toString() needs a vector, not {}", x.type_name()))
    })?;
    let string = texts
        .iter()
        .map(|t| t.as_deref().unwrap_or("NA"))
        .collect::<Vec<_>>()
        .join(", ");
    let width = match args.get("width") {
        None | Some(Value::Null) => return Ok(Value::Str(vec![string])),
        Some(w) => match w.as_f64_slice() {
            Some(v) if !v.is_empty() => v[0],
            Some(_) => return Err(KernelError::new("argument is of length zero")),
            None => {
                return Err(KernelError::new(
                    "comparison (==) is possible only for atomic and list types",
                ))
            }
        },
    };
    if width.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if width == 0.0 {
        return Ok(Value::Str(vec![string]));
    }
    if width < 0.0 {
        return Err(KernelError::new("'width' must be positive"));
    }
    if display_width(&string) as f64 > width {
        let width = width.max(6.0);
        let cut = strtrim(&[Some(string)], Some(&Value::Num(vec![width - 4.0])))?;
        let head = cut.into_iter().next().flatten().unwrap_or_default();
        return Ok(Value::Str(vec![format!("{head}....")]));
    }
    Ok(Value::Str(vec![string]))
}
