//! How the binary behaves as a Unix citizen (issue 14, items 13–17): a
//! closed pipe, exit statuses, wording, units, and JSON errors.

mod common;
use common::text;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use common::{flowcast, flowcast_command};

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

/// Issue 14, item 14: a run that is not in the history was asked for
/// wrongly (status 2); 1 means a step failed.
#[test]
fn exporting_a_run_that_is_not_there_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let wf = workflow_file(dir.path(), SMALL);
    let (wf, h) = (
        wf.display().to_string(),
        dir.path().join("h.sqlite").display().to_string(),
    );
    let ran = flowcast(&["run", &wf, "--headless", "-p", "1", "--history", &h]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let svg = dir.path().join("x.svg").display().to_string();
    let out = flowcast(&["export", "--run", "999", "-o", &svg, "--history", &h]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no run 999"));
}

/// Sends SIGINT to `child` once it has run `after`, and waits for it.
fn interrupted(mut child: std::process::Child, after: std::time::Duration) -> Output {
    std::thread::sleep(after);
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("Ctrl-C did not end the command");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

const LONG: &str = r#"
[steps]
x = "rnorm(10)"
burn = { for = "k in 1:40", do = "spin(0.5)" }
"#;

/// Issue 14, item 14: Ctrl-C exits 130, as shells expect, and the run it
/// stopped is in the history.
#[test]
fn ctrl_c_ends_a_headless_run_with_status_130() {
    let dir = tempfile::tempdir().unwrap();
    let wf = workflow_file(dir.path(), LONG).display().to_string();
    let h = dir.path().join("h.sqlite").display().to_string();
    let child = flowcast_command()
        .args(["run", &wf, "--headless", "-p", "2", "--history", &h])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = interrupted(child, std::time::Duration::from_millis(1500));
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cancelled"),
        "{}",
        text(&out.stderr)
    );
    let listed = text(&flowcast(&["history", "--history", &h]).stdout);
    assert!(listed.contains("1 runs"), "{listed}");
    // Issue 14, item 5: `flowcast history` has a state column.
    let header: Vec<&str> = listed.lines().next().unwrap().split_whitespace().collect();
    let state = header
        .iter()
        .position(|c| *c == "state")
        .expect("a state column");
    let row: Vec<&str> = listed.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(row[state], "cancelled", "{listed}");
}

#[test]
fn ctrl_c_ends_headless_watching_with_status_130() {
    let dir = tempfile::tempdir().unwrap();
    let wf = workflow_file(dir.path(), LONG).display().to_string();
    let h = dir.path().join("h.sqlite").display().to_string();
    let child = flowcast_command()
        .args([
            "run",
            &wf,
            "--watch",
            "--headless",
            "-p",
            "2",
            "--history",
            &h,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = interrupted(child, std::time::Duration::from_millis(1500));
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
}

/// Issue 14, item 15: watch mode said "1 error(s)" where check says
/// "1 error", "4 errors".
#[test]
fn error_counts_read_the_same_in_check_and_watch_mode() {
    let dir = tempfile::tempdir().unwrap();
    let one = workflow_file(dir.path(), "[steps]\nx = \"mean(nope)\"\n");
    let checked = flowcast(&["check", one.to_str().unwrap()]);
    let said = text(&checked.stderr);
    assert!(said.contains("\n1 error in "), "{said}");
    let loaded = flowcast::pipeline::load_checked(&one).err().unwrap();
    assert!(loaded.contains("\n1 error in "), "{loaded}");
    assert!(!loaded.contains("error(s)"), "{loaded}");
    let two = workflow_file(dir.path(), "[steps]\nx = \"mean(nope)\"\ny = \"sd(nix)\"\n");
    let loaded = flowcast::pipeline::load_checked(&two).err().unwrap();
    assert!(loaded.contains("\n2 errors in "), "{loaded}");
}

/// Issue 14, item 15: check printed a constant infinity as `inf`; R and
/// the rest of flowcast write `Inf`.
#[test]
fn check_writes_infinities_as_r_does() {
    let dir = tempfile::tempdir().unwrap();
    let wf = workflow_file(dir.path(), "[steps]\nx = \"1 / 0\"\ny = \"-Inf\"\n");
    let out = flowcast(&["check", wf.to_str().unwrap()]);
    let said = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(said.contains("num[1] = Inf"), "{said}");
    assert!(said.contains("num[1] = -Inf"), "{said}");
    assert!(!said.contains("inf"), "{said}");
}

/// A time as the tables write it: a number and a unit that fits.
fn is_duration(cell: &str) -> bool {
    let Some(number) = ["µs", "ms", "s"].iter().find_map(|u| cell.strip_suffix(u)) else {
        return false;
    };
    number.parse::<f64>().is_ok_and(|x| x > 0.0 || cell == "0s")
}

/// Issue 14, item 16: the headless table printed `0.000` for most steps
/// of a small workflow; times are written in units that fit, as in the
/// terminal UI.
#[test]
fn the_headless_table_writes_small_times_in_units_that_fit() {
    let dir = tempfile::tempdir().unwrap();
    let wf = workflow_file(dir.path(), SMALL);
    let h = dir.path().join("h.sqlite");
    let out = flowcast(&[
        "run",
        wf.to_str().unwrap(),
        "--headless",
        "-p",
        "2",
        "--history",
        h.to_str().unwrap(),
    ]);
    let table = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (predicted, actual) = (column("predicted"), column("work"));
    let mut rows = 0;
    for line in lines.take_while(|l| !l.is_empty()) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        for c in [cells[predicted], cells[actual]] {
            assert!(is_duration(c), "{c:?} in {line:?}\n{table}");
        }
        rows += 1;
    }
    assert_eq!(rows, 3, "{table}");
    let last = table.lines().last().unwrap();
    let makespan = last.split("makespan ").nth(1).unwrap();
    assert!(
        is_duration(makespan.split_whitespace().next().unwrap()),
        "{last}"
    );
}

/// Issue 14, item 17: `--json` on an invalid workflow printed nothing to
/// stdout; it prints where and what the error is, and keeps status 2.
#[test]
fn json_on_an_invalid_workflow_is_a_json_error_document() {
    let dir = tempfile::tempdir().unwrap();
    let wf = workflow_file(
        dir.path(),
        "[steps]\nx = \"rnorm(5)\"\ny = \"mean(z)\"\nw = \"sd(q)\"\n",
    );
    let wf = wf.to_str().unwrap();
    for args in [
        vec!["run", wf, "--headless", "--json"],
        vec!["plan", wf, "--json"],
    ] {
        let out = flowcast(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", text(&out.stdout)));
        assert_eq!(doc["file"], wf);
        assert_eq!(doc["line"], 3);
        assert_eq!(doc["column"], 11);
        assert_eq!(doc["step"], "y");
        assert!(
            doc["message"].as_str().unwrap().contains("`z` not found"),
            "{doc}"
        );
        assert_eq!(doc["errors"].as_array().unwrap().len(), 2, "{doc}");
        assert_eq!(doc["errors"][1]["line"], 4, "{doc}");
        assert_eq!(doc["error"], format!("2 errors in {wf}"));
        // The person at the terminal still reads the diagnostics.
        assert!(text(&out.stderr).contains("--> "), "{}", text(&out.stderr));
    }
}

/// `eprintln!` panics when stderr is closed: an error that cannot be shown
/// must still end with its own status, not a panic's 101.
#[test]
fn a_closed_stderr_does_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let bad = workflow_file(dir.path(), "[steps]\nx = \"nosuch(1)\"\n");
    let mut child = flowcast_command()
        .args(["check", &bad.display().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flowcast");
    drop(child.stderr.take());
    let out = child.wait_with_output().expect("wait for flowcast");
    assert_eq!(out.status.code(), Some(2));
}

/// `flowcast tui missing.toml` without a terminal (a pipe, CI) named the
/// missing terminal and not the missing file, the user's real mistake, and
/// wrote the terminal's restore escapes into the pipe. The workflow is
/// read first, as `run` reads it; a good one still needs the terminal.
#[test]
fn the_ui_without_a_terminal_reports_the_workflow_first() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.toml").display().to_string();
    let bad = workflow_file(dir.path(), "[steps]\nx = \"nosuch(1)\"\n")
        .display()
        .to_string();
    for (args, needle) in [
        (vec!["tui", &missing], "cannot read workflow file"),
        (vec![&missing], "cannot read workflow file"),
        (vec!["tui", &bad], "could not find function `nosuch`"),
    ] {
        let out = flowcast_command()
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("terminal"), "{args:?}: {err}");
    }
    let good = workflow_file(dir.path(), "[steps]\nx = \"1\"\n")
        .display()
        .to_string();
    let out = flowcast_command()
        .args(["tui", &good])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot open the terminal"), "{err}");
    assert!(out.stdout.is_empty(), "{:?}", text(&out.stdout));
}
