//! Quantile functions. The closed forms follow nmath (`qunif.c`,
//! `qexp.c`, `qlnorm.c`, `qweibull.c`, `qcauchy.c`, `qlogis.c`,
//! `qgeom.c`); the discrete ones search as R 4.2's `qbinom.c`, `qpois.c`,
//! `qnbinom.c` and `qnbinom_mu.c` do (qDiscrete_search.h: on the call's
//! own tail and log scale, with its fuzz) and `qhyper.c` is ported; gamma and chi-squared are
//! `qgamma.c`'s algorithm ([`super::qgamma`]), t is `qt.c`'s
//! ([`super::qt`]) and beta is `qbeta.c`'s ([`super::qbeta`]: AS 109's
//! start and Newton steps on the x or the log(x) scale), which F goes
//! through as `qf.c` does.

use super::dfun::{forceint, log1_exp, nonint, pbinom, pnbinom, pnbinom_mu, ppois};
use super::dpq::{dt_clog, dt_qiv};
use super::gamma::lbeta;
use super::qnorm::qnorm;
use super::qt::tanpi;

/// p is not a probability (NaN result), or is one of the boundaries.
enum Bound {
    Bad,
    Left,
    Right,
    Inside,
}

fn boundaries(p: f64, lower: bool, lg: bool) -> Bound {
    if lg {
        if p > 0.0 {
            return Bound::Bad;
        }
        if p == 0.0 {
            return if lower { Bound::Right } else { Bound::Left };
        }
        if p == f64::NEG_INFINITY {
            return if lower { Bound::Left } else { Bound::Right };
        }
    } else {
        if !(0.0..=1.0).contains(&p) {
            return Bound::Bad;
        }
        if p == 0.0 {
            return if lower { Bound::Left } else { Bound::Right };
        }
        if p == 1.0 {
            return if lower { Bound::Right } else { Bound::Left };
        }
    }
    Bound::Inside
}

pub fn qgamma(p: f64, alpha: f64, scale: f64, lower: bool, lg: bool) -> f64 {
    super::qgamma::qgamma(p, alpha, scale, lower, lg)
}

pub fn qchisq(p: f64, df: f64, lower: bool, lg: bool) -> f64 {
    qgamma(p, 0.5 * df, 2.0, lower, lg)
}

pub use super::qbeta::qbeta;

pub use super::qt::qt;

/// R's `qf` (`qf.c`): through qbeta, with the huge and infinite df
/// cases from qchisq.
pub fn qf(p: f64, df1: f64, df2: f64, lower_tail: bool, log_p: bool) -> f64 {
    if p.is_nan() || df1.is_nan() || df2.is_nan() {
        return p + df1 + df2;
    }
    if df1 <= 0.0 || df2 <= 0.0 {
        return f64::NAN;
    }

    // R_Q_P01_boundaries(p, 0, ML_POSINF)
    match boundaries(p, lower_tail, log_p) {
        Bound::Bad => return f64::NAN,
        Bound::Left => return 0.0,
        Bound::Right => return f64::INFINITY,
        Bound::Inside => {}
    }

    // fudge the extreme DF cases -- qbeta doesn't do this well.
    // But we still need to fudge the infinite ones.
    if df1 <= df2 && df2 > 4e5 {
        if !df1.is_finite() {
            // df1 == df2 == Inf :
            return 1.;
        }
        // else value for df2 == Inf :
        return qchisq(p, df1, lower_tail, log_p) / df1;
    } else if df1 > 4e5 {
        // and so  df2 < df1 -- return value for df1 == Inf
        return df2 / qchisq(p, df2, !lower_tail, log_p);
    }

    // FIXME: (1/qb - 1) = (1 - qb)/qb; if we know qb ~= 1, should use other tail
    let p = (1. / qbeta(p, df2 / 2., df1 / 2., !lower_tail, log_p) - 1.) * (df2 / df1);
    // ML_VALID(p) ? p : ML_NAN
    if !p.is_nan() {
        p
    } else {
        f64::NAN
    }
}

pub fn qunif(p: f64, a: f64, b: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || a.is_nan() || b.is_nan() {
        return p + a + b;
    }
    if let Bound::Bad = boundaries(p, lower, lg) {
        return f64::NAN;
    }
    if !a.is_finite() || !b.is_finite() || b < a {
        return f64::NAN;
    }
    if b == a {
        return a;
    }
    a + dt_qiv(p, lower, lg) * (b - a)
}

pub fn qexp(p: f64, scale: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || scale.is_nan() {
        return p + scale;
    }
    if scale < 0.0 {
        return f64::NAN;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => return f64::NAN,
        Bound::Left => return 0.0,
        _ => {}
    }
    -scale * dt_clog(p, lower, lg)
}

pub fn qlnorm(p: f64, meanlog: f64, sdlog: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || meanlog.is_nan() || sdlog.is_nan() {
        return p + meanlog + sdlog;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => f64::NAN,
        Bound::Left => 0.0,
        Bound::Right => f64::INFINITY,
        Bound::Inside => qnorm(p, meanlog, sdlog, lower, lg).exp(),
    }
}

pub fn qweibull(p: f64, shape: f64, scale: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || shape.is_nan() || scale.is_nan() {
        return p + shape + scale;
    }
    if shape <= 0.0 || scale <= 0.0 {
        return f64::NAN;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => f64::NAN,
        Bound::Left => 0.0,
        Bound::Right => f64::INFINITY,
        Bound::Inside => scale * (-dt_clog(p, lower, lg)).powf(1.0 / shape),
    }
}

pub fn qlogis(p: f64, location: f64, scale: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || location.is_nan() || scale.is_nan() {
        return p + location + scale;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => return f64::NAN,
        Bound::Left => return f64::NEG_INFINITY,
        Bound::Right => return f64::INFINITY,
        Bound::Inside => {}
    }
    if scale < 0.0 {
        return f64::NAN;
    }
    if scale == 0.0 {
        return location;
    }
    let q = if lg {
        if lower {
            p - log1_exp(p)
        } else {
            log1_exp(p) - p
        }
    } else {
        let v = p / (1.0 - p);
        if lower {
            v.ln()
        } else {
            -v.ln()
        }
    };
    location + scale * q
}

pub fn qcauchy(p: f64, location: f64, scale: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || location.is_nan() || scale.is_nan() {
        return p + location + scale;
    }
    if let Bound::Bad = boundaries(p, lower, lg) {
        return f64::NAN;
    }
    if scale <= 0.0 || !scale.is_finite() {
        if scale == 0.0 {
            return location;
        }
        return f64::NAN;
    }
    let mut p = p;
    let mut lower = lower;
    if lg {
        if p > -1.0 {
            if p == 0.0 {
                return location + (if lower { scale } else { -scale }) * f64::INFINITY;
            }
            lower = !lower;
            p = -p.exp_m1();
        } else {
            p = p.exp();
        }
    } else if p > 0.5 {
        if p == 1.0 {
            return location + (if lower { scale } else { -scale }) * f64::INFINITY;
        }
        p = 1.0 - p;
        lower = !lower;
    }
    if p == 0.5 {
        return location;
    }
    if p == 0.0 {
        return location + (if lower { scale } else { -scale }) * f64::NEG_INFINITY;
    }
    // tanpi(p)
    location + (if lower { -scale } else { scale }) / tanpi(p)
}

pub fn qgeom(p: f64, prob: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || prob.is_nan() {
        return p + prob;
    }
    if prob <= 0.0 || prob > 1.0 {
        return f64::NAN;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => return f64::NAN,
        Bound::Left => return 0.0,
        Bound::Right => return f64::INFINITY,
        Bound::Inside => {}
    }
    if prob == 1.0 {
        return 0.0;
    }
    (dt_clog(p, lower, lg) / (-prob).ln_1p() - 1.0 - 1e-12)
        .ceil()
        .max(0.0)
}

/// R 4.2's `do_search` (qDiscrete_search.h): from `y`, whose
/// probability on the call's scale is `z`, step by `incr` to the end of
/// the run where that probability reaches `p` (`>= p` in the lower tail,
/// `< p` in the upper); `top` caps y (n for the binomial). `None` past
/// [`MAX_STEPS`], where R would walk on.
fn do_search(
    mut y: f64,
    z: &mut f64,
    p: f64,
    incr: f64,
    top: f64,
    lower: bool,
    pdist: &dyn Fn(f64) -> f64,
) -> Option<f64> {
    let reached = |z: f64| if lower { z >= p } else { z < p };
    let left = reached(*z);
    for _ in 0..MAX_STEPS {
        if left {
            let mut newz = -1.0;
            if y > 0.0 {
                newz = pdist(y - incr);
            } else if y < 0.0 {
                y = 0.0;
            }
            if y == 0.0 || newz.is_nan() || !reached(newz) {
                return Some(y);
            }
            y = (y - incr).max(0.0);
            *z = newz;
        } else {
            y += incr;
            if y < top {
                *z = pdist(y);
            } else if y > top {
                y = top;
            }
            if y == top || z.is_nan() || reached(*z) {
                return Some(y);
            }
        }
    }
    None
}

const MAX_STEPS: u32 = 100_000;

/// The smallest integer y in [0, top] whose probability reaches p, by
/// bisection: where R's walk would not end in reasonable time.
fn bisect_integer(p: f64, top: f64, lower: bool, pdist: &dyn Fn(f64) -> f64) -> f64 {
    let reached = |y: f64| {
        let z = pdist(y);
        z.is_nan() || if lower { z >= p } else { z < p }
    };
    let mut hi = if top.is_finite() { top } else { 1.0 };
    while !top.is_finite() && !reached(hi) && hi < f64::MAX / 2.0 {
        hi *= 2.0;
    }
    if reached(0.0) {
        return 0.0;
    }
    let mut lo = 0.0;
    while hi - lo > 1.0 {
        let mid = (lo + (hi - lo) / 2.0).floor();
        if mid <= lo || mid >= hi {
            break;
        }
        if reached(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// R 4.2's `q_DISCRETE_BODY()` (qDiscrete_search.h): the Cornish-Fisher
/// start from the distribution's mean, sd and skewness, the left-continuity
/// fuzz on p, then the search on the call's own scale (`pdist` gives the
/// probability with the call's lower.tail and log.p) in unit steps, or
/// for a start of 4096 on in steps shrunk eightfold at a time.
#[allow(clippy::too_many_arguments)]
fn q_discrete(
    p: f64,
    mu: f64,
    sigma: f64,
    gamma: f64,
    top: f64,
    lower: bool,
    lg: bool,
    pdist: &dyn Fn(f64) -> f64,
) -> f64 {
    let z = qnorm(p, 0.0, 1.0, lower, lg);
    let mut y = forceint(mu + sigma * (z + gamma * (z * z - 1.0) / 6.0));
    if y > top {
        y = top;
    } else if y < 0.0 {
        y = 0.0;
    }
    let mut z = pdist(y);
    let mut p = p;
    if lg {
        let e = 2.0 * f64::EPSILON;
        if lower && p > -f64::MAX {
            p *= 1.0 + e;
        } else {
            p *= 1.0 - e;
        }
    } else {
        let e = 8.0 * f64::EPSILON;
        if lower {
            p *= 1.0 - e;
        } else if 1.0 - p > 4.0 * e {
            p *= 1.0 + e;
        }
    }
    if y < 4096.0 {
        return do_search(y, &mut z, p, 1.0, top, lower, pdist)
            .unwrap_or_else(|| bisect_integer(p, top, lower, pdist));
    }
    let mut incr = (y / 64.0).floor();
    loop {
        let oldincr = incr;
        y = match do_search(y, &mut z, p, incr, top, lower, pdist) {
            Some(y) => y,
            None => return bisect_integer(p, top, lower, pdist),
        };
        incr = (incr / 8.0).floor().max(1.0);
        if !(oldincr > 1.0 && incr > y * 1e-15) {
            return y;
        }
    }
}

pub fn qbinom(p: f64, n: f64, pr: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || n.is_nan() || pr.is_nan() {
        return p + n + pr;
    }
    if !n.is_finite() || !pr.is_finite() || (!p.is_finite() && !lg) {
        return f64::NAN;
    }
    let n = forceint(n);
    if !(0.0..=1.0).contains(&pr) || n < 0.0 {
        return f64::NAN;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => return f64::NAN,
        Bound::Left => return 0.0,
        Bound::Right => return n,
        Bound::Inside => {}
    }
    if pr == 0.0 || n == 0.0 {
        return 0.0;
    }
    if pr == 1.0 {
        return n;
    }
    let q = 1.0 - pr;
    let mu = n * pr;
    let sigma = (n * pr * q).sqrt();
    let gamma = (q - pr) / sigma;
    q_discrete(p, mu, sigma, gamma, n, lower, lg, &|y| {
        pbinom(y, n, pr, lower, lg)
    })
}

pub fn qpois(p: f64, lambda: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || lambda.is_nan() {
        return p + lambda;
    }
    if !lambda.is_finite() || lambda < 0.0 {
        return f64::NAN;
    }
    // R_Q_P01_check, then the boundaries one at a time.
    if (lg && p > 0.0) || (!lg && !(0.0..=1.0).contains(&p)) {
        return f64::NAN;
    }
    if lambda == 0.0 {
        return 0.0;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => return f64::NAN,
        Bound::Left => return 0.0,
        Bound::Right => return f64::INFINITY,
        Bound::Inside => {}
    }
    let sigma = lambda.sqrt();
    q_discrete(
        p,
        lambda,
        sigma,
        1.0 / sigma,
        f64::INFINITY,
        lower,
        lg,
        &|y| ppois(y, lambda, lower, lg),
    )
}

pub fn qnbinom(p: f64, size: f64, prob: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || size.is_nan() || prob.is_nan() {
        return p + size + prob;
    }
    if prob == 0.0 && size == 0.0 {
        return 0.0;
    }
    if prob <= 0.0 || prob > 1.0 || size < 0.0 {
        return f64::NAN;
    }
    if prob == 1.0 || size == 0.0 {
        return 0.0;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => return f64::NAN,
        Bound::Left => return 0.0,
        Bound::Right => return f64::INFINITY,
        Bound::Inside => {}
    }
    let q = 1.0 / prob;
    let pp = (1.0 - prob) * q;
    let mu = size * pp;
    let sigma = (size * pp * q).sqrt();
    let gamma = (q + pp) / sigma;
    q_discrete(p, mu, sigma, gamma, f64::INFINITY, lower, lg, &|y| {
        pnbinom(y, size, prob, lower, lg)
    })
}

/// R's `qnbinom_mu` (qnbinom_mu.c): the (size, mu) parametrization, the
/// Poisson at an infinite size.
pub fn qnbinom_mu(p: f64, size: f64, mu: f64, lower: bool, lg: bool) -> f64 {
    if size == f64::INFINITY {
        return qpois(p, mu, lower, lg);
    }
    if p.is_nan() || size.is_nan() || mu.is_nan() {
        return p + size + mu;
    }
    if mu == 0.0 || size == 0.0 {
        return 0.0;
    }
    if mu < 0.0 || size < 0.0 {
        return f64::NAN;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => return f64::NAN,
        Bound::Left => return 0.0,
        Bound::Right => return f64::INFINITY,
        Bound::Inside => {}
    }
    let q = 1.0 + mu / size;
    let pp = mu / size;
    let sigma = (size * pp * q).sqrt();
    let gamma = (q + pp) / sigma;
    q_discrete(p, mu, sigma, gamma, f64::INFINITY, lower, lg, &|y| {
        pnbinom_mu(y, size, mu, lower, lg)
    })
}

fn lfastchoose(n: f64, k: f64) -> f64 {
    -(n + 1.0).ln() - lbeta(n - k + 1.0, k + 1.0)
}

/// `qhyper.c`, summing the probabilities from the left.
pub fn qhyper(p: f64, nr: f64, nb: f64, n: f64, lower: bool, lg: bool) -> f64 {
    if p.is_nan() || nr.is_nan() || nb.is_nan() || n.is_nan() {
        return p + nr + nb + n;
    }
    if !p.is_finite() || !nr.is_finite() || !nb.is_finite() || !n.is_finite() {
        return f64::NAN;
    }
    if nonint(nr) || nonint(nb) || nonint(n) {
        return f64::NAN;
    }
    let (mut nr, mut nb, n) = (forceint(nr), forceint(nb), forceint(n));
    let big_n = nr + nb;
    if nr < 0.0 || nb < 0.0 || n < 0.0 || n > big_n {
        return f64::NAN;
    }
    let xstart = (n - nb).max(0.0);
    let xend = n.min(nr);
    // R walks the support one value at a time; past this it would not
    // finish (flowcast gives NaN rather than hang).
    if xend - xstart > 1e8 {
        return f64::NAN;
    }
    match boundaries(p, lower, lg) {
        Bound::Bad => return f64::NAN,
        Bound::Left => return xstart,
        Bound::Right => return xend,
        Bound::Inside => {}
    }
    let mut xr = xstart;
    let mut xb = n - xr;
    let small_n = big_n < 1000.0;
    let mut term = lfastchoose(nr, xr) + lfastchoose(nb, xb) - lfastchoose(big_n, n);
    if small_n {
        term = term.exp();
    }
    nr -= xr;
    nb -= xb;
    let mut p = p;
    if !lower || lg {
        p = dt_qiv(p, lower, lg);
    }
    p *= 1.0 - 1000.0 * f64::EPSILON;
    let mut sum = if small_n { term } else { term.exp() };
    while sum < p && xr < xend {
        xr += 1.0;
        nb += 1.0;
        if small_n {
            term *= (nr / xr) * (xb / nb);
        } else {
            term += (nr / xr).ln() + (xb / nb).ln();
        }
        sum += if small_n { term } else { term.exp() };
        xb -= 1.0;
        nr -= 1.0;
    }
    xr
}

/// `qnorm(p)` with R's defaults.
pub fn qnorm_std(p: f64) -> f64 {
    qnorm(p, 0.0, 1.0, true, false)
}
