//! Time series: `ts` and the functions that read a series' `tsp`
//! (stats/R/ts.R: frequency, deltat, time, cycle, start, end, is.ts),
//! `decompose` (decompose.R over filter.c's moving average) and `stl`
//! (stl.R over a port of stl.f: stlstp, stlss, stless, stlest, stlfts,
//! stlma, stlrwt). The workflow tests/fixtures/workflows/library15.toml
//! runs, and every step must agree with what R computed for the same
//! expression (tests/fixtures/r/library15.R wrote library15.json) bit
//! for bit: the ports do R's arithmetic in R's order. What R refuses,
//! flowcast refuses with R's message (library15_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library15_workflow_matches_r() {
    r_json::assert_bit_for_bit("library15");
}

/// Each case of library15_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library15_errors");
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "1e308",
            "rep(1, 10)",
            "1e9",
            "0.5",
            "ts(1:30, frequency = 4)",
        ],
    ]
    .concat();
    let calls = [
        "ts(X)",
        "ts(1:10, start = X)",
        "ts(1:10, end = X)",
        "ts(1:10, frequency = X)",
        "ts(1:10, deltat = X)",
        "ts(1:10, start = X, end = 20)",
        "tsp(X)",
        "frequency(X)",
        "deltat(X)",
        "time(X)",
        "cycle(X)",
        "start(X)",
        "end(X)",
        "is.ts(X)",
        "X + ts(1:10)",
        "decompose(X)",
        "decompose(ts(sin(1:30), frequency = 4), type = X)",
        "decompose(ts(sin(1:30), frequency = 4), filter = X)",
        "stl(X, s.window = 7)",
        "stl(ts(sin(1:30), frequency = 4), s.window = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, s.degree = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, t.window = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, t.degree = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, l.window = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, l.degree = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, s.jump = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, t.jump = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, l.jump = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, robust = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, inner = X)",
        "stl(ts(sin(1:30), frequency = 4), 7, outer = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
