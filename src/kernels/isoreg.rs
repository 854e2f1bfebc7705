//! `isoreg(x, y)`: stats::isoreg, least-squares isotonic (monotonely
//! increasing) regression, a port of isoreg.R over `isoreg` in R's
//! src/library/stats/src/isoreg.c (the greatest convex minorant of the
//! cumulative sums, knot by knot); and `fitted.isoreg`/`residuals.isoreg`
//! of its value. R's value also has the `call`; flowcast's leaves it out.

// The C indexes as written; it reads better against the original.
#![allow(clippy::needless_range_loop)]

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "isoreg",
    params: &[req("x"), opt("y")],
    random: false,
    shape,
    eval,
}];

pub(crate) const CLASS: &str = "isoreg";

fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        Value::Null => Ok(Vec::new()),
        Value::Factor(f) => Ok(f.integer_codes()),
        other => other.as_f64_slice().map(|c| c.into_owned()).ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's isoreg() needs numbers for '{what}', not {}",
                other.type_name()
            ))
        }),
    }
}

/// `xy.coords(x, y)` for the cases isoreg meets: the x and y, and whether
/// its `xlab` is "Index" (x made as `seq_along(y)`).
fn xy_coords(xv: &Value, yv: Option<&Value>) -> Result<(Vec<f64>, Vec<f64>, bool), KernelError> {
    let index = |y: Vec<f64>| ((1..=y.len()).map(|i| i as f64).collect(), y, true);
    let (x, y, is_index) = match yv.map(bare) {
        None | Some(Value::Null) => match bare(xv) {
            Value::Mat(m) if m.ncols() == 1 => index(m.column(0).iter().copied().collect()),
            Value::Mat(m) if m.ncols() >= 2 => (
                m.column(0).iter().copied().collect(),
                m.column(1).iter().copied().collect(),
                false,
            ),
            Value::BoolMat(_) | Value::Mat(_) => {
                return Err(KernelError::new(
                    "flowcast's isoreg() needs a numeric matrix for 'x'",
                ))
            }
            Value::List(l) if l.row_names.is_none() => match (l.field("x"), l.field("y")) {
                (Some(x), Some(y)) => (numbers(x, "x")?, numbers(y, "y")?, false),
                _ => {
                    return Err(KernelError::new(
                        "'x' is a list, but does not have components 'x' and 'y'",
                    ))
                }
            },
            _ => index(numbers(xv, "x")?),
        },
        Some(yv) => (numbers(xv, "x")?, numbers(yv, "y")?, false),
    };
    if x.len() != y.len() {
        return Err(KernelError::new("'x' and 'y' lengths differ"));
    }
    Ok((x, y, is_index))
}

/// isoreg.c's `yc`, `yf` and `iKnots`.
type Isoreg = (Vec<f64>, Vec<f64>, Vec<f64>);

/// isoreg.c's `isoreg`: `yc` the cumulative sums from 0, then from each
/// knot the next as the point of least slope from it (the first of
/// equal ones), `yf` that slope between them. R 4.2.2's C loops forever
/// when a slope is not a number (an infinite y); R's later isoreg.c
/// refuses a non-finite sum, and so does this.
fn isoreg_c(y: &[f64]) -> Result<Isoreg, KernelError> {
    let n = y.len();
    let mut yc = vec![0.0; n + 1];
    let mut yf = vec![0.0; n];
    let mut knots = Vec::new();
    if n == 0 {
        return Ok((yc, yf, knots));
    }
    let mut tmp = 0.0;
    for i in 0..n {
        tmp += y[i];
        yc[i + 1] = tmp;
    }
    if !yc[n].is_finite() {
        return Err(KernelError::new(format!(
            "non-finite sum(y) == {} is not allowed",
            c_g(yc[n])
        )));
    }
    let mut known = 0usize;
    let mut ip = 0usize;
    loop {
        let mut slope = f64::INFINITY;
        for i in known + 1..=n {
            let tmp = (yc[i] - yc[known]) / (i - known) as f64;
            if tmp < slope {
                slope = tmp;
                ip = i;
            }
        }
        // Only a slope that overflows to +Inf at every later point leaves
        // ip where it was: R's loop would not end.
        if ip <= known {
            return Err(KernelError::new(
                "flowcast's isoreg() cannot fit y whose cumulative sums differ by more than the largest double: R's loop would not end",
            ));
        }
        knots.push(ip as f64);
        for i in known..ip {
            yf[i] = (yc[ip] - yc[known]) / (ip - known) as f64;
        }
        known = ip;
        if known >= n {
            break;
        }
    }
    Ok((yc, yf, knots))
}

/// C's `%g` of a non-finite double, as glibc prints it.
fn c_g(v: f64) -> &'static str {
    match (v.is_nan(), v.is_sign_negative()) {
        (true, true) => "-nan",
        (true, false) => "nan",
        (false, true) => "-inf",
        (false, false) => "inf",
    }
}

/// `!is.unsorted(x, strictly = TRUE)`.
fn strictly_sorted(x: &[f64]) -> bool {
    x.windows(2).all(|w| w[0] < w[1])
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (x, y, is_index) = xy_coords(xv, args.get("y"))?;
    if x.iter().chain(&y).any(|v| v.is_nan()) {
        return Err(KernelError::new("missing values not allowed"));
    }
    let is_ord = is_index || strictly_sorted(&x);
    let (ord, ys) = if is_ord {
        (None, y.clone())
    } else {
        // order(x, -y): increasing in x, decreasing in y, stable.
        let mut o: Vec<usize> = (0..x.len()).collect();
        o.sort_by(|&a, &b| {
            x[a].partial_cmp(&x[b])
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(
                    (-y[a])
                        .partial_cmp(&-y[b])
                        .unwrap_or(std::cmp::Ordering::Equal),
                )
        });
        let ys = o.iter().map(|&i| y[i]).collect();
        (Some(o), ys)
    };
    let (yc, yf, knots) = isoreg_c(&ys)?;
    Ok(Value::List(List::record(
        CLASS,
        vec![
            ("x", Value::Num(x)),
            ("y", Value::Num(y)),
            ("yf", Value::Num(yf)),
            ("yc", Value::Num(yc)),
            ("iKnots", Value::Num(knots)),
            ("isOrd", Value::Bool(vec![Some(is_ord)])),
            (
                "ord",
                match ord {
                    Some(o) => Value::Num(o.iter().map(|&i| (i + 1) as f64).collect()),
                    None => Value::Null,
                },
            ),
        ],
    )))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y"] {
        if let Some(t @ (Type::Str { .. } | Type::Formula { .. })) = args.ty(name) {
            return Err(args.error(
                name,
                format!(
                    "flowcast's isoreg() needs numbers for '{name}', not {}",
                    t.describe()
                ),
            ));
        }
    }
    let n = match args.ty("x") {
        Some(Type::Num { len, .. } | Type::Bool { len, .. }) => *len,
        _ => None,
    };
    let num = |len: Option<usize>| Type::Num { len, value: None };
    Ok(Type::record(
        CLASS,
        vec![
            ("x", num(n)),
            ("y", num(n)),
            ("yf", num(n)),
            ("yc", num(n.map(|n| n + 1))),
            ("iKnots", Type::num_unknown()),
            ("isOrd", Type::logical(Some(1))),
            ("ord", Type::Any),
        ],
    ))
}

/// Whether `v` is an isoreg value.
pub(crate) fn is_isoreg(v: Option<&Value>) -> bool {
    matches!(v.map(bare), Some(Value::List(l)) if l.class.as_deref() == Some(CLASS))
}

/// `fitted.isoreg`: `yf` back in the data's order, `yf[order(ord)]`.
pub(crate) fn fitted(object: &Value) -> Result<Vec<f64>, KernelError> {
    let Value::List(l) = bare(object) else {
        return Err(KernelError::new("not an isoreg value"));
    };
    let field = |name: &str| {
        l.field(name)
            .ok_or_else(|| KernelError::new(format!("an isoreg value without its '{name}'")))
    };
    let yf = numbers(field("yf")?, "yf")?;
    let is_ord = matches!(bare(field("isOrd")?), Value::Bool(b) if b.first() == Some(&Some(true)));
    if is_ord {
        return Ok(yf);
    }
    let ord = numbers(field("ord")?, "ord")?;
    // order(ord) of a permutation is its inverse.
    let mut out = vec![super::value::NA; ord.len()];
    for (k, &o) in ord.iter().enumerate() {
        let i = o as usize;
        if o.is_nan() || o < 1.0 || i > out.len() || k >= yf.len() {
            return Err(KernelError::new("an isoreg value with a broken 'ord'"));
        }
        out[i - 1] = yf[k];
    }
    Ok(out)
}

/// `residuals.isoreg`: `y - fitted(object)`.
pub(crate) fn residuals(object: &Value) -> Result<Vec<f64>, KernelError> {
    let fit = fitted(object)?;
    let Value::List(l) = bare(object) else {
        return Err(KernelError::new("not an isoreg value"));
    };
    let y = numbers(
        l.field("y")
            .ok_or_else(|| KernelError::new("an isoreg value without its 'y'"))?,
        "y",
    )?;
    if y.len() != fit.len() {
        return Err(KernelError::new("an isoreg value with a broken 'y'"));
    }
    Ok(y.iter().zip(&fit).map(|(y, f)| y - f).collect())
}
