//! `flowcast model show`: every cost model with its observations and its
//! prediction error over the most recent runs.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::cost::history::{History, HistoryError};
use crate::cost::Predictor;

/// How many recent runs the error columns look at.
const RECENT_RUNS: usize = 10;

/// Per model key, the signed relative errors of its tasks in the most
/// recent runs, oldest first.
pub fn recent_errors(history: &History) -> Result<BTreeMap<String, Vec<f64>>, HistoryError> {
    let mut out: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let states = history.run_states()?;
    // A cancelled run's times say when it was stopped, not what it costs.
    let runs: Vec<_> = history
        .runs(None)?
        .into_iter()
        .filter(|r| states.get(&r.id).is_none_or(|s| s != "cancelled"))
        .collect();
    for run in runs.iter().take(RECENT_RUNS).rev() {
        for t in history.tasks(run.id)? {
            if let (Some(model), Some(p), Some(a)) = (t.model, t.predicted, t.actual) {
                if p > 0.0 {
                    out.entry(model).or_default().push((a - p) / p);
                }
            }
        }
    }
    Ok(out)
}

/// A sparkline of absolute errors, capped at 100 %.
fn sparkline(errors: &[f64]) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    errors
        .iter()
        .map(|e| BARS[((e.abs().min(1.0) * 7.0).round() as usize).min(7)])
        .collect()
}

fn median_abs(errors: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = errors.iter().map(|e| e.abs()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}

pub fn render(predictor: &Predictor, errors: &BTreeMap<String, Vec<f64>>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<24} {:<10} {:>12} {:>14}  error over the last {RECENT_RUNS} runs",
        "model", "kind", "observations", "median error"
    );
    let keys = predictor.model_keys();
    for key in &keys {
        let Some(model) = predictor.model(key) else {
            continue;
        };
        let e = errors.get(*key).map_or(&[][..], Vec::as_slice);
        let median = median_abs(e).map_or("-".into(), |m| format!("{:.1}%", 100.0 * m));
        let _ = writeln!(
            out,
            "{key:<24} {:<10} {:>12} {median:>14}  {}",
            model.kind().name(),
            model.window().len(),
            sparkline(e)
        );
    }
    if keys.is_empty() {
        let _ = writeln!(out, "(no models yet: run a workflow first)");
    }
    out
}
