//! The validated workflow: what the parser hands to the graph.
//!
//! Every node carries an absolute [`Span`] into the workflow file, so any
//! later stage (shape inference, evaluation) can point at the text.

use std::path::PathBuf;

use crate::diagnostic::{SourceFile, Span};

/// A parsed and validated workflow file.
#[derive(Clone, Debug)]
pub struct Workflow {
    pub file: SourceFile,
    /// `[workflow] name`, defaulting to the file's stem.
    pub name: String,
    /// `[workflow] seed`: the same numbers as `set.seed(seed)` in R.
    pub seed: Option<i64>,
    pub processors: Option<usize>,
    /// `[workflow] scheduler`, as written (validated against the known names).
    pub scheduler: Option<String>,
    /// `[workflow] m`: the paper's M, which bounds how finely emcp cuts a
    /// loop and below p·M iterations of which a loop is not test-driven.
    pub m: Option<usize>,
    /// `[workflow] out`, relative to the workflow file's directory.
    pub out: Option<PathBuf>,
    /// Steps in the order they stand in the file (which is the order random
    /// steps draw from the seed's stream).
    pub steps: Vec<Step>,
    /// The function steps (`se = "function(x) ..."`, `vf = "Vectorize(f)"`),
    /// in file order: not tasks, since each use was replaced by the
    /// function itself, but part of the workflow the user wrote.
    pub functions: Vec<FunctionStep>,
}

/// A function step, as [`Workflow::functions`] lists it.
#[derive(Clone, Debug)]
pub struct FunctionStep {
    pub name: String,
    pub name_span: Span,
    /// The definition as written in the file.
    pub source: String,
}

impl Workflow {
    /// The directory relative paths in the workflow are resolved against.
    pub fn base_dir(&self) -> PathBuf {
        match self.file.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }
    }

    pub fn step(&self, name: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.name == name)
    }
}

#[derive(Clone, Debug)]
pub struct Step {
    pub name: String,
    /// The key in `[steps]`.
    pub name_span: Span,
    pub body: StepBody,
}

#[derive(Clone, Debug)]
pub enum StepBody {
    Expr(Expr),
    Loop(Loop),
}

/// `{ for = "i in 1:N", do = "body" }`: a do-all loop.
#[derive(Clone, Debug)]
pub struct Loop {
    pub var: String,
    pub var_span: Span,
    /// The range expression after `in`, e.g. `1:N`.
    pub range: Expr,
    pub body: Expr,
}

/// The function a formula's parentheses call (`y ~ (x * z)`): R's `(`,
/// which returns its argument. Outside formulas the parser keeps no
/// parentheses (see `parser::Parser::keep_parens`).
pub const PAREN: &str = "(";

/// What a function's call of itself becomes (`fib(n - 1)` in fib's body,
/// or `Recall(n - 1)`; see `workflow::functions`): a call of this, its
/// first argument the function's name, the rest the call's. A function
/// put in place where it is called cannot be put inside itself, so the
/// evaluator runs the body of the innermost call of that name again. No
/// R name has parentheses, so no user call means it.
pub const RECALL: &str = "(recall)";

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Num(f64),
    Str(String),
    /// `TRUE`, `FALSE`, `T`, `F`.
    Bool(bool),
    /// `NULL`.
    Null,
    /// `NA`.
    Na,
    /// An empty argument, `a =` in `switch(x, a = , b = 1)`: R's missing
    /// argument, which falls through to the next alternative. The parser
    /// allows it nowhere else.
    Missing,
    /// A name; R names may contain dots (`p.value`, `my.data`).
    Name(String),
    /// `f(a, b = c)`. Operators are not calls here; see [`ExprKind::Binary`].
    Call {
        func: String,
        func_span: Span,
        args: Vec<Arg>,
    },
    Unary {
        op: UnaryOp,
        expr: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `x[i]`, `x[i, ]`, `x[, j]`, `x[i, j]`: `None` is an empty index.
    Index {
        target: Box<Expr>,
        indices: Vec<Option<Expr>>,
        /// `x[i, j, drop = FALSE]`.
        drop: Option<Box<Expr>>,
    },
    /// `x[[i]]`, or `x[[i, j]]` with `column`.
    Index2 {
        target: Box<Expr>,
        index: Box<Expr>,
        column: Option<Box<Expr>>,
    },
    /// `x$name`.
    Field {
        target: Box<Expr>,
        name: String,
        name_span: Span,
    },
    /// `lhs ~ rhs` (lhs optional: `~ x`).
    Formula {
        lhs: Option<Box<Expr>>,
        rhs: Box<Expr>,
    },
    /// `function(x, y) body`, or `\(x) body`: a function value, taken by
    /// the calls that take a function (`sapply`, `Reduce`, `mapply`, …).
    /// Its body reads its parameters and, through them, nothing else: any
    /// other name is a step, so the closure's dependences are the step's.
    Function {
        params: Vec<Param>,
        body: Box<Expr>,
    },
    /// `{ s1; s2; value }`: the statements run in order and the last one's
    /// value is the block's (NULL when there is none). As in R, braces make
    /// no scope of their own: a block that stands as a statement shares its
    /// assignments with the statements after it.
    Block(Vec<Expr>),
    /// `name <- value`, or `name = value` as a statement. The name is local
    /// to the step's expression, or to the body of the closure that holds
    /// it; later statements read it in place of any step of that name.
    Assign {
        name: String,
        name_span: Span,
        value: Box<Expr>,
    },
    /// `if (cond) yes else no`: only the branch taken is evaluated.
    If {
        cond: Box<Expr>,
        yes: Box<Expr>,
        no: Option<Box<Expr>>,
    },
    /// `for (var in seq) body`, run in order inside the expression (a loop
    /// step's iterations, by contrast, are independent tasks). Its value is
    /// NULL; what the body assigns, the loop variable included, is seen by
    /// the statements after it, as in R.
    For {
        var: String,
        var_span: Span,
        seq: Box<Expr>,
        body: Box<Expr>,
    },
    /// `while (cond) body`; `repeat body` has no condition.
    While {
        cond: Option<Box<Expr>>,
        body: Box<Expr>,
    },
    /// `break`: leaves the innermost `for`, `while` or `repeat`.
    Break,
    /// `next`: goes on with the innermost loop's next iteration.
    Next,
    /// `f(args)` where the step `f` is `function(params) body` (see
    /// `workflow::functions`): the body runs with the parameters bound to
    /// the arguments, as a closure's does.
    Apply {
        func: String,
        func_span: Span,
        params: Vec<Param>,
        body: Box<Expr>,
        args: Vec<Arg>,
    },
}

/// A parameter of `function(...)`: `x`, or `n = default`, whose default is
/// evaluated with the arguments given (`function(x, n = length(x))`).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub span: Span,
    pub default: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    /// `name = value`, or positional.
    pub name: Option<String>,
    pub value: Expr,
    /// The whole argument, name included.
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    /// `!x`
    Not,
}

impl UnaryOp {
    /// The R function the operator calls; also its kernel's registry name.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Plus => "+",
            UnaryOp::Not => "!",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    MatMul,
    /// `a:b`
    Range,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    /// `&`, element-wise.
    And,
    /// `&&`, one value, the right side evaluated only when needed.
    AndAnd,
    Or,
    OrOr,
    /// `%in%`
    In,
    /// `%%`
    Mod,
    /// `%/%`
    IntDiv,
}

impl BinaryOp {
    /// The R function the operator calls; also its kernel's registry name.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Pow => "^",
            BinaryOp::MatMul => "%*%",
            BinaryOp::Range => ":",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::And => "&",
            BinaryOp::AndAnd => "&&",
            BinaryOp::Or => "|",
            BinaryOp::OrOr => "||",
            BinaryOp::In => "%in%",
            BinaryOp::Mod => "%%",
            BinaryOp::IntDiv => "%/%",
        }
    }

    /// `==`, `!=`, `<`, `>`, `<=`, `>=`: R's grammar makes them
    /// non-associative (`a < b < c` is a syntax error).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge
        )
    }
}

/// The name R gives a function's rest of arguments, which a call passes
/// on by naming it among its own arguments (`sum(x, ...)`).
pub const DOTS: &str = "...";

/// Whether `name` is R's name for one of the values a `...` took: `..1`,
/// `..2`, ….
pub fn is_dots_element(name: &str) -> bool {
    name.strip_prefix("..")
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

impl Expr {
    /// The two ends of `a:b`; `None` for any other expression.
    pub fn range_ends(&self) -> Option<(&Expr, &Expr)> {
        match &self.kind {
            ExprKind::Binary {
                op: BinaryOp::Range,
                lhs,
                rhs,
            } => Some((lhs, rhs)),
            _ => None,
        }
    }

    /// Calls `f` on every name this expression reads (not function names,
    /// not `$` field names, not argument names) that is not bound inside it
    /// at that point: a closure's parameters and the locals assigned before
    /// the reading are not read from outside.
    pub fn visit_names(&self, f: &mut impl FnMut(&str, Span)) {
        self.visit_free_names(&mut Vec::new(), f)
    }

    // Not generic: a generic visitor would instantiate itself once per
    // nesting level of closures.
    fn visit_free_names<'e>(&'e self, bound: &mut Vec<&'e str>, f: &mut dyn FnMut(&str, Span)) {
        match &self.kind {
            ExprKind::Name(n) => {
                // `..1`, `..2`, …: what a `...` took, bound where it is.
                let bound_here = |n: &str| bound.contains(&n);
                let dots_element = is_dots_element(n) && bound_here(DOTS);
                if !(bound_here(n) || dots_element) {
                    f(n, self.span)
                }
            }
            // `missing(x)` asks about the function's parameter `x` and
            // reads no value: a name that is none is R's error as it runs.
            ExprKind::Call { func, .. } if func == "missing" => {}
            ExprKind::Function { params, body } => {
                Self::visit_function_free_names(params, body, bound, f)
            }
            ExprKind::Block(stmts) => {
                let outer = bound.len();
                for s in stmts {
                    s.visit_free_names(bound, f);
                    s.assigned(bound);
                }
                bound.truncate(outer);
            }
            ExprKind::Apply {
                params, body, args, ..
            } => {
                args.iter().for_each(|a| a.value.visit_free_names(bound, f));
                Self::visit_function_free_names(params, body, bound, f);
            }
            // What a loop's body assigns is its own from the second
            // iteration on, so the body's reads of those names are not of
            // steps (the first iteration reading one before assigning it is
            // R's "object not found" at run time).
            ExprKind::For { var, seq, body, .. } => {
                seq.visit_free_names(bound, f);
                let outer = bound.len();
                bound.push(var);
                body.assigned(bound);
                body.visit_free_names(bound, f);
                bound.truncate(outer);
            }
            ExprKind::While { cond, body } => {
                let outer = bound.len();
                body.assigned(bound);
                if let Some(c) = cond {
                    c.visit_free_names(bound, f);
                }
                body.visit_free_names(bound, f);
                bound.truncate(outer);
            }
            _ => self.visit_children(&mut |c| c.visit_free_names(bound, f)),
        }
    }

    /// A function's parameter defaults and body, where its parameters are
    /// bound (an apply's function is one, its arguments outside it).
    fn visit_function_free_names<'e>(
        params: &'e [Param],
        body: &'e Expr,
        bound: &mut Vec<&'e str>,
        f: &mut dyn FnMut(&str, Span),
    ) {
        let outer = bound.len();
        bound.extend(params.iter().map(|p| p.name.as_str()));
        for d in params.iter().filter_map(|p| p.default.as_ref()) {
            d.visit_free_names(bound, f);
        }
        body.visit_free_names(bound, f);
        bound.truncate(outer);
    }

    /// Pushes onto `out` the names this expression, standing as a statement,
    /// may assign (R's braces and `if` make no scope). A name assigned on
    /// one branch only is a local all the same: reading it after the other
    /// branch is R's "object not found" at run time, not a step.
    pub fn assigned<'e>(&'e self, out: &mut Vec<&'e str>) {
        match &self.kind {
            ExprKind::Assign { name, value, .. } => {
                value.assigned(out);
                out.push(name);
            }
            ExprKind::Block(stmts) => stmts.iter().for_each(|s| s.assigned(out)),
            ExprKind::If { yes, no, .. } => {
                yes.assigned(out);
                if let Some(no) = no {
                    no.assigned(out);
                }
            }
            ExprKind::For { var, body, .. } => {
                out.push(var);
                body.assigned(out);
            }
            ExprKind::While { body, .. } => body.assigned(out),
            _ => {}
        }
    }

    /// Calls `f` on each direct sub-expression.
    pub fn visit_children<'e>(&'e self, f: &mut impl FnMut(&'e Expr)) {
        match &self.kind {
            ExprKind::Name(_)
            | ExprKind::Num(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::Na
            | ExprKind::Break
            | ExprKind::Next
            | ExprKind::Missing => {}
            ExprKind::Call { args, .. } => args.iter().for_each(|a| f(&a.value)),
            ExprKind::Unary { expr, .. } => f(expr),
            ExprKind::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            ExprKind::Index {
                target,
                indices,
                drop,
            } => {
                f(target);
                indices.iter().flatten().for_each(&mut *f);
                drop.iter().for_each(|e| f(e));
            }
            ExprKind::Index2 {
                target,
                index,
                column,
            } => {
                f(target);
                f(index);
                column.iter().for_each(|e| f(e));
            }
            ExprKind::Field { target, .. } => f(target),
            ExprKind::Formula { lhs, rhs } => {
                if let Some(l) = lhs {
                    f(l);
                }
                f(rhs);
            }
            ExprKind::Function { params, body } => {
                params
                    .iter()
                    .filter_map(|p| p.default.as_ref())
                    .for_each(&mut *f);
                f(body);
            }
            ExprKind::Block(stmts) => stmts.iter().for_each(f),
            ExprKind::Assign { value, .. } => f(value),
            ExprKind::If { cond, yes, no } => {
                f(cond);
                f(yes);
                no.iter().for_each(|e| f(e));
            }
            ExprKind::For { seq, body, .. } => {
                f(seq);
                f(body);
            }
            ExprKind::While { cond, body } => {
                cond.iter().for_each(|e| f(e));
                f(body);
            }
            ExprKind::Apply {
                params, body, args, ..
            } => {
                args.iter().for_each(|a| f(&a.value));
                params
                    .iter()
                    .filter_map(|p| p.default.as_ref())
                    .for_each(&mut *f);
                f(body);
            }
        }
    }

    /// [`Expr::visit_children`], mutably.
    pub fn visit_children_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        match &mut self.kind {
            ExprKind::Name(_)
            | ExprKind::Num(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::Na
            | ExprKind::Break
            | ExprKind::Next
            | ExprKind::Missing => {}
            ExprKind::Call { args, .. } => args.iter_mut().for_each(|a| f(&mut a.value)),
            ExprKind::Unary { expr, .. } => f(expr),
            ExprKind::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            ExprKind::Index {
                target,
                indices,
                drop,
            } => {
                f(target);
                indices.iter_mut().flatten().for_each(&mut *f);
                drop.iter_mut().for_each(|e| f(e));
            }
            ExprKind::Index2 {
                target,
                index,
                column,
            } => {
                f(target);
                f(index);
                column.iter_mut().for_each(|e| f(e));
            }
            ExprKind::Field { target, .. } => f(target),
            ExprKind::Formula { lhs, rhs } => {
                if let Some(l) = lhs {
                    f(l);
                }
                f(rhs);
            }
            ExprKind::Function { params, body } => {
                params
                    .iter_mut()
                    .filter_map(|p| p.default.as_mut())
                    .for_each(&mut *f);
                f(body);
            }
            ExprKind::Block(stmts) => stmts.iter_mut().for_each(f),
            ExprKind::Assign { value, .. } => f(value),
            ExprKind::If { cond, yes, no } => {
                f(cond);
                f(yes);
                no.iter_mut().for_each(|e| f(e));
            }
            ExprKind::For { seq, body, .. } => {
                f(seq);
                f(body);
            }
            ExprKind::While { cond, body } => {
                cond.iter_mut().for_each(|e| f(e));
                f(body);
            }
            ExprKind::Apply {
                params, body, args, ..
            } => {
                args.iter_mut().for_each(|a| f(&mut a.value));
                params
                    .iter_mut()
                    .filter_map(|p| p.default.as_mut())
                    .for_each(&mut *f);
                f(body);
            }
        }
    }

    /// R's `NA` is logical, so as a subscript it recycles; `NA_real_` and
    /// `NA_integer_` are not. The parser reads all three as one NA.
    pub fn is_logical_na(&self, file: &crate::diagnostic::SourceFile) -> bool {
        matches!(self.kind, ExprKind::Na)
            && file.text.get(self.span.start..self.span.end) == Some("NA")
    }

    /// Calls `f` on every function called, with the span of its name.
    pub fn visit_calls(&self, f: &mut impl FnMut(&str, Span)) {
        self.visit_calls_dyn(f)
    }

    fn visit_calls_dyn(&self, f: &mut dyn FnMut(&str, Span)) {
        if let ExprKind::Call {
            func, func_span, ..
        } = &self.kind
        {
            f(func, *func_span);
        }
        self.visit_children(&mut |c| c.visit_calls_dyn(f));
    }
}
