//! Deeply nested expressions (issue 13): up to the depth limit they check
//! and run, past it `check` refuses them with a located error; the process
//! never overflows its stack, whatever the command.

mod common;
use common::text;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::flowcast;
use flowcast::workflow::depth::MAX_DEPTH;

/// Writes a workflow of `steps` (TOML lines) to a fresh directory.
fn workflow(steps: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.toml");
    std::fs::write(
        &path,
        format!("[workflow]\nname = \"deep\"\n\n[steps]\n{steps}"),
    )
    .unwrap();
    (dir, path)
}

/// Exit status 0, 1 or 2: never a signal (134 is SIGABRT, a stack overflow).
#[track_caller]
fn exited_cleanly(out: &Output) -> i32 {
    let code = out.status.code();
    assert!(
        matches!(code, Some(0..=2)),
        "status {:?}\n{}",
        out.status,
        text(&out.stderr)
    );
    code.unwrap_or_default()
}

fn check(path: &Path) -> Output {
    flowcast(&["check", path.to_str().unwrap()])
}

/// `run --json` with the static (`emcp`) or the work-stealing executor.
fn run(path: &Path, scheduler: &str) -> (Output, serde_json::Value) {
    let out = flowcast(&[
        "run",
        path.to_str().unwrap(),
        "--headless",
        "--json",
        "-p",
        "2",
        "--scheduler",
        scheduler,
    ]);
    let doc = serde_json::from_str(&text(&out.stdout)).unwrap_or_default();
    (out, doc)
}

fn chain(term: &str, op: &str, n: usize) -> String {
    vec![term; n].join(op)
}

#[test]
fn expressions_up_to_the_limit_check_and_run() {
    // Each chain is MAX_DEPTH - 1 operations deep.
    let n = MAX_DEPTH;
    let steps = format!(
        "a = \"1\"\nsum = \"{}\"\ndiff = \"{}\"\nsub = \"c(1){}\"\nloop = {{ for = \"i in 1:3\", do = \"{}\" }}\n",
        chain("a", " + ", n - 1),
        chain("1", " - ", n - 1),
        "[1]".repeat(n - 2),
        chain("i", " - ", n - 1),
    );
    let (_dir, path) = workflow(&steps);
    assert_eq!(exited_cleanly(&check(&path)), 0);
    for scheduler in ["emcp", "dynamic"] {
        let (out, doc) = run(&path, scheduler);
        assert_eq!(exited_cleanly(&out), 0, "{scheduler}");
        let value = |s: &str| doc["steps"][s]["value"].clone();
        assert_eq!(value("sum"), (n - 1) as f64, "{scheduler}");
        assert_eq!(value("diff"), 1.0 - (n - 2) as f64, "{scheduler}");
        assert_eq!(value("sub"), 1.0, "{scheduler}");
        let looped: Vec<f64> = value("loop")
            .as_array()
            .expect("a vector")
            .iter()
            .filter_map(serde_json::Value::as_f64)
            .collect();
        let i = |i: f64| i - (n - 2) as f64 * i;
        assert_eq!(looped, [i(1.0), i(2.0), i(3.0)], "{scheduler}");
    }
}

#[test]
fn past_the_limit_check_refuses_with_file_line_and_column() {
    for (what, expr) in [
        ("a sum", chain("1", " + ", MAX_DEPTH + 1)),
        ("an index chain", format!("c(1){}", "[1]".repeat(MAX_DEPTH))),
        (
            "a call's argument",
            format!("sum({})", chain("1", " - ", MAX_DEPTH)),
        ),
        (
            "a formula",
            format!("lm(y ~ {})", chain("x", " + ", MAX_DEPTH)),
        ),
        // Far past it: the tree is never built, so never dropped either.
        ("200,000 terms", chain("1", " + ", 200_000)),
    ] {
        let (_dir, path) = workflow(&format!("x = \"1\"\ny = \"2\"\nb = \"{expr}\"\n"));
        for out in [check(&path), run(&path, "emcp").0] {
            assert_eq!(exited_cleanly(&out), 2, "{what}");
            let err = text(&out.stderr);
            assert!(err.contains("nested too deeply"), "{what}: {err}");
            assert!(err.contains("deep.toml:7:"), "{what}: {err}");
            assert!(err.contains("step `b`"), "{what}: {err}");
        }
    }
}

#[test]
fn a_deep_loop_body_is_refused_too() {
    let body = chain("i", " * ", MAX_DEPTH + 1);
    let (_dir, path) = workflow(&format!("b = {{ for = \"i in 1:3\", do = \"{body}\" }}\n"));
    let out = check(&path);
    assert_eq!(exited_cleanly(&out), 2);
    assert!(text(&out.stderr).contains("nested too deeply"));
}
