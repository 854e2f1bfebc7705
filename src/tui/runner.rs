//! Runs in the background: plans with the predicted costs, starts
//! `exec::run` on its own thread, and forwards its events to the UI as
//! [`Action`]s. The UI thread never waits for a run. A rerun while a run is
//! going cancels it (cooperatively) and is queued; a later rerun replaces
//! the queued one, so at most one is pending.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use super::app::Action;
use crate::exec::RunOptions;
use crate::export::gantt::{dag, Gantt};
use crate::graph::TaskGraph;
use crate::pipeline::{self, Learning};
use crate::sched::{plan, Comm, Scheduler};
use crate::workflow::Workflow;

/// Predicted seconds per task, by task id.
pub type Predictor = Arc<dyn Fn(&TaskGraph) -> Vec<f64> + Send + Sync>;

struct Active {
    id: usize,
    cancel: Arc<AtomicBool>,
    started: Instant,
}

pub struct Runner {
    tx: Sender<Action>,
    loaded: Option<Arc<(Workflow, TaskGraph)>>,
    predict: Option<Predictor>,
    seed: Option<i64>,
    /// Measured seconds of the last finished run, the prediction when no
    /// predictor was given.
    measured: Option<Vec<f64>>,
    next_id: usize,
    current: Option<Active>,
    pending: Option<(Scheduler, usize)>,
    /// The cost models and history every run predicts from and learns into.
    /// A run holds it only while it records its results: the next run is
    /// planned after the previous one finished.
    learning: Arc<Mutex<Learning>>,
}

impl Runner {
    pub fn new(tx: Sender<Action>, predict: Option<Predictor>, seed: Option<i64>) -> Runner {
        Runner::with_learning(tx, predict, seed, Learning::none())
    }

    pub fn with_learning(
        tx: Sender<Action>,
        predict: Option<Predictor>,
        seed: Option<i64>,
        learning: Learning,
    ) -> Runner {
        Runner {
            learning: Arc::new(Mutex::new(learning)),
            tx,
            loaded: None,
            predict,
            seed,
            measured: None,
            next_id: 0,
            current: None,
            pending: None,
        }
    }

    /// Replaces the workflow later runs use (the running one keeps its own).
    pub fn set_workflow(&mut self, wf: Workflow, graph: TaskGraph) {
        if self
            .loaded
            .as_ref()
            .is_some_and(|l| l.1.tasks.len() != graph.tasks.len())
        {
            self.measured = None;
        }
        self.loaded = Some(Arc::new((wf, graph)));
    }

    pub fn has_workflow(&self) -> bool {
        self.loaded.is_some()
    }

    pub fn running(&self) -> bool {
        self.current.is_some()
    }

    /// Seconds since the current run started.
    pub fn elapsed(&self) -> Option<f64> {
        self.current
            .as_ref()
            .map(|a| a.started.elapsed().as_secs_f64())
    }

    /// Starts a run now, or cancels the running one and queues this.
    pub fn request(&mut self, scheduler: Scheduler, workers: usize) -> Option<Action> {
        if let Some(a) = &self.current {
            a.cancel.store(true, Ordering::Relaxed);
            self.pending = Some((scheduler, workers));
            return None;
        }
        self.start(scheduler, workers)
    }

    /// A run ended: remember what it measured and start the queued run.
    pub fn finished(&mut self, id: usize, measured: Option<Vec<f64>>) -> Option<Action> {
        if self.current.as_ref().is_some_and(|a| a.id == id) {
            self.current = None;
        }
        if measured.is_some() {
            self.measured = measured;
        }
        match self.pending.take() {
            Some((s, p)) if self.current.is_none() => self.start(s, p),
            other => {
                self.pending = other;
                None
            }
        }
    }

    /// Cancels everything (on quit).
    pub fn cancel(&mut self) {
        self.pending = None;
        if let Some(a) = &self.current {
            a.cancel.store(true, Ordering::Relaxed);
        }
    }

    fn costs(&self, graph: &TaskGraph) -> Vec<f64> {
        if let Some(p) = &self.predict {
            return p(graph);
        }
        match &self.measured {
            Some(m) if m.len() == graph.tasks.len() => m.clone(),
            // Nothing known yet: every task alike, so the plan shows the
            // graph's shape rather than times.
            _ => vec![0.01; graph.tasks.len()],
        }
    }

    fn start(&mut self, scheduler: Scheduler, workers: usize) -> Option<Action> {
        let loaded = Arc::clone(self.loaded.as_ref()?);
        self.next_id += 1;
        let id = self.next_id;
        let (wf, graph) = &*loaded;
        let run_plan = {
            let learning = self.learning.lock().unwrap_or_else(PoisonError::into_inner);
            let mut p = pipeline::plan(wf, graph, &learning, workers.max(1), scheduler);
            // An explicit predictor, or without a history the last run's
            // measurements, beat the models' priors.
            if self.predict.is_some() || learning.history.is_none() {
                let costs = self.costs(graph);
                p.dag = dag(graph, &costs);
                p.schedule = plan(&p.dag, &Comm::SHARED_MEMORY, workers.max(1), scheduler);
                p.predicted = costs;
            }
            p
        };
        let schedule = run_plan.schedule.clone();
        let mut gantt = Gantt::planned(&wf.name, scheduler.name(), graph, &schedule);
        gantt.workers = gantt.workers.max(workers);
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let tx = self.tx.clone();
        let seed = self.seed.or(wf.seed).unwrap_or(0);
        let learning = Arc::clone(&self.learning);
        let spawned = std::thread::Builder::new()
            .name("flowcast-run".into())
            .spawn(move || {
                let (wf, graph) = &*loaded;
                let opts = RunOptions {
                    workers: workers.max(1),
                    seed,
                };
                let events = tx.clone();
                let on_event = move |event: crate::exec::Event| {
                    let _ = events.send(Action::RunEvent { run: id, event });
                };
                let result = {
                    let mut learning = learning.lock().unwrap_or_else(PoisonError::into_inner);
                    pipeline::execute(wf, graph, &mut learning, run_plan, &opts, &on_event, &flag)
                        .map(|f| f.report)
                };
                let _ = tx.send(Action::RunFinished { run: id, result });
            });
        if let Err(e) = spawned {
            let _ = self.tx.send(Action::RunFinished {
                run: id,
                result: Err(format!("cannot start a run: {e}")),
            });
        }
        self.current = Some(Active {
            id,
            cancel,
            started: Instant::now(),
        });
        Some(Action::RunPlanned { run: id, gantt })
    }
}
