//! Cost models, priors, the history store and path keys.
//!
//! One test binary for the group: each binary links the whole library.

#[path = "../common/mod.rs"]
mod common;

mod history;
mod model;
mod paths;
mod predict;
mod prior;
