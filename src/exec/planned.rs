//! The static executor: p workers following a plan through a
//! [`Runtime`], which hands each idle worker its next piece of work (a
//! call, or some iterations of a loop) and re-plans what has not started
//! when the run departs from the forecast. A loop's value is assembled, in
//! iteration order, by the worker that finishes its last iteration.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::remote::Cluster;
use super::wire::Made;
use super::{Engine, EvalError, Event, LoopValues, RunReport, StepOutcome};
use crate::graph::TaskId;
use crate::kernels::{width, Value};
use crate::sched::runtime::Work;
use crate::sched::Runtime;
use crate::workflow::depth::WALK_STACK;

/// One finished piece of a loop: its iterations and their values.
type Piece = (Range<usize>, LoopValues);

/// A loop in progress: its pieces' values, where it started, and its
/// failed piece that starts first with that piece's error.
#[derive(Default)]
struct LoopParts {
    pieces: Vec<Piece>,
    first: Option<(usize, Duration)>,
    failed: Option<(usize, EvalError)>,
}

impl LoopParts {
    /// Whether a piece starting at `start` can no longer change the
    /// loop's outcome: it follows a failed piece (pieces are disjoint, so
    /// it holds no iteration before that failure).
    fn after_failure(&self, start: usize) -> bool {
        self.failed.as_ref().is_some_and(|(s, _)| start > *s)
    }
}

/// How often a waiting worker looks for work nobody woke it for: half of
/// another worker's running block.
const IDLE_LOOK: Duration = Duration::from_millis(5);

/// How long an idle worker watches for new work before it sleeps: waking a
/// sleeping thread costs tens to hundreds of microseconds, as much as a
/// small call, and a run of small calls pays it at every hand-off.
const SPIN: Duration = Duration::from_micros(100);

struct State {
    rt: Runtime,
    values: HashMap<String, Arc<Value>>,
    outcomes: Vec<Option<StepOutcome>>,
    loops: HashMap<TaskId, LoopParts>,
    /// Workers computing right now.
    active: usize,
    /// No worker computes and none can start anything: only a plan that
    /// does not fit the graph gets here; what is left is reported unrun.
    stalled: bool,
}

/// Runs `rt`'s plan to the end and returns the report and the runtime
/// (whose [`Runtime::followed`] is the plan as it was followed).
pub(super) fn run(
    engine: Engine<'_>,
    rt: Runtime,
    cluster: Option<&Cluster>,
) -> Result<(RunReport, Runtime), String> {
    let n = engine.graph.tasks.len();
    if rt.dag().nodes.len() != n {
        return Err(format!(
            "the plan has {} tasks but the workflow {n}",
            rt.dag().nodes.len()
        ));
    }
    let workers = rt.workers();
    if let Some(c) = cluster {
        if c.workers() != workers {
            return Err(format!(
                "the plan has {workers} workers but the ranks {}",
                c.workers()
            ));
        }
        c.begin(engine.wf, engine.seed);
    }
    // Spinning pays only when each worker has a core of its own:
    // oversubscribed, a spinning worker takes time from a working one.
    let spin = workers <= engine.cores;
    let session = Session {
        cluster,
        engine,
        state: Mutex::new(State {
            rt,
            values: HashMap::new(),
            outcomes: vec![None; n],
            loops: HashMap::new(),
            active: 0,
            stalled: false,
        }),
        wake: Condvar::new(),
        events: AtomicU64::new(0),
        spin,
        started: AtomicBool::new(false),
    };
    let spawned = std::thread::scope(|s| {
        let mut spawned = Ok(());
        for w in 0..workers {
            let this = &session;
            let r = std::thread::Builder::new()
                .name(format!("flowcast-worker-{w}"))
                .stack_size(WALK_STACK)
                .spawn_scoped(s, move || this.work(w));
            if let Err(e) = r {
                // Without all its workers the plan cannot finish: stop the others.
                session.wake_all(session.lock_stalled());
                spawned = Err(format!("cannot start worker {w}: {e}"));
                break;
            }
        }
        session.started.store(true, Ordering::Release);
        spawned
    });
    if let Some(c) = cluster {
        c.end();
    }
    let state = session
        .state
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    spawned?;
    let report = session.engine.report(state.outcomes, workers);
    Ok((report, state.rt))
}

struct Session<'a> {
    /// Under MPI: workers past rank 0's run on other ranks.
    cluster: Option<&'a Cluster>,
    engine: Engine<'a>,
    state: Mutex<State>,
    wake: Condvar,
    /// Counts the wake-ups: bumped under the lock before each notify, so a
    /// worker that saw no change under the lock cannot miss the notify.
    events: AtomicU64,
    /// Whether idle workers spin before they sleep ([`SPIN`]).
    spin: bool,
    /// Every worker's thread exists. Until then each one yields its core
    /// rather than sleeping: a thread started while the first worker
    /// already computed, or woken together with another, was often put on
    /// a busy core and waited there for that core's task to end while
    /// another core idled (the second of two 0.5 ms tasks started 0.6-1 ms
    /// late in half of the runs on a 2-core VM).
    started: AtomicBool,
}

impl Session<'_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The lock, with the run marked stalled.
    fn lock_stalled(&self) -> std::sync::MutexGuard<'_, State> {
        let mut st = self.lock();
        st.stalled = true;
        st
    }

    fn now(&self) -> f64 {
        self.engine.now().as_secs_f64()
    }

    /// The cluster, when worker `w` is on another rank.
    fn remote(&self, w: usize) -> Option<&Cluster> {
        self.cluster.filter(|c| c.rank_of(w) != 0)
    }

    /// Worker `w`: asks for work until the run is over.
    fn work(&self, w: usize) {
        while !self.started.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        loop {
            let work = {
                let mut st = self.lock();
                loop {
                    if st.stalled || st.rt.done() {
                        return;
                    }
                    let now = self.now();
                    let work = st.rt.next(w, now);
                    if let Some(c) = st.rt.take_closed(w) {
                        if !failed(&st, c.node) {
                            self.engine.emit(Event::Chunk {
                                task: c.node,
                                worker: w,
                                iterations: c.iterations,
                                start: Duration::from_secs_f64(c.began.max(0.0)),
                                end: Duration::from_secs_f64(c.ended.max(0.0)),
                            });
                        }
                    }
                    if let Some(work) = work {
                        st.active += 1;
                        break work;
                    }
                    // Only a plan that does not fit the graph gets here.
                    if st.active == 0 && st.rt.stuck() {
                        st.stalled = true;
                        self.wake_all(st);
                        return;
                    }
                    let seen = self.events.load(Ordering::Acquire);
                    // A lent worker's core runs one of its call's threads:
                    // spinning there would stall that call at its joins.
                    let lent = st.rt.is_lent(w);
                    drop(st);
                    if !lent {
                        self.spin_while(seen);
                    }
                    st = self.lock();
                    if self.events.load(Ordering::Acquire) != seen {
                        continue;
                    }
                    st = self
                        .wake
                        .wait_timeout(st, IDLE_LOOK)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
            };
            match work.iterations.clone() {
                Some(range) if self.engine.graph.tasks[work.node].iterations.is_some() => {
                    self.run_piece(w, work.node, range)
                }
                _ => self.run_call(w, &work),
            }
        }
    }

    /// Watches for a wake-up after `seen` for up to [`SPIN`].
    fn spin_while(&self, seen: u64) {
        if !self.spin {
            return;
        }
        let until = Instant::now() + SPIN;
        let mut k = 0u32;
        while self.events.load(Ordering::Acquire) == seen && Instant::now() < until {
            k = k.wrapping_add(1);
            if k % 64 == 0 {
                // Under oversubscription a working thread may need this core.
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
    }

    /// Wakes the waiting workers; `st` is the held lock.
    fn wake_all(&self, st: std::sync::MutexGuard<'_, State>) {
        self.events.fetch_add(1, Ordering::AcqRel);
        drop(st);
        self.wake.notify_all();
    }

    fn run_call(&self, w: usize, work: &Work) {
        let engine = &self.engine;
        let id = work.node;
        let inputs = engine.inputs(id, &self.lock().values);
        let outcome = match inputs {
            Err(reason) => engine.skipped(id, reason),
            Ok(inputs) => {
                let start = engine.now();
                engine.emit(Event::Started {
                    task: id,
                    worker: w,
                    at: start,
                });
                if !work.lanes.is_empty() {
                    engine.emit(Event::Lanes {
                        task: id,
                        lanes: work.lanes.clone(),
                    });
                }
                let wide = 1 + work.lanes.len();
                let result = match self.remote(w) {
                    Some(c) => c
                        .run(engine, w, id, None, wide, &inputs)
                        .map(Made::into_value),
                    None if wide > 1 => {
                        width::run_wide(wide, WALK_STACK, || engine.eval_step(id, &inputs))
                    }
                    None => engine.eval_step(id, &inputs),
                };
                StepOutcome {
                    lanes: work.lanes.clone(),
                    ..engine.finish(id, w, start, result)
                }
            }
        };
        let mut st = self.lock();
        record(&mut st, engine, id, outcome);
        self.finished(st, w, id);
    }

    fn run_piece(&self, w: usize, id: TaskId, range: Range<usize>) {
        let engine = &self.engine;
        let start = engine.now();
        let inputs = {
            let mut st = self.lock();
            let after_failure = st
                .loops
                .get(&id)
                .is_some_and(|p| p.after_failure(range.start));
            if st.outcomes[id].is_some() || after_failure {
                // The loop was skipped, or a failure before this piece
                // decides its error: nothing to add.
                None
            } else {
                match engine.inputs(id, &st.values) {
                    Err(reason) => {
                        let outcome = engine.skipped(id, reason);
                        record(&mut st, engine, id, outcome);
                        None
                    }
                    Ok(inputs) => {
                        let parts = st.loops.entry(id).or_default();
                        if parts.first.is_none() {
                            parts.first = Some((w, start));
                            engine.emit(Event::Started {
                                task: id,
                                worker: w,
                                at: start,
                            });
                        }
                        Some(inputs)
                    }
                }
            }
        };
        let result = inputs.map(|inputs| match self.remote(w) {
            Some(c) => c
                .run(engine, w, id, Some(range.clone()), 1, &inputs)
                .map(Made::into_piece),
            None => engine.eval_iterations(id, &inputs, Some(range.clone()), false),
        });
        let mut st = self.lock();
        match result {
            Some(Ok(values)) if st.outcomes[id].is_none() => {
                let parts = st.loops.entry(id).or_default();
                if parts.failed.is_none() {
                    parts.pieces.push((range, values));
                }
            }
            Some(Err(e)) if st.outcomes[id].is_none() => {
                // R stops at the first failing iteration: the loop fails
                // with the error of its earliest failed piece, known once
                // the pieces before it have run; those after are skipped.
                let parts = st.loops.entry(id).or_default();
                if parts.failed.as_ref().is_none_or(|(s, _)| *s > range.start) {
                    parts.failed = Some((range.start, e));
                }
                parts.pieces.clear();
            }
            _ => {}
        }
        self.finished(st, w, id);
    }

    /// Tells the runtime that worker `w` finished its work on `id`, and
    /// reports what that completed.
    fn finished(&self, mut st: std::sync::MutexGuard<'_, State>, w: usize, id: TaskId) {
        let engine = &self.engine;
        let now = self.now();
        let fastest = engine.fastest_iteration(id).as_secs_f64();
        let planning = Instant::now();
        let fin = st.rt.finish(w, now, fastest);
        if fin.planned {
            st.rt.replan_took(planning.elapsed().as_secs_f64());
        }
        st.active = st.active.saturating_sub(1);
        let block_ended = fin.block.is_some();
        if let Some((iterations, began)) = fin.block {
            if !failed(&st, id) {
                engine.emit(Event::Chunk {
                    task: id,
                    worker: w,
                    iterations,
                    start: Duration::from_secs_f64(began.max(0.0)),
                    end: engine.now(),
                });
            }
        }
        if st.rt.complete(id) && st.outcomes[id].is_none() {
            let mut parts = st.loops.remove(&id).unwrap_or_default();
            parts.pieces.sort_by_key(|(r, _)| r.start);
            let (fw, fs) = parts.first.unwrap_or((w, engine.now()));
            let result = match parts.failed {
                Some((_, e)) => Err(e),
                None => {
                    let mut values = LoopValues::default();
                    for (_, piece) in parts.pieces {
                        values.append(piece);
                    }
                    Ok(values.into_value())
                }
            };
            let outcome = engine.finish(id, fw, fs, result);
            record(&mut st, engine, id, outcome);
        }
        if fin.replanned {
            engine.emit(Event::Replanned {
                at: engine.now(),
                schedule: st.rt.followed(),
            });
        }
        // Waiting workers can only find new work when a task completes, the
        // queues change, or a block ends; a piece that ends mid-block wakes
        // nobody, so sixteen workers do not queue on the lock every 2 ms.
        // Splitting a running block is left to their periodic look.
        let wake = st.rt.complete(id) || fin.replanned || block_ended;
        if wake {
            self.wake_all(st);
        }
    }
}

/// Whether task `id` failed or was skipped: its blocks ran nothing.
fn failed(st: &State, id: TaskId) -> bool {
    st.outcomes[id].as_ref().is_some_and(|o| o.value.is_err())
}

fn record(st: &mut State, engine: &Engine<'_>, id: TaskId, outcome: StepOutcome) {
    if let Ok(v) = &outcome.value {
        st.values
            .insert(engine.graph.tasks[id].name.clone(), Arc::clone(v));
    }
    if st.outcomes[id].is_none() {
        st.outcomes[id] = Some(outcome);
    }
}
