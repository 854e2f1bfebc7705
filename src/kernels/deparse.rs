//! R's `deparse` (deparse.c): a value or an expression as the lines of R
//! text that rebuild it, broken where R breaks them (past `width.cutoff`
//! bytes, after a `, ` or a spaced operator), for the values flowcast
//! holds: vectors (named, integer), matrices, factors, lists, formulas and
//! the calls taken from them. The routines keep deparse.c's names:
//! `print2buff`, `writeline`, `linebreak`, `vector2buff`, `vec2buff`,
//! `args2buff`, `attr1`/`attr2`.

use super::language::{formula_expr, lang_expr};
use super::value::{is_na, List, Named, Value};
use super::KernelError;
use crate::workflow::{
    deparse as one_chunk, deparse_number, is_reserved, is_syntactic, precedence, Arg, BinaryOp,
    Expr, ExprKind, UnaryOp, PAREN,
};

/// deparse's default `width.cutoff`.
pub const DEFAULT_CUTOFF: usize = 60;

/// How to write: deparse's `width.cutoff` and `backtick`; `simple` is
/// R's SIMPLEDEPARSE (no `L` on integers, no `NA_real_`, no names or
/// attributes), else its default control (keepNA, keepInteger,
/// niceNames, showAttributes).
#[derive(Clone, Copy)]
pub struct Opts {
    pub cutoff: usize,
    pub backtick: bool,
    pub simple: bool,
}

/// R's deparse of `x` (`integer`: a numeric vector or matrix R holds as
/// integers).
pub fn deparse(x: &Value, integer: bool, opts: Opts) -> Result<Vec<String>, KernelError> {
    let mut d = Deparser::new(opts);
    d.top(x, integer)?;
    d.writeline();
    Ok(d.lines)
}

/// R's `deparse1line`: one line at the widest cutoff, as `as.character`
/// writes a call's arguments.
pub fn one_line(x: &Value) -> Result<String, KernelError> {
    let lines = deparse(
        x,
        false,
        Opts {
            cutoff: 500,
            backtick: true,
            simple: true,
        },
    )?;
    Ok(lines.join("\n"))
}

/// A language object as R's `deparse1` writes it (how a step holding one
/// is reported, as R's fixtures write it).
pub fn report_text(x: &Value) -> String {
    deparse(
        x,
        false,
        Opts {
            cutoff: 500,
            backtick: matches!(x, Value::Lang(l) if !l.symbol),
            simple: false,
        },
    )
    .map_or_else(|e| e.0, |l| l.join(" "))
}

struct Deparser {
    opts: Opts,
    lines: Vec<String>,
    buf: String,
    /// Bytes on the current line, its indent included.
    len: usize,
    indent: usize,
    startline: bool,
}

/// R's isValidName: a syntactic name that is no reserved word.
fn valid_name(n: &str) -> bool {
    is_syntactic(n) && !is_reserved(n)
}

/// R's `quotify(name, '`')`.
fn backquoted(n: &str) -> String {
    if valid_name(n) || n.is_empty() {
        n.to_string()
    } else {
        format!("`{}`", n.replace('\\', "\\\\").replace('`', "\\`"))
    }
}

/// A string as R's EncodeString writes it between double quotes.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            '\0' => out.push_str("\\0"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03o}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An atomic vector's elements as deparse reads them.
enum Atoms<'a> {
    Num(&'a [f64]),
    Int(&'a [f64]),
    Str(&'a [String]),
    Bool(&'a [Option<bool>]),
}

impl Atoms<'_> {
    fn len(&self) -> usize {
        match self {
            Atoms::Num(v) | Atoms::Int(v) => v.len(),
            Atoms::Str(v) => v.len(),
            Atoms::Bool(v) => v.len(),
        }
    }
}

/// What `attr1` decided: no `structure()`, names written `c(a = 1)`, or
/// `structure()` around the value for its other attributes (names
/// inside too with `names_inside`).
#[derive(Clone, Copy, PartialEq)]
enum Attr {
    Simple,
    OkNames,
    /// STRUC_ATTR: `structure()`, names still written inside.
    Struct,
    /// STRUC_NMS_A: `structure()`, names among the attributes.
    StructNames,
}

/// The attributes after a value inside `structure()`, in R's order.
type Attributes = Vec<(&'static str, Value)>;

impl Deparser {
    fn new(opts: Opts) -> Self {
        Deparser {
            opts,
            lines: Vec::new(),
            buf: String::new(),
            len: 0,
            indent: 0,
            startline: true,
        }
    }

    fn print2buff(&mut self, s: &str) {
        if self.startline {
            self.startline = false;
            // printtab2buff: four spaces a level up to four, then two.
            for i in 1..=self.indent {
                let tab = if i <= 4 { "    " } else { "  " };
                self.buf.push_str(tab);
                self.len += tab.len();
            }
        }
        self.buf.push_str(s);
        self.len += s.len();
    }

    fn writeline(&mut self) {
        self.lines.push(std::mem::take(&mut self.buf));
        self.len = 0;
        self.startline = true;
    }

    fn linebreak(&mut self, lbreak: &mut bool) {
        if self.len > self.opts.cutoff {
            if !*lbreak {
                *lbreak = true;
                self.indent += 1;
            }
            self.writeline();
        }
    }

    /// deparse2buff of a value.
    fn top(&mut self, x: &Value, integer: bool) -> Result<(), KernelError> {
        match x {
            Value::Null => self.print2buff("NULL"),
            Value::Num(v) if integer => self.vector(&Atoms::Int(v), None, Vec::new()),
            Value::Num(v) => self.vector(&Atoms::Num(v), None, Vec::new()),
            Value::Str(v) => self.vector(&Atoms::Str(v), None, Vec::new()),
            Value::Bool(v) => self.vector(&Atoms::Bool(v), None, Vec::new()),
            Value::Mat(m) => {
                let atoms = if integer {
                    Atoms::Int(m.as_slice())
                } else {
                    Atoms::Num(m.as_slice())
                };
                self.vector(&atoms, None, vec![("dim", dim(m.shape()))])
            }
            Value::BoolMat(m) => self.vector(
                &Atoms::Bool(m.as_slice()),
                None,
                vec![("dim", dim(m.shape()))],
            ),
            Value::StrMat(m) => self.vector(
                &Atoms::Str(m.as_slice()),
                None,
                vec![("dim", dim(m.shape()))],
            ),
            Value::Factor(f) => {
                let codes = f.integer_codes();
                let class = if f.ordered {
                    Value::Str(vec!["ordered".into(), "factor".into()])
                } else {
                    Value::string("factor")
                };
                self.vector(
                    &Atoms::Int(&codes),
                    None,
                    vec![("levels", Value::Str(f.levels.clone())), ("class", class)],
                )
            }
            Value::Named(n) => self.named(n, integer)?,
            Value::List(l) => self.list(l)?,
            Value::Formula(f) => {
                let e = formula_expr(f)?;
                self.expr(&e, 0);
            }
            Value::Lang(l) if l.symbol => {
                let text = if self.opts.backtick {
                    backquoted(&l.text)
                } else {
                    l.text.clone()
                };
                self.print2buff(&text);
            }
            Value::Lang(l) => {
                let e = lang_expr(l)?;
                self.expr(&e, 0);
            }
            Value::Complex(_) | Value::ComplexMat(_) => return Err(refused("a complex vector")),
        }
        Ok(())
    }

    /// A vector with names, or a matrix with dimnames.
    fn named(&mut self, n: &Named, integer: bool) -> Result<(), KernelError> {
        if n.table.is_some() || n.match_length.is_some() || n.tsp.is_some() || !n.attrs.is_empty() {
            return Err(refused(&format!(
                "a {} with attributes",
                n.value.type_name()
            )));
        }
        let (atoms, shape) = match &n.value {
            Value::Num(v) if integer => (Atoms::Int(v), None),
            Value::Num(v) => (Atoms::Num(v), None),
            Value::Str(v) => (Atoms::Str(v), None),
            Value::Bool(v) => (Atoms::Bool(v), None),
            Value::Mat(m) if integer => (Atoms::Int(m.as_slice()), Some(m.shape())),
            Value::Mat(m) => (Atoms::Num(m.as_slice()), Some(m.shape())),
            Value::BoolMat(m) => (Atoms::Bool(m.as_slice()), Some(m.shape())),
            Value::StrMat(m) => (Atoms::Str(m.as_slice()), Some(m.shape())),
            other => return Err(refused(&format!("a named {}", other.type_name()))),
        };
        let mut attrs = Vec::new();
        if let Some(shape) = shape {
            attrs.push(("dim", dim(shape)));
            if n.rownames.is_some() || n.colnames.is_some() {
                let side = |s: &Option<Vec<String>>| s.clone().map_or(Value::Null, Value::Str);
                attrs.push((
                    "dimnames",
                    Value::List(List::sequence(vec![side(&n.rownames), side(&n.colnames)])),
                ));
            }
        }
        self.vector(&atoms, n.names.as_deref(), attrs);
        Ok(())
    }

    /// R's `attr1`: whether names are written inside and whether
    /// `structure(` opens; `atomic` for usable_nice_names' extra rule.
    fn attr1(&mut self, names: Option<&[String]>, others: bool, atomic: bool) -> Attr {
        let nice = !self.opts.simple;
        let show = !self.opts.simple;
        if !nice && !show {
            return Attr::Simple;
        }
        let mut attr = None;
        if let Some(nm) = names {
            // usable_nice_names: no NA, not all empty, and for a vector no
            // name that `c()` would take as its own argument.
            let usable = !nm.iter().any(|n| {
                super::factor::text_is_na(n) || (atomic && (n == "recursive" || n == "use.names"))
            }) && nm.iter().any(|n| !n.is_empty());
            if !(nice && usable) {
                attr = Some(if show {
                    Attr::StructNames
                } else {
                    Attr::OkNames
                });
            }
        }
        let attr = attr.unwrap_or(if show && others {
            Attr::Struct
        } else if names.is_some() {
            Attr::OkNames
        } else {
            Attr::Simple
        });
        if matches!(attr, Attr::Struct | Attr::StructNames) {
            self.print2buff("structure(");
        }
        attr
    }

    /// R's `attr2`: `, name = value` for each attribute, then `)`.
    fn attr2(&mut self, names: Option<&[String]>, attrs: &Attributes, with_names: bool) {
        if with_names {
            if let Some(nm) = names {
                self.print2buff(", names = ");
                self.atoms(&Atoms::Str(nm), None, false);
            }
        }
        for (tag, v) in attrs {
            self.print2buff(", ");
            self.print2buff(tag);
            self.print2buff(" = ");
            // Every attribute flowcast writes is a plain vector or list.
            let _ = self.top(v, *tag == "dim");
        }
        self.print2buff(")");
    }

    /// R's `vector2buff`: an atomic vector, its names and other
    /// attributes.
    fn vector(&mut self, atoms: &Atoms, names: Option<&[String]>, attrs: Attributes) {
        let int_seq = match atoms {
            Atoms::Int(v) if v.len() > 1 => {
                let step = v[1] - v[0];
                !is_na(v[0])
                    && !is_na(v[1])
                    && step.abs() == 1.0
                    && v.windows(2).all(|w| !is_na(w[1]) && w[1] - w[0] == step)
            }
            _ => false,
        };
        let names = names.filter(|_| !self.opts.simple);
        // structure(1:2, names = …): the names of an m:n sequence or of an
        // empty vector go among the attributes.
        if names.is_some() && (int_seq || atoms.len() == 0) {
            self.print2buff("structure(");
            self.atoms(atoms, None, int_seq);
            self.attr2(names, &attrs, true);
            return;
        }
        let attr = self.attr1(names, !attrs.is_empty(), true);
        let inside = names.filter(|_| matches!(attr, Attr::OkNames | Attr::Struct));
        self.atoms(atoms, inside, int_seq);
        if matches!(attr, Attr::Struct | Attr::StructNames) {
            self.attr2(names, &attrs, attr == Attr::StructNames);
        }
    }

    /// The elements: `m:n`, one element, or `c(…)` broken past the cutoff.
    fn atoms(&mut self, atoms: &Atoms, names: Option<&[String]>, int_seq: bool) {
        let n = atoms.len();
        if n == 0 {
            self.print2buff(match atoms {
                Atoms::Num(_) => "numeric(0)",
                Atoms::Int(_) => "integer(0)",
                Atoms::Str(_) => "character(0)",
                Atoms::Bool(_) => "logical(0)",
            });
            return;
        }
        if let (true, Atoms::Int(v)) = (int_seq, atoms) {
            self.print2buff(&format!("{}:{}", v[0], v[n - 1]));
            return;
        }
        let keep = !self.opts.simple;
        // keepNA: a vector of NAs alone writes them typed.
        let all_na = keep
            && match atoms {
                Atoms::Num(v) => v.iter().all(|&x| is_na(x)),
                Atoms::Int(v) => v.iter().all(|&x| is_na(x) || x.is_nan()),
                Atoms::Str(v) => v.iter().all(|s| super::factor::text_is_na(s)),
                Atoms::Bool(_) => false,
            };
        let need_c = n > 1 || names.is_some();
        if need_c {
            self.print2buff("c(");
        }
        for i in 0..n {
            if let Some(nm) = names {
                let name = &nm[i];
                if !name.is_empty() && !super::factor::text_is_na(name) {
                    let shown = if valid_name(name) {
                        name.clone()
                    } else if self.opts.backtick {
                        format!("`{name}`")
                    } else {
                        format!("\"{name}\"")
                    };
                    self.print2buff(&shown);
                    self.print2buff(" = ");
                }
            }
            let text = match atoms {
                Atoms::Num(v) if is_na(v[i]) => if all_na { "NA_real_" } else { "NA" }.to_string(),
                Atoms::Num(v) => deparse_number(v[i]),
                Atoms::Int(v) if v[i].is_nan() => {
                    if all_na { "NA_integer_" } else { "NA" }.to_string()
                }
                Atoms::Int(v) => {
                    let suffix = if keep { "L" } else { "" };
                    format!("{}{suffix}", v[i])
                }
                Atoms::Str(v) if super::factor::text_is_na(&v[i]) => {
                    if all_na { "NA_character_" } else { "NA" }.to_string()
                }
                Atoms::Str(v) => quoted(&v[i]),
                Atoms::Bool(v) => match v[i] {
                    Some(true) => "TRUE".into(),
                    Some(false) => "FALSE".into(),
                    None => "NA".into(),
                },
            };
            self.print2buff(&text);
            if i + 1 < n {
                self.print2buff(", ");
            }
            if n > 1 && self.len > self.opts.cutoff {
                self.writeline();
            }
        }
        if need_c {
            self.print2buff(")");
        }
    }

    /// A list: `list(…)` with R's `vec2buff`; a data frame or a classed
    /// result is refused.
    fn list(&mut self, l: &List) -> Result<(), KernelError> {
        if l.class.is_some() || l.row_names.is_some() {
            let what = l.class.as_deref().unwrap_or("data.frame");
            return Err(refused(&format!("a list of class \"{what}\"")));
        }
        let names = l.names.as_deref().filter(|_| !self.opts.simple);
        let attr = self.attr1(names, false, false);
        self.print2buff("list(");
        let inside = names.filter(|_| matches!(attr, Attr::OkNames | Attr::Struct));
        let mut lbreak = false;
        for (i, item) in l.items.iter().enumerate() {
            if i > 0 {
                self.print2buff(", ");
            }
            self.linebreak(&mut lbreak);
            if let Some(nm) = inside {
                let name = &nm[i];
                if !name.is_empty() {
                    let shown = if valid_name(name) {
                        name.clone()
                    } else if self.opts.backtick {
                        format!("`{name}`")
                    } else {
                        format!("\"{name}\"")
                    };
                    self.print2buff(&shown);
                    self.print2buff(" = ");
                }
            }
            self.top(item, false)?;
        }
        if lbreak {
            self.indent -= 1;
        }
        self.print2buff(")");
        if matches!(attr, Attr::Struct | Attr::StructNames) {
            self.attr2(names, &Vec::new(), attr == Attr::StructNames);
        }
        Ok(())
    }

    /// `args2buff`: `name = value, …`, a line broken after a `, ` past
    /// the cutoff.
    fn args(&mut self, args: &[Arg]) {
        let mut lbreak = false;
        for (i, a) in args.iter().enumerate() {
            if let Some(n) = &a.name {
                let shown = if self.opts.backtick {
                    backquoted(n)
                } else if valid_name(n) {
                    n.clone()
                } else {
                    quoted(n)
                };
                self.print2buff(&shown);
                self.print2buff(" = ");
            }
            self.expr(&a.value, 0);
            if i + 1 < args.len() {
                self.print2buff(", ");
                self.linebreak(&mut lbreak);
            }
        }
        if lbreak {
            self.indent -= 1;
        }
    }

    /// An expression, in parentheses when it binds less tightly than
    /// `min` (as `workflow::deparse` writes it), broken as R breaks it.
    fn expr(&mut self, e: &Expr, min: u8) {
        let wrap = precedence(e) < min;
        if wrap {
            self.print2buff("(");
        }
        match &e.kind {
            ExprKind::Num(v) => self.print2buff(&deparse_number(*v)),
            ExprKind::Str(s) => self.print2buff(&quoted(s)),
            ExprKind::Bool(b) => self.print2buff(if *b { "TRUE" } else { "FALSE" }),
            ExprKind::Null => self.print2buff("NULL"),
            ExprKind::Na => self.print2buff("NA"),
            ExprKind::Name(n) => {
                let text = if self.opts.backtick {
                    backquoted(n)
                } else {
                    n.clone()
                };
                self.print2buff(&text);
            }
            ExprKind::Call { func, args, .. } if func == PAREN && args.len() == 1 => {
                self.print2buff("(");
                self.expr(&args[0].value, 0);
                self.print2buff(")");
            }
            ExprKind::Call { func, args, .. } if func != crate::kernels::callable::CALL_VALUE => {
                self.print2buff(&backquoted(func));
                self.print2buff("(");
                self.args(args);
                self.print2buff(")");
            }
            ExprKind::Unary { op, expr } => {
                let p = if *op == UnaryOp::Not { 16 } else { 60 };
                self.print2buff(op.symbol());
                self.expr(expr, p);
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let p = precedence(e);
                let (lp, rp) = if *op == BinaryOp::Pow {
                    (p + 1, p)
                } else if op.is_comparison() {
                    (p + 1, p + 1)
                } else {
                    (p, p + 1)
                };
                let signed = matches!(&rhs.kind, ExprKind::Unary { op, .. } if *op != UnaryOp::Not);
                let rp = if signed { 0 } else { rp };
                self.expr(lhs, lp);
                // PP_BINARY2 (`/`, `^`, `:`, `%%`, `%/%`): no spaces, no
                // break.
                if matches!(
                    op,
                    BinaryOp::Div
                        | BinaryOp::Mod
                        | BinaryOp::IntDiv
                        | BinaryOp::Range
                        | BinaryOp::Pow
                ) {
                    self.print2buff(op.symbol());
                    self.expr(rhs, rp);
                } else {
                    self.print2buff(" ");
                    self.print2buff(op.symbol());
                    self.print2buff(" ");
                    let mut lbreak = false;
                    self.linebreak(&mut lbreak);
                    self.expr(rhs, rp);
                    if lbreak {
                        self.indent -= 1;
                    }
                }
            }
            ExprKind::Formula { lhs: Some(l), rhs } => {
                self.expr(l, 10);
                self.print2buff(" ~ ");
                let mut lbreak = false;
                self.linebreak(&mut lbreak);
                self.expr(rhs, 11);
                if lbreak {
                    self.indent -= 1;
                }
            }
            ExprKind::Formula { lhs: None, rhs } => {
                self.print2buff("~");
                self.expr(rhs, 11);
            }
            ExprKind::Index {
                target,
                indices,
                drop,
            } => {
                self.expr(target, 80);
                self.print2buff("[");
                let mut args: Vec<Arg> = indices
                    .iter()
                    .map(|i| Arg {
                        name: None,
                        value: i.clone().unwrap_or(Expr {
                            kind: ExprKind::Missing,
                            span: e.span,
                        }),
                        span: e.span,
                    })
                    .collect();
                if let Some(d) = drop {
                    args.push(Arg {
                        name: Some("drop".into()),
                        value: (**d).clone(),
                        span: e.span,
                    });
                }
                self.args(&args);
                self.print2buff("]");
            }
            ExprKind::Index2 {
                target,
                index,
                column,
            } => {
                self.expr(target, 80);
                self.print2buff("[[");
                self.expr(index, 0);
                if let Some(c) = column {
                    self.print2buff(", ");
                    self.expr(c, 0);
                }
                self.print2buff("]]");
            }
            ExprKind::Field { target, name, .. } => {
                self.expr(target, 80);
                self.print2buff("$");
                self.print2buff(&backquoted(name));
            }
            ExprKind::Missing => {}
            // Not in a formula: flowcast's own deparse, on one line.
            _ => self.print2buff(&one_chunk(e)),
        }
        if wrap {
            self.print2buff(")");
        }
    }
}

/// A matrix's `dim` attribute, an integer vector.
fn dim((r, c): (usize, usize)) -> Value {
    Value::Num(vec![r as f64, c as f64])
}

fn refused(what: &str) -> KernelError {
    KernelError::new(format!(
        "flowcast's deparse() writes vectors, matrices, factors, lists, formulas and \
         their parts; not {what}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dep(v: &Value, integer: bool) -> Vec<String> {
        deparse(
            v,
            integer,
            Opts {
                cutoff: 60,
                backtick: false,
                simple: false,
            },
        )
        .unwrap()
    }

    /// R 4.2.2: deparse() of each value.
    #[test]
    fn vectors_deparse_as_r_writes_them() {
        assert_eq!(dep(&Value::Num(vec![1.0, 2.0]), false), ["c(1, 2)"]);
        assert_eq!(dep(&Value::Num(vec![1.0, 2.0, 3.0]), true), ["1:3"]);
        assert_eq!(dep(&Value::Num(vec![3.0, 2.0, 1.0]), true), ["3:1"]);
        assert_eq!(dep(&Value::Num(vec![1.0, 3.0]), true), ["c(1L, 3L)"]);
        assert_eq!(dep(&Value::scalar(-2.0), true), ["-2L"]);
        assert_eq!(dep(&Value::string("a"), false), ["\"a\""]);
        assert_eq!(
            dep(&Value::Num(vec![super::super::value::NA]), false),
            ["NA_real_"]
        );
        assert_eq!(
            dep(&Value::Num(vec![1.0, super::super::value::NA]), false),
            ["c(1, NA)"]
        );
        let long: Vec<f64> = (1..=30).map(f64::from).collect();
        assert_eq!(
            dep(&Value::Num(long), false),
            [
                "c(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, ",
                "18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30)"
            ]
        );
    }
}
