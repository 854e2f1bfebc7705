//! Date-times as an analyst's script uses them: flowcast's one R_strptime
//! (Rstrptime.h) behind as.Date and as.POSIXct, as.Date reading a clock
//! and dropping it as R does; cut.POSIXt (datetime.R) by units, "N
//! units", a count and given breaks; summary.POSIXct and summary.Date,
//! quantile.POSIXt, split and table of a cut; seq.POSIXt by DSTday, month
//! and year; rev, unique, duplicated and order of date-times; difftime
//! units (`units`, `units<-`, `as.numeric(x, units =)`); format with %j
//! %U %u %p %I. The workflow tests/fixtures/workflows/library50.toml runs,
//! and every step must agree with what R computed for the same expression
//! in TZ=UTC (tests/fixtures/r/library50.R wrote library50.json). What R
//! refuses, flowcast refuses with R's message (library50_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library50_workflow_matches_r() {
    r_json::assert_matches_r("library50");
}

/// Each case of library50_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library50_errors");
}

/// What flowcast does not run as R does is refused naming it: `units<-`
/// of a number (R's default sets an attribute flowcast does not keep),
/// and a format conversion its strptime does not read.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
            (
                "a = '`units<-`(5, \"hours\")'",
                "flowcast sets units() of a difftime only",
            ),
            (
                "a = 'as.POSIXct(\"2024 05\", format = \"%Y %U\", tz = \"UTC\")'",
                "not %U",
            ),
        ],
    );
}
