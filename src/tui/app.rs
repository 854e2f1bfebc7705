//! The UI's state as plain data, the [`Action`]s that change it and the
//! [`Effect`]s it asks the event loop to carry out. Every input — key,
//! resize, tick, run event, file change — becomes one `Action`, and
//! [`App::update`] applies it with one `match`; nothing here touches the
//! terminal, a thread or a file, so all of it is tested directly.

use std::path::PathBuf;

use crate::exec::{Event, RunReport};
use crate::report::gantt::Gantt;
use crate::sched::Scheduler;
use crate::watch::Changed;

/// What the current run is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    /// Loading and planning; nothing ran yet.
    Planning,
    Running,
    Done,
    /// Finished with at least one failed step, or could not run.
    Failed,
    Cancelled,
    /// The workflow file did not load before any run: nothing ran.
    Invalid,
}

impl RunState {
    pub fn as_str(self) -> &'static str {
        match self {
            RunState::Planning => "planning",
            RunState::Running => "running",
            RunState::Done => "done",
            RunState::Failed => "failed",
            RunState::Cancelled => "cancelled",
            RunState::Invalid => "invalid",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Gantt,
    Table,
    Models,
    History,
}

impl View {
    pub const ALL: [View; 4] = [View::Gantt, View::Table, View::Models, View::History];

    pub fn title(self) -> &'static str {
        match self {
            View::Gantt => "Gantt",
            View::Table => "Tasks",
            View::Models => "Models",
            View::History => "History",
        }
    }
}

/// One function's cost model, as the model view shows it (filled by the
/// caller from the cost engine).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelRow {
    pub function: String,
    pub observations: usize,
    /// Mean absolute prediction error over the model's recent runs, percent.
    pub mean_error_percent: Option<f64>,
    /// The model's kind or any note (`ann`, `linear`, `untrained`).
    pub model: String,
    /// Signed relative errors `(actual - predicted) / predicted`, one per
    /// recent run that used the model, oldest first: the sparkline.
    pub errors: Vec<f64>,
}

/// One past run.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    pub run: usize,
    pub scheduler: String,
    pub workers: usize,
    pub predicted: f64,
    pub actual: Option<f64>,
    pub state: String,
}

/// Everything that can happen to the UI.
#[derive(Debug)]
pub enum Action {
    Quit,
    /// Ctrl-C: quit, and say so in the exit status as shells expect.
    Interrupt,
    Rerun,
    CycleScheduler,
    MoreWorkers,
    FewerWorkers,
    Export,
    ToggleWatch,
    NextView,
    PrevView,
    ToggleHelp,
    ZoomIn,
    ZoomOut,
    /// Show the whole run.
    Fit,
    PanLeft,
    PanRight,
    SelectNext,
    SelectPrev,
    /// Scroll the Gantt's lanes (when there are more workers than rows).
    LanesUp,
    LanesDown,
    /// A mouse click at a screen cell: selects the bar or row under it.
    Click(u16, u16),
    /// The mouse wheel at a screen cell: `up` or down; `pan` (Shift, or a
    /// sideways wheel) pans instead of zooming.
    Scroll {
        x: u16,
        y: u16,
        up: bool,
        pan: bool,
    },
    /// Esc: close the help, else clear the selection.
    Back,
    Resize(u16, u16),
    /// Seconds since the current run started.
    Tick(f64),
    /// Run `run` is being planned.
    Planning {
        run: usize,
    },
    /// A run was planned and is starting.
    RunPlanned {
        run: usize,
        gantt: Gantt,
    },
    /// Run `run`'s plan has placeholder times: nothing was known to
    /// predict it with.
    PlanGuessed {
        run: usize,
    },
    RunEvent {
        run: usize,
        event: Event,
    },
    RunFinished {
        run: usize,
        result: Result<RunReport, String>,
        /// The first failed step's error, at its place in the file.
        failure: Option<String>,
    },
    /// Run `run` was recorded in the history as run `id`, the number
    /// `flowcast export --run` and the history view know it by.
    Stored {
        run: usize,
        id: i64,
    },
    FileChanged(Changed),
    /// The workflow was re-read after a change: its name, or the diagnostics.
    Reloaded(Result<String, String>),
    /// An export finished: the files written, or why not.
    Exported(Result<Vec<PathBuf>, String>),
    /// Watching could not start.
    WatchFailed(String),
    /// Something to tell the user in the footer.
    Note(String),
    /// The history store's runs of this workflow and its cost models, read
    /// again after a run was recorded.
    Store {
        history: Vec<HistoryRow>,
        models: Vec<ModelRow>,
    },
}

/// What the event loop must do after an action.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Start a run with the app's scheduler and p, cancelling a running one.
    Rerun,
    /// The next run reuses nothing: every step runs again (`r`).
    Force,
    /// Re-read and re-validate the workflow.
    Reload,
    Export,
    /// Start or stop watching.
    Watch(bool),
}

/// The UI's whole state.
#[derive(Clone, Debug)]
pub struct App {
    pub workflow: String,
    pub scheduler: Scheduler,
    pub workers: usize,
    pub max_workers: usize,
    /// The current run's number in this session (1 for the first).
    pub run: usize,
    /// The current run's id in the history, once recorded.
    pub stored: Option<i64>,
    pub state: RunState,
    pub watching: bool,
    pub gantt: Gantt,
    /// Seconds since the current run started.
    pub now: f64,
    pub view: View,
    /// The selected task (a row of the gantt).
    pub selected: Option<usize>,
    /// 1 shows the whole run; 2 half of it, ...
    pub zoom: f64,
    /// The time at the left edge of the chart, seconds.
    pub offset: f64,
    /// The first Gantt lane shown, when not all fit.
    pub lane_offset: usize,
    pub help: bool,
    /// How far the help is scrolled, when the screen is too short for it.
    pub help_offset: usize,
    /// The plan's times are placeholders, not predictions: no ETA.
    pub guessed_plan: bool,
    /// A one-line message for the footer (export paths, changes).
    pub message: Option<String>,
    /// `message` is a finished run's count of cached steps: it is about
    /// that run only, so the next run's finish replaces or clears it.
    run_note: bool,
    /// The last load or run error, shown until a good reload.
    pub error: Option<String>,
    /// Whether `error` is the workflow's (its file did not load) or the
    /// run's: the error box says which, and what the chart still shows.
    pub error_from: ErrorFrom,
    pub models: Vec<ModelRow>,
    pub history: Vec<HistoryRow>,
    pub size: (u16, u16),
    pub quit: bool,
    /// Quit by Ctrl-C.
    pub interrupted: bool,
}

/// Where the error on show came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorFrom {
    /// The workflow file did not load; the chart keeps the last good one,
    /// if any.
    Load,
    /// The workflow loaded and its run failed; the chart shows that run.
    Run,
}

/// How much of the visible window one press of ← or → moves it.
pub const PAN: f64 = 0.1;

impl App {
    /// Shows `e` until a good reload, as the workflow's or the run's.
    pub fn set_error(&mut self, from: ErrorFrom, e: String) {
        self.error = Some(e);
        self.error_from = from;
    }

    pub fn new(workflow: &str, scheduler: Scheduler, workers: usize) -> App {
        App {
            workflow: workflow.to_string(),
            scheduler,
            workers: workers.max(1),
            max_workers: 256,
            run: 0,
            stored: None,
            state: RunState::Planning,
            watching: false,
            gantt: Gantt::default(),
            now: 0.0,
            view: View::Gantt,
            selected: None,
            zoom: 1.0,
            offset: 0.0,
            lane_offset: 0,
            help: false,
            help_offset: 0,
            guessed_plan: false,
            message: None,
            run_note: false,
            error: None,
            error_from: ErrorFrom::Load,
            models: Vec::new(),
            history: Vec::new(),
            size: (80, 24),
            quit: false,
            interrupted: false,
        }
    }

    /// The process's exit status once the UI has quit: 130 for Ctrl-C (what
    /// shells report for an interrupted command), 1 when the last run
    /// failed, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.interrupted {
            130
        } else if self.state == RunState::Failed {
            1
        } else if self.state == RunState::Invalid {
            // As `flowcast run` exits on an invalid workflow.
            2
        } else {
            0
        }
    }

    /// The visible time window of the chart: `(from, to)` seconds.
    pub fn window(&self) -> (f64, f64) {
        let horizon = self.horizon();
        let width = horizon / self.zoom.max(1.0);
        let from = self.offset.clamp(0.0, (horizon - width).max(0.0));
        (from, from + width)
    }

    /// The time the chart spans: the run so far and the plan.
    pub fn horizon(&self) -> f64 {
        let running = if self.state == RunState::Running {
            self.now
        } else {
            0.0
        };
        let h = self.gantt.horizon().max(running);
        if h > 0.0 {
            h
        } else {
            1.0
        }
    }

    /// The time left, while running: see [`super::eta`].
    pub fn eta(&self) -> Option<super::eta::Eta> {
        (self.state == RunState::Running)
            .then(|| super::eta::eta(&self.gantt, self.now, self.guessed_plan))
    }

    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        let rows = self.gantt.rows.len();
        match action {
            Action::Quit => self.quit = true,
            Action::Interrupt => {
                self.quit = true;
                self.interrupted = true;
            }
            // The file may have been saved while nothing watched it: `r`
            // runs what is on disk, not the copy loaded before, and runs
            // every step (issue 15).
            Action::Rerun => return vec![Effect::Force, Effect::Reload],
            Action::CycleScheduler => {
                let all = Scheduler::ALL;
                let i = all.iter().position(|s| *s == self.scheduler).unwrap_or(0);
                self.scheduler = all[(i + 1) % all.len()];
                return vec![Effect::Rerun];
            }
            Action::MoreWorkers | Action::FewerWorkers => {
                let p = if matches!(action, Action::MoreWorkers) {
                    (self.workers + 1).min(self.max_workers.max(1))
                } else {
                    self.workers.saturating_sub(1).max(1)
                };
                if p != self.workers {
                    self.workers = p;
                    return vec![Effect::Rerun];
                }
            }
            Action::Export => return vec![Effect::Export],
            Action::ToggleWatch => {
                self.watching = !self.watching;
                return vec![Effect::Watch(self.watching)];
            }
            Action::NextView | Action::PrevView => {
                let i = View::ALL.iter().position(|v| *v == self.view).unwrap_or(0);
                let n = View::ALL.len();
                let j = if matches!(action, Action::NextView) {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                };
                self.view = View::ALL[j];
            }
            Action::ToggleHelp => {
                self.help = !self.help;
                self.help_offset = 0;
            }
            Action::SelectNext | Action::SelectPrev | Action::LanesUp | Action::LanesDown
                if self.help =>
            {
                self.scroll_help(&action);
            }
            Action::Back => {
                if self.help {
                    self.help = false;
                } else {
                    self.selected = None;
                }
            }
            Action::ZoomIn => self.zoom_by(2.0),
            Action::ZoomOut => self.zoom_by(0.5),
            Action::Fit => {
                self.zoom = 1.0;
                self.offset = 0.0;
            }
            Action::PanLeft | Action::PanRight => {
                let (from, to) = self.window();
                let step = (to - from) * PAN;
                let sign = if matches!(action, Action::PanLeft) {
                    -1.0
                } else {
                    1.0
                };
                self.offset = from + sign * step;
                let (from, _) = self.window();
                self.offset = from;
            }
            Action::SelectNext if rows > 0 => {
                self.selected = Some(self.selected.map_or(0, |s| (s + 1).min(rows - 1)));
                self.show_selected_lane();
            }
            Action::SelectPrev if rows > 0 => {
                self.selected = Some(self.selected.map_or(0, |s| s.saturating_sub(1)));
                self.show_selected_lane();
            }
            Action::LanesUp => {
                let page = self.shown_lanes().max(1);
                self.lane_offset = self.lane_offset.saturating_sub(page);
            }
            Action::LanesDown => {
                let shown = self.shown_lanes();
                let last = self.gantt.workers.saturating_sub(shown);
                self.lane_offset = (self.lane_offset + shown.max(1)).min(last);
            }
            Action::Click(x, y) => self.click(x, y),
            Action::Scroll { x, y, up, pan } => self.scroll(x, y, up, pan),
            Action::SelectNext | Action::SelectPrev => {}
            Action::Resize(w, h) => {
                let area = super::drawn_area(w, h);
                self.size = (area.width, area.height);
            }
            Action::Tick(now) => self.now = now,
            Action::Planning { run } => {
                self.run = run;
                self.stored = None;
                self.state = RunState::Planning;
                self.now = 0.0;
            }
            Action::RunPlanned { run, gantt } => {
                self.run = run;
                self.gantt = gantt;
                self.state = RunState::Running;
                self.now = 0.0;
                self.guessed_plan = false;
                self.selected = self.selected.filter(|&s| s < self.gantt.rows.len());
            }
            Action::PlanGuessed { run } => self.guessed_plan |= run == self.run,
            Action::RunEvent { run, event } if run == self.run => self.gantt.apply(&event),
            Action::RunEvent { .. } => {}
            Action::RunFinished {
                run,
                result,
                failure,
            } if run == self.run => self.finish(result, failure),
            Action::RunFinished { .. } => {}
            Action::Stored { run, id } if run == self.run => {
                self.stored = Some(id);
                // The row `finish` added still has the session's number.
                if let Some(row) = self.history.last_mut() {
                    row.run = id as usize;
                }
            }
            Action::Stored { .. } => {}
            Action::FileChanged(c) => {
                if self.watching {
                    let names: Vec<String> = c
                        .paths
                        .iter()
                        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                        .collect();
                    self.say(format!("changed: {}", names.join(", ")));
                    return vec![Effect::Reload];
                }
            }
            Action::Reloaded(Ok(name)) => {
                self.workflow = name;
                self.error = None;
                return vec![Effect::Rerun];
            }
            Action::Reloaded(Err(e)) => {
                self.set_error(ErrorFrom::Load, e);
                self.say(if self.gantt.rows.is_empty() {
                    "invalid workflow".into()
                } else {
                    "invalid workflow: keeping the last good one".into()
                });
            }
            Action::Exported(Ok(paths)) => {
                let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                self.say(format!("exported {}", names.join(", ")));
            }
            Action::Exported(Err(e)) => self.say(format!("export failed: {e}")),
            Action::WatchFailed(e) => {
                self.watching = false;
                self.say(e);
            }
            Action::Note(m) => self.say(m),
            Action::Store { history, models } => {
                self.history = history;
                self.models = models;
            }
        }
        Vec::new()
    }

    /// The current view's area on the current screen.
    fn body_area(&self) -> ratatui::layout::Rect {
        let (w, h) = self.size;
        super::view::body(self, ratatui::layout::Rect::new(0, 0, w, h))
    }

    /// The Gantt chart's area, and the task table's when it is shown too.
    fn gantt_areas(&self) -> (ratatui::layout::Rect, Option<ratatui::layout::Rect>) {
        super::view::gantt_split(self, self.body_area())
    }

    fn chart_area(&self) -> ratatui::layout::Rect {
        self.gantt_areas().0
    }

    fn shown_lanes(&self) -> usize {
        super::gantt::Geometry::new(self, self.chart_area()).map_or(0, |g| g.shown)
    }

    /// Scrolls the lanes so that the selected task's worker is on screen.
    fn show_selected_lane(&mut self) {
        let Some(worker) = self
            .selected
            .and_then(|i| self.gantt.rows.get(i))
            .and_then(|r| r.worker())
        else {
            return;
        };
        let shown = self.shown_lanes().max(1);
        if worker < self.lane_offset {
            self.lane_offset = worker;
        } else if worker >= self.lane_offset + shown {
            self.lane_offset = worker + 1 - shown;
        }
    }

    fn click(&mut self, x: u16, y: u16) {
        if self.help {
            self.help = false;
            return;
        }
        let at = ratatui::layout::Position { x, y };
        let (chart, table) = match self.view {
            View::Gantt => self.gantt_areas(),
            View::Table => (ratatui::layout::Rect::ZERO, Some(self.body_area())),
            View::Models | View::History => return,
        };
        if chart.contains(at) {
            if let Some(i) = super::gantt::task_at(self, chart, x, y) {
                self.selected = Some(i);
            }
        } else if let Some(area) = table.filter(|t| t.contains(at)) {
            // Row 0 is the table's header.
            let row = (y - area.y) as usize;
            if let Some(i) = row.checked_sub(1) {
                let i = super::table::first_row(self, area) + i;
                if i < self.gantt.rows.len() {
                    self.selected = Some(i);
                    self.show_selected_lane();
                }
            }
        }
    }

    fn scroll(&mut self, x: u16, y: u16, up: bool, pan: bool) {
        let area = self.chart_area();
        if self.view != View::Gantt || !area.contains(ratatui::layout::Position { x, y }) {
            let a = if up {
                Action::SelectPrev
            } else {
                Action::SelectNext
            };
            self.update(a);
            return;
        }
        let label_w = format!("w{}", self.gantt.workers.max(1) - 1).len() as u16 + 1;
        if pan {
            self.update(if up {
                Action::PanLeft
            } else {
                Action::PanRight
            });
        } else if x < area.x + label_w {
            self.update(if up {
                Action::LanesUp
            } else {
                Action::LanesDown
            });
        } else {
            // Zoom about the time under the pointer, so it stays put.
            let (from, to) = self.window();
            let plot = f64::from(area.width.saturating_sub(label_w).max(1));
            let frac = (f64::from(x - area.x - label_w) + 0.5) / plot;
            let t = from + frac * (to - from);
            self.zoom = (self.zoom * if up { 2.0 } else { 0.5 }).clamp(1.0, 1e6);
            let width = self.horizon() / self.zoom;
            self.offset = (t - frac * width).max(0.0);
            let (from, _) = self.window();
            self.offset = from;
        }
    }

    fn scroll_help(&mut self, action: &Action) {
        let (w, h) = self.size;
        let most = super::help::max_offset(ratatui::layout::Rect::new(0, 0, w, h));
        let page = (h as usize).saturating_sub(3).max(1);
        self.help_offset = match action {
            Action::SelectNext => self.help_offset + 1,
            Action::SelectPrev => self.help_offset.saturating_sub(1),
            Action::LanesDown => self.help_offset + page,
            _ => self.help_offset.saturating_sub(page),
        }
        .min(most);
    }

    /// The middle of the selected task's bars (what it ran, else its
    /// plan), when one is selected.
    fn selected_centre(&self) -> Option<f64> {
        let r = self.gantt.rows.get(self.selected?)?;
        let bars = r.actual_bars();
        let spans: Vec<(f64, f64)> = if bars.is_empty() {
            r.predicted.iter().map(|s| (s.start, s.end)).collect()
        } else {
            bars.iter().map(|b| (b.start, b.end.max(b.start))).collect()
        };
        let start = spans.iter().map(|s| s.0).reduce(f64::min)?;
        let end = spans.iter().map(|s| s.1).reduce(f64::max)?;
        let centre = (start + end) / 2.0;
        centre.is_finite().then_some(centre)
    }

    /// Zooms about the selected task when there is one (it stays in
    /// view), else about the middle of the view.
    fn zoom_by(&mut self, factor: f64) {
        let (from, to) = self.window();
        let centre = self.selected_centre().unwrap_or((from + to) / 2.0);
        self.zoom = (self.zoom * factor).clamp(1.0, 1e6);
        let width = self.horizon() / self.zoom;
        self.offset = (centre - width / 2.0).max(0.0);
        let (from, _) = self.window();
        self.offset = from;
    }

    fn say(&mut self, message: String) {
        self.message = Some(message);
        self.run_note = false;
    }

    fn finish(&mut self, result: Result<RunReport, String>, failure: Option<String>) {
        if self.run_note {
            self.message = None;
            self.run_note = false;
        }
        match result {
            Ok(report) => {
                self.gantt.finish(&report);
                self.now = report.makespan.as_secs_f64();
                let (ran, reused) = report.ran_and_reused();
                if reused > 0 {
                    self.message = Some(format!(
                        "{ran} ran, {reused} cached (unchanged); r re-runs everything"
                    ));
                    self.run_note = true;
                }
                self.state = if report.cancelled {
                    RunState::Cancelled
                } else if report.failed() {
                    RunState::Failed
                } else {
                    RunState::Done
                };
                if self.state == RunState::Failed {
                    self.error = failure;
                    self.error_from = ErrorFrom::Run;
                }
            }
            Err(e) => {
                self.state = RunState::Failed;
                self.set_error(ErrorFrom::Run, e);
            }
        }
        self.history.push(HistoryRow {
            run: self.run,
            scheduler: self.gantt.scheduler.clone(),
            workers: self.gantt.workers,
            predicted: self.gantt.predicted_makespan,
            actual: self.gantt.actual_makespan,
            state: self.state.as_str().to_string(),
        });
    }
}
