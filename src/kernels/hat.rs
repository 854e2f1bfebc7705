//! `hat(x, intercept)`: the diagonal of the hat matrix of a design, as
//! lm.influence.R's `hat` of R 4.2.2 computes it, by the same kernels:
//! `cbind(1, x)` under an intercept, its `qr`, then
//! `rowSums(qr.qy(qr, diag(1, n, rank))^2)`. A `qr` object is used as
//! it is.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::{opt, registry, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "hat",
    params: &[req("x"), opt("intercept")],
    random: false,
    shape: hat_shape,
    eval: hat_eval,
}];

fn hat_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let len = match args.ty("x") {
        Some(Type::Mat { rows, .. }) => *rows,
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => t.len(),
        Some(Type::Record { class, fields }) if class == "qr" => fields
            .iter()
            .find(|(n, _)| n == "qr")
            .and_then(|(_, t)| t.dims())
            .and_then(|(r, _)| r),
        Some(Type::Any) | None => None,
        Some(t) => {
            return Err(args.error(
                "x",
                format!(
                    "hat() needs a numeric matrix or a qr object, not {}",
                    t.describe()
                ),
            ))
        }
    };
    Ok(Type::Num { len, value: None })
}

/// Calls the built-in `name` with positional arguments, as R code does.
fn call(name: &'static str, given: Vec<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let k = registry()
        .get(name)
        .ok_or_else(|| KernelError::new(format!("{name} is not registered")))?;
    let matched = Args::match_call(
        k.name,
        k.params,
        given.into_iter().map(|v| (None, v)).collect(),
    )
    .map_err(|e| KernelError::new(e.message))?;
    k.call(&matched, ctx)
}

fn hat_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let is_qr = matches!(x, Value::List(l) if l.class.as_deref() == Some("qr"));
    let qr = if is_qr {
        x.clone()
    } else {
        let design = if args.bool_or("intercept", true)? {
            call("cbind", vec![&Value::Num(vec![1.0]), x], ctx)?
        } else if matches!(x, Value::Mat(_)) {
            x.clone()
        } else {
            // nrow() of a vector is NULL, which diag() refuses.
            return Err(KernelError::new("invalid 'nrow' value (too large or NA)"));
        };
        call("qr", vec![&design], ctx)?
    };
    let Value::List(fields) = &qr else {
        return Err(KernelError::new("hat() could not decompose 'x'"));
    };
    let field = |name: &str| {
        fields
            .names
            .as_ref()
            .and_then(|n| n.iter().position(|f| f == name))
            .map(|i| super::names::bare(&fields.items[i]))
    };
    let n = match field("qr") {
        Some(Value::Mat(m)) => m.nrows(),
        Some(Value::Num(v)) => v.len(),
        _ => return Err(KernelError::new("hat() could not decompose 'x'")),
    };
    let rank = match field("rank").and_then(Value::as_scalar) {
        Some(r) if r >= 0.0 && r.is_finite() => r as usize,
        _ => return Err(KernelError::new("hat() could not decompose 'x'")),
    };
    let eye = Value::Mat(DMatrix::from_fn(
        n,
        rank,
        |i, j| if i == j { 1.0 } else { 0.0 },
    ));
    let q = call("qr.qy", vec![&qr, &eye], ctx)?;
    let squared = match super::names::bare(&q) {
        Value::Mat(m) => Value::Mat(m.map(|v| v * v)),
        Value::Num(v) => Value::Mat(DMatrix::from_iterator(v.len(), 1, v.iter().map(|x| x * x))),
        _ => return Err(KernelError::new("hat() could not decompose 'x'")),
    };
    call("rowSums", vec![&squared], ctx)
}
