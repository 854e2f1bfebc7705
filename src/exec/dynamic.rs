//! The work-stealing executor (the `dynamic` scheduler): every task is
//! spawned on a rayon pool of p threads as soon as its inputs are ready, and
//! a loop's iterations are split among idle workers by rayon — what a Rust
//! programmer would write by hand, and the bar static plans must beat.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::{Engine, RunReport, StepOutcome};
use crate::graph::TaskId;
use crate::kernels::Value;
use crate::workflow::depth::WALK_STACK;

/// Run state behind one lock, held only to record a result and find the
/// tasks it made ready, never while a task computes.
struct State {
    values: HashMap<String, Arc<Value>>,
    waiting_on: Vec<usize>,
    outcomes: Vec<Option<StepOutcome>>,
}

pub(super) fn run(engine: &Engine, workers: usize) -> Result<RunReport, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("flowcast-worker-{i}"))
        .stack_size(WALK_STACK)
        .build()
        .map_err(|e| format!("cannot start {workers} workers: {e}"))?;
    let graph = engine.graph;
    let n = graph.tasks.len();
    // One pass over the edges, one entry per edge: a task that reads a value
    // and also follows it on the random stream waits for it twice in
    // `waiting_on`, and is listed twice here.
    let mut successors: Vec<Vec<TaskId>> = vec![Vec::new(); n];
    for j in 0..n {
        for p in graph.predecessors(j) {
            successors[p].push(j);
        }
    }
    let state = Mutex::new(State {
        values: HashMap::new(),
        waiting_on: (0..n).map(|i| graph.predecessors(i).count()).collect(),
        outcomes: vec![None; n],
    });
    let ctx = Dynamic {
        engine,
        state,
        successors,
    };
    pool.scope(|s| {
        for i in 0..n {
            if graph.predecessors(i).next().is_none() {
                let c = &ctx;
                s.spawn(move |s| c.run_task(i, s));
            }
        }
    });
    let state = ctx
        .state
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    Ok(engine.report(state.outcomes, workers))
}

struct Dynamic<'e, 'a> {
    engine: &'e Engine<'a>,
    state: Mutex<State>,
    successors: Vec<Vec<TaskId>>,
}

impl Dynamic<'_, '_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn run_task<'s>(&'s self, id: TaskId, scope: &rayon::Scope<'s>) {
        let engine = self.engine;
        let inputs = engine.inputs(id, &self.lock().values);
        let outcome = match inputs {
            Err(reason) => engine.skipped(id, reason),
            Ok(inputs) => {
                let worker = rayon::current_thread_index().unwrap_or(0);
                let start = engine.now();
                engine.emit(super::Event::Started {
                    task: id,
                    worker,
                    at: start,
                });
                let result = engine.eval_step(id, &inputs);
                engine.finish(id, worker, start, result)
            }
        };
        let ready: Vec<TaskId> = {
            let mut st = self.lock();
            if let Ok(v) = &outcome.value {
                st.values
                    .insert(engine.graph.tasks[id].name.clone(), Arc::clone(v));
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
}
