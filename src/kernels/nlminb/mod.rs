//! `nlminb`: R's optimiser over the PORT library, stats/R/nlminb.R's
//! argument handling over port.c's driver (`port_nlminb`,
//! `nlminb_iterate`) and Gay's reverse-communication routines of
//! portsrc.f (`port`): DRMNF without a gradient, DRMNG with one, and
//! their bounded forms DRMNFB and DRMNGB when `lower` or `upper` is given.
//!
//! R's Hessian path (DRMNH, DRMNHB, for a `hessian` function beside the
//! gradient) is not ported: such a call is refused. `trace` only prints,
//! which a step has nowhere to do; it is accepted and changes nothing.

mod port;

use super::fun::{resolve, resolve2, resolve_shape, resolve_shape2, Fun};
use super::names;
use super::value::List;
use super::work;
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "nlminb",
    params: &[
        req("start"),
        req("objective"),
        opt("gradient"),
        opt("hessian"),
        DOTS,
        opt("scale"),
        opt("control"),
        opt("lower"),
        opt("upper"),
    ],
    random: false,
    shape,
    eval,
}];

/// nlminb.R's `port_cpos`: control names and their subscripts, the first
/// four in iv, the rest in v.
const PORT_CPOS: [(&str, usize); 13] = [
    ("eval.max", 17),
    ("iter.max", 18),
    ("trace", 19),
    ("maxiter", 18),
    ("abs.tol", 31),
    ("rel.tol", 32),
    ("x.tol", 33),
    ("xf.tol", 34),
    ("step.min", 35),
    ("step.max", 36),
    ("sing.tol", 37),
    ("scale.init", 38),
    ("diff.g", 42),
];

/// R's `pmatch(nms, names(port_cpos))`: an exact match, else the one
/// name the given one begins; each name is matched at most once.
fn pmatch(given: &[String]) -> Vec<Option<usize>> {
    let mut used = [false; PORT_CPOS.len()];
    let mut out = vec![None; given.len()];
    for (k, g) in given.iter().enumerate() {
        if let Some(j) = PORT_CPOS.iter().position(|(n, _)| n == g) {
            if !used[j] {
                used[j] = true;
                out[k] = Some(j);
            }
        }
    }
    for (k, g) in given.iter().enumerate() {
        if out[k].is_some() || g.is_empty() {
            continue;
        }
        let hits: Vec<usize> = (0..PORT_CPOS.len())
            .filter(|&j| !used[j] && PORT_CPOS[j].0.starts_with(g.as_str()))
            .collect();
        if let [j] = hits[..] {
            used[j] = true;
            out[k] = Some(j);
        }
    }
    out
}

/// port_msg of nlminb.R.
fn port_msg(iv1: i32) -> String {
    match iv1 {
        3 => "X-convergence (3)".into(),
        4 => "relative convergence (4)".into(),
        5 => "both X-convergence and relative convergence (5)".into(),
        6 => "absolute function convergence (6)".into(),
        7 => "singular convergence (7)".into(),
        8 => "false convergence (8)".into(),
        9 => "function evaluation limit reached without convergence (9)".into(),
        10 => "iteration limit reached without convergence (10)".into(),
        14 => "storage only has been allocated (14)".into(),
        15 => "LIV too small (15)".into(),
        16 => "LV too small (16)".into(),
        63 => "fn cannot be computed at initial par (63)".into(),
        65 => "gr cannot be computed at initial par (65)".into(),
        300 => "initial par violates constraints".into(),
        _ => format!("See PORT documentation.  Code ({iv1})"),
    }
}

/// R's `sprintf("%g", x)`, which writes R's names for non-finite values.
fn r_g(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "Inf" } else { "-Inf" }.into()
    } else {
        super::vector::sprintf::format_g(x)
    }
}

/// nlminb.R's `message`.
fn message(iv1: i32, v: &[f64]) -> String {
    if (19..=43).contains(&iv1) {
        let vk = v[iv1 as usize];
        match PORT_CPOS.iter().find(|(_, p)| *p == iv1 as usize) {
            Some((name, _)) => {
                format!(
                    "'control' component '{name}' = {}, is out of range",
                    r_g(vk)
                )
            }
            None => format!(
                "V[IV[1]] = V[{iv1}] = {} is out of range (see PORT docu.)",
                r_g(vk)
            ),
        }
    } else {
        port_msg(iv1)
    }
}

/// `as.double(x)` of a numeric or logical argument.
fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match names::bare(v) {
        Value::Null => Ok(Vec::new()),
        v => v.as_f64_slice().map(|x| x.into_owned()).ok_or_else(|| {
            KernelError::new(format!("'{what}' must be numeric, not {}", v.type_name()))
        }),
    }
}

/// R's `asInteger` of a double: NA_integer_ (INT_MIN) when NA or out of
/// range.
fn as_integer(x: f64) -> i32 {
    if x.is_finite() && x.abs() < 2147483648.0 {
        x.trunc() as i32
    } else {
        i32::MIN
    }
}

/// `rep_len(x, n)`; an empty x gives NAs.
fn rep_len(x: &[f64], n: usize) -> Vec<f64> {
    if x.is_empty() {
        return vec![f64::NAN; n];
    }
    (0..n).map(|i| x[i % x.len()]).collect()
}

/// The objective and gradient as port.c's loop calls them, with `.par`.
struct Calls<'a, 'f> {
    objective: Fun<'f>,
    gradient: Option<Fun<'f>>,
    dots: &'a [(Option<&'a str>, &'a Value)],
    names: Option<Vec<String>>,
}

impl Calls<'_, '_> {
    /// `.par` as the functions see it: with start's names.
    fn par(&self, f: &Fun, x: &[f64]) -> Value {
        match (&self.names, f) {
            (Some(n), Fun::Closure(_)) => names::named(Value::Num(x.to_vec()), n.clone()),
            _ => Value::Num(x.to_vec()),
        }
    }

    /// `asReal(eval(fn, rho))`, a NaN replaced by +Inf with R's warning.
    fn objective(&self, x: &[f64], ctx: &mut Ctx) -> Result<f64, KernelError> {
        let v = self
            .objective
            .call_on(&self.par(&self.objective, x), self.dots, ctx)?;
        let fx = match names::bare(&v) {
            Value::Str(s) => s.first().and_then(|s| s.trim().parse::<f64>().ok()),
            v => v.as_f64_slice().and_then(|x| x.first().copied()),
        }
        .unwrap_or(f64::NAN);
        if fx.is_nan() {
            ctx.warn("NA/NaN function evaluation");
            return Ok(f64::INFINITY);
        }
        Ok(fx)
    }

    /// port.c's `check_gv` without a Hessian: the gradient into `g`.
    fn gradient(
        &self,
        gr: &Fun,
        x: &[f64],
        g: &mut [f64],
        ctx: &mut Ctx,
    ) -> Result<(), KernelError> {
        let n = x.len();
        let v = gr.call_on(&self.par(gr, x), self.dots, ctx)?;
        let gv = match names::bare(&v) {
            Value::Null => Vec::new(),
            v => v.as_f64_slice().map(|x| x.into_owned()).ok_or_else(|| {
                KernelError::new(format!(
                    "the gradient must be numeric, not {}",
                    v.type_name()
                ))
            })?,
        };
        if gv.len() != n {
            return Err(KernelError::new(format!(
                "gradient function must return a numeric vector of length {n}"
            )));
        }
        if gv.iter().any(|v| v.is_nan()) {
            return Err(KernelError::new("NA/NaN gradient evaluation"));
        }
        g.copy_from_slice(&gv);
        Ok(())
    }
}

/// `nlminb(start, objective, gradient, hessian, ..., scale, control,
/// lower, upper)`.
fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let start = args
        .get("start")
        .ok_or_else(|| KernelError::new("argument \"start\" is missing, with no default"))?;
    let par = numbers(start, "start")?;
    let par_names = names::names(start).map(<[String]>::to_vec);
    let n = par.len();
    let liv = 78 + 3 * n;
    let lv = 130 + (n * (n + 27)) / 2;
    // nlminb.R's `double(130 + (n * (n + 27)) / 2)`: past 2 GiB (some
    // 23,000 parameters, where R would still try) refused in R's words,
    // before an allocation that could abort the process.
    let bytes = lv as f64 * 8.0;
    if bytes > (1u64 << 31) as f64 {
        return Err(KernelError::new(format!(
            "cannot allocate vector of size {:.1} Gb",
            bytes / 1024f64.powi(3)
        )));
    }
    // One memory for V and the caller's arrays (see `port`).
    let d = lv + 1;
    let x = d + n;
    let g = x + n;
    let b = g + n;
    let mut iv = vec![0i32; liv + 1];
    let mut m = vec![0.0; b + 2 * n];
    port::divset(2, &mut iv, liv, lv, &mut m);

    if let Some(control) = args.get("control") {
        set_control(control, &mut iv, &mut m, ctx)?;
    }

    let objective = resolve(args.get("objective"), ctx)?
        .ok_or_else(|| KernelError::new("argument \"objective\" is missing, with no default"))?;
    let gradient = resolve2(args.get("gradient"), ctx)?;
    if gradient.is_some() {
        match args.get("hessian").map(names::bare) {
            None | Some(Value::Null) => {}
            Some(Value::Bool(_) | Value::BoolMat(_)) => {
                return Err(KernelError::new(
                    "logical 'hessian' argument not allowed.  See documentation.",
                ))
            }
            Some(_) => {
                return Err(KernelError::new(
                    "flowcast's nlminb has no port of PORT's Hessian routines (DRMNH, DRMNHB): \
                     give the gradient alone",
                ))
            }
        }
    }
    let lower = numbers(
        args.get("lower")
            .unwrap_or(&Value::scalar(f64::NEG_INFINITY)),
        "lower",
    )?;
    let upper = numbers(
        args.get("upper").unwrap_or(&Value::scalar(f64::INFINITY)),
        "upper",
    )?;
    // `any(lower != -Inf) || any(upper != Inf)`, NA being an error.
    let any_ne = |v: &[f64], inf: f64| -> Option<bool> {
        let mut na = false;
        for &x in v {
            if x.is_nan() {
                na = true;
            } else if x != inf {
                return Some(true);
            }
        }
        if na {
            None
        } else {
            Some(false)
        }
    };
    let bounded = match any_ne(&lower, f64::NEG_INFINITY) {
        Some(true) => true,
        l => match (l, any_ne(&upper, f64::INFINITY)) {
            (_, Some(true)) => true,
            (Some(false), Some(false)) => false,
            _ => return Err(KernelError::new("missing value where TRUE/FALSE needed")),
        },
    };
    let scale = numbers(args.get("scale").unwrap_or(&Value::scalar(1.0)), "scale")?;

    // port_nlminb.
    if n < 1 {
        return Err(KernelError::new("'d' must be a nonempty numeric vector"));
    }
    m[d..d + n].copy_from_slice(&rep_len(&scale, n));
    m[x..x + n].copy_from_slice(&par);
    if bounded {
        let (lo, up) = (rep_len(&lower, n), rep_len(&upper, n));
        for i in 0..n {
            m[b + 2 * i] = lo[i];
            m[b + 2 * i + 1] = up[i];
        }
    }
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let calls = Calls {
        objective,
        gradient,
        dots: &dots,
        names: par_names.clone(),
    };
    let mut fx = f64::INFINITY;
    let mut gbuf = vec![0.0; n];
    loop {
        if ctx.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(KernelError::new("cancelled"));
        }
        nlminb_iterate(
            bounded.then_some(b),
            d,
            fx,
            calls.gradient.is_some().then_some(g),
            &mut iv,
            liv,
            lv,
            n,
            &mut m,
            x,
        );
        let xs = m[x..x + n].to_vec();
        match (iv[1] == 2, &calls.gradient) {
            (true, Some(gr)) => {
                calls.gradient(gr, &xs, &mut gbuf, ctx)?;
                m[g..g + n].copy_from_slice(&gbuf);
            }
            _ => fx = calls.objective(&xs, ctx)?,
        }
        if iv[1] >= 3 {
            break;
        }
    }

    let iv1 = iv[1];
    let par = Value::Num(m[x..x + n].to_vec());
    let par = match par_names {
        Some(nm) => names::named(par, nm),
        None => par,
    };
    Ok(Value::List(List::named(vec![
        ("par", par),
        ("objective", Value::scalar(m[port::F])),
        (
            "convergence",
            Value::scalar(if (3..=6).contains(&iv1) { 0.0 } else { 1.0 }),
        ),
        ("iterations", Value::scalar(f64::from(iv[port::NITER]))),
        (
            "evaluations",
            names::named(
                Value::Num(vec![f64::from(iv[6]), f64::from(iv[port::NGCALL])]),
                vec!["function".into(), "gradient".into()],
            ),
        ),
        ("message", Value::Str(vec![message(iv1, &m)])),
    ])))
}

/// nlminb.R's handling of `control`: pmatch'ed names into iv and v.
fn set_control(
    control: &Value,
    iv: &mut [i32],
    m: &mut [f64],
    ctx: &mut Ctx,
) -> Result<(), KernelError> {
    let (nms, items): (Option<Vec<String>>, Vec<Value>) = match names::bare(control) {
        Value::Null => return Ok(()),
        Value::List(l) => {
            if l.items.is_empty() {
                return Ok(());
            }
            (l.names.clone(), l.items.clone())
        }
        v => {
            if v.is_empty() {
                return Ok(());
            }
            return Err(KernelError::new("'control' argument must be a named list"));
        }
    };
    let nms = nms.ok_or_else(|| KernelError::new("'control' argument must be a named list"))?;
    let pos = pmatch(&nms);
    let unknown: Vec<String> = nms
        .iter()
        .zip(&pos)
        .filter(|(_, p)| p.is_none())
        .map(|(n, _)| format!("\u{2018}{n}\u{2019}"))
        .collect();
    if !unknown.is_empty() {
        let one = if unknown.len() == 1 {
            "unrecognized control element named"
        } else {
            "unrecognized control elements named"
        };
        ctx.warn(format!("{one} {} ignored", unknown.join(", ")));
    }
    for (p, item) in pos.iter().zip(&items) {
        let Some(j) = *p else { continue };
        let vals = numbers(item, "control")?;
        let Some(&first) = vals.first() else { continue };
        let at = PORT_CPOS[j].1;
        if j < 4 {
            iv[at] = as_integer(first);
        } else {
            m[at] = first;
        }
    }
    Ok(())
}

/// port.c's `nlminb_iterate`: the PORT routine for the problem's kind.
#[allow(clippy::too_many_arguments)]
fn nlminb_iterate(
    b: Option<usize>,
    d: usize,
    fx: f64,
    g: Option<usize>,
    iv: &mut [i32],
    liv: usize,
    lv: usize,
    n: usize,
    m: &mut [f64],
    x: usize,
) {
    match (b, g) {
        (Some(b), Some(g)) => port::drmngb(b, d, fx, g, iv, liv, lv, n, m, x),
        (Some(b), None) => port::drmnfb(b, d, fx, iv, liv, lv, n, m, x),
        (None, Some(g)) => port::drmng(d, fx, g, iv, liv, lv, n, m, x),
        (None, None) => port::drmnf(d, fx, iv, liv, lv, n, m, x),
    }
}

/// The objective's (and gradient's) body is checked once at a numeric
/// vector of start's length, and charged as often as a typical search
/// calls it (see [`work::nlminb_evaluations`]).
fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let start = args.ty("start");
    if let Some(t) = start {
        if !(t.is_numeric() || matches!(t, Type::Any | Type::Null | Type::Bool { .. })) {
            return Err(args.error(
                "start",
                format!("'start' must be numeric, not {}", t.describe()),
            ));
        }
    }
    let n = start.and_then(Type::len);
    if n == Some(0) {
        return Err(args.error("start", "'d' must be a nonempty numeric vector"));
    }
    let at = n.map_or_else(Type::num_unknown, Type::num);
    let given = |t: Type| {
        let mut given = vec![(None, t)];
        given.extend(args.dots().map(|(n, t)| (n.map(str::to_string), t.clone())));
        given
    };
    let gradient =
        resolve_shape2(args.ty("gradient"), ctx).map_err(|m| args.error("gradient", m))?;
    let (fn_runs, gr_runs) = work::nlminb_evaluations(n.unwrap_or(1) as f64, gradient.is_some());
    if let Some(f) =
        resolve_shape(args.ty("objective"), ctx).map_err(|m| args.error("objective", m))?
    {
        f.shape_about(given(at.clone()), fn_runs, ctx)
            .map_err(|m| args.error("objective", m))?;
    }
    if let Some(g) = gradient {
        let t = g
            .shape_about(given(at.clone()), gr_runs, ctx)
            .map_err(|m| args.error("gradient", m))?;
        if let (Some(len), Some(n)) = (t.len().filter(|_| t.is_numeric()), n) {
            if len != n {
                return Err(args.error(
                    "gradient",
                    format!("gradient function must return a numeric vector of length {n}"),
                ));
            }
        }
    }
    Ok(Type::record(
        "list",
        vec![
            ("par", at),
            ("objective", Type::num(1)),
            ("convergence", Type::num(1)),
            ("iterations", Type::num(1)),
            ("evaluations", Type::num(2)),
            (
                "message",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
        ],
    ))
}
