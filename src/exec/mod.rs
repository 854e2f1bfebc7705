//! Running a task graph on p workers, streaming what happens as [`Event`]s.
//!
//! Two executors share one [`Engine`]: [`run`] is work-stealing (the
//! `dynamic` scheduler: tasks and loop iterations spread over a rayon pool by
//! rayon), [`run_planned`] runs a static [`Schedule`]: each of p workers runs
//! its queue in order, an item starting when its inputs are ready. Values are
//! shared (`Arc`), never copied between tasks. A failing task fails alone:
//! tasks that read its value are skipped, every other task still runs.

mod conditions;
mod dynamic;
pub mod eval;
pub mod integer;
pub mod loop_policy;
#[cfg(feature = "mpi")]
pub mod mpi;
mod planned;
pub mod remote;
pub(crate) mod statements;
mod wire;

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::diagnostic::{Diagnostic, SourceFile, Span};
use crate::graph::{TaskGraph, TaskId};
use crate::kernels::value::List;
use crate::kernels::{Ctx, Rng, Value, Warning};
use crate::sched::{Runtime, Schedule};
use crate::workflow::{StepBody, Workflow};
use eval::{eval, eval_traced, EvalError, Scope};

/// The most iterations a rayon task evaluates in order, when a whole loop
/// is spread over the pool: enough to pack a long loop's values, and no
/// more than a sixteenth of a worker's share, so a short loop of heavy
/// iterations still spreads over every worker.
const PARALLEL_CHUNK: usize = 256;

/// Blocks of loop iterations up to this long are timed iteration by
/// iteration, for their fastest (a test drive's first block is 2).
const TIMED_EACH: usize = 8;

/// Something that happened during a run; times are since the run started.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Started {
        task: TaskId,
        worker: usize,
        at: Duration,
    },
    Finished {
        task: TaskId,
        worker: usize,
        at: Duration,
    },
    Failed {
        task: TaskId,
        worker: usize,
        at: Duration,
        message: String,
    },
    /// Not run because an input failed or the run was cancelled.
    Skipped { task: TaskId, reason: String },
    /// A moldable call that just started also holds these workers.
    Lanes { task: TaskId, lanes: Vec<usize> },
    /// A block of a loop's iterations ran on one worker: a static plan's
    /// block, or under work-stealing the iterations one worker ran in a row
    /// (sent when the loop ends).
    Chunk {
        task: TaskId,
        worker: usize,
        iterations: Range<usize>,
        start: Duration,
        end: Duration,
    },
    /// The plan changed mid-run, at `at`: a test drive measured a loop, or
    /// a task ended far from its prediction, and what had not started was
    /// planned again. The schedule covers the whole run, as followed.
    Replanned { at: Duration, schedule: Schedule },
    /// Under MPI, a value crossed from rank `from` to rank `to`: an input
    /// a piece of work on `worker` needed there, or a result of `worker`
    /// coming back to rank 0.
    Transfer {
        value: String,
        worker: usize,
        from: usize,
        to: usize,
        bytes: usize,
        start: Duration,
        end: Duration,
    },
}

/// Why a step has no value.
#[derive(Clone, Debug, PartialEq)]
pub enum StepError {
    /// It ran and failed: R's message and the text it points at.
    Failed { message: String, span: Span },
    /// It did not run.
    Skipped { reason: String },
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::Failed { message, .. } => f.write_str(message),
            StepError::Skipped { reason } => write!(f, "skipped: {reason}"),
        }
    }
}

/// One step's result and when and where it ran.
#[derive(Clone, Debug)]
pub struct StepOutcome {
    pub value: Result<Arc<Value>, StepError>,
    pub worker: Option<usize>,
    pub start: Duration,
    pub end: Duration,
    /// Time spent computing it, summed over workers: for a loop the sum of
    /// its iterations' times (its iterations run on several workers, so its
    /// wall time says little about its work); otherwise `end - start`.
    pub busy: Duration,
    /// The algorithm path the outermost call took, where R decides it on
    /// the data (eigen's `isSymmetric`, a rank test's ties): what the cost
    /// model learns from, and the plan's guess for the next run.
    pub path: Option<String>,
    /// A loop's blocks of iterations, each as one worker ran it, in
    /// iteration order; empty for a task that is not a loop.
    pub blocks: Vec<Block>,
    /// Not run: its value was taken from the cache (its key was unchanged).
    /// It took no time and is no observation of its cost.
    pub reused: bool,
    /// R's warnings, in the order R would raise them (a loop's in
    /// iteration order), repeats dropped; a failed step keeps those raised
    /// before it failed.
    pub warnings: Vec<StepWarning>,
    /// The other workers a moldable call ran on besides `worker`.
    pub lanes: Vec<usize>,
}

pub use crate::diagnostic::StepWarning;

/// A block of a loop's iterations that one worker ran without a break.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub task: TaskId,
    pub worker: usize,
    /// 0-based positions, half-open.
    pub iterations: Range<usize>,
    pub start: Duration,
    pub end: Duration,
}

impl StepOutcome {
    /// A step whose value was taken from the cache.
    pub fn reused(value: Arc<Value>, warnings: Vec<StepWarning>) -> StepOutcome {
        StepOutcome {
            value: Ok(value),
            worker: None,
            start: Duration::ZERO,
            end: Duration::ZERO,
            busy: Duration::ZERO,
            path: None,
            blocks: Vec::new(),
            reused: true,
            warnings,
            lanes: Vec::new(),
        }
    }

    /// Its value as bytes, bit for bit ([`crate::codec`]), or its error's
    /// text: two runs made the same value exactly when these are equal.
    pub fn value_bits(&self) -> Vec<u8> {
        let mut b = Vec::new();
        match &self.value {
            Ok(v) => crate::codec::encode(v, &mut b),
            Err(e) => b.extend_from_slice(e.to_string().as_bytes()),
        }
        b
    }

    /// Wall seconds from start to end.
    pub fn seconds(&self) -> f64 {
        self.end.saturating_sub(self.start).as_secs_f64()
    }

    /// What the cost models learn from it.
    pub fn measured(&self) -> crate::cost::Measured {
        crate::cost::Measured {
            ok: self.value.is_ok(),
            reused: self.reused,
            path: self.path.clone(),
            wall: self.seconds(),
            busy: self.busy.as_secs_f64(),
            work: self.work(),
            width: 1 + self.lanes.len(),
            lanes: self.lanes.clone(),
            worker: self.worker,
            start: self.start.as_secs_f64(),
            end: self.end.as_secs_f64(),
            blocks: self
                .blocks
                .iter()
                .map(|b| crate::cost::LoopBlock {
                    iterations: b.iterations.clone(),
                    start: b.start.as_secs_f64(),
                    end: b.end.as_secs_f64(),
                })
                .collect(),
        }
    }

    /// The seconds workers spent on it, what every view calls its "work":
    /// the sum of its blocks' durations (a loop's blocks can run side by
    /// side, or with other tasks between them), else start to end.
    pub fn work(&self) -> f64 {
        if self.blocks.is_empty() {
            return self.seconds();
        }
        self.blocks
            .iter()
            .map(|b| b.end.saturating_sub(b.start).as_secs_f64())
            .sum()
    }

    /// Each worker that ran it, with the wall span from its first start to
    /// its last end there, by worker: a wide call's lanes with its own.
    pub fn spans(&self) -> Vec<(usize, Duration, Duration)> {
        if self.blocks.is_empty() {
            let mut spans: Vec<(usize, Duration, Duration)> = self
                .worker
                .into_iter()
                .chain(self.lanes.iter().copied())
                .map(|w| (w, self.start, self.end))
                .collect();
            spans.sort_by_key(|s| s.0);
            return spans;
        }
        let mut spans: Vec<(usize, Duration, Duration)> = Vec::new();
        for b in &self.blocks {
            match spans.iter_mut().find(|s| s.0 == b.worker) {
                Some(s) => {
                    s.1 = s.1.min(b.start);
                    s.2 = s.2.max(b.end);
                }
                None => spans.push((b.worker, b.start, b.end)),
            }
        }
        spans.sort_by_key(|s| s.0);
        spans
    }
}

/// Everything a finished run produced.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// One outcome per task, by task id.
    pub outcomes: Vec<StepOutcome>,
    pub makespan: Duration,
    pub workers: usize,
    pub seed: i64,
    /// The run was cancelled before every task had run: the tasks without
    /// a value were stopped or never started, they did not fail.
    pub cancelled: bool,
    /// Per task, the shared random stream as a random step that ran left
    /// it: what the cache keeps, for the random steps after it.
    pub streams: Vec<Option<Rng>>,
}

impl RunReport {
    /// What the cost models learn from this run.
    pub fn measured(&self) -> crate::cost::MeasuredRun {
        crate::cost::MeasuredRun {
            tasks: self.outcomes.iter().map(StepOutcome::measured).collect(),
            workers: self.workers,
        }
    }

    pub fn failed(&self) -> bool {
        self.outcomes.iter().any(|o| o.value.is_err())
    }

    /// Each failed step's error, at its place in `file`, in task order
    /// (skipped steps are not failures of their own).
    pub fn failures(&self, graph: &TaskGraph, file: &SourceFile) -> Vec<Diagnostic> {
        graph
            .tasks
            .iter()
            .zip(&self.outcomes)
            .filter_map(|(t, o)| match &o.value {
                Err(StepError::Failed { message, span }) => {
                    Some(Diagnostic::new(file, Some(*span), message.clone()).in_step(&t.name))
                }
                _ => None,
            })
            .collect()
    }

    /// How many steps ran (or failed trying), and how many were reused.
    pub fn ran_and_reused(&self) -> (usize, usize) {
        let reused = self.outcomes.iter().filter(|o| o.reused).count();
        let ran = self
            .outcomes
            .iter()
            .filter(|o| !o.reused && !matches!(o.value, Err(StepError::Skipped { .. })))
            .count();
        (ran, reused)
    }

    /// How the run ended, as the history records it: `done`, `failed` or
    /// `cancelled`.
    pub fn state(&self) -> &'static str {
        if self.cancelled {
            "cancelled"
        } else if self.failed() {
            "failed"
        } else {
            "done"
        }
    }
}

#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (p): under MPI, over all ranks.
    pub workers: usize,
    /// The seed for `set.seed`.
    pub seed: i64,
    /// Under MPI, the other ranks, whose workers follow rank 0's
    /// (see [`remote`]); `None` on one machine.
    pub cluster: Option<remote::Cluster>,
}

impl RunOptions {
    /// A run on this machine.
    pub fn new(workers: usize, seed: i64) -> RunOptions {
        RunOptions {
            workers,
            seed,
            cluster: None,
        }
    }
}

/// What a run starts with and does not compute: the values and stream
/// positions of steps that are not part of it (a re-run's reused steps).
#[derive(Clone, Debug, Default)]
pub struct Given {
    /// Per task, the values it reads that no task of the run computes.
    pub inputs: Vec<Vec<(String, Arc<Value>)>>,
    /// Per random task without a `rng_after` in the run's graph, where it
    /// starts drawing: where the reused random step before it left the
    /// stream (`None`: the seed).
    pub streams: Vec<Option<Rng>>,
}

/// Runs every task of `graph` with work-stealing and returns when all have
/// finished, failed or been skipped. `on_event` is called from worker threads.
pub fn run(
    wf: &Workflow,
    graph: &TaskGraph,
    opts: &RunOptions,
    on_event: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
) -> Result<RunReport, String> {
    run_given(wf, graph, &Given::default(), opts, on_event, cancel)
}

/// [`run`], starting from `given`.
pub fn run_given(
    wf: &Workflow,
    graph: &TaskGraph,
    given: &Given,
    opts: &RunOptions,
    on_event: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
) -> Result<RunReport, String> {
    let engine = Engine::new(wf, graph, given, opts.seed, on_event, cancel);
    dynamic::run(&engine, opts.workers.max(1))
}

/// Runs `graph` to a plan: `runtime` hands each of its workers its next
/// piece of work and re-plans as its policy says. Returns the report and
/// the runtime, whose [`Runtime::followed`] is the plan as followed.
pub fn run_planned(
    wf: &Workflow,
    graph: &TaskGraph,
    runtime: Runtime,
    opts: &RunOptions,
    on_event: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
) -> Result<(RunReport, Runtime), String> {
    run_planned_given(
        wf,
        graph,
        &Given::default(),
        runtime,
        opts,
        on_event,
        cancel,
    )
}

/// [`run_planned`], starting from `given`.
pub fn run_planned_given(
    wf: &Workflow,
    graph: &TaskGraph,
    given: &Given,
    runtime: Runtime,
    opts: &RunOptions,
    on_event: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
) -> Result<(RunReport, Runtime), String> {
    let engine = Engine::new(wf, graph, given, opts.seed, on_event, cancel);
    planned::run(engine, runtime, opts.cluster.as_ref())
}

/// What every executor shares: the workflow, clocks, the random streams and
/// the event sink. Evaluates steps and blocks of loop iterations; decides
/// nothing about where or when they run.
pub(crate) struct Engine<'a> {
    pub wf: &'a Workflow,
    pub graph: &'a TaskGraph,
    given: &'a Given,
    pub seed: i64,
    base_dir: PathBuf,
    /// Per random step, the stream as it left it: where the steps that
    /// wait on it (their `rng_after`) start drawing.
    stream_ends: Vec<OnceLock<Rng>>,
    pub started: Instant,
    /// This machine's cores, read before the clock starts (see
    /// [`crate::cores`]).
    pub cores: usize,
    on_event: &'a (dyn Fn(Event) + Sync),
    pub cancel: &'a AtomicBool,
    /// Per task, nanoseconds spent in loop iterations so far.
    loop_busy: Vec<AtomicU64>,
    /// Per task, nanoseconds of its fastest loop iteration so far.
    loop_fastest: Vec<AtomicU64>,
    /// Per loop, its lowest failed iteration so far (`usize::MAX`: none).
    /// R stops at the first failing iteration, so an iteration past this
    /// one need not run: only one below it can still change the error.
    loop_failed: Vec<AtomicUsize>,
    /// Per task, the path its outermost call took (see
    /// [`StepOutcome::path`]).
    paths: Vec<OnceLock<String>>,
    /// The blocks of loop iterations reported so far (see
    /// [`StepOutcome::blocks`]).
    blocks: Mutex<Vec<Block>>,
    /// Per task, the warnings raised so far, each with its iteration (0
    /// outside loops): blocks of a loop finish in any order.
    warnings: Vec<Mutex<Vec<(usize, crate::kernels::Warning)>>>,
    /// The steps whose values are R integers.
    integer_steps: std::collections::HashSet<String>,
}

impl<'a> Engine<'a> {
    pub fn new(
        wf: &'a Workflow,
        graph: &'a TaskGraph,
        given: &'a Given,
        seed: i64,
        on_event: &'a (dyn Fn(Event) + Sync),
        cancel: &'a AtomicBool,
    ) -> Engine<'a> {
        // Each call runs on the workers it is given, whoever embeds us.
        crate::kernels::width::faer_on_given_workers();
        let cores = crate::cores::cores();
        Engine {
            wf,
            graph,
            given,
            seed,
            cores,
            base_dir: wf.base_dir(),
            stream_ends: graph.tasks.iter().map(|_| OnceLock::new()).collect(),
            started: Instant::now(),
            on_event,
            cancel,
            loop_busy: graph.tasks.iter().map(|_| AtomicU64::new(0)).collect(),
            loop_fastest: graph
                .tasks
                .iter()
                .map(|_| AtomicU64::new(u64::MAX))
                .collect(),
            loop_failed: graph
                .tasks
                .iter()
                .map(|_| AtomicUsize::new(usize::MAX))
                .collect(),
            blocks: Mutex::new(Vec::new()),
            paths: graph.tasks.iter().map(|_| OnceLock::new()).collect(),
            warnings: graph.tasks.iter().map(|_| Mutex::default()).collect(),
            integer_steps: integer::integer_steps(wf),
        }
    }

    pub fn now(&self) -> Duration {
        self.started.elapsed()
    }

    /// The fastest of loop `id`'s iterations so far (zero before any).
    pub fn fastest_iteration(&self, id: TaskId) -> Duration {
        self.loop_fastest
            .get(id)
            .map(|f| f.load(Ordering::Relaxed))
            .filter(|&n| n != u64::MAX)
            .map_or(Duration::ZERO, Duration::from_nanos)
    }

    pub fn emit(&self, e: Event) {
        if let Event::Chunk {
            task,
            worker,
            iterations,
            start,
            end,
        } = &e
        {
            self.blocks
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(Block {
                    task: *task,
                    worker: *worker,
                    iterations: iterations.clone(),
                    start: *start,
                    end: *end,
                });
        }
        (self.on_event)(e);
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The input values of task `id`, or why it cannot run.
    pub fn inputs(
        &self,
        id: TaskId,
        values: &HashMap<String, Arc<Value>>,
    ) -> Result<HashMap<String, Arc<Value>>, String> {
        if self.cancelled() {
            return Err("run cancelled".into());
        }
        let given = self.given.inputs.get(id).into_iter().flatten();
        self.graph.tasks[id]
            .deps
            .iter()
            .map(|&d| {
                let name = &self.graph.tasks[d].name;
                values
                    .get(name)
                    .map(|v| (name.clone(), Arc::clone(v)))
                    .ok_or_else(|| format!("input `{name}` has no value"))
            })
            .chain(given.map(|(n, v)| Ok((n.clone(), Arc::clone(v)))))
            .collect()
    }

    /// Runs `f`, an evaluation of the expression at `span`. A panic
    /// anywhere in it (kernels catch their own, see [`eval`]) fails the
    /// evaluation instead of the worker, whose loss would stall the run.
    /// Its warnings are kept for task `id`, as raised by iteration
    /// `iteration`.
    fn with_ctx<T>(
        &self,
        (id, iteration): (TaskId, usize),
        rng: &mut Rng,
        span: Span,
        f: impl FnOnce(&mut Ctx) -> Result<T, EvalError>,
    ) -> Result<T, EvalError> {
        let (result, warnings) = self.in_ctx(rng, span, f);
        self.keep_warnings((id, iteration), warnings);
        result
    }

    /// Runs `f` in a kernel context on `rng`: its result (a panic made an
    /// error) and the warnings it gave, not yet kept.
    fn in_ctx<T>(
        &self,
        rng: &mut Rng,
        span: Span,
        f: impl FnOnce(&mut Ctx) -> Result<T, EvalError>,
    ) -> (Result<T, EvalError>, Vec<Warning>) {
        let mut ctx = Ctx::new(rng, &self.base_dir, self.cancel);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut ctx)));
        let result = result.unwrap_or_else(|panic| {
            Err(EvalError {
                span,
                message: format!(
                    "internal error (a flowcast bug, please report it): {}",
                    eval::panic_message(&*panic)
                ),
            })
        });
        (result, std::mem::take(&mut ctx.warnings))
    }

    fn keep_warnings(&self, (id, iteration): (TaskId, usize), warnings: Vec<Warning>) {
        if warnings.is_empty() {
            return;
        }
        if let Some(slot) = self.warnings.get(id) {
            slot.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend(warnings.into_iter().map(|w| (iteration, w)));
        }
    }

    /// Evaluates a step that is not a loop.
    pub fn eval_step(
        &self,
        id: TaskId,
        inputs: &HashMap<String, Arc<Value>>,
    ) -> Result<Value, EvalError> {
        self.eval_step_from(id, inputs, None)
    }

    /// [`Engine::eval_step`]; a random step draws from `start` when given
    /// (another rank worked out where its stream starts), else from where
    /// the steps before it on the stream left it.
    pub fn eval_step_from(
        &self,
        id: TaskId,
        inputs: &HashMap<String, Arc<Value>>,
        start: Option<Rng>,
    ) -> Result<Value, EvalError> {
        let StepBody::Expr(e) = &self.wf.steps[id].body else {
            // Spread over the executor's pool, whose threads have the stack
            // expressions need; never over rayon's global one, whose have not.
            let in_pool = rayon::current_thread_index().is_some();
            return self
                .eval_iterations(id, inputs, None, in_pool)
                .map(LoopValues::into_value);
        };
        let scope = Scope {
            steps: inputs,
            local: None,
            integer_steps: &self.integer_steps,
            local_integer: false,
            outer: None,
            running: None,
        };
        let run = |ctx: &mut Ctx| {
            let (value, path) = eval_traced(e, &scope, ctx, &self.wf.file)?;
            if let (Some(p), Some(slot)) = (path, self.paths.get(id)) {
                let _ = slot.set(p);
            }
            Ok(value)
        };
        let task = &self.graph.tasks[id];
        if !task.random {
            return self.with_ctx((id, 0), &mut Rng::from_seed(self.seed), e.span, run);
        }
        let mut rng = start.unwrap_or_else(|| self.stream_start(id));
        let before = rng.drawn();
        let result = self.with_ctx((id, 0), &mut rng, e.span, run);
        let drawn = rng.drawn() - before;
        let _ = self.stream_ends[id].set(rng);
        match task.work.known_draws() {
            // The steps after it skipped this many: had it drawn another
            // number, their values would not be R's. Never seen; say so
            // rather than hand out such values.
            Some(n) if n != drawn && result.is_ok() => Err(EvalError {
                span: e.span,
                message: format!(
                    "internal error: drew {drawn} random numbers where {n} were counted \
                     before the run; the random steps after it are not R's"
                ),
            }),
            _ => result,
        }
    }

    /// Where random step `id` starts drawing: where its `rng_after` left
    /// the stream (without one, the seed or where the given stream starts),
    /// skipped past the counted draws between. An anchor that never ran
    /// (its input failed) drew nothing, so its own start is used.
    pub(crate) fn stream_start(&self, id: TaskId) -> Rng {
        let tasks = &self.graph.tasks;
        let mut skip = tasks[id].rng_skip;
        let mut at = id;
        let mut rng = loop {
            match tasks[at].rng_after {
                None => {
                    break match self.given.streams.get(at) {
                        Some(Some(given)) => given.clone(),
                        _ => Rng::from_seed(self.seed),
                    }
                }
                Some(a) => match self.stream_ends[a].get() {
                    Some(end) => break end.clone(),
                    None => {
                        skip = skip.saturating_add(tasks[a].rng_skip);
                        at = a;
                    }
                },
            }
        };
        rng.skip(skip);
        rng
    }

    /// Where random step `id` left the stream, once it has run.
    pub(crate) fn stream_end(&self, id: TaskId) -> Option<Rng> {
        self.stream_ends.get(id).and_then(|s| s.get().cloned())
    }

    /// The path task `id`'s outermost call took, once known.
    pub(crate) fn path(&self, id: TaskId) -> Option<String> {
        self.paths.get(id).and_then(|p| p.get().cloned())
    }

    /// Task `id`'s warnings raised so far, each with its iteration, taken.
    pub(crate) fn take_raised(&self, id: TaskId) -> Vec<(usize, crate::kernels::Warning)> {
        self.warnings
            .get(id)
            .map(|slot| std::mem::take(&mut *slot.lock().unwrap_or_else(PoisonError::into_inner)))
            .unwrap_or_default()
    }

    /// Loop `id`'s nanoseconds in iterations since last taken, and its
    /// fastest iteration's (`u64::MAX` before any).
    pub(crate) fn take_loop_times(&self, id: TaskId) -> (u64, u64) {
        match (self.loop_busy.get(id), self.loop_fastest.get(id)) {
            (Some(b), Some(f)) => (b.swap(0, Ordering::Relaxed), f.load(Ordering::Relaxed)),
            _ => (0, u64::MAX),
        }
    }

    /// What another rank reported of task `id`: where it left the stream,
    /// its path, warnings and loop times, kept as if it had run here.
    pub(crate) fn merge_remote(&self, id: TaskId, remote: wire::Side) {
        if let Some(rng) = remote.stream_end {
            if let Some(slot) = self.stream_ends.get(id) {
                let _ = slot.set(rng);
            }
        }
        if let (Some(p), Some(slot)) = (remote.path, self.paths.get(id)) {
            let _ = slot.set(p);
        }
        if let Some(slot) = self.warnings.get(id) {
            slot.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend(remote.warnings);
        }
        if let (Some(b), Some(f)) = (self.loop_busy.get(id), self.loop_fastest.get(id)) {
            b.fetch_add(remote.busy_nanos, Ordering::Relaxed);
            f.fetch_min(remote.fastest_nanos, Ordering::Relaxed);
        }
    }

    /// Evaluates iterations `range` (0-based positions; all when `None`) of
    /// loop `id`, in parallel on the current rayon pool or in order on this
    /// thread. Each iteration draws from its own stream, so the values do not
    /// depend on how the loop is split.
    pub fn eval_iterations(
        &self,
        id: TaskId,
        inputs: &HashMap<String, Arc<Value>>,
        range: Option<Range<usize>>,
        parallel: bool,
    ) -> Result<LoopValues, EvalError> {
        let StepBody::Loop(l) = &self.wf.steps[id].body else {
            return Err(EvalError {
                span: Span::default(),
                message: "not a loop".into(),
            });
        };
        let task = &self.graph.tasks[id];
        let all = task.iterations.as_deref().unwrap_or(&[]);
        let range = range.unwrap_or(0..all.len());
        let local_integer = task.labels.is_none()
            && integer::Integers {
                file: &self.wf.file,
                steps: &self.integer_steps,
                locals: &integer::no_locals,
            }
            .is_integer(&l.range);
        // Under work-stealing, who ran which iteration and when: the loop's
        // blocks, for the charts (a static plan reports its own blocks).
        let ran: Mutex<Vec<Ran>> = Mutex::new(Vec::new());
        // Seeding an iteration's stream costs more than a small body: a
        // body that draws nothing shares one idle stream per chunk.
        let draws = crate::graph::draws_random(&l.body);
        let one = |k: usize, idle: &mut Rng| -> Result<Value, EvalError> {
            let i = all.get(k).copied().unwrap_or(f64::NAN);
            if self.cancelled() {
                return Err(EvalError {
                    span: l.body.span,
                    message: "run cancelled".into(),
                });
            }
            // A loop over text (files) binds each text; others their number.
            let label = task.labels.as_ref().and_then(|l| l.get(k));
            let var = label.map_or_else(|| Value::scalar(i), |t| Value::string(t));
            let scope = Scope {
                steps: inputs,
                local: Some((l.var.as_str(), &var)),
                integer_steps: &self.integer_steps,
                local_integer,
                outer: None,
                running: None,
            };
            let own = || Rng::for_iteration(self.seed, &task.name, k as u64 + 1);
            let body = |rng: &mut Rng| {
                self.in_ctx(rng, l.body.span, |ctx| {
                    eval(&l.body, &scope, ctx, &self.wf.file).map(|v| v.into_owned())
                })
            };
            let (result, warnings) = if draws {
                body(&mut own())
            } else {
                let before = idle.drawn();
                let first = body(idle);
                // A draw the analysis did not foresee: the iteration is run
                // again on its own stream (a body is free of side effects),
                // and only that run's warnings count.
                if idle.drawn() == before {
                    first
                } else {
                    body(&mut own())
                }
            };
            self.keep_warnings((id, k), warnings);
            result.map_err(|e| EvalError {
                span: e.span,
                message: match label {
                    Some(t) => format!("in iteration {} ({} = {t:?}): {}", k + 1, l.var, e.message),
                    None => format!("in iteration {} ({} = {i}): {}", k + 1, l.var, e.message),
                },
            })
        };
        let nanos = |d: std::time::Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        let run = |range: Range<usize>| {
            let mut values = LoopValues::default();
            let mut idle = Rng::from_seed(0);
            // Only a test drive's short blocks need their fastest iteration
            // (a warm one); a longer range is timed whole, as two clock
            // reads per iteration took a tenth of a cheap body's time.
            let each = range.len() <= TIMED_EACH;
            let began = Instant::now();
            for k in range {
                if k > self.loop_failed[id].load(Ordering::Relaxed) {
                    // Never reported: a block holding a lower failure is.
                    return Err(EvalError {
                        span: l.body.span,
                        message: format!("iteration {} follows a failed one", k + 1),
                    });
                }
                let t = each.then(Instant::now);
                match one(k, &mut idle) {
                    Ok(v) => values.push(v),
                    Err(e) => {
                        self.loop_failed[id].fetch_min(k, Ordering::Relaxed);
                        return Err(e);
                    }
                }
                if let Some(t) = t {
                    self.loop_fastest[id].fetch_min(nanos(t.elapsed()), Ordering::Relaxed);
                }
            }
            self.loop_busy[id].fetch_add(nanos(began.elapsed()), Ordering::Relaxed);
            Ok(values)
        };
        if !parallel {
            return run(range);
        }
        // Chunks, so that what is held per iteration stays packed; each
        // chunk records who ran it, once.
        let per = range
            .len()
            .div_ceil(16 * rayon::current_num_threads().max(1))
            .clamp(1, PARALLEL_CHUNK);
        let chunks: Vec<Range<usize>> = range
            .clone()
            .step_by(per)
            .map(|s| s..(s + per).min(range.end))
            .collect();
        let parts = chunks
            .into_par_iter()
            .map(|chunk| {
                let start = self.now();
                let values = run(chunk.clone());
                if let Some(worker) = rayon::current_thread_index() {
                    ran.lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(Ran {
                            iterations: chunk,
                            worker,
                            start,
                            end: self.now(),
                        });
                }
                values
            })
            .collect::<Vec<_>>()
            // In iteration order: the error is the first failing
            // iteration's, as R's, whichever chunk failed first in time.
            .into_iter()
            .collect::<Result<Vec<_>, EvalError>>()?;
        for e in blocks(id, ran.into_inner().unwrap_or_else(PoisonError::into_inner)) {
            self.emit(e);
        }
        let mut values = LoopValues::default();
        for p in parts {
            values.append(p);
        }
        Ok(values)
    }

    /// Reports a computed value (or failure) as an event and an outcome.
    pub fn finish(
        &self,
        id: TaskId,
        worker: usize,
        start: Duration,
        result: Result<Value, EvalError>,
    ) -> StepOutcome {
        let end = self.now();
        let value = match result {
            Ok(v) => {
                self.emit(Event::Finished {
                    task: id,
                    worker,
                    at: end,
                });
                Ok(Arc::new(v))
            }
            Err(e) => {
                self.emit(Event::Failed {
                    task: id,
                    worker,
                    at: end,
                    message: e.message.clone(),
                });
                Err(StepError::Failed {
                    message: e.message,
                    span: e.span,
                })
            }
        };
        StepOutcome {
            value,
            worker: Some(worker),
            start,
            end,
            busy: end.saturating_sub(start),
            path: self.paths.get(id).and_then(|p| p.get().cloned()),
            blocks: Vec::new(),
            reused: false,
            warnings: self.take_warnings(id),
            lanes: Vec::new(),
        }
    }

    pub fn skipped(&self, id: TaskId, reason: String) -> StepOutcome {
        let at = self.now();
        self.emit(Event::Skipped {
            task: id,
            reason: reason.clone(),
        });
        StepOutcome {
            value: Err(StepError::Skipped { reason }),
            worker: None,
            start: at,
            end: at,
            busy: Duration::ZERO,
            path: None,
            blocks: Vec::new(),
            reused: false,
            warnings: Vec::new(),
            lanes: Vec::new(),
        }
    }

    /// Task `id`'s warnings in iteration order, each text once: a loop
    /// that warns in every iteration would otherwise bury the table.
    fn take_warnings(&self, id: TaskId) -> Vec<StepWarning> {
        let Some(slot) = self.warnings.get(id) else {
            return Vec::new();
        };
        let mut raised = std::mem::take(&mut *slot.lock().unwrap_or_else(PoisonError::into_inner));
        raised.sort_by_key(|(k, _)| *k);
        let file = &self.wf.file;
        let mut out: Vec<StepWarning> = Vec::new();
        for (_, w) in raised {
            if out.iter().any(|o| o.message == w.message) {
                continue;
            }
            let (start, end) = w.at.unwrap_or((0, 0));
            let (line, column) = file.line_col(start);
            let call = file
                .text
                .get(start..end)
                .filter(|t| !t.is_empty())
                .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "));
            out.push(StepWarning {
                message: w.message,
                call,
                line,
                column,
            });
        }
        out
    }

    /// The report, once every task has an outcome (a missing one is a task
    /// that never became ready, which a valid plan rules out).
    pub fn report(&self, outcomes: Vec<Option<StepOutcome>>, workers: usize) -> RunReport {
        // The run's makespan is when its last step ended, the right edge of
        // its chart: workers still waking to exit after that (40-120 us for
        // a condition variable on a 2-core VM) are not part of the schedule,
        // and both executors are measured the same way.
        let makespan = outcomes
            .iter()
            .flatten()
            .map(|o| o.end)
            .max()
            .filter(|end| !end.is_zero())
            .unwrap_or_else(|| self.now());
        let outcomes = outcomes
            .into_iter()
            .map(|o| {
                o.unwrap_or(StepOutcome {
                    value: Err(StepError::Skipped {
                        reason: "never became ready".into(),
                    }),
                    worker: None,
                    start: makespan,
                    end: makespan,
                    busy: Duration::ZERO,
                    path: None,
                    blocks: Vec::new(),
                    reused: false,
                    warnings: Vec::new(),
                    lanes: Vec::new(),
                })
            })
            .enumerate()
            .map(|(id, mut o)| {
                if self.graph.tasks[id].iterations.is_some() && o.value.is_ok() {
                    o.busy = Duration::from_nanos(self.loop_busy[id].load(Ordering::Relaxed));
                }
                o
            })
            .collect::<Vec<StepOutcome>>();
        let mut outcomes = outcomes;
        let blocks =
            std::mem::take(&mut *self.blocks.lock().unwrap_or_else(PoisonError::into_inner));
        for b in blocks {
            if let Some(o) = outcomes.get_mut(b.task) {
                o.blocks.push(b);
            }
        }
        for o in &mut outcomes {
            o.blocks.sort_by_key(|b| b.iterations.start);
        }
        // A cancel that came after the last task had finished stopped nothing.
        let cancelled = self.cancelled() && outcomes.iter().any(|o| o.value.is_err());
        RunReport {
            outcomes,
            makespan,
            workers,
            seed: self.seed,
            cancelled,
            streams: self.stream_ends.iter().map(|s| s.get().cloned()).collect(),
        }
    }
}

/// A chunk of iterations as work-stealing ran it.
struct Ran {
    iterations: Range<usize>,
    worker: usize,
    start: Duration,
    end: Duration,
}

/// Work-stealing's blocks of loop `task`: each maximal run of consecutive
/// iterations one worker ran, as a [`Event::Chunk`] in iteration order.
fn blocks(task: TaskId, mut ran: Vec<Ran>) -> Vec<Event> {
    ran.sort_by_key(|r| r.iterations.start);
    let mut out: Vec<Event> = Vec::new();
    for r in ran {
        if let Some(Event::Chunk {
            worker,
            iterations,
            start,
            end,
            ..
        }) = out.last_mut()
        {
            if *worker == r.worker && iterations.end == r.iterations.start {
                iterations.end = r.iterations.end;
                *start = (*start).min(r.start);
                *end = (*end).max(r.end);
                continue;
            }
        }
        out.push(Event::Chunk {
            task,
            worker: r.worker,
            iterations: r.iterations,
            start: r.start,
            end: r.end,
        });
    }
    out
}

/// The values of consecutive iterations of a loop. Single numbers (the
/// usual loop, whose value is then a numeric vector, as in R) are packed
/// eight bytes each: a boxed [`Value`] per iteration made a trivial loop
/// over `1:1e8` hold ten gigabytes.
#[derive(Debug)]
pub(crate) enum LoopValues {
    Numbers(Vec<f64>),
    Values(Vec<Value>),
}

impl Default for LoopValues {
    fn default() -> LoopValues {
        LoopValues::Numbers(Vec::new())
    }
}

impl LoopValues {
    /// Appends the next iteration's value.
    pub fn push(&mut self, v: Value) {
        // A named number (`coef(fit)[i]`) is a number of the vector: R's
        // `b[i] <- x` keeps no name either.
        let v = match v {
            Value::Named(n) if matches!(&n.value, Value::Num(x) if x.len() == 1) => n.value,
            v => v,
        };
        match (&mut *self, v) {
            (LoopValues::Numbers(n), Value::Num(x)) if x.len() == 1 => n.push(x[0]),
            (LoopValues::Values(vs), v) => vs.push(v),
            (LoopValues::Numbers(_), v) => {
                self.unpack();
                self.push(v);
            }
        }
    }

    /// Appends the iterations that follow these.
    pub fn append(&mut self, next: LoopValues) {
        match (&mut *self, next) {
            (LoopValues::Numbers(a), LoopValues::Numbers(b)) => a.extend(b),
            (LoopValues::Values(a), LoopValues::Values(b)) => a.extend(b),
            (LoopValues::Values(a), LoopValues::Numbers(b)) => {
                a.extend(b.into_iter().map(Value::scalar));
            }
            (LoopValues::Numbers(_), next) => {
                self.unpack();
                self.append(next);
            }
        }
    }

    fn unpack(&mut self) {
        if let LoopValues::Numbers(n) = self {
            let values = std::mem::take(n).into_iter().map(Value::scalar).collect();
            *self = LoopValues::Values(values);
        }
    }

    /// The loop's value: a numeric vector when every iteration is a
    /// single number, else a list. No iterations make `list()`, as R's
    /// `sapply(integer(0), f)` does.
    pub fn into_value(self) -> Value {
        match self {
            LoopValues::Numbers(x) if x.is_empty() => Value::List(List::sequence(Vec::new())),
            LoopValues::Numbers(x) => Value::Num(x),
            LoopValues::Values(v) => Value::List(List::sequence(v)),
        }
    }
}
