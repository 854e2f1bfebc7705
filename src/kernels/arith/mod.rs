//! Operators and elementary matrix functions: `+ - * / ^` (element-wise
//! with R's recycling), `%*%`, `crossprod`, `t`, `diag` and `:`.
//!
//! Each shape rule folds constants with the same code the evaluator runs,
//! so `1200 * 1200` is known to be 1440000 before anything executes.

mod bind;
pub mod compare;
pub(crate) mod complex_ops;
mod factor_ops;
mod frame_ops;
pub mod logic;
pub(crate) mod math;

pub(super) use math::fround;
mod matrix;
pub(crate) use matrix::matmul;
pub(crate) use ops::r_pow;
pub(crate) use ops::{r_intdiv, r_mod};
pub(crate) mod ops;

use super::{Kernel, Value};

/// `a op b` for two plain numbers (`Value::Num` of length one), as the
/// operator's kernel computes it, without the call around it: a closure
/// in `sapply` runs its body once per element, and at that grain matching
/// arguments and checking room for the result cost more than the
/// arithmetic. `None` for any other operands, for `%%`, whose kernel may
/// warn, and for a range too long to make without asking for room.
pub fn scalar_op(op: &str, a: &Value, b: &Value) -> Option<Value> {
    let (Value::Num(x), Value::Num(y)) = (a, b) else {
        return None;
    };
    if x.len() != 1 || y.len() != 1 {
        return None;
    }
    match ops::Op::from_name(op) {
        Some(ops::Op::Mod) => None,
        Some(o) => ops::binary(o, x, None, y, None)
            .ok()
            .map(|(d, _)| Value::Num(d)),
        // A short range only: a long one is checked for room first.
        None if op == ":" => match ops::colon_len(x[0], y[0]) {
            Ok(n) if n <= 1 << 16 => ops::colon(x[0], y[0]).ok().map(Value::Num),
            _ => None,
        },
        None if matches!(op, "==" | "!=" | "<" | ">" | "<=" | ">=") => {
            Some(Value::Bool(compare::compare_nums(op, x, y, 1)))
        }
        None => None,
    }
}

pub(super) static KERNELS: &[Kernel] = &[
    ops::kernel("+"),
    ops::kernel("-"),
    ops::kernel("*"),
    ops::kernel("/"),
    ops::kernel("^"),
    ops::kernel("%%"),
    ops::kernel("%/%"),
    ops::COLON,
    compare::kernel("=="),
    compare::kernel("!="),
    compare::kernel("<"),
    compare::kernel(">"),
    compare::kernel("<="),
    compare::kernel(">="),
    compare::IN,
    compare::MATCH,
    logic::AND,
    logic::OR,
    logic::NOT,
    logic::AND2,
    logic::OR2,
    logic::XOR,
    logic::IS_TRUE,
    logic::IS_FALSE,
    matrix::MATPROD,
    matrix::CROSSPROD,
    matrix::TCROSSPROD,
    matrix::TRANSPOSE,
    matrix::DIAG,
    math::SQRT,
    math::EXP,
    math::LOG,
    math::LOGB,
    math::ABS,
    math::MIN,
    math::MAX,
    math::ROUND,
    math::ZAPSMALL,
    math::LOG2,
    math::LOG10,
    math::LOG1P,
    math::EXPM1,
    math::FLOOR,
    math::CEILING,
    math::SIGN,
    math::TRUNC,
    math::SIGNIF,
    compare::IS_ELEMENT,
    math::ASIN,
    math::ACOS,
    math::SINH,
    math::COSH,
    math::TANH,
    math::ASINH,
    math::ACOSH,
    math::ATANH,
    math::COSPI,
    math::SINPI,
    math::TANPI,
    math::DIGAMMA,
    math::TRIGAMMA,
    bind::CBIND,
    bind::RBIND,
];
