//! Which values are R integers, for R's integer overflow.
//!
//! flowcast stores integers as doubles, which hold every R integer exactly,
//! so integer `+ - *` is double arithmetic until a result leaves R's
//! integer range: there R gives NA with the warning "NAs produced by
//! integer overflow" (arithmetic.c, `R_integer_plus` and friends). Whether
//! an operand is an integer follows from how it was written (`5L`,
//! `1:n`, `length(x)`), so the evaluator asks here only when a result is
//! out of range, and pays nothing otherwise.

use std::collections::HashSet;

use crate::diagnostic::SourceFile;
use crate::workflow::{BinaryOp, Expr, ExprKind, StepBody, UnaryOp, Workflow};

/// `.Machine$integer.max`.
pub const INT_MAX: f64 = 2_147_483_647.0;

/// The text R prints with NA for an overflowing integer operation.
pub const OVERFLOW: &str = "NAs produced by integer overflow";

/// What the integer test consults besides the expression.
pub struct Integers<'a> {
    pub file: &'a SourceFile,
    /// Steps whose values are integer vectors.
    pub steps: &'a HashSet<String>,
    /// Whether the local of a name (a loop variable, a parameter, a
    /// statement's assignment) holds an integer; `None` when no local has
    /// that name and it names a step.
    pub locals: &'a dyn Fn(&str) -> Option<bool>,
}

/// [`Integers::locals`] where there are none.
pub fn no_locals(_: &str) -> Option<bool> {
    None
}

impl Integers<'_> {
    /// True when R would give `e` integer type.
    pub fn is_integer(&self, e: &Expr) -> bool {
        match &e.kind {
            // `5L`; a whole number too large for an integer is a double
            // (R warns at parse time and keeps the number).
            ExprKind::Num(x) => {
                x.fract() == 0.0
                    && x.abs() <= INT_MAX
                    && self
                        .file
                        .text
                        .get(e.span.start..e.span.end)
                        .is_some_and(|t| t.ends_with('L'))
            }
            ExprKind::Na => self.file.text.get(e.span.start..e.span.end) == Some("NA_integer_"),
            ExprKind::Name(n) => (self.locals)(n).unwrap_or_else(|| self.steps.contains(n)),
            ExprKind::Unary { op, expr } => {
                matches!(op, UnaryOp::Neg | UnaryOp::Plus) && self.is_integer(expr)
            }
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::Add
                | BinaryOp::Sub
                | BinaryOp::Mul
                | BinaryOp::Mod
                | BinaryOp::IntDiv => self.is_integer(lhs) && self.is_integer(rhs),
                // R's `:` is integer from a whole start within range.
                BinaryOp::Range => {
                    self.is_integer(lhs)
                        || matches!(lhs.kind, ExprKind::Num(x) if x.fract() == 0.0 && x.abs() <= INT_MAX)
                }
                _ => false,
            },
            ExprKind::Call { func, args, .. } => match func.as_str() {
                "length" | "...length" | "nrow" | "ncol" | "seq_len" | "seq_along"
                | "sample.int" | "cutree" | "which" | "which.max" | "which.min" | "order"
                | "tabulate" | "match" | "table" | "nchar" | "nlevels" | "as.integer"
                | "findInterval" | "max.col" | "strtoi" | "rmultinom" | "row" | "col"
                | "bitwAnd" | "bitwOr" | "bitwXor" | "bitwNot" | "bitwShiftL" | "bitwShiftR"
                | "anyDuplicated" | "arrayInd" | "slice.index" | "rpois" | "rbinom" | "rgeom"
                | "rnbinom" | "rhyper" | "rsignrank" | "rwilcox" | "pmatch" | "charmatch"
                | "sequence" | "sort.list" => true,
                // sample(n) draws from 1:n; sample(x) keeps x's type.
                "sample" => args.first().is_some_and(|a| {
                    a.name.as_deref().is_none_or(|n| n == "x")
                        && (self.is_integer(&a.value) || matches!(a.value.kind, ExprKind::Num(_)))
                }),
                // A sum of integers or logicals is an integer.
                "sum" => {
                    !args.is_empty()
                        && args
                            .iter()
                            .filter(|a| a.name.as_deref() != Some("na.rm"))
                            .all(|a| self.is_integer(&a.value) || is_logical(&a.value))
                }
                // Integer input stays integer.
                "rep" | "rep_len" | "rep.int" | "rev" | "head" | "tail" | "sort" | "sort.int"
                | "unique" | "cumsum" | "cummax" | "cummin" | "diff" => args
                    .first()
                    .is_some_and(|a| a.name.is_none() && self.is_integer(&a.value)),
                "seq" => self.seq_is_integer(args),
                // median.default picks the middle value of an odd count
                // (`sort(x, partial = half)[half]`) and means the middle
                // two of an even one: integer only for an odd length,
                // known here when the vector's length is written out.
                "median" => {
                    let x = args.iter().find(|a| a.name.is_none());
                    let na_rm = args.iter().any(|a| {
                        a.name.as_deref() == Some("na.rm")
                            && !matches!(a.value.kind, ExprKind::Bool(false))
                    });
                    x.is_some_and(|x| {
                        self.is_integer(&x.value)
                            && match written_len(&x.value) {
                                // An NA kept gives `x[NA_integer_]`.
                                Some((_, nas)) if nas > 0 => !na_rm,
                                Some((n, _)) => n % 2 == 1,
                                None => false,
                            }
                    })
                }
                // The alternative picked is the value.
                "switch" => {
                    args.len() > 1
                        && args[1..].iter().all(|a| {
                            matches!(a.value.kind, ExprKind::Missing) || self.is_integer(&a.value)
                        })
                }
                // Integers stay integer, and so do logicals beside them
                // (`c(1L, NA)` is integer).
                "c" | "max" | "min" => {
                    let values: Vec<&Expr> = args
                        .iter()
                        .filter(|a| a.name.as_deref() != Some("na.rm"))
                        .map(|a| &a.value)
                        .collect();
                    let logical = |e: &Expr| {
                        is_logical(e)
                            || (matches!(e.kind, ExprKind::Na)
                                && self.file.text.get(e.span.start..e.span.end) == Some("NA"))
                    };
                    values.iter().any(|e| self.is_integer(e))
                        && values.iter().all(|e| self.is_integer(e) || logical(e))
                }
                // A matrix or array of integers is integer.
                "matrix" | "array" | "t" => args.first().is_some_and(|a| {
                    a.name.as_deref().is_none_or(|n| n == "data" || n == "x")
                        && self.is_integer(&a.value)
                }),
                // Integer arguments stay integer.
                "abs" => {
                    !args.is_empty()
                        && args
                            .iter()
                            .filter(|a| a.name.as_deref() != Some("na.rm"))
                            .all(|a| self.is_integer(&a.value))
                }
                _ => false,
            },
            // `d[["v"]]`: a data frame step's integer column.
            ExprKind::Index2 {
                target,
                index,
                column: None,
            } if matches!((&target.kind, &index.kind), (ExprKind::Name(n), ExprKind::Str(_)) if (self.locals)(n).is_none()) =>
            {
                let (ExprKind::Name(n), ExprKind::Str(col)) = (&target.kind, &index.kind) else {
                    return false;
                };
                self.steps.contains(&column_key(n, col)) || self.steps.contains(n)
            }
            ExprKind::Index { target, .. } | ExprKind::Index2 { target, .. } => {
                self.is_integer(target)
            }
            ExprKind::Field { target, name, .. } => match &target.kind {
                ExprKind::Name(n) if (self.locals)(n).is_none() => {
                    if n == ".Machine" && !self.steps.contains(n) {
                        crate::kernels::constants::machine_integer(name)
                    } else {
                        self.steps.contains(&column_key(n, name))
                    }
                }
                _ => false,
            },
            ExprKind::Block(stmts) => stmts.last().is_some_and(|s| self.is_integer(s)),
            ExprKind::Assign { value, .. } => self.is_integer(value),
            ExprKind::If { yes, no, .. } => {
                self.is_integer(yes) && no.as_ref().is_some_and(|n| self.is_integer(n))
            }
            _ => false,
        }
    }
}

impl Integers<'_> {
    /// seq.default's integer results: `seq(n)` is `1L:n` (or
    /// `seq_along`), `seq(from, to)` is `from:to`, and with `by` the
    /// sequence is integer when `to - from` and `by` are (`from +
    /// (0L:n) * by`). `length.out` and `along.with` are taken for doubles.
    fn seq_is_integer(&self, args: &[crate::workflow::Arg]) -> bool {
        let (mut from, mut to, mut by) = (None, None, None);
        let mut positional = 0;
        for a in args {
            let slot = match a.name.as_deref() {
                Some("from") => &mut from,
                Some("to") => &mut to,
                Some("by") => &mut by,
                Some(_) => return false,
                None => {
                    positional += 1;
                    match positional {
                        1 => &mut from,
                        2 => &mut to,
                        3 => &mut by,
                        _ => return false,
                    }
                }
            };
            *slot = Some(&a.value);
        }
        let whole = |e: &Expr| {
            self.is_integer(e)
                || matches!(e.kind, ExprKind::Num(x) if x.fract() == 0.0 && x.abs() <= INT_MAX)
        };
        match (from, to, by) {
            (Some(_), None, None) => true,
            (Some(f), Some(_), None) => whole(f),
            (Some(f), Some(t), Some(b)) => {
                self.is_integer(f) && self.is_integer(t) && self.is_integer(b)
            }
            _ => false,
        }
    }
}

/// The length of a vector written out, and how many of its elements
/// are NA: `a:b` of whole numbers, `c(…)` of such pieces and single
/// numbers, `seq_len(n)`.
fn written_len(e: &Expr) -> Option<(usize, usize)> {
    let whole = |e: &Expr| match &e.kind {
        ExprKind::Num(x) if x.fract() == 0.0 && x.abs() <= INT_MAX => Some(*x),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            expr,
        } => match expr.kind {
            ExprKind::Num(x) if x.fract() == 0.0 && x.abs() <= INT_MAX => Some(-x),
            _ => None,
        },
        _ => None,
    };
    match &e.kind {
        ExprKind::Num(_) => Some((1, 0)),
        ExprKind::Na => Some((1, 1)),
        ExprKind::Unary { expr, .. } => written_len(expr),
        ExprKind::Binary {
            op: BinaryOp::Range,
            lhs,
            rhs,
        } => Some(((whole(rhs)? - whole(lhs)?).abs() as usize + 1, 0)),
        ExprKind::Call { func, args, .. } => match func.as_str() {
            "c" => args.iter().try_fold((0, 0), |(n, nas), a| {
                let (k, m) = written_len(&a.value)?;
                Some((n + k, nas + m))
            }),
            "seq_len" => match args.as_slice() {
                [a] => Some((whole(&a.value)?.max(0.0) as usize, 0)),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// True when R would give `e` logical type: a comparison, a logical
/// operator, `is.na`, `%in%` or TRUE/FALSE.
fn is_logical(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Bool(_) => true,
        ExprKind::Unary { op, .. } => matches!(op, UnaryOp::Not),
        ExprKind::Binary { op, .. } => matches!(
            op,
            BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Gt
                | BinaryOp::Le
                | BinaryOp::Ge
                | BinaryOp::And
                | BinaryOp::AndAnd
                | BinaryOp::Or
                | BinaryOp::OrOr
                | BinaryOp::In
        ),
        ExprKind::Call { func, .. } => matches!(
            func.as_str(),
            "is.na"
                | "is.finite"
                | "is.infinite"
                | "is.nan"
                | "complete.cases"
                | "duplicated"
                | "grepl"
                | "startsWith"
                | "endsWith"
        ),
        _ => false,
    }
}

/// The key of a data frame step's integer column in [`integer_steps`]'s
/// set, which no step name can equal.
fn column_key(step: &str, column: &str) -> String {
    format!("{step}${column}")
}

/// The columns of `data.frame(name = value, ...)` that R holds as
/// integers (`id = 1:24`, `n = c(2L, 3L)`): `d$id` is then an integer as
/// it is in R.
fn integer_columns(ints: &Integers, e: &Expr) -> Vec<String> {
    let ExprKind::Call { func, args, .. } = &e.kind else {
        return Vec::new();
    };
    if func != "data.frame" {
        return Vec::new();
    }
    args.iter()
        .filter_map(|a| {
            let name = a.name.as_deref()?;
            (!matches!(name, "stringsAsFactors" | "check.names" | "row.names")
                && ints.is_integer(&a.value))
            .then(|| name.to_string())
        })
        .collect()
}

/// The steps whose values are integer vectors: a loop's when its body is an
/// integer scalar (its value packs them into a vector). A data frame
/// step's integer columns are in the set too, as `step$column`.
pub fn integer_steps(wf: &Workflow) -> HashSet<String> {
    let mut out = HashSet::new();
    // Steps read each other in any order in the file: settle by repeating.
    loop {
        let before = out.len();
        for s in &wf.steps {
            if out.contains(&s.name) {
                continue;
            }
            let ints = Integers {
                file: &wf.file,
                steps: &out,
                locals: &no_locals,
            };
            let integer = match &s.body {
                StepBody::Expr(e) => ints.is_integer(e),
                StepBody::Loop(l) => {
                    let over_integers = ints.is_integer(&l.range);
                    let var = |n: &str| (n == l.var).then_some(over_integers);
                    let local = Integers {
                        locals: &var,
                        ..ints
                    };
                    local.is_integer(&l.body)
                }
            };
            let columns = match &s.body {
                StepBody::Expr(e) => integer_columns(&ints, e),
                StepBody::Loop(_) => Vec::new(),
            };
            if integer {
                out.insert(s.name.clone());
            }
            for col in columns {
                out.insert(column_key(&s.name, &col));
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// R's integer overflow on `data`, the result of `+ - *` on integers:
/// every value out of range becomes NA. True when any did.
pub fn overflow(data: &mut [f64]) -> bool {
    let mut any = false;
    for x in data.iter_mut() {
        // An infinity is no overflow of finite integers: an operand was a
        // double after all (R's max(integer(0)) is -Inf, a double).
        if x.abs() > INT_MAX && x.is_finite() {
            *x = crate::kernels::value::NA;
            any = true;
        }
    }
    any
}
