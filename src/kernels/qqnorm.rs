//! `qqnorm(y, ..., plot.it, datax)`: the normal scores of R's
//! qqnorm.default, `qnorm(ppoints(n))` in the order of `y`, NA kept in
//! place. flowcast draws no plot: the value is R's
//! `list(x = , y = )`, as with `plot.it = FALSE`.

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "qqnorm",
    params: &[
        req("y"),
        opt("ylim"),
        opt("main"),
        opt("xlab"),
        opt("ylab"),
        opt("plot.it"),
        opt("datax"),
        DOTS,
    ],
    random: false,
    shape,
    eval,
}];

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let y = args
        .get("y")
        .ok_or_else(|| KernelError::new("argument \"y\" is missing, with no default"))?;
    if y.is_empty() {
        return Err(KernelError::new("y is empty or has only NAs"));
    }
    let original = bare(y).clone();
    let y: Vec<f64> = match bare(y) {
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        Value::Null => Vec::new(),
        v => {
            return Err(KernelError::new(format!(
                "qqnorm(): y must be numeric, not {}",
                v.type_name()
            )))
        }
    };
    let datax = match args.get("datax") {
        None => false,
        Some(d) => super::logical::if_condition(d)?,
    };
    let kept: Vec<usize> = (0..y.len()).filter(|&i| !y[i].is_nan()).collect();
    let n = kept.len();
    if n == 0 {
        return Err(KernelError::new("y is empty or has only NAs"));
    }
    let p = super::ppoints::ppoints(n as f64, None)?;
    // `order(order(y))`: each value's rank, ties in order of position.
    let mut by_value: Vec<usize> = (0..n).collect();
    by_value.sort_by(|&a, &b| {
        y[kept[a]]
            .partial_cmp(&y[kept[b]])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut scores = vec![0.0; n];
    for (rank, &i) in by_value.iter().enumerate() {
        scores[i] = super::nmath::qnorm::qnorm(p[rank], 0.0, 1.0, true, false);
    }
    // The scores in the places of y's values, NA_real_ where y has NA or
    // NaN; y is returned as given.
    let mut x = vec![super::value::NA; y.len()];
    for (k, &i) in kept.iter().enumerate() {
        x[i] = scores[k];
    }
    let (x, y) = (Value::Num(x), original);
    let (x, y) = if datax { (y, x) } else { (x, y) };
    Ok(Value::List(List::record("list", vec![("x", x), ("y", y)])))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let len = args.ty("y").and_then(Type::len);
    Ok(Type::record(
        "list",
        vec![
            ("x", Type::Num { len, value: None }),
            ("y", Type::Num { len, value: None }),
        ],
    ))
}
