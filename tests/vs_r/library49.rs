//! Names, quoting and cut of dates: make.names (`do_makenames` of R's
//! character.c), make.unique (`do_makeunique` of unique.c), abbreviate
//! (character.R over `stripchars`), shQuote, sQuote, dQuote, noquote,
//! encodeString (`EncodeString` of printutils.c) and cut.Date (dates.R).
//! The workflow tests/fixtures/workflows/library49.toml runs, and every
//! step must agree with what R computed for the same expression in a
//! UTF-8 locale (tests/fixtures/r/library49.R wrote library49.json). What
//! R refuses, flowcast refuses with R's message (library49_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library49_workflow_matches_r() {
    r_json::assert_matches_r("library49");
}

/// Each case of library49_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library49_errors");
}

/// What flowcast cannot hold is refused naming it: a classed object
/// given to noquote, whose class R extends.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[(
            "a = 'noquote(factor(c(\"u\", \"v\")))'",
            "noquote() takes a vector without a class",
        )],
    );
}

/// The plan knows the length of each result before the run.
#[test]
fn shape_is_known_before_the_run() {
    let all = common::checked(
        "a = 'make.names(c(\"a b\", \"c\", \"d\"))'\n\
         b = 'abbreviate(c(\"alpha\", \"beta\"), 3)'",
    );
    assert!(all.contains("chr[3]"), "{all}");
    assert!(all.contains("chr[2]"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "c(\"\", \" \", \"  a  \")",
            "c(\"a\", \"a\", \"a.1\")",
            "\"\\u00e9l\\u00e8ve na\\u00efve \\u00e0 l\\u00e0\"",
            "as.Date(c(\"2024-01-01\", NA))",
            "\"2 months\"",
        ],
    ]
    .concat();
    let calls = [
        "make.names(X)",
        "make.names(c(\"a\", \"a\"), unique = X)",
        "make.names(\"a_b\", allow_ = X)",
        "make.unique(X)",
        "make.unique(c(\"a\", \"a\"), sep = X)",
        "abbreviate(X)",
        "abbreviate(\"international business\", X)",
        "abbreviate(c(\"ab cd\", \"ab ce\"), 2, method = X)",
        "abbreviate(c(\"ab cd\", \"ab ce\"), 2, dot = X, strict = X)",
        "shQuote(X)",
        "shQuote(\"a\", type = X)",
        "sQuote(X)",
        "dQuote(\"a\", X)",
        "noquote(X)",
        "encodeString(X)",
        "encodeString(\"a\", width = X)",
        "encodeString(\"a\", quote = X, justify = X)",
        "cut(as.Date(c(\"2024-01-15\", \"2024-03-20\")), X)",
        "cut(X, \"month\")",
        "cut(as.Date(c(\"2024-01-15\", NA)), \"week\", start.on.monday = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}

/// A date-time in the session's time zone, which R would read from the
/// machine, is refused naming the fix; so is a zone flowcast does not
/// keep, and rounding to months, which R 4.2 does not do as later R does.
#[test]
fn date_times_say_their_zone() {
    common::assert_refused_saying(
        "t = 'as.POSIXct(\"2024-05-17 13:45:00\", tz = \"UTC\")'\n",
        &[
            (
                "a = 'as.POSIXct(\"2024-05-17 13:45:00\")'",
                "give tz = \"UTC\"",
            ),
            (
                "a = 'ISOdatetime(2024, 5, 17, 0, 0, 0)'",
                "give tz = \"UTC\"",
            ),
            (
                "a = 'as.POSIXct(\"2024-05-17\", tz = \"Europe/Paris\")'",
                "not in time zone \"Europe/Paris\"",
            ),
            ("a = 'strftime(t, \"%H\")'", "give tz = \"UTC\""),
            ("a = 'round(t, \"months\")'", "not months"),
            (
                "a = 'sapply(t, function(v) v)'",
                "cannot yet run sapply() on a date-time",
            ),
        ],
    );
}

/// Odd values in every argument of the date-time functions give a value
/// or an error, never a panic.
#[test]
fn odd_date_times_do_not_panic() {
    let before = "t = 'ISOdate(2024, 1, 31)'\n\
                  f = 'function(v, z = \"UTC\") as.POSIXct(v, tz = z)'\n";
    let odd = [
        common::ODD_VALUES,
        &[
            "\"2024-13-45 99:99\"",
            "c(\"2024-01-01 10:00\", NA, \"\")",
            "as.Date(\"2024-02-29\")",
            "1e300",
            "\"DSTday\"",
            "\"-1 months\"",
        ],
    ]
    .concat();
    let calls = [
        "f(X)",
        "f(\"2024-01-01\", X)",
        "ISOdate(X, 2, 3)",
        "ISOdatetime(2024, X, 1, 0, 0, X, tz = \"UTC\")",
        "format(t, X)",
        "format(t + X)",
        "t - X",
        "seq(t, by = X, length.out = 3)",
        "seq(t, t + 86400 * 70, by = X)",
        "seq(t, by = \"month\", length.out = X)",
        "trunc(t, X)",
        "round(t, X)",
        "difftime(t, X)",
        "difftime(t, t, units = X)",
        "strftime(X, \"%H\", tz = \"UTC\")",
        "as.difftime(X, units = \"mins\")",
        "c(t, X)",
        "t > X",
        "as.Date(t + X)",
    ];
    common::assert_odd_inputs_do_not_panic(before, &calls, &odd);
}
