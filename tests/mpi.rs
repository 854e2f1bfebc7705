//! `flowcast run --mpi` under a real `mpirun -np 3` (issue 18). Built only
//! with `--features mpi`; `.ci/run` installs Open MPI and runs these.
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_flowcast")
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `mpirun -np n flowcast ARGS`, as root if need be, with no cache.
fn mpirun(n: usize, args: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--oversubscribe", "-np", &n.to_string(), bin()])
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("FLOWCAST_CACHE", "off");
    c
}

/// `wf` headless on 3 ranks of one worker each under baseline, which
/// deals the first three calls to ranks 0, 1 and 2 in file order.
fn one_worker_each(wf: &Path, history: &Path) -> Command {
    mpirun(
        3,
        &[
            "run",
            wf.to_str().unwrap(),
            "--mpi",
            "-p",
            "1",
            "--scheduler",
            "baseline",
            "--headless",
            "--history",
            history.to_str().unwrap(),
        ],
    )
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Every file under `dir`, by name, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("values written")
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn values_under_mpirun_equal_the_local_run() {
    let tmp = tempfile::tempdir().unwrap();
    for wf in [
        "tests/fixtures/workflows/closures.toml",
        "workflows/field_trial.toml",
    ] {
        let file = root().join(wf);
        let (here, there): (PathBuf, PathBuf) = (tmp.path().join("here"), tmp.path().join("there"));
        let _ = std::fs::remove_dir_all(&here);
        let _ = std::fs::remove_dir_all(&there);
        let history = tmp.path().join("h.db");
        let common = |out: &Path| {
            vec![
                "run".to_string(),
                file.display().to_string(),
                "-p".into(),
                "2".into(),
                "--seed".into(),
                "5".into(),
                "--scheduler".into(),
                "baseline".into(),
                "--history".into(),
                history.display().to_string(),
                "--out".into(),
                out.display().to_string(),
            ]
        };
        let local = Command::new(bin())
            .args(common(&here))
            .env("FLOWCAST_CACHE", "off")
            .output()
            .unwrap();
        assert!(local.status.success(), "{}", text(&local));
        let mut args = common(&there);
        args.extend(["--mpi".to_string(), "--json".to_string()]);
        let spread = mpirun(3, &args.iter().map(String::as_str).collect::<Vec<_>>())
            .output()
            .unwrap();
        assert!(spread.status.success(), "{wf}: {}", text(&spread));
        assert_eq!(files(&here), files(&there), "{wf}");
        // Six workers over three ranks, and some steps ran past rank 0's.
        let doc: serde_json::Value = serde_json::from_slice(&spread.stdout).unwrap();
        assert_eq!(doc["workers"], 6, "{wf}");
        let remote = doc["steps"]
            .as_object()
            .unwrap()
            .values()
            .filter(|s| {
                s["workers"]
                    .as_array()
                    .is_some_and(|ws| ws.iter().any(|w| w["worker"].as_u64() >= Some(2)))
            })
            .count();
        assert!(remote > 0, "{wf}: no step ran on ranks 1 and 2");
    }
}

#[test]
fn a_step_failing_on_another_rank_names_the_rank_and_the_step() {
    let tmp = tempfile::tempdir().unwrap();
    let wf = tmp.path().join("fail.toml");
    std::fs::write(
        &wf,
        "[steps]\na = \"sum(1:10)\"\nb = \"solve(matrix(0, 2, 2))\"\nc = \"mean(1:4)\"\n",
    )
    .unwrap();
    let o = one_worker_each(&wf, &tmp.path().join("h.db"))
        .output()
        .unwrap();
    assert!(!o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("on rank 1: ") && err.contains("step `b`") && err.contains(":3:"),
        "{}",
        text(&o)
    );
}

/// The pid of the process of `rank` among mpirun's children.
fn rank_pid(mpirun: u32, rank: usize) -> Option<u32> {
    let want = format!("OMPI_COMM_WORLD_RANK={rank}");
    for entry in std::fs::read_dir("/proc").ok()? {
        let Ok(pid) = entry.ok()?.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // The parent pid is the fourth field, after the `(comm)` one.
        let parent = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if parent != Some(mpirun) {
            continue;
        }
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        if env.split(|&b| b == 0).any(|v| v == want.as_bytes()) {
            return Some(pid);
        }
    }
    None
}

#[test]
fn a_killed_rank_ends_the_run_with_a_message_and_the_history_intact() {
    let tmp = tempfile::tempdir().unwrap();
    let wf = tmp.path().join("slow.toml");
    std::fs::write(
        &wf,
        "[steps]\na = \"spin(4)\"\nb = \"spin(4)\"\nc = \"spin(4)\"\n",
    )
    .unwrap();
    let history = tmp.path().join("h.db");
    // One finished run first, which must survive.
    let first = Command::new(bin())
        .args(["run", wf.to_str().unwrap(), "--headless", "-p", "3"])
        .args(["--history", history.to_str().unwrap()])
        .env("FLOWCAST_CACHE", "off")
        .output()
        .unwrap();
    assert!(first.status.success(), "{}", text(&first));
    let child = one_worker_each(&wf, &history)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let victim = loop {
        if let Some(p) = rank_pid(child.id(), 2) {
            break p;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "rank 2 never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    // Let the ranks begin their steps, then kill rank 2 mid-step.
    std::thread::sleep(Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-9", &victim.to_string()])
        .status();
    assert!(killed.unwrap().success());
    let o = child.wait_with_output().unwrap();
    assert!(!o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    // Rank 0 names the lost rank and its step; but mpirun, seeing a rank
    // killed, may abort the job before rank 0 has written a word (once in
    // CI), and then its own message is the one there is.
    assert!(
        err.contains("rank 2 was running `c`") || err.contains("rank 2 with PID"),
        "{}",
        text(&o)
    );
    let h = flowcast::cost::history::History::open(&history).expect("history opens");
    let runs = h.runs(None).expect("history reads");
    assert_eq!(runs.len(), 1, "only the finished run: {runs:?}");
}
