//! FIFOs and devices where a workflow or its data should be (issue 13):
//! refused at once with the file named, never read until a writer comes or
//! until memory runs out.

#![cfg(unix)]

mod common;
use common::text;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::flowcast_command;

/// Runs flowcast with `args`, failing the test if it has not finished in
/// 60 s (it used to block forever on a FIFO).
fn flowcast_in_time(args: &[&str]) -> Output {
    let mut child = flowcast_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flowcast");
    let began = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if began.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("flowcast {args:?} still running after 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo")
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

#[test]
fn a_fifo_or_a_device_as_data_is_refused_at_check() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("pipe.csv"));
    for (file, what) in [
        ("pipe.csv", "a FIFO"),
        ("/dev/zero", "a character device"),
        ("/dev/urandom", "a character device"),
    ] {
        let wf = dir.path().join("w.toml");
        std::fs::write(
            &wf,
            format!("[workflow]\nname = \"w\"\n\n[steps]\nd = \"read.csv('{file}')\"\n"),
        )
        .unwrap();
        for command in [&["check"][..], &["run", "--headless"]] {
            let out = flowcast_in_time(&[command, &[wf.to_str().unwrap()]].concat());
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command:?} {file}: {err}");
            assert!(
                err.contains(&format!(
                    "cannot open file '{file}': not a regular file ({what})"
                )),
                "{command:?} {file}: {err}"
            );
            assert!(err.contains("w.toml:5:"), "{command:?} {file}: {err}");
        }
    }
}

#[test]
fn a_fifo_as_the_workflow_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let wf = dir.path().join("w.toml");
    mkfifo(&wf);
    for command in ["check", "run"] {
        let out = flowcast_in_time(&[command, wf.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains("not a regular file (a FIFO)"),
            "{command}: {err}"
        );
    }
}
