//! The retry file: runs that could not be recorded because another
//! process held the store's lock, one JSON line each, beside the store
//! (`history.sqlite.retry`). The next process that opens the store for
//! writing records them and removes the file.
//!
//! A merge first renames the file to a name of its own, so runs another
//! process keeps meanwhile go to a fresh file and are not lost.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::RunRecord;

/// The retry file of the store at `store`.
pub fn path_for(store: &Path) -> PathBuf {
    let mut name = store.as_os_str().to_owned();
    name.push(".retry");
    PathBuf::from(name)
}

/// Appends `run` to the retry file of `store`; returns the file's path.
pub fn keep(store: &Path, run: &RunRecord) -> std::io::Result<PathBuf> {
    let file = path_for(store);
    let mut run = run.clone();
    // JSON has no NaN or infinity; the store keeps none either.
    for t in &mut run.tasks {
        for x in &mut t.features {
            if !x.is_finite() {
                *x = 0.0;
            }
        }
    }
    let mut line = serde_json::to_string(&run).map_err(std::io::Error::from)?;
    line.push('\n');
    // One write of a whole line, appended: lines from two processes do
    // not interleave.
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)?
        .write_all(line.as_bytes())?;
    Ok(file)
}

/// A retry file taken by this process for merging.
pub struct Claimed {
    store: PathBuf,
    taken: PathBuf,
}

/// Takes the retry file of `store`, if there is one.
pub fn claim(store: &Path) -> Option<Claimed> {
    let file = path_for(store);
    let mut taken = file.clone().into_os_string();
    taken.push(format!(".{}", std::process::id()));
    let taken = PathBuf::from(taken);
    fs::rename(&file, &taken).ok()?;
    Some(Claimed {
        store: store.to_path_buf(),
        taken,
    })
}

impl Claimed {
    /// The runs in the file; a line that does not parse (a write cut
    /// short) is skipped.
    pub fn runs(&self) -> Vec<RunRecord> {
        fs::read_to_string(&self.taken)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// The runs are recorded: the file goes.
    pub fn done(self) {
        let _ = fs::remove_file(&self.taken);
    }

    /// The runs could not be recorded: back into the retry file, for the
    /// next open.
    pub fn give_back(self) {
        let runs = self.runs();
        let kept = runs.iter().all(|r| keep(&self.store, r).is_ok());
        if kept {
            let _ = fs::remove_file(&self.taken);
        }
    }
}
