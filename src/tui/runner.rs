//! Runs in the background: each run gets its own thread, which waits for
//! the history store to open (the first run only), plans with the predicted
//! costs, runs, records the run and its chart in the store, and forwards
//! everything to the UI as [`Action`]s. The UI thread never waits for a
//! run, for planning or for the store. A rerun while a run is going cancels
//! it (cooperatively) and is queued; a later rerun replaces the queued one,
//! so at most one is pending.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

use super::app::Action;
use crate::cache::Cache;
use crate::cost::ModelKind;
use crate::exec::RunOptions;
use crate::graph::TaskGraph;
use crate::pipeline::{self, Learning, Reuse};
use crate::report::gantt::{store_chart, Gantt, Recorder};
use crate::sched::Scheduler;
use crate::workflow::depth::WALK_STACK;
use crate::workflow::Workflow;

/// Predicted seconds per task, by task id.
pub type Predictor = Arc<dyn Fn(&TaskGraph) -> Vec<f64> + Send + Sync>;

struct Active {
    id: usize,
    cancel: Arc<AtomicBool>,
    /// Set by the run's thread when execution starts (after planning).
    started: Arc<OnceLock<Instant>>,
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
    /// Only run threads lock it, one at a time: the next run starts after
    /// the previous one finished.
    learning: Arc<Mutex<Learning>>,
    /// The store being opened in the background; the first run takes it.
    opening: Option<JoinHandle<Learning>>,
    /// `--test-drive-m`: overrides every loaded workflow's `[workflow] m`.
    pub m: Option<usize>,
    /// Values runs reuse; each run keeps what it computed here.
    cache: Arc<Mutex<Cache>>,
    /// The next run reuses nothing.
    force: bool,
    /// The scheduler and p of the last run started: a run with others is
    /// asked for to see them at work, so it reuses nothing.
    last: Option<(Scheduler, usize)>,
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
            opening: None,
            m: None,
            cache: Arc::new(Mutex::new(Cache::new(None))),
            force: false,
            last: None,
        }
    }

    /// Runs reuse and keep values in `cache` (by default, memory only).
    pub fn set_cache(&mut self, cache: Cache) {
        self.cache = Arc::new(Mutex::new(cache));
    }

    /// The next run reuses nothing.
    pub fn force_next(&mut self) {
        self.force = true;
    }

    /// Opens the history store (`None`: the default one) on a thread of
    /// its own, then sends its rows for the model and history views of
    /// `workflow`. Runs wait for it; the UI does not. A store that cannot
    /// be opened is said, and runs go on without one.
    pub fn open_store(&mut self, path: Option<PathBuf>, workflow: String, kind: ModelKind) {
        let tx = self.tx.clone();
        let spawned = std::thread::Builder::new()
            .name("flowcast-store".into())
            .spawn(move || match Learning::open_with(path.as_deref(), kind) {
                Ok(learning) => {
                    send_store(&tx, &learning, &workflow);
                    learning
                }
                Err(e) => {
                    let _ = tx.send(Action::Note(format!("{e}; runs are not recorded")));
                    Learning::none_with(kind)
                }
            });
        self.opening = spawned.ok();
    }

    /// Replaces the workflow later runs use (the running one keeps its own).
    pub fn set_workflow(&mut self, mut wf: Workflow, graph: TaskGraph) {
        wf.m = self.m.or(wf.m);
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

    /// Seconds since the current run started executing.
    pub fn elapsed(&self) -> Option<f64> {
        let started = self.current.as_ref()?.started.get()?;
        Some(started.elapsed().as_secs_f64())
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
        if let Some(mut m) = measured {
            // Steps reused in this run keep the times measured before.
            if let Some(old) = &self.measured {
                for (new, old) in m.iter_mut().zip(old) {
                    if new.is_nan() {
                        *new = *old;
                    }
                }
            }
            self.measured = Some(m);
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

    fn start(&mut self, scheduler: Scheduler, workers: usize) -> Option<Action> {
        let loaded = Arc::clone(self.loaded.as_ref()?);
        self.next_id += 1;
        let id = self.next_id;
        let workers = workers.max(1);
        let changed = self.last.is_some_and(|l| l != (scheduler, workers));
        let force = std::mem::take(&mut self.force) || changed;
        self.last = Some((scheduler, workers));
        let job = Job {
            cache: Arc::clone(&self.cache),
            force,
            id,
            scheduler,
            workers,
            loaded,
            predict: self.predict.clone(),
            measured: self.measured.clone(),
            seed: self.seed,
            tx: self.tx.clone(),
            learning: Arc::clone(&self.learning),
            opening: self.opening.take(),
            cancel: Arc::new(AtomicBool::new(false)),
            started: Arc::new(OnceLock::new()),
        };
        self.current = Some(Active {
            id,
            cancel: Arc::clone(&job.cancel),
            started: Arc::clone(&job.started),
        });
        let spawned = std::thread::Builder::new()
            .name("flowcast-run".into())
            .stack_size(WALK_STACK)
            .spawn(move || job.run());
        match spawned {
            Ok(_) => Some(Action::Planning { run: id }),
            Err(e) => Some(Action::RunFinished {
                run: id,
                result: Err(format!("cannot start a run: {e}")),
                failure: None,
            }),
        }
    }
}

/// Everything one run's thread needs.
struct Job {
    id: usize,
    scheduler: Scheduler,
    workers: usize,
    loaded: Arc<(Workflow, TaskGraph)>,
    predict: Option<Predictor>,
    measured: Option<Vec<f64>>,
    seed: Option<i64>,
    tx: Sender<Action>,
    learning: Arc<Mutex<Learning>>,
    opening: Option<JoinHandle<Learning>>,
    cancel: Arc<AtomicBool>,
    started: Arc<OnceLock<Instant>>,
    cache: Arc<Mutex<Cache>>,
    force: bool,
}

impl Job {
    fn run(self) {
        let (wf, graph) = &*self.loaded;
        let mut learning = self.learning.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(opening) = self.opening {
            *learning = opening.join().unwrap_or_else(|_| Learning::none());
        }
        let seed = self.seed.or(wf.seed).unwrap_or(0);
        let reuse = {
            let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            Reuse::find(wf, graph, seed, &mut cache, self.force)
        };
        let mut run_plan = pipeline::plan_reusing(
            wf,
            graph,
            &mut learning,
            self.workers,
            self.scheduler,
            reuse,
        );
        let mut guessed = false;
        // An explicit predictor, or without a history the last run's
        // measurements, beat the models' priors.
        if self.predict.is_some() || learning.history.is_none() {
            let costs = match (&self.predict, &self.measured) {
                (Some(p), _) => p(graph),
                (None, Some(m)) if m.len() == graph.tasks.len() => m
                    .iter()
                    .map(|c| if c.is_finite() { *c } else { 0.01 })
                    .collect(),
                // Nothing known yet: every task alike, so the plan shows
                // the graph's shape rather than times.
                _ => {
                    guessed = true;
                    vec![0.01; graph.tasks.len()]
                }
            };
            run_plan.set_costs(graph, costs);
        }
        let mut gantt = Gantt::planned(&wf.name, self.scheduler.name(), graph, &run_plan.schedule);
        gantt.mark_cached((0..graph.tasks.len()).filter(|&i| run_plan.reuse.reused(i)));
        gantt.mark_measuring(&run_plan.measuring);
        gantt.workers = gantt.workers.max(self.workers);
        let id = self.id;
        let _ = self.tx.send(Action::RunPlanned {
            run: id,
            gantt: gantt.clone(),
        });
        if guessed {
            let _ = self.tx.send(Action::PlanGuessed { run: id });
        }
        let recorder = Recorder::new(gantt);
        let events = self.tx.clone();
        let on_event = |event: crate::exec::Event| {
            recorder.event(&event);
            let _ = events.send(Action::RunEvent { run: id, event });
        };
        let opts = RunOptions::new(self.workers, seed);
        let _ = self.started.set(Instant::now());
        let result = pipeline::execute(
            wf,
            graph,
            &mut learning,
            run_plan,
            &opts,
            &on_event,
            &self.cancel,
        );
        let mut notes = Vec::new();
        let mut stored = None;
        let mut failure = None;
        let result = result.map(|f| {
            failure = f
                .report
                .failures(graph, &wf.file)
                .first()
                .map(|d| d.to_string());
            let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            notes.extend(f.plan.reuse.remember(&f.report, &mut cache));
            notes.extend(f.warnings);
            stored = f.run_id;
            let chart = recorder.finish(&f.report);
            if let Err(e) = store_chart(learning.history.as_ref(), f.run_id, &chart) {
                notes.push(e);
            }
            f.report
        });
        let _ = self.tx.send(Action::RunFinished {
            run: id,
            result,
            failure,
        });
        if let Some(stored) = stored {
            let _ = self.tx.send(Action::Stored {
                run: id,
                id: stored,
            });
        }
        send_store(&self.tx, &learning, &wf.name);
        if !notes.is_empty() {
            let _ = self.tx.send(Action::Note(notes.join("; ")));
        }
    }
}

fn send_store(tx: &Sender<Action>, learning: &Learning, workflow: &str) {
    match super::store::load(learning, workflow) {
        Some(Ok((history, models))) => {
            let _ = tx.send(Action::Store { history, models });
        }
        Some(Err(e)) => {
            let _ = tx.send(Action::Note(e.to_string()));
        }
        None => {}
    }
}
