//! The workflow language: a TOML file of R-like steps and do-all loops.
//!
//! [`load`] and [`parse`] turn a file into a [`Workflow`] whose every node
//! carries its span in the file; they report every error they can find (at
//! least one per step), not only the first. Whole-graph checks (undefined
//! names, cycles, functions and shapes) belong to `graph`.

pub mod ast;
mod call_values;
pub mod depth;
mod document;
pub mod files;
mod functions;
mod lexer;
mod names;
mod parser;
mod print;
mod text_map;
mod vectorize;

use std::path::Path;

use crate::diagnostic::{Diagnostic, SourceFile};

pub use ast::{Arg, BinaryOp, Expr, ExprKind, Loop, Param, Step, StepBody, UnaryOp, Workflow};
pub use document::{MAX_PROCESSORS, SCHEDULERS};
pub use names::{is_reserved, is_syntactic};
pub use parser::{parse_expr, parse_loop_header};
pub use print::{deparse, sexpr};
pub use text_map::TextMap;

/// Reads and parses a workflow file; an unreadable file is a diagnostic too.
pub fn load(path: &Path) -> Result<Workflow, Vec<Diagnostic>> {
    match crate::regular_file::read_to_string(path) {
        Ok(text) => parse(SourceFile::new(path, text)),
        Err(e) => Err(vec![Diagnostic::new(
            &SourceFile::new(path, ""),
            None,
            format!("cannot read workflow file: {e}"),
        )]),
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
