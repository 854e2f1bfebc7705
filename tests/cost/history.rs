//! The history store: round trip, concurrent writers, a writer killed
//! mid-transaction, and a file that is not a database.

use std::process::Command;

use flowcast::cost::comm::fit;
use flowcast::cost::history::{History, RunRecord, TaskRecord};
use flowcast::cost::Comm;
use flowcast::cost::{ModelKind, Predictor};

fn task(step: &str, function: &str, secs: f64) -> TaskRecord {
    TaskRecord {
        step: step.into(),
        function: function.into(),
        features: vec![1200.0, 1200.0],
        kind: "call".into(),
        iterations: None,
        predicted: Some(secs * 1.1),
        actual: Some(secs),
        worker: Some(1),
        start: Some(0.5),
        end: Some(0.5 + secs),
        model: Some(function.into()),
        observed: Some(secs),
        blocks: Vec::new(),
        width: None,
        lanes: Vec::new(),
    }
}

fn run(name: &str, tasks: usize) -> RunRecord {
    RunRecord {
        id: 0,
        workflow: name.into(),
        path: format!("/tmp/{name}.toml"),
        scheduler: "emcp".into(),
        processors: 8,
        started_at: 1.7e9,
        predicted_makespan: Some(36.6),
        actual_makespan: Some(46.4),
        tasks: (0..tasks)
            .map(|i| task(&format!("s{i}"), "eigen", 0.1 + i as f64))
            .collect(),
    }
}

#[test]
fn a_run_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path().join("sub/history.sqlite")).unwrap();
    let mut r = run("fig1", 3);
    r.tasks[2].kind = "loop".into();
    r.tasks[2].iterations = Some(1200);
    r.tasks[2].actual = None;
    r.tasks[2].observed = None;
    // A loop's blocks, stored out of iteration order, come back in it.
    let block = |a: usize, b: usize, start: f64| flowcast::cost::LoopBlock {
        iterations: a..b,
        start,
        end: start + 0.25,
    };
    r.tasks[2].blocks = vec![block(0, 600, 0.5), block(600, 1200, 0.5)];
    // Calls keep the workers they held: one ran 4 wide, one narrow.
    r.tasks[0].width = Some(4);
    r.tasks[1].width = Some(1);
    let id = h.record_run(&r).unwrap();
    h.record_run(&run("other", 1)).unwrap();
    let back = h.run(id).unwrap().unwrap();
    assert_eq!(back, RunRecord { id, ..r });
    assert_eq!(h.runs(Some("fig1")).unwrap().len(), 1);
    assert_eq!(h.runs(None).unwrap().len(), 2);
    // Most recent first; the unmeasured loop contributes nothing.
    let obs = h.observations("eigen", 10).unwrap();
    assert_eq!(obs.len(), 3);
    assert_eq!(obs[0].1, 0.1);
    assert_eq!(obs[1].1, 1.1);
    assert_eq!(h.observations("eigen", 1).unwrap().len(), 1);

    h.save_model("eigen", "{\"x\":1}").unwrap();
    h.save_model("eigen", "{\"x\":2}").unwrap();
    assert_eq!(h.load_model("eigen").unwrap().as_deref(), Some("{\"x\":2}"));
    assert_eq!(h.load_model("svd").unwrap(), None);

    assert_eq!(h.load_comm().unwrap(), None);
    let c = Comm::local(2e-5, 1e-10);
    h.save_comm(&c).unwrap();
    assert_eq!(h.load_comm().unwrap(), Some(c));
}

#[test]
fn predictor_learns_from_the_store_and_persists_models() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let mut h = History::open(&path).unwrap();
    let mut r = run("w", 0);
    for (i, n) in [200.0, 400.0, 800.0, 1000.0].into_iter().enumerate() {
        let mut t = task(&format!("e{i}"), "eigen", 3e-9 * n * n * n);
        t.features = vec![n, n];
        r.tasks.push(t);
    }
    h.record_run(&r).unwrap();
    // No saved model: rebuilt from the observations.
    let mut p = Predictor::load(&h, ModelKind::LogLinear).unwrap();
    let pred = p.predict_features("eigen", &[600.0, 600.0]);
    assert!(
        (pred / (3e-9 * 600f64.powi(3)) - 1.0).abs() < 0.03,
        "{pred}"
    );
    p.save(&h).unwrap();
    drop(h);
    let h = History::open(&path).unwrap();
    assert!(h.load_model("eigen").unwrap().is_some());
    let q = Predictor::load(&h, ModelKind::LogLinear).unwrap();
    assert_eq!(q.predict_features("eigen", &[600.0, 600.0]), pred);
}

/// Two processes sharing a store each write back only the models their
/// runs changed: the second to save does not put back its older state of
/// a model only the first retrained.
#[test]
fn a_save_writes_only_the_models_it_changed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let h = History::open(&path).unwrap();
    let mut p = Predictor::load(&h, ModelKind::LogLinear).unwrap();
    for n in [200.0, 400.0, 800.0] {
        p.observe_one("eigen", &[n, n], 3e-9 * n * n * n);
        p.observe_one("svd", &[n, n], 5e-9 * n * n * n);
    }
    p.retrain();
    p.save(&h).unwrap();
    let mut first = Predictor::load(&h, ModelKind::LogLinear).unwrap();
    let mut second = Predictor::load(&h, ModelKind::LogLinear).unwrap();
    first.observe_one("svd", &[1000.0, 1000.0], 9.0);
    first.retrain();
    first.save(&h).unwrap();
    let svd = h.load_model("svd").unwrap();
    second.observe_one("eigen", &[1000.0, 1000.0], 7.0);
    second.retrain();
    second.save(&h).unwrap();
    assert_eq!(h.load_model("svd").unwrap(), svd);
    let q = Predictor::load(&h, ModelKind::LogLinear).unwrap();
    assert_eq!(
        q.predict_features("svd", &[1000.0, 1000.0]),
        first.predict_features("svd", &[1000.0, 1000.0])
    );
    assert_eq!(
        q.predict_features("eigen", &[1000.0, 1000.0]),
        second.predict_features("eigen", &[1000.0, 1000.0])
    );
    assert_ne!(
        q.predict_features("svd", &[1000.0, 1000.0]),
        second.predict_features("svd", &[1000.0, 1000.0])
    );
}

/// Planning reads a workflow's newest runs through an index, newest first
/// and no more than asked for; `run` finds one run by its id.
#[test]
fn recent_runs_are_the_newest_of_their_workflow() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path().join("h.sqlite")).unwrap();
    let mut ids = Vec::new();
    for i in 0..7 {
        let name = if i % 2 == 0 { "w" } else { "other" };
        ids.push((name, h.record_run(&run(name, 1)).unwrap()));
    }
    let mine: Vec<i64> = ids
        .iter()
        .filter(|(n, _)| *n == "w")
        .map(|(_, id)| *id)
        .collect();
    let recent: Vec<i64> = h
        .recent_runs("w", 3)
        .unwrap()
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(recent, vec![mine[3], mine[2], mine[1]]);
    assert!(h.recent_runs("none", 3).unwrap().is_empty());
    let one = h.run(mine[1]).unwrap().expect("recorded");
    assert_eq!(
        (one.id, one.workflow.as_str(), one.tasks.len()),
        (mine[1], "w", 1)
    );
    assert!(h.run(10_000).unwrap().is_none());
}

#[test]
fn two_connections_write_concurrently() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    History::open(&path).unwrap();
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut h = History::open(&path).unwrap();
                for i in 0..25 {
                    h.record_run(&run(&format!("w{w}-{i}"), 5)).unwrap();
                    // Reads interleave with the other writer's transactions.
                    assert!(!h.runs(None).unwrap().is_empty());
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let h = History::open(&path).unwrap();
    let runs = h.runs(None).unwrap();
    assert_eq!(runs.len(), 50);
    for r in runs {
        assert_eq!(h.tasks(r.id).unwrap().len(), 5);
    }
}

const CHILD_ENV: &str = "FLOWCAST_TEST_HISTORY_ABORT";

/// The child half of `a_writer_killed_mid_transaction_leaves_no_partial_run`:
/// does nothing unless the parent sets the variable.
#[test]
fn crash_child() {
    let Some(path) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let mut h = History::open(path).unwrap();
    h.record_run(&run("committed", 4)).unwrap();
    let _ = h.record_run_hooked(&run("half", 400), &mut || std::process::abort());
    unreachable!("the hook aborts the process");
}

#[test]
fn a_writer_killed_mid_transaction_leaves_no_partial_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "history::crash_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, &path)
        .status()
        .unwrap();
    assert!(!status.success(), "the child must have died");
    let h = History::open(&path).unwrap();
    assert!(h.integrity_check().unwrap());
    let runs = h.runs(None).unwrap();
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0].workflow, "committed");
    assert_eq!(h.tasks(runs[0].id).unwrap().len(), 4);
    assert_eq!(h.observations("eigen", 1000).unwrap().len(), 4);
}

#[test]
fn a_file_that_is_not_a_database_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.sqlite");
    std::fs::write(&path, "these are my notes, not a database\n".repeat(200)).unwrap();
    let err = History::open(&path).err().expect("must fail");
    let msg = err.to_string();
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(msg.contains("not a flowcast history database"), "{msg}");
    // The file is left as it was.
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .starts_with("these are my notes"));
}

/// A zero-byte file (`touch`, `mktemp`) is a history with nothing in it
/// yet: read as empty ("no such table" before), and made a history by the
/// first run that writes to it.
#[test]
fn an_empty_file_is_an_empty_history() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    std::fs::write(&path, b"").unwrap();
    let h = History::open_read_only(&path).unwrap();
    assert_eq!(h.runs(None).unwrap().len(), 0);
    drop(h);
    // Reading wrote nothing.
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
    let mut h = History::open(&path).unwrap();
    h.record_run(&run("empty", 2)).unwrap();
    drop(h);
    let h = History::open_read_only(&path).unwrap();
    assert_eq!(h.runs(None).unwrap().len(), 1);
}

/// Another program's SQLite database is not read as an empty history, nor
/// given flowcast's tables (nor turned to WAL) by a run: both refuse it,
/// and its bytes are left as they were.
#[test]
fn another_programs_database_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("places.sqlite");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("CREATE TABLE bookmarks (url TEXT); INSERT INTO bookmarks VALUES ('x');")
        .unwrap();
    drop(conn);
    let before = std::fs::read(&path).unwrap();
    for err in [
        History::open_read_only(&path).err().expect("read refused"),
        History::open(&path).err().expect("write refused"),
    ] {
        let msg = err.to_string();
        assert!(msg.contains("not a flowcast history database"), "{msg}");
        assert!(msg.contains(&path.display().to_string()), "{msg}");
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn comm_fit_is_a_line_through_the_latency() {
    let c = fit(1e-5, &[]);
    assert_eq!(c.per_byte, 0.0);
    assert_eq!(c.latency, 1e-5);
}

/// Calibrates this machine (about a second) and prints the fit.
#[test]
#[ignore]
fn print_comm_calibration() {
    let (latency, samples) =
        flowcast::cost::comm::measure(&flowcast::cost::comm::calibration_sizes(), 5);
    for s in &samples {
        println!("{:>10} bytes: extra {:.3e} s", s.bytes, s.seconds);
    }
    let c = fit(latency, &samples);
    println!("latency {:.3e} s, per byte {:.3e} s", c.latency, c.per_byte);
}

/// Issue 13: a lock another program holds is waited for once; the run is
/// kept in the retry file and recorded at the next open; no message blames
/// a flowcast process it cannot know about.
#[test]
fn a_run_blocked_by_a_lock_is_kept_and_recorded_at_the_next_open() {
    use flowcast::cost::history::{retry, HistoryErrorKind};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    History::open(&path)
        .unwrap()
        .record_run(&run("first", 2))
        .unwrap();
    let other = rusqlite::Connection::open(&path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    // The store is at this schema: opening needs no lock.
    let mut h = History::open_waiting(&path, std::time::Duration::from_millis(50)).unwrap();
    let err = h.record_run(&run("blocked", 3)).unwrap_err();
    let kept = match &err.kind {
        HistoryErrorKind::Kept(file) => file.clone(),
        other => panic!("expected the run kept, got {other:?}"),
    };
    assert_eq!(kept, retry::path_for(&path));
    assert!(kept.is_file());
    let msg = err.to_string();
    assert!(msg.contains("locked by another process"), "{msg}");
    assert!(!msg.contains("flowcast process"), "{msg}");
    // Later writes of this process do not wait again.
    let later = h.save_model("eigen", "{}").unwrap_err();
    assert!(matches!(later.kind, HistoryErrorKind::Busy), "{later:?}");
    drop(h);
    other.execute_batch("COMMIT").unwrap();
    let h = History::open(&path).unwrap();
    let runs = h.runs(None).unwrap();
    let names: Vec<&str> = runs.iter().map(|r| r.workflow.as_str()).collect();
    assert_eq!(names, ["blocked", "first"]);
    assert_eq!(h.tasks(runs[0].id).unwrap(), run("blocked", 3).tasks);
    assert!(!kept.exists(), "the retry file is merged and removed");
}

/// Writes three runs and returns the store's bytes with one page in the
/// middle overwritten.
fn damaged_store(path: &std::path::Path) -> Vec<u8> {
    let mut h = History::open(path).unwrap();
    for i in 0..40 {
        h.record_run(&run(&format!("r{i}"), 20)).unwrap();
    }
    drop(h);
    let mut bytes = std::fs::read(path).unwrap();
    let page = usize::from(u16::from_be_bytes([bytes[16], bytes[17]]));
    let pages = bytes.len() / page;
    assert!(pages > 6, "{pages} pages");
    let middle = pages / 2 * page;
    for (i, b) in bytes[middle..middle + page].iter_mut().enumerate() {
        *b = (i * 7 + 13) as u8;
    }
    std::fs::write(path, &bytes).unwrap();
    bytes
}

/// Issue 13: a store damaged mid-file is found at open; it is never
/// written to, and reading commands can still read it, with a warning.
#[test]
fn a_store_damaged_mid_file_is_refused_for_writing_and_read_with_a_warning() {
    use flowcast::cost::history::HistoryErrorKind;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let bytes = damaged_store(&path);
    let err = History::open(&path)
        .err()
        .expect("a damaged store is refused");
    assert!(matches!(err.kind, HistoryErrorKind::Damaged(_)), "{err:?}");
    assert!(err.to_string().contains("is damaged"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing was written");
    let h = History::open_read_only(&path).unwrap();
    assert!(h.damage().is_some());
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

/// A store written before long-double adds were timed (a speed row, no
/// `long_double_speed` table) opens, prices them at the development
/// machine's ratio to the rest, and takes both once measured.
#[test]
fn a_store_without_a_long_double_speed_prices_it_from_seconds_per_op() {
    use flowcast::kernels::work::Speed;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    drop(History::open(&path).unwrap());
    let old = rusqlite::Connection::open(&path).unwrap();
    old.execute_batch(
        "DROP TABLE long_double_speed;
         INSERT INTO speed (id, seconds_per_op, measured_at) VALUES (1, 3e-10, 0);",
    )
    .unwrap();
    drop(old);
    let h = History::open(&path).unwrap();
    assert_eq!(h.load_speed().unwrap(), Some(Speed::at(3e-10)));
    let measured = Speed {
        per_op: 2e-10,
        per_ld_add: 2e-9,
        per_streamed: 1.2e-10,
        per_fetched: 6e-10,
    };
    h.save_speed(measured).unwrap();
    assert_eq!(h.load_speed().unwrap(), Some(measured));
}

/// A store written before streams were timed (long-double adds measured,
/// no `stream_speed` table) keeps its adds and prices the streams at the
/// development machine's ratio to seconds per op.
#[test]
fn a_store_without_a_stream_speed_prices_it_from_seconds_per_op() {
    use flowcast::kernels::work::Speed;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    drop(History::open(&path).unwrap());
    let old = rusqlite::Connection::open(&path).unwrap();
    old.execute_batch(
        "DROP TABLE stream_speed;
         INSERT INTO speed (id, seconds_per_op, measured_at) VALUES (1, 3e-10, 0);
         INSERT INTO long_double_speed (id, seconds_per_add, measured_at) VALUES (1, 4e-9, 0);",
    )
    .unwrap();
    drop(old);
    let h = History::open(&path).unwrap();
    let loaded = h.load_speed().unwrap().unwrap();
    assert_eq!(
        loaded,
        Speed {
            per_ld_add: 4e-9,
            ..Speed::at(3e-10)
        }
    );
    assert!(loaded.per_fetched > loaded.per_streamed && loaded.per_streamed > 3e-10);
}
