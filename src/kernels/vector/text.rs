//! Text: `toupper`, `tolower` and `nchar` (type "chars"), element by
//! element, NA kept NA. Numbers are read as `as.character` writes them.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::factor::as_text;
use crate::kernels::value::NA;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

fn texts(args: &Args<&Value>) -> Result<Vec<Option<String>>, KernelError> {
    let x = super::arg_or_null(args, "x");
    as_text(x).ok_or_else(|| {
        KernelError::new(format!(
            "{}() needs a character vector, not {}",
            args.func,
            x.type_name()
        ))
    })
}

pub(super) fn case_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let upper = args.func == "toupper";
    Ok(Value::Str(
        texts(args)?
            .into_iter()
            .map(|t| match t {
                None => "NA".to_string(),
                Some(s) if upper => s.to_uppercase(),
                Some(s) => s.to_lowercase(),
            })
            .collect(),
    ))
}

pub(super) fn nchar_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(Value::Num(
        texts(args)?
            .into_iter()
            .map(|t| t.map_or(NA, |s| s.chars().count() as f64))
            .collect(),
    ))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    if matches!(
        x,
        Type::List { .. } | Type::Record { .. } | Type::Formula { .. }
    ) {
        return Err(args.error(
            "x",
            format!(
                "{}() needs a character vector, not {}",
                args.func,
                x.describe()
            ),
        ));
    }
    let len = x.len();
    Ok(if args.func == "nchar" {
        Type::Num { len, value: None }
    } else {
        Type::Str { len, value: None }
    })
}
