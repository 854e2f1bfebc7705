//! The names R puts on an htest's statistic, parameter, estimate and null
//! value (`c(t = 2.1)`, `c("mean of x" = 3)`), for every test flowcast has
//! and each of its variants. tests/fixtures/workflows/htest_names.toml asks
//! for `names(test(...)$field)`; tests/fixtures/r/htest_names.R wrote R's
//! answers (htest_names.json), which flowcast's must equal.

use crate::common;
use common::{flowcast, r_json, steps_workflow as workflow};

#[test]
fn htest_names_match_r() {
    r_json::assert_bit_for_bit("htest_names");
}

/// A name reads an element (`$estimate["mean of y"]`), arithmetic keeps
/// it as R's does, and `unname` and `[[` drop it; the JSON written for a
/// whole htest is unchanged (bare numbers).
#[test]
fn names_index_and_vanish_where_r_drops_them() {
    let (_dir, path) = workflow(
        "t = 't.test(c(1, 2, 3, 4), c(2, 4, 6, 9))'\n\
         y = 't$estimate[\"mean of y\"]'\n\
         n = 'names(t$statistic * 2)'\n\
         u = 'names(unname(t$estimate))'\n\
         s = 't$statistic[[1]] + 1'\n\
         p = 'sapply(list(t, t), function(h) h$p.value)'",
    );
    let out_dir = tempfile::tempdir().unwrap();
    let run = flowcast(&[
        "run",
        "--headless",
        "--no-cache",
        "--out",
        out_dir.path().to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let read = |s: &str| std::fs::read_to_string(out_dir.path().join(format!("{s}.json"))).unwrap();
    assert_eq!(read("y").trim(), "5.25");
    assert_eq!(read("n").trim(), "\"t\"");
    assert_eq!(read("u").trim(), "null");
    let t: serde_json::Value = serde_json::from_str(&read("t")).unwrap();
    assert!(t["statistic"].is_number(), "{t}");
    assert!(t["estimate"].is_array(), "{t}");
    assert!(t["parameter"].is_number(), "{t}");
}
