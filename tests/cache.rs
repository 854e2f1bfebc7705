//! Incremental re-runs: which edits change which steps' keys, and that a
//! run taking some values from the cache computes exactly what a fresh run
//! does (R's values, bit for bit), under every scheduler.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use flowcast::cache::{keys, Key};

mod common;
use common::r_json;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Each step's key for the workflow `text` (written to `dir`) and `seed`.
fn step_keys(dir: &Path, text: &str, seed: i64) -> HashMap<String, Option<Key>> {
    let path = dir.join("w.toml");
    std::fs::write(&path, text).unwrap();
    let wf = flowcast::workflow::load(&path).unwrap();
    let g = flowcast::graph::build(&wf).unwrap();
    let k = keys(&wf, &g, seed);
    g.tasks.iter().map(|t| (t.name.clone(), k[t.id])).collect()
}

/// The steps whose key differs between two versions.
fn changed(a: &HashMap<String, Option<Key>>, b: &HashMap<String, Option<Key>>) -> Vec<String> {
    let mut out: Vec<String> = b
        .iter()
        .filter(|(name, k)| a.get(*name) != Some(k))
        .map(|(n, _)| n.clone())
        .collect();
    out.sort();
    out
}

const BASE: &str = r#"
[workflow]
seed = 3

[steps]
x = "rnorm(100)"
k = "sample(40, 10)"
y = "runif(20)"
m = "mean(x)"   # a comment
s = "m + sum(y)"
d = "sum(read.csv(\"d.csv\")[[1]])"
l = { for = "i in 1:5", do = "i * m" }
r = { for = "i in 1:5", do = "rnorm(1) + i" }
"#;

fn base(dir: &Path) -> HashMap<String, Option<Key>> {
    std::fs::write(dir.join("d.csv"), "a\n1\n2\n").unwrap();
    step_keys(dir, BASE, 3)
}

#[test]
fn comments_and_spacing_change_no_key() {
    let dir = tempfile::tempdir().unwrap();
    let a = base(dir.path());
    assert!(a.values().all(Option::is_some));
    let edited = BASE
        .replace("# a comment", "# another comment\n# and more")
        .replace("\"m + sum(y)\"", "\"m+sum( y )\"");
    let b = step_keys(dir.path(), &edited, 3);
    assert_eq!(changed(&a, &b), Vec::<String>::new());
}

#[test]
fn an_input_change_reaches_its_readers_only() {
    let dir = tempfile::tempdir().unwrap();
    let a = base(dir.path());
    let b = step_keys(dir.path(), &BASE.replace("\"mean(x)\"", "\"sum(x)\""), 3);
    assert_eq!(changed(&a, &b), ["l", "m", "s"]);
}

#[test]
fn a_random_step_inserted_moves_the_random_steps_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let a = base(dir.path());
    let inserted = BASE.replace("k = \"sample", "extra = \"runif(3)\"\nk = \"sample");
    let b = step_keys(dir.path(), &inserted, 3);
    // x stands before the insertion; k and y draw later on the stream, and
    // what reads them changes with them. Loops draw from streams of their
    // own, and `extra` is new.
    assert_eq!(changed(&a, &b), ["extra", "k", "s", "y"]);
}

#[test]
fn a_data_file_change_reaches_the_step_that_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let a = base(dir.path());
    std::fs::write(dir.path().join("d.csv"), "a\n1\n3\n").unwrap();
    let b = step_keys(dir.path(), BASE, 3);
    assert_eq!(changed(&a, &b), ["d"]);
}

#[test]
fn the_seed_reaches_everything_random_and_downstream() {
    let dir = tempfile::tempdir().unwrap();
    let a = base(dir.path());
    let b = step_keys(dir.path(), BASE, 4);
    // `l` reads `m`, which reads the random `x`; `d` draws nothing.
    assert_eq!(changed(&a, &b), ["k", "l", "m", "r", "s", "x", "y"]);
}

#[test]
fn a_renamed_step_changes_its_readers_and_a_random_loop_itself() {
    let dir = tempfile::tempdir().unwrap();
    let a = base(dir.path());
    let renamed = BASE
        .replace("m = \"mean(x)\"", "mu = \"mean(x)\"")
        .replace("\"m + sum(y)\"", "\"mu + sum(y)\"")
        .replace("\"i * m\"", "\"i * mu\"");
    let b = step_keys(dir.path(), &renamed, 3);
    assert_eq!(b["mu"], a["m"], "the same expression on the same inputs");
    assert_ne!(b["s"], a["s"]);
    assert_ne!(b["l"], a["l"]);
    // A loop's random streams are made from its name.
    let c = step_keys(dir.path(), &BASE.replace("\nr = {", "\nr2 = {"), 3);
    assert_ne!(c["r2"], a["r"]);
}

#[test]
fn a_computed_file_name_gives_no_key() {
    let dir = tempfile::tempdir().unwrap();
    let text = BASE
        .replace("read.csv(\\\"d.csv\\\")", "read.csv(f)")
        .replace("[steps]", "[steps]\nf = \"\\\"d.csv\\\"\"");
    assert_ne!(text, BASE);
    std::fs::write(dir.path().join("d.csv"), "a\n1\n").unwrap();
    let k = step_keys(dir.path(), &text, 3);
    assert_eq!(k["d"], None);
    assert!(k["m"].is_some());
}

/// `flowcast run --headless --json` with the cache in `cache`.
fn run(workflow: &Path, cache: &Path, extra: &[&str]) -> Json {
    let out = common::flowcast_command()
        .args(["run", "--headless", "--json", "-p", "3", "--cache"])
        .arg(cache)
        .args(extra)
        .arg(workflow)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn statuses(doc: &Json) -> HashMap<String, String> {
    doc["steps"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v["status"].as_str().unwrap().to_string()))
        .collect()
}

fn ran(doc: &Json) -> Vec<String> {
    let mut v: Vec<String> = statuses(doc)
        .into_iter()
        .filter(|(_, s)| s != "cached")
        .map(|(k, _)| k)
        .collect();
    v.sort();
    v
}

fn entries(cache: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "value"))
        .collect();
    v.sort();
    v
}

/// Runs `name` cold, then with every `(i % 3 == drop)`-th entry of the
/// cache removed, and checks every value against R's both times: the
/// steps that run again read reused inputs and start on reused streams.
fn assert_partial_cache_matches_r(name: &str, schedulers: &[&str]) {
    let r: Json = serde_json::from_str(
        &std::fs::read_to_string(root().join(format!("tests/fixtures/r/{name}.json"))).unwrap(),
    )
    .unwrap();
    let workflow = root().join(format!("tests/fixtures/workflows/{name}.toml"));
    for (n, scheduler) in schedulers.iter().enumerate() {
        let cache = tempfile::tempdir().unwrap();
        let cold = run(&workflow, cache.path(), &["--scheduler", scheduler]);
        assert_eq!(cold["steps_cached"], 0);
        let all = entries(cache.path());
        assert!(all.len() > 3);
        for (i, e) in all.iter().enumerate() {
            if i % 3 == n % 3 {
                std::fs::remove_file(e).unwrap();
            }
        }
        let out = tempfile::tempdir().unwrap();
        let warm = common::flowcast_command()
            .args(["run", "--headless", "-p", "3", "--scheduler", scheduler])
            .arg("--cache")
            .arg(cache.path())
            .arg("--out")
            .arg(out.path())
            .arg(&workflow)
            .output()
            .unwrap();
        assert!(
            warm.status.success(),
            "{}",
            String::from_utf8_lossy(&warm.stderr)
        );
        let table = String::from_utf8_lossy(&warm.stdout);
        assert!(table.contains("cached"), "{table}");
        let mut errors = Vec::new();
        for (step, rv) in r.as_object().unwrap() {
            let text = std::fs::read_to_string(out.path().join(format!("{step}.json"))).unwrap();
            let ours: Json = serde_json::from_str(&text).unwrap();
            r_json::compare(step, &ours, rv, &mut errors);
        }
        assert!(errors.is_empty(), "{scheduler}: {}", errors.join("\n"));
    }
}

/// A fit read back from the cache keeps the data update, add1 and step
/// refit on.
#[test]
fn a_partly_cached_library22_run_matches_r() {
    assert_partial_cache_matches_r("library22", &["dynamic"]);
}

#[test]
fn a_partly_cached_stream_run_matches_r_under_every_scheduler() {
    assert_partial_cache_matches_r("stream", &["emcp", "mcp", "baseline", "dynamic", "ideal"]);
}

#[test]
fn a_partly_cached_e2e_run_matches_r() {
    assert_partial_cache_matches_r("e2e", &["emcp", "dynamic"]);
}

/// Every value of a `--json` document, as JSON text, by step.
fn values(doc: &Json) -> HashMap<String, String> {
    doc["steps"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v["value"].to_string()))
        .collect()
}

#[test]
fn a_second_run_reuses_everything_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let wf = root().join("tests/fixtures/workflows/stream.toml");
    let first = run(&wf, &cache, &[]);
    let second = run(&wf, &cache, &[]);
    let n = first["steps"].as_object().unwrap().len();
    assert_eq!(first["steps_ran"], n);
    assert_eq!(second["steps_cached"], n);
    assert_eq!(second["steps_ran"], 0);
    assert!(ran(&second).is_empty());
    for (_, s) in second["steps"].as_object().unwrap() {
        assert_eq!(s["cached"], true);
        assert!(s["work_s"].is_null() && s["predicted_s"].is_null());
    }
    assert_eq!(values(&first), values(&second));
    // --force runs everything again, to the same values.
    let forced = run(&wf, &cache, &["--force"]);
    assert_eq!(forced["steps_ran"], n);
    assert_eq!(values(&first), values(&forced));
}

#[test]
fn an_edit_reruns_only_what_it_changed_with_the_values_of_a_fresh_run() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let path = dir.path().join("w.toml");
    let text = r#"
[workflow]
seed = 8

[steps]
x = "rnorm(300)"
k = "sample(100, 20)"
y = "rnorm(10)"
m = "mean(x) + sum(k)"
l = { for = "i in 1:50", do = "mean(x[1:i])" }
"#;
    std::fs::write(&path, text).unwrap();
    run(&path, &cache, &[]);
    // The loop's body: only the loop.
    std::fs::write(&path, text.replace("mean(x[1:i])", "sd(x[1:i])")).unwrap();
    assert_eq!(ran(&run(&path, &cache, &[])), ["l"]);
    // A random step after an uncounted one (`sample`): it starts where the
    // cached `k` left the stream, and draws what a fresh run draws.
    let edited = text
        .replace("mean(x[1:i])", "sd(x[1:i])")
        .replace("rnorm(10)", "rnorm(12)");
    std::fs::write(&path, &edited).unwrap();
    let partial = run(&path, &cache, &["--scheduler", "dynamic"]);
    assert_eq!(ran(&partial), ["y"]);
    let fresh = run(&path, &dir.path().join("fresh"), &[]);
    assert_eq!(values(&partial), values(&fresh));
    // The seed: everything random and what reads it.
    std::fs::write(&path, edited.replace("seed = 8", "seed = 9")).unwrap();
    assert_eq!(ran(&run(&path, &cache, &[])), ["k", "l", "m", "x", "y"]);
}

#[test]
fn a_damaged_entry_is_a_miss_never_a_wrong_value() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let wf = root().join("tests/fixtures/workflows/stream.toml");
    let first = run(&wf, &cache, &[]);
    let all = entries(&cache);
    for (i, e) in all.iter().enumerate() {
        let mut bytes = std::fs::read(e).unwrap();
        match i % 3 {
            0 => bytes.truncate(bytes.len() / 2),
            1 => {
                let mid = bytes.len() / 2;
                bytes[mid] ^= 0x40;
            }
            _ => continue,
        }
        std::fs::write(e, bytes).unwrap();
    }
    let damaged = all.iter().enumerate().filter(|(i, _)| i % 3 != 2).count();
    let second = run(&wf, &cache, &[]);
    assert_eq!(second["steps_ran"], damaged);
    assert_eq!(values(&first), values(&second));
}

#[test]
fn concurrent_runs_on_one_cache_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let wf = root().join("tests/fixtures/workflows/stream.toml");
    let children: Vec<_> = (0..4)
        .map(|_| {
            common::flowcast_command()
                .args(["run", "--headless", "--json", "-p", "2", "--cache"])
                .arg(&cache)
                .arg(&wf)
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let docs: Vec<Json> = children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success());
            serde_json::from_slice(&out.stdout).unwrap()
        })
        .collect();
    for d in &docs[1..] {
        assert_eq!(values(d), values(&docs[0]));
    }
    // No temporary file is left, and every entry reads back whole.
    let names: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".value")), "{names:?}");
    let again = run(&wf, &cache, &[]);
    assert_eq!(again["steps_ran"], 0);
    assert_eq!(values(&again), values(&docs[0]));
}

#[test]
fn cache_clean_empties_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let wf = root().join("tests/fixtures/workflows/stream.toml");
    run(&wf, &cache, &[]);
    assert!(!entries(&cache).is_empty());
    let out = common::flowcast_command()
        .args(["cache", "clean", "--cache"])
        .arg(&cache)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("removed "));
    assert!(entries(&cache).is_empty());
    assert_eq!(run(&wf, &cache, &[])["steps_cached"], 0);
}

#[test]
fn no_cache_keeps_nothing_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(&path, "[steps]\nx = \"1 + 1\"\n").unwrap();
    let out = common::flowcast_command()
        .env_remove("FLOWCAST_CACHE")
        .args(["run", "--headless", "--no-cache"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!dir.path().join(".flowcast").exists());
    // By default, the cache is beside the workflow.
    let out = common::flowcast_command()
        .env_remove("FLOWCAST_CACHE")
        .args(["run", "--headless"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(entries(&dir.path().join(".flowcast")).len(), 1);
}

/// Issue 15: under `--watch`, a save re-runs what it changed; a save that
/// changes nothing (a comment) runs nothing. Values stay in memory between
/// runs (here with no cache directory at all).
#[test]
fn watch_mode_reruns_only_what_a_save_changed() {
    use std::io::Read;
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    let text = "[workflow]\nseed = 4\n[steps]\nx = \"rnorm(100)\"\nm = \"mean(x)\"\nl = { for = \"i in 1:20\", do = \"i * m\" }\n";
    std::fs::write(&path, text).unwrap();
    let mut child = common::flowcast_command()
        .args(["run", "--headless", "--watch", "--no-cache", "-p", "2"])
        .arg(&path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let seen = Arc::new(Mutex::new(String::new()));
    let mut stdout = child.stdout.take().unwrap();
    let sink = Arc::clone(&seen);
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    let wait_for = |needle: &str, count: usize| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while std::time::Instant::now() < deadline {
            if seen.lock().unwrap().matches(needle).count() >= count {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        false
    };
    assert!(wait_for("3 steps, 0 failed", 1), "{}", seen.lock().unwrap());
    std::fs::write(&path, text.replace("i * m", "i + m")).unwrap();
    assert!(
        wait_for("3 steps (1 ran, 2 cached)", 1),
        "{}",
        seen.lock().unwrap()
    );
    std::fs::write(
        &path,
        format!("# a note\n{}", text.replace("i * m", "i + m")),
    )
    .unwrap();
    assert!(
        wait_for("3 steps (0 ran, 3 cached)", 1),
        "{}",
        seen.lock().unwrap()
    );
    let _ = child.kill();
    let _ = child.wait();
    let _ = reader.join();
}

/// Issue 15: every exporter shows the steps a run took from the cache.
#[test]
fn exports_of_a_partly_cached_run_show_the_cached_steps() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let history = dir.path().join("h.sqlite");
    let path = dir.path().join("w.toml");
    let text = "[workflow]\nseed = 1\n[steps]\nx = \"rnorm(100)\"\nm = \"mean(x)\"\n";
    std::fs::write(&path, text).unwrap();
    let h = ["--history", history.to_str().unwrap()];
    run(&path, &cache, &h);
    std::fs::write(&path, text.replace("mean(x)", "sum(x)")).unwrap();
    assert_eq!(ran(&run(&path, &cache, &h)), ["m"]);
    let export = |name: &str| {
        let out = dir.path().join(name);
        let o = common::flowcast_command()
            .args(["export", "--run", "last", "-o"])
            .arg(&out)
            .args(h)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(out).unwrap()
    };
    assert!(export("c.svg").contains("cached, not run (1): x"));
    assert!(export("c.csv").contains("x,rnorm,data,run,,,,,,cached,"));
    let trace: Json = serde_json::from_str(&export("c.trace.json")).unwrap();
    let cached: Vec<&Json> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["cat"] == "cached")
        .collect();
    assert_eq!(cached.len(), 1);
    assert_eq!(cached[0]["name"], "x");
    assert!(export("c.mmd").contains("section cached\n    x :milestone"));
}

/// A reused step still shows R's warnings, pointing where its call now
/// stands in the edited file.
#[test]
fn a_cached_step_keeps_its_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let path = dir.path().join("w.toml");
    let text = "[steps]\nw = \"sum(sqrt(c(-1, 4)))\"\n";
    std::fs::write(&path, text).unwrap();
    let first = run(&path, &cache, &[]);
    let said = first["steps"]["w"]["warnings"].clone();
    assert!(said.to_string().contains("NaNs produced"), "{said}");
    assert_eq!(first["steps"]["w"]["warning_calls"][0]["line"], 2);
    std::fs::write(&path, format!("# moved down\n\n{text}")).unwrap();
    let second = run(&path, &cache, &[]);
    assert_eq!(second["steps"]["w"]["status"], "cached");
    assert_eq!(second["steps"]["w"]["warnings"], said);
    let at = &second["steps"]["w"]["warning_calls"][0];
    assert_eq!(at["line"], 4);
    assert_eq!(at["call"], first["steps"]["w"]["warning_calls"][0]["call"]);
    assert_eq!(
        at["column"],
        first["steps"]["w"]["warning_calls"][0]["column"]
    );
}
