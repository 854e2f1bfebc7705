//! fft, the parts of complex numbers, approx, density, bw.nrd0 and
//! bw.nrd. The workflow tests/fixtures/workflows/signal.toml runs, and
//! every step must equal what R computed for the same expression
//! (tests/fixtures/r/signal.R wrote signal.json) bit for bit: the ports
//! (Singleton's fft, BinDist, R_approxfun) round where R rounds. What R
//! refuses, flowcast refuses with R's message.

use crate::common;
use common::text;
use common::{flowcast, steps_workflow as workflow};

/// Every step's JSON against R's, bit for bit.
#[test]
fn signal_workflow_matches_r_bit_for_bit() {
    common::r_json::assert_bit_for_bit("signal");
}

/// `check` refuses the one-step workflow with `message`.
#[track_caller]
fn check_fails(step: &str, message: &str) {
    let (_dir, path) = workflow(step);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{step}: {err}");
    assert!(err.contains("w.toml:2:"), "{step}: {err}");
    assert!(
        err.contains(message),
        "{step}: expected {message:?} in: {err}"
    );
}

/// `run` fails with `message`.
#[track_caller]
fn run_fails(steps: &str, message: &str) {
    let (_dir, path) = workflow(steps);
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let err = text(&out.stderr) + &text(&out.stdout);
    assert_ne!(out.status.code(), Some(0), "{steps}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(message),
        "{steps}: expected {message:?} in: {err}"
    );
}

/// What R's types decide is refused before the run, with R's message.
#[test]
fn type_mistakes_are_found_at_check() {
    check_fails("a = 'fft(\"a\")'", "non-numeric argument");
    check_fails("a = 'Re(\"a\")'", "non-numeric argument to function");
    check_fails(
        "a = 'approx(c(1, 2), c(3, 4), method = \"cubic\")'",
        "invalid interpolation method",
    );
    check_fails(
        "a = 'density(c(\"a\", \"b\"))'",
        "argument 'x' must be numeric",
    );
    check_fails(
        "a = 'density(c(1, 2), kernel = \"box\")'",
        "'arg' should be one of \u{201c}gaussian\u{201d}, \u{201c}epanechnikov\u{201d}",
    );
    check_fails(
        "a = 'density(c(1, 2), bw = \"silverman\")'",
        "unknown bandwidth rule",
    );
    check_fails("a = 'bw.nrd0(1)'", "need at least 2 data points");
}

/// What the data decide is refused at the run, with R's message (the
/// bandwidth rules flowcast lacks with its own).
#[test]
fn data_mistakes_are_rs() {
    for (steps, message) in [
        (
            "a = 'approx(c(1, 2), c(1, 2, 3))'",
            "'x' and 'y' lengths differ",
        ),
        (
            "a = 'approx(1, 2, xout = 1)'",
            "need at least two non-NA values to interpolate",
        ),
        (
            "a = 'approx(c(1, NA), c(NA, 3), xout = 1, method = \"constant\")'",
            "zero non-NA points",
        ),
        (
            "a = 'approx(c(1, 2), c(3, 4), method = \"constant\", f = 2)'",
            "approx(): invalid f value",
        ),
        (
            "a = 'approx(c(1, 2, NA), c(1, 5, 3), na.rm = FALSE)'",
            "approx(x,y, .., na.rm=FALSE): NA values in x are not allowed",
        ),
        (
            "a = 'approx(c(1, 2), c(3, 4), n = 0)'",
            "'approx' requires n >= 1",
        ),
        (
            "a = 'approx(c(1, 2), c(3, 4), rule = c(1, 2, 2))'",
            "lenR <= 2L is not TRUE",
        ),
        ("a = 'density(c(1, NA, 3))'", "'x' contains missing values"),
        (
            "a = 'density(5)'",
            "need at least 2 points to select a bandwidth automatically",
        ),
        (
            "a = 'density(c(1, 2, 3), weights = c(0.5, 0.5))'",
            "'x' and 'weights' have unequal length",
        ),
        (
            "a = 'density(c(1, 2, 3), weights = c(-1, 1, 1))'",
            "'weights' must not be negative",
        ),
        (
            "a = 'density(c(1, 2, 3), bw = -1)'",
            "'bw' is not positive.",
        ),
        ("a = 'density(c(1, 2, 3), bw = Inf)'", "non-finite 'bw'"),
        (
            "a = 'density(c(1, 2, 3), bw = \"foo\")'",
            "unknown bandwidth rule",
        ),
        (
            "a = 'bw.nrd(c(1, NA, 3))'",
            "missing values and NaN's not allowed if 'na.rm' is FALSE",
        ),
    ] {
        run_fails(steps, message);
    }
}

/// approx warns as R does when it collapses tied x without being told
/// how, and not when `ties` is given.
#[test]
fn approx_warns_when_collapsing_ties() {
    let (_dir, path) = workflow(
        "a = 'approx(c(1, 2, 2), c(1, 2, 3), xout = 2)'\nb = 'approx(c(1, 2, 2), c(1, 2, 3), xout = 2, ties = mean)'",
    );
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = text(&out.stderr) + &text(&out.stdout);
    assert!(out.status.success(), "{all}");
    assert_eq!(
        all.matches("collapsing to unique 'x' values").count(),
        1,
        "{all}"
    );
}
