//! Sequential loops inside a step: `for`, `while`, `repeat`, `break` and
//! `next`, in steps and in closures. tests/fixtures/workflows/sequential.toml
//! runs, and every step must agree with what R computed for the same text
//! (tests/fixtures/r/sequential.R wrote sequential.json), the random steps
//! after a loop that draws included. What R refuses, flowcast refuses with
//! R's message (sequential_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn sequential_workflow_matches_r() {
    r_json::assert_matches_r("sequential");
}

/// Each case of sequential_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("sequential_errors");
}

/// A loop's errors point into the step: the line and column of the call
/// that failed inside the body.
#[test]
fn an_error_inside_a_loop_names_where() {
    common::assert_refused_saying(
        "",
        &[
            (
                "a = '{ s <- 0; for (i in 1:3) s <- s + log(-1 + \"a\"); s }'",
                "non-numeric argument to binary operator",
            ),
            (
                "a = '{ for (i in 1:3) x <- undefined_thing + i; 1 }'",
                "undefined_thing",
            ),
        ],
    );
}

/// The types `check` infers for what a loop leaves behind: each local the
/// body assigns takes what every iteration may make of it (a value that
/// is a number before and after stays one; one that may be a logical or
/// a number is not known), and the step's value follows.
#[test]
fn types_after_a_loop_hold_for_every_iteration() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/workflows/sequential.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let wf = flowcast::workflow::parse(flowcast::diagnostic::SourceFile::new(
        "sequential.toml",
        text.as_str(),
    ))
    .unwrap();
    let g = flowcast::graph::build(&wf).unwrap();
    let ty = |step: &str| g.task(step).unwrap().ty.describe();
    for (step, want) in [
        ("sum_for", "num[1]"),
        ("var_after", "num[1]"),
        ("fill_mat", "mat[3x4]"),
        ("over_factor", "chr[1]"),
        ("while_newton", "num[2]"),
        ("while_halve", "num[2]"),
        ("nested_break", "num[1]"),
        // `hit <- NA` before, `hit <- i` before a break: either.
        ("break_first", "?"),
        // Grown from NULL: nothing is known of its length or kind.
        ("grow", "?"),
        // Filled at 1, 2, ..., n in order: n elements, or more if it had.
        ("fill_squares", "num[5]"),
        ("fill_longer", "num[8]"),
    ] {
        assert_eq!(ty(step), want, "{step}");
    }
}
