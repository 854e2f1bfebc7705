//! Shape inference: the type and dimensions of every expression, from the
//! file alone, using each kernel's shape rule. Small constants are folded on
//! the way (`1200 * 1200`, `1:nrow(a)`), because sizes are written as
//! expressions.

use std::collections::HashMap;

use super::diag;
use crate::diagnostic::{Diagnostic, SourceFile, Span};
use crate::kernels::work::{self, Work};
use crate::kernels::{index, registry, ArgError, Args, ShapeCtx, Type};
use crate::workflow::{Arg, BinaryOp, Expr, ExprKind, UnaryOp};

/// The type of `e` given the types of the names it reads.
pub fn infer(
    e: &Expr,
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Result<Type, Diagnostic> {
    infer_node(e, env, file, ctx, None, &mut Work::default())
}

/// [`infer`], also handing back the types of the operands of `e`'s
/// outermost call or operator (an index or field access: its target), for
/// the cost model's features, without inferring them again (which, for
/// `read.csv`, would read the file again), and the work of every call in
/// `e` at the sizes inferred for it (a loop body's: one iteration's).
pub fn infer_with_operands(
    e: &Expr,
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Result<(Type, Vec<Type>, Work), Diagnostic> {
    let mut operands = Vec::new();
    let mut work = Work::default();
    let t = infer_node(e, env, file, ctx, Some(&mut operands), &mut work)?;
    Ok((t, operands, work))
}

fn infer_node(
    e: &Expr,
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    mut operands: Option<&mut Vec<Type>>,
    work: &mut Work,
) -> Result<Type, Diagnostic> {
    let mut keep = |types: &[&Type]| {
        if let Some(o) = operands.as_mut() {
            o.extend(types.iter().map(|&t| t.clone()));
        }
    };
    let ty = match &e.kind {
        ExprKind::Num(x) => Type::scalar_const(*x),
        ExprKind::Str(s) => Type::str_const(s),
        ExprKind::Bool(b) => Type::Bool {
            len: Some(1),
            value: Some(vec![*b]),
        },
        ExprKind::Null => Type::Null,
        ExprKind::Na => Type::scalar_const(crate::kernels::value::NA),
        ExprKind::Name(n) => env
            .get(n.as_str())
            .cloned()
            .ok_or_else(|| diag(file, e.span, format!("object `{n}` not found")))?,
        ExprKind::Call {
            func,
            func_span,
            args,
        } => {
            let typed = args
                .iter()
                .map(|a| {
                    Ok((
                        a.name.clone(),
                        infer_node(&a.value, env, file, ctx, None, work)?,
                    ))
                })
                .collect::<Result<Vec<_>, Diagnostic>>()?;
            keep(&typed.iter().map(|(_, t)| t).collect::<Vec<_>>());
            call(func, *func_span, e.span, args, typed, file, ctx, work)?
        }
        // An operator's error is about the combination of its operands, so
        // it underlines the whole operation.
        ExprKind::Unary { op, expr } => {
            let t = infer_node(expr, env, file, ctx, None, work)?;
            keep(&[&t]);
            let name = match op {
                UnaryOp::Neg => "-",
                UnaryOp::Plus => "+",
            };
            call(name, e.span, e.span, &[], vec![(None, t)], file, ctx, work)?
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let l = infer_node(lhs, env, file, ctx, None, work)?;
            let r = infer_node(rhs, env, file, ctx, None, work)?;
            keep(&[&l, &r]);
            call(
                op.symbol(),
                e.span,
                e.span,
                &[],
                vec![(None, l), (None, r)],
                file,
                ctx,
                work,
            )?
        }
        ExprKind::Index {
            target,
            indices,
            drop,
        } => {
            let t = infer_node(target, env, file, ctx, None, work)?;
            keep(&[&t]);
            let extents: Vec<Option<usize>> = match (&t, indices.len()) {
                (Type::Mat { rows, cols } | Type::ComplexMat { rows, cols }, 2) => {
                    vec![*rows, *cols]
                }
                _ => vec![t.len(); indices.len()],
            };
            let idx = indices
                .iter()
                .zip(extents)
                .map(|(i, n)| {
                    i.as_ref()
                        .map(|i| {
                            if i.is_logical_na(file) {
                                return Ok(match n {
                                    Some(n) => Type::num_const(vec![crate::kernels::value::NA; n]),
                                    None => Type::num_unknown(),
                                });
                            }
                            infer_node(i, env, file, ctx, None, work)
                        })
                        .transpose()
                })
                .collect::<Result<Vec<_>, Diagnostic>>()?;
            let drop = match drop {
                Some(d) => {
                    let dt = infer_node(d, env, file, ctx, None, work)?;
                    match dt.const_scalar() {
                        Some(x) if !x.is_nan() => x != 0.0,
                        Some(_) => {
                            return Err(diag(
                                file,
                                d.span,
                                "invalid 'drop' argument: TRUE or FALSE needed",
                            ))
                        }
                        None => true,
                    }
                }
                None => true,
            };
            let r = index::index_drop_type(&t, &idx, drop).map_err(|(at, msg)| {
                let span = at
                    .and_then(|k| indices.get(k).cloned().flatten())
                    .map_or(e.span, |i| i.span);
                diag(file, span, msg)
            })?;
            *work += work::access_work(&r);
            r
        }
        ExprKind::Index2 {
            target,
            index: i,
            column,
        } => {
            let t = infer_node(target, env, file, ctx, None, work)?;
            keep(&[&t]);
            let it = infer_node(i, env, file, ctx, None, work)?;
            match column {
                Some(j) => {
                    let jt = infer_node(j, env, file, ctx, None, work)?;
                    index::index2_matrix_type(&t, &it, &jt).map_err(|(at, msg)| {
                        let span = match at {
                            Some(0) => i.span,
                            Some(_) => j.span,
                            None => e.span,
                        };
                        diag(file, span, msg)
                    })?
                }
                None => index::index2_type(&t, &it).map_err(|(at, msg)| {
                    diag(file, if at.is_some() { i.span } else { e.span }, msg)
                })?,
            }
        }
        ExprKind::Field {
            target,
            name,
            name_span,
        } => {
            let t = infer_node(target, env, file, ctx, None, work)?;
            keep(&[&t]);
            index::field_type(&t, name).map_err(|(_, msg)| diag(file, *name_span, msg))?
        }
        ExprKind::Formula { lhs, rhs } => {
            // The terms are evaluated with the step (their draws from the
            // random stream count), so their work is the step's.
            let response = lhs
                .as_ref()
                .map(|l| infer_node(l, env, file, ctx, None, work).map(Box::new))
                .transpose()?;
            let (terms, intercept) = formula_terms(rhs);
            let terms = terms
                .into_iter()
                .map(|t| {
                    Ok((
                        term_label(file, t.span),
                        infer_node(t, env, file, ctx, None, work)?,
                    ))
                })
                .collect::<Result<Vec<_>, Diagnostic>>()?;
            Type::Formula {
                response,
                terms,
                intercept,
            }
        }
    };
    Ok(ty)
}

/// Matches and checks a call, adding its work to `work`; errors point at
/// the offending argument.
#[allow(clippy::too_many_arguments)]
fn call(
    func: &str,
    func_span: Span,
    call_span: Span,
    args: &[Arg],
    typed: Vec<(Option<String>, Type)>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    work: &mut Work,
) -> Result<Type, Diagnostic> {
    let kernel = registry()
        .get(func)
        .ok_or_else(|| diag(file, func_span, format!("could not find function `{func}`")))?;
    let at = |e: ArgError| {
        let span = e
            .arg
            .and_then(|i| args.get(i))
            .map_or(call_span, |a| a.span);
        diag(file, span, e.message)
    };
    let matched = Args::match_call(kernel.name, kernel.params, typed).map_err(at)?;
    let ty = (kernel.shape)(&matched, ctx).map_err(at)?;
    *work += work::work(kernel.name, &matched, &ty);
    Ok(ty)
}

/// Splits a formula's right-hand side into its terms: `x1 + x2 - 1` gives
/// `[x1, x2]` without intercept. `+ 0` also removes the intercept. A term
/// written twice counts once, as R's `terms()` has it (`y ~ x + x` fits one
/// slope, not an aliased copy).
pub fn formula_terms(rhs: &Expr) -> (Vec<&Expr>, bool) {
    fn is_const(e: &Expr, v: f64) -> bool {
        matches!(e.kind, ExprKind::Num(x) if x == v)
    }
    fn walk<'a>(e: &'a Expr, terms: &mut Vec<&'a Expr>, intercept: &mut bool) {
        match &e.kind {
            ExprKind::Binary {
                op: BinaryOp::Add,
                lhs,
                rhs,
            } => {
                walk(lhs, terms, intercept);
                if is_const(rhs, 0.0) {
                    *intercept = false;
                } else if is_const(rhs, 1.0) {
                    *intercept = true;
                } else {
                    walk(rhs, terms, intercept);
                }
            }
            ExprKind::Binary {
                op: BinaryOp::Sub,
                lhs,
                rhs,
            } if is_const(rhs, 1.0) => {
                walk(lhs, terms, intercept);
                *intercept = false;
            }
            _ if is_const(e, 0.0) => *intercept = false,
            _ if is_const(e, 1.0) => {}
            _ => {
                let text = crate::workflow::sexpr(e);
                if !terms.iter().any(|t| crate::workflow::sexpr(t) == text) {
                    terms.push(e);
                }
            }
        }
    }
    let mut terms = Vec::new();
    let mut intercept = true;
    walk(rhs, &mut terms, &mut intercept);
    (terms, intercept)
}

/// A term's label as R prints it: its source text.
pub fn term_label(file: &SourceFile, span: Span) -> String {
    file.text.get(span.start..span.end).map_or_else(
        || "x".to_string(),
        |s| s.split_whitespace().collect::<Vec<_>>().join(" "),
    )
}

/// The iteration values of a loop's range: known at analysis time, integer
/// and non-empty.
pub fn loop_range(
    range: &Expr,
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Result<Vec<f64>, Diagnostic> {
    // `a:b` is computed directly, so long ranges need not be carried as
    // constants through inference.
    let values = if let ExprKind::Binary {
        op: BinaryOp::Range,
        lhs,
        rhs,
    } = &range.kind
    {
        let from = infer(lhs, env, file, ctx)?.const_scalar();
        let to = infer(rhs, env, file, ctx)?.const_scalar();
        match (from, to) {
            (Some(a), Some(b)) if a.is_finite() && b.is_finite() => {
                let n = (b - a).abs().floor() as usize + 1;
                if n > 100_000_000 {
                    return Err(diag(
                        file,
                        range.span,
                        format!("loop range has {n} iterations, more than flowcast supports"),
                    ));
                }
                let step = if b >= a { 1.0 } else { -1.0 };
                Some((0..n).map(|k| a + step * k as f64).collect())
            }
            _ => None,
        }
    } else {
        match infer(range, env, file, ctx)? {
            Type::Null => Some(Vec::new()),
            t => t.const_nums(),
        }
    };
    let Some(values) = values else {
        return Err(diag(
            file,
            range.span,
            "loop range must be known before the run (constants, or sizes of other steps)",
        ));
    };
    if values.is_empty() {
        return Err(diag(file, range.span, "loop range is empty"));
    }
    if let Some(bad) = values.iter().find(|v| !v.is_finite() || v.fract() != 0.0) {
        return Err(diag(
            file,
            range.span,
            format!("loop range must be integers, but it contains {bad}"),
        ));
    }
    Ok(values)
}
