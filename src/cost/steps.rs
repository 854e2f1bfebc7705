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
        Some(if t.len() % 2 == 1 {
            t[mid]
        } else {
            (t[mid - 1] + t[mid]) / 2.0
        })
    }
}

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
}
