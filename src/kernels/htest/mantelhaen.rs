//! `mantelhaen.test(x, y, z)`: R 4.2's Cochran-Mantel-Haenszel tests of
//! conditional independence in the table of three factors: for 2 x 2 x K
//! the Mantel-Haenszel test with the common odds ratio's estimate and
//! interval, or (`exact = TRUE`) the exact conditional test (d2x2xk.c
//! ported, the estimate and interval by `uniroot`); otherwise the
//! generalized I x J x K test. `x` is either the I x J x K table itself (a
//! 3-dimensional array, as `table` or `xtabs` of three factors give) or the
//! first of three factors.

use super::super::arrays::array_dims;
use super::super::factor::{as_factor, drop_unused};
use super::super::linalg::linpack::{dqrdc2, dqrsl, Job};
use super::super::names::bare;
use super::super::nmath::dfun::dhyper;
use super::super::nmath::qnorm::qnorm;
use super::super::nmath::{pchisq, pnorm};
use super::super::summary::ldouble::{self, LongDouble};
use super::uniroot::uniroot;
use super::{alternative, Alternative};
use crate::kernels::value::{Factor, List};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(Type::Mat { .. }) = args.ty("x") {
        return Err(args.error("x", "'x' must be a 3-dimensional array"));
    }
    // The fields depend on the table's dimensions: known when it runs.
    Ok(Type::Any)
}

/// The I x J x K counts, `t[i + I * (j + J * k)]` as R's array.
struct Table {
    i: usize,
    j: usize,
    k: usize,
    t: Vec<f64>,
}

impl Table {
    fn at(&self, i: usize, j: usize, k: usize) -> f64 {
        self.t[i + self.i * (j + self.j * k)]
    }
}

fn factor_of(v: &Value) -> Result<Factor, KernelError> {
    as_factor(bare(v)).map_err(|_| {
        KernelError::new(format!(
            "flowcast's mantelhaen.test takes factors or vectors, not {}",
            v.type_name()
        ))
    })
}

/// `table(factor(x[OK]), factor(y[OK]), z[OK])` over the complete cases.
fn table(x: &Value, y: &Value, z: &Value) -> Result<Table, KernelError> {
    if x.len() != y.len() || y.len() != z.len() {
        return Err(KernelError::new(
            "'x', 'y', and 'z' must have the same length",
        ));
    }
    let (fx, fy, fz) = (factor_of(x)?, factor_of(y)?, factor_of(z)?);
    let ok: Vec<usize> = (0..fx.codes.len())
        .filter(|&i| fx.codes[i].is_some() && fy.codes[i].is_some() && fz.codes[i].is_some())
        .collect();
    let keep = |f: &Factor| Factor {
        codes: ok.iter().map(|&i| f.codes[i]).collect(),
        levels: f.levels.clone(),
        ordered: false,
    };
    let (fx, fy) = (drop_unused(&keep(&fx)), drop_unused(&keep(&fy)));
    // table() keeps a factor's levels, used or not; other values become
    // factor(z[OK]).
    let fz = if matches!(bare(z), Value::Factor(_)) {
        keep(&fz)
    } else {
        drop_unused(&keep(&fz))
    };
    if fx.levels.len() < 2 || fy.levels.len() < 2 {
        return Err(KernelError::new("'x' and 'y' must have at least 2 levels"));
    }
    let (i, j, k) = (fx.levels.len(), fy.levels.len(), fz.levels.len());
    super::super::alloc::ensure_room(8.0 * i as f64 * j as f64 * k as f64)?;
    let mut t = vec![0.0; i * j * k];
    for ((a, b), c) in fx.codes.iter().zip(&fy.codes).zip(&fz.codes) {
        if let (Some(a), Some(b), Some(c)) = (a, b, c) {
            t[*a as usize + i * (*b as usize + j * *c as usize)] += 1.0;
        }
    }
    Ok(Table { i, j, k, t })
}

/// The table form: `x` a 3-dimensional array of counts, checked as R's
/// `is.array(x)` branch does. `None` when `x` is no array (the factor form).
fn array_table(x: &Value) -> Result<Option<Table>, KernelError> {
    if matches!(x, Value::Mat(_) | Value::BoolMat(_)) {
        return Err(KernelError::new("'x' must be a 3-dimensional array"));
    }
    if let Value::Named(n) = x {
        if n.attrs.iter().any(|(k, _)| k == "dim") {
            let Some(dims) = array_dims(x).filter(|d| d.len() == 3) else {
                return Err(KernelError::new("'x' must be a 3-dimensional array"));
            };
            let t: Vec<f64> = match n.value.as_f64_slice() {
                Some(v) => v.into_owned(),
                None => return Err(KernelError::new("'x' must be a 3-dimensional array")),
            };
            if t.iter().any(|v| v.is_nan()) {
                return Err(KernelError::new("NAs are not allowed"));
            }
            if dims.iter().any(|&d| d < 2) {
                return Err(KernelError::new("each dimension in table must be >= 2"));
            }
            return Ok(Some(Table {
                i: dims[0],
                j: dims[1],
                k: dims[2],
                t,
            }));
        }
    }
    Ok(None)
}

/// The factor form: `x`, `y` and `z` tabulated over their complete cases.
fn factors_table(x: &Value, args: &Args<&Value>) -> Result<Table, KernelError> {
    let y = match args.get("y") {
        None | Some(Value::Null) => {
            return Err(KernelError::new(
                "if 'x' is not an array, 'y' must be given",
            ))
        }
        Some(y) => y,
    };
    let z = match args.get("z") {
        None | Some(Value::Null) => {
            return Err(KernelError::new(
                "if 'x' is not an array, 'z' must be given",
            ))
        }
        Some(z) => z,
    };
    table(x, y, z)
}

fn sum(v: &[f64]) -> f64 {
    ldouble::sum(v).to_f64()
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let t = match array_table(x)? {
        Some(t) => t,
        None => factors_table(x, args)?,
    };
    for k in 0..t.k {
        let s: f64 = t.t[k * t.i * t.j..(k + 1) * t.i * t.j].iter().sum();
        if s < 2.0 {
            return Err(KernelError::new("sample size in each stratum must be > 1"));
        }
    }
    if t.i == 2 && t.j == 2 {
        let alt = alternative(args)?;
        let conf = match args.get("conf.level") {
            None => 0.95,
            Some(v) => match v.as_f64_slice().as_deref() {
                Some(&[c]) if c.is_finite() && (0.0..=1.0).contains(&c) => c,
                _ => {
                    return Err(KernelError::new(
                        "'conf.level' must be a single number between 0 and 1",
                    ))
                }
            },
        };
        let exact = args.bool_or("exact", false)?;
        return if exact {
            exact_2x2xk(&t, alt, conf)
        } else {
            classical(&t, alt, conf, args.bool_or("correct", true)?)
        };
    }
    generalized(&t)
}

/// The Mantel-Haenszel test and the Mantel-Haenszel estimate of the
/// common odds ratio, with Robins et al.'s (1986) interval.
fn classical(t: &Table, alt: Alternative, conf: f64, correct: bool) -> Result<Value, KernelError> {
    let k = t.k;
    let x11: Vec<f64> = (0..k).map(|s| t.at(0, 0, s)).collect();
    let x12: Vec<f64> = (0..k).map(|s| t.at(0, 1, s)).collect();
    let x21: Vec<f64> = (0..k).map(|s| t.at(1, 0, s)).collect();
    let x22: Vec<f64> = (0..k).map(|s| t.at(1, 1, s)).collect();
    let sx1: Vec<f64> = (0..k).map(|s| x11[s] + x12[s]).collect();
    let sx2: Vec<f64> = (0..k).map(|s| x21[s] + x22[s]).collect();
    let sy1: Vec<f64> = (0..k).map(|s| x11[s] + x21[s]).collect();
    let sy2: Vec<f64> = (0..k).map(|s| x12[s] + x22[s]).collect();
    let n: Vec<f64> = (0..k).map(|s| sx1[s] + sx2[s]).collect();
    let delta = sum(&(0..k)
        .map(|s| x11[s] - sx1[s] * sy1[s] / n[s])
        .collect::<Vec<f64>>());
    let yates = if correct && delta.abs() >= 0.5 {
        0.5
    } else {
        0.0
    };
    // apply(rbind(s.x, s.y), 2L, prod): a long-double product per stratum.
    let var = sum(&(0..k)
        .map(|s| {
            let p = [sx1[s], sx2[s], sy1[s], sy2[s]]
                .iter()
                .fold(LongDouble::from_f64(1.0), |p, &v| {
                    p.mul(LongDouble::from_f64(v))
                })
                .to_f64();
            p / (n[s] * n[s] * (n[s] - 1.0))
        })
        .collect::<Vec<f64>>());
    let d = delta.abs() - yates;
    let statistic = d * d / var;
    let pval = match alt {
        Alternative::TwoSided => pchisq(statistic, 1.0, false, false),
        _ => {
            let z = delta.signum() * statistic.sqrt();
            let z = if delta == 0.0 {
                0.0 * statistic.sqrt()
            } else {
                z
            };
            pnorm(z, 0.0, 1.0, alt == Alternative::Less, false)
        }
    };
    let method = format!(
        "Mantel-Haenszel chi-squared test {} continuity correction",
        if yates != 0.0 { "with" } else { "without" }
    );
    let per = |f: &dyn Fn(usize) -> f64| sum(&(0..k).map(f).collect::<Vec<f64>>());
    let s_diag = per(&|s| x11[s] * x22[s] / n[s]);
    let s_offd = per(&|s| x12[s] * x21[s] / n[s]);
    let estimate = s_diag / s_offd;
    let n2 = |s: usize| n[s] * n[s];
    let sd = (per(&|s| (x11[s] + x22[s]) * x11[s] * x22[s] / n2(s)) / (2.0 * (s_diag * s_diag))
        + per(&|s| {
            ((x11[s] + x22[s]) * x12[s] * x21[s] + (x12[s] + x21[s]) * x11[s] * x22[s]) / n2(s)
        }) / (2.0 * s_diag * s_offd)
        + per(&|s| (x12[s] + x21[s]) * x12[s] * x21[s] / n2(s)) / (2.0 * (s_offd * s_offd)))
        .sqrt();
    let cint = match alt {
        Alternative::Less => vec![
            0.0,
            estimate * (qnorm(conf, 0.0, 1.0, true, false) * sd).exp(),
        ],
        Alternative::Greater => vec![
            estimate * (qnorm(conf, 0.0, 1.0, false, false) * sd).exp(),
            f64::INFINITY,
        ],
        Alternative::TwoSided => {
            let q = qnorm((1.0 - conf) / 2.0, 0.0, 1.0, true, false);
            vec![estimate * (q * sd).exp(), estimate * ((-q) * sd).exp()]
        }
    };
    Ok(Value::List(List::record(
        "htest",
        vec![
            (
                "statistic",
                super::nm(statistic, "Mantel-Haenszel X-squared"),
            ),
            ("parameter", super::nm(1.0, "df")),
            ("p.value", Value::scalar(pval)),
            ("conf.int", Value::Num(cint)),
            ("estimate", super::nm(estimate, "common odds ratio")),
            ("null.value", super::nm(1.0, "common odds ratio")),
            ("alternative", Value::string(alt.r_name())),
            ("method", Value::string(&method)),
        ],
    )))
}

/// d2x2xk.c's `int_d2x2xk`: the central product hypergeometric density
/// of sum(x[1, 1, ]) on its support, convolved stratum by stratum (two
/// rows of R's `c` kept, the ones it reads).
fn d2x2xk(m: &[f64], n: &[f64], t: &[f64]) -> Vec<f64> {
    let mut c = vec![1.0];
    let mut l = 0usize;
    for s in 0..m.len() {
        let y = 0i64.max((t[s] - n[s]) as i64);
        let z = (m[s] as i64).min(t[s] as i64);
        let width = (z - y).max(-1);
        let mut next = vec![0.0; (l as i64 + width + 1).max(0) as usize];
        for j in 0..=width {
            let u = dhyper((j + y) as f64, m[s], n[s], t[s], false);
            for (w, cw) in c.iter().enumerate().take(l + 1) {
                if let Some(cell) = next.get_mut(w + j as usize) {
                    *cell += cw * u;
                }
            }
        }
        l = (l as i64 + z - y).max(0) as usize;
        c = next;
    }
    let mut u = 0.0;
    for v in &c {
        u += v;
    }
    c.iter().map(|v| v / u).collect()
}

/// The exact conditional test's distribution of S = sum(x[1, 1, ]) given
/// the strata's margins, `P(S = s) ∝ d(s) or^s` on lo..=hi.
struct Exact {
    lo: f64,
    hi: f64,
    support: Vec<f64>,
    dc: Vec<f64>,
    logdc: Vec<f64>,
}

impl Exact {
    fn dn(&self, ncp: f64) -> Vec<f64> {
        if ncp == 1.0 {
            return self.dc.clone();
        }
        let d: Vec<f64> = self
            .logdc
            .iter()
            .zip(&self.support)
            .map(|(l, s)| l + ncp.ln() * s)
            .collect();
        let mx = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = d.iter().map(|v| (v - mx).exp()).collect();
        let s = sum(&e);
        e.iter().map(|v| v / s).collect()
    }

    fn mn(&self, ncp: f64) -> f64 {
        if ncp == 0.0 {
            return self.lo;
        }
        if ncp == f64::INFINITY {
            return self.hi;
        }
        let d = self.dn(ncp);
        sum(&self
            .support
            .iter()
            .zip(&d)
            .map(|(s, d)| s * d)
            .collect::<Vec<f64>>())
    }

    fn pn(&self, q: f64, ncp: f64, upper: bool) -> f64 {
        if ncp == 0.0 {
            return f64::from(u8::from(if upper { q <= self.lo } else { q >= self.lo }));
        }
        if ncp == f64::INFINITY {
            return f64::from(u8::from(if upper { q <= self.hi } else { q >= self.hi }));
        }
        let d = self.dn(ncp);
        let kept: Vec<f64> = d
            .iter()
            .zip(&self.support)
            .filter(|(_, &s)| if upper { s >= q } else { s <= q })
            .map(|(&d, _)| d)
            .collect();
        sum(&kept)
    }
}

/// `uniroot(f, c(lower, upper))$root` at R's default tolerance.
fn zeroin(lower: f64, upper: f64, f: &dyn Fn(f64) -> f64) -> Result<f64, KernelError> {
    let (fl, fu) = (f(lower), f(upper));
    uniroot(&mut |t| f(t), lower, upper, fl, fu, f64::EPSILON.powf(0.25))
}

fn exact_2x2xk(t: &Table, alt: Alternative, conf: f64) -> Result<Value, KernelError> {
    let k = t.k;
    // mn <- apply(x, c(2, 3), sum): column sums; t: first row sums.
    let m: Vec<f64> = (0..k).map(|s| t.at(0, 0, s) + t.at(1, 0, s)).collect();
    let n: Vec<f64> = (0..k).map(|s| t.at(0, 1, s) + t.at(1, 1, s)).collect();
    let tt: Vec<f64> = (0..k).map(|s| t.at(0, 0, s) + t.at(0, 1, s)).collect();
    let s = sum(&(0..k).map(|s| t.at(0, 0, s)).collect::<Vec<f64>>());
    let lo = sum(&(0..k)
        .map(|i| (tt[i] - n[i]).max(0.0))
        .collect::<Vec<f64>>());
    let hi = sum(&(0..k).map(|i| m[i].min(tt[i])).collect::<Vec<f64>>());
    let support: Vec<f64> = (0..=(hi - lo) as usize).map(|i| lo + i as f64).collect();
    let mut dc = d2x2xk(&m, &n, &tt);
    dc.resize(support.len(), 0.0);
    let logdc = dc.iter().map(|d| d.ln()).collect();
    let e = Exact {
        lo,
        hi,
        support,
        dc,
        logdc,
    };
    let pval = match alt {
        Alternative::Less => e.pn(s, 1.0, false),
        Alternative::Greater => e.pn(s, 1.0, true),
        Alternative::TwoSided => {
            let rel_err = 1.0 + 10f64.powf(-7.0);
            let at = e.dc[(s - lo) as usize] * rel_err;
            sum(&e
                .dc
                .iter()
                .copied()
                .filter(|d| *d <= at)
                .collect::<Vec<f64>>())
        }
    };
    let mle = |x: f64| -> Result<f64, KernelError> {
        if x == lo {
            return Ok(0.0);
        }
        if x == hi {
            return Ok(f64::INFINITY);
        }
        let mu = e.mn(1.0);
        if mu > x {
            zeroin(0.0, 1.0, &|t| e.mn(t) - x)
        } else if mu < x {
            Ok(1.0 / zeroin(f64::EPSILON, 1.0, &|t| e.mn(1.0 / t) - x)?)
        } else {
            Ok(1.0)
        }
    };
    let estimate = mle(s)?;
    let ncp_u = |x: f64, alpha: f64| -> Result<f64, KernelError> {
        if x == hi {
            return Ok(f64::INFINITY);
        }
        let p = e.pn(x, 1.0, false);
        if p < alpha {
            zeroin(0.0, 1.0, &|t| e.pn(x, t, false) - alpha)
        } else if p > alpha {
            Ok(1.0 / zeroin(f64::EPSILON, 1.0, &|t| e.pn(x, 1.0 / t, false) - alpha)?)
        } else {
            Ok(1.0)
        }
    };
    let ncp_l = |x: f64, alpha: f64| -> Result<f64, KernelError> {
        if x == lo {
            return Ok(0.0);
        }
        let p = e.pn(x, 1.0, true);
        if p > alpha {
            zeroin(0.0, 1.0, &|t| e.pn(x, t, true) - alpha)
        } else if p < alpha {
            Ok(1.0 / zeroin(f64::EPSILON, 1.0, &|t| e.pn(x, 1.0 / t, true) - alpha)?)
        } else {
            Ok(1.0)
        }
    };
    let cint = match alt {
        Alternative::Less => vec![0.0, ncp_u(s, 1.0 - conf)?],
        Alternative::Greater => vec![ncp_l(s, 1.0 - conf)?, f64::INFINITY],
        Alternative::TwoSided => {
            let alpha = (1.0 - conf) / 2.0;
            vec![ncp_l(s, alpha)?, ncp_u(s, alpha)?]
        }
    };
    Ok(Value::List(List::record(
        "htest",
        vec![
            ("statistic", super::nm(s, "S")),
            ("p.value", Value::scalar(pval)),
            ("conf.int", Value::Num(cint)),
            ("estimate", super::nm(estimate, "common odds ratio")),
            ("null.value", super::nm(1.0, "common odds ratio")),
            ("alternative", Value::string(alt.r_name())),
            (
                "method",
                Value::string("Exact conditional test of independence in 2 x 2 x k tables"),
            ),
        ],
    )))
}

/// The generalized Cochran-Mantel-Haenszel I x J x K test (Agresti 2002,
/// pp. 295ff), its quadratic form by R's `qr.solve` (LINPACK dqrdc2).
fn generalized(t: &Table) -> Result<Value, KernelError> {
    let (ni, nj) = (t.i, t.j);
    let (ri, rj) = (ni - 1, nj - 1);
    let df = ri * rj;
    super::super::alloc::ensure_room(8.0 * df as f64 * df as f64 * 3.0)?;
    let mut n = vec![0.0; df];
    let mut m = vec![0.0; df];
    let mut v = vec![0.0; df * df];
    for k in 0..t.k {
        let cells: Vec<f64> = (0..nj)
            .flat_map(|j| (0..ni).map(move |i| (i, j)))
            .map(|(i, j)| t.at(i, j, k))
            .collect();
        let ntot = sum(&cells);
        let rows: Vec<f64> = (0..ri)
            .map(|i| sum(&(0..nj).map(|j| t.at(i, j, k)).collect::<Vec<f64>>()))
            .collect();
        let cols: Vec<f64> = (0..rj)
            .map(|j| sum(&(0..ni).map(|i| t.at(i, j, k)).collect::<Vec<f64>>()))
            .collect();
        for j in 0..rj {
            for i in 0..ri {
                n[i + ri * j] += t.at(i, j, k);
                m[i + ri * j] += rows[i] * cols[j] / ntot;
            }
        }
        // kronecker(diag(ntot * colsums) - outer(colsums, colsums),
        //           diag(ntot * rowsums) - outer(rowsums, rowsums))
        let a = |p: usize, q: usize| {
            let d = if p == q { ntot * cols[p] } else { 0.0 };
            d - cols[p] * cols[q]
        };
        let b = |p: usize, q: usize| {
            let d = if p == q { ntot * rows[p] } else { 0.0 };
            d - rows[p] * rows[q]
        };
        let scale = ntot * ntot * (ntot - 1.0);
        for c in 0..df {
            for r in 0..df {
                let kr = a(r / ri, c / ri) * b(r % ri, c % ri);
                v[r + df * c] += kr / scale;
            }
        }
    }
    for (a, b) in n.iter_mut().zip(&m) {
        *a -= b;
    }
    let qr = dqrdc2(v, df, df, 1e-7);
    if qr.rank != df {
        return Err(KernelError::new("singular matrix 'a' in solve"));
    }
    let solved = dqrsl(
        &qr,
        df,
        &n,
        Job {
            qty: true,
            b: true,
            ..Job::default()
        },
    );
    if solved.info != 0 {
        return Err(KernelError::new("exact singularity in 'qr.coef'"));
    }
    let mut coef = vec![0.0; df];
    for (i, &p) in qr.pivot.iter().enumerate() {
        coef[p - 1] = solved.b[i];
    }
    let mut statistic = 0.0;
    for (a, b) in n.iter().zip(&coef) {
        statistic += a * b;
    }
    let parameter = df as f64;
    Ok(Value::List(List::record(
        "htest",
        vec![
            (
                "statistic",
                super::nm(statistic, "Cochran-Mantel-Haenszel M^2"),
            ),
            ("parameter", super::nm(parameter, "df")),
            (
                "p.value",
                Value::scalar(pchisq(statistic, parameter, false, false)),
            ),
            ("method", Value::string("Cochran-Mantel-Haenszel test")),
        ],
    )))
}
