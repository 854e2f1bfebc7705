//! The cache on disk: one file per key, `<key>.value`, in one directory
//! (`.flowcast/` beside the workflow by default).
//!
//! - Written atomically: to a temporary file in the same directory, then
//!   renamed over the entry, so a reader sees a whole entry or none, and
//!   concurrent runs writing one key write the same bytes. (Not synced:
//!   what a crash cuts short fails its checksum.)
//! - Checked when read: a magic, the format, the key it was written for
//!   and an XXH3 checksum of all of it. A damaged or truncated entry is a
//!   miss (and is removed), never a wrong value.
//! - Bounded: after writing, the least recently used entries (by
//!   modification time, which a read refreshes) are removed until the
//!   directory's entries fit the limit.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::SystemTime;

use super::key::{Key, FORMAT};
use super::Entry;
use crate::codec::{self, Reader};

const MAGIC: &[u8; 8] = b"FLOWCAST";
const EXTENSION: &str = "value";
/// The default bound on the entries' total size.
pub const DEFAULT_LIMIT: u64 = 4 << 30;

/// A cache directory.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
    limit: u64,
}

/// Temporary files get a name no other writer in this process uses.
static WRITES: AtomicU64 = AtomicU64::new(0);

impl Store {
    /// The cache in `dir`, created when first written; entries beyond
    /// `limit` bytes in all are evicted.
    pub fn new(dir: &Path, limit: u64) -> Store {
        Store {
            dir: dir.to_path_buf(),
            limit,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: Key) -> PathBuf {
        self.dir.join(format!("{key}.{EXTENSION}"))
    }

    /// The entry for `key`, checked; `None` when absent or damaged.
    pub fn get(&self, key: Key) -> Option<Entry> {
        let path = self.path(key);
        let bytes = fs::read(&path).ok()?;
        match decode(key, &bytes) {
            Some(entry) => {
                // A read is a use: least recently used is by this time.
                if let Ok(f) = fs::File::options().append(true).open(&path) {
                    let _ = f.set_modified(SystemTime::now());
                }
                Some(entry)
            }
            None => {
                let _ = fs::remove_file(&path);
                None
            }
        }
    }

    /// Writes `entry` under `key`, atomically.
    pub fn put(&self, key: Key, entry: &Entry) -> Result<(), String> {
        let fail = |e: io::Error| format!("cache {}: {e}", self.dir.display());
        fs::create_dir_all(&self.dir).map_err(fail)?;
        let bytes = encode(key, entry);
        let tmp = self.dir.join(format!(
            ".{key}.{}.{}.tmp",
            std::process::id(),
            WRITES.fetch_add(1, Ordering::Relaxed)
        ));
        let written = fs::File::create(&tmp)
            // No fsync: a crash that leaves the entry short or empty leaves
            // it failing its checksum, a miss.
            .and_then(|mut f| f.write_all(&bytes))
            .and_then(|()| fs::rename(&tmp, self.path(key)));
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(fail(e));
        }
        Ok(())
    }

    /// Removes the least recently used entries until the rest fit the
    /// limit, and temporary files a killed writer left (an hour old).
    pub fn evict(&self) -> Result<(), String> {
        let mut entries = self.entries()?;
        let mut total: u64 = entries.iter().map(|e| e.size).sum();
        entries.sort_by_key(|e| e.used);
        for e in entries {
            if total <= self.limit {
                break;
            }
            match fs::remove_file(&e.path) {
                Ok(()) => total = total.saturating_sub(e.size),
                // Another run evicted it first.
                Err(err) if err.kind() == io::ErrorKind::NotFound => {
                    total = total.saturating_sub(e.size)
                }
                Err(err) => return Err(format!("cache {}: {err}", e.path.display())),
            }
        }
        Ok(())
    }

    /// Removes every entry and temporary file (nothing else in the
    /// directory): how many entries, and their bytes.
    pub fn clean(&self) -> Result<(usize, u64), String> {
        let entries = self.entries()?;
        let mut removed = (0, 0);
        for e in entries {
            match fs::remove_file(&e.path) {
                Ok(()) => {
                    removed.0 += usize::from(!e.temporary);
                    removed.1 += e.size;
                }
                Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                Err(err) => return Err(format!("cache {}: {err}", e.path.display())),
            }
        }
        Ok(removed)
    }

    /// The entries and stale temporary files in the directory; none when
    /// it does not exist.
    fn entries(&self) -> Result<Vec<OnDisk>, String> {
        let read = match fs::read_dir(&self.dir) {
            Ok(r) => r,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("cache {}: {e}", self.dir.display())),
        };
        let now = SystemTime::now();
        let mut out = Vec::new();
        for item in read.flatten() {
            let name = item.file_name();
            let Some(name) = name.to_str() else { continue };
            let Ok(meta) = item.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            let entry = name
                .strip_suffix(&format!(".{EXTENSION}"))
                .is_some_and(|k| Key::parse(k).is_some());
            let stale_tmp = name.starts_with('.')
                && name.ends_with(".tmp")
                && now
                    .duration_since(used)
                    .is_ok_and(|age| age.as_secs() > 3600);
            if entry || stale_tmp {
                out.push(OnDisk {
                    path: item.path(),
                    size: meta.len(),
                    used,
                    temporary: !entry,
                });
            }
        }
        Ok(out)
    }
}

struct OnDisk {
    path: PathBuf,
    size: u64,
    used: SystemTime,
    temporary: bool,
}

fn encode(key: Key, entry: &Entry) -> Vec<u8> {
    let mut out = Vec::with_capacity(entry.value.bytes() + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&key.0.to_le_bytes());
    match &entry.stream {
        None => out.push(0),
        Some(rng) => {
            out.push(1);
            codec::encode_stream(rng, &mut out);
        }
    }
    codec::encode_warnings(&entry.warnings, &mut out);
    codec::encode(&entry.value, &mut out);
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

fn decode(key: Key, bytes: &[u8]) -> Option<Entry> {
    let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    if xxhash_rust::xxh3::xxh3_64(body).to_le_bytes() != sum {
        return None;
    }
    let header = MAGIC.len() + 4 + 16;
    let (head, rest) = body.split_at_checked(header)?;
    if &head[..8] != MAGIC
        || head[8..12] != FORMAT.to_le_bytes()
        || head[12..28] != key.0.to_le_bytes()
    {
        return None;
    }
    let mut r = Reader::new(rest);
    let stream = match r.flag().ok()? {
        false => None,
        true => Some(r.stream().ok()?),
    };
    let warnings = r.warnings().ok()?;
    let value = r.value().ok()?;
    r.at_end().then(|| Entry {
        value: Arc::new(value),
        stream,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{Rng, Value};

    fn entry(x: f64) -> Entry {
        Entry {
            value: Arc::new(Value::Num(vec![x, 2.0])),
            stream: Some(Rng::from_seed(7)),
            warnings: vec![crate::diagnostic::StepWarning {
                message: "NaNs produced".into(),
                call: Some("sqrt(-1)".into()),
                line: 3,
                column: 5,
            }],
        }
    }

    #[test]
    fn what_is_put_is_got_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = Store::new(dir.path(), DEFAULT_LIMIT);
        assert!(s.get(Key(1)).is_none());
        s.put(Key(1), &entry(1.0)).expect("writes");
        let e = s.get(Key(1)).expect("hit");
        assert_eq!(*e.value, Value::Num(vec![1.0, 2.0]));
        assert!(e.stream.is_some());
        assert_eq!(e.warnings[0].to_string(), "In sqrt(-1) : NaNs produced");
        assert!(s.get(Key(2)).is_none());
    }

    #[test]
    fn a_damaged_or_truncated_entry_is_a_miss_and_is_removed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = Store::new(dir.path(), DEFAULT_LIMIT);
        s.put(Key(9), &entry(3.0)).expect("writes");
        let path = s.path(Key(9));
        let good = fs::read(&path).expect("reads");
        for cut in [0, 1, 8, 30, good.len() / 2, good.len() - 1] {
            fs::write(&path, &good[..cut]).expect("writes");
            assert!(s.get(Key(9)).is_none(), "cut at {cut}");
        }
        let mut flipped = good.clone();
        flipped[good.len() / 2] ^= 1;
        fs::write(&path, &flipped).expect("writes");
        assert!(s.get(Key(9)).is_none());
        assert!(!path.exists());
        // An entry copied under another key's name is not that key's value.
        fs::write(s.path(Key(10)), &good).expect("writes");
        assert!(s.get(Key(10)).is_none());
    }

    #[test]
    fn eviction_removes_the_least_recently_used_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = Store::new(dir.path(), DEFAULT_LIMIT);
        for k in 1..=3 {
            s.put(Key(k), &entry(k as f64)).expect("writes");
        }
        let size = fs::metadata(s.path(Key(1))).expect("meta").len();
        let old = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        for k in 1..=3 {
            let f = fs::File::options()
                .append(true)
                .open(s.path(Key(k)))
                .expect("opens");
            f.set_modified(old + std::time::Duration::from_secs(k as u64))
                .expect("sets");
        }
        // Reading key 1 makes it the most recently used.
        assert!(s.get(Key(1)).is_some());
        let small = Store::new(dir.path(), 2 * size);
        small.evict().expect("evicts");
        assert!(!s.path(Key(2)).exists());
        assert!(s.path(Key(1)).exists() && s.path(Key(3)).exists());
    }

    #[test]
    fn clean_removes_entries_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = Store::new(dir.path(), DEFAULT_LIMIT);
        s.put(Key(5), &entry(5.0)).expect("writes");
        fs::write(dir.path().join("notes.txt"), "mine").expect("writes");
        let (n, bytes) = s.clean().expect("cleans");
        assert_eq!(n, 1);
        assert!(bytes > 0);
        assert!(dir.path().join("notes.txt").exists());
        assert!(s.get(Key(5)).is_none());
    }
}
