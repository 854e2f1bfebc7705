//! R's language objects as far as formulas need them: a formula's parts
//! (`f[[2]]`, `f[[3]]`, `length(f)`, `as.character(f)`), the names in it
//! (`all.vars`, `all.names`), and `deparse` of them and of plain values
//! (see [`super::deparse`]).
//!
//! A formula is held as its R text (`Formula::text`, or `source` once
//! evaluated), and a part of one as a [`Lang`]: a name, or a call as
//! flowcast deparses it. R's parser makes a formula's parentheses calls of
//! `(`, and flowcast's parser keeps them so inside a formula only; a call
//! is therefore read back as the right side of `~`, where its
//! parentheses are kept ([`lang_expr`]).

use super::deparse::{self, Opts};
use super::formula_text::rhs_text;
use super::value::{Formula, Lang};
use super::{logical, opt, req, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};
use crate::kernels::args::ArgError;
use crate::workflow::{deparse as expr_text, parse_expr_str, Expr, ExprKind, PAREN, RECALL};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "all.vars",
        params: &[
            req("expr"),
            opt("functions"),
            opt("max.names"),
            opt("unique"),
        ],
        random: false,
        shape: strings_shape,
        eval: all_vars_eval,
    },
    Kernel {
        name: "all.names",
        params: &[
            req("expr"),
            opt("functions"),
            opt("max.names"),
            opt("unique"),
        ],
        random: false,
        shape: strings_shape,
        eval: all_names_eval,
    },
    Kernel {
        name: "deparse",
        params: &[
            req("expr"),
            opt("width.cutoff"),
            opt("backtick"),
            opt("control"),
            opt("nlines"),
        ],
        random: false,
        shape: strings_shape,
        eval: deparse_eval,
    },
    Kernel {
        name: "deparse1",
        // R's `...` goes on to deparse: its other formals, by name.
        params: &[
            req("expr"),
            opt("collapse"),
            opt("width.cutoff"),
            DOTS,
            opt("backtick"),
            opt("control"),
            opt("nlines"),
        ],
        random: false,
        shape: strings_shape,
        eval: deparse1_eval,
    },
    // R's `(`, which returns its argument: what a formula's parentheses
    // call when one of its variables is evaluated (`y ~ log((x))`).
    Kernel {
        name: PAREN,
        params: &[req("x")],
        random: false,
        shape: |args, _| Ok(args.ty("x").cloned().unwrap_or(Type::Null)),
        eval: |args, _| Ok(args.get("x").cloned().unwrap_or(Value::Null)),
    },
    // A function's call of itself: the evaluator runs it (see
    // `workflow::RECALL`); what it returns is known only at the run.
    Kernel {
        name: RECALL,
        params: &[req("(name)"), DOTS],
        random: false,
        shape: |_, _| Ok(Type::Any),
        eval: |_, _| Err(KernelError::new("'Recall' called from outside a closure")),
    },
];

fn strings_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Str {
        len: None,
        value: None,
    })
}

/// A formula's R text: as written (or as R's `update` and `formula(fit)`
/// give it), else from its terms.
pub fn formula_text(f: &Formula) -> String {
    if let Some(t) = f.text.as_ref().or(f.source.as_ref()) {
        return t.clone();
    }
    let labels: Vec<&str> = f.terms.iter().map(|(l, _)| l.as_str()).collect();
    let rhs = rhs_text(&labels, f.intercept);
    match &f.response_label {
        Some(l) => format!("{l} ~ {rhs}"),
        None => format!("~{rhs}"),
    }
}

fn unreadable(text: &str) -> KernelError {
    KernelError::new(format!("cannot read `{text}` back as R code"))
}

/// A formula's expression, its parentheses kept.
pub fn formula_expr(f: &Formula) -> Result<Expr, KernelError> {
    let text = formula_text(f);
    let e = parse_expr_str(&text).map_err(|_| unreadable(&text))?;
    match e.kind {
        ExprKind::Formula { .. } => Ok(e),
        _ => Err(unreadable(&text)),
    }
}

/// Whether a formula has no left-hand side (`~ x`).
pub fn one_sided(f: &Formula) -> bool {
    match formula_expr(f) {
        Ok(Expr {
            kind: ExprKind::Formula { lhs, .. },
            ..
        }) => lhs.is_none(),
        _ => f.response_label.is_none(),
    }
}

/// A language object's expression: a name as itself, a call read as the
/// right side of `~`, where the parser keeps its parentheses.
pub fn lang_expr(l: &Lang) -> Result<Expr, KernelError> {
    if l.symbol {
        return Ok(Expr {
            kind: ExprKind::Name(l.text.clone()),
            span: crate::diagnostic::Span::new(0, 0),
        });
    }
    if let Ok(
        e @ Expr {
            kind: ExprKind::Formula { .. },
            ..
        },
    ) = parse_expr_str(&l.text)
    {
        return Ok(e);
    }
    let e = parse_expr_str(&format!("~{}", l.text)).map_err(|_| unreadable(&l.text))?;
    match e.kind {
        ExprKind::Formula { lhs: None, rhs } => Ok(*rhs),
        _ => Err(unreadable(&l.text)),
    }
}

/// Whether a call is one of `(` (its class and mode are "(").
pub fn is_paren(l: &Lang) -> bool {
    !l.symbol
        && matches!(lang_expr(l), Ok(Expr { kind: ExprKind::Call { func, .. }, .. }) if func == PAREN)
}

/// A name as a language object.
fn symbol(name: &str) -> Value {
    Value::Lang(Lang {
        text: name.to_string(),
        symbol: true,
    })
}

/// `e` as the R value it is inside a call: a constant as its value, a
/// name or a call as a language object.
pub fn expr_value(e: &Expr) -> Value {
    match &e.kind {
        ExprKind::Num(v) => Value::scalar(*v),
        ExprKind::Str(s) => Value::string(s),
        ExprKind::Bool(b) => Value::flag(*b),
        ExprKind::Null => Value::Null,
        ExprKind::Na => Value::Bool(vec![None]),
        // R's empty argument (`x[, 1]`) is the empty name.
        ExprKind::Missing => symbol(""),
        ExprKind::Name(n) => symbol(n),
        _ => Value::Lang(Lang {
            text: expr_text(e),
            symbol: false,
        }),
    }
}

/// A call's elements, each with its argument name.
pub type Parts = Vec<(Option<String>, Value)>;

/// The elements of a call as R's language list holds them: the function's
/// name, then each argument with its name.
pub fn call_parts(e: &Expr) -> Result<Parts, KernelError> {
    let op = |s: &str| (None, symbol(s));
    let arg = |x: &Expr| (None, expr_value(x));
    Ok(match &e.kind {
        ExprKind::Call { func, args, .. } if func != crate::kernels::callable::CALL_VALUE => {
            let mut out = vec![op(func)];
            out.extend(args.iter().map(|a| (a.name.clone(), expr_value(&a.value))));
            out
        }
        ExprKind::Unary { op: o, expr } => vec![op(o.symbol()), arg(expr)],
        ExprKind::Binary { op: o, lhs, rhs } => vec![op(o.symbol()), arg(lhs), arg(rhs)],
        ExprKind::Formula { lhs, rhs } => {
            let mut out = vec![op("~")];
            out.extend(lhs.iter().map(|l| arg(l)));
            out.push(arg(rhs));
            out
        }
        ExprKind::Index {
            target,
            indices,
            drop,
        } => {
            let mut out = vec![op("["), arg(target)];
            for i in indices {
                out.push(i.as_ref().map_or((None, symbol("")), arg));
            }
            out.extend(
                drop.iter()
                    .map(|d| (Some("drop".to_string()), expr_value(d))),
            );
            out
        }
        ExprKind::Index2 {
            target,
            index,
            column,
        } => {
            let mut out = vec![op("[["), arg(target), arg(index)];
            out.extend(column.iter().map(|c| arg(c)));
            out
        }
        ExprKind::Field { target, name, .. } => vec![op("$"), arg(target), (None, symbol(name))],
        _ => {
            return Err(KernelError::new(format!(
                "flowcast takes apart the calls of formulas (operators, function calls, \
                 indexing), not `{}`",
                expr_text(e)
            )))
        }
    })
}

/// R's `length` of a language object: 1 for a name, else its elements.
pub fn call_length(l: &Lang) -> usize {
    if l.symbol {
        return 1;
    }
    lang_expr(l)
        .and_then(|e| call_parts(&e))
        .map_or(1, |p| p.len())
}

/// The elements of a formula or call, or `None` for any other value.
fn parts_of(x: &Value) -> Option<Result<Parts, KernelError>> {
    match x {
        Value::Formula(f) => Some(formula_expr(f).and_then(|e| call_parts(&e))),
        Value::Lang(l) if !l.symbol => Some(lang_expr(l).and_then(|e| call_parts(&e))),
        _ => None,
    }
}

/// `x[[i]]` of a formula or call (`f[[2]]` is its left side), as R's
/// `[[` of a language list; `None` for any other value.
pub fn index2(x: &Value, i: &Value) -> Option<Result<Value, KernelError>> {
    if let Value::Lang(l) = x {
        if l.symbol {
            return Some(Err(KernelError::new(
                "object of type 'symbol' is not subsettable",
            )));
        }
    }
    let parts = match parts_of(x)? {
        Ok(p) => p,
        Err(e) => return Some(Err(e)),
    };
    let names: Vec<String> = parts
        .iter()
        .map(|(n, _)| n.clone().unwrap_or_default())
        .collect();
    let named = parts.iter().any(|(n, _)| n.is_some());
    Some(
        super::index::index2_pos(parts.len(), i, named.then_some(&names[..]), true)
            .map(|p| p.map_or(Value::Null, |p| parts[p].1.clone())),
    )
}

/// R's `as.character` of a formula or call: the function's name, then
/// each argument deparsed on one line (a string as itself); `None` for
/// any other value.
pub fn as_character(x: &Value) -> Option<Result<Vec<String>, KernelError>> {
    if let Value::Lang(l) = x {
        if l.symbol {
            return Some(Ok(vec![l.text.clone()]));
        }
    }
    let parts = match parts_of(x)? {
        Ok(p) => p,
        Err(e) => return Some(Err(e)),
    };
    // coerceVectorList: the function's name bare, not backquoted.
    let mut out = Vec::with_capacity(parts.len());
    for (k, (_, v)) in parts.iter().enumerate() {
        let text = match v {
            Value::Lang(l) if k == 0 && l.symbol => l.text.clone(),
            Value::Str(s) if s.len() == 1 => s[0].clone(),
            v => match deparse::one_line(v) {
                Ok(t) => t,
                Err(e) => return Some(Err(e)),
            },
        };
        out.push(text);
    }
    Some(Ok(out))
}

/// R's `all.names`: the names in `e` depth first, a call's function
/// before its arguments when `functions`.
fn names_in(e: &Expr, functions: bool, out: &mut Vec<String>) {
    let mut f = |s: &str| {
        if functions {
            out.push(s.to_string());
        }
    };
    match &e.kind {
        ExprKind::Name(n) => out.push(n.clone()),
        ExprKind::Call { func, args, .. } => {
            f(func);
            for a in args {
                names_in(&a.value, functions, out);
            }
        }
        ExprKind::Unary { op, expr } => {
            f(op.symbol());
            names_in(expr, functions, out);
        }
        ExprKind::Binary { op, lhs, rhs } => {
            f(op.symbol());
            names_in(lhs, functions, out);
            names_in(rhs, functions, out);
        }
        ExprKind::Formula { lhs, rhs } => {
            f("~");
            if let Some(l) = lhs {
                names_in(l, functions, out);
            }
            names_in(rhs, functions, out);
        }
        ExprKind::Index {
            target,
            indices,
            drop,
        } => {
            f("[");
            names_in(target, functions, out);
            for i in indices.iter().flatten() {
                names_in(i, functions, out);
            }
            if let Some(d) = drop {
                names_in(d, functions, out);
            }
        }
        ExprKind::Index2 {
            target,
            index,
            column,
        } => {
            f("[[");
            names_in(target, functions, out);
            names_in(index, functions, out);
            if let Some(c) = column {
                names_in(c, functions, out);
            }
        }
        ExprKind::Field { target, name, .. } => {
            f("$");
            names_in(target, functions, out);
            out.push(name.clone());
        }
        ExprKind::Num(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::Null
        | ExprKind::Na
        | ExprKind::Missing => {}
        // Not in a formula: its free names, in order.
        _ => e.visit_names(&mut |n, _| out.push(n.to_string())),
    }
}

/// The expression a value holds: a formula's or a call's; `None` for a
/// constant, which holds no names.
fn expr_of(x: &Value) -> Result<Option<Expr>, KernelError> {
    match x {
        Value::Formula(f) => formula_expr(f).map(Some),
        Value::Lang(l) => lang_expr(l).map(Some),
        _ => Ok(None),
    }
}

fn all_names(args: &Args<&Value>, functions: bool, unique: bool) -> Result<Value, KernelError> {
    let x = args
        .get("expr")
        .ok_or_else(|| KernelError::new("argument \"expr\" is missing, with no default"))?;
    let functions = logical::if_given(args.get("functions"), functions)?;
    let unique = logical::if_given(args.get("unique"), unique)?;
    let max = match args.get("max.names") {
        None => -1.0,
        Some(v) => v
            .as_scalar()
            .filter(|m| !m.is_nan())
            .ok_or_else(|| KernelError::new("invalid 'max.names' argument"))?,
    };
    let mut names = Vec::new();
    if let Some(e) = expr_of(x)? {
        names_in(&e, functions, &mut names);
    }
    // R's all_names: a repeat is skipped when `unique`, and no more than
    // `max.names` are kept (all when negative).
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if max >= 0.0 && out.len() as f64 >= max {
            break;
        }
        if unique && out.contains(&n) {
            continue;
        }
        out.push(n);
    }
    Ok(Value::Str(out))
}

fn all_vars_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    all_names(args, false, true)
}

fn all_names_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    all_names(args, true, false)
}

/// deparse's `width.cutoff`: R warns and takes 60 outside 20..500.
fn cutoff(args: &Args<&Value>, ctx: &mut Ctx, default: f64) -> Result<usize, KernelError> {
    let Some(v) = args.get("width.cutoff") else {
        return Ok(default as usize);
    };
    match v.as_scalar() {
        Some(c) if !c.is_nan() && (20.0..=500.0).contains(&c.trunc()) => Ok(c.trunc() as usize),
        Some(_) => {
            ctx.warn("invalid 'cutoff' value for 'deparse', using default");
            Ok(deparse::DEFAULT_CUTOFF)
        }
        None => Err(KernelError::new(
            "flowcast's deparse() takes 'width.cutoff' as one number",
        )),
    }
}

/// deparse's lines of `expr`, as R's deparse with its default `control`.
fn deparse_lines(
    args: &Args<&Value>,
    ctx: &mut Ctx,
    default_cutoff: f64,
) -> Result<Vec<String>, KernelError> {
    let x = args
        .get("expr")
        .ok_or_else(|| KernelError::new("argument \"expr\" is missing, with no default"))?;
    if args.has("control") {
        return Err(KernelError::new(
            "flowcast's deparse() writes as R's default control does (keepNA, keepInteger, \
             niceNames, showAttributes); leave out 'control'",
        ));
    }
    let cutoff = cutoff(args, ctx, default_cutoff)?;
    // R's default: backquotes for a call, not for a name or a value.
    let call = matches!(x, Value::Formula(_)) || matches!(x, Value::Lang(l) if !l.symbol);
    let backtick = logical::if_given(args.get("backtick"), call)?;
    let integer = ctx.is_integer(x);
    let mut lines = deparse::deparse(
        x,
        integer,
        Opts {
            cutoff,
            backtick,
            simple: false,
        },
    )?;
    if let Some(n) = args.get("nlines") {
        let n = n
            .as_scalar()
            .ok_or_else(|| KernelError::new("flowcast's deparse() takes 'nlines' as one number"))?;
        if n >= 1.0 {
            lines.truncate(n as usize);
        }
    }
    Ok(lines)
}

fn deparse_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let lines = deparse_lines(args, ctx, deparse::DEFAULT_CUTOFF as f64)?;
    Ok(Value::Str(lines))
}

/// R's `deparse1`: deparse's lines at `width.cutoff = 500` pasted into
/// one with `collapse`.
fn deparse1_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if args.dots().next().is_some() {
        return Err(KernelError::new(
            "flowcast's deparse1() takes expr, collapse, width.cutoff, backtick and nlines only",
        ));
    }
    let collapse = match args.get("collapse") {
        None => " ".to_string(),
        Some(Value::Str(s)) if s.len() == 1 => s[0].clone(),
        Some(_) => {
            return Err(KernelError::new(
                "flowcast's deparse1() takes 'collapse' as one string",
            ))
        }
    };
    let lines = deparse_lines(args, ctx, 500.0)?;
    Ok(Value::string(&lines.join(&collapse)))
}
