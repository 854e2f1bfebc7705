//! The inverse hyperbolic functions as glibc computes them, and R's own
//! `cospi`, `sinpi` and `tanpi` (nmath/cospi.c).
//!
//! R's `asinh`, `acosh` and `atanh` are the C library's. Rust's std
//! computes these three with formulas of its own, which differ from glibc
//! in the last bit for about one argument in ten (acosh: one in two), so
//! glibc's routines (fdlibm's, as glibc 2.36 keeps them) are ported here;
//! on a million random arguments each they give glibc's bits. `sin`,
//! `cos`, `tan`, `asin`, `acos`, `sinh`, `cosh`, `tanh`, `log` and `log1p`
//! are std's, which call the C library as R does, so they are R's bits.

use std::f64::consts::PI;

/// fdlibm's ln2, 6.93147180559945286227e-01: the double std names.
const LN2: f64 = std::f64::consts::LN_2;
const HUGE: f64 = 1.0e300;

/// The high 32 bits of `x`, fdlibm's `GET_HIGH_WORD`.
fn high_word(x: f64) -> u32 {
    (x.to_bits() >> 32) as u32
}

/// glibc's `__asinh` (sysdeps/ieee754/dbl-64/s_asinh.c).
pub fn asinh(x: f64) -> f64 {
    let ix = high_word(x) & 0x7fff_ffff;
    // |x| < 2^-28: asinh(x) is x, inexact except for 0.
    if ix < 0x3e30_0000 && HUGE + x > 1.0 {
        return x;
    }
    let w = if ix > 0x41b0_0000 {
        // |x| > 2^28; inf and NaN come back as they are.
        if ix >= 0x7ff0_0000 {
            return x + x;
        }
        x.abs().ln() + LN2
    } else {
        let xa = x.abs();
        if ix > 0x4000_0000 {
            // 2^28 > |x| > 2
            (2.0 * xa + 1.0 / ((xa * xa + 1.0).sqrt() + xa)).ln()
        } else {
            // 2 > |x| > 2^-28
            let t = xa * xa;
            (xa + t / (1.0 + (1.0 + t).sqrt())).ln_1p()
        }
    };
    w.copysign(x)
}

/// glibc's `__ieee754_acosh` (sysdeps/ieee754/dbl-64/e_acosh.c, which
/// compares all 64 bits of x as a signed integer).
pub fn acosh(x: f64) -> f64 {
    let hx = x.to_bits() as i64;
    if hx > 0x4000_0000_0000_0000 {
        if hx >= 0x41b0_0000_0000_0000 {
            // x > 2^28, inf or NaN
            if hx >= 0x7ff0_0000_0000_0000 {
                return x + x;
            }
            return x.ln() + LN2;
        }
        // 2^28 > x > 2
        let t = x * x;
        (2.0 * x - 1.0 / (x + (t - 1.0).sqrt())).ln()
    } else if hx > 0x3ff0_0000_0000_0000 {
        // 1 < x < 2
        let t = x - 1.0;
        (t + (2.0 * t + t * t).sqrt()).ln_1p()
    } else if hx == 0x3ff0_0000_0000_0000 {
        0.0
    } else {
        // x < 1, a negative number (sign bit set) or a negative NaN:
        // fdlibm's (x - x) / (x - x).
        f64::NAN
    }
}

/// glibc's `__ieee754_atanh` (sysdeps/ieee754/dbl-64/e_atanh.c).
pub fn atanh(x: f64) -> f64 {
    let xa = x.abs();
    let t = if xa < 0.5 {
        if xa < f64::from_bits(0x3e30_0000_0000_0000) {
            // 2^-28
            return x;
        }
        let t = xa + xa;
        0.5 * (t + t * xa / (1.0 - xa)).ln_1p()
    } else if xa < 1.0 {
        0.5 * ((xa + xa) / (1.0 - xa)).ln_1p()
    } else {
        if xa > 1.0 {
            // glibc's (x - x) / (x - x)
            return f64::NAN;
        }
        // +-1 gives +-Inf; NaN, unordered, falls here too and stays NaN.
        return x / 0.0;
    };
    t.copysign(x)
}

/// R's `cospi` (nmath/cospi.c): cos(pi * x), exact when x is a multiple
/// of 1/2. Linux's C library has none, so R builds this one.
pub fn cospi(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if !x.is_finite() {
        return f64::NAN;
    }
    // cos() is symmetric, and cos(pi(x + 2k)) == cos(pi x).
    let x = x.abs() % 2.0;
    if x % 1.0 == 0.5 {
        return 0.0;
    }
    if x == 1.0 {
        return -1.0;
    }
    if x == 0.0 {
        return 1.0;
    }
    (PI * x).cos()
}

/// R's `sinpi` (nmath/cospi.c): sin(pi * x), exact when x is a multiple
/// of 1/2.
pub fn sinpi(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if !x.is_finite() {
        return f64::NAN;
    }
    // sin(pi(x + 2k)) == sin(pi x); (-2, 2) is mapped onto (-1, 1].
    let mut x = x % 2.0;
    if x <= -1.0 {
        x += 2.0;
    } else if x > 1.0 {
        x -= 2.0;
    }
    if x == 0.0 || x == 1.0 {
        return 0.0;
    }
    if x == 0.5 {
        return 1.0;
    }
    if x == -0.5 {
        return -1.0;
    }
    (PI * x).sin()
}

/// R's `Rtanpi` (nmath/cospi.c), what `tanpi` calls on every platform:
/// tan(pi * x), exact when x is a multiple of 1/4, NaN at the poles.
pub fn tanpi(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if !x.is_finite() {
        return f64::NAN;
    }
    // tan(pi(x + k)) == tan(pi x); (-1, 1] is mapped onto (-1/2, 1/2].
    let mut x = x % 1.0;
    if x <= -0.5 {
        x += 1.0;
    } else if x > 0.5 {
        x -= 1.0;
    }
    if x == 0.0 {
        0.0
    } else if x == 0.5 {
        f64::NAN
    } else if x == 0.25 {
        1.0
    } else if x == -0.25 {
        -1.0
    } else {
        (PI * x).tan()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ports give the C library's bits where R's C library is glibc:
    /// arguments over every binade that matters, signs, and the branch
    /// boundaries of each routine.
    /// (The C library is called directly, so this test alone needs
    /// `unsafe`.)
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    #[test]
    fn ports_are_glibcs() {
        mod c {
            extern "C" {
                pub fn asinh(x: f64) -> f64;
                pub fn acosh(x: f64) -> f64;
                pub fn atanh(x: f64) -> f64;
            }
        }
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        let mut xs = vec![
            0.0,
            -0.0,
            0.5,
            1.0,
            2.0,
            2.0000000000000004,
            268435456.0,
            3.7252902984e-9,
            1e300,
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for i in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let e = (state % 80) as i32 - 40;
            let x = ((state >> 11) as f64 / (1u64 << 53) as f64) * 2f64.powi(e);
            xs.push(if i % 2 == 0 { x } else { -x });
            xs.push(1.0 + x);
        }
        for &x in &xs {
            for x in [x, -x] {
                // SAFETY: the C library's pure functions of one double.
                let (a, b, c) = unsafe { (c::asinh(x), c::acosh(x), c::atanh(x)) };
                assert!(same(asinh(x), a), "asinh({x:e})");
                assert!(same(acosh(x), b), "acosh({x:e})");
                assert!(same(atanh(x), c), "atanh({x:e})");
            }
        }
    }

    #[test]
    fn exact_points() {
        assert_eq!(cospi(0.5), 0.0);
        assert_eq!(cospi(-3.0), -1.0);
        assert_eq!(sinpi(-0.5), -1.0);
        assert_eq!(sinpi(2.5), 1.0);
        assert_eq!(tanpi(0.75), -1.0);
        assert!(tanpi(1.5).is_nan());
        assert!(cospi(f64::INFINITY).is_nan());
        assert_eq!(acosh(1.0), 0.0);
        assert!(acosh(0.5).is_nan());
        assert_eq!(atanh(-1.0), f64::NEG_INFINITY);
        assert!(atanh(1.5).is_nan());
        assert_eq!(asinh(f64::NEG_INFINITY), f64::NEG_INFINITY);
        assert_eq!(asinh(-0.0).to_bits(), (-0.0f64).to_bits());
    }
}
