//! Formulas built from text: `as.formula(paste(...))`, `formula(text)`,
//! `reformulate(termlabels, response, intercept)` and `formula(fit)`,
//! evaluated where the model function reads them, among its data's
//! columns, as R evaluates a formula's variables in `model.frame`: in
//! loops over variable names (`sapply(vars, function(v) lm(reformulate(v,
//! "y"), data = d))`), in blocks, with `.`, for lm, glm, aov, update and
//! the tests' formula methods. The workflow
//! tests/fixtures/workflows/library68.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library68.R wrote library68.json); what R refuses,
//! flowcast refuses with R's message (library68_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library68_workflow_matches_r() {
    r_json::assert_matches_r("library68");
}

/// Each case of library68_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library68_errors");
}
