//! Issue 17: data frames with text and factor columns, factors, lm with
//! factor terms, grouping (tapply, split, aggregate, table) and write.csv.
//! The workflow tests/fixtures/workflows/frames2.toml runs in a copy of
//! the fixtures, and every step must equal what R computed for it
//! (tests/fixtures/r/frames2.R wrote frames2.json); each file write.csv
//! writes must equal R's byte for byte (tests/fixtures/csv/written/).

use std::path::{Path, PathBuf};

use crate::common;
use common::text;
use common::{flowcast, r_json};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn frames2_workflow_matches_r() {
    let (dir, wf) = r_json::copy_fixtures("frames2.toml");
    let mut errors = r_json::run_against_r("frames2", &wf, &dir.path().join("out"));
    let names = [
        "trial_out.csv",
        "matrix_out.csv",
        "vector_out.csv",
        "factors_out.csv",
    ]
    .map(String::from);
    r_json::compare_written(&names, &dir.path().join("workflows"), &mut errors);
    assert!(
        errors.is_empty(),
        "{} differences:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

/// A workflow in a temporary directory holding trial.csv: `steps` after
/// `d = read.csv("trial.csv")`.
fn workflow(steps: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("tests/fixtures/csv/trial.csv"),
        dir.path().join("trial.csv"),
    )
    .unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(
        &path,
        format!("[steps]\nd = 'read.csv(\"trial.csv\")'\n{steps}\n"),
    )
    .unwrap();
    (dir, path)
}

/// `check` fails with `message` (exit status 2), naming `step`.
#[track_caller]
fn check_fails(steps: &str, step: &str, message: &str) {
    let (_dir, path) = workflow(steps);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{steps}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(message), "{steps}: {err}");
    assert!(err.contains(&format!("`{step}`")), "{steps}: {err}");
}

#[test]
fn matrix_functions_name_the_text_column() {
    for f in ["as.matrix", "colMeans", "dist"] {
        check_fails(
            &format!("m = '{f}(d)'"),
            "m",
            "column `treatment` is character",
        );
    }
    check_fails(
        "g = 'factor(d$treatment)'\nm = 'colMeans(d[, c(\"dose\", \"g\")])'",
        "m",
        "undefined columns selected",
    );
}

#[test]
fn files_written_and_read_are_ordered_or_refused() {
    // Writing over the file a step reads, through the step's own input.
    check_fails("w = 'write.csv(d, \"trial.csv\")'", "w", "writes `");
    // Writing over the workflow itself.
    check_fails("w = 'write.csv(d, \"w.toml\")'", "w", "workflow file");
    // Two steps writing one file.
    check_fails(
        "a = 'write.csv(d, \"o.csv\")'\nb = 'write.csv(d$dose, \"o.csv\")'",
        "b",
        "both write",
    );
    // A reader of a written file runs after its writer, whatever the order
    // in the file.
    let (dir, path) = workflow(
        "n = 'nrow(back)'\nback = 'read.csv(\"o.csv\")'\nw = 'write.csv(d[3:7, ], \"o.csv\", row.names = FALSE)'",
    );
    let out_dir = dir.path().join("out");
    let out = common::flowcast_command()
        .args(["run", "--headless", "--no-cache", "--out"])
        .arg(&out_dir)
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let n = std::fs::read_to_string(out_dir.join("n.json")).unwrap();
    assert_eq!(n.trim(), "5");
    let written = std::fs::read_to_string(dir.path().join("o.csv")).unwrap();
    assert!(written.starts_with("\"id\",\"treatment\""), "{written}");
    // No temporary file is left beside it.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("flowcast-tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A cached write.csv step runs again when its file was deleted or
/// edited, so the file is always there after a run.
#[test]
fn a_cached_write_is_redone_when_its_file_changed() {
    let (dir, path) = workflow("w = 'write.csv(d$dose, \"o.csv\")'");
    let cache = dir.path().join("cache");
    let run = || {
        let out = common::flowcast_command()
            .args(["run", "--headless", "--cache"])
            .arg(&cache)
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    let file = dir.path().join("o.csv");
    run();
    let first = std::fs::read(&file).unwrap();
    run();
    run();
    std::fs::remove_file(&file).unwrap();
    run();
    assert_eq!(
        std::fs::read(&file).unwrap(),
        first,
        "rewritten after removal"
    );
    std::fs::write(&file, "edited\n").unwrap();
    run();
    assert_eq!(
        std::fs::read(&file).unwrap(),
        first,
        "rewritten after an edit"
    );
}

/// data.frame() refuses, before the run, what R would refuse or name in a
/// way flowcast cannot: R's message for rows that do not recycle, and a
/// request for a name where R would take the expression's text.
#[test]
fn data_frame_mistakes_fail_at_check() {
    check_fails(
        "a = 'data.frame(x = 1:3, y = 1:2)'",
        "a",
        "arguments imply differing number of rows: 3, 2",
    );
    check_fails(
        "c = 'data.frame(x = d$y ~ d$dose)'",
        "c",
        "data.frame() takes vectors",
    );
}

/// merge, subset and addmargins refuse before the run what R refuses, with
/// R's messages, when the frames' columns are known.
#[test]
fn frame_function_mistakes_fail_at_check() {
    check_fails(
        "m = 'merge(d, d, by = \"nope\")'",
        "m",
        "'by' must specify a uniquely valid column",
    );
    check_fails(
        "m = 'merge(d, d, by = c(\"nope\", \"zz\"))'",
        "m",
        "'by' must specify uniquely valid columns",
    );
    check_fails(
        "m = 'merge(d, d, by.x = c(\"id\", \"dose\"), by.y = \"id\")'",
        "m",
        "'by.x' and 'by.y' specify different numbers of columns",
    );
    check_fails(
        "m = 'merge(d, d, by = 9)'",
        "m",
        "'by' must match numbers of columns",
    );
    check_fails("s = 'subset(d, dose)'", "s", "'subset' must be logical");
    check_fails(
        "s = 'subset(d, select = \"nope\")'",
        "s",
        "undefined columns selected",
    );
    check_fails(
        "s = 'subset(d, select = nope)'",
        "s",
        "object `nope` not found",
    );
    check_fails(
        "a = 'addmargins(d$treatment)'",
        "a",
        "'A' must be an array or table",
    );
}

/// `run` fails with `message`, and without a panic.
#[track_caller]
fn run_fails(steps: &str, message: &str) {
    let (dir, path) = workflow(steps);
    let out = common::flowcast_command()
        .args(["run", "--headless", "--no-cache", "--out"])
        .arg(dir.path().join("out"))
        .arg(&path)
        .output()
        .unwrap();
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "{steps}: {all}");
    assert!(!all.contains("panicked"), "{all}");
    assert!(all.contains(message), "{steps}: {all}");
}

/// What only the data decides fails at run time as in R: a `by` computed
/// by a step, a many-to-many merge too large to allocate, and ave's FUN
/// giving nothing for a group.
#[test]
fn frame_function_errors_at_run_time_are_rs() {
    run_fails(
        "b = 'd$treatment[1]'\nm = 'merge(d, d, by = b)'",
        "'by' must specify a uniquely valid column",
    );
    run_fails(
        "k = 'data.frame(k = rep(1, 1000000))'\nm = 'merge(k, k)'",
        "cannot allocate vector of size 3725.3 Gb",
    );
    run_fails(
        "a = 'ave(d$dose, d$treatment, FUN = function(v) v[v > 100])'",
        "replacement has length zero",
    );
}

/// A frame whose columns are known only once it is read (a file a step
/// writes) checks, and subset, with, merge and ave find its columns at run
/// time.
#[test]
fn columns_known_only_at_run_time_check_and_run() {
    let (dir, path) = workflow(
        "w = 'write.csv(d, \"o.csv\", row.names = FALSE)'\n\
         back = 'read.csv(\"o.csv\")'\n\
         s = 'subset(back, dose > 10 & ok, select = c(id, dose))'\n\
         n = 'nrow(s)'\n\
         m = 'with(back, mean(dose))'\n\
         j = 'nrow(merge(back, d, by = \"id\"))'\n\
         a = 'sum(ave(back$dose, back$treatment, FUN = max))'",
    );
    let check = flowcast(&["check", path.to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    let out_dir = dir.path().join("out");
    let out = common::flowcast_command()
        .args(["run", "--headless", "--no-cache", "--out"])
        .arg(&out_dir)
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let value = |s: &str| {
        std::fs::read_to_string(out_dir.join(format!("{s}.json")))
            .unwrap()
            .trim()
            .to_string()
    };
    assert_eq!(value("n"), "4");
    assert_eq!(value("m"), "12.5");
    assert_eq!(value("j"), "12");
    assert_eq!(value("a"), "180");
}

/// transform's mistakes are found before the run, with R's messages where
/// R has one: a replacement whose rows do not divide the frame's, a new
/// column of the wrong length, and an argument without the tag that names
/// its column (R would invent a name from the expression; flowcast asks).
#[test]
fn transform_mistakes_fail_at_check() {
    check_fails(
        "t = 'transform(d, y = 1:5)'",
        "t",
        "replacement has 5 rows, data has 12",
    );
    check_fails(
        "t = 'transform(d, z = 1:5)'",
        "t",
        "arguments imply differing number of rows: 12, 5",
    );
    check_fails(
        "t = 'transform(d, 1)'",
        "t",
        "each argument of transform() is a column named by its tag",
    );
    check_fails(
        "t = 'transform(d, z = mean(nothere))'",
        "t",
        "object `nothere` not found",
    );
}
