//! R's `uniroot` (stats/R/nlm.R) and the `R_zeroin2` it calls
//! (stats/src/zeroin.c, Brent's method), kept in the original's shape: the
//! tests that invert a p-value or an estimating function (fisher.test's
//! conditional MLE and interval, wilcox.test's intervals) find their roots
//! here, so their numbers are R's to the last bit.

use crate::kernels::KernelError;

/// What `R_zeroin2` finds: the root, the iterations it took (`*Maxit`;
/// -1 when it did not converge) and the estimated precision (`*Tol`).
pub(crate) struct Zero {
    pub root: f64,
    pub iter: i64,
    pub prec: f64,
}

/// R's `R_zeroin2` (stats/src/zeroin.c, Brent's method) as `uniroot` calls
/// it: `f(a)` and `f(b)` given, at most `maxit` steps. `f` values that are
/// not finite are replaced as uniroot's `fcn2` does.
pub(crate) fn zeroin2(
    ax: f64,
    bx: f64,
    fa: f64,
    fb: f64,
    f: &mut dyn FnMut(f64) -> f64,
    tol: f64,
    maxit: usize,
) -> Zero {
    let mut f = |x: f64| {
        let v = f(x);
        if v.is_finite() {
            v
        } else if v == f64::NEG_INFINITY {
            -f64::MAX
        } else {
            f64::MAX
        }
    };
    let (mut a, mut b) = (ax, bx);
    let (mut fa, mut fb) = (fa, fb);
    let (mut c, mut fc) = (a, fa);
    let found = |root: f64, iter: i64, prec: f64| Zero { root, iter, prec };
    if fa == 0.0 {
        return found(a, 0, 0.0);
    }
    if fb == 0.0 {
        return found(b, 0, 0.0);
    }
    for it in 0..=maxit {
        let prev_step = b - a;
        if fc.abs() < fb.abs() {
            a = b;
            b = c;
            c = a;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        let tol_act = 2.0 * f64::EPSILON * b.abs() + tol / 2.0;
        let mut new_step = (c - b) / 2.0;
        if new_step.abs() <= tol_act || fb == 0.0 {
            return found(b, it as i64, (c - b).abs());
        }
        if prev_step.abs() >= tol_act && fa.abs() > fb.abs() {
            let cb = c - b;
            let (mut p, mut q);
            if a == c {
                let t1 = fb / fa;
                p = cb * t1;
                q = 1.0 - t1;
            } else {
                q = fa / fc;
                let t1 = fb / fc;
                let t2 = fb / fa;
                p = t2 * (cb * q * (q - t1) - (b - a) * (t1 - 1.0));
                q = (q - 1.0) * (t1 - 1.0) * (t2 - 1.0);
            }
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            if p < (0.75 * cb * q - (tol_act * q).abs() / 2.0) && p < (prev_step * q / 2.0).abs() {
                new_step = p / q;
            }
        }
        if new_step.abs() < tol_act {
            new_step = if new_step > 0.0 { tol_act } else { -tol_act };
        }
        a = b;
        fa = fb;
        b += new_step;
        fb = f(b);
        if (fb > 0.0 && fc > 0.0) || (fb < 0.0 && fc < 0.0) {
            c = a;
            fc = fa;
        }
    }
    found(b, -1, (c - b).abs())
}

/// uniroot's checks of `f.lower` and `f.upper`, and the values it hands
/// `zeroin2`: truncated to finite numbers, against a later `0 * Inf`.
pub(crate) fn end_values(f_lower: f64, f_upper: f64) -> Result<(f64, f64), KernelError> {
    if f_lower.is_nan() {
        return Err(KernelError::new("f.lower = f(lower) is NA"));
    }
    if f_upper.is_nan() {
        return Err(KernelError::new("f.upper = f(upper) is NA"));
    }
    let truncate = |x: f64| x.clamp(-f64::MAX, f64::MAX);
    let (fl, fu) = (truncate(f_lower), truncate(f_upper));
    if fl * fu > 0.0 {
        return Err(KernelError::new(
            "f() values at end points not of opposite sign",
        ));
    }
    Ok((fl, fu))
}

/// R's `uniroot(f, lower, upper, f.lower, f.upper, tol)$root`, with its
/// checks (extendInt = "no", maxiter = 1000).
pub(crate) fn uniroot(
    f: &mut dyn FnMut(f64) -> f64,
    lower: f64,
    upper: f64,
    f_lower: f64,
    f_upper: f64,
    tol: f64,
) -> Result<f64, KernelError> {
    if lower.is_nan() || upper.is_nan() || lower >= upper {
        return Err(KernelError::new("lower < upper  is not fulfilled"));
    }
    let (fl, fu) = end_values(f_lower, f_upper)?;
    Ok(zeroin2(lower, upper, fl, fu, f, tol, 1000).root)
}

/// uniroot's `extendInt`: which way `f` crosses zero, when the interval
/// may be widened to find the crossing.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Extend {
    Yes,
    /// "downX": f decreases through the root.
    Down,
    /// "upX": f increases through the root.
    Up,
}

/// R's `uniroot(f, c(lower, upper), tol = tol, extendInt = ext)$root`
/// (stats/R/nlm.R): the interval widened as R widens it, then
/// `R_zeroin2`; a warning when it did not converge.
pub(crate) fn uniroot_extend(
    f: &mut dyn FnMut(f64) -> f64,
    lower: f64,
    upper: f64,
    tol: f64,
    ext: Extend,
    warn: &mut Vec<String>,
) -> Result<f64, KernelError> {
    const MAXITER: i64 = 1000;
    let (mut lower, mut upper) = (lower.min(upper), lower.max(upper));
    if lower.is_nan() || upper.is_nan() || lower >= upper {
        return Err(KernelError::new("lower < upper  is not fulfilled"));
    }
    let (mut f_lower, mut f_upper) = (f(lower), f(upper));
    if f_lower.is_nan() {
        return Err(KernelError::new("f.lower = f(lower) is NA"));
    }
    if f_upper.is_nan() {
        return Err(KernelError::new("f.upper = f(upper) is NA"));
    }
    let mut g = |x: f64| -> Result<f64, KernelError> { Ok(f(x)) };
    let w = widen(
        &mut g,
        [lower, upper],
        [f_lower, f_upper],
        Some(ext),
        MAXITER,
    )?;
    let do_x = w.it.is_some();
    [lower, upper] = w.ends;
    [f_lower, f_upper] = w.values;
    let sign = |x: f64| {
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            x
        }
    };
    // !isTRUE(sign(f.lower) * sign(f.upper) <= 0): NA fails too.
    let product = sign(f_lower) * sign(f_upper);
    if product.is_nan() || product > 0.0 {
        return Err(KernelError::new(if do_x {
            "did not succeed extending the interval endpoints for f(lower) * f(upper) <= 0"
        } else {
            "f() values at end points not of opposite sign"
        }));
    }
    if !lower.is_finite() {
        return Err(KernelError::new("invalid 'xmin' value"));
    }
    if !upper.is_finite() {
        return Err(KernelError::new("invalid 'xmax' value"));
    }
    let z = zeroin2(lower, upper, f_lower, f_upper, f, tol, MAXITER as usize);
    if z.iter < 0 {
        warn.push(format!("_NOT_ converged in {MAXITER} iterations"));
    }
    Ok(z.root)
}

/// The interval and its end values after uniroot's search for a sign
/// change (stats/R/nlm.R), and the steps it took (`None` when it did not
/// search).
pub(crate) struct Widened {
    pub ends: [f64; 2],
    pub values: [f64; 2],
    pub it: Option<i64>,
}

/// uniroot's widening of `[lower, upper]` under `extendInt` (`None` for
/// "no"): `f`'s NA is NaN, and an error of `f` ends the search.
pub(crate) fn widen(
    f: &mut dyn FnMut(f64) -> Result<f64, KernelError>,
    [mut lower, mut upper]: [f64; 2],
    [mut f_lower, mut f_upper]: [f64; 2],
    ext: Option<Extend>,
    maxiter: i64,
) -> Result<Widened, KernelError> {
    let sig = match ext {
        Some(Extend::Yes) => None,
        Some(Extend::Down) => Some(-1.0),
        Some(Extend::Up) => Some(1.0),
        None => Some(0.0),
    };
    let truncate = |x: f64| x.clamp(-f64::MAX, f64::MAX);
    let (fl, fu) = (truncate(f_lower), truncate(f_upper));
    let do_x = match sig {
        None => fl * fu > 0.0,
        Some(s) => s * fl > 0.0 || s * fu < 0.0,
    };
    let no_change =
        |it: i64| KernelError::new(format!("no sign change found in {} iterations", it - 1));
    let mut it = 0;
    if do_x {
        let delta_of = |u: f64| 0.01 * u.abs().max(1e-4);
        match sig {
            None => {
                let mut delta = [delta_of(lower), delta_of(upper)];
                // isTRUE(f.lower * f.upper > 0) while an end is finite.
                while f_lower * f_upper > 0.0 && (lower.is_finite() || upper.is_finite()) {
                    it += 1;
                    if it > maxiter {
                        return Err(no_change(it));
                    }
                    let finite = [lower.is_finite(), upper.is_finite()];
                    if finite[0] {
                        let (ol, of) = (lower, f_lower);
                        lower -= delta[0];
                        f_lower = f(lower)?;
                        if f_lower.is_nan() {
                            lower = ol;
                            f_lower = of;
                            delta[0] /= 4.0;
                        }
                    }
                    if finite[1] {
                        let (ou, of) = (upper, f_upper);
                        upper += delta[1];
                        f_upper = f(upper)?;
                        if f_upper.is_nan() {
                            upper = ou;
                            f_upper = of;
                            delta[1] /= 4.0;
                        }
                    }
                    delta = [2.0 * delta[0], 2.0 * delta[1]];
                }
            }
            Some(s) => {
                let mut delta = delta_of(lower);
                while s * f_lower > 0.0 {
                    it += 1;
                    if it > maxiter {
                        return Err(no_change(it));
                    }
                    lower -= delta;
                    f_lower = f(lower)?;
                    delta *= 2.0;
                }
                let mut delta = delta_of(upper);
                while s * f_upper < 0.0 {
                    it += 1;
                    if it > maxiter {
                        return Err(no_change(it));
                    }
                    upper += delta;
                    f_upper = f(upper)?;
                    delta *= 2.0;
                }
            }
        }
    }
    Ok(Widened {
        ends: [lower, upper],
        values: [f_lower, f_upper],
        it: do_x.then_some(it),
    })
}
