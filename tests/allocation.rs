//! Values too large for memory (issue 13): the step fails with R's "cannot
//! allocate vector of size …" and the run goes on; the process never aborts.
//! Runs under a 6 GB address-space limit, as the issue's checks do.

#![cfg(target_os = "linux")]

mod common;
use common::text;

use std::process::Output;

use common::{flowcast, flowcast_in_address_space};

/// `flowcast args` under `ulimit -v 6000000` (kilobytes).
fn flowcast_limited(args: &[&str]) -> Output {
    flowcast_in_address_space(6_000_000, args)
}

#[test]
fn steps_too_large_fail_alone_with_rs_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.toml");
    std::fs::write(
        &path,
        r#"[workflow]
name = "big"

[steps]
colon = "1:1e9"
diag = "diag(1, 4e4)"
points = "matrix(rnorm(2e5), 1e5, 2)"
distances = "dist(points)"
x = "rnorm(4e4)"
outer = "x %*% t(x)"
perm = "sample(1e9)"
draws = "rnorm(1e9)"
fine = "sum(x * 0) + 1"
"#,
    )
    .unwrap();
    let out = flowcast_limited(&[
        "run",
        path.to_str().unwrap(),
        "--headless",
        "--json",
        "-p",
        "2",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let doc: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    for step in ["colon", "diag", "distances", "outer", "perm", "draws"] {
        let s = &doc["steps"][step];
        assert_eq!(s["status"], "failed", "{step}: {s}");
        let message = s["error"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("cannot allocate vector of size ") && message.ends_with(" Gb"),
            "{step}: {message}"
        );
    }
    assert_eq!(doc["steps"]["fine"]["value"], 1);
}

/// Without an address-space limit, the allocator may hand out 8 TB of
/// address space that was never there (mimalloc maps huge blocks lazily):
/// the step must still fail with R's message, not fill the memory until
/// the kernel kills the process.
#[test]
fn a_value_larger_than_the_machine_fails_without_a_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.toml");
    std::fs::write(
        &path,
        "[steps]\nhuge = \"matrix(0, 1e6, 1e6)\"\nzeros = \"diag(0, 1e6)\"\nfine = \"1 + 1\"\n",
    )
    .unwrap();
    let out = flowcast(&[
        "run",
        path.to_str().unwrap(),
        "--headless",
        "--json",
        "-p",
        "2",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let doc: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    for step in ["huge", "zeros"] {
        assert_eq!(
            doc["steps"][step]["error"], "cannot allocate vector of size 7450.6 Gb",
            "{step}"
        );
    }
    assert_eq!(doc["steps"]["fine"]["value"], 2);
}

#[test]
fn check_warns_of_a_step_larger_than_the_machine() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.toml");
    std::fs::write(
        &path,
        "[workflow]\nname = \"big\"\n\n[steps]\nsmall = \"diag(1, 10)\"\nhuge = \"matrix(0, 1e6, 1e6)\"\n",
    )
    .unwrap();
    let out = flowcast_limited(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "warning: step `huge` needs 7450.6 Gb for its value, more than this machine's"
        ),
        "{err}"
    );
    assert!(err.contains("big.toml:6:1"), "{err}");
    assert!(!err.contains("`small`"), "{err}");
}
