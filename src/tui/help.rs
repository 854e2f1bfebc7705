//! The help overlay: every key, centred over whatever is on screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};

use super::theme;

pub const HELP: [(&str, &str); 21] = [
    ("r", "rerun (cancels a running run)"),
    ("s", "next scheduler, and rerun"),
    ("p / P", "one worker fewer / more, and rerun"),
    ("e", "export the chart (SVG and Chrome trace)"),
    ("w", "watch the workflow on/off"),
    ("Tab / Shift-Tab", "next / previous view"),
    ("+ / -", "zoom in / out"),
    ("← / →", "pan"),
    ("↑ / ↓  k / j", "select task"),
    ("PgUp / PgDn", "scroll the lanes (more workers than rows)"),
    ("click", "select the bar or row under the mouse"),
    ("wheel", "zoom about the mouse; Shift-wheel pans"),
    ("wheel on w0…", "scroll the lanes"),
    ("Esc", "close help / clear selection"),
    ("?", "this help"),
    ("q / Ctrl-C", "quit"),
    ("", ""),
    ("░", "predicted bar"),
    ("█", "actual bar"),
    ("│", "now"),
    ("▒", "several tasks in one cell"),
];

pub struct Help;

impl Widget for Help {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let w = 62.min(area.width);
        let h = (HELP.len() as u16 + 2).min(area.height);
        let popup = Rect {
            x: area.x + (area.width - w) / 2,
            y: area.y + (area.height - h) / 2,
            width: w,
            height: h,
        };
        Clear.render(popup, buf);
        let lines: Vec<Line> = HELP
            .iter()
            .map(|(k, what)| {
                Line::from(vec![
                    Span::styled(format!(" {k:<16}"), theme::KEY),
                    Span::raw(*what),
                ])
            })
            .collect();
        Paragraph::new(lines)
            .block(Block::default().borders(Borders::ALL).title(" keys "))
            .render(popup, buf);
    }
}
