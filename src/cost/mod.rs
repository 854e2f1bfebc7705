//! Cost prediction (paper sections III–IV): per-function models learnt from
//! every run, the loop test drive, the communication model ([`Comm`]), how
//! a loop's cost spreads over its iterations ([`Profile`]), how a moldable
//! call speeds up with workers ([`Usl`]), and the history store they
//! persist in.
//!
//! The flow: [`Predictor::load`] reads the models from the [`History`];
//! [`Predictor::predict`] costs each task, which the scheduler reads into
//! its `Dag`; after the run, the executor's [`MeasuredRun`] comes back and
//! [`Predictor::observe`] turns each finished task into an observation,
//! [`Predictor::retrain`] refits the models it touched, and
//! [`Predictor::save`] writes them back.

pub mod ann;
pub mod comm;
pub mod eval;
pub mod history;
pub mod loglinear;
pub mod measured;
pub mod model;
pub mod profile;
pub mod speed;
pub mod speedup;
pub mod steps;
pub mod testdrive;

use std::collections::{BTreeSet, HashMap};

use crate::graph::{Task, TaskGraph, TaskKind};
use crate::kernels::work::Speed;
use crate::kernels::Type;

pub use comm::{Comm, Network};
pub use history::{History, HistoryError, RunRecord, TaskRecord};
pub use measured::{LoopBlock, Measured, MeasuredRun};
pub use model::{Model, ModelKind, Observation};
pub use profile::Profile;
pub use speedup::Usl;
pub use steps::StepTimes;
pub use testdrive::{needs_test_drive, ModelEstimate};

/// The model a task's cost is predicted by and trains: its function, in
/// angle brackets the other calls it makes (`matrix<rnorm>`, see
/// [`Task::inner`]), and in square brackets the algorithm path where the
/// function has several (`eigen[symmetric]`, `wilcox.test[exact]`). A
/// loop's is its body's, marked as a loop (`loop:mean<%*%>`): one iteration
/// of `mean(c %*% a[i, ])` costs the product, not a `mean`, so it must not
/// train the model of plain `mean` calls. `None` for tasks not worth a
/// model (literals).
pub fn model_key(task: &Task) -> Option<String> {
    key_on_path(task, task.path.as_ref().map(|p| p.tag.as_str()))
}

/// [`model_key`] with the path `tag`.
fn key_on_path(task: &Task, tag: Option<&str>) -> Option<String> {
    let mut base = match task.kind {
        TaskKind::Loop => format!("loop:{}", task.function),
        _ if task.function == "literal" => return None,
        _ => task.function.clone(),
    };
    if !task.inner.is_empty() {
        base = format!("{base}<{}>", task.inner.join(","));
    }
    Some(match tag {
        Some(t) => format!("{base}[{t}]"),
        None => base,
    })
}

/// A key without its path (`eigen[general]` → `eigen`): the model stores
/// written before paths kept.
fn without_path(key: &str) -> &str {
    strip_bracketed(key, '[', ']')
}

/// `key` without a trailing `open…close` group; the function `[`, `<` and
/// the like keep their names (the group never starts a key).
fn strip_bracketed(key: &str, open: char, close: char) -> &str {
    match key.strip_suffix(close).and_then(|k| k.rfind(open)) {
        Some(at) if at > 0 => &key[..at],
        _ => key,
    }
}

/// A task's model inputs: its argument sizes; for a data step (`rnorm(n)`,
/// `matrix(...)`) whose arguments are small constants, the size of the value
/// it creates, which is what its time depends on.
pub fn model_features(task: &Task) -> Vec<f64> {
    match task.kind {
        TaskKind::Data => vec![task.ty.len().map_or(0.0, |n| n as f64)],
        _ => task.features.clone(),
    }
}

/// Bytes of a value of this type: 8 per number (16 per complex), when
/// known; 0 when not.
pub fn value_bytes(ty: &Type) -> f64 {
    match ty {
        Type::Null | Type::Any | Type::Formula { .. } => 0.0,
        Type::Num { len, .. }
        | Type::Bool { len, .. }
        | Type::Str { len, .. }
        | Type::Factor { len, .. } => len.map_or(0.0, |n| 8.0 * n as f64),
        Type::Mat { .. } | Type::BoolMat { .. } | Type::StrMat { .. } => {
            ty.len().map_or(0.0, |n| 8.0 * n as f64)
        }
        Type::Complex { len } => len.map_or(0.0, |n| 16.0 * n as f64),
        Type::ComplexMat { .. } => ty.len().map_or(0.0, |n| 16.0 * n as f64),
        Type::Record { fields, .. } => fields.iter().map(|(_, t)| value_bytes(t)).sum(),
        Type::List { len, elem } => len.map_or(0.0, |n| n as f64 * value_bytes(elem)),
    }
}

/// No task is free: handing it to a worker and back takes about this long
/// (and a zero cost would let the scheduler order tasks arbitrarily).
const MIN_TASK_SECONDS: f64 = 1e-6;

/// See [`Predictor::task_overhead`].
const TASK_OVERHEAD_OPS: f64 = 1.2e4;

/// Predicts tasks' costs from per-function models, and learns from runs.
#[derive(Clone, Debug)]
pub struct Predictor {
    kind: ModelKind,
    models: HashMap<String, Model>,
    /// Measured first-iteration seconds of loops test-driven in this run,
    /// by step name.
    test_drives: HashMap<String, f64>,
    /// Models observed since the last retrain.
    stale: BTreeSet<String>,
    /// Models changed since they were loaded or last saved: only they are
    /// written back, so a run's record costs the same with a thousand
    /// models, and two processes sharing a store do not put back each
    /// other's older states of models they did not touch.
    unsaved: BTreeSet<String>,
    /// The planned workflow's steps as they ran before.
    steps: StepTimes,
    /// This machine's speed: a model that has observed nothing predicts
    /// a task's work at it.
    speed: Speed,
    /// How the moldable calls' times shrink with workers.
    speedups: speedup::Speedups,
}

impl Predictor {
    /// A predictor with no history: every model starts from its prior.
    pub fn new(kind: ModelKind) -> Predictor {
        Predictor {
            kind,
            models: HashMap::new(),
            test_drives: HashMap::new(),
            stale: BTreeSet::new(),
            unsaved: BTreeSet::new(),
            steps: StepTimes::default(),
            speed: speed::DEFAULT,
            speedups: speedup::Speedups::default(),
        }
    }

    /// The speedups seen so far.
    pub fn speedups(&self) -> &speedup::Speedups {
        &self.speedups
    }

    /// How task `task` would speed up on several workers: `None` for a
    /// loop, a call whose kernel cannot split, or one too short to gain.
    pub fn speedup(&self, task: &Task) -> Option<crate::cost::Usl> {
        let (usl, key) = self.moldable(task)?;
        (!self.narrow_once(task, &key)).then_some(usl)
    }

    /// Whether `task`, a call that could run wide, is held to one worker
    /// this run to measure its speedup (see [`Predictor::narrow_once`]).
    pub fn measuring_speedup(&self, task: &Task) -> bool {
        self.moldable(task)
            .is_some_and(|(_, key)| self.narrow_once(task, &key))
    }

    /// How `task` would speed up on several workers, and its model key,
    /// whether or not it is held narrow this run.
    fn moldable(&self, task: &Task) -> Option<(crate::cost::Usl, String)> {
        if task.kind != TaskKind::Call {
            return None;
        }
        let key = self.task_key(task)?;
        let usl = self.speedups.usl(&key)?;
        let widest = widest(task);
        (self.predict(task) >= speedup::MIN_MOLDABLE_SECONDS && widest.is_none_or(|w| w > 1))
            .then(|| (usl.up_to(widest), key))
    }

    /// Whether the call should run on one worker this time so its speedup
    /// can be learnt: it ran before at these sizes, never on one worker,
    /// and no call of its model (function and path) has a speedup measured
    /// against a one-worker run yet (see [`Predictor::observe`]). Once per
    /// model: one narrow run anchors every later wide one for
    /// [`steps::RECENT_RUNS`] runs.
    fn narrow_once(&self, task: &Task, key: &str) -> bool {
        let features = model_features(task);
        !self.speedups.measured(key)
            && self.steps.ran(&task.name, key, &features)
            && self.steps.narrow(&task.name, key, &features).is_none()
    }

    /// The speedup at each width that a wide run of `task` is taken to have
    /// had, by what is known now (1 for a call that cannot split).
    fn speedup_now(&self, task: &Task, key: &str) -> impl Fn(u64) -> f64 {
        let usl = self.speedups.usl(key).map(|u| u.up_to(widest(task)));
        move |w| usl.map_or(1.0, |u| u.speedup(w.min(usize::MAX as u64) as usize))
    }

    pub fn seconds_per_op(&self) -> f64 {
        self.speed.per_op
    }

    pub fn speed(&self) -> Speed {
        self.speed
    }

    pub fn set_speed(&mut self, speed: Speed) {
        self.speed = speed::sane(speed);
    }

    /// A machine `seconds_per_op` fast, whose long-double adds relate to
    /// the rest as on the development machine.
    pub fn set_seconds_per_op(&mut self, seconds_per_op: f64) {
        self.set_speed(Speed::at(seconds_per_op));
    }

    /// Loads every saved model of this kind and the machine's speed (the
    /// default when it was never measured); a model saved as another kind,
    /// unreadable, or never saved but observed is rebuilt from the stored
    /// observations.
    pub fn load(history: &History, kind: ModelKind) -> Result<Predictor, HistoryError> {
        let mut p = Predictor::new(kind);
        if let Some(s) = history.load_speed()? {
            p.set_speed(s);
        }
        for (stored, state) in history.load_models()? {
            if p.speedups.load_state(&stored, &state) {
                continue;
            }
            let Some(key) = stored_key_of(kind, &stored) else {
                continue;
            };
            if let Ok(mut m) = Model::from_json(&state) {
                if let Model::LogLinear(l) = &mut m {
                    l.set_prior(model_function(key));
                }
                if m.kind() == kind {
                    p.models.insert(key.to_string(), m);
                }
            }
        }
        for key in history.observed_models()? {
            if p.models.contains_key(&key) {
                continue;
            }
            let mut m = Model::new(kind, model_function(&key));
            let mut obs = history.observations(&key, model::WINDOW)?;
            obs.reverse(); // oldest first, as they happened
            for (x, t) in obs {
                m.observe(&x, t);
            }
            m.retrain();
            p.unsaved.insert(key.clone());
            p.models.insert(key, m);
        }
        Ok(p)
    }

    pub fn kind(&self) -> ModelKind {
        self.kind
    }

    pub fn model(&self, key: &str) -> Option<&Model> {
        self.models.get(key)
    }

    /// Model keys, sorted.
    pub fn model_keys(&self) -> Vec<&str> {
        let mut k: Vec<&str> = self.models.keys().map(String::as_str).collect();
        k.sort_unstable();
        k
    }

    /// Predicted seconds of one call of the model `key` on `features`: a
    /// path never observed borrows the model of its function from before
    /// paths (an old store's), else the prior.
    pub fn predict_features(&self, key: &str, features: &[f64]) -> f64 {
        match self
            .models
            .get(key)
            .or_else(|| self.models.get(without_path(key)))
        {
            Some(m) => m.predict(features),
            None => Model::new(self.kind, model_function(key)).predict(features),
        }
    }

    /// Uses the recent runs of the workflow about to be planned: each step's
    /// own times at the same sizes, and the paths its calls took.
    pub fn set_steps(&mut self, steps: StepTimes) {
        self.steps = steps;
    }

    /// The model a task is predicted by: [`model_key`], except where the
    /// path is only a guess (R decides it on the data) and the step's last
    /// run took a path of the same function.
    pub fn task_key(&self, task: &Task) -> Option<String> {
        let planned = model_key(task)?;
        if task.path.as_ref().is_some_and(|p| !p.known) {
            if let Some(last) = self.steps.last_model(&task.name) {
                if without_path(last) == without_path(&planned) {
                    return Some(last.to_string());
                }
            }
        }
        Some(planned)
    }

    /// Predicted seconds of a task: a loop's is its test drive's
    /// extrapolation when one was recorded, else the per-iteration
    /// prediction × iterations. A step that ran recently at the same sizes
    /// on the same path is predicted by those times, else by its model; a
    /// model that has observed nothing predicts the task's work at this
    /// machine's speed.
    pub fn predict(&self, task: &Task) -> f64 {
        let Some(key) = self.task_key(task) else {
            return 0.0;
        };
        let features = model_features(task);
        // A call that takes a known time (`spin(s)`) is predicted by it: the
        // models see argument sizes, and every `spin`'s is 1, so they would
        // predict `spin(0.01)` by the `spin(0.25)`s they saw.
        let known = task.work.seconds > 0.0;
        let per_call = || {
            if known {
                return self.prior(task);
            }
            self.measured(task, &key, &features).unwrap_or_else(|| {
                if task.kind == TaskKind::Loop {
                    self.prior(task)
                } else {
                    // Measured times include it; the prior counts calls.
                    self.prior(task) + self.task_overhead()
                }
            })
        };
        if task.kind != TaskKind::Loop {
            return per_call();
        }
        let n = task.iterations.as_ref().map_or(0, Vec::len);
        match self.test_drives.get(&task.name) {
            Some(&first) => testdrive::extrapolate(first, n, self.loop_estimate(task)),
            None => per_call() * n as f64,
        }
    }

    /// Seconds of one call of the task by what the history measured: the
    /// step's recent times at these sizes on this path, else its model once
    /// that has observed anything. `None` leaves only the prior.
    fn measured(&self, task: &Task, key: &str, features: &[f64]) -> Option<f64> {
        let speedup = self.speedup_now(task, key);
        if let Some(seconds) = self.steps.recent(&task.name, key, features, &speedup) {
            return Some(seconds);
        }
        // A block of statements (`{…}`) is a program of its own: what other
        // steps' blocks took says nothing of it, so only its own runs do.
        if task.function.starts_with('{') {
            return None;
        }
        let model = self.models.get(key)?;
        (!model.window().is_empty()).then(|| model.predict(features))
    }

    /// Seconds of one call of the task (a loop's: one iteration) before
    /// anything is observed: its work at this machine's speed.
    pub fn prior(&self, task: &Task) -> f64 {
        task.work.seconds_at(self.speed).max(MIN_TASK_SECONDS)
    }

    /// What running a step costs beyond its calls: dispatching it to a
    /// worker, timing it, keeping its value (3 µs on the development
    /// machine, where `trial[, 2]` of a 48-row frame takes 4).
    fn task_overhead(&self) -> f64 {
        TASK_OVERHEAD_OPS * self.speed.per_op
    }

    /// The model's per-iteration estimate for blending with a test drive.
    fn estimate(&self, key: &str, features: &[f64]) -> Option<ModelEstimate> {
        let m = self.models.get(key)?;
        Some(ModelEstimate {
            seconds: m.predict(features),
            log_spread: m.log_spread()?,
        })
    }

    /// The per-iteration estimate of loop `task` to blend with its test
    /// drive ([`testdrive::per_iteration`]): the step's own recent runs at
    /// these sizes when it has some (one cold iteration should not
    /// outweigh them: on 2 cores fig1's loop, after runs of 0.73 and
    /// 0.88 s, was predicted 1.29 s from its drive), else its model; `None`
    /// with neither.
    pub fn loop_estimate(&self, task: &Task) -> Option<ModelEstimate> {
        let key = self.task_key(task)?;
        let features = model_features(task);
        // A loop's runs are per iteration, never wide.
        match self
            .steps
            .recent_spread(&task.name, &key, &features, &|_| 1.0)
        {
            Some((seconds, log_spread)) => Some(ModelEstimate {
                seconds,
                log_spread,
            }),
            None => self.estimate(&key, &features),
        }
    }

    /// Records a loop's test drive: its first iteration took `seconds`.
    pub fn set_test_drive(&mut self, step: &str, seconds: f64) {
        self.test_drives.insert(step.to_string(), seconds);
    }

    pub fn clear_test_drives(&mut self) {
        self.test_drives.clear();
    }

    /// Adds one observation to a model (creating it), to be used after the
    /// next [`Predictor::retrain`].
    pub fn observe_one(&mut self, key: &str, features: &[f64], seconds: f64) {
        let kind = self.kind;
        self.models
            .entry(key.to_string())
            .or_insert_with(|| Model::new(kind, model_function(key)))
            .observe(features, seconds);
        self.stale.insert(key.to_string());
    }

    /// Turns every task that finished in `run` into an observation, and
    /// returns the (model key, seconds) each contributed, by task id.
    ///
    /// A loop contributes its per-iteration time. The work-stealing
    /// executor spreads a loop's iterations over the idle workers, so its
    /// wall time (end − start) understates its work; `loop_workers` gives,
    /// per task id, how many workers ran its iterations, when the executor
    /// knows. Otherwise all `min(p, iterations)` workers are assumed busy
    /// with it: the loop's work is taken as wall × that, an upper bound
    /// that is exact when the loop had the machine to itself.
    pub fn observe(
        &mut self,
        graph: &TaskGraph,
        run: &MeasuredRun,
        loop_workers: &HashMap<usize, usize>,
    ) -> Vec<Option<(String, f64)>> {
        let obs = observations(graph, run, loop_workers, &self.speedups);
        for (task, m) in graph.tasks.iter().zip(&run.tasks) {
            // A speedup is the step's one-worker time at these sizes over
            // its wide time. That one-worker time must have been measured
            // on one worker: the models' prediction is itself wide times
            // converted by the speedup being learnt, so the quotient would
            // return the speedup assumed, and a call always run wide would
            // keep its prior whatever it did (svd of values alone ran
            // slower on 5 workers than on one). `speedup` runs such a call
            // narrow once to measure it.
            if m.width > 1 && m.ok && !m.reused {
                if let Some(key) = self.task_key(task) {
                    let features = model_features(task);
                    if let Some(one) = self.steps.narrow(&task.name, &key, &features) {
                        self.speedups.observe(&key, m.width, one, m.wall);
                    }
                }
            }
        }
        for (task, o) in graph.tasks.iter().zip(&obs) {
            if let Some((key, secs)) = o {
                self.observe_one(key, &model_features(task), *secs);
            }
        }
        obs
    }

    /// Refits every model observed since the last retrain.
    pub fn retrain(&mut self) {
        for key in std::mem::take(&mut self.stale) {
            if let Some(m) = self.models.get_mut(&key) {
                m.retrain();
                self.unsaved.insert(key);
            }
        }
    }

    /// Writes every model changed since it was loaded or saved, and the
    /// speedups, to the history, in one transaction.
    pub fn save(&mut self, history: &History) -> Result<(), HistoryError> {
        let mut states: Vec<(String, String)> = self
            .unsaved
            .iter()
            .filter_map(|k| Some((storage_key(self.kind, k), self.models.get(k)?.to_json())))
            .collect();
        states.extend(self.speedups.to_states());
        history.save_models(&states)?;
        self.unsaved.clear();
        Ok(())
    }
}

/// Where a model of `kind` is saved in the history: the default kind under
/// its key, another as `kind/key`, so that each kind keeps its own state and
/// switching `--model` does not overwrite the other's.
fn storage_key(kind: ModelKind, key: &str) -> String {
    if kind == ModelKind::default() {
        key.to_string()
    } else {
        format!("{}/{key}", kind.name())
    }
}

/// The model key of a saved model of `kind` (see [`storage_key`]), `None`
/// when it was saved for another kind.
fn stored_key_of(kind: ModelKind, stored: &str) -> Option<&str> {
    match stored.split_once('/') {
        Some((k, key)) => (k == kind.name() && kind != ModelKind::default()).then_some(key),
        None => (kind == ModelKind::default()).then_some(stored),
    }
}

/// The function a model key is about (`loop:eigen<crossprod>[general]` →
/// `eigen`): what its priors are.
pub fn model_function(key: &str) -> &str {
    strip_bracketed(
        without_path(key.strip_prefix("loop:").unwrap_or(key)),
        '<',
        '>',
    )
}

/// The most workers a call's path splits among (see `CallPath::widest`;
/// `None`: no limit).
fn widest(task: &Task) -> Option<usize> {
    task.path.as_ref().and_then(|p| p.widest)
}

/// Per task: the model it trains and the seconds it contributes, for tasks
/// that finished (see [`Predictor::observe`] for loops).
pub fn observations(
    graph: &TaskGraph,
    run: &MeasuredRun,
    loop_workers: &HashMap<usize, usize>,
    speedups: &speedup::Speedups,
) -> Vec<Option<(String, f64)>> {
    graph
        .tasks
        .iter()
        .map(|task| {
            let m = run.tasks.get(task.id).filter(|m| m.ok)?;
            // A reused value took no time: no observation of its cost.
            if m.reused {
                return None;
            }
            let key = key_on_path(
                task,
                m.path
                    .as_deref()
                    .or(task.path.as_ref().map(|p| p.tag.as_str())),
            )?;
            let wall = m.wall;
            let secs = match task.kind {
                TaskKind::Loop => {
                    let n = task.iterations.as_ref().map_or(0, Vec::len);
                    if n == 0 {
                        return None;
                    }
                    let busy = m.busy;
                    if busy > 0.0 {
                        // The executor timed every iteration: exact work.
                        busy / n as f64
                    } else {
                        let w = loop_workers
                            .get(&task.id)
                            .copied()
                            .unwrap_or(run.workers.min(n))
                            .max(1);
                        wall * w as f64 / n as f64
                    }
                }
                // A call run k wide: what one worker would have taken.
                _ => match speedups.usl(&key) {
                    Some(usl) if m.width > 1 => wall * usl.up_to(widest(task)).speedup(m.width),
                    _ => wall,
                },
            };
            (secs > 0.0).then_some((key, secs))
        })
        .collect()
}

/// The history rows of a finished run: each task with its prediction (by
/// task id, from `predicted`) and measurement.
pub fn task_records(
    graph: &TaskGraph,
    run: &MeasuredRun,
    predicted: &[f64],
    loop_workers: &HashMap<usize, usize>,
    speedups: &speedup::Speedups,
) -> Vec<TaskRecord> {
    let obs = observations(graph, run, loop_workers, speedups);
    graph
        .tasks
        .iter()
        .zip(obs)
        .map(|(task, o)| {
            let outcome = run.tasks.get(task.id);
            let ran = outcome.filter(|o| o.ok && !o.reused);
            let reused = outcome.is_some_and(|o| o.reused);
            TaskRecord {
                step: task.name.clone(),
                function: task.function.clone(),
                features: model_features(task),
                kind: task.kind.as_str().to_string(),
                iterations: task.iterations.as_ref().map(|v| v.len() as u64),
                predicted: predicted.get(task.id).copied().filter(|_| !reused),
                actual: ran.map(|m| m.work),
                worker: outcome.and_then(|o| o.worker).map(|w| w as u64),
                start: outcome.map(|o| o.start),
                end: outcome.map(|o| o.end),
                model: o.as_ref().map(|(k, _)| k.clone()),
                observed: o.map(|(_, s)| s),
                blocks: ran.map(|m| m.blocks.clone()).unwrap_or_default(),
                width: ran
                    .filter(|_| task.kind == TaskKind::Call)
                    .map(|m| m.width as u64),
                lanes: ran
                    .map(|m| m.lanes.iter().map(|&l| l as u64).collect())
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// How a loop's cost spreads over its iterations, as shape inference
/// tells it: each iteration's work at its value of the loop variable
/// (flat when the work does not depend on it, or is not known).
pub fn shape_profile(task: &Task) -> Profile {
    match (&task.index_work, &task.iterations) {
        (Some(iw), Some(it)) => Profile::from_weights(&iw.weights(it)),
        _ => Profile::FLAT,
    }
}
