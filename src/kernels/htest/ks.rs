//! `ks.test(x, y, ..., alternative, exact)`: two-sample (y numeric) or
//! one-sample against a distribution named by a string, as R 4.2's
//! ks.test.default.

use super::super::nmath::ks::{pkolmogorov1x, pkolmogorov2x, pkstwo, psmirnov_exact_upper};
use super::super::pfun::{family, FAMILIES};
use super::super::value::is_na;
use super::{
    alternative, check_alternative, check_numeric, exact_arg, rcumsum, record, Alternative,
};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_numeric(args, "x", "'x' must be numeric")?;
    check_alternative(args)?;
    match args.ty("y") {
        Some(t @ Type::Str { .. }) => {
            if let Some(name) = t.const_str() {
                if family(name).is_none() {
                    return Err(args.error("y", unknown_distribution(name)));
                }
            }
        }
        _ => check_numeric(
            args,
            "y",
            "'y' must be numeric or a function or a string naming a valid function",
        )?,
    }
    let Type::Record { class, mut fields } = super::htest_type(false, false) else {
        unreachable!("htest_type is a record")
    };
    fields.push((
        "exact".to_string(),
        Type::Bool {
            len: Some(1),
            value: None,
        },
    ));
    Ok(Type::Record { class, fields })
}

fn unknown_distribution(name: &str) -> String {
    format!(
        "object '{name}' of mode 'function' was not found (ks.test knows {})",
        FAMILIES
            .iter()
            .map(|d| d.name)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn missing(v: f64) -> bool {
    v.is_nan() || is_na(v)
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let alt = alternative(args)?;
    let exact = exact_arg(args)?;
    let x: Vec<f64> = match args.get("x") {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => v
            .as_f64_slice()
            .map(|s| s.iter().copied().filter(|v| !missing(*v)).collect())
            .unwrap_or_default(),
        _ => return Err(KernelError::new("'x' must be numeric")),
    };
    if x.is_empty() {
        return Err(KernelError::new("not enough 'x' data"));
    }
    let (stat, p, alt_text, method) = match args.get("y") {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            let y: Vec<f64> = v
                .as_f64_slice()
                .map(|s| s.iter().copied().filter(|v| !missing(*v)).collect())
                .unwrap_or_default();
            if y.is_empty() {
                return Err(KernelError::new("not enough 'y' data"));
            }
            let (stat, p, alt_text, method, ties) = two_sample(&x, &y, alt, exact)?;
            // ks.test.default's warning, given only without the exact p.
            if ties && method.starts_with("Asymptotic") {
                ctx.warn("p-value will be approximate in the presence of ties");
            }
            (stat, p, alt_text, method)
        }
        Some(Value::Str(s)) if s.len() == 1 => {
            let cdf = distribution(&s[0], args)?;
            let mut s = x.clone();
            s.sort_by(|a, b| a.total_cmp(b));
            if s.windows(2).any(|p| p[0] == p[1]) {
                ctx.warn("ties should not be present for the Kolmogorov-Smirnov test");
            }
            one_sample(&x, cdf, alt, exact)?
        }
        _ => {
            return Err(KernelError::new(
                "'y' must be numeric or a function or a string naming a valid function",
            ))
        }
    };
    Ok(record(vec![
        // ks.test's names: D, D^+ or D^-.
        (
            "statistic",
            super::nm(
                stat,
                match alt {
                    Alternative::TwoSided => "D",
                    Alternative::Greater => "D^+",
                    Alternative::Less => "D^-",
                },
            ),
        ),
        (
            "p.value",
            Value::scalar(if p.is_nan() { p } else { p.clamp(0.0, 1.0) }),
        ),
        ("alternative", Value::string(alt_text)),
        ("method", Value::string(&method)),
        // R 4.2's ks.test keeps whether its p-value is exact (after
        // data.name and the data, which flowcast leaves out).
        ("exact", Value::flag(method.starts_with("Exact"))),
    ]))
}

fn two_sample(
    x: &[f64],
    y: &[f64],
    alt: Alternative,
    exact: Option<bool>,
) -> Result<(f64, f64, &'static str, String, bool), KernelError> {
    let nx = x.len() as f64;
    let ny = y.len() as f64;
    let exact = exact.unwrap_or(nx * ny < 10000.0);
    let method = format!(
        "{} two-sample Kolmogorov-Smirnov test",
        if exact { "Exact" } else { "Asymptotic" }
    );
    let w: Vec<f64> = x.iter().chain(y).copied().collect();
    let n = nx * ny / (nx + ny);
    // order(w) is stable: ties keep their input order
    let ord = crate::kernels::vector::order_numbers(&w, false, Some(true));
    let steps: Vec<f64> = ord
        .iter()
        .map(|&i| if i < x.len() { 1.0 / nx } else { -1.0 / ny })
        .collect();
    let mut z = rcumsum(&steps);
    let sorted: Vec<f64> = ord.iter().map(|&i| w[i]).collect();
    // R: `if (length(unique(w)) < n) z <- z[c(which(diff(sort(w)) != 0),
    // n)]`, where `which` drops the NaN of `Inf - Inf`: tied infinities
    // are one step, as any other tie.
    let ties = sorted.windows(2).any(|p| p[0] == p[1]);
    if ties {
        let mut keep: Vec<usize> = (0..sorted.len() - 1)
            .filter(|&i| {
                let d = sorted[i + 1] - sorted[i];
                d != 0.0 && !d.is_nan()
            })
            .collect();
        keep.push(w.len() - 1);
        z = keep.iter().map(|&i| z[i]).collect();
    }
    let stat = match alt {
        Alternative::TwoSided => z.iter().fold(f64::NEG_INFINITY, |m, v| m.max(v.abs())),
        Alternative::Greater => z.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v)),
        Alternative::Less => -z.iter().fold(f64::INFINITY, |m, &v| m.min(v)),
    };
    let two_sided = alt == Alternative::TwoSided;
    let alt_text = match alt {
        Alternative::TwoSided => "two-sided",
        Alternative::Less => "the CDF of x lies below that of y",
        Alternative::Greater => "the CDF of x lies above that of y",
    };
    if exact
        && sorted
            .windows(2)
            .any(|p| p[0] == p[1] && p[0].is_infinite())
    {
        // R 4.2's psmirnov marks ties by `diff(sort(z)) != 0`, NA for
        // `Inf - Inf`, and stops at `if (TIES[k])`.
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let exact_p = if exact {
        psmirnov_exact_upper(stat, x.len(), y.len(), &w, two_sided)
    } else {
        None
    };
    let p = match exact_p {
        Some(p) => p,
        None => {
            // R falls back to the limiting distribution (without its
            // Monte-Carlo step when the exact count overflows)
            let lower = if two_sided {
                if stat < f64::EPSILON {
                    0.0
                } else {
                    pkstwo(n.sqrt() * stat, 1e-6)
                }
            } else {
                1.0 - (-2.0 * n * stat * stat).exp()
            };
            1.0 - lower
        }
    };
    Ok((stat, p, alt_text, method, ties))
}

type Cdf = Box<dyn Fn(f64) -> f64>;

/// Matches `...` against the named distribution's formals as R would
/// (exact names, then unique partial names, then position).
fn distribution(name: &str, args: &Args<&Value>) -> Result<Cdf, KernelError> {
    let Some(fam) = family(name) else {
        return Err(KernelError::new(unknown_distribution(name)));
    };
    let (formals, defaults) = (fam.formals, fam.defaults);
    let mut vals: Vec<Option<f64>> = vec![None; formals.len()];
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let mut used = vec![false; dots.len()];
    let scalar = |v: &Value, what: &str| -> Result<f64, KernelError> {
        v.as_scalar().ok_or_else(|| {
            KernelError::new(format!(
                "argument '{what}' of {name}() must be a single number"
            ))
        })
    };
    for (k, (n, v)) in dots.iter().enumerate() {
        if let Some(n) = n {
            if let Some(i) = formals.iter().position(|f| f == n) {
                vals[i] = Some(scalar(v, n)?);
                used[k] = true;
            }
        }
    }
    for (k, (n, v)) in dots.iter().enumerate() {
        if let (Some(n), false) = (n, used[k]) {
            let cands: Vec<usize> = (0..formals.len())
                .filter(|&i| vals[i].is_none() && formals[i].starts_with(n))
                .collect();
            match cands.as_slice() {
                [i] => {
                    vals[*i] = Some(scalar(v, n)?);
                    used[k] = true;
                }
                [] => return Err(KernelError::new(format!("unused argument ({n} = ...)"))),
                _ => {
                    return Err(KernelError::new(format!(
                        "argument {} matches multiple formal arguments",
                        k + 3
                    )))
                }
            }
        }
    }
    for (k, (_, v)) in dots.iter().enumerate() {
        if used[k] {
            continue;
        }
        match vals.iter().position(Option::is_none) {
            Some(i) => vals[i] = Some(scalar(v, formals[i])?),
            None => return Err(KernelError::new("unused argument in ks.test(...)")),
        }
    }
    let mut p = Vec::with_capacity(formals.len());
    for (i, v) in vals.iter().enumerate() {
        match v.or(Some(defaults[i]).filter(|d| !d.is_nan())) {
            Some(x) => p.push(x),
            None => {
                return Err(KernelError::new(format!(
                    "argument \"{}\" is missing, with no default",
                    formals[i]
                )))
            }
        }
    }
    Ok(Box::new(move |q| fam.p(q, &p, true, false)))
}

fn one_sample(
    x: &[f64],
    cdf: Cdf,
    alt: Alternative,
    exact: Option<bool>,
) -> Result<(f64, f64, &'static str, String), KernelError> {
    let n = x.len();
    let nf = n as f64;
    let mut sorted = x.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let ties = sorted.windows(2).any(|p| p[0] == p[1]);
    let exact = exact.unwrap_or(n < 100 && !ties);
    let method = format!(
        "{} one-sample Kolmogorov-Smirnov test",
        if exact { "Exact" } else { "Asymptotic" }
    );
    let d: Vec<f64> = sorted
        .iter()
        .enumerate()
        .map(|(i, &v)| cdf(v) - i as f64 / nf)
        .collect();
    let r_max = |it: &mut dyn Iterator<Item = f64>| {
        it.fold(f64::NEG_INFINITY, |m, v| {
            if v.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(v)
            }
        })
    };
    let stat = match alt {
        Alternative::TwoSided => {
            r_max(&mut d.iter().copied().chain(d.iter().map(|v| 1.0 / nf - v)))
        }
        Alternative::Greater => r_max(&mut d.iter().map(|v| 1.0 / nf - v)),
        Alternative::Less => r_max(&mut d.iter().copied()),
    };
    // Marsaglia-Tsang-Wang powers a (2nD+1)-square matrix
    if exact && alt == Alternative::TwoSided && nf * stat > 1500.0 {
        return Err(KernelError::new(
            "exact p-value computation too large: use exact = FALSE",
        ));
    }
    let p = if stat.is_nan() {
        f64::NAN
    } else if exact {
        1.0 - if alt == Alternative::TwoSided {
            pkolmogorov2x(stat, n)
        } else {
            pkolmogorov1x(stat, n)
        }
    } else if alt == Alternative::TwoSided {
        1.0 - pkstwo(nf.sqrt() * stat, 1e-6)
    } else {
        (-2.0 * nf * stat * stat).exp()
    };
    let alt_text = match alt {
        Alternative::TwoSided => "two-sided",
        Alternative::Less => "the CDF of x lies below the null hypothesis",
        Alternative::Greater => "the CDF of x lies above the null hypothesis",
    };
    Ok((stat, p, alt_text, method))
}
