//! R's `beta(a, b)` (nmath/beta.c), `choose(n, k)` and `lchoose(n, k)`
//! (nmath/choose.c),
//! with `lgammafn_sign` (nmath/lgamma.c) for choose's negative branch.

use super::gamma::{gammafn, lbeta, lgammafn};

/// R's `R_forceint`: `nearbyint`, ties to even.
fn forceint(x: f64) -> f64 {
    x.round_ties_even()
}

/// R's `R_nonint` negated (dpq.h): whole to a relative 1e-7.
fn is_int(x: f64) -> bool {
    (x - forceint(x)).abs() <= 1e-7 * x.abs().max(1.0)
}

/// `lgammafn_sign`: log|gamma(x)| and the sign of gamma(x).
pub fn lgammafn_sign(x: f64) -> (f64, f64) {
    let sign = if x < 0.0 && (-x).floor() % 2.0 == 0.0 {
        -1.0
    } else {
        1.0
    };
    (lgammafn(x), sign)
}

/// beta.c: through gamma while a + b is below gamma's overflow, else
/// `exp(lbeta)`. NaN for a negative argument (R warns at the call).
pub fn beta(a: f64, b: f64) -> f64 {
    const XMAX: f64 = 171.61447887182298;
    if a.is_nan() || b.is_nan() {
        return a + b;
    }
    if a < 0.0 || b < 0.0 {
        f64::NAN
    } else if a == 0.0 || b == 0.0 {
        f64::INFINITY
    } else if !a.is_finite() || !b.is_finite() {
        0.0
    } else if a + b < XMAX {
        // Left to right, as beta.c: 1/Γ(a+b) first keeps Γ(a)·Γ(b) of tiny
        // arguments from overflowing (beta(1e-200, 1e-200) is 2e200).
        (1.0 / gammafn(a + b)) * gammafn(a) * gammafn(b)
    } else {
        lbeta(a, b).exp()
    }
}

const K_SMALL_MAX: f64 = 30.0;

fn lfastchoose(n: f64, k: f64) -> f64 {
    -(n + 1.0).ln() - lbeta(n - k + 1.0, k + 1.0)
}

/// Less stable than [`lfastchoose`], but right when n - k + 1 < 0.
fn lfastchoose2(n: f64, k: f64) -> (f64, f64) {
    let (r, sign) = lgammafn_sign(n - k + 1.0);
    (lgammafn(n + 1.0) - lgammafn(k + 1.0) - r, sign)
}

fn odd(k: f64) -> bool {
    k != 2.0 * (k / 2.0).floor()
}

/// choose.c: the binomial coefficient for any real n and k rounded to a
/// whole number (R warns when that moved k by more than 1e-7; see
/// [`k_rounding_warning`]). The product formula below k = 30, with the
/// symmetry kept for whole n.
pub fn choose(n: f64, k: f64) -> f64 {
    let k = forceint(k);
    if n.is_nan() || k.is_nan() {
        return n + k;
    }
    if k < K_SMALL_MAX {
        let mut k = k;
        if n - k < k && n >= 0.0 && is_int(n) {
            k = forceint(n - k);
        }
        if k < 0.0 {
            return 0.0;
        }
        if k == 0.0 {
            return 1.0;
        }
        let mut r = n;
        let mut j = 2.0;
        while j <= k {
            r *= (n - j + 1.0) / j;
            j += 1.0;
        }
        return if is_int(n) { forceint(r) } else { r };
    }
    if n < 0.0 {
        let r = choose(-n + k - 1.0, k);
        return if odd(k) { -r } else { r };
    }
    if is_int(n) {
        let n = forceint(n);
        if n < k {
            return 0.0;
        }
        if n - k < K_SMALL_MAX {
            return choose(n, n - k);
        }
        return forceint(lfastchoose(n, k).exp());
    }
    if n < k - 1.0 {
        let (r, sign) = lfastchoose2(n, k);
        return sign * r.exp();
    }
    lfastchoose(n, k).exp()
}

/// choose.c's `lchoose`: log|choose(n, k)|, with the same rounding of k
/// (the caller warns, as for [`choose`]).
pub fn lchoose(n: f64, k: f64) -> f64 {
    let k = forceint(k);
    if n.is_nan() || k.is_nan() {
        return n + k;
    }
    if k < 2.0 {
        if k < 0.0 {
            return f64::NEG_INFINITY;
        } else if k == 0.0 {
            return 0.0;
        }
        return n.abs().ln();
    }
    if n < 0.0 {
        return lchoose(-n + k - 1.0, k);
    }
    if is_int(n) {
        let n = forceint(n);
        if n < k {
            return f64::NEG_INFINITY;
        }
        if n - k < 2.0 {
            return lchoose(n, n - k);
        }
        return lfastchoose(n, k);
    }
    if n < k - 1.0 {
        return lfastchoose2(n, k).0;
    }
    lfastchoose(n, k)
}

/// choose.c's warning when k is not whole: `'k' (%.2f) must be integer,
/// rounded to %.0f`.
pub fn k_rounding_warning(k: f64) -> Option<String> {
    let r = forceint(k);
    ((k - r).abs() > 1e-7).then(|| format!("'k' ({k:.2}) must be integer, rounded to {r:.0}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choose_matches_r() {
        // Values from R 4.2.2.
        assert_eq!(choose(5.0, 2.0), 10.0);
        assert_eq!(choose(5.0, 2.5), 10.0);
        assert_eq!(choose(5.0, -1.0), 0.0);
        assert_eq!(choose(-3.0, 2.0), 6.0);
        assert_eq!(choose(60.0, 31.0), 114449595062769136.0);
        assert_eq!(choose(1e6 + 0.05, 2.0), 499999550000.0);
        assert_eq!(choose(1e6 + 0.0005, 2.0), 499999500500.0);
        let rel = |a: f64, b: f64| ((a - b) / b).abs();
        assert!(rel(choose(-2.5, 31.0), -137.76083186384739) < 1e-14);
        assert!(rel(choose(40.5, 35.0), 1750898.0393769627) < 1e-14);
        assert!(rel(choose(-60.0, 31.0), -1.3028380151740201e24) < 1e-14);
        assert!(choose(f64::NAN, 2.0).is_nan());
        assert_eq!(
            k_rounding_warning(1.4).as_deref(),
            Some("'k' (1.40) must be integer, rounded to 1")
        );
        assert_eq!(k_rounding_warning(3.0), None);
    }

    #[test]
    fn beta_edges() {
        assert!(beta(-1.0, 2.0).is_nan());
        assert_eq!(beta(0.0, 2.0), f64::INFINITY);
        assert_eq!(beta(f64::INFINITY, 2.0), 0.0);
        assert!((beta(2.0, 3.0) - 1.0 / 12.0).abs() < 1e-16);
        // R 4.2.2 gives 2e200: 1/Γ(2e-200) times Γ(1e-200), then times Γ(1e-200).
        assert_eq!(
            beta(1e-200, 1e-200),
            (1.0 / gammafn(2e-200)) * gammafn(1e-200) * gammafn(1e-200)
        );
        assert!(beta(1e-200, 1e-200).is_finite());
    }
}
