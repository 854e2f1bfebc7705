//! The history view: every run of this session (and any the caller loaded),
//! newest first, with predicted and actual makespans.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Paragraph, Row, Table, Widget};

use super::app::App;
use super::columns::{self, column, pick, Column};
use super::theme;
use crate::report::units::seconds;

/// A narrow view keeps which run, how it ended and its actual time.
const COLUMNS: [Column; 7] = [
    column("run", Constraint::Length(5), 5, 0),
    column("scheduler", Constraint::Length(9), 9, 3),
    // Room for any p a run may have (at most 4096): `1000` must not read `100`.
    column("p", Constraint::Length(4), 4, 4),
    column("predicted", Constraint::Length(10), 9, 5),
    column("actual", Constraint::Length(10), 9, 2),
    column("error", Constraint::Length(7), 7, 6),
    column("state", Constraint::Fill(1), 9, 1),
];

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
        let shown = columns::fit(&COLUMNS, area.width, 1);
        let rows = app.history.iter().rev().map(|h| {
            // A failed or cancelled run stopped short of the plan: its
            // makespan measures no prediction.
            let error = h
                .actual
                .filter(|_| h.predicted > 0.0 && h.state == "done")
                .map_or_else(
                    || "-".into(),
                    |a| crate::report::units::error((a - h.predicted) / h.predicted),
                );
            let cells = [
                format!("#{}", h.run),
                h.scheduler.clone(),
                h.workers.to_string(),
                seconds(h.predicted),
                h.actual.map_or_else(|| "-".into(), seconds),
                error,
                h.state.clone(),
            ];
            Row::new(pick(&cells, &shown))
        });
        let widths: Vec<Constraint> = shown.iter().map(|&c| COLUMNS[c].width).collect();
        Table::new(rows, widths)
            .header(Row::new(pick(&COLUMNS.map(|c| c.title), &shown)).style(theme::TITLE))
            .render(area, buf);
    }
}
