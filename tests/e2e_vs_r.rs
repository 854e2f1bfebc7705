//! `flowcast run --out` against R running the same expressions with the same
//! seed (tests/fixtures/r/e2e.R made tests/fixtures/r/e2e.json): every value
//! R printed must be in flowcast's output (compared as the hold-out test
//! compares, `common::r_json`).

use std::path::Path;

use serde_json::Value as Json;

mod common;
use common::r_json;

/// Every scheduler computes the same values: R's.
#[test]
fn e2e_workflow_matches_r_under_every_scheduler() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r: Json = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/fixtures/r/e2e.json")).unwrap(),
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
            .arg(root.join("tests/fixtures/workflows/e2e.toml"))
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
