//! Shape inference: the type and dimensions of every expression, from the
//! file alone, using each kernel's shape rule. Small constants are folded on
//! the way (`1200 * 1200`, `1:nrow(a)`), because sizes are written as
//! expressions.

use std::borrow::Cow;
use std::collections::HashMap;

use super::diag;
use super::formula;
use super::function_args;
use super::promises;
use crate::diagnostic::{Diagnostic, SourceFile, Span};
use crate::kernels::conditions::{condition_type, Signal};
use crate::kernels::fun::{self, Runs};
use crate::kernels::switch;
use crate::kernels::work::{self, Work};
use crate::kernels::{
    frame, index, logical, model_matrix, registry, ArgError, Args, ShapeCtx, Type,
};
use crate::workflow::{binding, deparse, Arg, BinaryOp, Expr, ExprKind};

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

/// How an index access copies its result out of a target of type `t`:
/// as one slice (a vector's `x[a:b]` that the evaluator slices,
/// `sliced`), as slices of its columns (a matrix subscript whose rows and
/// columns each run up by one: `index::Extent::Run`), or element by
/// element.
fn copying(
    t: &Type,
    indices: &[Option<Expr>],
    idx: &[Option<Type>],
    sliced: bool,
) -> work::Copying {
    if sliced {
        return work::Copying::Slice {
            subscripts_read: false,
        };
    }
    let runs = matches!(t, Type::Mat { .. })
        && indices.len() == 2
        && indices
            .iter()
            .zip(idx)
            .all(|(i, ty)| runs_up(i.as_ref(), ty.as_ref()));
    if runs {
        work::Copying::Slice {
            subscripts_read: true,
        }
    } else {
        work::Copying::Picked
    }
}

/// Whether a matrix subscript selects a run of rows or columns: none
/// given, one position, or `a:b` running up (which the evaluator still
/// builds, and checks).
fn runs_up(i: Option<&Expr>, ty: Option<&Type>) -> bool {
    let (Some(e), Some(t)) = (i, ty) else {
        return i.is_none();
    };
    if !matches!(t, Type::Num { .. }) {
        return false;
    }
    match t.const_nums() {
        Some(v) => v.windows(2).all(|w| w[1] == w[0] + 1.0),
        None => e.range_ends().is_some() || t.len() == Some(1),
    }
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
        ExprKind::Bool(b) => Type::logical_const(vec![Some(*b)]),
        ExprKind::Null => Type::Null,
        ExprKind::Missing => {
            return Err(diag(file, e.span, "argument is missing, with no default"))
        }
        ExprKind::Na if e.is_logical_na(file) => Type::logical_const(vec![None]),
        ExprKind::Na => Type::scalar_const(crate::kernels::value::NA),
        ExprKind::Name(n) => match env.get(n.as_str()) {
            Some(t) => t.clone(),
            None => match crate::kernels::constants::constant_type(n) {
                Some(t) => t,
                // What a `...` took is not typed (the names' check has
                // seen that there is a `...` around).
                None if n == crate::workflow::DOTS || crate::workflow::is_dots_element(n) => {
                    Type::Any
                }
                None => return Err(diag(file, e.span, format!("object `{n}` not found"))),
            },
        },
        ExprKind::Call { func, args, .. } if func == "switch" => {
            switch_type(e, args, env, file, ctx, work)?
        }
        // `missing(x)` reads no value of `x`; whether the call gave one is
        // known only as it runs (`exec::eval`).
        ExprKind::Call { func, args, .. } if func == "missing" => {
            function_args::missing_arg(args).map_err(|m| diag(file, e.span, m))?;
            Type::Bool {
                len: Some(1),
                value: None,
            }
        }
        ExprKind::Call { func, args, .. } if func == "tryCatch" => {
            try_catch_type(e, args, env, file, ctx, work)?
        }
        ExprKind::Call { func, args, .. } if func == "try" => {
            try_type(e, args, env, file, ctx, work)?
        }
        ExprKind::Call {
            func,
            func_span,
            args,
        } => {
            let args = &*dots_expanded(args, env);
            let closures = function_args::closure(func, args)
                .map_err(|(span, message)| diag(file, span, message))?
                .map(|c| c.map(|(_, c)| c));
            let mut typed = infer_args(func, args, env, file, ctx, work)?;
            let one_column: Vec<bool> = typed.iter().map(|(_, t)| one_column(t)).collect();
            let with_frame = typed.iter().any(|(_, t)| frame::frame_fields(t).is_some());
            let mut tags: Vec<&mut Option<String>> = typed.iter_mut().map(|(n, _)| n).collect();
            super::implicit_names::tag(func, args, &mut tags, |i| one_column[i], with_frame);
            keep(&typed.iter().map(|(_, t)| t).collect::<Vec<_>>());
            if super::promises::call_draws_lazily(func, args) || super::simulates(func, args) {
                work.unknown_draws = true;
            }
            if closures.iter().all(Option::is_none) {
                call(func, *func_span, e.span, args, typed, file, ctx, work)?
            } else {
                with_closure(closures, env, file, ctx, work, |ctx, work| {
                    call(func, *func_span, e.span, args, typed, file, ctx, work)
                })?
            }
        }
        // An operator's error is about the combination of its operands, so
        // it underlines the whole operation.
        ExprKind::Unary { op, expr } => {
            let t = infer_node(expr, env, file, ctx, None, work)?;
            keep(&[&t]);
            call(
                op.symbol(),
                e.span,
                e.span,
                &[],
                vec![(None, t)],
                file,
                ctx,
                work,
            )?
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let l = infer_node(lhs, env, file, ctx, None, work)?;
            let r = infer_node(rhs, env, file, ctx, None, work)?;
            // `&&` and `||` evaluate their right side only when the left
            // does not decide (see `promises`).
            if matches!(op, BinaryOp::AndAnd | BinaryOp::OrOr) && super::draws_random(rhs) {
                work.unknown_draws = true;
            }
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
            // `x[a:b]` of a numeric vector: the evaluator copies a slice
            // and never builds a:b (`exec::eval`), so only its ends cost.
            let vector_slice = match (&t, &indices[..], drop) {
                (Type::Num { .. }, [Some(i)], None) => {
                    i.range_ends().map(|(lhs, rhs)| (i.span, lhs, rhs))
                }
                _ => None,
            };
            let mut sliced = false;
            let idx = match vector_slice {
                Some((span, lhs, rhs)) => {
                    let l = infer_node(lhs, env, file, ctx, None, work)?;
                    let r = infer_node(rhs, env, file, ctx, None, work)?;
                    // Ends known to run down (or from below 1) take the
                    // general path, which builds a:b.
                    sliced = match (l.const_scalar(), r.const_scalar()) {
                        (Some(a), Some(b)) => a >= 1.0 && a <= b,
                        _ => true,
                    };
                    let ends = vec![(None, l), (None, r)];
                    let mut built = Work::default();
                    let range = call(":", span, span, &[], ends, file, ctx, &mut built)?;
                    if !sliced {
                        *work += built;
                    }
                    vec![Some(range)]
                }
                None => indices
                    .iter()
                    .zip(extents)
                    .map(|(i, n)| {
                        i.as_ref()
                            .map(|i| {
                                if i.is_logical_na(file) {
                                    return Ok(match n {
                                        Some(n) => {
                                            Type::num_const(vec![crate::kernels::value::NA; n])
                                        }
                                        None => Type::num_unknown(),
                                    });
                                }
                                let t = infer_node(i, env, file, ctx, None, work)?;
                                // `m[, -j]` with `j` unknown drops a column
                                // rather than picking one: how many are
                                // left is unknown, as is whether R drops
                                // the matrix to a vector.
                                let negated = matches!(
                                    i.kind,
                                    ExprKind::Unary {
                                        op: crate::workflow::UnaryOp::Neg,
                                        ..
                                    }
                                );
                                Ok(match t {
                                    Type::Num { value: None, .. } if negated => Type::num_unknown(),
                                    t => t,
                                })
                            })
                            .transpose()
                    })
                    .collect::<Result<Vec<_>, Diagnostic>>()?,
            };
            let copy = copying(&t, indices, &idx, sliced);
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
            *work += work::access_work(&r, &idx, copy);
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
        // The terms are evaluated with the step (their draws from the
        // random stream count), so their work is the step's.
        ExprKind::Formula { lhs, rhs } => {
            let mut unknown = false;
            e.visit_names(&mut |n, _| {
                unknown |= n != "."
                    && !env.contains_key(n)
                    && crate::kernels::constants::constant_type(n).is_none()
            });
            if unknown {
                // Kept as its text until data gives its names values.
                Type::Any
            } else {
                infer_formula(lhs.as_deref(), rhs, env, file, ctx, work, None)?
            }
        }
        ExprKind::Function { .. } => {
            return Err(diag(
                file,
                e.span,
                "a function(...) is a value only as the function argument of sapply, \
                 Reduce, mapply and the like",
            ))
        }
        ExprKind::Apply {
            params, body, args, ..
        } => {
            let args = &*dots_expanded(args, env);
            let given = args
                .iter()
                .map(|a| {
                    Ok((
                        a.name.clone(),
                        infer_node(&a.value, env, file, ctx, None, work)?,
                    ))
                })
                .collect::<Result<Vec<_>, Diagnostic>>()?;
            let bound =
                function_args::bind(params, body, given).map_err(|m| diag(file, e.span, m))?;
            bound_type(bound, body, env, file, ctx, work)?
        }
        ExprKind::Block(_)
        | ExprKind::Assign { .. }
        | ExprKind::If { .. }
        | ExprKind::For { .. }
        | ExprKind::While { .. }
        | ExprKind::Break
        | ExprKind::Next => {
            let mut locals: HashMap<&str, Type> =
                env.iter().map(|(k, v)| (*k, v.clone())).collect();
            statement(e, &mut locals, file, ctx, work)?
        }
    };
    Ok(ty)
}

/// The type of statement `s`, run after the statements that made `env`;
/// its assignments are added to `env` (see `exec::statements`). Of an `if`
/// whose condition is not known before the run, both branches are inferred
/// and joined, and the costlier one's work is charged.
fn statement<'e>(
    s: &'e Expr,
    env: &mut HashMap<&'e str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    work: &mut Work,
) -> Result<Type, Diagnostic> {
    match &s.kind {
        ExprKind::Assign { name, value, .. } => {
            let mut w = Work::default();
            let t = statement(value, env, file, ctx, &mut w)?;
            *work += match element_set_in_place(name, value, env, &t) {
                // Only what the positions and the value cost, when each is
                // one number.
                Some(args) => {
                    let mut wa = Work::default();
                    let mut one = true;
                    for a in args {
                        let ta = infer_node(&a.value, env, file, ctx, None, &mut wa)?;
                        one &= matches!(ta, Type::Num { len: Some(1), .. });
                    }
                    if one {
                        wa
                    } else {
                        w
                    }
                }
                None => w,
            };
            env.insert(name, t.clone());
            Ok(t)
        }
        ExprKind::Block(stmts) => {
            let mut last = Type::Null;
            for st in stmts {
                last = statement(st, env, file, ctx, work)?;
            }
            Ok(last)
        }
        ExprKind::If { cond, yes, no } => {
            let c = infer_node(cond, env, file, ctx, None, work)?;
            if let Some(n) = c.len().filter(|&n| n != 1) {
                let message = if n == 0 {
                    "argument is of length zero"
                } else {
                    "the condition has length > 1"
                };
                return Err(diag(file, cond.span, message));
            }
            let known = match &c {
                Type::Bool { value: Some(v), .. } => v.first().copied().flatten(),
                Type::Num { value: Some(v), .. } => {
                    v.first().filter(|x| !x.is_nan()).map(|&x| x != 0.0)
                }
                _ => None,
            };
            let branch_type = |b: Option<&'e Expr>,
                               env: &mut HashMap<&'e str, Type>,
                               work: &mut Work|
             -> Result<Type, Diagnostic> {
                match b {
                    Some(b) => statement(b, env, file, ctx, work),
                    None => Ok(Type::Null),
                }
            };
            match known {
                Some(true) => branch_type(Some(yes), env, work),
                Some(false) => branch_type(no.as_deref(), env, work),
                None => {
                    let (mut e1, mut e2) = (env.clone(), env.clone());
                    let (mut w1, mut w2) = (Work::default(), Work::default());
                    let t1 = branch_type(Some(yes), &mut e1, &mut w1)?;
                    let t2 = branch_type(no.as_deref(), &mut e2, &mut w2)?;
                    // Which branch runs, and so what it draws, only the run
                    // tells.
                    let draws = w1.draws != w2.draws || w1.unknown_draws || w2.unknown_draws;
                    let mut w =
                        if w1.equivalent_ops() + w1.seconds >= w2.equivalent_ops() + w2.seconds {
                            w1
                        } else {
                            w2
                        };
                    w.unknown_draws |= draws;
                    *work += w;
                    // A branch that stops gives no value: the other one's type
                    // is the statement's.
                    match (stops(yes), no.as_deref().is_some_and(stops)) {
                        (true, false) => {
                            *env = e2;
                            return Ok(t2);
                        }
                        (false, true) => {
                            *env = e1;
                            return Ok(t1);
                        }
                        _ => {}
                    }
                    for (name, t) in e1 {
                        let joined = match e2.get(name) {
                            Some(t2) => t.join(t2),
                            None => t,
                        };
                        env.insert(name, joined);
                    }
                    for (name, t) in e2 {
                        env.entry(name).or_insert(t);
                    }
                    Ok(t1.join(&t2))
                }
            }
        }
        ExprKind::For { var, seq, body, .. } => {
            let st = infer_node(seq, env, file, ctx, None, work)?;
            let filled = filled_in_order(var, &st, body, env);
            let w = loop_body(body, Some((var, element_type(&st))), None, env, file, ctx)?;
            if let Some(fill) = filled {
                // The value's type where every iteration's locals are
                // joined: one element of a kind each round.
                let mut inner = env.clone();
                inner.insert(var, element_type(&st));
                let one = infer_node(fill.value, &inner, file, ctx, None, &mut Work::default());
                let filled = match (env.get(fill.name), one) {
                    (Some(Type::Num { len: None, .. }), _) => Some(Type::num(fill.len)),
                    // From NULL: the loop ran, so the kind is the value's.
                    (Some(Type::Any), Ok(Type::Num { len: Some(1), .. })) if fill.from_null => {
                        Some(Type::num(fill.len))
                    }
                    _ => None,
                };
                if let Some(t) = filled {
                    env.insert(fill.name, t);
                }
            }
            let runs = match st.len() {
                Some(n) if !leaves_early(body) => Runs::Exactly(n),
                Some(n) => Runs::About(n as f64),
                None => Runs::Unknown,
            };
            *work += w.times(runs);
            Ok(Type::Null)
        }
        ExprKind::While { cond, body } => {
            let w = loop_body(body, None, cond.as_deref(), env, file, ctx)?;
            *work += w.times(Runs::Unknown);
            Ok(Type::Null)
        }
        ExprKind::Break | ExprKind::Next => Ok(Type::Null),
        _ => infer_node(s, env, file, ctx, None, work),
    }
}

/// `r[i] <- v`, the loop's only assignment of `r`, with `i` running over
/// 1, 2, ..., n and no `break` or `next` (`r <- NULL; for (i in 1:n) r[i]
/// <- i^2`): once the loop ends, `r` has n elements, or as many as it had
/// before if more, which no single round's type can tell. The name and
/// that length; `None` for any other loop.
fn filled_in_order<'e>(
    var: &str,
    seq: &Type,
    body: &'e Expr,
    env: &HashMap<&'e str, Type>,
) -> Option<Fill<'e>> {
    let Type::Num { value: Some(v), .. } = seq else {
        return None;
    };
    let ascending = !v.is_empty() && v.iter().enumerate().all(|(k, &x)| x == (k + 1) as f64);
    if !ascending || leaves_early(body) {
        return None;
    }
    let stmts: Vec<&Expr> = match &body.kind {
        ExprKind::Block(stmts) => stmts.iter().collect(),
        _ => vec![body],
    };
    let (name, value) = stmts.iter().find_map(|st| {
        let ExprKind::Assign { name, value, .. } = &st.kind else {
            return None;
        };
        let ExprKind::Call { func, args, .. } = &value.kind else {
            return None;
        };
        let fits = func == "[<-"
            && args.len() == 3
            && matches!(&args[0].value.kind, ExprKind::Name(n) if n == name)
            && args[1].name.as_deref().is_none_or(|n| n == "i")
            && matches!(&args[1].value.kind, ExprKind::Name(n) if n == var)
            && args[2].name.as_deref() == Some("value");
        fits.then(|| (name.as_str(), &args[2].value))
    })?;
    let mut assigned = Vec::new();
    body.assigned(&mut assigned);
    let once = assigned.iter().filter(|&&a| a == name).count() == 1;
    if !once || assigned.contains(&var) {
        return None;
    }
    let before = match env.get(name)? {
        Type::Null => 0,
        Type::Num { len: Some(k), .. } => *k,
        _ => return None,
    };
    Some(Fill {
        name,
        value,
        len: before.max(v.len()),
        from_null: before == 0 && matches!(env.get(name), Some(Type::Null)),
    })
}

/// A loop that fills a local in order (see [`filled_in_order`]).
struct Fill<'e> {
    name: &'e str,
    /// The `v` of `r[i] <- v`.
    value: &'e Expr,
    /// `r`'s length once the loop ends.
    len: usize,
    /// `r` was NULL before the loop.
    from_null: bool,
}

/// The positions and value of `name <- `[<-`(name, i, value = v)` when
/// the evaluator may set the element where it lies (see
/// `exec::statements`): a numeric vector or matrix before and after (the
/// caller checks that the positions and value are single numbers).
/// Copying the whole target is then no part of its cost.
fn element_set_in_place<'e>(
    name: &str,
    value: &'e Expr,
    env: &HashMap<&str, Type>,
    after: &Type,
) -> Option<&'e [Arg]> {
    let ExprKind::Call { func, args, .. } = &value.kind else {
        return None;
    };
    let (target, rest) = args.split_first()?;
    let numeric = |t: &Type| matches!(t, Type::Num { .. } | Type::Mat { .. });
    let fits = func == "[<-"
        && matches!(&target.value.kind, ExprKind::Name(n) if n == name)
        && (2..=3).contains(&rest.len())
        && env.get(name).is_some_and(numeric)
        && numeric(after);
    fits.then_some(rest)
}

/// The most rounds [`loop_body`] infers a body before it gives up on the
/// types still changing.
const LOOP_ROUNDS: usize = 8;

/// The work of one iteration of a loop's `body` (with its condition's,
/// for a `while`), leaving in `env` the types of the locals after any
/// number of iterations: each name the body assigns takes the join of
/// its types before the loop and after each iteration. The body is
/// inferred until no type changes; each round can only forget (a value,
/// then a size, then the kind), so this ends within a few.
fn loop_body<'e>(
    body: &'e Expr,
    var: Option<(&'e str, Type)>,
    cond: Option<&'e Expr>,
    env: &mut HashMap<&'e str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Result<Work, Diagnostic> {
    match loop_rounds(body, &var, cond, env.clone(), file, ctx) {
        Ok((w, after)) => {
            *env = after;
            Ok(w)
        }
        // A name the body reads before it assigns it (in a branch that
        // only a later iteration takes) has no type on the first round:
        // such names start unknown.
        Err(_) => {
            let mut entry = env.clone();
            let mut assigned = Vec::new();
            body.assigned(&mut assigned);
            for name in assigned {
                entry.entry(name).or_insert(Type::Any);
            }
            let (w, after) = loop_rounds(body, &var, cond, entry, file, ctx)?;
            *env = after;
            Ok(w)
        }
    }
}

/// [`loop_body`]'s rounds from the types in `entry`: one iteration's work
/// and the types after the loop.
fn loop_rounds<'e>(
    body: &'e Expr,
    var: &Option<(&'e str, Type)>,
    cond: Option<&'e Expr>,
    mut entry: HashMap<&'e str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Result<(Work, HashMap<&'e str, Type>), Diagnostic> {
    for round in 0.. {
        let mut inner = entry.clone();
        if let Some((v, t)) = &var {
            inner.insert(v, t.clone());
        }
        let mut w = Work::default();
        if let Some(c) = cond {
            let t = infer_node(c, &inner, file, ctx, None, &mut w)?;
            if let Some(n) = t.len().filter(|&n| n != 1) {
                let message = if n == 0 {
                    "argument is of length zero"
                } else {
                    "the condition has length > 1"
                };
                return Err(diag(file, c.span, message));
            }
        }
        statement(body, &mut inner, file, ctx, &mut w)?;
        let mut next = entry.clone();
        for (name, t) in inner {
            let joined = match entry.get(name) {
                Some(before) => before.join(&t),
                None => t,
            };
            next.insert(name, joined);
        }
        if next == entry || round + 1 == LOOP_ROUNDS {
            for (name, t) in next.iter_mut() {
                if entry.get(name) != Some(t) {
                    *t = Type::Any;
                }
            }
            return Ok((w, next));
        }
        entry = next;
    }
    unreachable!("the rounds end at LOOP_ROUNDS")
}

/// The type of a `for` loop's variable over a sequence of type `t`: one
/// element, its value unknown before the run.
fn element_type(t: &Type) -> Type {
    match t {
        Type::Num { .. } | Type::Mat { .. } => Type::Num {
            len: Some(1),
            value: None,
        },
        // R's `for` takes a factor's labels.
        Type::Str { .. } | Type::StrMat { .. } | Type::Factor { .. } => Type::Str {
            len: Some(1),
            value: None,
        },
        Type::Bool { .. } | Type::BoolMat { .. } => Type::Bool {
            len: Some(1),
            value: None,
        },
        Type::Complex { .. } | Type::ComplexMat { .. } => Type::Complex { len: Some(1) },
        Type::List { elem, .. } => (**elem).clone(),
        Type::Record { fields, .. } => fields
            .iter()
            .map(|(_, t)| t.clone())
            .reduce(|a, b| a.join(&b))
            .unwrap_or(Type::Any),
        _ => Type::Any,
    }
}

/// Whether a loop body may end an iteration early (a `break` or `next`
/// of its own, not of a loop or function inside it), so that what it
/// draws differs between iterations.
fn leaves_early(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Break | ExprKind::Next => true,
        ExprKind::For { seq, .. } => leaves_early(seq),
        ExprKind::While { cond, .. } => cond.as_deref().is_some_and(leaves_early),
        ExprKind::Function { .. } => false,
        _ => {
            let mut found = false;
            e.visit_children(&mut |c| found |= leaves_early(c));
            found
        }
    }
}

/// The type of a written `switch`: of the alternative `EXPR` picks when
/// its value is known before the run; otherwise of every alternative that
/// may be picked, joined, with the costliest one's work charged (as for an
/// `if`).
fn switch_type(
    e: &Expr,
    args: &[Arg],
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    work: &mut Work,
) -> Result<Type, Diagnostic> {
    let (expr, alts) = promises::switch_args(args).map_err(|m| diag(file, e.span, m))?;
    let t = infer_node(&expr.value, env, file, ctx, None, work)?;
    let key = switch::key_of_type(&t).map_err(|m| diag(file, e.span, m))?;
    if let Some(key) = key {
        let written = promises::switch_alternatives(alts);
        let chosen = switch::choose(&key, &written, |i| deparse(&alts[i].value))
            .map_err(|m| diag(file, e.span, m))?;
        return match chosen {
            Some(i) => infer_node(&alts[i].value, env, file, ctx, None, work),
            None => Ok(Type::Null),
        };
    }
    let mut costliest: Option<Work> = None;
    let mut draws = None;
    let mut types = Vec::with_capacity(alts.len());
    for a in alts {
        if matches!(a.value.kind, ExprKind::Missing) || stops(&a.value) {
            types.push(None);
            continue;
        }
        let mut w = Work::default();
        types.push(Some(infer_node(&a.value, env, file, ctx, None, &mut w)?));
        // Which alternative runs, and so what it draws, only the run tells.
        let unknown = w.unknown_draws || draws.is_some_and(|d| d != w.draws);
        draws = Some(w.draws);
        if costliest
            .as_ref()
            .is_none_or(|c| w.equivalent_ops() + w.seconds > c.equivalent_ops() + c.seconds)
        {
            costliest = Some(w);
        }
        if unknown {
            costliest.as_mut().expect("set above").unknown_draws = true;
        }
    }
    if let Some(w) = costliest {
        *work += w;
    }
    let names: Vec<Option<&str>> = alts.iter().map(|a| a.name.as_deref()).collect();
    switch::result_type(None, &names, &types).map_err(|m| diag(file, e.span, m))
}

/// The type of a written `try`: `expr`'s, or the "try-error" text. What
/// analysis finds wrong in `expr` R signals only when it runs, and try
/// catches it, so it is left to the run.
fn try_type(
    e: &Expr,
    args: &[Arg],
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    work: &mut Work,
) -> Result<Type, Diagnostic> {
    let expr = promises::try_expr(args).map_err(|m| diag(file, e.span, m))?;
    if promises::call_draws_lazily("try", args) {
        work.unknown_draws = true;
    }
    let Some(x) = expr else {
        return Err(diag(
            file,
            e.span,
            "argument \"expr\" is missing, with no default",
        ));
    };
    Ok(match infer_node(&x.value, env, file, ctx, None, work) {
        Ok(t) => t.join(&Type::Str {
            len: Some(1),
            value: None,
        }),
        Err(_) => Type::Any,
    })
}

/// The type of a written `tryCatch`: `expr`'s joined with what each
/// handler returns (a handler that stops returns nothing). What analysis
/// finds wrong in `expr`, R signals only when it runs, so with a handler
/// for errors it is left to the run.
fn try_catch_type(
    e: &Expr,
    args: &[Arg],
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    work: &mut Work,
) -> Result<Type, Diagnostic> {
    let tc = promises::try_catch_args(args).map_err(|m| diag(file, e.span, m))?;
    // Whether a handler runs, and what `expr` draws before it fails, only
    // the run tells.
    if promises::call_draws_lazily("tryCatch", args) {
        work.unknown_draws = true;
    }
    let catches_errors = tc.handlers.iter().any(|(c, _)| Signal::Error.caught_by(c));
    let mut t = match tc.expr {
        Some(x) => match infer_node(&x.value, env, file, ctx, None, work) {
            Ok(t) => t,
            Err(_) if catches_errors => Type::Any,
            Err(d) => return Err(d),
        },
        None => Type::Null,
    };
    for (class, h) in &tc.handlers {
        let signal = match () {
            _ if Signal::Error.caught_by(class) => Signal::Error,
            _ if Signal::Warning.caught_by(class) => Signal::Warning,
            _ if Signal::Message.caught_by(class) => Signal::Message,
            _ => continue,
        };
        let cond = vec![(None, condition_type(signal))];
        let mut w = Work::default();
        let handled = match &h.value.kind {
            ExprKind::Function { body, .. } if stops(body) => continue,
            ExprKind::Function { params, .. } if params.is_empty() => Type::Any,
            ExprKind::Function { params, body } => {
                let bound = function_args::bind(params, body, cond)
                    .map_err(|m| diag(file, h.value.span, m))?;
                bound_type(bound, body, env, file, ctx, &mut w)?
            }
            ExprKind::Name(n) if registry().get(n).is_some() => {
                let at = h.value.span;
                call(n, at, at, &[], cond, file, ctx, &mut w)?
            }
            _ => return Err(diag(file, h.value.span, "attempt to apply non-function")),
        };
        t = t.join(&handled);
    }
    if let Some(f) = tc.finally {
        infer_node(&f.value, env, file, ctx, None, work)?;
    }
    Ok(t)
}

/// `args` with a `...` among them replaced by what the function running
/// took for it (see [`bound_type`]).
fn dots_expanded<'a>(args: &'a [Arg], env: &HashMap<&str, Type>) -> Cow<'a, [Arg]> {
    match env.get(crate::workflow::DOTS) {
        Some(Type::Str {
            value: Some(names), ..
        }) if binding::passes_dots(args) => Cow::Owned(binding::expand_dots(args, names)),
        _ => Cow::Borrowed(args),
    }
}

/// The type of a function's `body` with its parameters `bound` (see
/// `function_args::bind`), defaults typed with the arguments given.
fn bound_type(
    bound: function_args::Bound<'_, Type>,
    body: &Expr,
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    work: &mut Work,
) -> Result<Type, Diagnostic> {
    let mut inner: HashMap<&str, Type> = env.iter().map(|(k, v)| (*k, v.clone())).collect();
    // What `...` took, as the evaluator binds it (`exec::eval::run_bound`).
    let at: Vec<String> = (1..=bound.dots.len()).map(|k| format!("..{k}")).collect();
    if bound.has_dots {
        let names = bound
            .dots
            .iter()
            .map(|(n, _)| n.clone().unwrap_or_default())
            .collect();
        inner.insert(
            crate::workflow::DOTS,
            Type::Str {
                len: Some(bound.dots.len()),
                value: Some(names),
            },
        );
        for (name, (_, t)) in at.iter().zip(bound.dots) {
            inner.insert(name, t);
        }
    }
    let bound = bound.params;
    for (p, t) in &bound {
        if let Some(t) = t {
            inner.insert(p.name.as_str(), t.clone());
        }
    }
    let mut defaults = Vec::new();
    for (p, t) in &bound {
        if let (None, Some(d)) = (t, &p.default) {
            defaults.push((
                p.name.as_str(),
                infer_node(d, &inner, file, ctx, None, work)?,
            ));
        }
    }
    inner.extend(defaults);
    // A parameter given nothing, whose body asks `missing` of it: what it
    // reads where the call gave it is not known here.
    for (p, t) in &bound {
        if t.is_none() && p.default.is_none() {
            inner.insert(p.name.as_str(), Type::Any);
        }
    }
    infer_node(body, &inner, file, ctx, None, work)
}

/// Whether statement `e` ends in `stop(...)`, so never gives a value. (A
/// `break` or `next` gives none either, but what its branch assigned
/// reaches the loop's end or next iteration.)
fn stops(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call { func, .. } => func == "stop",
        ExprKind::Block(stmts) => stmts.last().is_some_and(stops),
        _ => false,
    }
}

/// Runs `kernel_call` with the call's closures (`params`, `body`) in its
/// context: the kernel's shape rule asks for a body's type at its
/// arguments' types, and the body's work counts as many times as the
/// kernel says it runs. An error in a body points into the body.
fn with_closure<T>(
    closures: [Option<function_args::ClosureParts>; 2],
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    work: &mut Work,
    kernel_call: impl FnOnce(&ShapeCtx, &mut Work) -> Result<T, Diagnostic>,
) -> Result<T, Diagnostic> {
    let failure: std::cell::RefCell<Option<Diagnostic>> = std::cell::RefCell::new(None);
    let body_work = std::cell::Cell::new(Work::default());
    let plain = ShapeCtx {
        base_dir: ctx.base_dir,
        written: ctx.written,
        closure: None,
        closure2: None,
    };
    let [first, second] = closures;
    let shape = first.map(|c| shaper(c, env, file, &plain, &failure, &body_work));
    let shape2 = second.map(|c| shaper(c, env, file, &plain, &failure, &body_work));
    let with = ShapeCtx {
        base_dir: ctx.base_dir,
        written: ctx.written,
        closure: shape
            .as_ref()
            .map(|s| s as crate::kernels::fun::ClosureShape),
        closure2: shape2
            .as_ref()
            .map(|s| s as crate::kernels::fun::ClosureShape),
    };
    let r = kernel_call(&with, work);
    *work += body_work.get();
    r.map_err(|d| failure.borrow_mut().take().unwrap_or(d))
}

/// A closure's body as a shape rule asks for its type (see
/// [`with_closure`]); its first error is kept in `failure`, its work added
/// to `body_work`.
// An `impl Fn` has no alias to name it by.
#[allow(clippy::type_complexity)]
fn shaper<'a>(
    (params, body): function_args::ClosureParts<'a>,
    env: &'a HashMap<&str, Type>,
    file: &'a SourceFile,
    plain: &'a ShapeCtx,
    failure: &'a std::cell::RefCell<Option<Diagnostic>>,
    body_work: &'a std::cell::Cell<Work>,
) -> impl Fn(Vec<(Option<String>, Type)>, Runs) -> Result<Type, String> + 'a {
    move |given, times| {
        let bound = function_args::bind(params, body, given)?;
        let mut w = work::closure_call_work();
        match bound_type(bound, body, env, file, plain, &mut w) {
            Ok(t) => {
                body_work.set(body_work.get() + w.times(times));
                Ok(t)
            }
            Err(d) => {
                let message = d.message.clone();
                failure.borrow_mut().get_or_insert(d);
                Err(message)
            }
        }
    }
}

/// Whether a value of type `t` is one column of a data frame or matrix.
fn one_column(t: &Type) -> bool {
    matches!(
        t,
        Type::Num { .. }
            | Type::Str { .. }
            | Type::Bool { .. }
            | Type::Factor { .. }
            | Type::Complex { .. }
    )
}

/// The types of a call's arguments; those R evaluates inside the call's
/// `data` see its columns first (see `exec::eval`). When the columns are
/// not known before the run, names that are no step are taken to be
/// columns of unknown type.
fn infer_args(
    func: &str,
    args: &[Arg],
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    work: &mut Work,
) -> Result<Vec<(Option<String>, Type)>, Diagnostic> {
    let function = function_args::function_arg(func, args);
    let na_action = function_args::na_action_arg(func, args);
    let closures = function_args::closure(func, args)
        .map_err(|(span, message)| diag(file, span, message))?
        .map(|c| c.map(|(i, _)| i));
    // A function passed by name is passed as its name; a closure as NULL
    // (the kernel gets it in its context). A variable of that name counts
    // only when it may hold a function's name, as in the evaluator.
    let function_name = |i: usize| match &args[i].value.kind {
        _ if closures.contains(&Some(i)) => Some(Type::Null),
        ExprKind::Name(n)
            if (Some(i) == function || Some(i) == na_action)
                && !matches!(env.get(n.as_str()), Some(Type::Str { .. } | Type::Any)) =>
        {
            Some(Type::str_const(n))
        }
        _ => None,
    };
    // update's formula, add1's and step's scope: read at the run, among
    // the columns of the fit's data (`exec::eval::update`); terms' formula
    // is read as its text.
    if let Some(at) =
        formula::update_formula_arg(func, args).or_else(|| formula::terms_formula_arg(func, args))
    {
        return args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let t = if i == at {
                    Type::Any
                } else {
                    infer_node(&a.value, env, file, ctx, None, work)?
                };
                Ok((a.name.clone(), t))
            })
            .collect();
    }
    // nls's formula names its parameters, known only from `start` at the
    // run: it and the arguments evaluated in its data are checked then.
    if func == "nls" || func == "getInitial" {
        if let Some(at) = formula::nls_args_of(func, args) {
            return args
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let t = if Some(i) == at.formula || at.in_data.contains(&i) {
                        Type::Any
                    } else {
                        infer_node(&a.value, env, file, ctx, None, work)?
                    };
                    Ok((a.name.clone(), t))
                })
                .collect();
        }
    }
    let Some(ds) = formula::data_scope(func, args) else {
        return args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let t = match function_name(i) {
                    Some(t) => t,
                    None => infer_node(&a.value, env, file, ctx, None, work)?,
                };
                Ok((a.name.clone(), t))
            })
            .collect();
    };
    let data_arg = &args[ds.data];
    let data = infer_node(&data_arg.value, env, file, ctx, None, work)?;
    if ds.frames_only && frame::frame_fields(&data).is_none() && !matches!(data, Type::Any) {
        return args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let t = match function_name(i) {
                    _ if i == ds.data => data.clone(),
                    Some(t) => t,
                    None => infer_node(&a.value, env, file, ctx, None, work)?,
                };
                Ok((a.name.clone(), t))
            })
            .collect();
    }
    let columns: Option<Vec<String>> = match &data {
        Type::Record { fields, .. } => Some(fields.iter().map(|(n, _)| n.clone()).collect()),
        Type::Any | Type::List { .. } => None,
        other => {
            return Err(diag(
                file,
                data_arg.span,
                format!(
                    "'data' must be a data frame or a named list, not {}",
                    other.describe()
                ),
            ))
        }
    };
    let mut unknown: Vec<String> = Vec::new();
    if !matches!(data, Type::Record { .. }) {
        for &i in ds.scoped.iter().chain(&ds.positions) {
            args[i]
                .value
                .visit_names(&mut |n, _| unknown.push(n.to_string()));
        }
    }
    let mut inner: HashMap<&str, Type> = env.iter().map(|(k, v)| (*k, v.clone())).collect();
    if let Type::Record { fields, .. } = &data {
        for (n, t) in fields {
            inner.insert(n.as_str(), t.clone());
        }
    }
    for n in &unknown {
        inner.entry(n.as_str()).or_insert(Type::Any);
    }
    // `select`'s scope: each column's name is its position (see
    // `formula::DataScope`), the first of a repeated name.
    let mut at: HashMap<&str, Type> = HashMap::new();
    if !ds.positions.is_empty() {
        at = env.iter().map(|(k, v)| (*k, v.clone())).collect();
        if let Type::Record { fields, .. } = &data {
            for (k, (n, _)) in fields.iter().enumerate().rev() {
                at.insert(n.as_str(), Type::scalar_const((k + 1) as f64));
            }
        }
        for n in &unknown {
            at.entry(n.as_str()).or_insert(Type::Any);
        }
    }
    let mut out = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        let t = if i == ds.data {
            data.clone()
        } else if let Some(t) = function_name(i) {
            t
        } else if ds.positions.contains(&i) {
            infer_node(&a.value, &at, file, ctx, None, work)?
        } else if !ds.scoped.contains(&i) {
            infer_node(&a.value, env, file, ctx, None, work)?
        } else if let ExprKind::Formula { lhs, rhs } = &a.value.kind {
            infer_formula(
                lhs.as_deref(),
                rhs,
                &inner,
                file,
                ctx,
                work,
                columns.as_deref(),
            )?
        } else {
            infer_node(&a.value, &inner, file, ctx, None, work)?
        };
        out.push((a.name.clone(), t));
    }
    Ok(out)
}

/// The type of `lhs ~ rhs`: its response's and each term's (an
/// interaction's is its variables').
fn infer_formula(
    lhs: Option<&Expr>,
    rhs: &Expr,
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
    work: &mut Work,
    columns: Option<&[String]>,
) -> Result<Type, Diagnostic> {
    let t = formula::terms(lhs, rhs, columns).map_err(|f| diag(file, f.span, f.message))?;
    let mut types: Vec<Option<Type>> = vec![None; t.variables.len()];
    let needed: Vec<usize> = t
        .terms
        .iter()
        .flatten()
        .chain(t.response.iter())
        .copied()
        .collect();
    for (i, (label, var)) in t.variables.iter().enumerate() {
        if !needed.contains(&i) {
            continue;
        }
        types[i] = Some(match var {
            formula::Variable::Expr(x) => infer_node(x, env, file, ctx, None, work)?,
            formula::Variable::Column(c) => env
                .get(c)
                .cloned()
                .ok_or_else(|| diag(file, rhs.span, format!("object `{label}` not found")))?,
        });
    }
    let ty = |i: usize| types[i].clone().unwrap_or(Type::Any);
    let mut terms = Vec::with_capacity(t.terms.len());
    for term in &t.terms {
        let label = t.label(term);
        let tt = if let [v] = term.as_slice() {
            if formula::is_offset(&t.variables[*v].1) {
                model_matrix::offset_type(ty(*v))
            } else {
                ty(*v)
            }
        } else {
            let mut vars = Vec::with_capacity(term.len());
            for &v in term {
                let vt = ty(v);
                if !matches!(
                    vt,
                    Type::Num { .. }
                        | Type::Mat { .. }
                        | Type::Bool { .. }
                        | Type::Str { .. }
                        | Type::Factor { .. }
                        | Type::Any
                ) {
                    return Err(diag(
                        file,
                        rhs.span,
                        format!(
                            "invalid type ({}) for variable `{}` in the interaction `{label}`: \
                             a model's variables are numbers, logicals, text or factors",
                            vt.describe(),
                            t.variables[v].0,
                        ),
                    ));
                }
                vars.push((t.variables[v].0.clone(), vt));
            }
            model_matrix::interaction_type(vars)
        };
        terms.push((label, tt));
    }
    Ok(Type::Formula {
        response: t.response.map(|r| Box::new(ty(r))),
        terms,
        intercept: t.intercept,
    })
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
        let arg = e.arg.and_then(|i| args.get(i));
        let message = match arg {
            Some(a) if e.message == fun::NOT_A_FUNCTION => fun::not_a_function(&a.value),
            _ => e.message,
        };
        diag(file, arg.map_or(call_span, |a| a.span), message)
    };
    // R hands these functions `as.matrix(d)` for a data frame `d`, and
    // numeric functions read a logical matrix as numbers.
    let typed = if frame::takes_matrix(func) {
        typed
            .into_iter()
            .enumerate()
            .map(|(i, (n, t))| match frame::coerce_type(func, &t) {
                None => Ok((n, t)),
                Some(Ok(m)) => Ok((n, m)),
                Some(Err(message)) => Err(at(ArgError {
                    arg: Some(i),
                    message,
                })),
            })
            .collect::<Result<Vec<_>, _>>()?
    } else {
        typed
    };
    let beside_complex = logical::keeps_logical_matrix_beside_complex(func)
        && typed
            .iter()
            .any(|(_, t)| matches!(t, Type::Complex { .. } | Type::ComplexMat { .. }));
    let typed = if logical::keeps_logical_matrix(func) || beside_complex {
        typed
    } else {
        typed
            .into_iter()
            .map(|(n, t)| match logical::numeric_matrix_type(&t) {
                Some(m) => (n, m),
                None => (n, t),
            })
            .collect()
    };
    // A character matrix is a character vector to a function of text,
    // whose value may keep its dims (`kernels::text_matrix`).
    let (typed, text_dims) = crate::kernels::text_matrix::types_around(func, typed);
    let matched = Args::match_call(kernel.name, kernel.params, typed).map_err(at)?;
    let mut ty = (kernel.shape)(&matched, ctx).map_err(at)?;
    ty = crate::kernels::text_matrix::shaped_type(ty, text_dims);
    // `exec::eval` adds R's `data.name` to a test's result.
    if let Type::Record { class, fields } = &mut ty {
        if class == "htest" && !fields.iter().any(|(n, _)| n == "data.name") {
            let at = fields
                .iter()
                .position(|(n, _)| n == "method")
                .map_or(fields.len(), |i| {
                    i + usize::from(kernel.name != "bartlett.test")
                });
            fields.insert(
                at,
                (
                    "data.name".to_string(),
                    Type::Str {
                        len: Some(1),
                        value: None,
                    },
                ),
            );
        }
    }
    *work += work::work(kernel.name, &matched, &ty);
    Ok(ty)
}

/// The texts a loop runs over (`f in list.files("data")`), fixed at
/// analysis; `None` when the range is not text.
pub fn loop_texts(
    range: &Expr,
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Result<Option<Vec<String>>, Diagnostic> {
    if range.range_ends().is_some() {
        return Ok(None);
    }
    match infer(range, env, file, ctx)? {
        Type::Str { value: Some(v), .. } => Ok(Some(v)),
        Type::Str { .. } => Err(diag(
            file,
            range.span,
            "loop range must be known before the run (constants, or sizes of other steps)",
        )),
        _ => Ok(None),
    }
}

/// The iteration values of a loop's range: known at analysis time and
/// integer. An empty range (`seq_len(0)`) is a loop of no iterations, as
/// in R.
pub fn loop_range(
    range: &Expr,
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Result<Vec<f64>, Diagnostic> {
    // `a:b` is computed directly, so long ranges need not be carried as
    // constants through inference.
    let values = if let Some((lhs, rhs)) = range.range_ends() {
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
            // `integer(0)`: no values to know.
            t if t.len() == Some(0) => Some(Vec::new()),
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
    // R loops over any numbers (`a in seq(0.1, 0.5, 0.1)`); an NA or
    // infinite value could not price the body, which is typed at the
    // loop variable's values.
    if let Some(bad) = values.iter().find(|v| !v.is_finite()) {
        let bad = if bad.is_nan() {
            "NA"
        } else if *bad > 0.0 {
            "Inf"
        } else {
            "-Inf"
        };
        return Err(diag(
            file,
            range.span,
            format!("loop range must be finite numbers, but it contains {bad}"),
        ));
    }
    Ok(values)
}
