//! General-purpose optimisation: `optim` and `optimHess`, R's wrapper
//! (stats/R/optim.R) over `optim` and `optimhess` of stats/src/optim.c and
//! the minimisers of src/appl/optim.c (`nmmin`, `vmmin`, `cgmin`), kept in
//! the original's shape so that the points where `fn` and `gr` are
//! evaluated, the counts and the result are R's. "Brent" is R's
//! `optimize` on `[lower, upper]` (see `optimize::brent_fmin`).

// The minimisers index as the C does, so they can be read against it.
#![allow(clippy::needless_range_loop)]

use super::fun::{resolve, resolve2, resolve_shape, resolve_shape2, Fun};
use super::names;
use super::value::{List, NA};
use super::work;
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

const METHODS: [&str; 6] = ["Nelder-Mead", "BFGS", "CG", "L-BFGS-B", "SANN", "Brent"];

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "optim",
        params: &[
            req("par"),
            req("fn"),
            opt("gr"),
            DOTS,
            opt("method"),
            opt("lower"),
            opt("upper"),
            opt("control"),
            opt("hessian"),
        ],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "optimHess",
        params: &[req("par"), req("fn"), opt("gr"), DOTS, opt("control")],
        random: false,
        shape,
        eval: hess_eval,
    },
];

/// optim.R's `con`: the control list's defaults, with what was given.
struct Control {
    trace: f64,
    fnscale: f64,
    parscale: Vec<f64>,
    ndeps: Vec<f64>,
    maxit: Option<i64>,
    abstol: f64,
    reltol: f64,
    alpha: f64,
    beta: f64,
    gamma: f64,
    report: Option<i64>,
    warn_1d: bool,
    kind: Option<i64>,
    lmm: Option<i64>,
    factr: f64,
    pgtol: f64,
}

/// R's `asReal` of a control element: its first number, NA otherwise.
fn as_real(v: &Value) -> f64 {
    names::bare(v)
        .as_f64_slice()
        .and_then(|x| x.first().copied())
        .unwrap_or(NA)
}

/// R's `asInteger`: the number truncated, `None` for R's NA_integer_
/// (NA, or out of an int's range).
fn as_integer(v: &Value) -> Option<i64> {
    let x = as_real(v);
    (x.is_finite() && x.abs() < 2147483648.0).then(|| x.trunc() as i64)
}

/// The control list: optim.R's defaults for `npar` parameters, overridden
/// by `control`'s named elements, with R's warning for unknown names.
/// `optimHess` reads only fnscale, parscale and ndeps, and warns of none.
fn control(
    given: Option<&Value>,
    npar: usize,
    method: &str,
    warn_unknown: bool,
    ctx: &mut Ctx,
) -> Result<Control, KernelError> {
    let mut con = Control {
        trace: 0.0,
        fnscale: 1.0,
        parscale: vec![1.0; npar],
        ndeps: vec![1e-3; npar],
        maxit: Some(if method == "Nelder-Mead" { 500 } else { 100 }),
        abstol: f64::NEG_INFINITY,
        reltol: f64::EPSILON.sqrt(),
        alpha: 1.0,
        beta: 0.5,
        gamma: 2.0,
        report: Some(10),
        warn_1d: true,
        kind: Some(1),
        lmm: Some(5),
        factr: 1e7,
        pgtol: 0.0,
    };
    let (names, items): (Vec<String>, Vec<Value>) = match given.map(names::bare) {
        None | Some(Value::Null) => (Vec::new(), Vec::new()),
        Some(Value::List(l)) => match &l.names {
            // `con[NULL] <- control` sets nothing.
            None => (Vec::new(), Vec::new()),
            Some(n) => (n.clone(), l.items.clone()),
        },
        Some(v) => {
            // `con[names(v)] <- v` of a named vector, element by element.
            let n = names::names(given.unwrap_or(v)).map(<[String]>::to_vec);
            match (n, v.as_f64_slice()) {
                (Some(n), Some(x)) => (n, x.iter().map(|&x| Value::scalar(x)).collect()),
                _ => (Vec::new(), Vec::new()),
            }
        }
    };
    let mut unknown = Vec::new();
    for (name, v) in names.iter().zip(&items) {
        let numbers = || -> Vec<f64> {
            names::bare(v)
                .as_f64_slice()
                .map(|x| x.into_owned())
                .unwrap_or_default()
        };
        match name.as_str() {
            "trace" => con.trace = as_real(v),
            "fnscale" => con.fnscale = as_real(v),
            "parscale" => con.parscale = numbers(),
            "ndeps" => con.ndeps = numbers(),
            "maxit" => con.maxit = as_integer(v),
            "abstol" => con.abstol = as_real(v),
            "reltol" => con.reltol = as_real(v),
            "alpha" => con.alpha = as_real(v),
            "beta" => con.beta = as_real(v),
            "gamma" => con.gamma = as_real(v),
            "REPORT" => con.report = as_integer(v),
            // isTRUE(): one TRUE and nothing else.
            "warn.1d.NelderMead" => {
                con.warn_1d =
                    matches!(names::bare(v), Value::Bool(b) if b.as_slice() == [Some(true)])
            }
            "type" => con.kind = as_integer(v),
            "lmm" => con.lmm = as_integer(v),
            "factr" => con.factr = as_real(v),
            "pgtol" => con.pgtol = as_real(v),
            "tmax" | "temp" => {}
            _ => unknown.push(name.clone()),
        }
    }
    if warn_unknown {
        if !unknown.is_empty() {
            ctx.warn(format!("unknown names in control: {}", unknown.join(", ")));
        }
        if con.trace < 0.0 {
            ctx.warn("read the documentation for 'trace' more carefully");
        }
    }
    if con.parscale.len() != npar {
        return Err(KernelError::new("'parscale' is of the wrong length"));
    }
    Ok(con)
}

/// R's `match.arg(method)`: the default's first choice when not given,
/// else the one choice the text starts.
fn method(v: Option<&Value>) -> Result<&'static str, KernelError> {
    let wrong = || {
        let quoted: Vec<String> = METHODS
            .iter()
            .map(|c| format!("\u{201c}{c}\u{201d}"))
            .collect();
        KernelError::new(format!("'arg' should be one of {}", quoted.join(", ")))
    };
    let given = match v.map(names::bare) {
        None | Some(Value::Null) => return Ok(METHODS[0]),
        Some(Value::Str(s)) => s,
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    // The formal's whole default, as optim(method = c(...)) would pass it.
    if given.len() == METHODS.len() && given.iter().zip(METHODS).all(|(g, m)| g == m) {
        return Ok(METHODS[0]);
    }
    let [given] = given.as_slice() else {
        return Err(KernelError::new("'arg' must be of length 1"));
    };
    if let Some(m) = METHODS.iter().find(|m| *m == given) {
        return Ok(m);
    }
    let mut partial = METHODS
        .iter()
        .filter(|m| !given.is_empty() && m.starts_with(given.as_str()));
    match (partial.next(), partial.next()) {
        (Some(m), None) => Ok(m),
        _ => Err(wrong()),
    }
}

/// The `fn` optim minimises: an R function, or the Rust objective of a
/// kernel that runs optim on one of its own, as R's arima does with its
/// `armafn` and `armaCSS` closures.
#[derive(Clone)]
enum Target<'a, 'f> {
    R(Fun<'f>),
    Native(NativeObjective<'a>),
}

/// A kernel's Rust objective; it is handed the context, so that it can
/// call the user's R functions (constrOptim's barrier wraps `f`).
pub(super) type NativeObjective<'a> = &'a dyn Fn(&[f64], &mut Ctx) -> Result<f64, KernelError>;

/// The gradient a kernel hands optim with its Rust objective.
pub(super) type NativeGradient<'a> = &'a dyn Fn(&[f64], &mut Ctx) -> Result<Vec<f64>, KernelError>;

/// optim.c's `OptStruct`: `fn` and `gr` as the minimisers see them,
/// on parameters divided by `parscale`, values divided by `fnscale`.
struct Objective<'a, 'f> {
    fcall: Target<'a, 'f>,
    gcall: Option<Fun<'f>>,
    /// A Rust kernel's own gradient of its Rust objective (factanal's
    /// FAgr), called as `gr` would be.
    gnative: Option<NativeGradient<'a>>,
    dots: &'a [(Option<&'a str>, &'a Value)],
    ndeps: Vec<f64>,
    fnscale: f64,
    parscale: Vec<f64>,
    names: Option<Vec<String>>,
}

impl Objective<'_, '_> {
    /// `x` as fn receives it: with par's names, as R passes them on every
    /// call (a registered function is handed bare values, as all are).
    fn arg(&self, f: &Fun, x: Vec<f64>) -> Value {
        match (&self.names, f) {
            (Some(n), Fun::Closure(_)) => names::named(Value::Num(x), n.clone()),
            _ => Value::Num(x),
        }
    }

    /// `coerceVector(f(x), REALSXP)`.
    fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
        match names::bare(v) {
            Value::Null => Ok(Vec::new()),
            v => v.as_f64_slice().map(|x| x.into_owned()).ok_or_else(|| {
                KernelError::new(format!(
                    "{what} in optim must be numeric, not {}",
                    v.type_name()
                ))
            }),
        }
    }

    /// fn's value at `x` (already scaled by parscale), coerced to numbers.
    fn call_fn(&self, x: Vec<f64>, ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
        match &self.fcall {
            Target::R(f) => {
                let v = f.call_on(&self.arg(f, x), self.dots, ctx)?;
                Self::numbers(&v, "objective function")
            }
            Target::Native(f) => Ok(vec![f(&x, ctx)?]),
        }
    }

    /// fn at `x` (already scaled by parscale), its first number divided
    /// by fnscale, as fmingr reads it.
    fn value_at(&self, x: Vec<f64>, ctx: &mut Ctx) -> Result<f64, KernelError> {
        let s = self.call_fn(x, ctx)?;
        let first = s.first().copied().ok_or_else(|| {
            KernelError::new("objective function in optim evaluates to length 0 not 1")
        })?;
        Ok(first / self.fnscale)
    }

    /// R's `fminfn`.
    fn fminfn(&self, p: &[f64], ctx: &mut Ctx) -> Result<f64, KernelError> {
        let mut x = Vec::with_capacity(p.len());
        for (&p, &s) in p.iter().zip(&self.parscale) {
            if !p.is_finite() {
                return Err(KernelError::new("non-finite value supplied by optim"));
            }
            x.push(p * s);
        }
        let s = self.call_fn(x, ctx)?;
        if s.len() != 1 {
            return Err(KernelError::new(format!(
                "objective function in optim evaluates to length {} not 1",
                s.len()
            )));
        }
        Ok(s[0] / self.fnscale)
    }

    /// R's `fmingr` without bounds (`usebounds` unset).
    fn fmingr(&self, p: &[f64], df: &mut [f64], ctx: &mut Ctx) -> Result<(), KernelError> {
        self.fmingr_within(p, df, None, ctx)
    }

    /// R's `fmingr`: `gr`'s value when given, else central differences of
    /// `ndeps`, kept within `bounds` (L-BFGS-B's `lower` and `upper`,
    /// divided by parscale) when given, as `usebounds` does.
    fn fmingr_within(
        &self,
        p: &[f64],
        df: &mut [f64],
        bounds: Option<(&[f64], &[f64])>,
        ctx: &mut Ctx,
    ) -> Result<(), KernelError> {
        let n = p.len();
        if self.gcall.is_some() || self.gnative.is_some() {
            let mut x = Vec::with_capacity(n);
            for (&p, &s) in p.iter().zip(&self.parscale) {
                if !p.is_finite() {
                    return Err(KernelError::new("non-finite value supplied by optim"));
                }
                x.push(p * s);
            }
            let s = match (&self.gcall, self.gnative) {
                (Some(g), _) => {
                    let v = g.call_on(&self.arg(g, x), self.dots, ctx)?;
                    Self::numbers(&v, "gradient")?
                }
                (None, Some(g)) => g(&x, ctx)?,
                (None, None) => unreachable!(),
            };
            if s.len() != n {
                return Err(KernelError::new(format!(
                    "gradient in optim evaluated to length {} not {n}",
                    s.len()
                )));
            }
            for i in 0..n {
                df[i] = s[i] * self.parscale[i] / self.fnscale;
            }
            return Ok(());
        }
        let mut x: Vec<f64> = p.iter().zip(&self.parscale).map(|(p, s)| p * s).collect();
        if let Some((lower, upper)) = bounds {
            for i in 0..n {
                let mut eps = self.ndeps[i];
                let mut epsused = eps;
                let mut tmp = p[i] + eps;
                if tmp > upper[i] {
                    tmp = upper[i];
                    epsused = tmp - p[i];
                }
                x[i] = tmp * self.parscale[i];
                let val1 = self.value_at(x.clone(), ctx)?;
                tmp = p[i] - eps;
                if tmp < lower[i] {
                    tmp = lower[i];
                    eps = p[i] - tmp;
                }
                x[i] = tmp * self.parscale[i];
                let val2 = self.value_at(x.clone(), ctx)?;
                df[i] = (val1 - val2) / (epsused + eps);
                if !df[i].is_finite() {
                    return Err(KernelError::new(format!(
                        "non-finite finite-difference value [{}]",
                        i + 1
                    )));
                }
                x[i] = p[i] * self.parscale[i];
            }
            return Ok(());
        }
        for i in 0..n {
            let eps = self.ndeps[i];
            x[i] = (p[i] + eps) * self.parscale[i];
            let val1 = self.value_at(x.clone(), ctx)?;
            x[i] = (p[i] - eps) * self.parscale[i];
            let val2 = self.value_at(x.clone(), ctx)?;
            df[i] = (val1 - val2) / (2.0 * eps);
            if !df[i].is_finite() {
                return Err(KernelError::new(format!(
                    "non-finite finite-difference value [{}]",
                    i + 1
                )));
            }
            x[i] = p[i] * self.parscale[i];
        }
        Ok(())
    }
}

/// What a minimiser hands back to optim.c.
struct Minimum {
    par: Vec<f64>,
    value: f64,
    fncount: i64,
    /// `None` is R's NA_integer_ (Nelder-Mead evaluates no gradient).
    grcount: Option<i64>,
    fail: i64,
    /// L-BFGS-B's `message` (the others leave it NULL).
    message: Option<String>,
}

const BIG: f64 = 1.0e+35;
const STEPREDN: f64 = 0.2;
const ACCTOL: f64 = 0.0001;
const RELTEST: f64 = 10.0;

/// R's `nmmin`: Nelder-Mead, after J.C. Nash's Pascal as B.D. Ripley
/// re-crafted it. `p` is the simplex, one column per vertex (n + 1 of
/// them, the last row their values) and a column for the centroid.
#[allow(clippy::too_many_arguments)]
fn nmmin(
    bvec: &mut [f64],
    os: &Objective,
    abstol: f64,
    intol: f64,
    alpha: f64,
    bet: f64,
    gamm: f64,
    maxit: i64,
    ctx: &mut Ctx,
) -> Result<Minimum, KernelError> {
    let n = bvec.len();
    if maxit <= 0 {
        let value = os.fminfn(bvec, ctx)?;
        return Ok(Minimum {
            par: bvec.to_vec(),
            value,
            fncount: 0,
            grcount: None,
            fail: 0,
            message: None,
        });
    }
    // optim.c's `matrix(n, n + 1)`: `optim(rep(1, 1e6), fn)` asked for
    // 8 TB row by row, filling memory until the process was killed.
    super::alloc::ensure_room((n + 1) as f64 * (n + 2) as f64 * 8.0)?;
    let mut p = vec![vec![0.0; n + 2]; n + 1];
    let mut fail = 0;
    let mut f = os.fminfn(bvec, ctx)?;
    if !f.is_finite() {
        return Err(KernelError::new(
            "function cannot be evaluated at initial parameters",
        ));
    }
    let mut funcount: i64 = 1;
    let convtol = intol * (f.abs() + intol);
    let n1 = n + 1;
    let c = n + 2;
    p[n1 - 1][0] = f;
    for i in 0..n {
        p[i][0] = bvec[i];
    }
    let mut l = 1;
    let mut size = 0.0;
    let mut step: f64 = 0.0;
    for &b in bvec.iter() {
        if 0.1 * b.abs() > step {
            step = 0.1 * b.abs();
        }
    }
    if step == 0.0 {
        step = 0.1;
    }
    for j in 2..=n1 {
        for i in 0..n {
            p[i][j - 1] = bvec[i];
        }
        let mut trystep = step;
        while p[j - 2][j - 1] == bvec[j - 2] {
            p[j - 2][j - 1] = bvec[j - 2] + trystep;
            trystep *= 10.0;
        }
        size += trystep;
    }
    let mut oldsize = size;
    let mut calcvert = true;
    loop {
        if ctx.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(KernelError::new("cancelled"));
        }
        if calcvert {
            for j in 0..n1 {
                if j + 1 != l {
                    for i in 0..n {
                        bvec[i] = p[i][j];
                    }
                    f = os.fminfn(bvec, ctx)?;
                    if !f.is_finite() {
                        f = BIG;
                    }
                    funcount += 1;
                    p[n1 - 1][j] = f;
                }
            }
            calcvert = false;
        }

        let mut vl = p[n1 - 1][l - 1];
        let mut vh = vl;
        let mut h = l;
        for j in 1..=n1 {
            if j != l {
                f = p[n1 - 1][j - 1];
                if f < vl {
                    l = j;
                    vl = f;
                }
                if f > vh {
                    h = j;
                    vh = f;
                }
            }
        }

        if vh <= vl + convtol || vl <= abstol {
            break;
        }

        for i in 0..n {
            let mut temp = -p[i][h - 1];
            for j in 0..n1 {
                temp += p[i][j];
            }
            p[i][c - 1] = temp / n as f64;
        }
        for i in 0..n {
            bvec[i] = (1.0 + alpha) * p[i][c - 1] - alpha * p[i][h - 1];
        }
        f = os.fminfn(bvec, ctx)?;
        if !f.is_finite() {
            f = BIG;
        }
        funcount += 1;
        let vr = f;
        if vr < vl {
            // Reflection did best: try extending further.
            p[n1 - 1][c - 1] = f;
            for i in 0..n {
                f = gamm * bvec[i] + (1.0 - gamm) * p[i][c - 1];
                p[i][c - 1] = bvec[i];
                bvec[i] = f;
            }
            f = os.fminfn(bvec, ctx)?;
            if !f.is_finite() {
                f = BIG;
            }
            funcount += 1;
            if f < vr {
                for i in 0..n {
                    p[i][h - 1] = bvec[i];
                }
                p[n1 - 1][h - 1] = f;
            } else {
                for i in 0..n {
                    p[i][h - 1] = p[i][c - 1];
                }
                p[n1 - 1][h - 1] = vr;
            }
        } else {
            if vr < vh {
                for i in 0..n {
                    p[i][h - 1] = bvec[i];
                }
                p[n1 - 1][h - 1] = vr;
            }

            for i in 0..n {
                bvec[i] = (1.0 - bet) * p[i][h - 1] + bet * p[i][c - 1];
            }
            f = os.fminfn(bvec, ctx)?;
            if !f.is_finite() {
                f = BIG;
            }
            funcount += 1;

            if f < p[n1 - 1][h - 1] {
                for i in 0..n {
                    p[i][h - 1] = bvec[i];
                }
                p[n1 - 1][h - 1] = f;
            } else if vr >= vh {
                // Shrink the simplex towards its lowest vertex.
                calcvert = true;
                size = 0.0;
                for j in 0..n1 {
                    if j + 1 != l {
                        for i in 0..n {
                            p[i][j] = bet * (p[i][j] - p[i][l - 1]) + p[i][l - 1];
                            size += (p[i][j] - p[i][l - 1]).abs();
                        }
                    }
                }
                if size < oldsize {
                    oldsize = size;
                } else {
                    fail = 10;
                    break;
                }
            }
        }
        if funcount > maxit {
            break;
        }
    }
    if funcount > maxit {
        fail = 1;
    }
    Ok(Minimum {
        par: (0..n).map(|i| p[i][l - 1]).collect(),
        value: p[n1 - 1][l - 1],
        fncount: funcount,
        grcount: None,
        fail,
        message: None,
    })
}

/// R's `vmmin`: the BFGS variable-metric method, after J.C. Nash's Pascal
/// as B.D. Ripley re-crafted it. optim's mask is all ones, so every
/// parameter takes part; `bm` is the lower triangle of the inverse
/// Hessian's approximation.
#[allow(clippy::too_many_arguments)]
fn vmmin(
    b: &mut [f64],
    os: &Objective,
    maxit: i64,
    abstol: f64,
    reltol: f64,
    nreport: Option<i64>,
    ctx: &mut Ctx,
) -> Result<Minimum, KernelError> {
    let n = b.len();
    if maxit <= 0 {
        let value = os.fminfn(b, ctx)?;
        return Ok(Minimum {
            par: b.to_vec(),
            value,
            fncount: 0,
            grcount: Some(0),
            fail: 0,
            message: None,
        });
    }
    if nreport.is_none_or(|r| r <= 0) {
        return Err(KernelError::new("REPORT must be > 0 (method = \"BFGS\")"));
    }
    let mut g = vec![0.0; n];
    let mut t = vec![0.0; n];
    let mut x = vec![0.0; n];
    let mut c = vec![0.0; n];
    // The inverse Hessian's lower triangle, refused like R's when no
    // machine holds it (n = 1e6: 4 TB).
    super::alloc::ensure_room(n as f64 * (n as f64 + 1.0) / 2.0 * 8.0)?;
    let mut bm: Vec<Vec<f64>> = (0..n).map(|i| vec![0.0; i + 1]).collect();
    let mut f = os.fminfn(b, ctx)?;
    if !f.is_finite() {
        return Err(KernelError::new("initial value in 'vmmin' is not finite"));
    }
    let mut fmin = f;
    let mut funcount: i64 = 1;
    let mut gradcount: i64 = 1;
    os.fmingr(b, &mut g, ctx)?;
    let mut iter: i64 = 1;
    let mut ilast = gradcount;
    let mut count;

    loop {
        if ctx.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(KernelError::new("cancelled"));
        }
        if ilast == gradcount {
            for (i, row) in bm.iter_mut().enumerate() {
                row.fill(0.0);
                row[i] = 1.0;
            }
        }
        x.copy_from_slice(b);
        c.copy_from_slice(&g);
        let mut gradproj = 0.0;
        for i in 0..n {
            let mut s = 0.0;
            for j in 0..=i {
                s -= bm[i][j] * g[j];
            }
            for j in i + 1..n {
                s -= bm[j][i] * g[j];
            }
            t[i] = s;
            gradproj += s * g[i];
        }

        if gradproj < 0.0 {
            // The search direction is downhill.
            let mut steplength = 1.0;
            let mut accpoint = false;
            loop {
                count = 0;
                for i in 0..n {
                    b[i] = x[i] + steplength * t[i];
                    if RELTEST + x[i] == RELTEST + b[i] {
                        count += 1;
                    }
                }
                if count < n {
                    f = os.fminfn(b, ctx)?;
                    funcount += 1;
                    accpoint = f.is_finite() && f <= fmin + gradproj * steplength * ACCTOL;
                    if !accpoint {
                        steplength *= STEPREDN;
                    }
                }
                if count == n || accpoint {
                    break;
                }
            }
            let enough = f > abstol && (f - fmin).abs() > reltol * (fmin.abs() + reltol);
            // Stop when the value is small or its relative change is.
            if !enough {
                count = n;
                fmin = f;
            }
            if count < n {
                // Making progress.
                fmin = f;
                os.fmingr(b, &mut g, ctx)?;
                gradcount += 1;
                iter += 1;
                let mut d1 = 0.0;
                for i in 0..n {
                    t[i] *= steplength;
                    c[i] = g[i] - c[i];
                    d1 += t[i] * c[i];
                }
                if d1 > 0.0 {
                    let mut d2 = 0.0;
                    for i in 0..n {
                        let mut s = 0.0;
                        for j in 0..=i {
                            s += bm[i][j] * c[j];
                        }
                        for j in i + 1..n {
                            s += bm[j][i] * c[j];
                        }
                        x[i] = s;
                        d2 += s * c[i];
                    }
                    d2 = 1.0 + d2 / d1;
                    for i in 0..n {
                        for j in 0..=i {
                            bm[i][j] += (d2 * t[i] * t[j] - x[i] * t[j] - t[i] * x[j]) / d1;
                        }
                    }
                } else {
                    ilast = gradcount;
                }
            } else if ilast < gradcount {
                // No progress: restart from the gradient, once.
                count = 0;
                ilast = gradcount;
            }
        } else {
            // Uphill: reset, unless it has just been reset.
            count = 0;
            if ilast == gradcount {
                count = n;
            } else {
                ilast = gradcount;
            }
        }
        if iter >= maxit {
            break;
        }
        if gradcount - ilast > 2 * n as i64 {
            // A periodic restart.
            ilast = gradcount;
        }
        if count == n && ilast == gradcount {
            break;
        }
    }
    Ok(Minimum {
        par: b.to_vec(),
        value: fmin,
        fncount: funcount,
        grcount: Some(gradcount),
        fail: if iter < maxit { 0 } else { 1 },
        message: None,
    })
}

/// R's `cgmin`: conjugate gradients, Fletcher-Reeves (`type` 1),
/// Polak-Ribiere (2) or Beale-Sorenson (3), after J.C. Nash's Pascal as
/// B.D. Ripley re-crafted it.
#[allow(clippy::too_many_arguments)]
fn cgmin(
    bvec: &mut [f64],
    os: &Objective,
    abstol: f64,
    intol: f64,
    kind: Option<i64>,
    trace: bool,
    maxit: i64,
    ctx: &mut Ctx,
) -> Result<Minimum, KernelError> {
    let n = bvec.len();
    let mut x = bvec.to_vec();
    if maxit <= 0 {
        let value = os.fminfn(bvec, ctx)?;
        return Ok(Minimum {
            par: x,
            value,
            fncount: 0,
            grcount: Some(0),
            fail: 0,
            message: None,
        });
    }
    // R checks `type` up front only when tracing, to print its name.
    if trace && !matches!(kind, Some(1..=3)) {
        return Err(KernelError::new(
            "unknown 'type' in \"CG\" method of 'optim'",
        ));
    }
    let mut c = vec![0.0; n];
    let mut g = vec![0.0; n];
    let mut t = vec![0.0; n];
    let setstep = 1.7;
    let cyclimit = n;
    let tol = intol * n as f64 * intol.sqrt();

    let mut f = os.fminfn(bvec, ctx)?;
    if !f.is_finite() {
        return Err(KernelError::new(
            "Function cannot be evaluated at initial parameters",
        ));
    }
    let mut fmin = f;
    let mut funcount: i64 = 1;
    let mut gradcount: i64 = 0;
    let mut steplength = 1.0;
    loop {
        t.fill(0.0);
        c.fill(0.0);
        let mut cycle = 0;
        let mut oldstep = 1.0;
        let mut count = 0;
        let mut g1;
        loop {
            if ctx.cancel.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(KernelError::new("cancelled"));
            }
            cycle += 1;
            gradcount += 1;
            if gradcount > maxit {
                return Ok(Minimum {
                    par: x,
                    value: fmin,
                    fncount: funcount,
                    grcount: Some(gradcount),
                    fail: 1,
                    message: None,
                });
            }
            os.fmingr(bvec, &mut g, ctx)?;
            g1 = 0.0;
            let mut g2 = 0.0;
            for i in 0..n {
                x[i] = bvec[i];
                match kind {
                    Some(1) => {
                        // Fletcher-Reeves
                        g1 += g[i] * g[i];
                        g2 += c[i] * c[i];
                    }
                    Some(2) => {
                        // Polak-Ribiere
                        g1 += g[i] * (g[i] - c[i]);
                        g2 += c[i] * c[i];
                    }
                    Some(3) => {
                        // Beale-Sorenson
                        g1 += g[i] * (g[i] - c[i]);
                        g2 += t[i] * (g[i] - c[i]);
                    }
                    _ => return Err(KernelError::new("unknown type in \"CG\" method of 'optim'")),
                }
                c[i] = g[i];
            }
            if g1 > tol {
                let g3 = if g2 > 0.0 { g1 / g2 } else { 1.0 };
                let mut gradproj = 0.0;
                for i in 0..n {
                    t[i] = t[i] * g3 - g[i];
                    gradproj += t[i] * g[i];
                }
                steplength = oldstep;

                let mut accpoint = false;
                loop {
                    count = 0;
                    for i in 0..n {
                        bvec[i] = x[i] + steplength * t[i];
                        if RELTEST + x[i] == RELTEST + bvec[i] {
                            count += 1;
                        }
                    }
                    if count < n {
                        // The point is a different one.
                        f = os.fminfn(bvec, ctx)?;
                        funcount += 1;
                        accpoint = f.is_finite() && f <= fmin + gradproj * steplength * ACCTOL;
                        if !accpoint {
                            steplength *= STEPREDN;
                        } else {
                            // An improvement: keep its value.
                            fmin = f;
                        }
                    }
                    if count == n || accpoint {
                        break;
                    }
                }
                if count < n {
                    let newstep = 2.0 * (f - fmin - gradproj * steplength);
                    if newstep > 0.0 {
                        let newstep = -(gradproj * steplength * steplength / newstep);
                        for i in 0..n {
                            bvec[i] = x[i] + newstep * t[i];
                        }
                        fmin = f;
                        f = os.fminfn(bvec, ctx)?;
                        funcount += 1;
                        if f < fmin {
                            fmin = f;
                        } else {
                            // Back to the lowest point.
                            for i in 0..n {
                                bvec[i] = x[i] + steplength * t[i];
                            }
                        }
                    }
                }
            }
            oldstep = setstep * steplength;
            if oldstep > 1.0 {
                oldstep = 1.0;
            }
            if !(count != n && g1 > tol && cycle != cyclimit) {
                break;
            }
        }
        if !(cycle != 1 || (count != n && g1 > tol && fmin > abstol)) {
            break;
        }
    }
    Ok(Minimum {
        par: x,
        value: fmin,
        fncount: funcount,
        grcount: Some(gradcount),
        fail: 0,
        message: None,
    })
}

/// R's `optimhess`: the Hessian by central differences of the gradient
/// (`gr`'s, or fmingr's own), symmetrised, at `par` (unscaled).
fn optimhess(par: &[f64], os: &Objective, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let npar = par.len();
    if os.ndeps.len() != npar {
        return Err(KernelError::new("'ndeps' is of the wrong length"));
    }
    let mut ans = vec![0.0; npar * npar];
    let mut dpar: Vec<f64> = par.iter().zip(&os.parscale).map(|(p, s)| p / s).collect();
    let mut df1 = vec![0.0; npar];
    let mut df2 = vec![0.0; npar];
    for i in 0..npar {
        let eps = os.ndeps[i] / os.parscale[i];
        dpar[i] += eps;
        os.fmingr(&dpar, &mut df1, ctx)?;
        dpar[i] -= 2.0 * eps;
        os.fmingr(&dpar, &mut df2, ctx)?;
        for j in 0..npar {
            ans[i * npar + j] =
                os.fnscale * (df1[j] - df2[j]) / (2.0 * eps * os.parscale[i] * os.parscale[j]);
        }
        dpar[i] += eps;
    }
    for i in 0..npar {
        for j in 0..i {
            let tmp = 0.5 * (ans[i * npar + j] + ans[j * npar + i]);
            ans[i * npar + j] = tmp;
            ans[j * npar + i] = tmp;
        }
    }
    let m = Value::Mat(nalgebra::DMatrix::from_vec(npar, npar, ans));
    Ok(match &os.names {
        Some(n) => names::dimnamed(m, Some(n.clone()), Some(n.clone())),
        None => m,
    })
}

/// par as numbers, its names, and the dimensions it had (a matrix's
/// result keeps them, as R's coerced `par` does).
fn parameters(args: &Args<&Value>) -> Result<(Vec<f64>, Option<Vec<String>>), KernelError> {
    let par = args
        .get("par")
        .ok_or_else(|| KernelError::new("argument \"par\" is missing, with no default"))?;
    let x = match names::bare(par) {
        Value::Null => Vec::new(),
        v => v.as_f64_slice().map(|x| x.into_owned()).ok_or_else(|| {
            KernelError::new(format!(
                "'par' must be numeric in optim, not {}",
                v.type_name()
            ))
        })?,
    };
    let nm = names::names(par).map(<[String]>::to_vec);
    Ok((x, nm))
}

/// fn and gr, resolved: R's `'fn' is not a function` when fn is missing.
fn functions<'f>(
    args: &Args<&Value>,
    ctx: &Ctx<'f>,
) -> Result<(Fun<'f>, Option<Fun<'f>>), KernelError> {
    let f =
        resolve(args.get("fn"), ctx)?.ok_or_else(|| KernelError::new("'fn' is not a function"))?;
    let g = resolve2(args.get("gr"), ctx)?;
    Ok((f, g))
}

/// The result list of optim.c (and optim.R's for "Brent").
fn result(
    par: Value,
    value: f64,
    counts: [f64; 2],
    convergence: f64,
    message: Option<String>,
    hessian: Option<Value>,
) -> Value {
    let mut names: Vec<String> = ["par", "value", "counts", "convergence", "message"]
        .map(String::from)
        .to_vec();
    let mut items = vec![
        par,
        Value::scalar(value),
        names::named(
            Value::Num(counts.to_vec()),
            vec!["function".into(), "gradient".into()],
        ),
        Value::scalar(convergence),
        message.map_or(Value::Null, |m| Value::Str(vec![m])),
    ];
    if let Some(h) = hessian {
        names.push("hessian".into());
        items.push(h);
    }
    Value::List(List {
        class: None,
        names: Some(names),
        items,
        row_names: None,
    })
}

/// optim.R's warning when L-BFGS-B is given the tolerances it ignores.
fn warn_tols(method: &str, control: Option<&Value>, ctx: &mut Ctx) {
    if method != "L-BFGS-B" {
        return;
    }
    if let Some(Value::List(l)) = control.map(names::bare) {
        let tols = l
            .names
            .iter()
            .flatten()
            .any(|n| n == "reltol" || n == "abstol");
        if tols {
            ctx.warn("method L-BFGS-B uses 'factr' (and 'pgtol') instead of 'reltol' and 'abstol'");
        }
    }
}

/// `optim(par, fn, gr, ..., method, lower, upper, control, hessian)`.
fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let mut method = method(args.get("method"))?;
    let bound = |name: &str, default: f64| -> Result<Vec<f64>, KernelError> {
        match args.get(name).map(names::bare) {
            None => Ok(vec![default]),
            Some(v) => v
                .as_f64_slice()
                .map(|x| x.into_owned())
                .ok_or_else(|| KernelError::new(format!("invalid '{name}' value"))),
        }
    };
    let lower = bound("lower", f64::NEG_INFINITY)?;
    let upper = bound("upper", f64::INFINITY)?;
    // `any(lower > -Inf) || any(upper < Inf)`: NA counts as neither.
    let bounded =
        lower.iter().any(|&l| l > f64::NEG_INFINITY) || upper.iter().any(|&u| u < f64::INFINITY);
    if bounded && !matches!(method, "L-BFGS-B" | "Brent") {
        ctx.warn("bounds can only be used with method L-BFGS-B (or Brent)");
        method = "L-BFGS-B";
    }
    let (par, par_names) = parameters(args)?;
    let npar = par.len();
    let con = control(args.get("control"), npar, method, true, ctx)?;
    warn_tols(method, args.get("control"), ctx);
    if npar == 1 && method == "Nelder-Mead" && con.warn_1d {
        ctx.warn(
            "one-dimensional optimization by Nelder-Mead is unreliable:\n\
             use \"Brent\" or optimize() directly",
        );
    }
    if npar > 1 && method == "Brent" {
        return Err(KernelError::new(
            "method = \"Brent\" is only available for one-dimensional optimization",
        ));
    }
    let hessian = args.bool_or("hessian", false)?;
    let (fcall, gcall) = functions(args, ctx)?;
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let mut os = Objective {
        fcall: Target::R(fcall.clone()),
        gcall,
        gnative: None,
        dots: &dots,
        ndeps: con.ndeps.clone(),
        fnscale: con.fnscale,
        parscale: con.parscale.clone(),
        names: par_names.clone(),
    };
    let named_par = |x: Vec<f64>| -> Value {
        let v = match args.get("par").map(names::bare) {
            Some(Value::Mat(m)) if m.len() == x.len() => {
                Value::Mat(nalgebra::DMatrix::from_vec(m.nrows(), m.ncols(), x))
            }
            _ => Value::Num(x),
        };
        match &par_names {
            Some(n) => names::named(v, n.clone()),
            None => v,
        }
    };

    if method == "Brent" {
        let lower = rep_len(&lower, npar);
        let upper = rep_len(&upper, npar);
        if lower.iter().chain(&upper).any(|x| !x.is_finite()) {
            return Err(KernelError::new(
                "'lower' and 'upper' must be finite values",
            ));
        }
        let (lower, upper) = (lower[0], upper[0]);
        if lower >= upper {
            return Err(KernelError::new("'xmin' not less than 'xmax'"));
        }
        if !(con.reltol.is_finite() && con.reltol > 0.0) {
            return Err(KernelError::new("invalid 'tol' value"));
        }
        // optimize(function(par) fn(par, ...)/con$fnscale, ...): fn sees
        // the bare number optimize passes.
        let scaled = |x: f64, ctx: &mut Ctx| -> Result<Value, KernelError> {
            let v = fcall.call_on(&Value::scalar(x), &dots, ctx)?;
            Ok(match names::bare(&v) {
                Value::Num(y) => Value::Num(y.iter().map(|y| y / con.fnscale).collect()),
                Value::Bool(_) | Value::Mat(_) => Value::Num(
                    v.as_f64_slice()
                        .unwrap_or_default()
                        .iter()
                        .map(|y| y / con.fnscale)
                        .collect(),
                ),
                other => other.clone(),
            })
        };
        let at = {
            let mut objective = |x: f64| -> Result<f64, KernelError> {
                let v = scaled(x, ctx)?;
                super::optimize::fcn1(&v, ctx)
            };
            super::optimize::brent_fmin(lower, upper, &mut objective, con.reltol)?
        };
        let objective = scaled(at, ctx)?;
        let value = match names::bare(&objective) {
            Value::Num(y) if y.len() == 1 => y[0] * con.fnscale,
            _ => {
                return Err(KernelError::new(
                    "objective function in optim evaluates to length 0 not 1",
                ))
            }
        };
        os.names = None;
        let h = if hessian {
            Some(optimhess(&[at], &os, ctx)?)
        } else {
            None
        };
        return Ok(result(Value::scalar(at), value, [NA, NA], 0.0, None, h));
    }

    let m = minimise(method, &par, (&lower, &upper), &os, &con, ctx)?;
    let par = m.par;
    let h = if hessian {
        Some(optimhess(&par, &os, ctx)?)
    } else {
        None
    };
    let counts = [m.fncount as f64, m.grcount.map_or(NA, |g| g as f64)];
    Ok(result(
        named_par(par),
        m.value * con.fnscale,
        counts,
        m.fail as f64,
        m.message,
        h,
    ))
}

/// optim.c's choice of minimiser for `method` (all but "Brent"). As
/// optim.c does, it minimises over `par / parscale` and hands back the
/// minimum's `par` scaled back.
fn minimise(
    method: &str,
    par: &[f64],
    bounds: (&[f64], &[f64]),
    os: &Objective,
    con: &Control,
    ctx: &mut Ctx,
) -> Result<Minimum, KernelError> {
    let mut scaled: Vec<f64> = par.iter().zip(&con.parscale).map(|(p, s)| p / s).collect();
    let dpar = scaled.as_mut_slice();
    let npar = dpar.len();
    let maxit = con
        .maxit
        .ok_or_else(|| KernelError::new("'maxit' is not an integer"))?;
    let needs_ndeps = |os: &Objective| -> Result<(), KernelError> {
        if os.gcall.is_none() && os.ndeps.len() != npar {
            return Err(KernelError::new("'ndeps' is of the wrong length"));
        }
        Ok(())
    };
    let mut m = match method {
        "Nelder-Mead" => nmmin(
            dpar, os, con.abstol, con.reltol, con.alpha, con.beta, con.gamma, maxit, ctx,
        )?,
        "BFGS" => {
            needs_ndeps(os)?;
            vmmin(dpar, os, maxit, con.abstol, con.reltol, con.report, ctx)?
        }
        "CG" => {
            needs_ndeps(os)?;
            cgmin(
                dpar,
                os,
                con.abstol,
                con.reltol,
                con.kind,
                con.trace != 0.0 && !con.trace.is_nan(),
                maxit,
                ctx,
            )?
        }
        "L-BFGS-B" => {
            needs_ndeps(os)?;
            lbfgsb(dpar, bounds, os, con, maxit, ctx)?
        }
        _ => {
            return Err(KernelError::new(
                "flowcast does not have optim's method \"SANN\" yet; \
                 use \"Nelder-Mead\" or \"BFGS\"",
            ))
        }
    };
    for (p, s) in m.par.iter_mut().zip(&con.parscale) {
        *p *= s;
    }
    Ok(m)
}

/// optim.c's "L-BFGS-B" arm and its `lbfgsb` driver: the bounds divided
/// by parscale, their kinds (`nbd`), and `setulb` run to its end.
fn lbfgsb(
    dpar: &mut [f64],
    (lower, upper): (&[f64], &[f64]),
    os: &Objective,
    con: &Control,
    maxit: i64,
    ctx: &mut Ctx,
) -> Result<Minimum, KernelError> {
    let npar = dpar.len();
    let lower = rep_len(lower, npar);
    let upper = rep_len(upper, npar);
    let mut l = vec![0.0; npar];
    let mut u = vec![0.0; npar];
    let mut nbd = vec![0i32; npar];
    for i in 0..npar {
        l[i] = lower[i] / os.parscale[i];
        u[i] = upper[i] / os.parscale[i];
        nbd[i] = match (l[i].is_finite(), u[i].is_finite()) {
            (false, false) => 0,
            (false, true) => 3,
            (true, false) => 1,
            (true, true) => 2,
        };
    }
    if npar == 0 {
        // "not handled in setulb"
        let value = os.fminfn(&[], ctx)?;
        return Ok(Minimum {
            par: Vec::new(),
            value,
            fncount: 1,
            grcount: Some(0),
            fail: 0,
            message: Some("NOTHING TO DO".into()),
        });
    }
    if con.report.is_none_or(|r| r <= 0) {
        return Err(KernelError::new(
            "REPORT must be > 0 (method = \"L-BFGS-B\")",
        ));
    }
    // R's asInteger NA is INT_MIN; its work arrays of 11 m^2 doubles are
    // beyond memory long before m is this large.
    let lmm = con.lmm.unwrap_or(i64::from(i32::MIN));
    if !(0..=100_000).contains(&lmm) || (lmm as f64) * (npar as f64) > 1e9 {
        return Err(KernelError::new(format!(
            "L-BFGS-B cannot allocate its work arrays for lmm = {}",
            con.lmm.map_or("NA".to_string(), |m| m.to_string())
        )));
    }
    let mut fg = |x: &[f64], g: &mut [f64]| -> Result<f64, KernelError> {
        let f = os.fminfn(x, ctx)?;
        if !f.is_finite() {
            return Err(KernelError::new("L-BFGS-B needs finite values of 'fn'"));
        }
        os.fmingr_within(x, g, Some((&l, &u)), ctx)?;
        Ok(f)
    };
    let out = super::lbfgsb::lbfgsb(
        lmm, dpar, &l, &u, &nbd, &mut fg, con.factr, con.pgtol, maxit,
    )?;
    Ok(Minimum {
        par: dpar.to_vec(),
        value: out.value,
        fncount: out.count,
        grcount: Some(out.count),
        fail: out.fail,
        message: Some(out.message),
    })
}

/// What [`optim_native`] hands back: optim's `par`, `value`,
/// `convergence` and, when asked for, `hessian`.
pub(super) struct Optimum {
    pub par: Vec<f64>,
    pub value: f64,
    pub convergence: i64,
    /// L-BFGS-B's `message`; `None` for the other methods (R's NULL).
    pub message: Option<String>,
    /// `counts`: fn's and gr's evaluations (`None`: R's NA).
    pub counts: (i64, Option<i64>),
    pub hessian: Option<nalgebra::DMatrix<f64>>,
}

/// `optim(par, fn, method = method, lower = , upper = , hessian = hessian,
/// control = control)` for a Rust `fn` of the parameters, as R code
/// calling optim on a closure of its own runs it (arima's `armafn`): the
/// same control list, scaling, minimisers, finite-difference gradient
/// (fmingr, `ndeps`) and optimhess. `bounds` are `lower` and `upper`
/// (`None`: -Inf and Inf), with optim's switch to "L-BFGS-B" when they
/// bind and another method was asked for. "Brent" is refused.
pub(super) fn optim_native(
    par: &[f64],
    f: &dyn Fn(&[f64]) -> f64,
    method: Option<&Value>,
    bounds: Option<(&[f64], &[f64])>,
    control_list: Option<&Value>,
    hessian: bool,
    ctx: &mut Ctx,
) -> Result<Optimum, KernelError> {
    optim_native_try(
        par,
        &|p| Ok(f(p)),
        method,
        bounds,
        control_list,
        hessian,
        ctx,
    )
}

/// [`optim_native`] for an objective that can fail, as an R closure
/// calling `.C` does (HoltWinters' `hw` refuses a non-finite argument):
/// its error ends the search, as R's does.
pub(super) fn optim_native_try(
    par: &[f64],
    f: &dyn Fn(&[f64]) -> Result<f64, KernelError>,
    method: Option<&Value>,
    bounds: Option<(&[f64], &[f64])>,
    control_list: Option<&Value>,
    hessian: bool,
    ctx: &mut Ctx,
) -> Result<Optimum, KernelError> {
    let f = |p: &[f64], _: &mut Ctx| f(p);
    optim_native_gr(par, &f, None, method, bounds, control_list, hessian, ctx)
}

/// [`optim_native_try`] with the kernel's own gradient `gr` (R code
/// passing its own `gr` closure, as factanal.fit.mle passes FAgr); `None`
/// is optim's finite differences. Both are handed the context, to call
/// the user's R functions from within (constrOptim's barrier).
#[allow(clippy::too_many_arguments)]
pub(super) fn optim_native_gr(
    par: &[f64],
    f: NativeObjective<'_>,
    gr: Option<NativeGradient<'_>>,
    method: Option<&Value>,
    bounds: Option<(&[f64], &[f64])>,
    control_list: Option<&Value>,
    hessian: bool,
    ctx: &mut Ctx,
) -> Result<Optimum, KernelError> {
    let mut method = self::method(method)?;
    let (lower, upper) = bounds.unwrap_or((&[f64::NEG_INFINITY], &[f64::INFINITY]));
    let bounded =
        lower.iter().any(|&l| l > f64::NEG_INFINITY) || upper.iter().any(|&u| u < f64::INFINITY);
    if bounded && !matches!(method, "L-BFGS-B" | "Brent") {
        ctx.warn("bounds can only be used with method L-BFGS-B (or Brent)");
        method = "L-BFGS-B";
    }
    let npar = par.len();
    let con = control(control_list, npar, method, true, ctx)?;
    warn_tols(method, control_list, ctx);
    if npar == 1 && method == "Nelder-Mead" && con.warn_1d {
        ctx.warn(
            "one-dimensional optimization by Nelder-Mead is unreliable:\n\
             use \"Brent\" or optimize() directly",
        );
    }
    if method == "Brent" {
        return Err(KernelError::new(if npar > 1 {
            "method = \"Brent\" is only available for one-dimensional optimization"
        } else {
            "'lower' and 'upper' must be finite values"
        }));
    }
    let os = Objective {
        fcall: Target::Native(f),
        gcall: None,
        gnative: gr,
        dots: &[],
        ndeps: con.ndeps.clone(),
        fnscale: con.fnscale,
        parscale: con.parscale.clone(),
        names: None,
    };
    let m = minimise(method, par, (lower, upper), &os, &con, ctx)?;
    let par = m.par;
    let hessian = if hessian {
        match optimhess(&par, &os, ctx)? {
            Value::Mat(h) => Some(h),
            _ => None,
        }
    } else {
        None
    };
    Ok(Optimum {
        par,
        value: m.value * con.fnscale,
        convergence: m.fail,
        message: m.message,
        counts: (m.fncount, m.grcount),
        hessian,
    })
}

/// R's `rep_len(x, n)`.
fn rep_len(x: &[f64], n: usize) -> Vec<f64> {
    if x.is_empty() {
        return vec![NA; n];
    }
    (0..n).map(|i| x[i % x.len()]).collect()
}

/// `optimHess(par, fn, gr, ..., control)`.
fn hess_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let (par, par_names) = parameters(args)?;
    let con = control(args.get("control"), par.len(), "", false, ctx)?;
    let (fcall, gcall) = functions(args, ctx)?;
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let os = Objective {
        fcall: Target::R(fcall),
        gcall,
        gnative: None,
        dots: &dots,
        ndeps: con.ndeps,
        fnscale: con.fnscale,
        parscale: con.parscale,
        names: par_names,
    };
    optimhess(&par, &os, ctx)
}

/// The method optim will run, when known before the run: R's
/// `match.arg` takes a prefix, and bounds switch the default Nelder-Mead
/// to L-BFGS-B.
fn method_shape(args: &Args<Type>) -> Option<&'static str> {
    let bounds = args.ty("lower").is_some() || args.ty("upper").is_some();
    match args.ty("method") {
        None if bounds => Some("L-BFGS-B"),
        None => Some("Nelder-Mead"),
        Some(t) => {
            let m = t.const_str().filter(|m| !m.is_empty())?;
            ["Nelder-Mead", "BFGS", "CG", "L-BFGS-B", "SANN", "Brent"]
                .into_iter()
                .find(|full| full.starts_with(m))
        }
    }
}

/// How often the search will call fn and gr, for the prior: optimHess
/// takes one gradient (2n calls of fn without gr), optim a typical
/// search's (see [`work::optim_evaluations`]).
fn evaluations(args: &Args<Type>, n: Option<usize>, gr_given: bool) -> (f64, f64) {
    let n = n.unwrap_or(1) as f64;
    let hessian = if gr_given {
        (1.0, 2.0 * n)
    } else {
        (1.0 + 4.0 * n * n, 0.0)
    };
    if args.func == "optimHess" {
        return hessian;
    }
    let maxit = args
        .ty("control")
        .and_then(|c| c.field("maxit"))
        .and_then(Type::const_scalar)
        .filter(|m| m.is_finite());
    let (f, g) = work::optim_evaluations(method_shape(args).unwrap_or("BFGS"), n, maxit, gr_given);
    match hessian_wanted(args) {
        Some(false) => (f, g),
        _ => (f + hessian.0, g + hessian.1),
    }
}

/// optim's `message`: L-BFGS-B's string, NULL for the other methods;
/// unknown when the method is, or bounds may switch to L-BFGS-B.
fn message_shape(args: &Args<Type>) -> Type {
    let lbfgsb = Type::Str {
        len: Some(1),
        value: None,
    };
    let named = match args.ty("method") {
        None => Some("Nelder-Mead"),
        Some(t) => t.const_str(),
    };
    let is = |m: &str, full: &str| !m.is_empty() && full.starts_with(m);
    let bounds = args.ty("lower").is_some() || args.ty("upper").is_some();
    match named {
        Some(m) if is(m, "L-BFGS-B") => lbfgsb,
        Some(m) if is(m, "Brent") => Type::Null,
        Some(_) if !bounds => Type::Null,
        _ => Type::Any,
    }
}

/// fn's body is checked once at a numeric vector of par's length (and
/// gr's, when given as a function); how often the search runs them is not
/// known before the run.
fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let par = args.ty("par");
    if let Some(t) = par {
        if !(t.is_numeric() || matches!(t, Type::Any | Type::Null | Type::Bool { .. })) {
            return Err(args.error(
                "par",
                format!("'par' must be numeric in optim, not {}", t.describe()),
            ));
        }
    }
    let n = par.and_then(Type::len);
    let given = |ctx_t: Type| {
        let mut given = vec![(None, ctx_t)];
        given.extend(args.dots().map(|(n, t)| (n.map(str::to_string), t.clone())));
        given
    };
    let at = n.map_or_else(Type::num_unknown, Type::num);
    let gr_given = resolve_shape2(args.ty("gr"), ctx).is_ok_and(|g| g.is_some());
    let (fn_runs, gr_runs) = evaluations(args, n, gr_given);
    if let Some(f) = resolve_shape(args.ty("fn"), ctx).map_err(|m| args.error("fn", m))? {
        let t = f
            .shape_about(given(at.clone()), fn_runs, ctx)
            .map_err(|m| args.error("fn", m))?;
        if let Some(len) = t.len().filter(|&l| l != 1 && t.is_numeric()) {
            return Err(args.error(
                "fn",
                format!("objective function in optim evaluates to length {len} not 1"),
            ));
        }
    }
    if let Some(g) = resolve_shape2(args.ty("gr"), ctx).map_err(|m| args.error("gr", m))? {
        let t = g
            .shape_about(given(at.clone()), gr_runs, ctx)
            .map_err(|m| args.error("gr", m))?;
        if let (Some(len), Some(n)) = (t.len().filter(|_| t.is_numeric()), n) {
            if len != n {
                return Err(args.error(
                    "gr",
                    format!("gradient in optim evaluated to length {len} not {n}"),
                ));
            }
        }
    }
    let square = || Type::Mat { rows: n, cols: n };
    if args.func == "optimHess" {
        return Ok(square());
    }
    let mut fields = vec![
        ("par", at),
        ("value", Type::num(1)),
        ("counts", Type::num(2)),
        ("convergence", Type::num(1)),
        ("message", message_shape(args)),
    ];
    match hessian_wanted(args) {
        Some(false) => {}
        Some(true) => fields.push(("hessian", square())),
        None => return Ok(Type::Any),
    }
    Ok(Type::record("list", fields))
}

/// Whether an optimiser's result will hold a `hessian` (optim, nlm and
/// constrOptim take the same `hessian = FALSE`); `None` when only the run
/// can tell, and so the list's fields are not known before it.
pub(super) fn hessian_wanted(args: &Args<Type>) -> Option<bool> {
    match args.ty("hessian") {
        None => Some(false),
        Some(Type::Bool { value: Some(v), .. }) if v.as_slice() == [Some(false)] => Some(false),
        Some(Type::Bool { value: Some(v), .. }) if v.as_slice() == [Some(true)] => Some(true),
        Some(_) => None,
    }
}
