//! The terminal UI: `flowcast WORKFLOW`.
//!
//! One event loop: every input — a key, a resize, a tick, a run event from
//! the background run, a file change — becomes one [`Action`], which
//! [`App::update`] applies; the [`Effect`]s it returns (rerun, reload,
//! export, watch) are carried out here. The screen is a pure function of
//! the [`App`], drawn at most 30 times a second, and input is read every
//! 16 ms whatever the runs are doing. The terminal is restored on quit, on
//! error and on panic.

pub mod app;
pub mod columns;
pub mod eta;
pub mod footer;
pub mod gantt;
pub mod header;
pub mod help;
pub mod history;
pub mod keys;
pub mod models;
pub mod runner;
pub mod store;
pub mod table;
pub mod theme;
pub mod view;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use app::{Action, App, Effect, ErrorFrom, HistoryRow, ModelRow, RunState, View};
pub use runner::{Predictor, Runner};

use crate::cost::ModelKind;
use crate::pipeline::load_checked;
use crate::report::gantt::Gantt;
use crate::sched::Scheduler;
use crate::watch::{self, FileWatcher};

/// How the UI starts; everything has a default.
#[derive(Clone, Default)]
pub struct TuiOptions {
    /// Workers (default: the workflow's `processors`, else all cores).
    pub workers: Option<usize>,
    /// Default: the workflow's `scheduler`, else emcp.
    pub scheduler: Option<Scheduler>,
    pub seed: Option<i64>,
    /// Start watching the workflow at once.
    pub watch: bool,
    /// Where `e` writes (default: the workflow's directory).
    pub export_dir: Option<PathBuf>,
    /// Predicted seconds per task; default: the last run's measured times.
    pub predict: Option<Predictor>,
    /// Rows for the model view, from the cost engine.
    pub models: Vec<ModelRow>,
    /// Earlier runs for the history view.
    pub history: Vec<HistoryRow>,
    /// The history store (default: the user's data directory).
    pub history_path: Option<PathBuf>,
    /// Which cost models runs predict with and train.
    pub model: ModelKind,
    /// The paper's M (default: the workflow's `m`, else 8).
    pub m: Option<usize>,
    /// Where values are kept between invocations (always in memory between
    /// runs), and the bound on its size in bytes.
    pub cache: crate::cache::Place,
    pub cache_limit: Option<u64>,
    /// The first run reuses nothing (`r` forces any later one).
    pub force: bool,
}

/// What `e` does with the chart: writes it into a directory, its files
/// named `STEM.EXT`, and says which files it wrote. The command line hands
/// it in, so that the UI, a sibling of `export`, need not import it.
pub type Exporter = dyn Fn(&Gantt, &Path, &str) -> Result<Vec<PathBuf>, String>;

const FRAME: Duration = Duration::from_millis(33);
/// The longest an idle UI sleeps: a signal (which no longer interrupts the
/// wait, see [`spawn_input`]) or a hung-up terminal is seen within this.
const IDLE_WAKE: Duration = Duration::from_millis(100);

/// Opens the UI on `path` and runs until the user quits; `e` writes the
/// chart with `export`. Returns the exit code of [`App::exit_code`]; `Err`
/// for terminal errors.
pub fn run_tui(path: &Path, opts: TuiOptions, export: &Exporter) -> Result<ExitCode, String> {
    let (tx, rx) = mpsc::channel::<Action>();
    let loaded = load_checked(path);
    let (name, wf_workers, wf_scheduler) = match &loaded {
        Ok((wf, _)) => (wf.name.clone(), wf.processors, wf.scheduler.clone()),
        Err(_) => (
            path.file_stem()
                .map_or_else(|| "workflow".into(), |s| s.to_string_lossy().into_owned()),
            None,
            None,
        ),
    };
    let cores = crate::cores::cores();
    let workers = opts.workers.or(wf_workers).unwrap_or(cores).max(1);
    let scheduler = opts
        .scheduler
        .or_else(|| wf_scheduler.as_deref().and_then(Scheduler::parse))
        .unwrap_or(Scheduler::Emcp);
    let mut app = App::new(&name, scheduler, workers);
    app.max_workers = (cores * 4).max(workers);
    app.models = opts.models.clone();
    app.history = opts.history.clone();
    let mut runner = Runner::new(tx.clone(), opts.predict.clone(), opts.seed);
    runner.m = opts.m;
    runner.set_cache(opts.cache.open(path, opts.cache_limit));
    if opts.force {
        runner.force_next();
    }
    runner.open_store(opts.history_path.clone(), name.clone(), opts.model);
    let mut queue: Vec<Action> = Vec::new();
    match loaded {
        Ok((wf, graph)) => {
            runner.set_workflow(wf, graph);
            queue.extend(runner.request(app.scheduler, app.workers));
        }
        Err(e) => {
            app.set_error(ErrorFrom::Load, e);
            app.state = RunState::Invalid;
        }
    }
    let mut watcher: Option<FileWatcher> = None;
    if opts.watch {
        queue.push(Action::ToggleWatch);
    }

    let mut terminal = open_terminal().map_err(|e| {
        // Undoing a screen that was never set up writes its escapes into
        // whatever stdout is, a file or a pipe.
        if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            restore();
        }
        format!("cannot open the terminal: {e}")
    })?;
    install_mouse_restore();
    if let Ok(size) = terminal.size() {
        let area = drawn_area(size.width, size.height);
        queue.insert(0, Action::Resize(area.width, area.height));
    }
    let _ = crossterm::execute!(std::io::stdout(), crossterm::event::EnableMouseCapture);
    let mut ctx = Context {
        path,
        tx: &tx,
        runner: &mut runner,
        watcher: &mut watcher,
        export_dir: opts.export_dir.clone(),
        export,
    };
    let signalled = termination_flag();
    spawn_input(tx.clone()).map_err(|e| {
        restore();
        format!("terminal: {e}")
    })?;
    let result = event_loop(&mut terminal, &mut app, &rx, &mut ctx, queue, &signalled);
    ctx.runner.cancel();
    restore();
    result?;
    match signalled.load(std::sync::atomic::Ordering::Relaxed) {
        0 => Ok(ExitCode::from(app.exit_code())),
        sig => Ok(ExitCode::from(128u8.saturating_add(sig as u8))),
    }
}

/// The signal number of a SIGTERM, SIGHUP or SIGINT sent to the process
/// (`kill`, a closed terminal, a `timeout`): the UI then leaves as on `q`,
/// restoring the terminal, instead of dying in the alternate screen with
/// the cursor hidden. Ctrl-C typed in the UI is a key, not this.
fn termination_flag() -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    #[cfg(unix)]
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ] {
        let _ = signal_hook::flag::register_usize(sig, std::sync::Arc::clone(&flag), sig as usize);
    }
    flag
}

/// SIGHUP's number, the exit status's part for a terminal that went away.
const HANGUP: usize = 1;

/// Whether the terminal has gone (its window closed, the ssh link dropped,
/// tmux killed): a hung-up terminal reads as endless end-of-file, which
/// would spin this loop forever, and its SIGHUP need not reach us (we are
/// not the session leader). Its settings can no longer be read, which
/// `is_terminal` tries.
fn hung_up() -> bool {
    use std::io::IsTerminal;
    !std::io::stdin().is_terminal()
}

/// What effects act on.
struct Context<'a> {
    path: &'a Path,
    tx: &'a mpsc::Sender<Action>,
    runner: &'a mut Runner,
    watcher: &'a mut Option<FileWatcher>,
    export_dir: Option<PathBuf>,
    export: &'a Exporter,
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    rx: &mpsc::Receiver<Action>,
    ctx: &mut Context<'_>,
    mut queue: Vec<Action>,
    signalled: &std::sync::atomic::AtomicUsize,
) -> Result<(), String> {
    let io = |e: std::io::Error| format!("terminal: {e}");
    let mut dirty = true;
    let mut last_draw = Instant::now() - FRAME;
    let mut drawn = ratatui::layout::Rect::default();
    while !app.quit && signalled.load(std::sync::atomic::Ordering::Relaxed) == 0 {
        if dirty && last_draw.elapsed() >= FRAME {
            // The viewport is fixed (see `open_terminal`), so a resize is
            // followed here, bounded.
            let size = terminal.size().map_err(io)?;
            let area = drawn_area(size.width, size.height);
            if area != drawn {
                terminal.resize(area).map_err(io)?;
                drawn = area;
            }
            terminal
                .draw(|f| f.render_widget(&*app, f.area()))
                .map_err(io)?;
            last_draw = Instant::now();
            dirty = false;
        }
        let running = ctx.runner.elapsed().is_some();
        match rx.recv_timeout(wait_time(last_draw.elapsed(), dirty, running)) {
            Ok(action) => queue.push(action),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            // Both senders are held here: never.
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if hung_up() {
            signalled.store(HANGUP, std::sync::atomic::Ordering::Relaxed);
            break;
        }
        // Bounded, so a flood of run events cannot hold off the drawing.
        queue.extend(rx.try_iter().take(10_000));
        if let Some(now) = ctx.runner.elapsed() {
            queue.push(Action::Tick(now));
        }
        for action in std::mem::take(&mut queue) {
            dirty = true;
            let finished = match &action {
                Action::RunFinished { run, result, .. } => Some((*run, measured(result))),
                _ => None,
            };
            let effects = app.update(action);
            if let Some((run, m)) = finished {
                queue.extend(ctx.runner.finished(run, m));
            }
            for effect in effects {
                queue.extend(apply(effect, app, ctx));
            }
        }
    }
    Ok(())
}

/// The most cells the UI draws each way. ratatui keeps two buffers the
/// size of its viewport; a terminal that reports 65535 x 65535 cells (a
/// pty whose size a broken or hostile program set) made them four billion
/// cells each, and the UI was OOM-killed with the terminal left raw. Past
/// this the rest of the screen stays blank.
pub const MAX_DRAWN: u16 = 1024;

/// The part of a `width` x `height` terminal the UI draws in.
pub fn drawn_area(width: u16, height: u16) -> ratatui::layout::Rect {
    ratatui::layout::Rect::new(0, 0, width.min(MAX_DRAWN), height.min(MAX_DRAWN))
}

/// `ratatui::try_init` with a viewport of [`drawn_area`] instead of the
/// whole screen, which a fullscreen viewport would size its buffers to
/// before the first frame. The first frame clears it (`Terminal::clear`
/// would ask the terminal where its cursor is, which not every terminal
/// answers).
fn open_terminal() -> std::io::Result<ratatui::DefaultTerminal> {
    let (width, height) = crossterm::terminal::size()?;
    let viewport = ratatui::Viewport::Fixed(drawn_area(width, height));
    let terminal = ratatui::try_init_with_options(ratatui::TerminalOptions { viewport })?;
    crossterm::execute!(std::io::stdout(), crossterm::terminal::EnterAlternateScreen)?;
    Ok(terminal)
}

/// How long the loop may sleep: until the next frame is due when one is
/// waiting to be drawn or a run's clock ticks, else [`IDLE_WAKE`]. Input
/// and run events end the sleep early.
fn wait_time(since_draw: Duration, dirty: bool, running: bool) -> Duration {
    if dirty || running {
        FRAME.saturating_sub(since_draw)
    } else {
        IDLE_WAKE
    }
}

/// Reads the terminal's keys, mouse and resizes on a thread of its own and
/// sends them down the loop's channel, so the loop sleeps on that channel
/// alone. crossterm's `poll` with a timeout spun through the last
/// millisecond of every wait (it rounds what is left down to whole
/// milliseconds, and polls with 0 until the time is up): an idle UI took 4%
/// of a core. The thread ends with the process; on a hung-up terminal the
/// loop sees [`hung_up`] and leaves.
fn spawn_input(tx: mpsc::Sender<Action>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("tui-input".into())
        .spawn(move || loop {
            match crossterm::event::read() {
                Ok(event) => {
                    if let Some(action) = keys::action(&event) {
                        if tx.send(action).is_err() {
                            return;
                        }
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        })
        .map(drop)
}

fn measured(result: &Result<crate::exec::RunReport, String>) -> Option<Vec<f64>> {
    let report = result.as_ref().ok()?;
    // A reused step took no time: its time is not known from this run.
    (!report.failed()).then(|| {
        report
            .outcomes
            .iter()
            .map(|o| if o.reused { f64::NAN } else { o.seconds() })
            .collect()
    })
}

/// Carries out one effect; what it produces comes back as actions.
fn apply(effect: Effect, app: &App, ctx: &mut Context<'_>) -> Option<Action> {
    match effect {
        // Nothing good loaded yet (the file was invalid at start): read it
        // again; a good load reruns.
        Effect::Rerun if !ctx.runner.has_workflow() => Some(Action::Reloaded(reload(ctx))),
        Effect::Rerun => ctx.runner.request(app.scheduler, app.workers),
        Effect::Force => {
            ctx.runner.force_next();
            None
        }
        Effect::Reload => Some(Action::Reloaded(reload(ctx))),
        Effect::Export => Some(Action::Exported(export_default(app, ctx))),
        Effect::Watch(false) => {
            *ctx.watcher = None;
            None
        }
        Effect::Watch(true) => {
            let tx = ctx.tx.clone();
            let mut files = vec![ctx.path.to_path_buf()];
            if let Ok((wf, _)) = load_checked(ctx.path) {
                files.extend(crate::workflow::files::data_files(&wf));
            }
            match watch::watch_files(&files, watch::QUIET, move |c| {
                let _ = tx.send(Action::FileChanged(c));
            }) {
                Ok(w) => {
                    *ctx.watcher = Some(w);
                    None
                }
                Err(e) => Some(Action::WatchFailed(e)),
            }
        }
    }
}

/// Reads the workflow again; a good one is run from now on, and the data
/// files it reads are the ones watched.
fn reload(ctx: &mut Context<'_>) -> Result<String, String> {
    let (wf, graph) = load_checked(ctx.path)?;
    let name = wf.name.clone();
    if let Some(w) = ctx.watcher.as_mut() {
        let mut files = vec![ctx.path.to_path_buf()];
        files.extend(crate::workflow::files::data_files(&wf));
        // A data file in a directory that does not exist yet cannot be
        // watched; the run will say it is missing.
        let _ = w.set_files(&files);
    }
    ctx.runner.set_workflow(wf, graph);
    Ok(name)
}

/// `e`: the chart, beside the workflow unless told where.
fn export_default(app: &App, ctx: &Context<'_>) -> Result<Vec<PathBuf>, String> {
    let dir = ctx
        .export_dir
        .clone()
        .unwrap_or_else(|| match ctx.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        });
    // Said in full, so the user can find them whatever the cwd.
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    (ctx.export)(&app.gantt, &dir, &export_stem(app))
}

/// `WORKFLOW-runID`, ID the history's run id, as `flowcast export
/// --run ID` and the history view name it: the session's count restarts at
/// 1 each launch, and would overwrite an earlier session's charts. A run
/// the history did not record (no history, or every step cached) is
/// `WORKFLOW-session-runN`, N the session's count, apart from the ids.
fn export_stem(app: &App) -> String {
    let run = app.stored.map_or_else(
        || format!("session-run{}", app.run),
        |id| format!("run{id}"),
    );
    // The name comes from the workflow file: it must not pick the directory.
    format!(
        "{}-{run}",
        crate::output_target::file_name_from(&app.workflow)
    )
}

fn restore() {
    let _ = crossterm::execute!(std::io::stdout(), crossterm::event::DisableMouseCapture);
    ratatui::restore();
}

/// `ratatui::init` restores the screen on panic; mouse capture is ours to undo.
fn install_mouse_restore() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(std::io::stdout(), crossterm::event::DisableMouseCapture);
        previous(info);
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_are_named_by_the_history_run_id() {
        let mut app = App::new("quick", Scheduler::Emcp, 2);
        app.run = 1;
        assert_eq!(export_stem(&app), "quick-session-run1");
        app.stored = Some(17);
        assert_eq!(export_stem(&app), "quick-run17");
    }

    /// The loop sleeps until the next frame only while there is something
    /// to draw; idle, it sleeps long, and it never asks to wait past a due
    /// frame nor spins on zero waits while nothing is due.
    #[test]
    fn the_loop_sleeps_until_its_next_deadline() {
        let ms = Duration::from_millis;
        assert_eq!(wait_time(ms(0), false, false), IDLE_WAKE);
        assert_eq!(wait_time(ms(500), false, false), IDLE_WAKE);
        assert_eq!(wait_time(ms(10), true, false), FRAME - ms(10));
        assert_eq!(wait_time(ms(10), false, true), FRAME - ms(10));
        assert_eq!(wait_time(ms(40), true, true), Duration::ZERO);
    }
}
