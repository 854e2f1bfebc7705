//! StarPU's history model: a step run again at the same sizes on the same
//! path takes about what it took before, which no per-function model can
//! match (it also fits the function's other calls, and cannot see what
//! this step's data do to the time). So a step's own recent times, at
//! exactly these sizes, predict it first; the model covers new sizes.

use std::collections::HashMap;

use super::history::{History, HistoryError};

/// Runs of a workflow looked back on: recent enough to reflect this
/// machine now, enough for a median to shrug off one disturbed run.
pub const RECENT_RUNS: usize = 5;

/// How a call ran: the workers it held and its wall seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Held {
    pub width: u64,
    pub wall: f64,
}

/// One finished run of a step: the model it trained, its features, its
/// seconds per call (per iteration for a loop) as one worker's, and how a
/// call ran (`None`: not a call, or not recorded).
#[derive(Clone, Debug, PartialEq)]
struct StepRun {
    model: String,
    features: Vec<f64>,
    seconds: f64,
    held: Option<Held>,
}

impl StepRun {
    /// Its one-worker seconds by `speedup` (at a width): a wide run's
    /// were converted by the speedup known when it ran, and are converted
    /// again by the one known now, so that learning a speedup corrects
    /// the runs it had misjudged.
    fn one_worker(&self, speedup: &dyn Fn(u64) -> f64) -> f64 {
        match self.held {
            Some(h) if h.width > 1 && h.wall > 0.0 => h.wall * speedup(h.width),
            _ => self.seconds,
        }
    }

    fn on(&self, model: &str, features: &[f64]) -> bool {
        self.model == model && self.features == features
    }
}

/// The recent runs of one workflow's steps, newest first.
#[derive(Clone, Debug, Default)]
pub struct StepTimes {
    steps: HashMap<String, Vec<StepRun>>,
}

impl StepTimes {
    /// The last [`RECENT_RUNS`] runs of `workflow` in the history. Failed
    /// and skipped tasks have no model there, so they are left out.
    pub fn load(history: &History, workflow: &str) -> Result<StepTimes, HistoryError> {
        let mut times = StepTimes::default();
        for run in history.recent_runs(workflow, RECENT_RUNS)?.iter() {
            for t in history.tasks(run.id)? {
                if let (Some(model), Some(seconds)) = (t.model, t.observed) {
                    let held = t
                        .width
                        .zip(t.actual)
                        .map(|(width, wall)| Held { width, wall });
                    times.push(&t.step, model, t.features, seconds, held);
                }
            }
        }
        Ok(times)
    }

    /// Adds a run of `step`, older than those already added.
    pub fn push(
        &mut self,
        step: &str,
        model: String,
        features: Vec<f64>,
        seconds: f64,
        held: Option<Held>,
    ) {
        if seconds.is_finite() && seconds > 0.0 {
            self.steps
                .entry(step.to_string())
                .or_default()
                .push(StepRun {
                    model,
                    features,
                    seconds,
                    held,
                });
        }
    }

    /// The model `step` trained in its last finished run: the path its call
    /// took.
    pub fn last_model(&self, step: &str) -> Option<&str> {
        Some(self.steps.get(step)?.first()?.model.as_str())
    }

    /// The median of `step`'s recent one-worker seconds on model `model`
    /// at exactly `features`, when it has any; `speedup` converts a wide
    /// run's (see [`StepRun::one_worker`]).
    pub fn recent(
        &self,
        step: &str,
        model: &str,
        features: &[f64],
        speedup: &dyn Fn(u64) -> f64,
    ) -> Option<f64> {
        Some(self.recent_spread(step, model, features, speedup)?.0)
    }

    /// Whether `step` ran recently on model `model` at exactly `features`.
    pub fn ran(&self, step: &str, model: &str, features: &[f64]) -> bool {
        self.steps
            .get(step)
            .is_some_and(|runs| runs.iter().any(|r| r.on(model, features)))
    }

    /// The median of `step`'s recent seconds on model `model` at exactly
    /// `features` in runs where the call held one worker: its one-worker
    /// time as measured, not as converted from a wide run by the speedup
    /// being learnt (see `Predictor::observe`).
    pub fn narrow(&self, step: &str, model: &str, features: &[f64]) -> Option<f64> {
        let t: Vec<f64> = self
            .steps
            .get(step)?
            .iter()
            .filter(|r| r.on(model, features) && r.held.is_some_and(|h| h.width == 1))
            .map(|r| r.seconds)
            .collect();
        median(t)
    }

    /// [`StepTimes::recent`] and how far those runs scatter around it: the
    /// root mean square of ln(time / median), never below
    /// [`MIN_LOG_SPREAD`] (a single run says nothing of its own scatter).
    pub fn recent_spread(
        &self,
        step: &str,
        model: &str,
        features: &[f64],
        speedup: &dyn Fn(u64) -> f64,
    ) -> Option<(f64, f64)> {
        let t: Vec<f64> = self
            .steps
            .get(step)?
            .iter()
            .filter(|r| r.on(model, features))
            .map(|r| r.one_worker(speedup))
            .collect();
        let median = median(t.clone())?;
        let ss: f64 = t.iter().map(|s| (s / median).ln().powi(2)).sum();
        let spread = (ss / t.len() as f64).sqrt().max(MIN_LOG_SPREAD);
        Some((median, spread))
    }
}

/// The median; `None` of nothing.
fn median(mut t: Vec<f64>) -> Option<f64> {
    (!t.is_empty()).then(|| super::eval::median(&mut t))
}

/// The least scatter assumed of a step's recent times, in log space
/// (10 %): on a busy machine the same call at the same sizes varies by
/// about this much from run to run (fig1's `friedman.test` on 2 cores:
/// 117–176 ms over five runs).
pub const MIN_LOG_SPREAD: f64 = 0.1;

#[cfg(test)]
mod tests {
    use super::*;

    /// No speedup: every run as recorded.
    const ONE: fn(u64) -> f64 = |_| 1.0;

    #[test]
    fn the_median_of_the_same_sizes_and_path_only() {
        let mut s = StepTimes::default();
        s.push("e", "eigen[general]".into(), vec![900.0, 900.0], 1.0, None);
        s.push("e", "eigen[general]".into(), vec![900.0, 900.0], 3.0, None);
        s.push("e", "eigen[general]".into(), vec![900.0, 900.0], 1.2, None);
        s.push("e", "eigen[general]".into(), vec![500.0, 500.0], 0.2, None);
        s.push(
            "e",
            "eigen[symmetric]".into(),
            vec![900.0, 900.0],
            0.2,
            None,
        );
        assert_eq!(
            s.recent("e", "eigen[general]", &[900.0, 900.0], &ONE),
            Some(1.2)
        );
        assert_eq!(s.recent("e", "eigen[general]", &[800.0, 800.0], &ONE), None);
        assert_eq!(s.recent("f", "eigen[general]", &[900.0, 900.0], &ONE), None);
        assert_eq!(s.last_model("e"), Some("eigen[general]"));
    }

    #[test]
    fn an_even_count_averages_the_middle_two() {
        let mut s = StepTimes::default();
        s.push("m", "mean".into(), vec![10.0], 1.0, None);
        s.push("m", "mean".into(), vec![10.0], 2.0, None);
        s.push("m", "mean".into(), vec![10.0], f64::NAN, None);
        assert_eq!(s.recent("m", "mean", &[10.0], &ONE), Some(1.5));
    }

    #[test]
    fn the_spread_is_the_runs_scatter_with_a_floor() {
        let mut s = StepTimes::default();
        s.push("b", "loop:mean".into(), vec![5.0], 1.0, None);
        assert_eq!(
            s.recent_spread("b", "loop:mean", &[5.0], &ONE),
            Some((1.0, MIN_LOG_SPREAD))
        );
        s.push("b", "loop:mean".into(), vec![5.0], 2.0, None);
        s.push("b", "loop:mean".into(), vec![5.0], 4.0, None);
        let (m, spread) = s.recent_spread("b", "loop:mean", &[5.0], &ONE).unwrap();
        assert_eq!(m, 2.0);
        // ln 2 off for two of the three runs.
        let want = (2.0 * 2f64.ln().powi(2) / 3.0).sqrt();
        assert!((spread - want).abs() < 1e-12, "{spread} vs {want}");
    }

    #[test]
    fn wide_runs_are_converted_by_the_speedup_known_now() {
        let mut s = StepTimes::default();
        let held = |width, wall| Some(Held { width, wall });
        // Two runs 4 wide, stored as one worker's by a speedup of 3.5,
        // and one on one worker.
        s.push("d", "dist".into(), vec![9.0], 1.75, held(4, 0.5));
        s.push("d", "dist".into(), vec![9.0], 0.45, held(1, 0.45));
        s.push("d", "dist".into(), vec![9.0], 1.75, held(4, 0.5));
        // A loop's runs have no width.
        s.push("l", "loop:mean".into(), vec![9.0], 2.0, None);
        assert_eq!(
            s.recent("d", "dist", &[9.0], &|w| w as f64 / 2.0),
            Some(1.0)
        );
        // Learnt since: 4 workers gain nothing.
        assert_eq!(s.recent("d", "dist", &[9.0], &ONE), Some(0.5));
        assert_eq!(s.narrow("d", "dist", &[9.0]), Some(0.45));
        assert_eq!(s.narrow("d", "dist", &[8.0]), None);
        assert_eq!(s.narrow("l", "loop:mean", &[9.0]), None);
        assert_eq!(s.recent("l", "loop:mean", &[9.0], &|_| 9.0), Some(2.0));
    }
}
