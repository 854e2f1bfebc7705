//! `Vectorize(FUN, vectorize.args, SIMPLIFY, USE.NAMES)`, as R's
//! `base::Vectorize` makes it: a function with FUN's parameters whose call
//! is
//!
//! ```r
//! do.call("mapply", c(FUN = FUN, args[dovec], MoreArgs = list(args[!dovec]),
//!                     SIMPLIFY = SIMPLIFY, USE.NAMES = USE.NAMES))
//! ```
//!
//! `args` being the call's arguments named by the parameters they match
//! and `dovec` those in `vectorize.args`. flowcast's functions are put in
//! where they are called (see `functions`), so `Vectorize` is written out
//! there as that function: `function(a, b) mapply(FUN = function(a, b)
//! body, a = a, MoreArgs = list(b = b), SIMPLIFY = TRUE, USE.NAMES =
//! TRUE)`.

use crate::diagnostic::Span;

use super::ast::{Arg, Expr, ExprKind};
use super::deparse;

/// R's formals of `Vectorize`.
const FORMALS: [&str; 4] = ["FUN", "vectorize.args", "SIMPLIFY", "USE.NAMES"];

/// The function `Vectorize(args)` makes, its uses already put in `args`;
/// the error is R's, or flowcast's where it takes less than R does.
pub(super) fn function(args: &[Arg], span: Span) -> Result<Expr, String> {
    let mut slots: [Option<&Expr>; 4] = [None; 4];
    let mut positional = Vec::new();
    for a in args {
        match a.name.as_deref() {
            Some(n) => match FORMALS.iter().position(|f| *f == n) {
                Some(i) if slots[i].is_none() => slots[i] = Some(&a.value),
                Some(_) => {
                    return Err(format!(
                        "formal argument \"{n}\" matched by multiple actual arguments"
                    ))
                }
                None => return Err(format!("unused argument ({n} = {})", deparse(&a.value))),
            },
            None => positional.push(&a.value),
        }
    }
    let mut positional = positional.into_iter();
    for slot in slots.iter_mut().filter(|s| s.is_none()) {
        match positional.next() {
            Some(v) => *slot = Some(v),
            None => break,
        }
    }
    if let Some(v) = positional.next() {
        return Err(format!("unused argument ({})", deparse(v)));
    }
    let [fun, which, simplify, use_names] = slots;
    let fun = fun.ok_or("argument \"FUN\" is missing, with no default")?;
    let builtin;
    let fun = match &fun.kind {
        ExprKind::Name(n) => {
            builtin = builtin_function(n, span).ok_or(
                "flowcast's Vectorize() takes a function(...), the name of a function \
                 defined in the workflow or of a built-in function",
            )?;
            &builtin
        }
        _ => fun,
    };
    let ExprKind::Function { params, .. } = &fun.kind else {
        return Err(
            "flowcast's Vectorize() takes a function(...), the name of a function \
             defined in the workflow or of a built-in function"
                .into(),
        );
    };
    if params.iter().any(|p| p.name == "...") {
        return Err("flowcast's Vectorize() takes a function without `...`".into());
    }
    // R's `arg.names`: FUN's formals less `...`.
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    let which: Vec<String> = match which {
        None => names.iter().map(|n| n.to_string()).collect(),
        Some(w) => strings(w).ok_or(
            "flowcast's Vectorize() takes 'vectorize.args' as names in quotes (\"x\" or \
             c(\"x\", \"y\"))",
        )?,
    };
    if which.is_empty() {
        return Ok(fun.clone());
    }
    if !which.iter().all(|w| names.contains(&w.as_str())) {
        return Err("must specify names of formal arguments for 'vectorize'".into());
    }
    let collisions: Vec<String> = names
        .iter()
        .filter(|n| ["FUN", "SIMPLIFY", "USE.NAMES", "vectorize.args"].contains(n))
        .map(|n| format!("\u{2018}{n}\u{2019}"))
        .collect();
    if !collisions.is_empty() {
        return Err(format!(
            "\u{2018}FUN\u{2019} may not have argument(s) named {}",
            collisions.join(", ")
        ));
    }
    // R passes FUN only the arguments the call gave, so a default is
    // evaluated by FUN, once per element. Here the outer function passes
    // every parameter on, defaults evaluated once: the same values unless
    // a default reads another parameter.
    for p in params {
        if let Some(d) = &p.default {
            let mut reads = None;
            d.visit_names(&mut |n, _| {
                if reads.is_none() && names.contains(&n) {
                    reads = Some(n.to_string());
                }
            });
            if let Some(r) = reads {
                return Err(format!(
                    "flowcast's Vectorize() takes no default that reads another parameter \
                     (`{} = {}` reads `{r}`)",
                    p.name,
                    deparse(d)
                ));
            }
        }
    }
    let name = |n: &str| Expr {
        span,
        kind: ExprKind::Name(n.to_string()),
    };
    let arg = |n: &str, value: Expr| Arg {
        name: Some(n.to_string()),
        value,
        span,
    };
    let flag = |v: Option<&Expr>| {
        v.cloned().unwrap_or(Expr {
            span,
            kind: ExprKind::Bool(true),
        })
    };
    let mut call_args = vec![arg("FUN", fun.clone())];
    call_args.extend(
        names
            .iter()
            .filter(|n| which.iter().any(|w| w == *n))
            .map(|n| arg(n, name(n))),
    );
    let more: Vec<Arg> = names
        .iter()
        .filter(|n| !which.iter().any(|w| w == *n))
        .map(|n| arg(n, name(n)))
        .collect();
    if !more.is_empty() {
        let list = Expr {
            span,
            kind: ExprKind::Call {
                func: "list".into(),
                func_span: span,
                args: more,
            },
        };
        call_args.push(arg("MoreArgs", list));
    }
    call_args.push(arg("SIMPLIFY", flag(simplify)));
    call_args.push(arg("USE.NAMES", flag(use_names)));
    Ok(Expr {
        span,
        kind: ExprKind::Function {
            params: params.clone(),
            body: Box::new(Expr {
                span,
                kind: ExprKind::Call {
                    func: "mapply".into(),
                    func_span: span,
                    args: call_args,
                },
            }),
        },
    })
}

/// Built-in function `name` as `function(x, times) name(x = x, times =
/// times)`, for Vectorize. Its formals up to the last required one: an
/// optional formal's default is the kernel's, which no expression here
/// can write, so a call giving an optional one is refused as R refuses
/// an unused argument.
fn builtin_function(name: &str, span: Span) -> Option<Expr> {
    let k = crate::kernels::registry().get(name)?;
    let last = k.params.iter().rposition(|p| p.required)?;
    let formals: Vec<&str> = k.params[..=last]
        .iter()
        .map(|p| p.name)
        .filter(|n| *n != "..." && !n.starts_with('\0'))
        .collect();
    let name_expr = |n: &str| Expr {
        span,
        kind: ExprKind::Name(n.to_string()),
    };
    Some(Expr {
        span,
        kind: ExprKind::Function {
            params: formals
                .iter()
                .map(|n| super::ast::Param {
                    name: n.to_string(),
                    span,
                    default: None,
                })
                .collect(),
            body: Box::new(Expr {
                span,
                kind: ExprKind::Call {
                    func: name.to_string(),
                    func_span: span,
                    args: formals
                        .iter()
                        .map(|n| Arg {
                            name: Some(n.to_string()),
                            value: name_expr(n),
                            span,
                        })
                        .collect(),
                },
            }),
        },
    })
}

/// `"x"` or `c("x", "y")`, as the names they are.
fn strings(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Str(s) => Some(vec![s.clone()]),
        ExprKind::Null => Some(Vec::new()),
        ExprKind::Call { func, args, .. } if func == "c" => args
            .iter()
            .map(|a| match &a.value.kind {
                ExprKind::Str(s) if a.name.is_none() => Some(s.clone()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// The argument of `Vectorize(args)` that is its `FUN`: named so, or else
/// the first unnamed one.
pub(super) fn fun_arg(args: &mut [Arg]) -> Option<&mut Expr> {
    let i = match args.iter().position(|a| a.name.as_deref() == Some("FUN")) {
        Some(i) => i,
        None => args.iter().position(|a| a.name.is_none())?,
    };
    Some(&mut args[i].value)
}
