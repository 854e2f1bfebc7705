//! Functions taking `...`, as R runs them: passing it on to built-in
//! functions, to other functions and to themselves, reading it
//! (`list(...)`, `..1`, `...length()`, `...elt(n)`), called through
//! sapply, Map and do.call, and Negate's `function(...) !f(...)`. The
//! workflow tests/fixtures/workflows/dots.toml runs, and every step must
//! equal R's (tests/fixtures/r/dots.R wrote dots.json); where no function
//! takes `...`, or it took too few values, flowcast fails with R's message
//! (dots_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn dots_workflow_matches_r() {
    r_json::assert_matches_r("dots");
}

/// Each case of dots_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("dots_errors");
}

/// A misplaced `...` or `..k` is named where it is written.
#[test]
fn misplaced_dots_are_named_where_written() {
    common::assert_refused_saying(
        "",
        &[
            ("f = 'function(x) sum(x, ...)'\na = 'f(1)'", "w.toml:2:25"),
            ("a = 'mean(..2)'", "..2 used in an incorrect context"),
        ],
    );
}
