//! Sizes and empty vectors: `lengths(x)`, `NROW(x)`, `NCOL(x)` (base R's
//! closures over `dim` and `length`) and `vector(mode, length)` (R's
//! do_makevector), with R's messages for what they refuse.

use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::value::List;
use super::{frame, names, opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "lengths",
        params: &[req("x"), opt("use.names")],
        random: false,
        shape: lengths_shape,
        eval: lengths_eval,
    },
    Kernel {
        name: "NROW",
        params: &[req("x")],
        random: false,
        shape: nrow_shape,
        eval: nrow_eval,
    },
    Kernel {
        name: "NCOL",
        params: &[req("x")],
        random: false,
        shape: nrow_shape,
        eval: nrow_eval,
    },
    Kernel {
        name: "vector",
        params: &[opt("mode"), opt("length")],
        random: false,
        shape: vector_shape,
        eval: vector_eval,
    },
];

/// `lengths(x)`: each element's length for a list (a data frame's
/// columns), 1 for each element of anything else.
fn lengths_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let use_names = args.bool_or("use.names", true)?;
    Ok(match names::bare(x) {
        Value::List(l) => {
            let out = Value::Num(l.items.iter().map(|v| item_length(v) as f64).collect());
            match &l.names {
                Some(n) if use_names => names::named(out, n.clone()),
                _ => out,
            }
        }
        Value::Formula(_) | Value::Lang(_) => {
            return Err(KernelError::new("'x' must be a list or atomic vector"))
        }
        // An atomic vector's elements are each of length one; a matrix's
        // ones keep its shape, as R's do_lengths copies dim.
        v => {
            let out = Value::nums_shaped(vec![1.0; v.len()], v.dims());
            match names::names(x) {
                Some(n) if use_names && v.dims().is_none() => names::named(out, n.to_vec()),
                _ => out,
            }
        }
    })
}

/// An element's `length`: a data frame's columns, a factor's codes.
fn item_length(v: &Value) -> usize {
    match names::bare(v) {
        Value::List(l) => l.items.len(),
        v => v.len(),
    }
}

fn lengths_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Formula { .. }) => {
            return Err(args.error("x", "'x' must be a list or atomic vector"))
        }
        Some(Type::Record { fields, .. }) => Type::num(fields.len()),
        Some(Type::Any) | None => Type::num_unknown(),
        Some(t @ Type::List { .. }) => Type::Num {
            len: t.len(),
            value: None,
        },
        Some(
            t @ (Type::Mat { .. }
            | Type::BoolMat { .. }
            | Type::ComplexMat { .. }
            | Type::StrMat { .. }),
        ) => {
            let (rows, cols) = t.dims().unwrap_or((None, None));
            Type::Mat { rows, cols }
        }
        Some(t) => match t.len() {
            Some(n) => Type::num_const(vec![1.0; n]),
            None => Type::num_unknown(),
        },
    })
}

/// `NROW(x)`: `dim(x)[1]`, else `length(x)`; `NCOL(x)`: `dim(x)[2]`,
/// else 1.
fn nrow_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let dims = x.dims().or_else(|| frame::dims(x));
    let rows = args.func == "NROW";
    Ok(Value::scalar(match dims {
        Some((r, c)) => (if rows { r } else { c }) as f64,
        None if rows => x.len() as f64,
        None => 1.0,
    }))
}

fn nrow_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let rows = args.func == "NROW";
    let Some(t) = args.ty("x") else {
        return Ok(Type::num(1));
    };
    let dims = match t {
        Type::Mat { .. } | Type::ComplexMat { .. } | Type::BoolMat { .. } | Type::StrMat { .. } => {
            t.dims()
        }
        // An array may be typed as numbers or logicals of unknown length.
        Type::Any | Type::Num { len: None, .. } | Type::Bool { len: None, .. } => {
            return Ok(Type::num(1))
        }
        _ => frame::type_dims(t),
    };
    let n = match dims {
        Some((r, c)) => {
            if rows {
                r
            } else {
                c
            }
        }
        None if rows => match t {
            // A record's length is its fields' count.
            Type::Record { fields, .. } => Some(fields.len()),
            _ => t.len(),
        },
        None => Some(1),
    };
    Ok(match n {
        Some(n) => Type::scalar_const(n as f64),
        None => Type::num(1),
    })
}

/// R's `vector`'s `length` (do_makevector over asVecSize): one
/// non-negative number, its fraction dropped; TRUE is refused.
fn vector_length(v: &Value) -> Result<usize, KernelError> {
    let bad = || KernelError::new("invalid 'length' argument");
    let x = match names::bare(v) {
        Value::Num(x) if x.len() == 1 => x[0],
        Value::Mat(m) if m.len() == 1 => m[0],
        Value::Str(s) if s.len() == 1 => s[0].trim().parse::<f64>().unwrap_or(f64::NAN),
        _ => return Err(bad()),
    };
    super::alloc::as_vec_size(x).map_err(KernelError::new)
}

/// The atomic and list modes R's `vector` makes (`str2type`, with
/// "numeric" and "double" one).
fn known_mode(mode: &str) -> bool {
    matches!(
        mode,
        "logical" | "integer" | "numeric" | "double" | "complex" | "character" | "list"
    )
}

/// Why `vector` makes nothing of `mode`: R's message for a mode it has
/// no vector of; flowcast's for the ones R has and flowcast lacks.
fn mode_refusal(mode: &str) -> String {
    if matches!(mode, "raw" | "expression" | "pairlist") {
        format!("flowcast has no {mode} vectors: vector(mode = \"{mode}\") is not supported")
    } else {
        format!("vector: cannot make a vector of mode '{mode}'.")
    }
}

/// How R's `vector` names a mode that is not text: its first element as
/// `as.character` writes it.
fn mode_text(v: &Value) -> String {
    match v {
        Value::Num(x) if !x.is_empty() => {
            if x[0].is_nan() {
                "NA".to_string()
            } else {
                super::data::r_num_to_string(x[0])
            }
        }
        Value::Bool(b) if !b.is_empty() => match b[0] {
            None => "NA".to_string(),
            Some(true) => "TRUE".to_string(),
            Some(false) => "FALSE".to_string(),
        },
        _ => "NA".to_string(),
    }
}

fn mode_of(args: &Args<&Value>) -> Result<String, KernelError> {
    match args.get("mode").map(names::bare) {
        None => Ok("logical".to_string()),
        Some(Value::Str(s)) if s.len() == 1 => Ok(s[0].clone()),
        // do_makevector: a mode of any type must be one element.
        Some(v) if v.len() != 1 => Err(KernelError::new("invalid 'mode' argument")),
        Some(v) => Err(KernelError::new(format!(
            "vector: cannot make a vector of mode '{}'.",
            mode_text(v)
        ))),
    }
}

fn vector_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mode = mode_of(args)?;
    let n = match args.get("length") {
        Some(v) => vector_length(v)?,
        None => 0,
    };
    if !known_mode(&mode) {
        return Err(KernelError::new(mode_refusal(&mode)));
    }
    use super::alloc::{ensure_room, filled};
    // R's element: 4 bytes for an integer or a logical, 16 for a complex,
    // 8 for a double or a pointer.
    let r_bytes = match mode.as_str() {
        "logical" | "integer" => 4.0,
        "complex" => 16.0,
        _ => 8.0,
    };
    ensure_room(n as f64 * r_bytes)?;
    Ok(match mode.as_str() {
        "logical" => Value::Bool(filled(n, Some(false))?),
        "character" => Value::Str(filled(n, String::new())?),
        "complex" => Value::Complex(filled(n, Complex64::new(0.0, 0.0))?),
        "list" => Value::List(List {
            class: None,
            names: None,
            items: filled(n, Value::Null)?,
            row_names: None,
        }),
        _ => Value::Num(filled(n, 0.0)?),
    })
}

fn vector_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mode = match args.ty("mode") {
        None => Some("logical".to_string()),
        Some(Type::Str { value: Some(v), .. }) if v.len() == 1 => Some(v[0].clone()),
        Some(t) if t.len().is_some_and(|n| n != 1) => {
            return Err(args.error("mode", "invalid 'mode' argument"))
        }
        // The run names a mode that is not text.
        _ => None,
    };
    let len = match args.ty("length") {
        None => Some(0),
        Some(t) => t
            .const_nums()
            .filter(|v| v.len() == 1 && v[0] >= 0.0 && v[0] < 2_147_483_648.0)
            .map(|v| v[0] as usize),
    };
    let Some(mode) = mode else {
        return Ok(Type::Any);
    };
    if !known_mode(&mode) {
        return Err(args.error("mode", mode_refusal(&mode)));
    }
    Ok(match mode.as_str() {
        "logical" => Type::logical(len),
        "character" => Type::Str { len, value: None },
        "complex" => Type::Complex { len },
        "list" => Type::List {
            len,
            elem: Box::new(Type::Null),
        },
        _ => Type::Num { len, value: None },
    })
}
