//! Watching files for changes: notify events, filtered (editor temp files,
//! reads, metadata) and debounced (a burst of saves is one change), become
//! [`Changed`] notifications. Nothing here starts a run: the receiver
//! decides (`cli::headless` for `flowcast run --watch`, the TUI otherwise).
//!
//! The directory of each file is watched, not the file: editors that save
//! by writing a temp file and renaming it over the original replace the
//! watched inode, and a watch on the old inode would go silent. Events are
//! then filtered by file name, so writing `out/` or an export beside the
//! workflow does not count as a change.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};

use crate::workflow::files::ANY_NAME;

/// The default quiet period: a change is reported once no event arrived
/// for this long. An editor's save (write, or write a temporary file and
/// rename it) is a burst of events within a few milliseconds; every
/// millisecond more is added to the time from save to result.
pub const QUIET: Duration = Duration::from_millis(50);

/// One or more watched files changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changed {
    /// The changed files, each once.
    pub paths: Vec<PathBuf>,
}

/// Editors' swap, backup and lock files: `.x.swp`, `.x.swx`, `x~`, vim's
/// `4913` probe, emacs' `.#x` and `#x#`.
pub fn is_ignored(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".swo")
        || name.ends_with('~')
        || name == "4913"
        || name.starts_with(".#")
        || (name.len() > 1 && name.starts_with('#') && name.ends_with('#'))
}

/// Events that can change a file's contents. Reads (the run itself opens
/// the data files) and metadata changes are not changes.
pub fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Any => true,
        EventKind::Modify(m) => !matches!(m, notify::event::ModifyKind::Metadata(_)),
        EventKind::Access(_) | EventKind::Other => false,
    }
}

/// Directory (canonical) -> names watched in it.
type Wanted = HashMap<PathBuf, HashSet<OsString>>;

/// A running watch; dropping it stops watching.
pub struct FileWatcher {
    watcher: notify::RecommendedWatcher,
    /// Shared with the event handler, which reports only these files.
    wanted: Arc<Mutex<Wanted>>,
    _debouncer: JoinHandle<()>,
}

/// Watches `files` (which need not exist yet, but their directories must)
/// and calls `on_change` from a background thread once per burst of
/// changes, after `quiet` without further events.
pub fn watch_files(
    files: &[PathBuf],
    quiet: Duration,
    on_change: impl Fn(Changed) + Send + 'static,
) -> Result<FileWatcher, String> {
    let wanted = wanted(files)?;
    let (raw_tx, raw_rx) = mpsc::channel::<PathBuf>();
    let shared = Arc::new(Mutex::new(Wanted::new()));
    let filter = Arc::clone(&shared);
    let watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        let Ok(event) = res else { return };
        if !is_change(&event.kind) {
            return;
        }
        let Ok(filter) = filter.lock() else { return };
        for p in event.paths {
            if is_ignored(&p) {
                continue;
            }
            let hit = match (p.parent(), p.file_name()) {
                (Some(dir), Some(name)) => filter.get(dir).is_some_and(|names| {
                    names.contains(name) || names.contains(OsString::from(ANY_NAME).as_os_str())
                }),
                _ => false,
            };
            if hit {
                let _ = raw_tx.send(p);
            }
        }
    })
    .map_err(|e| format!("cannot start watching: {e}"))?;
    let debouncer = std::thread::Builder::new()
        .name("flowcast-watch".into())
        .spawn(move || debounce(&raw_rx, quiet, &on_change))
        .map_err(|e| format!("cannot start watching: {e}"))?;
    let mut w = FileWatcher {
        watcher,
        wanted: shared,
        _debouncer: debouncer,
    };
    w.watch(wanted)?;
    Ok(w)
}

impl FileWatcher {
    /// Watches `files` from now on instead of the files watched so far:
    /// a workflow that was edited reads other data files. Their directories
    /// must exist.
    /// A file whose directory does not exist is skipped (and named in the
    /// error); the others are watched.
    pub fn set_files(&mut self, files: &[PathBuf]) -> Result<(), String> {
        let (watchable, missing): (Vec<PathBuf>, Vec<PathBuf>) = files
            .iter()
            .cloned()
            .partition(|f| wanted(std::slice::from_ref(f)).is_ok());
        self.watch(wanted(&watchable)?)?;
        match missing.first() {
            Some(f) => Err(format!(
                "cannot watch {}: its directory does not exist",
                f.display()
            )),
            None => Ok(()),
        }
    }

    fn watch(&mut self, wanted: Wanted) -> Result<(), String> {
        let mut current = self
            .wanted
            .lock()
            .map_err(|_| "the file watcher stopped".to_string())?;
        for dir in current.keys().filter(|d| !wanted.contains_key(*d)) {
            let _ = self.watcher.unwatch(dir);
        }
        let mut failed = None;
        for dir in wanted.keys().filter(|d| !current.contains_key(*d)) {
            if let Err(e) = self.watcher.watch(dir, RecursiveMode::NonRecursive) {
                failed.get_or_insert(format!("cannot watch {}: {e}", dir.display()));
            }
        }
        *current = wanted;
        failed.map_or(Ok(()), Err)
    }
}

/// The directories to watch for `files`, and the names in each.
fn wanted(files: &[PathBuf]) -> Result<Wanted, String> {
    let mut wanted = Wanted::new();
    for f in files {
        let name = f
            .file_name()
            .ok_or_else(|| format!("cannot watch {}: not a file", f.display()))?;
        let dir = match f.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let dir = dir
            .canonicalize()
            .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
        wanted.entry(dir).or_default().insert(name.to_os_string());
    }
    Ok(wanted)
}

/// Collects paths until `quiet` passes without one, then reports them
/// together; ends when the watcher is dropped.
fn debounce(rx: &mpsc::Receiver<PathBuf>, quiet: Duration, on_change: &dyn Fn(Changed)) {
    while let Ok(first) = rx.recv() {
        let mut paths = vec![first];
        let mut open = true;
        while open {
            match rx.recv_timeout(quiet) {
                Ok(p) => {
                    if !paths.contains(&p) {
                        paths.push(p);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => open = false,
            }
        }
        on_change(Changed { paths });
        if !open {
            return;
        }
    }
}
