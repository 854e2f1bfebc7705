//! File watching on real files in a temp dir: one event per save, one per
//! burst, none for editor swap files, and still events after a file is
//! replaced by rename (atomic save). Then the headless loop: reruns on
//! change, keeps the last good workflow on error.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use flowcast::cli::headless::watch_loop;
use flowcast::watch::{is_ignored, watch_files, Changed};

const QUIET: Duration = Duration::from_millis(300);
/// Long enough for inotify and the quiet period on a loaded machine.
const SETTLE: Duration = Duration::from_millis(1200);

fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("flow.toml");
    std::fs::write(&file, "a = 1\n").unwrap();
    (dir, file)
}

fn watcher(file: &Path) -> (flowcast::watch::FileWatcher, mpsc::Receiver<Changed>) {
    let (tx, rx) = mpsc::channel();
    let w = watch_files(&[file.to_path_buf()], QUIET, move |c| {
        let _ = tx.send(c);
    })
    .unwrap();
    // Let the watch settle before the first write.
    std::thread::sleep(Duration::from_millis(100));
    (w, rx)
}

/// The changes reported: waits for a first one (a loaded machine can be
/// slow), then long enough for any that should not come.
fn drain(rx: &mpsc::Receiver<Changed>) -> Vec<Changed> {
    let mut got: Vec<Changed> = rx
        .recv_timeout(Duration::from_secs(5))
        .into_iter()
        .collect();
    std::thread::sleep(SETTLE);
    got.extend(rx.try_iter());
    got
}

#[test]
fn a_save_is_one_change() {
    let (_dir, file) = setup();
    let (_w, rx) = watcher(&file);
    std::fs::write(&file, "a = 2\n").unwrap();
    let got = drain(&rx);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].paths.len(), 1);
    assert_eq!(got[0].paths[0].file_name(), file.file_name());
}

#[test]
fn a_burst_of_saves_is_one_change() {
    let (_dir, file) = setup();
    let (_w, rx) = watcher(&file);
    for i in 0..10 {
        std::fs::write(&file, format!("a = {i}\n")).unwrap();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(drain(&rx).len(), 1);
}

#[test]
fn swap_backup_and_other_files_are_not_changes() {
    let (dir, file) = setup();
    let (_w, rx) = watcher(&file);
    for name in [
        ".flow.toml.swp",
        ".flow.toml.swx",
        "flow.toml~",
        "4913",
        ".#flow.toml",
        "#flow.toml#",
        "out.json",
    ] {
        std::fs::write(dir.path().join(name), "x").unwrap();
    }
    // Reading the watched file is not a change either.
    let _ = std::fs::read_to_string(&file).unwrap();
    assert_eq!(drain(&rx), []);
}

#[test]
fn rename_over_the_file_is_still_watched() {
    let (dir, file) = setup();
    let (_w, rx) = watcher(&file);
    for i in 0..2 {
        let tmp = dir.path().join("flow.toml.tmp");
        std::fs::write(&tmp, format!("a = {i}\n")).unwrap();
        std::fs::rename(&tmp, &file).unwrap();
        assert_eq!(drain(&rx).len(), 1, "save {i} by rename");
    }
    // Deleted, then created again.
    std::fs::remove_file(&file).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    std::fs::write(&file, "a = 9\n").unwrap();
    assert_eq!(drain(&rx).len(), 1);
}

#[test]
fn editor_temp_file_names() {
    for name in [".x.swp", ".x.swx", "x~", "4913", ".#x", "#x#"] {
        assert!(is_ignored(Path::new(name)), "{name}");
    }
    for name in ["x.toml", "data.csv", "#", "x#"] {
        assert!(!is_ignored(Path::new(name)), "{name}");
    }
}

/// Polls `cond` for up to five seconds: a loaded machine may be slow to
/// deliver events, so positive checks wait rather than sleep a fixed time.
fn wait_until(cond: impl Fn() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cond()
}

/// The headless loop with a stand-in loader (a file holding a number, or
/// `bad`) and a run that records the number and waits to be cancelled.
#[test]
fn headless_loop_reruns_on_change_and_keeps_the_last_good() {
    let (_dir, file) = setup();
    std::fs::write(&file, "1").unwrap();
    let runs = Arc::new(Mutex::new(Vec::<u32>::new()));
    let cancelled = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let log = Arc::new(Mutex::new(Vec::<u8>::new()));
    let handle = {
        let (file, runs, cancelled, stop) =
            (file.clone(), runs.clone(), cancelled.clone(), stop.clone());
        std::thread::spawn(move || {
            let path = file.clone();
            let load = move || {
                let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
                text.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("error: `{}` is not a number", text.trim()))
            };
            let run = move |n: &u32, cancel: &AtomicBool| {
                runs.lock().unwrap().push(*n);
                // A long run: ends only when cancelled.
                while !cancel.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                cancelled.fetch_add(1, Ordering::Relaxed);
            };
            let mut out = Vec::new();
            let n = watch_loop(
                &[file],
                QUIET,
                load,
                |_: &u32| Vec::new(),
                run,
                &stop,
                &mut out,
            )
            .unwrap();
            (n, out)
        })
    };
    let runs_are = |want: &[u32]| wait_until(|| runs.lock().unwrap().as_slice() == want);
    assert!(runs_are(&[1]), "{:?}", runs.lock().unwrap());
    // A save during the run cancels it and starts the new one.
    std::fs::write(&file, "2").unwrap();
    assert!(runs_are(&[1, 2]), "{:?}", runs.lock().unwrap());
    assert_eq!(cancelled.load(Ordering::Relaxed), 1);
    // A bad save: reported, nothing rerun, the run of 2 goes on.
    std::fs::write(&file, "bad").unwrap();
    std::thread::sleep(SETTLE);
    assert_eq!(*runs.lock().unwrap(), [1, 2]);
    assert_eq!(cancelled.load(Ordering::Relaxed), 1);
    // A burst: one rerun, of the last contents.
    for n in [3, 4, 5] {
        std::fs::write(&file, n.to_string()).unwrap();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(runs_are(&[1, 2, 5]), "{:?}", runs.lock().unwrap());
    std::thread::sleep(SETTLE);
    assert_eq!(*runs.lock().unwrap(), [1, 2, 5], "one rerun for the burst");
    stop.store(true, Ordering::Relaxed);
    let (n, out) = handle.join().unwrap();
    assert_eq!(n, 3);
    assert_eq!(
        cancelled.load(Ordering::Relaxed),
        3,
        "the last run is cancelled on stop"
    );
    let out = String::from_utf8(out).unwrap();
    log.lock().unwrap().extend(out.as_bytes());
    assert!(out.contains("`bad` is not a number"), "{out}");
    assert!(out.contains("keeping the last good workflow"), "{out}");
}

/// A stand-in workflow that names the data file it reads (or is `bad`), in
/// the headless loop; returns the runs as (data file, its contents).
struct Reader {
    dir: tempfile::TempDir,
    flow: PathBuf,
    runs: Arc<Mutex<Vec<(String, String)>>>,
    stop: Arc<AtomicBool>,
    handle: Option<std::thread::JoinHandle<usize>>,
}

impl Reader {
    fn start(flow_text: &str, data: &[(&str, &str)]) -> Reader {
        let dir = tempfile::tempdir().unwrap();
        let flow = dir.path().join("flow.toml");
        std::fs::write(&flow, flow_text).unwrap();
        for (name, text) in data {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let runs = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handle = {
            let (flow, base, runs, stop) = (
                flow.clone(),
                dir.path().to_path_buf(),
                runs.clone(),
                stop.clone(),
            );
            std::thread::spawn(move || {
                let path = flow.clone();
                let load = move || {
                    let name = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
                    let name = name.trim().to_string();
                    if name.ends_with(".csv") {
                        Ok(name)
                    } else {
                        Err(format!("error: `{name}` names no csv file"))
                    }
                };
                let reads = {
                    let base = base.clone();
                    move |name: &String| vec![base.join(name)]
                };
                let run = move |name: &String, _: &AtomicBool| {
                    let text = std::fs::read_to_string(base.join(name)).unwrap_or_default();
                    runs.lock()
                        .unwrap()
                        .push((name.clone(), text.trim().to_string()));
                };
                let mut out = Vec::new();
                watch_loop(&[flow], QUIET, load, reads, run, &stop, &mut out).unwrap()
            })
        };
        Reader {
            dir,
            flow,
            runs,
            stop,
            handle: Some(handle),
        }
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.dir.path().join(name), text).unwrap();
    }

    fn runs_are(&self, want: &[(&str, &str)]) -> bool {
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        wait_until(|| *self.runs.lock().unwrap() == want)
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Issue 13: the data files watched follow the workflow: after an edit
/// from a.csv to b.csv, saving b.csv reruns and saving a.csv does not.
#[test]
fn an_edited_workflow_watches_the_data_it_now_reads() {
    let r = Reader::start("a.csv", &[("a.csv", "1"), ("b.csv", "2")]);
    assert!(
        r.runs_are(&[("a.csv", "1")]),
        "{:?}",
        r.runs.lock().unwrap()
    );
    std::fs::write(&r.flow, "b.csv").unwrap();
    assert!(r.runs_are(&[("a.csv", "1"), ("b.csv", "2")]));
    r.write("b.csv", "3");
    assert!(
        r.runs_are(&[("a.csv", "1"), ("b.csv", "2"), ("b.csv", "3")]),
        "{:?}",
        r.runs.lock().unwrap()
    );
    r.write("a.csv", "4");
    std::thread::sleep(SETTLE);
    assert_eq!(r.runs.lock().unwrap().len(), 3, "a.csv is no longer read");
}

/// Issue 13: a workflow invalid at start has its data files watched once
/// it becomes valid.
#[test]
fn a_workflow_invalid_at_start_watches_its_data_once_valid() {
    let r = Reader::start("bad", &[("c.csv", "1")]);
    std::thread::sleep(SETTLE);
    assert!(r.runs.lock().unwrap().is_empty());
    std::fs::write(&r.flow, "c.csv").unwrap();
    assert!(
        r.runs_are(&[("c.csv", "1")]),
        "{:?}",
        r.runs.lock().unwrap()
    );
    r.write("c.csv", "2");
    assert!(
        r.runs_are(&[("c.csv", "1"), ("c.csv", "2")]),
        "{:?}",
        r.runs.lock().unwrap()
    );
}
