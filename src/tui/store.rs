//! What the model and history views show, read from the history store:
//! this workflow's past runs, and every cost model with its observations
//! and its errors over the recent runs. Read on the run's thread (never the
//! UI's) after the store is opened and after each run is recorded.

use super::app::{HistoryRow, ModelRow};
use crate::cost::history::HistoryError;
use crate::pipeline::Learning;

/// How many past runs the history view lists.
const RUNS: usize = 100;

/// The history view's rows and the model view's.
pub type Rows = (Vec<HistoryRow>, Vec<ModelRow>);

/// The rows of both views, or `None` without a store.
pub fn load(learning: &Learning, workflow: &str) -> Option<Result<Rows, HistoryError>> {
    let h = learning.history.as_ref()?;
    Some((|| {
        // Oldest first, as the session's own runs are appended.
        let mut runs = Vec::new();
        let mut states = h.run_states()?;
        for r in h.recent_runs(workflow, RUNS)? {
            let state = states.remove(&r.id).unwrap_or_else(|| "-".into());
            runs.push(HistoryRow {
                run: usize::try_from(r.id).unwrap_or(0),
                scheduler: r.scheduler,
                workers: usize::try_from(r.processors).unwrap_or(0),
                predicted: r.predicted_makespan.unwrap_or(0.0),
                actual: r.actual_makespan,
                state,
            });
        }
        runs.reverse();
        let errors = crate::report::models::recent_errors(h)?;
        let p = &learning.predictor;
        let models = p
            .model_keys()
            .into_iter()
            .filter_map(|key| {
                let m = p.model(key)?;
                let e = errors.get(key).cloned().unwrap_or_default();
                let mean = (!e.is_empty())
                    .then(|| 100.0 * e.iter().map(|x| x.abs()).sum::<f64>() / e.len() as f64);
                Some(ModelRow {
                    function: key.to_string(),
                    observations: m.window().len(),
                    mean_error_percent: mean,
                    model: m.kind().name().to_string(),
                    errors: e,
                })
            })
            .collect();
        Ok((runs, models))
    })())
}
