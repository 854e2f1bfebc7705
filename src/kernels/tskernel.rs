//! Smoothing kernels for time series: `kernel(coef, m, r)`,
//! `kernapply(x, k, circular)`, `df.kernel(k)` and `bandwidth.kernel(k)`,
//! as stats' kernel.R of R 4.2.2. A kernel is R's list of `coef` (the
//! weights at lags 0..m) and `m`, of class "tskernel"; its "name"
//! attribute is not kept (flowcast's lists hold no attributes), which is
//! all R prints of it besides the weights. kernapply convolves by R's own
//! fft (`fft(fft(x) * fft(w), inverse = TRUE) / n`), so the rounding is
//! R's.

use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::fft::fft_complex;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "kernel",
        params: &[req("coef"), opt("m"), opt("r"), opt("name")],
        random: false,
        shape: kernel_shape,
        eval: kernel_eval,
    },
    Kernel {
        name: "kernapply",
        params: &[req("x"), req("k"), opt("circular"), DOTS],
        random: false,
        shape: kernapply_shape,
        eval: kernapply_eval,
    },
    Kernel {
        name: "df.kernel",
        params: &[req("k")],
        random: false,
        shape: scalar_shape,
        eval: df_kernel_eval,
    },
    Kernel {
        name: "bandwidth.kernel",
        params: &[req("k")],
        random: false,
        shape: scalar_shape,
        eval: bandwidth_kernel_eval,
    },
];

const CLASS: &str = "tskernel";
/// `getOption("ts.eps")`.
const TS_EPS: f64 = 1e-5;

fn kernel_type() -> Type {
    Type::record(
        CLASS,
        vec![("coef", Type::num_unknown()), ("m", Type::num(1))],
    )
}

fn kernel_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("coef") {
        Some(Type::Str { .. } | Type::Num { .. } | Type::Mat { .. } | Type::Any) | None => {
            Ok(kernel_type())
        }
        Some(_) => Err(args.error("coef", "'coef' must be a vector")),
    }
}

fn is_kernel_type(t: Option<&Type>) -> bool {
    match t {
        Some(Type::Record { class, .. }) => class == CLASS,
        Some(Type::Any) | None => true,
        _ => false,
    }
}

fn scalar_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if !is_kernel_type(args.ty("k")) {
        return Err(args.error("k", not_a_kernel(args.ty("k").is_some_and(is_atomic))));
    }
    Ok(Type::num(1))
}

fn is_atomic(t: &Type) -> bool {
    !matches!(
        t,
        Type::List { .. } | Type::Record { .. } | Type::Formula { .. }
    )
}

/// df.kernel's and bandwidth.kernel's `k$m` of what is not a kernel: R's
/// error for a vector, flowcast's for a list R would read on.
fn not_a_kernel(atomic: bool) -> &'static str {
    if atomic {
        "$ operator is invalid for atomic vectors"
    } else {
        "'k' is not a kernel"
    }
}

/// The kernel `k` of df.kernel and bandwidth.kernel.
fn kernel_arg(args: &Args<&Value>) -> Result<Tsk, KernelError> {
    let k = args
        .get("k")
        .ok_or_else(|| KernelError::new("argument \"k\" is missing, with no default"))?;
    if !matches!(k, Value::List(_)) {
        return Err(KernelError::new(not_a_kernel(true)));
    }
    as_kernel(k, "k")
}

fn kernapply_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if !is_kernel_type(args.ty("k")) {
        return Err(args.error("k", "'k' is not a kernel"));
    }
    Ok(match args.ty("x") {
        Some(Type::Record { class, .. }) if class == CLASS => kernel_type(),
        Some(Type::Mat { cols, .. }) => Type::Mat {
            rows: None,
            cols: *cols,
        },
        _ => Type::num_unknown(),
    })
}

/// A kernel's weights at lags 0..=m.
struct Tsk {
    coef: Vec<f64>,
    m: usize,
}

impl Tsk {
    /// `k[-m:m]` (`[.tskernel`): the weights at every lag, the coefficients
    /// mirrored.
    fn full(&self) -> Vec<f64> {
        let m = self.m;
        (0..=2 * m).map(|p| self.coef[m.abs_diff(p)]).collect()
    }

    fn value(self) -> Value {
        Value::List(List {
            class: Some(CLASS.into()),
            names: Some(vec!["coef".into(), "m".into()]),
            items: vec![Value::Num(self.coef), Value::Num(vec![self.m as f64])],
            row_names: None,
        })
    }
}

/// R's numeric `kernel(coef)`: m = length(coef) - 1, the weights at all
/// lags summing to 1 within ts.eps.
fn from_coef(coef: Vec<f64>) -> Result<Tsk, KernelError> {
    if coef.is_empty() {
        return Err(KernelError::new("'coef' does not have the correct length"));
    }
    let k = Tsk {
        m: coef.len() - 1,
        coef,
    };
    let sk = super::summary::sum(&k.full(), false);
    if sk.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if (sk - 1.0).abs() > TS_EPS {
        return Err(KernelError::new("coefficients do not add to 1"));
    }
    Ok(k)
}

fn as_kernel(v: &Value, what: &str) -> Result<Tsk, KernelError> {
    let err = || KernelError::new(format!("'{what}' is not a kernel"));
    let Value::List(l) = v else {
        return Err(err());
    };
    if l.class.as_deref() != Some(CLASS) {
        return Err(err());
    }
    let field = |name: &str| {
        let i = l.names.as_ref()?.iter().position(|n| n == name)?;
        super::names::bare(&l.items[i])
            .as_f64_slice()
            .map(|c| c.into_owned())
    };
    let coef = field("coef").ok_or_else(err)?;
    let m = field("m")
        .and_then(|m| m.first().copied())
        .filter(|m| *m >= 0.0 && m.fract() == 0.0 && (*m as usize) < coef.len())
        .ok_or_else(err)? as usize;
    Ok(Tsk { coef, m })
}

/// `kernapply.vector(x, k, circular)`: the convolution by fft, the
/// numbers at both ends (m of them) dropped unless circular.
fn apply_vector(x: &[f64], k: &Tsk, circular: bool, ctx: &Ctx) -> Result<Vec<f64>, KernelError> {
    let m = k.m;
    let n = x.len();
    if n <= 2 * m {
        return Err(KernelError::new("'x' is shorter than kernel 'k'"));
    }
    if m == 0 {
        return Ok(x.to_vec());
    }
    // w <- c(k[0L:m], rep_len(0, n-2L*m-1L), k[-m:-1L])
    let mut w: Vec<f64> = k.coef.clone();
    w.resize(n - m, 0.0);
    w.extend((1..=m).rev().map(|i| k.coef[i]));
    let cx = |v: &[f64]| {
        v.iter()
            .map(|&r| Complex64::new(r, 0.0))
            .collect::<Vec<_>>()
    };
    let fx = fft_complex(&cx(x), &[n], false, ctx.cancel)?;
    let fw = fft_complex(&cx(&w), &[n], false, ctx.cancel)?;
    // C99's complex product, as R's `*` of complex vectors.
    let prod: Vec<Complex64> = fx
        .iter()
        .zip(&fw)
        .map(|(a, b)| Complex64::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re))
        .collect();
    let y = fft_complex(&prod, &[n], true, ctx.cancel)?;
    // Re(y / n): a complex quotient by n + 0i has real part re / n.
    let y: Vec<f64> = y.iter().map(|c| c.re / n as f64).collect();
    Ok(if circular { y } else { y[m..n - m].to_vec() })
}

/// kernapply.tskernel: the kernel x smoothed by k, a kernel of m(x) +
/// m(k) lags. Its third argument reaches `kernel`'s `r`, so R names it
/// "unknown".
fn compose(x: &Tsk, k: &Tsk, ctx: &Ctx) -> Result<Tsk, KernelError> {
    let n = k.m;
    let mut xx = vec![0.0; n];
    xx.extend(x.full());
    xx.extend(std::iter::repeat_n(0.0, n));
    let coef = apply_vector(&xx, k, true, ctx)?;
    let m = coef.len() / 2;
    from_coef(coef[m..].to_vec())
}

/// The `m` of a named kernel, as `kernel` checks it.
fn m_values(args: &Args<&Value>) -> Result<Vec<f64>, KernelError> {
    let bad = || KernelError::new("'m' must be numeric with non-negative integers");
    match args.get("m") {
        None => Ok(vec![2.0]),
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            let m = v.as_f64_slice().ok_or_else(bad)?.into_owned();
            if m.is_empty() || m.iter().any(|x| x.is_nan() || x.fract() != 0.0 || *x < 0.0) {
                return Err(bad());
            }
            Ok(m)
        }
        Some(_) => Err(bad()),
    }
}

/// daniell.kernel and modified.daniell.kernel: one m, or the composite
/// of one kernel per m.
fn daniell(m: &[f64], modified: bool, ctx: &Ctx) -> Result<Tsk, KernelError> {
    let one = |m: f64| {
        let mu = m as usize;
        super::alloc::vec_with_capacity::<f64>(mu.saturating_add(2))?;
        if modified {
            let mut c = vec![1.0; mu];
            c.push(0.5);
            from_coef(c.into_iter().map(|c| c / (2.0 * m)).collect())
        } else {
            from_coef(vec![1.0 / (2.0 * m + 1.0); mu + 1])
        }
    };
    let mut k = one(m[0])?;
    for &mi in &m[1..] {
        k = compose(&k, &one(mi)?, ctx)?;
    }
    Ok(k)
}

/// fejer.kernel and dirichlet.kernel.
fn periodic(m: &[f64], r: f64, fejer: bool) -> Result<Tsk, KernelError> {
    if m.len() > 1 {
        return Err(KernelError::new("the condition has length > 1"));
    }
    let m = m[0];
    if r.is_nan() || m.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if fejer && r < 1.0 {
        return Err(KernelError::new("'r' is less than 1"));
    }
    if !fejer && r < 0.0 {
        return Err(KernelError::new("'r' is less than 0"));
    }
    if m < 1.0 {
        return Err(KernelError::new("'m' is less than 1"));
    }
    let mu = m as usize;
    super::alloc::vec_with_capacity::<f64>(mu.saturating_add(1))?;
    let n = 2.0 * m + 1.0;
    let mut wn = vec![0.0; mu + 1];
    for (i, w) in wn.iter_mut().enumerate().skip(1) {
        let wj = 2.0 * std::f64::consts::PI * i as f64 / n;
        *w = if fejer {
            let (a, b) = ((r * wj / 2.0).sin(), (wj / 2.0).sin());
            a * a / (b * b) / r
        } else {
            ((r + 0.5) * wj).sin() / (wj / 2.0).sin()
        };
    }
    wn[0] = if fejer { r } else { 2.0 * r + 1.0 };
    let total = wn[0] + 2.0 * super::summary::sum(&wn[1..], false);
    from_coef(wn.iter().map(|w| w / total).collect())
}

fn kernel_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let m = if args.has("m") {
        Some(m_values(args)?)
    } else {
        None
    };
    let coef = args
        .get("coef")
        .ok_or_else(|| KernelError::new("argument \"coef\" is missing, with no default"))?;
    let k = match coef {
        Value::Str(s) => {
            let m = m.unwrap_or_else(|| vec![2.0]);
            let r = || match args.get("r") {
                None => Err(KernelError::new(
                    "argument \"r\" is missing, with no default",
                )),
                Some(v) => v
                    .as_f64_slice()
                    .and_then(|r| r.first().copied())
                    .ok_or_else(|| KernelError::new("argument \"r\" must be a number")),
            };
            if s.len() != 1 {
                return Err(KernelError::new("EXPR must be a length 1 vector"));
            }
            match s[0].as_str() {
                "daniell" => daniell(&m, false, ctx)?,
                "modified.daniell" => daniell(&m, true, ctx)?,
                "dirichlet" => periodic(&m, r()?, false)?,
                "fejer" => periodic(&m, r()?, true)?,
                _ => return Err(KernelError::new("unknown named kernel")),
            }
        }
        Value::Num(_) | Value::Mat(_) => {
            from_coef(coef.as_f64_slice().unwrap_or_default().into_owned())?
        }
        _ => return Err(KernelError::new("'coef' must be a vector")),
    };
    Ok(k.value())
}

fn kernapply_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let k = as_kernel(
        args.get("k")
            .ok_or_else(|| KernelError::new("argument \"k\" is missing, with no default"))?,
        "k",
    )?;
    if matches!(x, Value::List(l) if l.class.as_deref() == Some(CLASS)) {
        return Ok(compose(&as_kernel(x, "x")?, &k, ctx)?.value());
    }
    let circular = args.bool_or("circular", false)?;
    if super::ts::tsp_of(x).is_none() {
        return apply_default(x, &k, circular, ctx);
    }
    // kernapply.ts: `as.vector(x)` (no names) or each column, then
    // `ts(y, end = end(x), frequency = frequency(x))`.
    let columns = super::names::dimnames(x).1.map(<[String]>::to_vec);
    let plain = super::names::dimnamed(x.clone(), None, columns);
    let y = apply_default(&plain, &k, circular, ctx)?;
    super::ts::ending_as(&y, x, ctx)
}

/// kernapply.default: kernapply.vector of a vector (its names kept where
/// its values are, as `fft` keeps them), `apply(x, 2, kernapply, k)` of a
/// matrix (its column names kept, its row names naming each column's).
fn apply_default(x: &Value, k: &Tsk, circular: bool, ctx: &Ctx) -> Result<Value, KernelError> {
    let kept = |names: Option<&[String]>, len: usize| {
        names.map(|n| match circular {
            true => n.to_vec(),
            false => n[k.m..k.m + len].to_vec(),
        })
    };
    match super::names::bare(x) {
        Value::Num(_) | Value::Bool(_) if k.m == 0 => Ok(x.clone()),
        v @ (Value::Num(_) | Value::Bool(_)) => {
            let y = apply_vector(&v.as_f64_slice().unwrap_or_default(), k, circular, ctx)?;
            Ok(match kept(super::names::names(x), y.len()) {
                Some(names) => super::names::named(Value::Num(y), names),
                None => Value::Num(y),
            })
        }
        Value::Mat(m) => {
            let cols: Vec<Vec<f64>> = m
                .column_iter()
                .map(|c| apply_vector(&c.iter().copied().collect::<Vec<_>>(), k, circular, ctx))
                .collect::<Result<_, _>>()?;
            let rows = cols.first().map_or(0, Vec::len);
            let flat: Vec<f64> = cols.into_iter().flatten().collect();
            let (rownames, colnames) = super::names::dimnames(x);
            let colnames = colnames.map(<[String]>::to_vec);
            // One row left is simplified to a vector named by the columns,
            // as apply does.
            Ok(if rows == 1 {
                match colnames {
                    Some(names) => super::names::named(Value::Num(flat), names),
                    None => Value::Num(flat),
                }
            } else {
                super::names::dimnamed(
                    Value::Mat(nalgebra::DMatrix::from_vec(rows, m.ncols(), flat)),
                    kept(rownames, rows),
                    colnames,
                )
            })
        }
        Value::Complex(_) | Value::ComplexMat(_) => Err(KernelError::new(
            "kernapply of complex numbers is not supported by flowcast",
        )),
        _ => Err(KernelError::new(
            "'kernapply' is not available for object 'x'",
        )),
    }
}

fn df_kernel_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let k = kernel_arg(args)?;
    let sq: Vec<f64> = k.full().iter().map(|w| w * w).collect();
    Ok(Value::Num(vec![2.0 / super::summary::sum(&sq, false)]))
}

fn bandwidth_kernel_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let k = kernel_arg(args)?;
    let m = k.m as f64;
    let terms: Vec<f64> = k
        .full()
        .iter()
        .enumerate()
        .map(|(p, w)| {
            let i = p as f64 - m;
            (1.0 / 12.0 + i * i) * w
        })
        .collect();
    Ok(Value::Num(vec![super::summary::sum(&terms, false).sqrt()]))
}
