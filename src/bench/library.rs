//! The statistician's library against R (issue 17's speed target): each
//! case is an R expression, run by flowcast's evaluator and by `Rscript` on
//! the same data (vectors of 10⁶, matrices of 1000x1000) in the same run,
//! best of `REPEATS` each. The data are written once as raw doubles and
//! read by both, and the helper columns (`g`, `p`, …) are made by the same
//! expressions on both sides.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use crate::diagnostic::SourceFile;
use crate::exec::eval::{eval, Scope};
use crate::kernels::{Ctx, Rng, Value};

const REPEATS: usize = 3;

/// Vector length and matrix order.
const N: usize = 1_000_000;
const M: usize = 1000;

/// Made from `x`, `y` and `m` (read from files) before timing, on both
/// sides, in this order.
const SETUP: &[(&str, &str)] = &[
    ("g", "round(abs(x) * 3)"),
    ("p", "pnorm(y)"),
    ("xs", "x[1:100000]"),
    ("ys", "y[1:100000]"),
    ("xk", "x[1:5000]"),
    ("yk", "y[1:5000]"),
    ("i", "1:100000"),
    ("gs", "g[1:100000]"),
    ("b", "gs > 1"),
    ("s", "crossprod(m)"),
    // Text keys: 10⁶ labels of a few thousand values, 10⁵ distinct ones.
    ("st", "paste0(\"s\", round(abs(x) * 1000))"),
    ("su", "paste0(\"k\", rev(i))"),
];

/// The timed expressions.
const CASES: &[&str] = &[
    "median(x)",
    "quantile(x, c(0.1, 0.5, 0.9))",
    "quantile(x, 0.3, type = 2)",
    "range(x)",
    "IQR(x)",
    "mad(x)",
    "fivenum(x)",
    "sort(x)",
    "order(x)",
    "rank(x)",
    "rev(x)",
    "cumsum(x)",
    "cummax(x)",
    "cumprod(y)",
    "x[1:500000]",
    "x[order(y)]",
    "diff(x)",
    "unique(g)",
    "which(x > 1)",
    "x[x > 0]",
    "ifelse(x > 0, x, -x)",
    "pmax(x, y)",
    "is.na(x)",
    "any(x > 4)",
    "x %in% g",
    "abs(x) + sqrt(abs(y))",
    "exp(x)",
    "log1p(abs(x))",
    "signif(x, 3)",
    "rep(x, 2)",
    "head(x, 500000)",
    "tabulate(g + 1)",
    "table(g)",
    "scale(x)",
    "cor(x, y)",
    "cor(x, y, method = \"spearman\")",
    "cor(xk, yk, method = \"kendall\")",
    "cov(x, y)",
    "dnorm(x)",
    "pnorm(x)",
    "qnorm(p)",
    "pgamma(abs(x), 2)",
    "qgamma(p, 2)",
    "pt(x, 5)",
    "qbeta(p[1:100000], 2, 3)",
    "pbinom(g, 20, 0.3)",
    "rnorm(1000000)",
    "runif(1000000)",
    "rbinom(1000000, 10, 0.3)",
    "rpois(1000000, 4)",
    "rgamma(1000000, 2.5)",
    "sample(x)",
    "t.test(x, y)",
    "var.test(x, y)",
    "wilcox.test(xs, ys)",
    "ks.test(xs, ys)",
    "shapiro.test(xk)",
    "kruskal.test(x, g)",
    "p.adjust(p, \"BH\")",
    "tapply(x, g, mean)",
    "split(x, g)",
    "paste0(\"s\", i)",
    "sort(st)",
    "sort(su)",
    "order(su, decreasing = TRUE)",
    "factor(st)",
    "table(st)",
    "tapply(x, st, mean)",
    "su < \"k5\"",
    "sapply(xs, function(v) v * 2)",
    "vapply(i, function(k) k + 1, 0)",
    "mapply(function(a, b) a + b, xs, ys)",
    "sapply(i, function(k) abs(xs[k]) + 1)",
    "sapply(xs, function(v) if (v > 0) sqrt(v) else 0)",
    "lapply(1:10000, function(k) { u <- xs[k:(k + 9)]; sum(u) / 10 })",
    "sapply(split(xs, gs), median)",
    "Reduce(`+`, xs, accumulate = TRUE)",
    "replicate(1000, mean(sample(xk, replace = TRUE)))",
    "colSums(m)",
    "rowSums(m)",
    "colMeans(m)",
    "apply(m, 2, sd)",
    "cor(m)",
    "cov(m, method = \"spearman\")",
    "scale(m)",
    "outer(x[1:1000], y[1:1000])",
    "t(m)",
    "chol(s)",
    "det(m)",
    "backsolve(chol(s), m)",
    "kronecker(m[1:40, 1:40], m[1:25, 1:25])",
    "cmdscale(dist(m[1:300, ]))",
    "glm(b ~ xs + ys, family = binomial)",
    "glm(gs ~ xs, family = poisson)",
];

/// Evaluates `text` among `steps`: the seconds of one evaluation, best
/// of `repeats` timings of `loops` evaluations each.
fn run(
    text: &str,
    steps: &HashMap<String, Arc<Value>>,
    repeats: usize,
    loops: usize,
) -> Result<(Value, f64), String> {
    let e = crate::workflow::parse_expr_str(text).map_err(|d| d.message)?;
    let file = SourceFile::new("<bench>", text);
    let none = HashSet::new();
    let scope = Scope {
        steps,
        local: None,
        integer_steps: &none,
        local_integer: false,
        outer: None,
        running: None,
    };
    let cancel = AtomicBool::new(false);
    let mut best = f64::INFINITY;
    let mut value = Value::Null;
    for _ in 0..repeats {
        let mut rng = Rng::from_seed(1);
        let mut ctx = Ctx::new(&mut rng, Path::new("."), &cancel);
        let t = Instant::now();
        for _ in 0..loops {
            value = eval(&e, &scope, &mut ctx, &file)
                .map_err(|e| e.message)?
                .into_owned();
        }
        best = best.min(t.elapsed().as_secs_f64() / loops as f64);
    }
    Ok((value, best))
}

/// How many evaluations one timing of a case takes: enough for about
/// 50 ms, so R's `system.time`, which resolves a millisecond, times a
/// fast case as finely as a slow one. `once`: seconds of one evaluation.
fn loops_for(once: f64) -> usize {
    (0.05 / once.max(1e-7)).ceil().clamp(1.0, 1000.0) as usize
}

/// R's seconds per evaluation of each case (`cases`: its text and the
/// evaluations per timing), best of `REPEATS` timings, or why R could not
/// run.
fn time_r(
    x: &[f64],
    y: &[f64],
    m: &[f64],
    cases: &[(&str, usize)],
) -> Result<Vec<Option<f64>>, String> {
    let dir = std::env::temp_dir().join(format!("flowcast-library-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = (|| {
        let mut script = String::new();
        for (name, data) in [("x", x), ("y", y), ("m", m)] {
            let path = dir.join(format!("{name}.bin"));
            let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
            std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
            let _ = writeln!(
                script,
                "{name} <- readBin('{}', 'double', {}, endian = 'little')",
                path.display(),
                data.len()
            );
        }
        let _ = writeln!(script, "m <- matrix(m, {M})");
        for (name, e) in SETUP {
            let _ = writeln!(script, "{name} <- {e}");
        }
        for (k, (e, loops)) in cases.iter().enumerate() {
            let _ = writeln!(
                script,
                "t <- tryCatch(min(sapply(1:{REPEATS}, function(r) {{ set.seed(1); \
                 system.time(for (j in 1:{loops}) {e})[['elapsed']] }})) / {loops}, \
                 error = function(e) NA); cat('T', {k}, sprintf('%.9f', t), '\\n')"
            );
        }
        let path = dir.join("library.R");
        std::fs::write(&path, script).map_err(|e| e.to_string())?;
        let out = Command::new("Rscript")
            .arg(&path)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        let mut times = vec![None; cases.len()];
        for l in String::from_utf8_lossy(&out.stdout).lines() {
            let w: Vec<&str> = l.split_whitespace().collect();
            if let ["T", k, t] = w[..] {
                if let (Ok(k), Ok(t)) = (k.parse::<usize>(), t.parse::<f64>()) {
                    if let Some(slot) = times.get_mut(k) {
                        *slot = Some(t).filter(|t| t.is_finite());
                    }
                }
            }
        }
        Ok(times)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The table: each case's seconds in flowcast and in R, and R's over
/// flowcast's (above 1: flowcast is faster). A fast case is timed over
/// many evaluations on both sides ([`loops_for`]). `only` keeps the cases
/// whose text contains it.
pub fn run_library(with_r: bool, only: Option<&str>) -> String {
    let cases: Vec<&str> = CASES
        .iter()
        .copied()
        .filter(|e| only.is_none_or(|o| e.contains(o)))
        .collect();
    let x = super::kernels::random_normals(N, 1);
    let y = super::kernels::random_normals(N, 2);
    let m = super::kernels::random_normals(M * M, 3);
    let mut steps: HashMap<String, Arc<Value>> = HashMap::new();
    steps.insert("x".into(), Arc::new(Value::Num(x.clone())));
    steps.insert("y".into(), Arc::new(Value::Num(y.clone())));
    steps.insert(
        "m".into(),
        Arc::new(Value::Mat(nalgebra::DMatrix::from_vec(M, M, m.clone()))),
    );
    let mut out = String::new();
    for (name, e) in SETUP {
        match run(e, &steps, 1, 1) {
            Ok((v, _)) => {
                steps.insert((*name).to_string(), Arc::new(v));
            }
            Err(err) => {
                let _ = writeln!(out, "(setup `{name} <- {e}` failed: {err})");
                return out;
            }
        }
    }
    let ours: Vec<(&str, usize, Result<f64, String>)> = cases
        .iter()
        .map(|e| {
            let loops = run(e, &steps, 1, 1).map_or(1, |(_, t)| loops_for(t));
            (*e, loops, run(e, &steps, REPEATS, loops).map(|(_, t)| t))
        })
        .collect();
    let r = if with_r && super::kernels::rscript_available() {
        let timed: Vec<(&str, usize)> = ours.iter().map(|(e, l, _)| (*e, *l)).collect();
        Some(time_r(&x, &y, &m, &timed))
    } else {
        None
    };
    let _ = writeln!(
        out,
        "\n{:<52} {:>11} {:>11} {:>8}",
        "library (x, y: 10^6; m: 1000x1000)", "flowcast s", "R s", "R/ours"
    );
    let mut slower = Vec::new();
    for (k, (e, _, ours)) in ours.into_iter().enumerate() {
        let theirs = match &r {
            Some(Ok(t)) => t[k],
            _ => None,
        };
        let ratio = match (&ours, theirs) {
            (Ok(a), Some(b)) => {
                let q = b / a.max(1e-9);
                if q < 1.0 {
                    slower.push(format!("{e} ({q:.2})"));
                }
                format!("{q:.2}")
            }
            _ => "-".to_string(),
        };
        let ours = match ours {
            Ok(t) => format!("{t:.6}"),
            Err(err) => format!("error: {err}"),
        };
        let theirs = theirs.map_or_else(|| "-".to_string(), |t| format!("{t:.6}"));
        let _ = writeln!(out, "{e:<52} {ours:>11} {theirs:>11} {ratio:>8}");
    }
    match &r {
        None if with_r => out.push_str("(Rscript not found: R not timed)\n"),
        Some(Err(e)) => {
            let _ = writeln!(out, "(R failed: {})", e.lines().next().unwrap_or(""));
        }
        Some(Ok(_)) if slower.is_empty() => {
            out.push_str("flowcast is at least as fast as R on every case\n")
        }
        Some(Ok(_)) => {
            let _ = writeln!(out, "slower than R: {}", slower.join(", "));
        }
        None => {}
    }
    out
}
