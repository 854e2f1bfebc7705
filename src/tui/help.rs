//! The help overlay: every key, centred over whatever is on screen. When
//! the screen is too short for it, it scrolls (↑/↓, PgUp/PgDn) and says
//! so in its frame; quitting comes first, so it is seen at any size.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};

use super::theme;

pub const HELP: [(&str, &str); 22] = [
    ("q / Ctrl-C", "quit"),
    ("? / Esc", "close this help (↑/↓ scroll it)"),
    ("r", "reload the workflow and re-run every step"),
    ("s", "next scheduler, and rerun"),
    ("p / P", "one worker fewer / more, and rerun"),
    ("e", "export the chart (SVG and Chrome trace)"),
    ("w", "watch the workflow on/off"),
    ("Tab / Shift-Tab", "next / previous view"),
    ("+ / -", "zoom in / out (about the selected task)"),
    ("0", "fit the whole run"),
    ("← / →  h / l", "pan by a tenth of the view"),
    ("↑ / ↓  k / j", "select task"),
    ("PgUp / PgDn", "scroll the lanes (more workers than rows)"),
    ("click", "select the bar or row under the mouse"),
    ("wheel", "zoom about the mouse; Shift-wheel pans"),
    ("wheel on w0…", "scroll the lanes"),
    ("Esc", "clear the selection"),
    ("", ""),
    ("░", "predicted bar"),
    ("█", "actual bar"),
    ("│", "now"),
    ("▒", "several tasks in one cell"),
];

/// The help scrolled down by `offset` lines.
pub struct Help {
    pub offset: usize,
}

/// Where the help box goes on a screen of `area`.
fn popup(area: Rect) -> Rect {
    let w = 66.min(area.width);
    let h = (lines(w).len() as u16 + 2).min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// The keys' column: 16 cells, less on a narrow screen so the words keep
/// room.
fn key_width(width: u16) -> usize {
    let inner = width.saturating_sub(2) as usize;
    16.min((inner / 3).max(4))
}

/// The help's lines in a box `width` wide, as (key, words): words that do
/// not fit beside their key wrap onto lines of their own, and a key wider
/// than its column has a line to itself, rather than anything being cut.
fn lines(width: u16) -> Vec<(String, String)> {
    let inner = width.saturating_sub(2) as usize;
    let key_w = key_width(width);
    let room = inner.saturating_sub(1 + key_w).max(1);
    let mut out = Vec::new();
    for (k, what) in HELP {
        let mut key = k.to_string();
        if k.chars().count() >= key_w {
            out.push((key, String::new()));
            key = String::new();
        }
        let mut line = String::new();
        for word in what.split(' ') {
            let len = line.chars().count();
            if len > 0 && len + 1 + word.chars().count() > room {
                out.push((std::mem::take(&mut key), std::mem::take(&mut line)));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        out.push((key, line));
    }
    out
}

/// The furthest the help scrolls on a screen of `area`.
pub fn max_offset(area: Rect) -> usize {
    let popup = popup(area);
    let rows = popup.height.saturating_sub(2) as usize;
    lines(popup.width).len().saturating_sub(rows)
}

impl Widget for Help {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let popup = popup(area);
        if popup.width == 0 || popup.height == 0 {
            return;
        }
        Clear.render(popup, buf);
        let all = lines(popup.width);
        let key_w = key_width(popup.width);
        let rows = popup.height.saturating_sub(2) as usize;
        let offset = self.offset.min(max_offset(area));
        let text: Vec<Line> = all
            .iter()
            .skip(offset)
            .take(rows.max(1))
            .map(|(k, what)| {
                Line::from(vec![
                    Span::styled(format!(" {k:<key_w$}"), theme::KEY),
                    Span::raw(what.clone()),
                ])
            })
            .collect();
        let title = if rows < all.len() {
            let last = (offset + rows).min(all.len());
            format!(" keys {}–{last} of {} ↑↓ ", offset + 1, all.len())
        } else {
            " keys ".to_string()
        };
        Paragraph::new(text)
            .block(Block::default().borders(Borders::ALL).title(title))
            .render(popup, buf);
    }
}
