//! Times the decomposition kernels (`eigen`, `svd`, `qr`, `prcomp`,
//! `solve`) on seeded random matrices, best of three, and — when `Rscript`
//! is on the PATH — R doing the same work in the same run, so the ratio is
//! measured on one machine under one load.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use nalgebra::DMatrix;

use crate::kernels::{registry, Args, Ctx, Rng, Value};

const REPEATS: usize = 3;

/// One benchmarked call: a label, the kernel, and how to build its arguments
/// from the random matrix.
struct Case {
    label: &'static str,
    kernel: &'static str,
    /// The same work in R, with the matrix named `a` (or `s`, symmetric).
    r_expr: &'static str,
    symmetric_input: bool,
    extra: &'static [(&'static str, bool)],
}

const CASES: &[Case] = &[
    Case {
        label: "eigen (symmetric)",
        kernel: "eigen",
        r_expr: "eigen(s, symmetric = TRUE)",
        symmetric_input: true,
        extra: &[("symmetric", true)],
    },
    Case {
        label: "eigen (general)",
        kernel: "eigen",
        r_expr: "eigen(a, symmetric = FALSE)",
        symmetric_input: false,
        extra: &[("symmetric", false)],
    },
    Case {
        label: "svd",
        kernel: "svd",
        r_expr: "svd(a)",
        symmetric_input: false,
        extra: &[],
    },
    Case {
        label: "qr",
        kernel: "qr",
        r_expr: "qr(a)",
        symmetric_input: false,
        extra: &[],
    },
    Case {
        label: "prcomp",
        kernel: "prcomp",
        r_expr: "prcomp(a)",
        symmetric_input: false,
        extra: &[],
    },
    Case {
        label: "solve (inverse)",
        kernel: "solve",
        r_expr: "solve(a)",
        symmetric_input: false,
        extra: &[],
    },
];

/// A seeded `n x n` matrix of roughly standard normal entries (sum of
/// uniforms from xorshift64*; the timing does not depend on the exact law).
fn random_matrix(n: usize, seed: u64) -> DMatrix<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    DMatrix::from_fn(n, n, |_, _| (0..12).map(|_| next()).sum::<f64>() - 6.0)
}

/// Best-of-three seconds for one kernel call, or the kernel's error.
fn time_kernel(case: &Case, a: &DMatrix<f64>) -> Result<f64, String> {
    let kernel = registry()
        .get(case.kernel)
        .ok_or_else(|| format!("no kernel {}", case.kernel))?;
    let x = Value::Mat(a.clone());
    let flags: Vec<Value> = case
        .extra
        .iter()
        .map(|(_, b)| Value::Bool(vec![*b]))
        .collect();
    let mut given: Vec<(Option<String>, &Value)> = vec![(None, &x)];
    for ((name, _), v) in case.extra.iter().zip(&flags) {
        given.push((Some((*name).to_string()), v));
    }
    let args = Args::match_call(kernel.name, kernel.params, given).map_err(|e| e.message)?;
    let mut rng = Rng::from_seed(1);
    let cancel = AtomicBool::new(false);
    let mut best = f64::INFINITY;
    for _ in 0..REPEATS {
        let mut ctx = Ctx {
            rng: &mut rng,
            base_dir: Path::new("."),
            cancel: &cancel,
        };
        let t = Instant::now();
        let out = (kernel.eval)(&args, &mut ctx).map_err(|e| e.0)?;
        best = best.min(t.elapsed().as_secs_f64());
        drop(out);
    }
    Ok(best)
}

fn rscript_available() -> bool {
    Command::new("Rscript")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// R's best-of-three `system.time` elapsed for every case and size, keyed
/// by (case index, size).
fn time_r(sizes: &[usize]) -> Result<Vec<(usize, usize, f64)>, String> {
    let dir = std::env::temp_dir().join(format!("flowcast-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut script = String::from("set.seed(1)\n");
    for &n in sizes {
        let _ = writeln!(
            script,
            "a <- matrix(rnorm({n} * {n}), {n}); s <- crossprod(a)"
        );
        for (i, c) in CASES.iter().enumerate() {
            let _ = writeln!(
                script,
                "t <- min(sapply(1:{REPEATS}, function(k) system.time({})[['elapsed']])); cat('T', {i}, {n}, sprintf('%.6f', t), '\\n')",
                c.r_expr
            );
        }
    }
    let path = dir.join("bench.R");
    std::fs::write(&path, script).map_err(|e| e.to_string())?;
    let out = Command::new("Rscript")
        .arg(&path)
        .output()
        .map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&dir);
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(parse_r_times(&String::from_utf8_lossy(&out.stdout)))
}

fn parse_r_times(text: &str) -> Vec<(usize, usize, f64)> {
    text.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            if w.next()? != "T" {
                return None;
            }
            Some((
                w.next()?.parse().ok()?,
                w.next()?.parse().ok()?,
                w.next()?.parse().ok()?,
            ))
        })
        .collect()
}

/// Runs every case at every size and returns the printed table.
pub fn run_kernels(sizes: &[usize], with_r: bool) -> String {
    let sizes: Vec<usize> = if sizes.is_empty() {
        vec![250, 500, 1000]
    } else {
        sizes.to_vec()
    };
    let r_times = if with_r && rscript_available() {
        Some(time_r(&sizes))
    } else {
        None
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<20} {:>6} {:>12} {:>12} {:>9}",
        "kernel", "n", "flowcast s", "R s", "R/flowcast"
    );
    for &n in &sizes {
        let a = random_matrix(n, n as u64);
        let s = a.transpose() * &a;
        for (i, case) in CASES.iter().enumerate() {
            let input = if case.symmetric_input { &s } else { &a };
            let ours = time_kernel(case, input);
            let theirs = match &r_times {
                Some(Ok(v)) => v.iter().find(|t| t.0 == i && t.1 == n).map(|t| t.2),
                _ => None,
            };
            let (ours_s, ratio) = match (&ours, theirs) {
                (Ok(t), Some(r)) => (format!("{t:.4}"), format!("{:.2}", r / t)),
                (Ok(t), None) => (format!("{t:.4}"), "-".into()),
                (Err(e), _) => (format!("error: {e}"), "-".into()),
            };
            let r_s = theirs.map_or_else(|| "-".to_string(), |r| format!("{r:.4}"));
            let _ = writeln!(
                out,
                "{:<20} {n:>6} {ours_s:>12} {r_s:>12} {ratio:>9}",
                case.label
            );
        }
    }
    match r_times {
        None if with_r => out.push_str("(Rscript not found: R not timed)\n"),
        Some(Err(e)) => {
            let _ = writeln!(out, "(R failed: {})", e.lines().next().unwrap_or(""));
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_r_lines() {
        let v = parse_r_times("junk\nT 2 500 0.123000 \nT x\n");
        assert_eq!(v, vec![(2, 500, 0.123)]);
    }

    /// The report's numbers: `cargo test --release --lib bench -- --ignored --nocapture`.
    #[test]
    #[ignore = "slow: times n = 1000 against R"]
    fn against_r_at_1000() {
        println!("{}", run_kernels(&[1000], true));
    }

    #[test]
    fn times_every_kernel_on_a_small_matrix() {
        let table = run_kernels(&[8], false);
        assert_eq!(table.lines().count(), 1 + CASES.len(), "{table}");
        assert!(!table.contains("error"), "{table}");
    }
}
