//! upper.tri and lower.tri (and as an index), chol2inv, mahalanobis,
//! findInterval, rowsum, embed, max.col, filter, convolve, lowess,
//! polyroot, complex, sort.int, casefold and strtoi. The workflow
//! tests/fixtures/workflows/library4.toml runs, and every step must equal
//! what R computed for the same expression (tests/fixtures/r/library4.R
//! wrote library4.json) bit for bit: the ports (dpotri, findInterval2,
//! R_max_col, cfilter and rfilter, clowess, cpoly) round where R rounds,
//! and max.col's random ties draw from the seed's stream as R's do. What
//! R refuses, flowcast refuses with R's message (library4_errors.json).

use crate::common;
use common::text;
use common::{flowcast, steps_workflow as workflow};

/// Every step's JSON against R's, bit for bit.
#[test]
fn library4_workflow_matches_r_bit_for_bit() {
    common::r_json::assert_bit_for_bit("library4");
}

/// Each case of library4_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    common::r_json::assert_refusals_are_rs("library4_errors");
}

use common::r_json::assert_warns_once as warns;

/// rowsum warns of NA groups, and mahalanobis of a center that does not
/// fit the columns (sweep's warnings), as R does.
#[test]
fn warnings_are_rs() {
    warns(
        "a = 'rowsum(c(1, 2, 3), c(1, NA, 1))'",
        &["missing values for 'group'"],
    );
    warns(
        "a = 'mahalanobis(matrix(1:6, 2, 3), c(1, 2), diag(3))'",
        &["STATS does not recycle exactly across MARGIN"],
    );
    warns(
        "a = 'mahalanobis(matrix(1:6, 2, 3), c(1, 2, 3, 4), diag(3))'",
        &["STATS is longer than the extent of 'dim(x)[MARGIN]'"],
    );
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    for expr in [
        "upper.tri(list(1, 2))",
        "lower.tri(matrix(0, 3, 0))",
        "embed(numeric(0), 1)",
        "embed(c(1, 2), NA)",
        "findInterval(NA, c(1, 2))",
        "findInterval(c(1, 2), c(-Inf, Inf))",
        "rowsum(numeric(0), numeric(0))",
        "max.col(matrix(0, 0, 3))",
        "max.col(matrix(NaN, 2, 2), \"last\")",
        "filter(matrix(0, 0, 2), 1)",
        "filter(c(1, 2), 1, method = \"recursive\", init = matrix(1, 1, 3))",
        "convolve(numeric(0), numeric(0))",
        "convolve(1, numeric(0), type = \"open\")",
        "lowess(c(NaN, 1, 2), c(1, 2, 3), delta = 0)",
        "lowess(c(1, 1, 1), c(1, 2, 3))",
        "polyroot(c(0, 0, 0))",
        "polyroot(c(1e300, 1e-300, 1e300))",
        "chol2inv(matrix(NaN, 2, 2))",
        "mahalanobis(numeric(0), numeric(0), matrix(0, 0, 0))",
        "complex(1e15)",
        "complex(modulus = numeric(0), argument = 1)",
        "strtoi(c(\"99999999999999999999\", \"-\", \"0x\"), 16)",
        "sort.int(c(1, 2), partial = 1)",
    ] {
        let (_dir, path) = workflow(&format!("a = '{expr}'"));
        let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
        let all = text(&out.stderr) + &text(&out.stdout);
        assert!(!all.contains("panicked"), "{expr}: {all}");
        assert!(!all.contains("internal error"), "{expr}: {all}");
    }
}

/// max.col draws from the random stream: `flowcast functions` says so, as
/// it says of sample.
#[test]
fn max_col_is_listed_as_random() {
    let out = flowcast(&["functions", "max.col"]);
    let listing = text(&out.stdout);
    assert!(
        listing.contains("`max.col(m, [ties.method])` (draws from the random stream)"),
        "{listing}"
    );
}
