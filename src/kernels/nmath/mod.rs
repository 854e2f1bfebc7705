//! Ports of R's nmath: distribution functions with R's accuracy.

pub mod qnorm;
