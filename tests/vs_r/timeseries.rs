//! The Wilcoxon rank sum and signed rank distributions (dwilcox, pwilcox,
//! qwilcox, rwilcox, dsignrank, psignrank, qsignrank, rsignrank), acf,
//! pacf, Box.test and ar (Yule-Walker). The workflow
//! tests/fixtures/workflows/timeseries.toml runs, and every step must
//! equal what R computed for the same expression
//! (tests/fixtures/r/timeseries.R wrote timeseries.json) bit for bit: the
//! ports of wilcox.c, signrank.c, acf0, uni_pacf and eureka.f count and
//! sum in R's order, means and sums of squares are long double as R's,
//! and the random ones draw from the seed's stream as R's do. What R
//! refuses, flowcast refuses with R's message (timeseries_errors.json).

use crate::common;
use common::text;
use common::{flowcast, steps_workflow as workflow};

/// Every step's JSON against R's, bit for bit.
#[test]
fn timeseries_workflow_matches_r_bit_for_bit() {
    common::r_json::assert_bit_for_bit("timeseries");
}

/// Each case of timeseries_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    common::r_json::assert_refusals_are_rs("timeseries_errors");
}

use common::r_json::assert_warns_once as warns;

/// The distributions warn of NaNs from valid-looking numbers, and the
/// generators of NAs, as R does.
#[test]
fn warnings_are_rs() {
    warns("a = 'qwilcox(2, 3, 4)'", &["NaNs produced"]);
    warns("a = 'dsignrank(1, 0)'", &["NaNs produced"]);
    warns("a = 'psignrank(1, -1)'", &["NaNs produced"]);
    warns("a = 'rwilcox(2, NA, 4)'", &["NAs produced"]);
    warns("a = 'rsignrank(3, numeric(0))'", &["NAs produced"]);
    warns(
        "a = 'Box.test(1:10, lag = 2, fitdf = 3)'",
        &["NaNs produced"],
    );
}

/// Odd shapes and values give a value or an error, never a panic, and
/// memory stays bounded.
#[test]
fn odd_inputs_do_not_panic() {
    for expr in [
        "dwilcox(1, Inf, 3)",
        "dwilcox(1, 3, Inf)",
        "pwilcox(3, 1e15, 4)",
        "qwilcox(0.5, 1e6, 1e6)",
        "dwilcox(10, 1e6, 1e6)",
        "dwilcox(1e4, 1e4, 2)",
        "dwilcox(character(0), 3, 4)",
        "dwilcox(1, numeric(0), 4)",
        "pwilcox(1, -1, 4)",
        "qwilcox(0.5, NA, 4)",
        "dsignrank(10, 1e5)",
        "psignrank(1, 5e4)",
        "qsignrank(0.5, 1e6)",
        "qsignrank(0.5, -1)",
        "rsignrank(0, 3)",
        "rsignrank(2, 1e15)",
        "rwilcox(1, 1e6, 1e6)",
        "rwilcox(1, -1, 1e15)",
        "rwilcox(2, c(1, NA), 3)",
        "dwilcox(1, 3, 4, log = NA)",
        "psignrank(1, 3, lower.tail = NA)",
        "dwilcox(list(1, 2), 3, 4)",
        "psignrank(1, data.frame(a = 3))",
        "acf(factor(c(1, 3, 2)), plot = FALSE)",
        "acf(data.frame(a = c(1, 3, 2, 5, 4), b = c(2, 1, 4, 3, 5)), plot = FALSE)",
        "acf(1:10, lag.max = 1e15, plot = FALSE)",
        "acf(1:10, lag.max = \"a\", plot = FALSE)",
        "acf(1:10, lag.max = numeric(0), plot = FALSE)",
        "acf(matrix(NaN, 3, 2), plot = FALSE)",
        "acf(c(Inf, -Inf, 1), type = \"covariance\", plot = FALSE)",
        "acf(matrix(0, 0, 2), plot = FALSE)",
        "acf(1:10, na.action = NULL, plot = FALSE)",
        "pacf(1:10, lag.max = 1e15, plot = FALSE)",
        "pacf(c(1, 1, 1, 2), plot = FALSE)",
        "pacf(matrix(c(1, 3, 2, 5, 4, 6, 8, 7), 4), plot = FALSE)",
        "pacf(list(1, 2), plot = FALSE)",
        "Box.test(1:10, lag = 1e15)",
        "Box.test(1:10, lag = Inf)",
        "Box.test(1:10, lag = -0.5)",
        "Box.test(1:10, lag = c(1, 2))",
        "Box.test(1:10, fitdf = NA)",
        "Box.test(factor(1:4))",
        "Box.test(list(1, 2))",
        "ar(1:10, order.max = 1e15)",
        "ar(1:10, order.max = NA)",
        "ar(1:10, order.max = -1)",
        "ar(c(1, 2), aic = NULL)",
        "ar(1:10, method = \"burg\")",
        "ar(matrix(1:20, 10), order.max = 2)",
        "ar(c(1, Inf, 3, 4, 5))",
        "ar(c(1e300, -1e300, 1e300, -1e300))",
        "ar(1:10, method = character(0))",
        "ar(data.frame(a = 1:6))",
    ] {
        let (_dir, path) = workflow(&format!("a = '{expr}'"));
        let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
        let all = text(&out.stderr) + &text(&out.stdout);
        assert!(!all.contains("panicked"), "{expr}: {all}");
        assert!(!all.contains("internal error"), "{expr}: {all}");
    }
}

/// rwilcox and rsignrank draw from the random stream: `flowcast
/// functions` says so.
#[test]
fn generators_are_listed_as_random() {
    let out = flowcast(&["functions", "rwilcox"]);
    let listing = text(&out.stdout);
    assert!(
        listing.contains("`rwilcox(nn, m, n)` (draws from the random stream)"),
        "{listing}"
    );
}
