//! The exact distribution of the Ansari-Bradley statistic, ported from R's
//! stats/src/ansari.c (`cansari`, `pansari`, `qansari`), which
//! `ansari.test` reads for samples without ties.
//!
//! R memoises cansari(k, m, n) in one array per (m, n) reached, of
//! `u + 1` counts each; here the arrays live in a map keyed by (m, n) and
//! the recursion runs on an explicit stack (R's would overflow the C
//! stack for large samples). R's R_alloc grows the table until the
//! machine is out of memory; flowcast stops at a quarter of it with R's
//! allocation error for the array it could not have. The counts are
//! exact integers held in doubles, so the order in which entries are
//! filled does not change them.

use std::collections::HashMap;

use super::choose::choose;

/// `l` and `u` of ansari.c: the statistic's range for m x's among m + n,
/// in C's integer arithmetic (i64 here, where R's int would wrap for
/// samples this port refuses anyway).
fn bounds(m: i64, n: i64) -> (i64, i64) {
    let l = (m + 1) * (m + 1) / 4;
    (l, l + m * n / 2)
}

/// ansari.c's `w`: an array of counts per (m, n), -1 where not yet
/// counted. One per test, as R frees it when `.Call` returns.
#[derive(Default)]
pub struct Ansari {
    w: HashMap<(i64, i64), Vec<f64>>,
    bytes: f64,
}

impl Ansari {
    /// `w[m][n][k]` when counted, allocating `w[m][n]` as cansari does
    /// the first time (m, n) is reached.
    fn entry(&mut self, k: i64, m: i64, n: i64) -> Result<Option<f64>, String> {
        let (l, u) = bounds(m, n);
        if k < l || k > u {
            return Ok(Some(0.0));
        }
        if let Some(t) = self.w.get(&(m, n)) {
            let v = t[k as usize];
            return Ok((v >= 0.0).then_some(v));
        }
        let bytes = (u as f64 + 1.0) * 8.0;
        if !super::super::alloc::within_working_share(self.bytes + bytes)
            || super::super::alloc::ensure_room(bytes).is_err()
        {
            return Err(super::super::alloc::cannot_allocate(bytes).0);
        }
        self.bytes += bytes;
        self.w.insert((m, n), vec![-1.0; u as usize + 1]);
        Ok(None)
    }

    /// ansari.c's `cansari(k, m, n, w)`: the number of ways the statistic
    /// is k, `w[m][n][k] = cansari(k, m, n - 1) + cansari(k - (m + n +
    /// 1) / 2, m - 1, n)`.
    pub fn cansari(&mut self, k: i64, m: i64, n: i64) -> Result<f64, String> {
        if let Some(v) = self.entry(k, m, n)? {
            return Ok(v);
        }
        let mut stack = vec![(k, m, n)];
        while let Some(&(k, m, n)) = stack.last() {
            let value = if m == 0 {
                Some(f64::from(u8::from(k == 0)))
            } else if n == 0 {
                Some(f64::from(u8::from(k == bounds(m, n).0)))
            } else {
                let a = (k, m, n - 1);
                let b = (k - (m + n + 1) / 2, m - 1, n);
                match (self.entry(a.0, a.1, a.2)?, self.entry(b.0, b.1, b.2)?) {
                    (Some(x), Some(y)) => Some(x + y),
                    (None, _) => {
                        stack.push(a);
                        None
                    }
                    (_, None) => {
                        stack.push(b);
                        None
                    }
                }
            };
            if let Some(v) = value {
                if let Some(t) = self.w.get_mut(&(m, n)).and_then(|t| t.get_mut(k as usize)) {
                    *t = v;
                }
                stack.pop();
            }
        }
        Ok(self.entry(k, m, n)?.unwrap_or(f64::NAN))
    }

    /// ansari.c's `pansari` for one quantile: P(AB <= q).
    pub fn pansari(&mut self, q: f64, m: i64, n: i64) -> Result<f64, String> {
        let (l, u) = bounds(m, n);
        let c = choose((m + n) as f64, m as f64);
        let q = (q + 1e-7).floor();
        if q < l as f64 {
            return Ok(0.0);
        }
        if q > u as f64 {
            return Ok(1.0);
        }
        let mut p = 0.0;
        for j in l..=q as i64 {
            p += self.cansari(j, m, n)?;
        }
        Ok(p / c)
    }

    /// ansari.c's `qansari` for one probability. R's loop would run on
    /// past `u` (for ever) should rounding keep the sum below `xi`; the
    /// port stops there.
    pub fn qansari(&mut self, xi: f64, m: i64, n: i64) -> Result<f64, String> {
        let (l, u) = bounds(m, n);
        let c = choose((m + n) as f64, m as f64);
        if !(0.0..=1.0).contains(&xi) {
            return Err("probabilities outside [0,1] in qansari()".to_string());
        }
        if xi == 0.0 {
            return Ok(l as f64);
        }
        if xi == 1.0 {
            return Ok(u as f64);
        }
        let mut p = 0.0;
        let mut q = 0;
        loop {
            p += self.cansari(q, m, n)? / c;
            if p >= xi || q >= u {
                break;
            }
            q += 1;
        }
        Ok(q as f64)
    }
}

/// Whether ansari.c's tables for m and n could be had: the arrays of every
/// (i, j) it may reach, `(i + 1)^2 / 4 + i j / 2 + 1` counts each, at
/// most, within flowcast's working share.
pub fn table_fits(m: f64, n: f64) -> bool {
    let bytes = 8.0 * (m + 1.0) * (n + 1.0) * ((m + 1.0) * (m + 1.0) / 4.0 + m * n / 2.0 + 1.0);
    m < 1e6 && n < 1e6 && super::super::alloc::within_working_share(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distribution_sums_to_one_and_matches_r() {
        let mut a = Ansari::default();
        // R: .Call(stats:::C_pAnsari, 0:20, 4L, 5L)
        assert_eq!(a.pansari(100.0, 4, 5).unwrap(), 1.0);
        let (l, u) = bounds(4, 5);
        let total: f64 = (l..=u).map(|k| a.cansari(k, 4, 5).unwrap()).sum();
        assert_eq!(total, choose(9.0, 4.0));
        assert_eq!(a.pansari(5.0, 4, 5).unwrap(), 0.0);
        assert_eq!(a.qansari(0.0, 4, 5).unwrap(), l as f64);
        assert!(a.qansari(1.5, 4, 5).is_err());
    }
}
