//! A step's key: everything its value depends on, hashed. Two steps with
//! one key have one value, so a step whose key is in the cache need not run.
//!
//! The key covers, as `targets` does (ropensci/targets `tar_cue`) and more
//! exactly since the graph is known:
//! - the expression as parsed: comments and spacing do not count;
//! - each input's name and key;
//! - for a step on the shared random stream, the seed and the key of the
//!   random step before it in the file: R's stream makes a random step
//!   depend on every random step before it;
//! - for a loop that draws random numbers, the seed and its name: each
//!   iteration's stream is made from them;
//! - the content of each file it reads;
//! - the content of each file it writes, or that the file is missing: a
//!   `write.csv` step's value is NULL and its work the file, so its entry
//!   is kept under the key of the file as the step left it
//!   ([`with_written`] after the run). A step whose file was deleted or
//!   edited since has a key no entry was kept under, and runs again;
//! - flowcast's version, the cache format and a hash of the source it was
//!   built from (`src/build.rs`): another build's values are never read.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::Xxh3;

use crate::graph::{self, TaskGraph, TaskId};
use crate::workflow::files::step_files;
use crate::workflow::{sexpr, StepBody, Workflow};

/// Bumped whenever what a key covers or how a value is stored changes, so
/// that old entries are never read as new ones.
pub const FORMAT: u32 = 9;

/// A step's key: 128 bits of XXH3 over what its value depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub u128);

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl Key {
    /// The key a file name spells (see `Display`).
    pub fn parse(hex: &str) -> Option<Key> {
        if hex.len() != 32 {
            return None;
        }
        u128::from_str_radix(hex, 16).ok().map(Key)
    }
}

/// Feeds parts into the hash, each with its length, so that no two
/// different sequences of parts hash the same bytes.
struct Parts(Xxh3);

impl Parts {
    fn new() -> Parts {
        let mut p = Parts(Xxh3::new());
        p.text("flowcast step");
        p.text(env!("CARGO_PKG_VERSION"));
        p.text(env!("FLOWCAST_SOURCE_HASH"));
        p.bytes(&FORMAT.to_le_bytes());
        p
    }

    fn bytes(&mut self, b: &[u8]) {
        self.0.update(&(b.len() as u64).to_le_bytes());
        self.0.update(b);
    }

    fn text(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    fn key(&mut self, k: Key) {
        self.bytes(&k.0.to_le_bytes());
    }

    fn finish(&self) -> Key {
        Key(self.0.digest128())
    }
}

/// Hashes of the files steps read, each file read once per call of
/// [`keys`].
#[derive(Default)]
struct FileHashes(HashMap<std::path::PathBuf, Option<u128>>);

impl FileHashes {
    /// The content's hash; `None` when the file cannot be read (the step
    /// will fail, and failures are not cached).
    fn get(&mut self, path: &Path) -> Option<u128> {
        *self.0.entry(path.to_path_buf()).or_insert_with(|| {
            crate::regular_file::read(path)
                .ok()
                .map(|b| xxhash_rust::xxh3::xxh3_128(&b))
        })
    }
}

/// The key of a step whose key is `base` without the files it writes,
/// with those files as they are now.
pub fn with_written(base: Key, paths: &[PathBuf]) -> Key {
    let mut p = Parts::new();
    p.key(base);
    for path in paths {
        p.text("writes");
        p.text(&path.display().to_string());
        match crate::regular_file::read(path) {
            Ok(b) => p.bytes(&xxhash_rust::xxh3::xxh3_128(&b).to_le_bytes()),
            Err(_) => p.text("missing"),
        }
    }
    p.finish()
}

/// A step that writes files: its key without them, and the files.
pub type Writes = Option<(Key, Vec<PathBuf>)>;

/// Every task's key, by task id, for a run with `seed`. `None` for a task
/// whose value cannot be known from a key: it reads a file named only at
/// run time, or a file that cannot be read, or it follows such a task.
pub fn keys(wf: &Workflow, graph: &TaskGraph, seed: i64) -> Vec<Option<Key>> {
    keys_and_writes(wf, graph, seed).0
}

/// [`keys`], and for each step that writes files what [`with_written`]
/// needs to key its value after the run.
pub fn keys_and_writes(
    wf: &Workflow,
    graph: &TaskGraph,
    seed: i64,
) -> (Vec<Option<Key>>, Vec<Writes>) {
    let n = graph.tasks.len().min(wf.steps.len());
    let base = wf.base_dir();
    // The random step before each random step in the file: its key is part
    // of this one's.
    let mut before: Vec<Option<TaskId>> = vec![None; n];
    let mut last = None;
    for (i, t) in graph.tasks.iter().take(n).enumerate() {
        if t.random {
            before[i] = last;
            last = Some(i);
        }
    }
    let mut files = FileHashes::default();
    let mut keys: Vec<Option<Key>> = vec![None; n];
    let mut writes: Vec<Writes> = vec![None; n];
    for i in order(graph, &before, n) {
        let task = &graph.tasks[i];
        let step = &wf.steps[i];
        let mut p = Parts::new();
        match &step.body {
            StepBody::Expr(e) => {
                p.text("expr");
                p.text(&sexpr(e));
            }
            StepBody::Loop(l) => {
                p.text("loop");
                p.text(&l.var);
                p.text(&sexpr(&l.range));
                p.text(&sexpr(&l.body));
                if graph::draws_random(&l.body) || graph::draws_random(&l.range) {
                    p.text(&seed.to_string());
                    p.text(&step.name);
                }
            }
        }
        let inputs: Option<Vec<Key>> = task
            .deps
            .iter()
            .map(|&d| keys.get(d).copied().flatten())
            .collect();
        let Some(inputs) = inputs else { continue };
        for (&d, k) in task.deps.iter().zip(inputs) {
            p.text(&graph.tasks[d].name);
            p.key(k);
        }
        if task.random {
            p.text("stream");
            p.text(&seed.to_string());
            match before[i] {
                None => p.text("seed"),
                Some(b) => match keys[b] {
                    Some(k) => p.key(k),
                    None => continue,
                },
            }
        }
        let read = step_files(&step.body, &base);
        if read.computed || read.computed_written {
            continue;
        }
        // A listing's value changes with the names in the directory.
        for dir in &read.listed {
            p.text("lists");
            p.text(&dir.display().to_string());
            let mut names: Vec<String> = std::fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .filter_map(Result::ok)
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect()
                })
                .unwrap_or_default();
            names.sort();
            for n in &names {
                p.text(n);
            }
        }
        let mut readable = true;
        for path in &read.paths {
            p.text(&path.display().to_string());
            match files.get(path) {
                Some(h) => p.bytes(&h.to_le_bytes()),
                None => readable = false,
            }
        }
        if readable {
            let key = p.finish();
            if read.written.is_empty() {
                keys[i] = Some(key);
            } else {
                keys[i] = Some(with_written(key, &read.written));
                writes[i] = Some((key, read.written));
            }
        }
    }
    (keys, writes)
}

/// The tasks in an order where each comes after its inputs and after the
/// random step before it; a task on a cycle of the two (a random step that
/// reads a later random step) is left out, and so gets no key.
fn order(graph: &TaskGraph, before: &[Option<TaskId>], n: usize) -> Vec<TaskId> {
    let preds = |i: TaskId| {
        graph.tasks[i]
            .deps
            .iter()
            .copied()
            .chain(before[i])
            .filter(move |&d| d < n)
    };
    let mut waiting: Vec<usize> = (0..n).map(|i| preds(i).count()).collect();
    let mut succs: Vec<Vec<TaskId>> = vec![Vec::new(); n];
    for i in 0..n {
        for d in preds(i) {
            succs[d].push(i);
        }
    }
    let mut ready: Vec<TaskId> = (0..n).rev().filter(|&i| waiting[i] == 0).collect();
    let mut out = Vec::with_capacity(n);
    while let Some(i) = ready.pop() {
        out.push(i);
        for &s in &succs[i] {
            waiting[s] -= 1;
            if waiting[s] == 0 {
                ready.push(s);
            }
        }
    }
    out
}
