//! `update(object, formula.)`, `add1(object, scope)` and `step(object,
//! scope)`: their formula is R's `update.formula(old, new)` (C's
//! `updateform`: each `.` on the left of `new` is the old response, each
//! `.` on the right the old right-hand side, as one term), read back as
//! `terms.formula(simplify = TRUE)` writes it: the response, the term
//! labels joined by `+`, `- 1` without an intercept.
//!
//! A flowcast formula is evaluated where it is written, so the new one is
//! evaluated here, among the columns of the data the fit was made with
//! (the fit keeps them as its `data`) and then the steps, as R's
//! `update` evaluates the call again. The kernels get it evaluated:
//! `update` the new formula, `add1` and `step` a scope record (see
//! [`scope_record`]) holding one formula with every term the model and
//! the scope name, and the labels and variables of the scope's terms.

use std::borrow::Cow;
use std::sync::Arc;

use super::{call_traced, eval, eval_formula, EvalError, NamedValue, Scope};
use crate::diagnostic::{SourceFile, Span};
use crate::graph::formula;
use crate::kernels::formula_text::{fit_formula, rhs_text};
use crate::kernels::value::{Formula, List, DOT_RESPONSE, SCOPE_CLASS};
use crate::kernels::{registry, Args, Ctx, Value};
use crate::workflow::{Arg, Expr, ExprKind};

/// The functions whose formula argument is read here, and its name.
pub(super) fn formula_param(func: &str) -> Option<&'static str> {
    match func {
        "update" => Some("formula."),
        "add1" | "step" => Some("scope"),
        _ => None,
    }
}

/// A formula as `terms.formula(simplify = TRUE)` leaves it.
struct Simplified {
    lhs: Option<String>,
    labels: Vec<String>,
    /// Each term's variables, by label, in the formula's order.
    vars: Vec<Vec<String>>,
    intercept: bool,
}

impl Simplified {
    /// The right-hand side as R deparses the simplified formula.
    fn rhs(&self) -> String {
        rhs_text(&self.labels, self.intercept)
    }
}

/// R's `formula(terms.formula(lhs ~ rhs, simplify = TRUE))`.
fn simplify(lhs: Option<&Expr>, rhs: &Expr) -> Result<Simplified, String> {
    let t = formula::terms(lhs, rhs, None).map_err(|e| e.message)?;
    let labels = t.terms.iter().map(|term| t.label(term)).collect();
    let vars = t
        .terms
        .iter()
        .map(|term| term.iter().map(|&v| t.variables[v].0.clone()).collect())
        .collect();
    Ok(Simplified {
        lhs: lhs.map(|l| l.to_string()),
        labels,
        vars,
        intercept: t.intercept,
    })
}

/// Each `.` in `e` replaced by `with`.
fn substitute(e: &mut Expr, with: &Expr) {
    if matches!(&e.kind, ExprKind::Name(n) if n == ".") {
        *e = with.clone();
        return;
    }
    e.visit_children_mut(&mut |c| substitute(c, with));
}

fn parse(text: &str, span: Span) -> Result<Expr, EvalError> {
    crate::workflow::parse_expr_str(text).map_err(|_| EvalError {
        span,
        message: format!("cannot read the model's formula `{text}` back"),
    })
}

/// The old formula: its response's text and its right-hand side's.
struct Old {
    lhs: Option<String>,
    rhs: String,
}

/// R's `update.formula(old, new)`, simplified: `new` a written `lhs ~ rhs`.
fn update_formula(
    old: &Old,
    new_lhs: Option<&Expr>,
    new_rhs: &Expr,
    span: Span,
) -> Result<Simplified, EvalError> {
    let fail = |message: String| EvalError { span, message };
    let old_rhs = parse(&old.rhs, span)?;
    let old_lhs = old.lhs.as_deref().map(|l| parse(l, span)).transpose()?;
    let lhs = match (new_lhs, &old_lhs) {
        (Some(l), Some(o)) => {
            let mut l = l.clone();
            substitute(&mut l, o);
            Some(l)
        }
        // updateform expands only the right side when the old formula
        // has no response: `update(~ x, log(.) ~ .)` is `log(.) ~ x`.
        (Some(l), None) => Some(l.clone()),
        (None, o) => o.clone(),
    };
    let mut rhs = new_rhs.clone();
    substitute(&mut rhs, &old_rhs);
    simplify(lhs.as_ref(), &rhs).map_err(fail)
}

/// The old formula of `object`: a formula, or a fit's (its response and
/// term labels, as `formula(terms(fit))` simplified gives them).
fn old_formula(object: &Value) -> Option<Old> {
    let (lhs, labels, intercept) = match object {
        // Built from text: its two sides as written.
        Value::Formula(Formula {
            text: Some(text), ..
        }) => {
            let e = crate::workflow::parse_expr_str(text).ok()?;
            let ExprKind::Formula { lhs, rhs } = &e.kind else {
                return None;
            };
            return Some(Old {
                lhs: lhs.as_deref().map(crate::workflow::deparse),
                rhs: crate::workflow::deparse(rhs),
            });
        }
        Value::Formula(f) => {
            if f.terms.iter().any(|(l, _)| l.starts_with(DOT_RESPONSE)) {
                return None;
            }
            (
                f.response_label.clone(),
                f.terms.iter().map(|(l, _)| l.clone()).collect::<Vec<_>>(),
                f.intercept,
            )
        }
        Value::List(l) => {
            let f = fit_formula(l)?;
            (f.response, f.labels, f.intercept)
        }
        _ => return None,
    };
    let s = Simplified {
        lhs: None,
        labels,
        vars: Vec::new(),
        intercept,
    };
    Some(Old { lhs, rhs: s.rhs() })
}

/// A field by its exact name (flowcast's own fields match only so).
fn record_field<'a>(l: &'a List, name: &str) -> Option<&'a Value> {
    let i = l.names.as_ref()?.iter().position(|n| n == name)?;
    l.items.get(i)
}

/// A formula value's text, `lhs ~ rhs`, to read as a written one.
fn formula_text(f: &Formula) -> String {
    let s = Simplified {
        lhs: None,
        labels: f.terms.iter().map(|(l, _)| l.clone()).collect(),
        vars: Vec::new(),
        intercept: f.intercept,
    };
    match &f.response_label {
        Some(l) => format!("{l} ~ {}", s.rhs()),
        None => format!("~ {}", s.rhs()),
    }
}

/// A new formula as written (`. ~ . - x`), or a step's formula value.
fn new_formula(
    e: &Expr,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Option<Expr>, EvalError> {
    if let ExprKind::Formula { .. } = e.kind {
        return Ok(Some(e.clone()));
    }
    match &*eval(e, scope, ctx, file)? {
        Value::Formula(f) => Ok(Some(parse(&formula_text(f), e.span)?)),
        _ => Ok(None),
    }
}

fn not_formula(span: Span) -> EvalError {
    EvalError {
        span,
        message: "cannot read the new formula back as one".into(),
    }
}

fn sides(e: &Expr) -> Option<(Option<&Expr>, &Expr)> {
    match &e.kind {
        ExprKind::Formula { lhs, rhs } => Some((lhs.as_deref(), rhs)),
        _ => None,
    }
}

pub(super) fn update_call(
    span: Span,
    (func, func_span, args): (&str, Span, &[Arg]),
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
    trace: bool,
) -> Result<(Value, Option<String>), EvalError> {
    let plain = |ctx: &mut Ctx| -> Result<(Value, Option<String>), EvalError> {
        let values = args
            .iter()
            .map(|a| Ok((a.name.clone(), eval(&a.value, scope, ctx, file)?)))
            .collect::<Result<Vec<NamedValue>, EvalError>>()?;
        call_traced(func, func_span, span, args, &values, ctx, trace)
    };
    let (Some(param), Some(kernel)) = (formula_param(func), registry().get(func)) else {
        return plain(ctx);
    };
    let given = args
        .iter()
        .map(|a| (a.name.clone(), &a.value))
        .collect::<Vec<(Option<String>, &Expr)>>();
    let Ok(matched) = Args::match_call(kernel.name, kernel.params, given) else {
        return plain(ctx);
    };
    let position = |name: &str| {
        let v = matched.get(name)?;
        args.iter().position(|a| std::ptr::eq(&a.value, v))
    };
    let (Some(fi), Some(oi)) = (position(param), position("object")) else {
        return plain(ctx);
    };
    let object = eval(&args[oi].value, scope, ctx, file)?;
    let Some(old) = old_formula(&object) else {
        // Not a formula or a fit: the kernel says what is wrong.
        return plain(ctx);
    };
    let fspan = args[fi].value.span;
    let fail = |message: String| EvalError {
        span: fspan,
        message,
    };
    // Where the new formula's variables are found: the fit's data, then
    // the steps; a formula's own variables by their labels.
    let mut steps = scope.steps.clone();
    match &*object {
        Value::List(l) if l.class.as_deref() == Some("aov") => {
            return Err(fail(format!(
                "flowcast's {func}() refits lm and glm fits, not aov"
            )))
        }
        Value::List(l) => match record_field(l, "data") {
            Some(Value::List(List {
                names: Some(names),
                items,
                ..
            })) => {
                for (n, v) in names.iter().zip(items) {
                    steps.insert(n.clone(), Arc::new(v.clone()));
                }
            }
            _ => {
                return Err(fail(format!(
                    "flowcast's {func}() refits on the data the model was fitted with, and this \
                     fit keeps none: fit it with data = a data frame"
                )))
            }
        },
        Value::Formula(f) => {
            let plain_name = |l: &str| {
                !l.is_empty()
                    && l.chars()
                        .all(|c| c.is_alphanumeric() || c == '.' || c == '_')
            };
            for (label, v) in f.terms.iter() {
                if plain_name(label) {
                    steps.insert(label.clone(), Arc::new(v.clone()));
                }
            }
            if let (Some(l), Some(r)) = (&f.response_label, &f.response) {
                if plain_name(l) {
                    steps.insert(l.clone(), Arc::new((**r).clone()));
                }
            }
        }
        _ => {}
    }
    let inner = Scope {
        steps: &steps,
        local: scope.local,
        integer_steps: scope.integer_steps,
        local_integer: scope.local_integer,
        outer: None,
        running: None,
    };
    let text_of = |s: &Simplified| match &s.lhs {
        Some(l) => format!("{l} ~ {}", s.rhs()),
        None => format!("~ {}", s.rhs()),
    };
    let evaluate = |s: &Simplified, ctx: &mut Ctx| -> Result<Value, EvalError> {
        let text = text_of(s);
        let e = parse(&text, fspan)?;
        let Some((lhs, rhs)) = sides(&e) else {
            return Err(fail(format!("cannot read the formula `{text}` back")));
        };
        eval_formula(lhs, rhs, &inner, ctx, file, None)
            .map_err(|e| fail(format!("in the updated formula `{text}`: {}", e.message)))
    };
    let new_value = if func == "update" {
        let Some(new) = new_formula(&args[fi].value, scope, ctx, file)? else {
            return plain(ctx);
        };
        let (lhs, rhs) = sides(&new).ok_or_else(|| not_formula(fspan))?;
        let s = update_formula(&old, lhs, rhs, fspan)?;
        let text = text_of(&s);
        let mut unknown = false;
        parse(&text, fspan)?.visit_names(&mut |n, _| {
            // A `.` left on the left side (`log(.) ~ x`) is a name too.
            unknown |= inner.lookup(n).is_none();
        });
        if matches!(&*object, Value::Formula(_)) && unknown {
            // update.formula's formula, kept unevaluated as R keeps it
            // until a model function reads it among its data (as a step's
            // `y ~ x` is; see `kernels::formula_text`).
            crate::kernels::formula_text::from_text(&text).map_err(|k| fail(k.0))?
        } else {
            evaluate(&s, ctx)?
        }
    } else {
        // add1's and step's scope: formulas, or (add1) term labels.
        let mut parts: Vec<(&str, Simplified)> = Vec::new();
        let mut given_labels = None;
        let written = &args[fi].value;
        let list_call = match &written.kind {
            ExprKind::Call { func: f, args, .. } if f == "list" => Some(args),
            _ => None,
        };
        if let Some(items) = list_call {
            for a in items {
                let name = match a.name.as_deref() {
                    Some(n @ ("lower" | "upper")) => n,
                    _ => continue,
                };
                if matches!(a.value.kind, ExprKind::Null) {
                    continue;
                }
                let Some(new) = new_formula(&a.value, scope, ctx, file)? else {
                    return Err(fail(format!(
                        "flowcast's {func}() takes the scope's {name} as a formula"
                    )));
                };
                let (lhs, rhs) = sides(&new).ok_or_else(|| not_formula(fspan))?;
                parts.push((name, update_formula(&old, lhs, rhs, fspan)?));
            }
        } else {
            let v = if let ExprKind::Formula { .. } = written.kind {
                None
            } else {
                Some(eval(written, scope, ctx, file)?.into_owned())
            };
            match v {
                None | Some(Value::Formula(_)) => {
                    let Some(new) = new_formula(written, scope, ctx, file)? else {
                        return plain(ctx);
                    };
                    let (lhs, rhs) = sides(&new).ok_or_else(|| not_formula(fspan))?;
                    parts.push(("upper", update_formula(&old, lhs, rhs, fspan)?));
                }
                Some(Value::Str(s)) if func == "add1" && !s.is_empty() => {
                    // add1's labels: `~ . + a + b` gives their variables.
                    let text = format!("~ . + {}", s.join(" + "));
                    let new = parse(&text, fspan)?;
                    let (lhs, rhs) = sides(&new).ok_or_else(|| not_formula(fspan))?;
                    parts.push(("upper", update_formula(&old, lhs, rhs, fspan)?));
                    given_labels = Some(s);
                }
                Some(Value::List(l)) if func == "step" => {
                    for name in ["lower", "upper"] {
                        match l.field(name) {
                            None | Some(Value::Null) => {}
                            Some(Value::Formula(f)) => {
                                let new = parse(&formula_text(f), fspan)?;
                                let (lhs, rhs) = sides(&new).ok_or_else(|| not_formula(fspan))?;
                                parts.push((name, update_formula(&old, lhs, rhs, fspan)?));
                            }
                            Some(_) => {
                                return Err(fail(format!(
                                    "flowcast's step() takes the scope's {name} as a formula"
                                )))
                            }
                        }
                    }
                }
                // Not a scope flowcast reads: the kernel refuses it.
                _ => return plain(ctx),
            }
        }
        // One formula with every term of the model and of the scope.
        let mut union = Simplified {
            lhs: old.lhs.clone(),
            labels: Vec::new(),
            vars: Vec::new(),
            intercept: true,
        };
        let mut rhs = vec![old.rhs.clone()];
        for (_, p) in &parts {
            rhs.extend(p.labels.iter().cloned());
        }
        union.labels = rhs;
        let all = evaluate(&union, ctx)?;
        scope_record(all, &parts, given_labels)
    };
    let mut values: Vec<NamedValue> = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        let v = if i == oi {
            Cow::Owned(object.as_ref().clone())
        } else if i == fi {
            Cow::Owned(new_value.clone())
        } else {
            eval(&a.value, scope, ctx, file)?
        };
        values.push((a.name.clone(), v));
    }
    call_traced(func, func_span, span, args, &values, ctx, trace)
}

/// The scope `add1` and `step` get: `formula`, every term evaluated;
/// `lower` and `upper`, each the scope's term labels and `<name>.vars`
/// their variables (absent when the scope has none); `labels`, add1's
/// labels as given.
fn scope_record(all: Value, parts: &[(&str, Simplified)], given: Option<Vec<String>>) -> Value {
    let mut fields: Vec<(&'static str, Value)> = vec![("formula", all)];
    for (name, p) in parts {
        let (labels, vars): (&'static str, &'static str) = if *name == "lower" {
            ("lower", "lower.vars")
        } else {
            ("upper", "upper.vars")
        };
        fields.push((labels, Value::Str(p.labels.clone())));
        fields.push((
            vars,
            Value::List(List {
                class: None,
                names: None,
                items: p.vars.iter().map(|v| Value::Str(v.clone())).collect(),
                row_names: None,
            }),
        ));
    }
    if let Some(g) = given {
        fields.push(("labels", Value::Str(g)));
    }
    Value::List(List::record(SCOPE_CLASS, fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upd(old: &str, new: &str) -> String {
        let o = crate::workflow::parse_expr_str(old).unwrap();
        let (ol, or) = sides(&o).unwrap();
        let s = simplify(ol, or).unwrap();
        let old = Old {
            lhs: s.lhs.clone(),
            rhs: s.rhs(),
        };
        let n = crate::workflow::parse_expr_str(new).unwrap();
        let (nl, nr) = sides(&n).unwrap();
        let u = update_formula(&old, nl, nr, n.span).unwrap();
        match &u.lhs {
            Some(l) => format!("{l} ~ {}", u.rhs()),
            None => format!("~ {}", u.rhs()),
        }
    }

    #[test]
    fn dots_are_the_old_sides() {
        assert_eq!(upd("y ~ x + z", ". ~ . - z"), "y ~ x");
        assert_eq!(upd("y ~ x + z", ". ~ . + x:z"), "y ~ x + z + x:z");
        assert_eq!(upd("y ~ x + z", "log(.) ~ ."), "log(y) ~ x + z");
        assert_eq!(upd("y ~ x", "~ . + w"), "y ~ x + w");
        assert_eq!(upd("y ~ x * z", ". ~ . - x:z"), "y ~ x + z");
        assert_eq!(upd("y ~ x", ". ~ . - 1"), "y ~ x - 1");
        assert_eq!(upd("y ~ x", ". ~ . - x"), "y ~ 1");
        assert_eq!(upd("y ~ x", "~ 0"), "y ~ 1 - 1");
    }
}
