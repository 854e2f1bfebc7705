//! `return(value)` in a function's body, rewritten before anything else
//! reads the workflow into the control flow the evaluator already has, so
//! that shapes, costs, cache keys and the run all see an ordinary body.
//!
//! - In tail position, `return(v)` is `v`, and `return()` is `NULL`.
//! - A statement that may return takes the statements after it into its
//!   branches: `{ if (c) return(a); b }` becomes `{ if (c) a else { b } }`.
//!   Braces make no scope in R, so a block standing as a statement is
//!   flattened into the one around it first.
//! - A loop that may return sets a flag, keeps the value and breaks
//!   (through every loop around it), and the statements after the loop
//!   return the kept value when the flag is set: `for (i in x) if (p(i))
//!   return(i)` finds the first `i`, as in R.
//!
//! A `return` anywhere else (an argument, `x + return(1)`) is refused with
//! a message that says where it may stand; one outside any function is R's
//! own error.

use crate::diagnostic::{Diagnostic, SourceFile, Span};

use super::ast::{Expr, ExprKind, Step, StepBody};

/// The locals a returning loop keeps its value and flag in. Their dots
/// keep them out of the way of the user's names.
const VALUE: &str = ".flowcast.returned.value";
const FLAG: &str = ".flowcast.returned";

/// Rewrites every `return` in the functions of `steps`.
pub fn rewrite(file: &SourceFile, steps: &mut [Step]) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    for step in steps.iter_mut() {
        let mut fail = |span: Span, message: String| {
            diags.push(Diagnostic::new(file, Some(span), message).in_step(&step.name));
        };
        match &mut step.body {
            StepBody::Expr(e) => walk(e, false, &mut fail),
            StepBody::Loop(l) => {
                walk(&mut l.range, false, &mut fail);
                walk(&mut l.body, false, &mut fail);
            }
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// Walks `e`: each function found has its body rewritten, the functions
/// inside it first; a `return` met outside any function has none to
/// return from.
fn walk(e: &mut Expr, in_function: bool, fail: &mut impl FnMut(Span, String)) {
    if is_return(e) && !in_function {
        fail(
            e.span,
            "no function to return from, jumping to top level".into(),
        );
        return;
    }
    match &mut e.kind {
        ExprKind::Function { body, .. } | ExprKind::Apply { body, .. } => {
            walk(body, true, fail);
            if returns(body) {
                let span = body.span;
                match tail(std::mem::replace(&mut **body, null(span))) {
                    Ok(b) => **body = b,
                    Err((span, m)) => fail(span, m),
                }
            }
        }
        _ => e.visit_children_mut(&mut |c| walk(c, in_function, fail)),
    }
}

type Rewritten = Result<Expr, (Span, String)>;

/// `e` as the value of its function: what it returns, `return` removed.
fn tail(e: Expr) -> Rewritten {
    if !returns(&e) {
        return Ok(e);
    }
    let span = e.span;
    match e.kind {
        ExprKind::Call {
            ref func, ref args, ..
        } if func == "return" => match args.as_slice() {
            [] => Ok(null(span)),
            [a] => {
                no_return_in(&a.value)?;
                Ok(a.value.clone())
            }
            _ => Err((span, "multi-argument returns are not permitted".into())),
        },
        ExprKind::If { cond, yes, no } => {
            no_return_in(&cond)?;
            Ok(Expr {
                kind: ExprKind::If {
                    cond,
                    yes: Box::new(tail(*yes)?),
                    no: no.map(|n| tail(*n)).transpose()?.map(Box::new),
                },
                span,
            })
        }
        ExprKind::Block(stmts) => block(stmts, span),
        _ => block(vec![e], span),
    }
}

/// The statements `stmts` as their function's value.
fn block(stmts: Vec<Expr>, span: Span) -> Rewritten {
    let mut done: Vec<Expr> = Vec::new();
    let mut rest = stmts.into_iter();
    while let Some(s) = rest.next() {
        if !returns(&s) {
            done.push(s);
            continue;
        }
        let s_span = s.span;
        match s.kind {
            // What follows a return never runs.
            ExprKind::Call { ref func, .. } if func == "return" => {
                done.push(tail(s)?);
                break;
            }
            ExprKind::Block(inner) => {
                let joined: Vec<Expr> = inner.into_iter().chain(rest).collect();
                done.push(block(joined, s_span)?);
                break;
            }
            ExprKind::If { cond, yes, no } => {
                no_return_in(&cond)?;
                let after: Vec<Expr> = rest.collect();
                let branch = |b: Option<Box<Expr>>| -> Rewritten {
                    let mut stmts = match b.map(|b| *b) {
                        Some(Expr {
                            kind: ExprKind::Block(s),
                            ..
                        }) => s,
                        Some(b) => vec![b],
                        None if after.is_empty() => return Ok(null(s_span)),
                        None => Vec::new(),
                    };
                    stmts.extend(after.iter().cloned());
                    block(stmts, s_span)
                };
                let had_no = no.is_some();
                let yes = branch(Some(yes))?;
                // An `if` with no `else` that ends the body is NULL when not
                // taken; keep it so, rather than an explicit NULL branch.
                let no = if had_no || !after.is_empty() {
                    Some(Box::new(branch(no)?))
                } else {
                    None
                };
                done.push(Expr {
                    kind: ExprKind::If {
                        cond,
                        yes: Box::new(yes),
                        no,
                    },
                    span: s_span,
                });
                break;
            }
            // `x <- if (c) return(a) else b`: the assignment goes into the
            // branches that do not return.
            ExprKind::Assign {
                name,
                name_span,
                value,
            } if matches!(value.kind, ExprKind::If { .. }) => {
                let ExprKind::If { cond, yes, no } = value.kind else {
                    unreachable!("matched above")
                };
                let into_branch = |v: Expr| -> Expr {
                    if is_return(&v) {
                        return v;
                    }
                    let span = v.span;
                    Expr {
                        kind: ExprKind::Assign {
                            name: name.clone(),
                            name_span,
                            value: Box::new(v),
                        },
                        span,
                    }
                };
                let no = no.map_or_else(|| null(value.span), |n| *n);
                let split = Expr {
                    kind: ExprKind::If {
                        cond,
                        yes: Box::new(into_branch(*yes)),
                        no: Some(Box::new(into_branch(no))),
                    },
                    span: s_span,
                };
                let joined: Vec<Expr> = std::iter::once(split).chain(rest).collect();
                done.push(block(joined, s_span)?);
                break;
            }
            ExprKind::For { .. } | ExprKind::While { .. } => {
                // flag <- FALSE; the loop, breaking out with the value;
                // then the value returned if the flag was set.
                done.push(assign(VALUE, null(s_span)));
                done.push(assign(FLAG, flag(false, s_span)));
                done.push(returning_loop(s)?);
                let flagged = Expr {
                    kind: ExprKind::If {
                        cond: Box::new(name(FLAG, s_span)),
                        yes: Box::new(return_of(name(VALUE, s_span))),
                        no: None,
                    },
                    span: s_span,
                };
                let joined: Vec<Expr> = std::iter::once(flagged).chain(rest).collect();
                done.push(block(joined, s_span)?);
                break;
            }
            _ => return Err(misplaced(&s)),
        }
    }
    // One statement needs no braces around it.
    Ok(if done.len() == 1 {
        done.pop().expect("one statement")
    } else {
        Expr {
            kind: ExprKind::Block(done),
            span,
        }
    })
}

/// A loop's body (and the loops in it) with each `return(v)` made into
/// keeping `v`, setting the flag and breaking out.
fn in_loop(e: Expr) -> Rewritten {
    if !returns(&e) {
        return Ok(e);
    }
    let span = e.span;
    Ok(match e.kind {
        ExprKind::Call {
            ref func, ref args, ..
        } if func == "return" => {
            let value = match args.as_slice() {
                [] => null(span),
                [a] => {
                    no_return_in(&a.value)?;
                    a.value.clone()
                }
                _ => return Err((span, "multi-argument returns are not permitted".into())),
            };
            let brk = Expr {
                kind: ExprKind::Break,
                span,
            };
            block_of(
                vec![assign(VALUE, value), assign(FLAG, flag(true, span)), brk],
                span,
            )
        }
        ExprKind::Block(stmts) => block_of(
            stmts.into_iter().map(in_loop).collect::<Result<_, _>>()?,
            span,
        ),
        ExprKind::If { cond, yes, no } => {
            no_return_in(&cond)?;
            Expr {
                kind: ExprKind::If {
                    cond,
                    yes: Box::new(in_loop(*yes)?),
                    no: no.map(|n| in_loop(*n)).transpose()?.map(Box::new),
                },
                span,
            }
        }
        ExprKind::For { .. } | ExprKind::While { .. } => out_of_inner(returning_loop(e)?, span),
        _ => return Err(misplaced(&e)),
    })
}

/// A `for` or `while` with each `return(v)` of its body made into
/// keeping `v`, setting the flag and breaking out.
fn returning_loop(e: Expr) -> Rewritten {
    let span = e.span;
    Ok(match e.kind {
        ExprKind::For {
            var,
            var_span,
            seq,
            body,
        } => {
            no_return_in(&seq)?;
            Expr {
                kind: ExprKind::For {
                    var,
                    var_span,
                    seq,
                    body: Box::new(in_loop(*body)?),
                },
                span,
            }
        }
        ExprKind::While { cond, body } => {
            if let Some(c) = &cond {
                no_return_in(c)?;
            }
            Expr {
                kind: ExprKind::While {
                    cond,
                    body: Box::new(in_loop(*body)?),
                },
                span,
            }
        }
        kind => in_loop(Expr { kind, span })?,
    })
}

/// An inner loop that has returned breaks the loop around it too.
fn out_of_inner(inner: Expr, span: Span) -> Expr {
    let brk = Expr {
        kind: ExprKind::If {
            cond: Box::new(name(FLAG, span)),
            yes: Box::new(Expr {
                kind: ExprKind::Break,
                span,
            }),
            no: None,
        },
        span,
    };
    block_of(vec![inner, brk], span)
}

fn misplaced(e: &Expr) -> (Span, String) {
    let mut at = e.span;
    find_return(e, &mut |r| at = r.span);
    (
        at,
        "flowcast runs `return(...)` where it ends the function: as a statement of the \
         function's body, or of an `if`, a loop or braces in it (`if (n == 0) return(NA)`), \
         or as a whole `if` branch of an assignment; not inside another call or operator"
            .into(),
    )
}

/// Fails if a `return` stands in `e` (a condition, an argument).
fn no_return_in(e: &Expr) -> Result<(), (Span, String)> {
    if returns(e) {
        return Err(misplaced(e));
    }
    Ok(())
}

fn is_return(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { func, .. } if func == "return")
}

/// Whether `e` holds a `return` of its own function (not of a function
/// inside it).
fn returns(e: &Expr) -> bool {
    let mut found = false;
    find_return(e, &mut |_| found = true);
    found
}

fn find_return<'e>(e: &'e Expr, f: &mut impl FnMut(&'e Expr)) {
    match &e.kind {
        ExprKind::Function { .. } | ExprKind::Apply { .. } => {}
        _ if is_return(e) => f(e),
        _ => e.visit_children(&mut |c| find_return(c, f)),
    }
}

fn null(span: Span) -> Expr {
    Expr {
        kind: ExprKind::Null,
        span,
    }
}

fn flag(v: bool, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Bool(v),
        span,
    }
}

fn name(n: &str, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Name(n.into()),
        span,
    }
}

fn assign(n: &str, value: Expr) -> Expr {
    let span = value.span;
    Expr {
        kind: ExprKind::Assign {
            name: n.into(),
            name_span: span,
            value: Box::new(value),
        },
        span,
    }
}

fn return_of(value: Expr) -> Expr {
    let span = value.span;
    Expr {
        kind: ExprKind::Call {
            func: "return".into(),
            func_span: span,
            args: vec![super::ast::Arg {
                name: None,
                value,
                span,
            }],
        },
        span,
    }
}

fn block_of(stmts: Vec<Expr>, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Block(stmts),
        span,
    }
}
