//! Logical matrices (`m > 0`) outside the functions that read logicals.
//!
//! R's numeric functions read a logical matrix as a numeric one (TRUE 1,
//! FALSE 0), keeping its dims: `colSums(m > 0)`, `m * (m > 0)`. Rather than
//! teach every kernel a second matrix type, a call hands such kernels the
//! numeric matrix, before shape inference and before evaluation alike; only
//! the kernels listed here see logical matrices as they are.

use nalgebra::DMatrix;

use super::value::logical_f64;
use super::{Type, Value};

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
    "is.matrix",
    "is.null",
    "is.character",
    "is.factor",
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
