//! `outer(X, Y, FUN = "*")`: FUN called once on `X` repeated and `Y`
//! stretched, as R's `outer` calls it, the result shaped
//! `length(X) x length(Y)`. FUN is a function's name as a string (`"-"`,
//! `"pmax"`, `">"`); flowcast has no function values.

use nalgebra::DMatrix;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{registry, Ctx, KernelError, ShapeCtx, Type, Value};

use super::pick;

fn fun_name(v: Option<&Value>) -> Result<&str, KernelError> {
    match v {
        None => Ok("*"),
        Some(Value::Str(s)) if s.len() == 1 => Ok(&s[0]),
        Some(_) => Err(KernelError::new(
            "outer(): FUN must be a function's name as a string, e.g. \"*\"",
        )),
    }
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "X");
    let y = super::arg_or_null(args, "Y");
    let name = fun_name(args.get("FUN"))?;
    let kernel = registry()
        .get(name)
        .ok_or_else(|| KernelError::new(format!("could not find function \"{name}\"")))?;
    if kernel.random {
        // Its draws would not be in the workflow's stream order.
        return Err(KernelError::new(format!(
            "outer(): FUN = \"{name}\" draws random numbers; flowcast's outer takes \
             only deterministic functions"
        )));
    }
    let (nx, ny) = (x.len(), y.len());
    if matches!(x, Value::List(_) | Value::Formula(_))
        || matches!(y, Value::List(_) | Value::Formula(_))
    {
        return Err(KernelError::new("outer(): X and Y must be vectors"));
    }
    let n = nx
        .checked_mul(ny)
        .filter(|&n| n <= 1 << 31)
        .ok_or_else(|| KernelError::new("outer(): the result is too large"))?;
    let xr = pick(x, &(0..n).map(|i| i % nx.max(1)).collect::<Vec<_>>());
    let yr = pick(y, &(0..n).map(|i| i / nx.max(1)).collect::<Vec<_>>());
    let (xr, yr) = if n == 0 {
        (pick(x, &[]), pick(y, &[]))
    } else {
        (xr, yr)
    };
    let matched = Args::match_call(kernel.name, kernel.params, vec![(None, &xr), (None, &yr)])
        .map_err(|e| KernelError::new(e.message))?;
    let r = (kernel.eval)(&matched, ctx)?;
    if r.len() != n {
        return Err(KernelError::new(format!(
            "dims [product {n}] do not match the length of object [{}]",
            r.len()
        )));
    }
    Ok(match r {
        Value::Bool(b) => Value::BoolMat(DMatrix::from_vec(nx, ny, b)),
        Value::BoolMat(m) => Value::BoolMat(DMatrix::from_vec(nx, ny, m.as_slice().to_vec())),
        other => match other.as_f64_slice() {
            Some(d) => Value::Mat(DMatrix::from_vec(nx, ny, d.into_owned())),
            None => {
                return Err(KernelError::new(format!(
                    "outer(): FUN gave {}, not numbers or logicals",
                    other.type_name()
                )))
            }
        },
    })
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let name = match args.ty("FUN") {
        None => "*",
        Some(t) => match t.const_str() {
            Some(s) => s,
            None if matches!(t, Type::Any) => return Ok(Type::Any),
            None => {
                return Err(args.error(
                    "FUN",
                    "outer(): FUN must be a function's name as a string, e.g. \"*\"",
                ))
            }
        },
    };
    match registry().get(name) {
        None => return Err(args.error("FUN", format!("could not find function \"{name}\""))),
        Some(k) if k.random => {
            return Err(args.error(
                "FUN",
                format!("outer(): FUN = \"{name}\" draws random numbers"),
            ))
        }
        Some(_) => {}
    }
    let len = |n: &str| args.ty(n).and_then(Type::len);
    let (rows, cols) = (len("X"), len("Y"));
    let logical = matches!(
        name,
        "==" | "!=" | "<" | ">" | "<=" | ">=" | "&" | "|" | "xor"
    );
    Ok(if logical {
        Type::BoolMat { rows, cols }
    } else {
        Type::Mat { rows, cols }
    })
}
