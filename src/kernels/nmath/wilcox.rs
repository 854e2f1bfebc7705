//! The distribution of the Wilcoxon rank sum statistic, ported from R's
//! nmath/wilcox.c: `dwilcox`, `pwilcox`, `qwilcox`, `rwilcox` over
//! cwilcox's memoised counts.
//!
//! R memoises cwilcox(k, i, j) in a table of one array per (i, j), of
//! i j / 2 + 1 counts each, allocated as the recursion reaches them; here
//! the arrays live in a map (R's pointer table of (m + 1)(n + 1) entries
//! would alone be terabytes for m = n = 10^6), and the recursion runs on
//! an explicit stack, as R's would overflow the C stack that deep. R
//! computes m n in C ints; flowcast does not wrap it, and m or n past
//! int's range (undefined in R's C) give NaN. R grows the table until the
//! machine is out of memory; flowcast stops at a quarter of it with R's
//! allocation error for the array it could not have.

use std::cell::RefCell;

use super::choose::{choose, lchoose};
use super::dpq::dt_qiv;
use super::{c_int, d0, dt0, dt1, r_calloc};
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

/// A count cwilcox knows without its table, or the table entry it needs:
/// (i, j, k) with i <= j and j <= k <= i j / 2.
enum Node {
    Known(f64),
    Entry(usize, usize, usize),
}

/// cwilcox's reductions before its table: out of range, the symmetry
/// about m n / 2, and few y's below k ("the count is the same as if there
/// were just k y's").
fn node(k: i64, m: usize, n: usize) -> Node {
    let (mut k, mut m, mut n) = (k, m, n);
    loop {
        let u = (m * n) as i64;
        if k < 0 || k > u {
            return Node::Known(0.0);
        }
        let c = u / 2;
        if k > c {
            k = u - k;
        }
        let (i, j) = if m < n { (m, n) } else { (n, m) };
        if j == 0 {
            return Node::Known(if k == 0 { 1.0 } else { 0.0 });
        }
        if (k as usize) < j {
            (m, n) = (i, k as usize);
            continue;
        }
        return Node::Entry(i, j, k as usize);
    }
}

/// wilcox.c's static `w`: cwilcox(k, i, j) for each (i, j) reached, -1
/// where not yet counted. Kept between calls as R keeps it (`with_kept`).
#[derive(Default)]
pub struct Wilcox {
    /// By `i * stride + j`, as R's `w[i][j]`: a 24-by-24 test looks up
    /// some 300,000 entries. Empty until reached.
    w: Vec<Vec<f64>>,
    /// One more than the largest i or j reached so far.
    stride: usize,
    /// The arrays' bytes so far: each new one must fit beside them.
    bytes: f64,
}

impl Wilcox {
    /// Where `w[i][j]` lives, the table widened first when i or j is past
    /// its edge.
    fn slot(&mut self, i: usize, j: usize) -> usize {
        let need = i.max(j) + 1;
        if need > self.stride {
            let old = std::mem::take(&mut self.w);
            let stride = self.stride;
            self.w = vec![Vec::new(); need * need];
            for (at, t) in old.into_iter().enumerate() {
                if !t.is_empty() {
                    self.w[(at / stride) * need + at % stride] = t;
                }
            }
            self.stride = need;
        }
        i * self.stride + j
    }

    fn get(&mut self, e: &Node) -> Result<Option<f64>, String> {
        match *e {
            Node::Known(v) => Ok(Some(v)),
            Node::Entry(i, j, k) => {
                let at = self.slot(i, j);
                if !self.w[at].is_empty() {
                    let v = self.w[at][k];
                    return Ok((v >= 0.0).then_some(v));
                }
                let c = i * j / 2;
                let bytes = (c as f64 + 1.0) * 8.0;
                if !super::super::alloc::within_working_share(self.bytes + bytes) {
                    return Err(format!(
                        "'R_Calloc' could not allocate memory ({} of 8 bytes)",
                        c + 1
                    ));
                }
                let mut t: Vec<f64> = r_calloc(c as u64 + 1)?;
                t.fill(-1.0);
                self.bytes += bytes;
                self.w[at] = t;
                // A new array holds no count yet.
                Ok(None)
            }
        }
    }

    /// `cwilcox(k, m, n)`: the number of choices with statistic k,
    /// `w[i][j][k] = cwilcox(k - j, i - 1, j) + cwilcox(k, i, j - 1)`.
    /// R's recursion, on a stack of frames: each child's count is handed
    /// up once, as a return value, so every entry is computed and looked
    /// up as often as in R.
    fn cwilcox(&mut self, k: i64, m: usize, n: usize) -> Result<f64, String> {
        let top = node(k, m, n);
        if let Some(v) = self.get(&top)? {
            return Ok(v);
        }
        let Node::Entry(i, j, k) = top else {
            unreachable!("a known count was returned above")
        };
        let mut stack = vec![Frame {
            i,
            j,
            k,
            first: None,
        }];
        // The count of the frame popped last, for the frame below it.
        let mut ret: Option<f64> = None;
        while let Some(&Frame { i, j, k, first }) = stack.last() {
            let first = match first.or_else(|| ret.take()) {
                Some(x) => x,
                None => {
                    let a = node(k as i64 - j as i64, i - 1, j);
                    match self.get(&a)? {
                        Some(x) => x,
                        None => {
                            stack.push(Frame::of(a));
                            continue;
                        }
                    }
                }
            };
            let second = match ret.take() {
                Some(y) => y,
                None => {
                    let b = node(k as i64, i, j - 1);
                    match self.get(&b)? {
                        Some(y) => y,
                        None => {
                            if let Some(f) = stack.last_mut() {
                                f.first = Some(first);
                            }
                            stack.push(Frame::of(b));
                            continue;
                        }
                    }
                }
            };
            stack.pop();
            let at = self.slot(i, j);
            if let Some(t) = self.w[at].get_mut(k) {
                *t = first + second;
            }
            ret = Some(first + second);
        }
        Ok(ret.unwrap_or(f64::NAN))
    }
}

/// One pending `cwilcox(k, i, j)` of R's recursion, with its first term
/// once counted.
#[derive(Clone, Copy)]
struct Frame {
    i: usize,
    j: usize,
    k: usize,
    first: Option<f64>,
}

impl Frame {
    fn of(e: Node) -> Frame {
        let Node::Entry(i, j, k) = e else {
            unreachable!("only table entries are stacked")
        };
        Frame {
            i,
            j,
            k,
            first: None,
        }
    }
}

/// m and n as wilcox.c's ints, or None where R's C is undefined.
fn ints(m: f64, n: f64) -> Option<(usize, usize)> {
    let (mm, nn) = (c_int(m), c_int(n));
    (mm > 0 && nn > 0).then_some((mm as usize, nn as usize))
}

/// wilcox.c's `dwilcox(x, m, n, give_log)`.
pub fn dwilcox(w: &mut Wilcox, x: f64, m: f64, n: f64, give_log: bool) -> Result<f64, String> {
    if x.is_nan() || m.is_nan() || n.is_nan() {
        return Ok(x + m + n);
    }
    let m = m.round_ties_even();
    let n = n.round_ties_even();
    if m <= 0.0 || n <= 0.0 {
        return Ok(f64::NAN);
    }
    if (x - x.round_ties_even()).abs() > 1e-7 {
        return Ok(d0(give_log));
    }
    let x = x.round_ties_even();
    if x < 0.0 || x > m * n {
        return Ok(d0(give_log));
    }
    let Some((mm, nn)) = ints(m, n) else {
        return Ok(f64::NAN);
    };
    let xx = c_int(x) as i64;
    Ok(if give_log {
        w.cwilcox(xx, mm, nn)?.ln() - lchoose(m + n, n)
    } else {
        w.cwilcox(xx, mm, nn)? / choose(m + n, n)
    })
}

/// wilcox.c's `pwilcox(q, m, n, lower_tail, log_p)`.
pub fn pwilcox(
    w: &mut Wilcox,
    q: f64,
    m: f64,
    n: f64,
    lower_tail: bool,
    log_p: bool,
) -> Result<f64, String> {
    if q.is_nan() || m.is_nan() || n.is_nan() {
        return Ok(q + m + n);
    }
    if !m.is_finite() || !n.is_finite() {
        return Ok(f64::NAN);
    }
    let m = m.round_ties_even();
    let n = n.round_ties_even();
    if m <= 0.0 || n <= 0.0 {
        return Ok(f64::NAN);
    }
    let mut q = (q + 1e-7).floor();
    if q < 0.0 {
        return Ok(dt0(lower_tail, log_p));
    }
    if q >= m * n {
        return Ok(dt1(lower_tail, log_p));
    }
    let Some((mm, nn)) = ints(m, n) else {
        return Ok(f64::NAN);
    };
    let c = choose(m + n, n);
    let mut p = 0.0;
    let mut lower_tail = lower_tail;
    // Use summation of probs over the shorter range
    if q <= m * n / 2.0 {
        let mut i: i32 = 0;
        while f64::from(i) <= q {
            p += w.cwilcox(i64::from(i), mm, nn)? / c;
            i += 1;
        }
    } else {
        q = m * n - q;
        let mut i: i32 = 0;
        while f64::from(i) < q {
            p += w.cwilcox(i64::from(i), mm, nn)? / c;
            i += 1;
        }
        lower_tail = !lower_tail;
    }
    Ok(dt_val(p, lower_tail, log_p))
}

/// wilcox.c's `qwilcox(x, m, n, lower_tail, log_p)`.
pub fn qwilcox(
    w: &mut Wilcox,
    x: f64,
    m: f64,
    n: f64,
    lower_tail: bool,
    log_p: bool,
) -> Result<f64, String> {
    if x.is_nan() || m.is_nan() || n.is_nan() {
        return Ok(x + m + n);
    }
    if !x.is_finite() || !m.is_finite() || !n.is_finite() {
        return Ok(f64::NAN);
    }
    // R_Q_P01_check
    if (log_p && x > 0.0) || (!log_p && !(0.0..=1.0).contains(&x)) {
        return Ok(f64::NAN);
    }
    let m = m.round_ties_even();
    let n = n.round_ties_even();
    if m <= 0.0 || n <= 0.0 {
        return Ok(f64::NAN);
    }
    if x == dt0(lower_tail, log_p) {
        return Ok(0.0);
    }
    if x == dt1(lower_tail, log_p) {
        return Ok(m * n);
    }
    let mut x = x;
    if log_p || !lower_tail {
        x = dt_qiv(x, lower_tail, log_p);
    }
    let Some((mm, nn)) = ints(m, n) else {
        return Ok(f64::NAN);
    };
    let c = choose(m + n, n);
    let mut p = 0.0;
    let mut q: i32 = 0;
    if x <= 0.5 {
        x -= 10.0 * f64::EPSILON;
        loop {
            p += w.cwilcox(i64::from(q), mm, nn)? / c;
            if p >= x {
                break;
            }
            q += 1;
        }
    } else {
        x = 1.0 - x + 10.0 * f64::EPSILON;
        loop {
            p += w.cwilcox(i64::from(q), mm, nn)? / c;
            if p > x {
                q = c_int(m * n - f64::from(q));
                break;
            }
            q += 1;
        }
    }
    Ok(f64::from(q))
}

/// rwilcox's working array of m + n ints, as R allocates it: `(int)(m +
/// n)` elements (a wrapped, absurd count where m + n is past int's range).
/// R's error when it cannot be had; m and n as the caller rounded them.
fn rwilcox_array(m: f64, n: f64) -> Result<Vec<i32>, String> {
    let k = c_int(m + n);
    r_calloc((k as i64) as u64)
}

/// Whether rwilcox(m, n) can allocate its array: R fails the call when
/// one draw cannot.
pub fn rwilcox_room(m: f64, n: f64) -> Result<(), String> {
    if m.is_nan() || n.is_nan() {
        return Ok(());
    }
    let (m, n) = (m.round_ties_even(), n.round_ties_even());
    if m <= 0.0 || n <= 0.0 {
        return Ok(());
    }
    let k = c_int(m + n);
    let nelem = (k as i64) as u64;
    let bytes = nelem as f64 * 4.0;
    if nelem > isize::MAX as u64 || super::super::alloc::ensure_room(bytes).is_err() {
        return Err(format!(
            "'R_Calloc' could not allocate memory ({:.0} of 4 bytes)",
            nelem as f64
        ));
    }
    Ok(())
}

/// wilcox.c's `rwilcox(m, n)`: the sum of n ranks drawn without
/// replacement from 0..m+n, less n (n - 1) / 2.
pub fn rwilcox(m: f64, n: f64, rng: &mut Rng) -> f64 {
    if m.is_nan() || n.is_nan() {
        return m + n;
    }
    let m = m.round_ties_even();
    let n = n.round_ties_even();
    if m < 0.0 || n < 0.0 {
        return f64::NAN;
    }
    if m == 0.0 || n == 0.0 {
        return 0.0;
    }
    let mut r = 0.0;
    let Ok(mut x) = rwilcox_array(m, n) else {
        return f64::NAN;
    };
    let mut k = x.len();
    for (i, v) in x.iter_mut().enumerate() {
        *v = i as i32;
    }
    let mut i = 0.0;
    while i < n {
        let j = rng.unif_index(k as f64) as usize;
        r += f64::from(x[j]);
        k -= 1;
        x[j] = x[k];
        i += 1.0;
    }
    r - n * (n - 1.0) / 2.0
}

/// `pwilcox` for `wilcox.test`, whose samples are small: NaN should the
/// table not fit.
pub fn pwilcox1(q: f64, m: f64, n: f64, lower_tail: bool, log_p: bool) -> f64 {
    with_kept(|w| pwilcox(w, q, m, n, lower_tail, log_p)).unwrap_or(f64::NAN)
}

/// `qwilcox` (lower tail, not log) for `wilcox.test`'s intervals.
pub fn qwilcox1(x: f64, m: f64, n: f64) -> f64 {
    with_kept(|w| qwilcox(w, x, m, n, true, false)).unwrap_or(f64::NAN)
}

/// wilcox.c's `WILCOX_MAX`: R keeps the table between calls while m and n
/// stay at most this (`w_free_maybe`).
const WILCOX_MAX: usize = 50;

thread_local! {
    /// The table kept between calls, one per worker thread. A count does
    /// not depend on which calls reached it first, so keeping it changes
    /// no bit; it makes a second exact test of the same sizes a lookup,
    /// as in R.
    static KEPT: RefCell<Wilcox> = RefCell::new(Wilcox::default());
}

/// Runs `f` on this thread's kept table, which is dropped afterwards, as
/// R's `w_free_maybe` does, if `f` reached m or n past `WILCOX_MAX`.
pub fn with_kept<T>(f: impl FnOnce(&mut Wilcox) -> T) -> T {
    KEPT.with(|kept| match kept.try_borrow_mut() {
        Ok(mut w) => {
            let out = f(&mut w);
            if w.stride > WILCOX_MAX + 1 {
                *w = Wilcox::default();
            }
            out
        }
        // Only a nested call could get here; it counts on its own table.
        Err(_) => f(&mut Wilcox::default()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts reached in another order, from other calls, are the same
    /// bits: past 2^53 too (40 and 45), where they are rounded.
    #[test]
    fn the_kept_table_changes_no_bit() {
        let sizes = [(24.0, 25.0), (40.0, 45.0)];
        let fresh: Vec<Vec<f64>> = sizes
            .iter()
            .map(|&(m, n)| {
                (0..=900)
                    .map(|q| pwilcox(&mut Wilcox::default(), f64::from(q), m, n, true, false))
                    .map(Result::unwrap)
                    .collect()
            })
            .collect();
        with_kept(|w| {
            for q in (0..=1800).rev() {
                let _ = pwilcox(w, f64::from(q), 45.0, 40.0, false, false);
                let _ = dwilcox(w, f64::from(q), 25.0, 24.0, true);
            }
        });
        for (&(m, n), fresh) in sizes.iter().zip(&fresh) {
            for (q, want) in fresh.iter().enumerate() {
                let got = pwilcox1(q as f64, m, n, true, false);
                assert_eq!(got.to_bits(), want.to_bits(), "pwilcox({q}, {m}, {n})");
            }
        }
        KEPT.with(|k| assert!(k.borrow().stride > 0));
        // R frees the table once m or n passes WILCOX_MAX.
        let _ = with_kept(|w| dwilcox(w, 100.0, 60.0, 3.0, false));
        KEPT.with(|k| assert_eq!(k.borrow().stride, 0));
    }
}
