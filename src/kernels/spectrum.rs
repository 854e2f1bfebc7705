//! `spec.pgram(x, spans, taper, pad, fast, demean, detrend)` and
//! `spectrum(x, ...)` (its "pgram" method) of one series: stats/R/
//! spectrum.R's raw or smoothed periodogram, with `spans` smoothing by
//! modified Daniell kernels (kernel.R's `kernel("modified.daniell", m)`,
//! composed by `kernapply`), over flowcast's port of R's fft, so the
//! values are R's to the bit. flowcast draws nothing: the value is the
//! list R returns with `plot = FALSE`, less what names or plots it.

use std::sync::atomic::AtomicBool;

use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::arith::complex_ops;
use super::names::bare;
use super::summary::ldouble;
use super::ts::series;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

const PARAMS: &[super::Param] = &[
    req("x"),
    opt("spans"),
    opt("kernel"),
    opt("taper"),
    opt("pad"),
    opt("fast"),
    opt("demean"),
    opt("detrend"),
    opt("plot"),
    opt("na.action"),
];

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "spec.taper",
        params: &[req("x"), opt("p")],
        random: false,
        shape: taper_shape,
        eval: taper_eval,
    },
    Kernel {
        name: "spec.pgram",
        params: PARAMS,
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "spectrum",
        params: &[
            req("x"),
            opt("spans"),
            opt("kernel"),
            opt("taper"),
            opt("pad"),
            opt("fast"),
            opt("demean"),
            opt("detrend"),
            opt("plot"),
            opt("na.action"),
            opt("method"),
        ],
        random: false,
        shape,
        eval: spectrum_eval,
    },
];

/// The class of the value.
const CLASS: &str = "spec";

const FIELDS: [&str; 11] = [
    "freq",
    "spec",
    "df",
    "bandwidth",
    "n.used",
    "orig.n",
    "method",
    "taper",
    "pad",
    "detrend",
    "demean",
];

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Record {
        class: CLASS.into(),
        fields: FIELDS.iter().map(|n| (n.to_string(), Type::Any)).collect(),
    })
}

fn err(msg: &str) -> KernelError {
    KernelError::new(msg)
}

/// R's `if (v)` of a flag argument.
fn flag(v: Option<&Value>, default: bool) -> Result<bool, KernelError> {
    match v.map(bare) {
        None => Ok(default),
        Some(v @ (Value::Bool(_) | Value::Num(_))) => match v.len() {
            0 => Err(err("argument is of length zero")),
            _ => v
                .as_f64_slice()
                .and_then(|x| x.first().copied())
                .filter(|x| !x.is_nan())
                .map(|x| x != 0.0)
                .or(match v {
                    Value::Bool(b) => b[0],
                    _ => None,
                })
                .ok_or_else(|| err("missing value where TRUE/FALSE needed")),
        },
        Some(_) => Err(err("argument is not interpretable as logical")),
    }
}

/// One number given as an argument.
fn number(v: Option<&Value>, default: f64, what: &str) -> Result<f64, KernelError> {
    match v.map(bare) {
        None => Ok(default),
        Some(v) => match v.as_f64_slice() {
            Some(x) if x.len() == 1 && v.dims().is_none() => Ok(x[0]),
            _ => Err(KernelError::new(format!(
                "flowcast's spec.pgram takes one number as '{what}'"
            ))),
        },
    }
}

/// R's `sum()` of doubles: a long-double accumulation.
fn rsum(x: &[f64]) -> f64 {
    ldouble::sum(x).to_f64()
}

/// A tskernel's coefficients `k[0..=m]` (kernel.R keeps `coef[1 + |i|]`
/// for lag i).
struct TsKernel {
    coef: Vec<f64>,
}

impl TsKernel {
    fn m(&self) -> usize {
        self.coef.len() - 1
    }

    /// `k[-m:m]`: the weights at lags -m..m.
    fn weights(&self) -> Vec<f64> {
        let m = self.m();
        (0..=2 * m).map(|i| self.coef[i.abs_diff(m)]).collect()
    }

    /// `kernel(coef, m)`: R's check that the weights add to 1.
    fn new(coef: Vec<f64>) -> Result<TsKernel, KernelError> {
        let k = TsKernel { coef };
        let sk = rsum(&k.weights());
        // `abs(sk - 1) > ts.eps`, NA an error in `if`.
        let d = (sk - 1.0).abs();
        if d.is_nan() {
            return Err(err("missing value where TRUE/FALSE needed"));
        }
        if d > super::ts::TS_EPS {
            return Err(err("coefficients do not add to 1"));
        }
        Ok(k)
    }

    /// kernel.R's `modified.daniell.kernel(m)` of one `m`.
    fn modified_daniell(m: f64) -> Result<TsKernel, KernelError> {
        let m = m as usize;
        let mut coef = vec![1.0; m];
        coef.push(0.5);
        let d = 2.0 * m as f64;
        TsKernel::new(coef.into_iter().map(|c| c / d).collect())
    }
}

/// `fft(z, inverse)` of a vector.
fn fft(z: &[Complex64], inverse: bool, cancel: &AtomicBool) -> Result<Vec<Complex64>, KernelError> {
    super::fft::fft_complex(z, &[z.len()], inverse, cancel)
}

/// kernapply.vector(x, k, circular = TRUE): the circular convolution by
/// three transforms, divided by the length as R's complex `/` does.
fn kernapply_circular(
    x: &[Complex64],
    k: &TsKernel,
    cancel: &AtomicBool,
) -> Result<Vec<Complex64>, KernelError> {
    let m = k.m();
    let n = x.len();
    if n <= 2 * m {
        return Err(err("'x' is shorter than kernel 'k'"));
    }
    if m == 0 {
        return Ok(x.to_vec());
    }
    // w <- c(k[0L:m], rep_len(0, n - 2L*m - 1L), k[-m:-1L])
    let mut w: Vec<Complex64> = k.coef.iter().map(|&c| Complex64::new(c, 0.0)).collect();
    w.extend(std::iter::repeat_n(Complex64::new(0.0, 0.0), n - 2 * m - 1));
    w.extend((1..=m).rev().map(|i| Complex64::new(k.coef[i], 0.0)));
    let fx = fft(x, false, cancel)?;
    let fw = fft(&w, false, cancel)?;
    let prod: Vec<Complex64> = fx
        .iter()
        .zip(&fw)
        .map(|(&a, &b)| complex_ops::mul(a, b))
        .collect();
    let n_c = Complex64::new(n as f64, 0.0);
    Ok(fft(&prod, true, cancel)?
        .into_iter()
        .map(|z| complex_ops::div(z, n_c))
        .collect())
}

/// kernel("modified.daniell", m) for `m` (one or more): each a modified
/// Daniell kernel, composed left to right by kernapply.tskernel.
fn modified_daniell(m: &[f64], cancel: &AtomicBool) -> Result<TsKernel, KernelError> {
    // kernel()'s check of m.
    if m.is_empty() {
        return Err(err("'m' must be numeric with non-negative integers"));
    }
    if m.iter().any(|v| v.is_nan()) {
        return Err(err("missing value where TRUE/FALSE needed"));
    }
    if m.iter().any(|&v| v < 0.0 || v.is_infinite()) {
        return Err(err("'m' must be numeric with non-negative integers"));
    }
    if m.iter().any(|&v| v > 1e6) {
        return Err(err("flowcast's spec.pgram takes spans up to 2e6"));
    }
    let mut k = TsKernel::modified_daniell(m[0])?;
    for &mi in &m[1..] {
        let next = TsKernel::modified_daniell(mi)?;
        // kernapply.tskernel(k, next)
        let n = next.m();
        let mut xx = vec![Complex64::new(0.0, 0.0); n];
        xx.extend(k.weights().into_iter().map(|w| Complex64::new(w, 0.0)));
        xx.extend(std::iter::repeat_n(Complex64::new(0.0, 0.0), n));
        let coef: Vec<f64> = kernapply_circular(&xx, &next, cancel)?
            .into_iter()
            .map(|z| z.re)
            .collect();
        let half = coef.len() / 2;
        k = TsKernel::new(coef[half..].to_vec())?;
    }
    Ok(k)
}

/// One column of R's `spec.taper(x, p)`: the split cosine bell over the
/// first and last `floor(nr * p)` values, which spec.pgram tapers its
/// series with too.
fn taper_column(x: &mut [f64], p: f64) {
    let n = x.len();
    let m = (n as f64 * p).floor() as usize;
    if m == 0 {
        return;
    }
    // 0.5 * (1 - cos(pi * seq.int(1, 2 * m - 1, by = 2)/(2 * m)))
    let w: Vec<f64> = (0..m)
        .map(|k| {
            let s = (2 * k + 1) as f64;
            0.5 * (1.0 - (std::f64::consts::PI * s / (2.0 * m as f64)).cos())
        })
        .collect();
    for k in 0..m {
        x[k] *= w[k];
        x[n - 1 - k] *= w[k];
    }
}

/// `spec.taper(x, p)` (stats/R/spectrum.R): each column of `x` tapered
/// by its own `p` (one `p` for all), `x`'s attributes kept.
fn taper_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args.get("x").unwrap_or(&Value::Null);
    let p: Vec<f64> = match args.get("p").map(bare) {
        None => vec![0.1],
        Some(v @ (Value::Num(_) | Value::Bool(_))) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        Some(_) => return Err(err("'p' must be between 0 and 0.5")),
    };
    // any(p < 0) || any(p > 0.5), with R's NA.
    let any = |f: fn(f64) -> bool| -> Option<bool> {
        if p.iter().any(|&v| !v.is_nan() && f(v)) {
            Some(true)
        } else if p.iter().any(|v| v.is_nan()) {
            None
        } else {
            Some(false)
        }
    };
    match (any(|v| v < 0.0), any(|v| v > 0.5)) {
        (Some(true), _) | (_, Some(true)) => return Err(err("'p' must be between 0 and 0.5")),
        (None, _) | (_, None) => return Err(err("missing value where TRUE/FALSE needed")),
        _ => {}
    }
    let (nr, nc) = match bare(xv) {
        Value::Null => return Err(err("'data' must be of a vector type, was 'NULL'")),
        b => b.dims().unwrap_or((b.len(), 1)),
    };
    let p = if p.len() == 1 {
        vec![p[0]; nc]
    } else if p.len() != nc {
        return Err(err(
            "length of 'p' must be 1 or equal the number of columns of 'x'",
        ));
    } else {
        p
    };
    if nc == 0 {
        // `for (i in 1L:nc)` meets p[1], which is NA.
        return Err(err("missing value where TRUE/FALSE needed"));
    }
    if p.iter().all(|&p| (nr as f64 * p).floor() == 0.0) {
        return Ok(xv.clone());
    }
    let Some(data) = bare(xv).as_f64_slice().filter(|_| {
        matches!(
            bare(xv),
            Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)
        )
    }) else {
        return Err(err("non-numeric argument to binary operator"));
    };
    let mut data = data.into_owned();
    for (j, &pj) in p.iter().enumerate() {
        taper_column(&mut data[j * nr..(j + 1) * nr], pj);
    }
    let tapered = match bare(xv) {
        Value::Mat(_) | Value::BoolMat(_) => Value::Mat(nalgebra::DMatrix::from_vec(nr, nc, data)),
        _ => Value::Num(data),
    };
    // attributes(x) <- a
    Ok(match xv {
        Value::Named(n) => {
            let mut n = n.clone();
            n.value = tapered;
            Value::Named(n)
        }
        _ => tapered,
    })
}

fn taper_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(t @ (Type::Num { .. } | Type::Mat { .. })) => t.clone(),
        _ => Type::Any,
    })
}

/// `spectrum(x, ..., method = "pgram")`: spec.pgram; "ar" is refused.
fn spectrum_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(m) = args.get("method").map(bare) {
        let Value::Str(s) = m else {
            return Err(err("'arg' must be NULL or a character vector"));
        };
        let choices = ["pgram", "ar"];
        let given = if s.len() == 2 && s[0] == "pgram" && s[1] == "ar" {
            "pgram"
        } else if s.len() == 1 {
            let mut hits = choices
                .iter()
                .filter(|c| !s[0].is_empty() && c.starts_with(s[0].as_str()));
            match (hits.next(), hits.next()) {
                (Some(c), None) => c,
                _ => {
                    return Err(err(
                        "'arg' should be one of \u{201c}pgram\u{201d}, \u{201c}ar\u{201d}",
                    ))
                }
            }
        } else {
            return Err(err("'arg' must be of length 1"));
        };
        if given == "ar" {
            return Err(err(
                "flowcast's spectrum has method \"pgram\" only (call spec.ar for R's method \"ar\")",
            ));
        }
    }
    eval(args, ctx)
}

/// `spec.pgram(x, spans, kernel, taper, pad, fast, demean, detrend)`:
/// spectrum.R's spec.pgram of one series.
fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x_arg = args.get("x").unwrap_or(&Value::Null);
    if bare(x_arg).dims().is_some_and(|(_, c)| c != 1) {
        return Err(err(
            "flowcast's spec.pgram takes one series, not a matrix of series",
        ));
    }
    if args.get("na.action").is_some() {
        return Err(err(
            "flowcast's spec.pgram takes no 'na.action' (R's default na.fail)",
        ));
    }
    let (mut x, tsp) = series(x_arg, "spec.pgram")?;
    if x.is_empty() {
        return Err(err("'ts' object must have one or more observations"));
    }
    if x.len() > 1 << 26 {
        return Err(err(
            "flowcast refuses a series of more than 2^26 values for spec.pgram",
        ));
    }
    // na.fail
    if x.iter().any(|v| v.is_nan()) {
        return Err(err("missing values in object"));
    }
    let xfreq = tsp[2];
    let n0 = x.len();
    let kernel = match args.get("spans").map(bare) {
        None | Some(Value::Null) => None,
        Some(v) => {
            let spans = v
                .as_f64_slice()
                .filter(|_| v.dims().is_none() && !matches!(v, Value::Str(_)))
                .ok_or_else(|| err("flowcast's spec.pgram takes numbers as 'spans'"))?;
            // spans %/% 2
            let m: Vec<f64> = spans.iter().map(|s| (s / 2.0).floor()).collect();
            Some(modified_daniell(&m, ctx.cancel)?)
        }
    };
    if !matches!(args.get("kernel").map(bare), None | Some(Value::Null)) {
        return Err(err(
            "flowcast's spec.pgram takes 'spans', not a 'kernel' (it has no tskernel values)",
        ));
    }
    let detrend = flag(args.get("detrend"), true)?;
    let demean = flag(args.get("demean"), false)?;
    let taper = number(args.get("taper"), 0.1, "taper")?;
    let pad = number(args.get("pad"), 0.0, "pad")?;
    let fast = flag(args.get("fast"), true)?;
    let _plot = flag(args.get("plot"), true)?;
    let n = n0;
    if detrend {
        let nf = n as f64;
        let t: Vec<f64> = (1..=n).map(|i| i as f64 - (nf + 1.0) / 2.0).collect();
        let sumt2 = nf * (nf * nf - 1.0) / 12.0;
        let m = super::summary::mean(&x);
        let xt: Vec<f64> = x.iter().zip(&t).map(|(a, b)| a * b).collect();
        let s = rsum(&xt);
        for (v, ti) in x.iter_mut().zip(&t) {
            *v = *v - m - s * ti / sumt2;
        }
    } else if demean {
        // sweep(x, 2, colMeans(x)): colMeans' long-double sum over n.
        let m = ldouble::sum(&x).div_count(n).to_f64();
        for v in x.iter_mut() {
            *v -= m;
        }
    }
    // spec.taper(x, taper)
    if taper.is_nan() {
        return Err(err("missing value where TRUE/FALSE needed"));
    }
    if !(0.0..=0.5).contains(&taper) {
        return Err(err("'p' must be between 0 and 0.5"));
    }
    taper_column(&mut x, taper);
    let u2 = 1.0 - (5.0 / 8.0) * taper * 2.0;
    let u4 = 1.0 - (93.0 / 128.0) * taper * 2.0;
    if pad.is_nan() {
        return Err(err("missing value where TRUE/FALSE needed"));
    }
    let mut n = n;
    if pad > 0.0 {
        // matrix(0, nrow = N * pad): asInteger truncates.
        let extra = n as f64 * pad;
        if extra >= (1u64 << 26) as f64 {
            return Err(err("flowcast refuses a padding of more than 2^26 values"));
        }
        x.extend(std::iter::repeat_n(0.0, extra as usize));
        n = x.len();
    }
    let new_n = if fast {
        super::nextn::next_ok(n as u128, &[2, 3, 5]) as usize
    } else {
        n
    };
    x.resize(new_n, 0.0);
    let n = new_n;
    let nspec = n / 2;
    let by = xfreq / n as f64;
    let freq: Vec<f64> = (0..nspec).map(|i| by + i as f64 * by).collect();
    let z: Vec<Complex64> = x.iter().map(|&v| Complex64::new(v, 0.0)).collect();
    let xfft = fft(&z, false, ctx.cancel)?;
    let scale = Complex64::new(n0 as f64 * xfreq, 0.0);
    let mut pgram: Vec<Complex64> = xfft
        .iter()
        .map(|&f| complex_ops::div(complex_ops::mul(f, f.conj()), scale))
        .collect();
    // `pgram[2, i, j]` of a one-row array is out of its bounds.
    if n < 2 {
        return Err(err("subscript out of bounds"));
    }
    let half = Complex64::new(0.5, 0.0);
    pgram[0] = complex_ops::mul(half, pgram[1] + pgram[n - 1]);
    let (df, bandwidth) = match &kernel {
        Some(k) => {
            pgram = kernapply_circular(&pgram, k, ctx.cancel)?;
            let w = k.weights();
            let sq: Vec<f64> = w.iter().map(|v| v * v).collect();
            let mm = k.m() as f64;
            let terms: Vec<f64> = w
                .iter()
                .enumerate()
                .map(|(j, v)| {
                    let i = j as f64 - mm;
                    (1.0 / 12.0 + i * i) * v
                })
                .collect();
            (2.0 / rsum(&sq), rsum(&terms).sqrt())
        }
        None => (2.0, (1.0f64 / 12.0).sqrt()),
    };
    let df = df / (u4 / (u2 * u2));
    let df = df * (n0 as f64 / n as f64);
    let bandwidth = bandwidth * xfreq / n as f64;
    let spec: Vec<f64> = pgram[1..=nspec].iter().map(|z| z.re / u2).collect();
    let method = if kernel.is_some() {
        "Smoothed Periodogram"
    } else {
        "Raw Periodogram"
    };
    Ok(Value::List(List::record(
        CLASS,
        vec![
            ("freq", Value::Num(freq)),
            ("spec", Value::Num(spec)),
            ("df", Value::Num(vec![df])),
            ("bandwidth", Value::Num(vec![bandwidth])),
            ("n.used", Value::Num(vec![n as f64])),
            ("orig.n", Value::Num(vec![n0 as f64])),
            ("method", Value::string(method)),
            ("taper", Value::Num(vec![taper])),
            ("pad", Value::Num(vec![pad])),
            ("detrend", Value::Bool(vec![Some(detrend)])),
            ("demean", Value::Bool(vec![Some(demean)])),
        ],
    )))
}
