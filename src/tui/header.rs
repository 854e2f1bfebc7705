//! The header: which workflow, how it is planned, and how the run goes.
//!
//! On a narrow terminal whole fields are dropped, least useful first,
//! instead of cutting the line mid-number ("ETA 200" for "ETA 200ms").

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::{App, RunState};
use super::theme;
use crate::printable::printable;
use crate::report::units::seconds;

pub struct Header<'a>(pub &'a App);

/// One field of a header line; fields with a higher `drop` go first.
struct Field {
    text: String,
    style: Style,
    drop: u8,
}

fn field(text: String, style: Style, drop: u8) -> Field {
    Field { text, style, drop }
}

/// The fields that fit in `width` cells, in their order: a space before
/// the first, `sep` between; the first field is cut with `…` when it alone
/// does not fit.
fn fit(mut fields: Vec<Field>, sep: &str, width: usize) -> Line<'static> {
    let len = |fs: &[Field]| -> usize {
        fs.iter()
            .map(|f| sep.chars().count() + f.text.chars().count())
            .sum::<usize>()
            + 1
            - sep.chars().count().min(1)
    };
    while fields.len() > 1 && len(&fields) > width {
        let worst = fields
            .iter()
            .enumerate()
            .max_by_key(|(i, f)| (f.drop, *i))
            .map_or(0, |(i, _)| i);
        fields.remove(worst);
    }
    if let Some(f) = fields.first_mut() {
        let room = width.saturating_sub(1);
        if f.text.chars().count() > room {
            let cut: String = f.text.chars().take(room.saturating_sub(1)).collect();
            f.text = format!("{cut}…");
        }
    }
    let mut spans = Vec::new();
    for (i, f) in fields.into_iter().enumerate() {
        spans.push(Span::raw(if i == 0 { " " } else { sep }.to_string()));
        spans.push(Span::styled(f.text, f.style));
    }
    Line::from(spans)
}

impl Widget for Header<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        let width = area.width as usize;
        let finished = matches!(
            app.state,
            RunState::Done | RunState::Failed | RunState::Cancelled | RunState::Invalid
        );
        let mut first = vec![
            field(printable(&app.workflow).into_owned(), theme::TITLE, 0),
            field(app.scheduler.name().to_string(), theme::KEY, 3),
            field(format!("p={}", app.workers), Style::new(), 4),
        ];
        // A file that never loaded has no run to name, nor a plan to
        // predict by.
        let ran = app.state != RunState::Invalid;
        if ran {
            // The history's id once recorded: the one `export --run` takes.
            first.push(field(
                match app.stored {
                    Some(id) => format!("run {} (#{id})", app.run),
                    None => format!("run {}", app.run),
                },
                Style::new(),
                5,
            ));
        }
        first.push(field(
            app.state.as_str().to_string(),
            theme::state(app.state),
            1,
        ));
        if app.watching {
            let style = if finished {
                theme::state(app.state)
            } else {
                theme::DIM
            };
            first.push(field("· watching".into(), style, 6));
        }
        let mut second = Vec::new();
        // Nothing is predicted before the first plan: not `predicted 0s`.
        if ran && !app.gantt.rows.is_empty() {
            second.push(field(
                format!("predicted {}", seconds(app.gantt.predicted_makespan)),
                Style::new(),
                3,
            ));
        }
        match (app.gantt.actual_makespan, app.state) {
            (_, RunState::Running) => second.push(field(
                format!("elapsed {}", seconds(app.now)),
                Style::new(),
                2,
            )),
            (Some(a), _) => second.push(field(format!("actual {}", seconds(a)), Style::new(), 2)),
            (None, _) => {}
        }
        if let Some(eta) = app.eta() {
            second.push(field(format!("ETA {eta}"), Style::new(), 1));
        }
        let mut lines = vec![fit(first, " ", width), fit(second, "  ", width)];
        if let Some(e) = &app.error {
            lines.push(Line::styled(
                format!(" {}", printable(&one_line(e))),
                theme::ERROR,
            ));
        }
        Paragraph::new(lines).render(area, buf);
    }
}

/// A diagnostic on one line, where it is first: `file:line:col (step `s`):
/// message`; any other error's first line.
pub fn one_line(e: &str) -> String {
    let first = e.lines().next().unwrap_or_default();
    let message = first.strip_prefix("error: ").unwrap_or(first);
    match e.lines().find_map(|l| l.trim_start().strip_prefix("--> ")) {
        Some(location) => format!("{location}: {message}"),
        None => first.to_string(),
    }
}
