//! The Gantt chart of one run: what was planned (a [`Schedule`]) beside what
//! happened (run [`Event`]s or a [`RunReport`]). The terminal UI and every
//! exporter draw this one structure, and it serialises so a run can be
//! stored and exported later.

use serde::{Deserialize, Serialize};

use crate::exec::{Event, RunReport, StepError};
use crate::graph::TaskGraph;
use crate::sched::{Dag, Edge, Node, Schedule};

/// Where and when a task (or one block of a loop's iterations) was planned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slot {
    pub worker: usize,
    /// Seconds since the run started.
    pub start: f64,
    pub end: f64,
    /// For a block of a loop: its iterations, 0-based and half-open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations: Option<(usize, usize)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pending,
    Running,
    Done,
    Failed,
    Skipped,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Running => "running",
            Status::Done => "done",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
        }
    }
}

/// What happened to a task. While it runs, `end` is the start: a drawer
/// extends a running bar to "now".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Actual {
    /// `None` when the task never ran (skipped).
    pub worker: Option<usize>,
    pub start: f64,
    pub end: f64,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One task of the workflow: its plan (one slot, or one per block of a
/// loop) and its outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub name: String,
    pub function: String,
    /// `data`, `call` or `loop`.
    pub kind: String,
    pub predicted: Vec<Slot>,
    pub actual: Option<Actual>,
}

impl Row {
    /// The planned span, first block's start to last block's end.
    pub fn predicted_span(&self) -> Option<(f64, f64)> {
        let start = self.predicted.iter().map(|s| s.start).reduce(f64::min)?;
        let end = self.predicted.iter().map(|s| s.end).reduce(f64::max)?;
        Some((start, end))
    }

    pub fn predicted_seconds(&self) -> Option<f64> {
        self.predicted_span().map(|(s, e)| e - s)
    }

    /// Seconds it ran, once it has finished or failed.
    pub fn actual_seconds(&self) -> Option<f64> {
        let a = self.actual.as_ref()?;
        matches!(a.status, Status::Done | Status::Failed).then_some(a.end - a.start)
    }

    /// `(actual - predicted) / predicted` in percent, when both are known
    /// and the prediction is not zero.
    pub fn error_percent(&self) -> Option<f64> {
        let p = self.predicted_seconds()?;
        let a = self.actual_seconds()?;
        (p > 0.0).then(|| (a - p) / p * 100.0)
    }

    pub fn status(&self) -> Status {
        self.actual.as_ref().map_or(Status::Pending, |a| a.status)
    }

    /// The worker the task is shown on: where it ran, else where planned.
    pub fn worker(&self) -> Option<usize> {
        self.actual
            .as_ref()
            .and_then(|a| a.worker)
            .or_else(|| self.predicted.first().map(|s| s.worker))
    }
}

/// A run's Gantt chart, predicted against actual.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Gantt {
    pub workflow: String,
    pub scheduler: String,
    pub workers: usize,
    /// One row per task, by task id.
    pub rows: Vec<Row>,
    pub predicted_makespan: f64,
    /// Set when the run has finished.
    pub actual_makespan: Option<f64>,
}

impl Gantt {
    /// The plan of a run that has not started: one row per task of `graph`,
    /// with the slots `schedule` gives it (node `i` of the schedule is task `i`).
    pub fn planned(
        workflow: &str,
        scheduler: &str,
        graph: &TaskGraph,
        schedule: &Schedule,
    ) -> Gantt {
        let mut rows: Vec<Row> = graph
            .tasks
            .iter()
            .map(|t| Row {
                name: t.name.clone(),
                function: t.function.clone(),
                kind: t.kind.as_str().to_string(),
                predicted: Vec::new(),
                actual: None,
            })
            .collect();
        for item in &schedule.items {
            if let Some(row) = rows.get_mut(item.node) {
                row.predicted.push(Slot {
                    worker: item.worker,
                    start: item.start,
                    end: item.end,
                    iterations: item.iterations.as_ref().map(|r| (r.start, r.end)),
                });
            }
        }
        Gantt {
            workflow: workflow.to_string(),
            scheduler: scheduler.to_string(),
            workers: schedule.workers.max(1),
            rows,
            predicted_makespan: schedule.makespan(),
            actual_makespan: None,
        }
    }

    /// Records one run event. Events for unknown tasks are ignored.
    pub fn apply(&mut self, event: &Event) {
        let (task, actual) = match event {
            Event::Started { task, worker, at } => {
                let t = at.as_secs_f64();
                (*task, actual(Some(*worker), t, t, Status::Running, None))
            }
            Event::Finished { task, worker, at } => {
                let start = self.start_of(*task, at.as_secs_f64());
                let a = actual(Some(*worker), start, at.as_secs_f64(), Status::Done, None);
                (*task, a)
            }
            Event::Failed {
                task,
                worker,
                at,
                message,
            } => {
                let start = self.start_of(*task, at.as_secs_f64());
                let msg = Some(message.clone());
                let a = actual(Some(*worker), start, at.as_secs_f64(), Status::Failed, msg);
                (*task, a)
            }
            Event::Skipped { task, reason } => {
                let at = self.start_of(*task, 0.0);
                let a = actual(None, at, at, Status::Skipped, Some(reason.clone()));
                (*task, a)
            }
            // A loop's actual time is drawn as one bar for now; its blocks
            // are in the plan.
            Event::Chunk { .. } => return,
        };
        if let Some(row) = self.rows.get_mut(task) {
            row.actual = Some(actual);
        }
    }

    fn start_of(&self, task: usize, default: f64) -> f64 {
        self.rows
            .get(task)
            .and_then(|r| r.actual.as_ref())
            .map_or(default, |a| a.start)
    }

    /// Records a finished run: every task's outcome and the makespan.
    pub fn finish(&mut self, report: &RunReport) {
        for (row, o) in self.rows.iter_mut().zip(&report.outcomes) {
            let (status, message) = match &o.value {
                Ok(_) => (Status::Done, None),
                Err(StepError::Failed { message, .. }) => (Status::Failed, Some(message.clone())),
                Err(StepError::Skipped { reason }) => (Status::Skipped, Some(reason.clone())),
            };
            row.actual = Some(Actual {
                worker: o.worker,
                start: o.start.as_secs_f64(),
                end: o.end.as_secs_f64(),
                status,
                message,
            });
        }
        self.actual_makespan = Some(report.makespan.as_secs_f64());
    }

    /// Distinct functions in order of first appearance: the colour of a bar
    /// is its function's index here.
    pub fn functions(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in &self.rows {
            if !out.contains(&r.function.as_str()) {
                out.push(&r.function);
            }
        }
        out
    }

    /// The time the chart has to show: the later of both makespans and of
    /// every actual end seen so far.
    pub fn horizon(&self) -> f64 {
        let actual_end = self
            .rows
            .iter()
            .filter_map(|r| r.actual.as_ref().map(|a| a.end))
            .fold(0.0, f64::max);
        self.predicted_makespan
            .max(self.actual_makespan.unwrap_or(0.0))
            .max(actual_end)
    }
}

fn actual(
    worker: Option<usize>,
    start: f64,
    end: f64,
    status: Status,
    message: Option<String>,
) -> Actual {
    Actual {
        worker,
        start,
        end,
        status,
        message,
    }
}

/// The scheduler's input for a task graph: node `i` is task `i`, with cost
/// `costs[i]` (predicted seconds; 0 when missing), an edge per predecessor.
/// Values are shared between threads, so edges carry no bytes.
pub fn dag(graph: &TaskGraph, costs: &[f64]) -> Dag {
    let nodes = graph
        .tasks
        .iter()
        .map(|t| {
            let cost = costs
                .get(t.id)
                .copied()
                .filter(|c| c.is_finite())
                .unwrap_or(0.0);
            match &t.iterations {
                Some(it) if !it.is_empty() => Node::looped(&t.name, cost, it.len()),
                _ => Node::function(&t.name, cost),
            }
        })
        .collect();
    let edges = graph
        .tasks
        .iter()
        .flat_map(|t| {
            graph.predecessors(t.id).map(move |from| Edge {
                from,
                to: t.id,
                bytes: 0.0,
            })
        })
        .collect();
    Dag { nodes, edges }
}

/// Plans and runs a workflow headless and returns its chart: what
/// `flowcast export WORKFLOW` draws. `costs` are the predicted seconds per
/// task (by task id).
pub fn record(
    wf: &crate::workflow::Workflow,
    graph: &TaskGraph,
    costs: &[f64],
    workers: usize,
    scheduler: crate::sched::Scheduler,
    seed: i64,
) -> Result<Gantt, String> {
    use crate::sched::{plan, Comm};
    let schedule = plan(&dag(graph, costs), &Comm::SHARED_MEMORY, workers, scheduler);
    let mut g = Gantt::planned(&wf.name, scheduler.name(), graph, &schedule);
    // A plan may leave workers idle (or the graph be empty): show all p lanes.
    g.workers = g.workers.max(workers);
    let opts = crate::exec::RunOptions {
        workers: workers.max(1),
        seed,
    };
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let report = crate::exec::run(wf, graph, &opts, &|_| {}, &cancel)?;
    g.finish(&report);
    Ok(g)
}
