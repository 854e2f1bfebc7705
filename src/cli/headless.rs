//! `flowcast run FILE --watch` without a terminal UI: run, then on every
//! change re-load and re-validate; on an error print it and keep the last
//! good workflow; a change during a run cancels that run and starts anew.

use crate::stdout::errln;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::cache::Cache;
use crate::cost::ModelKind;
use crate::exec::RunOptions;
use crate::graph::TaskGraph;
use crate::pipeline::{load_checked, Finished, Learning};
use crate::printable::printable;
use crate::report::{progress::Progress, table};
use crate::sched::Scheduler;
use crate::stdout::out;
use crate::watch::{watch_files, Changed, QUIET};
use crate::workflow::depth::WALK_STACK;
use crate::workflow::{self, Workflow};

/// A run in the background and the flag that stops it.
struct Running {
    cancel: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Running {
    fn stop(self) {
        self.cancel.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
    }
}

/// The watch loop, generic over what is loaded and how it runs so it can
/// be tested without a workflow: `load` re-reads and validates (an `Err`
/// is printed to `log` and the last good value kept), `run` runs one and
/// must return soon after its flag is set. `files` are always watched;
/// `reads` names the files a loaded value reads, watched from each good
/// load on (until the next one), so an edit that reads another file, or a
/// file invalid at start that becomes valid, watches what it reads.
/// Returns, once `stop` is set, how many runs were started.
pub fn watch_loop<W, L, F, R>(
    files: &[PathBuf],
    quiet: Duration,
    mut load: L,
    reads: F,
    run: R,
    stop: &AtomicBool,
    log: &mut dyn Write,
) -> Result<usize, String>
where
    W: Send + Sync + 'static,
    L: FnMut() -> Result<W, String>,
    F: Fn(&W) -> Vec<PathBuf>,
    R: Fn(&W, &AtomicBool) + Send + Sync + 'static,
{
    let (tx, rx) = mpsc::channel::<Changed>();
    let mut watcher = watch_files(files, quiet, move |c| {
        let _ = tx.send(c);
    })?;
    let mut watch_reads = |w: &W, log: &mut dyn Write| {
        let mut all = files.to_vec();
        all.extend(reads(w));
        if let Err(e) = watcher.set_files(&all) {
            let _ = writeln!(log, "warning: {}", printable(&e));
        }
    };
    let run = Arc::new(run);
    let mut started = 0;
    let start = |w: Arc<W>| -> Result<Running, String> {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let run = Arc::clone(&run);
        let thread = std::thread::Builder::new()
            .name("flowcast-run".into())
            .stack_size(WALK_STACK)
            .spawn(move || run(&w, &flag))
            .map_err(|e| format!("cannot start a run: {e}"))?;
        Ok(Running { cancel, thread })
    };
    let mut current = None;
    match load() {
        Ok(w) => {
            watch_reads(&w, log);
            current = Some(start(Arc::new(w))?);
            started += 1;
        }
        Err(e) => {
            let _ = writeln!(log, "{e}\nwaiting for a change…");
        }
    }
    while !stop.load(Ordering::Relaxed) {
        let changed = match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(c) => c,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        // Changes that queued up while we were busy are the same rerun.
        let mut paths = changed.paths;
        while let Ok(more) = rx.try_recv() {
            paths.extend(more.paths);
        }
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let _ = writeln!(log, "changed: {}", names.join(", "));
        match load() {
            Ok(w) => {
                watch_reads(&w, log);
                if let Some(r) = current.take() {
                    r.stop();
                }
                current = Some(start(Arc::new(w))?);
                started += 1;
            }
            Err(e) => {
                let _ = writeln!(log, "{e}\nkeeping the last good workflow");
            }
        }
    }
    if let Some(r) = current.take() {
        r.stop();
    }
    Ok(started)
}

/// What `flowcast run FILE --watch` needs besides the file.
#[derive(Clone, Debug, Default)]
pub struct WatchOptions {
    /// Workers (default: the workflow's `processors`, else all cores).
    pub workers: Option<usize>,
    pub seed: Option<i64>,
    /// More files to watch (data files the workflow reads are found from
    /// its `read.csv("…")` calls).
    pub extra_files: Vec<PathBuf>,
    /// The history store (default: the user's data directory).
    pub history: Option<PathBuf>,
    /// Default: the workflow's `scheduler`, else emcp.
    pub scheduler: Option<Scheduler>,
    /// Which cost models runs predict with and train.
    pub model: ModelKind,
    /// The paper's M (default: the workflow's `m`, else 8).
    pub m: Option<usize>,
    /// Where values are kept between invocations (they are always kept in
    /// memory between runs), and the bound on its size in bytes.
    pub cache: crate::cache::Place,
    pub cache_limit: Option<u64>,
    /// The first run reuses nothing.
    pub force: bool,
}

/// How watch mode runs a workflow once. The caller decides (the CLI also
/// stores each run's chart for `flowcast export --run`), so watching does
/// not reach into the exporters.
pub type RunOne = fn(
    &Workflow,
    &TaskGraph,
    &mut Learning,
    &RunOptions,
    Scheduler,
    &(dyn Fn(crate::exec::Event) + Sync),
    &AtomicBool,
    &mut Cache,
    bool,
) -> Result<Finished, String>;

/// `flowcast run FILE --watch`: runs until interrupted, each run through
/// `run_one`, printing each run's summary table (or its diagnostics) to
/// stdout/stderr.
pub fn run_watching(path: &Path, opts: &WatchOptions, run_one: RunOne) -> ExitCode {
    // First: a Ctrl-C while the history opens must end the watch with
    // status 130 too, not kill the process.
    let stop = crate::interrupt::flag();
    let mut files = vec![path.to_path_buf()];
    files.extend(opts.extra_files.iter().cloned());
    let (workers, seed) = (opts.workers, opts.seed);
    // Runs learn from each other: one history and set of models for all.
    let learning = std::sync::Mutex::new(
        Learning::open_with(opts.history.as_deref(), opts.model).unwrap_or_else(|e| {
            errln!("warning: {e}; running without history");
            Learning::none_with(opts.model)
        }),
    );
    let chosen = opts.scheduler;
    // Each run reuses what the runs before it computed.
    let cache = std::sync::Mutex::new(opts.cache.open(path, opts.cache_limit));
    let forced = std::sync::Mutex::new(opts.force);
    let run = move |(wf, graph): &(Workflow, TaskGraph), cancel: &AtomicBool| {
        let workers = workers
            .or(wf.processors)
            .unwrap_or_else(crate::cores::cores)
            .max(1);
        let seed = seed.or(wf.seed).unwrap_or(0);
        let scheduler = chosen
            .or_else(|| wf.scheduler.as_deref().and_then(Scheduler::parse))
            .unwrap_or(Scheduler::Emcp);
        let progress = Progress::new(graph);
        let opts = RunOptions::new(workers, seed);
        let mut learning = learning
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let sink = |e: crate::exec::Event| progress.on_event(&e);
        let mut cache = cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Only the first run is forced: later ones re-run what changed.
        let force = std::mem::take(
            &mut *forced
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        let ran = run_one(
            wf,
            graph,
            &mut learning,
            &opts,
            scheduler,
            &sink,
            cancel,
            &mut cache,
            force,
        );
        match ran {
            Ok(finished) => {
                progress.finish();
                for w in &finished.warnings {
                    errln!("warning: {}", printable(w));
                }
                if cancel.load(Ordering::Relaxed) {
                    errln!("run cancelled");
                } else {
                    let plan = &finished.plan;
                    out!(
                        "{}",
                        table::render(
                            graph,
                            &finished.report,
                            &plan.predicted_as_ran(&finished.report),
                            plan.predicted_makespan()
                        )
                    );
                }
            }
            Err(e) => errln!("error: {}", printable(&e)),
        }
    };
    let p = path.to_path_buf();
    let mut err = std::io::stderr();
    // `--test-drive-m` wins over the file's `m`, as in a single run.
    let m = opts.m;
    let load = || {
        load_checked(&p).map(|(mut wf, graph)| {
            wf.m = m.or(wf.m);
            (wf, graph)
        })
    };
    let reads = |(wf, _): &(Workflow, TaskGraph)| workflow::files::data_files(wf);
    match watch_loop(&files, QUIET, load, reads, run, &stop, &mut err) {
        Ok(_) if stop.load(Ordering::Relaxed) => ExitCode::from(crate::interrupt::STATUS),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
