//! The whole screen, a pure function of [`App`]: header, view tabs, the
//! current view, footer, and the help on top when asked for.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::app::{App, View};
use super::footer::Footer;
use super::gantt::GanttChart;
use super::header::Header;
use super::help::Help;
use super::history::History;
use super::models::Models;
use super::table::TaskTable;
use super::theme;

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
    parts(app, area)[2]
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let [header, tabs, body, footer] = parts(self, area);
        Header(self).render(header, buf);
        render_tabs(self, tabs, buf);
        match self.view {
            View::Gantt => GanttChart(self).render(body, buf),
            View::Table => TaskTable(self).render(body, buf),
            View::Models => Models(self).render(body, buf),
            View::History => History(self).render(body, buf),
        }
        Footer(self).render(footer, buf);
        if self.help {
            Help.render(area, buf);
        }
    }
}

fn render_tabs(app: &App, area: Rect, buf: &mut Buffer) {
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
