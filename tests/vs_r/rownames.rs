//! Names and row names on the way out: the workflow
//! tests/fixtures/workflows/rownames.toml runs in a copy of the fixtures,
//! every step must equal what R computed for it (tests/fixtures/r/rownames.R
//! wrote rownames.json), and every file its write.csv steps write must
//! equal R's byte for byte (tests/fixtures/csv/written/rn_*.csv). What R
//! refuses about row names fails with R's message.

use std::path::{Path, PathBuf};

use crate::common;
use common::text;
use common::{flowcast, r_json};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn rownames_workflow_and_its_files_match_r() {
    let (dir, wf) = r_json::copy_fixtures("rownames.toml");
    let mut errors = r_json::run_against_r("rownames", &wf, &dir.path().join("out"));
    let names: Vec<String> = std::fs::read_dir(root().join("tests/fixtures/csv/written"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("rn_"))
        .collect();
    let files = names.len();
    r_json::compare_written(&names, &dir.path().join("workflows"), &mut errors);
    assert!(files >= 15, "only {files} files of R's to compare");
    assert!(
        errors.is_empty(),
        "{} differences:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

/// A workflow of `steps` in a temporary directory holding rownames.csv.
fn workflow(steps: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("tests/fixtures/csv/rownames.csv"),
        dir.path().join("rownames.csv"),
    )
    .unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(&path, format!("[steps]\n{steps}\n")).unwrap();
    (dir, path)
}

/// Runs `steps`; the run's output (stdout and stderr), and whether it
/// succeeded.
fn run(steps: &str) -> (bool, String) {
    let (dir, path) = workflow(steps);
    let out = common::flowcast_command()
        .args(["run", "--headless", "--no-cache", "--out"])
        .arg(dir.path().join("out"))
        .arg(&path)
        .output()
        .unwrap();
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!all.contains("panicked"), "{all}");
    (out.status.success(), all)
}

#[track_caller]
fn run_fails(steps: &str, message: &str) {
    let (ok, all) = run(steps);
    assert!(!ok, "{steps}: {all}");
    assert!(all.contains(message), "{steps}: {all}");
}

/// Row names R refuses, refused with R's messages.
#[test]
fn bad_row_names_fail_as_in_r() {
    run_fails(
        "a = 'data.frame(x = 1:3, row.names = c(\"a\", \"b\", \"a\"))'",
        "duplicate row.names: a",
    );
    run_fails(
        "a = 'data.frame(x = 1:3, row.names = c(\"a\", \"b\"))'",
        "row names supplied are of the wrong length",
    );
    run_fails(
        "a = 'data.frame(x = 1:3, row.names = c(\"a\", NA, \"b\"))'",
        "row names contain missing values",
    );
    run_fails(
        "a = 'data.frame(x = 1:3, y = 4:6, row.names = \"z\")'",
        "'row.names' should specify one of the variables",
    );
    run_fails(
        "a = 'write.csv(data.frame(x = 1:2), \"o.csv\", row.names = c(\"p\", \"q\", \"r\"))'",
        "invalid 'row.names' specification",
    );
    run_fails(
        "a = 'write.csv(data.frame(x = 1:2), \"o.csv\", quote = 3)'",
        "invalid numbers in 'quote'",
    );
    run_fails(
        "a = '`row.names<-`(data.frame(x = 1:3), c(\"a\", \"a\", \"b\"))'",
        "duplicate 'row.names' are not allowed",
    );
    run_fails(
        "a = '`row.names<-`(data.frame(x = 1:3), c(\"a\", \"b\"))'",
        "invalid 'row.names' length",
    );
    run_fails(
        "a = '`row.names<-`(data.frame(x = 1:3), c(\"a\", NA, \"b\"))'",
        "missing values in 'row.names' are not allowed",
    );
    run_fails(
        "a = '`rownames<-`(cor(cbind(c(1, 2, 4), c(2, 1, 3))), c(\"a\", \"b\", \"c\"))'",
        "length of 'dimnames' [1] not equal to array extent",
    );
    run_fails(
        "a = '`rownames<-`(c(1, 2, 3), c(\"a\", \"b\", \"c\"))'",
        "attempt to set 'rownames' on an object with no dimensions",
    );
    run_fails(
        "a = 'pairwise.t.test(c(1, 2, 3, 4), c(1, 1, 2, 2), paired = TRUE, pool.sd = TRUE)'",
        "pooling of SD is incompatible with paired tests",
    );
    run_fails(
        "a = 'pairwise.t.test(c(1, 2, 3, 4), c(1, 1, 2))'",
        "arguments must have same length",
    );
}

/// read.csv takes a first column the header does not name as the row
/// names, and refuses repeated or missing ones as R does.
#[test]
fn read_csv_row_names_are_checked_as_in_r() {
    let (dir, path) = workflow("a = 'read.csv(\"dup.csv\")'");
    std::fs::write(dir.path().join("dup.csv"), "a,b\nr1,1,2\nr1,3,4\n").unwrap();
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        all.contains("duplicate 'row.names' are not allowed"),
        "{all}"
    );
    std::fs::write(dir.path().join("dup.csv"), "a,b\nr1,1,2\nNA,3,4\n").unwrap();
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        all.contains("missing values in 'row.names' are not allowed"),
        "{all}"
    );
}

/// write.csv fixes write.table's col.names, sep, dec, qmethod and append,
/// and warns, as R does, when a call sets one.
#[test]
fn write_csv_warns_of_what_it_ignores() {
    let (ok, all) =
        run("a = 'write.csv(data.frame(x = 1:2), \"o.csv\", col.names = FALSE, sep = \";\")'");
    assert!(ok, "{all}");
    assert!(all.contains("attempt to set 'col.names' ignored"), "{all}");
    assert!(all.contains("attempt to set 'sep' ignored"), "{all}");
}

/// A frame's row names and a table's class survive the cache: a second
/// run reads them back and writes the same file.
#[test]
fn row_names_survive_the_cache() {
    let (dir, path) = workflow(
        "d = 'read.csv(\"rownames.csv\")[c(3, 1), ]'\n\
         t = 'table(c(\"u\", \"v\", \"v\"))'\n\
         a = 'write.csv(d, \"d.csv\")'\n\
         b = 'write.csv(t, \"t.csv\")'",
    );
    let cache = dir.path().join("cache");
    let go = || {
        let out = common::flowcast_command()
            .args(["run", "--headless", "--cache"])
            .arg(&cache)
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    go();
    std::fs::remove_file(dir.path().join("d.csv")).unwrap();
    std::fs::remove_file(dir.path().join("t.csv")).unwrap();
    go();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("d.csv")).unwrap(),
        "\"\",\"a\",\"b\"\n\"r3\",5,6\n\"r1\",1,2\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("t.csv")).unwrap(),
        "\"\",\"Var1\",\"Freq\"\n\"1\",\"u\",1\n\"2\",\"v\",2\n"
    );
}
