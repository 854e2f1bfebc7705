//! Command-line arguments and dispatch; exit codes: 0 success, 1 a step
//! failed, 2 the workflow (or the command line) is invalid, 130 Ctrl-C.

use crate::stdout::errln;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::Parser;

mod args;
pub mod chart;
pub mod headless;
mod mpi;
use args::{BenchCommand, CacheArgs, CacheCommand, Cli, Command, ModelCommand, RunArgs, Settings};

use crate::cost::history::{History, HistoryError};
use crate::cost::Comm;
use crate::cost::ModelKind;
use crate::diagnostic::Diagnostic;
use crate::exec::{self, RunOptions};
use crate::export::{self, Format};
use crate::graph::{self, TaskGraph};
use crate::output_target;
use crate::pipeline::{self, Learning};
use crate::printable::printable;
use crate::report::{self, progress::Progress, table};
use crate::sched::{self, Dag, Scheduler};
use crate::stdout::{out, outln};
use crate::tui as ui;
use crate::workflow::{self, Workflow};

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Check { file }) => check(&file),
        Some(Command::Functions { pattern }) => {
            out!("{}", crate::kernels::catalog::markdown(pattern.as_deref()));
            ExitCode::SUCCESS
        }
        Some(Command::Run(args)) if args.mpi => mpi::run(&args),
        Some(Command::Run(args)) if args.watch => {
            if args.headless || !interactive() {
                let (scheduler, model, m) = match live_settings(&args.settings) {
                    Ok(x) => x,
                    Err(code) => return code,
                };
                headless::run_watching(
                    &args.file,
                    &headless::WatchOptions {
                        workers: args.settings.processors,
                        seed: args.seed,
                        extra_files: Vec::new(),
                        history: args.settings.history.clone(),
                        scheduler,
                        model,
                        m,
                        cache: place(&args.cache),
                        cache_limit: cache_limit(&args.cache),
                        force: args.cache.force,
                    },
                    run_keeping_chart,
                )
            } else {
                tui(&args.file, &args.settings, args.seed, true, &args.cache)
            }
        }
        Some(Command::Run(args))
            if !args.headless && !args.json && args.out.is_none() && interactive() =>
        {
            tui(&args.file, &args.settings, args.seed, false, &args.cache)
        }
        Some(Command::Run(args)) => run(&args),
        Some(Command::Plan {
            file,
            settings,
            json,
        }) => plan(&file, &settings, json),
        Some(Command::History { workflow, history }) => {
            list_history(workflow.as_deref(), history.as_deref())
        }
        Some(Command::Calibrate { history, mpi: true }) => mpi::calibrate(history.as_deref()),
        Some(Command::Calibrate { history, .. }) => calibrate(history.as_deref()),
        Some(Command::Model {
            what: ModelCommand::Show { history, model },
        }) => show_models(history.as_deref(), model.as_deref()),
        Some(Command::Tui {
            file,
            settings,
            seed,
            no_watch,
            cache,
        }) => tui(&file, &settings, seed, !no_watch, &cache),
        Some(Command::Cache {
            what: CacheCommand::Clean { file, cache },
        }) => clean_cache(file.as_deref(), cache.as_deref()),
        Some(Command::Export {
            file,
            run: Some(run),
            format,
            out,
            settings,
            ..
        }) => chart::export_run(
            file.as_deref(),
            &run,
            format.as_deref(),
            &out,
            settings.history.as_deref(),
        ),
        Some(Command::Export { file: None, .. }) => {
            errln!("error: flowcast export needs a workflow FILE or --run ID|last");
            ExitCode::from(2)
        }
        Some(Command::Export {
            file: Some(file),
            format,
            out,
            settings,
            seed,
            run: None,
        }) => export_chart(&file, format.as_deref(), &out, &settings, seed),
        Some(Command::Bench {
            what:
                BenchCommand::Kernels {
                    sizes,
                    no_r,
                    library,
                    only,
                },
        }) => {
            let max = crate::bench::kernels::MAX_SIZE;
            if let Some(n) = sizes.iter().find(|&&n| n > max) {
                errln!("error: --sizes {n}: at most {max} (an n x n matrix each)");
                return ExitCode::from(2);
            }
            if !library && only.is_none() {
                out!("{}", crate::bench::kernels::run_kernels(&sizes, !no_r));
            }
            out!(
                "{}",
                crate::bench::library::run_library(!no_r, only.as_deref())
            );
            ExitCode::SUCCESS
        }
        Some(Command::Bench {
            what: BenchCommand::Paper { seed, quick, json },
        }) => crate::bench::paper::main(seed, quick, json),
        Some(Command::Bench {
            what:
                BenchCommand::Workflows {
                    files,
                    runs,
                    warmup,
                    processors,
                    seed,
                },
        }) => bench_workflows(files, runs, warmup, processors, seed),
        Some(Command::Bench {
            what:
                BenchCommand::Mpi {
                    files,
                    runs,
                    processors,
                    seed,
                },
        }) => mpi::bench(workflow_files(files), runs, processors, seed),
        Some(Command::Bench {
            what:
                BenchCommand::Loops {
                    files,
                    runs,
                    processors,
                    seed,
                },
        }) => {
            let files = if files.is_empty() {
                vec![PathBuf::from("workflows/triangular.toml")]
            } else {
                files
            };
            let workers = processors.unwrap_or_else(crate::cores::cores);
            let opts = crate::bench::loops::Options {
                files,
                runs,
                workers,
                seed,
            };
            match crate::bench::loops::run_loops(&opts) {
                Ok(table) => {
                    out!("{table}");
                    ExitCode::SUCCESS
                }
                Err(e) => bench_failed(&e),
            }
        }
        Some(Command::Bench {
            what: BenchCommand::Priors { files, runs, seed },
        }) => {
            let opts = crate::bench::priors::Options { files, runs, seed };
            match crate::bench::priors::run_priors(&opts) {
                Ok(table) => {
                    out!("{table}");
                    ExitCode::SUCCESS
                }
                Err(e) => bench_failed(&e),
            }
        }
        Some(Command::Bench {
            what: BenchCommand::Rerun { files, processors },
        }) => {
            let files = if files.is_empty() {
                vec![PathBuf::from("workflows/fig1.toml")]
            } else {
                files
            };
            let p = processors.unwrap_or_else(crate::cores::cores);
            match crate::bench::rerun::run_rerun(&files, p.max(1)) {
                Ok(table) => {
                    out!("{table}");
                    ExitCode::SUCCESS
                }
                Err(e) => bench_failed(&e),
            }
        }
        Some(Command::Bench {
            what:
                BenchCommand::Schedule {
                    sizes,
                    processors,
                    graphs,
                },
        }) => {
            if let Some(problem) =
                crate::bench::schedule::settings_problem(&sizes, &processors, graphs)
            {
                errln!("error: {problem}");
                return ExitCode::from(2);
            }
            let report = crate::bench::schedule::run_schedule_bench(&sizes, &processors, graphs);
            out!("{report}");
            ExitCode::SUCCESS
        }
        Some(Command::Schedule {
            graph,
            processors,
            scheduler,
            json,
            quiet,
        }) => schedule(&graph, processors, &scheduler, json, quiet),
        None => match cli.file {
            Some(file) if interactive() => tui(&file, &cli.settings, None, true, &cli.cache),
            Some(file) => run(&RunArgs {
                file,
                settings: cli.settings,
                cache: cli.cache,
                ..RunArgs::default()
            }),
            None => {
                errln!("usage: flowcast <WORKFLOW.toml> | flowcast check FILE | flowcast run FILE --headless\n(try `flowcast --help`)");
                ExitCode::from(2)
            }
        },
    }
}

/// Loads and analyses a workflow, printing every diagnostic on failure;
/// with `json`, also a JSON document of them on stdout, where a program
/// reading `--json` output looks.
fn analyse(path: &Path, json: bool) -> Result<(Workflow, TaskGraph), ExitCode> {
    let print = |errors: Vec<Diagnostic>| {
        for e in &errors {
            errln!("{e}");
        }
        if json {
            outln!("{}", crate::diagnostic::to_json(&errors, path));
        }
        errln!("{}", crate::diagnostic::count(errors.len(), path));
        ExitCode::from(2)
    };
    let wf = workflow::load(path).map_err(print)?;
    let graph = graph::build(&wf).map_err(print)?;
    for w in graph::lint::lints(&wf) {
        errln!("{w}");
    }
    Ok((wf, graph))
}

fn check(path: &Path) -> ExitCode {
    let (wf, graph) = match analyse(path, false) {
        Ok(x) => x,
        Err(code) => return code,
    };
    outln!(
        "workflow `{}` ({}): {} steps{}",
        printable(&wf.name),
        printable(&wf.file.path.display().to_string()),
        graph.tasks.len(),
        wf.seed.map(|s| format!(", seed {s}")).unwrap_or_default()
    );
    let rows: Vec<[String; 5]> = graph
        .tasks
        .iter()
        .map(|t| {
            let deps: Vec<&str> = t
                .deps
                .iter()
                .map(|&d| graph.tasks[d].name.as_str())
                .collect();
            let mut ty = t.ty.describe();
            if let Some(it) = &t.iterations {
                ty.push_str(&format!("  ({} iterations)", it.len()));
            }
            [
                t.name.clone(),
                t.kind.as_str().into(),
                t.label(),
                if deps.is_empty() {
                    "-".into()
                } else {
                    deps.join(", ")
                },
                ty,
            ]
            .map(|cell| printable(&cell).into_owned())
        })
        .collect();
    let header = ["step", "kind", "function", "depends on", "type"];
    let mut w: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (wi, c) in w.iter_mut().zip(r) {
            *wi = (*wi).max(c.chars().count());
        }
    }
    let print_row = |r: &[&str]| {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i + 1 == r.len() {
                    c.to_string()
                } else {
                    crate::printable::pad_end(c, w[i])
                }
            })
            .collect();
        outln!("  {}", line.join("  ").trim_end());
    };
    print_row(&header);
    for r in &rows {
        print_row(&r.iter().map(String::as_str).collect::<Vec<_>>());
    }
    if !wf.functions.is_empty() {
        // Not tasks: each call of one runs inside the step that makes it.
        outln!("  functions, run where they are called:");
        for f in &wf.functions {
            outln!("  {} = {}", printable(&f.name), printable(&f.source));
        }
    }
    warn_oversized(&wf, &graph);
    ExitCode::SUCCESS
}

/// Warns of steps whose value will not fit in this machine's memory: the
/// run would fail them with "cannot allocate vector".
fn warn_oversized(wf: &Workflow, graph: &TaskGraph) {
    let Some(available) = graph::memory::machine_memory() else {
        return;
    };
    let gb = |b: f64| b / f64::from(1u32 << 30);
    for (id, bytes) in graph::memory::oversized(graph, available) {
        let step = &wf.steps[id];
        let at = Diagnostic::new(&wf.file, Some(step.name_span), "").location();
        errln!(
            "warning: step `{}` needs {:.1} Gb for its value, more than this machine's {:.1} Gb\n  --> {at}",
            step.name,
            gb(bytes),
            gb(available)
        );
    }
}

fn run(args: &RunArgs) -> ExitCode {
    run_on(args, None)
}

/// [`run`], under MPI on `ranks` (every rank's workers, and the network
/// between them as measured at start-up) when given.
fn run_on(args: &RunArgs, ranks: Option<mpi::Ranks>) -> ExitCode {
    // Before anything slow (a fresh history measures this machine's speed).
    let cancel = crate::interrupt::flag();
    let (mut wf, graph) = match analyse(&args.file, args.json) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let (workers, scheduler, model) = match resolve(&mut wf, &args.settings) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let out_dir = args
        .out
        .clone()
        .or_else(|| wf.out.as_ref().map(|o| wf.base_dir().join(o)));
    if let Some(dir) = &out_dir {
        if let Err(e) = output_target::check_dir(dir) {
            errln!("error: --out {}", printable(&e));
            return ExitCode::from(2);
        }
    }
    let seed = args.seed.or(wf.seed).unwrap_or_else(random_seed);
    let mut learning = learning(args.settings.history.as_deref(), model);
    let progress = Progress::new(&graph);
    let mut opts = RunOptions::new(workers, seed);
    if let Some(ranks) = ranks {
        if scheduler == Scheduler::Dynamic {
            errln!("error: work-stealing (dynamic) runs on one machine; under --mpi use emcp, mcp, baseline or ideal");
            return ExitCode::from(2);
        }
        if let Some(w) = exec::remote::binding_warning(0, workers) {
            errln!("{w}");
        }
        let cluster = ranks.cluster.with_per_rank(workers);
        opts.workers = cluster.workers();
        learning.comm.network = Some(crate::cost::Network {
            per_rank: workers,
            latency: ranks.latency,
            per_byte: ranks.per_byte,
        });
        opts.cluster = Some(cluster);
    }
    let sink = |e: exec::Event| progress.on_event(&e);
    // The chart is stored beside the run, for `flowcast export --run`.
    let mut cache = place(&args.cache).open(&args.file, cache_limit(&args.cache));
    let ran = chart::run_charted(
        &wf,
        &graph,
        &mut learning,
        &opts,
        scheduler,
        &sink,
        &cancel,
        &mut cache,
        args.cache.force,
    );
    let (finished, chart) = match ran {
        Ok(x) => x,
        Err(e) => {
            errln!("error: {}", printable(&e));
            return ExitCode::from(1);
        }
    };
    progress.finish();
    let report = &finished.report;
    for w in &finished.warnings {
        errln!("warning: {}", printable(w));
    }
    for d in report.failures(&graph, &wf.file) {
        errln!("{d}");
    }
    let mut write_failed = false;
    if let Some(dir) = &out_dir {
        if let Err(e) = report::write_values(dir, &graph, report) {
            errln!("error: {e}");
            write_failed = true;
        }
    }
    if args.json {
        let mut doc = report::run_document(&wf, &graph, &finished);
        if !chart.transfers.is_empty() {
            // Under MPI: the values that crossed ranks, as the chart has them.
            doc["transfers"] = serde_json::to_value(&chart.transfers).unwrap_or_default();
        }
        outln!("{doc}");
    } else {
        let plan = &finished.plan;
        out!(
            "{}",
            table::render(
                &graph,
                report,
                &plan.predicted_as_ran(report),
                plan.predicted_makespan()
            )
        );
        if let Some(dir) = &out_dir {
            if !write_failed {
                outln!("values written to {}", dir.display());
            }
        }
    }
    // The values written in the background are on disk before the next
    // invocation looks.
    for p in cache.flush() {
        errln!("warning: {}", printable(&p));
    }
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        errln!("run cancelled (Ctrl-C)");
        ExitCode::from(crate::interrupt::STATUS)
    } else if report.failed() || write_failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Workers, scheduler and cost model from the command line, else the
/// workflow, else all cores, emcp and the default model; `--test-drive-m`
/// overrides `[workflow] m` in `wf`.
fn resolve(wf: &mut Workflow, s: &Settings) -> Result<(usize, Scheduler, ModelKind), ExitCode> {
    let (scheduler, model, m) = live_settings(s)?;
    let workers = s
        .processors
        .or(wf.processors)
        .unwrap_or_else(crate::cores::cores);
    if let Some(problem) = crate::sched::processors_problem(workers) {
        errln!("error: -p {problem}");
        return Err(ExitCode::from(2));
    }
    wf.m = m.or(wf.m);
    let scheduler = match scheduler {
        Some(chosen) => chosen,
        None => parse_scheduler(wf.scheduler.as_deref())?.unwrap_or(Scheduler::Emcp),
    };
    Ok((workers, scheduler, model))
}

/// The settings of the terminal UI and watch mode, which resolve the
/// workflow's own defaults at every (re)load rather than once.
fn live_settings(s: &Settings) -> Result<(Option<Scheduler>, ModelKind, Option<usize>), ExitCode> {
    if let Some(problem) = s.processors.and_then(crate::sched::processors_problem) {
        errln!("error: -p {problem}");
        return Err(ExitCode::from(2));
    }
    if s.m == Some(0) {
        errln!("error: --test-drive-m must be at least 1");
        return Err(ExitCode::from(2));
    }
    let scheduler = parse_scheduler(s.scheduler.as_deref())?;
    Ok((scheduler, parse_model(s.model.as_deref())?, s.m))
}

fn parse_model(name: Option<&str>) -> Result<ModelKind, ExitCode> {
    match name {
        None => Ok(ModelKind::default()),
        Some(s) => ModelKind::parse(s).ok_or_else(|| {
            errln!("error: unknown cost model `{s}` (loglinear, paper)");
            ExitCode::from(2)
        }),
    }
}

/// The history and models; a store that cannot be opened is reported and
/// the run goes on without learning.
fn learning(path: Option<&Path>, model: ModelKind) -> Learning {
    Learning::open_with(path, model).unwrap_or_else(|e| {
        errln!("warning: {e}; running without history");
        Learning::none_with(model)
    })
}

/// A seed for runs that name none, like R's time-based default; it is
/// printed with the results so the run can be repeated.
fn random_seed() -> i64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    i64::from(nanos % 1_000_000) + i64::from(std::process::id() % 1000) * 1_000_000
}

fn schedule(path: &Path, p: usize, scheduler: &str, as_json: bool, quiet: bool) -> ExitCode {
    let Some(kind) = Scheduler::parse(scheduler) else {
        errln!("error: unknown scheduler `{scheduler}` (emcp, mcp, baseline, dynamic, ideal)");
        return ExitCode::from(2);
    };
    if let Some(problem) = sched::processors_problem(p) {
        errln!("error: -p {problem}");
        return ExitCode::from(2);
    }
    let dag = match crate::regular_file::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| Dag::from_file_text(path, &t))
    {
        Ok(d) => d,
        Err(e) => {
            errln!("error: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let s = sched::plan(&dag, &Comm::SHARED_MEMORY, p, kind);
    use std::io::Write as _;
    // One buffered writer: a line-flushed println! per row dominates big graphs.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if as_json {
        serde_json::to_writer(&mut out, &s.to_json(&dag, kind.name()))
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        s.write_table(&mut out, &dag, kind.name(), quiet)
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            errln!("error: writing the schedule: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The UI needs a terminal on both ends; anything else (pipes, CI) gets the
/// headless run.
fn interactive() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::io::stdin().is_terminal()
}

fn parse_scheduler(name: Option<&str>) -> Result<Option<Scheduler>, ExitCode> {
    name.map(|s| {
        Scheduler::parse(s).ok_or_else(|| {
            errln!("error: unknown scheduler `{s}` (emcp, mcp, baseline, dynamic, ideal)");
            ExitCode::from(2)
        })
    })
    .transpose()
}

fn tui(
    file: &Path,
    settings: &Settings,
    seed: Option<i64>,
    watch: bool,
    cache: &CacheArgs,
) -> ExitCode {
    let (scheduler, model, m) = match live_settings(settings) {
        Ok(x) => x,
        Err(code) => return code,
    };
    // Without a terminal the UI cannot open; a workflow that does not
    // load is the user's mistake, and is said first, as `run` says it.
    // (With a terminal the UI shows it, and waits for the fix.)
    if !interactive() {
        if let Err(code) = analyse(file, false) {
            return code;
        }
    }
    let opts = ui::TuiOptions {
        workers: settings.processors,
        scheduler,
        seed,
        watch,
        history_path: settings.history.clone(),
        model,
        m,
        cache: place(cache),
        cache_limit: cache_limit(cache),
        force: cache.force,
        ..ui::TuiOptions::default()
    };
    match ui::run_tui(file, opts, &chart::export_default) {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn export_chart(
    file: &Path,
    format: Option<&str>,
    out: &Path,
    settings: &Settings,
    seed: Option<i64>,
) -> ExitCode {
    let format = match format {
        Some(f) => Format::parse(f),
        None => Format::from_path(out),
    };
    let Some(format) = format else {
        errln!("error: unknown export format (svg, png, trace, mermaid, csv, json)");
        return ExitCode::from(2);
    };
    if let Err(e) = output_target::check_file(out) {
        errln!("error: -o {}", printable(&e));
        return ExitCode::from(2);
    }
    let chart = if Format::from_path(file) == Some(Format::Json) {
        export::load(file)
    } else {
        let (mut wf, graph) = match analyse(file, false) {
            Ok(x) => x,
            Err(code) => return code,
        };
        let (workers, scheduler, model) = match resolve(&mut wf, settings) {
            Ok(x) => x,
            Err(code) => return code,
        };
        let seed = seed.or(wf.seed).unwrap_or_else(random_seed);
        let mut learning = learning(settings.history.as_deref(), model);
        let opts = RunOptions::new(workers, seed);
        let cancel = AtomicBool::new(false);
        let ignore = |_: crate::exec::Event| {};
        chart::run_charted(
            &wf,
            &graph,
            &mut learning,
            &opts,
            scheduler,
            &ignore,
            &cancel,
            // A chart of a run as it runs: nothing reused, nothing kept.
            &mut crate::cache::Cache::new(None),
            true,
        )
        .map(|(finished, chart)| {
            for w in &finished.warnings {
                errln!("warning: {}", printable(w));
            }
            chart
        })
    };
    chart::said(chart.and_then(|g| export::export(&g, format, out)), out)
}

fn plan(file: &Path, settings: &Settings, json: bool) -> ExitCode {
    let (mut wf, graph) = match analyse(file, json) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let (workers, scheduler, model) = match resolve(&mut wf, settings) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut learning = learning(settings.history.as_deref(), model);
    let plan = pipeline::plan(&wf, &graph, &mut learning, workers, scheduler);
    if json {
        outln!("{}", report::plan::to_json(&graph, &plan));
    } else {
        out!("{}", report::plan::render(&graph, &plan));
    }
    ExitCode::SUCCESS
}

/// `files`, else every workflow in `./workflows`.
fn workflow_files(files: Vec<PathBuf>) -> Vec<PathBuf> {
    if !files.is_empty() {
        return files;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir("workflows")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "toml"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn bench_workflows(
    mut files: Vec<PathBuf>,
    runs: usize,
    warmup: usize,
    mut processors: Vec<usize>,
    seed: i64,
) -> ExitCode {
    if processors.is_empty() {
        processors.push(crate::cores::cores());
    }
    files = workflow_files(files);
    if files.is_empty() || runs == 0 {
        errln!("error: give workflow files (none in ./workflows) and --runs of at least 1");
        return ExitCode::from(2);
    }
    let opts = crate::bench::workflows::Options {
        files,
        runs,
        warmup,
        workers: processors,
        seed,
    };
    match crate::bench::workflows::run_workflows(&opts) {
        Ok(table) => {
            out!("{table}");
            ExitCode::SUCCESS
        }
        Err(e) => bench_failed(&e),
    }
}

/// A benchmark that could not run. A workflow's own diagnostic arrives
/// rendered (its `error:`, location and caret, already made printable);
/// anything else is one line of text.
fn bench_failed(e: &str) -> ExitCode {
    if e.starts_with("error") || e.starts_with("warning") {
        errln!("{e}");
    } else {
        errln!("error: {}", printable(e));
    }
    ExitCode::from(1)
}

/// How a command uses the history store.
#[derive(Clone, Copy, PartialEq)]
enum Access {
    /// Opened read-only, so a store this user cannot write can be read.
    Read,
    Write,
}

/// Opens the history (exit 2 when it cannot be opened) and runs `f` on it;
/// an error `f` returns is printed, exit 1.
fn with_history(
    path: Option<&Path>,
    access: Access,
    f: impl FnOnce(&History) -> Result<(), HistoryError>,
) -> ExitCode {
    let opened = match (path, access) {
        (Some(p), Access::Read) => History::open_read_only(p),
        (Some(p), Access::Write) => History::open(p),
        (None, Access::Read) => History::open_default_read_only(),
        (None, Access::Write) => History::open_default(),
    };
    let h = match opened {
        Ok(h) => h,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(damage) = h.damage() {
        errln!("warning: {}", printable(&damage.to_string()));
    }
    match f(&h) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn list_history(workflow: Option<&str>, path: Option<&Path>) -> ExitCode {
    with_history(path, Access::Read, |h| {
        let runs = h.runs(workflow)?;
        let states = h.run_states()?;
        outln!(
            "{:>5}  {:<20} {:<9} {:>3} {:<9} {:>9} {:>9} {:>7}",
            "run",
            "workflow",
            "scheduler",
            "p",
            "state",
            "predicted",
            "actual",
            "error"
        );
        for r in &runs {
            let (p, a) = (r.predicted_makespan, r.actual_makespan);
            let state = states.get(&r.id).map_or("-", String::as_str);
            // A failed or cancelled run stopped short of the plan: its
            // makespan measures no prediction.
            let err = match (p, a) {
                (Some(p), Some(a)) if state == "done" => {
                    table::error_percent(p, a).map_or("-".into(), |e| format!("{e:+.0}%"))
                }
                _ => "-".into(),
            };
            let f = |x: Option<f64>| x.map_or("-".into(), report::units::seconds);
            outln!(
                "{:>5}  {:<20} {:<9} {:>3} {:<9} {:>9} {:>9} {:>7}",
                r.id,
                printable(&r.workflow),
                printable(&r.scheduler),
                r.processors,
                state,
                f(p),
                f(a),
                err
            );
        }
        outln!("{} runs in {}", runs.len(), h.path().display());
        Ok(())
    })
}

fn calibrate(path: Option<&Path>) -> ExitCode {
    with_history(path, Access::Write, |h| {
        let comm = crate::cost::comm::calibrate();
        outln!(
            "communication: {:.3e} s + {:.3e} s/byte",
            comm.latency,
            comm.per_byte
        );
        h.save_comm(&comm)?;
        let speed = crate::cost::speed::measure();
        outln!(
            "speed: {:.3e} s/op, {:.3e} s per long-double add, {:.3e} s per element \
             streamed from the cache ({} MiB), {:.3e} s per element from memory",
            speed.per_op,
            speed.per_ld_add,
            speed.per_streamed,
            crate::cpu_cache::last_level_bytes() >> 20,
            speed.per_fetched
        );
        h.save_speed(speed)?;
        outln!("stored in {}", h.path().display());
        Ok(())
    })
}

fn show_models(path: Option<&Path>, model: Option<&str>) -> ExitCode {
    let kind = match parse_model(model) {
        Ok(k) => k,
        Err(code) => return code,
    };
    with_history(path, Access::Read, |h| {
        outln!(
            "cost models: {} (choose with --model loglinear|paper)",
            kind.name()
        );
        let predictor = crate::cost::Predictor::load(h, kind)?;
        let errors = report::models::recent_errors(h)?;
        out!("{}", report::models::render(&predictor, &errors));
        Ok(())
    })
}

/// One watch-mode run, its chart stored beside it for `flowcast export --run`.
#[allow(clippy::too_many_arguments)]
fn run_keeping_chart(
    wf: &crate::workflow::Workflow,
    graph: &crate::graph::TaskGraph,
    learning: &mut crate::pipeline::Learning,
    opts: &crate::exec::RunOptions,
    scheduler: crate::sched::Scheduler,
    on_event: &(dyn Fn(crate::exec::Event) + Sync),
    cancel: &std::sync::atomic::AtomicBool,
    cache: &mut crate::cache::Cache,
    force: bool,
) -> Result<crate::pipeline::Finished, String> {
    chart::run_charted(
        wf, graph, learning, opts, scheduler, on_event, cancel, cache, force,
    )
    .map(|(f, _)| f)
}

/// Where `--cache`, `--no-cache` and `$FLOWCAST_CACHE` say values are kept.
fn place(args: &CacheArgs) -> crate::cache::Place {
    use crate::cache::Place;
    match (&args.cache, args.no_cache) {
        (_, true) => Place::Memory,
        (Some(dir), false) => Place::Dir(dir.clone()),
        (None, false) => Place::Beside,
    }
}

fn cache_limit(args: &CacheArgs) -> Option<u64> {
    args.cache_limit.map(|mib| mib.saturating_mul(1 << 20))
}

/// `flowcast cache clean [FILE | --cache DIR]`.
fn clean_cache(file: Option<&Path>, dir: Option<&Path>) -> ExitCode {
    use crate::cache::Place;
    let place = match dir {
        Some(d) => Place::Dir(d.to_path_buf()),
        None => Place::Beside,
    };
    let workflow = file.unwrap_or(Path::new("workflow.toml"));
    let Some(dir) = place.dir(workflow) else {
        outln!("no cache directory (FLOWCAST_CACHE=off)");
        return ExitCode::SUCCESS;
    };
    let store = crate::cache::Store::new(&dir, 0);
    match store.clean() {
        Ok((n, bytes)) => {
            outln!(
                "removed {n} cached value{} ({}) from {}",
                if n == 1 { "" } else { "s" },
                report::units::bytes(bytes),
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("error: {}", printable(&e));
            ExitCode::from(1)
        }
    }
}
