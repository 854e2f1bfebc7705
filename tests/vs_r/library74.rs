//! Functions real analysis workflows call, as R 4.2.2 gives them: the
//! operators `%o%` (outer, dimnames from names) and `%x%` (kronecker);
//! Vectorize of a function written in place, of a built-in function
//! (`Vectorize(rep.int)`) and of a local; type.convert of text, lists and
//! data frames; rapply; hasName, glob2rx, adist, agrep and agrepl; S3
//! methods called by their full name (`summary.lm(fit)`,
//! `mean.default(x)`); approx with ties given as a list. The workflow
//! tests/fixtures/workflows/library74.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library74.R wrote library74.json); what R refuses,
//! flowcast refuses with R's message (library74_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library74_workflow_matches_r() {
    r_json::assert_matches_r("library74");
}

/// Each case of library74_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library74_errors");
}
