//! `nls(formula, data, start, ...)`. Its formula is no model formula of
//! terms: the right-hand side is an R expression of the parameters and the
//! data, evaluated anew at every trial value of the parameters. The
//! evaluator hands the kernel (`kernels::models::nls`) both sides as
//! closures, each called with every variable and parameter by name, and
//! the formula's text and variables (R's `all.vars`) with the values found
//! for them: `data`'s columns first, then the steps.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use super::{call_traced, eval, with_bindings, EvalError, NamedValue, Scope};
use crate::diagnostic::{SourceFile, Span};
use crate::graph::formula;
use crate::kernels::models::nls::handoff;
use crate::kernels::models::self_start;
use crate::kernels::value::List;
use crate::kernels::{fun, Ctx, KernelError, Value};
use crate::workflow::{deparse, Arg, Expr, ExprKind};

/// R's `all.vars`: the names an expression reads, first appearance first.
pub(super) fn all_vars(exprs: &[&Expr]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in exprs {
        e.visit_names(&mut |n, _| {
            if !out.iter().any(|o| o == n) {
                out.push(n.to_string());
            }
        });
    }
    out
}

pub(super) fn nls_call(
    span: Span,
    (func, func_span, args): (&str, Span, &[Arg]),
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
    trace: bool,
) -> Result<(Value, Option<String>), EvalError> {
    let err = |span: Span, message: String| EvalError { span, message };
    let Some(at) = formula::nls_args_of(func, args) else {
        // The kernel's argument matching says what is wrong.
        let values = args
            .iter()
            .map(|a| Ok((a.name.clone(), eval(&a.value, scope, ctx, file)?)))
            .collect::<Result<Vec<NamedValue>, EvalError>>()?;
        return call_traced(func, func_span, span, args, &values, ctx, trace);
    };
    let Some(fi) = at.formula else {
        return Err(err(
            span,
            "argument \"formula\" is missing, with no default".into(),
        ));
    };
    let ExprKind::Formula { lhs, rhs } = &args[fi].value.kind else {
        return Err(err(
            args[fi].value.span,
            "flowcast's nls() needs its formula written in the call: nls(y ~ a * exp(-b * x), ...)"
                .into(),
        ));
    };
    let data = at
        .data
        .map(|i| eval(&args[i].value, scope, ctx, file))
        .transpose()?;
    // data's columns before the steps, as R's eval(var, data, env) finds
    // them; data that is no named list is the kernel's to refuse.
    let mut steps = HashMap::new();
    let columns = match data.as_deref() {
        Some(Value::List(List {
            names: Some(names),
            items,
            ..
        })) => {
            steps = scope.steps.clone();
            for (n, v) in names.iter().zip(items) {
                steps.insert(n.clone(), Arc::new(v.clone()));
            }
            true
        }
        _ => false,
    };
    let inner = Scope {
        steps: if columns { &steps } else { scope.steps },
        local: scope.local,
        integer_steps: scope.integer_steps,
        local_integer: scope.local_integer,
        outer: None,
        running: None,
    };
    let sides: Vec<&Expr> = lhs.as_deref().into_iter().chain([&**rhs]).collect();
    let vars = all_vars(&sides);
    let found: Vec<(&str, Value)> = vars
        .iter()
        .filter_map(|v| inner.lookup(v).map(|x| (v.as_str(), x.clone())))
        .collect();
    // A selfStart model is started from the data when no start is given.
    let self_start = if func == "getInitial" || at.start.is_none() {
        self_start(rhs, lhs.as_deref(), &inner, ctx, file)?
    } else {
        None
    };
    let mut formula = List::named(vec![
        (handoff::TEXT, Value::string(&deparse(&args[fi].value))),
        (handoff::RHS, Value::string(&deparse(rhs))),
        (handoff::VARS, Value::Str(vars.clone())),
        (handoff::FOUND, Value::List(List::named(found))),
        (
            handoff::DATA,
            Value::string(
                &at.data
                    .map_or("parent.frame()".to_string(), |i| deparse(&args[i].value)),
            ),
        ),
    ]);
    if let Some(ss) = self_start {
        formula
            .names
            .get_or_insert_with(Vec::new)
            .push(handoff::SELF_START.to_string());
        formula.items.push(Value::List(ss));
    }
    let mut values: Vec<NamedValue> = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        let v = if i == fi {
            Cow::Owned(Value::List(formula.clone()))
        } else if Some(i) == at.data {
            Cow::Owned(data.as_deref().cloned().unwrap_or(Value::Null))
        } else if at.in_data.contains(&i) {
            Cow::Owned(eval(&a.value, &inner, ctx, file)?.into_owned())
        } else {
            eval(&a.value, scope, ctx, file)?
        };
        values.push((a.name.clone(), v));
    }
    // The sides run among the bindings the kernel gives, in the step's
    // scope; an error inside one is reported where it happened.
    let failure: RefCell<Option<EvalError>> = RefCell::new(None);
    let run_rhs = side(rhs, scope, file, &failure);
    let run_lhs = lhs.as_deref().map(|l| side(l, scope, file, &failure));
    let mut with = Ctx {
        rng: &mut *ctx.rng,
        base_dir: ctx.base_dir,
        cancel: ctx.cancel,
        warnings: std::mem::take(&mut ctx.warnings),
        closure: Some(&run_rhs as fun::Closure),
        closure2: run_lhs.as_ref().map(|r| r as fun::Closure),
        integers: Vec::new(),
        messages: std::mem::take(&mut ctx.messages),
    };
    let r = call_traced(func, func_span, span, args, &values, &mut with, trace);
    ctx.warnings = with.warnings;
    ctx.messages = with.messages;
    r.map_err(|e| failure.borrow_mut().take().unwrap_or(e))
}

/// A selfStart call's arguments, matched to the model's formals by R's
/// rules: each formal's expression.
fn match_model<'e>(func: &str, args: &'e [Arg]) -> Option<Vec<(&'static str, &'e Expr)>> {
    let spec = self_start::spec(func)?;
    let kernel = crate::kernels::registry().get(func)?;
    let given: Vec<(Option<String>, &Expr)> =
        args.iter().map(|a| (a.name.clone(), &a.value)).collect();
    let matched = crate::kernels::Args::match_call(kernel.name, kernel.params, given).ok()?;
    spec.formals
        .iter()
        .map(|f| {
            let v = matched.get(f)?;
            let i = args.iter().position(|a| std::ptr::eq(&a.value, v))?;
            Some((*f, &args[i].value))
        })
        .collect()
}

/// R's `.actualArgs` of a selfStart model's call: each parameter's
/// argument as a name, "" where it is not one (R then attaches no
/// gradient).
pub(super) fn actual_args(func: &str, args: &[Arg]) -> Option<Vec<String>> {
    let spec = self_start::spec(func)?;
    let matched = match_model(func, args)?;
    Some(
        spec.params
            .iter()
            .map(|p| {
                let e = matched.iter().find(|(f, _)| f == p).map(|(_, e)| *e);
                match e.map(|e| &e.kind) {
                    Some(ExprKind::Name(n)) => n.clone(),
                    _ => String::new(),
                }
            })
            .collect(),
    )
}

/// What `getInitial` reads of a formula whose right-hand side is a
/// selfStart model (`SSlogis(x, Asym, xmid, scal)`): the model's name,
/// its parameters' names as written, its inputs evaluated among the
/// data, and the response's value (R's `LHS`, evaluated in the data).
fn self_start(
    rhs: &Expr,
    lhs: Option<&Expr>,
    inner: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Option<List>, EvalError> {
    let ExprKind::Call { func, args, .. } = &rhs.kind else {
        return Ok(None);
    };
    let Some(spec) = self_start::spec(func) else {
        return Ok(None);
    };
    let Some(matched) = match_model(func, args) else {
        return Ok(None);
    };
    let expr_of = |f: &str| matched.iter().find(|(g, _)| *g == f).map(|(_, e)| *e);
    let params: Vec<String> = spec
        .params
        .iter()
        .map(|p| expr_of(p).map(deparse).unwrap_or_default())
        .collect();
    let mut fields: Vec<(&str, Value)> = vec![
        ("model", Value::string(func)),
        ("params", Value::Str(params)),
    ];
    for input in spec.inputs {
        if let Some(e) = expr_of(input) {
            let v = eval(e, inner, ctx, file)?.into_owned();
            fields.push((if *input == "Dose" { "Dose" } else { "input" }, v));
        }
    }
    if let Some(l) = lhs {
        fields.push(("lhs", eval(l, inner, ctx, file)?.into_owned()));
    }
    Ok(Some(List::named(fields)))
}

/// One side of the formula as the kernel runs it: evaluated in `scope`
/// with the bindings it is given; its first error kept in `failure`.
// An `impl Fn` has no alias to name it by.
#[allow(clippy::type_complexity)]
fn side<'a>(
    e: &'a Expr,
    scope: &'a Scope<'a>,
    file: &'a SourceFile,
    failure: &'a RefCell<Option<EvalError>>,
) -> impl Fn(Vec<(Option<String>, &Value)>, &mut Ctx) -> Result<Value, KernelError> + 'a {
    move |given, ctx| {
        let bound: Vec<(&str, &Value)> = given
            .iter()
            .map(|(n, v)| (n.as_deref().unwrap_or(""), *v))
            .collect();
        let own = (ctx.closure.take(), ctx.closure2.take());
        let r = with_bindings(scope, &bound, &mut |s| {
            eval(e, s, ctx, file).map(Cow::into_owned)
        });
        (ctx.closure, ctx.closure2) = own;
        r.map_err(|e| {
            let message = e.message.clone();
            failure.borrow_mut().get_or_insert(e);
            KernelError::new(message)
        })
    }
}

/// `predict(fit, newdata)` of an nls fit: its right-hand side evaluated
/// among newdata's columns, then the fit's variables and parameters (R's
/// `eval(form[[3L]], as.list(newdata), env)`), handed to the kernel in
/// newdata's place.
pub(super) fn predict_newdata(
    fit: &Value,
    newdata: &Value,
    span: Span,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Option<Value>, EvalError> {
    if crate::kernels::models::nls::is_plinear(fit) {
        // R's getPred multiplies the columns by `.lin`, which flowcast's
        // fit keeps apart from the formula it would evaluate.
        return Err(EvalError {
            span,
            message:
                "flowcast's predict() of an nls fit by algorithm = \"plinear\" takes no 'newdata'"
                    .into(),
        });
    }
    let Some((rhs, mut bound)) = crate::kernels::models::nls::predict_parts(fit) else {
        return Ok(None);
    };
    let fail = |message: String| EvalError { span, message };
    match newdata {
        Value::List(List {
            names: Some(names),
            items,
            ..
        }) => bound.extend(names.iter().cloned().zip(items.iter().cloned())),
        Value::List(l) if l.items.is_empty() => {}
        other => {
            return Err(fail(format!(
                "'newdata' must be a data frame or a named list, not {}",
                other.type_name()
            )))
        }
    }
    let text = format!("~ {rhs}");
    let parsed = crate::workflow::parse_expr_str(&text)
        .map_err(|_| fail(format!("cannot read the model `{rhs}` back")))?;
    let ExprKind::Formula { rhs, .. } = &parsed.kind else {
        return Err(fail(format!("cannot read the model `{text}` back")));
    };
    let none = HashMap::new();
    let no_integers = std::collections::HashSet::new();
    let empty = Scope {
        steps: &none,
        local: None,
        integer_steps: &no_integers,
        local_integer: false,
        outer: None,
        running: None,
    };
    let pairs: Vec<(&str, &Value)> = bound.iter().map(|(n, v)| (n.as_str(), v)).collect();
    let v = with_bindings(&empty, &pairs, &mut |s| {
        eval(rhs, s, ctx, file).map(Cow::into_owned)
    })
    .map_err(|e| fail(format!("in 'newdata': {}", e.message)))?;
    Ok(Some(v))
}
