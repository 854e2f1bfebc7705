//! The tests' formula methods as `model.frame` feeds them: `subset`
//! evaluated among the data's columns and `na.action` applied (`na.omit`
//! by default, `na.pass`, `na.fail`) before the default method, for t,
//! Wilcoxon, F, Ansari-Bradley, Kruskal-Wallis, Bartlett, Fligner, one-way
//! and Friedman tests; and `kernapply` of a series dated where R's
//! `kernapply.ts` dates it, a vector's names and a matrix's dimnames kept,
//! and `ts` of a matrix naming its columns. The workflow
//! tests/fixtures/workflows/library64.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library64.R wrote library64.json); what R refuses,
//! flowcast refuses with R's message (library64_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library64_workflow_matches_r() {
    r_json::assert_matches_r("library64");
}

/// Each case of library64_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library64_errors");
}
