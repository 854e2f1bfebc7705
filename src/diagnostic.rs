//! Errors a user reads: a message tied to a place in a workflow file.
//!
//! Every failure that can be traced to the workflow text carries the file,
//! the byte span of the offending text and (when known) the step, so it can
//! be printed as `file:line:col` with the text underlined.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use unicode_width::UnicodeWidthChar;

use crate::printable::{printable, push_printable};

/// A byte range in a workflow file (not in an expression string: the parser
/// maps expression offsets back to the file, so spans are always absolute).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// The text of a workflow file, shared by every diagnostic that points into it.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: Arc<str>,
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, text: impl Into<Arc<str>>) -> SourceFile {
        SourceFile {
            path: path.into(),
            text: text.into(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(&self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One user-facing error, or a warning: something that runs, but not as
/// the user may expect.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub file: SourceFile,
    pub span: Option<Span>,
    /// The step the error belongs to, when there is one.
    pub step: Option<String>,
    pub message: String,
    /// A warning does not stop the workflow from running.
    pub warning: bool,
}

impl Diagnostic {
    pub fn new(file: &SourceFile, span: Option<Span>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.clone(),
            span,
            step: None,
            message: message.into(),
            warning: false,
        }
    }

    /// The same, as a warning.
    pub fn as_warning(mut self) -> Diagnostic {
        self.warning = true;
        self
    }

    pub fn in_step(mut self, step: impl Into<String>) -> Diagnostic {
        self.step = Some(step.into());
        self
    }

    /// `path:line:col`, or just the path when there is no span.
    pub fn location(&self) -> String {
        match self.span {
            Some(span) => {
                let (line, col) = self.file.line_col(span.start);
                format!("{}:{}:{}", self.file.path.display(), line, col)
            }
            None => self.file.path.display().to_string(),
        }
    }
}

impl fmt::Display for Diagnostic {
    /// ```text
    /// error: non-conformable arguments: 3x4 %*% 5x6
    ///   --> work.toml:7:5 (step `p`)
    ///    |
    ///  7 | p = "a %*% b"
    ///    |      ^^^^^^^
    /// ```
    ///
    /// Everything shown comes from the user's files, so control characters
    /// are written as escapes (see [`printable`]); tabs in the quoted line
    /// are kept so the caret lines up however they render.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message: Vec<_> = self.message.split('\n').map(printable).collect();
        let severity = if self.warning { "warning" } else { "error" };
        writeln!(f, "{severity}: {}", message.join("\n"))?;
        write!(f, "  --> {}", printable(&self.location()))?;
        if let Some(step) = &self.step {
            write!(f, " (step `{}`)", printable(step))?;
        }
        writeln!(f)?;
        let Some(span) = self.span else {
            return Ok(());
        };
        let text = &self.file.text;
        let (line, col) = self.file.line_col(span.start);
        let line_text = text.lines().nth(line - 1).unwrap_or("");
        let gutter = line.to_string().len();
        // Underline at most to the end of the first line of the span, in
        // the columns the line takes once escaped.
        let underlined = text
            .get(span.start..span.end.min(text.len()))
            .map_or("", |s| s.lines().next().unwrap_or(""));
        let (before, rest) = line_text.split_at(
            line_text
                .char_indices()
                .nth(col - 1)
                .map_or(line_text.len(), |(i, _)| i),
        );
        let end = rest
            .char_indices()
            .nth(underlined.chars().count())
            .map_or(rest.len(), |(i, _)| i);
        // In terminal columns: a CJK character or an emoji takes two, a
        // combining mark none.
        let columns = |c: char| c.width().unwrap_or(0);
        let width = shown(&rest[..end])
            .chars()
            .map(columns)
            .sum::<usize>()
            .max(1);
        writeln!(f, "{:gutter$} |", "")?;
        writeln!(f, "{line} | {}", shown(line_text))?;
        let pad: String = shown(before)
            .chars()
            .map(|c| {
                if c == '\t' {
                    "\t".to_string()
                } else {
                    " ".repeat(columns(c))
                }
            })
            .collect();
        writeln!(f, "{:gutter$} | {pad}{}", "", "^".repeat(width))
    }
}

/// A line of source as printed under an error: tabs kept, every other
/// control character escaped.
fn shown(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if c == '\t' {
            out.push(c);
        } else {
            push_printable(&mut out, c);
        }
    }
    out
}

impl std::error::Error for Diagnostic {}

/// The diagnostics of an invalid workflow as one JSON document: the first
/// error's file, line, column, step and message at the top, for a program
/// that reads one, and all of them under `errors`.
pub fn to_json(errors: &[Diagnostic], path: &std::path::Path) -> serde_json::Value {
    let one = |d: &Diagnostic| {
        let (line, column) = d.span.map(|s| d.file.line_col(s.start)).unzip();
        serde_json::json!({
            "file": d.file.path.display().to_string(),
            "line": line,
            "column": column,
            "step": d.step,
            "message": d.message,
        })
    };
    let mut doc = errors.first().map_or_else(
        || serde_json::json!({ "file": path.display().to_string() }),
        one,
    );
    doc["error"] = count(errors.len(), path).into();
    doc["errors"] = errors.iter().map(one).collect();
    doc
}

/// The line that closes a list of diagnostics: "1 error in FILE", "2
/// errors in FILE".
pub fn count(n: usize, path: &std::path::Path) -> String {
    let noun = if n == 1 { "error" } else { "errors" };
    format!("{n} {noun} in {}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let f = SourceFile::new("w.toml", "a = 1\nbb = \"x\"\n");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(6), (2, 1));
        assert_eq!(f.line_col(11), (2, 6));
    }

    #[test]
    fn display_underlines_the_span() {
        let f = SourceFile::new("w.toml", "[steps]\np = \"a %*% b\"\n");
        let d = Diagnostic::new(&f, Some(Span::new(13, 20)), "non-conformable").in_step("p");
        let text = d.to_string();
        assert!(text.contains("w.toml:2:6 (step `p`)"), "{text}");
        assert!(text.contains("2 | p = \"a %*% b\""), "{text}");
        assert!(text.contains("  |      ^^^^^^^\n"), "{text}");
    }

    #[test]
    fn display_puts_the_caret_under_the_span_after_wide_characters() {
        let text = "x = \"名前 + é́ + 🎲 +)\"\n";
        let at = text.find(')').unwrap();
        let f = SourceFile::new("w.toml", text);
        let d = Diagnostic::new(&f, Some(Span::new(at, at + 1)), "unexpected `)`");
        // `x = "` is 5 columns, 名前 4, ` + ` 3, é and its combining accent
        // 1, ` + ` 3, the die 2, ` +` 2: the caret is in column 21.
        assert!(
            d.to_string()
                .ends_with(&format!("  | {}^\n", " ".repeat(20))),
            "{d}"
        );
    }

    #[test]
    fn display_keeps_tabs_before_the_caret() {
        let f = SourceFile::new("w.toml", "a = \"\"\"\n\t\tx +)\"\"\"\n");
        let d = Diagnostic::new(&f, Some(Span::new(13, 14)), "unexpected");
        assert!(d.to_string().ends_with("  | \t\t   ^\n"), "{d}");
    }

    #[test]
    fn display_escapes_control_characters_and_keeps_the_caret_under_the_span() {
        let f = SourceFile::new(
            "w.toml",
            "p = \"a\" # \u{1b}]0;owned\u{7}\nq = \"\u{1b}[2J b +)\"\n",
        );
        let d = Diagnostic::new(&f, Some(Span::new(34, 35)), "unexpected `\u{1b}[2J`")
            .in_step("q\u{7}");
        let text = d.to_string();
        assert!(!text.contains(['\u{1b}', '\u{7}']), "{text:?}");
        assert!(text.contains("error: unexpected `\\u{1b}[2J`"), "{text}");
        assert!(text.contains("(step `q\\u{7}`)"), "{text}");
        assert!(text.contains("2 | q = \"\\u{1b}[2J b +)\""), "{text}");
        assert!(
            text.ends_with(&format!("  | {}^\n", " ".repeat(18))),
            "{text}"
        );
    }
}

/// One of R's warnings, as a step raised it: R prints it as
/// `In <call> : <message>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepWarning {
    pub message: String,
    /// The call that raised it, as written in the workflow.
    pub call: Option<String>,
    /// Where that call is in the workflow file, 1-based.
    pub line: usize,
    pub column: usize,
}

impl StepWarning {
    /// R's text, then where its call is in the workflow file: the form
    /// shown under the warning's step.
    pub fn located(&self) -> String {
        format!("{self} (line {}, column {})", self.line, self.column)
    }
}

impl std::fmt::Display for StepWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.call {
            Some(call) => write!(f, "In {call} : {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}
