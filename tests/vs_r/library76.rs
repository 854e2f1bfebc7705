//! What a differential hunt with real analysis workflows found, as R
//! 4.2.2 gives it: `[` and `[[` passed as functions
//! (`sapply(strsplit(x, " "), "[", 2)`, `lapply(fits, "[[", "se")`, and
//! called by name); replicate's matrix rows named by its values' names
//! (`rownames(replicate(n, c(t = ..., w = ...)))`); and sapply, lapply,
//! vapply, mapply, Map and Filter handing FUN each element of a list with
//! its names (`sapply(xs, function(v) v["y"])` was NA); and
//! `do.call(c, list(a = 1, b = 2))` named by the list's names; split's
//! parts keeping x's names (`names(split(x, g)[[1]])` was NULL); and
//! `model.matrix(fit)` of an lm or glm fit (was refused). The workflow
//! tests/fixtures/workflows/library76.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library76.R wrote library76.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library76_workflow_matches_r() {
    r_json::assert_matches_r("library76");
}
