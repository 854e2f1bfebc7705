//! One loop run on its own under a [`LoopPolicy`]: static blocks of equal
//! predicted cost, cyclic (iteration i on worker i mod k), or guided
//! chunks (⌈remaining / 2k⌉ iterations claimed by whichever worker is
//! free). What `flowcast bench loops` times each policy with. Each
//! iteration runs exactly once and draws from its own stream, so the value
//! is the same under every policy, and the same as any run's.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::{Engine, Event, Given, LoopValues};
use crate::cost::Profile;
use crate::graph::{TaskGraph, TaskId};
use crate::kernels::Value;
use crate::sched::{LoopKind, LoopPolicy};
use crate::workflow::depth::WALK_STACK;
use crate::workflow::Workflow;

/// A loop's value and the blocks each worker ran, with their times since
/// the loop started.
pub struct LoopRun {
    pub value: Value,
    pub blocks: Vec<(Range<usize>, usize, Duration, Duration)>,
    pub seconds: f64,
}

/// The chunks guided scheduling claims from `remaining` iterations on `k`
/// workers: ⌈remaining / 2k⌉, at least one.
pub fn guided_chunk(remaining: usize, k: usize) -> usize {
    remaining.div_ceil(2 * k.max(1)).max(1)
}

/// Which iterations worker `t` of `k` runs, in order, under `kind`, for a
/// loop of `n` whose costs are `profile` (guided: claimed at run time,
/// so `None`).
pub fn assigned(
    kind: LoopKind,
    n: usize,
    k: usize,
    t: usize,
    profile: &Profile,
) -> Option<Vec<Range<usize>>> {
    match kind {
        LoopKind::Static => Some(
            profile
                .equal_cost_blocks(n, k)
                .into_iter()
                .nth(t)
                .into_iter()
                .collect(),
        ),
        LoopKind::Cyclic => Some((t..n).step_by(k.max(1)).map(|i| i..i + 1).collect()),
        LoopKind::Guided => None,
    }
}

/// Runs loop `id` of `graph`, whose inputs are `inputs`, under `policy`.
pub fn run_loop(
    wf: &Workflow,
    graph: &TaskGraph,
    id: TaskId,
    inputs: &HashMap<String, Arc<Value>>,
    seed: i64,
    policy: LoopPolicy,
    profile: &Profile,
) -> Result<LoopRun, String> {
    let n = graph
        .tasks
        .get(id)
        .and_then(|t| t.iterations.as_ref())
        .map(Vec::len)
        .ok_or_else(|| format!("task {id} is not a loop"))?;
    let cancel = AtomicBool::new(false);
    let given = Given::default();
    let sink = |_: Event| {};
    let engine = Engine::new(wf, graph, &given, seed, &sink, &cancel);
    let k = policy.threads.clamp(1, n.max(1));
    let pieces: Mutex<Vec<(Range<usize>, LoopValues)>> = Mutex::new(Vec::new());
    let blocks = Mutex::new(Vec::new());
    let failure: Mutex<Option<(usize, String)>> = Mutex::new(None);
    let next = AtomicUsize::new(0);
    let started = engine.now();
    let worker = |t: usize| {
        let run = |r: Range<usize>| -> bool {
            if r.is_empty() {
                return true;
            }
            let begin = engine.now();
            match engine.eval_iterations(id, inputs, Some(r.clone()), false) {
                Ok(v) => {
                    let end = engine.now();
                    lock(&pieces).push((r.clone(), v));
                    lock(&blocks).push((r, t, begin - started, end - started));
                    true
                }
                Err(e) => {
                    // R stops at the first failing iteration: the error is
                    // the earliest failed range's (ranges are disjoint, and
                    // a worker's come in order, so it stops here).
                    let mut f = lock(&failure);
                    if f.as_ref().is_none_or(|(s, _)| *s > r.start) {
                        *f = Some((r.start, e.message));
                    }
                    false
                }
            }
        };
        match assigned(policy.kind, n, k, t, profile) {
            Some(ranges) => {
                for r in ranges {
                    if !run(r) {
                        return;
                    }
                }
            }
            None => loop {
                let mut cur = next.load(Ordering::Relaxed);
                let claimed = loop {
                    if cur >= n {
                        break None;
                    }
                    let end = cur + guided_chunk(n - cur, k);
                    match next.compare_exchange(cur, end, Ordering::AcqRel, Ordering::Relaxed) {
                        Ok(_) => break Some(cur..end),
                        Err(now) => cur = now,
                    }
                };
                let Some(r) = claimed else { return };
                if !run(r) {
                    return;
                }
            },
        }
    };
    let spawned = std::thread::scope(|s| {
        for t in 0..k {
            let w = &worker;
            std::thread::Builder::new()
                .name(format!("flowcast-loop-{t}"))
                .stack_size(WALK_STACK)
                .spawn_scoped(s, move || w(t))
                .map_err(|e| format!("cannot start worker {t}: {e}"))?;
        }
        Ok::<(), String>(())
    });
    let seconds = (engine.now() - started).as_secs_f64();
    spawned?;
    if let Some((_, e)) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    let mut pieces = pieces.into_inner().unwrap_or_else(PoisonError::into_inner);
    pieces.sort_by_key(|(r, _)| r.start);
    let ran: usize = pieces.iter().map(|(r, _)| r.len()).sum();
    if ran != n || pieces.windows(2).any(|w| w[0].0.end != w[1].0.start) {
        return Err(format!(
            "the {} policy ran {ran} of {n} iterations",
            policy.kind.name()
        ));
    }
    let mut values = LoopValues::default();
    for (_, v) in pieces {
        values.append(v);
    }
    let mut blocks = blocks.into_inner().unwrap_or_else(PoisonError::into_inner);
    blocks.sort_by_key(|b| b.0.start);
    Ok(LoopRun {
        value: values.into_value(),
        blocks,
        seconds,
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
