//! `local`, `missing` and `Vectorize`: R's scoping of a `local` block (its
//! assignments stay inside it), `missing(p)` TRUE exactly when the call
//! gave `p` no argument (a default does not count), and `Vectorize` as
//! base R writes it, `mapply` with `SIMPLIFY` and `USE.NAMES`. The
//! workflow tests/fixtures/workflows/library37.toml runs, and every step
//! must agree with what R computed for the same expression
//! (tests/fixtures/r/library37.R wrote library37.json). What R refuses,
//! flowcast refuses with R's message (library37_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library37_workflow_matches_r() {
    r_json::assert_matches_r("library37");
}

/// Each case of library37_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library37_errors");
}

/// What a `local` block assigns is not seen by the statements after it,
/// so a later read finds the step of that name, as R finds the global.
#[test]
fn local_does_not_leak() {
    let steps = "m = '100'\n\
                 a = 'local({ m <- 2; n <- 3 }); m + 1'";
    let (_dir, path) = common::steps_workflow(steps);
    let dir = tempfile::tempdir().unwrap();
    let out = common::flowcast(&[
        "run",
        "--headless",
        "--no-cache",
        "--out",
        dir.path().to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    let all = common::text(&out.stderr) + &common::text(&out.stdout);
    assert!(out.status.success(), "{all}");
    let a = std::fs::read_to_string(dir.path().join("a.json")).unwrap();
    assert_eq!(a.trim(), "101", "{all}");
    // `n` exists only inside the block.
    common::assert_refused_saying("", &[("a = 'local({ n <- 3 }); n'", "`n` not found")]);
}

/// `flowcast check` types the three without running them: a local
/// block's value, missing's one logical, Vectorize's mapply.
#[test]
fn check_types_them() {
    let steps = "a = 'local({ m <- c(1, 2, 3); m * 2 })'\n\
                 b = 'f <- function(p, q) if (missing(q)) p else p + q; f(1)'\n\
                 c = 'g <- function(p, q = 1) missing(q); g(1)'\n\
                 d = 'Vectorize(function(n, k) n + k)(c(1, 2, 3, 4), 2)'";
    let all = common::checked(steps);
    assert!(all.contains("num[3]"), "{all}");
    assert!(all.contains("lgl[1]"), "{all}");
    assert!(all.contains("num[4]"), "{all}");
}

/// What R accepts and flowcast does not is refused naming it.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
            ("a = 'local(1, envir = 2)'", "takes no 'envir'"),
            (
                "a = 'Vectorize(function(a, b = a) a + b)(1:3)'",
                "no default that reads another parameter",
            ),
            (
                "a = 'Vectorize(function(a, ...) a)(1:3)'",
                "a function without `...`",
            ),
            ("a = 'Vectorize(sum)(1:3)'", "takes a function(...)"),
        ],
    );
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let calls = [
        "local(X)",
        "f <- function(p, q) if (missing(q)) p else q; f(X)",
        "Vectorize(function(a, b) a + b)(X, 1)",
        "Vectorize(function(a) a, vectorize.args = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, common::ODD_VALUES);
}
