//! The whole screen, a pure function of [`App`]: header, view tabs, the
//! current view, footer, and the help on top when asked for.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use super::app::{App, ErrorFrom, View};
use super::footer::Footer;
use super::gantt::GanttChart;
use super::header::Header;
use super::help::Help;
use super::history::History;
use super::models::Models;
use super::table::TaskTable;
use super::theme;
use crate::printable::printable;

/// The screen's parts: header, view tabs, the view, footer.
fn parts(app: &App, area: Rect) -> [Rect; 4] {
    let header_h = if app.error.is_some() { 3 } else { 2 };
    let footer_h = if app.message.is_some() { 2 } else { 1 };
    let layout = Layout::vertical([
        Constraint::Length(header_h),
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(footer_h),
    ]);
    area.layout(&layout)
}

/// Where the current view is drawn on a screen of `area`.
pub fn body(app: &App, area: Rect) -> Rect {
    let body = parts(app, area)[2];
    split_error(app, body).0
}

/// The rows the view keeps above an error box.
const VIEW_ROWS: u16 = 6;

/// A diagnostic of several lines (the source line and a caret) gets a box
/// at the bottom of the view when there is room to spare: the view's part
/// and the box's. Diagnostics longer than the room (several errors in the
/// file) get what there is, their first lines: the header's one line cuts
/// the first error's message at the screen's edge, and was all a user saw.
fn split_error(app: &App, body: Rect) -> (Rect, Option<Rect>) {
    let Some(e) = app.error.as_deref().filter(|e| e.lines().count() > 1) else {
        return (body, None);
    };
    let whole = (e.lines().count() as u16).saturating_add(2);
    let h = whole.min(body.height.saturating_sub(VIEW_ROWS));
    // A box shows at least a diagnostic's message and its location.
    if h < 4 || body.width < 20 {
        return (body, None);
    }
    let [rest, boxed] = body.layout(&Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(h),
    ]));
    (rest, Some(boxed))
}

/// The Gantt view's chart and, when the lanes leave room below them, the
/// task table under it (so the screen is not half empty with few workers).
pub fn gantt_split(app: &App, body: Rect) -> (Rect, Option<Rect>) {
    // Legend, four rows per lane, the selected task's line and the axis.
    let chart = 4 * app.gantt.workers.max(1) as u16 + 3;
    if app.gantt.rows.is_empty() || body.height < chart + MIN_TABLE {
        return (body, None);
    }
    let [top, gap, table] = body.layout(&Layout::vertical([
        Constraint::Length(chart),
        Constraint::Length(1),
        Constraint::Min(0),
    ]));
    let _ = gap;
    (top, Some(table))
}

/// The least room worth a table under the chart: header and five rows.
const MIN_TABLE: u16 = 7;

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let [header, tabs, body, footer] = parts(self, area);
        Header(self).render(header, buf);
        render_tabs(self, tabs, buf);
        let (body, error_box) = split_error(self, body);
        if let (Some(e), Some(area)) = (&self.error, error_box) {
            render_error(e, error_title(self), area, buf);
        }
        match self.view {
            View::Gantt => {
                let (chart, table) = gantt_split(self, body);
                GanttChart(self).render(chart, buf);
                if let Some(t) = table {
                    let rule = "─".repeat(t.width as usize);
                    buf.set_stringn(t.x, t.y - 1, rule, t.width as usize, theme::DIM);
                    TaskTable(self).render(t, buf);
                }
            }
            View::Table => TaskTable(self).render(body, buf),
            View::Models => Models(self).render(body, buf),
            View::History => History(self).render(body, buf),
        }
        Footer(self).render(footer, buf);
        if self.help {
            Help {
                offset: self.help_offset,
            }
            .render(area, buf);
        }
    }
}

fn render_tabs(app: &App, area: Rect, buf: &mut Buffer) {
    let full: usize = View::ALL.iter().map(|v| v.title().len() + 3).sum();
    if full > area.width as usize {
        // Too narrow for every tab: the current one, and where it is.
        let i = View::ALL.iter().position(|v| *v == app.view).unwrap_or(0);
        Line::from(vec![
            Span::raw(" "),
            Span::styled(format!(" {} ", app.view.title()), theme::SELECTED),
            Span::styled(format!(" {}/{}", i + 1, View::ALL.len()), theme::DIM),
        ])
        .render(area, buf);
        return;
    }
    let mut spans = Vec::new();
    for v in View::ALL {
        let style = if v == app.view {
            theme::SELECTED
        } else {
            theme::DIM
        };
        spans.push(Span::raw(" "));
        spans.push(Span::styled(format!(" {} ", v.title()), style));
    }
    Line::from(spans).render(area, buf);
}

/// What the error box is about, and so what the chart above it shows.
fn error_title(app: &App) -> &'static str {
    match app.error_from {
        ErrorFrom::Run => " the run failed ",
        ErrorFrom::Load if app.gantt.rows.is_empty() => " the workflow is invalid ",
        ErrorFrom::Load => " the workflow is invalid: showing the last good one ",
    }
}

/// Draws `error` in a red box; when the box is too short for it, its
/// last row says how much more there is.
fn render_error(error: &str, title: &str, area: Rect, buf: &mut Buffer) {
    let mut lines: Vec<Line> = error
        .lines()
        .map(|l| Line::styled(printable(l).into_owned(), theme::ERROR))
        .collect();
    let rows = area.height.saturating_sub(2) as usize;
    if lines.len() > rows && rows > 0 {
        lines.truncate(rows - 1);
        let more = error.lines().count() - lines.len();
        lines.push(Line::styled(format!("… {more} more lines"), theme::DIM));
    }
    Paragraph::new(lines)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme::ERROR)
                .title(title),
        )
        .render(area, buf);
}
