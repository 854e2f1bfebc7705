//! Gaps an R user meets, closed as R 4.2.2 has them: `apply` over both
//! margins (`c(1, 2)`, `1:2`, `c(2, 1)`) and R's reading of MARGIN,
//! `Negate(f)` where a function is taken (and called where written),
//! `utf8ToInt` and `intToUtf8`, and arithmetic on complex numbers
//! (`2i`, `+ - * / ^`, `== !=`, `abs sqrt exp log`, `sum prod mean`). The workflow
//! tests/fixtures/workflows/gaps.toml runs and every step must agree with
//! what R computed for the same expression (tests/fixtures/r/gaps.R wrote
//! gaps.json); what R refuses, flowcast refuses with R's message
//! (gaps_errors.json).

use crate::common;
use common::text;
use common::{flowcast, r_json, steps_workflow as workflow};

#[test]
fn gaps_workflow_matches_r() {
    r_json::assert_matches_r("gaps");
}

#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("gaps_errors");
}

/// The run's output (stderr and stdout) of one workflow of `steps`.
fn run(steps: &str) -> (bool, String) {
    let (_dir, path) = workflow(steps);
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    (out.status.success(), text(&out.stderr) + &text(&out.stdout))
}

/// What R answers with a 3-dimensional array, a list matrix or a character
/// matrix, shapes flowcast does not have, is refused saying so.
#[test]
fn shapes_flowcast_lacks_are_refused() {
    let m = "m = 'matrix(c(1, 2, 3, 4, 5, 6), 2, 3)'\n";
    let cases = [
        (
            "a = 'apply(m, 1:2, function(x) c(x, -x))'",
            "3-dimensional array",
        ),
        ("a = 'apply(m, 1:2, function(x) seq_len(x))'", "list matrix"),
        ("a = 'apply(m, 1:2, function(x) list(x))'", "list matrix"),
        (
            "a = 'apply(m, c(1, 2), sum, simplify = FALSE)'",
            "list matrix",
        ),
        (
            "a = 'apply(m, c(1, 2), function(x) if (x > 3) NULL else x)'",
            "list matrix",
        ),
        ("a = 'intToUtf8(c(65, -1))'", "negative code point"),
    ];
    common::assert_refused_saying(m, &cases);
}

/// Odd values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "character(0)",
        "NA",
        "-1",
        "0",
        "c(NaN, Inf)",
        "1e308",
        "\"a\"",
        "list(1, 2)",
    ];
    let calls = [
        "apply(matrix(c(1, 2, 3, 4), 2), X, sum)",
        "apply(X, c(1, 2), sum)",
        "apply(matrix(c(1, 2, 3, 4), 2), 1:2, function(v) X)",
        "utf8ToInt(X)",
        "intToUtf8(X)",
        "intToUtf8(X, multiple = TRUE)",
        "intToUtf8(65, multiple = X)",
        "Filter(Negate(is.na), X)",
        "X + 1i",
        "1i / X",
        "X ^ (1 + 1i)",
        "sum(X, 1i)",
        "prod(1i, X)",
        "mean(c(1i, X))",
        "log(1i, X)",
        "sqrt(as.complex(X))",
        "X == 1i",
    ];
    for call in calls {
        for x in odd {
            let expr = call.replace('X', x);
            let (_, all) = run(&format!("a = '{expr}'"));
            assert!(!all.contains("panicked"), "{expr}: {all}");
            assert!(!all.contains("internal error"), "{expr}: {all}");
        }
    }
}
