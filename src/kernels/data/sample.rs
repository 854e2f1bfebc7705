//! `sample` and `sample.int`: R 4.2's `sample`/`sample.int` closures and
//! `do_sample` (`src/main/random.c`), including the weighted samplers
//! (`ProbSampleReplace`, Walker's alias method, `ProbSampleNoReplace`) and
//! R's `revsort`, whose tie order decides which element a draw picks.

use super::num_of_len;
use crate::kernels::value::List;
use crate::kernels::{ArgError, Args, Ctx, KernelError, Rng, ShapeCtx, Type, Value};

/// Larger samples (or permuted populations) are refused, not attempted.
const MAX_DRAWS: usize = 1 << 33;

const LARGER: &str = "cannot take a sample larger than the population when 'replace = FALSE'";

/// R's `sample(x)` treats `x` as a population size when it is one finite
/// number >= 1.
fn is_population_size(x: &Value) -> Option<f64> {
    match x {
        Value::Num(_) | Value::Mat(_) => x.as_scalar().filter(|v| v.is_finite() && *v >= 1.0),
        _ => None,
    }
}

/// R's `asVecSize(size)`.
fn size_value(a: &Args<&Value>) -> Result<Option<usize>, KernelError> {
    let Some(v) = a.get("size") else {
        return Ok(None);
    };
    match v.as_scalar() {
        Some(s) if s.is_finite() && s >= 0.0 => Ok(Some(s as usize)),
        _ => Err(KernelError::new("invalid 'size' argument")),
    }
}

fn prob_value(a: &Args<&Value>) -> Result<Option<Vec<f64>>, KernelError> {
    match a.get("prob") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_f64_slice()
            .map(|c| Some(c.into_owned()))
            .ok_or_else(|| KernelError::new("NA in probability vector")),
    }
}

/// R's `sample.int(dn, k, replace, prob)`: 1-based indices.
pub fn sample_indices(
    rng: &mut Rng,
    dn: f64,
    k: usize,
    replace: bool,
    prob: Option<Vec<f64>>,
) -> Result<Vec<f64>, KernelError> {
    let Some(mut p) = prob else {
        if !(0.0..=4.5e15).contains(&dn) || (k > 0 && dn == 0.0) {
            return Err(KernelError::new("invalid first argument"));
        }
        if !replace && k as f64 > dn {
            return Err(KernelError::new(LARGER));
        }
        // The permutation path allocates the whole population; R would
        // fail to allocate too, flowcast must not abort.
        let permutes = !replace && k >= 2 && !(dn > 1e7 && k as f64 <= dn / 2.0);
        if k > MAX_DRAWS || (permutes && dn > MAX_DRAWS as f64) {
            return Err(KernelError::new(format!(
                "cannot allocate vector of length {}",
                if permutes { dn } else { k as f64 }
            )));
        }
        // The permutation holds the whole population beside the draws.
        let population = if permutes { dn } else { 0.0 };
        crate::kernels::alloc::ensure_room((population + k as f64) * 8.0)?;
        return Ok(rng.sample_dn(dn, k, replace));
    };
    // asInteger(n): truncation, NA beyond int range.
    if !dn.is_finite() || dn < 0.0 || dn > f64::from(i32::MAX) || (k > 0 && dn < 1.0) {
        return Err(KernelError::new("invalid first argument"));
    }
    let n = dn as usize;
    if k > MAX_DRAWS {
        return Err(KernelError::new(format!(
            "cannot allocate vector of length {k}"
        )));
    }
    if !replace && k > n {
        return Err(KernelError::new(LARGER));
    }
    if p.len() != n {
        return Err(KernelError::new("incorrect number of probabilities"));
    }
    fixup_prob(&mut p, k, replace)?;
    let out = if replace {
        let nc = p.iter().filter(|&&pi| n as f64 * pi > 0.1).count();
        if nc > 200 {
            walker_sample_replace(rng, &p, k)
        } else {
            prob_sample_replace(rng, &mut p, k)
        }
    } else {
        prob_sample_no_replace(rng, &mut p, k)
    };
    Ok(out.into_iter().map(|i| i as f64).collect())
}

/// R's `FixupProb`: validate, then normalise to sum 1.
fn fixup_prob(p: &mut [f64], k: usize, replace: bool) -> Result<(), KernelError> {
    let mut sum = 0.0;
    let mut npos = 0;
    for &pi in p.iter() {
        if !pi.is_finite() {
            return Err(KernelError::new("NA in probability vector"));
        }
        if pi < 0.0 {
            return Err(KernelError::new("negative probability"));
        }
        if pi > 0.0 {
            npos += 1;
            sum += pi;
        }
    }
    if npos == 0 || (!replace && k > npos) {
        return Err(KernelError::new("too few positive probabilities"));
    }
    for pi in p.iter_mut() {
        *pi /= sum;
    }
    Ok(())
}

/// R's `revsort`: heapsort `a` into descending order, permuting `ib` along.
fn revsort(a: &mut [f64], ib: &mut [usize]) {
    let n = a.len();
    if n <= 1 {
        return;
    }
    // 1-based indices as in R's C, shifted on access.
    let mut l = (n >> 1) + 1;
    let mut ir = n;
    loop {
        let (ra, ii);
        if l > 1 {
            l -= 1;
            ra = a[l - 1];
            ii = ib[l - 1];
        } else {
            ra = a[ir - 1];
            ii = ib[ir - 1];
            a[ir - 1] = a[0];
            ib[ir - 1] = ib[0];
            ir -= 1;
            if ir == 1 {
                a[0] = ra;
                ib[0] = ii;
                return;
            }
        }
        let mut i = l;
        let mut j = l << 1;
        while j <= ir {
            if j < ir && a[j - 1] > a[j] {
                j += 1;
            }
            if ra > a[j - 1] {
                a[i - 1] = a[j - 1];
                ib[i - 1] = ib[j - 1];
                i = j;
                j += i;
            } else {
                j = ir + 1;
            }
        }
        a[i - 1] = ra;
        ib[i - 1] = ii;
    }
}

/// R's `ProbSampleReplace`: inversion on the descending cumulative table.
fn prob_sample_replace(rng: &mut Rng, p: &mut [f64], k: usize) -> Vec<usize> {
    let n = p.len();
    let mut perm: Vec<usize> = (1..=n).collect();
    revsort(p, &mut perm);
    for i in 1..n {
        p[i] += p[i - 1];
    }
    (0..k)
        .map(|_| {
            let ru = rng.unif_rand();
            let j = (0..n - 1).find(|&j| ru <= p[j]).unwrap_or(n - 1);
            perm[j]
        })
        .collect()
}

/// R's `walker_ProbSampleReplace` (Ripley 1987, Alg 3.13B), used when more
/// than 200 outcomes have non-negligible probability. Its draw step is R
/// 4.2's, found by probing R: `k = R_unif_index(n)`, then `k + unif_rand()`
/// against the alias threshold (older R used `unif_rand() * n` alone).
fn walker_sample_replace(rng: &mut Rng, p: &[f64], k: usize) -> Vec<usize> {
    let n = p.len();
    let mut q: Vec<f64> = vec![0.0; n];
    let mut alias: Vec<usize> = vec![0; n];
    // HL[0..h] hold the small entries (q < 1) from the front, HL[l..n] the
    // large ones from the back, as R's two pointers into one array.
    let mut hl: Vec<usize> = vec![0; n];
    let mut h = 0usize;
    let mut l = n;
    for i in 0..n {
        q[i] = p[i] * n as f64;
        if q[i] < 1.0 {
            hl[h] = i;
            h += 1;
        } else {
            l -= 1;
            hl[l] = i;
        }
    }
    if h > 0 && l < n {
        for kk in 0..n - 1 {
            let i = hl[kk];
            let j = hl[l];
            alias[i] = j;
            q[j] += q[i] - 1.0;
            if q[j] < 1.0 {
                l += 1;
            }
            if l >= n {
                break;
            }
        }
    }
    for (i, qi) in q.iter_mut().enumerate() {
        *qi += i as f64;
    }
    (0..k)
        .map(|_| {
            // R >= 3.6 (sample.kind "Rejection"): the column by
            // R_unif_index, then a uniform for the alias test.
            let kk = rng.unif_index(n as f64) as usize;
            let ru = kk as f64 + rng.unif_rand();
            if ru < q[kk] {
                kk + 1
            } else {
                alias[kk] + 1
            }
        })
        .collect()
}

/// R's `ProbSampleNoReplace`: draw, remove, renormalise by the mass left.
fn prob_sample_no_replace(rng: &mut Rng, p: &mut [f64], k: usize) -> Vec<usize> {
    let n = p.len();
    let mut perm: Vec<usize> = (1..=n).collect();
    revsort(p, &mut perm);
    let mut total = 1.0;
    let mut out = Vec::with_capacity(k);
    let mut n1 = n as isize - 1;
    for _ in 0..k {
        let rt = total * rng.unif_rand();
        let mut mass = 0.0;
        let mut j = 0usize;
        while (j as isize) < n1 {
            mass += p[j];
            if rt <= mass {
                break;
            }
            j += 1;
        }
        out.push(perm[j]);
        total -= p[j];
        let last = n1.max(0) as usize;
        for m in j..last {
            p[m] = p[m + 1];
            perm[m] = perm[m + 1];
        }
        n1 -= 1;
    }
    out
}

/// `x[idx]` for the kinds `sample` can draw from.
fn pick(x: &Value, idx: &[f64]) -> Value {
    let at = |i: &f64| *i as usize - 1;
    match x {
        Value::Str(v) => Value::Str(idx.iter().map(|i| v[at(i)].clone()).collect()),
        Value::Bool(v) => Value::Bool(idx.iter().map(|i| v[at(i)]).collect()),
        Value::Complex(v) => Value::Complex(idx.iter().map(|i| v[at(i)]).collect()),
        Value::ComplexMat(m) => Value::Complex(idx.iter().map(|i| m[at(i)]).collect()),
        Value::List(l) => Value::List(List {
            class: None,
            names: l
                .names
                .as_ref()
                .map(|n| idx.iter().map(|i| n[at(i)].clone()).collect()),
            items: idx.iter().map(|i| l.items[at(i)].clone()).collect(),
            row_names: None,
        }),
        Value::Null => Value::Null,
        // x[sample(length(x))] of a factor keeps its levels.
        Value::Factor(f) => Value::Factor(crate::kernels::value::Factor {
            codes: idx.iter().map(|i| f.codes[at(i)]).collect(),
            levels: f.levels.clone(),
            ordered: f.ordered,
        }),
        other => {
            let v = other.as_f64_slice().unwrap_or_default();
            Value::Num(idx.iter().map(|i| v[at(i)]).collect())
        }
    }
}

pub(super) fn eval_sample(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = a
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let replace = a.bool_or("replace", false)?;
    let prob = prob_value(a)?;
    if matches!(x, Value::Formula(_) | Value::Lang(_)) {
        return Err(KernelError::new(format!(
            "cannot sample from a {}",
            x.type_name()
        )));
    }
    if let Some(n) = is_population_size(x) {
        let k = size_value(a)?.unwrap_or(n as usize);
        return Ok(Value::Num(sample_indices(ctx.rng, n, k, replace, prob)?));
    }
    let k = size_value(a)?.unwrap_or(x.len());
    let idx = sample_indices(ctx.rng, x.len() as f64, k, replace, prob)?;
    Ok(pick(x, &idx))
}

pub(super) fn eval_sample_int(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = match a.get("n") {
        Some(v) if !matches!(v, Value::Str(_)) && v.len() == 1 => v.as_scalar(),
        _ => None,
    }
    .ok_or_else(|| KernelError::new("invalid first argument"))?;
    let replace = a.bool_or("replace", false)?;
    let prob = prob_value(a)?;
    let k = match size_value(a)? {
        Some(k) => k,
        None if n.is_finite() && n >= 0.0 => n as usize,
        None => return Err(KernelError::new("invalid first argument")),
    };
    Ok(Value::Num(sample_indices(ctx.rng, n, k, replace, prob)?))
}

/// The draw's length and R's checks on known sizes: `(population, size)`.
fn check_sizes(
    a: &Args<Type>,
    population: Option<f64>,
    default_size: Option<usize>,
) -> Result<Option<usize>, ArgError> {
    let size = match a.get("size") {
        None => default_size,
        Some(t) => match t.const_scalar() {
            Some(s) if s.is_finite() && s >= 0.0 => Some(s as usize),
            Some(_) => return Err(a.error("size", "invalid 'size' argument")),
            None => None,
        },
    };
    let replace = match a.get("replace") {
        None => Some(false),
        Some(t) => t.const_scalar().map(|r| r != 0.0),
    };
    if let (Some(n), Some(k), Some(false)) = (population, size, replace) {
        if k as f64 > n {
            return Err(a.error("size", LARGER));
        }
    }
    if let (Some(n), Some(p)) = (population, a.get("prob").and_then(Type::len)) {
        if a.get("prob") != Some(&Type::Null) && p as f64 != n.trunc() {
            return Err(a.error("prob", "incorrect number of probabilities"));
        }
    }
    Ok(size)
}

pub(super) fn shape_sample(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = a.get("x").cloned().unwrap_or(Type::Any);
    let scalar = matches!(x, Type::Num { .. } | Type::Mat { .. }) && x.len() == Some(1);
    if scalar {
        let Some(v) = x.const_scalar() else {
            // A number >= 1 is a population size, anything else the
            // population itself: the length is unknown either way.
            return Ok(num_of_len(None));
        };
        if v.is_finite() && v >= 1.0 {
            let size = check_sizes(a, Some(v), Some(v as usize))?;
            return Ok(num_of_len(size));
        }
    }
    let n = x.len();
    let size = check_sizes(a, n.map(|n| n as f64), n)?;
    Ok(match x {
        Type::Str { .. } => Type::Str {
            len: size,
            value: None,
        },
        Type::Bool { .. } => Type::Bool {
            len: size,
            value: None,
        },
        Type::Complex { .. } | Type::ComplexMat { .. } => Type::Complex { len: size },
        Type::List { elem, .. } => Type::List { len: size, elem },
        Type::Any => Type::Any,
        Type::Null => Type::Null,
        _ => num_of_len(size),
    })
}

pub(super) fn shape_sample_int(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = match a.get("n") {
        Some(Type::Str { .. }) => return Err(a.error("n", "invalid first argument")),
        Some(t) => t.const_scalar(),
        None => None,
    };
    if let Some(n) = n {
        if !n.is_finite() || n < 0.0 {
            return Err(a.error("n", "invalid first argument"));
        }
    }
    let size = check_sizes(a, n, n.map(|n| n as usize))?;
    Ok(num_of_len(size))
}
