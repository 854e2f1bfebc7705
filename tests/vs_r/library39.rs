//! An ecologist's bird survey moved from R: simulated point counts in a
//! data frame, tidied (merge, aggregate, split/sapply/vapply, ordering,
//! cut, tables), a site-by-species matrix summarised (apply, sweep,
//! scale, diversity, distances), occupancy modelled with a binomial glm,
//! tested (chi-squared, Fisher, three correlations, p.adjust), its
//! distributions summarised (quantile types 1-9, ecdf, density) and
//! reported as text. The workflow tests/fixtures/workflows/library39.toml
//! runs, and every step must agree with what R computed for the same
//! expression (tests/fixtures/r/library39.R wrote library39.json). What
//! R refuses, flowcast refuses with R's message (library39_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library39_workflow_matches_r() {
    r_json::assert_matches_r("library39");
}

/// Each case of library39_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library39_errors");
}

/// Odd values in the arguments this campaign touched give a value or an
/// error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "list(1, \"a\")",
            "data.frame(a = c(1, 2), b = c(3, 4))",
            "c(a = 1, b = 2)",
        ],
    ]
    .concat();
    let calls = [
        "scale(X)",
        "attr(scale(X), \"scaled:center\")",
        "tabulate(c(1, 2), nbins = X)",
        "do.call(sum, X)",
        "sapply(X, function(v) c(a = 1, b = 2))",
        "vapply(X, function(v) 1, c(p = 0))",
        "sapply(list(X, X), colMeans)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
