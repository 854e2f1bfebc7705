//! The Gantt chart widget: a legend, one lane per worker (a predicted line
//! `░` above an actual line `█` when there is room, both on one line when
//! not), the "now" line while running, and a time axis.
//!
//! Bars are not drawn one by one: each lane line is a row of cells, every
//! bar adds its coverage to the cells it overlaps, and a cell is drawn once
//! in the colour of the bar covering most of it (`▒` when several tasks
//! share it and none covers half). So thousands of tasks cost one pass over the bars plus one
//! over the cells.

use std::collections::HashMap;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::Widget;

use super::app::{App, RunState};
use super::theme;
use crate::report::gantt::{Gantt, Slot, Status};
use crate::report::{axis, units};

/// What one cell of a lane line holds.
#[derive(Clone, Copy, Default)]
struct Cell {
    /// Fraction of the cell covered, summed over bars.
    covered: f64,
    /// Bars touching the cell.
    bars: u32,
    /// The function of the bar covering most of the cell, and how much.
    function: usize,
    best: f64,
    selected: bool,
    /// How the bar covering most of the cell ended, when not well.
    mark: Mark,
    /// Some bar in the cell failed: a failure shows however little of
    /// the cell it covers, or a short failed step beside a long one would
    /// be drawn as done.
    failed: bool,
}

/// A bar that did not end well, drawn so that it shows.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Mark {
    #[default]
    None,
    Failed,
    Cancelled,
}

impl Mark {
    fn of(status: Status) -> Mark {
        match status {
            Status::Failed => Mark::Failed,
            Status::Cancelled => Mark::Cancelled,
            _ => Mark::None,
        }
    }
}

/// The cells of one lane line over the visible window.
struct Line {
    cells: Vec<Cell>,
    from: f64,
    cell: f64,
}

impl Line {
    fn new(width: usize, from: f64, to: f64) -> Line {
        Line {
            cells: vec![Cell::default(); width],
            from,
            cell: (to - from) / width.max(1) as f64,
        }
    }

    /// The cells `[c0, c1)` a span covers, clipped to the window.
    fn columns(&self, start: f64, end: f64) -> Option<(usize, usize)> {
        let n = self.cells.len();
        if n == 0 || self.cell.is_nan() || self.cell <= 0.0 || end < start {
            return None;
        }
        let a = ((start - self.from) / self.cell).floor();
        let b = ((end - self.from) / self.cell).ceil().max(a + 1.0);
        if b <= 0.0 || a >= n as f64 {
            return None;
        }
        Some((a.max(0.0) as usize, (b as usize).min(n)))
    }

    /// Adds a bar; returns the cells visited.
    fn add(&mut self, start: f64, end: f64, function: usize, selected: bool, mark: Mark) -> usize {
        let Some((c0, c1)) = self.columns(start, end) else {
            return 0;
        };
        for c in c0..c1 {
            let lo = self.from + c as f64 * self.cell;
            let overlap = (end.min(lo + self.cell) - start.max(lo)).max(0.0) / self.cell;
            // A zero-length bar still shows: it covers a sliver.
            let overlap = overlap.max(0.01);
            let cell = &mut self.cells[c];
            cell.covered += overlap;
            cell.bars += 1;
            cell.selected |= selected;
            cell.failed |= mark == Mark::Failed;
            if overlap > cell.best {
                cell.best = overlap;
                cell.function = function;
                cell.mark = mark;
            }
        }
        c1 - c0
    }
}

/// Where everything of the chart goes in an area; the same for drawing and
/// for finding what a mouse click hit.
pub struct Geometry {
    legend: u16,
    axis_rows: u16,
    label_w: u16,
    plot_w: u16,
    /// Screen rows per lane, 1 to 4: one row holds both bars; two put the
    /// plan above the run; three give the run two rows; four add a gap.
    per_lane: usize,
    /// The first worker shown (lanes scroll) and how many are shown.
    pub first: usize,
    pub shown: usize,
    top: u16,
    x0: u16,
    from: f64,
    to: f64,
}

impl Geometry {
    pub fn new(app: &App, area: Rect) -> Option<Geometry> {
        let workers = app.gantt.workers.max(1);
        if area.width < 4 || area.height == 0 || app.gantt.rows.is_empty() {
            return None;
        }
        let legend = u16::from(area.height >= 4);
        let axis_rows = u16::from(area.height >= 2);
        let lane_rows = (area.height - legend - axis_rows) as usize;
        let label_w = format!("w{}", workers - 1).len() as u16 + 1;
        if area.width <= label_w + 1 {
            return None;
        }
        let per_lane = (lane_rows / workers).clamp(1, 4);
        let shown = workers.min(lane_rows / per_lane);
        let first = app.lane_offset.min(workers - shown);
        let (from, to) = app.window();
        Some(Geometry {
            legend,
            axis_rows,
            label_w,
            plot_w: area.width - label_w,
            per_lane,
            first,
            shown,
            top: area.y + legend,
            x0: area.x + label_w,
            from,
            to,
        })
    }

    fn per_lane(&self) -> usize {
        self.per_lane
    }

    fn two_lines(&self) -> bool {
        self.per_lane >= 2
    }

    /// Rows of a lane the actual bars take, from its first actual row.
    fn actual_rows(&self) -> usize {
        match self.per_lane {
            1 | 2 => 1,
            _ => 2,
        }
    }

    /// The shown lane a worker is drawn in.
    fn lane(&self, worker: usize) -> Option<usize> {
        worker.checked_sub(self.first).filter(|&l| l < self.shown)
    }

    /// The line (screen row) of a lane's actual bars.
    fn actual_y(&self, lane: usize) -> u16 {
        self.top + (lane * self.per_lane() + usize::from(self.two_lines())) as u16
    }

    fn line(&self) -> Line {
        Line::new(self.plot_w as usize, self.from, self.to)
    }
}

/// Where a bar of a row ends on screen: a running task grows to "now".
fn bar_end(app: &App, status: Status, chunk: bool, start: f64, end: f64) -> f64 {
    if status == Status::Running && !chunk {
        app.now.max(start)
    } else {
        end
    }
}

/// Every shown lane's predicted and actual lines, bars summed into cells.
/// The work is one visit per cell a bar covers: a bar narrower than a cell
/// costs one visit, so thousands of tasks cost no more than their number
/// plus the cells on screen.
pub struct Lanes {
    predicted: Vec<Line>,
    actual: Vec<Line>,
    /// Cell visits made while adding bars.
    pub visits: usize,
}

impl Lanes {
    pub fn new(app: &App, geo: &Geometry) -> Lanes {
        let functions = function_index(app);
        let mut predicted: Vec<Line> = (0..geo.shown).map(|_| geo.line()).collect();
        let mut actual: Vec<Line> = (0..geo.shown).map(|_| geo.line()).collect();
        let mut visits = 0;
        for (i, r) in app.gantt.rows.iter().enumerate() {
            let f = functions.get(r.function.as_str()).copied().unwrap_or(0);
            let sel = app.selected == Some(i);
            for s in &r.predicted {
                if let Some(l) = geo.lane(s.worker) {
                    visits += predicted[l].add(s.start, s.end, f, sel, Mark::None);
                }
            }
            let status = r.status();
            for b in r.actual_bars() {
                if let Some(l) = geo.lane(b.worker) {
                    let end = bar_end(app, status, b.iterations.is_some(), b.start, b.end);
                    visits += actual[l].add(b.start, end, f, sel, Mark::of(status));
                }
            }
        }
        for (i, b) in in_flight(app) {
            if let Some(l) = geo.lane(b.worker) {
                let r = &app.gantt.rows[i];
                let f = functions.get(r.function.as_str()).copied().unwrap_or(0);
                let sel = app.selected == Some(i);
                visits += actual[l].add(b.start, b.end, f, sel, Mark::None);
            }
        }
        Lanes {
            predicted,
            actual,
            visits,
        }
    }

    /// Cells drawn per lane line.
    pub fn width(&self) -> usize {
        self.actual.first().map_or(0, |l| l.cells.len())
    }
}

/// The blocks of running loops that are running now but not reported yet:
/// the executor reports a block when it ends, so without this a worker busy
/// with a long block would look idle. A planned block is taken as running
/// on its worker when that worker runs nothing else, from the later of the
/// loop's start and the end of the worker's last bar, to now.
fn in_flight(app: &App) -> Vec<(usize, Slot)> {
    if app.state != RunState::Running {
        return Vec::new();
    }
    let workers = app.gantt.workers.max(1);
    let mut busy = vec![false; workers];
    let mut free = vec![0.0f64; workers];
    for r in &app.gantt.rows {
        let running = r.status() == Status::Running;
        for b in r.actual_bars().iter().filter(|b| b.worker < workers) {
            if running && b.iterations.is_none() {
                busy[b.worker] = true;
            } else {
                free[b.worker] = free[b.worker].max(b.end);
            }
        }
    }
    let mut out = Vec::new();
    for (i, r) in app.gantt.rows.iter().enumerate() {
        let Some(a) = r.actual.as_ref().filter(|a| a.status == Status::Running) else {
            continue;
        };
        let done: Vec<_> = a.chunks.iter().map(|c| c.iterations).collect();
        for s in &r.predicted {
            let w = s.worker;
            if s.iterations.is_none() || done.contains(&s.iterations) || w >= workers || busy[w] {
                continue;
            }
            // One block at a time on a worker.
            busy[w] = true;
            let start = a.start.max(free[w]);
            if start < app.now {
                out.push((
                    i,
                    Slot {
                        worker: w,
                        start,
                        end: app.now,
                        iterations: s.iterations,
                    },
                ));
            }
        }
    }
    out
}

fn function_index(app: &App) -> HashMap<&str, usize> {
    app.gantt
        .functions()
        .into_iter()
        .enumerate()
        .map(|(i, f)| (f, i))
        .collect()
}

/// The task under screen cell `(x, y)` of a chart drawn in `area`: the bar
/// in that lane closest to the time under the cell, within one cell.
pub fn task_at(app: &App, area: Rect, x: u16, y: u16) -> Option<usize> {
    let geo = Geometry::new(app, area)?;
    if x < geo.x0 || x >= geo.x0 + geo.plot_w || y < geo.top {
        return None;
    }
    let row = (y - geo.top) as usize;
    let lane = row / geo.per_lane();
    if lane >= geo.shown {
        return None;
    }
    let worker = geo.first + lane;
    let in_lane = row % geo.per_lane();
    if geo.two_lines() && in_lane > geo.actual_rows() {
        return None; // the gap between lanes
    }
    let predicted_line = geo.two_lines() && in_lane == 0;
    let cell = (geo.to - geo.from) / f64::from(geo.plot_w);
    let t = geo.from + (f64::from(x - geo.x0) + 0.5) * cell;
    let distance = |start: f64, end: f64| {
        if t < start {
            start - t
        } else if t > end {
            t - end
        } else {
            0.0
        }
    };
    let mut best: Option<(f64, usize)> = None;
    for (i, r) in app.gantt.rows.iter().enumerate() {
        let spans: Vec<(f64, f64)> = if predicted_line {
            r.predicted
                .iter()
                .filter(|s| s.worker == worker)
                .map(|s| (s.start, s.end))
                .collect()
        } else {
            let status = r.status();
            r.actual_bars()
                .into_iter()
                .filter(|b| b.worker == worker)
                .map(|b| {
                    let chunk = b.iterations.is_some();
                    (b.start, bar_end(app, status, chunk, b.start, b.end))
                })
                .collect()
        };
        for (start, end) in spans {
            let d = distance(start, end);
            if d <= cell && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, i));
            }
        }
    }
    best.map(|(_, i)| i)
}

pub struct GanttChart<'a>(pub &'a App);

impl Widget for GanttChart<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        let g = &app.gantt;
        if area.width < 4 || area.height == 0 {
            return;
        }
        if g.rows.is_empty() {
            let text = if app.state == RunState::Planning {
                "planning…"
            } else {
                "no tasks"
            };
            buf.set_stringn(area.x, area.y, text, area.width as usize, theme::DIM);
            return;
        }
        let Some(geo) = Geometry::new(app, area) else {
            return;
        };
        let workers = g.workers.max(1);
        let lanes = Lanes::new(app, &geo);

        if geo.legend == 1 {
            // Lanes that do not fit are said, not silently dropped.
            let hidden = (geo.shown < workers).then(|| {
                format!(
                    "w{}–w{} of {workers} (PgUp/PgDn) ",
                    geo.first,
                    geo.first + geo.shown.max(1) - 1
                )
            });
            render_legend(area.x, area.y, area.width, hidden.as_deref(), g, buf);
        }
        for l in 0..geo.shown {
            let y = geo.top + (l * geo.per_lane()) as u16;
            let name = format!("w{}", geo.first + l);
            buf.set_stringn(area.x, y, name, geo.label_w as usize, theme::DIM);
            draw_line(&lanes.predicted[l], geo.x0, y, '░', buf);
            for r in 0..geo.actual_rows() {
                let y = geo.actual_y(l) + r as u16;
                draw_line(&lanes.actual[l], geo.x0, y, '█', buf);
            }
        }
        draw_names(app, &geo, &lanes, buf);
        // The selected task's numbers, on a spare line above the axis.
        let used = geo.top + (geo.shown * geo.per_lane()) as u16;
        let spare = area.y + area.height - geo.axis_rows;
        if let Some(r) = app
            .selected
            .and_then(|i| g.rows.get(i))
            .filter(|_| spare > used)
        {
            let opt = |x: Option<f64>| x.map_or_else(|| "-".to_string(), units::seconds);
            let mut text = format!(
                "▶ {} ({}) predicted {} actual {} {}",
                r.name,
                r.function,
                opt(r.predicted_seconds()),
                opt(r.actual_seconds()),
                r.status().as_str()
            );
            if let Some(e) = r.error_percent() {
                text.push_str(&format!(" {}", units::error(e / 100.0)));
            }
            if g.measuring.contains(&r.name) {
                text.push_str(" · on one worker this run, to measure its speedup");
            }
            if let Some(m) = r.actual.as_ref().and_then(|a| a.message.as_deref()) {
                text.push_str(&format!(": {m}"));
            }
            if let Some(w) = r.warnings().first() {
                let w = crate::printable::printable(w);
                text.push_str(&format!(" ! warning: {w}"));
                if r.warnings().len() > 1 {
                    text.push_str(&format!(" (+{} more)", r.warnings().len() - 1));
                }
            }
            buf.set_stringn(area.x, spare - 1, text, area.width as usize, theme::TITLE);
        }
        let rows = geo.shown * geo.per_lane();
        // Each re-plan: a dotted line where the cells are empty.
        for &t in &g.replans {
            draw_vline(
                t,
                '┆',
                theme::REPLAN,
                false,
                &lanes.actual,
                geo.x0,
                geo.top,
                rows,
                buf,
            );
        }
        if app.state == RunState::Running {
            draw_vline(
                app.now,
                '│',
                theme::NOW,
                true,
                &lanes.actual,
                geo.x0,
                geo.top,
                rows,
                buf,
            );
        }
        if geo.axis_rows == 1 {
            render_axis(
                geo.x0,
                area.y + area.height - 1,
                geo.plot_w,
                geo.from,
                geo.to,
                buf,
            );
        }
    }
}

/// Names over actual bars wide enough to hold them (a loop's blocks too).
fn draw_names(app: &App, geo: &Geometry, lanes: &Lanes, buf: &mut Buffer) {
    let functions = function_index(app);
    for (i, r) in app.gantt.rows.iter().enumerate() {
        let f = functions.get(r.function.as_str()).copied().unwrap_or(0);
        // Dark text on the bar's own colour (white when selected).
        let status = r.status();
        let (ink, bar) = if app.selected == Some(i) {
            (Color::Black, theme::HIGHLIGHT)
        } else if status == Status::Failed {
            (Color::Black, theme::FAILED)
        } else {
            (theme::text_on(f), theme::function(f))
        };
        let style = Style::new().fg(ink).bg(bar);
        for b in r.actual_bars() {
            let Some(l) = geo.lane(b.worker) else {
                continue;
            };
            let line = &lanes.actual[l];
            let end = bar_end(app, status, b.iterations.is_some(), b.start, b.end);
            let Some((c0, c1)) = line.columns(b.start, end) else {
                continue;
            };
            let (room, len) = (c1 - c0, r.name.chars().count());
            // The cells under the text hold this bar alone (its ends may
            // share a cell with a neighbour).
            if room >= len + 2 && line.cells[c0 + 1..=c0 + len].iter().all(|c| c.bars == 1) {
                let x = geo.x0 + c0 as u16 + 1;
                buf.set_stringn(x, geo.actual_y(l), &r.name, room - 1, style);
            }
        }
    }
}

fn draw_line(line: &Line, x0: u16, y: u16, full: char, buf: &mut Buffer) {
    for (i, c) in line.cells.iter().enumerate() {
        if c.bars == 0 {
            continue;
        }
        let actual = full == '█';
        let symbol = if actual && (c.mark == Mark::Failed || c.failed) {
            '╳'
        } else if actual && c.mark == Mark::Cancelled {
            '╌'
        } else if c.bars > 1 && c.best < 0.5 && actual {
            '▒'
        } else if actual && c.covered < 0.5 {
            '▌'
        } else {
            full
        };
        // The selected task stands out in white; a full block is painted
        // in its colour on its colour, so no seams show between rows.
        let colour = if c.selected {
            theme::HIGHLIGHT
        } else {
            theme::function(c.function)
        };
        let mut style = Style::new().fg(colour);
        if symbol == '█' {
            style = style.bg(colour);
        } else if symbol == '╳' {
            style = style.bg(theme::FAILED);
        }
        if let Some(cell) = buf.cell_mut((x0 + i as u16, y)) {
            cell.set_char(symbol).set_style(style);
        }
    }
}

/// A vertical line at time `t` over the lanes: `symbol` in empty cells;
/// with `over_bars` the bars it crosses tinted too (the "now" line),
/// without it through the predicted outlines but not the actual bars.
#[allow(clippy::too_many_arguments)]
fn draw_vline(
    t: f64,
    symbol: char,
    colour: Color,
    over_bars: bool,
    lines: &[Line],
    x0: u16,
    top: u16,
    rows: usize,
    buf: &mut Buffer,
) {
    let Some(line) = lines.first() else { return };
    if line.cell.is_nan() || line.cell <= 0.0 || t < line.from {
        return;
    }
    let col = ((t - line.from) / line.cell).floor() as usize;
    if col >= line.cells.len() {
        return;
    }
    for r in 0..rows {
        if let Some(cell) = buf.cell_mut((x0 + col as u16, top + r as u16)) {
            if cell.symbol() == " " || (!over_bars && cell.symbol() == "░") {
                cell.set_char(symbol).set_fg(colour);
            } else if over_bars {
                cell.set_bg(colour);
            }
        }
    }
}

fn render_legend(x: u16, y: u16, width: u16, note: Option<&str>, g: &Gantt, buf: &mut Buffer) {
    let functions = g.functions();
    let replanned = !g.replans.is_empty();
    let marks = (
        g.rows.iter().any(|r| r.status() == Status::Failed),
        g.rows.iter().any(|r| r.status() == Status::Cancelled),
    );
    let end = x + width;
    let mut cx = x;
    let mut put = |text: &str, style: Style, cx: &mut u16| {
        if *cx >= end {
            return;
        }
        let (nx, _) = buf.set_stringn(*cx, y, text, (end - *cx) as usize, style);
        *cx = nx;
    };
    if let Some(n) = note {
        put(n, theme::ERROR, &mut cx);
    }
    put("░ predicted ", theme::DIM, &mut cx);
    put("█ actual ", theme::DIM, &mut cx);
    if marks.0 {
        put("╳ failed ", Style::new().fg(theme::FAILED), &mut cx);
    }
    if marks.1 {
        put("╌ cancelled ", theme::DIM, &mut cx);
    }
    if replanned {
        put("┆ re-planned ", Style::new().fg(theme::REPLAN), &mut cx);
    }
    for (i, f) in functions.iter().enumerate() {
        // Whole entries only; what does not fit is counted, not cut
        // mid-name (the Tasks view names every task's function).
        let rest = functions.len() - i;
        let room = end.saturating_sub(cx) as usize;
        let entry = 3 + f.chars().count();
        let more = format!(" +{} more", rest - 1);
        let fits = if rest == 1 {
            entry <= room
        } else {
            entry + more.chars().count() <= room
        };
        if !fits {
            // The count whole or not at all: cut, `+13 m` says nothing.
            let count = format!(" +{rest} more");
            if count.chars().count() <= room {
                put(&count, theme::DIM, &mut cx);
            }
            return;
        }
        put(" ■", Style::new().fg(theme::function(i)), &mut cx);
        put(&format!(" {f}"), Style::new(), &mut cx);
    }
}

fn render_axis(x: u16, y: u16, width: u16, from: f64, to: f64, buf: &mut Buffer) {
    let span = to - from;
    let step = axis::tick_step(span, (width / 10).max(1) as usize);
    let mut free_from = x;
    for t in axis::ticks(from, to, step) {
        let col = x
            + (((t - from) / span) * f64::from(width))
                .floor()
                .min(f64::from(width - 1)) as u16;
        if col < free_from {
            continue;
        }
        let text = format!("╵{}", axis::label(t, step));
        let room = (x + width).saturating_sub(col) as usize;
        if text.chars().count() > room {
            break;
        }
        let (nx, _) = buf.set_stringn(col, y, text, room, theme::AXIS);
        free_from = nx + 1;
    }
}
