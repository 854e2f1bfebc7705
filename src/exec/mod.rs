//! Running a task graph on p workers, streaming what happens as [`Event`]s.
//!
//! This is the work-stealing executor (`dynamic`): every task is spawned on a
//! rayon pool of p threads as soon as its inputs are ready, and a loop's
//! iterations are split among idle workers by rayon. Values are shared
//! (`Arc`), never copied between tasks. A failing task fails alone: tasks
//! that read its value are skipped, every other task still runs.

pub mod eval;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::diagnostic::Span;
use crate::graph::{TaskGraph, TaskId};
use crate::kernels::value::List;
use crate::kernels::{Ctx, Rng, Value};
use crate::workflow::{StepBody, Workflow};
use eval::{eval, EvalError, Scope};

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
}

impl StepOutcome {
    pub fn seconds(&self) -> f64 {
        self.end.saturating_sub(self.start).as_secs_f64()
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
}

impl RunReport {
    pub fn failed(&self) -> bool {
        self.outcomes.iter().any(|o| o.value.is_err())
    }
}

#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (p).
    pub workers: usize,
    /// The seed for `set.seed`.
    pub seed: i64,
}

/// Mutable run state, behind one lock: held only to record a result and
/// find the tasks it made ready, never while a task computes.
struct State {
    values: HashMap<String, Arc<Value>>,
    waiting_on: Vec<usize>,
    outcomes: Vec<Option<StepOutcome>>,
}

/// Runs every task of `graph` and returns when all have finished, failed or
/// been skipped. `on_event` is called from worker threads.
pub fn run(
    wf: &Workflow,
    graph: &TaskGraph,
    opts: &RunOptions,
    on_event: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
) -> Result<RunReport, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.workers.max(1))
        .thread_name(|i| format!("flowcast-worker-{i}"))
        .build()
        .map_err(|e| format!("cannot start {} workers: {e}", opts.workers))?;
    let n = graph.tasks.len();
    let state = Mutex::new(State {
        values: HashMap::new(),
        waiting_on: (0..n).map(|i| graph.predecessors(i).count()).collect(),
        outcomes: vec![None; n],
    });
    let successors: Vec<Vec<TaskId>> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| graph.predecessors(j).any(|p| p == i))
                .collect()
        })
        .collect();
    let runner = Runner {
        wf,
        graph,
        seed: opts.seed,
        base_dir: wf.base_dir(),
        shared_rng: Mutex::new(Rng::from_seed(opts.seed)),
        state,
        successors,
        started: Instant::now(),
        on_event,
        cancel,
    };
    pool.scope(|s| {
        for i in 0..n {
            if graph.predecessors(i).next().is_none() {
                let r = &runner;
                s.spawn(move |s| r.run_task(i, s));
            }
        }
    });
    let makespan = runner.started.elapsed();
    let state = runner
        .state
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    let outcomes = state
        .outcomes
        .into_iter()
        .map(|o| {
            o.unwrap_or(StepOutcome {
                value: Err(StepError::Skipped {
                    reason: "never became ready".into(),
                }),
                worker: None,
                start: makespan,
                end: makespan,
            })
        })
        .collect();
    Ok(RunReport {
        outcomes,
        makespan,
        workers: opts.workers.max(1),
        seed: opts.seed,
    })
}

struct Runner<'a> {
    wf: &'a Workflow,
    graph: &'a TaskGraph,
    seed: i64,
    base_dir: std::path::PathBuf,
    /// The workflow's one random stream, passed along the chain of random
    /// steps in file order (the graph orders them with `rng_after`).
    shared_rng: Mutex<Rng>,
    state: Mutex<State>,
    successors: Vec<Vec<TaskId>>,
    started: Instant,
    on_event: &'a (dyn Fn(Event) + Sync),
    cancel: &'a AtomicBool,
}

impl<'a> Runner<'a> {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn run_task<'s>(&'s self, id: TaskId, scope: &rayon::Scope<'s>) {
        let task = &self.graph.tasks[id];
        // Inputs: a failed or skipped input skips this task.
        let inputs: Result<HashMap<String, Arc<Value>>, String> = {
            let st = self.lock();
            task.deps
                .iter()
                .map(|&d| {
                    let name = &self.graph.tasks[d].name;
                    st.values
                        .get(name)
                        .map(|v| (name.clone(), Arc::clone(v)))
                        .ok_or_else(|| format!("input `{name}` has no value"))
                })
                .collect()
        };
        let outcome = match inputs {
            _ if self.cancel.load(Ordering::Relaxed) => {
                self.skipped(id, "run cancelled".to_string())
            }
            Err(reason) => self.skipped(id, reason),
            Ok(inputs) => self.compute(id, &inputs),
        };
        let ready: Vec<TaskId> = {
            let mut st = self.lock();
            if let Ok(v) = &outcome.value {
                st.values.insert(task.name.clone(), Arc::clone(v));
            }
            st.outcomes[id] = Some(outcome);
            self.successors[id]
                .iter()
                .copied()
                .filter(|&s| {
                    st.waiting_on[s] -= 1;
                    st.waiting_on[s] == 0
                })
                .collect()
        };
        for s_id in ready {
            scope.spawn(move |s| self.run_task(s_id, s));
        }
    }

    fn skipped(&self, id: TaskId, reason: String) -> StepOutcome {
        let at = self.started.elapsed();
        (self.on_event)(Event::Skipped {
            task: id,
            reason: reason.clone(),
        });
        StepOutcome {
            value: Err(StepError::Skipped { reason }),
            worker: None,
            start: at,
            end: at,
        }
    }

    fn compute(&self, id: TaskId, inputs: &HashMap<String, Arc<Value>>) -> StepOutcome {
        let task = &self.graph.tasks[id];
        let worker = rayon::current_thread_index().unwrap_or(0);
        let start = self.started.elapsed();
        (self.on_event)(Event::Started {
            task: id,
            worker,
            at: start,
        });
        let step = &self.wf.steps[id];
        let result = match &step.body {
            StepBody::Expr(e) => {
                let scope = Scope {
                    steps: inputs,
                    local: None,
                };
                if task.random {
                    let mut rng = self
                        .shared_rng
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner);
                    self.eval_with(&mut rng, |ctx| {
                        eval(e, &scope, ctx, &self.wf.file).map(|v| v.into_owned())
                    })
                } else {
                    let mut rng = Rng::from_seed(self.seed);
                    self.eval_with(&mut rng, |ctx| {
                        eval(e, &scope, ctx, &self.wf.file).map(|v| v.into_owned())
                    })
                }
            }
            StepBody::Loop(l) => self.run_loop(id, l, inputs),
        };
        let end = self.started.elapsed();
        let value = match result {
            Ok(v) => {
                (self.on_event)(Event::Finished {
                    task: id,
                    worker,
                    at: end,
                });
                Ok(Arc::new(v))
            }
            Err(e) => {
                (self.on_event)(Event::Failed {
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
        }
    }

    fn eval_with<T>(
        &self,
        rng: &mut Rng,
        f: impl FnOnce(&mut Ctx) -> Result<T, EvalError>,
    ) -> Result<T, EvalError> {
        let mut ctx = Ctx {
            rng,
            base_dir: &self.base_dir,
            cancel: self.cancel,
        };
        f(&mut ctx)
    }

    /// A do-all loop: iterations in parallel, each with its own random
    /// stream, so the value does not depend on how they are split.
    fn run_loop(
        &self,
        id: TaskId,
        l: &crate::workflow::Loop,
        inputs: &HashMap<String, Arc<Value>>,
    ) -> Result<Value, EvalError> {
        let task = &self.graph.tasks[id];
        let iterations = task.iterations.as_deref().unwrap_or(&[]);
        let results: Vec<Value> = iterations
            .par_iter()
            .enumerate()
            .map(|(k, &i)| {
                if self.cancel.load(Ordering::Relaxed) {
                    return Err(EvalError {
                        span: l.body.span,
                        message: "run cancelled".into(),
                    });
                }
                let var = Value::scalar(i);
                let scope = Scope {
                    steps: inputs,
                    local: Some((l.var.as_str(), &var)),
                };
                let mut rng = Rng::for_iteration(self.seed, &task.name, k as u64 + 1);
                self.eval_with(&mut rng, |ctx| {
                    eval(&l.body, &scope, ctx, &self.wf.file).map(|v| v.into_owned())
                })
                .map_err(|e| EvalError {
                    span: e.span,
                    message: format!("in iteration {} ({} = {i}): {}", k + 1, l.var, e.message),
                })
            })
            .collect::<Result<_, _>>()?;
        let scalars: Option<Vec<f64>> = results
            .iter()
            .map(|v| match v {
                Value::Num(x) if x.len() == 1 => Some(x[0]),
                _ => None,
            })
            .collect();
        Ok(match scalars {
            Some(x) => Value::Num(x),
            None => Value::List(List::sequence(results)),
        })
    }
}
