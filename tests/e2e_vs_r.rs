//! `flowcast run --out` against R running the same expressions with the same
//! seed (tests/fixtures/r/e2e.R made tests/fixtures/r/e2e.json): every value
//! R printed must be in flowcast's output, numbers within 1e-10 relative.

use std::path::Path;

use serde_json::Value as Json;

mod common;
use common::json_num as num;

/// Fields whose columns have an arbitrary sign (eigenvectors, singular
/// vectors, principal axes and scores): compared after making each column's
/// largest-magnitude entry positive.
const SIGNED_COLUMNS: &[&str] = &["vectors", "u", "v", "rotation", "x"];

fn normalise_columns(j: &Json) -> Json {
    let (Some(dim), Some(data)) = (j.get("dim"), j.get("data")) else {
        return j.clone();
    };
    let rows = dim[0].as_u64().unwrap_or(0) as usize;
    let mut v: Vec<f64> = data
        .as_array()
        .unwrap()
        .iter()
        .map(|x| num(x).unwrap())
        .collect();
    for col in v.chunks_mut(rows.max(1)) {
        let big = col
            .iter()
            .copied()
            .fold(0.0f64, |m, x| if x.abs() > m.abs() { x } else { m });
        if big < 0.0 {
            col.iter_mut().for_each(|x| *x = -*x);
        }
    }
    serde_json::json!({"dim": dim, "data": v})
}

fn compare(path: &str, ours: &Json, r: &Json, errors: &mut Vec<String>) {
    if let (Some(a), Some(b)) = (num(ours), num(r)) {
        let ok = (a.is_nan() && b.is_nan())
            || a == b
            || (a - b).abs() <= 1e-10 * a.abs().max(b.abs())
            || (a - b).abs() <= 1e-13;
        if !ok {
            errors.push(format!("{path}: flowcast {a:e}, R {b:e}"));
        }
        return;
    }
    match (ours, r) {
        (Json::Array(a), Json::Array(b)) => {
            if a.len() != b.len() {
                errors.push(format!("{path}: length {} vs R {}", a.len(), b.len()));
                return;
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                compare(&format!("{path}[{i}]"), x, y, errors);
            }
        }
        (Json::Object(a), Json::Object(b)) => {
            for (k, rv) in b {
                let key = format!("{path}${k}");
                match a.get(k) {
                    None => errors.push(format!("{key}: missing in flowcast's output")),
                    Some(ov) if SIGNED_COLUMNS.contains(&k.as_str()) && ov.get("dim").is_some() => {
                        compare(&key, &normalise_columns(ov), &normalise_columns(rv), errors);
                    }
                    Some(ov) => compare(&key, ov, rv, errors),
                }
            }
        }
        // A length-one vector is a bare value on both sides, but R keeps a
        // 1-element array when it wrote a matrix or list.
        (Json::Array(a), b) if a.len() == 1 => compare(path, &a[0], b, errors),
        (a, Json::Array(b)) if b.len() == 1 => compare(path, a, &b[0], errors),
        (a, b) if a == b => {}
        (a, b) => errors.push(format!("{path}: flowcast {a}, R {b}")),
    }
}

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
            compare(step, &ours, rv, &mut errors);
        }
        assert!(
            errors.is_empty(),
            "{scheduler}: {} differences:\n{}",
            errors.len(),
            errors.join("\n")
        );
    }
}
