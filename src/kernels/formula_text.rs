//! Formulas built from text: `as.formula("y ~ x")`, `formula(text)`,
//! `reformulate(termlabels, response)` and `formula(fit)`.
//!
//! A formula written in a step is evaluated where it is written (see
//! `exec::eval::eval_formula`). One built at run time cannot be: its
//! variables are the columns of a `data` it has not met yet
//! (`lapply(vars, function(v) lm(reformulate(v, "y"), data = d))`). So
//! these kernels return the formula as text ([`Formula::text`]), as R's
//! formula is a call kept unevaluated, and the evaluator evaluates it
//! where a model function reads it: among that call's data, else among the
//! steps (`exec::eval`'s `materialise`).

use super::value::{Formula, List};
use super::{logical, opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};
use crate::workflow::{deparse, parse_expr_str, Expr, ExprKind};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "as.formula",
        params: &[req("object"), opt("env")],
        random: false,
        shape: formula_shape,
        eval: as_formula_eval,
    },
    Kernel {
        name: "formula",
        params: &[req("x"), super::DOTS],
        random: false,
        shape: formula_shape,
        eval: formula_eval,
    },
    Kernel {
        name: "reformulate",
        params: &[
            req("termlabels"),
            opt("response"),
            opt("intercept"),
            opt("env"),
        ],
        random: false,
        shape: formula_shape,
        eval: reformulate_eval,
    },
];

/// Its terms are known only once the text is read among a call's data.
fn formula_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

fn as_formula_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    no_env(args)?;
    formula_of(args.get("object").unwrap_or(&Value::Null), ctx)
}

fn formula_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    formula_of(args.get("x").unwrap_or(&Value::Null), ctx)
}

/// flowcast has no environments: a formula's variables are found among the
/// data of the call that reads it, then among the steps.
fn no_env(args: &Args<&Value>) -> Result<(), KernelError> {
    match args.get("env") {
        None | Some(Value::Null) => Ok(()),
        Some(_) => Err(KernelError::new(
            "flowcast has no environments: a formula's variables are found among the data of \
             the call that reads it, then among the steps; leave out 'env'",
        )),
    }
}

/// R's `formula` generic: `formula.character`, `formula.default` of a
/// formula, and `formula.lm` / `formula.glm` of a fit.
fn formula_of(x: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    match x {
        Value::Formula(_) => Ok(x.clone()),
        Value::Str(s) if !s.is_empty() => {
            if s.len() > 1 {
                ctx.warn(
                    "Using formula(x) is deprecated when x is a character vector of length > \
                     1.\n  Consider formula(paste(x, collapse = \" \")) instead.",
                );
            }
            from_text(&s[0])
        }
        Value::List(l) => match fit_formula(l) {
            Some(f) => from_text(&f.text()),
            None => Err(KernelError::new("invalid formula")),
        },
        _ => Err(KernelError::new("invalid formula")),
    }
}

/// R's `formula.character`: the text read as one R expression, which must
/// be a call to `~`. R's deprecated readings of `y = x`, `(f)` and `{f}`
/// are refused.
pub fn from_text(text: &str) -> Result<Value, KernelError> {
    // R writes the text as deparse2(x) does: quoted, NA bare.
    let shown = if super::factor::text_is_na(text) {
        "NA_character_".to_string()
    } else {
        format!("{text:?}")
    };
    let e = parse_one(text)?;
    match &e.kind {
        ExprKind::Formula { lhs, .. } => Ok(Value::Formula(Formula {
            response: None,
            response_label: lhs.as_deref().map(deparse),
            terms: Vec::new(),
            intercept: true,
            predvars: Vec::new(),
            text: Some(deparse(&e)),
            source: None,
        })),
        ExprKind::Call { .. } | ExprKind::Binary { .. } | ExprKind::Unary { .. } => {
            Err(KernelError::new(format!("invalid formula {shown}")))
        }
        _ => Err(KernelError::new(format!(
            "invalid formula {shown}: not a call"
        ))),
    }
}

/// R's `str2lang`: exactly one expression.
fn parse_one(text: &str) -> Result<Expr, KernelError> {
    if text.trim().is_empty() {
        return Err(KernelError::new("parsing result not of length one, but 0"));
    }
    let e = parse_expr_str(text).map_err(|d| KernelError::new(format!("<text>: {}", d.message)))?;
    // `y ~ x; z` reads as statements, not one expression.
    match &e.kind {
        ExprKind::Block(stmts) if !text.trim_start().starts_with('{') => Err(KernelError::new(
            format!("parsing result not of length one, but {}", stmts.len()),
        )),
        _ => Ok(e),
    }
}

/// R's `reformulate`: `response ~ termlabels[1] + ... (- 1)`.
fn reformulate_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    no_env(args)?;
    let labels = match args.get("termlabels") {
        Some(Value::Str(s)) if !s.is_empty() => s,
        _ => {
            return Err(KernelError::new(
                "'termlabels' must be a character vector of length at least one",
            ))
        }
    };
    let mut rhs = labels.join("+");
    if !logical::if_given(args.get("intercept"), true)? {
        rhs.push_str(" - 1");
    }
    // The terms must read as one expression on their own, as R's
    // str2lang(termtext) requires.
    parse_one(&rhs)?;
    let lhs = match args.get("response") {
        None | Some(Value::Null) => String::new(),
        Some(Value::Str(s)) if s.len() == 1 => {
            // R reads an unparseable response as one name (deprecated).
            if parse_one(&s[0]).is_ok() {
                s[0].clone()
            } else {
                format!("`{}`", s[0])
            }
        }
        Some(Value::Str(_)) => {
            return Err(KernelError::new("'response' must be a character string"))
        }
        Some(_) => {
            return Err(KernelError::new(
                "flowcast's reformulate() takes 'response' as a character string",
            ))
        }
    };
    from_text(&format!("{lhs} ~ {rhs}"))
}

/// A fit's formula as `formula(terms(fit))` simplified writes it: its
/// response, term labels and intercept (an lm, glm or aov fit).
pub struct FitFormula {
    pub response: Option<String>,
    pub labels: Vec<String>,
    pub intercept: bool,
    /// The formula as written in the call that made the fit, as R's
    /// `formula(fit)` gives it (`y ~ x * z`), when flowcast knows it.
    pub written: Option<String>,
}

impl FitFormula {
    pub fn text(&self) -> String {
        if let Some(w) = &self.written {
            return w.clone();
        }
        let rhs = rhs_text(&self.labels, self.intercept);
        match &self.response {
            Some(l) => format!("{l} ~ {rhs}"),
            None => format!("~{rhs}"),
        }
    }
}

/// A right-hand side as R deparses `terms.formula(simplify = TRUE)`'s:
/// the term labels joined by `+` (`1` when there are none), `- 1` without
/// an intercept.
pub fn rhs_text<S: AsRef<str>>(labels: &[S], intercept: bool) -> String {
    let mut s = if labels.is_empty() {
        "1".to_string()
    } else {
        labels
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<&str>>()
            .join(" + ")
    };
    if !intercept {
        s.push_str(" - 1");
    }
    s
}

/// The formula of an lm, glm or aov fit, from its `terms`.
pub fn fit_formula(l: &List) -> Option<FitFormula> {
    if !matches!(l.class.as_deref(), Some("lm" | "glm" | "aov")) {
        return None;
    }
    let Some(Value::List(t)) = l.field("terms") else {
        return None;
    };
    // By its exact name: `t.field("f")` would match `factors` too.
    let at = t.names.as_ref()?.iter().position(|n| n == "formula");
    let written = match at.and_then(|i| t.items.get(i)) {
        Some(Value::Str(s)) if s.len() == 1 => Some(s[0].clone()),
        _ => None,
    };
    let labels = match t.field("term.labels") {
        Some(Value::Str(s)) => s.clone(),
        _ => return None,
    };
    let intercept =
        matches!(t.field("intercept"), Some(Value::Bool(b)) if b.first() == Some(&Some(true)));
    // By its exact name: flowcast's own fields match only so.
    let response = l
        .names
        .as_ref()?
        .iter()
        .position(|n| n == "response")
        .and_then(|i| l.items.get(i));
    let response = match response {
        Some(Value::Str(s)) if s.len() == 1 => Some(s[0].clone()),
        _ => None,
    };
    Some(FitFormula {
        response,
        labels,
        intercept,
        written,
    })
}
