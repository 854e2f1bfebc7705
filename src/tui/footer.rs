//! The footer: the keys, or the last message (an export's paths, a change).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::App;
use super::theme;
use crate::printable::printable;

pub const KEYS: [(&str, &str); 8] = [
    ("r", "rerun"),
    ("s", "scheduler"),
    ("p/P", "workers"),
    ("e", "export"),
    ("w", "watch"),
    ("Tab", "view"),
    ("?", "help"),
    ("q", "quit"),
];

pub struct Footer<'a>(pub &'a App);

impl Widget for Footer<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut spans = Vec::new();
        for (k, what) in KEYS {
            spans.push(Span::styled(format!(" {k}"), theme::KEY));
            spans.push(Span::raw(format!(" {what}")));
        }
        let mut lines = vec![Line::from(spans)];
        if let Some(m) = &self.0.message {
            lines.insert(0, Line::styled(format!(" {}", printable(m)), theme::DIM));
        }
        // Keys stay on the last line; a message takes the line above when there is one.
        let skip = lines.len().saturating_sub(area.height as usize);
        Paragraph::new(lines.split_off(skip)).render(area, buf);
    }
}
