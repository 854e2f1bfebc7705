//! Expressions back to text: R-like with only the parentheses R needs
//! (`Display`), or fully parenthesised to show how a text was grouped
//! ([`sexpr`]).

use std::fmt;

use super::ast::{Arg, BinaryOp, Expr, ExprKind, Param, UnaryOp, PAREN, RECALL};
use super::names::{is_reserved, is_syntactic};

/// How tightly `e` binds: a child printed where less than this is
/// needed is put in parentheses.
pub fn prec(e: &Expr) -> u8 {
    match &e.kind {
        // `<-` binds more loosely than anything.
        ExprKind::Assign { .. } => 3,
        // A function's body, and `if`'s last branch, take everything to
        // their right.
        ExprKind::Function { .. }
        | ExprKind::If { .. }
        | ExprKind::For { .. }
        | ExprKind::While { .. } => 5,
        ExprKind::Formula { .. } => 10,
        ExprKind::Binary { op, .. } => match op {
            BinaryOp::Add | BinaryOp::Sub => 20,
            BinaryOp::Mul | BinaryOp::Div => 30,
            BinaryOp::MatMul => 40,
            BinaryOp::Range => 50,
            BinaryOp::Pow => 70,
            BinaryOp::In | BinaryOp::Mod | BinaryOp::IntDiv => 40,
            BinaryOp::Or | BinaryOp::OrOr => 12,
            BinaryOp::And | BinaryOp::AndAnd => 14,
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Gt
            | BinaryOp::Le
            | BinaryOp::Ge => 18,
        },
        ExprKind::Unary {
            op: UnaryOp::Not, ..
        } => 16,
        ExprKind::Unary { .. } => 60,
        _ => 80,
    }
}

/// A name as R writes it in a call: backquoted unless syntactic.
pub fn name(n: &str) -> String {
    if is_syntactic(n) && !is_reserved(n) {
        n.to_string()
    } else {
        format!("`{n}`")
    }
}

/// A number as R's deparse writes it: `formatReal` of the one value at
/// 15 significant digits, fixed notation unless scientific is narrower
/// (`1e+05`, `1e-04`, `123456`, `0.1`).
pub fn num(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    if v == 0.0 {
        return "0".into();
    }
    // `{:.14e}` rounds to 15 significant digits as R's scientific() does
    // for digits = 15; trailing zeros of the mantissa are not significant.
    let sci = format!("{:.14e}", v.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let kpower: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let nsig = digits.trim_end_matches('0').len().max(1) as i32;
    let neg = i32::from(v < 0.0);
    let left = kpower + 1;
    let rgt = (nsig - left).max(0);
    let fixed_width = neg + left.max(1) + rgt + i32::from(rgt > 0);
    let exp_digits = if kpower.abs() >= 100 { 3 } else { 2 };
    let sci_width = neg + nsig + i32::from(nsig > 1) + 2 + exp_digits;
    if fixed_width <= sci_width {
        format!("{v:.*}", rgt as usize)
    } else {
        let m = &digits[..nsig as usize];
        let (head, tail) = m.split_at(1);
        let dot = if tail.is_empty() { "" } else { "." };
        let sign = if v < 0.0 { "-" } else { "" };
        let esign = if kpower < 0 { '-' } else { '+' };
        format!(
            "{sign}{head}{dot}{tail}e{esign}{:0w$}",
            kpower.abs(),
            w = exp_digits as usize
        )
    }
}

fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Shared by both printers: `sub` prints a child in a given context (the
/// minimum precedence it needs to stand without parentheses).
fn render(e: &Expr, sub: &dyn Fn(&Expr, u8) -> String) -> String {
    render_as(e, sub, false)
}

/// [`render`], with R's deparse spacing when `r` is set: R writes `/`,
/// `%%` and `%/%` without spaces around them, as `^` and `:`.
fn render_as(e: &Expr, sub: &dyn Fn(&Expr, u8) -> String, r: bool) -> String {
    let args = |args: &[Arg]| {
        args.iter()
            .map(|a| match &a.name {
                Some(n) => format!("{} = {}", name(n), sub(&a.value, 0)),
                None => sub(&a.value, 0),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &e.kind {
        ExprKind::Num(v) => num(*v),
        ExprKind::Str(s) => string(s),
        ExprKind::Bool(b) => if *b { "TRUE" } else { "FALSE" }.into(),
        ExprKind::Null => "NULL".into(),
        ExprKind::Na => "NA".into(),
        ExprKind::Missing => String::new(),
        ExprKind::Name(n) => name(n),
        // A call of a value (`workflow::call_values`) as it was written.
        ExprKind::Call { func, args: a, .. }
            if func == crate::kernels::callable::CALL_VALUE && a.len() >= 2 =>
        {
            // The parser stores R's deparse of the callee beside it; reading
            // it, not deparsing the callee again, keeps `f(1)(1)…(1)` linear
            // (each level deparsed all those inside it: 5,000 levels took
            // minutes, past Ctrl-C).
            // A name's text (`Fn` of a step) is the bare name, not its
            // deparse, and costs nothing to print.
            let head = match (&a[0].value.kind, &a[1].value.kind) {
                (ExprKind::Name(_), _) => sub(&a[0].value, 70),
                (_, ExprKind::Str(t)) if r && prec(&a[0].value) >= 70 => t.clone(),
                (_, ExprKind::Str(t)) if r => format!("({t})"),
                _ => sub(&a[0].value, 70),
            };
            format!("{head}({})", args(&a[2..]))
        }
        // A formula's parentheses, as written (`y ~ (x * z)`).
        ExprKind::Call { func, args: a, .. } if func == PAREN && a.len() == 1 => {
            format!("({})", sub(&a[0].value, 0))
        }
        // A function's call of itself, as written (`fib(n - 1)`).
        ExprKind::Call { func, args: a, .. } if func == RECALL && !a.is_empty() => {
            let head = match &a[0].value.kind {
                ExprKind::Str(f) => name(f),
                _ => "Recall".into(),
            };
            format!("{head}({})", args(&a[1..]))
        }
        ExprKind::Call { func, args: a, .. } => format!("{}({})", name(func), args(a)),
        ExprKind::Unary { op, expr } => {
            let p = if *op == UnaryOp::Not { 16 } else { 60 };
            format!("{}{}", op.symbol(), sub(expr, p))
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let p = prec(e);
            // `^` groups to the right, comparisons not at all, every other
            // operator to the left.
            let (lp, rp) = if *op == BinaryOp::Pow {
                (p + 1, p)
            } else if op.is_comparison() {
                (p + 1, p + 1)
            } else {
                (p, p + 1)
            };
            let sym = op.symbol();
            let tight = r && matches!(op, BinaryOp::Div | BinaryOp::Mod | BinaryOp::IntDiv);
            // R's deparse never brackets a sign on the right (`x^-1`).
            let signed =
                r && matches!(&rhs.kind, ExprKind::Unary { op, .. } if *op != UnaryOp::Not);
            let right = sub(rhs, if signed { 0 } else { rp });
            if tight || matches!(op, BinaryOp::Range | BinaryOp::Pow) {
                format!("{}{sym}{right}", sub(lhs, lp))
            } else {
                format!("{} {sym} {right}", sub(lhs, lp))
            }
        }
        ExprKind::Index {
            target,
            indices,
            drop,
        } => {
            let mut idx: Vec<String> = indices
                .iter()
                .map(|i| i.as_ref().map_or(String::new(), |x| sub(x, 0)))
                .collect();
            if let Some(d) = drop {
                idx.push(format!("drop = {}", sub(d, 0)));
            }
            format!("{}[{}]", sub(target, 80), idx.join(", "))
        }
        ExprKind::Index2 {
            target,
            index,
            column,
        } => match column {
            Some(c) => format!("{}[[{}, {}]]", sub(target, 80), sub(index, 0), sub(c, 0)),
            None => format!("{}[[{}]]", sub(target, 80), sub(index, 0)),
        },
        ExprKind::Field {
            target, name: n, ..
        } => format!("{}${}", sub(target, 80), name(n)),
        ExprKind::Formula { lhs, rhs } => match lhs {
            Some(l) => format!("{} ~ {}", sub(l, 10), sub(rhs, 11)),
            None => format!("~{}", sub(rhs, 11)),
        },
        ExprKind::Function { params, body } => {
            format!("function({}) {}", formals(params, sub), sub(body, 0))
        }
        // Written where it is called (`(function(v) v + 1)(2)`, which the
        // parser names "function"): the function itself, as R deparses it.
        ExprKind::Apply {
            func,
            params,
            body,
            args: a,
            ..
        } if func == "function" => format!(
            "(function({}) {})({})",
            formals(params, sub),
            sub(body, 0),
            args(a)
        ),
        // As written: the function step's name.
        ExprKind::Apply { func, args: a, .. } => format!("{}({})", name(func), args(a)),
        ExprKind::Block(stmts) if stmts.is_empty() => "{}".into(),
        ExprKind::Block(stmts) => {
            let stmts: Vec<String> = stmts.iter().map(|s| sub(s, 0)).collect();
            format!("{{ {} }}", stmts.join("; "))
        }
        ExprKind::Assign { name: n, value, .. } => format!("{} <- {}", name(n), sub(value, 0)),
        ExprKind::If { cond, yes, no } => match no {
            // An `if` without `else` before this `else` would take it.
            Some(no) => {
                let yes = if ends_in_open_if(yes) {
                    format!("({})", sub(yes, 0))
                } else {
                    sub(yes, 0)
                };
                format!("if ({}) {yes} else {}", sub(cond, 0), sub(no, 0))
            }
            None => format!("if ({}) {}", sub(cond, 0), sub(yes, 0)),
        },
        ExprKind::For { var, seq, body, .. } => {
            format!("for ({} in {}) {}", name(var), sub(seq, 0), sub(body, 0))
        }
        ExprKind::While {
            cond: Some(cond),
            body,
        } => format!("while ({}) {}", sub(cond, 0), sub(body, 0)),
        ExprKind::While { cond: None, body } => format!("repeat {}", sub(body, 0)),
        ExprKind::Break => "break".into(),
        ExprKind::Next => "next".into(),
    }
}

/// `x, n = default`.
fn formals(params: &[Param], sub: &dyn Fn(&Expr, u8) -> String) -> String {
    params
        .iter()
        .map(|p| match &p.default {
            Some(d) => format!("{} = {}", name(&p.name), sub(d, 0)),
            None => name(&p.name),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the text of `e` may end in an `if` without `else`, which would
/// take an `else` printed after it. Parentheses to spare are harmless.
fn ends_in_open_if(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::If { no: None, .. } => true,
        ExprKind::If { no: Some(x), .. }
        | ExprKind::Assign { value: x, .. }
        | ExprKind::Function { body: x, .. }
        | ExprKind::Unary { expr: x, .. }
        | ExprKind::Binary { rhs: x, .. }
        | ExprKind::Formula { rhs: x, .. }
        | ExprKind::For { body: x, .. }
        | ExprKind::While { body: x, .. } => ends_in_open_if(x),
        _ => false,
    }
}

fn minimal(e: &Expr, min: u8) -> String {
    let s = render(e, &minimal);
    if prec(e) < min {
        format!("({s})")
    } else {
        s
    }
}

fn deparsed(e: &Expr, min: u8) -> String {
    let s = render_as(e, &deparsed, true);
    if prec(e) < min {
        format!("({s})")
    } else {
        s
    }
}

/// The expression as R's `deparse` writes it (Display's text, with R's
/// spacing of `/`), for the calls R keeps in results (`integrate`'s).
pub fn deparse(e: &Expr) -> String {
    deparsed(e, 0)
}

/// The expression with every operator application in parentheses, e.g.
/// `-2^2` → `(-(2^2))`: for checking how a text was grouped.
///
/// A call of a function step shows the function's body too, so the text
/// changes when the function does (the cache keys a step by it).
pub fn sexpr(e: &Expr) -> String {
    if let ExprKind::Apply {
        func,
        params,
        body,
        args,
        ..
    } = &e.kind
    {
        let args: Vec<String> = args
            .iter()
            .map(|a| match &a.name {
                Some(n) => format!("{} = {}", name(n), sexpr(&a.value)),
                None => sexpr(&a.value),
            })
            .collect();
        return format!(
            "{}[function({}) {}]({})",
            name(func),
            formals(params, &|x, _| sexpr(x)),
            sexpr(body),
            args.join(", ")
        );
    }
    let s = render(e, &|x, _| sexpr(x));
    match e.kind {
        ExprKind::Binary { .. }
        | ExprKind::Unary { .. }
        | ExprKind::Formula { .. }
        | ExprKind::Function { .. }
        | ExprKind::Assign { .. }
        | ExprKind::If { .. }
        | ExprKind::For { .. }
        | ExprKind::While { .. } => {
            format!("({s})")
        }
        _ => s,
    }
}

impl fmt::Display for Expr {
    /// R-like text that parses back to the same tree.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&minimal(self, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::num;

    /// R 4.2: `deparse(quote((function(x) x + 1)(2)))`.
    #[test]
    fn a_function_called_where_it_is_written_deparses_as_written() {
        let e = crate::workflow::parse_expr_str("(function(x) x + 1)(2)").unwrap();
        assert_eq!(super::deparse(&e), "(function(x) x + 1)(2)");
    }

    #[test]
    fn numbers_deparse_as_r_writes_them() {
        // R 4.2: deparse() of each value.
        for (v, r) in [
            (1e10, "1e+10"),
            (100000.0, "1e+05"),
            (123456.0, "123456"),
            (0.0001, "1e-04"),
            (0.001, "0.001"),
            (0.1 + 0.2, "0.3"),
            (1.0 / 3.0, "0.333333333333333"),
            (2.5, "2.5"),
            (-1.5e-300, "-1.5e-300"),
            (1e100, "1e+100"),
            (1234567.0, "1234567"),
            (0.5, "0.5"),
            (-3.0, "-3"),
            (0.0, "0"),
            (1e15, "1e+15"),
            (123456789012345680.0, "123456789012345680"),
            (1e-15, "1e-15"),
            (99999.5, "99999.5"),
            (0.123_456_789_012_345_68, "0.123456789012346"),
            (1e5 + 0.1, "100000.1"),
        ] {
            assert_eq!(num(v), r, "{v}");
        }
    }
}
