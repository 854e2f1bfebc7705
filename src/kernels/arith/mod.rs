//! Operators and elementary matrix functions: `+ - * / ^` (element-wise
//! with R's recycling), `%*%`, `crossprod`, `t`, `diag` and `:`.
//!
//! Each shape rule folds constants with the same code the evaluator runs,
//! so `1200 * 1200` is known to be 1440000 before anything executes.

mod bind;
pub mod compare;
pub mod logic;
mod math;

pub(super) use math::fround;
mod matrix;
mod ops;

use super::Kernel;

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
    math::ABS,
    math::MIN,
    math::MAX,
    math::ROUND,
    math::LOG2,
    math::LOG10,
    math::LOG1P,
    math::EXPM1,
    math::FLOOR,
    math::CEILING,
    math::SIGN,
    math::TRUNC,
    math::SIGNIF,
    bind::CBIND,
    bind::RBIND,
];
