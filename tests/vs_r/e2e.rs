//! `flowcast run --out` against R running the same expressions with the same
//! seed (tests/fixtures/r/e2e.R made tests/fixtures/r/e2e.json): every value
//! R printed must be in flowcast's output (compared as the hold-out test
//! compares, `common::r_json`).

use std::path::Path;

use serde_json::Value as Json;

use crate::common;
use common::r_json;

/// Every scheduler computes the same values: R's.
#[test]
fn e2e_workflow_matches_r_under_every_scheduler() {
    assert_matches_r_under_every_scheduler("e2e");
}

/// Random steps that do not wait for each other still draw R's numbers:
/// counted steps are skipped over, uncounted ones waited for.
#[test]
fn stream_workflow_matches_r_under_every_scheduler() {
    assert_matches_r_under_every_scheduler("stream");
}

/// `ifelse`'s `yes` and `no`, and the right side of `&&` and `||`, are
/// evaluated only when R would: what they would draw is not drawn, and
/// what they would warn is not warned.
#[test]
fn lazy_arguments_are_forced_as_r_forces_them() {
    assert_matches_r_under_every_scheduler("lazy");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = common::flowcast_command()
        .args(["run", "--json", "-p", "2"])
        .arg(root.join("tests/fixtures/workflows/lazy.toml"))
        .output()
        .unwrap();
    let json: Json = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = |step: &str| json["steps"][step]["warnings"].as_array().unwrap().len();
    assert_eq!(warnings("warned"), 1, "{json}");
    assert_eq!(warnings("quiet"), 0, "{json}");
}

/// Which random steps wait for which: only for the last step before them
/// whose draws are not counted before the run, skipping the counted ones.
#[test]
fn random_steps_wait_only_for_uncounted_draws() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let wf = flowcast::workflow::load(&root.join("tests/fixtures/workflows/stream.toml")).unwrap();
    let g = flowcast::graph::build(&wf).unwrap();
    let stream = |name: &str| {
        let t = g.task(name).unwrap();
        (t.rng_after.map(|a| g.tasks[a].name.as_str()), t.rng_skip)
    };
    assert_eq!(stream("a"), (None, 0));
    assert_eq!(stream("b"), (None, 2000));
    assert_eq!(stream("k"), (None, 2700));
    assert_eq!(stream("c"), (Some("k"), 0));
    // sd = 0 draws nothing in R: not counted, so waited for.
    assert_eq!(stream("z"), (Some("k"), 100));
    assert_eq!(stream("d"), (Some("z"), 0));
    assert_eq!(stream("e"), (Some("z"), 12));
    assert_eq!(stream("f"), (Some("e"), 0));
    assert_eq!(stream("g"), (Some("f"), 0));
    assert_eq!(stream("h"), (Some("f"), 2100));
    assert_eq!(stream("i"), (Some("h"), 0));
    // Counted steps are roots of the graph: nothing holds them up.
    assert_eq!(g.predecessors(g.task("b").unwrap().id).count(), 0);
}

/// Runs `tests/fixtures/workflows/<name>.toml` under every scheduler and
/// compares each step with `tests/fixtures/r/<name>.json`.
fn assert_matches_r_under_every_scheduler(name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r: Json = serde_json::from_str(
        &std::fs::read_to_string(root.join(format!("tests/fixtures/r/{name}.json"))).unwrap(),
    )
    .unwrap();
    for scheduler in ["emcp", "mcp", "baseline", "dynamic", "ideal"] {
        let dir = tempfile::tempdir().unwrap();
        let out = common::flowcast_command()
            .args([
                "run",
                "--headless",
                "-p",
                "3",
                "--scheduler",
                scheduler,
                "--out",
            ])
            .arg(dir.path())
            .arg(root.join(format!("tests/fixtures/workflows/{name}.toml")))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{scheduler}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let mut errors = Vec::new();
        for (step, rv) in r.as_object().unwrap() {
            let file = dir.path().join(format!("{step}.json"));
            let Ok(text) = std::fs::read_to_string(&file) else {
                errors.push(format!("{step}: no {}", file.display()));
                continue;
            };
            let ours: Json = serde_json::from_str(&text).unwrap();
            r_json::compare(step, &ours, rv, &mut errors);
        }
        assert!(
            errors.is_empty(),
            "{scheduler}: {} differences:\n{}",
            errors.len(),
            errors.join("\n")
        );
    }
}
