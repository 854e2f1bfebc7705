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
use crate::export::{axis, Status};

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

    fn add(&mut self, start: f64, end: f64, function: usize, selected: bool) {
        let Some((c0, c1)) = self.columns(start, end) else {
            return;
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
            if overlap > cell.best {
                cell.best = overlap;
                cell.function = function;
            }
        }
    }
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
        let workers = g.workers.max(1);
        let legend = u16::from(area.height >= 4);
        let axis_rows = u16::from(area.height >= 2);
        let lane_rows = area.height - legend - axis_rows;
        let label_w = format!("w{}", workers - 1).len() as u16 + 1;
        if area.width <= label_w + 1 {
            return;
        }
        let plot_w = area.width - label_w;
        let two_lines = lane_rows as usize >= 2 * workers;
        let per_lane = if two_lines { 2 } else { 1 };
        let shown = workers.min(lane_rows as usize / per_lane);
        let (from, to) = app.window();
        let functions: HashMap<&str, usize> = g
            .functions()
            .into_iter()
            .enumerate()
            .map(|(i, f)| (f, i))
            .collect();

        let mut predicted: Vec<Line> = (0..shown)
            .map(|_| Line::new(plot_w as usize, from, to))
            .collect();
        let mut actual: Vec<Line> = (0..shown)
            .map(|_| Line::new(plot_w as usize, from, to))
            .collect();
        for (i, r) in g.rows.iter().enumerate() {
            let f = functions.get(r.function.as_str()).copied().unwrap_or(0);
            let sel = app.selected == Some(i);
            for s in &r.predicted {
                if let Some(line) = predicted.get_mut(s.worker) {
                    line.add(s.start, s.end, f, sel);
                }
            }
            if let Some(a) = &r.actual {
                let end = if a.status == Status::Running {
                    app.now.max(a.start)
                } else {
                    a.end
                };
                if let (Some(w), false) = (a.worker, a.status == Status::Skipped) {
                    if let Some(line) = actual.get_mut(w) {
                        line.add(a.start, end, f, sel);
                    }
                }
            }
        }

        if legend == 1 {
            // Lanes that do not fit are said, not silently dropped.
            let hidden = (shown < workers).then(|| format!("{shown}/{workers} lanes "));
            render_legend(
                area.x,
                area.y,
                area.width,
                hidden.as_deref(),
                &g.functions(),
                buf,
            );
        }
        let top = area.y + legend;
        for w in 0..shown {
            let y = top + (w * per_lane) as u16;
            buf.set_stringn(area.x, y, format!("w{w}"), label_w as usize, theme::DIM);
            let x0 = area.x + label_w;
            if two_lines {
                draw_line(&predicted[w], x0, y, '░', buf);
                draw_line(&actual[w], x0, y + 1, '█', buf);
            } else {
                draw_line(&predicted[w], x0, y, '░', buf);
                draw_line(&actual[w], x0, y, '█', buf);
            }
        }
        // Names over actual bars wide enough to hold them.
        let line_of = |w: usize| top + (w * per_lane + usize::from(two_lines)) as u16;
        for r in &g.rows {
            let Some(a) = &r.actual else { continue };
            let Some(w) = a.worker.filter(|&w| w < shown) else {
                continue;
            };
            let end = if a.status == Status::Running {
                app.now.max(a.start)
            } else {
                a.end
            };
            if let Some((c0, c1)) = actual[w].columns(a.start, end) {
                let (room, len) = (c1 - c0, r.name.chars().count());
                // The cells under the text hold this bar alone (its ends may
                // share a cell with a neighbour).
                if room >= len + 2
                    && actual[w].cells[c0 + 1..=c0 + len]
                        .iter()
                        .all(|c| c.bars == 1)
                {
                    let x = area.x + label_w + c0 as u16 + 1;
                    buf.set_stringn(
                        x,
                        line_of(w),
                        &r.name,
                        room - 1,
                        Style::new().fg(Color::Black),
                    );
                }
            }
        }
        // The selected task's numbers, on a spare line above the axis.
        let used = top + (shown * per_lane) as u16;
        let spare = area.y + area.height - axis_rows;
        if let Some(r) = app
            .selected
            .and_then(|i| g.rows.get(i))
            .filter(|_| spare > used)
        {
            let opt = |x: Option<f64>| x.map_or_else(|| "-".to_string(), axis::seconds);
            let mut text = format!(
                "▶ {} ({}) predicted {} actual {} {}",
                r.name,
                r.function,
                opt(r.predicted_seconds()),
                opt(r.actual_seconds()),
                r.status().as_str()
            );
            if let Some(e) = r.error_percent() {
                text.push_str(&format!(" {e:+.0}%"));
            }
            if let Some(m) = r.actual.as_ref().and_then(|a| a.message.as_deref()) {
                text.push_str(&format!(": {m}"));
            }
            buf.set_stringn(area.x, spare - 1, text, area.width as usize, theme::TITLE);
        }
        if app.state == RunState::Running {
            draw_now(
                app.now,
                &actual,
                area.x + label_w,
                top,
                shown * per_lane,
                buf,
            );
        }
        if axis_rows == 1 {
            render_axis(
                area.x + label_w,
                area.y + area.height - 1,
                plot_w,
                from,
                to,
                buf,
            );
        }
    }
}

fn draw_line(line: &Line, x0: u16, y: u16, full: char, buf: &mut Buffer) {
    for (i, c) in line.cells.iter().enumerate() {
        if c.bars == 0 {
            continue;
        }
        let symbol = if c.bars > 1 && c.best < 0.5 && full == '█' {
            '▒'
        } else if full == '█' && c.covered < 0.5 {
            '▌'
        } else {
            full
        };
        let mut style = Style::new().fg(theme::function(c.function));
        if c.selected {
            style = style.patch(theme::SELECTED);
        }
        if let Some(cell) = buf.cell_mut((x0 + i as u16, y)) {
            cell.set_char(symbol).set_style(style);
        }
    }
}

fn draw_now(now: f64, lines: &[Line], x0: u16, top: u16, rows: usize, buf: &mut Buffer) {
    let Some(line) = lines.first() else { return };
    if line.cell.is_nan() || line.cell <= 0.0 || now < line.from {
        return;
    }
    let col = ((now - line.from) / line.cell).floor() as usize;
    if col >= line.cells.len() {
        return;
    }
    for r in 0..rows {
        if let Some(cell) = buf.cell_mut((x0 + col as u16, top + r as u16)) {
            if cell.symbol() == " " {
                cell.set_char('│').set_fg(theme::NOW);
            } else {
                cell.set_bg(theme::NOW);
            }
        }
    }
}

fn render_legend(
    x: u16,
    y: u16,
    width: u16,
    note: Option<&str>,
    functions: &[&str],
    buf: &mut Buffer,
) {
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
    for (i, f) in functions.iter().enumerate() {
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
