//! A loop's blocks in every exporter, and charts of past runs from the
//! history store: stored whole, rebuilt for runs stored without one, and
//! exported with `flowcast export --run ID|last`.

mod common;
#[path = "tui_support/mod.rs"]
mod support;

use std::path::Path;

use flowcast::cost::history::History;
use flowcast::export::{self, Format};

fn trace_events(text: &str, pid: i64, name: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    v["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X" && e["pid"] == pid && e["name"] == name)
        .cloned()
        .collect()
}

#[test]
fn a_loops_blocks_are_exported_on_their_workers() {
    let g = support::looped();
    let trace = String::from_utf8(export::render(&g, Format::Trace).unwrap()).unwrap();
    let mut tids: Vec<i64> = trace_events(&trace, 2, "scores")
        .iter()
        .map(|e| e["tid"].as_i64().unwrap())
        .collect();
    tids.sort_unstable();
    assert_eq!(tids, [0, 1], "one actual event per block");

    let svg = String::from_utf8(export::render(&g, Format::Svg).unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let actual = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("actual"))
        .filter(|n| n.attribute("data-task") == Some("scores"))
        .count();
    assert_eq!(actual, 2);

    let mmd = String::from_utf8(export::render(&g, Format::Mermaid).unwrap()).unwrap();
    assert!(mmd.contains("scores [1..50]"), "{mmd}");
    assert!(mmd.contains("scores [51..100]"), "{mmd}");

    // The table keeps the loop's total.
    let scores = &g.rows[1];
    assert!((scores.actual_seconds().unwrap() - 1.1).abs() < 1e-9);
    // And the chart keeps its blocks through JSON.
    let back: flowcast::report::gantt::Gantt =
        serde_json::from_slice(&export::render(&g, Format::Json).unwrap()).unwrap();
    assert_eq!(back, g);
}

fn write_workflow(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("blocks.toml");
    std::fs::write(
        &p,
        "[workflow]\nname = \"blocks\"\nseed = 3\n\n[steps]\n\
         x = \"rnorm(50)\"\n\
         s = { for = \"i in 1:64\", do = \"spin(0.002)\" }\n\
         m = \"mean(x)\"\n",
    )
    .unwrap();
    p
}

#[test]
fn recording_a_run_keeps_every_block_of_a_loop() {
    let dir = tempfile::tempdir().unwrap();
    let (wf, graph) = flowcast::pipeline::load_checked(&write_workflow(dir.path())).unwrap();
    let costs = [0.001, 0.128, 0.001];
    let g =
        flowcast::cli::chart::record(&wf, &graph, &costs, 2, flowcast::sched::Scheduler::Emcp, 3)
            .unwrap();
    let s = g.rows.iter().find(|r| r.name == "s").unwrap();
    let chunks = &s.actual.as_ref().unwrap().chunks;
    assert_eq!(chunks.len(), s.predicted.len(), "a chunk per planned block");
    // The blocks cover every iteration once.
    let mut its: Vec<(usize, usize)> = chunks.iter().map(|c| c.iterations.unwrap()).collect();
    its.sort_unstable();
    assert_eq!(its.first().unwrap().0, 0);
    assert_eq!(its.last().unwrap().1, 64);
    assert!(its.windows(2).all(|w| w[0].1 == w[1].0));
}

#[test]
fn stores_written_before_charts_gain_the_table_and_stay_readable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    drop(History::open(&path).unwrap());
    // A store as written before charts existed.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("DROP TABLE charts").unwrap();
    drop(conn);
    let h = History::open(&path).unwrap();
    assert!(h.integrity_check().unwrap());
    assert_eq!(h.load_chart(1).unwrap(), None);
    let run = flowcast::cost::history::RunRecord {
        id: 0,
        workflow: "w".into(),
        path: "w.toml".into(),
        scheduler: "emcp".into(),
        processors: 2,
        started_at: 0.0,
        predicted_makespan: Some(1.0),
        actual_makespan: Some(1.0),
        tasks: Vec::new(),
    };
    let id = h.runs(None).unwrap().len() as i64;
    assert_eq!(id, 0);
    let mut h = h;
    let id = h.record_run(&run).unwrap();
    h.save_chart(id, "{}").unwrap();
    h.save_chart(id, "{\"a\":1}").unwrap();
    assert_eq!(h.load_chart(id).unwrap().as_deref(), Some("{\"a\":1}"));
}

fn flowcast(args: &[&str], dir: &Path) -> (bool, String, String) {
    let out = common::flowcast_command()
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env_remove("XDG_DATA_HOME")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn export_run_last_from_the_history_then_rebuilt_without_a_stored_chart() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_workflow(d);
    let h = d.join("h.sqlite");
    let hs = h.to_str().unwrap();
    let (ok, _, err) = flowcast(
        &[
            "export",
            "blocks.toml",
            "-o",
            "first.svg",
            "-p",
            "2",
            "--history",
            hs,
        ],
        d,
    );
    assert!(ok, "{err}");

    // Stored whole: the loop's blocks come back.
    let (ok, out, err) = flowcast(
        &[
            "export",
            "--run",
            "last",
            "--format",
            "trace",
            "-o",
            "last.json",
            "--history",
            hs,
        ],
        d,
    );
    assert!(ok, "{err}");
    assert!(out.contains("last.json"));
    let text = std::fs::read_to_string(d.join("last.json")).unwrap();
    assert!(!trace_events(&text, 1, "s").is_empty());
    // Every block as it ran: together they cover the 64 iterations once.
    // (A run adapts to what it measures, so its blocks need not be the
    // plan's.)
    let mut seen = [0u32; 64];
    for e in trace_events(&text, 2, "s") {
        let its = e["args"]["iterations"].as_str().unwrap();
        let (a, b) = its.split_once("..").unwrap();
        let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
        (a - 1..b).for_each(|k| seen[k] += 1);
    }
    assert!(seen.iter().all(|&k| k == 1), "{seen:?}");
    assert_eq!(trace_events(&text, 2, "m").len(), 1);

    // A run stored without its chart is rebuilt: the plan again from the
    // workflow file and the stored predictions, the run from the tasks.
    let conn = rusqlite::Connection::open(&h).unwrap();
    assert_eq!(conn.execute("DELETE FROM charts", []).unwrap(), 1);
    drop(conn);
    let (ok, _, err) = flowcast(
        &[
            "export",
            "--run",
            "1",
            "-o",
            "rebuilt.trace.json",
            "--history",
            hs,
        ],
        d,
    );
    assert!(ok, "{err}");
    assert!(!err.contains("warning"), "{err}");
    let text = std::fs::read_to_string(d.join("rebuilt.trace.json")).unwrap();
    for step in ["x", "s", "m"] {
        assert!(!trace_events(&text, 1, step).is_empty(), "planned {step}");
        assert_eq!(trace_events(&text, 2, step).len(), 1, "ran {step}");
    }

    // Without the workflow file, the run is still drawn, and says why the
    // plan is not.
    std::fs::remove_file(d.join("blocks.toml")).unwrap();
    let (ok, _, err) = flowcast(
        &[
            "export",
            "--run",
            "last",
            "-o",
            "noplan.csv",
            "--history",
            hs,
        ],
        d,
    );
    assert!(ok, "{err}");
    assert!(err.contains("the plan is not drawn"), "{err}");
    let csv = std::fs::read_to_string(d.join("noplan.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");

    // A run that is not there is named.
    let (ok, _, err) = flowcast(
        &["export", "--run", "99", "-o", "x.svg", "--history", hs],
        d,
    );
    assert!(!ok);
    assert!(err.contains("no run 99"), "{err}");
    let (ok, _, err) = flowcast(
        &["export", "--run", "soon", "-o", "x.svg", "--history", hs],
        d,
    );
    assert!(!ok);
    assert!(err.contains("--run soon"), "{err}");
}

#[test]
fn a_plain_run_stores_its_chart_for_export() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_workflow(d);
    let h = d.join("h.sqlite");
    let hs = h.to_str().unwrap();
    let (ok, _, err) = flowcast(
        &[
            "run",
            "--headless",
            "blocks.toml",
            "-p",
            "2",
            "--history",
            hs,
        ],
        d,
    );
    assert!(ok, "{err}");
    let conn = rusqlite::Connection::open(&h).unwrap();
    let charts: i64 = conn
        .query_row("SELECT COUNT(*) FROM charts", [], |r| r.get(0))
        .unwrap();
    assert_eq!(charts, 1);
    drop(conn);
    let (ok, _, err) = flowcast(
        &["export", "--run", "last", "-o", "last.csv", "--history", hs],
        d,
    );
    assert!(ok, "{err}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn a_past_runs_wide_call_is_drawn_on_every_worker_it_held() {
    use flowcast::cost::history::{RunRecord, TaskRecord};
    use flowcast::export::stored::{load, Which};
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path().join("h.sqlite")).unwrap();
    let task = |step: &str, worker: u64, lanes: Vec<u64>| TaskRecord {
        step: step.into(),
        function: "svd".into(),
        features: vec![700.0, 700.0],
        kind: "call".into(),
        iterations: None,
        predicted: Some(0.2),
        actual: Some(0.3),
        worker: Some(worker),
        start: Some(0.0),
        end: Some(0.1),
        model: None,
        observed: None,
        blocks: Vec::new(),
        width: Some(1 + lanes.len() as u64),
        lanes,
    };
    // No chart stored and no workflow file: rebuilt from the tasks alone.
    // The second call's lane 9 is past the run's 4 workers (an edited
    // store): not drawn.
    let run = RunRecord {
        id: 0,
        workflow: "w".into(),
        path: dir.path().join("gone.toml").display().to_string(),
        scheduler: "emcp".into(),
        processors: 4,
        started_at: 0.0,
        predicted_makespan: Some(0.1),
        actual_makespan: Some(0.1),
        tasks: vec![task("u", 2, vec![0, 1]), task("v", 3, vec![9])],
    };
    let id = h.record_run(&run).unwrap();
    assert_eq!(h.tasks(id).unwrap()[0].lanes, vec![0, 1]);
    let (g, _) = load(&h, Which::Id(id), None).unwrap();
    let workers = |name: &str| -> Vec<usize> {
        let row = g.rows.iter().find(|r| r.name == name).unwrap();
        let mut w: Vec<usize> = row.actual_bars().iter().map(|s| s.worker).collect();
        w.sort_unstable();
        w
    };
    assert_eq!(workers("u"), [0, 1, 2]);
    assert_eq!(workers("v"), [3]);
    assert!(export::render(&g, Format::Svg).is_ok());
}
