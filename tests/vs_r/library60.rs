//! A report writer's text and index helpers in base R, and stats'
//! smoothing kernels, hat values and Wishart draws: strtrim and toString
//! (display widths of non-ASCII text), strwrap's fill with indents,
//! prefixes and paragraphs, pmatch and charmatch (do_pmatch's and
//! do_charmatch's passes), sequence (do_sequence), gl, modifyList, hat,
//! kernel, kernapply (by R's fft), df.kernel, bandwidth.kernel, symnum
//! and rWishart (Bartlett's factor from R's stream, reference BLAS's dtrmm
//! and dsyrk). The workflow tests/fixtures/workflows/library60.toml runs,
//! and every step must agree with what R computed for the same expression
//! (tests/fixtures/r/library60.R wrote library60.json). What R refuses,
//! flowcast refuses with R's message (library60_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON equals R's, bit for bit (rWishart's draws included).
#[test]
fn library60_workflow_matches_r() {
    r_json::assert_bit_for_bit("library60");
}

/// Each case of library60_errors.json fails with R's message and no panic.
/// Run in this process (`common::run_here`): a process per case would
/// take this module past its time.
#[test]
fn refusals_are_rs() {
    let mut failures = Vec::new();
    for (case_name, case) in common::fixture("library60_errors").as_object().unwrap() {
        let steps = case["steps"].as_str().unwrap();
        let message = case["message"].as_str().unwrap();
        let (_dir, path) = common::steps_workflow(steps);
        let all = common::run_here(&path);
        if all.contains("panicked") || !all.contains(message) {
            failures.push(format!("{case_name}: expected {message:?} in:\n{all}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What R does and flowcast cannot hold is refused saying why.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
            (
                "a = 'gl(3, 1, labels = c(\"a\", \"b\"))'",
                "R makes an invalid factor",
            ),
            (
                "a = 'symnum(matrix(c(0.1, 0.5, 0.5, 1), 2))'",
                "symnum of a matrix is a character matrix, which flowcast cannot hold",
            ),
            (
                "a = 'modifyList(data.frame(x = 1), list(x = 2))'",
                "modifyList of a data frame 'x' is not supported",
            ),
        ],
    );
}

/// Odd values in these functions' arguments give a value or an error,
/// never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let calls = [
        "strtrim(X, 2)",
        "strtrim(\"abc\", X)",
        "strwrap(X, 5)",
        "strwrap(\"a b c\", X)",
        "toString(X, width = 8)",
        "pmatch(X, c(\"ab\", \"b\"))",
        "charmatch(\"a\", X)",
        "sequence(X)",
        "gl(X, 2)",
        "modifyList(list(a = 1), X)",
        "hat(X)",
        "kernel(X)",
        "kernapply(X, kernel(\"daniell\", 1))",
        "rWishart(1, X, diag(2))",
        "symnum(X)",
        "symnum(c(0.2, 0.7), cutpoints = X, symbols = c(\"a\", \"b\"))",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, common::ODD_VALUES);
}
