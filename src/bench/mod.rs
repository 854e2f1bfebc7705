//! Benchmarks of flowcast's heavy kernels, optionally against R in the same
//! run, and the reproduction of the paper's section VI, for `flowcast bench`.

pub mod cluster;
pub mod kernels;
pub mod library;
pub mod loops;
pub mod paper;
pub mod priors;
pub mod rerun;
pub mod schedule;
pub mod workflows;
