//! `pairwise.prop.test`, `lm.wfit`, `hasTsp`, `spec.taper` (which
//! spec.pgram tapers with), `strptime` and R's terms idioms
//! (`attr(terms(f), "term.labels")`, `labels`, `delete.response(terms(fit))`
//! in `model.frame` and `model.matrix`). The workflow
//! tests/fixtures/workflows/library67.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library67.R wrote library67.json); what R refuses,
//! flowcast refuses with R's message (library67_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library67_workflow_matches_r() {
    r_json::assert_matches_r("library67");
}

/// Each case of library67_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library67_errors");
}
