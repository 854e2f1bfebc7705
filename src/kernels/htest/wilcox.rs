//! `wilcox.test`: one-sample / paired signed rank and two-sample rank sum
//! tests, exact or by the normal approximation, as R 4.2's
//! wilcox.test.default.

use super::super::nmath::pnorm;
use super::super::nmath::signrank::psignrank1 as psignrank;
use super::super::nmath::wilcox::pwilcox1 as pwilcox;
use super::super::value::is_na;
use super::{
    alternative, check_alternative, check_numeric, data, exact_arg, htest_type, nm, rank, record,
    tie_counts, wilcox_ci, Alternative,
};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_numeric(args, "x", "'x' must be numeric")?;
    if !matches!(args.ty("y"), None | Some(Type::Null)) {
        check_numeric(args, "y", "'y' must be numeric")?;
    }
    check_alternative(args)?;
    let conf_int = args.ty("conf.int").and_then(|t| match t {
        Type::Bool { value: Some(v), .. } => v.first().copied().flatten(),
        t => t.const_scalar().map(|x| x != 0.0),
    });
    if let Some(level) = args.ty("conf.level").and_then(Type::const_scalar) {
        if conf_int == Some(true) && !(level.is_finite() && level > 0.0 && level < 1.0) {
            return Err(args.error(
                "conf.level",
                "'conf.level' must be a single number between 0 and 1",
            ));
        }
    }
    let mut t = htest_type(false, true);
    match (conf_int, &mut t) {
        (Some(true), Type::Record { fields, .. }) => {
            fields.push(("conf.int".into(), Type::num(2)));
            fields.push(("estimate".into(), Type::num(1)));
        }
        // Unknown until run time: the fields may or may not be there.
        (None, _) if args.has("conf.int") => return Ok(Type::Any),
        _ => {}
    }
    Ok(t)
}

fn is_missing(v: f64) -> bool {
    v.is_nan() || is_na(v)
}

/// sign(z) * 0.5, or the one-sided correction.
fn correction(alt: Alternative, z: f64) -> f64 {
    match alt {
        Alternative::TwoSided => {
            if z > 0.0 {
                0.5
            } else if z < 0.0 {
                -0.5
            } else {
                0.0 * z
            }
        }
        Alternative::Greater => 0.5,
        Alternative::Less => -0.5,
    }
}

fn normal_p(alt: Alternative, z: f64) -> f64 {
    match alt {
        Alternative::Less => pnorm(z, 0.0, 1.0, true, false),
        Alternative::Greater => pnorm(z, 0.0, 1.0, false, false),
        Alternative::TwoSided => {
            2.0 * r_min(
                pnorm(z, 0.0, 1.0, true, false),
                pnorm(z, 0.0, 1.0, false, false),
            )
        }
    }
}

/// R's min(): NaN wins.
pub(super) fn r_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

/// What a test computed besides its p-value: which path it took, for R's
/// warnings and the interval.
struct Outcome {
    statistic: f64,
    p: f64,
    method: String,
    /// The exact path was asked for (or chosen) but ties or zeroes ruled
    /// it out.
    ties: bool,
    zeroes: bool,
    exact_asked: bool,
    exact_used: bool,
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let alt = alternative(args)?;
    let mu = if args.has("mu") {
        match args.get("mu").and_then(Value::as_scalar) {
            Some(m) if m.is_finite() => m,
            _ => return Err(KernelError::new("'mu' must be a single number")),
        }
    } else {
        0.0
    };
    let conf_int = args.bool_or("conf.int", false)?;
    let conf_level = args.scalar_or("conf.level", 0.95)?;
    if conf_int && !(conf_level.is_finite() && conf_level > 0.0 && conf_level < 1.0) {
        return Err(KernelError::new(
            "'conf.level' must be a single number between 0 and 1",
        ));
    }
    let tol = args.scalar_or("tol.root", 1e-4)?;
    let paired = args.bool_or("paired", false)?;
    let exact = exact_arg(args)?;
    let correct = args.bool_or("correct", true)?;
    let mut x = data(args, "x", "'x' must be numeric")?;
    let has_y = !matches!(args.get("y"), None | Some(Value::Null));
    let mut y = None;
    if has_y {
        let yv = data(args, "y", "'y' must be numeric")?;
        if paired {
            if x.len() != yv.len() {
                return Err(KernelError::new("'x' and 'y' must have the same length"));
            }
            x = x
                .iter()
                .zip(&yv)
                .filter(|(a, b)| !is_missing(**a) && !is_missing(**b))
                .map(|(a, b)| a - b)
                .collect();
        } else {
            y = Some(
                yv.into_iter()
                    .filter(|v| !is_missing(*v))
                    .collect::<Vec<f64>>(),
            );
        }
    } else if paired {
        return Err(KernelError::new("'y' is missing for paired test"));
    }
    let x: Vec<f64> = x.into_iter().filter(|v| !is_missing(*v)).collect();
    if x.is_empty() {
        return Err(KernelError::new(
            "not enough (non-missing) 'x' observations",
        ));
    }
    // R's exact tables grow as n^2 (signed rank) and m*n*min(m,n) (rank
    // sum): refuse sizes where R itself would exhaust memory
    let too_large = || KernelError::new("exact p-value computation too large: use exact = FALSE");
    let mut warn = Vec::new();
    // wilcox.test.default's names.
    let (stat_name, est_name) = if y.is_none() {
        ("V", "(pseudo)median")
    } else {
        ("W", "difference in location")
    };
    let null_name = if has_y { "location shift" } else { "location" };
    let (o, interval) = match y {
        None => {
            if exact == Some(true) && x.len() > 5_000 {
                return Err(too_large());
            }
            let o = signed_rank(&x, mu, alt, exact, correct);
            let interval = if conf_int {
                // R's `x <- x + mu` after dropping the zeroes of x - mu.
                let shifted: Vec<f64> = x
                    .iter()
                    .map(|v| v - mu)
                    .filter(|&v| v != 0.0)
                    .map(|v| v + mu)
                    .collect();
                Some(if o.exact_used {
                    wilcox_ci::signed_rank_exact(&shifted, alt, conf_level, &mut warn)
                } else {
                    wilcox_ci::signed_rank_normal(
                        &shifted, alt, conf_level, correct, tol, &mut warn,
                    )?
                })
            } else {
                None
            };
            if o.exact_asked && o.ties {
                warn.push("cannot compute exact p-value with ties".into());
                if conf_int {
                    warn.push("cannot compute exact confidence interval with ties".into());
                }
            }
            if o.exact_asked && o.zeroes {
                warn.push("cannot compute exact p-value with zeroes".into());
                if conf_int {
                    warn.push("cannot compute exact confidence interval with zeroes".into());
                }
            }
            (o, interval)
        }
        Some(y) => {
            if y.is_empty() {
                return Err(KernelError::new("not enough 'y' observations"));
            }
            let (m, n) = (x.len() as f64, y.len() as f64);
            if exact == Some(true) && m * n * m.min(n) > 2e8 {
                return Err(too_large());
            }
            let o = rank_sum(&x, &y, mu, alt, exact, correct);
            let interval = if !conf_int {
                None
            } else if o.exact_used {
                Some(wilcox_ci::rank_sum_exact(
                    &x, &y, alt, conf_level, &mut warn,
                ))
            } else {
                Some(wilcox_ci::rank_sum_normal(
                    &x, &y, alt, conf_level, correct, tol, &mut warn,
                )?)
            };
            if o.exact_asked && o.ties {
                warn.push("cannot compute exact p-value with ties".into());
                if conf_int {
                    warn.push("cannot compute exact confidence intervals with ties".into());
                }
            }
            (o, interval)
        }
    };
    for w in warn {
        ctx.warn(w);
    }
    let mut fields = vec![
        ("statistic", nm(o.statistic, stat_name)),
        ("p.value", Value::scalar(o.p)),
        ("null.value", nm(mu, null_name)),
        ("alternative", Value::string(alt.r_name())),
        ("method", Value::string(&o.method)),
    ];
    if let Some(i) = interval {
        fields.push(("conf.int", Value::Num(i.conf_int.to_vec())));
        fields.push(("estimate", nm(i.estimate, est_name)));
    }
    Ok(record(fields))
}

fn signed_rank(
    x: &[f64],
    mu: f64,
    alt: Alternative,
    exact: Option<bool>,
    correct: bool,
) -> Outcome {
    let mut method = String::from("Wilcoxon signed rank test");
    let x: Vec<f64> = x.iter().map(|v| v - mu).collect();
    let zeroes = x.contains(&0.0);
    let x: Vec<f64> = x.into_iter().filter(|&v| v != 0.0).collect();
    let n = x.len() as f64;
    let exact = exact.unwrap_or(n < 50.0);
    let abs: Vec<f64> = x.iter().map(|v| v.abs()).collect();
    let r = rank(&abs);
    let statistic: f64 = r
        .iter()
        .zip(&x)
        .filter(|(_, &v)| v > 0.0)
        .map(|(r, _)| r)
        .sum();
    let nties = tie_counts(&r);
    let ties = nties.len() != r.len();
    let p;
    if exact && !ties && !zeroes {
        method = String::from("Wilcoxon signed rank exact test");
        p = match alt {
            Alternative::TwoSided => {
                let p = if statistic > n * (n + 1.0) / 4.0 {
                    psignrank(statistic - 1.0, n, false, false)
                } else {
                    psignrank(statistic, n, true, false)
                };
                (2.0 * p).min(1.0)
            }
            Alternative::Greater => psignrank(statistic - 1.0, n, false, false),
            Alternative::Less => psignrank(statistic, n, true, false),
        };
    } else {
        let mut z = statistic - n * (n + 1.0) / 4.0;
        let tsum: f64 = nties.iter().map(|t| t * t * t - t).sum();
        let sigma = (n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - tsum / 48.0).sqrt();
        let mut corr = 0.0;
        if correct {
            corr = correction(alt, z);
            method.push_str(" with continuity correction");
        }
        z = (z - corr) / sigma;
        p = normal_p(alt, z);
    }
    Outcome {
        statistic,
        p,
        method,
        ties,
        zeroes,
        exact_asked: exact,
        exact_used: exact && !ties && !zeroes,
    }
}

fn rank_sum(
    x: &[f64],
    y: &[f64],
    mu: f64,
    alt: Alternative,
    exact: Option<bool>,
    correct: bool,
) -> Outcome {
    let mut method = String::from("Wilcoxon rank sum test");
    let pooled: Vec<f64> = x.iter().map(|v| v - mu).chain(y.iter().copied()).collect();
    let r = rank(&pooled);
    let nx = x.len() as f64;
    let ny = y.len() as f64;
    let exact = exact.unwrap_or(nx < 50.0 && ny < 50.0);
    let statistic = r[..x.len()].iter().sum::<f64>() - nx * (nx + 1.0) / 2.0;
    let nties = tie_counts(&r);
    let ties = nties.len() != r.len();
    let p;
    if exact && !ties {
        method = String::from("Wilcoxon rank sum exact test");
        p = match alt {
            Alternative::TwoSided => {
                let p = if statistic > nx * ny / 2.0 {
                    pwilcox(statistic - 1.0, nx, ny, false, false)
                } else {
                    pwilcox(statistic, nx, ny, true, false)
                };
                (2.0 * p).min(1.0)
            }
            Alternative::Greater => pwilcox(statistic - 1.0, nx, ny, false, false),
            Alternative::Less => pwilcox(statistic, nx, ny, true, false),
        };
    } else {
        let mut z = statistic - nx * ny / 2.0;
        let tsum: f64 = nties.iter().map(|t| t * t * t - t).sum();
        let sigma =
            ((nx * ny / 12.0) * ((nx + ny + 1.0) - tsum / ((nx + ny) * (nx + ny - 1.0)))).sqrt();
        let mut corr = 0.0;
        if correct {
            corr = correction(alt, z);
            method.push_str(" with continuity correction");
        }
        z = (z - corr) / sigma;
        p = normal_p(alt, z);
    }
    Outcome {
        statistic,
        p,
        method,
        ties,
        zeroes: false,
        exact_asked: exact,
        exact_used: exact && !ties,
    }
}
