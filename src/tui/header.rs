//! The header: which workflow, how it is planned, and how the run goes.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::{App, RunState};
use super::theme;
use crate::printable::printable;
use crate::report::units::seconds;

pub struct Header<'a>(pub &'a App);

impl Widget for Header<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        let state = if app.watching
            && matches!(
                app.state,
                RunState::Done | RunState::Failed | RunState::Cancelled
            ) {
            format!("{} · watching", app.state.as_str())
        } else {
            app.state.as_str().to_string()
        };
        let mut first = vec![
            Span::styled(format!(" {} ", printable(&app.workflow)), theme::TITLE),
            Span::styled(format!("{} ", app.scheduler.name()), theme::KEY),
            Span::raw(format!("p={} ", app.workers)),
            // The history's id once recorded: the one `export --run` takes.
            Span::raw(match app.stored {
                Some(id) => format!("run {} (#{id}) ", app.run),
                None => format!("run {} ", app.run),
            }),
            Span::styled(state, theme::state(app.state)),
        ];
        if app.watching && app.state == RunState::Running {
            first.push(Span::styled(" · watching", theme::DIM));
        }
        let mut second = vec![Span::raw(format!(
            " predicted {}",
            seconds(app.gantt.predicted_makespan)
        ))];
        match (app.gantt.actual_makespan, app.state) {
            (_, RunState::Running) => {
                second.push(Span::raw(format!("  elapsed {}", seconds(app.now))))
            }
            (Some(a), _) => second.push(Span::raw(format!("  actual {}", seconds(a)))),
            (None, _) => {}
        }
        if let Some(eta) = app.eta() {
            second.push(Span::raw(format!("  ETA {}", seconds(eta))));
        }
        let mut lines = vec![Line::from(first), Line::from(second)];
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
