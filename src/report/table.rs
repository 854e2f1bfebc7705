//! The summary printed after a headless run: one row per step with its
//! kind, status, worker, time and value (each value as
//! [`super::value_line`] writes it).

use std::fmt::Write;

use super::units::seconds;
use super::value_line::describe;
use crate::exec::{RunReport, StepError};
use crate::graph::TaskGraph;
use crate::printable::printable;
use crate::printable::{pad_end, pad_start};

/// How many steps there are, and how many of them ran and were reused
/// when any were: `13 steps` or `13 steps (1 ran, 12 cached)`.
pub fn steps_summary(report: &RunReport) -> String {
    let n = report.outcomes.len();
    let (ran, reused) = report.ran_and_reused();
    let plural = if n == 1 { "step" } else { "steps" };
    if reused == 0 {
        format!("{n} {plural}")
    } else {
        format!("{n} {plural} ({ran} ran, {reused} cached)")
    }
}

/// Every worker that ran a step: `0,1` for a loop run on two.
fn workers(o: &crate::exec::StepOutcome) -> String {
    let spans = o.spans();
    if spans.is_empty() {
        return "-".into();
    }
    let ws: Vec<String> = spans.iter().map(|s| s.0.to_string()).collect();
    ws.join(",")
}

/// Relative prediction error in percent, signed (positive: slower than predicted).
pub fn error_percent(predicted: f64, actual: f64) -> Option<f64> {
    (predicted > 0.0).then(|| 100.0 * (actual - predicted) / predicted)
}

/// The whole table (with predictions beside measurements), plus a closing
/// line with the predicted and actual makespan.
pub fn render(
    graph: &TaskGraph,
    report: &RunReport,
    predicted: &[f64],
    predicted_makespan: f64,
) -> String {
    const NUMERIC: [bool; 8] = [false, false, false, true, true, true, true, false];
    let rows: Vec<[String; 8]> = graph
        .tasks
        .iter()
        .zip(&report.outcomes)
        .map(|(t, o)| {
            let (status, value) = match &o.value {
                Ok(v) if o.reused => ("cached", describe(v)),
                Ok(v) => ("ok", describe(v)),
                Err(StepError::Failed { message, .. }) => ("FAILED", message.clone()),
                Err(StepError::Skipped { reason }) => ("skipped", reason.clone()),
            };
            // A cached step did not run: it has neither a prediction nor a time.
            let pred = predicted.get(t.id).copied().filter(|_| !o.reused);
            let actual = (o.value.is_ok() && !o.reused).then(|| o.work());
            let error = match (pred, actual) {
                (Some(p), Some(a)) => {
                    error_percent(p, a).map_or("-".into(), |e| super::units::error(e / 100.0))
                }
                _ => "-".into(),
            };
            [
                t.name.clone(),
                t.kind.as_str().to_string(),
                status.to_string(),
                workers(o),
                pred.map_or("-".into(), seconds),
                actual.map_or("-".into(), seconds),
                error,
                value,
            ]
            .map(|cell| printable(&cell).into_owned())
        })
        .collect();
    let header = [
        "step",
        "kind",
        "status",
        "workers",
        "predicted",
        "work",
        "error",
        "value",
    ];
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: &[&str], out: &mut String| {
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                out.push_str(c);
            } else if NUMERIC[i] {
                out.push_str(&pad_start(c, widths[i]));
                out.push_str("  ");
            } else {
                out.push_str(&pad_end(c, widths[i]));
                out.push_str("  ");
            }
        }
        out.push('\n');
    };
    line(&header, &mut out);
    for (r, o) in rows.iter().zip(&report.outcomes) {
        line(&r.iter().map(String::as_str).collect::<Vec<_>>(), &mut out);
        // Under its step, as R prints a warning after the value; where its
        // call is, as an error says.
        for w in &o.warnings {
            let _ = writeln!(out, "  warning: {}", printable(&w.located()));
        }
    }
    let failed = report.outcomes.iter().filter(|o| o.value.is_err()).count();
    let warned = report
        .outcomes
        .iter()
        .filter(|o| !o.warnings.is_empty())
        .count();
    let warned = if warned == 0 {
        String::new()
    } else {
        format!(", {warned} with warnings")
    };
    let _ = writeln!(
        out,
        "\n{}, {} failed or skipped{warned}; makespan {} (predicted {}) on {} workers (seed {})",
        steps_summary(report),
        failed,
        seconds(report.makespan.as_secs_f64()),
        seconds(predicted_makespan),
        report.workers,
        report.seed
    );
    out
}
