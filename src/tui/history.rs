//! The history view: every run of this session (and any the caller loaded),
//! newest first, with predicted and actual makespans.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Paragraph, Row, Table, Widget};

use super::app::App;
use super::theme;
use crate::report::units::seconds;

pub struct History<'a>(pub &'a App);

impl Widget for History<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        if app.history.is_empty() {
            Paragraph::new(" no finished runs yet")
                .style(theme::DIM)
                .render(area, buf);
            return;
        }
        let rows = app.history.iter().rev().map(|h| {
            let error = h.actual.filter(|_| h.predicted > 0.0).map_or_else(
                || "-".into(),
                |a| crate::report::units::error((a - h.predicted) / h.predicted),
            );
            Row::new(vec![
                format!("#{}", h.run),
                h.scheduler.clone(),
                h.workers.to_string(),
                seconds(h.predicted),
                h.actual.map_or_else(|| "-".into(), seconds),
                error,
                h.state.clone(),
            ])
        });
        let widths = [
            Constraint::Length(5),
            Constraint::Length(9),
            Constraint::Length(3),
            Constraint::Length(10),
            Constraint::Length(10),
            Constraint::Length(7),
            Constraint::Fill(1),
        ];
        Table::new(rows, widths)
            .header(
                Row::new([
                    "run",
                    "scheduler",
                    "p",
                    "predicted",
                    "actual",
                    "error",
                    "state",
                ])
                .style(theme::TITLE),
            )
            .render(area, buf);
    }
}
