//! How the binary behaves as a Unix citizen (issue 14, items 13–17): a
//! closed pipe, exit statuses, wording, units, and JSON errors.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use common::{flowcast, flowcast_command};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn workflow_file(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("w.toml");
    std::fs::write(&path, body).unwrap();
    path
}

const SMALL: &str = r#"
[workflow]
seed = 1

[steps]
x = "rnorm(50)"
m = "mean(x)"
burn = { for = "k in 1:4", do = "spin(0.01)" }
"#;

/// Runs `flowcast args` with its stdout's reader already gone, as
/// `flowcast … | head -0` would.
fn into_closed_pipe(args: &[&str]) -> Output {
    let mut child = flowcast_command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flowcast");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait for flowcast")
}

/// Issue 14, item 13: `flowcast history | head -1` panicked (exit 101).
#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    let dir = tempfile::tempdir().unwrap();
    let wf = workflow_file(dir.path(), SMALL);
    let (wf, h) = (
        wf.display().to_string(),
        dir.path().join("h.sqlite").display().to_string(),
    );
    let ran = flowcast(&["run", &wf, "--headless", "-p", "2", "--history", &h]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    for args in [
        vec!["history", "--history", &h],
        vec!["check", &wf],
        vec!["run", &wf, "--headless", "-p", "2", "--history", &h],
        vec![
            "run",
            &wf,
            "--headless",
            "--json",
            "-p",
            "2",
            "--history",
            &h,
        ],
        vec!["plan", &wf, "-p", "2", "--history", &h],
        vec!["model", "show", "--history", &h],
    ] {
        let out = into_closed_pipe(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
