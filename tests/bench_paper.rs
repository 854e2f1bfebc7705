//! `flowcast bench paper --quick` from the command line.

mod common;

use common::flowcast;

#[test]
fn bench_paper_quick_prints_every_table() {
    let out = flowcast(&["bench", "paper", "--quick", "--seed", "3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for heading in ["Figure 7", "Table IV", "Table V", "Table I", "Targets"] {
        assert!(stdout.contains(heading), "no {heading} in\n{stdout}");
    }
}

#[test]
fn bench_paper_quick_json_is_one_document() {
    let out = flowcast(&["bench", "paper", "--quick", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(v["targets"].as_array().is_some_and(|t| t.len() >= 8), "{v}");
}
