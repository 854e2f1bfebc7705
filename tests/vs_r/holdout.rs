//! Hold-out differential test: inputs no kernel test was written against
//! (tests/fixtures/r/holdout.R made the workflows in tests/fixtures/holdout/
//! and R's answers in tests/fixtures/r/holdout.json; tests/fixtures/r/
//! expr_fuzz.R the random expressions in holdout/exprs.toml and
//! r/exprs.json), run through the real
//! product path, `flowcast run --headless --out DIR`, and compared field by
//! field. Decompositions agree to 1e-10 relative to the field's largest
//! entry (after a per-column sign or phase alignment, which R leaves
//! arbitrary), p-values to 1e-12 relative, everything else to 1e-10.

use std::path::Path;
use std::process::Command;

use serde_json::Value as Json;

use crate::common;
use common::r_json;

/// Runs one batch workflow and compares every step R answered; returns the
/// number of steps compared.
fn check_batch(workflows: &Path, batch: &str, r: &Json, errors: &mut Vec<String>) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_flowcast"))
        // Runs record history; keep it out of the user's data directory.
        .env(
            "XDG_DATA_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-data"),
        )
        .env("FLOWCAST_CACHE", "off")
        .args(["run", "--headless", "--json", "-p", "2", "--out"])
        .arg(dir.path())
        .arg(workflows.join(format!("{batch}.toml")))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let steps = r.as_object().unwrap();
    let must_fail = steps.values().any(|v| v.get("error").is_some());
    // Exit status 1: a step failed at run time, the others still ran.
    if out.status.code() != Some(if must_fail { 1 } else { 0 }) {
        errors.push(format!(
            "{batch}: flowcast exited with {:?}: {}\n{stderr}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
        ));
        return steps.len();
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    let doc: Json = serde_json::from_slice(&out.stdout).unwrap();
    for (step, rv) in steps {
        if let Some(msg) = rv.get("error").and_then(Json::as_str) {
            let report = &doc["steps"][step];
            let ours = report["error"].as_str().unwrap_or("");
            if report["status"] != "failed" {
                errors.push(format!(
                    "{batch}/{step}: R fails ({msg}), flowcast: {report}"
                ));
            } else if !ours.contains(msg) {
                errors.push(format!(
                    "{batch}/{step}: R says \"{msg}\", flowcast \"{ours}\""
                ));
            }
            // The failure names the step and where it is written.
            let line = stderr.lines().find(|l| l.contains(step.as_str()));
            if !line.is_some_and(|l| l.contains(&format!("{batch}.toml:"))) {
                errors.push(format!("{batch}/{step}: no file:line:col in\n{stderr}"));
            }
            continue;
        }
        let file = dir.path().join(format!("{step}.json"));
        let Ok(text) = std::fs::read_to_string(&file) else {
            errors.push(format!("{batch}/{step}: no output"));
            continue;
        };
        let ours: Json = serde_json::from_str(&text).unwrap();
        r_json::compare(&format!("{batch}/{step}"), &ours, rv, errors);
    }
    steps.len()
}

#[test]
fn holdout_cases_match_r() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    // FLOWCAST_HOLDOUT=DIR runs another set made the same way (DIR/r/*.R
    // writing DIR/r/NAME.json and DIR/holdout/*.toml), e.g. a larger fuzz
    // run that is not worth committing.
    // The committed set: holdout.R's batches and the random expressions
    // expr_fuzz.R --commit pinned (r/exprs.json).
    let (fixtures, workflows, least) = match std::env::var_os("FLOWCAST_HOLDOUT") {
        Some(dir) => {
            let dir = Path::new(&dir).to_path_buf();
            let json = std::fs::read_dir(dir.join("r"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| p.extension().is_some_and(|e| e == "json"))
                .expect("a fixture JSON");
            (vec![json], dir.join("holdout"), 1)
        }
        None => (
            vec![root.join("r/holdout.json"), root.join("r/exprs.json")],
            root.join("holdout"),
            700,
        ),
    };
    let mut errors = Vec::new();
    let mut compared = 0;
    for fixture in fixtures {
        let r: Json = serde_json::from_str(&std::fs::read_to_string(fixture).unwrap()).unwrap();
        for (batch, cases) in r.as_object().unwrap() {
            compared += check_batch(&workflows, batch, cases, &mut errors);
        }
    }
    assert!(compared >= least, "only {compared} cases");
    assert!(
        errors.is_empty(),
        "{} differences in {compared} cases:\n{}",
        errors.len(),
        errors.join("\n")
    );
}
