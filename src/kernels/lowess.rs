//! `lowess(x, y, f, iter, delta)`: stats::lowess, Cleveland's robust
//! locally weighted regression, a port of `clowess` and `lowest` in R's
//! src/library/stats/src/lowess.c; the points sorted by `x` first, as
//! lowess.R sorts them (`order`, stable, NA last).

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "lowess",
    params: &[req("x"), opt("y"), opt("f"), opt("iter"), opt("delta")],
    random: false,
    shape,
    eval,
}];

/// `lowest`: the fitted value at `xs` from the points `nleft..=nright`
/// (1-based, widened to the ties on the right), weighted by the tricube
/// of their distance and, when `userw`, by the robustness weights `rw`.
/// `None` when every weight is zero.
#[allow(clippy::too_many_arguments)]
fn lowest(
    x: &[f64],
    y: &[f64],
    xs: f64,
    nleft: usize,
    nright: usize,
    w: &mut [f64],
    userw: bool,
    rw: &[f64],
) -> Option<f64> {
    let n = x.len();
    // 1-based as in the C, after its `x--`.
    let xa = |i: usize| x[i - 1];
    let range = xa(n) - xa(1);
    let h = (xs - xa(nleft)).max(xa(nright) - xs);
    let h9 = 0.999 * h;
    let h1 = 0.001 * h;
    let mut a = 0.0;
    let mut j = nleft;
    while j <= n {
        w[j - 1] = 0.0;
        let r = (xa(j) - xs).abs();
        if r <= h9 {
            w[j - 1] = if r <= h1 {
                1.0
            } else {
                let q = r / h;
                let c = 1.0 - q * q * q;
                c * c * c
            };
            if userw {
                w[j - 1] *= rw[j - 1];
            }
            a += w[j - 1];
        } else if xa(j) > xs {
            break;
        }
        j += 1;
    }
    let nrt = j - 1;
    if a <= 0.0 {
        return None;
    }
    for wj in &mut w[nleft - 1..nrt] {
        *wj /= a;
    }
    if h > 0.0 {
        let mut a = 0.0;
        for j in nleft..=nrt {
            a += w[j - 1] * xa(j);
        }
        let mut b = xs - a;
        let mut c = 0.0;
        for j in nleft..=nrt {
            let d = xa(j) - a;
            c += w[j - 1] * (d * d);
        }
        if c.sqrt() > 0.001 * range {
            b /= c;
            for j in nleft..=nrt {
                w[j - 1] *= b * (xa(j) - a) + 1.0;
            }
        }
    }
    let mut ys = 0.0;
    for j in nleft..=nrt {
        ys += w[j - 1] * y[j - 1];
    }
    Some(ys)
}

/// `clowess`: the smooth at each `x`, fitted at points at least `delta`
/// apart and interpolated between them, refitted `nsteps` times with
/// bisquare robustness weights from the residuals.
fn clowess(x: &[f64], y: &[f64], f: f64, nsteps: i64, delta: f64) -> Vec<f64> {
    let n = x.len();
    let mut ys = vec![0.0; n];
    if n < 2 {
        ys[0] = y[0];
        return ys;
    }
    let mut rw = vec![0.0; n];
    let mut res = vec![0.0; n];
    let xa = |i: usize| x[i - 1];
    // `(int)(f * n + 1e-7)`, at least two, at most n points.
    let span = (f * n as f64 + 1e-7).min(i32::MAX as f64) as usize;
    let ns = span.clamp(2, n);
    let mut iter = 1;
    while iter <= nsteps + 1 {
        let mut nleft = 1;
        let mut nright = ns;
        let mut last = 0usize;
        let mut i = 1usize;
        loop {
            if nright < n {
                let d1 = xa(i) - xa(nleft);
                let d2 = xa(nright + 1) - xa(i);
                if d1 > d2 {
                    nleft += 1;
                    nright += 1;
                    continue;
                }
            }
            let fit = lowest(x, y, xa(i), nleft, nright, &mut res, iter > 1, &rw);
            ys[i - 1] = fit.unwrap_or(y[i - 1]);
            if last + 1 < i {
                // `last` is 0 only before the first fit, which is at i = 1.
                let denom = xa(i) - xa(last);
                for j in last + 1..i {
                    let alpha = (xa(j) - xa(last)) / denom;
                    ys[j - 1] = alpha * ys[i - 1] + (1.0 - alpha) * ys[last - 1];
                }
            }
            last = i;
            let cut = xa(last) + delta;
            i = last + 1;
            while i <= n {
                if xa(i) > cut {
                    break;
                }
                if xa(i) == xa(last) {
                    ys[i - 1] = ys[last - 1];
                    last = i;
                }
                i += 1;
            }
            i = (last + 1).max(i - 1);
            if last >= n {
                break;
            }
        }
        for i in 0..n {
            res[i] = y[i] - ys[i];
        }
        let mut sc = 0.0;
        for r in &res {
            sc += r.abs();
        }
        sc /= n as f64;
        if iter > nsteps {
            break;
        }
        for i in 0..n {
            rw[i] = res[i].abs();
        }
        // cmad = 6 * median(|res|): rPsort's order statistics, NaN last.
        let mut sorted = rw.clone();
        sorted.sort_by(|a, b| match (a.is_nan(), b.is_nan()) {
            (true, true) => std::cmp::Ordering::Equal,
            (true, false) => std::cmp::Ordering::Greater,
            (false, true) => std::cmp::Ordering::Less,
            _ => a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal),
        });
        let m1 = n / 2;
        let cmad = if n % 2 == 0 {
            let m2 = n - m1 - 1;
            3.0 * (sorted[m1] + sorted[m2])
        } else {
            6.0 * sorted[m1]
        };
        if cmad < 1e-7 * sc {
            break;
        }
        let c9 = 0.999 * cmad;
        let c1 = 0.001 * cmad;
        for i in 0..n {
            let r = res[i].abs();
            rw[i] = if r <= c1 {
                1.0
            } else if r <= c9 {
                let q = r / cmad;
                let c = 1.0 - q * q;
                c * c
            } else {
                0.0
            };
        }
        iter += 1;
    }
    ys
}

fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        Value::Factor(f) => Ok(f.integer_codes()),
        other => other.as_f64_slice().map(|c| c.into_owned()).ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's lowess() needs numbers for '{what}', not {}",
                other.type_name()
            ))
        }),
    }
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (x, y) = match args.get("y").map(bare) {
        None | Some(Value::Null) => match bare(xv) {
            // xy.coords(x, NULL): a matrix's first two columns, a list's
            // x and y, else the values against their index.
            Value::Mat(m) if m.ncols() >= 2 => (
                m.column(0).iter().copied().collect(),
                m.column(1).iter().copied().collect(),
            ),
            Value::List(l) if l.field("x").is_some() && l.field("y").is_some() => {
                let x = numbers(l.field("x").unwrap_or(&Value::Null), "x")?;
                let y = numbers(l.field("y").unwrap_or(&Value::Null), "y")?;
                if x.len() != y.len() {
                    return Err(KernelError::new("'x' and 'y' lengths differ"));
                }
                (x, y)
            }
            Value::List(_) => {
                return Err(KernelError::new(
                    "'x' is a list, but does not have components 'x' and 'y'",
                ))
            }
            _ => {
                let y = numbers(xv, "x")?;
                ((1..=y.len()).map(|i| i as f64).collect(), y)
            }
        },
        Some(yv) => {
            let x = numbers(xv, "x")?;
            let y = numbers(yv, "y")?;
            if x.len() != y.len() {
                return Err(KernelError::new("'x' and 'y' lengths differ"));
            }
            (x, y)
        }
    };
    // order(x): stable, NA and NaN last.
    let mut o: Vec<usize> = (0..x.len()).collect();
    o.sort_by(|&a, &b| match (x[a].is_nan(), x[b].is_nan()) {
        (false, false) => x[a].partial_cmp(&x[b]).unwrap_or(std::cmp::Ordering::Equal),
        (na, nb) => na.cmp(&nb),
    });
    let xs: Vec<f64> = o.iter().map(|&i| x[i]).collect();
    let ys: Vec<f64> = o.iter().map(|&i| y[i]).collect();
    if xs.is_empty() {
        return Err(KernelError::new("invalid input"));
    }
    let f = match args.get("f") {
        Some(v) => v.as_scalar().unwrap_or(f64::NAN),
        None => 2.0 / 3.0,
    };
    if !f.is_finite() || f <= 0.0 {
        return Err(KernelError::new("'f' must be finite and > 0"));
    }
    let iter = match args.get("iter") {
        Some(v) => v
            .as_scalar()
            .filter(|i| i.is_finite() && i.abs() < 2147483648.0)
            .map(f64::trunc),
        None => Some(3.0),
    };
    let iter = match iter {
        Some(i) if i >= 0.0 => i as i64,
        _ => return Err(KernelError::new("'iter' must be finite and >= 0")),
    };
    let delta = match args.get("delta") {
        Some(v) => v.as_scalar().unwrap_or(f64::NAN),
        // 0.01 * diff(range(x)): NA when x has one.
        None => {
            if x.iter().any(|v| v.is_nan()) {
                f64::NAN
            } else {
                let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                0.01 * (hi - lo)
            }
        }
    };
    if !delta.is_finite() || delta < 0.0 {
        return Err(KernelError::new("'delta' must be finite and > 0"));
    }
    let fit = clowess(&xs, &ys, f, iter, delta);
    Ok(Value::List(List {
        class: None,
        names: Some(vec!["x".into(), "y".into()]),
        items: vec![Value::Num(xs), Value::Num(fit)],
        row_names: None,
    }))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y"] {
        if let Some(t @ (Type::Str { .. } | Type::Record { .. } | Type::Formula { .. })) =
            args.ty(name)
        {
            return Err(args.error(
                name,
                format!(
                    "flowcast's lowess() needs numbers for '{name}', not {}",
                    t.describe()
                ),
            ));
        }
    }
    let n = match args.ty("x") {
        // One column is the y values; more, x and y: rows either way.
        Some(Type::Mat { rows, cols }) => cols.and(*rows),
        Some(Type::Record { .. } | Type::List { .. }) => None,
        Some(t) => t.len(),
        None => None,
    };
    let num = Type::Num {
        len: n,
        value: None,
    };
    Ok(Type::Record {
        class: "list".into(),
        fields: vec![("x".into(), num.clone()), ("y".into(), num)],
    })
}
