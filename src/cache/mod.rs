//! Values computed before: a step whose [`Key`] is unchanged since it last
//! ran is not run again, its value is taken from here.
//!
//! Two levels: memory, which the terminal UI and watch mode keep between
//! runs, and a directory on disk ([`Store`]) that later invocations read.
//! Only values go in: a failed or skipped step has nothing to reuse.

pub mod key;
pub mod store;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use crate::diagnostic::StepWarning;
use crate::kernels::{Rng, Value};
pub use key::{keys, Key};
pub use store::Store;

/// A step's value, and for a step on the shared random stream the stream
/// as it left it: where the random step after it starts, should that one
/// run again.
#[derive(Clone, Debug)]
pub struct Entry {
    pub value: Arc<Value>,
    pub stream: Option<Rng>,
    /// R's warnings as the step raised them: a reused step still shows
    /// them (where they point is found again in the file as it is now).
    pub warnings: Vec<StepWarning>,
}

/// The directory the cache of the workflow at `workflow` lives in by
/// default: `.flowcast/` beside it.
pub fn default_dir(workflow: &Path) -> PathBuf {
    match workflow.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(".flowcast"),
        _ => PathBuf::from(".flowcast"),
    }
}

/// Where a session keeps values between invocations.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Place {
    /// Nowhere: values are reused in memory only, within one session.
    #[default]
    Memory,
    /// `$FLOWCAST_CACHE` when set (`off`: nowhere), else `.flowcast/`
    /// beside the workflow.
    Beside,
    /// This directory.
    Dir(PathBuf),
}

impl Place {
    /// The directory, for the workflow at `workflow`; `None` for memory.
    pub fn dir(&self, workflow: &Path) -> Option<PathBuf> {
        match self {
            Place::Memory => None,
            Place::Dir(d) => Some(d.clone()),
            Place::Beside => match std::env::var_os("FLOWCAST_CACHE") {
                Some(v) if v == "off" => None,
                Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
                _ => Some(default_dir(workflow)),
            },
        }
    }

    /// The cache for the workflow at `workflow`, its directory bounded by
    /// `limit` bytes ([`store::DEFAULT_LIMIT`] when `None`).
    pub fn open(&self, workflow: &Path, limit: Option<u64>) -> Cache {
        let limit = limit.unwrap_or(store::DEFAULT_LIMIT);
        Cache::new(self.dir(workflow).map(|d| Store::new(&d, limit)))
    }
}

/// The values a session can reuse.
#[derive(Debug, Default)]
pub struct Cache {
    memory: HashMap<Key, Entry>,
    store: Option<Store>,
    writer: Option<Writer>,
}

/// Writes entries to the store on a thread of its own, so that a result
/// is shown as soon as it is computed, not after its bytes reach the disk.
#[derive(Debug)]
struct Writer {
    tx: mpsc::Sender<Vec<(Key, Entry)>>,
    thread: JoinHandle<()>,
    problems: Arc<Mutex<Vec<String>>>,
}

impl Writer {
    fn start(store: Store) -> Option<Writer> {
        let (tx, rx) = mpsc::channel::<Vec<(Key, Entry)>>();
        let problems = Arc::new(Mutex::new(Vec::new()));
        let said = Arc::clone(&problems);
        let thread = std::thread::Builder::new()
            .name("flowcast-cache".into())
            .spawn(move || {
                for batch in rx {
                    let mut failed = None;
                    for (k, e) in &batch {
                        if let Err(msg) = store.put(*k, e) {
                            failed = Some(msg);
                            break;
                        }
                    }
                    let failed = failed.or_else(|| store.evict().err());
                    if let Some(msg) = failed {
                        said.lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push(msg);
                    }
                }
            })
            .ok()?;
        Some(Writer {
            tx,
            thread,
            problems,
        })
    }

    fn take_problems(&self) -> Vec<String> {
        std::mem::take(&mut *self.problems.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Drop for Cache {
    /// What is being written is finished: the next invocation finds it.
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

impl Cache {
    /// A cache in memory, backed by `store` when given.
    pub fn new(store: Option<Store>) -> Cache {
        Cache {
            memory: HashMap::new(),
            store,
            writer: None,
        }
    }

    /// Waits until every value kept so far is on disk; what could not be
    /// written.
    pub fn flush(&mut self) -> Vec<String> {
        let Some(w) = self.writer.take() else {
            return Vec::new();
        };
        let Writer {
            tx,
            thread,
            problems,
        } = w;
        drop(tx);
        let _ = thread.join();
        let said = std::mem::take(&mut *problems.lock().unwrap_or_else(PoisonError::into_inner));
        said
    }

    /// The store, if any.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// The entry for each key: from memory, else from disk. A random step
    /// is only reused with its stream, which the steps after it need.
    pub fn lookup(&mut self, keys: &[Option<Key>], random: &[bool]) -> Vec<Option<Entry>> {
        keys.iter()
            .enumerate()
            .map(|(i, k)| {
                let k = (*k)?;
                let e = match self.memory.get(&k) {
                    Some(e) => e.clone(),
                    None => {
                        let e = self.store.as_ref()?.get(k)?;
                        self.memory.insert(k, e.clone());
                        e
                    }
                };
                let needs_stream = random.get(i).copied().unwrap_or(false);
                (!needs_stream || e.stream.is_some()).then_some(e)
            })
            .collect()
    }

    /// After a run: `fresh` are the entries it computed, `reused` the keys
    /// it took from here. Memory keeps just these (an edit leaves the
    /// values of the steps it changed behind); the fresh ones are written
    /// to disk in the background ([`Cache::flush`] waits for them). What
    /// earlier writes could not write, for the caller to warn about.
    pub fn keep(&mut self, fresh: Vec<(Key, Entry)>, reused: &[Key]) -> Vec<String> {
        let mut kept: HashMap<Key, Entry> = reused
            .iter()
            .filter_map(|k| self.memory.remove(k).map(|e| (*k, e)))
            .collect();
        let mut problems = Vec::new();
        if let Some(store) = &self.store {
            if self.writer.is_none() {
                self.writer = Writer::start(store.clone());
            }
            match &self.writer {
                Some(w) => {
                    problems = w.take_problems();
                    if w.tx.send(fresh.clone()).is_err() {
                        problems.push("the cache's writer stopped".into());
                    }
                }
                None => problems.push("cannot start the cache's writer".into()),
            }
        }
        kept.extend(fresh);
        self.memory = kept;
        problems
    }
}
