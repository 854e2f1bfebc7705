//! Gaps earlier sweeps left: sapply's `simplify = "array"`, vapply with a
//! matrix FUN.VALUE, replicate's and `simplify2array(higher = TRUE)`'s
//! arrays of three dimensions; PCRE's look-ahead, look-behind and
//! back-references under `perl = TRUE` in grepl, grep, sub, gsub,
//! regexpr, gregexpr, regmatches and strsplit; `rm()` in `within()`; a
//! `function(...)` inside do.call's list and in Map and Reduce; and
//! `ties = list("ordered", f)` of approx, approxfun and spline. The
//! workflow tests/fixtures/workflows/library73.toml runs, and every step
//! must agree with what R computed for the same expression
//! (tests/fixtures/r/library73.R wrote library73.json); what R refuses,
//! flowcast refuses with R's message (library73_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library73_workflow_matches_r() {
    r_json::assert_matches_r("library73");
}

/// Each case of library73_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library73_errors");
}
