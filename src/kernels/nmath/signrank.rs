//! The distribution of the Wilcoxon signed rank statistic, ported from R's
//! nmath/signrank.c: `dsignrank`, `psignrank`, `qsignrank`, `rsignrank`
//! over csignrank's table of subset-sum counts.
//!
//! R sizes and indexes the table with C ints; past n = 46340,
//! n (n + 1) overflows them. Where the wrapped size cannot be allocated R
//! fails with its allocation error, which is kept; where it could, R's
//! arithmetic is undefined and flowcast refuses instead.

use super::dpq::dt_qiv;
use super::{c_int, d0, d_exp, dt0, dt1, r_calloc, M_LN2};
use crate::kernels::rng::Rng;

/// R's `R_DT_val(p)`.
fn dt_val(p: f64, lower_tail: bool, log_p: bool) -> f64 {
    match (lower_tail, log_p) {
        (true, false) => p,
        (true, true) => p.ln(),
        (false, false) => 0.5 - p + 0.5,
        (false, true) => (-p).ln_1p(),
    }
}

/// signrank.c's static `w` and `allocated_n`: the counts for one n,
/// filled on first use (w[0] == 1 marks them filled). One per call, as R
/// frees its table when the R function exits.
#[derive(Default)]
pub struct Signrank {
    w: Vec<f64>,
    allocated_n: Option<i32>,
}

impl Signrank {
    /// `w_init_maybe(n)`.
    fn init(&mut self, n: i32) -> Result<(), String> {
        if self.allocated_n == Some(n) {
            return Ok(());
        }
        let overflows = n.checked_mul(n.wrapping_add(1)).is_none();
        let u = n.wrapping_mul(n.wrapping_add(1)) / 2;
        let c = u / 2;
        // (size_t) c + 1: a negative c wraps to an absurd size.
        let nelem = (c as i64 as u64).wrapping_add(1);
        self.w = Vec::new();
        self.allocated_n = None;
        if overflows {
            // R allocates the wrapped size when it can, then computes with
            // undefined int arithmetic.
            let can = nelem <= isize::MAX as u64
                && super::super::alloc::ensure_room(nelem as f64 * 8.0).is_ok();
            if can {
                return Err(format!(
                    "n = {n} overflows R's int arithmetic (n (n + 1) / 2 > 2^31 - 1)"
                ));
            }
        }
        if !super::super::alloc::within_working_share(nelem as f64 * 8.0) {
            return Err(format!(
                "'R_Calloc' could not allocate memory ({:.0} of 8 bytes)",
                nelem as f64
            ));
        }
        self.w = r_calloc(nelem)?;
        self.allocated_n = Some(n);
        Ok(())
    }

    /// `csignrank(k, n)`: the number of subsets of 1..n summing to k.
    fn csignrank(&mut self, k: i32, n: i32) -> f64 {
        let u = n * (n + 1) / 2;
        let c = u / 2;
        if k < 0 || k > u {
            return 0.0;
        }
        let k = if k > c { u - k } else { k };
        if n == 1 {
            return 1.0;
        }
        let w = &mut self.w;
        if w[0] == 1.0 {
            return w[k as usize];
        }
        w[0] = 1.0;
        w[1] = 1.0;
        for j in 2..n + 1 {
            let end = (j * (j + 1) / 2).min(c);
            let mut i = end;
            while i >= j {
                w[i as usize] += w[(i - j) as usize];
                i -= 1;
            }
        }
        w[k as usize]
    }
}

/// signrank.c's `dsignrank(x, n, give_log)`.
pub fn dsignrank(t: &mut Signrank, x: f64, n: f64, give_log: bool) -> Result<f64, String> {
    if x.is_nan() || n.is_nan() {
        return Ok(x + n);
    }
    let n = n.round_ties_even();
    if n <= 0.0 {
        return Ok(f64::NAN);
    }
    if (x - x.round_ties_even()).abs() > 1e-7 {
        return Ok(d0(give_log));
    }
    let x = x.round_ties_even();
    if x < 0.0 || x > n * (n + 1.0) / 2.0 {
        return Ok(d0(give_log));
    }
    let nn = c_int(n);
    t.init(nn)?;
    Ok(d_exp(t.csignrank(c_int(x), nn).ln() - n * M_LN2, give_log))
}

/// signrank.c's `psignrank(x, n, lower_tail, log_p)`.
pub fn psignrank(
    t: &mut Signrank,
    x: f64,
    n: f64,
    lower_tail: bool,
    log_p: bool,
) -> Result<f64, String> {
    if x.is_nan() || n.is_nan() {
        return Ok(x + n);
    }
    if !n.is_finite() {
        return Ok(f64::NAN);
    }
    let n = n.round_ties_even();
    if n <= 0.0 {
        return Ok(f64::NAN);
    }
    let mut x = (x + 1e-7).round_ties_even();
    if x < 0.0 {
        return Ok(dt0(lower_tail, log_p));
    }
    if x >= n * (n + 1.0) / 2.0 {
        return Ok(dt1(lower_tail, log_p));
    }
    let nn = c_int(n);
    t.init(nn)?;
    let f = (-n * M_LN2).exp();
    let mut p = 0.0;
    let mut lower_tail = lower_tail;
    if x <= n * (n + 1.0) / 4.0 {
        let mut i = 0;
        while f64::from(i) <= x {
            p += t.csignrank(i, nn) * f;
            i += 1;
        }
    } else {
        x = n * (n + 1.0) / 2.0 - x;
        let mut i = 0;
        while f64::from(i) < x {
            p += t.csignrank(i, nn) * f;
            i += 1;
        }
        lower_tail = !lower_tail;
    }
    Ok(dt_val(p, lower_tail, log_p))
}

/// signrank.c's `qsignrank(x, n, lower_tail, log_p)`.
pub fn qsignrank(
    t: &mut Signrank,
    x: f64,
    n: f64,
    lower_tail: bool,
    log_p: bool,
) -> Result<f64, String> {
    if x.is_nan() || n.is_nan() {
        return Ok(x + n);
    }
    if !x.is_finite() || !n.is_finite() {
        return Ok(f64::NAN);
    }
    // R_Q_P01_check
    if (log_p && x > 0.0) || (!log_p && !(0.0..=1.0).contains(&x)) {
        return Ok(f64::NAN);
    }
    let n = n.round_ties_even();
    if n <= 0.0 {
        return Ok(f64::NAN);
    }
    if x == dt0(lower_tail, log_p) {
        return Ok(0.0);
    }
    if x == dt1(lower_tail, log_p) {
        return Ok(n * (n + 1.0) / 2.0);
    }
    let mut x = x;
    if log_p || !lower_tail {
        x = dt_qiv(x, lower_tail, log_p);
    }
    let nn = c_int(n);
    t.init(nn)?;
    let f = (-n * M_LN2).exp();
    let mut p = 0.0;
    let mut q: i32 = 0;
    if x <= 0.5 {
        x -= 10.0 * f64::EPSILON;
        loop {
            p += t.csignrank(q, nn) * f;
            if p >= x {
                break;
            }
            q += 1;
        }
    } else {
        x = 1.0 - x + 10.0 * f64::EPSILON;
        loop {
            p += t.csignrank(q, nn) * f;
            if p > x {
                q = c_int(n * (n + 1.0) / 2.0 - f64::from(q));
                break;
            }
            q += 1;
        }
    }
    Ok(f64::from(q))
}

/// signrank.c's `rsignrank(n)`: each rank's sign a fair coin from
/// `unif_rand`.
pub fn rsignrank(n: f64, rng: &mut Rng) -> f64 {
    if n.is_nan() {
        return n;
    }
    let n = n.round_ties_even();
    if n < 0.0 {
        return f64::NAN;
    }
    if n == 0.0 {
        return 0.0;
    }
    let mut r = 0.0;
    let k = c_int(n);
    let mut i = 0;
    while i < k {
        i += 1;
        r += f64::from(i) * (rng.unif_rand() + 0.5).floor();
    }
    r
}

/// `psignrank` for `wilcox.test`, whose n is small: NaN should the table
/// not fit.
pub fn psignrank1(x: f64, n: f64, lower_tail: bool, log_p: bool) -> f64 {
    psignrank(&mut Signrank::default(), x, n, lower_tail, log_p).unwrap_or(f64::NAN)
}

/// `qsignrank` (lower tail, not log) for `wilcox.test`'s intervals.
pub fn qsignrank1(x: f64, n: f64) -> f64 {
    qsignrank(&mut Signrank::default(), x, n, true, false).unwrap_or(f64::NAN)
}
