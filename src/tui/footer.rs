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

/// Which keys go when the footer is narrow, first to last: quit and help
/// stay longest (the help names the rest).
const DROP_ORDER: [&str; 8] = ["w", "e", "p/P", "s", "Tab", "r", "?", "q"];

/// The keys that fit in `width` cells, whole, in their order.
fn shown_keys(width: u16) -> Vec<(&'static str, &'static str)> {
    let mut keys = KEYS.to_vec();
    let len = |ks: &[(&str, &str)]| -> usize {
        ks.iter()
            .map(|(k, w)| 2 + k.chars().count() + w.chars().count())
            .sum()
    };
    for gone in DROP_ORDER {
        if len(&keys) <= width as usize || keys.len() <= 1 {
            break;
        }
        keys.retain(|(k, _)| *k != gone);
    }
    keys
}

pub struct Footer<'a>(pub &'a App);

impl Widget for Footer<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut spans = Vec::new();
        for (k, what) in shown_keys(area.width) {
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
