//! The kernels called directly: values, shapes and errors.
//!
//! One test binary for the group: each binary links the whole library.

#[path = "../common/mod.rs"]
mod common;

mod arith;
mod clustering;
mod data;
mod htest;
mod linalg;
mod linalg_blocked;
mod lm;
mod svd_dc;
