//! The `flowcast` binary end to end: shipped workflows check and run, bad
//! workflows fail with file:line:col and exit status 2, failures stay local.

mod common;
use common::{text, workflow_file};

use std::path::{Path, PathBuf};

use common::flowcast;

fn shipped_workflows() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("workflows");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    v.sort();
    assert!(
        v.len() >= 3,
        "expected the shipped workflows in {}",
        dir.display()
    );
    v
}

#[test]
fn every_shipped_workflow_passes_check() {
    for wf in shipped_workflows() {
        let out = flowcast(&["check", wf.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{} failed check:\n{}",
            wf.display(),
            text(&out.stderr)
        );
        assert!(text(&out.stdout).contains("step"), "{}", text(&out.stdout));
    }
}

#[test]
fn every_shipped_workflow_runs_headless() {
    for wf in shipped_workflows() {
        let out = flowcast(&[
            "run",
            wf.to_str().unwrap(),
            "--headless",
            "--json",
            "-p",
            "2",
        ]);
        let stdout = text(&out.stdout);
        assert!(
            out.status.success(),
            "{} failed:\n{}\n{}",
            wf.display(),
            stdout,
            text(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(doc["failed"], false);
        assert_eq!(doc["workers"], 2);
        for (name, step) in doc["steps"].as_object().unwrap() {
            assert_eq!(
                step["status"],
                "ok",
                "{}: step {name}: {step}",
                wf.display()
            );
        }
    }
}

/// Runs `check` on a bad workflow; returns stderr after asserting exit 2.
fn check_fails(body: &str) -> String {
    let (_dir, path) = workflow_file(body);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Each workflow `body` fails `check` at `location` (file:line:column,
/// with a caret under it), saying `needle`.
fn fail_located(cases: &[(&str, &str, &str)]) {
    for (body, location, needle) in cases {
        let err = check_fails(body);
        assert!(
            err.contains(location),
            "expected {location} in:\n{err}\nfor:\n{body}"
        );
        assert!(
            err.contains(needle),
            "expected {needle:?} in:\n{err}\nfor:\n{body}"
        );
        assert!(err.contains('^'), "no caret in:\n{err}");
    }
}

#[test]
fn analysis_errors_name_file_line_and_column() {
    let cases: &[(&str, &str, &str)] = &[
        ("[steps]\na = \"rnorm(10\"\n", "w.toml:2:", "unclosed"),
        ("[steps]\na = \"b + 1\"\n", "w.toml:2:6", "`b`"),
        ("[steps]\na = \"1\"\nb = 2 = 3\n", "w.toml:3:", ""),
        (
            "[workflow]\nsceduler = \"emcp\"\n[steps]\na = \"1\"\n",
            "w.toml:2:1",
            "scheduler",
        ),
        ("[steps]\na = \"b\"\nb = \"a\"\n", "w.toml:2:1", "cycle"),
        (
            "[steps]\na = \"fredman.test(1)\"\n",
            "w.toml:2:6",
            "friedman.test",
        ),
        ("[steps]\na = \"mean()\"\n", "w.toml:2:6", "missing"),
        (
            "[steps]\na = \"matrix(0, 3, 4)\"\nb = \"matrix(0, 5, 6)\"\np = \"a %*% b\"\n",
            "w.toml:4:6",
            "non-conformable",
        ),
        (
            "[steps]\nx = \"matrix(0, 5, 3)\"\nr = \"x[7, ]\"\n",
            "w.toml:3:8",
            "subscript out of bounds",
        ),
        // R loops over any finite numbers (1.5:3 is 1.5, 2.5).
        (
            "[steps]\nb = { for = \"i in c(1, Inf)\", do = \"i\" }\n",
            "w.toml:2:",
            "loop range must be finite numbers, but it contains Inf",
        ),
        // Sizes known from the file alone fail at analysis, with R's words.
        (
            "[steps]\nh = \"hclust(dist(1.5))\"\n",
            "w.toml:2:",
            "must have n >= 2 objects to cluster",
        ),
        (
            "[steps]\nm = \"mood.test(1, 2)\"\n",
            "w.toml:2:",
            "not enough observations",
        ),
        (
            "[steps]\nk = \"kmeans(matrix(c(1, 2, 3, 4, 5, 6), 3, 2), 5)\"\n",
            "w.toml:2:",
            "cannot take a sample larger than the population",
        ),
        // An argument lm does not take is named as such, not hidden behind
        // the formula's columns reported missing.
        (
            "[steps]\nd = \"data.frame(x = 1:3, y = c(2, 1, 4))\"\nf = \"lm(y ~ x, data = d, wieghts = 1)\"\n",
            "w.toml:3:26",
            "unused argument (wieghts = ...) in lm()",
        ),
        // A loop of no iterations is still typed, as if it ran.
        (
            "[steps]\nb = { for = \"i in seq_len(0)\", do = \"mean()\" }\n",
            "w.toml:2:38",
            "missing",
        ),
    ];
    fail_located(cases);
}

/// A loop over a range of no iterations, or over the files of an empty
/// directory, runs none: its value is R's `list()`, under every scheduler.
#[test]
fn loops_of_no_iterations_run_under_every_scheduler() {
    let (dir, path) = workflow_file(
        r#"[steps]
b = { for = "i in seq_len(0)", do = "i * 2" }
rows = { for = 'f in list.files("data", pattern = "csv$")', do = "nrow(read.csv(f))" }
n = "length(b)"
m = "length(rows) + 1"
t = "c(typeof(b), typeof(rows))"
"#,
    );
    std::fs::create_dir(dir.path().join("data")).unwrap();
    let file = path.to_str().unwrap();
    let out = flowcast(&["check", file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for scheduler in ["emcp", "mcp", "baseline", "dynamic", "ideal"] {
        for p in ["2", "4"] {
            let plan = flowcast(&["plan", file, "--scheduler", scheduler, "-p", p]);
            assert!(
                plan.status.success(),
                "plan {scheduler} -p {p}: {}",
                text(&plan.stderr)
            );
            let values = dir.path().join(format!("out-{scheduler}-{p}"));
            let run = flowcast(&[
                "run",
                file,
                "--headless",
                "--scheduler",
                scheduler,
                "-p",
                p,
                "--out",
                values.to_str().unwrap(),
            ]);
            let err = text(&run.stderr);
            assert!(run.status.success(), "{scheduler} -p {p}: {err}");
            assert!(!err.contains("panicked"), "{err}");
            let read = |step: &str| -> serde_json::Value {
                let path = values.join(format!("{step}.json"));
                let json = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{scheduler} -p {p}: {}: {e}", path.display()));
                serde_json::from_str(&json).unwrap()
            };
            let at = format!("{scheduler} -p {p}");
            assert_eq!(read("b"), serde_json::json!([]), "{at}");
            assert_eq!(read("rows"), serde_json::json!([]), "{at}");
            assert_eq!(read("n"), serde_json::json!(0), "{at}");
            assert_eq!(read("m"), serde_json::json!(1), "{at}");
            // `list()`, not `numeric(0)`: both are `[]` in JSON.
            assert_eq!(read("t"), serde_json::json!(["list", "list"]), "{at}");
        }
    }
}

#[test]
fn a_failing_step_fails_alone() {
    let (_dir, path) = workflow_file(
        "[steps]\nm = \"matrix(0, 2, 2)\"\ninv = \"solve(m)\"\nuse = \"inv %*% m\"\nok = \"mean(c(1, 2, 3))\"\n",
    );
    let out = flowcast(&[
        "run",
        path.to_str().unwrap(),
        "--headless",
        "--json",
        "-p",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(doc["steps"]["inv"]["status"], "failed");
    assert!(doc["steps"]["inv"]["error"]
        .as_str()
        .unwrap()
        .contains("exactly singular"));
    // Where: `inv = "solve(m)"` on line 3, the call from column 8.
    assert_eq!(
        (&doc["steps"]["inv"]["line"], &doc["steps"]["inv"]["column"]),
        (&serde_json::json!(3), &serde_json::json!(8))
    );
    assert_eq!(doc["steps"]["use"]["status"], "skipped");
    assert_eq!(doc["steps"]["ok"]["status"], "ok");
    assert_eq!(doc["steps"]["ok"]["value"], 2);
    assert!(
        text(&out.stderr).contains("w.toml:3:"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn out_writes_one_json_file_per_step() {
    let (dir, path) = workflow_file(
        "[workflow]\nseed = 42\n[steps]\nx = \"rnorm(5)\"\nm = \"matrix(1:6, 2, 3)\"\n",
    );
    let out_dir = dir.path().join("values");
    let out = flowcast(&[
        "run",
        path.to_str().unwrap(),
        "--headless",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let x: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("x.json")).unwrap()).unwrap();
    let x: Vec<f64> = x
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    // set.seed(42); rnorm(5) in R.
    let r: Vec<f64> = [
        "1.37095844714666848",
        "-0.56469817139608869",
        "0.36312841133733920",
        "0.63286260496104041",
        "0.40426832314099903",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    assert_eq!(x, r);
    let m = std::fs::read_to_string(out_dir.join("m.json")).unwrap();
    assert_eq!(m, r#"{"dim":[2,3],"data":[1,2,3,4,5,6]}"#);
}

#[test]
fn schedule_reads_stg_and_reports_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("g.stg");
    std::fs::write(&good, "3\n0 0 0\n1 4 1 0\n2 3 1 0\n3 5 2 1 2\n4 0 1 3\n#\n").unwrap();
    let out = flowcast(&["schedule", good.to_str().unwrap(), "-p", "2", "--quiet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "emcp on 2 workers: makespan 9.0000, lower bound 9.0000\n"
    );
    let out = flowcast(&["schedule", good.to_str().unwrap(), "-p", "2", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schedule"].as_array().unwrap().len(), 3);
    assert_eq!(v["makespan"], 9.0);

    let bad = dir.path().join("bad");
    std::fs::write(&bad, "3\n0 0 0\n1 4 1 0\n2 3 1 9\n").unwrap();
    let out = flowcast(&["schedule", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("bad: 4:7: task 2: predecessor 9 is out of range"),
        "{err}"
    );
}

#[test]
fn bench_workflows_reports_makespans_against_the_lower_bound() {
    // One 50 ms call beside a loop of four: on 2 workers the bound is the
    // work over p (125 ms), not the loop's 200 ms as if it were one call.
    let (_dir, path) = workflow_file(
        "[steps]\na = \"spin(0.05)\"\nb = { for = \"i in 1:4\", do = \"spin(0.05)\" }\n",
    );
    let out = flowcast(&[
        "bench",
        "workflows",
        path.to_str().unwrap(),
        "--runs",
        "1",
        "--warmup",
        "0",
        "-p",
        "1,2",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    for column in [
        "LB median",
        "emcp/LB",
        "dynamic/LB",
        "tasks run 1",
        "tasks run 4",
    ] {
        assert!(stdout.contains(column), "no {column}:\n{stdout}");
    }
    // The makespan table's rows, one per p: name, p, three times, three ratios.
    let makespans = stdout.split("Prediction").next().unwrap_or_default();
    let rows: Vec<Vec<&str>> = makespans
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|c| c.len() == 8 && c[0] == "w")
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    for (row, p) in rows.iter().zip(["1", "2"]) {
        assert_eq!(row[1], p, "{stdout}");
        for ratio in &row[6..8] {
            let r: f64 = ratio.parse().unwrap();
            // No run beats its own bound; a bound that did not divide the
            // loop would put p = 2 near 0.75.
            assert!((0.95..3.0).contains(&r), "p = {p}: {r}\n{stdout}");
        }
    }
    // Every task runs 50 ms: run 1 has a per-task error, run 4 does not exist.
    let errors = stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|c| c.first() == Some(&"w") && c.len() != 8)
        .unwrap();
    assert!(errors[2].ends_with('%'), "{stdout}");
    assert_eq!(errors[3], "-", "{stdout}");
}

#[test]
fn bench_priors_sets_each_steps_prior_beside_its_time() {
    // spin(s) costs s on any machine: its prior is exact, so its ratio is
    // about 1; the other steps only need a row.
    let (_dir, path) =
        workflow_file("[steps]\nx = \"rnorm(1000)\"\nwait = \"spin(0.02)\"\ns = \"sum(x)\"\n");
    let out = flowcast(&["bench", "priors", "--runs", "1", path.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let row = |name: &str| {
        stdout
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|c| c.first() == Some(&name))
            .unwrap_or_else(|| panic!("no row {name}:\n{stdout}"))
    };
    assert_eq!(row("wait")[1], "spin", "{stdout}");
    // A loaded machine can only stretch the measured time (spin burns a
    // core for its seconds, and waits when it has none), never shrink it.
    let ratio: f64 = row("wait")[4].parse().unwrap();
    assert!((0.9..3.0).contains(&ratio), "{ratio}\n{stdout}");
    assert_eq!(row("s")[1], "sum", "{stdout}");
    assert!(stdout.contains("prior off by a median factor"), "{stdout}");
}

/// The value cell of `step`'s row in the headless run table.
fn value_cell<'a>(table: &'a str, step: &str, columns: usize) -> &'a str {
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(step))
        .unwrap_or_else(|| panic!("no row for {step} in\n{table}"));
    // The cells before the value hold no spaces: skip them and the gaps.
    let mut rest = row;
    for _ in 0..columns {
        rest = rest.trim_start();
        rest = &rest[rest.find(' ').unwrap_or(rest.len())..];
    }
    rest.trim()
}

/// The run table says what each step computed as R prints it: a Date as
/// its day (R: `[1] "2024-01-05" ...`), not the day count 19727; a
/// difftime with R's "Time difference of 1 days"; a factor by its labels,
/// not its codes. Each expected text is what R 4.2.2 prints, on one line.
#[test]
fn run_table_shows_values_as_r_prints_them() {
    let (_dir, path) = workflow_file(
        r#"[steps]
d = "as.Date(\"2024-01-05\") + 0:3"
dd = "d[2] - d[1]"
dds = "d - d[1]"
weeks = "difftime(d, as.Date(\"2024-01-01\"), units = \"weeks\")"
week = "difftime(as.Date(\"2024-01-02\"), as.Date(\"2024-01-01\"), units = \"weeks\")"
gap = "as.Date(c(\"2024-02-29\", NA))"
ten = "as.Date(\"2024-01-05\") + 0:9"
f = "factor(c(\"lo\", \"hi\", NA, \"lo\"))"
arr = "array(1:24, dim = c(2, 3, 4))"
"#,
    );
    let out = flowcast(&["run", path.to_str().unwrap(), "--headless", "-p", "1"]);
    let table = text(&out.stdout);
    assert!(out.status.success(), "{table}\n{}", text(&out.stderr));
    // step, kind, status, workers, predicted, work, error: then the value.
    let value = |step: &str| value_cell(&table, step, 7).to_string();
    assert_eq!(
        value("d"),
        r#"["2024-01-05" "2024-01-06" "2024-01-07" "2024-01-08"]"#
    );
    assert_eq!(value("dd"), "Time difference of 1 days");
    assert_eq!(value("dds"), "Time differences in days: [0 1 2 3]");
    assert_eq!(
        value("weeks"),
        "Time differences in weeks: [0.5714286 0.7142857 0.8571429 1.0000000]"
    );
    assert_eq!(value("week"), "Time difference of 0.1428571 weeks");
    assert_eq!(value("gap"), r#"["2024-02-29" NA]"#);
    assert_eq!(
        value("ten"),
        r#"Date[10] "2024-01-05" "2024-01-06" "2024-01-07" "2024-01-08" …"#
    );
    assert_eq!(value("f"), "fct[4] lo hi <NA> lo (2 levels)");
    assert_eq!(value("arr"), "arr[2x3x4]");
}

/// `check` types `list(...)` by its length, which its arguments give (R:
/// `length(list(a = 1, b = "x"))` is 2); it typed every list `?`. A named
/// list's elements are left unknown: `l[["b"]]` is a string, `l[["z"]]`
/// NULL.
#[test]
fn check_types_a_list_by_its_length() {
    let said = common::checked(
        "l = 'list(a = 1, b = \"x\")'\nu = 'list(1, 2)'\nn = 'length(l)'\ne = 'list()'",
    );
    let ty = |step: &str| {
        let row = said
            .lines()
            .find(|l| l.split_whitespace().next() == Some(step))
            .unwrap_or_else(|| panic!("no row for {step} in\n{said}"));
        // step, kind, function, depends on: then the type.
        value_cell(row, step, 4).to_string()
    };
    assert_eq!(ty("l"), "list[2]");
    assert_eq!(ty("u"), "list[2] of num[1]");
    assert_eq!(ty("n"), "num[1] = 2");
    assert_eq!(ty("e"), "list[0]");
}

/// What an R user's first script lines run into, each refused with its
/// location and what to do instead (a new user's trial of the README).
#[test]
fn r_script_habits_are_refused_with_what_to_do() {
    let cases: &[(&str, &str, &str)] = &[
        // `<<-` has no enclosing environment to reach in a step.
        (
            "[steps]\nx = \"{ y <<- 3; y }\"\n",
            "w.toml:2:10",
            "assign a local with `<-`, or make the value a step of its own",
        ),
        (
            "[steps]\nx = \"{ 3 -> y; y }\"\n",
            "w.toml:2:10",
            "`name <- value`",
        ),
        // The slip is the loop's variable, and the step itself would be a
        // cycle: it suggested the step `l`.
        (
            "[steps]\nl = { for = \"i in 1:3\", do = \"x[j] * 2\" }\nx = \"c(1, 2, 3)\"\n",
            "w.toml:2:33",
            "object `j` not found (did you mean `i`?)",
        ),
        (
            "[steps]\nfit = \"lm(dist ~ speed, data = cars)\"\n",
            "w.toml:2:32",
            "R's datasets are not built in: write it to a CSV file from R, \
             `write.csv(cars, \"cars.csv\", row.names = FALSE)`",
        ),
        (
            "[steps]\nh = 'source(\"helpers.R\")'\n",
            "w.toml:2:6",
            "make each function the script defines a step",
        ),
        (
            "[steps]\nx = \"1:5\"\nβ = \"x + 1\"\n",
            "w.toml:3:1",
            "quote a step name with other letters: `\"β\" = ...`",
        ),
        (
            "[steps]\nlibs = \"library(stats)\"\n",
            "w.toml:2:9",
            "remove this step and call the functions by name",
        ),
    ];
    fail_located(cases);
}

/// `T <- 3; T + 1` is 4 in R: once a statement assigns `T` or `F`, the
/// name reads that variable. It read the constant TRUE and gave 2.
#[test]
fn an_assigned_t_or_f_reads_the_variable_as_in_r() {
    let (_dir, path) = workflow_file(
        r#"[steps]
x = "{ T <- 3; T + 1 }"
y = "{ F <- 0; F }"
z = "{ a <- T; T <- 5; c(a, T) }"
w = "{ T <- !T; T }"
"#,
    );
    let out = flowcast(&["run", path.to_str().unwrap(), "--headless", "-p", "1"]);
    let table = text(&out.stdout);
    assert!(out.status.success(), "{table}\n{}", text(&out.stderr));
    let value = |step: &str| value_cell(&table, step, 7).to_string();
    // R 4.2.2: 4, 0, c(TRUE, 5) = [1 5], and `!T` reads R's TRUE.
    assert_eq!(value("x"), "4");
    assert_eq!(value("y"), "0");
    assert_eq!(value("z"), "[1 5]");
    assert_eq!(value("w"), "FALSE");
}

/// A long string shows its start and its length: a 2000-character value
/// stretched its row of the run table to 2000 columns.
#[test]
fn a_long_string_is_shortened_in_the_run_table() {
    let (_dir, path) = workflow_file(
        "[steps]\nx = 'paste(rep(\"abcdefghij\", 200), collapse = \"\")'\ny = '\"short\"'\n",
    );
    let out = flowcast(&["run", path.to_str().unwrap(), "--headless", "-p", "1"]);
    let table = text(&out.stdout);
    assert!(out.status.success(), "{table}\n{}", text(&out.stderr));
    assert_eq!(
        value_cell(&table, "x", 7),
        "\"abcdefghijabcdefghijabcdefghijabcdefghijabcdefgh…\" (2000 chars)"
    );
    assert_eq!(value_cell(&table, "y", 7), "\"short\"");
}

/// An object's line keeps the fields that fit and counts them all: an
/// `lm` fit's line ran to 900 characters.
#[test]
fn an_objects_line_in_the_run_table_is_bounded() {
    let (_dir, path) = workflow_file(
        "[steps]\nx = \"c(1, 2, 3, 4, 5)\"\ny = \"c(2.1, 3.9, 6.2, 7.8, 10.1)\"\nfit = \"lm(y ~ x)\"\n",
    );
    let out = flowcast(&["run", path.to_str().unwrap(), "--headless", "-p", "1"]);
    let table = text(&out.stdout);
    assert!(out.status.success(), "{table}\n{}", text(&out.stderr));
    let line = value_cell(&table, "fit", 7);
    assert!(line.starts_with("lm: coefficients = "), "{line}");
    assert!(line.ends_with(" fields)"), "{line}");
    assert!(line.chars().count() < 200, "{line}");
}

/// A warning says the line and column of the call that raised it, under
/// its step in the run's table, as an error names its place. It said only
/// R's `In call : message`.
#[test]
fn warnings_say_the_line_and_column_of_their_call() {
    let (_dir, path) = workflow_file(
        "[steps]\na = \"as.numeric(c('1', 'a'))\"\nb = \"1 + log(-1)\"\n\
         c = { for = \"i in 1:3\", do = \"sqrt(-i)\" }\n\
         t = \"chisq.test(c(1, 2, 3))\"\n",
    );
    let out = flowcast(&["run", path.to_str().unwrap(), "-p", "1"]);
    let table = text(&out.stdout);
    assert!(out.status.success(), "{table}\n{}", text(&out.stderr));
    let lines: Vec<&str> = table.lines().collect();
    for (step, warning) in [
        (
            "a ",
            "  warning: In as.numeric(c('1', 'a')) : NAs introduced by coercion (line 2, column 6)",
        ),
        (
            "b ",
            "  warning: In log(-1) : NaNs produced (line 3, column 10)",
        ),
        (
            "c ",
            "  warning: In sqrt(-i) : NaNs produced (line 4, column 31)",
        ),
        (
            "t ",
            "  warning: In chisq.test(c(1, 2, 3)) : Chi-squared approximation may be incorrect \
             (line 5, column 6)",
        ),
    ] {
        let row = lines.iter().position(|l| l.starts_with(step));
        assert_eq!(
            row.and_then(|r| lines.get(r + 1)),
            Some(&warning),
            "under {step:?} in:\n{table}"
        );
    }
}

/// R's match.fun words a FUN that is not a function with the argument's
/// text. It said "FUN must be a function, its name or function(x) ...".
#[test]
fn a_fun_that_is_not_a_function_is_refused_in_match_funs_words() {
    fail_located(&[
        (
            "[steps]\nm = \"Map(1, 1:3)\"\n",
            "w.toml:2:10",
            "error: '1' is not a function, character or symbol",
        ),
        (
            "[steps]\nr = \"Reduce(c(1, 2), 1:3)\"\n",
            "w.toml:2:13",
            "error: 'c(1, 2)' is not a function, character or symbol",
        ),
        (
            "[steps]\nx = \"1\"\ns = \"sapply(1:3, x)\"\n",
            "w.toml:3:18",
            "error: object 'x' of mode 'function' was not found",
        ),
    ]);
}

/// Runs `check` on a workflow that is valid but warned about; returns
/// stderr.
fn check_warns(body: &str) -> String {
    let (_dir, path) = workflow_file(body);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "stderr:\n{err}");
    err
}

/// A `print` whose value a block or loop drops shows nothing: check says
/// so, where it is and what to do. It was silent; a `print` that is the
/// step's value (shown in the table) is not warned about.
#[test]
fn a_dropped_print_is_warned_about_at_check() {
    let err = check_warns(
        "[steps]\np = \"print(3)\"\nr = { for = \"i in 1:3\", do = \"{ print(i); i * 2 }\" }\n\
         s = \"{ for (k in 1:2) print(k); 5 }\"\n",
    );
    assert_eq!(
        err.matches("warning: print() here shows nothing").count(),
        2,
        "{err}"
    );
    for at in [
        "w.toml:3:33 (step `r`)",
        "w.toml:4:23 (step `s`)",
        "make what you want to see",
    ] {
        assert!(err.contains(at), "expected {at:?} in:\n{err}");
    }
    assert!(!err.contains("step `p`"), "{err}");
}

/// A script's console calls run and show nothing: check says so at each
/// `cat`, `writeLines` and `message`, but not at a `message` a tryCatch
/// may catch. They were refused as unknown functions.
#[test]
fn console_calls_are_warned_about_at_check() {
    let err = check_warns(
        "[steps]\nf = \"function(v) { cat(length(v)); mean(v) }\"\nm = \"f(1:3)\"\nn = \"f(2)\"\n\
         r = { for = \"i in 1:3\", do = \"{ message(i); writeLines('x'); i }\" }\n\
         t = \"tryCatch(message('m'), message = function(m) 1)\"\n",
    );
    for (at, func) in [
        ("w.toml:2:20", "cat"),
        ("w.toml:5:33 (step `r`)", "message"),
        ("w.toml:5:45 (step `r`)", "writeLines"),
    ] {
        assert!(err.contains(at), "expected {at:?} in:\n{err}");
        assert!(
            err.contains(&format!("warning: {func}() here shows nothing")),
            "{err}"
        );
    }
    assert!(!err.contains("step `t`"), "{err}");
    assert_eq!(err.matches("warning: cat()").count(), 1, "{err}");
}

/// `v[i] <- 0` in a step changes that step's copy of step `v`, not `v` as
/// an R script's global would be: check says so. It was silent.
#[test]
fn assigning_into_another_steps_value_is_warned_about_at_check() {
    let err = check_warns(
        "[steps]\nv = \"c(1, 2, 3)\"\nw = \"{ v[2] <- 0; sum(v) }\"\n\
         x = { for = \"i in 1:3\", do = \"{ v[i] <- 0; sum(v) }\" }\n\
         y = \"{ u <- v; u[1] <- 0; f <- function(v) { v[1] <- 2; v }; f(u) }\"\n",
    );
    for at in [
        "warning: `v[2] <- 0` changes this step's own copy of step `v`, not `v`",
        "w.toml:3:8 (step `w`)",
        "warning: `v[i] <- 0` changes each iteration's own copy of step `v`",
        "w.toml:4:33 (step `x`)",
        "(`v2 <- v`, then change `v2`), or change step `v` itself",
    ] {
        assert!(err.contains(at), "expected {at:?} in:\n{err}");
    }
    // A local, and a function's parameter, are R's locals too.
    assert_eq!(err.matches("warning:").count(), 2, "{err}");
}

/// A missing file is looked for beside the workflow, not in the working
/// directory as R does: the message says where it looked, and that the
/// file is in the working directory when it is.
#[test]
fn a_missing_csv_says_where_it_was_looked_for() {
    let (dir, path) = workflow_file("[steps]\nd = \"read.csv('data.csv')\"\n");
    let cwd = tempfile::tempdir().unwrap();
    std::fs::write(cwd.path().join("data.csv"), "a\n1\n").unwrap();
    let out = common::flowcast_command()
        .current_dir(cwd.path())
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let tried = dir.path().join("data.csv");
    let want = format!(
        "cannot open file 'data.csv': No such file or directory (flowcast looked for {}: \
         a path is read from the workflow file's directory, not from the working \
         directory {}, where 'data.csv' is;",
        tried.display(),
        cwd.path().display()
    );
    assert!(err.contains(&want), "expected {want:?} in:\n{err}");
}

/// A benchmark given a workflow that does not parse shows the workflow's
/// own diagnostic, once, on its lines: not "error: error:" and not its
/// newlines escaped.
#[test]
fn benchmarks_show_a_bad_workflows_diagnostic_as_check_does() {
    let (_dir, path) = workflow_file("[steps]\na = \"b +\"\n");
    let file = path.to_str().unwrap();
    for args in [
        vec!["bench", "priors", file, "--runs", "1"],
        vec![
            "bench",
            "workflows",
            file,
            "-p",
            "1",
            "--runs",
            "1",
            "--warmup",
            "0",
        ],
    ] {
        let out = flowcast(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("error: unexpected end"), "{args:?}: {err}");
        assert!(err.contains("w.toml:2:9 (step `a`)\n"), "{args:?}: {err}");
        assert!(
            !err.contains("error: error") && !err.contains("\\u{a}"),
            "{args:?}: {err}"
        );
    }
}

/// Function steps are not tasks (each call runs inside its caller), but
/// `check` lists them and `run --json` carries them, so a step the user
/// wrote never vanishes from what flowcast says of the workflow.
#[test]
fn function_steps_are_listed_by_check_and_json() {
    let body = "[steps]\nse = \"function(x) sd(x) / sqrt(length(x))\"\n\
                vs = \"Vectorize(function(a, b) a + b)\"\na = \"se(c(1, 2, 4))\"\nb = \"vs(1:3, 2)\"\n";
    let said = common::checked(&body.replacen("[steps]\n", "", 1));
    let listed: Vec<&str> = said
        .lines()
        .skip_while(|l| !l.contains("functions, run where they are called"))
        .skip(1)
        .map(str::trim)
        .collect();
    assert_eq!(
        listed,
        [
            "se = function(x) sd(x) / sqrt(length(x))",
            "vs = Vectorize(function(a, b) a + b)"
        ],
        "{said}"
    );
    let (_dir, path) = workflow_file(body);
    let out = flowcast(&["run", path.to_str().unwrap(), "--headless", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["functions"],
        serde_json::json!({"se": "function(x) sd(x) / sqrt(length(x))", "vs": "Vectorize(function(a, b) a + b)"})
    );
    assert!(doc["steps"].get("se").is_none());
    assert_eq!(doc["steps"]["b"]["value"], serde_json::json!([3, 4, 5]));
}
