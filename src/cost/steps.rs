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

/// One finished run of a step: the model it trained, its features, and its
/// seconds per call (per iteration for a loop).
#[derive(Clone, Debug, PartialEq)]
struct StepRun {
    model: String,
    features: Vec<f64>,
    seconds: f64,
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
        for run in history.runs(Some(workflow))?.iter().take(RECENT_RUNS) {
            for t in history.tasks(run.id)? {
                if let (Some(model), Some(seconds)) = (t.model, t.observed) {
                    times.push(&t.step, model, t.features, seconds);
                }
            }
        }
        Ok(times)
    }

    /// Adds a run of `step`, older than those already added.
    pub fn push(&mut self, step: &str, model: String, features: Vec<f64>, seconds: f64) {
        if seconds.is_finite() && seconds > 0.0 {
            self.steps
                .entry(step.to_string())
                .or_default()
                .push(StepRun {
                    model,
                    features,
                    seconds,
                });
        }
    }

    /// The model `step` trained in its last finished run: the path its call
    /// took.
    pub fn last_model(&self, step: &str) -> Option<&str> {
        Some(self.steps.get(step)?.first()?.model.as_str())
    }

    /// The median of `step`'s recent seconds on model `model` at exactly
    /// `features`, when it has any.
    pub fn recent(&self, step: &str, model: &str, features: &[f64]) -> Option<f64> {
        Some(self.recent_spread(step, model, features)?.0)
    }

    /// [`StepTimes::recent`] and how far those runs scatter around it: the
    /// root mean square of ln(time / median), never below
    /// [`MIN_LOG_SPREAD`] (a single run says nothing of its own scatter).
    pub fn recent_spread(&self, step: &str, model: &str, features: &[f64]) -> Option<(f64, f64)> {
        let mut t: Vec<f64> = self
            .steps
            .get(step)?
            .iter()
            .filter(|r| r.model == model && r.features == features)
            .map(|r| r.seconds)
            .collect();
        if t.is_empty() {
            return None;
        }
        t.sort_by(f64::total_cmp);
        let mid = t.len() / 2;
        let median = if t.len() % 2 == 1 {
            t[mid]
        } else {
            (t[mid - 1] + t[mid]) / 2.0
        };
        let ss: f64 = t.iter().map(|s| (s / median).ln().powi(2)).sum();
        let spread = (ss / t.len() as f64).sqrt().max(MIN_LOG_SPREAD);
        Some((median, spread))
    }
}

/// The least scatter assumed of a step's recent times, in log space
/// (10 %): on a busy machine the same call at the same sizes varies by
/// about this much from run to run (fig1's `friedman.test` on 2 cores:
/// 117–176 ms over five runs).
pub const MIN_LOG_SPREAD: f64 = 0.1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_the_same_sizes_and_path_only() {
        let mut s = StepTimes::default();
        s.push("e", "eigen[general]".into(), vec![900.0, 900.0], 1.0);
        s.push("e", "eigen[general]".into(), vec![900.0, 900.0], 3.0);
        s.push("e", "eigen[general]".into(), vec![900.0, 900.0], 1.2);
        s.push("e", "eigen[general]".into(), vec![500.0, 500.0], 0.2);
        s.push("e", "eigen[symmetric]".into(), vec![900.0, 900.0], 0.2);
        assert_eq!(s.recent("e", "eigen[general]", &[900.0, 900.0]), Some(1.2));
        assert_eq!(s.recent("e", "eigen[general]", &[800.0, 800.0]), None);
        assert_eq!(s.recent("f", "eigen[general]", &[900.0, 900.0]), None);
        assert_eq!(s.last_model("e"), Some("eigen[general]"));
    }

    #[test]
    fn an_even_count_averages_the_middle_two() {
        let mut s = StepTimes::default();
        s.push("m", "mean".into(), vec![10.0], 1.0);
        s.push("m", "mean".into(), vec![10.0], 2.0);
        s.push("m", "mean".into(), vec![10.0], f64::NAN);
        assert_eq!(s.recent("m", "mean", &[10.0]), Some(1.5));
    }

    #[test]
    fn the_spread_is_the_runs_scatter_with_a_floor() {
        let mut s = StepTimes::default();
        s.push("b", "loop:mean".into(), vec![5.0], 1.0);
        assert_eq!(
            s.recent_spread("b", "loop:mean", &[5.0]),
            Some((1.0, MIN_LOG_SPREAD))
        );
        s.push("b", "loop:mean".into(), vec![5.0], 2.0);
        s.push("b", "loop:mean".into(), vec![5.0], 4.0);
        let (m, spread) = s.recent_spread("b", "loop:mean", &[5.0]).unwrap();
        assert_eq!(m, 2.0);
        // ln 2 off for two of the three runs.
        let want = (2.0 * 2f64.ln().powi(2) / 3.0).sqrt();
        assert!((spread - want).abs() < 1e-12, "{spread} vs {want}");
    }
}
