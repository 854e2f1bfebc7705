//! How big this machine's last-level cache is.
//!
//! A matrix-vector product reads its matrix once; in a loop it reads the
//! same matrix every iteration, from the cache when the matrix fits there
//! and from memory when it does not, 3x slower per element on an AMD EPYC
//! VM with 32 MB of L3. The priors split a product's reads by this size.

use std::path::Path;
use std::sync::OnceLock;

/// What is assumed when the OS does not say: a desktop's L3.
const UNKNOWN: u64 = 8 << 20;

/// Bytes of the largest cache this process's first CPU reports.
pub fn last_level_bytes() -> u64 {
    static BYTES: OnceLock<u64> = OnceLock::new();
    *BYTES.get_or_init(|| read(Path::new("/sys/devices/system/cpu/cpu0/cache")).unwrap_or(UNKNOWN))
}

/// The largest data or unified cache under Linux's `cache` directory of
/// one CPU (`index0` … `indexN`, each with `level`, `type` and `size`).
fn read(dir: &Path) -> Option<u64> {
    let mut best: Option<(u32, u64)> = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let field = |name: &str| std::fs::read_to_string(path.join(name)).ok();
        if field("type").is_some_and(|t| t.trim() == "Instruction") {
            continue;
        }
        let Some(level) = field("level").and_then(|l| l.trim().parse::<u32>().ok()) else {
            continue;
        };
        let Some(size) = field("size").and_then(|s| parse_size(&s)) else {
            continue;
        };
        if best.is_none_or(|(l, _)| level > l) {
            best = Some((level, size));
        }
    }
    best.map(|(_, size)| size).filter(|&s| s > 0)
}

/// "32768K", "1M", "512" (bytes) as bytes.
fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let scale = match unit.trim() {
        "" | "B" => 1,
        "K" | "KB" | "KiB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        "G" | "GB" | "GiB" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_linux_writes_them() {
        assert_eq!(parse_size("32768K\n"), Some(32 << 20));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("12 MiB"), Some(12 << 20));
        assert_eq!(parse_size("K"), None);
        assert_eq!(parse_size("3X"), None);
    }

    #[test]
    fn the_last_level_is_the_highest_data_cache() {
        let dir = std::env::temp_dir().join(format!("flowcast-cpu-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (index, level, kind, size) in [
            ("index0", "1", "Data", "48K"),
            ("index1", "1", "Instruction", "32K"),
            ("index2", "2", "Unified", "2048K"),
            ("index3", "3", "Unified", "30720K"),
        ] {
            let d = dir.join(index);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("level"), level).unwrap();
            std::fs::write(d.join("type"), kind).unwrap();
            std::fs::write(d.join("size"), size).unwrap();
        }
        assert_eq!(read(&dir), Some(30720 << 10));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(read(&dir), None);
        assert!(last_level_bytes() > 0);
    }
}
