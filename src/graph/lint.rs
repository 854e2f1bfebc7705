//! Warnings at analysis: R-script habits that run, but do not do in a
//! workflow what they do in a script. The workflow still runs; each
//! warning names the step and the text, and says what to write instead.

use std::collections::HashSet;

use crate::diagnostic::{Diagnostic, Span};
use crate::workflow::{Expr, ExprKind, StepBody, Workflow};

/// Every warning of `wf`, in file order.
pub fn lints(wf: &Workflow) -> Vec<Diagnostic> {
    let steps: HashSet<&str> = wf.steps.iter().map(|s| s.name.as_str()).collect();
    let mut out = Vec::new();
    let mut console_seen = HashSet::new();
    for step in &wf.steps {
        let (body, var) = match &step.body {
            StepBody::Expr(e) => (e, None),
            StepBody::Loop(l) => (&l.body, Some(l.var.as_str())),
        };
        let mut prints = Vec::new();
        dropped_prints(body, &mut prints);
        prints.dedup();
        for span in prints {
            out.push(
                Diagnostic::new(&wf.file, Some(span), PRINT_SHOWS_NOTHING)
                    .in_step(&step.name)
                    .as_warning(),
            );
        }
        let mut console = Vec::new();
        console_calls(body, false, &mut console);
        // A function's body is inlined into each step that calls it: one
        // warning at each call written.
        console.retain(|(_, span)| console_seen.insert((span.start, span.end)));
        for (func, span) in console {
            out.push(
                Diagnostic::new(&wf.file, Some(span), console_shows_nothing(func))
                    .in_step(&step.name)
                    .as_warning(),
            );
        }
        let mut assigned = HashSet::new();
        let mut copies = Vec::new();
        step_copies(body, &mut assigned, &mut copies);
        for (name, span) in copies {
            if name == step.name || Some(name) == var || !steps.contains(name) {
                continue;
            }
            let text = wf.file.text.get(span.start..span.end).unwrap_or(name);
            let whose = if var.is_some() {
                "each iteration's own copy"
            } else {
                "this step's own copy"
            };
            let message = format!(
                "`{text}` changes {whose} of step `{name}`, not `{name}`: unlike in an R \
                 script, `{name}` and the steps that read it keep the value its step \
                 gives it. Give the changed copy a name of its own (`{name}2 <- {name}`, \
                 then change `{name}2`), or change step `{name}` itself"
            );
            out.push(
                Diagnostic::new(&wf.file, Some(span), message)
                    .in_step(&step.name)
                    .as_warning(),
            );
        }
    }
    out
}

const PRINT_SHOWS_NOTHING: &str = "print() here shows nothing: flowcast prints no output \
     while a step runs, and this statement's value is dropped. Only a step's value is \
     shown (in the run's table, and written by `--out DIR`): make what you want to see \
     the block's last expression, or a step of its own";

fn console_shows_nothing(func: &str) -> String {
    format!(
        "{func}() here shows nothing: flowcast prints no output while a step runs, \
         on whichever worker it runs. Only a step's value is shown (in the run's table, \
         and written by `--out DIR`): make what you want to see a step of its own"
    )
}

/// The calls of `cat`, `writeLines` and `message` in `e`, which print in R
/// and show nothing here; a `message` inside a tryCatch may be caught, and
/// is left alone.
fn console_calls<'e>(e: &'e Expr, in_try: bool, out: &mut Vec<(&'e str, Span)>) {
    let mut in_try = in_try;
    if let ExprKind::Call { func, .. } = &e.kind {
        match func.as_str() {
            "cat" | "writeLines" => out.push((func, e.span)),
            "message" if !in_try => out.push((func, e.span)),
            "tryCatch" => in_try = true,
            _ => {}
        }
    }
    e.visit_children(&mut |c| console_calls(c, in_try, out));
}

/// The `print(...)` calls in `e` whose value a block or a loop drops: in
/// R they print, here they are silent.
fn dropped_prints(e: &Expr, out: &mut Vec<Span>) {
    match &e.kind {
        ExprKind::Block(stmts) => {
            if let Some((_, before)) = stmts.split_last() {
                for s in before {
                    dropped(s, out);
                }
            }
        }
        ExprKind::For { body, .. } | ExprKind::While { body, .. } => dropped(body, out),
        _ => {}
    }
    e.visit_children(&mut |c| dropped_prints(c, out));
}

/// `s`, whose value is dropped: a print call, or one a block or branch
/// ends with.
fn dropped(s: &Expr, out: &mut Vec<Span>) {
    match &s.kind {
        ExprKind::Call { func, .. } if func == "print" => out.push(s.span),
        ExprKind::Block(stmts) => {
            if let Some(last) = stmts.last() {
                dropped(last, out);
            }
        }
        ExprKind::If { yes, no, .. } => {
            dropped(yes, out);
            if let Some(no) = no {
                dropped(no, out);
            }
        }
        _ => {}
    }
}

/// The replacements `v[i] <- x` (`names(v) <- x`, `v$a <- x`, …) in `e`
/// that are the first assignment of their name, outside a function's body
/// and the calls that evaluate a block in an environment of their own
/// (where R too changes a local): in a script they would change the
/// global. A plain `v <- x` is a local on purpose, and so is what a
/// replacement after it changes.
fn step_copies<'e>(e: &'e Expr, assigned: &mut HashSet<&'e str>, out: &mut Vec<(&'e str, Span)>) {
    match &e.kind {
        ExprKind::Function { .. } | ExprKind::Apply { .. } => return,
        ExprKind::Call { func, .. } if OWN_ENVIRONMENT.contains(&func.as_str()) => return,
        ExprKind::Assign { name, value, .. } => {
            step_copies(value, assigned, out);
            let replaces =
                matches!(&value.kind, ExprKind::Call { func, .. } if func.ends_with("<-"));
            if assigned.insert(name.as_str()) && replaces {
                out.push((name.as_str(), e.span));
            }
            return;
        }
        _ => {}
    }
    e.visit_children(&mut |c| step_copies(c, assigned, out));
}

/// Calls whose block argument assigns in an environment of its own.
const OWN_ENVIRONMENT: &[&str] = &["within", "with", "local", "evalq", "eval"];
