//! The model view: per function, how many observations its cost model has
//! and how far off its predictions were, with a sparkline of its error in
//! each of the recent runs that used it (a bar per run). The rows come from the history store; with none, a note
//! says why the view is empty.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Widget};

use super::app::App;
use super::columns::{self, column, pick};
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
        // The sparkline takes what the numbers leave, up to 30 runs' worth,
        // and no more than the runs there are (its title's width at least):
        // empty cells there cut the models' names (`eigen<crosspro`).
        let runs = app.models.iter().map(|m| m.errors.len()).max().unwrap_or(0);
        let spark_w = (area.width as usize)
            .saturating_sub(14 + 9 + 12 + 10 + 8)
            .min(30)
            .min(runs.max("error per run".len()));
        let cols = [
            column("model", Constraint::Fill(1), 10, 0),
            column("kind", Constraint::Length(9), 9, 4),
            column("observations", Constraint::Length(12), 12, 3),
            column("last error", Constraint::Length(10), 10, 1),
            column(
                "error per run",
                Constraint::Length(spark_w as u16),
                spark_w as u16,
                2,
            ),
        ];
        let shown = columns::fit(&cols, area.width, 2);
        let rows = app.models.iter().map(|m| {
            let cells = [
                Cell::from(m.function.clone()),
                Cell::from(m.model.clone()),
                Cell::from(format!("{:>12}", m.observations)),
                Cell::from(format!(
                    "{:>10}",
                    m.errors
                        .last()
                        .map_or_else(|| "-".into(), |e| crate::report::units::error(*e))
                )),
                Cell::from(sparkline(&m.errors, spark_w)).style(theme::KEY),
            ];
            Row::new(pick(&cells, &shown))
        });
        let widths: Vec<Constraint> = shown.iter().map(|&c| cols[c].width).collect();
        let header = Row::new(pick(&cols.map(|c| c.title), &shown)).style(theme::TITLE);
        Table::new(rows, widths)
            .header(header)
            .column_spacing(2)
            .render(area, buf);
    }
}

/// The last `width` absolute errors as bars, 0 % to 100 % (and beyond).
pub fn sparkline(errors: &[f64], width: usize) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let skip = errors.len().saturating_sub(width);
    errors[skip..]
        .iter()
        .map(|e| {
            let level = if e.is_finite() { e.abs().min(1.0) } else { 1.0 };
            BARS[((level * 7.0).round() as usize).min(7)]
        })
        .collect()
}
