//! The model view: per function, how many observations its cost model has
//! and how far off its predictions were. The rows come from the caller (the
//! cost engine); with none, a note says why the view is empty.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Paragraph, Row, Table, Widget};

use super::app::App;
use super::theme;

pub struct Models<'a>(pub &'a App);

impl Widget for Models<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        if app.models.is_empty() {
            Paragraph::new(" no cost models yet: they learn from finished runs")
                .style(theme::DIM)
                .render(area, buf);
            return;
        }
        let rows = app.models.iter().map(|m| {
            Row::new(vec![
                m.function.clone(),
                m.observations.to_string(),
                m.mean_error_percent
                    .map_or_else(|| "-".into(), |e| format!("{e:.1}%")),
                m.model.clone(),
            ])
        });
        let widths = [
            Constraint::Fill(2),
            Constraint::Length(12),
            Constraint::Length(10),
            Constraint::Fill(1),
        ];
        Table::new(rows, widths)
            .header(Row::new(["function", "observations", "error", "model"]).style(theme::TITLE))
            .render(area, buf);
    }
}
