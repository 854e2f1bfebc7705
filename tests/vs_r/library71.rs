//! Formulas built from text: `as.formula(paste(...))`, `formula(text)`,
//! `reformulate(termlabels, response, intercept)` and `formula(fit)`,
//! evaluated where the model function reads them, among its data's
//! columns, as R evaluates a formula's variables in `model.frame`: in
//! loops over variable names (`sapply(vars, function(v) lm(reformulate(v,
//! "y"), data = d))`), in blocks, with `.`, for lm, glm, aov, update and
//! the tests' formula methods. The workflow
//! tests/fixtures/workflows/library71.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library71.R wrote library71.json); what R refuses,
//! flowcast refuses with R's message (library71_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library71_workflow_matches_r() {
    r_json::assert_matches_r("library71");
}

/// Each case of library71_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library71_errors");
}
