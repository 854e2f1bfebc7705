//! Reading the user's files (workflows, CSV data, saved charts): regular
//! files only, and never more than the file's size.
//!
//! A FIFO blocks its reader until a writer comes, possibly forever, and a
//! device such as `/dev/zero` never ends; neither is data a workflow can
//! mean. The file's size also bounds the read, so a file that grows while
//! it is read cannot make it run on.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// `p` with `.` and `..` resolved where the file system can tell (the
/// file itself may not exist yet), so two spellings of one file compare
/// equal.
pub fn normal(p: &Path) -> std::path::PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    match (p.parent().map(Path::canonicalize), p.file_name()) {
        (Some(Ok(dir)), Some(name)) => dir.join(name),
        _ => p.to_path_buf(),
    }
}

/// The bytes of the regular file at `path` (symbolic links followed).
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    // Before opening: opening a FIFO for reading already blocks.
    refuse_special(&std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    let meta = file.metadata()?;
    // The path may have been replaced between the two looks.
    refuse_special(&meta)?;
    let len = usize::try_from(meta.len()).unwrap_or(usize::MAX);
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len).map_err(|_| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!("cannot allocate {len} bytes to read it"),
        )
    })?;
    file.take(meta.len()).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// [`read`] as UTF-8 text. A file that is not says where its first bad
/// byte is, `3:7: byte 0xe9 is not UTF-8 text`: std's "stream did not
/// contain valid UTF-8" left a user to search the whole file.
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = &bytes[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        // The prefix is valid UTF-8, so its characters count the column.
        let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{line}:{column}: byte 0x{:02x} is not UTF-8 text",
                bytes[at]
            ),
        )
    })
}

/// Refuses `path` when it exists and is not a regular file: SQLite opening
/// a FIFO for reading blocks until a writer comes, and a device or a
/// directory is no store. A missing path passes.
pub fn refuse_special_path(path: &Path) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) => refuse_special(&meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

fn refuse_special(meta: &std::fs::Metadata) -> io::Result<()> {
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a directory"
    } else {
        special_kind(&kind)
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("not a regular file ({what})"),
    ))
}

#[cfg(unix)]
fn special_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_regular_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.csv");
        std::fs::write(&path, "x\n1\n").unwrap();
        assert_eq!(read_to_string(&path).unwrap(), "x\n1\n");
    }

    #[test]
    fn text_that_is_not_utf8_is_located_at_its_first_bad_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        std::fs::write(&path, b"{\n  \"caf\xc3\xa9 \xe9\": 1\n}\n").unwrap();
        let e = read_to_string(&path).unwrap_err();
        assert_eq!(e.to_string(), "2:9: byte 0xe9 is not UTF-8 text");
    }

    #[test]
    fn refuses_directories_and_devices() {
        let dir = tempfile::tempdir().unwrap();
        let e = read(dir.path()).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file (a directory)");
        #[cfg(unix)]
        for dev in ["/dev/zero", "/dev/urandom"] {
            let e = read(Path::new(dev)).unwrap_err();
            assert_eq!(e.to_string(), "not a regular file (a character device)");
        }
    }
}
