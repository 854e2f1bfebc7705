//! `cor.test`: Pearson's t with Fisher's z interval, Kendall's tau (exact
//! by `kendall.c`'s `ckendall` for n < 50 without ties, else the normal
//! approximation with ties) and Spearman's rho (exact by `prho.c`'s AS 89
//! for n <= 1290, else the t approximation), as R 4.2's
//! `cor.test.default`.

use super::ttest::conf_level;
use super::{alternative, check_alternative, exact_arg, record, tie_counts, Alternative};
use crate::kernels::nmath::gamma::gammafn;
use crate::kernels::nmath::qfun::qnorm_std;
use crate::kernels::nmath::{pnorm, pt, rsum};
use crate::kernels::summary::{cor_or_na, kendall_xy};
use crate::kernels::value::NA;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

/// `ckendall(k, n)` for every k at once: the number of permutations of n
/// with k inversions (w[n][k] = Σ_{i<n} w[n-1][k-i]).
fn ckendall_row(n: usize) -> Vec<f64> {
    let mut w = vec![1.0];
    for m in 2..=n {
        let u = m * (m - 1) / 2;
        let mut next = vec![0.0; u + 1];
        for (k, slot) in next.iter_mut().enumerate() {
            let mut s = 0.0;
            for i in 0..m {
                if i <= k && k - i < w.len() {
                    s += w[k - i];
                }
            }
            *slot = s;
        }
        w = next;
    }
    w
}

/// `pkendall(q, n)`: P(T <= q).
fn pkendall(q: f64, n: usize) -> f64 {
    let q = (q + 1e-7).floor();
    let u = (n * (n - 1) / 2) as f64;
    if q < 0.0 {
        return 0.0;
    }
    if q > u {
        return 1.0;
    }
    let w = ckendall_row(n);
    let mut p = 0.0;
    for wj in w.iter().take(q as usize + 1) {
        p += wj;
    }
    p / gammafn(n as f64 + 1.0)
}

/// `prho(n, is, lower_tail)`: AS 89, exact for n <= 9.
fn prho(n: usize, is: f64, lower: bool) -> f64 {
    let mut pv = if lower { 0.0 } else { 1.0 };
    if n <= 1 || is <= 0.0 {
        return pv;
    }
    let mut n3 = n as f64;
    n3 *= (n3 * n3 - 1.0) / 3.0;
    if is > n3 {
        return 1.0 - pv;
    }
    if n <= 9 {
        let mut l: Vec<usize> = (1..=n).collect();
        let nfac: usize = (1..=n).product();
        let ifr = if is == n3 {
            1
        } else {
            let mut ifr = 0;
            for _ in 0..nfac {
                let mut ise = 0i64;
                for (i, &li) in l.iter().enumerate() {
                    let d = (i + 1) as i64 - li as i64;
                    ise += d * d;
                }
                if is <= ise as f64 {
                    ifr += 1;
                }
                let mut n1 = n;
                loop {
                    let mt = l[0];
                    for i in 1..n1 {
                        l[i - 1] = l[i];
                    }
                    n1 -= 1;
                    l[n1] = mt;
                    if !(mt == n1 + 1 && n1 > 1) {
                        break;
                    }
                }
            }
            ifr
        };
        pv = (if lower { nfac - ifr } else { ifr }) as f64 / nfac as f64;
        return pv;
    }
    let (c1, c2, c3, c4, c5, c6) = (0.2274, 0.2531, 0.1745, 0.0758, 0.1033, 0.3932);
    let (c7, c8, c9, c10, c11, c12) = (0.0879, 0.0151, 0.0072, 0.0831, 0.0131, 4.6e-4);
    let mut y = n as f64;
    let b = 1.0 / y;
    let x = (6.0 * (is - 1.0) * b / (y * y - 1.0) - 1.0) * (y - 1.0).sqrt();
    y = x * x;
    let u = x
        * b
        * (c1
            + b * (c2 + c3 * b)
            + y * (-c4 + b * (c5 + c6 * b)
                - y * b * (c7 + c8 * b - y * (c9 - c10 * b + y * b * (c11 - c12 * y)))));
    y = u / (y / 2.0).exp();
    pv = (if lower { -y } else { y }) + pnorm(x, 0.0, 1.0, lower, false);
    pv.clamp(0.0, 1.0)
}

fn numeric(args: &Args<&Value>, name: &str) -> Result<Vec<f64>, KernelError> {
    match args.get(name) {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            Ok(v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default())
        }
        None => Err(KernelError::new(format!(
            "argument \"{name}\" is missing, with no default"
        ))),
        Some(_) => Err(KernelError::new(format!(
            "'{name}' must be a numeric vector"
        ))),
    }
}

fn distinct(v: &[f64]) -> usize {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s.dedup();
    s.len()
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let alt = alternative(args)?;
    let method = crate::kernels::summary::method_arg(args)?;
    let x = numeric(args, "x")?;
    let y = numeric(args, "y")?;
    if x.len() != y.len() {
        return Err(KernelError::new("'x' and 'y' must have the same length"));
    }
    let ok: Vec<bool> = x
        .iter()
        .zip(&y)
        .map(|(a, b)| !a.is_nan() && !b.is_nan())
        .collect();
    let pick = |v: &[f64]| -> Vec<f64> {
        v.iter()
            .zip(&ok)
            .filter(|(_, &k)| k)
            .map(|(&a, _)| a)
            .collect()
    };
    let (x, y) = (pick(&x), pick(&y));
    let n = x.len();
    let nf = n as f64;
    let continuity = args.bool_or("continuity", false)?;
    let exact = exact_arg(args)?;
    use crate::kernels::summary::Method;
    if method == Method::Pearson {
        if n < 3 {
            return Err(KernelError::new("not enough finite observations"));
        }
        let r = cor_or_na(&x, &y, ctx);
        let df = nf - 2.0;
        let stat = df.sqrt() * r / (1.0 - r * r).sqrt();
        let mut cint = None;
        if n > 3 {
            let conf = conf_level(args, false)?;
            let z = r.atanh();
            let sigma = 1.0 / (nf - 3.0).sqrt();
            let c = match alt {
                Alternative::Less => [f64::NEG_INFINITY, z + sigma * qnorm_std(conf)],
                Alternative::Greater => [z - sigma * qnorm_std(conf), f64::INFINITY],
                Alternative::TwoSided => {
                    let q = sigma * qnorm_std((1.0 + conf) / 2.0);
                    [z - q, z + q]
                }
            };
            cint = Some(vec![c[0].tanh(), c[1].tanh()]);
        }
        let pval = match alt {
            Alternative::Less => pt(stat, df, true, false),
            Alternative::Greater => pt(stat, df, false, false),
            Alternative::TwoSided => {
                2.0 * pt(stat, df, true, false).min(pt(stat, df, false, false))
            }
        };
        let mut fields = vec![
            ("statistic", super::nm(stat, "t")),
            ("parameter", super::nm(df, "df")),
            ("p.value", Value::scalar(pval)),
            ("estimate", super::nm(r, "cor")),
            ("null.value", super::nm(0.0, "correlation")),
            ("alternative", Value::string(alt.r_name())),
            (
                "method",
                Value::string("Pearson's product-moment correlation"),
            ),
        ];
        if let Some(c) = cint {
            fields.push(("conf.int", Value::Num(c)));
        }
        return Ok(record(fields));
    }
    if n < 2 {
        return Err(KernelError::new("not enough finite observations"));
    }
    let ties = distinct(&x).min(distinct(&y)) < n;
    let est_name = if method == Method::Kendall {
        "tau"
    } else {
        "rho"
    };
    let (stat, pval, est, name);
    // cor.test.default names Kendall's statistic T, or z when the normal
    // approximation gives the p-value.
    let mut stat_name = "S";
    if method == Method::Kendall {
        name = "Kendall's rank correlation tau";
        stat_name = "T";
        let r = kendall_xy(&x, &y);
        // cor(x, y, method = "kendall")'s warning when a sample is constant.
        if r.is_nan() {
            ctx.warn("the standard deviation is zero");
        }
        est = r;
        if !r.is_finite() {
            stat = NA;
            pval = NA;
        } else {
            let exact = exact.unwrap_or(n < 50);
            if exact && !ties {
                if n > 150 {
                    return Err(KernelError::new(
                        "flowcast computes exact Kendall p-values for at most 150 pairs",
                    ));
                }
                let q = ((r + 1.0) * nf * (nf - 1.0) / 4.0).round();
                stat = q;
                pval = match alt {
                    Alternative::TwoSided => {
                        let p = if q > nf * (nf - 1.0) / 4.0 {
                            1.0 - pkendall(q - 1.0, n)
                        } else {
                            pkendall(q, n)
                        };
                        (2.0 * p).min(1.0)
                    }
                    Alternative::Greater => 1.0 - pkendall(q - 1.0, n),
                    Alternative::Less => pkendall(q, n),
                };
            } else {
                let dup_ties = |v: &[f64]| -> Vec<f64> {
                    tie_counts(v).into_iter().filter(|&t| t > 1.0).collect()
                };
                let (xt, yt) = (dup_ties(&x), dup_ties(&y));
                let s1 = |t: &[f64]| rsum(&t.iter().map(|t| t * (t - 1.0)).collect::<Vec<f64>>());
                let s2 = |t: &[f64]| {
                    rsum(
                        &t.iter()
                            .map(|t| t * (t - 1.0) * (2.0 * t + 5.0))
                            .collect::<Vec<f64>>(),
                    )
                };
                let s3 = |t: &[f64]| {
                    rsum(
                        &t.iter()
                            .map(|t| t * (t - 1.0) * (t - 2.0))
                            .collect::<Vec<f64>>(),
                    )
                };
                let t0 = nf * (nf - 1.0) / 2.0;
                let t1 = s1(&xt) / 2.0;
                let t2 = s1(&yt) / 2.0;
                let mut s = r * ((t0 - t1) * (t0 - t2)).sqrt();
                let v0 = nf * (nf - 1.0) * (2.0 * nf + 5.0);
                let vt = s2(&xt);
                let vu = s2(&yt);
                let v1 = s1(&xt) * s1(&yt);
                let v2 = s3(&xt) * s3(&yt);
                let var_s = (v0 - vt - vu) / 18.0
                    + v1 / (2.0 * nf * (nf - 1.0))
                    + v2 / (9.0 * nf * (nf - 1.0) * (nf - 2.0));
                if exact && ties {
                    ctx.warn("Cannot compute exact p-value with ties");
                }
                if continuity {
                    s = s.signum() * (s.abs() - 1.0);
                }
                stat = s / var_s.sqrt();
                stat_name = "z";
                pval = p_normal(stat, alt);
            }
        }
    } else {
        name = "Spearman's rank correlation rho";
        let mut exact = exact.unwrap_or(true);
        let r = cor_or_na(&super::rank(&x), &super::rank(&y), ctx);
        est = r;
        if !r.is_finite() {
            stat = NA;
            pval = NA;
        } else {
            let pspearman = |q: f64, lower: bool, exact: bool| -> f64 {
                if n <= 1290 && exact {
                    prho(n, q.round() + 2.0 * f64::from(u8::from(lower)), lower)
                } else {
                    let mut den = nf * (nf * nf - 1.0) / 6.0;
                    if continuity {
                        den += 1.0;
                    }
                    let r = 1.0 - q / den;
                    pt(
                        r / ((1.0 - r * r) / (nf - 2.0)).sqrt(),
                        nf - 2.0,
                        !lower,
                        false,
                    )
                }
            };
            let q = (nf * nf * nf - nf) * (1.0 - r) / 6.0;
            stat = q;
            if ties && exact {
                exact = false;
                ctx.warn("Cannot compute exact p-value with ties");
            }
            pval = match alt {
                Alternative::TwoSided => {
                    let p = if q > (nf * nf * nf - nf) / 6.0 {
                        pspearman(q, false, exact)
                    } else {
                        pspearman(q, true, exact)
                    };
                    (2.0 * p).min(1.0)
                }
                Alternative::Greater => pspearman(q, true, exact),
                Alternative::Less => pspearman(q, false, exact),
            };
        }
    }
    Ok(record(vec![
        ("statistic", super::nm(stat, stat_name)),
        ("p.value", Value::scalar(pval)),
        ("estimate", super::nm(est, est_name)),
        ("null.value", super::nm(0.0, est_name)),
        ("alternative", Value::string(alt.r_name())),
        ("method", Value::string(name)),
    ]))
}

fn p_normal(z: f64, alt: Alternative) -> f64 {
    match alt {
        Alternative::Less => pnorm(z, 0.0, 1.0, true, false),
        Alternative::Greater => pnorm(z, 0.0, 1.0, false, false),
        Alternative::TwoSided => {
            2.0 * pnorm(z, 0.0, 1.0, true, false).min(pnorm(z, 0.0, 1.0, false, false))
        }
    }
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_alternative(args)?;
    for name in ["x", "y"] {
        if let Some(t) = args.ty(name) {
            if !matches!(t, Type::Any) && !t.is_numeric() {
                return Err(args.error(name, format!("'{name}' must be a numeric vector")));
            }
        }
    }
    let str1 = || Type::Str {
        len: Some(1),
        value: None,
    };
    let pearson = args
        .const_str("method")
        .is_none_or(|m| "pearson".starts_with(m) && !m.is_empty());
    let mut fields = vec![("statistic", Type::num(1))];
    fields.push(("parameter", if pearson { Type::num(1) } else { Type::Null }));
    fields.extend([
        ("p.value", Type::num(1)),
        ("estimate", Type::num(1)),
        ("null.value", Type::num(1)),
        ("alternative", str1()),
        ("method", str1()),
    ]);
    if pearson {
        fields.push(("conf.int", Type::Any));
    }
    Ok(Type::record("htest", fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kendall_counts_are_permutations_by_inversions() {
        assert_eq!(ckendall_row(3), vec![1.0, 2.0, 2.0, 1.0]);
        assert!((pkendall(2.0, 4) - 9.0 / 24.0).abs() < 1e-15);
    }

    #[test]
    fn prho_exact_is_a_probability() {
        // R: .Call(stats:::C_pRho, 10, 5L, TRUE) is 0.175
        assert!((prho(5, 10.0, true) - 0.175).abs() < 1e-12);
    }
}
