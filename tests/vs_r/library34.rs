//! R's arrays of more than two dimensions: `array`, `dim` and `dim<-`,
//! `x[i, j, k]` with R's drop (ArraySubset), `x[i, j, k] <- v`
//! (ArrayAssign, in place inside a loop), `apply` over any margins
//! (apply.R), `aperm` (do_aperm), `colSums` and kin with `dims`, and the
//! arithmetic, comparisons and Math functions that keep the dimensions.
//! The workflow tests/fixtures/workflows/library34.toml runs, and every
//! step must agree with what R computed for the same expression
//! (tests/fixtures/r/library34.R wrote library34.json). What R refuses,
//! flowcast refuses with R's message (library34_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library34_workflow_matches_r() {
    r_json::assert_matches_r("library34");
}

/// Each case of library34_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library34_errors");
}

/// What R accepts and flowcast cannot hold is refused naming it, never run
/// as something else: dimnames on an array, text in an array, apply's list
/// results over several margins.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "x = 'array(1:24, c(2, 3, 4))'\n",
        &[
            (
                "a = 'array(1:8, c(2, 2, 2), dimnames = list(c(\"a\", \"b\"), NULL, NULL))'",
                "carry no dimnames",
            ),
            (
                "a = '{ z <- x; z[1, 1, 1] <- \"a\"; z }'",
                "flowcast's arrays hold numbers or logicals",
            ),
            (
                "a = 'apply(x, c(1, 2), function(v) v[v > 14])'",
                "flowcast cannot hold apply's list of results with dimensions",
            ),
        ],
    );
}

/// The run's table shows an array by its dimensions, and `check` types
/// an array's steps as unknown rather than as a vector or a matrix.
#[test]
fn an_array_is_shown_by_its_dimensions() {
    let steps = "x = 'array(1:24, c(2, 3, 4))'\n\
                 y = 'x > 3'\n\
                 s = 'sum(x)'";
    let (_dir, path) = common::steps_workflow(steps);
    let out = common::flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{all}");
    assert!(all.contains("arr[2x3x4]"), "{all}");
    assert!(all.contains("lgl arr[2x3x4]"), "{all}");
    assert!(all.contains("300"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "array(1:24, c(2, 3, 4))",
            "array(TRUE, c(1, 1, 2))",
            "array(0, c(0, 2, 2))",
            "c(3, 2, 1)",
        ],
    ]
    .concat();
    let calls = [
        "array(1:8, X)",
        "array(X, c(2, 2, 2))",
        "array(1:24, c(2, 3, 4))[X, 1, 1]",
        "array(1:24, c(2, 3, 4))[1, X, 2, drop = FALSE]",
        "{ z <- array(1:24, c(2, 3, 4)); z[1, X, 1] <- 0; z }",
        "{ z <- array(1:24, c(2, 3, 4)); z[1, 2, 3] <- X; z }",
        "{ z <- X; dim(z) <- c(2, 1, 2); z }",
        "apply(array(1:24, c(2, 3, 4)), X, sum)",
        "apply(X, c(1, 3), sum)",
        "aperm(array(1:24, c(2, 3, 4)), X)",
        "aperm(X, c(3, 2, 1))",
        "colSums(array(1:24, c(2, 3, 4)), dims = X)",
        "rowMeans(X)",
        "dim(X)",
        "X + array(1:8, c(2, 2, 2))",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
