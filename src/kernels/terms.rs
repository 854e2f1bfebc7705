//! `terms(x)`, `delete.response(termobj)` and `labels(object)`: R's
//! terms object of a formula or of an lm, glm or aov fit, as far as its
//! attributes are read: `factors`, `term.labels`, `order`, `intercept`,
//! `response` (and `offset` when the formula has one) and the class
//! c("terms", "formula"), in R's order. `variables`, `predvars`,
//! `dataClasses` and `.Environment`, which hold R calls and environments,
//! are not kept.
//!
//! The value is the formula itself (built from text, see
//! formula_text.rs) carrying those attributes, so a model function reads
//! it as the formula it is: `model.frame(delete.response(terms(fit)),
//! newdata)` and `model.matrix(...)` evaluate it among their data. A
//! formula written in the call (`terms(y ~ x)`) is kept as its text by the
//! evaluator, whose variables need not exist.

use nalgebra::DMatrix;

use super::formula_text::{fit_formula, from_text};
use super::model_matrix::{codings, Coding};
use super::names::bare;
use super::value::{Formula, Named};
use super::{req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};
use crate::graph::formula;
use crate::workflow::{deparse, parse_expr_str, ExprKind};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "terms",
        params: &[req("x"), DOTS],
        random: false,
        shape: any,
        eval: terms_eval,
    },
    Kernel {
        name: "delete.response",
        params: &[req("termobj")],
        random: false,
        shape: any,
        eval: delete_response_eval,
    },
    Kernel {
        name: "labels",
        params: &[req("object"), DOTS],
        random: false,
        shape: any,
        eval: labels_eval,
    },
];

fn any(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

/// The R text of a formula value: its own when built from text, else as
/// R deparses its terms (the response, the labels, `- 1`).
fn formula_text(f: &Formula) -> String {
    if let Some(t) = &f.text {
        return t.clone();
    }
    let labels: Vec<&str> = f.terms.iter().map(|(l, _)| l.as_str()).collect();
    let rhs = super::formula_text::rhs_text(&labels, f.intercept);
    match &f.response_label {
        Some(l) => format!("{l} ~ {rhs}"),
        None => format!("~{rhs}"),
    }
}

/// Whether `v` is a terms object this module made.
fn is_terms(v: &Value) -> bool {
    match v {
        Value::Named(n) => n.attrs.iter().any(|(k, c)| {
            k == "class" && matches!(c, Value::Str(s) if s.first().is_some_and(|c| c == "terms"))
        }),
        _ => false,
    }
}

/// The text of the formula `x` stands for: a formula, a terms object, or
/// an lm, glm or aov fit (`formula(fit)`).
fn text_of(x: &Value) -> Result<String, KernelError> {
    match bare(x) {
        Value::Formula(f) => Ok(formula_text(f)),
        Value::List(l) => match fit_formula(l) {
            Some(f) => Ok(f.text()),
            None => Err(KernelError::new(format!(
                "flowcast's terms reads a formula or an lm, glm or aov fit, not a {}",
                l.class.as_deref().unwrap_or("list")
            ))),
        },
        // terms.default: `x$terms %||% attr(x, "terms") %||% stop(...)`.
        Value::Null => Err(KernelError::new("no terms component nor attribute")),
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Mat(_) | Value::Factor(_) => {
            Err(KernelError::new("$ operator is invalid for atomic vectors"))
        }
        other => Err(KernelError::new(format!(
            "flowcast's terms reads a formula or an lm, glm or aov fit, not a {}",
            other.type_name()
        ))),
    }
}

/// `terms.formula(text)`: the formula (as text) with R's attributes.
fn terms_of_text(text: &str, keep_response: bool) -> Result<Value, KernelError> {
    let e = parse_expr_str(text).map_err(|d| KernelError::new(d.message))?;
    let ExprKind::Formula { lhs, rhs } = &e.kind else {
        return Err(KernelError::new("argument is not a valid model"));
    };
    let lhs = lhs.as_deref().filter(|_| keep_response);
    let t = formula::terms(lhs, rhs, None).map_err(|f| KernelError::new(f.message))?;
    let offsets: Vec<usize> = (0..t.variables.len())
        .filter(|&v| formula::is_offset(&t.variables[v].1))
        .collect();
    // Offsets are variables, not terms.
    let terms: Vec<Vec<usize>> = t
        .terms
        .iter()
        .filter(|term| !(term.len() == 1 && offsets.contains(&term[0])))
        .cloned()
        .collect();
    let labels: Vec<String> = terms.iter().map(|term| t.label(term)).collect();
    let vars: Vec<String> = t.variables.iter().map(|(l, _)| l.clone()).collect();
    let mut attrs: Vec<(String, Value)> = Vec::new();
    if !offsets.is_empty() {
        attrs.push((
            "offset".into(),
            Value::Num(offsets.iter().map(|&v| (v + 1) as f64).collect()),
        ));
    }
    // R's factors: a row per variable, a column per term; none without terms.
    let factors = if terms.is_empty() {
        Value::Num(Vec::new())
    } else {
        let codes = codings(&terms);
        let mut m = DMatrix::<f64>::zeros(vars.len(), terms.len());
        for (k, term) in terms.iter().enumerate() {
            for (&v, c) in term.iter().zip(&codes[k]) {
                m[(v, k)] = match c {
                    Coding::Contrasts => 1.0,
                    Coding::Indicators => 2.0,
                };
            }
        }
        super::names::dimnamed(Value::Mat(m), Some(vars.clone()), Some(labels.clone()))
    };
    attrs.push(("factors".into(), factors));
    attrs.push(("term.labels".into(), Value::Str(labels)));
    attrs.push((
        "order".into(),
        Value::Num(terms.iter().map(|t| t.len() as f64).collect()),
    ));
    attrs.push((
        "intercept".into(),
        Value::scalar(f64::from(u8::from(t.intercept))),
    ));
    attrs.push((
        "response".into(),
        Value::scalar(f64::from(u8::from(t.response.is_some()))),
    ));
    attrs.push((
        "class".into(),
        Value::Str(vec!["terms".into(), "formula".into()]),
    ));
    // The formula as R keeps it: the response dropped by delete.response.
    let text = match (lhs, keep_response) {
        (_, true) => deparse(&e),
        (_, false) => format!("~{}", deparse(rhs).trim_start()),
    };
    let formula = from_text(&text)?;
    Ok(Value::Named(Box::new(Named {
        attrs,
        ..Named::plain(formula)
    })))
}

fn terms_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    if is_terms(x) {
        return Ok(x.clone());
    }
    terms_of_text(&text_of(x)?, true)
}

/// `delete.response(termobj)`: the terms without the response, whose
/// row leaves `factors`.
fn delete_response_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("termobj").unwrap_or(&Value::Null);
    if !is_terms(x) {
        // R reads `attr(termobj, "response")` of anything, and fails
        // further on; flowcast says what it takes.
        return Err(KernelError::new(
            "flowcast's delete.response takes a terms object (terms(formula) or terms(fit))",
        ));
    }
    terms_of_text(&text_of(x)?, false)
}

/// `labels(object)`: a terms object's term labels (labels.terms), an lm
/// or glm fit's labels of the terms it estimated (labels.lm), else R's
/// labels.default: the names, or the positions as text.
fn labels_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("object").unwrap_or(&Value::Null);
    if is_terms(x) {
        if let Value::Named(n) = x {
            if let Some((_, v)) = n.attrs.iter().find(|(k, _)| k == "term.labels") {
                return Ok(v.clone());
            }
        }
    }
    match bare(x) {
        Value::Formula(_) => Err(KernelError::new(
            "flowcast's labels reads terms(formula), not the formula itself",
        )),
        Value::List(l) if fit_formula(l).is_some() => fit_labels(l),
        Value::Null => Ok(Value::Null),
        v => {
            if let Some(n) = super::names::names(x) {
                return Ok(Value::Str(n.to_vec()));
            }
            if let Value::List(l) = v {
                if let Some(n) = &l.names {
                    return Ok(Value::Str(n.clone()));
                }
            }
            Ok(Value::Str((1..=v.len()).map(|i| i.to_string()).collect()))
        }
    }
}

/// labels.lm: the labels of the terms the fit estimated,
/// `tl[unique(object$assign[qr$pivot[1L:object$rank]])]`.
fn fit_labels(l: &super::value::List) -> Result<Value, KernelError> {
    let missing = || KernelError::new("flowcast's labels finds no terms in this fit");
    let Some(Value::List(t)) = l.field("terms") else {
        return Err(missing());
    };
    let Some(Value::Str(tl)) = t.field("term.labels") else {
        return Err(missing());
    };
    let assign = l
        .field("assign")
        .and_then(Value::as_f64_slice)
        .ok_or_else(missing)?;
    let rank = l
        .field("rank")
        .and_then(Value::as_scalar)
        .ok_or_else(missing)? as usize;
    let pivot: Vec<usize> = match l.field("qr") {
        Some(Value::List(q)) => q
            .field("pivot")
            .and_then(Value::as_f64_slice)
            .map(|p| p.iter().map(|&i| i as usize).collect())
            .ok_or_else(missing)?,
        _ => (1..=assign.len()).collect(),
    };
    let mut out: Vec<String> = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for &p in pivot.iter().take(rank) {
        let Some(&a) = assign.get(p.wrapping_sub(1)) else {
            return Err(missing());
        };
        let a = a as usize;
        if seen.contains(&a) {
            continue;
        }
        seen.push(a);
        // tl[0] selects nothing: the intercept has no label.
        if a >= 1 {
            if let Some(label) = tl.get(a - 1) {
                out.push(label.clone());
            }
        }
    }
    Ok(Value::Str(out))
}
