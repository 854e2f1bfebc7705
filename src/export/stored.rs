//! The chart of a past run, from the history store: `flowcast export --run
//! ID|last`. Runs recorded by the terminal UI (and `flowcast export`) store
//! their chart whole ([`store_chart`](crate::report::gantt::store_chart)).
//! For the others it is rebuilt from the stored tasks: what ran from each
//! task's worker, start and end; the plan by planning the workflow again
//! with the costs predicted then (the schedulers are deterministic), when
//! its file still describes the same steps.

use std::collections::HashMap;
use std::path::Path;

use crate::cost::history::{History, RunRecord, TaskRecord};
use crate::cost::Comm;
use crate::report::gantt::{Actual, Gantt, Row, Status};
use crate::sched::{self, Scheduler};

/// Which run: `last` or an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Last,
    Id(i64),
}

impl Which {
    pub fn parse(s: &str) -> Option<Which> {
        match s {
            "last" | "latest" => Some(Which::Last),
            _ => s.trim_start_matches('#').parse().ok().map(Which::Id),
        }
    }
}

/// A past run's chart, and a note when its plan could not be rebuilt.
/// `workflow` narrows `last` to one workflow's runs.
pub fn load(
    h: &History,
    which: Which,
    workflow: Option<&str>,
) -> Result<(Gantt, Option<String>), String> {
    let store = h.path().display().to_string();
    let id = match which {
        Which::Id(id) => id,
        Which::Last => {
            let runs = h.runs(workflow).map_err(|e| e.to_string())?;
            let Some(last) = runs.first() else {
                return Err(match workflow {
                    Some(w) => format!("history store {store}: no runs of workflow `{w}` yet"),
                    None => format!("history store {store}: no runs yet"),
                });
            };
            last.id
        }
    };
    if let Some(json) = h.load_chart(id).map_err(|e| e.to_string())? {
        let g = Gantt::from_json(&json)
            .map_err(|e| format!("history store {store}: run {id}'s chart: {e}"))?;
        return Ok((g, None));
    }
    let run = h
        .run(id)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("history store {store}: no run {id} (see `flowcast history`)"))?;
    let comm = h.load_comm().ok().flatten().unwrap_or(Comm::SHARED_MEMORY);
    let (mut g, note) = rebuild(&run, &comm);
    // The tasks say only whether each has a time; the run says why not.
    let states = h.run_states().map_err(|e| e.to_string())?;
    if states.get(&id).map(String::as_str) == Some("cancelled") {
        for a in g.rows.iter_mut().filter_map(|r| r.actual.as_mut()) {
            if matches!(a.status, Status::Failed | Status::Skipped) {
                a.status = Status::Cancelled;
            }
        }
    }
    Ok((g, note))
}

/// The chart of a run stored without one.
pub fn rebuild(run: &RunRecord, comm: &Comm) -> (Gantt, Option<String>) {
    // A damaged or edited store may say any number of workers: planning
    // for 2^63 of them overflowed (a panic), and a chart of them cannot be
    // drawn. Such a run is drawn as it ran, on the workers its tasks used.
    let stored = usize::try_from(run.processors)
        .ok()
        .filter(|&p| sched::processors_problem(p).is_none());
    let workers = stored.unwrap_or_else(|| {
        let used = run.tasks.iter().filter_map(|t| t.worker);
        let most = used.filter_map(|w| usize::try_from(w).ok()).max();
        most.map_or(1, |w| w.saturating_add(1))
            .clamp(1, crate::workflow::MAX_PROCESSORS)
    });
    let planned = match stored {
        Some(_) => replan(run, comm, workers),
        None => Err(format!(
            "the store says it ran on {} workers, which no run can",
            run.processors
        )),
    };
    let (mut g, note) = match planned {
        Ok(g) => (g, None),
        Err(why) => {
            let rows = run
                .tasks
                .iter()
                .map(|t| Row {
                    name: t.step.clone(),
                    function: t.function.clone(),
                    kind: t.kind.clone(),
                    predicted: Vec::new(),
                    actual: None,
                })
                .collect();
            let g = Gantt {
                workflow: run.workflow.clone(),
                scheduler: run.scheduler.clone(),
                workers,
                rows,
                predicted_makespan: run.predicted_makespan.unwrap_or(0.0),
                actual_makespan: None,
                replans: Vec::new(),
                transfers: Vec::new(),
                measuring: Vec::new(),
            };
            let note = format!("run {}: the plan is not drawn ({why})", run.id);
            (g, Some(note))
        }
    };
    let by_name: HashMap<&str, &TaskRecord> =
        run.tasks.iter().map(|t| (t.step.as_str(), t)).collect();
    for row in &mut g.rows {
        row.actual = by_name
            .get(row.name.as_str())
            .and_then(|t| actual(t, g.workers));
    }
    g.actual_makespan = run.actual_makespan;
    if let Some(p) = run.predicted_makespan {
        g.predicted_makespan = p;
    }
    (g, note)
}

/// Task `t` as it ran on a chart of `workers` lanes: an edited store's
/// wide call may name lanes no run had, and those are not drawn.
fn actual(t: &TaskRecord, workers: usize) -> Option<Actual> {
    let status = match (t.actual, t.start) {
        (Some(_), _) => Status::Done,
        (None, Some(_)) => Status::Failed,
        (None, None) => Status::Skipped,
    };
    let start = t.start.unwrap_or(0.0);
    Some(Actual {
        worker: t.worker.and_then(|w| usize::try_from(w).ok()),
        start,
        end: t.end.unwrap_or(start),
        status,
        message: None,
        chunks: Vec::new(),
        lanes: t
            .lanes
            .iter()
            .filter_map(|&l| usize::try_from(l).ok())
            .filter(|&l| l < workers)
            .collect(),
        warnings: Vec::new(),
    })
}

/// The run's plan made again from its workflow file and stored predictions.
fn replan(run: &RunRecord, comm: &Comm, workers: usize) -> Result<Gantt, String> {
    let path = Path::new(&run.path);
    let graph = crate::workflow::load(path)
        .ok()
        .and_then(|wf| crate::graph::build(&wf).ok())
        .ok_or_else(|| format!("{} no longer analyses", path.display()))?;
    let predicted: HashMap<&str, f64> = run
        .tasks
        .iter()
        .filter_map(|t| Some((t.step.as_str(), t.predicted?)))
        .collect();
    let same = graph.tasks.len() == run.tasks.len()
        && graph
            .tasks
            .iter()
            .all(|t| predicted.contains_key(t.name.as_str()));
    if !same {
        return Err(format!("{} has changed since", path.display()));
    }
    let scheduler = Scheduler::parse(&run.scheduler)
        .ok_or_else(|| format!("unknown scheduler `{}`", run.scheduler))?;
    let costs: Vec<f64> = graph
        .tasks
        .iter()
        .map(|t| predicted.get(t.name.as_str()).copied().unwrap_or(0.0))
        .collect();
    let schedule = sched::plan(
        &sched::Dag::costed(&graph, &costs),
        comm,
        workers,
        scheduler,
    );
    let mut g = Gantt::planned(&run.workflow, &run.scheduler, &graph, &schedule);
    g.workers = g.workers.max(workers);
    Ok(g)
}
