//! The static executor: p workers, each running its queue of a [`Schedule`]
//! in order. An item starts when its worker reaches it and every predecessor
//! task has finished; a loop runs as the blocks of iterations the plan gave
//! each worker, and its value is assembled, in iteration order, by the worker
//! that finishes its last iteration.
//!
//! A run may be given several schedules in turn ([`Session::run`]), each
//! covering part of what is left: the loop test drive runs a loop's first
//! iteration in one, and plans the remaining iterations in the next. Values,
//! finished blocks and the clock carry over from one to the next.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use super::{assemble_loop, Engine, Event, RunReport, StepOutcome};
use crate::graph::{TaskGraph, TaskId};
use crate::kernels::Value;
use crate::sched::{Item, Schedule};

/// Checks that `schedule` runs nothing twice, counting what has run already
/// (`ran`: per task, one entry per loop iteration or one for a non-loop),
/// and that its queues cannot deadlock: every item's inputs are complete
/// already or completed by this schedule. With `whole`, it must also leave
/// nothing out.
pub(super) fn validate(
    graph: &TaskGraph,
    schedule: &Schedule,
    ran: &[Vec<bool>],
    whole: bool,
) -> Result<(), String> {
    let n = graph.tasks.len();
    let mut covered: Vec<Vec<u32>> = ran
        .iter()
        .map(|r| r.iter().map(|&done| u32::from(done)).collect())
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
    if let Some(t) = covered.iter().position(|c| c.iter().any(|&k| k > 1)) {
        return Err(format!(
            "the plan runs (part of) `{}` twice",
            graph.tasks[t].name
        ));
    }
    if whole {
        if let Some(t) = covered.iter().position(|c| c.contains(&0)) {
            return Err(format!("the plan does not run `{}`", graph.tasks[t].name));
        }
    }
    // Deadlock check: advance any worker whose next item has all its
    // predecessor tasks complete, until no worker can move. A task is
    // complete once its items here have run and nothing of it is left over.
    let queues: Vec<Vec<&Item>> = (0..schedule.workers)
        .map(|w| schedule.queue(w).collect())
        .collect();
    // A task left incomplete by this schedule never completes here.
    let mut left: Vec<usize> = covered
        .iter()
        .map(|c| usize::from(c.contains(&0)))
        .collect();
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
type Block = (Range<usize>, Vec<Value>);

/// A loop in progress: its blocks' values and where it started.
#[derive(Default)]
struct LoopParts {
    blocks: Vec<Block>,
    first: Option<(usize, Duration)>,
}

struct State {
    values: HashMap<String, Arc<Value>>,
    /// Per task, one entry per loop iteration (one for a non-loop): whether
    /// it has run or is running.
    ran: Vec<Vec<bool>>,
    /// Iterations still to finish per loop (1 for a non-loop).
    left: Vec<usize>,
    outcomes: Vec<Option<StepOutcome>>,
    loops: HashMap<TaskId, LoopParts>,
}

/// A static run in progress: give it schedules with [`Session::run`], then
/// take the report with [`Session::finish`].
pub(super) struct Session<'a> {
    engine: Engine<'a>,
    state: Mutex<State>,
    done: Condvar,
    workers: usize,
}

impl<'a> Session<'a> {
    pub fn new(engine: Engine<'a>) -> Session<'a> {
        let graph = engine.graph;
        let sizes: Vec<usize> = graph
            .tasks
            .iter()
            .map(|t| t.iterations.as_ref().map_or(1, Vec::len))
            .collect();
        let state = State {
            values: HashMap::new(),
            ran: sizes.iter().map(|&k| vec![false; k]).collect(),
            left: sizes,
            outcomes: vec![None; graph.tasks.len()],
            loops: HashMap::new(),
        };
        Session {
            engine,
            state: Mutex::new(state),
            done: Condvar::new(),
            workers: 1,
        }
    }

    pub fn engine(&self) -> &Engine<'a> {
        &self.engine
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether task `id` has an outcome (finished, failed or skipped).
    pub fn complete(&self, id: TaskId) -> bool {
        self.lock().outcomes[id].is_some()
    }

    /// Runs `schedule` to its end; it may cover only part of what is left
    /// unless `whole`. Fails, running nothing, when it does not fit.
    pub fn run(&mut self, schedule: &Schedule, whole: bool) -> Result<(), String> {
        {
            let st = self.lock();
            let ran: Vec<Vec<bool>> = st
                .ran
                .iter()
                .zip(&st.outcomes)
                .map(|(r, o)| {
                    if o.is_some() {
                        vec![true; r.len()]
                    } else {
                        r.clone()
                    }
                })
                .collect();
            validate(self.engine.graph, schedule, &ran, whole)?;
        }
        self.workers = self.workers.max(schedule.workers);
        let this = &*self;
        std::thread::scope(|s| {
            for w in 0..schedule.workers {
                let queue: Vec<&Item> = schedule.queue(w).collect();
                std::thread::Builder::new()
                    .name(format!("flowcast-worker-{w}"))
                    .spawn_scoped(s, move || {
                        for item in queue {
                            this.run_item(w, item);
                        }
                    })
                    .map_err(|e| e.to_string())
                    .ok();
            }
        });
        Ok(())
    }

    pub fn finish(self) -> RunReport {
        let state = self
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        self.engine.report(state.outcomes, self.workers)
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
        let engine = &self.engine;
        let id = item.node;
        let inputs = self.wait_for_inputs(id);
        if let Some(range) = &item.iterations {
            self.run_block(worker, id, range.clone(), inputs);
            return;
        }
        self.lock().ran[id][0] = true;
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
        self.record(id, outcome);
    }

    fn run_block(
        &self,
        worker: usize,
        id: TaskId,
        range: Range<usize>,
        inputs: Result<HashMap<String, Arc<Value>>, String>,
    ) {
        let engine = &self.engine;
        let start = engine.now();
        let first = {
            let mut st = self.lock();
            range.clone().for_each(|k| st.ran[id][k] = true);
            if st.outcomes[id].is_some() {
                // The loop failed or was skipped already: nothing to add.
                return;
            }
            if let Err(reason) = inputs {
                drop(st);
                let outcome = engine.skipped(id, reason);
                self.record(id, outcome);
                return;
            }
            let parts = st.loops.entry(id).or_default();
            let first = parts.first.is_none();
            if first {
                parts.first = Some((worker, start));
            }
            first
        };
        let Ok(inputs) = inputs else { return };
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
        if st.outcomes[id].is_some() {
            return;
        }
        let (first_worker, first_start) = st
            .loops
            .get(&id)
            .and_then(|p| p.first)
            .unwrap_or((worker, start));
        let values = match result {
            Ok(v) => v,
            Err(e) => {
                // One failed iteration fails the loop at once; blocks still
                // queued for it are not run.
                st.loops.remove(&id);
                drop(st);
                let outcome = engine.finish(id, first_worker, first_start, Err(e));
                self.record(id, outcome);
                return;
            }
        };
        st.left[id] = st.left[id].saturating_sub(range.len());
        let last = st.left[id] == 0;
        let parts = st.loops.entry(id).or_default();
        parts.blocks.push((range, values));
        if !last {
            return;
        }
        let mut parts = st.loops.remove(&id).unwrap_or_default();
        drop(st);
        parts.blocks.sort_by_key(|(r, _)| r.start);
        let values = parts.blocks.into_iter().flat_map(|(_, v)| v).collect();
        let outcome = engine.finish(id, first_worker, first_start, Ok(assemble_loop(values)));
        self.record(id, outcome);
    }

    fn record(&self, id: TaskId, outcome: StepOutcome) {
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
