//! One-dimensional search over a function: `optimize` (and `optimise`),
//! R's minimiser, the `optimize` of stats/R/nlm.R over `Brent_fmin` and
//! `fcn1` of stats/src/optimize.c; and `uniroot`, R's root finder over
//! `R_zeroin2` (see `htest::uniroot`). Both are kept in the original's
//! shape, so the points where `f` is evaluated, and the result, are R's.

use super::fun::{resolve, resolve_shape, Fun};
use super::htest::uniroot::{widen, Extend};
use super::value::List;
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

const PARAMS: &[super::Param] = &[
    req("f"),
    opt("interval"),
    DOTS,
    opt("lower"),
    opt("upper"),
    opt("maximum"),
    opt("tol"),
];

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "optimize",
        params: PARAMS,
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "optimise",
        params: PARAMS,
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "uniroot",
        params: &[
            req("f"),
            opt("interval"),
            DOTS,
            opt("lower"),
            opt("upper"),
            opt("f.lower"),
            opt("f.upper"),
            opt("extendInt"),
            opt("check.conv"),
            opt("tol"),
            opt("maxiter"),
            opt("trace"),
        ],
        random: false,
        shape,
        eval: uniroot_eval,
    },
];

/// R's `Brent_fmin` (stats/src/optimize.c): a minimum of `f` on
/// `[ax, bx]` to within `tol`, by golden-section search and successive
/// parabolic interpolation.
pub(super) fn brent_fmin(
    ax: f64,
    bx: f64,
    f: &mut dyn FnMut(f64) -> Result<f64, KernelError>,
    tol: f64,
) -> Result<f64, KernelError> {
    // On an interval whose width overflows, R's search never ends: its
    // tolerances and steps become NaN and no test ever stops it.
    if !(bx - ax).is_finite() {
        return Err(KernelError::new(format!(
            "the interval [{}, {}] is too wide to search: its width overflows \
             (R's Brent search would never end); give finite bounds closer together",
            super::data::r_num_to_string(ax),
            super::data::r_num_to_string(bx)
        )));
    }
    // c is the squared inverse of the golden ratio.
    let c = (3.0 - 5f64.sqrt()) * 0.5;
    // eps is approximately the square root of the relative machine precision.
    let eps = f64::EPSILON.sqrt();

    let mut a = ax;
    let mut b = bx;
    let mut v = a + c * (b - a);
    let mut w = v;
    let mut x = v;

    let mut d: f64 = 0.0;
    let mut e: f64 = 0.0;
    let mut fx = f(x)?;
    let mut fv = fx;
    let mut fw = fx;
    let tol3 = tol / 3.0;

    loop {
        let xm = (a + b) * 0.5;
        let tol1 = eps * x.abs() + tol3;
        let t2 = tol1 * 2.0;

        // Check the stopping criterion.
        if (x - xm).abs() <= t2 - (b - a) * 0.5 {
            break;
        }
        let mut p = 0.0;
        let mut q = 0.0;
        let mut r = 0.0;
        if e.abs() > tol1 {
            // Fit a parabola.
            r = (x - w) * (fx - fv);
            q = (x - v) * (fx - fw);
            p = (x - v) * q - (x - w) * r;
            q = (q - r) * 2.0;
            if q > 0.0 {
                p = -p;
            } else {
                q = -q;
            }
            r = e;
            e = d;
        }

        if p.abs() >= (q * 0.5 * r).abs() || p <= q * (a - x) || p >= q * (b - x) {
            // A golden-section step.
            e = if x < xm { b - x } else { a - x };
            d = c * e;
        } else {
            // A parabolic-interpolation step.
            d = p / q;
            let u = x + d;
            // f must not be evaluated too close to ax or bx.
            if u - a < t2 || b - u < t2 {
                d = tol1;
                if x >= xm {
                    d = -d;
                }
            }
        }

        // f must not be evaluated too close to x.
        let u = if d.abs() >= tol1 {
            x + d
        } else if d > 0.0 {
            x + tol1
        } else {
            x - tol1
        };

        let fu = f(u)?;

        // Update a, b, v, w and x.
        if fu <= fx {
            if u < x {
                b = x;
            } else {
                a = x;
            }
            v = w;
            w = x;
            x = u;
            fv = fw;
            fw = fx;
            fx = fu;
        } else {
            if u < x {
                a = u;
            } else {
                b = u;
            }
            if fu <= fw || w == x {
                v = w;
                fv = fw;
                w = u;
                fw = fu;
            } else if fu <= fv || v == x || v == w {
                v = u;
                fv = fu;
            }
        }
    }
    Ok(x)
}

/// R's `fcn1`: the value of `f` as the minimiser reads it, one number, a
/// value that is not finite replaced by the largest double with R's
/// warning.
pub(super) fn fcn1(v: &Value, ctx: &mut Ctx) -> Result<f64, KernelError> {
    match v {
        Value::Num(x) if x.len() == 1 => {
            if x[0].is_finite() {
                Ok(x[0])
            } else {
                ctx.warn("NA/Inf replaced by maximum positive value");
                Ok(f64::MAX)
            }
        }
        _ => Err(KernelError::new("invalid function value in 'optimize'")),
    }
}

/// A finite number for `name`, or R's `invalid 'name' value`.
fn finite(v: Option<&Value>, name: &str) -> Result<f64, KernelError> {
    v.and_then(|v| super::names::bare(v).as_f64_slice()?.first().copied())
        .filter(|x| x.is_finite())
        .ok_or_else(|| KernelError::new(format!("invalid '{name}' value")))
}

/// `lower` and `upper`: given, or `min(interval)` and `max(interval)`.
fn bounds(args: &Args<&Value>) -> Result<(f64, f64), KernelError> {
    let interval = || -> Result<Vec<f64>, KernelError> {
        let i = args
            .get("interval")
            .ok_or_else(|| KernelError::new("argument \"interval\" is missing, with no default"))?;
        super::names::bare(i)
            .as_f64_slice()
            .map(|x| x.into_owned())
            .ok_or_else(|| KernelError::new("invalid 'interval' value"))
    };
    let lower = match args.get("lower") {
        Some(v) => finite(Some(v), "xmin")?,
        None => finite(
            Some(&Value::scalar(
                interval()?.iter().copied().fold(f64::INFINITY, f64::min),
            )),
            "xmin",
        )?,
    };
    let upper = match args.get("upper") {
        Some(v) => finite(Some(v), "xmax")?,
        None => finite(
            Some(&Value::scalar(
                interval()?
                    .iter()
                    .copied()
                    .fold(f64::NEG_INFINITY, f64::max),
            )),
            "xmax",
        )?,
    };
    if lower >= upper {
        return Err(KernelError::new("'xmin' not less than 'xmax'"));
    }
    Ok((lower, upper))
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f: Fun = resolve(args.get("f"), ctx)?
        .ok_or_else(|| KernelError::new("attempt to minimize non-function"))?;
    let (lower, upper) = bounds(args)?;
    let maximum = args.bool_or("maximum", false)?;
    let tol = match args.get("tol") {
        None => f64::EPSILON.powf(0.25),
        Some(v) => finite(Some(v), "tol").and_then(|t| {
            if t > 0.0 {
                Ok(t)
            } else {
                Err(KernelError::new("invalid 'tol' value"))
            }
        })?,
    };
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let call = |x: f64, ctx: &mut Ctx| f.call_on(&Value::scalar(x), &dots, ctx);
    let at = {
        let mut objective = |x: f64| -> Result<f64, KernelError> {
            let v = call(x, ctx)?;
            // `function(arg) -f(arg, ...)` when maximising.
            let v = if maximum {
                match v {
                    Value::Num(y) => Value::Num(y.iter().map(|y| -y).collect()),
                    other => other,
                }
            } else {
                v
            };
            fcn1(&v, ctx)
        };
        brent_fmin(lower, upper, &mut objective, tol)?
    };
    let objective = call(at, ctx)?;
    let which = if maximum { "maximum" } else { "minimum" };
    Ok(Value::List(List {
        class: None,
        names: Some(vec![which.to_string(), "objective".to_string()]),
        items: vec![Value::scalar(at), objective],
        row_names: None,
    }))
}

fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let bounded = args.has("lower") && args.has("upper");
    if !(args.has("interval") || bounded) {
        return Err(ArgError::call(
            "argument \"interval\" is missing, with no default",
        ));
    }
    // The body is checked once; how often the search calls it is not known.
    if let Some(f) = resolve_shape(args.ty("f"), ctx).map_err(|m| args.error("f", m))? {
        let mut given = vec![(None, Type::num(1))];
        given.extend(args.dots().map(|(n, t)| (n.map(str::to_string), t.clone())));
        let t = f
            .shape_about(given, super::work::OPTIMIZE_EVALUATIONS, ctx)
            .map_err(|m| args.error("f", m))?;
        let scalar = t.is_numeric() && t.len().is_none_or(|n| n == 1);
        // R names the C routine that read the value.
        let what = if args.func == "uniroot" {
            "zeroin"
        } else {
            "optimize"
        };
        if !(scalar || matches!(t, Type::Any)) {
            return Err(args.error(
                "f",
                format!("invalid function value in '{what}': {}", t.describe()),
            ));
        }
    }
    Ok(Type::Any)
}

/// R's `fcn2` (stats/src/zeroin.c): `f`'s value as the root finder reads
/// it, one number, an infinity or NA replaced by the largest double of its
/// sign with R's warning.
fn fcn2(v: &Value, ctx: &mut Ctx) -> Result<f64, KernelError> {
    match v {
        Value::Num(x) if x.len() == 1 => Ok(if x[0].is_finite() {
            x[0]
        } else if x[0] == f64::NEG_INFINITY {
            ctx.warn("-Inf replaced by maximally negative value");
            -f64::MAX
        } else {
            ctx.warn("NA/Inf replaced by maximum positive value");
            f64::MAX
        }),
        _ => Err(KernelError::new("invalid function value in 'zeroin'")),
    }
}

/// One number of `f(x)` for `f.lower` and `f.upper`, NA when it is not.
fn end_value(v: &Value) -> Result<f64, KernelError> {
    match super::names::bare(v) {
        Value::Num(x) if x.len() == 1 => Ok(x[0]),
        Value::Bool(b) if b.len() == 1 => Ok(b[0].map_or(f64::NAN, |b| f64::from(u8::from(b)))),
        _ => Err(KernelError::new("invalid function value in 'zeroin'")),
    }
}

/// R's `uniroot` (stats/R/nlm.R): a root of `f` in `[lower, upper]`,
/// whose ends must have values of opposite sign unless `extendInt` lets
/// the interval widen until they do.
fn uniroot_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f: Fun = resolve(args.get("f"), ctx)?
        .ok_or_else(|| KernelError::new("argument \"f\" is missing, with no default"))?;
    if let Some(i) = args.get("interval") {
        if i.len() != 2 {
            return Err(KernelError::new("'interval' must be a vector of length 2"));
        }
    }
    let ext = match args.get("extendInt").map(super::names::bare) {
        None => None,
        Some(Value::Str(e)) if e.len() == 1 => match e[0].as_str() {
            "no" => None,
            "yes" => Some(Extend::Yes),
            "downX" => Some(Extend::Down),
            "upX" => Some(Extend::Up),
            _ => {
                return Err(KernelError::new(
                    "'arg' should be one of \u{201c}no\u{201d}, \u{201c}yes\u{201d}, \u{201c}downX\u{201d}, \u{201c}upX\u{201d}",
                ))
            }
        },
        Some(_) => return Err(KernelError::new("'arg' must be of length 1")),
    };
    let end = |name: &str, pick: fn(f64, f64) -> f64, from: f64| -> Result<f64, KernelError> {
        match args.get(name) {
            Some(v) => Ok(super::names::bare(v)
                .as_f64_slice()
                .and_then(|x| x.first().copied())
                .unwrap_or(f64::NAN)),
            None => {
                let i = args.get("interval").ok_or_else(|| {
                    KernelError::new("argument \"interval\" is missing, with no default")
                })?;
                let x = super::names::bare(i).as_f64_slice().unwrap_or_default();
                Ok(x.iter().copied().fold(from, pick))
            }
        }
    };
    let lower = end("lower", f64::min, f64::INFINITY)?;
    let upper = end("upper", f64::max, f64::NEG_INFINITY)?;
    if lower.is_nan() || upper.is_nan() || lower >= upper {
        return Err(KernelError::new("lower < upper  is not fulfilled"));
    }
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let call = |x: f64, ctx: &mut Ctx| f.call_on(&Value::scalar(x), &dots, ctx);
    let f_lower = match args.get("f.lower") {
        Some(v) => end_value(v)?,
        None => end_value(&call(lower, ctx)?)?,
    };
    let f_upper = match args.get("f.upper") {
        Some(v) => end_value(v)?,
        None => end_value(&call(upper, ctx)?)?,
    };
    let check_conv = args.bool_or("check.conv", false)?;
    let tol = match args.get("tol") {
        None => f64::EPSILON.powf(0.25),
        Some(v) => finite(Some(v), "tol")?,
    };
    let maxiter = match args.get("maxiter") {
        None => 1000.0,
        Some(v) => finite(Some(v), "maxiter")?,
    };
    if maxiter < 1.0 {
        return Err(KernelError::new("invalid 'maxiter' value"));
    }
    let maxiter = maxiter as usize;
    let (lower, upper, fl, fu, init_it) = match ext {
        None => {
            let (fl, fu) = super::htest::uniroot::end_values(f_lower, f_upper)?;
            (lower, upper, fl, fu, None)
        }
        Some(_) => {
            if f_lower.is_nan() {
                return Err(KernelError::new("f.lower = f(lower) is NA"));
            }
            if f_upper.is_nan() {
                return Err(KernelError::new("f.upper = f(upper) is NA"));
            }
            let mut g = |x: f64| end_value(&call(x, ctx)?);
            let w = widen(
                &mut g,
                [lower, upper],
                [f_lower, f_upper],
                ext,
                maxiter as i64,
            )?;
            let [fl, fu] = w.values;
            // !isTRUE(sign(f.lower) * sign(f.upper) <= 0)
            let sign = |x: f64| if x == 0.0 { 0.0 } else { x.signum() };
            if fl.is_nan() || fu.is_nan() || sign(fl) * sign(fu) > 0.0 {
                return Err(KernelError::new(if w.it.is_some() {
                    "did not succeed extending the interval endpoints for f(lower) * f(upper) <= 0"
                } else {
                    "f() values at end points not of opposite sign"
                }));
            }
            let [l, u] = w.ends;
            if !l.is_finite() {
                return Err(KernelError::new("invalid 'xmin' value"));
            }
            if !u.is_finite() {
                return Err(KernelError::new("invalid 'xmax' value"));
            }
            (l, u, fl, fu, w.it)
        }
    };
    let mut failed: Option<KernelError> = None;
    let zero = {
        let mut value = |x: f64| -> f64 {
            if failed.is_some() {
                return 0.0;
            }
            match call(x, ctx).and_then(|v| fcn2(&v, ctx)) {
                Ok(y) => y,
                // A zero ends the search at once; the error is reported.
                Err(e) => {
                    failed = Some(e);
                    0.0
                }
            }
        };
        super::htest::uniroot::zeroin2(lower, upper, fl, fu, &mut value, tol, maxiter)
    };
    if let Some(e) = failed {
        return Err(e);
    }
    let mut iter = zero.iter;
    if iter < 0 {
        let message = format!(
            "_NOT_ converged in {maxiter} iteration{}",
            if maxiter == 1 { "" } else { "s" }
        );
        if check_conv {
            return Err(KernelError::new(message));
        }
        ctx.warn(message);
        iter = maxiter as i64;
    }
    iter += init_it.unwrap_or(0);
    let f_root = call(zero.root, ctx)?;
    Ok(Value::List(List {
        class: None,
        names: Some(
            ["root", "f.root", "iter", "init.it", "estim.prec"]
                .map(String::from)
                .to_vec(),
        ),
        items: vec![
            Value::scalar(zero.root),
            f_root,
            Value::scalar(iter as f64),
            Value::scalar(init_it.map_or(super::value::NA, |i| i as f64)),
            Value::scalar(zero.prec),
        ],
        row_names: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::brent_fmin;

    #[test]
    fn an_interval_whose_width_overflows_is_refused_not_searched_forever() {
        let mut calls = 0;
        let mut f = |x: f64| {
            calls += 1;
            Ok(x * x)
        };
        let e = brent_fmin(-1e308, 1.7e308, &mut f, 1e-8).unwrap_err();
        assert!(e.0.contains("too wide"), "{}", e.0);
        let m = brent_fmin(-1.0, 2.0, &mut f, 1e-8).unwrap();
        assert!(m.abs() < 1e-6, "{m}");
        assert!(calls > 0 && calls < 100, "{calls}");
    }
}
