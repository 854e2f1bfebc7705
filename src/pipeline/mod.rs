//! One run, end to end: predict every task's cost, plan with the chosen
//! scheduler, execute (to the plan, or work-stealing for `dynamic`), then
//! record the run in the history and retrain the models. The CLI and the
//! terminal UI both drive runs through here.
//!
//! Static plans run through a [`Runtime`]: with `emcp`, loops of at least
//! p·M iterations are test-driven while the plan runs (see [`testdrive`]),
//! and what has not started is re-planned when a drive has measured its
//! loop or a task ends far from its prediction. So the plan a run followed
//! can differ from the one [`plan`] made beforehand: [`Finished::plan`]
//! holds the one followed.

pub mod loop_policy;
mod reuse;
mod testdrive;

pub use reuse::{Part, Reuse};
pub use testdrive::test_driven;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use crate::cost::history::{self, History, RunRecord};
use crate::cost::Comm;
use crate::cost::{self, ModelKind, Predictor};
use crate::exec::{self, Event, Given, RunOptions, RunReport};
use crate::graph::TaskGraph;
use crate::sched::{self, Dag, Policy, Runtime, Schedule, Scheduler};
use crate::workflow::Workflow;

/// Loads and analyses a workflow; every diagnostic as one text.
pub fn load_checked(path: &std::path::Path) -> Result<(Workflow, TaskGraph), String> {
    let text = |errors: Vec<crate::diagnostic::Diagnostic>| {
        let mut s: Vec<String> = errors.iter().map(ToString::to_string).collect();
        s.push(crate::diagnostic::count(errors.len(), path));
        s.join("\n")
    };
    let wf = crate::workflow::load(path).map_err(text)?;
    let graph = crate::graph::build(&wf).map_err(text)?;
    Ok((wf, graph))
}

/// A plan made before running.
#[derive(Clone, Debug)]
pub struct Plan {
    pub scheduler: Scheduler,
    pub workers: usize,
    /// The paper's M: emcp's loop granularity and the test-drive threshold.
    pub m: usize,
    /// The models' predicted seconds per task (by task id): what the
    /// history records and `model show` judges.
    pub predicted: Vec<f64>,
    /// The DAG the plan was made from: costs as predicted, except under
    /// `ideal`, which plans with the previous run's measured costs.
    pub dag: Dag,
    /// The schedule. For `dynamic` it is the simulator's picture of
    /// work-stealing, for the predicted makespan only: rayon decides at
    /// run time. After a run, the plan as followed, re-plans included.
    pub schedule: Schedule,
    /// The loops emcp test-drives.
    pub drives: Vec<usize>,
    /// The calls that could run wide but are held to one worker this run,
    /// to measure their speedup against it.
    pub measuring: Vec<usize>,
    /// The makespan predicted before the run.
    pub forecast: f64,
    /// The steps taken from the cache, not run; the fields above cover
    /// only the others (a reused task has no cost, no edge, no item).
    pub reuse: Reuse,
    /// When steps are reused: the plan of the part that runs, in its own
    /// ids, which the fields above show in the whole workflow's.
    part: Option<Box<(Plan, Part)>>,
}

impl Plan {
    /// The predicted seconds of task `id` on `width` workers: a moldable
    /// call run k wide is judged against its prediction at k, not against
    /// the one-worker figure the models keep.
    pub fn predicted_on(&self, id: usize, width: usize) -> Option<f64> {
        let one = *self.predicted.get(id)?;
        let speedup = match self.dag.nodes.get(id).and_then(|n| n.speedup) {
            Some(usl) if width > 1 => usl.speedup(width),
            _ => 1.0,
        };
        Some(one / speedup)
    }

    /// Each task's prediction at the width it ran in `report`: what the
    /// summary table, `--json` and `bench workflows` set beside its time.
    pub fn predicted_as_ran(&self, report: &crate::exec::RunReport) -> Vec<f64> {
        (0..self.predicted.len())
            .map(|id| {
                let width = 1 + report.outcomes.get(id).map_or(0, |o| o.lanes.len());
                self.predicted_on(id, width).unwrap_or(0.0)
            })
            .collect()
    }

    /// The makespan predicted before the run (re-plans during it do not
    /// change the forecast it is judged by).
    pub fn predicted_makespan(&self) -> f64 {
        self.forecast
    }

    /// Plans again with `costs` (seconds per task, by id) instead of the
    /// models' predictions, on shared memory: the terminal UI's choice
    /// when it has its own predictor, or no history.
    pub fn set_costs(&mut self, graph: &TaskGraph, costs: Vec<f64>) {
        if let Some(b) = self.part.as_mut() {
            let (sub, part) = &mut **b;
            let sub_costs = part
                .ids
                .iter()
                .map(|&i| costs.get(i).copied().unwrap_or(0.0))
                .collect();
            sub.set_costs(&part.graph, sub_costs);
            self.dag = part.dag(&sub.dag, graph);
            self.schedule = part.schedule(&sub.schedule);
            self.predicted = part.widen(&sub.predicted, graph.tasks.len(), 0.0);
        } else {
            self.dag = sched::Dag::costed(graph, &costs);
            self.schedule = sched::plan(
                &self.dag,
                &Comm::SHARED_MEMORY,
                self.workers,
                self.scheduler,
            );
            self.predicted = costs;
        }
        // Planned from given costs, no call is held narrow to learn.
        self.measuring.clear();
        self.forecast = self.schedule.makespan();
    }

    /// The runtime that runs this plan: emcp's re-plans as it goes, the
    /// other static schedulers are followed as published.
    fn runtime(&self, graph: &TaskGraph, learning: &Learning) -> Result<Runtime, String> {
        match self.scheduler {
            Scheduler::Emcp | Scheduler::Ideal => {
                let planning = std::time::Instant::now();
                let mut rt = Runtime::emcp(
                    &self.dag,
                    &learning.comm,
                    self.workers.max(1),
                    self.m,
                    &self.drives,
                    Policy::ADAPTIVE,
                    testdrive::estimator(graph, &learning.predictor, &self.drives),
                );
                // The first plan is a re-plan of everything: what the
                // run's re-plans should cost, until they are timed.
                rt.replan_took(planning.elapsed().as_secs_f64());
                Ok(rt)
            }
            _ => Runtime::follow(&self.dag, &learning.comm, &self.schedule, Policy::FOLLOW),
        }
    }
}

/// The models and history a run learns from; `None` history means the run
/// predicts from priors and learns nothing.
pub struct Learning {
    pub history: Option<History>,
    pub predictor: Predictor,
    pub comm: Comm,
}

impl Learning {
    /// Opens the history (the default location unless `path` is given) and
    /// loads the models. A store that cannot be opened is an error: the
    /// caller decides whether to run without it.
    pub fn open(path: Option<&std::path::Path>) -> Result<Learning, String> {
        Learning::open_with(path, ModelKind::default())
    }

    /// [`Learning::open`] with models of `kind`; each kind has its own
    /// models in the history, learning from the same observations.
    pub fn open_with(path: Option<&std::path::Path>, kind: ModelKind) -> Result<Learning, String> {
        let history = match path {
            Some(p) => History::open(p),
            None => History::open_default(),
        }
        .map_err(|e| e.to_string())?;
        // A fresh history's priors need this machine's speed: measured once.
        crate::cost::speed::stored_or_measured(&history).map_err(|e| e.to_string())?;
        let predictor = Predictor::load(&history, kind).map_err(|e| e.to_string())?;
        let comm = history
            .load_comm()
            .map_err(|e| e.to_string())?
            .unwrap_or(cost::comm::UNCALIBRATED);
        Ok(Learning {
            history: Some(history),
            predictor,
            comm,
        })
    }

    /// Priors only, nothing stored.
    pub fn none() -> Learning {
        Learning::none_with(ModelKind::default())
    }

    /// [`Learning::none`] with models of `kind`.
    pub fn none_with(kind: ModelKind) -> Learning {
        Learning {
            history: None,
            predictor: Predictor::new(kind),
            comm: cost::comm::UNCALIBRATED,
        }
    }
}

/// Plans `graph` on `workers` workers. `ideal` plans with the measured
/// costs of this workflow's previous run (predictions where it has none),
/// but still records the models' predictions, so an oracle run cannot
/// flatter the models' error. The workflow's recent runs are loaded into
/// the predictor first: its steps' own times and paths.
pub fn plan(
    wf: &Workflow,
    graph: &TaskGraph,
    learning: &mut Learning,
    workers: usize,
    scheduler: Scheduler,
) -> Plan {
    if let Some(h) = &learning.history {
        // An unreadable history only loses the per-step refinement.
        let steps = cost::StepTimes::load(h, &wf.name).unwrap_or_default();
        learning.predictor.set_steps(steps);
    }
    let mut dag = sched::Dag::predicted(graph, &learning.predictor);
    let predicted = dag.nodes.iter().map(|n| n.cost).collect();
    if scheduler == Scheduler::Ideal {
        if let Some(measured) = previous_costs(wf, learning) {
            for (node, task) in dag.nodes.iter_mut().zip(&graph.tasks) {
                if let Some(&c) = measured.get(&task.name) {
                    node.cost = c;
                }
            }
        }
    }
    let past = learning
        .history
        .as_ref()
        .map(|h| loop_policy::past_blocks(h, &wf.name))
        .unwrap_or_default();
    loop_policy::choose_policies(&mut dag, &past, workers.max(1));
    let m = wf.m.unwrap_or(sched::DEFAULT_M);
    let drives = match scheduler {
        Scheduler::Emcp => testdrive::test_driven(graph, workers.max(1), m),
        _ => Vec::new(),
    };
    // Only emcp allots several workers to a call.
    let measuring = match scheduler {
        Scheduler::Emcp | Scheduler::Ideal if workers > 1 => graph
            .tasks
            .iter()
            .filter(|t| learning.predictor.measuring_speedup(t))
            .map(|t| t.id)
            .collect(),
        _ => Vec::new(),
    };
    let mut plan = Plan {
        scheduler,
        workers,
        m,
        predicted,
        dag,
        schedule: Schedule {
            workers: workers.max(1),
            items: Vec::new(),
        },
        drives,
        measuring,
        forecast: 0.0,
        reuse: Reuse::nothing(),
        part: None,
    };
    plan.schedule = match scheduler {
        Scheduler::Emcp | Scheduler::Ideal => match plan.runtime(graph, learning) {
            Ok(rt) => rt.followed(),
            Err(_) => sched::plan(&plan.dag, &learning.comm, workers, scheduler),
        },
        _ => sched::plan(&plan.dag, &learning.comm, workers, scheduler),
    };
    plan.forecast = plan.schedule.makespan();
    plan
}

/// [`plan`], for the steps `reuse` does not take from the cache: only they
/// are planned and run.
pub fn plan_reusing(
    wf: &Workflow,
    graph: &TaskGraph,
    learning: &mut Learning,
    workers: usize,
    scheduler: Scheduler,
    reuse: Reuse,
) -> Plan {
    if reuse.count() == 0 {
        let mut p = plan(wf, graph, learning, workers, scheduler);
        p.reuse = reuse;
        return p;
    }
    let part = Part::new(wf, graph, &reuse.entries);
    let sub = plan(&part.wf, &part.graph, learning, workers, scheduler);
    let n = graph.tasks.len();
    Plan {
        scheduler,
        workers,
        m: sub.m,
        predicted: part.widen(&sub.predicted, n, 0.0),
        dag: part.dag(&sub.dag, graph),
        schedule: part.schedule(&sub.schedule),
        drives: part.whole_ids(&sub.drives),
        measuring: part.whole_ids(&sub.measuring),
        forecast: sub.forecast,
        reuse,
        part: Some(Box::new((sub, part))),
    }
}

fn previous_costs(wf: &Workflow, learning: &Learning) -> Option<HashMap<String, f64>> {
    let h = learning.history.as_ref()?;
    let last = h.recent_runs(&wf.name, 1).ok()?.pop()?;
    let tasks = h.tasks(last.id).ok()?;
    Some(
        tasks
            .into_iter()
            .filter_map(|t| Some((t.step, t.actual?)))
            .collect(),
    )
}

/// A finished run with its plan.
pub struct Finished {
    pub plan: Plan,
    pub report: RunReport,
    /// Something went wrong around the run (a plan the executor refused, a
    /// history that could not be written); the run itself is complete.
    pub warnings: Vec<String>,
    /// The run's id in the history, when recorded.
    pub run_id: Option<i64>,
}

/// Plans, runs and learns. Events are passed on to `on_event` as they happen.
pub fn run(
    wf: &Workflow,
    graph: &TaskGraph,
    learning: &mut Learning,
    opts: &RunOptions,
    scheduler: Scheduler,
    on_event: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
) -> Result<Finished, String> {
    let plan = plan(wf, graph, learning, opts.workers, scheduler);
    execute(wf, graph, learning, plan, opts, on_event, cancel)
}

/// Runs a plan made by [`plan`], then records and learns from the run.
pub fn execute(
    wf: &Workflow,
    graph: &TaskGraph,
    learning: &mut Learning,
    plan: Plan,
    opts: &RunOptions,
    on_event: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
) -> Result<Finished, String> {
    let scheduler = plan.scheduler;
    let mut warnings = Vec::new();
    // Which workers ran each loop's blocks, to turn wall time into work.
    let loop_workers: Mutex<HashMap<usize, HashSet<usize>>> = Mutex::new(HashMap::new());
    let sink = |e: Event| {
        if let Event::Chunk { task, worker, .. } = &e {
            if let Ok(mut m) = loop_workers.lock() {
                m.entry(*task).or_default().insert(*worker);
            }
        }
        on_event(e);
    };
    let mut plan = plan;
    let report = match plan.part.take() {
        None => run_plan(
            wf,
            graph,
            &Given::default(),
            &mut plan,
            learning,
            opts,
            &sink,
            cancel,
            &mut warnings,
        )?,
        Some(b) => {
            let (mut sub, part) = *b;
            let report = if part.ids.is_empty() {
                // Everything reused: nothing to run.
                RunReport {
                    outcomes: Vec::new(),
                    makespan: std::time::Duration::ZERO,
                    workers: opts.workers,
                    seed: opts.seed,
                    cancelled: false,
                    streams: Vec::new(),
                }
            } else {
                let widen = |e: Event| sink(part.event(e));
                run_plan(
                    &part.wf,
                    &part.graph,
                    &part.given,
                    &mut sub,
                    learning,
                    opts,
                    &widen,
                    cancel,
                    &mut warnings,
                )?
            };
            let n = graph.tasks.len();
            plan.schedule = part.schedule(&sub.schedule);
            plan.dag = part.dag(&sub.dag, graph);
            plan.predicted = part.widen(&sub.predicted, n, 0.0);
            let report = part.report(report, &plan.reuse.entries, wf);
            plan.part = Some(Box::new((sub, part)));
            report
        }
    };
    let loop_workers: HashMap<usize, usize> = loop_workers
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|(t, ws)| (t, ws.len()))
        .collect();
    let mut run_id = None;
    // A run that only reused values measured nothing: there is nothing
    // to record or learn.
    let ran_any = report.ran_and_reused().0 > 0 || plan.reuse.count() == 0;
    let measured = report.measured();
    if let Some(h) = learning.history.as_mut().filter(|_| ran_any) {
        let record = RunRecord {
            id: 0,
            workflow: wf.name.clone(),
            path: wf.file.path.display().to_string(),
            scheduler: scheduler.name().to_string(),
            processors: opts.workers as u64,
            started_at: history::now(),
            predicted_makespan: Some(plan.predicted_makespan()),
            actual_makespan: Some(report.makespan.as_secs_f64()),
            tasks: cost::task_records(
                graph,
                &measured,
                &plan.predicted,
                &loop_workers,
                learning.predictor.speedups(),
            ),
        };
        match h.record_run(&record) {
            Ok(id) => {
                run_id = Some(id);
                if let Err(e) = h.save_run_state(id, report.state()) {
                    warnings.push(e.to_string());
                }
            }
            Err(e) => warnings.push(e.to_string()),
        }
        learning.predictor.observe(graph, &measured, &loop_workers);
        learning.predictor.retrain();
        if let Err(e) = learning.predictor.save(h) {
            warnings.push(e.to_string());
        }
    }
    Ok(Finished {
        plan,
        report,
        warnings,
        run_id,
    })
}

/// Runs `plan` on `graph` from `given`: work-stealing for `dynamic`, else
/// to the plan, whose schedule becomes the one followed. A plan the
/// executor refuses runs with work-stealing, with a warning.
#[allow(clippy::too_many_arguments)]
fn run_plan(
    wf: &Workflow,
    graph: &TaskGraph,
    given: &Given,
    plan: &mut Plan,
    learning: &Learning,
    opts: &RunOptions,
    sink: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
    warnings: &mut Vec<String>,
) -> Result<RunReport, String> {
    let scheduler = plan.scheduler;
    if scheduler == Scheduler::Dynamic {
        return exec::run_given(wf, graph, given, opts, sink, cancel);
    }
    let planned = plan
        .runtime(graph, learning)
        .and_then(|rt| exec::run_planned_given(wf, graph, given, rt, opts, sink, cancel));
    // A refused plan ran nothing: running with work-stealing instead is
    // still correct, only not what was asked.
    match planned {
        Ok((report, rt)) => {
            plan.schedule = rt.followed();
            // A test drive's extrapolation is the loop's prediction: it
            // was made before the rest of the loop ran.
            for &(node, cost) in rt.test_driven() {
                if let Some(p) = plan.predicted.get_mut(node) {
                    *p = cost;
                }
                if let Some(n) = plan.dag.nodes.get_mut(node) {
                    n.cost = cost;
                }
            }
            Ok(report)
        }
        Err(e) => {
            warnings.push(format!(
                "the {} plan was refused ({e}); ran with work-stealing instead",
                scheduler.name()
            ));
            exec::run_given(wf, graph, given, opts, sink, cancel)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::Usl;

    #[test]
    fn a_wide_call_is_judged_by_its_prediction_at_its_width() {
        let usl = Usl::new(0.1, 0.0);
        let dag = Dag {
            nodes: vec![
                sched::Node::function("w", 0.4).moldable(usl),
                sched::Node::function("f", 0.2),
            ],
            edges: Vec::new(),
        };
        let plan = Plan {
            scheduler: Scheduler::Emcp,
            workers: 4,
            m: sched::DEFAULT_M,
            predicted: vec![0.4, 0.2],
            dag,
            schedule: Schedule {
                workers: 4,
                items: Vec::new(),
            },
            drives: Vec::new(),
            measuring: Vec::new(),
            forecast: 0.0,
            reuse: Reuse::nothing(),
            part: None,
        };
        // S(4) = 4 / (1 + 0.1 * 3) = 3.0769...: 0.4 s on one worker is
        // 0.13 s on four.
        let on4 = plan.predicted_on(0, 4).unwrap();
        assert!((on4 - 0.4 * 1.3 / 4.0).abs() < 1e-12, "{on4}");
        assert_eq!(plan.predicted_on(0, 1), Some(0.4));
        // A call that cannot widen keeps its figure at any width.
        assert_eq!(plan.predicted_on(1, 4), Some(0.2));
        assert_eq!(plan.predicted_on(2, 1), None);
    }
}
