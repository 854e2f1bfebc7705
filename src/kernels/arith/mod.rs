//! Operators and elementary matrix functions: `+ - * / ^` (element-wise
//! with R's recycling), `%*%`, `crossprod`, `t`, `diag` and `:`.
//!
//! Each shape rule folds constants with the same code the evaluator runs,
//! so `1200 * 1200` is known to be 1440000 before anything executes.

mod bind;
mod math;
mod matrix;
mod ops;

use super::Kernel;

pub(super) static KERNELS: &[Kernel] = &[
    ops::kernel("+"),
    ops::kernel("-"),
    ops::kernel("*"),
    ops::kernel("/"),
    ops::kernel("^"),
    ops::COLON,
    matrix::MATPROD,
    matrix::CROSSPROD,
    matrix::TRANSPOSE,
    matrix::DIAG,
    math::SQRT,
    math::EXP,
    math::LOG,
    math::ABS,
    math::MIN,
    math::MAX,
    math::ROUND,
    bind::CBIND,
    bind::RBIND,
];
