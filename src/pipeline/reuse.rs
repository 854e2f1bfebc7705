//! Incremental re-runs: the steps whose key is in the cache are taken from
//! it, and only the rest of the workflow, its *part*, is planned and run.
//!
//! The part is a workflow and task graph of its own (ids renumbered, file
//! order kept), so the schedulers and executors need to know nothing of
//! the cache: the reused values it reads come in as [`Given`] inputs, and
//! a random step whose anchor was reused starts where that one left the
//! stream. What the part's run reports is mapped back to the whole
//! workflow's task ids.

use std::sync::Arc;

use crate::cache::{self, Cache, Entry, Key};
use crate::exec::{Block, Event, Given, RunReport, StepOutcome, StepWarning};
use crate::graph::{TaskGraph, TaskId};
use crate::sched::{Dag, Edge, Node, Schedule};
use crate::workflow::Workflow;

/// What a run takes from the cache: per task (by id), its key and, when
/// reused, its entry.
#[derive(Clone, Debug, Default)]
pub struct Reuse {
    pub keys: Vec<Option<Key>>,
    pub entries: Vec<Option<Entry>>,
    /// For a step that writes files, its key without them and the files
    /// (see `cache::key::with_written`).
    pub writes: Vec<cache::key::Writes>,
}

impl Reuse {
    /// Nothing reused, nothing kept.
    pub fn nothing() -> Reuse {
        Reuse::default()
    }

    /// The keys of `wf`'s steps for a run with `seed`, and what `cache`
    /// holds for them; with `force`, nothing is reused (the values computed
    /// are still kept).
    pub fn find(
        wf: &Workflow,
        graph: &TaskGraph,
        seed: i64,
        cache: &mut Cache,
        force: bool,
    ) -> Reuse {
        let (keys, writes) = cache::key::keys_and_writes(wf, graph, seed);
        let entries = if force {
            vec![None; keys.len()]
        } else {
            let random: Vec<bool> = graph.tasks.iter().map(|t| t.random).collect();
            cache.lookup(&keys, &random)
        };
        Reuse {
            keys,
            entries,
            writes,
        }
    }

    /// Whether task `id` is reused.
    pub fn reused(&self, id: TaskId) -> bool {
        self.entries.get(id).is_some_and(Option::is_some)
    }

    /// How many tasks are reused.
    pub fn count(&self) -> usize {
        self.entries.iter().filter(|e| e.is_some()).count()
    }

    /// After the run: keeps what it computed and what it reused in `cache`;
    /// what could not be stored, as warnings.
    pub fn remember(&self, report: &RunReport, cache: &mut Cache) -> Vec<String> {
        let mut fresh = Vec::new();
        let mut reused = Vec::new();
        for (id, o) in report.outcomes.iter().enumerate() {
            let Some(Some(mut key)) = self.keys.get(id).copied() else {
                continue;
            };
            // A step that wrote files: kept under the files as it left them.
            if let (Some(Some((base, paths))), false) = (self.writes.get(id), o.reused) {
                key = cache::key::with_written(*base, paths);
            }
            match &o.value {
                Ok(_) if o.reused => reused.push(key),
                Ok(v) => fresh.push((
                    key,
                    Entry {
                        value: Arc::clone(v),
                        stream: report.streams.get(id).cloned().flatten(),
                        warnings: o.warnings.clone(),
                    },
                )),
                Err(_) => {}
            }
        }
        cache.keep(fresh, &reused)
    }
}

/// A cached warning of step `id`, pointing where its call now stands in
/// the file (edits elsewhere move it; the key ignores them): the call's
/// text within the step, else the step's start.
fn relocated(w: &StepWarning, wf: &Workflow, id: TaskId) -> StepWarning {
    let Some(step) = wf.steps.get(id) else {
        return w.clone();
    };
    let span = match &step.body {
        crate::workflow::StepBody::Expr(e) => e.span,
        crate::workflow::StepBody::Loop(l) => l.range.span.to(l.body.span),
    };
    let text = wf.file.text.get(span.start..span.end).unwrap_or("");
    let at = w
        .call
        .as_deref()
        .and_then(|c| text.find(c))
        .map_or(span.start, |k| span.start + k);
    let (line, column) = wf.file.line_col(at);
    StepWarning {
        line,
        column,
        ..w.clone()
    }
}

/// The steps that run, as a workflow of their own.
#[derive(Clone, Debug)]
pub struct Part {
    pub wf: Workflow,
    pub graph: TaskGraph,
    /// Each of the part's task ids, the whole workflow's id.
    pub ids: Vec<TaskId>,
    pub given: Given,
}

impl Part {
    /// The part of `wf` that is not in `reused` (by task id).
    pub fn new(wf: &Workflow, graph: &TaskGraph, reused: &[Option<Entry>]) -> Part {
        let is_reused = |id: TaskId| reused.get(id).is_some_and(Option::is_some);
        let ids: Vec<TaskId> = (0..graph.tasks.len()).filter(|&i| !is_reused(i)).collect();
        let mut local = vec![None; graph.tasks.len()];
        for (k, &id) in ids.iter().enumerate() {
            local[id] = Some(k);
        }
        let mut given = Given::default();
        let mut tasks = Vec::with_capacity(ids.len());
        for (k, &id) in ids.iter().enumerate() {
            let mut t = graph.tasks[id].clone();
            let mut inputs = Vec::new();
            t.deps = graph.tasks[id]
                .deps
                .iter()
                .filter_map(|&d| match local[d] {
                    Some(l) => Some(l),
                    None => {
                        if let Some(Some(e)) = reused.get(d) {
                            inputs.push((graph.tasks[d].name.clone(), Arc::clone(&e.value)));
                        }
                        None
                    }
                })
                .collect();
            let mut stream = None;
            t.rng_after = graph.tasks[id].rng_after.and_then(|a| match local[a] {
                Some(l) => Some(l),
                None => {
                    stream = reused.get(a).cloned().flatten().and_then(|e| e.stream);
                    None
                }
            });
            t.id = k;
            tasks.push(t);
            given.inputs.push(inputs);
            given.streams.push(stream);
        }
        let mut sub = wf.clone();
        sub.steps = ids.iter().map(|&i| wf.steps[i].clone()).collect();
        Part {
            wf: sub,
            graph: TaskGraph { tasks },
            ids,
            given,
        }
    }

    fn id(&self, k: TaskId) -> TaskId {
        self.ids.get(k).copied().unwrap_or(k)
    }

    /// An event of the part's run, in the whole workflow's ids.
    pub fn event(&self, e: Event) -> Event {
        match e {
            Event::Started { task, worker, at } => Event::Started {
                task: self.id(task),
                worker,
                at,
            },
            Event::Finished { task, worker, at } => Event::Finished {
                task: self.id(task),
                worker,
                at,
            },
            Event::Lanes { task, lanes } => Event::Lanes {
                task: self.id(task),
                lanes,
            },
            Event::Failed {
                task,
                worker,
                at,
                message,
            } => Event::Failed {
                task: self.id(task),
                worker,
                at,
                message,
            },
            Event::Skipped { task, reason } => Event::Skipped {
                task: self.id(task),
                reason,
            },
            Event::Chunk {
                task,
                worker,
                iterations,
                start,
                end,
            } => Event::Chunk {
                task: self.id(task),
                worker,
                iterations,
                start,
                end,
            },
            Event::Replanned { at, schedule } => Event::Replanned {
                at,
                schedule: self.schedule(&schedule),
            },
            // Named by step, which the part shares.
            Event::Transfer { .. } => e,
        }
    }

    /// Task ids of the part as the whole workflow's.
    pub fn whole_ids(&self, part: &[TaskId]) -> Vec<TaskId> {
        part.iter()
            .map(|&d| self.ids.get(d).copied().unwrap_or(d))
            .collect()
    }

    /// A schedule of the part, in the whole workflow's ids.
    pub fn schedule(&self, s: &Schedule) -> Schedule {
        let mut out = s.clone();
        for item in &mut out.items {
            item.node = self.id(item.node);
        }
        out
    }

    /// The part's DAG as the whole workflow's: a reused task is a node of
    /// no cost and no edges.
    pub fn dag(&self, dag: &Dag, graph: &TaskGraph) -> Dag {
        let mut nodes: Vec<Node> = graph
            .tasks
            .iter()
            .map(|t| Node::function(&t.name, 0.0))
            .collect();
        for (k, n) in dag.nodes.iter().enumerate() {
            if let Some(slot) = nodes.get_mut(self.id(k)) {
                *slot = n.clone();
            }
        }
        let edges = dag
            .edges
            .iter()
            .map(|e| Edge {
                from: self.id(e.from),
                to: self.id(e.to),
                bytes: e.bytes,
            })
            .collect();
        Dag { nodes, edges }
    }

    /// Per-task figures of the part as the whole workflow's; `fill` for
    /// the reused tasks.
    pub fn widen<T: Clone>(&self, part: &[T], n: usize, fill: T) -> Vec<T> {
        let mut out = vec![fill; n];
        for (k, v) in part.iter().enumerate() {
            if let Some(slot) = out.get_mut(self.id(k)) {
                *slot = v.clone();
            }
        }
        out
    }

    /// The part's report as the whole workflow's: the reused tasks with
    /// their cached values.
    pub fn report(&self, report: RunReport, reused: &[Option<Entry>], wf: &Workflow) -> RunReport {
        let n = reused.len();
        let mut outcomes: Vec<Option<StepOutcome>> = vec![None; n];
        let mut streams = vec![None; n];
        for (id, e) in reused.iter().enumerate() {
            if let Some(e) = e {
                let warnings = e.warnings.iter().map(|w| relocated(w, wf, id)).collect();
                outcomes[id] = Some(StepOutcome::reused(Arc::clone(&e.value), warnings));
                streams[id] = e.stream.clone();
            }
        }
        for (k, mut o) in report.outcomes.into_iter().enumerate() {
            let id = self.id(k);
            o.blocks = o
                .blocks
                .into_iter()
                .map(|b| Block { task: id, ..b })
                .collect();
            if let Some(slot) = outcomes.get_mut(id) {
                *slot = Some(o);
            }
        }
        for (k, s) in report.streams.into_iter().enumerate() {
            if let Some(slot) = streams.get_mut(self.id(k)) {
                *slot = s;
            }
        }
        RunReport {
            outcomes: outcomes
                .into_iter()
                .map(|o| {
                    o.unwrap_or_else(|| {
                        StepOutcome::reused(Arc::new(crate::kernels::Value::Null), Vec::new())
                    })
                })
                .collect(),
            streams,
            ..report
        }
    }
}
