//! `flowcast bench rerun`: how long an edit takes to reach its result with
//! the cache (issue 15's targets), against running the whole workflow
//! again, in one process as watch mode and the UI run it.
//!
//! Each case writes the workflow file and times, from the write to values
//! kept: load and analyse, keys and lookups, plan, run, store. Watch mode
//! adds its quiet period (`watch::QUIET`) before that. The overhead is the
//! latency less the makespan of the steps that ran: what the cache costs
//! beyond the work that had to be done.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::cache::{Cache, Place};
use crate::exec::RunOptions;
use crate::pipeline::{self, Learning, Reuse};
use crate::report::units::{bytes, seconds};
use crate::sched::Scheduler;

/// One timed save.
struct Case {
    name: String,
    latency: f64,
    makespan: f64,
    ran: usize,
    cached: usize,
}

/// Runs the workflow at `path` once per edit in `edits` (each a whole new
/// text), keeping values in `cache`; times each.
fn timed(
    path: &Path,
    text: &str,
    cache: &mut Cache,
    workers: usize,
    name: &str,
    force: bool,
) -> Result<Case, String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    let began = Instant::now();
    let (wf, graph) = pipeline::load_checked(path)?;
    let seed = wf.seed.unwrap_or(0);
    let reuse = Reuse::find(&wf, &graph, seed, cache, force);
    let mut learning = Learning::none();
    let plan = pipeline::plan_reusing(&wf, &graph, &mut learning, workers, Scheduler::Emcp, reuse);
    let opts = RunOptions::new(workers, seed);
    let cancel = AtomicBool::new(false);
    let f = pipeline::execute(&wf, &graph, &mut learning, plan, &opts, &|_| {}, &cancel)?;
    let problems = f.plan.reuse.remember(&f.report, cache);
    if let Some(p) = problems.first() {
        return Err(p.clone());
    }
    let latency = began.elapsed().as_secs_f64();
    let (ran, cached) = f.report.ran_and_reused();
    Ok(Case {
        name: name.to_string(),
        latency,
        makespan: f.report.makespan.as_secs_f64(),
        ran,
        cached,
    })
}

/// The edits of issue 15's targets on `text`: the loop's body, a comment,
/// nothing, the seed.
fn edits(text: &str) -> Vec<(&'static str, String)> {
    let mut out = vec![
        ("comment edited", format!("# an edited comment\n{text}")),
        ("saved unchanged", format!("# an edited comment\n{text}")),
    ];
    // The first loop's body gains `+ 0`: another expression, the same value.
    if let Some(i) = text.find("do = \"") {
        let at = i + "do = \"".len();
        let mut t = text.to_string();
        t.insert(at, '(');
        let close = t[at..].find('"').map(|j| at + j);
        if let Some(c) = close {
            t.insert_str(c, ") + 0");
            out.push(("loop body edited", format!("# an edited comment\n{t}")));
        }
    }
    if let Some(i) = text.find("seed = ") {
        let end = text[i..].find('\n').map_or(text.len(), |j| i + j);
        let mut t = text.to_string();
        t.replace_range(i..end, "seed = 4242");
        out.push(("seed changed", format!("# an edited comment\n{t}")));
    }
    out
}

/// `flowcast bench rerun`: the cases on each of `files`, on `workers`.
pub fn run_rerun(files: &[PathBuf], workers: usize) -> Result<String, String> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "latency: from writing the file to the values kept (load, keys, plan, run, store); \
         watch mode waits {} more for the save to settle. overhead: latency less the \
         makespan of the steps that ran. p = {workers}\n",
        seconds(crate::watch::QUIET.as_secs_f64())
    );
    let _ = writeln!(
        out,
        "{:<14} {:<18} {:>9} {:>9} {:>9} {:>5} {:>7} {:>10}",
        "workflow", "case", "latency", "makespan", "overhead", "ran", "cached", "vs full"
    );
    for file in files {
        let text = crate::regular_file::read_to_string(file)
            .map_err(|e| format!("{}: {e}", file.display()))?;
        let dir = tempfile_dir()?;
        let path = dir.join(file.file_name().unwrap_or_else(|| "w.toml".as_ref()));
        // Data files beside the workflow come along.
        if let Ok((wf, _)) = pipeline::load_checked(file) {
            for d in crate::workflow::files::data_files(&wf) {
                if let Some(name) = d.file_name() {
                    let _ = std::fs::copy(&d, dir.join(name));
                }
            }
        }
        let mut cache = Place::Dir(dir.join(".flowcast")).open(&path, None);
        let full = timed(&path, &text, &mut cache, workers, "first run", true)?;
        let mut cases = vec![full];
        for (name, t) in edits(&text) {
            cases.push(timed(&path, &t, &mut cache, workers, name, false)?);
        }
        // Everything kept is on disk before a new invocation looks.
        if let Some(p) = cache.flush().into_iter().next() {
            return Err(p);
        }
        // A new invocation: a fresh cache reads every value from disk;
        // how long the reading alone takes is measured apart.
        let last = edits(&text).last().map_or(text.clone(), |(_, t)| t.clone());
        let mut probe = Place::Dir(dir.join(".flowcast")).open(&path, None);
        let loaded = Instant::now();
        let (wf, graph) = pipeline::load_checked(&path)?;
        let reuse = Reuse::find(&wf, &graph, wf.seed.unwrap_or(0), &mut probe, false);
        let load_s = loaded.elapsed().as_secs_f64();
        let held: u64 = reuse
            .entries
            .iter()
            .flatten()
            .map(|e| e.value.bytes() as u64)
            .sum();
        drop((probe, reuse));
        let mut fresh = Place::Dir(dir.join(".flowcast")).open(&path, None);
        cases.push(timed(
            &path,
            &last,
            &mut fresh,
            workers,
            "new invocation",
            false,
        )?);
        let full_s = cases[0].latency;
        let name = file
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        for c in &cases {
            let _ = writeln!(
                out,
                "{:<14} {:<18} {:>9} {:>9} {:>9} {:>5} {:>7} {:>9.3}x",
                name,
                c.name,
                seconds(c.latency),
                seconds(c.makespan),
                seconds((c.latency - c.makespan).max(0.0)),
                c.ran,
                c.cached,
                c.latency / full_s
            );
        }
        let _ = writeln!(
            out,
            "{:<14} values: {}, read from disk by a new invocation in {}\n",
            name,
            bytes(held),
            seconds(load_s)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(out)
}

/// A fresh directory under the system's temporary one.
fn tempfile_dir() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!(
        "flowcast-bench-rerun-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}
