//! `supsmu(x, y, wt, span, periodic, bass, trace)`: stats::supsmu,
//! Friedman's super smoother, a port of supsmu in R's
//! src/library/stats/R/smspline.R over the Fortran subroutines `supsmu`
//! and `smooth` of src/library/stats/src/ppr.f (as R's supsmu calls them:
//! `ismethod = 0`, the running-lines smoother, never the spline).
//! `trace = TRUE` prints nothing: a step has no console.

// The Fortran indexes as written; it reads better against the original.
#![allow(clippy::needless_range_loop)]

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "supsmu",
    params: &[
        req("x"),
        req("y"),
        opt("wt"),
        opt("span"),
        opt("periodic"),
        opt("bass"),
        opt("trace"),
    ],
    random: false,
    shape,
    eval,
}];

fn err(m: impl Into<String>) -> KernelError {
    KernelError::new(m)
}

/// ppr.f's `block data bksupsmu`: the tweeter, midrange and woofer spans
/// and big, sml, eps are written as default (single precision) reals in
/// its DATA statement, so the doubles hold their float roundings.
const SPANS: [f64; 3] = [0.05_f32 as f64, 0.2_f32 as f64, 0.5_f32 as f64];
const BIG: f64 = 1.0e20_f32 as f64;
const SML: f64 = 1.0e-7_f32 as f64;
const EPS: f64 = 1.0e-3_f32 as f64;

/// ppr.f's `smooth`: running lines over a window of `2 * ibw + 1` points
/// (wrapping round for a periodic `x`), with their cross-validated
/// absolute residuals in `acvr` when `iper > 0`; the fits at tied x
/// replaced by their weighted mean. 1-based as the Fortran; callers make
/// sure no window reaches outside the data.
#[allow(clippy::too_many_arguments)]
fn smooth(
    x: &[f64],
    y: &[f64],
    w: &[f64],
    span: f64,
    iper: i32,
    vsmlsq: f64,
    smo: &mut [f64],
    acvr: &mut [f64],
) {
    let n = x.len();
    let ni = n as i64;
    let xa = |i: i64| x[(i - 1) as usize];
    let ya = |i: i64| y[(i - 1) as usize];
    let wa = |i: i64| w[(i - 1) as usize];
    let mut xm = 0.0;
    let mut ym = xm;
    let mut var = ym;
    let mut cvar = var;
    let mut fbw = cvar;
    let jper = iper.abs();
    let mut ibw = (0.5 * span * n as f64 + 0.5) as i64;
    if ibw < 2 {
        ibw = 2;
    }
    let mut it = 2 * ibw + 1;
    if it > ni {
        it = ni;
    }
    for i in 1..=it {
        let mut j = i;
        if jper == 2 {
            j = i - ibw - 1;
        }
        let xti = if j >= 1 {
            xa(j)
        } else {
            j += ni;
            xa(j) - 1.0
        };
        let wt = wa(j);
        let fbo = fbw;
        fbw += wt;
        if fbw > 0.0 {
            xm = (fbo * xm + wt * xti) / fbw;
        }
        if fbw > 0.0 {
            ym = (fbo * ym + wt * ya(j)) / fbw;
        }
        let mut tmp = 0.0;
        if fbo > 0.0 {
            tmp = fbw * wt * (xti - xm) / fbo;
        }
        var += tmp * (xti - xm);
        cvar += tmp * (ya(j) - ym);
    }

    for j in 1..=ni {
        let mut out = j - ibw - 1;
        let mut inn = j + ibw;
        if !(jper != 2 && (out < 1 || inn > ni)) {
            let (xto, xti);
            if out < 1 {
                out += ni;
                xto = xa(out) - 1.0;
                xti = xa(inn);
            } else if inn > ni {
                inn -= ni;
                xti = xa(inn) + 1.0;
                xto = xa(out);
            } else {
                xto = xa(out);
                xti = xa(inn);
            }
            let mut wt = wa(out);
            let mut fbo = fbw;
            fbw -= wt;
            let mut tmp = 0.0;
            if fbw > 0.0 {
                tmp = fbo * wt * (xto - xm) / fbw;
            }
            var -= tmp * (xto - xm);
            cvar -= tmp * (ya(out) - ym);
            if fbw > 0.0 {
                xm = (fbo * xm - wt * xto) / fbw;
            }
            if fbw > 0.0 {
                ym = (fbo * ym - wt * ya(out)) / fbw;
            }
            wt = wa(inn);
            fbo = fbw;
            fbw += wt;
            if fbw > 0.0 {
                xm = (fbo * xm + wt * xti) / fbw;
            }
            if fbw > 0.0 {
                ym = (fbo * ym + wt * ya(inn)) / fbw;
            }
            tmp = 0.0;
            if fbo > 0.0 {
                tmp = fbw * wt * (xti - xm) / fbo;
            }
            var += tmp * (xti - xm);
            cvar += tmp * (ya(inn) - ym);
        }
        // label 60
        let mut a = 0.0;
        if var > vsmlsq {
            a = cvar / var;
        }
        let ju = (j - 1) as usize;
        smo[ju] = a * (xa(j) - xm) + ym;
        if iper > 0 {
            let mut h = 0.0;
            if fbw > 0.0 {
                h = 1.0 / fbw;
            }
            if var > vsmlsq {
                let d = xa(j) - xm;
                h += d * d / var;
            }
            acvr[ju] = 0.0;
            let a = 1.0 - wa(j) * h;
            if a > 0.0 {
                acvr[ju] = (ya(j) - smo[ju]).abs() / a;
            } else if j > 1 {
                acvr[ju] = acvr[ju - 1];
            }
        }
    }

    // The fits at tied x values: their weighted mean.
    let mut j = 1;
    loop {
        let j0 = j;
        let mut sy = smo[j - 1] * w[j - 1];
        let mut fbw = w[j - 1];
        if j < n {
            while x[j] <= x[j - 1] {
                j += 1;
                sy += w[j - 1] * smo[j - 1];
                fbw += w[j - 1];
                if j >= n {
                    break;
                }
            }
        }
        if j > j0 {
            let mut a = 0.0;
            if fbw > 0.0 {
                a = sy / fbw;
            }
            for s in &mut smo[j0 - 1..j] {
                *s = a;
            }
        }
        j += 1;
        if j > n {
            break;
        }
    }
}

/// ppr.f's `supsmu` with `ismethod = 0`: a fixed span, or ("cv", span 0)
/// the three spans' cross-validated residuals smoothed, the best span
/// at each point (bent towards the woofer by `alpha`) smoothed and the
/// fits interpolated between spans, then smoothed once more.
fn supsmu_f(
    x: &[f64],
    y: &[f64],
    w: &[f64],
    iper: i32,
    span: f64,
    alpha: f64,
) -> Result<Vec<f64>, KernelError> {
    let n = x.len();
    let mut smo = vec![0.0; n];
    if x[n - 1] <= x[0] {
        // Every x alike: the weighted mean of y.
        let mut sy = 0.0;
        let mut sw = sy;
        for j in 0..n {
            sy += w[j] * y[j];
            sw += w[j];
        }
        let mut a = 0.0;
        if sw > 0.0 {
            a = sy / sw;
        }
        smo.fill(a);
        return Ok(smo);
    }
    // scale = IQR(x), widened until positive. With fewer than four points
    // i is 0 and the Fortran reads x(0), the word before R's copy of x
    // (its truelength, 0): 0.0 here; where no x is then positive R loops
    // for ever, and flowcast refuses.
    let xa = |i: usize| if i == 0 { 0.0 } else { x[i - 1] };
    let mut i = n / 4;
    let mut j = 3 * i;
    let mut scale = xa(j) - xa(i);
    // Fortran's `if (scale.gt.0d0) go to 50`: NaN keeps looping too.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    while !(scale > 0.0) {
        if j >= n && i <= 1 {
            return Err(err(
                "flowcast's supsmu() cannot smooth fewer than four points none of whose x is positive: R's supsmu loops for ever there",
            ));
        }
        if j < n {
            j += 1;
        }
        if i > 1 {
            i -= 1;
        }
        scale = xa(j) - xa(i);
    }
    let vsmlsq = (EPS * scale) * (EPS * scale);
    let mut jper = iper;
    if iper == 2 && (x[0] < 0.0 || x[n - 1] > 1.0) {
        jper = 1;
    }
    if !(1..=2).contains(&jper) {
        jper = 1;
    }
    let ibw_of = |span: f64| ((0.5 * span * n as f64 + 0.5) as i64).max(2);
    // A periodic window wider than the data wraps twice, and the Fortran
    // then reads past its arrays.
    let wide = |span: f64| jper == 2 && 2 * ibw_of(span) >= n as i64;
    if span > 0.0 {
        if wide(span) {
            return Err(periodic_too_wide());
        }
        let mut h = vec![0.0; n];
        smooth(x, y, w, span, jper, vsmlsq, &mut smo, &mut h);
        return Ok(smo);
    }
    if SPANS.iter().any(|&s| wide(s)) {
        return Err(periodic_too_wide());
    }
    let mut sc = vec![vec![0.0; n]; 7];
    let mut h = vec![0.0; n];
    for i in 0..3 {
        let (mut fit, mut acvr) = (std::mem::take(&mut sc[2 * i]), std::mem::take(&mut sc[6]));
        smooth(x, y, w, SPANS[i], jper, vsmlsq, &mut fit, &mut acvr);
        let mut res = std::mem::take(&mut sc[2 * i + 1]);
        smooth(x, &acvr, w, SPANS[1], -jper, vsmlsq, &mut res, &mut h);
        sc[2 * i] = fit;
        sc[6] = acvr;
        sc[2 * i + 1] = res;
    }
    for j in 0..n {
        let mut resmin = BIG;
        for i in 0..3 {
            if sc[2 * i + 1][j] < resmin {
                resmin = sc[2 * i + 1][j];
                sc[6][j] = SPANS[i];
            }
        }
        if alpha > 0.0 && alpha <= 10.0 && resmin < sc[5][j] && resmin > 0.0 {
            sc[6][j] += (SPANS[2] - sc[6][j]) * SML.max(resmin / sc[5][j]).powf(10.0 - alpha);
        }
    }
    let spans_at = sc[6].clone();
    smooth(x, &spans_at, w, SPANS[1], -jper, vsmlsq, &mut sc[1], &mut h);
    for j in 0..n {
        // Two ifs as the Fortran has them (clamp would differ on NaN).
        #[allow(clippy::manual_clamp)]
        if sc[1][j] <= SPANS[0] {
            sc[1][j] = SPANS[0];
        }
        if sc[1][j] >= SPANS[2] {
            sc[1][j] = SPANS[2];
        }
        let mut f = sc[1][j] - SPANS[1];
        if f >= 0.0 {
            f /= SPANS[2] - SPANS[1];
            sc[3][j] = (1.0 - f) * sc[2][j] + f * sc[4][j];
        } else {
            f = -f / (SPANS[1] - SPANS[0]);
            sc[3][j] = (1.0 - f) * sc[2][j] + f * sc[0][j];
        }
    }
    let blended = sc[3].clone();
    smooth(x, &blended, w, SPANS[0], -jper, vsmlsq, &mut smo, &mut h);
    Ok(smo)
}

fn periodic_too_wide() -> KernelError {
    err("flowcast's supsmu() refuses a periodic smooth whose window (2 * round(span * n / 2) points, at least 5) is wider than the data: R's Fortran reads past its arrays there")
}

/// A numeric argument; logicals only where R's code takes them.
fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        Value::Null => Ok(Vec::new()),
        other => other.as_f64_slice().map(|c| c.into_owned()).ok_or_else(|| {
            err(format!(
                "flowcast's supsmu() needs numbers for '{what}', not {}",
                other.type_name()
            ))
        }),
    }
}

/// R's `if (cond)` of a logical argument.
fn flag(v: &Value) -> Result<bool, KernelError> {
    match bare(v) {
        Value::Bool(b) if !b.is_empty() => {
            b[0].ok_or_else(|| err("missing value where TRUE/FALSE needed"))
        }
        Value::Str(_) => Err(err("argument is not interpretable as logical")),
        other => match other.as_f64_slice().as_deref().and_then(|s| s.first()) {
            Some(x) if x.is_nan() => Err(err("missing value where TRUE/FALSE needed")),
            Some(&x) => Ok(x != 0.0),
            None => Err(err("argument is of length zero")),
        },
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let span = match args.get("span").map(bare) {
        None => 0.0,
        Some(Value::Str(s)) if s.len() == 1 && s[0] == "cv" => 0.0,
        Some(Value::Str(_)) => return Err(err("'span' must be between 0 and 1.")),
        Some(v) => {
            let s = numbers(v, "span")?;
            let Some(&s) = s.first() else {
                return Err(err("argument is of length zero"));
            };
            if s.is_nan() {
                return Err(err("missing value where TRUE/FALSE needed"));
            }
            if !(0.0..=1.0).contains(&s) {
                return Err(err("'span' must be between 0 and 1."));
            }
            s
        }
    };
    let yv = args
        .get("y")
        .ok_or_else(|| err("argument \"y\" is missing, with no default"))?;
    let y = match bare(yv) {
        Value::Num(v) => v.clone(),
        Value::Mat(m) => m.as_slice().to_vec(),
        _ => Vec::new(),
    };
    let n = y.len();
    if n == 0 {
        return Err(err("'y' must be numeric vector"));
    }
    let xv = args
        .get("x")
        .ok_or_else(|| err("argument \"x\" is missing, with no default"))?;
    let x = numbers(xv, "x")?;
    if x.len() != n {
        return Err(err("number of observations in 'x' and 'y' must match."));
    }
    let wt = match args.get("wt") {
        Some(v) => numbers(v, "wt")?,
        None => vec![1.0; n],
    };
    if wt.len() != n {
        return Err(err("number of weights must match number of observations."));
    }
    let periodic = match args.get("periodic") {
        Some(v) => flag(v)?,
        None => false,
    };
    let iper = if periodic {
        if x.iter().any(|v| v.is_nan()) {
            return Err(err("missing value where TRUE/FALSE needed"));
        }
        let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if lo < 0.0 || hi > 1.0 {
            return Err(err("'x' must be between 0 and 1 for periodic smooth"));
        }
        2
    } else {
        1
    };
    // The finite observations, ordered by x then y (stable).
    let okay: Vec<usize> = (0..n)
        .filter(|&i| (x[i] + y[i] + wt[i]).is_finite())
        .collect();
    let mut ord = okay.clone();
    ord.sort_by(|&a, &b| {
        x[a].partial_cmp(&x[b])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(y[a].partial_cmp(&y[b]).unwrap_or(std::cmp::Ordering::Equal))
    });
    let leno = ord.len();
    if leno == 0 {
        return Err(err("no finite observations"));
    }
    let diff = n - leno;
    if diff == 1 {
        ctx.warn("1 observation with NA, NaN or Inf deleted");
    } else if diff > 1 {
        ctx.warn(format!(
            "{diff} observations with NAs, NaNs and/or Infs deleted"
        ));
    }
    if let Some(t) = args.get("trace") {
        // as.integer(trace): only its being a number matters here.
        numbers(t, "trace")?;
    }
    let alpha = match args.get("bass") {
        Some(v) => numbers(v, "bass")?.first().copied().unwrap_or(f64::NAN),
        None => 0.0,
    };
    let xo: Vec<f64> = ord.iter().map(|&i| x[i]).collect();
    let yo: Vec<f64> = ord.iter().map(|&i| y[i]).collect();
    let wo: Vec<f64> = ord.iter().map(|&i| wt[i]).collect();
    let smo = supsmu_f(&xo, &yo, &wo, iper, span, alpha)?;
    // duplicated(xo): the first of equal x values kept.
    let mut xs = Vec::with_capacity(leno);
    let mut ys = Vec::with_capacity(leno);
    for k in 0..leno {
        if k == 0 || xo[k] != xo[k - 1] {
            xs.push(xo[k]);
            ys.push(smo[k]);
        }
    }
    Ok(Value::List(List::named(vec![
        ("x", Value::Num(xs)),
        ("y", Value::Num(ys)),
    ])))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "wt", "bass"] {
        if let Some(t @ (Type::Str { .. } | Type::Record { .. } | Type::Formula { .. })) =
            args.ty(name)
        {
            return Err(args.error(
                name,
                format!(
                    "flowcast's supsmu() needs numbers for '{name}', not {}",
                    t.describe()
                ),
            ));
        }
    }
    Ok(Type::record(
        "list",
        vec![("x", Type::num_unknown()), ("y", Type::num_unknown())],
    ))
}
