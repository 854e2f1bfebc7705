//! Every colour and style of the UI, in one place. Function colours are the
//! palette the exporters use too, so a function looks the same in the terminal and in
//! an exported SVG.

use ratatui::style::{Color, Modifier, Style};

use super::app::RunState;
use crate::report::palette;

pub fn function(index: usize) -> Color {
    let (r, g, b) = palette::colour(index);
    Color::Rgb(r, g, b)
}

/// Text that reads on function `index`'s colour.
pub fn text_on(index: usize) -> Color {
    let (r, g, b) = palette::text_on(index);
    Color::Rgb(r, g, b)
}

/// A failed task's bar.
pub const FAILED: Color = Color::Red;

pub const TITLE: Style = Style::new().add_modifier(Modifier::BOLD);
pub const DIM: Style = Style::new().fg(Color::DarkGray);
pub const KEY: Style = Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD);
/// The selected table row: a band that keeps each cell's colour.
pub const ROW: Style = Style::new()
    .bg(Color::DarkGray)
    .add_modifier(Modifier::BOLD);
pub const SELECTED: Style = Style::new().add_modifier(Modifier::REVERSED);
pub const NOW: Color = Color::Yellow;
/// Where the plan was re-planned during the run.
pub const REPLAN: Color = Color::LightMagenta;
/// The selected task's bars.
pub const HIGHLIGHT: Color = Color::White;
pub const ERROR: Style = Style::new().fg(Color::Red);
pub const AXIS: Style = Style::new().fg(Color::Gray);

pub fn state(s: RunState) -> Style {
    let c = match s {
        RunState::Planning => Color::Blue,
        RunState::Running => Color::Yellow,
        RunState::Done => Color::Green,
        RunState::Failed | RunState::Invalid => Color::Red,
        RunState::Cancelled => Color::Magenta,
    };
    Style::new().fg(c).add_modifier(Modifier::BOLD)
}

/// A task's status in the table.
pub fn status(s: crate::report::gantt::Status) -> Style {
    use crate::report::gantt::Status as S;
    match s {
        S::Pending => DIM,
        S::Running => Style::new().fg(Color::Yellow),
        S::Done => Style::new().fg(Color::Green),
        S::Failed => ERROR,
        S::Skipped => Style::new().fg(Color::Magenta),
        S::Cancelled => DIM,
        S::Cached => Style::new().fg(Color::Cyan),
    }
}
