//! Ports of R's nmath: distribution functions with R's accuracy.
//!
//! Each function follows R 4.2's C source line by line (same branches, same
//! constants, same order of floating-point operations), because callers
//! compare p-values with R's to ~1e-13.

// R's constants are kept digit for digit as its sources print them.
#![allow(clippy::excessive_precision)]

pub mod ansari;
pub mod bessel;
pub mod bessel_jy;
pub mod choose;
pub mod dfun;
pub mod dnbeta;
pub mod dnchisq;
pub mod dnt;
pub mod dpq;
mod ebd0;
pub mod gamma;
pub mod hyperbolic;
pub mod ks;
pub mod pbeta;
pub mod pcont;
pub mod pgamma;
pub mod pnbeta;
pub mod pnchisq;
pub mod pnorm;
pub mod pnt;
pub mod polygamma;
pub mod qbeta;
pub mod qfun;
pub mod qgamma;
pub mod qnbeta;
pub mod qnchisq;
pub mod qnorm;
pub mod qnt;
pub mod qt;
pub mod rand;
pub mod signrank;
mod toms708;
pub mod tukey;
pub mod wilcox;

pub use gamma::{lbeta, lgammafn};
pub use pbeta::{pbeta, pf, pt};
pub use pgamma::{pchisq, pgamma};
pub use pnorm::{dnorm, pnorm};

/// R's `M_LN_SQRT_2PI`: log(sqrt(2*pi)).
pub(crate) const M_LN_SQRT_2PI: f64 = 0.918_938_533_204_672_741_780_329_736_4;
/// R's `M_1_SQRT_2PI`: 1/sqrt(2*pi).
pub(crate) const M_1_SQRT_2PI: f64 = 0.398_942_280_401_432_677_939_946_059_934;
pub(crate) const M_LN2: f64 = std::f64::consts::LN_2;

/// R's `R_D__0`: probability 0 on the requested scale.
pub(crate) fn d0(log_p: bool) -> f64 {
    if log_p {
        f64::NEG_INFINITY
    } else {
        0.0
    }
}

/// R's `R_D__1`.
pub(crate) fn d1(log_p: bool) -> f64 {
    if log_p {
        0.0
    } else {
        1.0
    }
}

/// R's `R_DT_0`: the bound at -Inf for the requested tail.
pub(crate) fn dt0(lower_tail: bool, log_p: bool) -> f64 {
    if lower_tail {
        d0(log_p)
    } else {
        d1(log_p)
    }
}

/// R's `R_DT_1`.
pub(crate) fn dt1(lower_tail: bool, log_p: bool) -> f64 {
    if lower_tail {
        d1(log_p)
    } else {
        d0(log_p)
    }
}

/// R's `R_D_exp(x)`.
pub(crate) fn d_exp(x: f64, log_p: bool) -> f64 {
    if log_p {
        x
    } else {
        x.exp()
    }
}

pub(crate) use dpq::log1_exp;

/// nmath's `fmax2(x, y)`: NaN if either is.
pub(crate) fn fmax2(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x < y {
        y
    } else {
        x
    }
}

/// nmath's `fmin2(x, y)`: NaN if either is.
pub(crate) fn fmin2(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x < y {
        x
    } else {
        y
    }
}

/// R's `sum()` of doubles: R accumulates in long double; a compensated
/// (Neumaier) sum rounds to the same double in all but contrived cases.
pub fn rsum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut c = 0.0;
    for &v in x {
        let t = s + v;
        if s.abs() >= v.abs() {
            c += (s - t) + v;
        } else {
            c += (v - t) + s;
        }
        s = t;
    }
    // An infinite term makes the compensation Inf - Inf; R's long double
    // sum is the infinity itself (chisq.test's statistic with an E of 0).
    if !s.is_finite() {
        return s;
    }
    s + c
}

/// C's `(int) x` as nmath's callers compile it on x86-64: truncation, and
/// INT_MIN for NaN or a value out of int's range (the instruction's
/// "indefinite" answer), which R's wilcox.c and signrank.c then use.
pub(crate) fn c_int(x: f64) -> i32 {
    if x.is_nan() || x >= 2147483648.0 || x <= -2147483649.0 {
        i32::MIN
    } else {
        x as i32
    }
}

/// R's `R_chk_calloc` (memory.c), which nmath's `calloc` is in R: `nelem`
/// zeroed elements, or R's error when they cannot be had. The room is
/// checked first: a failed allocation aborts a Rust process.
pub(crate) fn r_calloc<T: Clone + Default>(nelem: u64) -> Result<Vec<T>, String> {
    let elsize = std::mem::size_of::<T>();
    let fail = || {
        format!(
            "'R_Calloc' could not allocate memory ({:.0} of {elsize} bytes)",
            nelem as f64
        )
    };
    let bytes = nelem as f64 * elsize as f64;
    if nelem > isize::MAX as u64 || super::alloc::ensure_room(bytes).is_err() {
        return Err(fail());
    }
    let mut v = Vec::new();
    v.try_reserve_exact(nelem as usize).map_err(|_| fail())?;
    v.resize(nelem as usize, T::default());
    Ok(v)
}
