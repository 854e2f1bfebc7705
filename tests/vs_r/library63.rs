//! Base utilities and the two-sample Smirnov distribution: asplit, xtfrm,
//! data.matrix, drop, mat.or.vec, list2DF, seq.int, sort.list, pmax.int,
//! pmin.int, rep.int, structure, getElement and logb; psmirnov (exact by
//! ks.c's psmirnov2x and by the lattice-path count with ties, asymptotic,
//! either tail, on the log scale), qsmirnov, and rsmirnov's random tables
//! on R's stream. The workflow tests/fixtures/workflows/library63.toml
//! runs, and every step must agree with what R 4.2.2 computed for the
//! same expression (tests/fixtures/r/library63.R wrote library63.json).
//! What R refuses, flowcast refuses with R's message
//! (library63_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, bit for bit: the path counts and
/// rsmirnov's tables do R's arithmetic in R's order.
#[test]
fn library63_workflow_matches_r() {
    r_json::assert_bit_for_bit("library63");
}

/// Each case of library63_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library63_errors");
}

/// What R accepts and flowcast cannot hold is refused saying why:
/// attributes beyond names, dim, dimnames and levels, a list matrix, and
/// simulation inside a function that may not draw.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
            (
                "a = 'structure(c(1, 2), class = \"foo\")'",
                "attribute `class` is not one a flowcast value can hold",
            ),
            (
                "a = 'asplit(matrix(1:4, 2), c(1, 2))'",
                "asplit() by both margins is not supported",
            ),
            (
                "a = 'psmirnov(0.5, sizes = c(5, 5), simulate = TRUE)'",
                "psmirnov(simulate = TRUE) is not supported",
            ),
            (
                "a = 'rsmirnov(3, sizes = c(2, 2), z = c(1, 2, 3))'",
                "'z' must hold the 4 pooled values of both samples",
            ),
        ],
    );
}

/// The plan knows the new functions' shapes before the run.
#[test]
fn shape_is_known_before_the_run() {
    let all = common::checked(
        "m = 'mat.or.vec(2, 3)'\n\
         d = 'drop(m[1, , drop = FALSE])'\n\
         p = 'psmirnov(c(0.1, 0.2), sizes = c(3, 4))'\n\
         r = 'rsmirnov(5, sizes = c(3, 4))'",
    );
    assert!(all.contains("rsmirnov"), "{all}");
}

/// Odd values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let calls = [
        "psmirnov(X, sizes = c(3, 4))",
        "qsmirnov(0.5, sizes = X)",
        "asplit(X, 1)",
        "xtfrm(X)",
        "data.matrix(X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, common::ODD_VALUES);
}
