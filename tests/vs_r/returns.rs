//! `return(...)` in functions, as R runs it: guard clauses, a return from
//! inside `for`, nested loops, `while` and `repeat`, a returning branch of
//! an assignment, `return()` of nothing, and closures given to sapply,
//! vapply, Map and Reduce. The workflow tests/fixtures/workflows/returns.toml
//! runs (a loop step included), and every step must equal R's
//! (tests/fixtures/r/returns.R wrote returns.json); what R refuses,
//! flowcast refuses with R's message (returns_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn returns_workflow_matches_r() {
    r_json::assert_matches_r("returns");
}

/// Each case of returns_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("returns_errors");
}

/// A return outside any function is R's error at top level ("no function
/// to return from, jumping to top level", which Rscript prints for
/// `return(1)`); a return inside another call is refused, saying where a
/// return may stand. Both are found when the file is read, at the return.
#[test]
fn misplaced_returns_are_refused_where_they_stand() {
    common::assert_refused_saying(
        "",
        &[
            (
                "a = 'return(1)'",
                "no function to return from, jumping to top level",
            ),
            (
                "f = 'function(x) x + return(2)'\na = 'f(1)'",
                "flowcast runs `return(...)` where it ends the function",
            ),
            ("f = 'function(x) x + return(2)'\na = 'f(1)'", "w.toml:2:22"),
        ],
    );
}
