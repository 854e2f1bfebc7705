//! A statistician's modelling and numerical routines against R 4.2.2:
//! glm with cbind responses, weights and offsets across the binomial,
//! poisson, Gamma, inverse.gaussian and quasi families and what is read
//! from the fits (summary coefficients, AIC, logLik, predict with se.fit,
//! anova, confint.default, drop1, add1, step), nls, TukeyHSD, pairwise
//! tests, power calculations, loess, smooth.spline, approx, splinefun and
//! the optimisers and solvers (optim, optimize, uniroot, integrate, nlm,
//! nlminb, polyroot). The workflow tests/fixtures/workflows/library72.toml
//! runs, and every step must agree with what R computed for the same
//! expression (tests/fixtures/r/library72.R wrote library72.json); what R
//! refuses, flowcast refuses with R's message (library72_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library72_workflow_matches_r() {
    r_json::assert_matches_r("library72");
}

/// Each case of library72_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library72_errors");
}
