//! `ksmooth(x, y, kernel, bandwidth, range.x, n.points, x.points)`:
//! stats::ksmooth, the Nadaraya-Watson kernel regression estimate, a port
//! of ksmooth.R and of `BDRksmooth` in R's src/library/stats/src/ksmooth.c.

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "ksmooth",
    params: &[
        req("x"),
        opt("y"),
        opt("kernel"),
        opt("bandwidth"),
        opt("range.x"),
        opt("n.points"),
        opt("x.points"),
    ],
    random: false,
    shape,
    eval,
}];

const KERNEL_CHOICES: &[&str] = &["box", "normal"];

/// ksmooth.c's `dokern`.
fn dokern(x: f64, kern: i32) -> f64 {
    match kern {
        1 => 1.0,
        2 => (-0.5 * x * x).exp(),
        _ => 0.0,
    }
}

/// `BDRksmooth`: the kernel-weighted mean of the `y` whose `x` (sorted)
/// lie within the kernel's cutoff of each of the sorted points `xp`; NA
/// where no weight falls. `imin` only moves forward, as the points are
/// sorted.
fn bdr_ksmooth(x: &[f64], y: &[f64], xp: &[f64], kern: i32, bw: f64) -> Vec<f64> {
    let n = x.len();
    let mut yp = vec![0.0; xp.len()];
    let mut imin = 0usize;
    let mut cutoff = 0.0;
    let mut bw = bw;
    // The bandwidth is in units of half the inter-quartile range.
    if kern == 1 {
        bw *= 0.5;
        cutoff = bw;
    }
    if kern == 2 {
        bw *= 0.3706506;
        cutoff = 4.0 * bw;
    }
    // The C tests x[imin] before imin < n, reading one past the end when
    // every x lies left of the first point; bounds first here, to the same
    // effect (no x is then used).
    if let Some(&xp0) = xp.first() {
        while imin < n && x[imin] < xp0 - cutoff {
            imin += 1;
        }
    }
    for (j, out) in yp.iter_mut().enumerate() {
        let mut num = 0.0;
        let mut den = 0.0;
        let x0 = xp[j];
        // The C moves imin inside the loop over i; the loop keeps its own
        // start, as a C for does not (i is not reset), to the same effect.
        #[allow(clippy::mut_range_bound)]
        for i in imin..n {
            if x[i] < x0 - cutoff {
                imin = i;
            } else {
                if x[i] > x0 + cutoff {
                    break;
                }
                let w = dokern((x[i] - x0).abs() / bw, kern);
                num += w * y[i];
                den += w;
            }
        }
        *out = if den > 0.0 { num / den } else { NA };
    }
    yp
}

fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        Value::Null => Ok(Vec::new()),
        Value::Factor(f) => Ok(f.integer_codes()),
        other => other.as_f64_slice().map(|c| c.into_owned()).ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's ksmooth() needs numbers for '{what}', not {}",
                other.type_name()
            ))
        }),
    }
}

/// R's `asReal`: the first element, NA when there is none.
fn as_real(v: &Value, what: &str) -> Result<f64, KernelError> {
    Ok(numbers(v, what)?.first().copied().unwrap_or(NA))
}

/// `order(x)`: stable, NA and NaN last.
pub(super) fn order(x: &[f64]) -> Vec<usize> {
    let mut o: Vec<usize> = (0..x.len()).collect();
    o.sort_by(|&a, &b| match (x[a].is_nan(), x[b].is_nan()) {
        (false, false) => x[a].partial_cmp(&x[b]).unwrap_or(std::cmp::Ordering::Equal),
        (na, nb) => na.cmp(&nb),
    });
    o
}

/// `seq.int(from, to, length.out = n)` as do_seq makes it: the length
/// checked first, an empty result before the ends are.
fn seq_length_out(from: f64, to: f64, n: f64) -> Result<Vec<f64>, KernelError> {
    if n.is_nan() || n <= -0.5 {
        return Err(KernelError::new(
            "'length.out' must be a non-negative number",
        ));
    }
    let n = n.ceil();
    if n <= 0.0 {
        return Ok(Vec::new());
    }
    if n > 1e9 {
        return Err(KernelError::new("cannot allocate a vector that long"));
    }
    super::data::seq_spaced(from, to, n as usize)
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let yv = match args.get("y").map(bare) {
        None | Some(Value::Null) => {
            return Err(KernelError::new(
                "numeric y must be supplied.\nFor density estimation use density()",
            ))
        }
        Some(v) => v,
    };
    let kern = match super::filter::choice(args.get("kernel"), KERNEL_CHOICES)? {
        "box" => 1,
        _ => 2,
    };
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let x = numbers(xv, "x")?;
    let xp = match args.get("x.points") {
        Some(v) => {
            // sort() drops NA and NaN.
            let mut p: Vec<f64> = numbers(v, "x.points")?
                .into_iter()
                .filter(|v| !v.is_nan())
                .collect();
            p.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
            p
        }
        None => {
            let (from, to) = match args.get("range.x") {
                Some(r) => {
                    let r = numbers(r, "range.x")?;
                    (
                        r.first().copied().unwrap_or(NA),
                        r.get(1).copied().unwrap_or(NA),
                    )
                }
                None => range(&x),
            };
            let n = match args.get("n.points") {
                Some(v) => {
                    let v = numbers(v, "n.points")?;
                    if v.len() != 1 {
                        return Err(KernelError::new("'length.out' must be of length 1"));
                    }
                    v[0]
                }
                None => (x.len() as f64).max(100.0),
            };
            seq_length_out(from, to, n)?
        }
    };
    let y = numbers(yv, "y")?;
    let o = order(&x);
    let xs: Vec<f64> = o.iter().map(|&i| x[i]).collect();
    // y[ord]: NA past y's end, as R indexes.
    let ys: Vec<f64> = o.iter().map(|&i| y.get(i).copied().unwrap_or(NA)).collect();
    let bw = match args.get("bandwidth") {
        Some(v) => as_real(v, "bandwidth")?,
        None => 0.5,
    };
    let yp = bdr_ksmooth(&xs, &ys, &xp, kern, bw);
    Ok(Value::List(List::named(vec![
        ("x", Value::Num(xp)),
        ("y", Value::Num(yp)),
    ])))
}

/// `range(x)`: NA when x has one, (Inf, -Inf) when empty.
fn range(x: &[f64]) -> (f64, f64) {
    if x.iter().any(|v| v.is_nan()) {
        return (NA, NA);
    }
    let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo, hi)
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y", "range.x", "x.points", "n.points", "bandwidth"] {
        if let Some(t @ (Type::Str { .. } | Type::Record { .. } | Type::Formula { .. })) =
            args.ty(name)
        {
            return Err(args.error(
                name,
                format!(
                    "flowcast's ksmooth() needs numbers for '{name}', not {}",
                    t.describe()
                ),
            ));
        }
    }
    let n = match args.ty("n.points") {
        Some(Type::Num { value: Some(v), .. }) if v.len() == 1 && v[0] >= 0.0 && v[0] <= 1e9 => {
            Some(v[0].ceil() as usize)
        }
        Some(_) => None,
        None => args.ty("x").and_then(Type::len).map(|n| n.max(100)),
    };
    let n = if args.has("x.points") { None } else { n };
    let num = Type::Num {
        len: n,
        value: None,
    };
    Ok(Type::record("list", vec![("x", num.clone()), ("y", num)]))
}
