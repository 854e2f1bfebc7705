//! `approx(x, y, xout, method, n, yleft, yright, rule, f, ties, na.rm)`:
//! R's linear and constant interpolation, stats/R/approx.R step by step
//! (`regularize.values`: NA pairs dropped or kept, sorted, tied `x`
//! collapsed with `ties`, warning "collapsing to unique 'x' values" when
//! `ties` was not given) over approx.c's `R_approxtest` and
//! `R_approxfun`/`approx1`. The result is R's `list(x = xout, y = yout)`.

use std::collections::HashMap;

use super::args::{ArgError, Args};
use super::fun::{self, Fun};
use super::value::{is_na, List, NA};
use super::{opt, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "approx",
    params: &[
        opt("x"),
        opt("y"),
        opt("xout"),
        opt("method"),
        opt("n"),
        opt("yleft"),
        opt("yright"),
        opt("rule"),
        opt("f"),
        opt("ties"),
        opt("na.rm"),
    ],
    random: false,
    shape,
    eval,
}];

/// approx.c's `appr_meth`.
#[derive(Clone, Copy)]
pub(crate) struct Method {
    pub ylow: f64,
    pub yhigh: f64,
    pub f1: f64,
    pub f2: f64,
    /// 1 linear, 2 constant.
    pub kind: u8,
}

/// R's `approx1`: `y(v)` from the sorted `(x, y)`, the interval found by
/// bisection.
pub(crate) fn approx1(v: f64, x: &[f64], y: &[f64], m: &Method) -> f64 {
    let n = x.len();
    if n == 0 {
        return f64::NAN;
    }
    let (mut i, mut j) = (0, n - 1);
    if v < x[i] {
        return m.ylow;
    }
    if v > x[j] {
        return m.yhigh;
    }
    while i + 1 < j {
        let ij = (i + j) / 2;
        if v < x[ij] {
            j = ij;
        } else {
            i = ij;
        }
    }
    if v == x[j] {
        return y[j];
    }
    if v == x[i] {
        return y[i];
    }
    if m.kind == 1 {
        y[i] + (y[j] - y[i]) * ((v - x[i]) / (x[j] - x[i]))
    } else {
        (if m.f1 != 0.0 { y[i] * m.f1 } else { 0.0 })
            + (if m.f2 != 0.0 { y[j] * m.f2 } else { 0.0 })
    }
}

/// R's `R_approxfun`: each `xout` interpolated, a NaN kept as it is.
pub(crate) fn approx_fun(x: &[f64], y: &[f64], xout: &[f64], m: &Method) -> Vec<f64> {
    xout.iter()
        .map(|&v| if v.is_nan() { v } else { approx1(v, x, y, m) })
        .collect()
}

/// What `regularize.values` returns.
pub(crate) struct Regular {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    /// `notNA` when NA pairs were kept (`na.rm = FALSE`).
    not_na: Option<Vec<bool>>,
}

/// `ties`: "ordered" (x taken as sorted) or the function collapsing ties,
/// with whether x is taken as sorted before it collapses them
/// (`list("ordered", mean)`).
pub(crate) enum Ties<'f> {
    Ordered,
    Collapse(Fun<'f>, bool),
}

/// The `ties` argument as `regularize.values` reads it: "ordered", a
/// function (or its name), or `list(<string>, <function>)`, whose string
/// "ordered" says x is sorted already. The workflow hands a function
/// written by name inside that list as its name.
pub(crate) fn ties_of<'f>(t: Option<&Value>, ctx: &Ctx<'f>) -> Result<Ties<'f>, KernelError> {
    match t {
        Some(Value::Str(s)) if s.len() == 1 && s[0] == "ordered" => Ok(Ties::Ordered),
        Some(Value::List(l)) if l.class.is_none() => match &l.items[..] {
            [first, f @ Value::Str(_)] => {
                let ordered = matches!(first, Value::Str(s) if s.len() == 1 && s[0] == "ordered");
                Ok(Ties::Collapse(
                    fun::resolve_or(Some(f), ctx, "mean")?,
                    ordered,
                ))
            }
            _ => Err(KernelError::new(
                "'ties' is not \"ordered\", a function, or list(<string>, <function>)",
            )),
        },
        t => Ok(Ties::Collapse(fun::resolve_or(t, ctx, "mean")?, false)),
    }
}

/// A key under which R's `unique` and `match` find doubles equal: 0 and
/// -0 as one, every NA as one, every other NaN as one.
fn key(v: f64) -> u64 {
    if v == 0.0 {
        0
    } else if is_na(v) {
        NA.to_bits()
    } else if v.is_nan() {
        f64::NAN.to_bits()
    } else {
        v.to_bits()
    }
}

/// R's `regularize.values(x, y, ties, warn.collapsing, na.rm)`.
pub(crate) fn regularize(
    mut x: Vec<f64>,
    mut y: Vec<f64>,
    ties: &Ties,
    warn: bool,
    na_rm: bool,
    ctx: &mut Ctx,
) -> Result<Regular, KernelError> {
    let na: Vec<bool> = x
        .iter()
        .zip(&y)
        .map(|(a, b)| a.is_nan() || b.is_nan())
        .collect();
    let mut ok: Option<Vec<bool>> = None;
    let nx = if na.iter().any(|&b| b) {
        if na_rm {
            let keep = |v: Vec<f64>| -> Vec<f64> {
                v.into_iter()
                    .zip(&na)
                    .filter(|(_, &n)| !n)
                    .map(|(v, _)| v)
                    .collect()
            };
            x = keep(x);
            y = keep(y);
            x.len()
        } else {
            let o: Vec<bool> = na.iter().map(|&n| !n).collect();
            let count = o.iter().filter(|&&b| b).count();
            ok = Some(o);
            count
        }
    } else {
        x.len()
    };
    let Ties::Collapse(f, ordered) = ties else {
        return Ok(Regular { x, y, not_na: ok });
    };
    let checked: Vec<f64> = match &ok {
        Some(o) => x
            .iter()
            .zip(o)
            .filter(|(_, &k)| k)
            .map(|(&v, _)| v)
            .collect(),
        None => x.clone(),
    };
    // is.unsorted: NA would make it NA, and `if` an error; only the kept
    // pairs are looked at.
    if !ordered && checked.windows(2).any(|w| w[1] < w[0]) {
        let mut o: Vec<usize> = (0..x.len()).collect();
        // order(x): stable, NA last, -0 and 0 as equals.
        o.sort_by(|&a, &b| match (x[a].is_nan(), x[b].is_nan()) {
            (false, false) => x[a].partial_cmp(&x[b]).unwrap_or(std::cmp::Ordering::Equal),
            (a_nan, b_nan) => a_nan.cmp(&b_nan),
        });
        x = o.iter().map(|&i| x[i]).collect();
        y = o.iter().map(|&i| y[i]).collect();
        ok = ok.map(|k| o.iter().map(|&i| k[i]).collect());
    }
    let mut first: HashMap<u64, usize> = HashMap::new();
    let mut group = Vec::with_capacity(x.len());
    let mut ux = Vec::new();
    for &v in &x {
        let next = ux.len();
        let g = *first.entry(key(v)).or_insert(next);
        if g == next {
            ux.push(v);
        }
        group.push(g);
    }
    if ux.len() < nx {
        if warn {
            ctx.warn("collapsing to unique 'x' values");
        }
        let mut members: Vec<Vec<f64>> = vec![Vec::new(); ux.len()];
        for (&g, &v) in group.iter().zip(&y) {
            members[g].push(v);
        }
        y = members
            .into_iter()
            .map(|m| {
                let v = f.call_on(&Value::Num(m), &[], ctx)?;
                match v.as_f64_slice() {
                    Some(s) if s.len() == 1 => Ok(s[0]),
                    _ => Err(KernelError::new("length(y) == length(x) is not TRUE")),
                }
            })
            .collect::<Result<_, _>>()?;
        x = ux;
        if ok.is_some() {
            ok = Some(x.iter().map(|v| !v.is_nan()).collect());
        }
    }
    Ok(Regular { x, y, not_na: ok })
}

/// The numbers of argument `name`, or R's message for a value that is not
/// numbers.
fn numbers(v: &Value) -> Result<Vec<f64>, KernelError> {
    match v {
        Value::Null => Ok(Vec::new()),
        v => v.as_f64_slice().map(|s| s.into_owned()).ok_or_else(|| {
            KernelError::new("'x' is a list, but does not have components 'x' and 'y'")
        }),
    }
}

fn stop_if_not(ok: bool, what: &str) -> Result<(), KernelError> {
    if ok {
        Ok(())
    } else {
        Err(KernelError::new(format!("{what} is not TRUE")))
    }
}

/// `method` as `pmatch(method, c("linear", "constant"))` reads it.
fn method_kind(v: Option<&Value>) -> Result<u8, KernelError> {
    let invalid = || KernelError::new("invalid interpolation method");
    let s = match v {
        None => return Ok(1),
        Some(Value::Str(s)) if !s.is_empty() => s[0].as_str(),
        Some(v) => match v.as_scalar() {
            Some(k) if k == 1.0 || k == 2.0 => return Ok(k as u8),
            _ => return Err(invalid()),
        },
    };
    if !s.is_empty() && "linear".starts_with(s) {
        Ok(1)
    } else if !s.is_empty() && "constant".starts_with(s) {
        Ok(2)
    } else {
        Err(invalid())
    }
}

/// What approx.R and approxfun.R make of their arguments before any
/// `xout`: the regularized points, how many are not NA, and the method.
pub(crate) struct Fit {
    pub r: Regular,
    pub nx: usize,
    pub method: Method,
    pub f: f64,
    pub na_rm: bool,
}

/// approx's and approxfun's common part, in R's order: method, rule, the
/// regularized points, their count, yleft, yright and f.
pub(crate) fn fit(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Fit, KernelError> {
    let kind = method_kind(args.get("method"))?;
    let rule = match args.get("rule") {
        None => vec![1.0],
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        Some(_) => return Err(KernelError::new("is.numeric(rule) is not TRUE")),
    };
    stop_if_not(!rule.is_empty(), "(lenR <- length(rule)) >= 1L")?;
    stop_if_not(rule.len() <= 2, "lenR <= 2L")?;
    let rule = [rule[0], rule[rule.len() - 1]];
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (x, y) = match args.get("y") {
        None | Some(Value::Null) => {
            let y = numbers(xv)?;
            ((1..=y.len()).map(|i| i as f64).collect(), y)
        }
        Some(yv) => (numbers(xv)?, numbers(yv)?),
    };
    if x.len() != y.len() {
        return Err(KernelError::new("'x' and 'y' lengths differ"));
    }
    let ties = ties_of(args.get("ties"), ctx)?;
    let na_rm = args.bool_or("na.rm", true)?;
    let r = regularize(x, y, &ties, !args.has("ties"), na_rm, ctx)?;
    let nx = match &r.not_na {
        Some(ok) if !na_rm => ok.iter().filter(|&&b| b).count(),
        _ => r.x.len(),
    };
    if nx <= 1 {
        if kind == 1 {
            return Err(KernelError::new(
                "need at least two non-NA values to interpolate",
            ));
        }
        if nx == 0 {
            return Err(KernelError::new("zero non-NA points"));
        }
    }
    let end = |name: &str, rule: f64, at: usize| -> Result<f64, KernelError> {
        match args.get(name) {
            None if rule == 1.0 => Ok(NA),
            None => Ok(r.y[at]),
            Some(v) => {
                stop_if_not(v.len() == 1, &format!("length({name}) == 1L"))?;
                v.as_scalar()
                    .ok_or_else(|| KernelError::new(format!("invalid '{name}' value")))
            }
        }
    };
    let ylow = end("yleft", rule[0], 0)?;
    let yhigh = end("yright", rule[1], r.y.len().saturating_sub(1))?;
    let f = match args.get("f") {
        None => 0.0,
        Some(v) => {
            stop_if_not(v.len() == 1, "length(f) == 1L")?;
            v.as_scalar().unwrap_or(NA)
        }
    };
    let method = Method {
        ylow,
        yhigh,
        f1: 1.0 - f,
        f2: f,
        kind,
    };
    Ok(Fit {
        r,
        nx,
        method,
        f,
        na_rm,
    })
}

/// approx.c's `R_approxtest`, on the regularized points.
pub(crate) fn approx_test(fit: &Fit) -> Result<(), KernelError> {
    let (r, f) = (&fit.r, fit.f);
    if fit.method.kind == 2 && !(f.is_finite() && (0.0..=1.0).contains(&f)) {
        return Err(KernelError::new("approx(): invalid f value"));
    }
    if fit.na_rm {
        if r.x.iter().zip(&r.y).any(|(a, b)| a.is_nan() || b.is_nan()) {
            return Err(KernelError::new(
                "approx(): attempted to interpolate NA values",
            ));
        }
    } else if r.x.iter().any(|a| a.is_nan()) {
        return Err(KernelError::new(
            "approx(x,y, .., na.rm=FALSE): NA values in x are not allowed",
        ));
    }
    Ok(())
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let fit = fit(args, ctx)?;
    let (r, nx) = (&fit.r, fit.nx);
    let xout = match args.get("xout") {
        Some(v) => numbers(v)?,
        None => {
            let n = args.scalar_or("n", 50.0)?;
            if n.is_nan() || n <= 0.0 {
                return Err(KernelError::new("'approx' requires n >= 1"));
            }
            let kept: Vec<f64> = match &r.not_na {
                Some(ok) if !fit.na_rm => {
                    r.x.iter()
                        .zip(ok)
                        .filter(|(_, &k)| k)
                        .map(|(&v, _)| v)
                        .collect()
                }
                _ => r.x[..nx].to_vec(),
            };
            let (from, to) = (kept[0], kept[kept.len() - 1]);
            super::data::seq_spaced(from, to, n.ceil() as usize)?
        }
    };
    approx_test(&fit)?;
    let yout = approx_fun(&r.x, &r.y, &xout, &fit.method);
    Ok(Value::List(List {
        class: None,
        names: Some(vec!["x".into(), "y".into()]),
        items: vec![Value::Num(xout), Value::Num(yout)],
        row_names: None,
    }))
}

fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y", "xout"] {
        if let Some(t) = args.ty(name) {
            if !t.is_numeric() && !matches!(t, Type::Null) {
                return Err(args.error(
                    name,
                    format!("approx() needs numbers for '{name}', not {}", t.describe()),
                ));
            }
        }
    }
    if let Some(m) = args.const_str("method") {
        if !(!m.is_empty() && ("linear".starts_with(m) || "constant".starts_with(m))) {
            return Err(args.error("method", "invalid interpolation method"));
        }
    }
    if let Some(Type::Str { value: Some(v), .. }) = args.ty("ties") {
        if v.len() != 1 || v[0] != "ordered" {
            fun::resolve_shape(args.ty("ties"), ctx).map_err(|m| args.error("ties", m))?;
        }
    }
    let len = match (args.ty("xout"), args.ty("n")) {
        (Some(t), _) => t.len(),
        (None, None) => Some(50),
        (None, Some(n)) => n
            .const_scalar()
            .filter(|v| v.is_finite() && *v > 0.0)
            .map(|v| v.ceil() as usize),
    };
    let num = || Type::Num { len, value: None };
    Ok(Type::record("list", vec![("x", num()), ("y", num())]))
}
