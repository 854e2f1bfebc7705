//! Issue 13, items 14, 16 and 17, against R 4.2.2: `flowcast run --json
//! --out` on tests/fixtures/workflows/rints.toml, whose every step R also
//! evaluated (tests/fixtures/r/rints.R made tests/fixtures/r/rints.json).
//! Values as the hold-out test compares them (`common::r_json`), and each
//! step's warnings, R's texts in R's order.

use std::path::Path;

use serde_json::Value as Json;

mod common;
use common::r_json;

fn run_rints(scheduler: &str) -> (tempfile::TempDir, Json) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = common::flowcast_command()
        .args([
            "run",
            "--headless",
            "--json",
            "-p",
            "2",
            "--scheduler",
            scheduler,
            "--out",
        ])
        .arg(dir.path())
        .arg(root.join("tests/fixtures/workflows/rints.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{scheduler}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Json = serde_json::from_slice(&out.stdout).unwrap();
    (dir, doc)
}

fn fixture() -> Json {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/fixtures/r/rints.json")).unwrap(),
    )
    .unwrap()
}

#[test]
fn values_and_warnings_match_r() {
    let r = fixture();
    for scheduler in ["emcp", "dynamic"] {
        let (dir, doc) = run_rints(scheduler);
        let mut errors = Vec::new();
        for (step, expected) in r.as_object().unwrap() {
            let file = dir.path().join(format!("{step}.json"));
            match std::fs::read_to_string(&file) {
                Ok(text) => {
                    let ours: Json = serde_json::from_str(&text).unwrap();
                    r_json::compare(step, &ours, &expected["value"], &mut errors);
                }
                Err(_) => errors.push(format!("{step}: no value ({})", doc["steps"][step])),
            }
            let warnings = &doc["steps"][step]["warnings"];
            if warnings != &expected["warnings"] {
                errors.push(format!(
                    "{step}: warnings {warnings} where R gives {}",
                    expected["warnings"]
                ));
            }
        }
        assert!(
            errors.is_empty(),
            "{scheduler}: {} differences:\n{}",
            errors.len(),
            errors.join("\n")
        );
    }
}

/// A warning is shown under its step in the headless table, with the
/// call R names, and never fails the run.
#[test]
fn the_table_shows_warnings_under_their_step() {
    let dir = tempfile::tempdir().unwrap();
    let wf = dir.path().join("w.toml");
    std::fs::write(
        &wf,
        "[steps]\na = 'sqrt(c(-1, 4))'\nb = '2147483647L + 1L'\nc = 'a + 1'\n",
    )
    .unwrap();
    let out = common::flowcast_command()
        .args(["run", "--headless"])
        .arg(&wf)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("  warning: In sqrt(c(-1, 4)) : NaNs produced"),
        "{table}"
    );
    assert!(
        table.contains("  warning: In 2147483647L + 1L : NAs produced by integer overflow"),
        "{table}"
    );
    assert!(table.contains("2 with warnings"), "{table}");
}

/// Indexing the issue named: `x[[NA]]` is R 4.2's error for an atomic
/// vector, NULL for a list; an unsupported `[` argument is a located error.
#[test]
fn double_bracket_na_and_bad_bracket_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let wf = dir.path().join("w.toml");
    std::fs::write(&wf, "[steps]\nx = 'c(1, 2)'\ny = 'x[[NA]]'\n").unwrap();
    let out = common::flowcast(&["check", wf.to_str().unwrap()]);
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("subscript out of bounds"), "{text}");
    std::fs::write(&wf, "[steps]\nx = 'c(1, 2)'\ny = 'x[1, exact = TRUE]'\n").unwrap();
    let out = common::flowcast(&["check", wf.to_str().unwrap()]);
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("3:11") && text.contains("`[` takes only `drop =`"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(2), "{text}");
}

/// The chart the TUI draws keeps each task's warnings (its status cell is
/// marked and the selected task's line shows the text), and a chart stored
/// before warnings existed still reads.
#[test]
fn the_chart_carries_warnings_for_the_tui() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(
        &path,
        "[steps]\na = 'log(-1)'\nb = 'c(1, 2, 3) * c(1, 2)'\nc = '1 + 1'\n",
    )
    .unwrap();
    let wf = flowcast::workflow::load(&path).unwrap();
    let graph = flowcast::graph::build(&wf).unwrap();
    let costs = vec![0.001; graph.tasks.len()];
    let chart =
        flowcast::cli::chart::record(&wf, &graph, &costs, 2, flowcast::sched::Scheduler::Emcp, 1)
            .unwrap();
    let warnings = |name: &str| {
        chart
            .rows
            .iter()
            .find(|r| r.name == name)
            .unwrap()
            .warnings()
            .to_vec()
    };
    // With where each call is: the TUI shows the step's name beside it.
    assert_eq!(
        warnings("a"),
        ["In log(-1) : NaNs produced (line 2, column 6)"]
    );
    assert_eq!(
        warnings("b"),
        ["In c(1, 2, 3) * c(1, 2) : longer object length is not a multiple of shorter object length (line 3, column 6)"]
    );
    assert!(warnings("c").is_empty());
    let json = serde_json::to_string(&chart).unwrap();
    let back: flowcast::report::gantt::Gantt = serde_json::from_str(&json).unwrap();
    assert_eq!(back, chart);
    let old = json.replace(
        ",\"warnings\":[\"In log(-1) : NaNs produced (line 2, column 6)\"]",
        "",
    );
    assert_ne!(old, json);
    let _: flowcast::report::gantt::Gantt = serde_json::from_str(&old).unwrap();
}
