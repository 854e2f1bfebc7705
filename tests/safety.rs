//! flowcast against hostile files and paths (issue 13, "terminal and
//! filesystem safety"): nothing from a workflow reaches the terminal raw
//! (the binary and the terminal UI), nothing is written outside where the
//! user asked, bad output paths fail before the run, and a history the
//! user cannot write can still be read.

mod common;
use common::{arg, text, workflow_file};

use std::path::Path;
use std::process::Output;

use common::flowcast;

/// Neither stream holds a control character other than a newline.
fn assert_no_raw_controls(out: &Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let s = text(bytes);
        assert!(
            !s.contains(|c: char| c.is_control() && c != '\n'),
            "{stream} holds a raw control character: {s:?}"
        );
    }
}

const HOSTILE_NAME: &str =
    "[workflow]\nname = \"t\\u001b]0;owned\\u0007\\u001b[2J\"\nseed = 1\n[steps]\nx = \"1 + 1\"\n";

#[test]
fn check_escapes_the_workflow_name() {
    let (_dir, path) = workflow_file(HOSTILE_NAME);
    let out = flowcast(&["check", arg(&path)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_no_raw_controls(&out);
    assert!(
        text(&out.stdout).contains("workflow `t\\u{1b}]0;owned\\u{7}\\u{1b}[2J`"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn errors_escape_the_quoted_source_line() {
    // A raw ESC in a comment is invalid TOML: the error quotes the line.
    let (_dir, path) = workflow_file("[steps]\nx = \"1\" # \u{1b}]0;owned\u{7}\n");
    let out = flowcast(&["check", arg(&path)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_no_raw_controls(&out);
    assert!(
        text(&out.stderr).contains("# \\u{1b}]0;owned\\u{7}"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn run_and_history_escape_the_workflow_name() {
    let (dir, path) = workflow_file(HOSTILE_NAME);
    let history = dir.path().join("h.sqlite");
    let out = flowcast(&[
        "run",
        arg(&path),
        "--headless",
        "-p",
        "1",
        "--history",
        arg(&history),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_no_raw_controls(&out);
    let out = flowcast(&["history", "--history", arg(&history)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_no_raw_controls(&out);
    assert!(
        text(&out.stdout).contains("t\\u{1b}]0;owned"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_workflow_out_outside_its_directory_is_refused_but_out_may_go_anywhere() {
    let (dir, path) = workflow_file("[workflow]\nout = \"../x/deep\"\n[steps]\nx = \"1\"\n");
    let out = flowcast(&["check", arg(&path)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("w.toml:2:7"),
        "{}",
        text(&out.stderr)
    );
    let elsewhere = tempfile::tempdir().unwrap();
    let (_dir2, ok) = workflow_file("[steps]\nx = \"1\"\n");
    let target = elsewhere.path().join("values");
    let history = dir.path().join("h.sqlite");
    let out = flowcast(&[
        "run",
        arg(&ok),
        "--headless",
        "--history",
        arg(&history),
        "--out",
        arg(&target),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(target.join("x.json").is_file());
}

/// Issue 13: an output path that cannot be written fails before the run,
/// with the command line's status (2), not a step failure's (1) after it.
#[test]
fn unwritable_output_paths_fail_before_the_run() {
    let (dir, path) = workflow_file("[steps]\nx = \"1\"\n");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let history = dir.path().join("h.sqlite");
    let missing = dir.path().join("no/such/chart.svg");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["run", arg(&path), "--headless", "--out", arg(&file)],
            "exists and is not a directory",
        ),
        (
            vec!["export", arg(&path), "-o", arg(&missing)],
            "does not exist",
        ),
        (
            vec![
                "export",
                arg(&path),
                "-o",
                dir.path().to_str().unwrap(),
                "--format",
                "svg",
            ],
            "is a directory",
        ),
        (
            vec!["export", "--run", "last", "-o", arg(&missing)],
            "does not exist",
        ),
    ];
    for (args, why) in cases {
        let mut args = args;
        args.extend(["--history", arg(&history)]);
        let out = flowcast(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert_eq!(text(&out.stdout), "", "{args:?}: nothing ran");
    }
    // Nothing ran, so nothing was recorded.
    let out = flowcast(&["history", "--history", arg(&history)]);
    assert!(
        text(&out.stdout).contains("0 runs"),
        "{}",
        text(&out.stdout)
    );
}

/// `flowcast args` as a user who cannot write `dir`: as nobody when the
/// tests run as root (permission bits do not bind root), else as the
/// user running the tests. `None` when root cannot change user here.
fn flowcast_as_unprivileged(args: &[&str]) -> Option<Output> {
    let root = std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false);
    if !root {
        return Some(flowcast(args));
    }
    let mut c = std::process::Command::new("setpriv");
    c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_flowcast"))
        .args(args)
        .env("XDG_DATA_HOME", "/nonexistent");
    c.output()
        .ok()
        .filter(|o| !text(&o.stderr).contains("setpriv:"))
}

/// Issue 13: reading commands read a history they cannot write.
#[test]
fn reading_commands_read_a_read_only_history() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, path) = workflow_file("[workflow]\nname = \"kept\"\n[steps]\nx = \"1\"\n");
    let store_dir = dir.path().join("store");
    let history = store_dir.join("h.sqlite");
    let out = flowcast(&[
        "run",
        arg(&path),
        "--headless",
        "-p",
        "1",
        "--history",
        arg(&history),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let chart = dir.path().join("charts");
    std::fs::create_dir(&chart).unwrap();
    let mode = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    mode(dir.path(), 0o755).unwrap();
    mode(&chart, 0o777).unwrap();
    mode(&history, 0o444).unwrap();
    mode(&store_dir, 0o555).unwrap();
    let svg = chart.join("last.svg");
    let commands: [Vec<&str>; 3] = [
        vec!["history", "--history", arg(&history)],
        vec!["model", "show", "--history", arg(&history)],
        vec![
            "export",
            "--run",
            "last",
            "-o",
            arg(&svg),
            "--history",
            arg(&history),
        ],
    ];
    for args in commands {
        let Some(out) = flowcast_as_unprivileged(&args) else {
            eprintln!("skipped: cannot run as an unprivileged user here");
            return;
        };
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        if args[0] == "history" {
            assert!(text(&out.stdout).contains("kept"), "{}", text(&out.stdout));
        }
    }
    assert!(svg.is_file());
    mode(&store_dir, 0o755).unwrap();
}

/// The terminal UI shows a hostile workflow name and error escaped, as the
/// command line does (ratatui would drop the control characters silently).
#[test]
fn the_tui_header_shows_control_characters_escaped() {
    use flowcast::sched::Scheduler;
    use flowcast::tui::header::Header;
    use flowcast::tui::App;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::Widget;
    let mut app = App::new("t\u{1b}]0;owned\u{7}", Scheduler::Mcp, 2);
    app.error = Some("error: bad `\u{1b}[2J`\n  --> w.toml:2:1".into());
    let mut buf = Buffer::empty(Rect::new(0, 0, 80, 3));
    Header(&app).render(buf.area, &mut buf);
    let shown: String = buf.content.iter().map(|c| c.symbol()).collect();
    assert!(shown.contains(" t\\u{1b}]0;owned\\u{7} mcp"), "{shown}");
    assert!(shown.contains("w.toml:2:1: bad `\\u{1b}[2J`"), "{shown}");
    assert!(!shown.contains(|c: char| c.is_control()), "{shown:?}");
}
