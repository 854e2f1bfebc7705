//! Command-line arguments and dispatch; exit codes: 0 success, 1 a step
//! failed, 2 the workflow (or the command line) is invalid.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::{Parser, Subcommand};

use crate::cost::history::History;
use crate::diagnostic::Diagnostic;
use crate::exec::{self, RunOptions, StepError};
use crate::export::{self, gantt, Format};
use crate::graph::{self, TaskGraph};
use crate::pipeline::{self, Learning};
use crate::report::{self, progress::Progress, table};
use crate::sched::{self, Comm, Dag, Scheduler};
use crate::workflow::{self, Workflow};
use crate::{tui as ui, watch};

#[derive(Parser, Debug)]
#[command(
    name = "flowcast",
    version,
    about = "Run statistical workflows on every core",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A workflow file to run (same as `flowcast run FILE`).
    pub file: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Validate a workflow and print its task graph with inferred shapes.
    Check { file: PathBuf },
    /// Run a workflow.
    Run(RunArgs),
    /// Show the predicted schedule of a workflow without running it.
    Plan {
        file: PathBuf,
        #[arg(short = 'p', long = "processors", value_name = "N")]
        processors: Option<usize>,
        /// emcp | mcp | baseline | dynamic | ideal
        #[arg(long)]
        scheduler: Option<String>,
        #[arg(long)]
        json: bool,
        #[arg(long, value_name = "PATH")]
        history: Option<PathBuf>,
    },
    /// List past runs from the history store.
    History {
        /// Only runs of this workflow (by name).
        workflow: Option<String>,
        #[arg(long, value_name = "PATH")]
        history: Option<PathBuf>,
    },
    /// The cost models: `flowcast model show`.
    Model {
        #[command(subcommand)]
        what: ModelCommand,
    },
    /// Measure the cost of handing values between workers and store it.
    Calibrate {
        #[arg(long, value_name = "PATH")]
        history: Option<PathBuf>,
    },
    /// Open the terminal UI on a workflow (what `flowcast FILE` does).
    Tui {
        file: PathBuf,
        /// Number of workers.
        #[arg(short = 'p', long = "processors", value_name = "N")]
        processors: Option<usize>,
        /// emcp | mcp | baseline | dynamic | ideal
        #[arg(long)]
        scheduler: Option<String>,
        #[arg(long)]
        seed: Option<i64>,
        /// Do not watch the workflow and re-run on every save.
        #[arg(long)]
        no_watch: bool,
        /// The history store (default: the user's data directory).
        #[arg(long, value_name = "PATH")]
        history: Option<PathBuf>,
    },
    /// Run a workflow and export its Gantt chart (predicted and actual), or
    /// re-export a chart saved as `.gantt.json`.
    Export {
        /// A workflow, or a chart written with `--format json`.
        file: PathBuf,
        /// svg | png | trace | mermaid | csv | json (default: from -o's extension)
        #[arg(long)]
        format: Option<String>,
        /// Where to write.
        #[arg(short = 'o', long = "output", value_name = "PATH")]
        out: PathBuf,
        #[arg(short = 'p', long = "processors", value_name = "N")]
        processors: Option<usize>,
        #[arg(long)]
        scheduler: Option<String>,
        #[arg(long)]
        seed: Option<i64>,
        /// The history store (default: the user's data directory).
        #[arg(long, value_name = "PATH")]
        history: Option<PathBuf>,
    },
    /// Benchmarks: `flowcast bench kernels` times the heavy kernels (and R
    /// doing the same work, when Rscript is installed).
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
    /// Schedule a bare cost-annotated DAG (JSON, or Kasahara's STG format) and print the schedule.
    Schedule {
        /// `{"tasks":[{"id":"t1","cost":1.5}],"edges":[{"from":"t1","to":"t2","bytes":0}]}`,
        /// or an STG file (`.stg`, or any file not starting with `{`).
        graph: PathBuf,
        /// Number of workers.
        #[arg(
            short = 'p',
            long = "processors",
            value_name = "N",
            default_value_t = 8
        )]
        processors: usize,
        /// emcp | mcp | baseline | dynamic | ideal
        #[arg(long, default_value = "emcp")]
        scheduler: String,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Print only the summary line, not the table of tasks.
        #[arg(long, short = 'q', conflicts_with = "json")]
        quiet: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum ModelCommand {
    /// Each model's observations and recent prediction error.
    Show {
        #[arg(long, value_name = "PATH")]
        history: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// eigen, svd, qr, prcomp and solve at several sizes, against R.
    Kernels {
        /// Matrix sizes n (n x n).
        #[arg(long, value_delimiter = ',', default_values_t = [250, 500, 1000])]
        sizes: Vec<usize>,
        /// Do not run R even when Rscript is installed.
        #[arg(long)]
        no_r: bool,
    },
    /// MCP and extended MCP against the lower bound on STG-style random graphs.
    Schedule {
        /// Graph sizes (tasks).
        #[arg(long, value_delimiter = ',', default_values_t = [50, 100, 300, 500, 1000, 2000, 5000])]
        sizes: Vec<usize>,
        /// Worker counts.
        #[arg(short = 'p', long = "processors", value_delimiter = ',', default_values_t = [2, 4, 8, 16, 32])]
        processors: Vec<usize>,
        /// Graphs per method and size (average predecessors 1, 3, 5, ...).
        #[arg(long, default_value_t = 3)]
        graphs: usize,
    },
}

#[derive(clap::Args, Debug, Default)]
pub struct RunArgs {
    pub file: PathBuf,
    /// Print progress and a summary instead of opening the terminal UI.
    #[arg(long)]
    pub headless: bool,
    /// Write each step's value as DIR/<step>.json.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print one JSON document instead of the summary table.
    #[arg(long)]
    pub json: bool,
    /// Number of workers (default: [workflow] processors, else all cores).
    #[arg(short = 'p', long = "processors", value_name = "N")]
    pub processors: Option<usize>,
    /// Seed for the random stream (default: [workflow] seed, else random).
    #[arg(long)]
    pub seed: Option<i64>,
    /// Re-run on every save of the workflow or the data it reads.
    #[arg(long)]
    pub watch: bool,
    /// emcp | mcp | baseline | dynamic | ideal (default: [workflow] scheduler, else emcp).
    #[arg(long)]
    pub scheduler: Option<String>,
    /// The history store (default: the user's data directory).
    #[arg(long, value_name = "PATH")]
    pub history: Option<PathBuf>,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Check { file }) => check(&file),
        Some(Command::Run(args)) if args.watch => {
            if args.headless || !interactive() {
                watch::headless::run_watching(
                    &args.file,
                    &watch::headless::WatchOptions {
                        workers: args.processors,
                        seed: args.seed,
                        extra_files: Vec::new(),
                        history: args.history.clone(),
                    },
                )
            } else {
                tui(
                    &args.file,
                    args.processors,
                    args.scheduler.as_deref(),
                    args.seed,
                    true,
                    args.history.clone(),
                )
            }
        }
        Some(Command::Run(args))
            if !args.headless && !args.json && args.out.is_none() && interactive() =>
        {
            tui(
                &args.file,
                args.processors,
                args.scheduler.as_deref(),
                args.seed,
                false,
                args.history.clone(),
            )
        }
        Some(Command::Run(args)) => run(&args),
        Some(Command::Plan {
            file,
            processors,
            scheduler,
            json,
            history,
        }) => plan(
            &file,
            processors,
            scheduler.as_deref(),
            json,
            history.as_deref(),
        ),
        Some(Command::History { workflow, history }) => {
            list_history(workflow.as_deref(), history.as_deref())
        }
        Some(Command::Calibrate { history }) => calibrate(history.as_deref()),
        Some(Command::Model {
            what: ModelCommand::Show { history },
        }) => show_models(history.as_deref()),
        Some(Command::Tui {
            file,
            processors,
            scheduler,
            seed,
            no_watch,
            history,
        }) => tui(
            &file,
            processors,
            scheduler.as_deref(),
            seed,
            !no_watch,
            history,
        ),
        Some(Command::Export {
            file,
            format,
            out,
            processors,
            scheduler,
            seed,
            history,
        }) => export_chart(
            &file,
            format.as_deref(),
            &out,
            processors,
            scheduler.as_deref(),
            seed,
            history.as_deref(),
        ),
        Some(Command::Bench {
            what: BenchCommand::Kernels { sizes, no_r },
        }) => {
            print!("{}", crate::bench::kernels::run_kernels(&sizes, !no_r));
            ExitCode::SUCCESS
        }
        Some(Command::Bench {
            what:
                BenchCommand::Schedule {
                    sizes,
                    processors,
                    graphs,
                },
        }) => {
            let report = crate::bench::schedule::run_schedule_bench(&sizes, &processors, graphs);
            print!("{report}");
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
            Some(file) if interactive() => tui(&file, None, None, None, true, None),
            Some(file) => run(&RunArgs {
                file,
                ..RunArgs::default()
            }),
            None => {
                eprintln!("usage: flowcast <WORKFLOW.toml> | flowcast check FILE | flowcast run FILE --headless\n(try `flowcast --help`)");
                ExitCode::from(2)
            }
        },
    }
}

/// Loads and analyses a workflow, printing every diagnostic on failure.
fn analyse(path: &Path) -> Result<(Workflow, TaskGraph), ExitCode> {
    let print = |errors: Vec<Diagnostic>| {
        for e in &errors {
            eprintln!("{e}");
        }
        let n = errors.len();
        eprintln!(
            "{n} error{} in {}",
            if n == 1 { "" } else { "s" },
            path.display()
        );
        ExitCode::from(2)
    };
    let wf = workflow::load(path).map_err(print)?;
    let graph = graph::build(&wf).map_err(print)?;
    Ok((wf, graph))
}

fn check(path: &Path) -> ExitCode {
    let (wf, graph) = match analyse(path) {
        Ok(x) => x,
        Err(code) => return code,
    };
    println!(
        "workflow `{}` ({}): {} steps{}",
        wf.name,
        wf.file.path.display(),
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
                t.function.clone(),
                if deps.is_empty() {
                    "-".into()
                } else {
                    deps.join(", ")
                },
                ty,
            ]
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
                    format!("{c:<width$}", width = w[i])
                }
            })
            .collect();
        println!("  {}", line.join("  ").trim_end());
    };
    print_row(&header);
    for r in &rows {
        print_row(&r.iter().map(String::as_str).collect::<Vec<_>>());
    }
    ExitCode::SUCCESS
}

fn run(args: &RunArgs) -> ExitCode {
    let (wf, graph) = match analyse(&args.file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let (workers, scheduler) = match settings(&wf, args.processors, args.scheduler.as_deref()) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let seed = args.seed.or(wf.seed).unwrap_or_else(random_seed);
    let mut learning = learning(args.history.as_deref());
    let progress = Progress::new(&graph);
    let cancel = AtomicBool::new(false);
    let opts = RunOptions { workers, seed };
    let sink = |e: exec::Event| progress.on_event(&e);
    let finished = match pipeline::run(&wf, &graph, &mut learning, &opts, scheduler, &sink, &cancel)
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    progress.finish();
    let report = &finished.report;
    for w in &finished.warnings {
        eprintln!("warning: {w}");
    }
    for (t, o) in graph.tasks.iter().zip(&report.outcomes) {
        if let Err(StepError::Failed { message, span }) = &o.value {
            eprintln!(
                "{}",
                Diagnostic::new(&wf.file, Some(*span), message.clone()).in_step(&t.name)
            );
        }
    }
    let out_dir = args
        .out
        .clone()
        .or_else(|| wf.out.as_ref().map(|o| wf.base_dir().join(o)));
    let mut write_failed = false;
    if let Some(dir) = &out_dir {
        if let Err(e) = report::write_values(dir, &graph, report) {
            eprintln!("error: {e}");
            write_failed = true;
        }
    }
    if args.json {
        println!("{}", report::run_document(&wf, &graph, &finished));
    } else {
        let plan = &finished.plan;
        print!(
            "{}",
            table::render(&graph, report, &plan.predicted, plan.predicted_makespan())
        );
        if let Some(dir) = &out_dir {
            if !write_failed {
                println!("values written to {}", dir.display());
            }
        }
    }
    if report.failed() || write_failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Workers and scheduler from the command line, else the workflow, else
/// all cores and emcp.
fn settings(
    wf: &Workflow,
    processors: Option<usize>,
    scheduler: Option<&str>,
) -> Result<(usize, Scheduler), ExitCode> {
    let workers = processors
        .or(wf.processors)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    if workers == 0 {
        eprintln!("error: -p must be at least 1");
        return Err(ExitCode::from(2));
    }
    let scheduler =
        parse_scheduler(scheduler.or(wf.scheduler.as_deref()))?.unwrap_or(Scheduler::Emcp);
    Ok((workers, scheduler))
}

/// The history and models; a store that cannot be opened is reported and
/// the run goes on without learning.
fn learning(path: Option<&Path>) -> Learning {
    Learning::open(path).unwrap_or_else(|e| {
        eprintln!("warning: {e}; running without history");
        Learning::none()
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
        eprintln!("error: unknown scheduler `{scheduler}` (emcp, mcp, baseline, dynamic, ideal)");
        return ExitCode::from(2);
    };
    if p == 0 {
        eprintln!("error: -p must be at least 1");
        return ExitCode::from(2);
    }
    let dag = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| Dag::from_file_text(path, &t))
    {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
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
            eprintln!("error: writing the schedule: {e}");
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
            eprintln!("error: unknown scheduler `{s}` (emcp, mcp, baseline, dynamic, ideal)");
            ExitCode::from(2)
        })
    })
    .transpose()
}

fn tui(
    file: &Path,
    workers: Option<usize>,
    scheduler: Option<&str>,
    seed: Option<i64>,
    watch: bool,
    history_path: Option<PathBuf>,
) -> ExitCode {
    let scheduler = match parse_scheduler(scheduler) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let opts = ui::TuiOptions {
        workers,
        scheduler,
        seed,
        watch,
        history_path,
        ..ui::TuiOptions::default()
    };
    match ui::run_tui(file, opts) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn export_chart(
    file: &Path,
    format: Option<&str>,
    out: &Path,
    workers: Option<usize>,
    scheduler: Option<&str>,
    seed: Option<i64>,
    history: Option<&Path>,
) -> ExitCode {
    let format = match format {
        Some(f) => Format::parse(f),
        None => Format::from_path(out),
    };
    let Some(format) = format else {
        eprintln!("error: unknown export format (svg, png, trace, mermaid, csv, json)");
        return ExitCode::from(2);
    };
    let scheduler = match parse_scheduler(scheduler) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let chart = if Format::from_path(file) == Some(Format::Json) {
        export::load(file)
    } else {
        let (wf, graph) = match analyse(file) {
            Ok(x) => x,
            Err(code) => return code,
        };
        let workers = workers
            .or(wf.processors)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
        let scheduler = scheduler
            .or_else(|| wf.scheduler.as_deref().and_then(Scheduler::parse))
            .unwrap_or(Scheduler::Emcp);
        let seed = seed.or(wf.seed).unwrap_or_else(random_seed);
        let mut learning = learning(history);
        let plan = pipeline::plan(&wf, &graph, &learning, workers.max(1), scheduler);
        let mut chart = gantt::Gantt::planned(&wf.name, scheduler.name(), &graph, &plan.schedule);
        let opts = RunOptions {
            workers: workers.max(1),
            seed,
        };
        let cancel = AtomicBool::new(false);
        pipeline::execute(&wf, &graph, &mut learning, plan, &opts, &|_| {}, &cancel).map(|f| {
            chart.finish(&f.report);
            chart
        })
    };
    match chart.and_then(|g| export::export(&g, format, out)) {
        Ok(()) => {
            println!("wrote {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn plan(
    file: &Path,
    processors: Option<usize>,
    scheduler: Option<&str>,
    json: bool,
    history: Option<&Path>,
) -> ExitCode {
    let (wf, graph) = match analyse(file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let (workers, scheduler) = match settings(&wf, processors, scheduler) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let learning = learning(history);
    let plan = pipeline::plan(&wf, &graph, &learning, workers, scheduler);
    if json {
        println!("{}", report::plan::to_json(&graph, &plan));
    } else {
        print!("{}", report::plan::render(&graph, &plan));
    }
    ExitCode::SUCCESS
}

fn open_history(path: Option<&Path>) -> Result<History, ExitCode> {
    match path {
        Some(p) => History::open(p),
        None => History::open_default(),
    }
    .map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

fn list_history(workflow: Option<&str>, path: Option<&Path>) -> ExitCode {
    let h = match open_history(path) {
        Ok(h) => h,
        Err(code) => return code,
    };
    let runs = match h.runs(workflow) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    println!(
        "{:>5}  {:<20} {:<9} {:>3} {:>14} {:>11} {:>7}",
        "run", "workflow", "scheduler", "p", "predicted (s)", "actual (s)", "error"
    );
    for r in &runs {
        let (p, a) = (r.predicted_makespan, r.actual_makespan);
        let err = match (p, a) {
            (Some(p), Some(a)) => {
                table::error_percent(p, a).map_or("-".into(), |e| format!("{e:+.0}%"))
            }
            _ => "-".into(),
        };
        let f = |x: Option<f64>| x.map_or("-".into(), |x| format!("{x:.3}"));
        println!(
            "{:>5}  {:<20} {:<9} {:>3} {:>14} {:>11} {:>7}",
            r.id,
            r.workflow,
            r.scheduler,
            r.processors,
            f(p),
            f(a),
            err
        );
    }
    println!("{} runs in {}", runs.len(), h.path().display());
    ExitCode::SUCCESS
}

fn calibrate(path: Option<&Path>) -> ExitCode {
    let h = match open_history(path) {
        Ok(h) => h,
        Err(code) => return code,
    };
    let comm = crate::cost::comm::calibrate();
    println!(
        "communication: {:.3e} s + {:.3e} s/byte",
        comm.latency, comm.per_byte
    );
    match h.save_comm(&comm) {
        Ok(()) => {
            println!("stored in {}", h.path().display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn show_models(path: Option<&Path>) -> ExitCode {
    let h = match open_history(path) {
        Ok(h) => h,
        Err(code) => return code,
    };
    let loaded = crate::cost::Predictor::load(&h, crate::cost::ModelKind::LogLinear)
        .and_then(|p| Ok((p, report::models::recent_errors(&h)?)));
    match loaded {
        Ok((predictor, errors)) => {
            print!("{}", report::models::render(&predictor, &errors));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
