//! R's distribution functions `pnorm`, `plnorm`, `pexp`, …: each a
//! kernel, and the table `ks.test(x, "pnorm", ...)` looks its `y` up in.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::nmath::pcont::{pcauchy, pexp, plnorm, plogis, punif, pweibull};
use super::nmath::pnbeta::{pnbeta, pnf};
use super::nmath::pnchisq::pnchisq;
use super::nmath::pnt::pnt;
use super::nmath::tukey::ptukey;
use super::nmath::{pbeta, pchisq, pf, pgamma, pnorm, pt};
use super::recycle::map_rows;
use super::recycle::{recycled_len, recycled_shape};
use super::{opt, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value};

/// A default that R computes from another formal: pgamma's
/// `scale = 1/rate`.
const DERIVED: f64 = f64::MIN;

/// One distribution: R's name, its formals after `q` with their defaults
/// (NaN: required), and its C function.
pub struct Family {
    pub name: &'static str,
    pub formals: &'static [&'static str],
    pub defaults: &'static [f64],
    cdf: fn(f64, &[f64], bool, bool) -> f64,
}

impl Family {
    /// The probability at `q` with parameters `p` (one per formal).
    pub fn p(&self, q: f64, p: &[f64], lower_tail: bool, log_p: bool) -> f64 {
        (self.cdf)(q, p, lower_tail, log_p)
    }
}

pub static FAMILIES: &[Family] = &[
    Family {
        name: "pnorm",
        formals: &["mean", "sd"],
        defaults: &[0.0, 1.0],
        cdf: |q, p, l, g| pnorm(q, p[0], p[1], l, g),
    },
    Family {
        name: "plnorm",
        formals: &["meanlog", "sdlog"],
        defaults: &[0.0, 1.0],
        cdf: |q, p, l, g| plnorm(q, p[0], p[1], l, g),
    },
    Family {
        name: "punif",
        formals: &["min", "max"],
        defaults: &[0.0, 1.0],
        cdf: |q, p, l, g| punif(q, p[0], p[1], l, g),
    },
    Family {
        name: "pexp",
        formals: &["rate"],
        defaults: &[1.0],
        cdf: |q, p, l, g| pexp(q, 1.0 / p[0], l, g),
    },
    Family {
        name: "pt",
        formals: &["df"],
        defaults: &[f64::NAN],
        cdf: |q, p, l, g| pt(q, p[0], l, g),
    },
    Family {
        name: "pchisq",
        formals: &["df"],
        defaults: &[f64::NAN],
        cdf: |q, p, l, g| pchisq(q, p[0], l, g),
    },
    Family {
        name: "pf",
        formals: &["df1", "df2"],
        defaults: &[f64::NAN, f64::NAN],
        cdf: |q, p, l, g| pf(q, p[0], p[1], l, g),
    },
    Family {
        name: "pgamma",
        formals: &["shape", "rate", "scale"],
        defaults: &[f64::NAN, 1.0, DERIVED],
        cdf: |q, p, l, g| {
            let scale = if p[2] == DERIVED { 1.0 / p[1] } else { p[2] };
            pgamma(q, p[0], scale, l, g)
        },
    },
    Family {
        name: "pbeta",
        formals: &["shape1", "shape2"],
        defaults: &[f64::NAN, f64::NAN],
        cdf: |q, p, l, g| pbeta(q, p[0], p[1], l, g),
    },
    Family {
        name: "pweibull",
        formals: &["shape", "scale"],
        defaults: &[f64::NAN, 1.0],
        cdf: |q, p, l, g| pweibull(q, p[0], p[1], l, g),
    },
    Family {
        name: "pcauchy",
        formals: &["location", "scale"],
        defaults: &[0.0, 1.0],
        cdf: |q, p, l, g| pcauchy(q, p[0], p[1], l, g),
    },
    Family {
        name: "plogis",
        formals: &["location", "scale"],
        defaults: &[0.0, 1.0],
        cdf: |q, p, l, g| plogis(q, p[0], p[1], l, g),
    },
    // R's `ptukey(q, nmeans, df, nranges)` calls C's with `nranges` first.
    Family {
        name: "ptukey",
        formals: &["nmeans", "df", "nranges"],
        defaults: &[f64::NAN, f64::NAN, 1.0],
        cdf: |q, p, l, g| ptukey(q, p[2], p[0], p[1], l, g),
    },
];

pub fn family(name: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.name == name)
}

/// The non-central forms, which R calls when `ncp` is given at all (not
/// when it is non-zero: `pchisq(q, df, ncp = 0)` is pnchisq's answer).
static NONCENTRAL: &[Family] = &[
    Family {
        name: "pt",
        formals: &["df", "ncp"],
        defaults: &[f64::NAN, f64::NAN],
        cdf: |q, p, l, g| pnt(q, p[0], p[1], l, g),
    },
    Family {
        name: "pchisq",
        formals: &["df", "ncp"],
        defaults: &[f64::NAN, f64::NAN],
        cdf: |q, p, l, g| pnchisq(q, p[0], p[1], l, g),
    },
    Family {
        name: "pf",
        formals: &["df1", "df2", "ncp"],
        defaults: &[f64::NAN, f64::NAN, f64::NAN],
        cdf: |q, p, l, g| pnf(q, p[0], p[1], p[2], l, g),
    },
    Family {
        name: "pbeta",
        formals: &["shape1", "shape2", "ncp"],
        defaults: &[f64::NAN, f64::NAN, f64::NAN],
        cdf: |q, p, l, g| pnbeta(q, p[0], p[1], p[2], l, g),
    },
];

/// The family a call computes: the non-central one when it names `ncp`.
fn called_family(func: &str, has_ncp: bool) -> Option<&'static Family> {
    if has_ncp {
        if let Some(f) = NONCENTRAL.iter().find(|f| f.name == func) {
            return Some(f);
        }
    }
    family(func)
}

const fn kernel(name: &'static str, params: &'static [Param]) -> Kernel {
    Kernel {
        name,
        params,
        random: false,
        shape,
        eval,
    }
}

const TAILS: [Param; 2] = [opt("lower.tail"), opt("log.p")];

pub(super) static KERNELS: &[Kernel] = &[
    kernel(
        "pnorm",
        &[req("q"), opt("mean"), opt("sd"), TAILS[0], TAILS[1]],
    ),
    kernel(
        "plnorm",
        &[req("q"), opt("meanlog"), opt("sdlog"), TAILS[0], TAILS[1]],
    ),
    kernel(
        "punif",
        &[req("q"), opt("min"), opt("max"), TAILS[0], TAILS[1]],
    ),
    kernel("pexp", &[req("q"), opt("rate"), TAILS[0], TAILS[1]]),
    kernel("pt", &[req("q"), req("df"), opt("ncp"), TAILS[0], TAILS[1]]),
    kernel(
        "pchisq",
        &[req("q"), req("df"), opt("ncp"), TAILS[0], TAILS[1]],
    ),
    kernel(
        "pf",
        &[
            req("q"),
            req("df1"),
            req("df2"),
            opt("ncp"),
            TAILS[0],
            TAILS[1],
        ],
    ),
    kernel(
        "pgamma",
        &[
            req("q"),
            req("shape"),
            opt("rate"),
            opt("scale"),
            TAILS[0],
            TAILS[1],
        ],
    ),
    kernel(
        "pbeta",
        &[
            req("q"),
            req("shape1"),
            req("shape2"),
            opt("ncp"),
            TAILS[0],
            TAILS[1],
        ],
    ),
    kernel(
        "pweibull",
        &[req("q"), req("shape"), opt("scale"), TAILS[0], TAILS[1]],
    ),
    kernel(
        "pcauchy",
        &[req("q"), opt("location"), opt("scale"), TAILS[0], TAILS[1]],
    ),
    kernel(
        "plogis",
        &[req("q"), opt("location"), opt("scale"), TAILS[0], TAILS[1]],
    ),
    kernel(
        "ptukey",
        &[
            req("q"),
            req("nmeans"),
            req("df"),
            opt("nranges"),
            TAILS[0],
            TAILS[1],
        ],
    ),
];

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let fam = called_family(args.func, args.get_if_formal("ncp").is_some())
        .ok_or_else(|| KernelError::new(format!("unknown {}", args.func)))?;
    let q = args.get("q").unwrap_or(&Value::Null);
    let qs = q
        .as_f64_slice()
        .ok_or_else(|| KernelError::new("Non-numeric argument to mathematical function"))?;
    let mut params = Vec::with_capacity(fam.formals.len());
    for (f, d) in fam.formals.iter().zip(fam.defaults) {
        params.push(match args.get(f) {
            Some(v) => v
                .as_f64_slice()
                .ok_or_else(|| KernelError::new("Non-numeric argument to mathematical function"))?,
            None if d.is_nan() => {
                return Err(KernelError::new(format!(
                    "argument \"{f}\" is missing, with no default"
                )))
            }
            None => std::borrow::Cow::Owned(vec![*d]),
        });
    }
    let lower = args.bool_or("lower.tail", true)?;
    let log_p = args.bool_or("log.p", false)?;
    let mut lens = vec![qs.len()];
    lens.extend(params.iter().map(|p| p.len()));
    let n = recycled_len(&lens);
    let params: Vec<&[f64]> = params.iter().map(|p| &**p).collect();
    let (out, nan) = map_rows(&qs, &params, n, |x, p| fam.p(x, p, lower, log_p))?;
    if nan {
        ctx.warn("NaNs produced");
    }
    Ok(match q {
        Value::Mat(m) if m.len() == n => Value::Mat(DMatrix::from_vec(m.nrows(), m.ncols(), out)),
        _ => Value::Num(out),
    })
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let fam = called_family(args.func, args.get_if_formal("ncp").is_some())
        .ok_or_else(|| ArgError::call(format!("unknown {}", args.func)))?;
    recycled_shape(args, "q", fam.formals)
}
