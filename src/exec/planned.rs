//! The static executor: p workers, each running its queue of a [`Schedule`]
//! in order. An item starts when its worker reaches it and every predecessor
//! task has finished; a loop runs as the blocks of iterations the plan gave
//! each worker, and its value is assembled, in iteration order, by the worker
//! that finishes its last block.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use super::{assemble_loop, Engine, Event, RunReport, StepOutcome};
use crate::exec::eval::EvalError;
use crate::graph::{TaskGraph, TaskId};
use crate::kernels::Value;
use crate::sched::{Item, Schedule};

/// Checks that `schedule` runs every task of `graph` exactly once (every
/// loop iteration exactly once) and that its queues cannot deadlock.
pub(super) fn validate(graph: &TaskGraph, schedule: &Schedule) -> Result<(), String> {
    let n = graph.tasks.len();
    let mut covered: Vec<Vec<u32>> = graph
        .tasks
        .iter()
        .map(|t| vec![0; t.iterations.as_ref().map_or(1, Vec::len)])
        .collect();
    for item in &schedule.items {
        let Some(c) = covered.get_mut(item.node) else {
            return Err(format!(
                "the plan names task {} but the graph has {n}",
                item.node
            ));
        };
        match (
            &item.iterations,
            graph.tasks[item.node].iterations.is_some(),
        ) {
            (Some(r), true) if r.end <= c.len() => r.clone().for_each(|k| c[k] += 1),
            (None, false) => c[0] += 1,
            _ => {
                return Err(format!(
                    "the plan's item for `{}` does not fit the task",
                    graph.tasks[item.node].name
                ))
            }
        }
        if item.worker >= schedule.workers {
            return Err(format!(
                "the plan uses worker {} of {}",
                item.worker, schedule.workers
            ));
        }
    }
    if let Some(t) = covered.iter().position(|c| c.iter().any(|&k| k != 1)) {
        return Err(format!(
            "the plan does not run `{}` exactly once",
            graph.tasks[t].name
        ));
    }
    // Deadlock check: advance any worker whose next item has all its
    // predecessor tasks complete, until no worker can move.
    let queues: Vec<Vec<&Item>> = (0..schedule.workers)
        .map(|w| schedule.queue(w).collect())
        .collect();
    let mut left: Vec<usize> = vec![0; n];
    for item in &schedule.items {
        left[item.node] += 1;
    }
    let mut head = vec![0usize; queues.len()];
    let mut progressed = true;
    while progressed {
        progressed = false;
        for (w, q) in queues.iter().enumerate() {
            while let Some(item) = q.get(head[w]) {
                if graph.predecessors(item.node).any(|p| left[p] > 0) {
                    break;
                }
                left[item.node] -= 1;
                head[w] += 1;
                progressed = true;
            }
        }
    }
    match head.iter().zip(&queues).position(|(h, q)| *h < q.len()) {
        None => Ok(()),
        Some(w) => Err(format!(
            "the plan would deadlock: worker {w} waits for `{}`'s inputs forever",
            graph.tasks[queues[w][head[w]].node].name
        )),
    }
}

/// One finished block of a loop: its iterations and their values.
type Block = (Range<usize>, Result<Vec<Value>, EvalError>);

/// A loop in progress: its blocks' values and where it started.
#[derive(Default)]
struct LoopParts {
    blocks: Vec<Block>,
    first: Option<(usize, Duration)>,
}

struct State {
    values: HashMap<String, Arc<Value>>,
    /// Items still to finish per task (blocks, for loops).
    left: Vec<usize>,
    outcomes: Vec<Option<StepOutcome>>,
    loops: HashMap<TaskId, LoopParts>,
}

pub(super) fn run(engine: &Engine, schedule: &Schedule) -> RunReport {
    let graph = engine.graph;
    let mut left = vec![0usize; graph.tasks.len()];
    for item in &schedule.items {
        left[item.node] += 1;
    }
    let shared = Shared {
        engine,
        state: Mutex::new(State {
            values: HashMap::new(),
            left,
            outcomes: vec![None; graph.tasks.len()],
            loops: HashMap::new(),
        }),
        done: Condvar::new(),
    };
    std::thread::scope(|s| {
        for w in 0..schedule.workers {
            let queue: Vec<&Item> = schedule.queue(w).collect();
            let shared = &shared;
            std::thread::Builder::new()
                .name(format!("flowcast-worker-{w}"))
                .spawn_scoped(s, move || {
                    for item in queue {
                        shared.run_item(w, item);
                    }
                })
                .map_err(|e| e.to_string())
                .ok();
        }
    });
    let state = shared
        .state
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    engine.report(state.outcomes, schedule.workers)
}

struct Shared<'e, 'a> {
    engine: &'e Engine<'a>,
    state: Mutex<State>,
    done: Condvar,
}

impl Shared<'_, '_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until every predecessor task of `id` has an outcome, then
    /// returns the inputs (or why the task cannot run).
    fn wait_for_inputs(&self, id: TaskId) -> Result<HashMap<String, Arc<Value>>, String> {
        let graph = self.engine.graph;
        let mut st = self.lock();
        while graph.predecessors(id).any(|p| st.outcomes[p].is_none()) {
            if self.engine.cancelled() {
                return Err("run cancelled".into());
            }
            st = self
                .done
                .wait_timeout(st, Duration::from_millis(50))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        self.engine.inputs(id, &st.values)
    }

    fn run_item(&self, worker: usize, item: &Item) {
        let engine = self.engine;
        let id = item.node;
        let inputs = self.wait_for_inputs(id);
        if let Some(range) = &item.iterations {
            self.run_block(worker, id, range.clone(), inputs);
            return;
        }
        let outcome = match inputs {
            Err(reason) => engine.skipped(id, reason),
            Ok(inputs) => {
                let start = engine.now();
                engine.emit(Event::Started {
                    task: id,
                    worker,
                    at: start,
                });
                let result = engine.eval_step(id, &inputs);
                engine.finish(id, worker, start, result)
            }
        };
        self.complete(id, outcome);
    }

    fn run_block(
        &self,
        worker: usize,
        id: TaskId,
        range: Range<usize>,
        inputs: Result<HashMap<String, Arc<Value>>, String>,
    ) {
        let engine = self.engine;
        let inputs = match inputs {
            Ok(i) => i,
            Err(reason) => {
                let mut st = self.lock();
                st.left[id] -= 1;
                if st.outcomes[id].is_none() {
                    drop(st);
                    let outcome = engine.skipped(id, reason);
                    self.complete(id, outcome);
                }
                return;
            }
        };
        let start = engine.now();
        let first = {
            let mut st = self.lock();
            let parts = st.loops.entry(id).or_default();
            let first = parts.first.is_none();
            if first {
                parts.first = Some((worker, start));
            }
            first
        };
        if first {
            engine.emit(Event::Started {
                task: id,
                worker,
                at: start,
            });
        }
        let result = engine.eval_iterations(id, &inputs, Some(range.clone()), false);
        let end = engine.now();
        engine.emit(Event::Chunk {
            task: id,
            worker,
            iterations: range.clone(),
            start,
            end,
        });
        let mut st = self.lock();
        st.left[id] -= 1;
        let last = st.left[id] == 0;
        let parts = st.loops.entry(id).or_default();
        parts.blocks.push((range, result));
        if !last {
            return;
        }
        let mut parts = st.loops.remove(&id).unwrap_or_default();
        drop(st);
        parts.blocks.sort_by_key(|(r, _)| r.start);
        let (first_worker, first_start) = parts.first.unwrap_or((worker, start));
        let mut values = Vec::new();
        let mut failure = None;
        for (_, r) in parts.blocks {
            match r {
                Ok(v) => values.extend(v),
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        let result = match failure {
            Some(e) => Err(e),
            None => Ok(assemble_loop(values)),
        };
        let outcome = engine.finish(id, first_worker, first_start, result);
        self.complete(id, outcome);
    }

    fn complete(&self, id: TaskId, outcome: StepOutcome) {
        let mut st = self.lock();
        if let Ok(v) = &outcome.value {
            st.values
                .insert(self.engine.graph.tasks[id].name.clone(), Arc::clone(v));
        }
        if st.outcomes[id].is_none() {
            st.outcomes[id] = Some(outcome);
        }
        drop(st);
        self.done.notify_all();
    }
}
