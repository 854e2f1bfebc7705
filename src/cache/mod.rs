//! Values computed before: a step whose [`Key`] is unchanged since it last
//! ran is not run again, its value is taken from here.
//!
//! Two levels: memory, which the terminal UI and watch mode keep between
//! runs, and a directory on disk ([`Store`]) that later invocations read.
//! Only values go in: a failed or skipped step has nothing to reuse.

pub mod codec;
pub mod key;
pub mod store;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
}

impl Cache {
    /// A cache in memory, backed by `store` when given.
    pub fn new(store: Option<Store>) -> Cache {
        Cache {
            memory: HashMap::new(),
            store,
        }
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
    /// to disk. What could not be written, for the caller to warn about.
    pub fn keep(&mut self, fresh: Vec<(Key, Entry)>, reused: &[Key]) -> Vec<String> {
        let mut kept: HashMap<Key, Entry> = reused
            .iter()
            .filter_map(|k| self.memory.remove(k).map(|e| (*k, e)))
            .collect();
        let mut problems = Vec::new();
        if let Some(store) = &self.store {
            for (k, e) in &fresh {
                if let Err(msg) = store.put(*k, e) {
                    problems.push(msg);
                    break;
                }
            }
            if let Err(msg) = store.evict() {
                problems.push(msg);
            }
        }
        kept.extend(fresh);
        self.memory = kept;
        problems
    }
}
