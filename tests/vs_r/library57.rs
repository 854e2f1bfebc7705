//! friedman.test with factor or character groups and blocks (R's
//! friedman.test.default: table(groups, blocks) counts unused levels, the
//! level order does not matter) and by its formula over factor columns;
//! and fisher.test's exact p-value of an r x c table by R's network
//! algorithm (fexact.c ported routine by routine), which must equal R's to
//! the last bit, hybrid approximation and workspace errors included. The
//! workflow tests/fixtures/workflows/library57.toml runs, and every step
//! must equal what R computed for the same expression, bit for bit
//! (tests/fixtures/r/library57.R wrote library57.json). What R refuses,
//! flowcast refuses with R's message (library57_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, exactly.
#[test]
fn library57_workflow_is_rs_bit_for_bit() {
    r_json::assert_bit_for_bit("library57");
}

/// Each case of library57_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library57_errors");
}

/// A workspace flowcast will not allocate is refused saying so, and odd
/// tables give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    common::assert_refused_saying(
        "",
        &[(
            "a = 'fisher.test(matrix(1:9, 3), workspace = 1e9)'",
            "workspace of at most",
        )],
    );
    common::assert_odd_inputs_do_not_panic(
        "t = 'matrix(c(0, 0, 3, 0, 0, 0, 1, 0, 0), 3)'\n",
        &[
            "fisher.test(cbind(t, 0), X)$p.value",
            "friedman.test(c(1, 2, 3, 4), X, c(1, 1, 2, 2))$p.value",
        ],
        &[
            "workspace = 1",
            "hybrid = TRUE",
            "factor(c(\"a\", \"b\", NA, \"b\"))",
            "factor(character(4))",
        ],
    );
}
