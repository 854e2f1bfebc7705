//! The workflow front end: TOML structure (`document`), R expression
//! grammar (`grammar`), and errors placed at the exact character of the file
//! (`errors`).

mod document;
mod errors;
mod grammar;

use std::path::Path;

use flowcast::diagnostic::{Diagnostic, SourceFile};
use flowcast::workflow::{load, parse, parse_expr_str, sexpr, Expr, ExprKind, StepBody, Workflow};

fn wf(text: &str) -> Result<Workflow, Vec<Diagnostic>> {
    parse(SourceFile::new("w.toml", text))
}

fn errors(text: &str) -> Vec<Diagnostic> {
    match wf(text) {
        Ok(_) => panic!("expected errors for:\n{text}"),
        Err(d) => d,
    }
}

/// The single error of `text`, as `location: message`.
fn error(text: &str) -> String {
    let d = errors(text);
    assert_eq!(d.len(), 1, "{d:#?}");
    format!("{}: {}", d[0].location(), d[0].message)
}

/// The error of a one-step workflow `[steps]\na = <value>`.
fn step_error(value: &str) -> String {
    let text = format!("[steps]\na = {value}\n");
    let d = errors(&text);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].step.as_deref(), Some("a"), "{:?}", d[0]);
    format!("{}: {}", d[0].location(), d[0].message)
}

fn grouped(text: &str) -> String {
    sexpr(&parse_expr_str(text).unwrap_or_else(|d| panic!("{text}: {d}")))
}

fn expr_of(w: &Workflow, step: &str) -> Expr {
    match &w.step(step).unwrap().body {
        StepBody::Expr(e) => e.clone(),
        StepBody::Loop(_) => panic!("{step} is a loop"),
    }
}

/// The file text a span covers.
fn text_at(w: &Workflow, span: flowcast::diagnostic::Span) -> &str {
    &w.file.text[span.start..span.end]
}
