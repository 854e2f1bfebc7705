//! The task table: one row per task with its plan, its run and the error;
//! the selected row is the task highlighted in the Gantt chart.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Cell, Row, StatefulWidget, Table, TableState};

use super::app::App;
use super::columns::{self, column, pick, Column};
use super::theme;
use crate::report::gantt::Row as Task;
use crate::report::units::{error, seconds};

/// The first task row shown in `area`: the table scrolls just enough to
/// show the selected row (row 0 of the area is the header).
pub fn first_row(app: &App, area: Rect) -> usize {
    let visible = (area.height as usize).saturating_sub(1).max(1);
    app.selected.map_or(0, |s| (s + 1).saturating_sub(visible))
}

pub struct TaskTable<'a>(pub &'a App);

impl ratatui::widgets::Widget for TaskTable<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        let opt = |x: Option<f64>| x.map_or_else(|| "-".to_string(), seconds);
        let functions = app.gantt.functions();
        let colour = |f: &str| {
            let i = functions.iter().position(|g| *g == f).unwrap_or(0);
            ratatui::style::Style::new().fg(theme::function(i))
        };
        let shown = columns::fit(&COLUMNS, area.width, 1);
        let widths: Vec<Constraint> = shown.iter().map(|&c| COLUMNS[c].width).collect();
        let laid = columns::laid_out(&widths, area.width, 1);
        // The step's and the function's names are cut to their columns
        // with `…`; the other columns' texts fit theirs.
        let room = |column: usize| {
            shown
                .iter()
                .position(|&c| c == column)
                .map_or(0, |i| laid[i])
        };
        let rows: Vec<Row> = app
            .gantt
            .rows
            .iter()
            .map(|r| {
                let status = r.status();
                let cells = [
                    Cell::from(columns::cut(&r.name, room(0))),
                    Cell::from(columns::cut(&r.function, room(1))).style(colour(&r.function)),
                    Cell::from(workers(r)),
                    Cell::from(opt(r.predicted_work_seconds())),
                    Cell::from(opt(r.work_seconds())),
                    Cell::from(work_error(r).map_or_else(|| "-".into(), error)),
                    Cell::from(status_text(r)).style(theme::status(status)),
                ];
                Row::new(pick(&cells, &shown))
            })
            .collect();
        let titles: Vec<String> = shown
            .iter()
            .zip(&laid)
            .map(|(&c, &w)| columns::cut(COLUMNS[c].title, w))
            .collect();
        let header = Row::new(titles).style(theme::TITLE);
        let table = Table::new(rows, widths)
            .header(header)
            .row_highlight_style(theme::ROW);
        let mut state = TableState::default()
            .with_selected(app.selected)
            .with_offset(first_row(app, area));
        StatefulWidget::render(table, area, buf, &mut state);
    }
}

/// The columns in screen order. What a narrow table keeps is what tells a
/// task apart and how it went: the step, its function and its status; the
/// numbers go first.
const COLUMNS: [Column; 7] = [
    column("step", Constraint::Fill(2), 6, 0),
    column("function", Constraint::Fill(2), 6, 1),
    column("workers", Constraint::Length(7), 7, 6),
    column("predicted", Constraint::Length(9), 9, 4),
    column("work", Constraint::Length(9), 9, 3),
    column("error", Constraint::Length(7), 7, 5),
    column("status", Constraint::Length(8), 8, 2),
];

/// `(work - predicted work) / predicted work`.
fn work_error(r: &Task) -> Option<f64> {
    let (p, a) = (r.predicted_work_seconds()?, r.work_seconds()?);
    (p > 0.0).then(|| (a - p) / p)
}

/// Where a task ran: a loop run in blocks lists every worker (`0,1`).
/// A list longer than the column keeps the workers that fit and counts
/// the rest (`249 +6`): cut by the table, `641,809` of seven workers
/// would read as two.
fn workers(r: &Task) -> String {
    let mut ws: Vec<usize> = r.actual_bars().iter().map(|b| b.worker).collect();
    ws.sort_unstable();
    ws.dedup();
    if ws.len() <= 1 {
        return r.worker().map_or_else(|| "-".into(), |w| w.to_string());
    }
    let all: Vec<String> = ws.iter().map(ToString::to_string).collect();
    let width = usize::from(COLUMNS[2].least);
    (1..=all.len())
        .rev()
        .map(|n| {
            let shown = all[..n].join(",");
            match all.len() - n {
                0 => shown,
                rest => format!("{shown} +{rest}"),
            }
        })
        .find(|s| s.chars().count() <= width)
        .unwrap_or_else(|| format!("{} +{}", all[0], all.len() - 1))
}

/// The status, marked `!` when the step raised warnings (their text is on
/// the selected task's line).
fn status_text(r: &Task) -> String {
    let status = r.status().as_str();
    if r.warnings().is_empty() {
        status.to_string()
    } else {
        format!("{status} !")
    }
}
