//! `p.adjust(p, method, n)`: R 4.2's `p.adjust`, every method.

use crate::kernels::value::NA;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

pub(crate) const METHODS: [&str; 8] = [
    "holm",
    "hochberg",
    "hommel",
    "bonferroni",
    "BH",
    "BY",
    "fdr",
    "none",
];

pub(super) fn method_error() -> String {
    let quoted: Vec<String> = METHODS
        .iter()
        .map(|m| format!("\u{201c}{m}\u{201d}"))
        .collect();
    format!("'arg' should be one of {}", quoted.join(", "))
}

pub(super) fn match_method(s: &str) -> Option<&'static str> {
    if let Some(m) = METHODS.iter().find(|m| **m == s) {
        return Some(m);
    }
    let hits: Vec<&&str> = METHODS
        .iter()
        .filter(|m| !s.is_empty() && m.starts_with(s))
        .collect();
    match hits[..] {
        [m] => Some(m),
        _ => None,
    }
}

/// R's `order(p)` (stable), or `order(p, decreasing = TRUE)`.
fn order(p: &[f64], decreasing: bool) -> Vec<usize> {
    let mut o: Vec<usize> = (0..p.len()).collect();
    if decreasing {
        o.sort_by(|&a, &b| p[b].total_cmp(&p[a]));
    } else {
        o.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    }
    o
}

/// The adjusted values of the non-NA `p` among `n` tests.
pub(crate) fn adjust(p: &[f64], method: &str, n: f64) -> Vec<f64> {
    let lp = p.len();
    let method = if method == "fdr" { "BH" } else { method };
    let method = if n == 2.0 && method == "hommel" {
        "hochberg"
    } else {
        method
    };
    let back = |v: Vec<f64>, o: &[usize]| -> Vec<f64> {
        let mut out = vec![0.0; o.len()];
        for (k, &i) in o.iter().enumerate() {
            out[i] = v[k];
        }
        out
    };
    match method {
        "bonferroni" => p.iter().map(|v| (n * v).min(1.0)).collect(),
        "holm" => {
            let o = order(p, false);
            let mut run = f64::NEG_INFINITY;
            let v: Vec<f64> = o
                .iter()
                .enumerate()
                .map(|(k, &i)| {
                    run = run.max((n - k as f64) * p[i]);
                    run.min(1.0)
                })
                .collect();
            back(v, &o)
        }
        "hochberg" | "BH" | "BY" => {
            let o = order(p, true);
            let q: f64 = if method == "BY" {
                crate::kernels::nmath::rsum(
                    &(1..=n as usize)
                        .map(|i| 1.0 / i as f64)
                        .collect::<Vec<f64>>(),
                )
            } else {
                1.0
            };
            let mut run = f64::INFINITY;
            let v: Vec<f64> = o
                .iter()
                .enumerate()
                .map(|(k, &j)| {
                    let i = (lp - k) as f64;
                    let t = match method {
                        "hochberg" => (n + 1.0 - i) * p[j],
                        "BH" => n / i * p[j],
                        _ => q * n / i * p[j],
                    };
                    run = run.min(t);
                    run.min(1.0)
                })
                .collect();
            back(v, &o)
        }
        "hommel" => {
            let nn = n as usize;
            let mut pp = p.to_vec();
            pp.resize(nn.max(lp), 1.0);
            let o = order(&pp, false);
            let ps: Vec<f64> = o.iter().map(|&i| pp[i]).collect();
            let init = ps
                .iter()
                .enumerate()
                .map(|(k, v)| n * v / (k + 1) as f64)
                .fold(f64::INFINITY, f64::min);
            let mut q = vec![init; nn];
            let mut pa = vec![init; nn];
            for j in (2..nn).rev() {
                let i2 = nn - j + 1..nn; // 0-based (n-j+2):n
                let q1 = i2
                    .clone()
                    .enumerate()
                    .map(|(t, i)| j as f64 * ps[i] / (t + 2) as f64)
                    .fold(f64::INFINITY, f64::min);
                for i in 0..nn - j + 1 {
                    q[i] = (j as f64 * ps[i]).min(q1);
                }
                let fill = q[nn - j];
                for i in i2 {
                    q[i] = fill;
                }
                for i in 0..nn {
                    pa[i] = pa[i].max(q[i]);
                }
            }
            let adj: Vec<f64> = pa.iter().zip(&ps).map(|(a, b)| a.max(*b)).collect();
            let full = back(adj, &o);
            full[..lp].to_vec()
        }
        _ => p.to_vec(),
    }
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let p = args.nums("p")?.into_owned();
    let method = match args.get("method") {
        None => "holm",
        Some(Value::Str(s)) if s.len() == 1 => {
            match_method(&s[0]).ok_or_else(|| KernelError::new(method_error()))?
        }
        Some(Value::Str(s)) if s.len() == METHODS.len() => "holm",
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    let kept = p.iter().filter(|v| !v.is_nan()).count();
    let n = match args.get("n") {
        None => kept as f64,
        Some(v) => v
            .as_scalar()
            .ok_or_else(|| KernelError::new("n >= lp is not TRUE"))?,
    };
    if n.is_nan() || n < kept as f64 {
        return Err(KernelError::new("n >= lp is not TRUE"));
    }
    if n > 1e7 {
        return Err(KernelError::new("'n' is too large"));
    }
    Ok(Value::Num(adjust_among(&p, method, n)))
}

/// `p.adjust(p, method)`: NA and NaN stay, the others are adjusted among
/// themselves (R's `n` defaults to their count).
pub(super) fn adjust_na(p: &[f64], method: &str) -> Vec<f64> {
    let n = p.iter().filter(|v| !v.is_nan()).count();
    adjust_among(p, method, n as f64)
}

fn adjust_among(p: &[f64], method: &str, n: f64) -> Vec<f64> {
    if n <= 1.0 {
        return p.to_vec();
    }
    let kept: Vec<f64> = p.iter().copied().filter(|v| !v.is_nan()).collect();
    let adj = adjust(&kept, method, n);
    let mut it = adj.into_iter();
    p.iter()
        .map(|v| {
            if v.is_nan() {
                *v
            } else {
                it.next().unwrap_or(NA)
            }
        })
        .collect()
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(m) = args.const_str("method") {
        if match_method(m).is_none() {
            return Err(args.error("method", method_error()));
        }
    }
    match args.ty("p") {
        None | Some(Type::Any) => Ok(Type::num_unknown()),
        Some(t) if t.is_numeric() => Ok(match t.len() {
            Some(n) => Type::num(n),
            None => Type::num_unknown(),
        }),
        Some(t) => Err(args.error("p", format!("'p' must be numeric, not {}", t.describe()))),
    }
}
