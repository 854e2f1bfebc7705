//! `density(x, bw, adjust, kernel, weights, n, from, to, cut, na.rm)`:
//! R 4.2's `density.default` (stats/R/density.R) step by step. The data
//! are binned onto a grid by massdist.c's `BinDist`, convolved with the
//! kernel through `fft` (R's own transform, see [`super::fft`]) and
//! interpolated onto the `n` output points by approx.c's `R_approxfun`.
//! The result is R's `density` object; its `call` and `data.name`, which
//! R deparses from the call, are added by the evaluator. The bandwidth
//! rules `ucv`, `bcv` and `SJ` are bandwidth.rs's ports of R's.

use num_complex::Complex64;

use super::approx::{approx_fun, Method};
use super::args::{ArgError, Args};
use super::bandwidth::{bw_cv, bw_nrd, bw_nrd0, bw_sj, Selector};
use super::fft::fft_complex;
use super::nmath::pnorm::dnorm;
use super::summary::sum;
use super::value::{List, NA};
use super::vector::match_arg;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "density",
    params: &[
        req("x"),
        DOTS,
        opt("bw"),
        opt("adjust"),
        opt("kernel"),
        opt("weights"),
        opt("n"),
        opt("from"),
        opt("to"),
        opt("cut"),
        opt("na.rm"),
    ],
    random: false,
    shape,
    eval,
}];

const KERNEL_NAMES: &[&str] = &[
    "gaussian",
    "epanechnikov",
    "rectangular",
    "triangular",
    "biweight",
    "cosine",
    "optcosine",
];

/// The grid's points: `n` raised to 512, then to a power of 2, for the
/// FFT.
pub(crate) fn grid_points(n: f64) -> usize {
    let n = n.max(512.0);
    if n > 512.0 {
        2f64.powf(n.log2().ceil()) as usize
    } else {
        n as usize
    }
}

/// massdist.c's `BinDist`: each weight split linearly between the two
/// nearest of `n` grid points on `[xlo, xhi]`, in a vector of `2n` (the
/// upper half is the FFT's zero padding).
fn bin_dist(x: &[f64], w: &[f64], xlo: f64, xhi: f64, n: usize) -> Vec<f64> {
    let mut y = vec![0.0; 2 * n];
    let ixmax = n as i64 - 2;
    let xdelta = (xhi - xlo) / (n as f64 - 1.0);
    for (&xi, &wi) in x.iter().zip(w) {
        if !xi.is_finite() {
            continue;
        }
        let xpos = (xi - xlo) / xdelta;
        if xpos > f64::from(i32::MAX) || xpos < f64::from(i32::MIN) {
            continue;
        }
        let ix = xpos.floor() as i64;
        let fx = xpos - ix as f64;
        if (0..=ixmax).contains(&ix) {
            y[ix as usize] += (1.0 - fx) * wi;
            y[ix as usize + 1] += fx * wi;
        } else if ix == -1 {
            y[0] += fx * wi;
        } else if ix == ixmax + 1 {
            y[ix as usize] += (1.0 - fx) * wi;
        }
    }
    y
}

/// `kernel` at each of `kords`, scaled to sd `bw`, as density.default's
/// `switch` writes it (`(u)^2` is R's `u * u`).
fn kernel_values(kernel: &str, kords: &[f64], bw: f64) -> Vec<f64> {
    use std::f64::consts::PI;
    let pi2 = PI * PI;
    let within = |a: f64, f: &dyn Fn(f64) -> f64| -> Vec<f64> {
        kords
            .iter()
            .map(|&k| if k.abs() < a { f(k) } else { 0.0 })
            .collect()
    };
    match kernel {
        "gaussian" => kords.iter().map(|&k| dnorm(k, 0.0, bw, false)).collect(),
        "rectangular" => {
            let a = bw * 3f64.sqrt();
            within(a, &|_| 0.5 / a)
        }
        "triangular" => {
            let a = bw * 6f64.sqrt();
            within(a, &|k| (1.0 - k.abs() / a) / a)
        }
        "epanechnikov" => {
            let a = bw * 5f64.sqrt();
            within(a, &|k| {
                let u = k.abs() / a;
                3.0 / 4.0 * (1.0 - u * u) / a
            })
        }
        "biweight" => {
            let a = bw * 7f64.sqrt();
            within(a, &|k| {
                let u = k.abs() / a;
                let v = 1.0 - u * u;
                15.0 / 16.0 * (v * v) / a
            })
        }
        "cosine" => {
            let a = bw / (1.0 / 3.0 - 2.0 / pi2).sqrt();
            within(a, &|k| (1.0 + (PI * k / a).cos()) / (2.0 * a))
        }
        _ => {
            let a = bw / (1.0 - 8.0 / pi2).sqrt();
            within(a, &|k| PI / 4.0 * (PI * k / (2.0 * a)).cos() / a)
        }
    }
}

/// `isTRUE(all.equal(1, s))`: a relative difference within 1.5e-8.
fn all_equal_one(s: f64) -> bool {
    (1.0 - s).abs() <= 1.5e-8
}

fn numeric_x(v: &Value) -> Option<Vec<f64>> {
    match v {
        Value::Num(_) | Value::Mat(_) => v.as_f64_slice().map(|s| s.into_owned()),
        Value::Named(n) => numeric_x(&n.value),
        _ => None,
    }
}

/// A single finite-or-not number argument.
fn number(args: &Args<&Value>, name: &str) -> Result<Option<f64>, KernelError> {
    match args.get(name) {
        None => Ok(None),
        Some(v) => v
            .as_f64_slice()
            .and_then(|s| s.first().copied())
            .map(Some)
            .ok_or_else(|| KernelError::new(format!("invalid '{name}' argument"))),
    }
}

/// The bandwidth `bw` names or gives, before `adjust`.
fn bandwidth(bw: Option<&Value>, x: &[f64], ctx: &mut Ctx) -> Result<f64, KernelError> {
    let rule = match bw {
        None => "nrd0".to_string(),
        Some(Value::Str(s)) if !s.is_empty() => s[0].to_lowercase(),
        Some(v) => {
            return v
                .as_f64_slice()
                .and_then(|s| s.first().copied())
                .ok_or_else(|| KernelError::new("non-finite 'bw'"))
        }
    };
    if x.len() < 2 {
        return Err(KernelError::new(
            "need at least 2 points to select a bandwidth automatically",
        ));
    }
    match rule.as_str() {
        "nrd0" => bw_nrd0(x),
        "nrd" => bw_nrd(x),
        "ucv" => bw_cv(x, &Selector::default(), false, ctx),
        "bcv" => bw_cv(x, &Selector::default(), true, ctx),
        "sj" | "sj-ste" => bw_sj(x, &Selector::default()),
        "sj-dpi" => bw_sj(
            x,
            &Selector {
                dpi: true,
                ..Selector::default()
            },
        ),
        _ => Err(KernelError::new("unknown bandwidth rule")),
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let kernel = match args.get("kernel") {
        None => "gaussian",
        Some(Value::Str(s)) if s.len() == 1 => match_arg(&s[0], KERNEL_NAMES)?,
        // R's whole default vector is its first choice.
        Some(Value::Str(s))
            if s.iter()
                .map(String::as_str)
                .eq(KERNEL_NAMES.iter().copied()) =>
        {
            "gaussian"
        }
        Some(_) => return Err(KernelError::new("'arg' must be of length 1")),
    };
    let xv = args.get("x").unwrap_or(&Value::Null);
    let mut x = numeric_x(xv).ok_or_else(|| KernelError::new("argument 'x' must be numeric"))?;
    let mut n_total = x.len();
    let mut weights = match args.get("weights") {
        None | Some(Value::Null) => None,
        Some(w) => {
            let w = w
                .as_f64_slice()
                .ok_or_else(|| KernelError::new("'weights' must all be finite"))?
                .into_owned();
            if w.len() != n_total {
                return Err(KernelError::new("'x' and 'weights' have unequal length"));
            }
            Some(w)
        }
    };
    if x.iter().any(|v| v.is_nan()) {
        if !args.bool_or("na.rm", false)? {
            return Err(KernelError::new("'x' contains missing values"));
        }
        let keep: Vec<bool> = x.iter().map(|v| !v.is_nan()).collect();
        let kept = |v: &[f64]| -> Vec<f64> {
            v.iter()
                .zip(&keep)
                .filter(|(_, &k)| k)
                .map(|(&v, _)| v)
                .collect()
        };
        x = kept(&x);
        n_total = x.len();
        if let Some(w) = &mut weights {
            let true_density = all_equal_one(sum(w, false));
            *w = kept(w);
            if true_density {
                let s = sum(w, false);
                w.iter_mut().for_each(|v| *v /= s);
            }
        }
    }
    let finite: Vec<bool> = x.iter().map(|v| v.is_finite()).collect();
    let all_finite = finite.iter().all(|&f| f);
    if !all_finite {
        x = x.iter().copied().filter(|v| v.is_finite()).collect();
    }
    let nx = x.len();
    let (weights, tot_mass) = match weights {
        None => (vec![1.0 / nx as f64; nx], nx as f64 / n_total as f64),
        Some(w) => {
            if w.iter().any(|v| !v.is_finite()) {
                return Err(KernelError::new("'weights' must all be finite"));
            }
            if w.iter().any(|&v| v < 0.0) {
                return Err(KernelError::new("'weights' must not be negative"));
            }
            let wsum = sum(&w, false);
            let (w, mass) = if all_finite {
                (w, 1.0)
            } else {
                let w: Vec<f64> = w
                    .iter()
                    .zip(&finite)
                    .filter(|(_, &f)| f)
                    .map(|(&v, _)| v)
                    .collect();
                let mass = sum(&w, false) / wsum;
                (w, mass)
            };
            if !all_equal_one(wsum) {
                ctx.warn("sum(weights) != 1  -- will not get true density");
            }
            (w, mass)
        }
    };
    let n_user = number(args, "n")?.unwrap_or(512.0);
    if n_user.is_nan() || n_user < 0.0 {
        return Err(KernelError::new(
            "'length.out' must be a non-negative number",
        ));
    }
    // BinDist reads n as an integer.
    if n_user > f64::from(i32::MAX) / 2.0 {
        return Err(KernelError::new("invalid 'n' argument"));
    }
    let n = grid_points(n_user);
    super::alloc::vec_with_capacity::<Complex64>(6 * n)?;
    let bw = bandwidth(args.get("bw"), &x, ctx)?;
    if !bw.is_finite() {
        return Err(KernelError::new("non-finite 'bw'"));
    }
    let bw = number(args, "adjust")?.unwrap_or(1.0) * bw;
    if bw.is_nan() || bw <= 0.0 {
        return Err(KernelError::new("'bw' is not positive."));
    }
    let cut = number(args, "cut")?.unwrap_or(3.0);
    let r_min = x.iter().copied().fold(f64::INFINITY, f64::min);
    let r_max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let from = number(args, "from")?.unwrap_or(r_min - cut * bw);
    let to = number(args, "to")?.unwrap_or(r_max + cut * bw);
    if !from.is_finite() {
        return Err(KernelError::new("non-finite 'from'"));
    }
    if !to.is_finite() {
        return Err(KernelError::new("non-finite 'to'"));
    }
    let lo = from - 4.0 * bw;
    let up = to + 4.0 * bw;
    let y: Vec<Complex64> = bin_dist(&x, &weights, lo, up, n)
        .into_iter()
        .map(|v| Complex64::new(v * tot_mass, 0.0))
        .collect();
    let mut kords = super::data::seq_spaced(0.0, 2.0 * (up - lo), 2 * n)?;
    for i in n + 1..2 * n {
        kords[i] = -kords[2 * n - i];
    }
    let kords: Vec<Complex64> = kernel_values(kernel, &kords, bw)
        .into_iter()
        .map(|v| Complex64::new(v, 0.0))
        .collect();
    let fy = fft_complex(&y, &[2 * n], false, ctx.cancel)?;
    let fk = fft_complex(&kords, &[2 * n], false, ctx.cancel)?;
    let product: Vec<Complex64> = fy.iter().zip(&fk).map(|(a, b)| a * b.conj()).collect();
    let conv = fft_complex(&product, &[2 * n], true, ctx.cancel)?;
    let len_y = (2 * n) as f64;
    let dens: Vec<f64> = conv[..n]
        .iter()
        .map(|c| {
            let v = c.re / len_y;
            // pmax.int(0, v): NA and NaN kept.
            if v.is_nan() || v > 0.0 {
                v
            } else {
                0.0
            }
        })
        .collect();
    let xords = super::data::seq_spaced(lo, up, n)?;
    let xout = super::data::seq_spaced(from, to, n_user.ceil() as usize)?;
    let m = Method {
        ylow: NA,
        yhigh: NA,
        f1: 1.0,
        f2: 0.0,
        kind: 1,
    };
    let yout = approx_fun(&xords, &dens, &xout, &m);
    Ok(Value::List(List::record(
        "density",
        vec![
            ("x", Value::Num(xout)),
            ("y", Value::Num(yout)),
            ("bw", Value::scalar(bw)),
            ("n", Value::scalar(n_total as f64)),
            ("has.na", Value::flag(false)),
        ],
    )))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("x") {
        if !matches!(t, Type::Num { .. } | Type::Mat { .. } | Type::Any) {
            return Err(args.error("x", "argument 'x' must be numeric"));
        }
    }
    if let Some(k) = args.const_str("kernel") {
        match_arg(k, KERNEL_NAMES).map_err(|e| args.error("kernel", e.0))?;
    }
    if let Some(t) = args.ty("bw") {
        if let Some(rule) = t.const_str() {
            let rule = rule.to_lowercase();
            if !["nrd0", "nrd", "ucv", "bcv", "sj", "sj-ste", "sj-dpi"].contains(&rule.as_str()) {
                return Err(args.error("bw", "unknown bandwidth rule"));
            }
        }
    }
    let len = match args.ty("n") {
        None => Some(512),
        Some(t) => t
            .const_scalar()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .map(|v| v.ceil() as usize),
    };
    let num = || Type::Num { len, value: None };
    Ok(Type::record(
        "density",
        vec![
            ("x", num()),
            ("y", num()),
            ("bw", Type::num(1)),
            ("n", Type::num(1)),
            (
                "call",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
            (
                "data.name",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
            ("has.na", Type::logical(Some(1))),
        ],
    ))
}
