//! `cov.wt(x, wt, cor, center, method)`: the weighted covariance of R
//! 4.2.2's stats::cov.wt, step by step as its R code goes, the sums and
//! the cross product done by flowcast's own `colSums`, `sum` and
//! `crossprod` (which follow R's accumulation), so the result is R's to
//! the bit.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::List;
use super::{opt, registry, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "cov.wt",
    params: &[
        req("x"),
        opt("wt"),
        opt("cor"),
        opt("center"),
        opt("method"),
    ],
    random: false,
    shape,
    eval,
}];

fn numbers(v: &Value) -> Vec<f64> {
    bare(v).as_f64_slice().unwrap_or_default().into_owned()
}

/// `if (cond)` of a logical R computed: NA is R's error.
fn flag(b: Option<bool>) -> Result<bool, KernelError> {
    b.ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed"))
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    // A data frame arrives as `as.matrix(x)` (frame::takes_matrix).
    let x: DMatrix<f64> = match bare(x) {
        Value::Mat(m) => m.clone(),
        Value::BoolMat(b) => b.map(super::value::logical_f64),
        _ => return Err(KernelError::new("'x' must be a matrix or a data frame")),
    };
    if !x.iter().all(|v| v.is_finite()) {
        return Err(KernelError::new("'x' must contain finite values only"));
    }
    let (n, p) = x.shape();
    let with_wt = args.get("wt").is_some();
    let wt: Vec<f64> = match args.get("wt") {
        Some(w) => {
            let w = match bare(w) {
                v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
                    numbers(v)
                }
                Value::Null => Vec::new(),
                _ => return Err(KernelError::new("non-numeric argument to binary operator")),
            };
            if w.len() != n {
                return Err(KernelError::new(
                    "length of 'wt' must equal the number of rows in 'x'",
                ));
            }
            // any(wt < 0) || (s <- sum(wt)) == 0
            let negative = if w.iter().any(|&v| v < 0.0) {
                Some(true)
            } else if w.iter().any(|v| v.is_nan()) {
                None
            } else {
                Some(false)
            };
            let wv = Value::Num(w.clone());
            let s = registry()
                .call("sum", vec![(None, &wv)], ctx)?
                .as_scalar()
                .unwrap_or(f64::NAN);
            let zero = (!s.is_nan()).then_some(s == 0.0);
            let refuse = match negative {
                Some(true) => Some(true),
                Some(false) => zero,
                None => zero.filter(|&z| z),
            };
            if flag(refuse)? {
                return Err(KernelError::new(
                    "weights must be non-negative and not all zero",
                ));
            }
            w.iter().map(|&v| v / s).collect()
        }
        None => vec![1.0 / n as f64; n],
    };
    // center: TRUE is colSums(wt * x), FALSE 0, numbers as given.
    let center: Vec<f64> = match args.get("center").map(bare) {
        None => weighted_col_sums(&x, &wt, ctx)?,
        Some(c @ (Value::Bool(_) | Value::BoolMat(_))) => {
            if super::logical::if_condition(c)? {
                weighted_col_sums(&x, &wt, ctx)?
            } else {
                vec![0.0]
            }
        }
        Some(c) => {
            let c = match c {
                Value::Num(_) | Value::Mat(_) => numbers(c),
                Value::Null => Vec::new(),
                _ => {
                    return Err(KernelError::new(
                        "length of 'center' must equal the number of columns in 'x'",
                    ))
                }
            };
            if c.len() != p {
                return Err(KernelError::new(
                    "length of 'center' must equal the number of columns in 'x'",
                ));
            }
            c
        }
    };
    let method = match args.get("method").map(bare) {
        None => "unbiased",
        Some(Value::Str(s)) if s.len() == 1 => {
            super::vector::match_arg(&s[0], &["unbiased", "ML"])?
        }
        Some(Value::Str(s)) if s == &["unbiased", "ML"] => "unbiased",
        Some(Value::Str(_)) => return Err(KernelError::new("'arg' must be of length 1")),
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    // sqrt(wt) * sweep(x, 2, center): center recycled along the columns
    // (a single 0 to every one).
    let xs = DMatrix::from_fn(n, p, |i, j| {
        let c = if center.is_empty() {
            f64::NAN
        } else {
            center[j % center.len()]
        };
        wt[i].sqrt() * (x[(i, j)] - c)
    });
    let xv = Value::Mat(xs);
    let cp = registry().call("crossprod", vec![(None, &xv)], ctx)?;
    let mut cov = match bare(&cp) {
        Value::Mat(m) => m.clone(),
        _ => DMatrix::zeros(p, p),
    };
    if method == "unbiased" {
        let sq = Value::Num(wt.iter().map(|w| w * w).collect());
        let s2 = registry()
            .call("sum", vec![(None, &sq)], ctx)?
            .as_scalar()
            .unwrap_or(f64::NAN);
        let d = 1.0 - s2;
        cov.iter_mut().for_each(|v| *v /= d);
    }
    let center_value = Value::Num(center);
    let mut fields = vec![
        ("cov", Value::Mat(cov.clone())),
        ("center", center_value),
        ("n.obs", Value::scalar(n as f64)),
    ];
    if with_wt {
        fields.push(("wt", Value::Num(wt)));
    }
    if args.bool_or("cor", false)? {
        let is: Vec<f64> = (0..p).map(|i| 1.0 / cov[(i, i)].sqrt()).collect();
        let r = DMatrix::from_fn(p, p, |i, j| is[i] * cov[(i, j)] * is[j]);
        fields.push(("cor", Value::Mat(r)));
    }
    Ok(Value::List(List::named(fields)))
}

/// `colSums(wt * x)`: wt recycled down each column.
fn weighted_col_sums(x: &DMatrix<f64>, wt: &[f64], ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
    let (n, p) = x.shape();
    let m = Value::Mat(DMatrix::from_fn(n, p, |i, j| wt[i] * x[(i, j)]));
    Ok(numbers(&registry().call(
        "colSums",
        vec![(None, &m)],
        ctx,
    )?))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        None | Some(Type::Any | Type::Mat { .. } | Type::BoolMat { .. } | Type::Record { .. }) => {
            Ok(Type::Any)
        }
        Some(t) => Err(args.error(
            "x",
            format!("'x' must be a matrix or a data frame: {}", t.describe()),
        )),
    }
}
