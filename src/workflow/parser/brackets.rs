//! The bracketed parts of the grammar: call arguments, `[` and `[[`
//! indices, and the balance check that runs before parsing.

use crate::diagnostic::{Diagnostic, Span};

use super::super::ast::{Arg, Expr, ExprKind};
use super::super::lexer::{Tok, Token};
use super::{closer, unsupported, Parser};

impl Parser<'_> {
    /// Bracket balance before parsing, so an unclosed bracket is reported at
    /// its opener rather than as a puzzling error wherever parsing gives up.
    pub(super) fn check_brackets(&self) -> Result<(), Diagnostic> {
        let mut open: Vec<&Token> = Vec::new();
        for t in &self.tokens {
            match &t.tok {
                Tok::LParen | Tok::LBracket | Tok::LBrace => open.push(t),
                Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    let want = match t.tok {
                        Tok::RParen => Tok::LParen,
                        Tok::RBrace => Tok::LBrace,
                        _ => Tok::LBracket,
                    };
                    match open.pop() {
                        Some(o) if o.tok == want => {}
                        Some(o) => {
                            let (l, c) = self.file.line_col(self.span(t).start);
                            return Err(self.error_at(
                                o,
                                format!(
                                    "unclosed {}: found {} at {l}:{c} before its {}",
                                    o.tok.describe(),
                                    t.tok.describe(),
                                    closer(&o.tok).describe()
                                ),
                            ));
                        }
                        None => {
                            return Err(self.error_at(
                                t,
                                format!(
                                    "unexpected {}: there is no {} to close",
                                    t.tok.describe(),
                                    want.describe()
                                ),
                            ))
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(o) = open.pop() {
            return Err(self.error_at(
                o,
                format!(
                    "unclosed {}: the expression ends before its {}",
                    o.tok.describe(),
                    closer(&o.tok).describe()
                ),
            ));
        }
        Ok(())
    }

    /// `x[[i]]`, after both opening brackets.
    pub(super) fn index2(&mut self, target: Expr, open: usize) -> Result<Expr, Diagnostic> {
        let t = self.peek().clone();
        if matches!(t.tok, Tok::RBracket | Tok::Comma) {
            return Err(self.error_at(
                &t,
                format!(
                    "unexpected {}: `[[` takes exactly one index",
                    t.tok.describe()
                ),
            ));
        }
        let index = self.expr(0)?;
        let mut column = None;
        if self.peek().tok == Tok::Comma {
            // `m[[i, j]]`: one element of a matrix.
            self.bump();
            let t = self.peek().clone();
            if matches!(t.tok, Tok::RBracket | Tok::Comma) {
                return Err(self.error_at(
                    &t,
                    format!(
                        "unexpected {}: `[[` takes one index, or a row and a column",
                        t.tok.describe()
                    ),
                ));
            }
            column = Some(Box::new(self.expr(0)?));
        }
        let first = self.peek().clone();
        let second = self.peek_at(1).clone();
        if first.tok == Tok::Comma {
            return Err(self.error_at(&first, "`[[` takes one index, or a row and a column"));
        }
        if first.tok != Tok::RBracket || second.tok != Tok::RBracket || second.start != first.end {
            let found = if first.tok == Tok::RBracket {
                &second
            } else {
                &first
            };
            return Err(self.error_at(
                found,
                format!(
                    "expected `]]` to close the `[[` at {}, found {}",
                    self.where_is(open),
                    found.tok.describe()
                ),
            ));
        }
        self.bump();
        self.bump();
        Ok(Expr {
            span: target.span.to(self.span(&second)),
            kind: ExprKind::Index2 {
                target: Box::new(target),
                index: Box::new(index),
                column,
            },
        })
    }

    /// The comma-separated entries of `x[...]`, any of them empty, and a
    /// trailing `drop = ...`. Sets `self.height` to the highest entry's.
    pub(super) fn indices(&mut self) -> Result<(Vec<Option<Expr>>, Option<Expr>), Diagnostic> {
        let mut out = Vec::new();
        let mut height = 0;
        let mut drop = None;
        loop {
            let t = self.peek().clone();
            if matches!(t.tok, Tok::Comma | Tok::RBracket) {
                out.push(None);
            } else if self.is_named_arg() {
                let is_drop =
                    matches!(&t.tok, Tok::Ident(s) | Tok::Quoted(s) | Tok::Str(s) if s == "drop");
                if !is_drop || drop.is_some() {
                    return Err(self.error_at(&t, "`[` takes only `drop =` as a named argument"));
                }
                let eq = self.peek_at(1).clone();
                self.bump();
                self.bump();
                drop = Some(self.operand(0, &eq)?);
                height = height.max(self.height);
                if self.peek().tok != Tok::RBracket {
                    let next = self.peek().clone();
                    return Err(self.error_at(&next, "`drop =` must come after the indices"));
                }
                self.height = height;
                return Ok((out, drop));
            } else {
                out.push(Some(self.expr(0)?));
                height = height.max(self.height);
            }
            if self.peek().tok == Tok::Comma {
                self.bump();
            } else {
                self.height = height;
                return Ok((out, drop));
            }
        }
    }

    pub(super) fn is_named_arg(&self) -> bool {
        matches!(
            self.peek().tok,
            Tok::Ident(_) | Tok::Quoted(_) | Tok::Str(_)
        ) && self.peek_at(1).tok == Tok::Assign
    }

    /// The arguments and closing `)` of a call of a value written in
    /// place (`(function(v) v + 1)(2)`, `ecdf(x)(0)`), none of them empty.
    pub(super) fn value_call_args(&mut self, open: usize) -> Result<(Vec<Arg>, Span), Diagnostic> {
        self.depth += 1;
        let args = self.args(open)?;
        let close = self.close(Tok::RParen, open)?;
        self.depth -= 1;
        if let Some(a) = args
            .iter()
            .find(|a| matches!(a.value.kind, ExprKind::Missing))
        {
            return Err(self.diag(a.span, "an argument is empty"));
        }
        Ok((args, close))
    }

    /// Call arguments, after `(`: positional or `name = value`. Sets
    /// `self.height` to the highest argument's.
    pub(super) fn args(&mut self, open: usize) -> Result<Vec<Arg>, Diagnostic> {
        let mut out = Vec::new();
        let mut height = 0;
        self.height = 0;
        if self.peek().tok == Tok::RParen {
            return Ok(out);
        }
        loop {
            let t = self.peek().clone();
            if matches!(t.tok, Tok::Comma | Tok::RParen) {
                return Err(self.error_at(
                    &t,
                    format!(
                        "empty argument {} in the call at {}",
                        out.len() + 1,
                        self.where_is(open)
                    ),
                ));
            }
            let start = self.span(&t);
            let arg = if self.is_named_arg() {
                let name = match &t.tok {
                    Tok::Ident(s) | Tok::Quoted(s) | Tok::Str(s) => s.clone(),
                    _ => unreachable!("is_named_arg checked the token"),
                };
                let eq = self.peek_at(1).clone();
                self.bump();
                self.bump();
                let value = if matches!(self.peek().tok, Tok::Comma | Tok::RParen) {
                    // Only `switch` reads an empty alternative; the call
                    // refuses it anywhere else (`Parser::call`).
                    Expr {
                        kind: ExprKind::Missing,
                        span: self.span(&eq),
                    }
                } else {
                    self.operand(0, &eq)?
                };
                Arg {
                    name: Some(name),
                    span: start.to(value.span),
                    value,
                }
            } else {
                let value = self.expr(0)?;
                Arg {
                    name: None,
                    span: value.span,
                    value,
                }
            };
            height = height.max(self.height);
            out.push(arg);
            if self.peek().tok == Tok::Comma {
                self.bump();
            } else {
                self.height = height;
                return Ok(out);
            }
        }
    }

    /// Consumes the closer of the bracket at token `open`, or explains what
    /// stands where it should be.
    pub(super) fn close(&mut self, want: Tok, open: usize) -> Result<Span, Diagnostic> {
        let t = self.peek().clone();
        if t.tok == want {
            self.bump();
            return Ok(self.span(&t));
        }
        let opener = &self.tokens[open];
        let msg = match &t.tok {
            Tok::Unsupported(op) => unsupported(op),
            Tok::LeftAssign => super::assign_outside_block(&t.tok),
            Tok::Assign => format!(
                "unexpected `=` before the {} closing the {} at {}; only call arguments \
                 can be named",
                want.describe(),
                opener.tok.describe(),
                self.where_is(open)
            ),
            other => format!(
                "unexpected {}; expected `,` or the {} closing the {} at {}",
                other.describe(),
                want.describe(),
                opener.tok.describe(),
                self.where_is(open)
            ),
        };
        Err(self.error_at(&t, msg))
    }
}
