//! Functions that return functions: `ecdf`, `approxfun`, `stepfun` and
//! `splinefun`, and calling what they return.
//!
//! R returns a closure whose environment holds what evaluating it needs.
//! flowcast has no closures as values, so the value is a classed list of
//! exactly that environment (knots, values, method, ends, the spline's
//! coefficients): data a step can hold, the cache can store and another
//! step can read. The workflow reader turns a call `Fn(q)` whose name is a
//! step or a variable (not a built-in function) into a call of
//! [`CALL_VALUE`] with `Fn`'s value as its first argument, so a call of a
//! value depends on the step that holds it as any read does, and is
//! evaluated here, by one kernel. `sapply(q, Fn)` reaches the same code
//! through [`super::fun::Fun`].
//!
//! The computations are approx.rs's and spline.rs's, which `approx` and
//! `spline` use: approxfun.R's and splinefun.R's preparation, approx.c's
//! `R_approxfun` and splines.c's `spline_eval`; splinefunH0's Hermite
//! cubics for "monoH.FC", with monoSpl.c's `monoFC_mod`.

use super::approx::{self, approx_fun, Method};
use super::args::{ArgError, Args};
use super::spline::{self, spline_coef, spline_eval, Coef};
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value, DOTS};

/// The internal function a call of a value becomes (see the module's
/// comment). Its first argument is the value, its second the name it was
/// called by, for messages; no R name has parentheses, so no user call
/// means it.
pub const CALL_VALUE: &str = "(call)";

/// The class of each kind of function value; R's `class()` of an
/// approxfun or splinefun is "function".
pub(crate) const CLASSES: &[&str] = &["ecdf", "stepfun", "function"];

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "ecdf",
        params: &[req("x")],
        random: false,
        shape: ecdf_shape,
        eval: ecdf_eval,
    },
    Kernel {
        name: "approxfun",
        params: &[
            opt("x"),
            opt("y"),
            opt("method"),
            opt("yleft"),
            opt("yright"),
            opt("rule"),
            opt("f"),
            opt("ties"),
            opt("na.rm"),
        ],
        random: false,
        shape: approxfun_shape,
        eval: approxfun_eval,
    },
    Kernel {
        name: "stepfun",
        params: &[req("x"), req("y"), opt("f"), opt("ties"), opt("right")],
        random: false,
        shape: stepfun_shape,
        eval: stepfun_eval,
    },
    Kernel {
        name: "splinefun",
        params: &[opt("x"), opt("y"), opt("method"), opt("ties")],
        random: false,
        shape: splinefun_shape,
        eval: splinefun_eval,
    },
    Kernel {
        name: "knots",
        params: &[req("Fn"), DOTS],
        random: false,
        shape: knots_shape,
        eval: knots_eval,
    },
    Kernel {
        name: CALL_VALUE,
        params: &[req("(fn)"), req("(name)"), DOTS],
        random: false,
        shape: call_shape,
        eval: call_eval,
    },
];

/// A function value, read in place.
pub(crate) enum Callable<'v> {
    /// approxfun's closure (ecdf's and stepfun's too): `.approxfun(x, y,
    /// v, method, yleft, yright, f, na.rm)`.
    Approx {
        x: &'v [f64],
        y: &'v [f64],
        method: Method,
    },
    /// splinefun's closure over splines.c's coefficients `z`.
    Spline {
        method: u8,
        x: &'v [f64],
        y: &'v [f64],
        b: &'v [f64],
        c: &'v [f64],
        d: &'v [f64],
    },
    /// splinefunH0's closure (splinefun's "monoH.FC").
    Hermite {
        x0: &'v [f64],
        y0: &'v [f64],
        m: &'v [f64],
        dx: &'v [f64],
    },
}

fn nums(v: Vec<f64>) -> Value {
    Value::Num(v)
}

/// The list standing for a function value: its kind first, then its
/// environment's values.
fn function_value(class: &str, kind: &str, fields: Vec<(&str, Value)>) -> Value {
    let mut names = vec!["fun".to_string()];
    let mut items = vec![Value::string(kind)];
    for (n, v) in fields {
        names.push(n.to_string());
        items.push(v);
    }
    Value::List(List {
        class: Some(class.to_string()),
        names: Some(names),
        items,
        row_names: None,
    })
}

/// Whether `v` is a function value.
#[allow(dead_code)]
pub(crate) fn is_callable(v: &Value) -> bool {
    view(v).is_some()
}

/// `v` read as a function value; `None` for any other value.
pub(crate) fn view(v: &Value) -> Option<Callable<'_>> {
    let Value::List(l) = v else { return None };
    if !CLASSES.contains(&l.class.as_deref()?) {
        return None;
    }
    let kind = match l.field("fun")? {
        Value::Str(s) if s.len() == 1 => s[0].as_str(),
        _ => return None,
    };
    let vec = |name: &str| match l.field(name) {
        Some(Value::Num(v)) => Some(&v[..]),
        _ => None,
    };
    let one = |name: &str| vec(name).and_then(|v| v.first().copied());
    Some(match kind {
        "approxfun" => {
            let f = one("f")?;
            Callable::Approx {
                x: vec("x")?,
                y: vec("y")?,
                method: Method {
                    ylow: one("yleft")?,
                    yhigh: one("yright")?,
                    f1: 1.0 - f,
                    f2: f,
                    kind: one("method")? as u8,
                },
            }
        }
        "splinefun" => Callable::Spline {
            method: one("method")? as u8,
            x: vec("x")?,
            y: vec("y")?,
            b: vec("b")?,
            c: vec("c")?,
            d: vec("d")?,
        },
        "splinefunH" => Callable::Hermite {
            x0: vec("x0")?,
            y0: vec("y0")?,
            m: vec("m")?,
            dx: vec("dx")?,
        },
        _ => return None,
    })
}

/// The type of a function value of `class`: what `check` knows of it.
fn callable_type(class: &str) -> Type {
    Type::record(
        class,
        vec![(
            "fun",
            Type::Str {
                len: Some(1),
                value: None,
            },
        )],
    )
}

/// Whether `t` may be a function value.
pub(crate) fn may_be_callable(t: &Type) -> bool {
    match t {
        Type::Record { class, fields } => {
            CLASSES.contains(&class.as_str()) && fields.iter().any(|(n, _)| n == "fun")
        }
        Type::Any => true,
        _ => false,
    }
}

fn stop_if_not(ok: bool, what: &str) -> Result<(), KernelError> {
    if ok {
        Ok(())
    } else {
        Err(KernelError::new(format!("{what} is not TRUE")))
    }
}

/// approxfun's value from approx.rs's preparation.
fn approx_value(class: &str, fit: &approx::Fit, extra: Vec<(&str, Value)>) -> Value {
    let m = &fit.method;
    let mut fields = vec![
        ("x", nums(fit.r.x.clone())),
        ("y", nums(fit.r.y.clone())),
        ("method", Value::scalar(f64::from(m.kind))),
        ("yleft", Value::scalar(m.ylow)),
        ("yright", Value::scalar(m.yhigh)),
        ("f", Value::scalar(fit.f)),
        ("na.rm", Value::flag(fit.na_rm)),
    ];
    fields.extend(extra);
    function_value(class, "approxfun", fields)
}

fn approxfun_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let fit = approx::fit(args, ctx)?;
    approx::approx_test(&fit)?;
    Ok(approx_value("function", &fit, Vec::new()))
}

/// The numbers of `x`, as `sort` and `is.unsorted` need them.
fn numbers(v: Option<&Value>, what: &str) -> Result<Vec<f64>, KernelError> {
    match v {
        None => Err(KernelError::new(format!(
            "argument \"{what}\" is missing, with no default"
        ))),
        Some(Value::Null) => Ok(Vec::new()),
        Some(v) => v
            .as_f64_slice()
            .map(|s| s.into_owned())
            .ok_or_else(|| KernelError::new(format!("'{what}' must be numeric"))),
    }
}

/// ecdf.R: `sort(x)` (NAs dropped), the unique values and the cumulated
/// counts over `n`, approxfun's "constant" from 0 to 1 with `f = 0`.
fn ecdf_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut x: Vec<f64> = numbers(args.get("x"), "x")?
        .into_iter()
        .filter(|v| !v.is_nan())
        .collect();
    let n = x.len();
    if n < 1 {
        return Err(KernelError::new(
            "'x' must have 1 or more non-missing values",
        ));
    }
    // Stable, -0 and 0 as equals: R's sort keeps them as they came, and
    // unique takes the first of the two as the value.
    x.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let mut vals: Vec<f64> = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    for &v in &x {
        match vals.last() {
            Some(&last) if last == v => *counts.last_mut().unwrap_or(&mut 0) += 1,
            _ => {
                vals.push(v);
                counts.push(1);
            }
        }
    }
    let mut cum = 0usize;
    let y: Vec<f64> = counts
        .iter()
        .map(|&c| {
            cum += c;
            cum as f64 / n as f64
        })
        .collect();
    Ok(function_value(
        "ecdf",
        "approxfun",
        vec![
            ("x", nums(vals)),
            ("y", nums(y)),
            ("method", Value::scalar(2.0)),
            ("yleft", Value::scalar(0.0)),
            ("yright", Value::scalar(1.0)),
            ("f", Value::scalar(0.0)),
            ("na.rm", Value::flag(true)),
            ("nobs", Value::scalar(n as f64)),
        ],
    ))
}

/// stepfun.R: the jumps `x` sorted, `y` one longer, approxfun's
/// "constant" between `y[1]` and `y[n + 1]`.
fn stepfun_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = numbers(args.get("x"), "x")?;
    // is.unsorted: NA when x has an NA, which `if` refuses.
    if x.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if x.windows(2).any(|w| w[1] < w[0]) {
        return Err(KernelError::new(
            "stepfun: 'x' must be ordered increasingly",
        ));
    }
    let n = x.len();
    if n < 1 {
        return Err(KernelError::new("'x' must have length >= 1"));
    }
    let y = numbers(args.get("y"), "y")?;
    if y.len() != n + 1 {
        return Err(KernelError::new("'y' must be one longer than 'x'"));
    }
    let right = args.bool_or("right", false)?;
    let f = match args.get("f") {
        None => f64::from(u8::from(right)),
        Some(v) => {
            stop_if_not(v.len() == 1, "length(f) == 1L")?;
            v.as_scalar().unwrap_or(NA)
        }
    };
    let inner: Vec<f64> = if right {
        y[..n].to_vec()
    } else {
        y[1..].to_vec()
    };
    let ties = args.get("ties").cloned();
    let given: Vec<(Option<String>, Value)> = vec![
        (Some("x".into()), Value::Num(x)),
        (Some("y".into()), Value::Num(inner)),
        (Some("method".into()), Value::string("constant")),
        (Some("yleft".into()), Value::scalar(y[0])),
        (Some("yright".into()), Value::scalar(y[n])),
        (Some("f".into()), Value::scalar(f)),
        (
            Some("ties".into()),
            ties.unwrap_or_else(|| Value::string("ordered")),
        ),
    ];
    let given = given.iter().map(|(n, v)| (n.clone(), v)).collect();
    let inner_args = Args::match_call("approxfun", KERNELS[1].params, given)
        .map_err(|e| KernelError::new(e.message))?;
    let fit = approx::fit(&inner_args, ctx)?;
    approx::approx_test(&fit)?;
    Ok(approx_value("stepfun", &fit, Vec::new()))
}

const SPLINE_METHODS: &[&str] = &["fmm", "periodic", "natural", "monoH.FC", "hyman"];

/// splinefun.R: the regularized points, then splines.c's coefficients
/// (Hyman's filter over fmm's for "hyman"), or for "monoH.FC" the
/// Fritsch-Carlson slopes of a Hermite spline.
fn splinefun_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let (x, mut y) = spline::points(args, ctx)?;
    let nx = x.len();
    if nx == 0 {
        return Err(KernelError::new("zero non-NA points"));
    }
    let method = super::acf::match_arg(args.get("method"), SPLINE_METHODS)?;
    if method == "periodic" && y[0] != y[nx - 1] {
        ctx.warn("spline: first and last y values differ - using y[1L] for both");
        y[nx - 1] = y[0];
    }
    if method == "monoH.FC" {
        let dx: Vec<f64> = x.windows(2).map(|w| w[1] - w[0]).collect();
        let sx: Vec<f64> = y
            .windows(2)
            .zip(&dx)
            .map(|(w, d)| (w[1] - w[0]) / d)
            .collect();
        // c(Sx[1L], (Sx[-1L] + Sx[-n1])/2, Sx[n1]): with one point, Sx is
        // empty and m is c(NA).
        let mut m = vec![sx.first().copied().unwrap_or(NA)];
        m.extend(sx.windows(2).map(|w| (w[1] + w[0]) / 2.0));
        if let Some(&last) = sx.last() {
            m.push(last);
        }
        if m.len() < 2 {
            return Err(KernelError::new("length(m) must be at least two"));
        }
        mono_fc(&mut m, &sx);
        return Ok(function_value(
            "function",
            "splinefunH",
            vec![
                ("x0", nums(x)),
                ("y0", nums(y)),
                ("m", nums(m)),
                ("dx", nums(dx)),
            ],
        ));
    }
    let code = match method {
        "periodic" => 1,
        "natural" => 2,
        "fmm" => 3,
        _ => 5,
    };
    if code == 5 {
        spline::check_monotone(&y)?;
    }
    let mut z = spline_coef(code.min(3), &x, &y);
    if code == 5 {
        spline::hyman_filter(&x, &y, &mut z);
        spline::spl_coef_conv(&x, &y, &mut z);
    }
    let Coef { b, c, d } = z;
    Ok(function_value(
        "function",
        "splinefun",
        vec![
            ("method", Value::scalar(f64::from(code.min(3)))),
            ("x", nums(x)),
            ("y", nums(y)),
            ("b", nums(b)),
            ("c", nums(c)),
            ("d", nums(d)),
        ],
    ))
}

/// monoSpl.c's `monoFC_mod`: the slopes `m` pulled into Fritsch and
/// Carlson's region of monotonicity, interval by interval from the left.
fn mono_fc(m: &mut [f64], sx: &[f64]) {
    for k in 0..m.len() - 1 {
        let sk = sx[k];
        let k1 = k + 1;
        if sk == 0.0 {
            m[k] = 0.0;
            m[k1] = 0.0;
        } else {
            let alpha = m[k] / sk;
            let beta = m[k1] / sk;
            let a2b3 = 2.0 * alpha + beta - 3.0;
            let ab23 = alpha + 2.0 * beta - 3.0;
            if a2b3 > 0.0 && ab23 > 0.0 && alpha * (a2b3 + ab23) < a2b3 * a2b3 {
                let tau_s = 3.0 * sk / (alpha * alpha + beta * beta).sqrt();
                m[k] = tau_s * alpha;
                m[k1] = tau_s * beta;
            }
        }
    }
}

/// `knots(Fn)`: the x of a step function's environment.
fn knots_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let fun = args.get("Fn");
    match fun.and_then(|v| Some((v, view(v)?))) {
        Some((Value::List(l), Callable::Approx { x, .. }))
            if matches!(l.class.as_deref(), Some("ecdf" | "stepfun")) =>
        {
            Ok(Value::Num(x.to_vec()))
        }
        _ => Err(KernelError::new(format!(
            "no applicable method for 'knots' applied to an object of class \"{}\"",
            dispatch_class(fun)
        ))),
    }
}

/// The class S3 dispatch looked under, as R's "no applicable method"
/// writes it: a number's implicit class is `c('double', 'numeric')`.
fn dispatch_class(v: Option<&Value>) -> String {
    let Some(v) = v else { return "NULL".into() };
    let mut classes = super::class::class_of(v, false);
    if super::class::class_attr(v).is_none() && matches!(v, Value::Num(_) | Value::Mat(_)) {
        classes.retain(|c| c != "numeric");
        classes.extend(["double".to_string(), "numeric".to_string()]);
    }
    match &classes[..] {
        [one] => one.clone(),
        many => format!(
            "c({})",
            many.iter()
                .map(|c| format!("'{c}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The data of an ecdf, as quantile.ecdf rebuilds them: each knot
/// repeated by its count, `rep.int(x, diff(c(0, round(nobs * y))))`.
pub(crate) fn ecdf_data(v: &Value) -> Option<Vec<f64>> {
    let Value::List(l) = v else { return None };
    if l.class.as_deref() != Some("ecdf") {
        return None;
    }
    let Callable::Approx { x, y, .. } = view(v)? else {
        return None;
    };
    let nobs = match l.field("nobs") {
        Some(Value::Num(n)) if n.len() == 1 => n[0],
        _ => return None,
    };
    let mut out = Vec::new();
    let mut before = 0.0;
    for (&k, &p) in x.iter().zip(y) {
        let at = (nobs * p).round_ties_even();
        let times = (at - before).max(0.0) as usize;
        out.extend(std::iter::repeat_n(k, times));
        before = at;
    }
    Some(out)
}

const APPROX_FORMALS: &[Param] = &[req("v")];
const SPLINE_FORMALS: &[Param] = &[req("x"), opt("deriv")];
const HERMITE_FORMALS: &[Param] = &[req("x"), opt("deriv"), opt("extrapol")];

/// The points a function value is evaluated at: `as.double` of them, as
/// the C code coerces its argument.
fn points(v: &Value, ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Str(s) => Ok(super::coerce::text_as_doubles(s, ctx)),
        v => v.as_f64_slice().map(|s| s.into_owned()).ok_or_else(|| {
            KernelError::new(format!(
                "(list) object cannot be coerced to type 'double' (a {})",
                v.type_name()
            ))
        }),
    }
}

/// `as.integer(deriv)` checked as splinefun's closures check it.
fn deriv_of(v: Option<&Value>) -> Result<u8, KernelError> {
    let d = match v {
        None => return Ok(0),
        Some(v) => match v.as_f64_slice() {
            Some(s) if !s.is_empty() => s[0],
            Some(_) => return Err(KernelError::new("argument is of length zero")),
            None => return Err(KernelError::new("'deriv' must be between 0 and 3")),
        },
    };
    if d.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let d = d.trunc();
    if !(0.0..=3.0).contains(&d) {
        return Err(KernelError::new("'deriv' must be between 0 and 3"));
    }
    Ok(d as u8)
}

impl Callable<'_> {
    fn formals(&self) -> &'static [Param] {
        match self {
            Callable::Approx { .. } => APPROX_FORMALS,
            Callable::Spline { .. } => SPLINE_FORMALS,
            Callable::Hermite { .. } => HERMITE_FORMALS,
        }
    }

    /// The value called with `given`, matched to its formals as R matches
    /// a closure's.
    pub(crate) fn call(
        &self,
        name: &'static str,
        given: Vec<(Option<String>, &Value)>,
        ctx: &mut Ctx,
    ) -> Result<Value, KernelError> {
        // R names no function in these messages: the closure has none.
        let args = Args::match_call(name, self.formals(), given)
            .map_err(|e| KernelError::new(e.message.replace(&format!(" in {name}()"), "")))?;
        let first = self.formals()[0].name;
        let at = points(
            args.get(first)
                .ok_or_else(|| KernelError::new(format!("argument \"{first}\" is missing")))?,
            ctx,
        )?;
        match self {
            Callable::Approx { x, y, method } => Ok(Value::Num(approx_fun(x, y, &at, method))),
            Callable::Spline {
                method,
                x,
                y,
                b,
                c,
                d,
            } => Ok(Value::Num(spline_at(
                *method,
                (x, y, b, c, d),
                &at,
                deriv_of(args.get("deriv"))?,
            )?)),
            Callable::Hermite { x0, y0, m, dx } => {
                let deriv = deriv_of(args.get("deriv"))?;
                let extrapol = super::acf::match_arg(args.get("extrapol"), &["linear", "cubic"])?;
                hermite_at((x0, y0, m, dx), &at, deriv, extrapol == "cubic").map(Value::Num)
            }
        }
    }
}

type SplineParts<'a> = (&'a [f64], &'a [f64], &'a [f64], &'a [f64], &'a [f64]);

/// splinefun's closure: the coefficients shifted for a derivative, then
/// `spline_eval`, and natural splines' left end fixed (R's PR#13132).
fn spline_at(
    method: u8,
    (x, y, b, c, d): SplineParts,
    at: &[f64],
    deriv: u8,
) -> Result<Vec<f64>, KernelError> {
    let n = x.len();
    let zero = vec![0.0; n];
    let times = |k: f64, v: &[f64]| v.iter().map(|e| k * e).collect::<Vec<f64>>();
    let (y, z) = match deriv {
        0 => (
            y.to_vec(),
            Coef {
                b: b.to_vec(),
                c: c.to_vec(),
                d: d.to_vec(),
            },
        ),
        1 => (
            b.to_vec(),
            Coef {
                b: times(2.0, c),
                c: times(3.0, d),
                d: zero,
            },
        ),
        2 => (
            times(2.0, c),
            Coef {
                b: times(6.0, d),
                c: zero.clone(),
                d: zero,
            },
        ),
        _ => (
            times(6.0, d),
            Coef {
                b: zero.clone(),
                c: zero.clone(),
                d: zero,
            },
        ),
    };
    let mut res = spline_eval(method, at, x, &y, &z);
    if deriv > 0 && method == 2 && n > 0 {
        // any(ind <- x <= z$x[1L]): NA when only NAs could be TRUE.
        let ind: Vec<Option<bool>> = at
            .iter()
            .map(|&u| (!u.is_nan()).then_some(u <= x[0]))
            .collect();
        let any = if ind.contains(&Some(true)) {
            Some(true)
        } else if ind.contains(&None) {
            None
        } else {
            Some(false)
        };
        match any {
            None => return Err(KernelError::new("missing value where TRUE/FALSE needed")),
            Some(true) => {
                let v = if deriv == 1 { y[0] } else { 0.0 };
                for (r, i) in res.iter_mut().zip(&ind) {
                    if *i == Some(true) {
                        *r = v;
                    }
                }
            }
            Some(false) => {}
        }
    }
    Ok(res)
}

type HermiteParts<'a> = (&'a [f64], &'a [f64], &'a [f64], &'a [f64]);

/// splinefunH0's closure: findInterval, the Hermite basis (or its
/// derivative) on each interval, linear beyond the knots unless
/// `cubic`.
fn hermite_at(
    (x0, y0, m, dx): HermiteParts,
    at: &[f64],
    deriv: u8,
    cubic: bool,
) -> Result<Vec<f64>, KernelError> {
    let n = x0.len();
    // findInterval(x, x0, all.inside = cubic): 0..=n, NA for NA.
    let interval = |u: f64| -> Option<usize> {
        if u.is_nan() {
            return None;
        }
        let i = x0.partition_point(|&k| k <= u);
        Some(if cubic {
            i.clamp(1, n.saturating_sub(1))
        } else {
            i
        })
    };
    let idx: Vec<Option<usize>> = at.iter().map(|&u| interval(u)).collect();
    // 1-based i, as R indexes; an index past the vectors reads NA.
    let get = |v: &[f64], i: usize| -> f64 {
        if i >= 1 && i <= v.len() {
            v[i - 1]
        } else {
            NA
        }
    };
    let interp = |u: f64, i: Option<usize>| -> f64 {
        let Some(i) = i else { return NA };
        if i == 0 {
            return NA;
        }
        let h = get(dx, i);
        let (ya, yb, ma, mb) = (get(y0, i), get(y0, i + 1), get(m, i), get(m, i + 1));
        let xi = get(x0, i);
        match deriv {
            0 => {
                let t = (u - xi) / h;
                let t1 = t - 1.0;
                let h01 = t * t * (3.0 - 2.0 * t);
                let h00 = 1.0 - h01;
                let tt1 = t * t1;
                let h10 = tt1 * t1;
                let h11 = tt1 * t;
                ya * h00 + h * ma * h10 + yb * h01 + h * mb * h11
            }
            1 => {
                let t = (u - xi) / h;
                let t1 = t - 1.0;
                let h01 = -6.0 * t * t1;
                let h10 = (3.0 * t - 1.0) * t1;
                let h11 = (3.0 * t - 2.0) * t;
                (yb - ya) / h * h01 + ma * h10 + mb * h11
            }
            2 => {
                let t = (u - xi) / h;
                let h01 = 6.0 * (1.0 - 2.0 * t);
                let h10 = 2.0 * (3.0 * t - 2.0);
                let h11 = 2.0 * (3.0 * t - 1.0);
                ((yb - ya) / h * h01 + ma * h10 + mb * h11) / h
            }
            _ => ((yb - ya) / h * -12.0 + ma * 6.0 + mb * 6.0) / h,
        }
    };
    if cubic {
        return Ok(at.iter().zip(&idx).map(|(&u, &i)| interp(u, i)).collect());
    }
    let left: Vec<Option<bool>> = idx.iter().map(|i| i.map(|i| i == 0)).collect();
    let right: Vec<Option<bool>> = idx.iter().map(|i| i.map(|i| i == n)).collect();
    let outside: Vec<Option<bool>> = left
        .iter()
        .zip(&right)
        .map(|(l, r)| match (l, r) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        })
        .collect();
    if !outside.contains(&Some(true)) {
        if outside.contains(&None) {
            return Err(KernelError::new("missing value where TRUE/FALSE needed"));
        }
        return Ok(at.iter().zip(&idx).map(|(&u, &i)| interp(u, i)).collect());
    }
    if outside.contains(&None) {
        return Err(KernelError::new(
            "NAs are not allowed in subscripted assignments",
        ));
    }
    Ok(at
        .iter()
        .zip(&idx)
        .map(|(&u, &i)| match i {
            Some(0) => match deriv {
                0 => y0[0] + m[0] * (u - x0[0]),
                1 => m[0],
                _ => 0.0,
            },
            Some(i) if i == n => match deriv {
                0 => y0[n - 1] + m[n - 1] * (u - x0[n - 1]),
                1 => m[n - 1],
                _ => 0.0,
            },
            i => interp(u, i),
        })
        .collect())
}

fn call_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let name = match args.get("(name)") {
        Some(Value::Str(s)) if s.len() == 1 => s[0].clone(),
        _ => "FUN".to_string(),
    };
    let value = args
        .get("(fn)")
        .ok_or_else(|| KernelError::new(format!("could not find function \"{name}\"")))?;
    let f = view(value).ok_or_else(|| not_a_function(&name, &describe_value(value)))?;
    let given: Vec<(Option<String>, &Value)> = args
        .dots()
        .map(|(n, v)| (n.map(str::to_string), v))
        .collect();
    f.call(CALL_VALUE, given, ctx)
}

fn describe_value(v: &Value) -> String {
    let classes = super::class::class_of(v, false);
    format!("a value of class \"{}\"", classes.join("\", \""))
}

/// R's message for a call of a value that is no function. R looks a name
/// up as a function, passing over the values it finds: "could not find
/// function", here with what the name holds. Any other callee (`(1)(2)`,
/// `l$a(2)`, `f(1)(2)`; `name` is then its text, never a name) is
/// evaluated and its value applied: "attempt to apply non-function".
fn not_a_function(name: &str, holds: &str) -> KernelError {
    if !crate::workflow::is_syntactic(name) {
        return KernelError::new("attempt to apply non-function");
    }
    KernelError::new(format!(
        "could not find function \"{name}\": `{name}` holds {holds}, not a function \
         (only the values of ecdf, approxfun, splinefun and stepfun can be called)"
    ))
}

fn call_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let name = args.const_str("(name)").unwrap_or("FUN").to_string();
    if let Some(t) = args.ty("(fn)") {
        if !may_be_callable(t) {
            return Err(ArgError::call(not_a_function(&name, &t.describe()).0));
        }
    }
    let len = args.dots().next().and_then(|(_, t)| t.len());
    Ok(Type::Num { len, value: None })
}

fn numeric_arg(args: &Args<Type>, name: &str, func: &str) -> Result<(), ArgError> {
    match args.ty(name) {
        Some(t) if !t.is_numeric() && !matches!(t, Type::Null | Type::Str { .. }) => Err(args
            .error(
                name,
                format!("{func}() needs numbers for '{name}', not {}", t.describe()),
            )),
        _ => Ok(()),
    }
}

fn ecdf_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    numeric_arg(args, "x", "ecdf")?;
    if args.ty("x").and_then(Type::len) == Some(0) {
        return Err(args.error("x", "'x' must have 1 or more non-missing values"));
    }
    Ok(callable_type("ecdf"))
}

fn approxfun_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    numeric_arg(args, "x", "approxfun")?;
    numeric_arg(args, "y", "approxfun")?;
    if let Some(m) = args.const_str("method") {
        if !(!m.is_empty() && ("linear".starts_with(m) || "constant".starts_with(m))) {
            return Err(args.error("method", "invalid interpolation method"));
        }
    }
    Ok(callable_type("function"))
}

fn stepfun_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    numeric_arg(args, "x", "stepfun")?;
    numeric_arg(args, "y", "stepfun")?;
    if let (Some(nx), Some(ny)) = (
        args.ty("x").and_then(Type::len),
        args.ty("y").and_then(Type::len),
    ) {
        if nx >= 1 && ny != nx + 1 {
            return Err(args.error("y", "'y' must be one longer than 'x'"));
        }
    }
    Ok(callable_type("stepfun"))
}

fn splinefun_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    numeric_arg(args, "x", "splinefun")?;
    numeric_arg(args, "y", "splinefun")?;
    if let Some(m) = args.const_str("method") {
        let v = Value::string(m);
        if let Err(e) = super::acf::match_arg(Some(&v), SPLINE_METHODS) {
            return Err(args.error("method", e.0));
        }
    }
    Ok(callable_type("function"))
}

fn knots_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("Fn") {
        Some(Type::Record { class, .. }) if class == "ecdf" || class == "stepfun" => {
            Ok(Type::num_unknown())
        }
        Some(Type::Any) | None => Ok(Type::num_unknown()),
        Some(t) => {
            let class = match t {
                Type::Num { .. } => "c('double', 'numeric')".to_string(),
                Type::Mat { .. } => "c('matrix', 'array', 'double', 'numeric')".to_string(),
                Type::Str { .. } => "character".to_string(),
                Type::Bool { .. } => "logical".to_string(),
                Type::Record { class, .. } => class.clone(),
                Type::Null => "NULL".to_string(),
                _ => "list".to_string(),
            };
            Err(args.error(
                "Fn",
                format!(
                    "no applicable method for 'knots' applied to an object of class \"{class}\""
                ),
            ))
        }
    }
}
