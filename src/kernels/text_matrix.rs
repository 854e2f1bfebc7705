//! A character matrix handed to a function of text vectors. R's text
//! functions come in two kinds: those that drop every attribute (`paste`,
//! `sprintf`, `grepl`, `match`: R reads the matrix as its vector) and those
//! that keep them (`toupper`, `nchar`, `sub`, `substr`: the value keeps the
//! matrix's dim, and `names::carry` puts its dimnames back). Neither kind's
//! kernels need to know character matrices: they are given the vector, and
//! the second kind's value is shaped as the matrix again.

use std::cell::RefCell;

use nalgebra::DMatrix;

use super::args::Args;
use super::{Ctx, Kernel, KernelError, Type, Value};

/// Functions that read a character matrix as its vector (column-major)
/// and return no dim, as R's do.
const FLATTENS: &[&str] = &[
    "paste",
    "paste0",
    "sprintf",
    "nzchar",
    "startsWith",
    "endsWith",
    "grepl",
    "grep",
    "regexpr",
    "gregexpr",
    "regexec",
    "strsplit",
    "strtoi",
    "strrep",
    "rev",
    "sort",
    "order",
    "rep",
    "rep_len",
    "match",
    "%in%",
    "is.element",
    "setdiff",
    "union",
    "intersect",
    "table",
    "factor",
    "as.factor",
    "as.numeric",
    "as.double",
    "as.integer",
    "as.character",
    "as.logical",
    "sQuote",
    "dQuote",
    "shQuote",
    "make.names",
    "make.unique",
    "max",
    "min",
    "range",
    "sum",
    "prod",
    "sample",
    "xtfrm",
    "rle",
];

/// Functions whose value keeps the dim of a character matrix given as
/// their formal `.1`, when the value is as long as it.
const KEEPS: &[(&str, &str)] = &[
    ("toupper", "x"),
    ("tolower", "x"),
    ("casefold", "x"),
    ("nchar", "x"),
    ("trimws", "x"),
    ("substr", "x"),
    ("substring", "text"),
    ("sub", "x"),
    ("gsub", "x"),
    ("chartr", "x"),
    ("encodeString", "x"),
    ("format", "x"),
    ("formatC", "x"),
    ("is.na", "x"),
];

fn is_text_matrix(v: &Value) -> bool {
    matches!(super::names::bare(v), Value::StrMat(_))
}

/// The formal whose matrix shapes `func`'s value, for a function that
/// keeps the dim.
pub(super) fn kept_formal(func: &str) -> Option<&'static str> {
    KEEPS.iter().find(|(f, _)| *f == func).map(|(_, x)| *x)
}

/// Whether `func` reads a character matrix as its vector.
fn flattens(func: &str) -> bool {
    FLATTENS.contains(&func)
}

/// `k` on `args` with every character matrix as its vector, the value
/// shaped as the matrix where R keeps its dim; `None` when `k` is no
/// function of text vectors or no argument is a character matrix.
pub(super) fn call_around(
    k: &Kernel,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Option<Result<Value, KernelError>> {
    let kept = kept_formal(k.name);
    if kept.is_none() && !flattens(k.name) {
        return None;
    }
    // Each character matrix among the arguments and its vector.
    let flat: RefCell<Vec<(*const Value, Value)>> = RefCell::new(Vec::new());
    args.map(|v| {
        if let Value::StrMat(m) = super::names::bare(v) {
            flat.borrow_mut()
                .push((*v as *const Value, Value::Str(m.as_slice().to_vec())));
        }
    });
    let flat = flat.into_inner();
    if flat.is_empty() {
        return None;
    }
    let dims = kept
        .and_then(|x| args.get_if_formal(x))
        .filter(|v| is_text_matrix(v))
        .and_then(Value::dims);
    let given: Args<&Value> = args.map(|v| {
        flat.iter()
            .find(|(p, _)| std::ptr::eq(*p, *v))
            .map_or(*v, |(_, f)| f)
    });
    let out = (k.eval)(&given, ctx);
    Some(out.map(|v| match dims {
        Some(d) => shaped(v, d),
        None => v,
    }))
}

/// A vector value shaped as a `d` matrix when it has as many elements.
fn shaped(v: Value, (r, c): (usize, usize)) -> Value {
    if v.len() != r * c {
        return v;
    }
    match v {
        Value::Str(s) => Value::StrMat(DMatrix::from_vec(r, c, s)),
        Value::Num(x) => Value::Mat(DMatrix::from_vec(r, c, x)),
        Value::Bool(b) => Value::BoolMat(DMatrix::from_vec(r, c, b)),
        other => other,
    }
}

/// Shape inference's side of [`call_around`]: the argument types with
/// every character matrix as a character vector, and the dims the value
/// keeps, when it does.
/// A matrix's rows and columns as shape inference knows them.
pub type Dims = (Option<usize>, Option<usize>);

pub fn types_around(
    func: &str,
    typed: Vec<(Option<String>, Type)>,
) -> (Vec<(Option<String>, Type)>, Option<Dims>) {
    let kept = kept_formal(func);
    if kept.is_none() && !flattens(func) {
        return (typed, None);
    }
    // The matrix that shapes the value: the one argument that is a
    // character matrix, named as the formal or else first.
    let dims = kept.and_then(|x| {
        typed
            .iter()
            .find(|(n, t)| matches!(t, Type::StrMat { .. }) && n.as_deref().is_none_or(|n| n == x))
            .and_then(|(_, t)| t.dims())
    });
    let typed = typed
        .into_iter()
        .map(|(n, t)| match t {
            Type::StrMat { .. } => {
                let len = t.len();
                (n, Type::Str { len, value: None })
            }
            t => (n, t),
        })
        .collect();
    (typed, dims)
}

/// The value's type shaped as the matrix it keeps the dim of.
pub fn shaped_type(t: Type, dims: Option<Dims>) -> Type {
    let Some((rows, cols)) = dims else {
        return t;
    };
    let fits = |len: Option<usize>| match (len, rows.zip(cols)) {
        (Some(l), Some((r, c))) => l == r * c,
        _ => true,
    };
    match t {
        Type::Str { len, .. } if fits(len) => Type::StrMat { rows, cols },
        Type::Num { len, .. } if fits(len) => Type::Mat { rows, cols },
        Type::Bool { len, .. } if fits(len) => Type::BoolMat { rows, cols },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_dims_shape_the_value_type() {
        let m = Type::StrMat {
            rows: Some(2),
            cols: Some(3),
        };
        let (typed, dims) = types_around("toupper", vec![(None, m.clone())]);
        assert_eq!(
            typed[0].1,
            Type::Str {
                len: Some(6),
                value: None
            }
        );
        assert_eq!(dims, Some((Some(2), Some(3))));
        let t = shaped_type(
            Type::Str {
                len: Some(6),
                value: None,
            },
            dims,
        );
        assert_eq!(t, m);
        let (_, dims) = types_around("paste0", vec![(None, m)]);
        assert_eq!(dims, None);
    }
}
