//! `nlm`: R's Newton-type minimiser, the `nlm` of stats/R/nlm.R over the
//! `nlm` driver of stats/src/optimize.c and Dennis and Schnabel's `optif9`
//! of src/appl/uncmin.c, kept in the original's shape (the routines are
//! functions of the same names, their loops the same loops) so that the
//! points where `f` is evaluated, the iterations and the result are R's.
//!
//! R's nlm always runs `optif9` with method 1 (line search); with no
//! analytic Hessian it also sets `iexp = 1`, so the Hessian is the factored
//! secant (BFGS) update `secfac`, never `secunf` (method 3) nor the finite
//! differences of `sndofd`; and optdrv skips the perturbed Cholesky
//! decomposition (`chlhsn`, `choldc`) when iexp is set and the method is
//! not 3, so the factor is only ever updated. Those branches, the dogleg
//! and hook steps of methods 2 and 3, and the checks of analytic
//! derivatives are unreachable from nlm and are left out.
//!
//! R takes an analytic gradient (and Hessian) from the attributes
//! "gradient" and "hessian" of f's value. flowcast's values carry no such
//! attributes (only names and dimnames), so f's value is always read as a
//! plain number and the gradient is always R's finite differences: what R
//! computes for an f that sets no attribute. `print.level > 0` only prints
//! the iterations, which a step has nowhere to show; it is refused.

// The routines index as the C does, so they can be read against it.
#![allow(clippy::needless_range_loop, clippy::too_many_arguments)]

use super::fun::{resolve, resolve_shape, Fun};
use super::linalg::blas::{ddot, dnrm2};
use super::names;
use super::value::{is_na, List};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "nlm",
    params: &[
        req("f"),
        req("p"),
        DOTS,
        opt("hessian"),
        opt("typsize"),
        opt("fscale"),
        opt("print.level"),
        opt("ndigit"),
        opt("gradtol"),
        opt("stepmax"),
        opt("steptol"),
        opt("iterlim"),
        opt("check.analyticals"),
    ],
    random: false,
    shape,
    eval,
}];

/// optimize.c's `FT_SIZE`: how many evaluated points `fcn` remembers.
const FT_SIZE: usize = 5;

/// optimize.c's `function_info`: f, the extra arguments it is called
/// with, and the table of recent values. The table changes no value (f is
/// a function of its argument) but R evaluates f only at points it does
/// not hold, so keeping it keeps the number of calls, and of warnings, R's.
struct State<'a, 'f> {
    fcall: Fun<'f>,
    dots: &'a [(Option<&'a str>, &'a Value)],
    table: Vec<Option<(Vec<f64>, f64)>>,
    /// `FT_last`: the newest entry, -1 before any.
    last: i64,
}

impl State<'_, '_> {
    /// optimize.c's `FT_init`.
    fn ft_init(&mut self) {
        self.table = vec![None; FT_SIZE];
        self.last = -1;
    }

    /// optimize.c's `FT_store`.
    fn ft_store(&mut self, f: f64, x: &[f64]) {
        self.last += 1;
        let ind = self.last.rem_euclid(FT_SIZE as i64) as usize;
        self.table[ind] = Some((x.to_vec(), f));
    }

    /// optimize.c's `FT_lookup`: the value stored for `x`, newest first.
    fn ft_lookup(&self, x: &[f64]) -> Option<f64> {
        for i in 0..FT_SIZE as i64 {
            let ind = (self.last - i).rem_euclid(FT_SIZE as i64) as usize;
            if let Some((ftx, f)) = &self.table[ind] {
                if ftx.iter().zip(x).all(|(a, b)| a == b) {
                    return Some(*f);
                }
            }
        }
        None
    }

    /// `f(x, ...)` itself.
    fn call(&self, x: &[f64], ctx: &mut Ctx) -> Result<Value, KernelError> {
        self.fcall.call_on(&Value::Num(x.to_vec()), self.dots, ctx)
    }

    /// optimize.c's `fcn`: f at `x`, from the table when it holds `x`;
    /// a non-finite value becomes `DBL_MAX`, with R's warning.
    fn fcn(&mut self, x: &[f64], ctx: &mut Ctx) -> Result<f64, KernelError> {
        if let Some(f) = self.ft_lookup(x) {
            return Ok(f);
        }
        if ctx.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(KernelError::new("cancelled"));
        }
        if x.iter().any(|v| !v.is_finite()) {
            return Err(KernelError::new("non-finite value supplied by 'nlm'"));
        }
        let s = self.call(x, ctx)?;
        // R takes a double or an integer of length one; a logical, a
        // string or a list is "invalid".
        let value = match names::bare(&s) {
            Value::Num(v) if v.len() == 1 => v[0],
            Value::Mat(m) if m.len() == 1 => m[0],
            _ => {
                return Err(KernelError::new(
                    "invalid function value in 'nlm' optimizer",
                ))
            }
        };
        let f = if value.is_finite() {
            value
        } else {
            ctx.warn("NA/Inf replaced by maximum positive value");
            f64::MAX
        };
        self.ft_store(f, x);
        Ok(f)
    }
}

/// R's `fdhess` (uncmin.c): the finite-difference Hessian of Dennis and
/// Schnabel's A5.6.2, into the diagonal and upper triangle of `h` (n by
/// n, column-major).
fn fdhess(
    n: usize,
    x: &mut [f64],
    fval: f64,
    state: &mut State,
    h: &mut [f64],
    ndigit: i64,
    typx: &[f64],
    ctx: &mut Ctx,
) -> Result<(), KernelError> {
    let mut step = vec![0.0; n];
    let mut f = vec![0.0; n];
    let eta = 10f64.powf(-(ndigit as f64) / 3.0);
    for i in 0..n {
        // fmax2, not of |x|: as the C has it.
        step[i] = eta * fmax2(x[i], typx[i]);
        if typx[i] < 0.0 {
            step[i] = -step[i];
        }
        let tempi = x[i];
        x[i] += step[i];
        step[i] = x[i] - tempi;
        f[i] = state.fcn(x, ctx)?;
        x[i] = tempi;
    }
    for i in 0..n {
        let tempi = x[i];
        x[i] += step[i] * 2.0;
        let fii = state.fcn(x, ctx)?;
        h[i + i * n] = (fval - f[i] + (fii - f[i])) / (step[i] * step[i]);
        x[i] = tempi + step[i];
        for j in i + 1..n {
            let tempj = x[j];
            x[j] += step[j];
            let fij = state.fcn(x, ctx)?;
            h[i + j * n] = (fval - f[i] + (fij - f[j])) / (step[i] * step[j]);
            x[j] = tempj;
        }
        x[i] = tempi;
    }
    Ok(())
}

/// Rmath's `fmax2`: NaN if either is.
fn fmax2(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x < y {
        y
    } else {
        x
    }
}

/// R's `mvmltl`: y = L x, L lower triangular in `a`.
fn mvmltl(nr: usize, n: usize, a: &[f64], x: &[f64], y: &mut [f64]) {
    for i in 0..n {
        let mut sum = 0.0;
        for j in 0..=i {
            sum += a[i + j * nr] * x[j];
        }
        y[i] = sum;
    }
}

/// R's `mvmltu`: y = L' x, L lower triangular in `a` (a `ddot` down each
/// column from the diagonal).
fn mvmltu(nr: usize, n: usize, a: &[f64], x: &[f64], y: &mut [f64]) {
    for i in 0..n {
        let col = &a[i + i * nr..i * nr + n];
        y[i] = ddot(col, &x[i..n]);
    }
}

/// LINPACK's `dtrsl` for a lower triangular `t`: `job` 0 solves T x = b,
/// 10 solves T' x = b, in place. A zero on the diagonal leaves `b` as it
/// is and returns its (1-based) index, as dtrsl does.
fn dtrsl(t: &[f64], ldt: usize, n: usize, b: &mut [f64], job: i32) -> usize {
    for info in 0..n {
        if t[info + info * ldt] == 0.0 {
            return info + 1;
        }
    }
    if n == 0 {
        return 0;
    }
    if job == 0 {
        b[0] /= t[0];
        for j in 1..n {
            let temp = -b[j - 1];
            // daxpy, which does nothing for a zero multiplier.
            if temp != 0.0 {
                for k in j..n {
                    b[k] += temp * t[k + (j - 1) * ldt];
                }
            }
            b[j] /= t[j + j * ldt];
        }
    } else {
        b[n - 1] /= t[(n - 1) + (n - 1) * ldt];
        for jj in 2..=n {
            let j = n - jj;
            let s = ddot(&t[j + 1 + j * ldt..j * ldt + n], &b[j + 1..n]);
            b[j] -= s;
            b[j] /= t[j + j * ldt];
        }
    }
    0
}

/// R's `lltslv`: solve (L L') x = b, L in the lower triangle of `a`.
fn lltslv(nr: usize, n: usize, a: &[f64], x: &mut [f64], b: &[f64]) {
    x[..n].copy_from_slice(&b[..n]);
    dtrsl(a, nr, n, x, 0);
    dtrsl(a, nr, n, x, 10);
}

/// R's `qraux1`: swap rows i and i+1 of the upper Hessenberg `r`, from
/// column i on.
fn qraux1(nr: usize, n: usize, r: &mut [f64], i: usize) {
    for c in i..n {
        r.swap(i + c * nr, i + 1 + c * nr);
    }
}

/// R's `qraux2`: rotate rows i and i+1 of `r` by the Jacobi rotation of
/// (a, b), from column i on.
fn qraux2(nr: usize, n: usize, r: &mut [f64], i: usize, a: f64, b: f64) {
    let den = a.hypot(b);
    let c = a / den;
    let s = b / den;
    for col in i..n {
        let y = r[i + col * nr];
        let z = r[i + 1 + col * nr];
        r[i + col * nr] = c * y - s * z;
        r[i + 1 + col * nr] = s * y + c * z;
    }
}

/// R's `qrupdt`: the upper triangular R* with Q* R* = R + u v'.
fn qrupdt(nr: usize, n: usize, a: &mut [f64], u: &mut [f64], v: &[f64]) {
    let mut k = n - 1;
    while k > 0 && u[k] == 0.0 {
        k -= 1;
    }
    if k > 0 {
        let mut ii = k;
        while ii > 0 {
            let i = ii - 1;
            if u[i] == 0.0 {
                qraux1(nr, n, a, i);
                u[i] = u[ii];
            } else {
                qraux2(nr, n, a, i, u[i], -u[ii]);
                u[i] = u[i].hypot(u[ii]);
            }
            ii = i;
        }
    }
    for j in 0..n {
        a[j * nr] += u[0] * v[j];
    }
    for i in 0..k {
        if a[i + i * nr] == 0.0 {
            qraux1(nr, n, a, i);
        } else {
            let t1 = a[i + i * nr];
            let t2 = -a[i + 1 + i * nr];
            qraux2(nr, n, a, i, t1, t2);
        }
    }
}

/// What `lnsrch` hands back: `iretcd` (0 a point found, 1 none far
/// enough from x) and `mxtake` (a step of the greatest length taken).
struct Step {
    iretcd: i32,
    mxtake: bool,
}

/// R's `lnsrch`: the next iterate along the Newton step `p` by
/// backtracking, a quadratic fit first and cubic ones after (with BDR's
/// tenfold cut past a non-finite value).
fn lnsrch(
    n: usize,
    x: &[f64],
    f: f64,
    g: &[f64],
    p: &mut [f64],
    xpls: &mut [f64],
    fpls: &mut f64,
    state: &mut State,
    stepmx: f64,
    steptl: f64,
    sx: &[f64],
    ctx: &mut Ctx,
) -> Result<Step, KernelError> {
    let mut firstback = true;
    let mut pfpls = 0.0;
    let mut plmbda = 0.0;
    let mut temp1 = 0.0;
    for i in 0..n {
        temp1 += sx[i] * sx[i] * p[i] * p[i];
    }
    let mut sln = temp1.sqrt();
    if sln > stepmx {
        let scl = stepmx / sln;
        for v in p.iter_mut() {
            *v *= scl;
        }
        sln = stepmx;
    }
    let slp = ddot(g, p);
    let mut rln: f64 = 0.0;
    for i in 0..n {
        let temp1 = p[i].abs() / fmax2(x[i].abs(), 1.0 / sx[i]);
        if rln < temp1 {
            rln = temp1;
        }
    }
    let rmnlmb = steptl / rln;
    let mut lambda = 1.0;
    let mut out = Step {
        iretcd: 2,
        mxtake: false,
    };
    loop {
        for i in 0..n {
            xpls[i] = x[i] + lambda * p[i];
        }
        *fpls = state.fcn(xpls, ctx)?;
        if *fpls <= f + slp * 1e-4 * lambda {
            out.iretcd = 0;
            if lambda == 1.0 && sln > stepmx * 0.99 {
                out.mxtake = true;
            }
            return Ok(out);
        }
        if lambda < rmnlmb {
            out.iretcd = 1;
            return Ok(out);
        }
        if *fpls >= f64::MAX {
            lambda *= 0.1;
            firstback = true;
        } else {
            let tlmbda = if firstback {
                // The first backtrack: a quadratic fit.
                firstback = false;
                -lambda * slp / ((*fpls - f - slp) * 2.0)
            } else {
                // All later ones: a cubic fit.
                let t1 = *fpls - f - lambda * slp;
                let t2 = pfpls - f - plmbda * slp;
                let t3 = 1.0 / (lambda - plmbda);
                let a3 = 3.0 * t3 * (t1 / (lambda * lambda) - t2 / (plmbda * plmbda));
                let b = t3 * (t2 * lambda / (plmbda * plmbda) - t1 * plmbda / (lambda * lambda));
                let disc = b * b - a3 * slp;
                let t = if disc > b * b {
                    // Only one positive critical point, a minimum.
                    (-b + if a3 < 0.0 { -disc.sqrt() } else { disc.sqrt() }) / a3
                } else {
                    // Both positive: the first is the minimum.
                    (-b + if a3 < 0.0 { disc.sqrt() } else { -disc.sqrt() }) / a3
                };
                if t > lambda * 0.5 {
                    lambda * 0.5
                } else {
                    t
                }
            };
            plmbda = lambda;
            pfpls = *fpls;
            if tlmbda < lambda * 0.1 {
                lambda *= 0.1;
            } else {
                lambda = tlmbda;
            }
        }
    }
}

/// R's `secfac`: the factored BFGS update of the Cholesky factor in `a`
/// (lower triangle), skipped where the step tells too little.
fn secfac(
    nr: usize,
    n: usize,
    x: &[f64],
    g: &[f64],
    a: &mut [f64],
    xpls: &[f64],
    gpls: &[f64],
    epsm: f64,
    itncnt: i64,
    rnf: f64,
    iagflg: i32,
    noupdt: &mut bool,
) {
    let mut s = vec![0.0; n];
    let mut y = vec![0.0; n];
    let mut u = vec![0.0; n];
    let mut w = vec![0.0; n];
    *noupdt = itncnt == 1;
    for i in 0..n {
        s[i] = xpls[i] - x[i];
        y[i] = gpls[i] - g[i];
    }
    let den1 = ddot(&s, &y);
    let snorm2 = dnrm2(&s);
    let ynrm2 = dnrm2(&y);
    if den1 < epsm.sqrt() * snorm2 * ynrm2 {
        return;
    }
    mvmltu(nr, n, a, &s, &mut u);
    let den2 = ddot(&u, &u);
    let mut alp = (den1 / den2).sqrt();
    if *noupdt {
        // The C also sets den2 = den1 here, and reads it no more.
        for j in 0..n {
            u[j] *= alp;
            for i in j..n {
                a[i + j * nr] *= alp;
            }
        }
        *noupdt = false;
        alp = 1.0;
    }
    mvmltl(nr, n, a, &u, &mut w);
    let reltol = if iagflg == 0 { rnf.sqrt() } else { rnf };
    let mut skpupd = true;
    for i in 0..n {
        skpupd = (y[i] - w[i]).abs() < reltol * fmax2(g[i].abs(), gpls[i].abs());
        if !skpupd {
            break;
        }
    }
    if skpupd {
        return;
    }
    for i in 0..n {
        w[i] = y[i] - alp * w[i];
    }
    alp /= den1;
    for i in 0..n {
        u[i] *= alp;
    }
    for i in 1..n {
        for j in 0..i {
            a[j + i * nr] = a[i + j * nr];
            a[i + j * nr] = 0.0;
        }
    }
    qrupdt(nr, n, a, &mut u, &w);
    for i in 1..n {
        for j in 0..i {
            a[i + j * nr] = a[j + i * nr];
        }
    }
}

/// R's `hsnint` for methods 1 and 2: the first Hessian factor, diag(sx).
fn hsnint(nr: usize, n: usize, a: &mut [f64], sx: &[f64]) {
    for i in 0..n {
        a[i + i * nr] = sx[i];
        for j in 0..i {
            a[i + j * nr] = 0.0;
        }
    }
}

/// R's `fstofd` for a gradient (m = 1, icase 1): forward differences of
/// step sqrt(rnoise) * max(|x_j|, 1/sx_j).
fn fstofd(
    n: usize,
    xpls: &mut [f64],
    state: &mut State,
    fpls: f64,
    a: &mut [f64],
    sx: &[f64],
    rnoise: f64,
    ctx: &mut Ctx,
) -> Result<(), KernelError> {
    for j in 0..n {
        let temp1 = xpls[j].abs();
        let temp2 = 1.0 / sx[j];
        let stepsz = rnoise.sqrt() * fmax2(temp1, temp2);
        let xtmpj = xpls[j];
        xpls[j] = xtmpj + stepsz;
        let fhat = state.fcn(xpls, ctx)?;
        xpls[j] = xtmpj;
        a[j] = (fhat - fpls) / stepsz;
    }
    Ok(())
}

/// R's `fstocd`: central differences of step rnoise^(1/3) * max(|x_i|,
/// 1/sx_i), which optdrv turns to when a forward-difference gradient
/// leads the line search nowhere.
fn fstocd(
    n: usize,
    x: &mut [f64],
    state: &mut State,
    sx: &[f64],
    rnoise: f64,
    g: &mut [f64],
    ctx: &mut Ctx,
) -> Result<(), KernelError> {
    for i in 0..n {
        let xtempi = x[i];
        let temp1 = xtempi.abs();
        let temp2 = 1.0 / sx[i];
        let stepi = rnoise.powf(1.0 / 3.0) * fmax2(temp1, temp2);
        x[i] = xtempi + stepi;
        let fplus = state.fcn(x, ctx)?;
        x[i] = xtempi - stepi;
        let fminus = state.fcn(x, ctx)?;
        x[i] = xtempi;
        g[i] = (fplus - fminus) / (stepi * 2.0);
    }
    Ok(())
}

/// R's `opt_stop`: the termination code (0 to go on; 1 gradient, 2 step,
/// 3 no lower point, 4 iteration limit, 5 five steps of the greatest
/// length).
fn opt_stop(
    n: usize,
    xpls: &[f64],
    fpls: f64,
    gpls: &[f64],
    x: &[f64],
    itncnt: i64,
    icscmx: &mut i32,
    gradtl: f64,
    steptl: f64,
    sx: &[f64],
    fscale: f64,
    itnlim: i64,
    iretcd: i32,
    mxtake: bool,
) -> i32 {
    if iretcd == 1 {
        return 3;
    }
    let d = fmax2(fpls.abs(), fscale);
    let mut rgx: f64 = 0.0;
    for i in 0..n {
        let relgrd = gpls[i].abs() * fmax2(xpls[i].abs(), 1.0 / sx[i]) / d;
        if rgx < relgrd {
            rgx = relgrd;
        }
    }
    let mut jtrmcd = 1;
    if rgx > gradtl {
        if itncnt == 0 {
            return 0;
        }
        let mut rsx: f64 = 0.0;
        for i in 0..n {
            let relstp = (xpls[i] - x[i]).abs() / fmax2(xpls[i].abs(), 1.0 / sx[i]);
            if rsx < relstp {
                rsx = relstp;
            }
        }
        jtrmcd = 2;
        if rsx > steptl {
            jtrmcd = 4;
            if itncnt < itnlim {
                if !mxtake {
                    *icscmx = 0;
                    return 0;
                } else {
                    *icscmx += 1;
                    if *icscmx < 5 {
                        return 0;
                    }
                    jtrmcd = 5;
                }
            }
        }
    }
    jtrmcd
}

/// The settings `optchk` checks and defaults, as optdrv passes them.
struct Settings {
    fscale: f64,
    gradtl: f64,
    itnlim: i64,
    ndigit: i64,
    stepmx: f64,
    steptl: f64,
    /// `msg`: nlm's bits (1: a one-parameter problem is fine).
    msg: i64,
}

/// R's `optchk`: the scale matrix `sx` from `typsiz` (made positive in
/// place, as R's is), the defaults of the rest, and the error code
/// (`msg` < 0) of what cannot be used.
fn optchk(n: usize, x: &[f64], typsiz: &mut [f64], sx: &mut [f64], s: &mut Settings, epsm: f64) {
    if n == 0 {
        s.msg = -1;
        return;
    }
    if n == 1 && s.msg % 2 == 0 {
        s.msg = -2;
        return;
    }
    for i in 0..n {
        if typsiz[i] == 0.0 {
            typsiz[i] = 1.0;
        } else if typsiz[i] < 0.0 {
            typsiz[i] = -typsiz[i];
        }
        sx[i] = 1.0 / typsiz[i];
    }
    if s.stepmx <= 0.0 {
        let mut stpsiz = 0.0;
        for i in 0..n {
            stpsiz += x[i] * x[i] * sx[i] * sx[i];
        }
        s.stepmx = 1000.0 * fmax2(stpsiz.sqrt(), 1.0);
    }
    if s.fscale == 0.0 {
        s.fscale = 1.0;
    } else if s.fscale < 0.0 {
        s.fscale = -s.fscale;
    }
    if s.gradtl < 0.0 {
        s.msg = -3;
        return;
    }
    if s.itnlim <= 0 {
        s.msg = -4;
        return;
    }
    if s.ndigit == 0 {
        s.msg = -5;
    } else if s.ndigit < 0 {
        s.ndigit = (-epsm.log10()) as i64;
    }
}

/// What optif9 hands back to nlm.
struct Optimum {
    xpls: Vec<f64>,
    fpls: f64,
    gpls: Vec<f64>,
    itrmcd: i32,
    itncnt: i64,
    /// `msg` after the run: negative for optchk's refusals.
    msg: i64,
}

/// R's `optdrv_end`: back to the previous iterate when the last step
/// found no lower point.
fn optdrv_end(
    xpls: &mut [f64],
    x: &[f64],
    gpls: &mut [f64],
    g: &[f64],
    fpls: &mut f64,
    f: f64,
    itrmcd: i32,
) {
    if itrmcd == 3 {
        *fpls = f;
        xpls.copy_from_slice(x);
        gpls.copy_from_slice(g);
    }
}

/// R's `optdrv` (through `optif9`) for nlm's method 1 with no analytic
/// derivatives: forward-difference gradients (central once they fail),
/// the secant Hessian factor, and a line search along each Newton step.
fn optif9(
    x: &mut [f64],
    state: &mut State,
    typsiz: &mut [f64],
    mut s: Settings,
    ctx: &mut Ctx,
) -> Result<Optimum, KernelError> {
    let n = x.len();
    let nr = n;
    let epsm = f64::EPSILON;
    let mut itncnt: i64 = 0;
    let mut sx = vec![0.0; n];
    optchk(n, x, typsiz, &mut sx, &mut s, epsm);
    let mut xpls = vec![0.0; n];
    let mut gpls = vec![0.0; n];
    let mut fpls = 0.0;
    if s.msg < 0 {
        return Ok(Optimum {
            xpls,
            fpls,
            gpls,
            itrmcd: 0,
            itncnt,
            msg: s.msg,
        });
    }
    let mut p = vec![0.0; n];
    let mut g = vec![0.0; n];
    let mut a = vec![0.0; n * n];
    let mut wrk1 = vec![0.0; n];
    let mut iagflg: i32 = 0;
    let mut icscmx = 0;
    let mut noupdt = false;
    let rnf = fmax2(10f64.powf(-(s.ndigit as f64)), epsm);

    let mut f = state.fcn(x, ctx)?;
    fstofd(n, x, state, f, &mut g, &sx, rnf, ctx)?;
    let mut itrmcd = opt_stop(
        n,
        x,
        f,
        &g,
        &wrk1,
        itncnt,
        &mut icscmx,
        s.gradtl,
        s.steptl,
        &sx,
        s.fscale,
        s.itnlim,
        -1,
        false,
    );
    if itrmcd != 0 {
        optdrv_end(&mut xpls, x, &mut gpls, &g, &mut fpls, f, 3);
        return Ok(Optimum {
            xpls,
            fpls,
            gpls,
            itrmcd,
            itncnt,
            msg: 0,
        });
    }
    // iexp = 1: the Hessian comes from secant updates, from diag(sx).
    hsnint(nr, n, &mut a, &sx);

    loop {
        if ctx.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(KernelError::new("cancelled"));
        }
        itncnt += 1;
        // iexp and method 1: the factor is updated, never decomposed
        // (chlhsn is method 3's), so straight to L105.
        let step = loop {
            for i in 0..n {
                wrk1[i] = -g[i];
            }
            lltslv(nr, n, &a, &mut p, &wrk1);
            let step = lnsrch(
                n, x, f, &g, &mut p, &mut xpls, &mut fpls, state, s.stepmx, s.steptl, &sx, ctx,
            )?;
            // No satisfactory step with a forward-difference gradient:
            // again from the central-difference one.
            if step.iretcd == 1 && iagflg == 0 {
                iagflg = -1;
                fstocd(n, x, state, &sx, rnf, &mut g, ctx)?;
                continue;
            }
            break step;
        };
        for i in 0..n {
            p[i] = xpls[i] - x[i];
        }
        if iagflg == -1 {
            fstocd(n, &mut xpls, state, &sx, rnf, &mut gpls, ctx)?;
        } else {
            fstofd(n, &mut xpls, state, fpls, &mut gpls, &sx, rnf, ctx)?;
        }
        itrmcd = opt_stop(
            n,
            &xpls,
            fpls,
            &gpls,
            x,
            itncnt,
            &mut icscmx,
            s.gradtl,
            s.steptl,
            &sx,
            s.fscale,
            s.itnlim,
            step.iretcd,
            step.mxtake,
        );
        if itrmcd != 0 {
            break;
        }
        secfac(
            nr,
            n,
            x,
            &g,
            &mut a,
            &xpls,
            &gpls,
            epsm,
            itncnt,
            rnf,
            iagflg,
            &mut noupdt,
        );
        f = fpls;
        x.copy_from_slice(&xpls);
        g.copy_from_slice(&gpls);
    }
    optdrv_end(&mut xpls, x, &mut gpls, &g, &mut fpls, f, itrmcd);
    Ok(Optimum {
        xpls,
        fpls,
        gpls,
        itrmcd,
        itncnt,
        msg: 0,
    })
}

/// optimize.c's `opterror`: the message of optchk's code.
fn opterror(nerr: i64) -> KernelError {
    KernelError::new(match nerr {
        -1 => "non-positive number of parameters in nlm".to_string(),
        -2 => "nlm is inefficient for 1-d problems".to_string(),
        -3 => "invalid gradient tolerance in nlm".to_string(),
        -4 => "invalid iteration limit in nlm".to_string(),
        -5 => "minimization function has no good digits in nlm".to_string(),
        _ => format!("*** unknown error message (msg = {nerr}) in nlm()\n*** should not happen!"),
    })
}

/// optimize.c's `fixparam`: a numeric vector of length `n` (or any
/// positive length when `n` is 0), every element finite.
fn fixparam(p: Option<&Value>, n: &mut usize) -> Result<Vec<f64>, KernelError> {
    let x: Vec<f64> = match p.map(names::bare) {
        Some(v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_))) => {
            v.as_f64_slice().map(|x| x.into_owned()).unwrap_or_default()
        }
        _ => return Err(KernelError::new("numeric parameter expected")),
    };
    if *n != 0 {
        if x.len() != *n {
            return Err(KernelError::new("conflicting parameter lengths"));
        }
    } else {
        if x.is_empty() {
            return Err(KernelError::new("invalid parameter length"));
        }
        *n = x.len();
    }
    if x.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("missing value in parameter"));
    }
    Ok(x)
}

/// R's `asReal` of an argument: its first element, NA when it has none.
fn as_real(v: Option<&Value>) -> f64 {
    v.map(names::bare)
        .and_then(|v| match v {
            Value::Str(s) => s
                .first()
                .map(|s| s.trim().parse::<f64>().unwrap_or(super::value::NA)),
            v => v.as_f64_slice().and_then(|x| x.first().copied()),
        })
        .unwrap_or(super::value::NA)
}

/// R's `asInteger`: truncated, `None` for NA_integer_ (NA, NaN, or out of
/// an int's range).
fn as_integer(v: Option<&Value>) -> Option<i64> {
    let x = as_real(v);
    (x.is_finite() && x.abs() < 2147483648.0).then(|| x.trunc() as i64)
}

/// R's `asLogical` of `hessian`, NA read as FALSE as nlm does.
fn as_logical(v: Option<&Value>) -> bool {
    match v.map(names::bare) {
        Some(Value::Bool(b)) => b.first().copied().flatten().unwrap_or(false),
        Some(Value::Str(s)) => s
            .first()
            .is_some_and(|s| matches!(s.as_str(), "T" | "True" | "TRUE" | "true")),
        Some(v) => v
            .as_f64_slice()
            .and_then(|x| x.first().copied())
            .is_some_and(|x| !x.is_nan() && x != 0.0),
        None => false,
    }
}

/// A numeric argument the C reads with `asReal`, refused when NA.
fn real_arg(args: &Args<&Value>, name: &str, default: f64) -> Result<f64, KernelError> {
    let x = match args.get(name) {
        None => default,
        v => as_real(v),
    };
    if is_na(x) {
        return Err(KernelError::new("invalid NA value in parameter"));
    }
    Ok(x)
}

/// An integer argument the C reads with `asInteger`, refused when NA.
fn int_arg(args: &Args<&Value>, name: &str, default: i64) -> Result<i64, KernelError> {
    match args.get(name) {
        None => Ok(default),
        v => as_integer(v).ok_or_else(|| KernelError::new("invalid NA value in parameter")),
    }
}

/// `nlm(f, p, ..., hessian, typsize, fscale, print.level, ndigit,
/// gradtol, stepmax, steptol, iterlim, check.analyticals)`: nlm.R, then
/// optimize.c's `nlm`.
fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    // print.level <- as.integer(print.level), checked before anything.
    let print_level = match args.get("print.level") {
        None => Some(0),
        v => as_integer(v),
    };
    let print_level =
        print_level.ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed"))?;
    if !(0..=2).contains(&print_level) {
        return Err(KernelError::new("'print.level' must be in {0,1,2}"));
    }
    if print_level > 0 {
        return Err(KernelError::new(
            "flowcast's nlm does not print its iterations: use print.level = 0",
        ));
    }
    // nlm.R's msg: no printing (8) and one parameter allowed (1); without
    // an analytic gradient check.analyticals changes nothing (its bits
    // are cleared again before optif9).
    let msg = 9;
    let fcall = resolve(args.get("f"), ctx)?
        .ok_or_else(|| KernelError::new("attempt to minimize non-function"))?;

    let p = args
        .get("p")
        .ok_or_else(|| KernelError::new("argument \"p\" is missing, with no default"))?;
    let typsize_given = args.get("typsize");
    // The default stepmax, max(1000 * sqrt(sum((p/typsize)^2)), 1000), is
    // evaluated with the arguments, before the C reads any: of p and
    // typsize as given, recycled.
    let default_stepmax = if args.get("stepmax").is_none() {
        let numbers = |v: &Value| -> Result<Vec<f64>, KernelError> {
            match names::bare(v) {
                Value::Null => Ok(Vec::new()),
                v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
                    Ok(v.as_f64_slice().map(|x| x.into_owned()).unwrap_or_default())
                }
                _ => Err(KernelError::new("non-numeric argument to binary operator")),
            }
        };
        let pv = numbers(p)?;
        let tv = match typsize_given {
            None => vec![1.0; pv.len()],
            Some(t) => numbers(t)?,
        };
        let len = if pv.is_empty() || tv.is_empty() {
            0
        } else {
            pv.len().max(tv.len())
        };
        let mut ss = 0.0;
        for i in 0..len {
            let q = pv[i % pv.len()] / tv[i % tv.len()];
            ss += q * q;
        }
        Some(fmax2(1000.0 * ss.sqrt(), 1000.0))
    } else {
        None
    };

    let mut n = 0;
    let mut x = fixparam(Some(p), &mut n)?;
    let want_hessian = as_logical(args.get("hessian"));
    let mut typsiz = match typsize_given {
        None => vec![1.0; n],
        v => fixparam(v, &mut n)?,
    };
    // optif9's n-by-n workspace: past 2 GiB (more than 16384 parameters,
    // where R would still try) refused in R_alloc's words, before an
    // allocation that could abort the process.
    let bytes = (n as f64) * (n as f64) * 8.0;
    if bytes > (1u64 << 31) as f64 {
        return Err(KernelError::new(format!(
            "cannot allocate memory block of size {:.1} Gb",
            bytes / 1024f64.powi(3)
        )));
    }
    let fscale = real_arg(args, "fscale", 1.0)?;
    let ndigit = int_arg(args, "ndigit", 12)?;
    let gradtl = real_arg(args, "gradtol", 1e-6)?;
    let stepmx = match default_stepmax {
        Some(s) => s,
        None => real_arg(args, "stepmax", 0.0)?,
    };
    let steptol = real_arg(args, "steptol", 1e-6)?;
    let itnlim = int_arg(args, "iterlim", 100)?;

    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let mut state = State {
        fcall,
        dots: &dots,
        table: Vec::new(),
        last: -1,
    };
    // R's one evaluation to look for "gradient" and "hessian" attributes:
    // it runs f (and its errors) once more, though none can be found.
    state.call(&x, ctx)?;
    state.ft_init();

    let settings = Settings {
        fscale,
        gradtl,
        itnlim,
        ndigit,
        stepmx,
        steptl: steptol,
        msg,
    };
    let mut opt = optif9(&mut x, &mut state, &mut typsiz, settings, ctx)?;
    if opt.msg < 0 {
        return Err(opterror(opt.msg));
    }
    let mut fields: Vec<(&str, Value)> = vec![
        ("minimum", Value::scalar(opt.fpls)),
        ("estimate", Value::Num(opt.xpls.clone())),
        ("gradient", Value::Num(opt.gpls.clone())),
    ];
    if want_hessian {
        let mut a = vec![0.0; n * n];
        fdhess(
            n,
            &mut opt.xpls,
            opt.fpls,
            &mut state,
            &mut a,
            ndigit,
            &typsiz,
            ctx,
        )?;
        for i in 0..n {
            for j in 0..i {
                a[i + j * n] = a[j + i * n];
            }
        }
        fields.push(("hessian", Value::Mat(nalgebra::DMatrix::from_vec(n, n, a))));
    }
    fields.push(("code", Value::scalar(f64::from(opt.itrmcd))));
    fields.push(("iterations", Value::scalar(opt.itncnt as f64)));
    Ok(Value::List(List::named(fields)))
}

/// f's body is checked once at a numeric vector of p's length; how often
/// the search runs it is not known before the run.
fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let p = args.ty("p");
    if let Some(t) = p {
        if !(t.is_numeric() || matches!(t, Type::Any | Type::Bool { .. })) {
            // The default stepmax divides p first.
            let message = match (args.ty("stepmax"), t) {
                (None, Type::Null) | (Some(_), _) => "numeric parameter expected",
                (None, _) => "non-numeric argument to binary operator",
            };
            return Err(args.error("p", message));
        }
    }
    let n = p.and_then(Type::len);
    if n == Some(0) {
        return Err(args.error("p", "invalid parameter length"));
    }
    let at = n.map_or_else(Type::num_unknown, Type::num);
    if let Some(f) = resolve_shape(args.ty("f"), ctx).map_err(|m| args.error("f", m))? {
        let mut given = vec![(None, at.clone())];
        given.extend(args.dots().map(|(n, t)| (n.map(str::to_string), t.clone())));
        let runs = super::work::nlm_evaluations(n.unwrap_or(1) as f64);
        let t = f
            .shape_about(given, runs, ctx)
            .map_err(|m| args.error("f", m))?;
        if t.len().is_some_and(|l| l != 1) && t.is_numeric() {
            return Err(args.error("f", "invalid function value in 'nlm' optimizer"));
        }
    }
    let mut fields = vec![
        ("minimum", Type::num(1)),
        ("estimate", at.clone()),
        ("gradient", at),
    ];
    match super::optim::hessian_wanted(args) {
        Some(false) => {}
        Some(true) => fields.push(("hessian", Type::Mat { rows: n, cols: n })),
        None => return Ok(Type::Any),
    }
    fields.push(("code", Type::num(1)));
    fields.push(("iterations", Type::num(1)));
    Ok(Type::record("list", fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// lltslv's two dtrsl solves undo L L'.
    #[test]
    fn lltslv_solves_the_factored_system() {
        // L = [2 0 0; 1 3 0; -1 0.5 1], column-major; b = L L' (1, 2, 3).
        let l = [2.0, 1.0, -1.0, 0.0, 3.0, 0.5, 0.0, 0.0, 1.0];
        let x = [1.0, 2.0, 3.0];
        let mut lt = [0.0; 3];
        mvmltu(3, 3, &l, &x, &mut lt);
        let mut b = [0.0; 3];
        mvmltl(3, 3, &l, &lt, &mut b);
        let mut got = [0.0; 3];
        lltslv(3, 3, &l, &mut got, &b);
        for (g, e) in got.iter().zip(x) {
            assert!((g - e).abs() < 1e-12, "{got:?}");
        }
    }

    /// A zero pivot leaves the right-hand side as it is, as dtrsl does,
    /// rather than dividing by it.
    #[test]
    fn dtrsl_stops_at_a_zero_pivot() {
        let t = [1.0, 2.0, 0.0, 0.0];
        let mut b = [3.0, 4.0];
        assert_eq!(dtrsl(&t, 2, 2, &mut b, 0), 2);
        assert_eq!(b, [3.0, 4.0]);
    }

    /// qrupdt's result is upper triangular with R'R = (R + u v')'(R + u v').
    #[test]
    fn qrupdt_keeps_the_product() {
        let r = [2.0, 0.0, 1.0, 3.0];
        let (u, v) = ([0.5, -1.0], [1.0, 2.0]);
        let mut a = r;
        let mut uu = u;
        qrupdt(2, 2, &mut a, &mut uu, &v);
        assert!(a[1].abs() < 1e-12, "{a:?}");
        let m = |x: &[f64; 4], i: usize, j: usize| x[i + 2 * j];
        let mut s = r;
        for j in 0..2 {
            for i in 0..2 {
                s[i + 2 * j] += u[i] * v[j];
            }
        }
        for i in 0..2 {
            for j in 0..2 {
                let want: f64 = (0..2).map(|k| m(&s, k, i) * m(&s, k, j)).sum();
                let got: f64 = (0..2).map(|k| m(&a, k, i) * m(&a, k, j)).sum();
                assert!((want - got).abs() < 1e-12, "{a:?}");
            }
        }
    }

    /// opt_stop's codes: a small relative gradient, then the limit.
    #[test]
    fn opt_stop_codes() {
        let sx = [1.0, 1.0];
        let mut icscmx = 0;
        let stop = |g: f64, it: i64, icscmx: &mut i32| {
            opt_stop(
                2,
                &[1.0, 1.0],
                1.0,
                &[g, g],
                &[0.0, 0.0],
                it,
                icscmx,
                1e-6,
                1e-6,
                &sx,
                1.0,
                10,
                0,
                false,
            )
        };
        assert_eq!(stop(1e-9, 3, &mut icscmx), 1);
        assert_eq!(stop(1.0, 3, &mut icscmx), 0);
        assert_eq!(stop(1.0, 10, &mut icscmx), 4);
    }
}
