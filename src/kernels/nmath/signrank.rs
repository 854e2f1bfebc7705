//! R's exact distributions of the Wilcoxon statistics: `psignrank`
//! (csignrank's subset-sum counts) and `pwilcox` (cwilcox's recursion),
//! plus R's `choose`/`lchoose`.

use super::gamma::lbeta;
use super::M_LN2;

/// R's `R_DT_val(p)`.
fn dt_val(p: f64, lower_tail: bool, log_p: bool) -> f64 {
    match (lower_tail, log_p) {
        (true, false) => p,
        (true, true) => p.ln(),
        (false, false) => 0.5 - p + 0.5,
        (false, true) => (-p).ln_1p(),
    }
}

/// R's `psignrank(q, n, lower.tail, log.p)`.
pub fn psignrank(x: f64, n: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || n.is_nan() {
        return x + n;
    }
    if !n.is_finite() {
        return f64::NAN;
    }
    let n = n.round_ties_even();
    if n <= 0.0 {
        return f64::NAN;
    }
    let x = (x + 1e-7).round_ties_even();
    if x < 0.0 {
        return super::dt0(lower_tail, log_p);
    }
    if x >= n * (n + 1.0) / 2.0 {
        return super::dt1(lower_tail, log_p);
    }
    let nn = n as usize;
    let w = signrank_counts(nn);
    let u = nn * (nn + 1) / 2;
    let c = u / 2;
    // csignrank(k, n): counts are symmetric about u/2
    let count = |k: usize| -> f64 {
        let k = if k > c { u - k } else { k };
        if nn == 1 {
            1.0
        } else {
            w[k]
        }
    };
    let f = (-n * M_LN2).exp();
    let mut p = 0.0;
    let mut lower_tail = lower_tail;
    if x <= n * (n + 1.0) / 4.0 {
        let mut i = 0usize;
        while (i as f64) <= x {
            p += count(i) * f;
            i += 1;
        }
    } else {
        let x = n * (n + 1.0) / 2.0 - x;
        let mut i = 0usize;
        while (i as f64) < x {
            p += count(i) * f;
            i += 1;
        }
        lower_tail = !lower_tail;
    }
    dt_val(p, lower_tail, log_p)
}

/// csignrank's table: w[k] = number of subsets of 1..n summing to k, k <= u/2.
fn signrank_counts(n: usize) -> Vec<f64> {
    let u = n * (n + 1) / 2;
    let c = u / 2;
    let mut w = vec![0.0; c + 1];
    w[0] = 1.0;
    if c >= 1 {
        w[1] = 1.0;
    }
    for j in 2..=n {
        let end = (j * (j + 1) / 2).min(c);
        let mut i = end;
        while i >= j {
            w[i] += w[i - j];
            i -= 1;
        }
    }
    w
}

/// cwilcox's memoised counts: the number of (m, n) rank arrangements with
/// Mann-Whitney statistic k.
struct Wilcox {
    m: usize,
    n: usize,
    w: Vec<Option<Vec<f64>>>,
}

impl Wilcox {
    fn new(m: usize, n: usize) -> Wilcox {
        let (m, n) = (m.max(n), m.max(n));
        Wilcox {
            m,
            n,
            w: vec![None; (m + 1) * (n + 1)],
        }
    }

    fn count(&mut self, k: i64, m: usize, n: usize) -> f64 {
        let u = (m * n) as i64;
        if k < 0 || k > u {
            return 0.0;
        }
        let c = u / 2;
        let k = if k > c { u - k } else { k };
        let (i, j) = if m < n { (m, n) } else { (n, m) };
        if j == 0 {
            return if k == 0 { 1.0 } else { 0.0 };
        }
        if j > 0 && k < j as i64 {
            return self.count(k, i, k as usize);
        }
        let idx = i * (self.n + 1) + j;
        debug_assert!(i <= self.m);
        if self.w[idx].is_none() {
            self.w[idx] = Some(vec![-1.0; c as usize + 1]);
        }
        let cached = self.w[idx].as_ref().map_or(-1.0, |v| v[k as usize]);
        if cached >= 0.0 {
            return cached;
        }
        let v = self.count(k - j as i64, i - 1, j) + self.count(k, i, j - 1);
        if let Some(t) = self.w[idx].as_mut() {
            t[k as usize] = v;
        }
        v
    }
}

/// R's `pwilcox(q, m, n, lower.tail, log.p)`.
pub fn pwilcox(q: f64, m: f64, n: f64, lower_tail: bool, log_p: bool) -> f64 {
    if q.is_nan() || m.is_nan() || n.is_nan() {
        return q + m + n;
    }
    if !m.is_finite() || !n.is_finite() {
        return f64::NAN;
    }
    let m = m.round_ties_even();
    let n = n.round_ties_even();
    if m <= 0.0 || n <= 0.0 {
        return f64::NAN;
    }
    let q = (q + 1e-7).floor();
    if q < 0.0 {
        return super::dt0(lower_tail, log_p);
    }
    if q >= m * n {
        return super::dt1(lower_tail, log_p);
    }
    let (mm, nn) = (m as usize, n as usize);
    let mut w = Wilcox::new(mm, nn);
    let c = choose(m + n, n);
    let mut p = 0.0;
    let mut lower_tail = lower_tail;
    if q <= m * n / 2.0 {
        let mut i = 0i64;
        while (i as f64) <= q {
            p += w.count(i, mm, nn) / c;
            i += 1;
        }
    } else {
        let q = m * n - q;
        let mut i = 0i64;
        while (i as f64) < q {
            p += w.count(i, mm, nn) / c;
            i += 1;
        }
        lower_tail = !lower_tail;
    }
    dt_val(p, lower_tail, log_p)
}

/// R's `qsignrank(p, n)` for a lower-tail, non-log `p` (all
/// `wilcox.test` asks): the smallest q with P(V <= q) >= p, walking the
/// counts from the nearer end as signrank.c does.
pub fn qsignrank(x: f64, n: f64) -> f64 {
    if x.is_nan() || n.is_nan() {
        return x + n;
    }
    if !x.is_finite() || !n.is_finite() || !(0.0..=1.0).contains(&x) {
        return f64::NAN;
    }
    let n = n.round_ties_even();
    if n <= 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return 0.0;
    }
    if x == 1.0 {
        return n * (n + 1.0) / 2.0;
    }
    let nn = n as usize;
    let w = signrank_counts(nn);
    let u = nn * (nn + 1) / 2;
    let c = u / 2;
    let count = |k: usize| -> f64 {
        let k = if k > c { u - k } else { k };
        if nn == 1 {
            1.0
        } else {
            w[k]
        }
    };
    let f = (-n * M_LN2).exp();
    let mut p = 0.0;
    let mut q = 0usize;
    if x <= 0.5 {
        let x = x - 10.0 * f64::EPSILON;
        loop {
            p += count(q) * f;
            if p >= x {
                break;
            }
            q += 1;
        }
        q as f64
    } else {
        let x = 1.0 - x + 10.0 * f64::EPSILON;
        loop {
            p += count(q) * f;
            if p > x {
                return (u - q) as f64;
            }
            q += 1;
        }
    }
}

/// R's `qwilcox(p, m, n)` for a lower-tail, non-log `p` (wilcox.c).
pub fn qwilcox(x: f64, m: f64, n: f64) -> f64 {
    if x.is_nan() || m.is_nan() || n.is_nan() {
        return x + m + n;
    }
    if !x.is_finite() || !m.is_finite() || !n.is_finite() || !(0.0..=1.0).contains(&x) {
        return f64::NAN;
    }
    let m = m.round_ties_even();
    let n = n.round_ties_even();
    if m <= 0.0 || n <= 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return 0.0;
    }
    if x == 1.0 {
        return m * n;
    }
    let (mm, nn) = (m as usize, n as usize);
    let mut w = Wilcox::new(mm, nn);
    let c = choose(m + n, n);
    let mut p = 0.0;
    let mut q = 0i64;
    if x <= 0.5 {
        let x = x - 10.0 * f64::EPSILON;
        loop {
            p += w.count(q, mm, nn) / c;
            if p >= x {
                break;
            }
            q += 1;
        }
        q as f64
    } else {
        let x = 1.0 - x + 10.0 * f64::EPSILON;
        loop {
            p += w.count(q, mm, nn) / c;
            if p > x {
                return m * n - q as f64;
            }
            q += 1;
        }
    }
}

fn lfastchoose(n: f64, k: f64) -> f64 {
    -(n + 1.0).ln() - lbeta(n - k + 1.0, k + 1.0)
}

/// R's `choose(n, k)` for integer n >= 0 (all the tests need).
pub fn choose(n: f64, k: f64) -> f64 {
    const K_SMALL_MAX: f64 = 30.0;
    let mut k = k.round_ties_even();
    if n.is_nan() || k.is_nan() {
        return n + k;
    }
    let n_is_int = (n - n.round_ties_even()).abs() <= 1e-7 * 1f64.max(n.abs());
    if k < K_SMALL_MAX {
        if n - k < k && n >= 0.0 && n_is_int {
            k = (n - k).round_ties_even();
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
        return if n_is_int { r.round_ties_even() } else { r };
    }
    if n_is_int {
        let n = n.round_ties_even();
        if n < k {
            return 0.0;
        }
        if n - k < K_SMALL_MAX {
            return choose(n, n - k);
        }
        return lfastchoose(n, k).exp().round_ties_even();
    }
    f64::NAN
}

/// R's `lchoose(n, k)` for n >= 0.
pub fn lchoose(n: f64, k: f64) -> f64 {
    let k = k.round_ties_even();
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
    let n_is_int = (n - n.round_ties_even()).abs() <= 1e-7 * 1f64.max(n.abs());
    if n_is_int {
        let n = n.round_ties_even();
        if n < k {
            return f64::NEG_INFINITY;
        }
        if n - k < 2.0 {
            return lchoose(n, n - k);
        }
        return lfastchoose(n, k);
    }
    f64::NAN
}
