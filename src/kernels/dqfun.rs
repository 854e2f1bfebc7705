//! R's density and quantile functions (`dnorm`, `qgamma`, …) and the
//! discrete distribution functions (`pbinom`, `ppois`, …), as kernels with
//! R's formals; each recycles its arguments as R's `math2`/`math3`/`math4`
//! do and keeps a matrix argument's shape.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::nmath::dfun as d;
use super::nmath::dnbeta::{dnbeta, dnf};
use super::nmath::dnchisq::dnchisq;
use super::nmath::dnt::dnt;
use super::nmath::qfun as q;
use super::nmath::qnbeta::{qnbeta, qnf};
use super::nmath::qnchisq::qnchisq;
use super::nmath::qnt::qnt;
use super::nmath::tukey::qtukey;
use super::nmath::{dnorm, qnorm::qnorm};
use super::recycle::map_rows;
use super::recycle::{recycled_len, recycled_shape};
use super::{opt, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value};

/// pgamma's `scale = 1/rate`: a default computed from another formal.
const DERIVED: f64 = f64::MIN;

/// One function: its first formal, the parameters after it with their
/// defaults (NaN: required), its flags (`log`, or `lower.tail`/`log.p`)
/// and nmath's routine.
struct Fun {
    name: &'static str,
    formals: &'static [&'static str],
    defaults: &'static [f64],
    f: fn(f64, &[f64], bool, bool) -> f64,
}

const NA_: f64 = f64::NAN;

/// `scale` from a gamma's (rate, scale) pair.
fn gamma_scale(p: &[f64]) -> f64 {
    if p[1] == DERIVED {
        1.0 / p[0]
    } else {
        p[1]
    }
}

/// A negative binomial's `mu` (of size, prob, mu), when it is given:
/// R then calls the `_mu` routines.
fn nb_mu(p: &[f64]) -> Option<f64> {
    (p[2] != DERIVED).then_some(p[2])
}

static FUNS: &[Fun] = &[
    // densities: (x, params, log, _)
    Fun {
        name: "dnorm",
        formals: &["mean", "sd"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, _| dnorm(x, p[0], p[1], l),
    },
    Fun {
        name: "dunif",
        formals: &["min", "max"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, _| d::dunif(x, p[0], p[1], l),
    },
    Fun {
        name: "dexp",
        formals: &["rate"],
        defaults: &[1.0],
        f: |x, p, l, _| d::dexp(x, 1.0 / p[0], l),
    },
    Fun {
        name: "dgamma",
        formals: &["shape", "rate", "scale"],
        defaults: &[NA_, 1.0, DERIVED],
        f: |x, p, l, _| d::dgamma(x, p[0], gamma_scale(&p[1..]), l),
    },
    Fun {
        name: "dbeta",
        formals: &["shape1", "shape2"],
        defaults: &[NA_, NA_],
        f: |x, p, l, _| d::dbeta(x, p[0], p[1], l),
    },
    Fun {
        name: "dchisq",
        formals: &["df"],
        defaults: &[NA_],
        f: |x, p, l, _| d::dgamma(x, p[0] / 2.0, 2.0, l),
    },
    Fun {
        name: "dt",
        formals: &["df"],
        defaults: &[NA_],
        f: |x, p, l, _| d::dt(x, p[0], l),
    },
    Fun {
        name: "df",
        formals: &["df1", "df2"],
        defaults: &[NA_, NA_],
        f: |x, p, l, _| d::df(x, p[0], p[1], l),
    },
    Fun {
        name: "dlnorm",
        formals: &["meanlog", "sdlog"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, _| d::dlnorm(x, p[0], p[1], l),
    },
    Fun {
        name: "dweibull",
        formals: &["shape", "scale"],
        defaults: &[NA_, 1.0],
        f: |x, p, l, _| d::dweibull(x, p[0], p[1], l),
    },
    Fun {
        name: "dcauchy",
        formals: &["location", "scale"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, _| d::dcauchy(x, p[0], p[1], l),
    },
    Fun {
        name: "dlogis",
        formals: &["location", "scale"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, _| d::dlogis(x, p[0], p[1], l),
    },
    Fun {
        name: "dbinom",
        formals: &["size", "prob"],
        defaults: &[NA_, NA_],
        f: |x, p, l, _| d::dbinom(x, p[0], p[1], l),
    },
    Fun {
        name: "dpois",
        formals: &["lambda"],
        defaults: &[NA_],
        f: |x, p, l, _| d::dpois(x, p[0], l),
    },
    Fun {
        name: "dgeom",
        formals: &["prob"],
        defaults: &[NA_],
        f: |x, p, l, _| d::dgeom(x, p[0], l),
    },
    Fun {
        name: "dhyper",
        formals: &["m", "n", "k"],
        defaults: &[NA_, NA_, NA_],
        f: |x, p, l, _| d::dhyper(x, p[0], p[1], p[2], l),
    },
    Fun {
        name: "dnbinom",
        formals: &["size", "prob", "mu"],
        defaults: &[NA_, DERIVED, DERIVED],
        f: |x, p, l, _| match nb_mu(p) {
            Some(mu) => d::dnbinom_mu(x, p[0], mu, l),
            None => d::dnbinom(x, p[0], p[1], l),
        },
    },
    // discrete distribution functions: (q, params, lower.tail, log.p)
    Fun {
        name: "pbinom",
        formals: &["size", "prob"],
        defaults: &[NA_, NA_],
        f: |x, p, l, g| d::pbinom(x, p[0], p[1], l, g),
    },
    Fun {
        name: "ppois",
        formals: &["lambda"],
        defaults: &[NA_],
        f: |x, p, l, g| d::ppois(x, p[0], l, g),
    },
    Fun {
        name: "pgeom",
        formals: &["prob"],
        defaults: &[NA_],
        f: |x, p, l, g| d::pgeom(x, p[0], l, g),
    },
    Fun {
        name: "phyper",
        formals: &["m", "n", "k"],
        defaults: &[NA_, NA_, NA_],
        f: |x, p, l, g| d::phyper(x, p[0], p[1], p[2], l, g),
    },
    Fun {
        name: "pnbinom",
        formals: &["size", "prob", "mu"],
        defaults: &[NA_, DERIVED, DERIVED],
        f: |x, p, l, g| match nb_mu(p) {
            Some(mu) => d::pnbinom_mu(x, p[0], mu, l, g),
            None => d::pnbinom(x, p[0], p[1], l, g),
        },
    },
    // quantiles: (p, params, lower.tail, log.p)
    Fun {
        name: "qnorm",
        formals: &["mean", "sd"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, g| qnorm(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qunif",
        formals: &["min", "max"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, g| q::qunif(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qexp",
        formals: &["rate"],
        defaults: &[1.0],
        f: |x, p, l, g| q::qexp(x, 1.0 / p[0], l, g),
    },
    Fun {
        name: "qgamma",
        formals: &["shape", "rate", "scale"],
        defaults: &[NA_, 1.0, DERIVED],
        f: |x, p, l, g| q::qgamma(x, p[0], gamma_scale(&p[1..]), l, g),
    },
    Fun {
        name: "qbeta",
        formals: &["shape1", "shape2"],
        defaults: &[NA_, NA_],
        f: |x, p, l, g| q::qbeta(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qchisq",
        formals: &["df"],
        defaults: &[NA_],
        f: |x, p, l, g| q::qchisq(x, p[0], l, g),
    },
    Fun {
        name: "qt",
        formals: &["df"],
        defaults: &[NA_],
        f: |x, p, l, g| q::qt(x, p[0], l, g),
    },
    Fun {
        name: "qf",
        formals: &["df1", "df2"],
        defaults: &[NA_, NA_],
        f: |x, p, l, g| q::qf(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qlnorm",
        formals: &["meanlog", "sdlog"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, g| q::qlnorm(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qweibull",
        formals: &["shape", "scale"],
        defaults: &[NA_, 1.0],
        f: |x, p, l, g| q::qweibull(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qcauchy",
        formals: &["location", "scale"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, g| q::qcauchy(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qlogis",
        formals: &["location", "scale"],
        defaults: &[0.0, 1.0],
        f: |x, p, l, g| q::qlogis(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qbinom",
        formals: &["size", "prob"],
        defaults: &[NA_, NA_],
        f: |x, p, l, g| q::qbinom(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qpois",
        formals: &["lambda"],
        defaults: &[NA_],
        f: |x, p, l, g| q::qpois(x, p[0], l, g),
    },
    Fun {
        name: "qgeom",
        formals: &["prob"],
        defaults: &[NA_],
        f: |x, p, l, g| q::qgeom(x, p[0], l, g),
    },
    Fun {
        name: "qhyper",
        formals: &["m", "n", "k"],
        defaults: &[NA_, NA_, NA_],
        f: |x, p, l, g| q::qhyper(x, p[0], p[1], p[2], l, g),
    },
    Fun {
        name: "qnbinom",
        formals: &["size", "prob", "mu"],
        defaults: &[NA_, DERIVED, DERIVED],
        f: |x, p, l, g| match nb_mu(p) {
            Some(mu) => q::qnbinom_mu(x, p[0], mu, l, g),
            None => q::qnbinom(x, p[0], p[1], l, g),
        },
    },
    // R's `qtukey(p, nmeans, df, nranges)` calls C's with `nranges` first.
    Fun {
        name: "qtukey",
        formals: &["nmeans", "df", "nranges"],
        defaults: &[NA_, NA_, 1.0],
        f: |x, p, l, g| qtukey(x, p[2], p[0], p[1], l, g),
    },
];

/// The non-central forms, which R calls when `ncp` is given at all (not
/// when it is non-zero: `dchisq(x, df, ncp = 0)` is dnchisq's answer).
static NONCENTRAL: &[Fun] = &[
    Fun {
        name: "dbeta",
        formals: &["shape1", "shape2", "ncp"],
        defaults: &[NA_, NA_, NA_],
        f: |x, p, l, _| dnbeta(x, p[0], p[1], p[2], l),
    },
    Fun {
        name: "dchisq",
        formals: &["df", "ncp"],
        defaults: &[NA_, NA_],
        f: |x, p, l, _| dnchisq(x, p[0], p[1], l),
    },
    Fun {
        name: "dt",
        formals: &["df", "ncp"],
        defaults: &[NA_, NA_],
        f: |x, p, l, _| dnt(x, p[0], p[1], l),
    },
    Fun {
        name: "df",
        formals: &["df1", "df2", "ncp"],
        defaults: &[NA_, NA_, NA_],
        f: |x, p, l, _| dnf(x, p[0], p[1], p[2], l),
    },
    Fun {
        name: "qbeta",
        formals: &["shape1", "shape2", "ncp"],
        defaults: &[NA_, NA_, NA_],
        f: |x, p, l, g| qnbeta(x, p[0], p[1], p[2], l, g),
    },
    Fun {
        name: "qchisq",
        formals: &["df", "ncp"],
        defaults: &[NA_, NA_],
        f: |x, p, l, g| qnchisq(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qt",
        formals: &["df", "ncp"],
        defaults: &[NA_, NA_],
        f: |x, p, l, g| qnt(x, p[0], p[1], l, g),
    },
    Fun {
        name: "qf",
        formals: &["df1", "df2", "ncp"],
        defaults: &[NA_, NA_, NA_],
        f: |x, p, l, g| qnf(x, p[0], p[1], p[2], l, g),
    },
];

fn fun(name: &str) -> Option<&'static Fun> {
    FUNS.iter().find(|f| f.name == name)
}

/// The function a call computes: the non-central one when it names `ncp`.
fn called_fun(name: &str, has_ncp: bool) -> Option<&'static Fun> {
    if has_ncp {
        if let Some(f) = NONCENTRAL.iter().find(|f| f.name == name) {
            return Some(f);
        }
    }
    fun(name)
}

/// The first formal: `x` for densities, `q` for distribution functions,
/// `p` for quantiles.
fn first(name: &str) -> &'static str {
    match name.as_bytes().first() {
        Some(b'd') => "x",
        Some(b'p') => "q",
        _ => "p",
    }
}

const fn k(name: &'static str, params: &'static [Param]) -> Kernel {
    Kernel {
        name,
        params,
        random: false,
        shape,
        eval,
    }
}

const LT: Param = opt("lower.tail");
const LP: Param = opt("log.p");
const LOG: Param = opt("log");

pub(super) static KERNELS: &[Kernel] = &[
    k("dnorm", &[req("x"), opt("mean"), opt("sd"), LOG]),
    k("dunif", &[req("x"), opt("min"), opt("max"), LOG]),
    k("dexp", &[req("x"), opt("rate"), LOG]),
    k(
        "dgamma",
        &[req("x"), req("shape"), opt("rate"), opt("scale"), LOG],
    ),
    k(
        "dbeta",
        &[req("x"), req("shape1"), req("shape2"), opt("ncp"), LOG],
    ),
    k("dchisq", &[req("x"), req("df"), opt("ncp"), LOG]),
    k("dt", &[req("x"), req("df"), opt("ncp"), LOG]),
    k("df", &[req("x"), req("df1"), req("df2"), opt("ncp"), LOG]),
    k("dlnorm", &[req("x"), opt("meanlog"), opt("sdlog"), LOG]),
    k("dweibull", &[req("x"), req("shape"), opt("scale"), LOG]),
    k("dcauchy", &[req("x"), opt("location"), opt("scale"), LOG]),
    k("dlogis", &[req("x"), opt("location"), opt("scale"), LOG]),
    k("dbinom", &[req("x"), req("size"), req("prob"), LOG]),
    k("dpois", &[req("x"), req("lambda"), LOG]),
    k("dgeom", &[req("x"), req("prob"), LOG]),
    k("dhyper", &[req("x"), req("m"), req("n"), req("k"), LOG]),
    k(
        "dnbinom",
        &[req("x"), req("size"), opt("prob"), opt("mu"), LOG],
    ),
    k("pbinom", &[req("q"), req("size"), req("prob"), LT, LP]),
    k("ppois", &[req("q"), req("lambda"), LT, LP]),
    k("pgeom", &[req("q"), req("prob"), LT, LP]),
    k("phyper", &[req("q"), req("m"), req("n"), req("k"), LT, LP]),
    k(
        "pnbinom",
        &[req("q"), req("size"), opt("prob"), opt("mu"), LT, LP],
    ),
    k("qnorm", &[req("p"), opt("mean"), opt("sd"), LT, LP]),
    k("qunif", &[req("p"), opt("min"), opt("max"), LT, LP]),
    k("qexp", &[req("p"), opt("rate"), LT, LP]),
    k(
        "qgamma",
        &[req("p"), req("shape"), opt("rate"), opt("scale"), LT, LP],
    ),
    k(
        "qbeta",
        &[req("p"), req("shape1"), req("shape2"), opt("ncp"), LT, LP],
    ),
    k("qchisq", &[req("p"), req("df"), opt("ncp"), LT, LP]),
    k("qt", &[req("p"), req("df"), opt("ncp"), LT, LP]),
    k(
        "qf",
        &[req("p"), req("df1"), req("df2"), opt("ncp"), LT, LP],
    ),
    k("qlnorm", &[req("p"), opt("meanlog"), opt("sdlog"), LT, LP]),
    k("qweibull", &[req("p"), req("shape"), opt("scale"), LT, LP]),
    k(
        "qcauchy",
        &[req("p"), opt("location"), opt("scale"), LT, LP],
    ),
    k("qlogis", &[req("p"), opt("location"), opt("scale"), LT, LP]),
    k("qbinom", &[req("p"), req("size"), req("prob"), LT, LP]),
    k("qpois", &[req("p"), req("lambda"), LT, LP]),
    k("qgeom", &[req("p"), req("prob"), LT, LP]),
    k("qhyper", &[req("p"), req("m"), req("n"), req("k"), LT, LP]),
    k(
        "qnbinom",
        &[req("p"), req("size"), opt("prob"), opt("mu"), LT, LP],
    ),
    k(
        "qtukey",
        &[req("p"), req("nmeans"), req("df"), opt("nranges"), LT, LP],
    ),
];

fn non_numeric() -> KernelError {
    KernelError::new("Non-numeric argument to mathematical function")
}

/// nmath's `R_D_nonint_check`: the discrete densities warn of each
/// non-integer x they give 0 for (dhyper only of those not below 0),
/// one warning per element as R's.
fn nonint_warnings(func: &str, xs: &[f64], out: &[f64], log: bool, ctx: &mut Ctx) {
    if !matches!(func, "dbinom" | "dpois" | "dgeom" | "dnbinom" | "dhyper") || xs.is_empty() {
        return;
    }
    let zero = if log { f64::NEG_INFINITY } else { 0.0 };
    for (i, &y) in out.iter().enumerate() {
        let x = xs[i % xs.len()];
        if y == zero && !x.is_nan() && d::nonint(x) && !(func == "dhyper" && x < 0.0) {
            ctx.warn(format!("non-integer x = {x:.6}"));
        }
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f = called_fun(args.func, args.get_if_formal("ncp").is_some())
        .ok_or_else(|| KernelError::new(format!("unknown {}", args.func)))?;
    let x0 = args.get(first(args.func)).unwrap_or(&Value::Null);
    let xs = x0.as_f64_slice().ok_or_else(non_numeric)?;
    let mut params = Vec::with_capacity(f.formals.len());
    for (name, dflt) in f.formals.iter().zip(f.defaults) {
        params.push(match args.get(name) {
            Some(v) => v.as_f64_slice().ok_or_else(non_numeric)?,
            None if dflt.is_nan() => {
                return Err(KernelError::new(format!(
                    "argument \"{name}\" is missing, with no default"
                )))
            }
            None => std::borrow::Cow::Owned(vec![*dflt]),
        });
    }
    if args.func == "dnbinom" || args.func == "pnbinom" || args.func == "qnbinom" {
        match (args.has("prob"), args.has("mu")) {
            (true, true) => return Err(KernelError::new("'prob' and 'mu' both specified")),
            (false, false) => {
                return Err(KernelError::new(
                    "argument \"prob\" is missing, with no default",
                ))
            }
            _ => {}
        }
    }
    let (a, b) = if args.func.starts_with('d') {
        (args.bool_or("log", false)?, false)
    } else {
        (
            args.bool_or("lower.tail", true)?,
            args.bool_or("log.p", false)?,
        )
    };
    let mut lens = vec![xs.len()];
    lens.extend(params.iter().map(|p| p.len()));
    let n = recycled_len(&lens);
    let params: Vec<&[f64]> = params.iter().map(|p| &**p).collect();
    let (out, nan) = map_rows(&xs, &params, n, |x, p| (f.f)(x, p, a, b))?;
    nonint_warnings(args.func, &xs, &out, a, ctx);
    if nan {
        ctx.warn("NaNs produced");
    }
    Ok(match x0 {
        Value::Mat(m) if m.len() == n => Value::Mat(DMatrix::from_vec(m.nrows(), m.ncols(), out)),
        _ => Value::Num(out),
    })
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let f = called_fun(args.func, args.get_if_formal("ncp").is_some())
        .ok_or_else(|| ArgError::call(format!("unknown {}", args.func)))?;
    recycled_shape(args, first(args.func), f.formals)
}
