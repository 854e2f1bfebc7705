//! Benchmarks of flowcast's heavy kernels, optionally against R in the same
//! run, for `flowcast bench`.

pub mod kernels;
pub mod schedule;
