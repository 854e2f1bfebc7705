//! Where a command will write, checked before it runs: a run can take
//! minutes, and an output path that cannot be written is the command
//! line's mistake (exit 2), found in a moment, not a failure after the run.
//!
//! Writability is tried, not read from permission bits: they do not tell
//! what root, ACLs or a read-only mount allow. A probe file is created and
//! removed at once.

use std::fs::{self, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// A directory that values will be written into (created with its parents
/// if missing): it must be a directory, or creatable under the nearest
/// existing ancestor.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    let said = |why: String| format!("{}: {why}", dir.display());
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => probe(dir).map_err(|e| said(format!("cannot write there ({e})"))),
        Ok(_) => Err(said("exists and is not a directory".into())),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            let ancestor = nearest_existing(dir);
            match fs::metadata(&ancestor) {
                Ok(m) if m.is_dir() => probe(&ancestor).map_err(|e| {
                    said(format!("cannot be created in {} ({e})", ancestor.display()))
                }),
                _ => Err(said(format!(
                    "cannot be created: {} is not a directory",
                    ancestor.display()
                ))),
            }
        }
        Err(e) => Err(said(e.to_string())),
    }
}

/// A file that will be written (replaced if it exists): its directory
/// must exist, and the file must be writable there.
pub fn check_file(path: &Path) -> Result<(), String> {
    let said = |why: String| format!("{}: {why}", path.display());
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(said("is a directory".into())),
        // Opened for appending, so nothing in it is lost.
        Ok(_) => OpenOptions::new()
            .append(true)
            .open(path)
            .map(drop)
            .map_err(|e| said(format!("cannot write it ({e})"))),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            let parent = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            match fs::metadata(parent) {
                Ok(m) if m.is_dir() => probe(parent)
                    .map_err(|e| said(format!("cannot write in {} ({e})", parent.display()))),
                Ok(_) => Err(said(format!("{} is not a directory", parent.display()))),
                Err(_) => Err(said(format!(
                    "the directory {} does not exist",
                    parent.display()
                ))),
            }
        }
        Err(e) => Err(said(e.to_string())),
    }
}

/// `name` (a workflow's, from its file) as one file name in a directory:
/// path separators and control characters become `_`, and a leading dot
/// gets a `_` before it, so `name = "../../x"` cannot send a file
/// elsewhere or hide it.
pub fn file_name_from(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if out.starts_with('.') || out.is_empty() {
        out.insert(0, '_');
    }
    out
}

/// The deepest ancestor of `path` that exists (`.` for a relative path
/// none of whose ancestors does).
fn nearest_existing(path: &Path) -> PathBuf {
    path.ancestors()
        .skip(1)
        .find(|a| !a.as_os_str().is_empty() && fs::symlink_metadata(a).is_ok())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Creates and removes a file in `dir`.
fn probe(dir: &Path) -> std::io::Result<()> {
    let file = dir.join(format!(".flowcast-probe-{}", std::process::id()));
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&file)?;
    fs::remove_file(&file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_becomes_one_file_name_in_its_directory() {
        assert_eq!(file_name_from("fig1"), "fig1");
        assert_eq!(file_name_from("../../x"), "_.._.._x");
        assert_eq!(file_name_from("a\\b\u{1b}"), "a_b_");
        assert_eq!(file_name_from(""), "_");
    }

    #[test]
    fn a_missing_directory_can_be_created_under_an_existing_one() {
        let t = tempfile::tempdir().unwrap();
        assert_eq!(check_dir(&t.path().join("a/b/c")), Ok(()));
        assert!(!t.path().join("a").exists(), "checking creates nothing");
        assert_eq!(check_dir(t.path()), Ok(()));
    }

    #[test]
    fn a_file_where_a_directory_should_be_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("f");
        fs::write(&f, "x").unwrap();
        assert!(check_dir(&f)
            .unwrap_err()
            .ends_with("exists and is not a directory"));
        let below = check_dir(&f.join("sub")).unwrap_err();
        assert!(below.contains("is not a directory"), "{below}");
    }

    #[test]
    fn a_file_target_needs_its_directory_and_is_left_as_it_was() {
        let t = tempfile::tempdir().unwrap();
        let missing = check_file(&t.path().join("no/such/chart.svg")).unwrap_err();
        assert!(missing.contains("does not exist"), "{missing}");
        assert!(check_file(t.path())
            .unwrap_err()
            .ends_with("is a directory"));
        let f = t.path().join("chart.svg");
        assert_eq!(check_file(&f), Ok(()));
        assert!(!f.exists(), "checking creates nothing");
        fs::write(&f, "old").unwrap();
        assert_eq!(check_file(&f), Ok(()));
        assert_eq!(fs::read_to_string(&f).unwrap(), "old");
    }
}
