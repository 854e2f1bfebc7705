//! How many workers the running call may use: 1 unless the executor runs a
//! moldable call k wide. The executor decides; a kernel that can split its
//! work asks [`width`] and splits it that many ways, never more.
//!
//! A kernel split this way must give the same numbers as on one worker
//! (the splits never cut through a sum: each output element is computed
//! whole by one thread), so results never depend on the plan; one that
//! cannot runs its work [`narrow`]. tests/moldable.rs checks the bits.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

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

/// Runs `f` one worker wide, even inside a wide call: for a kernel whose
/// parallel path would not give the one-worker numbers.
pub fn narrow<T>(f: impl FnOnce() -> T) -> T {
    let before = WIDTH.with(|w| w.replace(1));
    let out = f();
    WIDTH.with(|w| w.set(before));
    out
}

/// One pool per width, kept: building one costs k thread starts, and the
/// same widths recur every run.
fn pool(k: usize, stack: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(p) = pools.get(&k) {
        return Some(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(k)
        .stack_size(stack)
        .thread_name(move |i| format!("flowcast-wide{k}-{i}"))
        .build()
        .ok()?;
    let p = Arc::new(p);
    pools.insert(k, Arc::clone(&p));
    Some(p)
}

/// Runs `f` as a call `k` workers wide: on a pool of k threads (each with
/// `stack` bytes of stack), with [`width`] saying k. Without threads to
/// spare it runs on the caller, one wide.
pub fn run_wide<T: Send>(k: usize, stack: usize, f: impl FnOnce() -> T + Send) -> T {
    let set = |k: usize| WIDTH.with(|w| w.replace(k));
    match pool(k, stack).filter(|_| k > 1) {
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
