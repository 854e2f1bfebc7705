//! `flowcast model show`: every cost model with its observations and its
//! prediction error over the most recent runs that used it.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::cost::history::{History, HistoryError};
use crate::cost::Predictor;

/// How many of a model's own recent runs its error columns look at.
pub const RECENT_RUNS: usize = 10;

/// How many runs, newest first, are searched for a model's recent runs: a
/// bound on the work for a store of years.
const SEARCHED_RUNS: usize = 2000;

/// Per model key, its prediction error in each of the last [`RECENT_RUNS`]
/// runs that used it, oldest first: `(actual - predicted) / predicted` of
/// the run's tasks of that model, summed. The runs are the model's own, not
/// the store's last ten, which a model seldom used could be absent from
/// (showing "-" for a model of 20 observations); and one value per run, so
/// a sparkline bar is a run.
pub fn recent_errors(history: &History) -> Result<BTreeMap<String, Vec<f64>>, HistoryError> {
    let mut out: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let states = history.run_states()?;
    // A cancelled run's times say when it was stopped, not what it costs.
    let runs = history
        .runs(None)?
        .into_iter()
        .filter(|r| states.get(&r.id).is_none_or(|s| s != "cancelled"))
        .take(SEARCHED_RUNS);
    for run in runs {
        let mut sums: BTreeMap<String, (f64, f64)> = BTreeMap::new();
        for t in history.tasks(run.id)? {
            if let (Some(model), Some(p), Some(a)) = (t.model, t.predicted, t.actual) {
                if p > 0.0 && p.is_finite() && a.is_finite() {
                    let sum = sums.entry(model).or_default();
                    sum.0 += p;
                    sum.1 += a;
                }
            }
        }
        for (model, (p, a)) in sums {
            let errors = out.entry(model).or_default();
            if errors.len() < RECENT_RUNS {
                errors.push((a - p) / p);
            }
        }
    }
    // Gathered newest first.
    for errors in out.values_mut() {
        errors.reverse();
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
        "{:<24} {:<10} {:>12} {:>14}  error in each of its last {RECENT_RUNS} runs",
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
