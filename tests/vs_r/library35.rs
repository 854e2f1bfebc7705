//! match.arg, as base R's match.arg.R: `arg` picked among `choices` by
//! pmatch (an exact match, else a unique prefix), NULL giving the first
//! choice, and `match.arg(p)` inside a function reading p's default as
//! its choices (the parser writes it in, `parser::match_arg`). The
//! workflow tests/fixtures/workflows/library35.toml runs, and every step
//! must agree with what R computed for the same expression
//! (tests/fixtures/r/library35.R wrote library35.json). What R refuses,
//! flowcast refuses with R's message (library35_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library35_workflow_matches_r() {
    r_json::assert_matches_r("library35");
}

/// Each case of library35_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library35_errors");
}

/// The plan knows match.arg's value is one string, or several with
/// `several.ok = TRUE`, and that a function's picked choice feeds a
/// `switch` of known branches.
#[test]
fn shape_is_known_before_the_run() {
    let steps = "f = 'function(type = c(\"a\", \"b\")) match.arg(type)'\n\
                 a = 'f(\"b\")'\n\
                 b = 'match.arg(c(\"a\", \"b\"), c(\"alpha\", \"beta\"), several.ok = TRUE)'";
    let all = common::checked(steps);
    assert!(all.contains("chr[1]"), "{all}");
    assert!(all.contains("chr[?]"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let calls = [
        "match.arg(X, c(\"a\", \"b\"))",
        "match.arg(\"a\", X)",
        "match.arg(\"a\", c(\"a\", \"b\"), several.ok = X)",
        "match.arg(X)",
        "(function(t = X) match.arg(t))()",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, common::ODD_VALUES);
}
