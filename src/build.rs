//! Build script: `FLOWCAST_SOURCE_HASH`, a hash of every file under `src/`,
//! which the cache puts in each step's key (`cache::key`). A value cached
//! by one build of flowcast is then never served by another whose code
//! differs: a fixed kernel or a new result field gives new values, though
//! the version number (`0.1.0` between releases) says nothing of it.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// FNV-1a, 64-bit: stable, and enough to tell builds apart.
fn fnv1a(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    all.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in &all {
        fnv1a(&mut h, p.to_string_lossy().as_bytes());
        if let Ok(bytes) = std::fs::read(p) {
            fnv1a(&mut h, &(bytes.len() as u64).to_le_bytes());
            fnv1a(&mut h, &bytes);
        }
    }
    println!("cargo:rustc-env=FLOWCAST_SOURCE_HASH={h:016x}");
}
