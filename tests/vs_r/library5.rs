//! identical, all.equal, typeof, mode, storage.mode, class, oldClass,
//! inherits, attr, attributes, combn, ppoints, qqnorm, jitter, rmultinom,
//! marginSums, margin.table and interaction. The workflow
//! tests/fixtures/workflows/library5.toml runs, and every step must equal
//! what R computed for the same expression (tests/fixtures/r/library5.R
//! wrote library5.json) bit for bit: all.equal's messages word for word,
//! jitter's and rmultinom's draws from the seed's stream as R's runif and
//! rbinom draw them. What R refuses, flowcast refuses with R's message
//! (library5_errors.json).

use crate::common;
use common::flowcast;
use common::text;

/// Every step's JSON against R's, bit for bit.
#[test]
fn library5_workflow_matches_r_bit_for_bit() {
    common::r_json::assert_bit_for_bit("library5");
}

/// Each case of library5_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    common::r_json::assert_refusals_are_rs("library5_errors");
}

use common::r_json::assert_warns_once as warns;

/// jitter of values none of which is finite warns as R's range does,
/// interaction of factors whose lengths do not fit warns as R's
/// arithmetic does, and a factor's NA pattern is recycled the same way in
/// all.equal.
#[test]
fn warnings_are_rs() {
    warns(
        "a = 'jitter(c(NA, Inf), amount = 1)'",
        &[
            "no non-missing arguments to min; returning Inf",
            "no non-missing arguments to max; returning -Inf",
        ],
    );
    warns(
        "a = 'interaction(c(\"a\", \"b\"), c(\"x\", \"y\", \"z\"))'",
        &["longer object length is not a multiple of shorter object length"],
    );
    warns(
        "a = 'all.equal(factor(c(\"a\", \"b\", \"c\")), factor(c(\"a\", NA)))'",
        &["longer object length is not a multiple of shorter object length"],
    );
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "character(0)",
        "NA",
        "list(1, \"a\")",
        "data.frame(a = 1:2)",
        "factor(c(\"a\", NA))",
        "-1",
        "1e15",
        "c(NaN, Inf)",
        "matrix(0, 0, 3)",
        "table(c(1, 1))",
        "y ~ x",
        "complex(real = 1, imaginary = 1)",
        "c(a = 1)",
        "m > 0",
    ];
    let calls = [
        "identical(X, X)",
        "identical(X, 1)",
        "all.equal(X, X)",
        "all.equal(X, 1)",
        "all.equal(1, X)",
        "all.equal(list(1), X)",
        "all.equal(X, \"a\")",
        "typeof(X)",
        "mode(X)",
        "storage.mode(X)",
        "class(X)",
        "oldClass(X)",
        "inherits(X, \"a\")",
        "attributes(X)",
        "attr(X, \"names\")",
        "combn(X, 1)",
        "combn(3, X)",
        "combn(X, 1, simplify = FALSE)",
        "ppoints(X)",
        "qqnorm(X)",
        "jitter(X)",
        "jitter(1:3, amount = X)",
        "rmultinom(X, 2, c(1, 1))",
        "rmultinom(1, X, c(1, 1))",
        "rmultinom(1, 2, X)",
        "marginSums(X, 1)",
        "marginSums(m, X)",
        "margin.table(X)",
        "interaction(X)",
        "interaction(X, c(\"a\", \"b\"))",
    ];
    common::assert_odd_inputs_do_not_panic("m = 'matrix(c(1, -2, 3, 4), 2)'\n", &calls, &odd);
}

/// jitter and rmultinom draw from the random stream: `flowcast functions`
/// says so, as it says of sample.
#[test]
fn random_functions_are_listed_as_random() {
    let out = flowcast(&["functions"]);
    let listing = text(&out.stdout);
    for f in [
        "`jitter(x, [factor], [amount])` (draws from the random stream)",
        "`rmultinom(n, size, prob)` (draws from the random stream)",
    ] {
        assert!(listing.contains(f), "{listing}");
    }
}
