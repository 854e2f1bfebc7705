//! `flowcast export`'s runs: a run recorded as a chart and stored with it
//! in the history, and a past run's chart exported from there; and what
//! `e` writes in the terminal UI. It drives the pipeline and joins the UI
//! to `export`, so it sits with the commands, above both.

use crate::stdout::errln;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use crate::cache::Cache;
use crate::cost::history::History;
use crate::exec::{Event, RunOptions};
use crate::export::stored::{self, Which};
use crate::export::Format;
use crate::graph::TaskGraph;
use crate::pipeline::{self, Finished, Learning, Reuse};
use crate::printable::printable;
use crate::report::gantt::{store_chart, Gantt, Recorder};
use crate::sched::Scheduler;
use crate::stdout::outln;
use crate::workflow::Workflow;

/// `flowcast export [FILE] --run ID|last -o OUT`: a past run's chart.
/// With FILE, `last` is that workflow's last run.
pub fn export_run(
    file: Option<&Path>,
    run: &str,
    format: Option<&str>,
    out: &Path,
    history: Option<&Path>,
) -> ExitCode {
    let Some(which) = Which::parse(run) else {
        errln!("error: --run {run}: expected a run id (see `flowcast history`) or `last`");
        return ExitCode::from(2);
    };
    let Some(format) = format.map_or_else(|| Format::from_path(out), Format::parse) else {
        errln!("error: unknown export format (svg, png, trace, mermaid, csv, json)");
        return ExitCode::from(2);
    };
    if let Err(e) = crate::output_target::check_file(out) {
        errln!("error: -o {}", printable(&e));
        return ExitCode::from(2);
    }
    let workflow = match file {
        Some(f) => match crate::pipeline::load_checked(f) {
            Ok((wf, _)) => Some(wf.name),
            Err(e) => {
                errln!("{e}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    // A run that is not there was asked for wrongly: the usage status, 2,
    // as for an invalid workflow; 1 would say a step failed.
    let opened = match history {
        Some(p) if !p.exists() => {
            errln!("error: history store {} does not exist", p.display());
            return ExitCode::from(2);
        }
        Some(p) => History::open_read_only(p),
        None => History::open_default_read_only(),
    };
    if let Ok(Some(d)) = opened.as_ref().map(History::damage) {
        errln!("warning: {}", printable(&d.to_string()));
    }
    let chart = opened
        .map_err(|e| e.to_string())
        .and_then(|h| stored::load(&h, which, workflow.as_deref()));
    let (g, note) = match chart {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {}", printable(&e));
            return ExitCode::from(2);
        }
    };
    if let Some(n) = note {
        errln!("warning: {}", printable(&n));
    }
    said(crate::export::export(&g, format, out), out)
}

/// A run through the pipeline that keeps its chart: the plan it followed
/// and what ran, stored beside the run in the history. Steps whose values
/// `cache` holds are reused (unless `force`), and what the run computes
/// is kept there. `on_event` sees every event as it happens.
#[allow(clippy::too_many_arguments)]
pub fn run_charted(
    wf: &Workflow,
    graph: &TaskGraph,
    learning: &mut Learning,
    opts: &RunOptions,
    scheduler: Scheduler,
    on_event: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
    cache: &mut Cache,
    force: bool,
) -> Result<(Finished, Gantt), String> {
    let reuse = Reuse::find(wf, graph, opts.seed, cache, force);
    let plan = pipeline::plan_reusing(wf, graph, learning, opts.workers, scheduler, reuse);
    let mut chart = Gantt::planned(&wf.name, scheduler.name(), graph, &plan.schedule);
    chart.mark_cached((0..graph.tasks.len()).filter(|&i| plan.reuse.reused(i)));
    chart.mark_measuring(&plan.measuring);
    // A plan may leave workers idle: show all p lanes.
    chart.workers = chart.workers.max(opts.workers);
    let recorder = Recorder::new(chart);
    let sink = |e: Event| {
        recorder.event(&e);
        on_event(e);
    };
    let mut finished = pipeline::execute(wf, graph, learning, plan, opts, &sink, cancel)?;
    let chart = recorder.finish(&finished.report);
    if let Err(e) = store_chart(learning.history.as_ref(), finished.run_id, &chart) {
        finished.warnings.push(e);
    }
    let kept = finished.plan.reuse.remember(&finished.report, cache);
    finished.warnings.extend(kept);
    Ok((finished, chart))
}

/// What `e` writes in the terminal UI (its [`crate::tui::Exporter`]): the
/// chart as SVG and as a Chrome trace, `STEM.svg` and `STEM.trace.json` in
/// `dir`.
pub fn export_default(g: &Gantt, dir: &Path, stem: &str) -> Result<Vec<PathBuf>, String> {
    let mut written = Vec::new();
    for format in [Format::Svg, Format::Trace] {
        let file = dir.join(format!("{stem}.{}", format.extension()));
        crate::export::export(g, format, &file)?;
        written.push(file);
    }
    Ok(written)
}

/// What the export commands print for a written (or failed) chart.
pub fn said(written: Result<(), String>, out: &Path) -> ExitCode {
    match written {
        Ok(()) => {
            outln!("wrote {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("error: {}", printable(&e));
            ExitCode::from(1)
        }
    }
}

/// Plans and runs a workflow headless and returns its chart: the plan, and
/// what ran (each block of a loop on its worker). `costs` are the
/// predicted seconds per task (by task id).
pub fn record(
    wf: &crate::workflow::Workflow,
    graph: &TaskGraph,
    costs: &[f64],
    workers: usize,
    scheduler: crate::sched::Scheduler,
    seed: i64,
) -> Result<Gantt, String> {
    use crate::cost::Comm;
    use crate::sched::{plan, Policy, Runtime, Scheduler};
    let dag = crate::sched::Dag::costed(graph, costs);
    let schedule = plan(&dag, &Comm::SHARED_MEMORY, workers, scheduler);
    let mut g = Gantt::planned(&wf.name, scheduler.name(), graph, &schedule);
    // A plan may leave workers idle (or the graph be empty): show all p lanes.
    g.workers = g.workers.max(workers);
    let opts = crate::exec::RunOptions::new(workers.max(1), seed);
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let recorder = Recorder::new(g);
    let sink = |e: Event| recorder.event(&e);
    let report = if scheduler == Scheduler::Dynamic {
        crate::exec::run(wf, graph, &opts, &sink, &cancel)?
    } else {
        let rt = Runtime::follow(&dag, &Comm::SHARED_MEMORY, &schedule, Policy::FOLLOW)?;
        crate::exec::run_planned(wf, graph, rt, &opts, &sink, &cancel)?.0
    };
    Ok(recorder.finish(&report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ui_export_writes_svg_and_trace_named_by_the_stem() {
        let dir = tempfile::tempdir().unwrap();
        let written = export_default(&Gantt::default(), dir.path(), "quick-run17").unwrap();
        assert_eq!(
            written,
            [
                dir.path().join("quick-run17.svg"),
                dir.path().join("quick-run17.trace.json")
            ]
        );
        assert!(written.iter().all(|f| f.is_file()));
    }
}
