//! R's Date class: `as.Date` from text (the default formats and `format =`
//! with %Y %m %d %y %b %B %j and literal text) and from numbers with an
//! origin; `format`, `weekdays`, `months` and `julian`; `+.Date`,
//! `-.Date` and the difftime of two dates; comparisons, `Summary.Date`,
//! `c`, `sort`, `unique`, `seq.Date` by days, weeks, months, quarters and
//! years; Date columns of a data frame. The workflow
//! tests/fixtures/workflows/library33.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library33.R wrote library33.json, a Date as its
//! days). What R refuses, flowcast refuses with R's message
//! (library33_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library33_workflow_matches_r() {
    r_json::assert_matches_r("library33");
}

/// Each case of library33_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library33_errors");
}

/// What R reads from today's clock, or runs through methods flowcast
/// does not have for a Date, is refused naming it, never run on the bare
/// days as something else.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "d = 'as.Date(c(\"2024-01-01\", \"2024-02-01\"))'\n",
        &[
            (
                "a = 'as.Date(\"2024\", format = \"%Y\")'",
                "R fills them from today's date",
            ),
            (
                "a = 'as.Date(\"03-01\", format = \"%m-%d\")'",
                "without a year",
            ),
            (
                "a = 'as.Date(\"2024-01-01 10:00\", format = \"%Y-%m-%d %Z\")'",
                "not %Z",
            ),
            ("a = 'format(d, \"%Z\")'", "not %Z"),
            ("a = 'quantile(d)'", "cannot yet run quantile() on a Date"),
        ],
    );
}

/// The plan knows a Date's length before the run: dates are numbers to
/// it (their days), formatted dates strings.
#[test]
fn shape_is_known_before_the_run() {
    let steps = "d = 'as.Date(c(\"2024-01-01\", \"2024-02-01\", NA))'\n\
                 w = 'weekdays(d)'\n\
                 s = 'seq(as.Date(\"2024-01-31\"), by = \"month\", length.out = 4)'";
    let all = common::checked(steps);
    assert!(all.contains("num[3]"), "{all}");
    assert!(all.contains("chr[3]"), "{all}");
    assert!(all.contains("num[4]"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "as.Date(c(\"2024-01-31\", NA))",
            "\"2024-02-30\"",
            "\"%Y-%j\"",
            "\"-3 months\"",
            "c(\"%\", \"%Y\")",
        ],
    ]
    .concat();
    let calls = [
        "as.Date(X)",
        "as.Date(\"2024-01-01\", format = X)",
        "as.Date(X, origin = \"2000-01-01\")",
        "format(as.Date(\"2024-01-01\"), X)",
        "as.Date(\"2024-01-01\") + X",
        "as.Date(\"2024-01-01\") - X",
        "as.Date(\"2024-01-01\") < X",
        "seq(as.Date(\"2024-01-01\"), by = X, length.out = 3)",
        "seq(as.Date(\"2024-01-01\"), as.Date(\"2025-01-01\"), by = X)",
        "seq(as.Date(\"2024-01-01\"), by = \"month\", length.out = X)",
        "difftime(as.Date(\"2024-01-01\"), X)",
        "weekdays(X)",
        "julian(as.Date(\"2024-01-01\"), origin = X)",
        "c(as.Date(\"2024-01-01\"), X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
