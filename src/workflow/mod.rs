//! The workflow language: a TOML file of R-like steps and do-all loops.

pub mod ast;

pub use ast::{Arg, BinaryOp, Expr, ExprKind, Loop, Step, StepBody, UnaryOp, Workflow};
