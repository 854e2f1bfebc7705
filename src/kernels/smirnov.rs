//! The distribution of the two-sample Smirnov statistic as R 4.2.2's stats
//! exports it: `psmirnov`, `qsmirnov` and `rsmirnov` (ks.test.R), on the
//! routines ks.test itself uses (nmath's `ks`: the lattice-path count with
//! ties, C's `psmirnov2x` without, the limiting `pkstwo`) and `rcont2`'s
//! random tables (ks.c's `Smirnov_sim`).
//!
//! `simulate = TRUE` in psmirnov and qsmirnov is refused: it draws from the
//! random stream, which a function that is not random may not touch
//! (rsmirnov is the same draws, as a random step).

use super::nmath::ks::{pkstwo, psmirnov2x, smirnov_log_denominator, smirnov_paths, smirnov_stat};
use super::value::{List, NA};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "psmirnov",
        params: &[
            req("q"),
            req("sizes"),
            opt("z"),
            opt("two.sided"),
            opt("exact"),
            opt("simulate"),
            opt("B"),
            opt("lower.tail"),
            opt("log.p"),
        ],
        random: false,
        shape: |a, _| {
            Ok(Type::Num {
                len: a.get("q").and_then(Type::len),
                value: None,
            })
        },
        eval: psmirnov_eval,
    },
    Kernel {
        name: "qsmirnov",
        params: &[
            req("p"),
            req("sizes"),
            opt("z"),
            opt("two.sided"),
            opt("exact"),
            opt("simulate"),
            opt("B"),
        ],
        random: false,
        shape: qsmirnov_shape,
        eval: qsmirnov_eval,
    },
    Kernel {
        name: "rsmirnov",
        params: &[req("n"), req("sizes"), opt("z"), opt("two.sided")],
        random: true,
        shape: rsmirnov_shape,
        eval: rsmirnov_eval,
    },
];

/// R's `if (cond)` on an NA condition.
const NA_CONDITION: &str = "missing value where TRUE/FALSE needed";

/// The numbers of a `q` or `p` argument, or R's message naming it.
fn numeric_arg(args: &Args<&Value>, name: &str) -> Result<Vec<f64>, KernelError> {
    match args.get(name) {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            Ok(v.as_f64_slice().unwrap_or_default().into_owned())
        }
        _ => Err(KernelError::new(format!(
            "argument '{name}' must be numeric"
        ))),
    }
}

/// psmirnov's checks of `sizes`, then `floor(c(n.x, n.y))`.
fn sample_sizes(args: &Args<&Value>) -> Result<(f64, f64), KernelError> {
    let sizes = args
        .get("sizes")
        .and_then(Value::as_f64_slice)
        .map(std::borrow::Cow::into_owned)
        .unwrap_or_default();
    if sizes.len() != 2 {
        return Err(KernelError::new(
            "argument 'sizes' must be a vector of length 2",
        ));
    }
    for (s, which) in sizes.iter().zip(["x", "y"]) {
        if s.is_nan() {
            return Err(KernelError::new(NA_CONDITION));
        }
        if *s < 1.0 {
            return Err(KernelError::new(format!("not enough '{which}' data")));
        }
    }
    let (nx, ny) = (sizes[0].floor(), sizes[1].floor());
    // Sizes past C's int, where R's own path count overflows long before.
    if nx > f64::from(i32::MAX) || ny > f64::from(i32::MAX) {
        return Err(KernelError::new(
            "sample sizes past 2^31 - 1 are not supported: R's exact count overflows there",
        ));
    }
    Ok((nx, ny))
}

/// The pooled sample `z`, when given (NULL is none).
fn pooled(args: &Args<&Value>) -> Result<Option<Vec<f64>>, KernelError> {
    match args.get("z") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_f64_slice()
            .map(|z| Some(z.into_owned()))
            .ok_or_else(|| KernelError::new("argument 'z' must be numeric")),
    }
}

fn refuse_simulate(args: &Args<&Value>) -> Result<(), KernelError> {
    if args.bool_or("simulate", false)? {
        return Err(KernelError::new(format!(
            "{}(simulate = TRUE) is not supported: it draws from the random stream, \
             which only a random step may do (rsmirnov draws the same statistics)",
            args.func
        )));
    }
    Ok(())
}

/// What psmirnov needs besides `q`.
struct Setup {
    nx: f64,
    ny: f64,
    z: Option<Vec<f64>>,
    two_sided: bool,
    exact: bool,
}

fn setup(args: &Args<&Value>) -> Result<Setup, KernelError> {
    let (nx, ny) = sample_sizes(args)?;
    Ok(Setup {
        nx,
        ny,
        z: pooled(args)?,
        two_sided: args.bool_or("two.sided", true)?,
        exact: args.bool_or("exact", true)?,
    })
}

fn psmirnov_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let q = numeric_arg(args, "q")?;
    refuse_simulate(args)?;
    let lower = args.bool_or("lower.tail", true)?;
    let log_p = args.bool_or("log.p", false)?;
    if q.iter().all(|&x| x.is_nan() || !(-1.0..=1.0).contains(&x)) {
        // R returns before it looks at `sizes`.
        return Ok(Value::Num(vec![NA; q.len()]));
    }
    let s = setup(args)?;
    Ok(Value::Num(psmirnov(&q, &s, lower, log_p, ctx)?))
}

/// R 4.2.2's `psmirnov` (stats' ks.test.R) without simulation.
fn psmirnov(
    q: &[f64],
    s: &Setup,
    lower: bool,
    log_p: bool,
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    let in_range = |x: f64| !x.is_nan() && (-1.0..=1.0).contains(&x);
    let ind: Vec<usize> = (0..q.len()).filter(|&i| in_range(q[i])).collect();
    let mut ret: Vec<f64> = q
        .iter()
        .map(|&x| if in_range(x) { 0.0 } else { NA })
        .collect();
    let (nx, ny) = (s.nx, s.ny);
    if s.exact && nx * ny * ind.len() as f64 > 1e12 {
        return Err(KernelError::new(
            "an exact Smirnov probability over more than 10^12 lattice steps is refused: \
             R would count for hours; use exact = FALSE",
        ));
    }
    // Lower-tail probabilities (before the log and complement): the last
    // step is R's four-way `if` on log.p and lower.tail.
    let tails = |ret: Vec<f64>, denom: Option<f64>| -> Vec<f64> {
        ret.into_iter()
            .map(|r| match (denom, log_p, lower) {
                (None, true, true) => r.ln(),
                (None, false, true) => r,
                (None, true, false) => (-r).ln_1p(),
                (None, false, false) => 1.0 - r,
                (Some(d), true, true) => r.ln() - d,
                (Some(d), false, true) => r / d.exp(),
                (Some(d), true, false) => (-r / d.exp()).ln_1p(),
                (Some(d), false, false) => 1.0 - r / d.exp(),
            })
            .collect()
    };
    if !s.exact {
        let n = nx * ny / (nx + ny);
        if s.two_sided {
            for &i in &ind {
                ret[i] = pkstwo(n.sqrt() * q[i], 1e-6);
            }
            for (r, &x) in ret.iter_mut().zip(q) {
                if x < f64::EPSILON {
                    *r = 0.0;
                }
            }
        } else {
            // R assigns 1 - exp(-2 n q^2) of every q to ret[IND]: with q
            // out of range, the first length(IND) values, as R recycles.
            if ind.len() < q.len() && !ind.is_empty() {
                ctx.warn("number of items to replace is not a multiple of replacement length");
            }
            for (k, &i) in ind.iter().enumerate() {
                ret[i] = 1.0 - (-2.0 * n * (q[k] * q[k])).exp();
            }
        }
        return Ok(tails(ret, None));
    }
    let Some(z) = &s.z else {
        // ks.c's pSmirnov2x: two-sided whatever `two.sided` says, as in R.
        for &i in &ind {
            super::check_cancel(ctx.cancel)?;
            ret[i] = psmirnov2x(q[i], nx as i32, ny as i32);
        }
        return Ok(tails(ret, None));
    };
    let big_n = (nx + ny) as usize;
    // TIES <- c(diff(sort(z)) != 0, TRUE); NA past its end.
    let mut sorted: Vec<f64> = z.iter().copied().filter(|x| !x.is_nan()).collect();
    sorted.sort_by(f64::total_cmp);
    let mut ties: Vec<bool> = sorted.windows(2).map(|w| w[1] - w[0] != 0.0).collect();
    ties.push(true);
    if ties.len() < big_n {
        return Err(KernelError::new(NA_CONDITION));
    }
    for &i in &ind {
        super::check_cancel(ctx.cancel)?;
        let stat = smirnov_stat(q[i], nx, ny);
        ret[i] = smirnov_paths(stat, nx as usize, ny as usize, &ties, s.two_sided);
        if !ret[i].is_finite() {
            return Err(KernelError::new(
                "computation of exact probability failed: R would return a Monte Carlo \
                 approximation, drawn from the random stream, which psmirnov may not do here",
            ));
        }
    }
    Ok(tails(ret, Some(smirnov_log_denominator(nx, ny))))
}

/// qsmirnov's lattice of statistics: every `i/n.x - j/n.y`, sorted and
/// unique (absolute, not made unique again, when two-sided), or a grid of
/// 20001 points from 10^4 pairs on.
fn statistics(nx: f64, ny: f64, two_sided: bool) -> Vec<f64> {
    let mut stat: Vec<f64> = if nx * ny < 10000.0 {
        let (m, n) = (nx as usize, ny as usize);
        let mut v = Vec::with_capacity((m + 1) * (n + 1));
        for j in 0..=n {
            for i in 0..=m {
                v.push(i as f64 / nx - j as f64 / ny);
            }
        }
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    } else {
        (-10000..=10000).map(|k| f64::from(k) / 10001.0).collect()
    };
    if two_sided {
        for s in &mut stat {
            *s = s.abs();
        }
    }
    stat
}

fn qsmirnov_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    refuse_simulate(args)?;
    let sizes = args
        .get("sizes")
        .and_then(Value::as_f64_slice)
        .map(std::borrow::Cow::into_owned)
        .unwrap_or_default();
    // R computes the lattice from sizes[1] and sizes[2] before psmirnov
    // checks them.
    let (nx, ny) = (
        sizes.first().copied().unwrap_or(NA).floor(),
        sizes.get(1).copied().unwrap_or(NA).floor(),
    );
    if (nx * ny).is_nan() {
        return Err(KernelError::new(NA_CONDITION));
    }
    let s = setup(args)?;
    let stat = statistics(s.nx, s.ny, s.two_sided);
    let prb = psmirnov(&stat, &s, true, false, ctx)?;
    let p = match args.get("p") {
        Some(Value::Null) => {
            return Ok(Value::List(List::named(vec![
                ("stat", Value::Num(stat)),
                ("prob", Value::Num(prb)),
            ])))
        }
        _ => numeric_arg(args, "p")?,
    };
    let mut warned = false;
    let out = p
        .iter()
        .map(|&u| {
            if u.is_nan() || !(0.0..=1.0).contains(&u) {
                return NA;
            }
            // min(stat[prb >= u]): an NA probability makes the subset NA.
            let mut m = f64::INFINITY;
            let mut any = false;
            for (&st, &pr) in stat.iter().zip(&prb) {
                if pr.is_nan() {
                    return NA;
                }
                if pr >= u {
                    m = m.min(st);
                    any = true;
                }
            }
            if !any && !warned {
                warned = true;
            }
            m
        })
        .collect();
    if warned {
        ctx.warn("no non-missing arguments to min; returning Inf");
    }
    Ok(Value::Num(out))
}

fn qsmirnov_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match a.get("p") {
        Some(Type::Null) => Type::record(
            "list",
            vec![("stat", Type::num_unknown()), ("prob", Type::num_unknown())],
        ),
        p => Type::Num {
            len: p.and_then(Type::len),
            value: None,
        },
    })
}

fn rsmirnov_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = a
        .get("n")
        .and_then(Type::const_scalar)
        .filter(|n| n.is_finite() && *n >= 0.0);
    Ok(Type::Num {
        len: n.map(|n| n.floor() as usize),
        value: None,
    })
}

/// R 4.2.2's `rsmirnov` (ks.test.R), its tables drawn by ks.c's
/// `Smirnov_sim`.
fn rsmirnov_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = args.scalar("n")?;
    if n.is_nan() {
        return Err(KernelError::new(NA_CONDITION));
    }
    if n < 0.0 {
        return Err(KernelError::new("invalid arguments"));
    }
    if n == 0.0 {
        return Ok(Value::Num(Vec::new()));
    }
    let n = n.floor();
    let (nx, ny) = sample_sizes(args)?;
    super::alloc::ensure_room((nx + ny) * 24.0)?;
    let rows: Vec<f64> = match pooled(args)? {
        None => vec![1.0; (nx + ny) as usize],
        // table(z): the count of each distinct value, NA left out.
        Some(z) => {
            let mut sorted: Vec<f64> = z.into_iter().filter(|x| !x.is_nan()).collect();
            sorted.sort_by(f64::total_cmp);
            let mut counts: Vec<f64> = Vec::new();
            for (k, x) in sorted.iter().enumerate() {
                if k > 0 && sorted[k - 1] == *x {
                    if let Some(c) = counts.last_mut() {
                        *c += 1.0;
                    }
                } else {
                    counts.push(1.0);
                }
            }
            counts
        }
    };
    if rows.iter().sum::<f64>() != nx + ny {
        return Err(KernelError::new(format!(
            "'z' must hold the {} pooled values of both samples: R draws tables \
             whose margins disagree otherwise",
            nx + ny
        )));
    }
    if n > 1e9 {
        return Err(KernelError::new(
            "more than 10^9 statistics are not supported (each is a random table)",
        ));
    }
    let two_sided = args.bool_or("two.sided", true)?;
    let out = super::htest::simulate::smirnov_sim(&rows, &[nx, ny], n as usize, two_sided, ctx)?;
    Ok(Value::Num(out))
}
