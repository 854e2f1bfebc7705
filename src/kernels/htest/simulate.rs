//! Random tables with given margins and the Monte Carlo p-values built on
//! them: R 4.2's `rcont2` (stats' rcont.c, Patefield's AS 159),
//! `chisqsim` and `fisher_sim` (chisqsim.c), `r2dtable` (random.c), and
//! `chisq.test`'s goodness-of-fit simulation through `sample.int(prob =
//! p)`. Every uniform is drawn where R draws it, so after `set.seed` the
//! tables, p-values and the stream left behind are R's.

use nalgebra::DMatrix;

use crate::kernels::data::sample::sample_indices;
use crate::kernels::nmath::gamma::lgammafn;
use crate::kernels::value::List;
use crate::kernels::{check_cancel, req, Args, Ctx, KernelError, Rng, ShapeCtx, Type, Value};
use crate::kernels::{ArgError, Kernel};

pub(crate) static KERNELS: &[Kernel] = &[Kernel {
    name: "r2dtable",
    params: &[req("n"), req("r"), req("c")],
    random: true,
    shape: r2dtable_shape,
    eval: r2dtable_eval,
}];

/// R's `rcont2`: one random `nrow` x `ncol` table (column-major, in
/// `matrix`) with row totals `nrowt` and column totals `ncolt`, drawn
/// conditionally cell by cell; `fact[i]` is log(i!).
#[allow(clippy::too_many_arguments)]
fn rcont2(
    nrow: usize,
    ncol: usize,
    nrowt: &[i64],
    ncolt: &[i64],
    ntotal: i64,
    fact: &[f64],
    jwork: &mut [i64],
    matrix: &mut [i64],
    rng: &mut Rng,
) -> Result<(), KernelError> {
    let nr_1 = nrow - 1;
    let nc_1 = ncol - 1;
    let mut ib: i64 = 0;
    let f = |i: i64| fact[i as usize];
    jwork[..nc_1].copy_from_slice(&ncolt[..nc_1]);
    let mut jc = ntotal;
    for l in 0..nr_1 {
        let mut ia = nrowt[l];
        let mut ic = jc;
        jc -= ia;
        for m in 0..nc_1 {
            let id = jwork[m];
            let ie = ic;
            ib = ie - ia;
            let ii = ib - id;
            ic -= id;
            if ie == 0 {
                // Row l is full: the rest of it is zero.
                for j in m..nc_1 {
                    matrix[l + j * nrow] = 0;
                }
                ia = 0;
                break;
            }
            let mut u = rng.unif_rand();
            let mut nlm: i64;
            'outer: loop {
                // The conditional expected value of matrix[l, m].
                nlm = (ia as f64 * (id as f64 / ie as f64) + 0.5) as i64;
                let mut x = (f(ia) + f(ib) + f(ic) + f(id)
                    - f(ie)
                    - f(nlm)
                    - f(id - nlm)
                    - f(ia - nlm)
                    - f(ii + nlm))
                .exp();
                if x >= u {
                    break 'outer;
                }
                if x == 0.0 {
                    return Err(KernelError::new(format!(
                        "rcont2 [{l},{m}]: exp underflow to 0; algorithm failure"
                    )));
                }
                let mut sumprb = x;
                let mut y = x;
                let mut nll = nlm;
                // C's `do { increment; do { decrement } while (!lsm) }
                // while (!lsp)`, whose inner `break` goes back to the
                // increment.
                loop {
                    let j = (id - nlm) as f64 * (ia - nlm) as f64;
                    let lsp = nlm == ia || nlm == id;
                    if !lsp {
                        nlm += 1;
                        x *= j / (nlm as f64 * (ii + nlm) as f64);
                        sumprb += x;
                        if sumprb >= u {
                            break 'outer;
                        }
                    }
                    loop {
                        let j = nll as f64 * (ii + nll) as f64;
                        let lsm = nll == 0;
                        if lsm {
                            break;
                        }
                        nll -= 1;
                        y *= j / ((id - nll) as f64 * (ia - nll) as f64);
                        sumprb += y;
                        if sumprb >= u {
                            nlm = nll;
                            break 'outer;
                        }
                        if !lsp {
                            break;
                        }
                    }
                    if lsp {
                        break;
                    }
                }
                u = sumprb * rng.unif_rand();
            }
            matrix[l + m * nrow] = nlm;
            ia -= nlm;
            jwork[m] -= nlm;
        }
        matrix[l + nc_1 * nrow] = ia;
    }
    for m in 0..nc_1 {
        matrix[nr_1 + m * nrow] = jwork[m];
    }
    matrix[nr_1 + nc_1 * nrow] = ib - matrix[nr_1 + (nc_1 - 1) * nrow];
    Ok(())
}

/// Margins as C `int`s (R's `coerceVector(, INTSXP)`: truncation), and
/// their total, refused where R's `int` arithmetic would overflow.
fn int_margins(x: &[f64]) -> Result<(Vec<i64>, i64), KernelError> {
    let v: Vec<i64> = x.iter().map(|&s| s as i64).collect();
    let n: i64 = v.iter().sum();
    if x.iter().any(|s| !s.is_finite()) || n > i64::from(i32::MAX) {
        return Err(KernelError::new("NAs produced by integer overflow"));
    }
    crate::kernels::alloc::ensure_room((n as f64 + 1.0) * 8.0)?;
    Ok((v, n))
}

/// `chisqsim.c`'s log factorials, a running sum of logs.
fn log_factorials(n: i64) -> Vec<f64> {
    let mut fact = vec![0.0; n as usize + 1];
    for i in 2..=n as usize {
        fact[i] = fact[i - 1] + (i as f64).ln();
    }
    fact
}

/// `b` random tables with margins `sr`, `sc`, each reduced to a number by
/// `stat` (the loops of `chisqsim` and `fisher_sim`).
fn simulate(
    sr: &[f64],
    sc: &[f64],
    b: usize,
    ctx: &mut Ctx,
    stat: impl Fn(&[i64], &[f64]) -> f64,
) -> Result<Vec<f64>, KernelError> {
    let (isr, n) = int_margins(sr)?;
    let (isc, nsc) = int_margins(sc)?;
    // Truncated non-whole margins can disagree; R's rcont2 then reads
    // outside its tables.
    if nsc != n {
        return Err(KernelError::new(
            "the row and column totals of 'x', truncated to integers, differ: \
             flowcast simulates tables of whole counts only",
        ));
    }
    let (nr, nc) = (isr.len(), isc.len());
    let fact = log_factorials(n);
    let mut observed = vec![0i64; nr * nc];
    let mut jwork = vec![0i64; nc];
    let mut out = Vec::with_capacity(b);
    for _ in 0..b {
        check_cancel(ctx.cancel)?;
        rcont2(
            nr,
            nc,
            &isr,
            &isc,
            n,
            &fact,
            &mut jwork,
            &mut observed,
            ctx.rng,
        )?;
        out.push(stat(&observed, &fact));
    }
    Ok(out)
}

/// R's `C_chisq_sim`: the Pearson statistic of `b` random tables with
/// margins `sr`, `sc`, against the expected counts `e`.
pub(super) fn chisq_sim(
    sr: &[f64],
    sc: &[f64],
    b: usize,
    e: &[f64],
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    simulate(sr, sc, b, ctx, |observed, _| {
        let mut chisq = 0.0;
        for (&o, &e) in observed.iter().zip(e) {
            let o = o as f64;
            chisq += (o - e) * (o - e) / e;
        }
        chisq
    })
}

/// R's `C_Fisher_sim`: minus the log of the product of the factorials of
/// the cells of `b` random tables with margins `sr`, `sc`.
pub(super) fn fisher_sim(
    sr: &[f64],
    sc: &[f64],
    b: usize,
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    simulate(sr, sc, b, ctx, |observed, fact| {
        let mut ans = 0.0;
        for &o in observed {
            ans -= fact[o as usize];
        }
        ans
    })
}

/// R 4.2.2's `C_Smirnov_sim` (ks.c's `Smirnov_sim_wrk`): the Smirnov
/// statistic of `b` random 2-column tables with row totals `sr` (one row
/// per distinct pooled value) and column totals `sc` (the sample sizes):
/// the largest gap between the two cumulative proportions.
pub(crate) fn smirnov_sim(
    sr: &[f64],
    sc: &[f64],
    b: usize,
    two_sided: bool,
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    if sc.len() != 2 {
        return Err(KernelError::new(
            "Smirnov statistic only defined for two groups",
        ));
    }
    let nrow = sr.len();
    let (n0, n1) = (sc[0].trunc(), sc[1].trunc());
    simulate(sr, sc, b, ctx, |observed, _| {
        let mut s = 0.0;
        let (mut cs0, mut cs1) = (0i64, 0i64);
        for j in 0..nrow {
            cs0 += observed[j];
            cs1 += observed[nrow + j];
            let mut diff = cs0 as f64 / n0 - cs1 as f64 / n1;
            if two_sided {
                diff = diff.abs();
            }
            if diff > s {
                s = diff;
            }
        }
        s
    })
}

/// `chisq.test`'s goodness-of-fit simulation: `B` samples of `n` draws by
/// `sample.int(nx, B * n, TRUE, prob = p)`, read as the columns of an
/// `n` x `B` matrix, and each column's Pearson statistic against `e`.
pub(super) fn gof_sim(
    n: f64,
    p: &[f64],
    e: &[f64],
    b: usize,
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    let nx = p.len();
    let size = b as f64 * n;
    if !size.is_finite() || size > 4.5e15 {
        return Err(KernelError::new("invalid 'size' argument"));
    }
    let draws = sample_indices(ctx.rng, nx as f64, size as usize, true, Some(p.to_vec()))?;
    let rows = n as usize;
    let mut out = Vec::with_capacity(b);
    let mut counts = vec![0.0; nx];
    for col in 0..b {
        counts.iter_mut().for_each(|c| *c = 0.0);
        let column = draws.get(col * rows..(col + 1) * rows).unwrap_or(&[]);
        for &d in column {
            counts[d as usize - 1] += 1.0;
        }
        let terms: Vec<f64> = counts
            .iter()
            .zip(e)
            .map(|(c, e)| (c - e).powi(2) / e)
            .collect();
        out.push(crate::kernels::nmath::rsum(&terms));
    }
    Ok(out)
}

/// `B`, the number of replicates: as given (R pastes it into the method
/// and divides by `B + 1`), and as C's `asInteger` takes it. `refusal` is
/// R's message for a negative or NA count on the caller's path (where a
/// vector of that length is made).
pub(super) fn replicates(args: &Args<&Value>, refusal: &str) -> Result<(f64, usize), KernelError> {
    let b = match args.get("B") {
        None => 2000.0,
        Some(v) => v.as_scalar().unwrap_or(f64::NAN),
    };
    if !b.is_finite() || b.trunc() < 0.0 || b >= 2_147_483_648.0 {
        return Err(KernelError::new(refusal));
    }
    crate::kernels::alloc::ensure_room(b * 8.0)?;
    Ok((b, b.trunc() as usize))
}

/// `paste(METHOD, "with simulated p-value\n\t (based on", B,
/// "replicates)")`.
pub(super) fn method_suffix(method: &str, b: f64) -> String {
    format!(
        "{method} with simulated p-value\n\t (based on {} replicates)",
        crate::kernels::data::combine::r_num_to_string(b)
    )
}

/// R's `as.integer` of an argument of `r2dtable`: NA (NaN here) outside
/// `int`'s range.
fn as_integers(v: &Value) -> Option<Vec<f64>> {
    let s = v.as_f64_slice()?;
    Some(
        s.iter()
            .map(|&x| {
                if x.is_finite() && x.abs() < 2_147_483_648.0 {
                    x.trunc()
                } else {
                    f64::NAN
                }
            })
            .collect(),
    )
}

fn r2dtable_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let get = |name: &str| args.get(name).and_then(as_integers);
    let n = match get("n").as_deref() {
        Some([n, ..]) if *n >= 0.0 => *n,
        _ => return Err(KernelError::new("invalid argument 'n'")),
    };
    let valid = |v: Option<Vec<f64>>| v.filter(|v| v.len() > 1 && v.iter().all(|x| *x >= 0.0));
    let r = valid(get("r")).ok_or_else(|| KernelError::new("invalid argument 'r'"))?;
    let c = valid(get("c")).ok_or_else(|| KernelError::new("invalid argument 'c'"))?;
    let (ir, total) = int_margins(&r)?;
    let (ic, total_c) = int_margins(&c)?;
    if total != total_c {
        return Err(KernelError::new(
            "arguments 'r' and 'c' must have the same sums",
        ));
    }
    let (nr, nc) = (ir.len(), ic.len());
    crate::kernels::alloc::ensure_room(n * (nr * nc) as f64 * 8.0)?;
    // r2dtable's own log factorials are lgamma's, not chisqsim's sums.
    let mut fact = vec![0.0; total as usize + 1];
    for (i, f) in fact.iter_mut().enumerate().skip(1) {
        *f = lgammafn(i as f64 + 1.0);
    }
    let mut jwork = vec![0i64; nc];
    let mut cells = vec![0i64; nr * nc];
    let mut items = Vec::with_capacity(n as usize);
    for _ in 0..n as usize {
        check_cancel(ctx.cancel)?;
        rcont2(
            nr, nc, &ir, &ic, total, &fact, &mut jwork, &mut cells, ctx.rng,
        )?;
        items.push(Value::Mat(DMatrix::from_iterator(
            nr,
            nc,
            cells.iter().map(|&v| v as f64),
        )));
    }
    Ok(Value::List(List::sequence(items)))
}

fn r2dtable_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["n", "r", "c"] {
        if args.ty(name).is_some_and(|t| !t.is_numeric()) {
            return Err(args.error(name, format!("invalid argument '{name}'")));
        }
    }
    let len = |name: &str| args.ty(name).and_then(Type::len);
    for name in ["r", "c"] {
        if len(name).is_some_and(|l| l <= 1) {
            return Err(args.error(name, format!("invalid argument '{name}'")));
        }
    }
    let n = args.ty("n").and_then(Type::const_scalar);
    Ok(Type::List {
        len: n
            .filter(|n| *n >= 0.0 && *n < 2_147_483_648.0)
            .map(|n| n as usize),
        elem: Box::new(Type::Mat {
            rows: len("r"),
            cols: len("c"),
        }),
    })
}
