//! `max`, `min` and `range` of text, and `seq(along.with =)`: the workflow
//! tests/fixtures/workflows/text_summary.toml must equal what R computed
//! (tests/fixtures/r/text_summary.R wrote text_summary.json), and R's
//! refusals are flowcast's (text_summary_errors.json).

use crate::common;

#[test]
fn text_summaries_match_r() {
    common::r_json::assert_bit_for_bit("text_summary");
}

#[test]
fn refusals_are_rs() {
    common::r_json::assert_refusals_are_rs("text_summary_errors");
}

/// Text with nothing left is NA, with R's warning (once per call: range
/// gives it for its min and for its max, as R's range.default does).
#[test]
fn nothing_left_warns_as_r() {
    common::r_json::assert_warns_once(
        "a = 'max(character(0))'",
        &["no non-missing arguments, returning NA"],
    );
    common::r_json::assert_warns_once(
        "a = 'min(c(NA, \"b\")[1], na.rm = TRUE)'",
        &["no non-missing arguments, returning NA"],
    );
}
