//! Model formulas read as R's `terms()` reads them, and the arguments R
//! evaluates in a call's `data`.
//!
//! [`terms`] follows `TermCode` in R's `src/library/stats/src/model.c`:
//! each term is a set of variables; `+` joins term lists, `:` pairs every
//! term of one side with every term of the other, `a * b` is
//! `a + b + a:b`, `a / b` is `a` plus each term of `b` joined with all of
//! `a`'s variables, `(…)^n` crosses a list with itself up to order n, and
//! `-` deletes terms (with the parity flipped, so `- 1` removes the
//! intercept and `+ 0` too). Repeats are dropped, first occurrence kept;
//! then the terms are ordered by how many variables they join, stably.
//! `.` stands for every column of `data` not named on the left-hand side.
//! A term that is the response alone is dropped, as `model.matrix` drops
//! it. Any other expression (`log(x)`, `d$x`, `x[, 1]`) is one variable,
//! named by its R text.

use std::collections::HashSet;

use crate::diagnostic::Span;
use crate::kernels::value::DOT_RESPONSE;
use crate::kernels::{registry, ArgValue, Args};
use crate::workflow::{Arg, BinaryOp, Expr, ExprKind, UnaryOp, PAREN};

/// One variable of a formula.
#[derive(Clone, Copy, Debug)]
pub enum Variable<'a> {
    /// An expression written in the formula.
    Expr(&'a Expr),
    /// A column of `data` that `.` brought in.
    Column(&'a str),
}

/// A formula's terms, as R's `terms()` gives them.
#[derive(Debug)]
pub struct Terms<'a> {
    /// The variables in R's order (the response first, then as they
    /// appear), each with its label: a term's label joins its variables'
    /// labels with `:` in this order.
    pub variables: Vec<(String, Variable<'a>)>,
    /// Each term's variables, ascending indices into `variables`.
    pub terms: Vec<Vec<usize>>,
    pub intercept: bool,
    /// The response's index in `variables`.
    pub response: Option<usize>,
}

impl Terms<'_> {
    /// R's label of a term: `a`, `a:b`.
    pub fn label(&self, term: &[usize]) -> String {
        term.iter()
            .map(|&v| self.variables[v].0.as_str())
            .collect::<Vec<_>>()
            .join(":")
    }
}

/// Why a formula cannot be read, and where.
#[derive(Debug)]
pub struct FormulaError {
    pub span: Span,
    pub message: String,
}

struct Encoder<'a> {
    variables: Vec<(String, Variable<'a>)>,
    intercept: bool,
    /// False on the right of a `-`, where `1` removes the intercept.
    parity: bool,
    columns: Option<&'a [String]>,
    /// Names on the left-hand side, which `.` leaves out.
    lhs_names: Vec<String>,
}

type Term = Vec<usize>;

fn union(a: &Term, b: &Term) -> Term {
    let mut t: Term = a.iter().chain(b).copied().collect();
    t.sort_unstable();
    t.dedup();
    t
}

/// R's `TrimRepeats`: drops repeats (first kept) and empty terms. Hashed,
/// as R's is: `(a + … + n)^14` has 16,383 terms, and comparing each with
/// every one kept took a minute.
fn trim(terms: Vec<Term>) -> Vec<Term> {
    let mut seen = HashSet::with_capacity(terms.len());
    terms
        .into_iter()
        .filter(|t| !t.is_empty() && seen.insert(t.clone()))
        .collect()
}

fn interact(left: &[Term], right: &[Term]) -> Vec<Term> {
    left.iter()
        .flat_map(|l| right.iter().map(move |r| union(l, r)))
        .collect()
}

impl<'a> Encoder<'a> {
    fn install(&mut self, label: String, v: Variable<'a>) -> usize {
        if let Some(i) = self.variables.iter().position(|(l, _)| *l == label) {
            return i;
        }
        self.variables.push((label, v));
        self.variables.len() - 1
    }

    fn encode(&mut self, e: &'a Expr) -> Result<Vec<Term>, FormulaError> {
        let fail = |message: &str| FormulaError {
            span: e.span,
            message: message.to_string(),
        };
        Ok(match &e.kind {
            ExprKind::Num(x) if *x == 1.0 => {
                self.intercept = self.parity;
                Vec::new()
            }
            ExprKind::Num(x) if *x == 0.0 => {
                self.intercept = !self.parity;
                Vec::new()
            }
            ExprKind::Num(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::Na => return Err(fail("invalid model formula: a term must be a variable")),
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::Add => {
                    let mut l = self.encode(lhs)?;
                    l.extend(self.encode(rhs)?);
                    trim(l)
                }
                BinaryOp::Sub => {
                    let l = self.encode(lhs)?;
                    let r: HashSet<Term> = self.delete(rhs)?.into_iter().collect();
                    l.into_iter().filter(|t| !r.contains(t)).collect()
                }
                BinaryOp::Range => {
                    let l = self.encode(lhs)?;
                    let r = self.encode(rhs)?;
                    trim(interact(&l, &r))
                }
                BinaryOp::Mul => {
                    let l = self.encode(lhs)?;
                    let r = self.encode(rhs)?;
                    let both = interact(&l, &r);
                    trim(l.into_iter().chain(r).chain(both).collect())
                }
                BinaryOp::Div => {
                    let l = self.encode(lhs)?;
                    let r = self.encode(rhs)?;
                    let all = l.iter().fold(Term::new(), |acc, t| union(&acc, t));
                    let nested: Vec<Term> = r.iter().map(|t| union(&all, t)).collect();
                    trim(l.into_iter().chain(nested).collect())
                }
                BinaryOp::Pow => {
                    let n = match rhs.kind {
                        ExprKind::Num(n) if n.is_finite() && n.trunc() >= 2.0 => n.trunc(),
                        _ => {
                            return Err(FormulaError {
                                span: rhs.span,
                                message:
                                    "invalid power in formula: use a whole number of 2 or more"
                                        .into(),
                            })
                        }
                    };
                    let l = self.encode(lhs)?;
                    let mut out = l.clone();
                    let mut power = 1.0;
                    while power < n {
                        let next = trim(interact(&l, &out));
                        // Once every variable is joined, higher powers add nothing.
                        if next == out {
                            break;
                        }
                        out = next;
                        power += 1.0;
                    }
                    out
                }
                // `%*%`, comparisons and logical operators: R's `terms`
                // takes them as one variable.
                _ => vec![self.variable(e)],
            },
            ExprKind::Unary { op, expr } => match op {
                UnaryOp::Plus => self.encode(expr)?,
                UnaryOp::Neg => {
                    self.delete(expr)?;
                    Vec::new()
                }
                UnaryOp::Not => vec![self.variable(e)],
            },
            ExprKind::Name(n) if n == "." => {
                let Some(columns) = self.columns else {
                    return Err(fail("'.' in formula and no 'data' argument"));
                };
                let mut out = Vec::new();
                for c in columns {
                    if !self.lhs_names.contains(c) {
                        out.push(vec![self.install(c.clone(), Variable::Column(c))]);
                    }
                }
                out
            }
            ExprKind::Formula { .. } => {
                return Err(fail("invalid model formula: a `~` inside a formula"))
            }
            // TermCode's parenthesised term: the terms inside.
            ExprKind::Call { func, args, .. } if func == PAREN && args.len() == 1 => {
                self.encode(&args[0].value)?
            }
            _ => vec![self.variable(e)],
        })
    }

    /// The terms on the right of a `-`, encoded with the parity flipped.
    fn delete(&mut self, e: &'a Expr) -> Result<Vec<Term>, FormulaError> {
        self.parity = !self.parity;
        let r = self.encode(e);
        self.parity = !self.parity;
        r
    }

    fn variable(&mut self, e: &'a Expr) -> Term {
        vec![self.install(e.to_string(), Variable::Expr(e))]
    }
}

/// Whether a variable is written `offset(…)`: R's `terms` keeps it out of
/// the terms, as a known part of the linear predictor.
pub fn is_offset(v: &Variable) -> bool {
    matches!(v, Variable::Expr(Expr { kind: ExprKind::Call { func, .. }, .. }) if func == "offset")
}

fn names_in(e: &Expr, out: &mut Vec<String>) {
    e.visit_names(&mut |n, _| out.push(n.to_string()));
}

/// The terms of `lhs ~ rhs`; `columns` are the names of the call's
/// `data`, when it has one (`.` needs them).
pub fn terms<'a>(
    lhs: Option<&'a Expr>,
    rhs: &'a Expr,
    columns: Option<&'a [String]>,
) -> Result<Terms<'a>, FormulaError> {
    let mut lhs_names = Vec::new();
    if let Some(l) = lhs {
        names_in(l, &mut lhs_names);
    }
    let mut enc = Encoder {
        variables: Vec::new(),
        intercept: true,
        parity: true,
        columns,
        lhs_names,
    };
    let dot_lhs = matches!(lhs, Some(Expr { kind: ExprKind::Name(n), .. }) if n == ".");
    let response = lhs
        .filter(|_| !dot_lhs)
        .map(|l| enc.install(l.to_string(), Variable::Expr(l)));
    let mut terms = enc.encode(rhs)?;
    terms.sort_by_key(Vec::len);
    if let Some(r) = response {
        terms.retain(|t| t.as_slice() != [r]);
    }
    if let (true, Some(l)) = (dot_lhs, lhs) {
        // aggregate.formula's `. ~ g`: every column of `data` that is no
        // variable of the right-hand side, a response each. A formula has
        // one response value, so they travel as terms marked by their
        // label (see DOT_RESPONSE).
        let Some(columns) = columns else {
            return Err(FormulaError {
                span: l.span,
                message: "'.' in formula and no 'data' argument".into(),
            });
        };
        let rhs_vars: Vec<String> = enc.variables.iter().map(|(n, _)| n.clone()).collect();
        for c in columns {
            if !rhs_vars.contains(c) {
                let v = enc.install(format!("{DOT_RESPONSE}{c}"), Variable::Column(c));
                terms.push(vec![v]);
            }
        }
    }
    Ok(Terms {
        variables: enc.variables,
        terms,
        intercept: enc.intercept,
        response,
    })
}

impl ArgValue for &Expr {
    type Target = Expr;
    fn target(&self) -> &Expr {
        self
    }
}

/// Which arguments of a call R evaluates inside its `data`: for `lm`, the
/// formula, `subset` and `weights` (`model.frame` looks their names up in
/// `data` first). Indices into `args`.
#[derive(Debug)]
pub struct DataScope {
    pub data: usize,
    pub scoped: Vec<usize>,
    /// Arguments R evaluates where each column's name stands for its
    /// position, as `subset.data.frame` evaluates `select` in
    /// `as.list(seq_along(x))` named by the columns (`c(a, b)`, `-c(a)`,
    /// `a:c`); other names are looked up as usual.
    pub positions: Vec<usize>,
    /// The scope applies only when `data` is a data frame: `subset` of a
    /// vector is `subset.default`, which evaluates its arguments as usual.
    pub frames_only: bool,
}

/// Whether `e` is a formula as written (`y ~ x`) or built from text
/// (`as.formula(s)`, `formula(s)`, `reformulate(v, "y")`), which the
/// evaluator reads among the call's data as it reads a written one.
fn formula_arg(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Formula { .. } => true,
        ExprKind::Call { func, .. } => {
            matches!(func.as_str(), "as.formula" | "formula" | "reformulate")
        }
        _ => false,
    }
}

/// Whether `func` reads a formula argument as a model (its terms'
/// values), so that a formula built from text must be evaluated before
/// the call, even without `data`.
pub fn reads_formula(func: &str) -> bool {
    matches!(
        func,
        "t.test"
            | "wilcox.test"
            | "var.test"
            | "ansari.test"
            | "mood.test"
            | "cor.test"
            | "kruskal.test"
            | "bartlett.test"
            | "fligner.test"
            | "lm"
            | "aov"
            | "manova"
            | "glm"
            | "loess"
            | "aggregate"
            | "oneway.test"
            | "xtabs"
            | "model.matrix"
            | "model.frame"
            | "replications"
    )
}

/// Whether the formula method of `func` takes `data` as its second
/// formal (`t.test(formula, data)`, `lm(formula, data)`).
pub fn data_second(func: &str) -> bool {
    matches!(
        func,
        "t.test"
            | "wilcox.test"
            | "var.test"
            | "ansari.test"
            | "mood.test"
            | "cor.test"
            | "kruskal.test"
            | "bartlett.test"
            | "fligner.test"
            | "friedman.test"
            | "quade.test"
            | "lm"
            | "aov"
            | "manova"
            | "aggregate"
            | "oneway.test"
            | "xtabs"
            | "model.frame"
            | "replications"
    )
}

/// The [`DataScope`] of a call to `func`, when it has a `data` argument.
pub fn data_scope(func: &str, args: &[Arg]) -> Option<DataScope> {
    let test_second = match func {
        "t.test" | "wilcox.test" | "var.test" | "ansari.test" | "mood.test" | "cor.test" => {
            Some("y")
        }
        "kruskal.test" | "bartlett.test" | "fligner.test" => Some("g"),
        // friedman.test(y ~ groups | blocks, data): its first formal is y.
        "friedman.test" | "quade.test" => Some("groups"),
        "lm" | "aov" | "manova" | "glm" | "loess" | "aggregate" | "subset" | "with" | "within"
        | "transform" | "oneway.test" | "xtabs" | "model.matrix" | "model.frame"
        | "replications" | "stack" | "unstack" => None,
        _ => return None,
    };
    let kernel = registry().get(func)?;
    let mut given = args
        .iter()
        .map(|a| (a.name.clone(), &a.value))
        .collect::<Vec<(Option<String>, &Expr)>>();
    // An argument the function does not take is reported by the call's own
    // matching; it must not hide `data`, or the formula's names would be
    // looked up among the steps and reported missing instead.
    let matched = loop {
        match Args::match_call(kernel.name, kernel.params, given.clone()) {
            Ok(m) => break m,
            Err(e) => match e.arg {
                Some(i) if given.get(i).is_some_and(|(n, _)| n.is_some()) => {
                    given.remove(i);
                }
                _ => return None,
            },
        }
    };
    let position = |v: &Expr| args.iter().position(|a| std::ptr::eq(&a.value, v));
    if let Some(second) = test_second {
        // A test's formula method (`t.test(y ~ g, data = d)`); its second
        // formal is `data`, the one matched here as `y` or `g`.
        let first = if second == "groups" { "y" } else { "x" };
        let formula = matched.get(first).filter(|x| formula_arg(x))?;
        let data = matched.get("data").or_else(|| matched.get(second))?;
        // model.frame evaluates `subset` among the columns too.
        let mut scoped = vec![position(formula)?];
        scoped.extend(matched.get("subset").and_then(position));
        return Some(DataScope {
            data: position(data)?,
            scoped,
            positions: Vec::new(),
            frames_only: false,
        });
    }
    if func == "subset" || func == "stack" {
        // subset.data.frame and stack.data.frame: `select` among the
        // columns' positions; subset's `subset` among the columns.
        return Some(DataScope {
            data: position(matched.get("x")?)?,
            scoped: matched
                .get_if_formal("subset")
                .and_then(position)
                .into_iter()
                .collect(),
            positions: matched
                .get("select")
                .and_then(position)
                .into_iter()
                .collect(),
            frames_only: true,
        });
    }
    if func == "unstack" {
        // unstack.data.frame: eval(form[[2]], x) and eval(form[[3]], x).
        return Some(DataScope {
            data: position(matched.get("x")?)?,
            scoped: matched.get("form").and_then(position).into_iter().collect(),
            positions: Vec::new(),
            frames_only: true,
        });
    }
    if func == "with" || func == "within" {
        // with.default: eval(substitute(expr), data, enclos = parent.frame()).
        return Some(DataScope {
            data: position(matched.get("data")?)?,
            scoped: matched.get("expr").and_then(position).into_iter().collect(),
            positions: Vec::new(),
            frames_only: false,
        });
    }
    if func == "transform" {
        // transform.data.frame: eval(substitute(list(...)), `_data`).
        let data = position(matched.get("_data")?)?;
        return Some(DataScope {
            data,
            scoped: (0..args.len()).filter(|&i| i != data).collect(),
            positions: Vec::new(),
            frames_only: false,
        });
    }
    if func == "aggregate" {
        // aggregate(y ~ g, d, mean): the formula method's second formal is
        // `data`, the one matched here as `by`.
        let formula = matched.get("x").filter(|x| formula_arg(x))?;
        let data = matched.get("data").or_else(|| matched.get("by"))?;
        return Some(DataScope {
            data: position(data)?,
            scoped: vec![position(formula)?],
            positions: Vec::new(),
            frames_only: false,
        });
    }
    let data = position(matched.get("data")?)?;
    // model.matrix's formula is its `object`.
    let scoped = ["formula", "object", "subset", "weights", "offset"]
        .iter()
        .filter_map(|n| matched.get_if_formal(n).and_then(position))
        .collect();
    Some(DataScope {
        data,
        scoped,
        positions: Vec::new(),
        frames_only: false,
    })
}

/// The positions among `args` of nls's formula, its data, and the
/// arguments R evaluates in the data (`weights`, `subset`, through
/// `model.frame`). nls's formula is no formula of terms: its names are the
/// data's columns, steps, or parameters named by `start` (see
/// `exec::eval::nls`).
pub struct NlsArgs {
    pub formula: Option<usize>,
    pub data: Option<usize>,
    pub start: Option<usize>,
    pub in_data: Vec<usize>,
}

pub fn nls_args(args: &[Arg]) -> Option<NlsArgs> {
    nls_args_of("nls", args)
}

/// [`nls_args`] of `nls` or of `getInitial(object, data)`, whose formula
/// is read the same way.
pub fn nls_args_of(func: &str, args: &[Arg]) -> Option<NlsArgs> {
    let kernel = registry().get(func)?;
    let given: Vec<(Option<String>, &Expr)> =
        args.iter().map(|a| (a.name.clone(), &a.value)).collect();
    let matched = Args::match_call(kernel.name, kernel.params, given).ok()?;
    let position = |name: &str| {
        let v = matched.get(name)?;
        args.iter().position(|a| std::ptr::eq(&a.value, v))
    };
    if func == "getInitial" {
        return Some(NlsArgs {
            formula: position("object"),
            data: position("data"),
            start: None,
            in_data: Vec::new(),
        });
    }
    Some(NlsArgs {
        formula: position("formula"),
        data: position("data"),
        start: position("start"),
        in_data: ["weights", "subset"]
            .iter()
            .filter_map(|n| position(n))
            .collect(),
    })
}

/// The spans of the names in nls formulas that their `start`, written
/// `list(a = ...)` or `c(a = ...)`, makes parameters, anywhere in `e`: no
/// step is read there, even one of that name (R's parameter hides it).
pub fn nls_parameter_spans(e: &Expr, out: &mut Vec<Span>) {
    if let ExprKind::Call { func, args, .. } = &e.kind {
        if let (true, Some(at)) = (func == "nls", nls_args(args)) {
            let start = at.start.map(|i| &args[i].value.kind);
            if let (Some(f), Some(ExprKind::Call { func, args: s, .. })) = (at.formula, start) {
                if func == "list" || func == "c" {
                    let names: Vec<&str> = s.iter().filter_map(|a| a.name.as_deref()).collect();
                    args[f].value.visit_names(&mut |n, span| {
                        if names.contains(&n) {
                            out.push(span);
                        }
                    });
                }
            }
        }
    }
    e.visit_children(&mut |c| nls_parameter_spans(c, out));
}

/// The position of the formula of `update(object, formula.)`, or of the
/// scope of `add1` and `step`: R evaluates it again among the columns of
/// the data the fit was made with (see `exec::eval::update`), so a name
/// that is no step is taken to be one of them.
pub fn update_formula_arg(func: &str, args: &[Arg]) -> Option<usize> {
    let param = match func {
        "update" => "formula.",
        "add1" | "step" => "scope",
        _ => return None,
    };
    let kernel = registry().get(func)?;
    let given = args
        .iter()
        .map(|a| (a.name.clone(), &a.value))
        .collect::<Vec<(Option<String>, &Expr)>>();
    let matched = Args::match_call(kernel.name, kernel.params, given).ok()?;
    let v = matched.get(param)?;
    args.iter().position(|a| std::ptr::eq(&a.value, v))
}

/// The position of the formula written in `terms(y ~ x)`: R reads its
/// variables' names, not their values (see `exec::eval`), so they need
/// be no steps.
pub fn terms_formula_arg(func: &str, args: &[Arg]) -> Option<usize> {
    if func != "terms" {
        return None;
    }
    let a = args.first()?;
    (matches!(a.value.kind, ExprKind::Formula { .. }) && a.name.as_deref().is_none_or(|n| n == "x"))
        .then_some(0)
}

/// The spans of the formulas in `e` that no call reads as its argument:
/// a step's formula (`f = 'y ~ g'`) or one in a list of them. R keeps a
/// formula unevaluated, so their names may be the columns of data they
/// will meet later (`t.test(f, data = d)`); the evaluator keeps such a
/// formula as its text until then (`exec::eval`'s `formula_value`).
pub fn loose_formula_spans(e: &Expr, out: &mut Vec<Span>) {
    match &e.kind {
        ExprKind::Formula { .. } => out.push(e.span),
        ExprKind::Call { func, args, .. } if func != "list" && func != "c" => {
            for a in args {
                if !matches!(a.value.kind, ExprKind::Formula { .. }) {
                    loose_formula_spans(&a.value, out);
                } else if reads_language(func) {
                    out.push(a.value.span);
                }
            }
        }
        _ => e.visit_children(&mut |c| loose_formula_spans(c, out)),
    }
}

/// Whether `func` takes a formula as R's language, not as a model whose
/// variables it evaluates (`all.vars(y ~ x)`, `update(y ~ x, . ~ . + z)`):
/// its names need be no steps.
fn reads_language(func: &str) -> bool {
    matches!(
        func,
        "all.vars"
            | "all.names"
            | "deparse"
            | "deparse1"
            | "length"
            | "as.character"
            | "update"
            | "formula"
            | "as.formula"
            | "class"
            | "identity"
    )
}

/// The spans of every argument evaluated inside a call's `data`, anywhere
/// in `e`.
pub fn data_scoped_spans(e: &Expr, out: &mut Vec<Span>) {
    if let ExprKind::Call { func, args, .. } = &e.kind {
        if func == "nls" || func == "getInitial" {
            if let Some(at) = nls_args_of(func, args) {
                let scoped = at.formula.iter().chain(&at.in_data);
                out.extend(scoped.map(|&i| args[i].value.span));
            }
        }
        if let Some(ds) = data_scope(func, args) {
            let scoped = ds.scoped.iter().chain(&ds.positions);
            out.extend(scoped.map(|&i| args[i].value.span));
        }
        if let Some(i) = update_formula_arg(func, args) {
            out.push(args[i].value.span);
        }
        if let Some(i) = terms_formula_arg(func, args) {
            out.push(args[i].value.span);
        }
    }
    e.visit_children(&mut |c| data_scoped_spans(c, out));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflow::parse_expr_str;

    fn labels(src: &str, columns: Option<&[String]>) -> (Vec<String>, bool) {
        let e = parse_expr_str(src).expect("parses");
        let ExprKind::Formula { lhs, rhs } = &e.kind else {
            panic!("not a formula")
        };
        let t = terms(lhs.as_deref(), rhs, columns).expect("terms");
        (t.terms.iter().map(|x| t.label(x)).collect(), t.intercept)
    }

    #[test]
    fn operators_give_rs_terms_in_rs_order() {
        assert_eq!(labels("y ~ a*b", None).0, ["a", "b", "a:b"]);
        assert_eq!(
            labels("y ~ (a+b+c)^2", None).0,
            ["a", "b", "c", "a:b", "a:c", "b:c"]
        );
        assert_eq!(labels("y ~ a/b", None).0, ["a", "a:b"]);
        assert_eq!(labels("y ~ (a+b)/c", None).0, ["a", "b", "a:b:c"]);
        assert_eq!(labels("y ~ a*b*c - a:b:c", None).0.len(), 6);
        assert_eq!(labels("y ~ b:a + a", None).0, ["a", "b:a"]);
        assert_eq!(labels("y ~ a:y", None).0, ["y:a"]);
        assert_eq!(labels("y ~ y + a", None).0, ["a"]);
        assert_eq!(labels("y ~ a^2", None).0, ["a"]);
        assert_eq!(labels("y ~ a*log(b)", None).0, ["a", "log(b)", "a:log(b)"]);
    }

    #[test]
    fn intercept_follows_the_last_word() {
        assert!(!labels("y ~ 0 + a", None).1);
        assert!(labels("y ~ a - 1 + 1", None).1);
        assert!(!labels("y ~ -1 + a", None).1);
        assert!(!labels("y ~ a + 0 + b", None).1);
    }

    #[test]
    fn dot_on_the_left_is_every_other_column_marked() {
        let cols: Vec<String> = ["y", "a", "b"].iter().map(|s| s.to_string()).collect();
        let e = parse_expr_str(". ~ a").expect("parses");
        let ExprKind::Formula { lhs, rhs } = &e.kind else {
            panic!("not a formula")
        };
        let t = terms(lhs.as_deref(), rhs, Some(&cols)).expect("terms");
        assert!(t.response.is_none());
        let labels: Vec<String> = t.terms.iter().map(|x| t.label(x)).collect();
        assert_eq!(labels, ["a", ".~y", ".~b"]);
        assert!(terms(lhs.as_deref(), rhs, None).is_err());
    }

    #[test]
    fn dot_is_every_other_column() {
        let cols: Vec<String> = ["y", "a", "b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(labels("y ~ .", Some(&cols)).0, ["a", "b"]);
        assert_eq!(labels("log(y) ~ .^2", Some(&cols)).0, ["a", "b", "a:b"]);
    }
}
