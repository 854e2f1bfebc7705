//! Hostile input found by driving the binary with generated workflows
//! (issue 13: no panic, abort or hang on any input, and every refusal
//! located). One case per bug found; each asserts the refusal (status and
//! message), not only that nothing crashed.

mod common;
use common::{arg, text, workflow_file};

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

use common::flowcast_command;

/// Runs flowcast with `args`, failing the test if it has not finished in
/// 30 s (a hang), and on a signal or a panic.
fn flowcast(args: &[&str]) -> Output {
    let child = flowcast_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flowcast");
    // Read both pipes while waiting (a refusal may quote a long line).
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let Ok(out) = rx.recv_timeout(Duration::from_secs(30)) else {
        let _ = std::process::Command::new("kill")
            .args(["-9", &id.to_string()])
            .status();
        panic!(
            "flowcast {:?} still running after 30 s",
            &args[..args.len().min(3)]
        );
    };
    let out = out.expect("output");
    let err = text(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0..=2)) && !err.contains("panicked"),
        "flowcast {:?}: {:?}\n{err}",
        &args[..args.len().min(3)],
        out.status
    );
    out
}

/// `flowcast args` exits with `code` and says each of `needles` on stderr.
#[track_caller]
fn refused(args: &[&str], code: i32, needles: &[&str]) {
    let out = flowcast(args);
    let err = text(&out.stderr);
    let shown = &args[..args.len().min(3)];
    assert_eq!(out.status.code(), Some(code), "{shown:?}: {err}");
    for needle in needles {
        assert!(
            err.contains(needle),
            "{shown:?}: expected {needle:?} in\n{err}"
        );
    }
}

fn run_args<'a>(path: &'a Path, history: &'a Path) -> Vec<&'a str> {
    vec![
        "run",
        arg(path),
        "--headless",
        "-p",
        "2",
        "--history",
        arg(history),
    ]
}

/// Runs the workflow `toml` with `--json` under a 4 GB address space (so
/// that nothing here allocates gigabytes), which must exit 1 with each
/// `(line:column, step, message)` of `failures` located there; returns
/// the JSON document of the steps that ran.
#[track_caller]
fn steps_fail_located(toml: &str, failures: &[(&str, &str, &str)]) -> serde_json::Value {
    let (dir, path) = workflow_file(toml);
    let history = dir.path().join("h.sqlite");
    let mut args = run_args(&path, &history);
    args.push("--json");
    let out = common::flowcast_in_address_space(4_000_000, &args);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for (at, step, message) in failures {
        let at = format!("{message}\n  --> {}:{at} (step `{step}`)", arg(&path));
        assert!(err.contains(&at), "expected {at:?} in\n{err}");
    }
    serde_json::from_slice(&out.stdout).expect("a JSON document on stdout")
}

/// A step name longer than `u16::MAX` characters: std's `{:<width$}`
/// panicked on the column width in `check`'s task table and in the
/// summary table after a run.
#[test]
fn a_step_name_longer_than_a_format_width_prints() {
    let name = "a".repeat(70_000);
    let (dir, path) = workflow_file(&format!(
        "[workflow]\nname = \"long\"\n[steps]\n{name} = \"1 + 1\"\nb = \"{name} * 2\"\n"
    ));
    let out = flowcast(&["check", arg(&path)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    // The short step's row is padded to the long name's column.
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("b "))
        .expect("a row for b");
    assert!(row.len() > 70_000, "{}", row.len());
    let history = dir.path().join("h.sqlite");
    let out = flowcast(&run_args(&path, &history));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(&name[..1000]));
}

/// `-p 4294967296` (or `processors = ` as much) sized a worker table of
/// 137 GB and aborted; `-p 100000` planned for minutes. Refused up front.
#[test]
fn too_many_processors_are_refused() {
    let (dir, path) = workflow_file("[workflow]\nprocessors = 5000\n[steps]\nx = \"1\"\n");
    refused(&["check", arg(&path)], 2, &["w.toml:2:14"]);
    refused(
        &["plan", arg(&path)],
        2,
        &["`processors` must be at most 4096"],
    );
    let (_dir2, ok) = workflow_file("[steps]\nx = \"1\"\n");
    let history = dir.path().join("h.sqlite");
    let dag = dir.path().join("g.json");
    std::fs::write(&dag, r#"{"tasks":[{"id":"a","cost":1,"iterations":1000}]}"#).unwrap();
    for args in [
        vec!["plan", arg(&ok), "-p", "4294967296"],
        vec![
            "run",
            arg(&ok),
            "--headless",
            "-p",
            "4294967296",
            "--history",
            arg(&history),
        ],
        vec!["schedule", arg(&dag), "-p", "100000"],
    ] {
        refused(&args, 2, &["-p must be at most 4096"]);
    }
    // The limit itself is fine.
    let out = flowcast(&["schedule", arg(&dag), "-p", "4096", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// `a <- a <- … <- 1` recursed once per arrow with no depth check and
/// overflowed the stack (SIGABRT) in every command.
#[test]
fn a_long_assignment_chain_is_refused_with_its_location() {
    let chain = "a <- ".repeat(100_000);
    for body in [format!("{chain}1"), format!("{{ {chain}1 }}")] {
        let (dir, path) = workflow_file(&format!("[steps]\nx = \"{body}\"\n"));
        let history = dir.path().join("h.sqlite");
        for args in [vec!["check", arg(&path)], run_args(&path, &history)] {
            refused(&args, 2, &["nested too deeply", "w.toml:2:", "step `x`"]);
        }
    }
    // A short chain still assigns right to left.
    let (dir, path) = workflow_file("[steps]\nx = \"{ a <- b <- 3; a + b }\"\n");
    let history = dir.path().join("h.sqlite");
    let mut args = run_args(&path, &history);
    args.push("--json");
    let out = flowcast(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["steps"]["x"]["value"], 6.0);
}

/// A FIFO as the history store: `history` opened it read-only, which
/// blocks until a writer comes, so it hung forever.
#[cfg(unix)]
#[test]
fn a_fifo_as_the_history_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("h.sqlite");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo")
        .success();
    assert!(made);
    refused(
        &["history", "--history", arg(&fifo)],
        2,
        &["not a regular file (a FIFO)"],
    );
    refused(
        &["model", "show", "--history", arg(&fifo)],
        2,
        &["not a regular file (a FIFO)"],
    );
    // A run goes on without a history, and says why.
    let (_d, path) = workflow_file("[steps]\nx = \"1\"\n");
    let out = flowcast(&run_args(&path, &fifo));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not a regular file (a FIFO)"),
        "{}",
        text(&out.stderr)
    );
}

/// Sizes no machine holds fail their own step with R's message, under a
/// small address space so that nothing here allocates gigabytes:
/// `diag(1e15)` overflowed `rows * cols` (a panic), `rep(…, 2^31 - 1)`
/// counted its positions in a 16 GB vector during shape inference (an
/// abort), `replicate(1e15, …)` and `binom.test(1e15, 1e15)` ran for days.
#[test]
fn sizes_past_memory_fail_their_step_like_r() {
    let doc = steps_fail_located(
        "[steps]\na = \"diag(1e15)\"\nb = \"rep(2147483647L, 2147483647L)\"\n\
         c = \"replicate(1e15, 1)\"\nd = \"binom.test(1e15, 1e15)\"\n\
         e = \"binom.test(1e15, 2e15)$p.value\"\n",
        &[
            (
                "2:6",
                "a",
                "cannot allocate vector of size 7450580596923828273152.0 Gb",
            ),
            ("3:6", "b", "cannot allocate vector of size 16.0 Gb"),
            ("4:6", "c", "cannot allocate vector of size 3725290.3 Gb"),
            ("5:6", "d", "cannot allocate vector of size 3725290.3 Gb"),
        ],
    );
    // Where R's two-sided p-value needs no such vector, the test runs.
    assert_eq!(doc["steps"]["e"]["status"], "ok", "{doc}");
}

/// A damaged history whose schema text holds an ESC: SQLite quotes the
/// bad token in its error, which `history` and `run` printed raw (a
/// terminal escape from a file); now escaped like all file text.
#[test]
fn a_damaged_history_is_reported_escaped() {
    let (dir, path) = workflow_file("[steps]\nx = \"1\"\n");
    let history = dir.path().join("h.sqlite");
    let out = flowcast(&run_args(&path, &history));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut bytes = std::fs::read(&history).unwrap();
    let table = bytes
        .windows(17)
        .position(|w| w == b"CREATE TABLE runs")
        .expect("the runs table's schema");
    let null = table
        + bytes[table..]
            .windows(4)
            .position(|w| w == b"NULL")
            .expect("a NULL in it");
    bytes[null..null + 2].copy_from_slice(b"\x1b]");
    std::fs::write(&history, bytes).unwrap();
    for (args, code) in [
        (vec!["history", "--history", arg(&history)], 1),
        (run_args(&path, &history), 0),
    ] {
        let out = flowcast(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(!err.contains('\u{1b}'), "{args:?}: a raw ESC in {err:?}");
        assert!(
            err.contains("unrecognized token: \"\\u{1b}\""),
            "{args:?}: {err}"
        );
    }
}

/// `append(x, v, after = -Inf)` overflowed the length of `1L:after` (a
/// panic, reported as an internal error) and `after = -1e15` would have
/// filled memory; both now fail as R's seq_colon does.
#[test]
fn append_after_far_below_zero_fails_like_r() {
    let doc = steps_fail_located(
        "[steps]\na = \"append(1:3, 4, after = -Inf)\"\n\
         b = \"append(1:3, 4, after = -1e15)\"\nc = \"append(1:3, 4, after = 1)\"\n",
        &[
            ("2:6", "a", "result would be too long a vector"),
            ("3:6", "b", "cannot allocate vector of size 7450580.6 Gb"),
        ],
    );
    assert_eq!(doc["steps"]["c"]["value"], serde_json::json!([1, 4, 2, 3]));
}

/// `l[[1e12]] <- 1` padded the list with NULLs by a plain resize, and the
/// failed allocation aborted the process; R's EnlargeVector's message
/// (5% more than the new length) now fails the step.
#[test]
fn a_list_stretched_past_memory_fails_its_step() {
    let doc = steps_fail_located(
        "[steps]\na = \"{ l <- list(); l[[1e12]] <- 1; l }\"\n\
         b = \"{ l <- list(1); l[[3]] <- 2; length(l) }\"\n\
         c = \"{ x <- numeric(0); for (i in 1:3) x[1e12] <- 1; length(x) }\"\n",
        // An atomic vector stretched in a loop: the same request, R's size.
        &[
            ("2:21", "a", "cannot allocate vector of size 7823.1 Gb"),
            ("4:40", "c", "cannot allocate vector of size 7823.1 Gb"),
        ],
    );
    assert_eq!(doc["steps"]["b"]["value"], 3.0);
}

/// `(function(x) x)(1)(1)…(1)`: each call of a value deparsed everything
/// inside it for its message: 1,000 levels took 4 s in the parser and
/// 5,000 more than 20 s (before any step runs, so a first Ctrl-C did not
/// end it). The callee's stored text is reused now, and the refusal comes
/// at once.
#[test]
fn a_long_chain_of_calls_of_values_parses_promptly() {
    // Eight such steps: 12 s each before, well past the 30 s `flowcast`
    // allows a command.
    let chain = format!("(function(x) x){}", "(1)".repeat(4_000));
    let steps: String = (0..8).map(|k| format!("x{k} = \"{chain}\"\n")).collect();
    let (dir, path) = workflow_file(&format!("[steps]\n{steps}"));
    let history = dir.path().join("h.sqlite");
    for args in [vec!["check", arg(&path)], run_args(&path, &history)] {
        refused(
            &args,
            2,
            &[
                // R's message for a value that is no function (a number).
                "attempt to apply non-function",
                "w.toml:2:7 (step `x0`)",
                "w.toml:9:7 (step `x7`)",
                "8 errors in",
            ],
        );
    }
    // A call of what a call of a value gives is refused at its place.
    let (_dir, path) = workflow_file(
        "[steps]\nFn = \"ecdf(c(1, 2, 4))\"\ny = \"ecdf(c(1, 2, 4))(2)(3)\"\nz = \"(Fn)(2)\"\n",
    );
    refused(
        &["check", arg(&path)],
        2,
        &[
            "attempt to apply non-function",
            "w.toml:3:6 (step `y`)",
            "1 error in",
        ],
    );
}

/// Optimisers over a million parameters: Nelder-Mead's simplex (8 TB)
/// was built row by row until memory ran out and the process was killed,
/// and BFGS's inverse Hessian asked for 4 TB in one allocation, whose
/// failure aborts. Each is refused before it is made, as nlm's was.
#[test]
fn optimisers_refuse_matrices_past_memory() {
    let doc = steps_fail_located(
        "[steps]\na = \"optim(rep(1, 1e6), function(x) 1)$value\"\n\
         b = \"optim(rep(1, 1e6), function(x) sum(x), method = 'BFGS')$value\"\n\
         c = \"nlm(function(x) sum(x^2), rep(1, 1e6))$minimum\"\n\
         d = \"optim(c(1, 2), function(x) sum((x - 3)^2), method = 'BFGS')$value\"\n",
        &[
            ("2:6", "a", "cannot allocate vector of size 7450.6 Gb"),
            ("3:6", "b", "cannot allocate vector of size 3725.3 Gb"),
            ("4:6", "c", "cannot allocate memory block of size 7450.6 Gb"),
        ],
    );
    assert!(doc["steps"]["d"]["value"].as_f64().unwrap() < 1e-8);
}

/// Reading a workflow copied the set of all step names once per step to
/// find the calls of values: 20,000 steps took 12 s in `check`, `plan`
/// and `run` before anything ran, and 60,000 some two minutes.
#[test]
fn sixty_thousand_steps_are_read_in_linear_time() {
    let n = 60_000;
    let mut toml = String::from("[steps]\n");
    for i in 0..n {
        toml.push_str(&format!("s{i} = \"{i}\"\n"));
    }
    toml.push_str(&format!("z = \"s1 + s{}\"\n", n - 1));
    let (_dir, path) = workflow_file(&toml);
    let out = flowcast(&["check", arg(&path)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(
        table.lines().any(|l| l.trim_start().starts_with("z ")),
        "{table}"
    );
}

/// A chart read back (`export CHART.gantt.json`, or one stored in the
/// history) with `"workers": 1000000000000`: every writer drew a lane per
/// worker, and the SVG's, PNG's, trace's and Mermaid's allocations of
/// gigabytes failed and aborted. Refused as a chart no run can have.
#[test]
fn a_chart_with_more_workers_than_a_run_has_is_refused() {
    let (dir, history, chart) = exported_chart("[workflow]\nname = \"g\"\n[steps]\nx = \"1\"\n");
    let json = std::fs::read_to_string(&chart).unwrap();
    assert!(json.contains("\"workers\": 2"), "{json}");
    std::fs::write(
        &chart,
        json.replace("\"workers\": 2", "\"workers\": 1000000000000"),
    )
    .unwrap();
    let message = "`workers` is 1000000000000, but a run has at most 4096 workers";
    for ext in ["svg", "png", "trace.json", "mmd", "csv"] {
        let to = dir.path().join(format!("out.{ext}"));
        refused(
            &["export", arg(&chart), "-o", arg(&to)],
            1,
            &[arg(&chart), message],
        );
        assert!(!to.exists(), "{ext} written");
    }
    // The same chart stored with the run in the history.
    let conn = rusqlite::Connection::open(&history).unwrap();
    let stored: String = conn
        .query_row("SELECT chart FROM charts", [], |r| r.get(0))
        .unwrap();
    let bad = stored.replace("\"workers\":2", "\"workers\":1000000000000");
    assert_ne!(bad, stored);
    conn.execute("UPDATE charts SET chart = ?1", [&bad])
        .unwrap();
    drop(conn);
    let to = dir.path().join("run.svg");
    refused(
        &[
            "export",
            "--run",
            "last",
            "--history",
            arg(&history),
            "-o",
            arg(&to),
        ],
        2,
        &["run 1's chart", message],
    );
    // At the limit a chart is still drawn.
    std::fs::write(&chart, json.replace("\"workers\": 2", "\"workers\": 4096")).unwrap();
    let to = dir.path().join("wide.mmd");
    let out = flowcast(&["export", arg(&chart), "-o", arg(&to)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&to).unwrap().contains("w4095"));
}

/// A workflow named with control characters (TOML's `\u001b`): the SVG
/// held them raw, which XML forbids, so no reader opened it and the PNG
/// export failed with resvg's message. They are spelt out now.
#[test]
fn an_svg_of_a_workflow_named_with_control_characters_is_xml() {
    let (dir, path) =
        workflow_file("[workflow]\nname = \"a\\u001b]0;b\\u0007<&>\"\n[steps]\nx = \"1\"\n");
    let history = dir.path().join("h.sqlite");
    for ext in ["svg", "png"] {
        let to = dir.path().join(format!("chart.{ext}"));
        let out = flowcast(&[
            "export",
            arg(&path),
            "-p",
            "1",
            "--history",
            arg(&history),
            "-o",
            arg(&to),
        ]);
        assert_eq!(out.status.code(), Some(0), "{ext}: {}", text(&out.stderr));
    }
    let svg = std::fs::read_to_string(dir.path().join("chart.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    let title = doc
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .find(|t| t.contains("on 1 workers"))
        .expect("the title");
    assert!(title.starts_with("a\\u{1b}]0;b\\u{7}<&> — "), "{title:?}");
    let png = std::fs::read(dir.path().join("chart.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}

/// `--seed 4294967297` ran with the seed's low 32 bits (the draws of
/// `--seed 1`) while the summary said 4294967297; the workflow's `seed`
/// refuses such a number, and so does `--seed` now. `--seed -5` was taken
/// for a flag and refused; it is R's `set.seed(-5)`.
#[test]
fn a_seed_past_r_integers_is_refused() {
    let (dir, path) = workflow_file("[steps]\nx = \"rnorm(2)\"\n");
    let history = dir.path().join("h.sqlite");
    let mut args = run_args(&path, &history);
    args.extend(["--no-cache", "--seed", "4294967297"]);
    refused(
        &args,
        2,
        &[
            "--seed",
            "must fit in R's 32-bit integers (-2147483648 to 2147483647)",
        ],
    );
    let draws = |how: &[&str], path: &Path| {
        let mut args = run_args(path, &history);
        args.extend(["--no-cache", "--json"]);
        args.extend(how);
        let out = flowcast(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["steps"]["x"]["value"].clone()
    };
    let (_d, seeded) = workflow_file("[workflow]\nseed = -5\n[steps]\nx = \"rnorm(2)\"\n");
    let by_flag = draws(&["--seed", "-5"], &path);
    // R: set.seed(-5); rnorm(2)
    assert_eq!(
        by_flag,
        serde_json::json!([0.6267692997357881, -0.8740508208245039])
    );
    assert_eq!(by_flag, draws(&[], &seeded));
}

/// Two R computations that end at once, which spun for ever:
/// `kmeans(…, nstart = Inf)` is R's `2:nstart` error, and Cheng's BB for
/// `rbeta` with a huge shape must leave its loop on a NaN test as R's
/// `while` does.
#[test]
fn an_infinite_nstart_and_a_huge_beta_shape_end_like_r() {
    let doc = steps_fail_located(
        "[workflow]\nseed = 1\n[steps]\n\
         a = \"kmeans(matrix(c(1, 2, 3, 10, 11, 12), 6, 1), 2, nstart = Inf)\"\n\
         b = \"rbeta(3, 1e308, 2)\"\nc = \"rbeta(3, 2, 1e308)\"\n\
         d = \"kmeans(matrix(c(1, 2, 3, 10, 11, 12), 6, 1), 2, nstart = 3)$tot.withinss\"\n",
        &[("4:6", "a", "result would be too long a vector")],
    );
    let values = |step: &str| -> Vec<f64> {
        let v = doc["steps"][step]["value"].as_array().expect("a vector");
        v.iter().map(|x| x.as_f64().unwrap()).collect()
    };
    // R 4.2: set.seed(1); rbeta(3, 1e308, 2) is 1 1 1; rbeta(3, 2, 1e308)
    // is 2e-308 three times.
    assert_eq!(values("b"), [1.0, 1.0, 1.0]);
    let tiny = 2.0 / 1e308;
    assert_eq!(values("c"), [tiny, tiny, tiny]);
    assert_eq!(doc["steps"]["d"]["value"], 4.0);
}

/// A run stored without its chart whose worker count was edited to 2^63 - 1:
/// `export --run` planned the workflow again for that many workers and
/// overflowed in emcp (a panic). The run is drawn as it ran instead, with
/// a note why its plan is not.
#[test]
fn a_stored_run_on_absurdly_many_workers_is_drawn_as_it_ran() {
    let (dir, path) = workflow_file("[steps]\nx = \"1\"\ny = \"x + 1\"\n");
    let history = dir.path().join("h.sqlite");
    let out = flowcast(&run_args(&path, &history));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let conn = rusqlite::Connection::open(&history).unwrap();
    conn.execute_batch("DELETE FROM charts; UPDATE runs SET processors = 9223372036854775807;")
        .unwrap();
    drop(conn);
    let to = dir.path().join("run.svg");
    let out = flowcast(&[
        "export",
        "--run",
        "1",
        "--history",
        arg(&history),
        "-o",
        arg(&to),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("the store says it ran on 9223372036854775807 workers, which no run can"),
        "{err}"
    );
    let svg = std::fs::read_to_string(&to).unwrap();
    roxmltree::Document::parse(&svg).expect("well-formed XML");
    // What ran is drawn.
    assert!(svg.contains(r#"data-task="y" data-status="done""#), "{svg}");
}

/// `table(1:1e7, 1:1e7)`: a 10^7 x 10^7 table of counts (800 TB) was
/// allocated, and its failure aborted. R's table() refuses past 2^31 cells.
#[test]
fn a_table_past_two_to_the_31_cells_fails_like_r() {
    // R 4.2's message for table(x, x) with x <- 1:50000.
    let doc = steps_fail_located(
        "[steps]\na = \"table(1:1e7, 1:1e7)\"\n\
         b = \"sum(table(c(1, 2, 2), c(3, 3, 4)))\"\n",
        &[("2:6", "a", "attempt to make a table with >= 2^31 elements")],
    );
    assert_eq!(doc["steps"]["b"]["value"], 3.0);
}

/// A bare DAG whose costs are each finite but add up past the largest
/// double: `schedule` printed a makespan of `inf` (`null` in JSON) and
/// start times of 300 digits. Refused, from JSON and STG alike.
#[test]
fn a_graph_whose_costs_overflow_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("g.json");
    std::fs::write(
        &json,
        r#"{"tasks":[{"id":"a","cost":1e308},{"id":"b","cost":1e308}],"edges":[{"from":"a","to":"b","bytes":0}]}"#,
    )
    .unwrap();
    let stg = dir.path().join("g.stg");
    std::fs::write(&stg, "2\n0 0 0\n1 1e308 1 0\n2 1e308 1 1\n3 0 1 2\n").unwrap();
    let message = "the costs add up past the largest number";
    for graph in [&json, &stg] {
        refused(
            &["schedule", arg(graph), "-p", "2", "--scheduler", "emcp"],
            2,
            &[arg(graph), message],
        );
    }
    // Half as much is scheduled, its makespan finite.
    std::fs::write(
        &json,
        r#"{"tasks":[{"id":"a","cost":5e307},{"id":"b","cost":5e307}],"edges":[{"from":"a","to":"b","bytes":0}]}"#,
    )
    .unwrap();
    let out = flowcast(&[
        "schedule",
        arg(&json),
        "-p",
        "2",
        "--scheduler",
        "emcp",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let makespan = doc["makespan"].as_f64().expect("a finite makespan");
    assert!((makespan - 1e308).abs() <= 1e293, "{makespan}");
}

/// Runs `workflow` (its text) on 2 workers, recorded in `DIR/h.sqlite`,
/// and exports its chart as `DIR/c.gantt.json`; returns DIR, the history
/// and the chart.
fn exported_chart(workflow: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (dir, path) = workflow_file(workflow);
    let history = dir.path().join("h.sqlite");
    let chart = dir.path().join("c.gantt.json");
    let out = flowcast(&[
        "export",
        arg(&path),
        "-p",
        "2",
        "--history",
        arg(&history),
        "-o",
        arg(&chart),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    (dir, history, chart)
}

/// Writes the chart of a two-step run (`x`, then `y`) as
/// `DIR/c.gantt.json` after `edit` has changed its JSON.
fn edited_chart(edit: impl FnOnce(&mut serde_json::Value)) -> (tempfile::TempDir, PathBuf) {
    let (dir, _, chart) =
        exported_chart("[workflow]\nname = \"g\"\n[steps]\nx = \"1\"\ny = \"x + 1\"\n");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&chart).unwrap()).unwrap();
    edit(&mut doc);
    std::fs::write(&chart, doc.to_string()).unwrap();
    (dir, chart)
}

/// A chart whose times were edited to ±1e308: the Mermaid writer's
/// milliseconds overflowed (a panic). Refused, naming the task, in every
/// format.
#[test]
fn a_chart_with_times_past_any_run_is_refused() {
    let (dir, chart) = edited_chart(|doc| {
        doc["rows"][0]["actual"]["start"] = serde_json::json!(1e308);
        doc["rows"][0]["actual"]["end"] = serde_json::json!(-1e308);
    });
    for ext in ["mmd", "svg", "png", "trace.json", "csv"] {
        let to = dir.path().join(format!("out.{ext}"));
        refused(
            &["export", arg(&chart), "-o", arg(&to)],
            1,
            &[
                arg(&chart),
                "the run time of task `x` is 1e308, but a chart's times are seconds",
                "at most 1e9",
            ],
        );
        assert!(!to.exists(), "{ext} written");
    }
}

/// A chart whose workflow and function were named with 100,000
/// characters: resvg laid out the title and the legend in full, some 25 s
/// each, for a PNG. Both are cut now; the SVG's tooltips keep the name.
#[test]
fn a_chart_with_huge_names_exports_promptly() {
    let long = "f".repeat(100_000);
    let (dir, chart) = edited_chart(|doc| {
        doc["workflow"] = serde_json::json!(long);
        doc["rows"][0]["function"] = serde_json::json!(long);
    });
    let png = dir.path().join("out.png");
    let out = flowcast(&["export", arg(&chart), "-o", arg(&png)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let svg = dir.path().join("out.svg");
    let out = flowcast(&["export", arg(&chart), "-o", arg(&svg)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&svg).unwrap();
    let legend = format!(">{}…</text>", &long[..59]);
    assert!(svg.contains(&legend), "the legend's name is cut");
    assert!(
        svg.contains(&format!("({long})</title>")),
        "the tooltip names it in full"
    );
}

/// A step named `a\u{202e}b` (TOML's escape for RIGHT-TO-LEFT OVERRIDE):
/// its diagnostic printed the override raw, and the terminal showed the
/// rest of the line reversed, other text than the file holds. Spelt out
/// now, as control characters are; right-to-left letters are left alone.
#[test]
fn a_bidirectional_override_in_a_name_is_spelt_out() {
    let (_dir, path) = workflow_file("[steps]\n\"a\\u202eb\" = \"1\"\n\"x\\u2066\" = \"2\"\n");
    let out = flowcast(&["check", arg(&path)]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("(step `a\\u{202e}b`)"), "{err}");
    assert!(err.contains("(step `x\\u{2066}`)"), "{err}");
    assert!(
        !err.contains('\u{202e}') && !err.contains('\u{2066}'),
        "{err}"
    );
    assert!(err.contains("2 errors in"), "{err}");
}

/// A workflow saved as Latin-1 (`"café"` with byte 0xe9) was refused as a
/// whole, "stream did not contain valid UTF-8", with no line or column
/// to look at; the first bad byte is now located, in `check`, `run` and
/// `schedule`.
#[test]
fn a_workflow_not_in_utf8_is_refused_at_its_first_bad_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(&path, b"[steps]\nx = \"1\"\ny = \"paste('caf\xe9')\"\n").unwrap();
    let at = format!("{}:3:16 (step `y`)", arg(&path));
    let history = dir.path().join("h.sqlite");
    refused(&["check", arg(&path)], 2, &["byte 0xe9", "not UTF-8", &at]);
    refused(&run_args(&path, &history), 2, &["byte 0xe9", &at]);
    // A graph for `schedule`, likewise.
    let dag = dir.path().join("g.json");
    std::fs::write(&dag, b"{\"tasks\":\n [{\"id\":\"\xff\",\"cost\":1}]}").unwrap();
    refused(
        &["schedule", arg(&dag), "-p", "2"],
        2,
        &["g.json: 2:10: byte 0xff is not UTF-8 text"],
    );
}

/// `out = "a\u0000b"` passed `check`, and `run` then failed unlocated,
/// blaming `--out`, which was not given; it is refused at the value.
#[test]
fn an_out_directory_with_a_nul_is_refused_where_it_is_written() {
    let (_dir, path) = workflow_file("[workflow]\nout = \"res\\u0000ults\"\n[steps]\nx = \"1\"\n");
    let at = format!("{}:2:7", arg(&path));
    refused(
        &["check", arg(&path)],
        2,
        &["`out` must not contain a NUL", &at],
    );
}

/// `bench schedule -p 99999999` sized a worker table of 5.6 GB, and
/// `--graphs 99999999999` reserved 5.6 TB for the graphs: both aborted on
/// the failed allocation. Refused up front, as `schedule -p` is; and
/// `bench kernels --sizes 100000` too.
#[test]
fn bench_schedule_settings_past_memory_are_refused() {
    refused(
        &["bench", "schedule", "--sizes", "10", "-p", "99999999"],
        2,
        &["-p 99999999: must be at most 4096"],
    );
    refused(
        &["bench", "schedule", "--sizes", "10", "-p", "0"],
        2,
        &["-p 0: must be at least 1"],
    );
    for (sizes, graphs) in [("10", "99999999999"), ("100000000", "1")] {
        refused(
            &[
                "bench", "schedule", "--sizes", sizes, "-p", "2", "--graphs", graphs,
            ],
            2,
            &["more than 1000000 tasks per method"],
        );
    }
    // Likewise `bench kernels --sizes 100000`: 80 GB matrices.
    refused(
        &["bench", "kernels", "--no-r", "--sizes", "100000"],
        2,
        &["--sizes 100000: at most 5000"],
    );
}

/// `merge` of two frames with no column in common is their cross join;
/// of two 10^4-row frames, 10^8 rows. Its memory check counted the
/// columns (1.6 GB) but not the two row maps (3.2 GB) built first, so
/// under a 4 GB address space the step aborted the process instead of
/// failing with R's "cannot allocate".
#[test]
fn a_cross_join_past_memory_fails_its_step() {
    let json = steps_fail_located(
        "[steps]\nm = \"merge(data.frame(a = 1:1e4), data.frame(b = 1:1e4))\"\n\
         n = \"nrow(merge(data.frame(a = 1:3), data.frame(b = 1:4)))\"\n",
        &[("2:6", "m", "cannot allocate vector of size 5.2 Gb")],
    );
    assert_eq!(json["steps"]["n"]["value"], serde_json::json!(12));
}

/// `model.matrix(~ factor(1:1e4))` is a 10^4 x 10^4 matrix, 800 MB: the
/// matrix grew by doubling while the term's columns were held beside it,
/// and under a 4 GB address space the process aborted (with 10^5 levels,
/// after a minute of allocating). The room is checked, and the matrix
/// reserved, before any column is made.
#[test]
fn a_model_matrix_past_memory_fails_its_step() {
    let json = steps_fail_located(
        "[steps]\nm = \"model.matrix(~ factor(1:1e5))\"\n\
         n = \"dim(model.matrix(~ factor(c(1, 2, 2))))\"\n",
        &[("2:6", "m", "cannot allocate vector of size 74.5 Gb")],
    );
    assert_eq!(json["steps"]["n"]["value"], serde_json::json!([3, 2]));
}

/// Sizes read by kernels whose shape rules do not know them (`m:n` from a
/// matrix step, `lag.max`, a number of contrast levels, `diffinv`'s lag)
/// were allocated unchecked, and under a 4 GB address space the process
/// aborted; `diffinv`'s differences recursed a million levels deep. Each
/// now fails its own step, with R's message where R has one.
#[test]
fn kernel_sizes_past_memory_fail_their_step_like_r() {
    let json = steps_fail_located(
        "[steps]\nm = \"matrix(c(2, 1, 0, 1), 2)\"\na = \"`:`(m, 2147483647L)\"\n\
         b = \"ARMAtoMA(1, 1, 2147483647L)\"\nc = \"contr.sum(1e10)\"\n\
         d = \"contr.treatment(1e308)\"\ne = \"contr.helmert(70000)\"\n\
         f = \"diffinv(1:3, 2147483647L)\"\ng = \"diffinv(1:3, 1, 100000)\"\n\
         h = \"length(diffinv(1:3, 1, 200))\"\ni = \"dim(contr.sum(300))\"\n",
        &[
            ("3:6", "a", "cannot allocate vector of size 16.0 Gb"),
            ("4:6", "b", "cannot allocate vector of size 16.0 Gb"),
            ("5:6", "c", "vector size cannot be NA"),
            ("6:6", "d", "result would be too long a vector"),
            ("7:6", "e", "cannot allocate vector of size 36.5 Gb"),
            ("8:6", "f", "cannot allocate vector of size 16.0 Gb"),
            (
                "9:6",
                "g",
                "flowcast's diffinv takes at most 200 'differences' (R runs out of C stack soon after)",
            ),
        ],
    );
    assert_eq!(json["steps"]["h"]["value"], serde_json::json!(203));
    assert_eq!(json["steps"]["i"]["value"], serde_json::json!([300, 299]));
}

/// Steps named `...`, `..1` or `NA_integer_` (R's reserved words too) were
/// taken: reading `NA_integer_` gave the NA constant, not the step, and
/// `... + 1` read a step no R code can. Refused like `if` or `NA`.
#[test]
fn r_reserved_dots_and_typed_nas_cannot_name_a_step() {
    for name in ["...", "..1", "NA_integer_", "NA_character_"] {
        let (_dir, path) = workflow_file(&format!("[steps]\n\"{name}\" = \"1\"\nx = \"2\"\n"));
        refused(
            &["check", arg(&path)],
            2,
            &[
                &format!("invalid step name: `{name}` is a reserved word in R"),
                "w.toml:2:1",
            ],
        );
    }
    let (_dir, path) = workflow_file("[steps]\nb = { for = \"..2 in 1:3\", do = \"1\" }\n");
    refused(
        &["check", arg(&path)],
        2,
        &[
            "invalid loop variable: `..2` is a reserved word in R",
            "w.toml:2:",
        ],
    );
}

/// `terms(y ~ (a + … + n)^14)`: R's TrimRepeats is hashed, flowcast's
/// compared each of the 16,383 terms with every one kept, a minute in a
/// release build before the step's value came (now 5 s). With 12
/// variables, 4 s then and a quarter of a second now.
#[test]
fn a_formula_power_of_many_variables_expands_promptly() {
    let (dir, path) = workflow_file(
        "[steps]\nt = 'length(attr(terms(y ~ (a + b + c + d + e + f + g + h + i + j + k + l)^12), \"term.labels\"))'\n\
         u = 'length(attr(terms(y ~ (a + b + c + d + e + f + g + h + i + j + k + l)^12 - (a + b + c + d + e + f + g)^7), \"term.labels\"))'\n",
    );
    let history = dir.path().join("h.sqlite");
    let mut args = run_args(&path, &history);
    args.push("--json");
    let out = flowcast(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["steps"]["t"]["value"], 4095.0);
    assert_eq!(doc["steps"]["u"]["value"], 4095.0 - 127.0);
}

/// `ts.union(ts(1:10), ts(1:10, start = 1e15))` spans 10^15 rows: the
/// result's matrix (16 PB) was allocated unchecked and the process
/// aborted. R's `matrix(, n, ns)` refuses such an `n`; so does the step.
#[test]
fn a_time_series_union_spanning_past_memory_fails_like_r() {
    steps_fail_located(
        "[steps]\na = \"ts.union(ts(1:10), ts(1:10, start = 1e15))\"\n\
         b = \"ts.intersect(ts(1:10), ts(1:10, start = 1e15))\"\n\
         c = \"ts.union(ts(1:10), ts(1:10, start = 1e9))\"\n",
        &[
            ("2:6", "a", "invalid 'nrow' value (too large or NA)"),
            ("4:6", "c", "cannot allocate vector of size 14.9 Gb"),
        ],
    );
}

/// Lengths up to R's 2^52 elements: `numeric(1e12)` was refused by
/// `check` as an "invalid 'length' argument" (capped at INT_MAX), and
/// `seq_len(1e15)` too. R represents them; this machine cannot allocate
/// them, so the step fails with R's message, sized in R's bytes (4 for an
/// integer or a logical).
#[test]
fn long_vectors_r_can_represent_fail_where_they_are_allocated() {
    steps_fail_located(
        "[steps]\na = \"numeric(1e12)\"\nb = \"seq_len(1e15)\"\nc = \"integer(1e12)\"\n\
         d = \"logical(1e12)\"\ne = \"character(1e12)\"\nf = \"numeric(2^52)\"\n\
         g = \"vector('integer', 1e12)\"\nh = \"length(numeric(-0.5))\"\n",
        &[
            ("2:6", "a", "cannot allocate vector of size 7450.6 Gb"),
            ("3:6", "b", "cannot allocate vector of size 7450580.6 Gb"),
            ("4:6", "c", "cannot allocate vector of size 3725.3 Gb"),
            ("5:6", "d", "cannot allocate vector of size 3725.3 Gb"),
            ("6:6", "e", "cannot allocate vector of size 7450.6 Gb"),
            ("7:6", "f", "cannot allocate vector of size 33554432.0 Gb"),
            ("8:6", "g", "cannot allocate vector of size 3725.3 Gb"),
        ],
    );
    // What R's asVecSize and do_seq_len call invalid stays refused.
    let (_dir, path) = workflow_file(
        "[steps]\na = \"numeric(1e16)\"\nb = \"seq_len(2^52)\"\nc = \"numeric(NaN)\"\n\
         d = \"numeric(Inf)\"\ne = \"numeric(-1)\"\nf = \"seq_len(-Inf)\"\n\
         g = \"integer(NA)\"\n",
    );
    refused(
        &["check", arg(&path)],
        2,
        &[
            "vector size specified is too large\n  --> ",
            "result would be too long a vector\n  --> ",
            "vector size cannot be NA/NaN\n  --> ",
            "vector size cannot be infinite\n  --> ",
            "invalid 'length' argument\n  --> ",
            "argument must be coercible to non-negative integer\n  --> ",
        ],
    );
}

/// A local function calling one defined after it in the same `{ }`
/// statements said only "could not find function `h`" (R finds `h` when
/// the call runs); two local functions calling each other, the same.
/// flowcast resolves a local function's calls where it is defined: the
/// refusal now says so, and names the pair that recurse.
#[test]
fn local_functions_defined_after_their_caller_are_refused_precisely() {
    let (_dir, path) = workflow_file(
        "[steps]\na = \"{ g <- function(x) h(x) + 1; h <- function(x) x * 2; g(3) }\"\n\
         b = \"{ ev <- function(n) if (n == 0) TRUE else od(n - 1); \
         od <- function(n) if (n == 0) FALSE else ev(n - 1); ev(10) }\"\n",
    );
    refused(
        &["check", arg(&path)],
        2,
        &[
            "could not find function `h`: `g` calls it, but it is defined after `g`",
            "w.toml:2:",
            "`ev` and `od` call each other: a local function may call itself",
            "w.toml:3:",
        ],
    );
}
