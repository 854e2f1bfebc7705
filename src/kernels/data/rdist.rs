//! The random generators beyond `rnorm`/`runif`: R's `random1`,
//! `random2`, `random3` (stats/src/random.c) around nmath's generators
//! (`nmath::rand`), recycling the parameters and drawing in R's order.

use super::random::count_value;
use super::{alloc_num, num_of_len, num_param};
use crate::kernels::nmath::rand as r;
use crate::kernels::recycle::Recycled;
use crate::kernels::value::NA;
use crate::kernels::{ArgError, Args, Ctx, KernelError, Rng, ShapeCtx, Type, Value};

/// A default R computes from another formal (`scale = 1/rate`).
const DERIVED: f64 = f64::MIN;
const REQUIRED: f64 = f64::NAN;

pub(super) struct Gen {
    pub name: &'static str,
    pub formals: &'static [&'static str],
    defaults: &'static [f64],
    /// R returns an integer vector: NaN draws are NA.
    integer: bool,
    draw: fn(&[f64], &mut Rng) -> f64,
    /// `n` draws with one value of each parameter, where doing them
    /// together saves work per draw (the same stream as `draw`'s).
    draw_n: Option<DrawN>,
}

/// `n` draws given one value of each parameter.
type DrawN = fn(&[f64], usize, &mut Rng) -> Vec<f64>;

fn gamma_scale(p: &[f64]) -> f64 {
    if p[1] == DERIVED {
        1.0 / p[0]
    } else {
        p[1]
    }
}

pub(super) static GENS: &[Gen] = &[
    Gen {
        name: "rexp",
        formals: &["rate"],
        defaults: &[1.0],
        integer: false,
        draw: |p, g| r::rexp(1.0 / p[0], g),
        draw_n: None,
    },
    Gen {
        name: "rgamma",
        formals: &["shape", "rate", "scale"],
        defaults: &[REQUIRED, 1.0, DERIVED],
        integer: false,
        draw: |p, g| r::rgamma(p[0], gamma_scale(&p[1..]), g),
        draw_n: None,
    },
    Gen {
        name: "rbeta",
        formals: &["shape1", "shape2"],
        defaults: &[REQUIRED, REQUIRED],
        integer: false,
        draw: |p, g| r::rbeta(p[0], p[1], g),
        draw_n: None,
    },
    Gen {
        name: "rchisq",
        formals: &["df"],
        defaults: &[REQUIRED],
        integer: false,
        draw: |p, g| r::rchisq(p[0], g),
        draw_n: None,
    },
    Gen {
        name: "rt",
        formals: &["df"],
        defaults: &[REQUIRED],
        integer: false,
        draw: |p, g| r::rt(p[0], g),
        draw_n: None,
    },
    Gen {
        name: "rf",
        formals: &["df1", "df2"],
        defaults: &[REQUIRED, REQUIRED],
        integer: false,
        draw: |p, g| r::rf(p[0], p[1], g),
        draw_n: None,
    },
    Gen {
        name: "rbinom",
        formals: &["size", "prob"],
        defaults: &[REQUIRED, REQUIRED],
        integer: true,
        draw: |p, g| r::rbinom(p[0], p[1], g),
        draw_n: None,
    },
    Gen {
        name: "rpois",
        formals: &["lambda"],
        defaults: &[REQUIRED],
        integer: true,
        draw: |p, g| r::rpois(p[0], g),
        draw_n: Some(|p, n, g| r::rpois_n(p[0], n, g)),
    },
    Gen {
        name: "rgeom",
        formals: &["prob"],
        defaults: &[REQUIRED],
        integer: true,
        draw: |p, g| r::rgeom(p[0], g),
        draw_n: None,
    },
    Gen {
        name: "rnbinom",
        formals: &["size", "prob", "mu"],
        defaults: &[REQUIRED, DERIVED, DERIVED],
        integer: true,
        draw: |p, g| {
            if p[2] == DERIVED {
                r::rnbinom(p[0], p[1], g)
            } else {
                r::rnbinom_mu(p[0], p[2], g)
            }
        },
        draw_n: None,
    },
    Gen {
        name: "rhyper",
        formals: &["m", "n", "k"],
        defaults: &[REQUIRED, REQUIRED, REQUIRED],
        integer: true,
        draw: |p, g| r::rhyper(p[0], p[1], p[2], g),
        draw_n: None,
    },
    Gen {
        name: "rlnorm",
        formals: &["meanlog", "sdlog"],
        defaults: &[0.0, 1.0],
        integer: false,
        draw: |p, g| r::rlnorm(p[0], p[1], g),
        draw_n: None,
    },
    Gen {
        name: "rweibull",
        formals: &["shape", "scale"],
        defaults: &[REQUIRED, 1.0],
        integer: false,
        draw: |p, g| r::rweibull(p[0], p[1], g),
        draw_n: None,
    },
    Gen {
        name: "rcauchy",
        formals: &["location", "scale"],
        defaults: &[0.0, 1.0],
        integer: false,
        draw: |p, g| r::rcauchy(p[0], p[1], g),
        draw_n: None,
    },
    Gen {
        name: "rlogis",
        formals: &["location", "scale"],
        defaults: &[0.0, 1.0],
        integer: false,
        draw: |p, g| r::rlogis(p[0], p[1], g),
        draw_n: None,
    },
    Gen {
        name: "rwilcox",
        formals: &["m", "n"],
        defaults: &[REQUIRED, REQUIRED],
        integer: true,
        draw: |p, g| crate::kernels::nmath::wilcox::rwilcox(p[0], p[1], g),
        draw_n: None,
    },
    Gen {
        name: "rsignrank",
        formals: &["n"],
        defaults: &[REQUIRED],
        integer: true,
        draw: |p, g| crate::kernels::nmath::signrank::rsignrank(p[0], g),
        draw_n: None,
    },
];

/// The formal holding the number of draws: `nn` where `n` is a
/// parameter.
fn count_formal(func: &str) -> &'static str {
    match func {
        "rhyper" | "rwilcox" | "rsignrank" => "nn",
        _ => "n",
    }
}

pub(super) fn gen(name: &str) -> Option<&'static Gen> {
    GENS.iter().find(|g| g.name == name)
}

pub(super) fn eval(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let g = gen(a.func).ok_or_else(|| KernelError::new(format!("unknown {}", a.func)))?;
    if ["rbeta", "rchisq", "rt", "rf"].contains(&a.func) && a.get("ncp").is_some() {
        return noncentral(a, ctx);
    }
    match a.func {
        "rgamma" if a.has("rate") && a.has("scale") => {
            let (rate, scale) = (a.scalar("rate")?, a.scalar("scale")?);
            if (rate * scale - 1.0).abs() >= 1e-15 {
                return Err(KernelError::new("specify 'rate' or 'scale' but not both"));
            }
            ctx.warn("specify 'rate' or 'scale' but not both");
        }
        "rnbinom" if a.has("mu") && a.has("prob") => {
            return Err(KernelError::new("'prob' and 'mu' both specified"));
        }
        "rnbinom" if !a.has("mu") && !a.has("prob") => {
            return Err(KernelError::new(
                "argument \"prob\" is missing, with no default",
            ));
        }
        _ => {}
    }
    let n = count_value(a, count_formal(a.func))?;
    let mut params = Vec::with_capacity(g.formals.len());
    for (name, d) in g.formals.iter().zip(g.defaults) {
        params.push(match a.get(name) {
            Some(v) => num_param(v).ok_or_else(|| KernelError::new("invalid arguments"))?,
            None if d.is_nan() => {
                return Err(KernelError::new(format!(
                    "argument \"{name}\" is missing, with no default"
                )))
            }
            None => vec![*d],
        });
    }
    let mut out = alloc_num(n)?;
    if n == 0 {
        return Ok(Value::Num(out));
    }
    if params.iter().any(Vec::is_empty) {
        out.resize(n, NA);
        ctx.warn("NAs produced");
        return Ok(Value::Num(out));
    }
    if a.func == "rwilcox" {
        // R fails the whole call when one draw cannot have its array.
        let mut rows = Recycled::new(params.iter().map(Vec::as_slice).collect());
        for _ in 0..n.min(params.iter().map(Vec::len).max().unwrap_or(0)) {
            let p = rows.next_row();
            crate::kernels::nmath::wilcox::rwilcox_room(p[0], p[1]).map_err(KernelError::new)?;
        }
    }
    let mut nan = false;
    match g.draw_n {
        Some(draw_n) if params.iter().all(|p| p.len() == 1) => {
            let p: Vec<f64> = params.iter().map(|p| p[0]).collect();
            out = draw_n(&p, n, ctx.rng);
            for x in out.iter_mut().filter(|x| x.is_nan()) {
                nan = true;
                if g.integer {
                    *x = NA;
                }
            }
        }
        _ => {
            let mut rows = Recycled::new(params.iter().map(Vec::as_slice).collect());
            for _ in 0..n {
                let mut x = (g.draw)(rows.next_row(), ctx.rng);
                if x.is_nan() {
                    nan = true;
                    if g.integer {
                        x = NA;
                    }
                }
                out.push(x);
            }
        }
    }
    if nan {
        ctx.warn("NAs produced");
    }
    Ok(Value::Num(out))
}

pub(super) fn shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = super::random::count_type(a, count_formal(a.func))?;
    if let Some(g) = gen(a.func) {
        for p in g.formals {
            if a.get(p)
                .is_some_and(|t| !matches!(t, Type::Any) && !t.is_numeric())
            {
                return Err(a.error(p, "invalid arguments"));
            }
        }
    }
    Ok(num_of_len(n))
}

/// R's `random1`/`random2` (stats/src/random.c) around one generator:
/// `n` draws with the parameters recycled, all NA when one is empty, and
/// R's "NAs produced" when any draw is NaN.
fn random_k(
    n: usize,
    params: &[&[f64]],
    draw: impl Fn(&[f64], &mut Rng) -> f64,
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    let mut out = alloc_num(n)?;
    if n == 0 {
        return Ok(out);
    }
    if params.iter().any(|p| p.is_empty()) {
        out.resize(n, NA);
        ctx.warn("NAs produced");
        return Ok(out);
    }
    let mut rows = Recycled::new(params.to_vec());
    let mut nan = false;
    for _ in 0..n {
        let x = draw(rows.next_row(), ctx.rng);
        nan |= x.is_nan();
        out.push(x);
    }
    if nan {
        ctx.warn("NAs produced");
    }
    Ok(out)
}

/// R's arithmetic on two double vectors: recycled to the longer, empty
/// when either is.
fn arith(x: &[f64], y: &[f64], op: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    if x.is_empty() || y.is_empty() {
        return Vec::new();
    }
    let n = x.len().max(y.len());
    (0..n).map(|i| op(x[i % x.len()], y[i % y.len()])).collect()
}

/// `rchisq`, `rt`, `rf` and `rbeta` given `ncp` (stats' distn.R):
/// rchisq is C's rnchisq, the others R code over rnorm and rchisq, whose
/// draws are made in the order R evaluates that code.
fn noncentral(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = count_value(a, "n")?;
    let param = |name: &str| -> Result<Vec<f64>, KernelError> {
        match a.get(name) {
            Some(v) => num_param(v).ok_or_else(|| KernelError::new("invalid arguments")),
            None => Err(KernelError::new(format!(
                "argument \"{name}\" is missing, with no default"
            ))),
        }
    };
    let ncp = param("ncp")?;
    let rnchisq = |p: &[f64], g: &mut Rng| r::rnchisq(p[0], p[1], g);
    let rchisq = |p: &[f64], g: &mut Rng| r::rchisq(p[0], g);
    let out = match a.func {
        // rnorm(n, ncp) / sqrt(rchisq(n, df) / df)
        "rt" => {
            let df = param("df")?;
            let z = random_k(
                n,
                &[&ncp[..], &[1.0][..]],
                |p, g| super::random::rnorm1(p[0], p[1], g),
                ctx,
            )?;
            let c = random_k(n, &[&df[..]], rchisq, ctx)?;
            let s: Vec<f64> = arith(&c, &df, |x, y| x / y)
                .into_iter()
                .map(f64::sqrt)
                .collect();
            arith(&z, &s, |x, y| x / y)
        }
        // (rchisq(n, df1, ncp = ncp) / df1) / (rchisq(n, df2) / df2)
        "rf" => {
            let (df1, df2) = (param("df1")?, param("df2")?);
            let x = random_k(n, &[&df1[..], &ncp[..]], rnchisq, ctx)?;
            let x = arith(&x, &df1, |x, y| x / y);
            let y = random_k(n, &[&df2[..]], rchisq, ctx)?;
            let y = arith(&y, &df2, |x, y| x / y);
            arith(&x, &y, |x, y| x / y)
        }
        // X <- rchisq(n, 2*shape1, ncp = ncp); X / (X + rchisq(n, 2*shape2))
        "rbeta" => {
            let (s1, s2) = (param("shape1")?, param("shape2")?);
            let df1: Vec<f64> = s1.iter().map(|v| 2.0 * v).collect();
            let df2: Vec<f64> = s2.iter().map(|v| 2.0 * v).collect();
            let x = random_k(n, &[&df1[..], &ncp[..]], rnchisq, ctx)?;
            let y = random_k(n, &[&df2[..]], rchisq, ctx)?;
            arith(&x, &arith(&x, &y, |x, y| x + y), |x, y| x / y)
        }
        _ => {
            let df = param("df")?;
            random_k(n, &[&df[..], &ncp[..]], rnchisq, ctx)?
        }
    };
    Ok(Value::Num(out))
}
