//! The workflow language: a TOML file of R-like steps and do-all loops.
//!
//! [`load`] and [`parse`] turn a file into a [`Workflow`] whose every node
//! carries its span in the file; they report every error they can find (at
//! least one per step), not only the first. Whole-graph checks (undefined
//! names, cycles, functions and shapes) belong to `graph`.

pub mod ast;
pub mod binding;
mod call_values;
pub mod depth;
mod document;
pub mod files;
mod functions;
mod lexer;
mod names;
mod parser;
mod print;
mod returns;
mod text_map;
mod vectorize;

use std::path::Path;

use crate::diagnostic::{Diagnostic, SourceFile, Span};

pub use ast::is_dots_element;
pub use ast::{
    Arg, BinaryOp, Expr, ExprKind, FunctionStep, Loop, Param, Step, StepBody, UnaryOp, Workflow,
    DOTS, PAREN, RECALL,
};
pub use document::{MAX_PROCESSORS, SCHEDULERS};
pub use names::{is_reserved, is_syntactic};
pub use parser::{parse_expr, parse_loop_header};
pub use print::{deparse, name as call_name, num as deparse_number, prec as precedence, sexpr};
pub use text_map::TextMap;

/// Reads and parses a workflow file; an unreadable file is a diagnostic too.
pub fn load(path: &Path) -> Result<Workflow, Vec<Diagnostic>> {
    match crate::regular_file::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => parse(SourceFile::new(path, text)),
            Err(e) => Err(vec![not_utf8(path, &e)]),
        },
        Err(e) => Err(vec![Diagnostic::new(
            &SourceFile::new(path, ""),
            None,
            format!("cannot read workflow file: {e}"),
        )]),
    }
}

/// A file that is not UTF-8 (Latin-1 saved by an old editor, a binary
/// file given by mistake), located at its first bad byte: the whole file
/// was refused with "stream did not contain valid UTF-8" and no place to
/// look. The text shown is the file with bad bytes replaced (U+FFFD); up
/// to the first one it is the file's own, so the span holds.
fn not_utf8(path: &Path, e: &std::string::FromUtf8Error) -> Diagnostic {
    let at = e.utf8_error().valid_up_to();
    let byte = e.as_bytes()[at];
    let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
    let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let file = SourceFile::new(path, text);
    let d = Diagnostic::new(
        &file,
        Some(Span::new(at, end)),
        format!(
            "the workflow file is not UTF-8 text: byte 0x{byte:02x} here is not a \
             character (save the file as UTF-8)"
        ),
    );
    // The step around the byte, when the rest of the file reads.
    let step = parse(file).ok().and_then(|wf| {
        wf.steps
            .into_iter()
            .find(|s| {
                let end = match &s.body {
                    StepBody::Expr(e) => e.span.end,
                    StepBody::Loop(l) => l.body.span.end.max(l.range.span.end),
                };
                s.name_span.start <= at && at < end
            })
            .map(|s| s.name)
    });
    match step {
        Some(step) => d.in_step(step),
        None => d,
    }
}

/// Parses a workflow from its text.
pub fn parse(file: SourceFile) -> Result<Workflow, Vec<Diagnostic>> {
    document::parse(file)
}

/// Parses a standalone expression (a REPL line, a test): spans are offsets
/// into `text`, which is also the diagnostics' source.
pub fn parse_expr_str(text: &str) -> Result<Expr, Diagnostic> {
    let file = SourceFile::new("<expr>", text);
    parse_expr(&file, text, &TextMap::identity(0, text.len()))
}
