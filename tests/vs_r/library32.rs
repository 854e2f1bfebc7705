//! aggregate's matrix columns and rapply. aggregate.data.frame simplifies
//! FUN's values of one length above 1 to a matrix of a row per group
//! (`byrow = TRUE`, its columns named by the first value's names), which
//! `[.data.frame` then indexes by rows; rapply follows rapply.R over
//! `do_rapply` and `do_one` of R's apply.c. The workflow
//! tests/fixtures/workflows/library32.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library32.R wrote library32.json). What R refuses,
//! flowcast refuses with R's message (library32_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library32_workflow_matches_r() {
    r_json::assert_matches_r("library32");
}

/// Each case of library32_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library32_errors");
}

/// What R accepts and flowcast cannot hold or tell is refused naming it,
/// never run as something else: values of unequal lengths (R's list
/// column), and numeric classes, whose integers flowcast cannot tell
/// apart inside a list.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "d = 'data.frame(g = c(\"a\", \"b\", \"a\"), y = c(1, 2, 3))'\n",
        &[
            (
                "a = 'aggregate(y ~ g, d, function(v) v)'",
                "numbers of one length for every group",
            ),
            (
                "a = 'aggregate(y ~ g, d, function(v) as.character(v))'",
                "numbers of one length for every group",
            ),
            (
                // A list from a step: which of its numbers are integers is not known.
                "l = 'list(1, 2L)'\na = 'rapply(l, function(x) x, classes = \"integer\")'",
                "cannot match classes = \"integer\"",
            ),
            (
                "l = 'list(1)'\na = 'rapply(l, function(x) x, classes = c(\"character\", \"numeric\"))'",
                "cannot match classes = \"numeric\"",
            ),
        ],
    );
}

/// The plan knows a flat list's rapply before the run: its length, and
/// that f's numbers flatten to numbers.
#[test]
fn shape_is_known_before_the_run() {
    let steps = "l = 'lapply(1:3, function(i) i / 2)'\n\
                 a = 'rapply(l, function(x) x * 2)'\n\
                 b = 'rapply(l, function(x) x, how = \"list\")'";
    let all = common::checked(steps);
    assert!(all.contains("num[3]"), "{all}");
    assert!(all.contains("list[3] of num[1]"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "list()",
            "list(1, list(NULL, \"a\"))",
            "data.frame(a = c(1, 2))",
            "c(\"ANY\", \"x\")",
            "function(v) c(v, v)",
        ],
    ]
    .concat();
    let calls = [
        "rapply(X, function(x) x)",
        "rapply(list(1, list(2)), X)",
        "rapply(list(1, list(2)), function(x) x, classes = X)",
        "rapply(list(1, list(2)), function(x) x, deflt = X, classes = \"character\")",
        "rapply(list(1, list(2)), function(x) x, how = X)",
        "rapply(list(1, list(2)), function(x, k) x + k, k = X)",
        "aggregate(c(1, 2, 3), by = list(c(1, 1, 2)), FUN = function(v) rep(X, 2))",
        "aggregate(X, by = list(c(1, 1, 2)), FUN = range)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
