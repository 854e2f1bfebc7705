//! Comparing flowcast's `--out` JSON with R's, field by field: numbers to
//! 1e-10 relative (p-values to 1e-12), decompositions relative to the
//! field's largest entry after aligning each column's arbitrary sign or
//! complex phase with R's, and null-space columns (any basis is right)
//! left out.

use std::path::Path;

use serde_json::Value as Json;

use super::json_num as num;

/// Fields whose columns have an arbitrary sign (or complex phase).
const SIGNED_COLUMNS: &[&str] = &["vectors", "u", "v", "rotation", "x", "points"];
/// Fields compared relative to their largest entry: rounding noise in a
/// decomposition is relative to the matrix, not to each tiny entry.
const MATRIX_SCALED: &[&str] = &["vectors", "u", "v", "rotation", "x", "qr", "qraux"];

/// Real and imaginary parts of a matrix (imaginary all zero when real).
fn parts(j: &Json) -> Option<(usize, Vec<f64>, Vec<f64>)> {
    let rows = j.get("dim")?.get(0)?.as_u64()? as usize;
    let list = |k: &str| -> Option<Vec<f64>> { j.get(k)?.as_array()?.iter().map(num).collect() };
    match (j.get("data"), j.get("re")) {
        (Some(_), _) => {
            let re = list("data")?;
            let im = vec![0.0; re.len()];
            Some((rows, re, im))
        }
        (None, Some(_)) => Some((rows, list("re")?, list("im")?)),
        _ => None,
    }
}

#[derive(Clone, Copy)]
struct Tol {
    rel: f64,
    /// Absolute floor for differences.
    abs: f64,
}

fn close(a: f64, b: f64, t: Tol) -> bool {
    (a.is_nan() && b.is_nan())
        || a == b
        || (a - b).abs() <= t.rel * a.abs().max(b.abs())
        || (a - b).abs() <= t.abs
}

/// Compares matrices column by column after rotating each of ours onto R's
/// (multiplying by the unit number that best aligns it).
fn compare_columns(path: &str, ours: &Json, r: &Json, t: Tol, errors: &mut Vec<String>) {
    let (Some((rows, ore, oim)), Some((rrows, rre, rim))) = (parts(ours), parts(r)) else {
        errors.push(format!("{path}: not comparable matrices: {ours} vs R {r}"));
        return;
    };
    if rows != rrows || ore.len() != rre.len() {
        errors.push(format!(
            "{path}: dim {rows}x{} vs R {rrows}x{}",
            ore.len() / rows.max(1),
            rre.len() / rrows.max(1)
        ));
        return;
    }
    let scale = rre
        .iter()
        .zip(&rim)
        .map(|(a, b)| a.hypot(*b))
        .fold(0.0, f64::max);
    let t = Tol {
        rel: t.rel,
        abs: t.rel * scale,
    };
    for c in 0..ore.len() / rows.max(1) {
        let col = c * rows..(c + 1) * rows;
        // phase = <r, ours> / |<r, ours>|, then compare ours * conj(phase).
        let (mut pr, mut pi) = (0.0, 0.0);
        for i in col.clone() {
            pr += rre[i] * ore[i] + rim[i] * oim[i];
            pi += rre[i] * oim[i] - rim[i] * ore[i];
        }
        let m = pr.hypot(pi);
        let (cr, ci) = if m > 0.0 {
            (pr / m, -pi / m)
        } else {
            (1.0, 0.0)
        };
        for i in col {
            let (a, b) = (ore[i] * cr - oim[i] * ci, ore[i] * ci + oim[i] * cr);
            if !close(a, rre[i], t) || !close(b, rim[i], t) {
                errors.push(format!(
                    "{path}[{},{c}]: flowcast {a:e}{b:+e}i, R {:e}{:+e}i",
                    i % rows,
                    rre[i],
                    rim[i]
                ));
                return;
            }
        }
    }
}

/// Columns of an svd or prcomp whose singular value is zero to rounding:
/// any orthonormal basis of that null space is right, R's is one of many.
fn null_space(r: &Json) -> Vec<usize> {
    let Some(d) = r.get("sdev").or_else(|| r.get("d")) else {
        return Vec::new();
    };
    let d: Vec<f64> = match d {
        Json::Array(a) => a.iter().filter_map(num).collect(),
        d => num(d).into_iter().collect(),
    };
    let top = d.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    (0..d.len()).filter(|&i| d[i].abs() <= 1e-9 * top).collect()
}

fn without_columns(j: &Json, drop: &[usize]) -> Json {
    let Some((rows, re, _)) = parts(j) else {
        return j.clone();
    };
    let cols = re.len() / rows.max(1);
    let keep: Vec<usize> = (0..cols).filter(|c| !drop.contains(c)).collect();
    let data: Vec<f64> = keep
        .iter()
        .flat_map(|&c| re[c * rows..(c + 1) * rows].to_vec())
        .collect();
    serde_json::json!({"dim": [rows, keep.len()], "data": data})
}

thread_local! {
    /// Fields one test compares relative to their largest entry, beside
    /// [`MATRIX_SCALED`] (see [`assert_matches_r_scaled`]).
    static EXTRA_SCALED: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn field_tol(field: &str) -> Tol {
    match field {
        "p.value" => Tol {
            rel: 1e-12,
            abs: 1e-300,
        },
        _ => Tol {
            rel: 1e-10,
            abs: 1e-13,
        },
    }
}

fn compare_field(path: &str, field: &str, ours: &Json, r: &Json, errors: &mut Vec<String>) {
    if let (Some(a), Some(b)) = (num(ours), num(r)) {
        if !close(a, b, field_tol(field)) {
            errors.push(format!("{path}: flowcast {a:e}, R {b:e}"));
        }
        return;
    }
    if r.get("dim").is_some() && SIGNED_COLUMNS.contains(&field) {
        return compare_columns(path, ours, r, field_tol(field), errors);
    }
    if MATRIX_SCALED.contains(&field)
        || EXTRA_SCALED.with(|e| e.borrow().iter().any(|f| f == field))
    {
        let all = |j: &Json| -> Option<Vec<f64>> {
            match j {
                Json::Array(a) => a.iter().map(num).collect(),
                Json::Object(_) => j.get("data")?.as_array()?.iter().map(num).collect(),
                j => num(j).map(|x| vec![x]),
            }
        };
        if let (Some(a), Some(b)) = (all(ours), all(r)) {
            let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            let t = Tol {
                rel: 1e-10,
                abs: 1e-10 * scale,
            };
            if a.len() != b.len() || ours.get("dim") != r.get("dim") {
                errors.push(format!("{path}: shape differs: {ours} vs R {r}"));
            } else if let Some(i) = (0..a.len()).find(|&i| !close(a[i], b[i], t)) {
                errors.push(format!("{path}[{i}]: flowcast {:e}, R {:e}", a[i], b[i]));
            }
            return;
        }
    }
    match (ours, r) {
        (Json::Array(a), Json::Array(b)) => {
            if a.len() != b.len() {
                errors.push(format!("{path}: length {} vs R {}", a.len(), b.len()));
                return;
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                compare_field(&format!("{path}[{i}]"), field, x, y, errors);
            }
        }
        (Json::Object(a), Json::Object(b)) => {
            let null = null_space(r);
            for (k, rv) in b {
                let key = format!("{path}${k}");
                match a.get(k) {
                    // R's NULL field (eigen's vectors with only.values).
                    None if rv.is_null() => {}
                    None => errors.push(format!("{key}: missing in flowcast's output")),
                    Some(ov) if !null.is_empty() && SIGNED_COLUMNS.contains(&k.as_str()) => {
                        let (ov, rv) = (without_columns(ov, &null), without_columns(rv, &null));
                        compare_field(&key, k, &ov, &rv, errors)
                    }
                    Some(ov) => compare_field(&key, k, ov, rv, errors),
                }
            }
        }
        // A length-one vector is a bare value on both sides, but R keeps a
        // 1-element array when it wrote a matrix or list.
        (Json::Array(a), b) if a.len() == 1 => compare_field(path, field, &a[0], b, errors),
        (a, Json::Array(b)) if b.len() == 1 => compare_field(path, field, a, &b[0], errors),
        (a, b) if a == b => {}
        (a, b) => errors.push(format!("{path}: flowcast {a}, R {b}")),
    }
}

/// Appends to `errors` every way `ours` differs from R's `r` under `path`.
pub fn compare(path: &str, ours: &Json, r: &Json, errors: &mut Vec<String>) {
    compare_field(path, "", ours, r, errors);
}

/// Every step R computed (`r`: an object of step to value) against the
/// `STEP.json` flowcast wrote into `out`; the differences go to `errors`.
pub fn compare_dir(r: &Json, out: &Path, errors: &mut Vec<String>) {
    for (step, rv) in r.as_object().expect("R's values are an object") {
        let file = out.join(format!("{step}.json"));
        let Ok(t) = std::fs::read_to_string(&file) else {
            errors.push(format!("{step}: no {}", file.display()));
            continue;
        };
        let ours: Json = serde_json::from_str(&t).unwrap();
        compare(step, &ours, rv, errors);
    }
}

/// The fixtures' `csv/` and their workflow `name` copied into a temporary
/// directory (as `workflows/NAME`), so the files its steps write land
/// there; the copied workflow's path.
pub fn copy_fixtures(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::create_dir(dir.path().join("workflows")).unwrap();
    std::fs::create_dir(dir.path().join("csv")).unwrap();
    for entry in std::fs::read_dir(fixtures.join("csv")).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), dir.path().join("csv").join(entry.file_name())).unwrap();
        }
    }
    let wf = dir.path().join("workflows").join(name);
    std::fs::copy(fixtures.join("workflows").join(name), &wf).unwrap();
    (dir, wf)
}

/// Each file `names` that a copied workflow wrote into `written` against
/// R's file of that name (tests/fixtures/csv/written/), byte for byte; the
/// differences go to `errors`.
pub fn compare_written(names: &[String], written: &Path, errors: &mut Vec<String>) {
    let r_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/csv/written");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    for name in names {
        let theirs = std::fs::read(r_dir.join(name)).unwrap();
        match std::fs::read(written.join(name)) {
            Ok(b) if b == theirs => {}
            Ok(b) => errors.push(format!(
                "{name} differs from R's:\n{}\n--- R:\n{}",
                text(&b),
                text(&theirs)
            )),
            Err(e) => errors.push(format!("{name}: {e}")),
        }
    }
}

/// Runs workflow `wf` (`run --headless --no-cache -p 2`) with its values
/// written to `out`, asserting that it succeeds, and compares every value
/// with R's (tests/fixtures/r/NAME.json, `r_name`); the differences.
pub fn run_against_r(r_name: &str, wf: &Path, out: &Path) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r: Json = serde_json::from_str(
        &std::fs::read_to_string(root.join(format!("tests/fixtures/r/{r_name}.json"))).unwrap(),
    )
    .unwrap();
    let run = super::flowcast_command()
        .args(["run", "--headless", "--no-cache", "-p", "2", "--out"])
        .arg(out)
        .arg(wf)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(
        run.status.success(),
        "{}\n{}",
        text(&run.stdout),
        text(&run.stderr)
    );
    let mut errors = Vec::new();
    compare_dir(&r, out, &mut errors);
    errors
}

/// tests/fixtures/workflows/NAME.toml runs and every value agrees with
/// R's (tests/fixtures/r/NAME.json) within [`run_against_r`]'s tolerance.
pub fn assert_matches_r(name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let wf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/workflows/{name}.toml"));
    let errors = run_against_r(name, &wf, dir.path());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// [`assert_matches_r`] with the fields `scaled` (a factor analysis'
/// loadings, rotation and scores: products of eigenvectors) compared
/// relative to each field's largest entry, as [`MATRIX_SCALED`]'s are.
pub fn assert_matches_r_scaled(name: &str, scaled: &[&str]) {
    EXTRA_SCALED.with(|e| *e.borrow_mut() = scaled.iter().map(|s| s.to_string()).collect());
    assert_matches_r(name);
    EXTRA_SCALED.with(|e| e.borrow_mut().clear());
}

/// tests/fixtures/workflows/NAME.toml runs and every value equals R's
/// (tests/fixtures/r/NAME.json) bit for bit: first within the tolerance
/// of [`run_against_r`], for a readable report, then exactly.
pub fn assert_bit_for_bit(name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = super::fixture(name);
    let dir = tempfile::tempdir().unwrap();
    let wf = root.join(format!("tests/fixtures/workflows/{name}.toml"));
    let errors = run_against_r(name, &wf, dir.path());
    assert!(
        errors.is_empty(),
        "{} differences:\n{}",
        errors.len(),
        errors.join("\n")
    );
    let mut inexact = Vec::new();
    for (step, rv) in r.as_object().unwrap() {
        let t = std::fs::read_to_string(dir.path().join(format!("{step}.json"))).unwrap();
        let ours: Json = serde_json::from_str(&t).unwrap();
        if !same(&ours, rv) {
            inexact.push(format!("{step}: flowcast {ours}\nR {rv}"));
        }
    }
    assert!(
        inexact.is_empty(),
        "{} steps differ from R in the last bits:\n{}",
        inexact.len(),
        inexact.join("\n")
    );
}

/// JSON equality where `[x]` equals `x` (a length-one vector is a bare
/// value on one side), numbers are equal as doubles (flowcast writes -0
/// as 0, R an integer's 3 where flowcast writes 3.0), and an object has
/// R's fields (R's side writes no class).
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Json::Object(x), Json::Object(y)) => {
            y.iter().all(|(k, v)| x.get(k).is_some_and(|w| same(w, v)))
        }
        (Json::Array(x), y) if x.len() == 1 => same(&x[0], y),
        (x, Json::Array(y)) if y.len() == 1 => same(x, &y[0]),
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (x, y) => x == y,
    }
}

/// Each case of tests/fixtures/r/NAME.json (steps, and R's message for
/// the last) is refused with that message, before or during the run, and
/// nothing panics.
pub fn assert_refusals_are_rs(name: &str) {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let mut failures = Vec::new();
    for (case_name, case) in super::fixture(name).as_object().unwrap() {
        let steps = case["steps"].as_str().unwrap();
        let message = case["message"].as_str().unwrap();
        let (_dir, path) = super::steps_workflow(steps);
        let out = super::flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
        let err = text(&out.stderr) + &text(&out.stdout);
        if out.status.code() == Some(0) || err.contains("panicked") || !err.contains(message) {
            failures.push(format!("{case_name}: expected {message:?} in:\n{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `run` of `steps` succeeds, and its output holds each of `warnings`
/// once, as R raises each once.
#[track_caller]
pub fn assert_warns_once(steps: &str, warnings: &[&str]) {
    let (_dir, path) = super::steps_workflow(steps);
    let out = super::flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{steps}: {all}");
    for w in warnings {
        assert_eq!(all.matches(w).count(), 1, "{w:?} in: {all}");
    }
}
