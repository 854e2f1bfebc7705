//! The headless reporter: progress while running, then a summary table, a
//! JSON document, or one JSON file per step. Also the run's Gantt chart
//! ([`gantt`]) with the axis and colours every drawer shares: the terminal
//! UI and `export` both draw it, so it sits here, below both.

pub mod axis;
pub mod gantt;
pub mod json;
pub mod models;
pub mod palette;
pub mod plan;
pub mod progress;
pub mod table;
pub mod units;
pub mod value_line;

use std::path::Path;

use serde_json::json;

use crate::exec::{RunReport, StepError};
use crate::graph::TaskGraph;
use crate::pipeline::Finished;
use crate::workflow::Workflow;

/// Writes `DIR/<step>.json` for every step that has a value.
pub fn write_values(dir: &Path, graph: &TaskGraph, report: &RunReport) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (t, o) in graph.tasks.iter().zip(&report.outcomes) {
        if let Ok(v) = &o.value {
            let path = dir.join(format!("{}.json", t.name));
            let text = json::to_json(v).to_string();
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The `--json` document of a finished run: per step its status, worker,
/// times, predicted and actual seconds, and value (summarised when large)
/// or error.
pub fn run_document(wf: &Workflow, graph: &TaskGraph, finished: &Finished) -> serde_json::Value {
    let report = &finished.report;
    let plan = &finished.plan;
    let steps: serde_json::Map<String, serde_json::Value> = graph
        .tasks
        .iter()
        .zip(&report.outcomes)
        .map(|(t, o)| {
            // A cached step did not run: no prediction, no time, no worker.
            let ran = o.value.is_ok() && !o.reused;
            let mut s = json!({
                "kind": t.kind.as_str(),
                "function": t.label(),
                "worker": o.worker,
                "start_s": o.start.as_secs_f64(),
                "end_s": o.end.as_secs_f64(),
                "predicted_s": plan
                    .predicted_on(t.id, 1 + o.lanes.len())
                    .filter(|_| !o.reused),
                // Work seconds: the sum of its blocks' durations; the
                // same figure as `work_s`, kept under its old name.
                "actual_s": ran.then(|| o.work()),
                "work_s": ran.then(|| o.work()),
                "cached": o.reused,
                "workers": o.spans().iter().map(|s| json!({
                    "worker": s.0,
                    "start_s": s.1.as_secs_f64(),
                    "end_s": s.2.as_secs_f64(),
                })).collect::<Vec<_>>(),
            });
            // R's texts, so a script can match them; where each was raised
            // beside them.
            s["warnings"] = json!(o.warnings.iter().map(|w| &w.message).collect::<Vec<_>>());
            if !o.warnings.is_empty() {
                s["warning_calls"] = json!(o
                    .warnings
                    .iter()
                    .map(|w| json!({"call": w.call, "line": w.line, "column": w.column}))
                    .collect::<Vec<_>>());
            }
            match &o.value {
                Ok(v) => {
                    s["status"] = json!(if o.reused { "cached" } else { "ok" });
                    s["value"] = json::to_json_summary(v);
                }
                Err(StepError::Failed { message, span }) => {
                    let (line, column) = wf.file.line_col(span.start);
                    s["status"] = json!("failed");
                    s["error"] = json!(message);
                    s["line"] = json!(line);
                    s["column"] = json!(column);
                }
                Err(StepError::Skipped { reason }) => {
                    s["status"] = json!("skipped");
                    s["error"] = json!(reason);
                }
            }
            (t.name.clone(), s)
        })
        .collect();
    json!({
        "workflow": wf.name,
        "file": wf.file.path.display().to_string(),
        "scheduler": plan.scheduler.name(),
        "seed": report.seed,
        "workers": report.workers,
        "predicted_makespan_s": plan.predicted_makespan(),
        "makespan_s": report.makespan.as_secs_f64(),
        "run_id": finished.run_id,
        "failed": report.failed(),
        "steps_ran": report.ran_and_reused().0,
        "steps_cached": report.ran_and_reused().1,
        "warnings": finished.warnings,
        "steps": steps,
        "functions": wf
            .functions
            .iter()
            .map(|f| (f.name.clone(), json!(f.source)))
            .collect::<serde_json::Map<_, _>>(),
    })
}
