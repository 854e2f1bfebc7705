//! The Gantt chart of one run: what was planned (a [`Schedule`]) beside what
//! happened (run [`Event`]s or a [`RunReport`]). The terminal UI and every
//! exporter draw this one structure, and it serialises so a run can be
//! stored and exported later.

use serde::{Deserialize, Serialize};

use crate::cost::history::History;
use crate::exec::{Event, RunReport, StepError, StepWarning};
use crate::graph::TaskGraph;
use crate::printable::printable;
use crate::sched::Schedule;

/// Where and when a task (or one block of a loop's iterations) was planned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slot {
    pub worker: usize,
    /// Seconds since the run started.
    pub start: f64,
    pub end: f64,
    /// For a block of a loop: its iterations, 0-based and half-open. The
    /// JSON counts as R does (see [`iterations`]).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "iterations")]
    pub iterations: Option<(usize, usize)>,
}

/// A block's iterations in JSON as people read them, numbered from 1 as in
/// R: `{"first": 1, "last": 4}`. Charts stored before that wrote the
/// 0-based half-open pair `[0, 4]`, which is still read.
mod iterations {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Numbered {
        first: usize,
        last: usize,
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Stored {
        // First: serde would also read a pair as a `Numbered`.
        Positions(usize, usize),
        Numbered(Numbered),
    }

    // Serde's `with` hands the field by reference.
    #[allow(clippy::ref_option)]
    pub fn serialize<S: Serializer>(r: &Option<(usize, usize)>, s: S) -> Result<S::Ok, S::Error> {
        r.map(|(a, b)| Numbered {
            first: a + 1,
            last: b,
        })
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<(usize, usize)>, D::Error> {
        Ok(Option::<Stored>::deserialize(d)?.map(|s| match s {
            Stored::Numbered(n) => (n.first.saturating_sub(1), n.last),
            Stored::Positions(a, b) => (a, b),
        }))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pending,
    Running,
    Done,
    Failed,
    Skipped,
    /// Stopped, or never started, because the run was cancelled.
    Cancelled,
    /// Not run: its value was taken from the cache, its key unchanged.
    Cached,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Running => "running",
            Status::Done => "done",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
            Status::Cancelled => "cancelled",
            Status::Cached => "cached",
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
    /// A loop run to a static plan: each block of iterations as it ran, on
    /// its own worker. `start..end` above is then the whole loop.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chunks: Vec<Slot>,
    /// The other workers a moldable call ran on besides `worker`: it is
    /// drawn across all of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lanes: Vec<usize>,
    /// R's warnings, as R prints them (`In <call> : <message>`): known once
    /// the run has ended.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
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

    /// Seconds the workers spent on it, as every view reports it: the sum
    /// of its actual bars (a loop's blocks), once it has finished or failed.
    pub fn work_seconds(&self) -> Option<f64> {
        let a = self.actual.as_ref()?;
        if !matches!(a.status, Status::Done | Status::Failed) {
            return None;
        }
        Some(self.actual_bars().iter().map(|b| b.end - b.start).sum())
    }

    /// The work the plan gave it: the sum of its planned blocks.
    pub fn predicted_work_seconds(&self) -> Option<f64> {
        (!self.predicted.is_empty()).then(|| self.predicted.iter().map(|s| s.end - s.start).sum())
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

    /// R's warnings from its run (none before it has ended).
    pub fn warnings(&self) -> &[String] {
        self.actual.as_ref().map_or(&[], |a| a.warnings.as_slice())
    }

    /// The bars that show what happened: one per block for a loop that ran
    /// in blocks, else one for the task. A running task's bar ends at its
    /// start (a drawer extends it to "now"); a skipped task has none.
    pub fn actual_bars(&self) -> Vec<Slot> {
        let Some(a) = &self.actual else {
            return Vec::new();
        };
        if !a.chunks.is_empty() {
            return a.chunks.clone();
        }
        match (a.worker, a.status) {
            (Some(worker), Status::Running | Status::Done | Status::Failed | Status::Cancelled) => {
                std::iter::once(worker)
                    .chain(a.lanes.iter().copied())
                    .map(|worker| Slot {
                        worker,
                        start: a.start,
                        end: a.end,
                        iterations: None,
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
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
    /// When the plan was re-planned during the run (seconds since its
    /// start): charts mark each.
    pub replans: Vec<f64>,
    /// Under MPI, the values that crossed between ranks, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transfers: Vec<Transfer>,
    /// The calls that could run wide but are held to one worker this run
    /// to measure their speedup (see `pipeline::Plan::measuring`), so
    /// the chart can say why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub measuring: Vec<String>,
}

/// A value moved from one rank to another (seconds since the run started),
/// for the piece of work on `worker`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transfer {
    pub value: String,
    pub worker: usize,
    pub from: usize,
    pub to: usize,
    pub bytes: usize,
    pub start: f64,
    pub end: f64,
}

/// The furthest from its run's start a time of a chart read back may be:
/// some 31 years, past any run, and small enough that every writer's units
/// (Mermaid's and the trace's integer milliseconds and microseconds) hold it.
pub const MAX_CHART_SECONDS: f64 = 1e9;

impl Gantt {
    /// A chart read back from JSON (a `.gantt.json` file, or one stored in
    /// the history), which anyone may have edited. Every writer draws one
    /// lane per worker, so a count past what any run can have
    /// (`"workers": 1000000000000`) is refused here rather than sizing a
    /// drawing of terabytes, whose failed allocation aborts.
    pub fn from_json(text: &str) -> Result<Gantt, String> {
        let g: Gantt = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if g.workers > crate::workflow::MAX_PROCESSORS {
            return Err(format!(
                "`workers` is {}, but a run has at most {} workers",
                g.workers,
                crate::workflow::MAX_PROCESSORS
            ));
        }
        g.check_times()?;
        Ok(g)
    }

    /// Every time of a chart read back is seconds since its run started,
    /// within [`MAX_CHART_SECONDS`] of it: an edited `"start": 1e308`
    /// overflowed the Mermaid writer's milliseconds (a panic), and drew
    /// nothing readable anywhere else.
    fn check_times(&self) -> Result<(), String> {
        let check = |what: &dyn Fn() -> String, t: f64| {
            if t.is_finite() && t.abs() <= MAX_CHART_SECONDS {
                Ok(())
            } else {
                // 1e308 in full is 309 digits.
                let t = if t.abs() >= 1e6 {
                    format!("{t:e}")
                } else {
                    t.to_string()
                };
                Err(format!(
                    "{} is {t}, but a chart's times are seconds since its run started, \
                     at most {MAX_CHART_SECONDS:e}",
                    what()
                ))
            }
        };
        check(&|| "`predicted_makespan`".into(), self.predicted_makespan)?;
        if let Some(a) = self.actual_makespan {
            check(&|| "`actual_makespan`".into(), a)?;
        }
        for &t in &self.replans {
            check(&|| "a re-plan's time".into(), t)?;
        }
        for t in &self.transfers {
            let what = || format!("the transfer of `{}`'s time", printable(&t.value));
            check(&what, t.start)?;
            check(&what, t.end)?;
        }
        for r in &self.rows {
            let name = printable(&r.name);
            let slots = r.predicted.iter().map(|s| ("planned", s));
            let chunks = r
                .actual
                .iter()
                .flat_map(|a| a.chunks.iter().map(|s| ("run", s)));
            for (how, s) in slots.chain(chunks) {
                let what = || format!("a {how} time of task `{name}`");
                check(&what, s.start)?;
                check(&what, s.end)?;
            }
            if let Some(a) = &r.actual {
                let what = || format!("the run time of task `{name}`");
                check(&what, a.start)?;
                check(&what, a.end)?;
            }
        }
        Ok(())
    }

    /// The plan of a run that has not started: one row per task of `graph`,
    /// with the slots `schedule` gives it (node `i` of the schedule is task `i`).
    pub fn planned(
        workflow: &str,
        scheduler: &str,
        graph: &TaskGraph,
        schedule: &Schedule,
    ) -> Gantt {
        let rows: Vec<Row> = graph
            .tasks
            .iter()
            .map(|t| Row {
                name: t.name.clone(),
                function: t.label(),
                kind: t.kind.as_str().to_string(),
                predicted: Vec::new(),
                actual: None,
            })
            .collect();
        let mut g = Gantt {
            workflow: workflow.to_string(),
            scheduler: scheduler.to_string(),
            workers: 1,
            rows,
            predicted_makespan: 0.0,
            actual_makespan: None,
            replans: Vec::new(),
            transfers: Vec::new(),
            measuring: Vec::new(),
        };
        g.set_plan(schedule);
        g
    }

    /// Replaces the predicted slots with `schedule`'s (node `i` is task `i`).
    pub fn set_plan(&mut self, schedule: &Schedule) {
        for row in &mut self.rows {
            row.predicted.clear();
        }
        for item in &schedule.items {
            if let Some(row) = self.rows.get_mut(item.node) {
                for worker in item.all_lanes() {
                    row.predicted.push(Slot {
                        worker,
                        start: item.start,
                        end: item.end,
                        iterations: item.iterations.as_ref().map(|r| (r.start, r.end)),
                    });
                }
            }
        }
        self.workers = self.workers.max(schedule.workers.max(1));
        self.predicted_makespan = schedule.makespan();
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
            Event::Lanes { task, lanes } => {
                if let Some(a) = self.rows.get_mut(*task).and_then(|r| r.actual.as_mut()) {
                    a.lanes.clone_from(lanes);
                }
                return;
            }
            Event::Skipped { task, reason } => {
                let at = self.start_of(*task, 0.0);
                let a = actual(None, at, at, Status::Skipped, Some(reason.clone()));
                (*task, a)
            }
            // The predicted bars stay the forecast made before the run: one
            // plan, against which the run is judged. A re-plan only covers
            // what had not started, on the times of a moment; drawn over
            // the forecast, its items and those already running overlapped
            // on a worker. The chart marks when it happened.
            Event::Replanned { at, .. } => {
                self.replans.push(at.as_secs_f64());
                return;
            }
            Event::Transfer {
                value,
                worker,
                from,
                to,
                bytes,
                start,
                end,
            } => {
                self.transfers.push(Transfer {
                    value: value.clone(),
                    worker: *worker,
                    from: *from,
                    to: *to,
                    bytes: *bytes,
                    start: start.as_secs_f64(),
                    end: end.as_secs_f64(),
                });
                return;
            }
            Event::Chunk {
                task,
                worker,
                iterations,
                start,
                end,
            } => {
                let chunk = Slot {
                    worker: *worker,
                    start: start.as_secs_f64(),
                    end: end.as_secs_f64(),
                    iterations: Some((iterations.start, iterations.end)),
                };
                if let Some(row) = self.rows.get_mut(*task) {
                    let a = row.actual.get_or_insert_with(|| {
                        actual(
                            Some(chunk.worker),
                            chunk.start,
                            chunk.start,
                            Status::Running,
                            None,
                        )
                    });
                    a.chunks.push(chunk);
                }
                return;
            }
        };
        if let Some(row) = self.rows.get_mut(task) {
            let (chunks, lanes) = row
                .actual
                .take()
                .map(|a| (a.chunks, a.lanes))
                .unwrap_or_default();
            row.actual = Some(Actual {
                chunks,
                lanes,
                ..actual
            });
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
            let (chunks, lanes) = row
                .actual
                .take()
                .map(|a| (a.chunks, a.lanes))
                .unwrap_or_default();
            let (status, message) = match &o.value {
                Ok(_) if o.reused => (Status::Cached, None),
                Ok(_) => (Status::Done, None),
                Err(e) if report.cancelled => (Status::Cancelled, Some(e.to_string())),
                Err(StepError::Failed { message, .. }) => (Status::Failed, Some(message.clone())),
                Err(StepError::Skipped { reason }) => (Status::Skipped, Some(reason.clone())),
            };
            row.actual = Some(Actual {
                worker: o.worker,
                start: o.start.as_secs_f64(),
                end: o.end.as_secs_f64(),
                status,
                message,
                chunks,
                lanes,
                warnings: o.warnings.iter().map(StepWarning::located).collect(),
            });
        }
        self.actual_makespan = Some(report.makespan.as_secs_f64());
    }

    /// Marks the tasks a run takes from the cache, before it starts: they
    /// will not run, and the chart says so from the first frame.
    pub fn mark_cached(&mut self, reused: impl Iterator<Item = usize>) {
        for id in reused {
            if let Some(row) = self.rows.get_mut(id) {
                row.actual = Some(actual(None, 0.0, 0.0, Status::Cached, None));
            }
        }
    }

    /// Marks tasks `ids` as held to one worker to measure their speedup.
    pub fn mark_measuring(&mut self, ids: &[usize]) {
        self.measuring = ids
            .iter()
            .filter_map(|&id| self.rows.get(id).map(|r| r.name.clone()))
            .collect();
    }

    /// The tasks taken from the cache, not run, in file order.
    pub fn cached(&self) -> Vec<&str> {
        self.rows
            .iter()
            .filter(|r| r.status() == Status::Cached)
            .map(|r| r.name.as_str())
            .collect()
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
            .filter_map(|r| r.actual.as_ref())
            .flat_map(|a| std::iter::once(a.end).chain(a.chunks.iter().map(|c| c.end)))
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
        chunks: Vec::new(),
        lanes: Vec::new(),
        warnings: Vec::new(),
    }
}

/// Builds a chart from run events as they arrive, from any thread: what a
/// run's own thread keeps so that the chart of every run can be stored.
pub struct Recorder(std::sync::Mutex<Gantt>);

impl Recorder {
    pub fn new(planned: Gantt) -> Recorder {
        Recorder(std::sync::Mutex::new(planned))
    }

    pub fn event(&self, event: &Event) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .apply(event);
    }

    /// The finished chart.
    pub fn finish(self, report: &RunReport) -> Gantt {
        let mut g = self
            .0
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        g.finish(report);
        g
    }
}

/// Stores a recorded run's chart beside it, so that `--run` exports it as
/// it was. A failure is only a warning, for the caller to say: the run
/// itself is recorded.
pub fn store_chart(
    history: Option<&History>,
    run_id: Option<i64>,
    chart: &Gantt,
) -> Result<(), String> {
    let (Some(id), Some(h)) = (run_id, history) else {
        return Ok(());
    };
    serde_json::to_string(chart)
        .map_err(|e| e.to_string())
        .and_then(|json| h.save_chart(id, &json).map_err(|e| e.to_string()))
        .map_err(|e| format!("the chart was not stored: {e}"))
}
