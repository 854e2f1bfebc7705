//! `fisher.test(x)`: for a 2x2 table R 4.2's R code line by line (the
//! conditional MLE of the odds ratio and its interval found by `uniroot`,
//! i.e. R's `R_zeroin2` with R's default tolerance, so the estimate is
//! R's to the last bit); for an r x c table the exact p-value by R's network
//! algorithm (fexact.rs, a port of fexact.c), bit for bit.

use super::fexact::{fexact, Hybrid};
use super::ttest::conf_level;
use super::uniroot::uniroot;
use crate::kernels::nmath::dfun::{dhyper, phyper};
use crate::kernels::nmath::gamma::lgammafn;
use crate::kernels::value::List;
use crate::kernels::vector::sprintf::format_g;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

/// R's `uniroot(f, c(lower, upper))$root` at its default tolerance.
fn zeroin(lower: f64, upper: f64, f: &dyn Fn(f64) -> f64) -> Result<f64, KernelError> {
    let (fl, fu) = (f(lower), f(upper));
    uniroot(&mut |t| f(t), lower, upper, fl, fu, f64::EPSILON.powf(0.25))
}

/// The 2x2 test's pieces: the support of x[1, 1] and its log densities.
struct Hyper {
    m: f64,
    n: f64,
    k: f64,
    x: f64,
    lo: f64,
    hi: f64,
    support: Vec<f64>,
    logdc: Vec<f64>,
}

impl Hyper {
    fn dnhyper(&self, ncp: f64) -> Vec<f64> {
        let d: Vec<f64> = self
            .logdc
            .iter()
            .zip(&self.support)
            .map(|(l, s)| l + ncp.ln() * s)
            .collect();
        let mx = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = d.iter().map(|v| (v - mx).exp()).collect();
        let s = rsum(&e);
        e.iter().map(|v| v / s).collect()
    }

    fn mnhyper(&self, ncp: f64) -> f64 {
        if ncp == 0.0 {
            return self.lo;
        }
        if ncp == f64::INFINITY {
            return self.hi;
        }
        let d = self.dnhyper(ncp);
        rsum(
            &self
                .support
                .iter()
                .zip(&d)
                .map(|(s, d)| s * d)
                .collect::<Vec<f64>>(),
        )
    }

    fn pnhyper(&self, q: f64, ncp: f64, upper: bool) -> f64 {
        if ncp == 1.0 {
            return if upper {
                phyper(self.x - 1.0, self.m, self.n, self.k, false, false)
            } else {
                phyper(self.x, self.m, self.n, self.k, true, false)
            };
        }
        if ncp == 0.0 {
            return f64::from(u8::from(if upper { q <= self.lo } else { q >= self.lo }));
        }
        if ncp == f64::INFINITY {
            return f64::from(u8::from(if upper { q <= self.hi } else { q >= self.hi }));
        }
        let d = self.dnhyper(ncp);
        let kept: Vec<f64> = d
            .iter()
            .zip(&self.support)
            .filter(|(_, &s)| if upper { s >= q } else { s <= q })
            .map(|(&d, _)| d)
            .collect();
        rsum(&kept)
    }
}

fn rsum(x: &[f64]) -> f64 {
    crate::kernels::nmath::rsum(x)
}

fn two_by_two(
    t: &[f64],
    alt: &str,
    or: f64,
    conf: Option<f64>,
) -> Result<Vec<(&'static str, Value)>, KernelError> {
    let m = t[0] + t[1];
    let n = t[2] + t[3];
    let k = t[0] + t[2];
    let x = t[0];
    let lo = (k - n).max(0.0);
    let hi = k.min(m);
    let support: Vec<f64> = (0..=(hi - lo) as usize).map(|i| lo + i as f64).collect();
    let logdc = support.iter().map(|&s| dhyper(s, m, n, k, true)).collect();
    let h = Hyper {
        m,
        n,
        k,
        x,
        lo,
        hi,
        support,
        logdc,
    };
    let pval = match alt {
        "less" => h.pnhyper(x, or, false),
        "greater" => h.pnhyper(x, or, true),
        _ => {
            if or == 0.0 {
                f64::from(u8::from(x == lo))
            } else if or == f64::INFINITY {
                f64::from(u8::from(x == hi))
            } else {
                let rel_err = 1.0 + 1e-7;
                let d = h.dnhyper(or);
                let dx = d[(x - lo) as usize];
                rsum(
                    &d.iter()
                        .copied()
                        .filter(|&v| v <= dx * rel_err)
                        .collect::<Vec<f64>>(),
                )
            }
        }
    };
    let mle = if x == lo {
        0.0
    } else if x == hi {
        f64::INFINITY
    } else {
        let mu = h.mnhyper(1.0);
        if mu > x {
            zeroin(0.0, 1.0, &|t| h.mnhyper(t) - x)?
        } else if mu < x {
            1.0 / zeroin(f64::EPSILON, 1.0, &|t| h.mnhyper(1.0 / t) - x)?
        } else {
            1.0
        }
    };
    let mut fields = vec![("p.value", Value::scalar(pval))];
    if let Some(conf) = conf {
        let ncp_u = |alpha: f64| -> Result<f64, KernelError> {
            if x == hi {
                return Ok(f64::INFINITY);
            }
            let p = h.pnhyper(x, 1.0, false);
            Ok(if p < alpha {
                zeroin(0.0, 1.0, &|t| h.pnhyper(x, t, false) - alpha)?
            } else if p > alpha {
                1.0 / zeroin(f64::EPSILON, 1.0, &|t| h.pnhyper(x, 1.0 / t, false) - alpha)?
            } else {
                1.0
            })
        };
        let ncp_l = |alpha: f64| -> Result<f64, KernelError> {
            if x == lo {
                return Ok(0.0);
            }
            let p = h.pnhyper(x, 1.0, true);
            Ok(if p > alpha {
                zeroin(0.0, 1.0, &|t| h.pnhyper(x, t, true) - alpha)?
            } else if p < alpha {
                1.0 / zeroin(f64::EPSILON, 1.0, &|t| h.pnhyper(x, 1.0 / t, true) - alpha)?
            } else {
                1.0
            })
        };
        let cint = match alt {
            "less" => vec![0.0, ncp_u(1.0 - conf)?],
            "greater" => vec![ncp_l(1.0 - conf)?, f64::INFINITY],
            _ => {
                let alpha = (1.0 - conf) / 2.0;
                vec![ncp_l(alpha)?, ncp_u(alpha)?]
            }
        };
        fields.push(("conf.int", Value::Num(cint)));
    } else {
        fields.push(("conf.int", Value::Null));
    }
    fields.push(("estimate", super::nm(mle, "odds ratio")));
    fields.push(("null.value", super::nm(or, "odds ratio")));
    Ok(fields)
}

const MAX_WORKSPACE: f64 = 268_435_456.0;

/// fisher.test's exact r x c p-value: `.Call(C_Fexact, x, pars,
/// workspace, mult)` with R's arguments, clamped to [0, 1] as R clamps it.
fn rxc_pvalue(
    t: &[f64],
    nr: usize,
    nc: usize,
    hybrid: &Hybrid,
    args: &Args<&Value>,
) -> Result<f64, KernelError> {
    // asInteger(workspace): R truncates it.
    let workspace = args.scalar_or("workspace", 200000.0)?;
    if !workspace.is_finite() || workspace.abs() > i32::MAX as f64 {
        return Err(KernelError::new("invalid 'workspace' argument"));
    }
    // The hash tables take about 5 bytes a unit of workspace here.
    if workspace > MAX_WORKSPACE {
        return Err(KernelError::new(format!(
            "flowcast's fisher.test takes a workspace of at most {MAX_WORKSPACE} (about 1.3 GB of tables), not {workspace}"
        )));
    }
    let mult = match args.get("control").map(crate::kernels::names::bare) {
        Some(Value::List(l)) => match l.field("mult") {
            Some(v) => v.as_scalar().unwrap_or(f64::NAN),
            None => 30.0,
        },
        _ => 30.0,
    };
    if mult.is_nan() || (mult.trunc() as i64) < 2 {
        return Err(KernelError::new(
            "'mult' must be integer >= 2, typically = 30",
        ));
    }
    let table: Vec<i64> = t.iter().map(|&v| v as i64).collect();
    let p = fexact(
        &table,
        nr,
        nc,
        hybrid,
        workspace.trunc() as i64,
        mult.trunc() as i64,
    )?;
    Ok(p.clamp(0.0, 1.0))
}

/// fisher.test's `hybrid = TRUE`: hybridPars (expect, percent, Emin) as
/// R's stopifnot checks them, and the method's note.
fn hybrid_of(args: &Args<&Value>) -> Result<Option<Hybrid>, KernelError> {
    if !args.bool_or("hybrid", false)? {
        return Ok(None);
    }
    let p: Vec<f64> = match args.get("hybridPars") {
        None => vec![5.0, 80.0, 1.0],
        Some(v) => v.as_f64_slice().map(|s| s.to_vec()).ok_or_else(|| {
            KernelError::new("is.double(hypp <- as.double(hybridPars)) is not TRUE")
        })?,
    };
    if p.len() != 3 {
        return Err(KernelError::new("length(hypp) == 3L is not TRUE"));
    }
    if p[0].is_nan() || p[0] <= 0.0 {
        return Err(KernelError::new("hypp[1] > 0 is not TRUE"));
    }
    if p[2].is_nan() || p[2] < 0.0 {
        return Err(KernelError::new("hypp[3] >= 0 is not TRUE"));
    }
    if p[1].is_nan() || p[1] < 0.0 {
        return Err(KernelError::new("0 <= hypp[2] is not TRUE"));
    }
    if p[1] > 100.0 {
        return Err(KernelError::new("hypp[2] <= 100 is not TRUE"));
    }
    Ok(Some(Hybrid {
        expect: p[0],
        percnt: p[1],
        emin: p[2],
    }))
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let simulate = args.bool_or("simulate.p.value", false)?;
    let crossed;
    let m = match (args.get("x"), args.get("y")) {
        (Some(Value::Mat(m)), _) => m,
        (Some(x), Some(y)) if !matches!(y, Value::Null) => {
            crossed = super::cross_counts(x, y, false)?;
            &crossed
        }
        _ => {
            return Err(KernelError::new(
                "if 'x' is not a matrix, 'y' must be given",
            ))
        }
    };
    if m.nrows() < 2 || m.ncols() < 2 {
        return Err(KernelError::new(
            "'x' must have at least 2 rows and columns",
        ));
    }
    if m.iter().any(|v| v.is_nan() || *v < 0.0 || v.is_infinite()) {
        return Err(KernelError::new(
            "all entries of 'x' must be nonnegative and finite",
        ));
    }
    if m.iter().any(|v| *v > i32::MAX as f64) {
        return Err(KernelError::new("'x' has entries too large to be integer"));
    }
    // fisher.test's `round(x)` (R rounds a half to even) and its warning
    // quoting all.equal(x, round(x)).
    let t: Vec<f64> = m.iter().map(|v| v.round_ties_even()).collect();
    if t.iter().zip(m.iter()).any(|(a, b)| a != b) {
        let msg = crate::kernels::all_equal::all_equal_messages(
            &Value::Num(m.iter().copied().collect()),
            &Value::Num(t.clone()),
        )?;
        if !msg.is_empty() {
            ctx.warn(format!(
                "'x' has been rounded to integer: {}",
                msg.join(" ")
            ));
        }
    }
    let method = Value::string("Fisher's Exact Test for Count Data");
    if m.nrows() == 2 && m.ncols() == 2 {
        let alt = match args.get("alternative") {
            None => "two.sided",
            Some(Value::Str(s)) if s.len() == 1 => {
                match ["two.sided", "less", "greater"]
                    .into_iter()
                    .filter(|a| !s[0].is_empty() && a.starts_with(s[0].as_str()))
                    .collect::<Vec<_>>()[..]
                {
                    [a] => a,
                    _ => {
                        return Err(KernelError::new(
                            "alternative must be \"two.sided\", \"less\" or \"greater\"",
                        ))
                    }
                }
            }
            Some(_) => {
                return Err(KernelError::new(
                    "alternative must be \"two.sided\", \"less\" or \"greater\"",
                ))
            }
        };
        let conf = conf_level(args, true)?;
        let or = match args.get("or") {
            None => 1.0,
            Some(v) => match v.as_scalar() {
                Some(o) if o >= 0.0 => o,
                _ => {
                    return Err(KernelError::new(
                        "'or' must be a single number between 0 and Inf",
                    ))
                }
            },
        };
        let ci = args.bool_or("conf.int", true)?;
        let mut fields = two_by_two(&t, alt, or, ci.then_some(conf))?;
        fields.push(("alternative", Value::string(alt)));
        fields.push(("method", method));
        return Ok(Value::List(List::record("htest", fields)));
    }
    let (p, method) = if simulate {
        simulated_pvalue(&t, m.nrows(), m.ncols(), args, ctx)?
    } else {
        match hybrid_of(args)? {
            Some(h) => {
                let note = format!(
                    "Fisher's Exact Test for Count Data hybrid using asym.chisq. iff (exp={}, perc={}, Emin={})",
                    format_g(h.expect),
                    format_g(h.percnt),
                    format_g(h.emin)
                );
                (
                    rxc_pvalue(&t, m.nrows(), m.ncols(), &h, args)?,
                    Value::string(&note),
                )
            }
            None => {
                // R's exact test: expect = -1, percnt = 100, emin = 0.
                let exact = Hybrid {
                    expect: -1.0,
                    percnt: 100.0,
                    emin: 0.0,
                };
                (rxc_pvalue(&t, m.nrows(), m.ncols(), &exact, args)?, method)
            }
        }
    };
    Ok(Value::List(List::record(
        "htest",
        vec![
            ("p.value", Value::scalar(p)),
            ("alternative", Value::string("two.sided")),
            ("method", method),
        ],
    )))
}

/// fisher.test's `simulate.p.value = TRUE` for an r x c table: the rows
/// and columns with zero totals dropped, the share of `B` random tables
/// with the same margins that are no more likely than the observed one.
fn simulated_pvalue(
    t: &[f64],
    nr: usize,
    nc: usize,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<(f64, Value), KernelError> {
    let sr: Vec<f64> = (0..nr)
        .map(|i| rsum(&(0..nc).map(|j| t[i + j * nr]).collect::<Vec<f64>>()))
        .collect();
    let sc: Vec<f64> = (0..nc).map(|j| rsum(&t[j * nr..(j + 1) * nr])).collect();
    let rows: Vec<usize> = (0..nr).filter(|&i| sr[i] > 0.0).collect();
    let cols: Vec<usize> = (0..nc).filter(|&j| sc[j] > 0.0).collect();
    if rows.len() <= 1 {
        return Err(KernelError::new("need 2 or more non-zero row marginals"));
    }
    if cols.len() <= 1 {
        return Err(KernelError::new("need 2 or more non-zero column marginals"));
    }
    let (b, bi) = super::simulate::replicates(args, "negative length vectors are not allowed")?;
    let method = super::simulate::method_suffix("Fisher's Exact Test for Count Data", b);
    // STATISTIC <- -sum(lfactorial(x)), over the kept cells.
    let lf: Vec<f64> = cols
        .iter()
        .flat_map(|&j| rows.iter().map(move |&i| t[i + j * nr]))
        .map(|v| lgammafn(v + 1.0))
        .collect();
    let statistic = -rsum(&lf);
    let kept_sr: Vec<f64> = rows.iter().map(|&i| sr[i]).collect();
    let kept_sc: Vec<f64> = cols.iter().map(|&j| sc[j]).collect();
    let sims = super::simulate::fisher_sim(&kept_sr, &kept_sc, bi, ctx)?;
    let almost_1 = 1.0 + 64.0 * f64::EPSILON;
    let reached = sims.iter().filter(|&&s| s <= statistic / almost_1).count();
    let p = (1.0 + reached as f64) / (b + 1.0);
    Ok((p.clamp(0.0, 1.0), Value::string(&method)))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let str1 = || Type::Str {
        len: Some(1),
        value: None,
    };
    match args.ty("x") {
        Some(Type::Mat { rows, cols }) => {
            if rows.is_some_and(|r| r < 2) || cols.is_some_and(|c| c < 2) {
                return Err(args.error("x", "'x' must have at least 2 rows and columns"));
            }
            // A table of levels not known before the run (`table(f, g)`)
            // may be 2x2, whose result has an estimate and interval, so
            // its fields wait for the value.
            let may_be = |d: &Option<usize>| d.is_none_or(|d| d == 2);
            if (rows.is_none() || cols.is_none()) && may_be(rows) && may_be(cols) {
                return Ok(Type::Any);
            }
            if *rows == Some(2) && *cols == Some(2) {
                return Ok(Type::record(
                    "htest",
                    vec![
                        ("p.value", Type::num(1)),
                        ("conf.int", Type::Any),
                        ("estimate", Type::num(1)),
                        ("null.value", Type::num(1)),
                        ("alternative", str1()),
                        ("method", str1()),
                    ],
                ));
            }
        }
        None | Some(Type::Any) => return Ok(Type::Any),
        // table(x, y) of two vectors, of a size known at the run.
        Some(_) if args.ty("y").is_some_and(|y| !matches!(y, Type::Null)) => return Ok(Type::Any),
        Some(t) => {
            return Err(args.error(
                "x",
                format!(
                    "if 'x' is not a matrix, 'y' must be given, not {}",
                    t.describe()
                ),
            ))
        }
    }
    Ok(Type::record(
        "htest",
        vec![
            ("p.value", Type::num(1)),
            ("alternative", str1()),
            ("method", str1()),
        ],
    ))
}
