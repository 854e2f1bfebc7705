//! The two-sample Kolmogorov-Smirnov test with ties, infinite values among
//! them, against R (tests/fixtures/workflows/ks_ties.toml; R's values in
//! ks_ties.json, written by tests/fixtures/r/ks_ties.R).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn ks_ties_workflow_matches_r() {
    r_json::assert_matches_r("ks_ties");
}

/// R's exact p-value stops on tied infinities; so does flowcast, with
/// R's message.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("ks_ties_errors");
}
