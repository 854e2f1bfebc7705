//! Logical matrices (`m > 0`) outside the functions that read logicals.
//!
//! R's numeric functions read a logical matrix as a numeric one (TRUE 1,
//! FALSE 0), keeping its dims: `colSums(m > 0)`, `m * (m > 0)`. Rather than
//! teach every kernel a second matrix type, a call hands such kernels the
//! numeric matrix, before shape inference and before evaluation alike; only
//! the kernels listed here see logical matrices as they are.

use nalgebra::DMatrix;

use super::value::logical_f64;
use super::{KernelError, Type, Value};

/// Kernels that read a logical matrix as logicals (or only its shape).
const KEEPS_LOGICAL_MATRIX: &[&str] = &[
    "==",
    "!=",
    "<",
    ">",
    "<=",
    ">=",
    "&",
    "|",
    "!",
    "&&",
    "||",
    "xor",
    "isTRUE",
    "isFALSE",
    "%in%",
    "is.element",
    "NROW",
    "NCOL",
    "which",
    "any",
    "all",
    "is.na",
    "is.finite",
    "is.infinite",
    "is.nan",
    // Only the shape is read.
    "row",
    "col",
    // A logical matrix is compared as one, or refused as R refuses it.
    "isSymmetric",
    "stopifnot",
    // A logical NA becomes complex NA in both parts (ComplexFromLogical),
    // where the number NA keeps 0 as its imaginary part.
    "fft",
    "mvfft",
    "as.complex",
    "bitwAnd",
    "bitwOr",
    "bitwXor",
    "bitwNot",
    "bitwShiftL",
    "bitwShiftR",
    "as.list",
    "ifelse",
    "length",
    "dim",
    "nrow",
    "ncol",
    "c",
    "rev",
    "head",
    "tail",
    "rep",
    "rep_len",
    "rep.int",
    "drop",
    "asplit",
    "structure",
    "xtfrm",
    "unique",
    "t",
    "sum",
    "mean",
    "names",
    "setNames",
    "colnames",
    "rownames",
    "paste",
    "paste0",
    "tabulate",
    "table",
    "anyNA",
    "identity",
    "sapply",
    "lapply",
    "vapply",
    "apply",
    "[<-",
    "replace",
    "[[<-",
    "$<-",
    "names<-",
    "colnames<-",
    "dim<-",
    "dimnames<-",
    "is.na<-",
    "aperm",
    "slice.index",
    "prettyNum",
    "nzchar",
    "Position",
    "Find",
    "setequal",
    "anyDuplicated",
];

/// Type tests and coercions, which must see a logical matrix as one
/// (`is.logical(m > 0)` is TRUE, `as.vector(m > 0)` logical), and sweep,
/// which hands it to its FUN.
const TYPE_FUNCTIONS: &[&str] = &[
    "is.logical",
    "is.numeric",
    "is.integer",
    "is.double",
    "is.list",
    "is.vector",
    "is.matrix",
    "is.null",
    "is.character",
    "is.factor",
    "is.ordered",
    "is.data.frame",
    "typeof",
    "mode",
    "storage.mode",
    "class",
    "oldClass",
    "inherits",
    "attr",
    "attributes",
    "identical",
    "all.equal",
    "interaction",
    "combn",
    "qqnorm",
    "jitter",
    "as.logical",
    "as.vector",
    "as.data.frame",
    "sweep",
];

/// Whether `func` takes logical matrices as they are.
pub fn keeps_logical_matrix(func: &str) -> bool {
    KEEPS_LOGICAL_MATRIX.contains(&func) || TYPE_FUNCTIONS.contains(&func)
}

/// Whether `func` beside a complex operand takes logical matrices as they
/// are: R's arithmetic then reads a logical NA as complex NA in both parts
/// (ComplexFromLogical), where the number NA would keep 0 as its
/// imaginary part.
pub fn keeps_logical_matrix_beside_complex(func: &str) -> bool {
    matches!(func, "+" | "-" | "*" | "/")
}

/// The numeric matrix R's arithmetic reads a logical matrix as.
pub fn numeric_matrix(v: &Value) -> Option<Value> {
    match v {
        Value::BoolMat(m) => Some(Value::Mat(DMatrix::from_iterator(
            m.nrows(),
            m.ncols(),
            m.iter().map(|&b| logical_f64(b)),
        ))),
        _ => None,
    }
}

/// [`numeric_matrix`] for shape inference.
pub fn numeric_matrix_type(t: &Type) -> Option<Type> {
    match t {
        Type::BoolMat { rows, cols } => Some(Type::Mat {
            rows: *rows,
            cols: *cols,
        }),
        _ => None,
    }
}

/// `if`'s condition as R reads it (`asLogicalNoNA` in R's eval.c): one
/// value, not NA; numbers are TRUE when not 0, strings only when R's
/// logical spellings.
pub fn condition(v: &Value) -> Result<bool, &'static str> {
    let v = super::names::bare(v);
    if v.is_empty() {
        return Err("argument is of length zero");
    }
    if v.len() > 1 {
        return Err("the condition has length > 1");
    }
    let not_logical = "argument is not interpretable as logical";
    let b = match v {
        Value::Bool(_) | Value::BoolMat(_) => v.as_logicals().and_then(|l| l[0]),
        Value::Num(_) | Value::Mat(_) => v
            .as_f64_slice()
            .and_then(|x| (!x[0].is_nan()).then_some(x[0] != 0.0)),
        // R reads a factor as its 1-based codes: never 0.
        Value::Factor(f) => f.codes[0].map(|_| true),
        Value::Str(s) => match s[0].as_str() {
            "TRUE" | "true" | "True" | "T" => Some(true),
            "FALSE" | "false" | "False" | "F" => Some(false),
            _ => return Err(not_logical),
        },
        _ => return Err(not_logical),
    };
    match (b, v) {
        (Some(b), _) => Ok(b),
        (None, Value::Bool(_) | Value::BoolMat(_)) => Err("missing value where TRUE/FALSE needed"),
        (None, _) => Err(not_logical),
    }
}

/// [`condition`] as a kernel's error, for R functions whose options are
/// read by `if`.
pub(crate) fn if_condition(v: &Value) -> Result<bool, KernelError> {
    condition(v).map_err(KernelError::new)
}

/// `if (arg)` of an optional argument, `default` when it is not given.
pub(crate) fn if_given(v: Option<&Value>, default: bool) -> Result<bool, KernelError> {
    v.map_or(Ok(default), if_condition)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_as_r_reads_them() {
        assert_eq!(condition(&Value::scalar(2.5)), Ok(true));
        assert_eq!(condition(&Value::scalar(0.0)), Ok(false));
        assert_eq!(condition(&Value::string("T")), Ok(true));
        let first_level = crate::kernels::value::Factor {
            codes: vec![Some(0)],
            levels: vec!["a".into()],
            ordered: false,
        };
        assert_eq!(condition(&Value::Factor(first_level)), Ok(true));
        assert_eq!(condition(&Value::string("false")), Ok(false));
        assert_eq!(
            condition(&Value::string("yes")),
            Err("argument is not interpretable as logical")
        );
        assert_eq!(
            condition(&Value::Bool(vec![None])),
            Err("missing value where TRUE/FALSE needed")
        );
        assert_eq!(
            condition(&Value::scalar(f64::NAN)),
            Err("argument is not interpretable as logical")
        );
        assert_eq!(
            condition(&Value::Num(vec![])),
            Err("argument is of length zero")
        );
        assert_eq!(
            condition(&Value::Bool(vec![Some(true), Some(false)])),
            Err("the condition has length > 1")
        );
    }
}
