//! The Kolmogorov-Smirnov distributions as R 4.2's ks.test computes them:
//! `psmirnov` (exact two-sample, lattice paths, ties allowed), the
//! one-sample exact `pkolmogorov2x` (Marsaglia, Tsang & Wang 2003) and
//! one-sided `pkolmogorov1x`, and the limiting `pkstwo`.

use super::choose::lchoose;
use super::gamma::lgammafn;

/// R's `R_pow_di`: x^n by repeated squaring.
pub(crate) fn pow_di(mut x: f64, mut n: i32) -> f64 {
    let mut xn = 1.0;
    if x.is_nan() {
        return x;
    }
    if n != 0 {
        if !x.is_finite() {
            return x.powi(n);
        }
        let neg = n < 0;
        if neg {
            n = -n;
        }
        loop {
            if n & 1 != 0 {
                xn *= x;
            }
            n >>= 1;
            if n != 0 {
                x *= x;
            } else {
                break;
            }
        }
        if neg {
            xn = 1.0 / xn;
        }
    }
    xn
}

/// R's `psmirnov(q, sizes = c(nx, ny), z, two.sided, exact = TRUE,
/// lower.tail = FALSE)`: P(D >= q) for the two-sample statistic, counting
/// lattice paths; `z` (the pooled sample) marks ties, where paths may not
/// be cut. Returns None if the count overflows (R falls back to simulation).
pub fn psmirnov_exact_upper(
    q: f64,
    nx: usize,
    ny: usize,
    z: &[f64],
    two_sided: bool,
) -> Option<f64> {
    let big_n = nx + ny;
    // TIES[k]: the k-th smallest pooled value differs from the next one
    let mut sorted = z.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let mut ties = vec![true; big_n];
    for k in 0..big_n.saturating_sub(1) {
        ties[k] = sorted[k + 1] - sorted[k] != 0.0;
    }
    let stat = smirnov_stat(q, nx as f64, ny as f64);
    let ret = smirnov_paths(stat, nx, ny, &ties, two_sided);
    if !ret.is_finite() {
        return None;
    }
    Some(1.0 - ret / smirnov_log_denominator(nx as f64, ny as f64).exp())
}

/// psmirnov's `(0.5 + floor(q * n.x * n.y - 1e-7)) / (n.x * n.y)`: half a
/// lattice step below `q`, so rounding cannot turn an equality around.
pub fn smirnov_stat(q: f64, n_x: f64, n_y: f64) -> f64 {
    (0.5 + (q * n_x * n_y - 1e-7).floor()) / (n_x * n_y)
}

/// psmirnov's `lgamma(N + 1) - lgamma(n.x + 1) - lgamma(n.y + 1)`: the log
/// of the number of all paths.
pub fn smirnov_log_denominator(n_x: f64, n_y: f64) -> f64 {
    lgammafn(n_x + n_y + 1.0) - lgammafn(n_x + 1.0) - lgammafn(n_y + 1.0)
}

/// The number of lattice paths whose statistic stays below `stat` (R
/// 4.2.2's `pfun` inside stats' psmirnov, ks.test.R, summed), where
/// `ties[k - 1]` says the k-th step may be cut; infinite when the count
/// overflows.
pub fn smirnov_paths(stat: f64, nx: usize, ny: usize, ties: &[bool], two_sided: bool) -> f64 {
    let n_x = nx as f64;
    let n_y = ny as f64;
    let big_n = nx + ny;
    let mut diag: Vec<f64> = vec![1.0];
    let mut u: Vec<i64> = vec![0];
    for k in 1..=big_n {
        let last = *u.last().unwrap_or(&0);
        u.push(1 + last);
        let kk = k as i64;
        let keep: Vec<bool> = u
            .iter()
            .map(|&ui| {
                let v = kk - ui;
                ui <= nx as i64 && v <= ny as i64 && ui >= 0 && v >= 0
            })
            .collect();
        // diag <- (c(diag, 0) + c(0, diag))[diag_bit]
        let m = diag.len();
        let mut summed = Vec::with_capacity(m + 1);
        for i in 0..=m {
            let a = if i < m { diag[i] } else { 0.0 };
            let b = if i > 0 { diag[i - 1] } else { 0.0 };
            summed.push(a + b);
        }
        let mut new_u = Vec::new();
        let mut new_diag = Vec::new();
        for (i, &ok) in keep.iter().enumerate() {
            if ok {
                new_u.push(u[i]);
                new_diag.push(summed[i]);
            }
        }
        u = new_u;
        diag = new_diag;
        if ties.get(k - 1).copied().unwrap_or(true) {
            for (i, d) in diag.iter_mut().enumerate() {
                let ui = u[i] as f64;
                let vi = (kk - u[i]) as f64;
                let mut dd = ui / n_x - vi / n_y;
                if two_sided {
                    dd = dd.abs();
                }
                if stat.partial_cmp(&dd) != Some(std::cmp::Ordering::Greater) {
                    *d = 0.0;
                }
            }
        }
    }
    diag.iter().sum()
}

/// R 4.2.2's `psmirnov2x` (stats/src/ks.c): P(D < q) of the two-sided
/// statistic of two samples of sizes `m` and `n` without ties, by the
/// recursion over one row of the lattice at a time.
pub fn psmirnov2x(x: f64, m: i32, n: i32) -> f64 {
    let (m, n) = if m > n { (n, m) } else { (m, n) };
    let md = f64::from(m);
    let nd = f64::from(n);
    // q has 0.5/mn added so that rounding error does not turn an
    // equality into an inequality, e.g. abs(1/2-4/5)>3/10
    let q = (0.5 + (x * md * nd - 1e-7).floor()) / (md * nd);
    let Ok(len) = usize::try_from(n) else {
        return f64::NAN;
    };
    let mut u: Vec<f64> = (0..=len)
        .map(|j| if (j as f64 / nd) > q { 0.0 } else { 1.0 })
        .collect();
    for i in 1..=m {
        let w = f64::from(i) / f64::from(i + n);
        if (f64::from(i) / md) > q {
            u[0] = 0.0;
        } else {
            u[0] *= w;
        }
        for j in 1..=len {
            if (f64::from(i) / md - j as f64 / nd).abs() > q {
                u[j] = 0.0;
            } else {
                u[j] = w * u[j] + u[j - 1];
            }
        }
    }
    u[len]
}

/// R's `pkstwo` (C_pKS2): the limiting distribution of sqrt(n) D,
/// P(K <= x), summed to tolerance `tol`.
pub fn pkstwo(x: f64, tol: f64) -> f64 {
    let k_max = (2.0 - tol.ln()).sqrt() as i32;
    if x < 1.0 {
        let z = -(std::f64::consts::FRAC_PI_2 * std::f64::consts::FRAC_PI_4) / (x * x);
        let w = x.ln();
        let mut s = 0.0;
        let mut k = 1;
        while k < k_max {
            s += ((k * k) as f64 * z - w).exp();
            k += 2;
        }
        s / super::M_1_SQRT_2PI
    } else {
        let z = -2.0 * x * x;
        let mut s = -1.0;
        let mut k = 1;
        let mut old: f64 = 0.0;
        let mut new = 1.0;
        while (old - new).abs() > tol {
            old = new;
            new += 2.0 * s * (z * k as f64 * k as f64).exp();
            s *= -1.0;
            k += 1;
        }
        new
    }
}

fn m_multiply(a: &[f64], b: &[f64], c: &mut [f64], m: usize) {
    for i in 0..m {
        for j in 0..m {
            let mut s = 0.0;
            for k in 0..m {
                s += a[i * m + k] * b[k * m + j];
            }
            c[i * m + j] = s;
        }
    }
}

/// V = A^n with a decimal exponent kept aside (R's m_power).
fn m_power(a: &[f64], ea: i32, v: &mut [f64], m: usize, n: usize) -> i32 {
    if n == 1 {
        v.copy_from_slice(a);
        return ea;
    }
    let ev = m_power(a, ea, v, m, n / 2);
    let mut b = vec![0.0; m * m];
    m_multiply(v, v, &mut b, m);
    let eb = 2 * ev;
    let mut e;
    if n % 2 == 0 {
        v.copy_from_slice(&b);
        e = eb;
    } else {
        m_multiply(a, &b, v, m);
        e = ea + eb;
    }
    if v[(m / 2) * m + (m / 2)] > 1e140 {
        for x in v.iter_mut() {
            *x *= 1e-140;
        }
        e += 140;
    }
    e
}

/// R's `pkolmogorov2x` (C_pKolmogorov2x): P(D_n < d), one-sample, two-sided.
pub fn pkolmogorov2x(d: f64, n: usize) -> f64 {
    let nf = n as f64;
    let k = (nf * d) as usize + 1;
    let m = 2 * k - 1;
    let h = k as f64 - nf * d;
    let mut hm = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            hm[i * m + j] = if (i as i64) - (j as i64) + 1 < 0 {
                0.0
            } else {
                1.0
            };
        }
    }
    for i in 0..m {
        hm[i * m] -= pow_di(h, i as i32 + 1);
        hm[(m - 1) * m + i] -= pow_di(h, (m - i) as i32);
    }
    hm[(m - 1) * m] += if 2.0 * h - 1.0 > 0.0 {
        pow_di(2.0 * h - 1.0, m as i32)
    } else {
        0.0
    };
    for i in 0..m {
        for j in 0..m {
            if (i as i64) - (j as i64) + 1 > 0 {
                for g in 1..=(i - j + 1) {
                    hm[i * m + j] /= g as f64;
                }
            }
        }
    }
    let mut q = vec![0.0; m * m];
    let mut eq = m_power(&hm, 0, &mut q, m, n);
    let mut s = q[(k - 1) * m + k - 1];
    for i in 1..=n {
        s = s * i as f64 / nf;
        if s < 1e-140 {
            s *= 1e140;
            eq -= 140;
        }
    }
    s * pow_di(10.0, eq)
}

/// ks.test's R-level `pkolmogorov1x(x, n)`: P(D+_n < x), one-sided exact.
pub fn pkolmogorov1x(x: f64, n: usize) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let nf = n as f64;
    let jmax = (nf * (1.0 - x)).floor() as i64;
    let terms: Vec<f64> = (0..=jmax)
        .map(|j| {
            let j = j as f64;
            (lchoose(nf, j) + (nf - j) * (1.0 - x - j / nf).ln() + (j - 1.0) * (x + j / nf).ln())
                .exp()
        })
        .collect();
    1.0 - x * super::rsum(&terms)
}
