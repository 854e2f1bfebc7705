//! Which columns of a table fit a terminal's width: on a narrow screen
//! whole columns go, least useful first, so the ones that say what a row is
//! keep their room instead of every column being squeezed to nothing.

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::Span;

/// One column of a table.
#[derive(Clone, Copy)]
pub struct Column {
    pub title: &'static str,
    pub width: Constraint,
    /// The least width it is worth showing at.
    pub least: u16,
    /// Columns with a higher `drop` go first when the table is narrow.
    pub drop: u8,
}

pub const fn column(title: &'static str, width: Constraint, least: u16, drop: u8) -> Column {
    Column {
        title,
        width,
        least,
        drop,
    }
}

/// The indices of the columns that fit in `width` cells with `spacing`
/// between them, in screen order; at least one.
pub fn fit(columns: &[Column], width: u16, spacing: u16) -> Vec<usize> {
    let mut shown: Vec<usize> = (0..columns.len()).collect();
    let need = |cols: &[usize]| -> usize {
        let cells: usize = cols.iter().map(|&c| usize::from(columns[c].least)).sum();
        cells + usize::from(spacing) * cols.len().saturating_sub(1)
    };
    while shown.len() > 1 && need(&shown) > usize::from(width) {
        if let Some(worst) = shown.iter().copied().max_by_key(|&c| columns[c].drop) {
            shown.retain(|&c| c != worst);
        }
    }
    shown
}

/// The shown cells of a row, in screen order.
pub fn pick<T: Clone>(cells: &[T], shown: &[usize]) -> Vec<T> {
    shown
        .iter()
        .filter_map(|&c| cells.get(c).cloned())
        .collect()
}

/// The width ratatui's `Table` gives each column of `widths` in `width`
/// cells, `spacing` apart (with its default flex and no highlight symbol),
/// so that text can be cut to its column before the table draws it.
pub fn laid_out(widths: &[Constraint], width: u16, spacing: u16) -> Vec<u16> {
    Layout::horizontal(widths.to_vec())
        .flex(Flex::Start)
        .spacing(spacing)
        .split(Rect::new(0, 0, width, 1))
        .iter()
        .map(|r| r.width)
        .collect()
}

/// `text` in at most `width` cells: cut, with `…` as its last cell, when
/// it does not fit. A table cuts a cell silently, and a step `clusters`
/// cut to `cluster` reads as another step's name.
pub fn cut(text: &str, width: u16) -> String {
    let width = usize::from(width);
    if Span::raw(text).width() <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = Span::raw(c.to_string()).width();
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    if width > 0 {
        out.push('…');
    }
    out
}
