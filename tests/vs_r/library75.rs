//! Character matrices as R 4.2.2 gives them: made by matrix(), rbind and
//! cbind of text and numbers, do.call(rbind, strsplit(...)), outer with a
//! FUN giving text, sapply/vapply/mapply/apply, t(), array() and `dim<-`;
//! used by indexing, sub-assignment, dim and dimnames, the text functions
//! that keep the dim and those that drop it, comparisons, unique rows,
//! table, identical, all.equal, embed, toeplitz and tapply. The workflow
//! tests/fixtures/workflows/library75.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library75.R wrote library75.json); what R refuses,
//! flowcast refuses with R's message (library75_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library75_workflow_matches_r() {
    r_json::assert_matches_r("library75");
}

/// Each case of library75_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library75_errors");
}
