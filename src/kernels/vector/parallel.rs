//! `pmin` and `pmax`: R's `do_pmin` on numbers, element by element with
//! recycling; the first argument's dims kept when the lengths agree.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let rm = args.bool_or("na.rm", false)?;
    let max = matches!(args.func, "pmax" | "pmax.int");
    let parts: Vec<&Value> = args.dots().map(|(_, v)| v).collect();
    let Some(first) = parts.first() else {
        return Err(KernelError::new("no arguments"));
    };
    let mut data = Vec::with_capacity(parts.len());
    for v in &parts {
        match v {
            Value::Null => data.push(std::borrow::Cow::Borrowed(&[][..])),
            Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => {
                data.push(v.as_f64_slice().unwrap_or_default());
            }
            _ => return Err(KernelError::new("invalid input type")),
        }
    }
    let mut len = data[0].len();
    for d in &data[1..] {
        if (len > 0) == d.is_empty() {
            len = 0;
            break;
        }
        len = len.max(d.len());
    }
    if len == 0 {
        return Ok(Value::Num(Vec::new()));
    }
    if data.iter().any(|d| len % d.len() != 0) {
        ctx.warn("an argument will be fractionally recycled");
    }
    let mut out: Vec<f64> = (0..len).map(|i| data[0][i % data[0].len()]).collect();
    for d in &data[1..] {
        for (i, r) in out.iter_mut().enumerate() {
            let t = d[i % d.len()];
            let better = if max { t > *r } else { t < *r };
            if (rm && r.is_nan()) || (!r.is_nan() && !t.is_nan() && better) || (!rm && t.is_nan()) {
                *r = t;
            }
        }
    }
    let dims = first.dims().filter(|(r, c)| r * c == len);
    Ok(Value::nums_shaped(out, dims))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mut len = None;
    let mut first = true;
    let mut dims = None;
    let mut known = true;
    for (k, (_, t)) in args.dots().enumerate() {
        if !matches!(t, Type::Any | Type::Null) && !t.is_numeric() {
            return Err(args.dots_error(k, format!("invalid input type: {}", t.describe())));
        }
        if first {
            dims = t.dims();
            first = false;
        }
        match t.len() {
            Some(n) if known => {
                len = Some(len.map_or(n, |l: usize| if l == 0 || n == 0 { 0 } else { l.max(n) }))
            }
            _ => known = false,
        }
    }
    if first {
        return Err(ArgError::call("no arguments"));
    }
    let len = if known { len } else { None };
    Ok(match dims {
        Some((Some(r), Some(c))) if Some(r * c) == len => Type::mat(r, c),
        _ => Type::Num { len, value: None },
    })
}
