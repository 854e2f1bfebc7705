//! R's expression grammar by precedence climbing.
//!
//! Binding powers follow R's `?Syntax`, tightest first: postfix calls,
//! indexing and `$`; `^` (right-associative); unary `-` `+`; `:`; `%*%`
//! and `%in%`; `*` `/`; binary `+` `-`; comparisons (non-associative);
//! `!`; `&` `&&`; `|` `||`; `~`. Postfix operators bind tightest, so they
//! apply whatever the context.

mod brackets;
mod family;
mod match_arg;
mod negate;

use std::collections::HashMap;

use crate::diagnostic::{Diagnostic, SourceFile, Span};

use super::ast::{Arg, BinaryOp, Expr, ExprKind, Param, UnaryOp, PAREN};
use super::depth::MAX_DEPTH;
use super::lexer::{lex, Tok, Token};
use super::names::{is_reserved, name_problem};
use super::text_map::TextMap;

const BP_TILDE: u8 = 10;
const BP_OR: u8 = 12;
const BP_AND: u8 = 14;
const BP_NOT: u8 = 16;
const BP_COMPARE: u8 = 18;
const BP_SUM: u8 = 20;
const BP_PRODUCT: u8 = 30;
const BP_SPECIAL: u8 = 40;
const BP_RANGE: u8 = 50;
const BP_UNARY: u8 = 60;
const BP_POWER: u8 = 70;

/// Parses `text` (whose bytes `map` places in `file`): one expression, or
/// statements on separate lines (or after `;`), which run as the body of a
/// block does.
pub fn parse_expr(file: &SourceFile, text: &str, map: &TextMap) -> Result<Expr, Diagnostic> {
    let mut p = Parser::new(file, text, map)?;
    p.empty_check()?;
    let mut stmts = vec![p.statement()?];
    let mut height = p.height;
    loop {
        let t = p.peek().clone();
        let separated = t.tok == Tok::Semi || t.newline_before;
        if t.tok == Tok::Eof || !separated {
            break;
        }
        while p.peek().tok == Tok::Semi {
            p.bump();
        }
        if p.peek().tok == Tok::Eof {
            break;
        }
        stmts.push(p.statement()?);
        height = height.max(p.height);
    }
    p.finish()?;
    if stmts.len() == 1 {
        if let ExprKind::Assign { name_span, .. } = &stmts[0].kind {
            return Err(p.diag(
                *name_span,
                "a step is assigned by its TOML key (`name = \"value\"`); an assignment \
                 inside a step makes a local for the statements after it",
            ));
        }
        return Ok(stmts.remove(0));
    }
    p.grow(height + stmts.len(), &p.tokens[0].clone())?;
    let span = stmts[0].span.to(stmts[stmts.len() - 1].span);
    Ok(Expr {
        kind: ExprKind::Block(stmts),
        span,
    })
}

/// Parses a loop header `NAME in EXPR` (R's `for` header, parentheses
/// optional): the variable, its span, and the range.
pub fn parse_loop_header(
    file: &SourceFile,
    text: &str,
    map: &TextMap,
) -> Result<(String, Span, Expr), Diagnostic> {
    let mut p = Parser::new(file, text, map)?;
    p.empty_check()?;
    let paren = p.peek().tok == Tok::LParen;
    let open = p.pos;
    if paren {
        p.bump();
        p.depth += 1;
    }
    let var_tok = p.bump().clone();
    let var = match &var_tok.tok {
        Tok::Ident(n) | Tok::Quoted(n) => n.clone(),
        other => {
            return Err(p.error_at(
                &var_tok,
                format!("expected a loop variable name, found {}", other.describe()),
            ))
        }
    };
    let var_span = p.span(&var_tok);
    if let Some(problem) = name_problem(&var) {
        return Err(p.diag(var_span, format!("invalid loop variable: {problem}")));
    }
    let in_tok = p.bump().clone();
    if in_tok.tok != Tok::Ident("in".into()) {
        return Err(p.error_at(
            &in_tok,
            format!(
                "expected `in` after the loop variable `{var}`, found {}",
                in_tok.tok.describe()
            ),
        ));
    }
    if p.peek().tok == Tok::Eof || paren && p.peek().tok == Tok::RParen {
        let t = p.peek().clone();
        return Err(p.error_at(
            &t,
            format!(
                "expected the loop range after `in`, found {}",
                t.tok.describe()
            ),
        ));
    }
    let range = p.expr(0)?;
    if paren {
        p.close(Tok::RParen, open)?;
        p.depth -= 1;
    }
    p.finish()?;
    Ok((var, var_span, range))
}

struct Parser<'a> {
    file: &'a SourceFile,
    map: &'a TextMap,
    tokens: Vec<Token>,
    /// The text's length: an empty expression is underlined whole.
    len: usize,
    pos: usize,
    /// How many brackets enclose the current position: inside any, a line
    /// break is only whitespace. Braces set it back to 0 for their inside,
    /// where a line break ends a statement, as in R.
    depth: usize,
    /// How deeply `expr` is nested, to refuse (not overflow the stack on)
    /// pathological input such as ten thousand parentheses.
    nesting: usize,
    /// The height of the tree the last `expr` or `prefix` returned (see
    /// [`MAX_DEPTH`]).
    height: usize,
    /// `T` or `F` once a statement has assigned it (`T <- 3`): from there
    /// on the name reads that variable, as in R, not the constant.
    assigned_tf: Vec<String>,
    /// The expressions written in parentheses, by their span (which
    /// takes in the parentheses), with how many pairs enclose each. Only
    /// a formula keeps them (see [`Parser::keep_parens`]).
    parens: HashMap<(usize, usize), usize>,
}

const MAX_NESTING: usize = 200;

impl<'a> Parser<'a> {
    fn new(file: &'a SourceFile, text: &str, map: &'a TextMap) -> Result<Self, Diagnostic> {
        let tokens = lex(text)
            .map_err(|e| Diagnostic::new(file, Some(map.span(e.start, e.end)), e.message))?;
        let p = Parser {
            file,
            map,
            tokens,
            len: text.len(),
            pos: 0,
            depth: 0,
            nesting: 0,
            height: 0,
            assigned_tf: Vec::new(),
            parens: HashMap::new(),
        };
        p.check_brackets()?;
        Ok(p)
    }

    fn peek(&self) -> &Token {
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek_at(&self, n: usize) -> &Token {
        &self.tokens[(self.pos + n).min(self.tokens.len() - 1)]
    }

    fn bump(&mut self) -> &Token {
        let i = self.pos.min(self.tokens.len() - 1);
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        &self.tokens[i]
    }

    fn span(&self, t: &Token) -> Span {
        if t.tok == Tok::Eof {
            self.map.end()
        } else {
            self.map.span(t.start, t.end)
        }
    }

    fn diag(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.file, Some(span), message)
    }

    fn error_at(&self, t: &Token, message: impl Into<String>) -> Diagnostic {
        self.diag(self.span(t), message)
    }

    fn empty_check(&self) -> Result<(), Diagnostic> {
        if self.tokens.len() == 1 {
            return Err(self.diag(self.map.span(0, self.len), "empty expression"));
        }
        Ok(())
    }

    /// After a complete expression only the end may follow.
    fn finish(&self) -> Result<(), Diagnostic> {
        let t = self.peek();
        if t.tok == Tok::Eof {
            return Ok(());
        }
        let msg = if let Tok::Unsupported(op) = &t.tok {
            unsupported(op)
        } else if t.newline_before && self.depth == 0 {
            format!(
                "unexpected {} on a new line: outside brackets a line break ends an \
                 R expression, and a step holds only one",
                t.tok.describe()
            )
        } else if matches!(t.tok, Tok::Assign | Tok::LeftAssign) {
            assign_outside_block(&t.tok)
        } else if t.tok == Tok::Semi {
            "unexpected `;`: a step holds one expression; put statements in braces, \
             `{ a <- f(x); g(a) }`"
                .to_string()
        } else {
            format!(
                "unexpected {} after a complete expression; expected an operator or the \
                 end of the expression",
                t.tok.describe()
            )
        };
        Err(self.error_at(t, msg))
    }

    /// An expression whose operators all bind at least as tightly as `min`.
    fn expr(&mut self, min: u8) -> Result<Expr, Diagnostic> {
        if self.nesting >= MAX_NESTING {
            let t = self.peek().clone();
            return Err(self.error_at(&t, "expression nested too deeply"));
        }
        self.nesting += 1;
        let e = self.expr_inner(min);
        self.nesting -= 1;
        e
    }

    fn expr_inner(&mut self, min: u8) -> Result<Expr, Diagnostic> {
        let mut lhs = self.prefix()?;
        let mut height = self.height;
        // `lhs` is a comparison made in this loop, not one in parentheses.
        let mut bare_comparison = false;
        loop {
            let t = self.peek().clone();
            if t.newline_before && self.depth == 0 {
                break;
            }
            let (op, bp) = match t.tok {
                Tok::LParen | Tok::LBracket | Tok::Dollar => {
                    lhs = self.postfix(lhs, height)?;
                    height = self.height;
                    continue;
                }
                Tok::Caret => (Some(BinaryOp::Pow), BP_POWER),
                Tok::Colon => (Some(BinaryOp::Range), BP_RANGE),
                Tok::MatMul => (Some(BinaryOp::MatMul), BP_SPECIAL),
                Tok::In => (Some(BinaryOp::In), BP_SPECIAL),
                Tok::Mod => (Some(BinaryOp::Mod), BP_SPECIAL),
                Tok::IntDiv => (Some(BinaryOp::IntDiv), BP_SPECIAL),
                Tok::Logic(sym) => {
                    let op = logic_op(sym);
                    let bp = match op {
                        BinaryOp::And | BinaryOp::AndAnd => BP_AND,
                        BinaryOp::Or | BinaryOp::OrOr => BP_OR,
                        _ => BP_COMPARE,
                    };
                    (Some(op), bp)
                }
                Tok::Star => (Some(BinaryOp::Mul), BP_PRODUCT),
                Tok::Slash => (Some(BinaryOp::Div), BP_PRODUCT),
                Tok::Plus => (Some(BinaryOp::Add), BP_SUM),
                Tok::Minus => (Some(BinaryOp::Sub), BP_SUM),
                Tok::Tilde => (None, BP_TILDE),
                Tok::FnOp(_) | Tok::Pipe if BP_SPECIAL >= min => {
                    self.bump();
                    let rhs = self.operand(BP_SPECIAL + 1, &t)?;
                    height = self.grow(height.max(self.height), &t)?;
                    lhs = match t.tok {
                        Tok::FnOp(op) => fn_op(op, lhs, rhs, self.span(&t)),
                        _ => self.pipe(lhs, rhs, &t)?,
                    };
                    bare_comparison = false;
                    continue;
                }
                Tok::Unsupported(ref op) => return Err(self.error_at(&t, unsupported(op))),
                _ => break,
            };
            if bp < min {
                break;
            }
            self.bump();
            // `^` is right-associative: its right side may hold another `^`.
            let rbp = if op == Some(BinaryOp::Pow) {
                bp
            } else {
                bp + 1
            };
            if let Some(op) = op {
                if op.is_comparison() && bare_comparison {
                    return Err(self.error_at(
                        &t,
                        format!(
                            "unexpected `{}`: comparisons do not chain in R; write `a < b & b < c`",
                            op.symbol()
                        ),
                    ));
                }
            }
            let rhs = self.operand(rbp, &t)?;
            height = self.grow(height.max(self.height), &t)?;
            let span = lhs.span.to(rhs.span);
            bare_comparison = op.is_some_and(BinaryOp::is_comparison);
            let kind = match op {
                Some(op) => ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                None => {
                    let (mut lhs, mut rhs) = (lhs, rhs);
                    self.keep_parens(&mut lhs);
                    self.keep_parens(&mut rhs);
                    ExprKind::Formula {
                        lhs: Some(Box::new(lhs)),
                        rhs: Box::new(rhs),
                    }
                }
            };
            lhs = Expr { kind, span };
        }
        self.height = height;
        Ok(lhs)
    }

    /// R keeps a formula unevaluated, its parentheses too: `y ~ (x * z)`
    /// prints so, and `terms` reads through them. Inside a formula each
    /// pair becomes a call of `(`, as R's parser makes it; elsewhere the
    /// evaluator has no use for them.
    fn keep_parens(&mut self, e: &mut Expr) {
        e.visit_children_mut(&mut |c| self.keep_parens(c));
        let Some(n) = self.parens.remove(&(e.span.start, e.span.end)) else {
            return;
        };
        for _ in 0..n {
            let span = e.span;
            let inner = std::mem::replace(
                e,
                Expr {
                    kind: ExprKind::Null,
                    span,
                },
            );
            *e = Expr {
                kind: ExprKind::Call {
                    func: PAREN.into(),
                    func_span: span,
                    args: vec![Arg {
                        name: None,
                        value: inner,
                        span,
                    }],
                },
                span,
            };
        }
    }

    /// The height of a new node over children at most `children` high,
    /// refused beyond [`MAX_DEPTH`] at `at`, the token that makes the node.
    fn grow(&self, children: usize, at: &Token) -> Result<usize, Diagnostic> {
        let height = children + 1;
        if height > MAX_DEPTH {
            return Err(self.error_at(
                at,
                format!(
                    "expression nested too deeply: more than {MAX_DEPTH} operations \
                     (operators, calls, indexing) inside one another; split it into steps"
                ),
            ));
        }
        Ok(height)
    }

    /// The operand after operator `op`, with a clear error when it is missing.
    fn operand(&mut self, min: u8, op: &Token) -> Result<Expr, Diagnostic> {
        let t = self.peek().clone();
        let starts_operand = matches!(
            t.tok,
            Tok::Num(_)
                | Tok::Imag(_)
                | Tok::Str(_)
                | Tok::Ident(_)
                | Tok::Quoted(_)
                | Tok::Plus
                | Tok::Minus
                | Tok::Tilde
                | Tok::LParen
                | Tok::Bang
                | Tok::Lambda
                | Tok::LBrace
                | Tok::Unsupported(_)
        );
        if !starts_operand {
            return Err(self.error_at(
                &t,
                format!(
                    "unexpected {} after {}; expected an operand",
                    t.tok.describe(),
                    op.tok.describe()
                ),
            ));
        }
        self.expr(min)
    }

    fn prefix(&mut self) -> Result<Expr, Diagnostic> {
        let t = self.bump().clone();
        let span = self.span(&t);
        self.height = 1;
        let leaf = |kind| Ok(Expr { kind, span });
        match t.tok {
            Tok::Num(v) => leaf(ExprKind::Num(v)),
            // R's `2i` is the complex number 0+2i: the call that makes it.
            Tok::Imag(v) => {
                let num = |x| Expr {
                    kind: ExprKind::Num(x),
                    span,
                };
                let arg = |name: &str, x| Arg {
                    name: Some(name.to_string()),
                    value: num(x),
                    span,
                };
                leaf(ExprKind::Call {
                    func: "complex".into(),
                    func_span: span,
                    args: vec![arg("real", 0.0), arg("imaginary", v)],
                })
            }
            Tok::Str(ref s) => leaf(ExprKind::Str(s.clone())),
            Tok::Quoted(ref n) => leaf(ExprKind::Name(n.clone())),
            Tok::Ident(ref n) => match n.as_str() {
                // `F <- ecdf(x); F(q)`: T and F are names R lets a
                // statement assign, and a call of one is of that variable.
                "T" | "F" if matches!(self.peek().tok, Tok::LParen | Tok::LeftAssign) => {
                    if self.peek().tok == Tok::LeftAssign && !self.assigned_tf.contains(n) {
                        self.assigned_tf.push(n.clone());
                    }
                    leaf(ExprKind::Name(n.clone()))
                }
                "T" | "F" if self.assigned_tf.contains(n) => leaf(ExprKind::Name(n.clone())),
                "TRUE" | "T" => leaf(ExprKind::Bool(true)),
                "FALSE" | "F" => leaf(ExprKind::Bool(false)),
                "NULL" => leaf(ExprKind::Null),
                "NA" | "NA_real_" | "NA_integer_" => leaf(ExprKind::Na),
                // A text vector holds NA as the text "NA" (see `factor`).
                "NA_character_" => leaf(ExprKind::Str("NA".into())),
                "Inf" => leaf(ExprKind::Num(f64::INFINITY)),
                "NaN" => leaf(ExprKind::Num(f64::NAN)),
                "function" if self.peek().tok == Tok::LParen => self.function(span),
                "if" => self.if_else(&t),
                "else" => Err(self.diag(span, "unexpected `else`: no `if` before it")),
                "for" => self.for_loop(&t),
                "while" => self.while_loop(&t),
                "repeat" => {
                    let body = self.statement_after(&t)?;
                    self.height = self.grow(self.height, &t)?;
                    Ok(Expr {
                        span: span.to(body.span),
                        kind: ExprKind::While {
                            cond: None,
                            body: Box::new(body),
                        },
                    })
                }
                "break" => leaf(ExprKind::Break),
                "next" => leaf(ExprKind::Next),
                "in" | "function" => Err(self.diag(span, format!("unexpected keyword `{n}`"))),
                _ => leaf(ExprKind::Name(n.clone())),
            },
            Tok::Minus | Tok::Plus | Tok::Bang => {
                let (op, bp) = match t.tok {
                    Tok::Minus => (UnaryOp::Neg, BP_UNARY),
                    Tok::Plus => (UnaryOp::Plus, BP_UNARY),
                    _ => (UnaryOp::Not, BP_NOT),
                };
                let e = self.operand(bp, &t)?;
                self.height = self.grow(self.height, &t)?;
                let span = span.to(e.span);
                Ok(Expr {
                    kind: ExprKind::Unary {
                        op,
                        expr: Box::new(e),
                    },
                    span,
                })
            }
            Tok::Tilde => {
                let mut e = self.operand(BP_TILDE + 1, &t)?;
                self.keep_parens(&mut e);
                self.height = self.grow(self.height, &t)?;
                let span = span.to(e.span);
                Ok(Expr {
                    kind: ExprKind::Formula {
                        lhs: None,
                        rhs: Box::new(e),
                    },
                    span,
                })
            }
            Tok::LParen => {
                let open = self.pos - 1;
                self.depth += 1;
                let mut e = self.operand(0, &t)?;
                let close = self.close(Tok::RParen, open)?;
                self.depth -= 1;
                let inner = self.parens.remove(&(e.span.start, e.span.end)).unwrap_or(0);
                // The parentheses belong to the expression's text.
                e.span = span.to(close);
                self.parens.insert((e.span.start, e.span.end), inner + 1);
                Ok(e)
            }
            Tok::Lambda if self.peek().tok == Tok::LParen => self.function(span),
            Tok::LBrace => self.block(&t),
            Tok::Unsupported(ref op) => Err(self.diag(span, unsupported(op))),
            Tok::Eof => Err(self.diag(span, "unexpected end of expression; expected an operand")),
            Tok::Assign | Tok::LeftAssign => Err(self.diag(span, assign_outside_block(&t.tok))),
            ref other => Err(self.diag(
                span,
                format!("unexpected {}; expected an expression", other.describe()),
            )),
        }
    }

    /// `lhs |> rhs`: the call `rhs` with `lhs` as its first argument, or in
    /// place of its named argument `_`, as R's parser rewrites it.
    fn pipe(&self, lhs: Expr, rhs: Expr, op: &Token) -> Result<Expr, Diagnostic> {
        let span = lhs.span.to(rhs.span);
        let ExprKind::Call {
            func,
            func_span,
            mut args,
        } = rhs.kind
        else {
            return Err(self.diag(
                rhs.span,
                "The pipe operator requires a function call as RHS",
            ));
        };
        let holes: Vec<usize> = (0..args.len())
            .filter(|&i| matches!(&args[i].value.kind, ExprKind::Name(n) if n == "_"))
            .collect();
        match holes.as_slice() {
            [] => args.insert(
                0,
                super::ast::Arg {
                    name: None,
                    span: lhs.span,
                    value: lhs,
                },
            ),
            [i] if args[*i].name.is_some() => args[*i].value = lhs,
            [i] => {
                return Err(self.diag(
                    args[*i].span,
                    "pipe placeholder can only be used as a named argument",
                ))
            }
            _ => return Err(self.error_at(op, "pipe placeholder may only appear once")),
        }
        Ok(Expr {
            span,
            kind: ExprKind::Call {
                func,
                func_span,
                args,
            },
        })
    }

    /// One statement: an expression, or `name <- value` (`name = value`).
    /// Sets `self.height`.
    fn statement(&mut self) -> Result<Expr, Diagnostic> {
        let e = self.expr(0)?;
        let t = self.peek().clone();
        let assigns = matches!(t.tok, Tok::LeftAssign | Tok::Assign);
        if !assigns || t.newline_before && self.depth == 0 {
            return Ok(e);
        }
        replaced_name(&e).map_err(|span| {
            self.diag(
                span,
                format!(
                    "cannot assign to this with {}: the target is a name, `x[i]`, `x[[i]]`, \
                     `x$name`, or names(x), colnames(x), rownames(x), row.names(x), \
                     dimnames(x), levels(x), dim(x) or is.na(x) of one of those",
                    t.tok.describe()
                ),
            )
        })?;
        self.bump();
        // `a <- b <- v` assigns both, right to left: a chain recurses once
        // per arrow, so it counts as nesting like parentheses do.
        if self.nesting >= MAX_NESTING {
            return Err(self.error_at(&t, "expression nested too deeply"));
        }
        self.nesting += 1;
        let value = self.statement_after(&t);
        self.nesting -= 1;
        let value = value?;
        self.height = self.grow(self.height, &t)?;
        Ok(replacement(e, value))
    }

    /// The statement after token `after`, with a clear error when there is
    /// none.
    fn statement_after(&mut self, after: &Token) -> Result<Expr, Diagnostic> {
        let t = self.peek().clone();
        // As in R, line breaks may come between `<-`, `if (...)` or `else`
        // and what they take.
        if matches!(
            t.tok,
            Tok::Eof | Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::Comma | Tok::Semi
        ) {
            return Err(self.error_at(
                &t,
                format!(
                    "unexpected {} after {}; expected an expression",
                    t.tok.describe(),
                    after.tok.describe()
                ),
            ));
        }
        self.statement()
    }

    /// `{ s1; s2 }` after its `{` (token `open_tok`): statements separated
    /// by `;` or line breaks.
    fn block(&mut self, open_tok: &Token) -> Result<Expr, Diagnostic> {
        let open = self.pos - 1;
        let outer_depth = std::mem::replace(&mut self.depth, 0);
        let mut stmts = Vec::new();
        let mut height = 0;
        loop {
            while self.peek().tok == Tok::Semi {
                self.bump();
            }
            if matches!(self.peek().tok, Tok::RBrace | Tok::Eof) {
                break;
            }
            let s = self.statement()?;
            height = height.max(self.height);
            stmts.push(s);
            let t = self.peek().clone();
            match t.tok {
                Tok::Semi | Tok::RBrace => {}
                _ if t.newline_before => {}
                Tok::Unsupported(ref op) => return Err(self.error_at(&t, unsupported(op))),
                _ => {
                    return Err(self.error_at(
                        &t,
                        format!(
                            "unexpected {} after a complete statement; expected `;`, a line \
                             break or the `}}` closing the `{{` at {}",
                            t.tok.describe(),
                            self.where_is(open)
                        ),
                    ))
                }
            }
        }
        let close = self.close(Tok::RBrace, open)?;
        self.depth = outer_depth;
        // The evaluator walks a block one statement deeper per statement.
        self.height = self.grow(height + stmts.len(), open_tok)?;
        Ok(Expr {
            span: self.span(open_tok).to(close),
            kind: ExprKind::Block(stmts),
        })
    }

    /// `if (cond) yes else no` after its `if` (token `kw`).
    /// `(` after `kw`, then what `inside` parses, then `)`; and the
    /// statement that follows (a loop's body, an `if`'s first branch). The
    /// height is the taller of the two; the caller grows it by `kw`.
    fn head_and_body<T>(
        &mut self,
        kw: &Token,
        inside: impl FnOnce(&mut Self, &Token) -> Result<T, Diagnostic>,
    ) -> Result<(T, Expr, usize), Diagnostic> {
        let t = self.peek().clone();
        if t.tok != Tok::LParen {
            let word = match &kw.tok {
                Tok::Ident(w) => w.clone(),
                other => other.describe(),
            };
            return Err(self.error_at(
                &t,
                format!("expected `(` after `{word}`, found {}", t.tok.describe()),
            ));
        }
        let open = self.pos;
        self.bump();
        self.depth += 1;
        let head = inside(self, &t)?;
        let height = self.height;
        self.close(Tok::RParen, open)?;
        self.depth -= 1;
        let close_tok = self.tokens[self.pos - 1].clone();
        let body = self.statement_after(&close_tok)?;
        Ok((head, body, height.max(self.height)))
    }

    /// [`Parser::head_and_body`] of a loop.
    fn loop_head<T>(
        &mut self,
        kw: &Token,
        inside: impl FnOnce(&mut Self, &Token) -> Result<T, Diagnostic>,
    ) -> Result<(T, Expr), Diagnostic> {
        let (head, body, height) = self.head_and_body(kw, inside)?;
        self.height = self.grow(height, kw)?;
        Ok((head, body))
    }

    /// `for (var in seq) body`, after `for`.
    fn for_loop(&mut self, kw: &Token) -> Result<Expr, Diagnostic> {
        let ((var, var_span, seq), body) = self.loop_head(kw, |p, open| {
            let v = p.peek().clone();
            let var = match &v.tok {
                Tok::Ident(n) if !is_reserved(n) => n.clone(),
                Tok::Quoted(n) => n.clone(),
                _ => {
                    return Err(p.error_at(
                        &v,
                        format!(
                            "expected the loop variable's name after `for (`, found {}",
                            v.tok.describe()
                        ),
                    ))
                }
            };
            p.bump();
            let t = p.peek().clone();
            if t.tok != Tok::Ident("in".into()) {
                return Err(p.error_at(
                    &t,
                    format!(
                        "expected `in` after `for ({var}`, found {}",
                        t.tok.describe()
                    ),
                ));
            }
            p.bump();
            let seq = p.operand(0, open)?;
            Ok((var, p.span(&v), seq))
        })?;
        Ok(Expr {
            span: self.span(kw).to(body.span),
            kind: ExprKind::For {
                var,
                var_span,
                seq: Box::new(seq),
                body: Box::new(body),
            },
        })
    }

    /// `while (cond) body`, after `while`.
    fn while_loop(&mut self, kw: &Token) -> Result<Expr, Diagnostic> {
        let (cond, body) = self.loop_head(kw, |p, open| p.operand(0, open))?;
        Ok(Expr {
            span: self.span(kw).to(body.span),
            kind: ExprKind::While {
                cond: Some(Box::new(cond)),
                body: Box::new(body),
            },
        })
    }

    fn if_else(&mut self, kw: &Token) -> Result<Expr, Diagnostic> {
        let (cond, yes, mut height) = self.head_and_body(kw, |p, open| p.operand(0, open))?;
        let mut no = None;
        let t = self.peek().clone();
        // A line break before `else` ends the `if` at R's top level, but
        // not inside braces or brackets; a step's text is never R's top
        // level, so `else` is taken on the next line as well.
        if t.tok == Tok::Ident("else".into()) {
            self.bump();
            let e = self.statement_after(&t)?;
            height = height.max(self.height);
            no = Some(Box::new(e));
        }
        self.height = self.grow(height, kw)?;
        let end = no.as_ref().map_or(yes.span, |n| n.span);
        Ok(Expr {
            span: self.span(kw).to(end),
            kind: ExprKind::If {
                cond: Box::new(cond),
                yes: Box::new(yes),
                no,
            },
        })
    }

    /// `function(x, y) body` (or `\(x) body`) after its keyword at `start`:
    /// the parameters, then a body that extends as far as R's does.
    fn function(&mut self, start: Span) -> Result<Expr, Diagnostic> {
        let open = self.pos;
        let open_tok = self.bump().clone();
        self.depth += 1;
        let mut params: Vec<Param> = Vec::new();
        let mut height = 0;
        if self.peek().tok != Tok::RParen {
            loop {
                let t = self.bump().clone();
                let name = match &t.tok {
                    Tok::Ident(n) if !is_reserved(n) => n.clone(),
                    Tok::Quoted(n) => n.clone(),
                    other => {
                        return Err(self.error_at(
                            &t,
                            format!("unexpected {}; expected a parameter name", other.describe()),
                        ))
                    }
                };
                if params.iter().any(|p| p.name == name) {
                    return Err(self.error_at(&t, format!("repeated formal argument '{name}'")));
                }
                let span = self.span(&t);
                let mut default = None;
                let eq = self.peek().clone();
                if eq.tok == Tok::Assign {
                    self.bump();
                    default = Some(self.operand(0, &eq)?);
                    height = height.max(self.height);
                }
                params.push(Param {
                    name,
                    span,
                    default,
                });
                if self.peek().tok == Tok::Comma {
                    self.bump();
                } else {
                    break;
                }
            }
        }
        self.close(Tok::RParen, open)?;
        self.depth -= 1;
        let mut body = self.operand(0, &open_tok)?;
        self.height = self.grow(self.height.max(height), &open_tok)?;
        match_arg::give_choices(&params, &mut body);
        let span = start.to(body.span);
        Ok(Expr {
            kind: ExprKind::Function {
                params,
                body: Box::new(body),
            },
            span,
        })
    }

    /// `f(...)`, `x[...]`, `x[[...]]` or `x$name` applied to `lhs`, whose
    /// tree is `lhs_height` high; sets `self.height` to the result's.
    fn postfix(&mut self, lhs: Expr, lhs_height: usize) -> Result<Expr, Diagnostic> {
        let t = self.bump().clone();
        let open = self.pos - 1;
        // The arguments' and indices' heights, each set by `expr`.
        self.height = 0;
        let e = self.postfix_inner(lhs, &t, open)?;
        self.height = self.grow(lhs_height.max(self.height), &t)?;
        Ok(e)
    }

    fn postfix_inner(&mut self, lhs: Expr, t: &Token, open: usize) -> Result<Expr, Diagnostic> {
        match t.tok {
            Tok::LParen => {
                let func = match &lhs.kind {
                    ExprKind::Name(n) => n.clone(),
                    ExprKind::Str(s) => s.clone(),
                    // `Negate(f)(x)`, `(function(v) v + 1)(2)`: the
                    // function called where it is written.
                    ExprKind::Function { params, body } => {
                        let (args, close) = self.value_call_args(open)?;
                        return Ok(Expr {
                            span: lhs.span.to(close),
                            kind: ExprKind::Apply {
                                func: "function".into(),
                                func_span: lhs.span,
                                params: params.clone(),
                                body: body.clone(),
                                args,
                            },
                        });
                    }
                    // `ecdf(x)(0)`, `fs[[2]](x)`: a call of a value, as
                    // `Fn(q)` of a step becomes (see `call_values`).
                    _ => {
                        let (args, close) = self.value_call_args(open)?;
                        let at = lhs.span;
                        let text = Expr {
                            kind: ExprKind::Str(crate::workflow::deparse(&lhs)),
                            span: at,
                        };
                        let mut all = vec![
                            Arg {
                                name: None,
                                value: lhs,
                                span: at,
                            },
                            Arg {
                                name: None,
                                value: text,
                                span: at,
                            },
                        ];
                        all.extend(args);
                        return Ok(Expr {
                            span: at.to(close),
                            kind: ExprKind::Call {
                                func: crate::kernels::callable::CALL_VALUE.into(),
                                func_span: at,
                                args: all,
                            },
                        });
                    }
                };
                self.depth += 1;
                let mut args = self.args(open)?;
                let close = self.close(Tok::RParen, open)?;
                self.depth -= 1;
                if let Some(a) = args
                    .iter()
                    .find(|a| matches!(a.value.kind, ExprKind::Missing))
                {
                    if func != "switch" {
                        return Err(self.diag(
                            a.span,
                            format!(
                                "argument `{}` is empty; only switch's alternatives may be",
                                a.name.as_deref().unwrap_or_default()
                            ),
                        ));
                    }
                }
                family::call_family_names(&func, &mut args);
                let span = lhs.span.to(close);
                if let Some(negated) = negate::function(&func, &args, span) {
                    return Ok(negated);
                }
                Ok(Expr {
                    span,
                    kind: ExprKind::Call {
                        func,
                        func_span: lhs.span,
                        args,
                    },
                })
            }
            Tok::LBracket => {
                let t2 = self.peek().clone();
                self.depth += 1;
                let e = if t2.tok == Tok::LBracket && t2.start == t.end {
                    self.bump();
                    self.index2(lhs, open)?
                } else {
                    let (indices, drop) = self.indices()?;
                    let close = self.close(Tok::RBracket, open)?;
                    Expr {
                        span: lhs.span.to(close),
                        kind: ExprKind::Index {
                            target: Box::new(lhs),
                            indices,
                            drop: drop.map(Box::new),
                        },
                    }
                };
                self.depth -= 1;
                Ok(e)
            }
            _ => {
                let n = self.bump().clone();
                let name = match &n.tok {
                    Tok::Ident(s) | Tok::Quoted(s) | Tok::Str(s) => s.clone(),
                    other => {
                        return Err(self.error_at(
                            &n,
                            format!(
                                "unexpected {} after `$`; expected a field name",
                                other.describe()
                            ),
                        ))
                    }
                };
                let name_span = self.span(&n);
                Ok(Expr {
                    span: lhs.span.to(name_span),
                    kind: ExprKind::Field {
                        target: Box::new(lhs),
                        name,
                        name_span,
                    },
                })
            }
        }
    }

    /// `line:col` of token `i`, for messages that mention a second place.
    fn where_is(&self, i: usize) -> String {
        let (l, c) = self.file.line_col(self.span(&self.tokens[i]).start);
        format!("{l}:{c}")
    }
}

fn logic_op(sym: &str) -> BinaryOp {
    match sym {
        "==" => BinaryOp::Eq,
        "!=" => BinaryOp::Ne,
        "<" => BinaryOp::Lt,
        ">" => BinaryOp::Gt,
        "<=" => BinaryOp::Le,
        ">=" => BinaryOp::Ge,
        "&" => BinaryOp::And,
        "&&" => BinaryOp::AndAnd,
        "|" => BinaryOp::Or,
        _ => BinaryOp::OrOr,
    }
}

fn closer(t: &Tok) -> Tok {
    match t {
        Tok::LParen => Tok::RParen,
        Tok::LBrace => Tok::RBrace,
        _ => Tok::RBracket,
    }
}

/// `x %o% y` and `x %x% y`, which R defines as `outer(x, y)` and
/// `kronecker(x, y)`.
fn fn_op(sym: &str, x: Expr, y: Expr, op: Span) -> Expr {
    let func = if sym == "%o%" { "outer" } else { "kronecker" };
    let span = x.span.to(y.span);
    let arg = |value: Expr| super::ast::Arg {
        name: None,
        span: value.span,
        value,
    };
    Expr {
        span,
        kind: ExprKind::Call {
            func: func.into(),
            func_span: op,
            args: vec![arg(x), arg(y)],
        },
    }
}

fn assign_outside_block(tok: &Tok) -> String {
    format!(
        "unexpected {}: a step is assigned by its TOML key; inside an expression, \
         assign a local as a statement in braces, `{{ a <- f(x); g(a) }}`",
        tok.describe()
    )
}

fn unsupported(op: &str) -> String {
    if op.starts_with('%') {
        format!(
            "unknown operator `{op}`: the `%...%` operators supported are `%*%`, `%in%`, \
             `%o%`, `%x%`, `%%` and `%/%`"
        )
    } else {
        let what = match op {
            // A step's locals are its own, and other steps are read only:
            // there is no enclosing environment for `<<-` to reach.
            "<<-" | "->>" => {
                ": a step cannot set a variable outside itself; assign a local with `<-`, \
                 or make the value a step of its own under [steps], which other steps read"
            }
            "->" => ": write the assignment the other way round, `name <- value`",
            _ => "",
        };
        format!("operator `{op}` is not supported in workflow expressions{what}")
    }
}

/// The replacement functions a target may call: `names(x) <- v` is
/// `` x <- `names<-`(x, value = v) ``.
const REPLACEABLE: [&str; 8] = [
    "names",
    "colnames",
    "rownames",
    "row.names",
    "dimnames",
    "levels",
    "dim",
    "is.na",
];

/// The name an assignment's target finally assigns (`d` in
/// `names(d$x)[2] <- v`), or the span of the part that cannot be assigned.
fn replaced_name(target: &Expr) -> Result<&str, Span> {
    match &target.kind {
        ExprKind::Name(n) => Ok(n),
        ExprKind::Index { target, .. }
        | ExprKind::Index2 { target, .. }
        | ExprKind::Field { target, .. } => replaced_name(target),
        ExprKind::Call { func, args, .. }
            if REPLACEABLE.contains(&func.as_str())
                && args.len() == 1
                && args[0].name.is_none() =>
        {
            replaced_name(&args[0].value)
        }
        _ => Err(target.span),
    }
}

/// R's replacement assignment, rewritten as R defines it: `x[i] <- v` is
/// `` x <- `[<-`(x, i, value = v) ``, and a nested target nests the calls,
/// `names(x)[2] <- v` being
/// `` x <- `names<-`(x, value = `[<-`(names(x), 2, value = v)) ``.
/// An empty index (`m[, j]`) is `TRUE`, which selects the same.
/// The target must satisfy [`replaced_name`].
fn replacement(target: Expr, value: Expr) -> Expr {
    let span = target.span.to(value.span);
    let arg = |name: Option<&str>, value: Expr| Arg {
        name: name.map(str::to_string),
        span: value.span,
        value,
    };
    let call = |func: &str, func_span: Span, mut args: Vec<Arg>, value: Expr| {
        args.push(arg(Some("value"), value));
        Expr {
            span,
            kind: ExprKind::Call {
                func: func.to_string(),
                func_span,
                args,
            },
        }
    };
    match target.kind {
        ExprKind::Name(name) => Expr {
            span,
            kind: ExprKind::Assign {
                name,
                name_span: target.span,
                value: Box::new(value),
            },
        },
        ExprKind::Index {
            target: inner,
            indices,
            ..
        } => {
            let every = Expr {
                span: target.span,
                kind: ExprKind::Bool(true),
            };
            let mut args = vec![arg(None, (*inner).clone())];
            let k = indices.len();
            for (n, index) in indices.into_iter().enumerate() {
                // The subscripts past the second (an array's) go to `...`.
                let slot = ["i", "j"].get(n).copied();
                // `x[]` is every element, `m[i, ]` every column. An empty
                // row index is left out: `d[, j] <- v` replaces whole
                // columns, which `d[TRUE, j] <- v` does not (R's `has.i`).
                let given = match index {
                    None if k == 2 && slot == Some("i") => continue,
                    given => given.unwrap_or_else(|| every.clone()),
                };
                args.push(arg(if k > 1 { slot } else { None }, given));
            }
            if k == 0 {
                args.push(arg(None, every));
            }
            replacement(*inner, call("[<-", target.span, args, value))
        }
        ExprKind::Index2 {
            target: inner,
            index,
            column,
        } => {
            let mut args = vec![arg(None, (*inner).clone()), arg(None, *index)];
            args.extend(column.map(|c| arg(None, *c)));
            replacement(*inner, call("[[<-", target.span, args, value))
        }
        ExprKind::Field {
            target: inner,
            name,
            name_span,
        } => {
            let field = Expr {
                span: name_span,
                kind: ExprKind::Str(name),
            };
            let args = vec![arg(None, (*inner).clone()), arg(None, field)];
            replacement(*inner, call("$<-", target.span, args, value))
        }
        ExprKind::Call {
            func,
            func_span,
            mut args,
        } => {
            let inner = args.remove(0).value;
            let setter = format!("{func}<-");
            let args = vec![arg(None, inner.clone())];
            replacement(inner, call(&setter, func_span, args, value))
        }
        // replaced_name refused every other target before the parse went on.
        _ => value,
    }
}
