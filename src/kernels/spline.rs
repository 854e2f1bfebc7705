//! `spline(x, y, n, method, xmin, xmax, xout, ties)`: R 4.2.2's cubic
//! spline interpolation, stats/R/spline.R step by step over
//! `regularize.values` (approx.rs's), splines.c's `spline_coef`
//! (`fmm_spline`, `natural_spline`, `periodic_spline`) and `spline_eval`,
//! and for "hyman" splinefun.R's `spl_coef_conv(hyman_filter(z))`. The
//! result is R's `list(x = xout, y = yout)`.

use super::approx::regularize;
use super::args::{ArgError, Args};
use super::fun;
use super::value::{List, NA};
use super::{opt, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "spline",
    params: &[
        opt("x"),
        opt("y"),
        opt("n"),
        opt("method"),
        opt("xmin"),
        opt("xmax"),
        opt("xout"),
        opt("ties"),
    ],
    random: false,
    shape,
    eval,
}];

/// `pmatch(method, c("periodic", "natural", "fmm", "hyman"))`, 1-based
/// as R's code numbers them.
fn method_code(v: Option<&Value>) -> Result<u8, KernelError> {
    const METHODS: [&str; 4] = ["periodic", "natural", "fmm", "hyman"];
    let s = match v {
        None => return Ok(3),
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        // `if (is.na(method))` on what pmatch gave back.
        Some(v) if v.len() > 1 => {
            return Err(KernelError::new("the condition has length > 1"));
        }
        Some(v) if v.is_empty() => return Err(KernelError::new("argument is of length zero")),
        // A number or logical is matched as its text, which no method is.
        Some(_) => "",
    };
    let exact = METHODS.iter().position(|m| *m == s);
    let partial = || {
        let mut hits = METHODS
            .iter()
            .enumerate()
            .filter(|(_, m)| !s.is_empty() && m.starts_with(s));
        match (hits.next(), hits.next()) {
            (Some((i, _)), None) => Some(i),
            _ => None,
        }
    };
    match exact.or_else(partial) {
        Some(i) => Ok(i as u8 + 1),
        None => Err(KernelError::new("invalid interpolation method")),
    }
}

/// `xy.coords`' `as.double` of one coordinate: text read as numbers, NA
/// (with R's warning) where it is not one.
fn coordinate(v: &Value, ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Str(s) => Ok(super::coerce::text_as_doubles(s, ctx)),
        v => v.as_f64_slice().map(|s| s.into_owned()).ok_or_else(|| {
            KernelError::new("'x' is a list, but does not have components 'x' and 'y'")
        }),
    }
}

/// splines.c's coefficients: `b`, `c`, `d` beside the knots.
pub(crate) struct Coef {
    pub b: Vec<f64>,
    pub c: Vec<f64>,
    pub d: Vec<f64>,
}

/// splines.c's `natural_spline`, on 0-based slices (the C shifts its
/// pointers to count from 1; `k(i)` is that 1-based `i`).
fn natural_spline(x: &[f64], y: &[f64], z: &mut Coef) {
    let n = x.len();
    if n < 2 {
        return;
    }
    let k = |i: usize| i - 1;
    let (b, c, d) = (&mut z.b, &mut z.c, &mut z.d);
    if n < 3 {
        let t = y[k(2)] - y[k(1)];
        b[k(1)] = t / (x[k(2)] - x[k(1)]);
        b[k(2)] = b[k(1)];
        c[k(1)] = 0.0;
        c[k(2)] = 0.0;
        d[k(1)] = 0.0;
        d[k(2)] = 0.0;
        return;
    }
    let nm1 = n - 1;
    // Tridiagonal system: b the diagonal, d the off-diagonal, c the
    // right-hand side.
    d[k(1)] = x[k(2)] - x[k(1)];
    c[k(2)] = (y[k(2)] - y[k(1)]) / d[k(1)];
    for i in 2..n {
        d[k(i)] = x[k(i + 1)] - x[k(i)];
        b[k(i)] = 2.0 * (d[k(i - 1)] + d[k(i)]);
        c[k(i + 1)] = (y[k(i + 1)] - y[k(i)]) / d[k(i)];
        c[k(i)] = c[k(i + 1)] - c[k(i)];
    }
    for i in 3..n {
        let t = d[k(i - 1)] / b[k(i - 1)];
        b[k(i)] -= t * d[k(i - 1)];
        c[k(i)] -= t * c[k(i - 1)];
    }
    c[k(nm1)] /= b[k(nm1)];
    let mut i = n - 2;
    while i > 1 {
        c[k(i)] = (c[k(i)] - d[k(i)] * c[k(i + 1)]) / b[k(i)];
        i -= 1;
    }
    // The C loop leaves i at 1, and its next line reads d[i]: d[1].
    c[k(1)] = 0.0;
    c[k(n)] = 0.0;
    b[k(1)] = (y[k(2)] - y[k(1)]) / d[k(1)] - d[k(i)] * c[k(2)];
    c[k(1)] = 0.0;
    d[k(1)] = c[k(2)] / d[k(1)];
    b[k(n)] = (y[k(n)] - y[k(nm1)]) / d[k(nm1)] + d[k(nm1)] * c[k(nm1)];
    for i in 2..n {
        b[k(i)] = (y[k(i + 1)] - y[k(i)]) / d[k(i)] - d[k(i)] * (c[k(i + 1)] + 2.0 * c[k(i)]);
        d[k(i)] = (c[k(i + 1)] - c[k(i)]) / d[k(i)];
        c[k(i)] *= 3.0;
    }
    c[k(n)] = 0.0;
    d[k(n)] = 0.0;
}

/// splines.c's `fmm_spline` (Forsythe, Malcolm and Moler: the end third
/// derivatives from divided differences).
fn fmm_spline(x: &[f64], y: &[f64], z: &mut Coef) {
    let n = x.len();
    if n < 2 {
        return;
    }
    let k = |i: usize| i - 1;
    let (b, c, d) = (&mut z.b, &mut z.c, &mut z.d);
    if n < 3 {
        let t = y[k(2)] - y[k(1)];
        b[k(1)] = t / (x[k(2)] - x[k(1)]);
        b[k(2)] = b[k(1)];
        c[k(1)] = 0.0;
        c[k(2)] = 0.0;
        d[k(1)] = 0.0;
        d[k(2)] = 0.0;
        return;
    }
    let nm1 = n - 1;
    d[k(1)] = x[k(2)] - x[k(1)];
    c[k(2)] = (y[k(2)] - y[k(1)]) / d[k(1)];
    for i in 2..n {
        d[k(i)] = x[k(i + 1)] - x[k(i)];
        b[k(i)] = 2.0 * (d[k(i - 1)] + d[k(i)]);
        c[k(i + 1)] = (y[k(i + 1)] - y[k(i)]) / d[k(i)];
        c[k(i)] = c[k(i + 1)] - c[k(i)];
    }
    b[k(1)] = -d[k(1)];
    b[k(n)] = -d[k(nm1)];
    c[k(1)] = 0.0;
    c[k(n)] = 0.0;
    if n > 3 {
        c[k(1)] = c[k(3)] / (x[k(4)] - x[k(2)]) - c[k(2)] / (x[k(3)] - x[k(1)]);
        c[k(n)] = c[k(nm1)] / (x[k(n)] - x[k(n - 2)]) - c[k(n - 2)] / (x[k(nm1)] - x[k(n - 3)]);
        c[k(1)] = c[k(1)] * d[k(1)] * d[k(1)] / (x[k(4)] - x[k(1)]);
        c[k(n)] = -c[k(n)] * d[k(nm1)] * d[k(nm1)] / (x[k(n)] - x[k(n - 3)]);
    }
    for i in 2..=n {
        let t = d[k(i - 1)] / b[k(i - 1)];
        b[k(i)] -= t * d[k(i - 1)];
        c[k(i)] -= t * c[k(i - 1)];
    }
    c[k(n)] /= b[k(n)];
    for i in (1..=nm1).rev() {
        c[k(i)] = (c[k(i)] - d[k(i)] * c[k(i + 1)]) / b[k(i)];
    }
    b[k(n)] = (y[k(n)] - y[k(n - 1)]) / d[k(n - 1)] + d[k(n - 1)] * (c[k(n - 1)] + 2.0 * c[k(n)]);
    for i in 1..=nm1 {
        b[k(i)] = (y[k(i + 1)] - y[k(i)]) / d[k(i)] - d[k(i)] * (c[k(i + 1)] + 2.0 * c[k(i)]);
        d[k(i)] = (c[k(i + 1)] - c[k(i)]) / d[k(i)];
        c[k(i)] *= 3.0;
    }
    c[k(n)] *= 3.0;
    d[k(n)] = d[k(nm1)];
}

/// splines.c's `periodic_spline`: the cyclic system solved by its
/// Cholesky factors (`b` holds L, `d` M, `e` E, `c` the right-hand side,
/// then Y, then X, as the C's macros rename them).
fn periodic_spline(x: &[f64], y: &[f64], z: &mut Coef) {
    let n = x.len();
    let k = |i: usize| i - 1;
    if n < 2 || y[k(1)] != y[k(n)] {
        return;
    }
    let (b, c, d) = (&mut z.b, &mut z.c, &mut z.d);
    if n == 2 {
        for v in [b, c, d] {
            v[0] = 0.0;
            v[1] = 0.0;
        }
        return;
    }
    if n == 3 {
        let v = -(y[k(1)] - y[k(2)]) * (x[k(1)] - 2.0 * x[k(2)] + x[k(3)])
            / (x[k(3)] - x[k(2)])
            / (x[k(2)] - x[k(1)]);
        b[k(1)] = v;
        b[k(2)] = v;
        b[k(3)] = v;
        c[k(1)] = -3.0 * (y[k(1)] - y[k(2)]) / (x[k(3)] - x[k(2)]) / (x[k(2)] - x[k(1)]);
        c[k(2)] = -c[k(1)];
        c[k(3)] = c[k(1)];
        d[k(1)] = -2.0 * c[k(1)] / 3.0 / (x[k(2)] - x[k(1)]);
        d[k(2)] = -d[k(1)] * (x[k(2)] - x[k(1)]) / (x[k(3)] - x[k(2)]);
        d[k(3)] = d[k(1)];
        return;
    }
    let mut e = vec![0.0; n];
    let nm1 = n - 1;
    // A = b (diagonal), B = d (off-diagonal), C = c (right-hand side).
    d[k(1)] = x[k(2)] - x[k(1)];
    d[k(nm1)] = x[k(n)] - x[k(nm1)];
    b[k(1)] = 2.0 * (d[k(1)] + d[k(nm1)]);
    c[k(1)] = (y[k(2)] - y[k(1)]) / d[k(1)] - (y[k(n)] - y[k(nm1)]) / d[k(nm1)];
    for i in 2..n {
        d[k(i)] = x[k(i + 1)] - x[k(i)];
        b[k(i)] = 2.0 * (d[k(i)] + d[k(i - 1)]);
        c[k(i)] = (y[k(i + 1)] - y[k(i)]) / d[k(i)] - (y[k(i)] - y[k(i - 1)]) / d[k(i - 1)];
    }
    // Cholesky: L = b, M = d, E = e.
    b[k(1)] = b[k(1)].sqrt();
    e[k(1)] = (x[k(n)] - x[k(nm1)]) / b[k(1)];
    let mut s = 0.0;
    for i in 1..=nm1 - 2 {
        d[k(i)] /= b[k(i)];
        if i != 1 {
            e[k(i)] = -e[k(i - 1)] * d[k(i - 1)] / b[k(i)];
        }
        b[k(i + 1)] = (b[k(i + 1)] - d[k(i)] * d[k(i)]).sqrt();
        s += e[k(i)] * e[k(i)];
    }
    d[k(nm1 - 1)] = (d[k(nm1 - 1)] - e[k(nm1 - 2)] * d[k(nm1 - 2)]) / b[k(nm1 - 1)];
    b[k(nm1)] = (b[k(nm1)] - d[k(nm1 - 1)] * d[k(nm1 - 1)] - s).sqrt();
    // Forward elimination: Y = D = c.
    c[k(1)] /= b[k(1)];
    s = 0.0;
    for i in 2..nm1 {
        c[k(i)] = (c[k(i)] - d[k(i - 1)] * c[k(i - 1)]) / b[k(i)];
        s += e[k(i - 1)] * c[k(i - 1)];
    }
    c[k(nm1)] = (c[k(nm1)] - d[k(nm1 - 1)] * c[k(nm1 - 1)] - s) / b[k(nm1)];
    // Back substitution: X = c.
    c[k(nm1)] /= b[k(nm1)];
    c[k(nm1 - 1)] = (c[k(nm1 - 1)] - d[k(nm1 - 1)] * c[k(nm1)]) / b[k(nm1 - 1)];
    let mut i = nm1 - 2;
    while i >= 1 {
        c[k(i)] = (c[k(i)] - d[k(i)] * c[k(i + 1)] - e[k(i)] * c[k(nm1)]) / b[k(i)];
        i -= 1;
    }
    c[k(n)] = c[k(1)];
    for i in 1..=nm1 {
        let s = x[k(i + 1)] - x[k(i)];
        b[k(i)] = (y[k(i + 1)] - y[k(i)]) / s - s * (c[k(i + 1)] + 2.0 * c[k(i)]);
        d[k(i)] = (c[k(i + 1)] - c[k(i)]) / s;
        c[k(i)] *= 3.0;
    }
    b[k(n)] = b[k(1)];
    c[k(n)] = c[k(1)];
    d[k(n)] = d[k(1)];
}

/// splines.c's `spline_coef` (method 1 periodic, 2 natural, 3 fmm), the
/// coefficients starting at 0 as `SplineCoef` allocates them.
pub(crate) fn spline_coef(method: u8, x: &[f64], y: &[f64]) -> Coef {
    let n = x.len();
    let mut z = Coef {
        b: vec![0.0; n],
        c: vec![0.0; n],
        d: vec![0.0; n],
    };
    match method {
        1 => periodic_spline(x, y, &mut z),
        2 => natural_spline(x, y, &mut z),
        _ => fmm_spline(x, y, &mut z),
    }
    z
}

/// splines.c's `spline_eval`.
pub(crate) fn spline_eval(method: u8, u: &[f64], x: &[f64], y: &[f64], z: &Coef) -> Vec<f64> {
    let n = x.len();
    if n == 0 {
        return vec![NA; u.len()];
    }
    let n_1 = n - 1;
    let mut v: Vec<f64> = if method == 1 && n > 1 {
        let dx = x[n_1] - x[0];
        u.iter()
            .map(|&ul| {
                // C's fmod is Rust's %.
                let mut w = (ul - x[0]) % dx;
                if w < 0.0 {
                    w += dx;
                }
                w + x[0]
            })
            .collect()
    } else {
        u.to_vec()
    };
    let mut i = 0;
    for vl in v.iter_mut() {
        let ul = *vl;
        if ul < x[i] || (i < n_1 && x[i + 1] < ul) {
            i = 0;
            let mut j = n;
            loop {
                let k = (i + j) / 2;
                if ul < x[k] {
                    j = k;
                } else {
                    i = k;
                }
                if j <= i + 1 {
                    break;
                }
            }
        }
        let dx = ul - x[i];
        // Natural splines extrapolate linearly to the left.
        let tmp = if method == 2 && ul < x[0] {
            0.0
        } else {
            z.d[i]
        };
        *vl = y[i] + dx * (z.b[i] + dx * (z.c[i] + dx * tmp));
    }
    v
}

/// R's `pmax(a, b)` of two numbers: NA or NaN wins.
fn pmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() || b > a {
        b
    } else {
        a
    }
}

fn pmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() || b < a {
        b
    } else {
        a
    }
}

/// splinefun.R's `hyman_filter`: the slopes `b` clipped so that the
/// spline is monotone as the data are (Hyman 1983).
pub(crate) fn hyman_filter(x: &[f64], y: &[f64], z: &mut Coef) {
    let n = x.len();
    if n < 2 {
        // ss is empty: S0 is c(NA) and t1 NA, so b becomes NA.
        z.b.iter_mut().for_each(|b| *b = NA);
        return;
    }
    let ss: Vec<f64> = (0..n - 1)
        .map(|i| (y[i + 1] - y[i]) / (x[i + 1] - x[i]))
        .collect();
    let s0 = |i: usize| if i == 0 { ss[0] } else { ss[i - 1] };
    let s1 = |i: usize| if i == n - 1 { ss[n - 2] } else { ss[i] };
    for i in 0..n {
        let t1 = pmin(s0(i).abs(), s1(i).abs());
        let sig = if s0(i) * s1(i) > 0.0 { s1(i) } else { z.b[i] };
        z.b[i] = if sig >= 0.0 {
            pmin(pmax(0.0, z.b[i]), 3.0 * t1)
        } else {
            pmax(pmin(0.0, z.b[i]), -3.0 * t1)
        };
    }
}

/// splinefun.R's `spl_coef_conv`: `c` and `d` made to agree with `y` and
/// the filtered slopes `b` (R's `h^2` is `h * h`).
pub(crate) fn spl_coef_conv(x: &[f64], y: &[f64], z: &mut Coef) {
    let n = x.len();
    if n < 2 {
        return;
    }
    let h: Vec<f64> = (0..n - 1).map(|i| x[i + 1] - x[i]).collect();
    let yd: Vec<f64> = (0..n - 1).map(|i| -(y[i + 1] - y[i])).collect();
    let b0 = &z.b[..n - 1];
    let b1 = &z.b[1..];
    let mut c: Vec<f64> = (0..n - 1)
        .map(|i| -(3.0 * yd[i] + (2.0 * b0[i] + b1[i]) * h[i]) / (h[i] * h[i]))
        .collect();
    let m = n - 2;
    c.push((3.0 * yd[m] + (b0[m] + 2.0 * b1[m]) * h[m]) / (h[m] * h[m]));
    let mut d: Vec<f64> = (0..n - 1)
        .map(|i| (2.0 * yd[i] / h[i] + b0[i] + b1[i]) / (h[i] * h[i]))
        .collect();
    d.push(d[m]);
    z.c = c;
    z.d = d;
}

/// `regularize.values(x, y, ties, missing(ties))` over `xy.coords`, as
/// spline and splinefun begin: the sorted points, NA pairs dropped, ties
/// collapsed.
pub(crate) fn points(
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (x, y) = match args.get("y") {
        // xy.coords: a matrix's first two columns are x and y.
        None | Some(Value::Null) if xv.dims().is_some_and(|(_, c)| c >= 2) => {
            let (r, _) = xv.dims().unwrap_or((0, 0));
            let all = coordinate(xv, ctx)?;
            (all[..r].to_vec(), all[r..2 * r].to_vec())
        }
        None | Some(Value::Null) => {
            let y = coordinate(xv, ctx)?;
            ((1..=y.len()).map(|i| i as f64).collect(), y)
        }
        Some(yv) => (coordinate(xv, ctx)?, coordinate(yv, ctx)?),
    };
    if x.len() != y.len() {
        return Err(KernelError::new("'x' and 'y' lengths differ"));
    }
    let ties = super::approx::ties_of(args.get("ties"), ctx)?;
    let r = regularize(x, y, &ties, !args.has("ties"), true, ctx)?;
    Ok((r.x, r.y))
}

/// Hyman's filter needs monotone data: `all(dy >= 0) || all(dy <= 0)`
/// on `dy <- diff(y)`, with R's NA rules for `all` and `if`.
pub(crate) fn check_monotone(y: &[f64]) -> Result<(), KernelError> {
    let dy: Vec<f64> = y.windows(2).map(|w| w[1] - w[0]).collect();
    // all() of comparisons: FALSE wins over NA, NA over TRUE.
    let all = |up: bool| -> Option<bool> {
        let mut na = false;
        for &d in &dy {
            if d.is_nan() {
                na = true;
            } else if (up && d < 0.0) || (!up && d > 0.0) {
                return Some(false);
            }
        }
        (!na).then_some(true)
    };
    match (all(true), all(false)) {
        (Some(true), _) | (_, Some(true)) => Ok(()),
        (Some(false), Some(false)) => Err(KernelError::new("'y' must be increasing or decreasing")),
        _ => Err(KernelError::new("missing value where TRUE/FALSE needed")),
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let method = method_code(args.get("method"))?;
    let (x, mut y) = points(args, ctx)?;
    let nx = x.len();
    if nx == 0 {
        return Err(KernelError::new("zero non-NA points"));
    }
    if method == 1 && y[0] != y[nx - 1] {
        ctx.warn("spline: first and last y values differ - using y[1] for both");
        y[nx - 1] = y[0];
    }
    if method == 4 {
        check_monotone(&y)?;
    }
    // xmin, xmax and n are R's lazy defaults, forced after x was
    // regularized: min and max of the kept x, three times their count.
    let xout = match args.get("xout") {
        Some(v) => coordinate(v, ctx)?,
        None => {
            let n = args.scalar_or("n", 3.0 * nx as f64)?;
            let xmin = args.scalar_or("xmin", x[0])?;
            let xmax = args.scalar_or("xmax", x[nx - 1])?;
            seq_length_out(xmin, xmax, n)?
        }
    };
    if xout.is_empty() {
        return Err(KernelError::new("'spline' requires n >= 1"));
    }
    let mut z = spline_coef(method.min(3), &x, &y);
    if method == 4 {
        hyman_filter(&x, &y, &mut z);
        spl_coef_conv(&x, &y, &mut z);
    }
    let yout = spline_eval(method.min(3), &xout, &x, &y, &z);
    Ok(Value::List(List {
        class: None,
        names: Some(vec!["x".into(), "y".into()]),
        items: vec![Value::Num(xout), Value::Num(yout)],
        row_names: None,
    }))
}

/// `seq.int(from, to, length.out = n)` as spline calls it.
fn seq_length_out(from: f64, to: f64, n: f64) -> Result<Vec<f64>, KernelError> {
    if n.is_nan() || n < 0.0 {
        return Err(KernelError::new(
            "'length.out' must be a non-negative number",
        ));
    }
    let n = n.ceil();
    if n == 0.0 {
        return Ok(Vec::new());
    }
    if n == 1.0 {
        if !from.is_finite() {
            return Err(KernelError::new("'from' must be a finite number"));
        }
        return Ok(vec![from]);
    }
    if n > 1e9 {
        return Err(KernelError::new("cannot allocate a vector that long"));
    }
    super::data::seq_spaced(from, to, n as usize)
}

fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y", "xout"] {
        if let Some(t) = args.ty(name) {
            if !t.is_numeric() && !matches!(t, Type::Null | Type::Any | Type::Str { .. }) {
                return Err(args.error(
                    name,
                    format!("spline() needs numbers for '{name}', not {}", t.describe()),
                ));
            }
        }
    }
    if let Some(m) = args.const_str("method") {
        if method_code(Some(&Value::Str(vec![m.to_string()]))).is_err() {
            return Err(args.error("method", "invalid interpolation method"));
        }
    }
    if let Some(Type::Str { value: Some(v), .. }) = args.ty("ties") {
        if v.len() != 1 || v[0] != "ordered" {
            fun::resolve_shape(args.ty("ties"), ctx).map_err(|m| args.error("ties", m))?;
        }
    }
    let len = args.ty("xout").and_then(Type::len);
    let num = || Type::Num { len, value: None };
    Ok(Type::record("list", vec![("x", num()), ("y", num())]))
}
