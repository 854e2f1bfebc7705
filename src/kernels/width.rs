//! How many workers the running call may use: 1 unless the executor runs a
//! moldable call k wide. The executor decides; a kernel that can split its
//! work asks [`width`] and splits it that many ways, never more.
//!
//! A kernel split this way must give the same numbers as on one worker
//! (the splits never cut through a sum: each output element is computed
//! whole by one thread), so results never depend on the plan; one that
//! cannot runs its work [`narrow`]. tests/moldable.rs checks the bits.

use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Mutex, OnceLock, PoisonError};

thread_local! {
    static WIDTH: Cell<usize> = const { Cell::new(1) };
}

/// Workers the running call may use.
pub fn width() -> usize {
    WIDTH.with(Cell::get)
}

/// faer's parallelism for the running call.
pub fn par() -> faer::Par {
    match width() {
        0 | 1 => faer::Par::Seq,
        k => faer::Par::rayon(k),
    }
}

/// Keeps faer's convenience routines (`singular_values`, `svd`,
/// `inverse`, …), which take faer's global parallelism, on the calling
/// thread. By default they run on every core: called from a planned
/// worker, that put a second thread on the core another worker was
/// planned to use, and woke rayon's pool thousands of times a run (an
/// svd's matrix-vector products, and the loop beside them, ran 1.2x
/// slower on 2 cores). A call runs on the workers it is given; a kernel
/// that splits its work asks [`par`].
pub fn faer_on_given_workers() {
    faer::set_global_parallelism(faer::Par::Seq);
}

/// Runs `f` one worker wide, even inside a wide call: for a kernel whose
/// parallel path would not give the one-worker numbers.
pub fn narrow<T>(f: impl FnOnce() -> T) -> T {
    let before = WIDTH.with(|w| w.replace(1));
    let out = f();
    WIDTH.with(|w| w.set(before));
    out
}

/// Idle pools, by width, kept: building one costs k thread starts, and the
/// same widths recur every run. A pool serves one call at a time: two
/// calls of the same width sharing one would split its k threads between
/// them, each running at half the speed its k held workers were planned
/// for.
type Idle = Mutex<HashMap<usize, Vec<rayon::ThreadPool>>>;

fn idle() -> &'static Idle {
    static IDLE: OnceLock<Idle> = OnceLock::new();
    IDLE.get_or_init(Default::default)
}

/// The most threads kept idle in pools: each reserves its stack's address
/// space, and a plan on more workers than cores, whose calls could leave
/// a pool of every width behind, gains nothing from keeping them.
fn idle_limit() -> usize {
    2 * crate::cores::cores()
}

/// A pool of `k` threads, lent to one call; back among the idle ones when
/// dropped.
struct Lease {
    k: usize,
    pool: Option<rayon::ThreadPool>,
}

impl Lease {
    /// An idle pool of `k` threads, or a new one (`None` without threads
    /// to spare).
    fn take(k: usize, stack: usize) -> Option<Lease> {
        let kept = idle()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_mut(&k)
            .and_then(Vec::pop);
        let pool = match kept {
            Some(p) => p,
            None => {
                static BUILT: AtomicUsize = AtomicUsize::new(0);
                let n = BUILT.fetch_add(1, AtomicOrdering::Relaxed);
                rayon::ThreadPoolBuilder::new()
                    .num_threads(k)
                    .stack_size(stack)
                    .thread_name(move |i| format!("flowcast-wide{k}.{n}-{i}"))
                    .build()
                    .ok()?
            }
        };
        Some(Lease {
            k,
            pool: Some(pool),
        })
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(p) = self.pool.take() else {
            return;
        };
        let mut idle = idle().lock().unwrap_or_else(PoisonError::into_inner);
        let kept: usize = idle.iter().map(|(k, pools)| k * pools.len()).sum();
        if kept + self.k <= idle_limit() {
            idle.entry(self.k).or_default().push(p);
        }
    }
}

/// Runs `f` as a call `k` workers wide: on a pool of k threads of its own
/// (each with `stack` bytes of stack), with [`width`] saying k. Without
/// threads to spare it runs on the caller, one wide.
pub fn run_wide<T: Send>(k: usize, stack: usize, f: impl FnOnce() -> T + Send) -> T {
    let set = |k: usize| WIDTH.with(|w| w.replace(k));
    let lease = if k > 1 { Lease::take(k, stack) } else { None };
    match lease.as_ref().and_then(|l| l.pool.as_ref()) {
        Some(p) => p.install(|| {
            let before = set(k);
            let out = f();
            set(before);
            out
        }),
        None => f(),
    }
}

/// Splits `0..n` into at most [`width`] contiguous ranges and runs `body`
/// on each, in parallel when wider than one; each range writes only what
/// it owns, so the result is the one-worker result.
pub fn for_ranges(n: usize, body: impl Fn(std::ops::Range<usize>) + Sync) {
    let k = width().min(n.max(1));
    if k <= 1 {
        body(0..n);
        return;
    }
    rayon::scope(|s| {
        let body = &body;
        for j in 0..k {
            let r = j * n / k..(j + 1) * n / k;
            s.spawn(move |_| body(r));
        }
    });
}

/// `body` on at most [`width`] contiguous ranges of `0..n`, in parallel
/// when wider than one; their results joined in range order, so the
/// result is the one-worker result.
pub fn map_ranges<T: Send>(
    n: usize,
    body: impl Fn(std::ops::Range<usize>) -> Vec<T> + Sync,
) -> Vec<T> {
    let k = width().min(n.max(1));
    if k <= 1 {
        return body(0..n);
    }
    let mut parts: Vec<Vec<T>> = (0..k).map(|_| Vec::new()).collect();
    rayon::scope(|s| {
        let body = &body;
        for (j, part) in parts.iter_mut().enumerate() {
            let r = j * n / k..(j + 1) * n / k;
            s.spawn(move |_| *part = body(r));
        }
    });
    parts.into_iter().flatten().collect()
}

/// `body(i)` for every `i` in `0..n`, results in index order. On a wide
/// call the workers take the indices one at a time, so pieces of uneven
/// cost (kmeans' starts) still keep every worker busy.
pub fn map_each<T: Send>(n: usize, body: impl Fn(usize) -> T + Sync) -> Vec<T> {
    use rayon::prelude::*;
    if width() <= 1 || n <= 1 {
        return (0..n).map(body).collect();
    }
    let body = &body;
    (0..n).into_par_iter().with_max_len(1).map(body).collect()
}

/// A stable sort, split among the running call's workers when wider than
/// one and long enough to gain. Each worker sorts a contiguous run with
/// the standard library's stable sort, then neighbouring runs are merged
/// in rounds, pairs in parallel, the left run first among equals. A stable
/// sort's order is unique, so this gives `slice::sort_by`'s order exactly,
/// whatever the width: ranks and tie counts keep their one-worker bits.
pub fn sort_by<T: Send + Sync + Clone>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering + Sync) {
    // Below this a sort takes under a millisecond: not worth the handoff.
    const PARALLEL_FROM: usize = 1 << 15;
    let n = v.len();
    let k = width().min(n / (PARALLEL_FROM / 4).max(1));
    if k <= 1 || n < PARALLEL_FROM {
        v.sort_by(cmp);
        return;
    }
    let mut bounds: Vec<usize> = (0..=k).map(|j| j * n / k).collect();
    {
        let cmp = &cmp;
        let mut rest: &mut [T] = v;
        let mut runs = Vec::with_capacity(k);
        for j in 0..k {
            let (run, tail) = rest.split_at_mut(bounds[j + 1] - bounds[j]);
            runs.push(run);
            rest = tail;
        }
        rayon::scope(|s| {
            for run in runs {
                s.spawn(move |_| run.sort_by(cmp));
            }
        });
    }
    // The runs live in `v` or in `buf`, alternately, round by round.
    let mut buf: Vec<T> = v.to_vec();
    let mut in_v = true;
    while bounds.len() > 2 {
        if in_v {
            merge_round(v, &mut buf, &bounds, &cmp);
        } else {
            merge_round(&buf, v, &bounds, &cmp);
        }
        in_v = !in_v;
        let odd_last = (bounds.len() % 2 == 0).then(|| bounds[bounds.len() - 1]);
        bounds = bounds.iter().copied().step_by(2).chain(odd_last).collect();
    }
    if !in_v {
        v.clone_from_slice(&buf);
    }
}

/// One round of [`sort_by`]'s merges: runs `bounds[2i]..bounds[2i+1]` and
/// `bounds[2i+1]..bounds[2i+2]` of `src` merged into the same span of
/// `dst`; an odd last run is copied.
fn merge_round<T: Send + Sync + Clone>(
    src: &[T],
    dst: &mut [T],
    bounds: &[usize],
    cmp: &(impl Fn(&T, &T) -> Ordering + Sync),
) {
    let mut spans = Vec::new();
    let mut rest: &mut [T] = dst;
    let mut at = 0;
    let mut i = 0;
    while i + 1 < bounds.len() {
        let (lo, mid) = (bounds[i], bounds[i + 1]);
        let hi = bounds.get(i + 2).copied().unwrap_or(mid);
        let (_, tail) = rest.split_at_mut(lo - at);
        let (span, tail) = tail.split_at_mut(hi - lo);
        spans.push((span, lo, mid, hi));
        rest = tail;
        at = hi;
        i += 2;
    }
    rayon::scope(|s| {
        for (span, lo, mid, hi) in spans {
            s.spawn(move |_| {
                let (mut a, mut b) = (lo, mid);
                for out in span.iter_mut() {
                    // The left run wins ties: stability.
                    let left = b >= hi || (a < mid && cmp(&src[b], &src[a]) != Ordering::Less);
                    if left {
                        *out = src[a].clone();
                        a += 1;
                    } else {
                        *out = src[b].clone();
                        b += 1;
                    }
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_pools_keep_a_bounded_number_of_threads() {
        // Calls at once, each two wide on a pool of its own: more threads
        // than may be kept idle.
        let n = idle_limit() + 2;
        let all = std::sync::Barrier::new(n);
        std::thread::scope(|s| {
            for _ in 0..n {
                s.spawn(|| run_wide(2, 1 << 20, || all.wait()));
            }
        });
        let idle = idle().lock().unwrap();
        let kept: usize = idle.iter().map(|(k, pools)| k * pools.len()).sum();
        assert!(kept <= idle_limit(), "{kept} threads kept");
    }

    /// Stability shows only in what equal keys carry: sort (key, place)
    /// pairs by key alone, with many ties, at every width.
    #[test]
    fn the_wide_sort_is_the_stable_sort_at_every_width() {
        let mut s = 12345u64;
        let pairs: Vec<(u32, usize)> = (0..100_003)
            .map(|i| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                ((s >> 40) as u32 % 997, i)
            })
            .collect();
        let mut want = pairs.clone();
        want.sort_by_key(|a| a.0);
        for k in 1..=7 {
            let mut got = pairs.clone();
            run_wide(k, 1 << 20, || sort_by(&mut got, |a, b| a.0.cmp(&b.0)));
            assert!(got == want, "width {k}");
        }
        // Short slices sort whole, on the caller.
        let mut short = vec![3, 1, 2];
        run_wide(4, 1 << 20, || sort_by(&mut short, |a, b| a.cmp(b)));
        assert_eq!(short, [1, 2, 3]);
    }
}
