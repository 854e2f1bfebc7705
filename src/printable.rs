//! Text from the user's files made safe to print on a terminal.
//!
//! A workflow name, a step name, a comment shown under an error or a string
//! read from a CSV file may hold control characters (`name = "\u001b]0;x"`
//! in TOML is a terminal escape). Written raw, ESC and BEL sequences can
//! retitle the terminal, clear it or move the cursor; every place that
//! prints such text passes it through [`printable`] first.

use std::borrow::Cow;

/// `text` with every control character written as a visible escape
/// (`\u{1b}`); text without any is returned as it is.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.contains(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_printable(&mut out, c);
    }
    Cow::Owned(out)
}

/// A control character, or one of Unicode's bidirectional controls: a
/// step name `a\u{202e}b` printed raw reversed the rest of its line on the
/// terminal (and in an editor), so that a diagnostic showed other text than
/// the file holds ("Trojan Source", CVE-2021-42574).
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Appends `c`, escaped when it is a control character.
pub fn push_printable(out: &mut String, c: char) {
    if unsafe_char(c) {
        out.extend(c.escape_unicode());
    } else {
        out.push(c);
    }
}

/// `text` left-aligned in a column `width` characters wide, as
/// `format!("{text:<width$}")` writes it, for any width: std's formatting
/// panics on a width past `u16::MAX`, and a step or column name may be
/// longer than that.
pub fn pad_end(text: &str, width: usize) -> String {
    let fill = width.saturating_sub(text.chars().count());
    let mut out = String::with_capacity(text.len() + fill);
    out.push_str(text);
    out.extend(std::iter::repeat_n(' ', fill));
    out
}

/// `text` right-aligned in a column `width` characters wide, as
/// `format!("{text:>width$}")` writes it, for any width.
pub fn pad_start(text: &str, width: usize) -> String {
    let fill = width.saturating_sub(text.chars().count());
    let mut out = String::with_capacity(text.len() + fill);
    out.extend(std::iter::repeat_n(' ', fill));
    out.push_str(text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(printable("fit ≈ lm"), Cow::Borrowed("fit ≈ lm")));
    }

    #[test]
    fn escape_bell_delete_and_c1_controls_are_spelt_out() {
        assert_eq!(printable("a\u{1b}]0;x\u{7}b"), "a\\u{1b}]0;x\\u{7}b");
        assert_eq!(printable("\u{7f}\u{9b}\t\n"), "\\u{7f}\\u{9b}\\u{9}\\u{a}");
    }
}
