//! `filter(x, filter, method, sides, circular, init)`: stats::filter, the
//! moving-average (`cfilter`) and autoregressive (`rfilter`) filters of
//! R's src/library/stats/src/filter.c, each column of a matrix filtered
//! alone; and `convolve(x, y, conj, type)` as stats/R/convolve.R computes
//! it, by three of R's transforms (`fft`).
//!
//! R returns filter's result as a time series of `x`'s times: a series
//! `x` keeps its `tsp`; of a plain vector (to which R gives times 1 to n)
//! the result is the plain vector or matrix of R's values.

use nalgebra::DMatrix;
use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::NA;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "filter",
        params: &[
            req("x"),
            req("filter"),
            opt("method"),
            opt("sides"),
            opt("circular"),
            opt("init"),
        ],
        random: false,
        shape: filter_shape,
        eval: filter_eval,
    },
    Kernel {
        name: "convolve",
        params: &[req("x"), req("y"), opt("conj"), opt("type")],
        random: false,
        shape: convolve_shape,
        eval: convolve_eval,
    },
];

const METHODS: &[&str] = &["convolution", "recursive"];
const TYPES: &[&str] = &["circular", "open", "filter"];

fn missing(name: &str) -> KernelError {
    KernelError::new(format!("argument \"{name}\" is missing, with no default"))
}

/// A `match.arg` option: absent, or R's whole default vector, is the
/// first choice.
pub(super) fn choice<'a>(v: Option<&Value>, choices: &[&'a str]) -> Result<&'a str, KernelError> {
    match v.map(bare) {
        None => Ok(choices[0]),
        Some(Value::Str(s)) if s.len() == 1 => super::vector::match_arg(&s[0], choices),
        Some(Value::Str(s)) if s.iter().map(String::as_str).eq(choices.iter().copied()) => {
            Ok(choices[0])
        }
        Some(Value::Str(s)) if s.len() > 1 => Err(KernelError::new("'arg' must be of length 1")),
        Some(_) => Err(KernelError::new("'arg' must be NULL or a character vector")),
    }
}

/// R's `my_isok`: neither NA nor NaN.
fn isok(v: f64) -> bool {
    !v.is_nan()
}

/// `cfilter`: `out[i] = sum_j filter[j] * x[i + nshift - j]`, NA where
/// the window leaves the series (unless circular) or meets an NA.
pub(crate) fn cfilter(x: &[f64], filter: &[f64], sides: i32, circular: bool) -> Vec<f64> {
    let nx = x.len() as i64;
    let nf = filter.len() as i64;
    let nshift = if sides == 2 { nf / 2 } else { 0 };
    let mut out = vec![0.0; x.len()];
    if !circular {
        for i in 0..nx {
            if i + nshift - (nf - 1) < 0 || i + nshift >= nx {
                out[i as usize] = NA;
                continue;
            }
            let mut z = 0.0;
            let mut bad = false;
            for j in (nshift + i - nx).max(0)..nf.min(i + nshift + 1) {
                let tmp = x[(i + nshift - j) as usize];
                if isok(tmp) {
                    z += filter[j as usize] * tmp;
                } else {
                    bad = true;
                    break;
                }
            }
            out[i as usize] = if bad { NA } else { z };
        }
    } else {
        for i in 0..nx {
            let mut z = 0.0;
            let mut bad = false;
            for j in 0..nf {
                let mut ii = i + nshift - j;
                if ii < 0 {
                    ii += nx;
                }
                if ii >= nx {
                    ii -= nx;
                }
                let tmp = x[ii as usize];
                if isok(tmp) {
                    z += filter[j as usize] * tmp;
                } else {
                    bad = true;
                    break;
                }
            }
            out[i as usize] = if bad { NA } else { z };
        }
    }
    out
}

/// `rfilter`: `r[nf + i] = x[i] + sum_j filter[j] * r[nf + i - j - 1]`
/// over `r`, which starts with the reversed `init`; the series is what
/// follows the first `nf` entries.
pub(crate) fn rfilter(x: &[f64], filter: &[f64], r: &mut [f64]) {
    let nf = filter.len();
    for i in 0..x.len() {
        let mut sum = x[i];
        if !isok(sum) {
            r[nf + i] = NA;
            continue;
        }
        let mut bad = false;
        for j in 0..nf {
            let tmp = r[nf + i - j - 1];
            if isok(tmp) {
                sum += tmp * filter[j];
            } else {
                bad = true;
                break;
            }
        }
        r[nf + i] = if bad { NA } else { sum };
    }
}

/// The columns of `x` as filter reads them (`as.ts`, then
/// `storage.mode<- "double"`): a vector is one column.
fn series(v: &Value) -> Result<(Vec<f64>, usize, usize, bool), KernelError> {
    let v = bare(v);
    let data = match v {
        Value::Factor(f) => f.integer_codes(),
        other => other
            .as_f64_slice()
            .ok_or_else(|| {
                KernelError::new(format!(
                    "flowcast's filter() needs a numeric series, not {}",
                    other.type_name()
                ))
            })?
            .into_owned(),
    };
    Ok(match v.dims() {
        Some((n, c)) => (data, n, c, true),
        None => {
            let n = data.len();
            (data, n, 1, false)
        }
    })
}

fn filter_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let method = choice(args.get("method"), METHODS)?;
    let (x, n, nser, is_matrix) = series(args.get("x").ok_or_else(|| missing("x"))?)?;
    if n == 0 {
        return Err(KernelError::new(
            "'ts' object must have one or more observations",
        ));
    }
    let f = bare(args.get("filter").ok_or_else(|| missing("filter"))?);
    let filter: Vec<f64> = match f {
        Value::Null => Vec::new(),
        other => other
            .as_f64_slice()
            .ok_or_else(|| {
                KernelError::new(format!(
                    "flowcast's filter() needs numeric coefficients, not {}",
                    other.type_name()
                ))
            })?
            .into_owned(),
    };
    let nfilt = filter.len();
    if filter.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new("missing values in 'filter'"));
    }
    let mut y = super::alloc::vec_with_capacity::<f64>(n * nser)?;
    if method == "convolution" {
        if nfilt > n {
            return Err(KernelError::new("'filter' is longer than time series"));
        }
        let sides = match args.get("sides") {
            None => Some(2.0),
            Some(v) => bare(v)
                .as_f64_slice()
                .and_then(|s| s.first().copied())
                .filter(|s| !s.is_nan())
                .map(f64::trunc),
        };
        let sides = match sides {
            Some(s) if s == 1.0 || s == 2.0 => s as i32,
            _ => return Err(KernelError::new("argument 'sides' must be 1 or 2")),
        };
        let circular = match args.get("circular") {
            None => Some(false),
            Some(v) => match bare(v) {
                Value::Str(s) => s.first().and_then(|s| match s.as_str() {
                    "TRUE" | "true" | "True" | "T" => Some(true),
                    "FALSE" | "false" | "False" | "F" => Some(false),
                    _ => None,
                }),
                other => other
                    .as_logicals()
                    .and_then(|l| l.first().copied().flatten()),
            },
        }
        .ok_or_else(|| KernelError::new("'circular' must be logical and not NA"))?;
        for c in 0..nser {
            y.extend(cfilter(&x[c * n..(c + 1) * n], &filter, sides, circular));
        }
    } else {
        let init = match args.get("init").map(bare) {
            None | Some(Value::Null) => vec![0.0; nfilt * nser],
            Some(v) => {
                let (data, ni, nc) = match v.dims() {
                    Some((r, c)) => (v.as_f64_slice(), r, c),
                    None => (v.as_f64_slice(), v.len(), 1),
                };
                let data = data.ok_or_else(|| {
                    KernelError::new("flowcast's filter() needs numbers for 'init'")
                })?;
                if ni != nfilt {
                    return Err(KernelError::new(
                        "length of 'init' must equal length of 'filter'",
                    ));
                }
                if nc != 1 && nc != nser {
                    return Err(KernelError::new(if nser == 1 {
                        format!("'init' must have {nser} column")
                    } else {
                        format!("'init' must have 1 or {nser} columns")
                    }));
                }
                // `dim(init) <- c(nfilt, nser)` recycles one column; a
                // matrix is used as it is, its first column for a vector x.
                (0..nfilt * nser)
                    .map(|k| data[k % data.len().max(1)])
                    .collect()
            }
        };
        let mut r = vec![0.0; nfilt + n];
        for c in 0..nser {
            let col = &init[c * nfilt..(c + 1) * nfilt];
            r[..nfilt]
                .iter_mut()
                .zip(col.iter().rev())
                .for_each(|(d, &s)| *d = s);
            r[nfilt..].iter_mut().for_each(|d| *d = 0.0);
            rfilter(&x[c * n..(c + 1) * n], &filter, &mut r);
            y.extend_from_slice(&r[nfilt..]);
        }
    }
    let out = if is_matrix {
        Value::Mat(DMatrix::from_vec(n, nser, y))
    } else {
        Value::Num(y)
    };
    Ok(match args.get("x").and_then(super::ts::tsp_of) {
        Some(tsp) => super::ts::with_tsp(out, tsp),
        None => out,
    })
}

fn filter_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(m) = args.ty("method").and_then(Type::const_str) {
        super::vector::match_arg(m, METHODS).map_err(|e| args.error("method", e.0))?;
    }
    Ok(match args.ty("x") {
        Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }) => Type::Mat {
            rows: *rows,
            cols: *cols,
        },
        Some(t @ (Type::Num { .. } | Type::Bool { .. } | Type::Factor { .. })) => Type::Num {
            len: t.len(),
            value: None,
        },
        None | Some(Type::Any) => Type::Any,
        Some(t) => {
            return Err(args.error(
                "x",
                format!(
                    "flowcast's filter() needs a numeric series, not {}",
                    t.describe()
                ),
            ))
        }
    })
}

/// R's `a:b` of whole numbers, as an index list.
fn colon(a: i64, b: i64) -> Vec<i64> {
    if a <= b {
        (a..=b).collect()
    } else {
        (b..=a).rev().collect()
    }
}

/// R's complex division `z / (n + 0i)` (complex_div in R's complex.c).
fn div_real(z: Complex64, n: f64) -> Complex64 {
    let ratio = 0.0 / n;
    let den = n * (1.0 + ratio * ratio);
    Complex64::new((z.re + z.im * ratio) / den, (z.im - z.re * ratio) / den)
}

fn complex_of(v: &Value) -> Option<(Vec<Complex64>, bool)> {
    match bare(v) {
        Value::Complex(c) => Some((c.clone(), false)),
        Value::ComplexMat(m) => Some((m.as_slice().to_vec(), false)),
        Value::Str(_) | Value::List(_) | Value::Factor(_) | Value::Formula(_) | Value::Lang(_) => {
            None
        }
        other => Some((
            other
                .as_f64_slice()?
                .iter()
                .map(|&r| Complex64::new(r, 0.0))
                .collect(),
            true,
        )),
    }
}

fn convolve_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let kind = choice(args.get("type"), TYPES)?;
    let conj = match args.get("conj") {
        Some(v) => super::logical::if_condition(v)?,
        None => true,
    };
    let non_numeric = || KernelError::new("non-numeric argument");
    let (mut x, x_real) =
        complex_of(args.get("x").ok_or_else(|| missing("x"))?).ok_or_else(non_numeric)?;
    let (mut y, y_real) =
        complex_of(args.get("y").ok_or_else(|| missing("y"))?).ok_or_else(non_numeric)?;
    let real = x_real && y_real;
    let mut n = x.len();
    let ny = y.len();
    let n1 = ny as i64 - 1;
    if kind == "circular" {
        if ny != n {
            return Err(KernelError::new("length mismatch in convolution"));
        }
    } else {
        if n1 < 0 {
            return Err(KernelError::new("invalid 'times' argument"));
        }
        let zero = Complex64::new(0.0, 0.0);
        super::alloc::ensure_room(32.0 * (n1 as f64 + n as f64))?;
        x = std::iter::repeat_n(zero, n1 as usize).chain(x).collect();
        y.extend(std::iter::repeat_n(zero, n.saturating_sub(1)));
        n = y.len();
    }
    let fx = super::fft::fft_complex(&x, &[x.len()], false, ctx.cancel)?;
    let fy = super::fft::fft_complex(&y, &[y.len()], false, ctx.cancel)?;
    if fx.len() != fy.len() {
        // fft(x) * fft(y) of unequal lengths: only when x is empty here.
        return Err(KernelError::new("length mismatch in convolution"));
    }
    let prod: Vec<Complex64> = fx
        .iter()
        .zip(&fy)
        .map(|(a, b)| {
            let b = if conj { b.conj() } else { *b };
            Complex64::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
        })
        .collect();
    let z = super::fft::fft_complex(&prod, &[prod.len()], true, ctx.cancel)?;
    let keep: Vec<usize> = if kind == "filter" {
        let n = n as i64;
        let mut drop = vec![false; n as usize];
        for k in colon(1, n1).into_iter().chain(colon(n - n1 + 1, n)) {
            if k >= 1 && k <= n {
                drop[(k - 1) as usize] = true;
            }
        }
        (0..n as usize).filter(|&i| !drop[i]).collect()
    } else {
        (0..z.len()).collect()
    };
    let nf = n as f64;
    Ok(if real {
        Value::Num(keep.iter().map(|&i| z[i].re / nf).collect())
    } else {
        Value::Complex(keep.iter().map(|&i| div_real(z[i], nf)).collect())
    })
}

fn convolve_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("type").and_then(Type::const_str) {
        super::vector::match_arg(t, TYPES).map_err(|e| args.error("type", e.0))?;
    }
    for name in ["x", "y"] {
        if let Some(t @ (Type::Str { .. } | Type::Record { .. } | Type::Factor { .. })) =
            args.ty(name)
        {
            return Err(args.error(name, format!("non-numeric argument: {}", t.describe())));
        }
    }
    let complex = ["x", "y"].iter().any(|n| {
        matches!(
            args.ty(n),
            Some(Type::Complex { .. } | Type::ComplexMat { .. })
        )
    });
    Ok(if complex {
        Type::Complex { len: None }
    } else {
        Type::num_unknown()
    })
}
