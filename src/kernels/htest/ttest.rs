//! `t.test` (one sample, paired, Welch and pooled two sample) and
//! `var.test`: R 4.2's `t.test.default` and `var.test.default`.

use super::{alternative, check_alternative, nm, nms, record, Alternative};
use crate::kernels::arith::r_pow;
use crate::kernels::nmath::pt;
use crate::kernels::nmath::qfun::{qf, qt};
use crate::kernels::summary::{mean, var};
use crate::kernels::value::NA;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

fn str1() -> Type {
    Type::Str {
        len: Some(1),
        value: None,
    }
}

/// The numbers of a data argument (R's error when it is not numeric).
fn numeric(args: &Args<&Value>, name: &str) -> Result<Option<Vec<f64>>, KernelError> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_))) => {
            Ok(v.as_f64_slice().map(|s| s.into_owned()))
        }
        Some(_) => Err(KernelError::new(format!("'{name}' must be numeric"))),
    }
}

/// `conf.level`, checked as each test checks it.
pub(super) fn conf_level(args: &Args<&Value>, open: bool) -> Result<f64, KernelError> {
    let c = match args.get("conf.level") {
        None => return Ok(0.95),
        Some(v) => v.as_scalar(),
    };
    match c {
        Some(c)
            if c.is_finite()
                && (if open {
                    c > 0.0 && c < 1.0
                } else {
                    (0.0..=1.0).contains(&c)
                }) =>
        {
            Ok(c)
        }
        _ => Err(KernelError::new(
            "'conf.level' must be a single number between 0 and 1",
        )),
    }
}

pub(super) fn t_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let alt = alternative(args)?;
    let mu = match args.get("mu") {
        None => 0.0,
        Some(v) => match v.as_scalar() {
            Some(m) if !m.is_nan() => m,
            _ => return Err(KernelError::new("'mu' must be a single number")),
        },
    };
    let conf = conf_level(args, false)?;
    let paired = args.bool_or("paired", false)?;
    let var_equal = args.bool_or("var.equal", false)?;
    let x = numeric(args, "x")?.unwrap_or_default();
    let y = numeric(args, "y")?;
    let (mut x, y) = match y {
        Some(y) => {
            if paired {
                // t.test.default's complete.cases(x, y) refuses unequal lengths.
                if x.len() != y.len() {
                    return Err(KernelError::new("not all arguments have the same length"));
                }
                let ok: Vec<bool> = x
                    .iter()
                    .zip(&y)
                    .map(|(a, b)| !a.is_nan() && !b.is_nan())
                    .collect();
                let keep = |v: &[f64]| -> Vec<f64> {
                    v.iter()
                        .zip(&ok)
                        .filter(|(_, &k)| k)
                        .map(|(&a, _)| a)
                        .collect()
                };
                (keep(&x), Some(keep(&y)))
            } else {
                (
                    x,
                    Some(y.into_iter().filter(|v| !v.is_nan()).collect::<Vec<f64>>()),
                )
            }
        }
        None => {
            if paired {
                return Err(KernelError::new("'y' is missing for paired test"));
            }
            (x, None)
        }
    };
    if !paired {
        x.retain(|v| !v.is_nan());
    }
    let (x, y) = if paired {
        let y = y.unwrap_or_default();
        (
            x.iter().zip(&y).map(|(a, b)| a - b).collect::<Vec<f64>>(),
            None,
        )
    } else {
        (x, y)
    };
    let nx = x.len() as f64;
    let mx = mean(&x);
    let vx = var(&x);
    let (tstat, df, stderr, method, estimate);
    // t.test.default's names: R 4.2 calls a paired test's estimate and
    // null value "mean difference".
    let (estimate_names, null_name): (&[&str], &str) = match (&y, paired) {
        (None, false) => (&["mean of x"], "mean"),
        (None, true) => (&["mean difference"], "mean difference"),
        (Some(_), _) => (&["mean of x", "mean of y"], "difference in means"),
    };
    match &y {
        None => {
            if x.len() < 2 {
                return Err(KernelError::new("not enough 'x' observations"));
            }
            df = nx - 1.0;
            stderr = (vx / nx).sqrt();
            if constant_or_na(stderr, mx.abs())? {
                return Err(KernelError::new("data are essentially constant"));
            }
            tstat = (mx - mu) / stderr;
            method = if paired {
                "Paired t-test"
            } else {
                "One Sample t-test"
            };
            estimate = vec![mx];
        }
        Some(y) => {
            let ny = y.len() as f64;
            if x.is_empty() || (!var_equal && x.len() < 2) {
                return Err(KernelError::new("not enough 'x' observations"));
            }
            if y.is_empty() || (!var_equal && y.len() < 2) {
                return Err(KernelError::new("not enough 'y' observations"));
            }
            if var_equal && x.len() + y.len() < 3 {
                return Err(KernelError::new("not enough observations"));
            }
            let my = mean(y);
            let vy = var(y);
            method = if var_equal {
                " Two Sample t-test"
            } else {
                "Welch Two Sample t-test"
            };
            estimate = vec![mx, my];
            if var_equal {
                df = nx + ny - 2.0;
                let mut v = 0.0;
                if nx > 1.0 {
                    v += (nx - 1.0) * vx;
                }
                if ny > 1.0 {
                    v += (ny - 1.0) * vy;
                }
                v /= df;
                stderr = (v * (1.0 / nx + 1.0 / ny)).sqrt();
            } else {
                let sx = (vx / nx).sqrt();
                let sy = (vy / ny).sqrt();
                stderr = (sx * sx + sy * sy).sqrt();
                // R's `^4` is libm's pow (R_pow), not repeated products.
                let p4 = |v: f64| r_pow(v, 4.0);
                df = p4(stderr) / (p4(sx) / (nx - 1.0) + p4(sy) / (ny - 1.0));
            }
            // R's max(): NaN when either is
            let m = if mx.is_nan() || my.is_nan() {
                f64::NAN
            } else {
                mx.abs().max(my.abs())
            };
            if constant_or_na(stderr, m)? {
                return Err(KernelError::new("data are essentially constant"));
            }
            tstat = (mx - my - mu) / stderr;
        }
    }
    let (pval, cint) = match alt {
        Alternative::Less => (
            pt(tstat, df, true, false),
            [f64::NEG_INFINITY, tstat + qt(conf, df, true, false)],
        ),
        Alternative::Greater => (
            pt(tstat, df, false, false),
            [tstat - qt(conf, df, true, false), f64::INFINITY],
        ),
        Alternative::TwoSided => {
            let alpha = 1.0 - conf;
            let c = qt(1.0 - alpha / 2.0, df, true, false);
            (
                2.0 * pt(-tstat.abs(), df, true, false),
                [tstat - c, tstat + c],
            )
        }
    };
    let cint: Vec<f64> = cint.iter().map(|c| mu + c * stderr).collect();
    Ok(record(vec![
        ("statistic", nm(tstat, "t")),
        ("parameter", nm(df, "df")),
        ("p.value", Value::scalar(pval)),
        ("conf.int", Value::Num(cint)),
        ("estimate", nms(estimate, estimate_names)),
        ("null.value", nm(mu, null_name)),
        ("stderr", Value::scalar(stderr)),
        ("alternative", Value::string(alt.r_name())),
        ("method", Value::string(method)),
    ]))
}

pub(super) fn var_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let ratio = match args.get("ratio") {
        None => 1.0,
        Some(v) => match v.as_scalar() {
            Some(r) if r.is_finite() && r > 0.0 => r,
            _ => return Err(KernelError::new("'ratio' must be a single positive number")),
        },
    };
    let alt = alternative(args)?;
    let conf = conf_level(args, true)?;
    let x: Vec<f64> = numeric(args, "x")?
        .unwrap_or_default()
        .into_iter()
        .filter(|v| v.is_finite())
        .collect();
    if x.len() < 2 {
        return Err(KernelError::new("not enough 'x' observations"));
    }
    let y: Vec<f64> = numeric(args, "y")?
        .ok_or_else(|| KernelError::new("argument \"y\" is missing, with no default"))?
        .into_iter()
        .filter(|v| v.is_finite())
        .collect();
    if y.len() < 2 {
        return Err(KernelError::new("not enough 'y' observations"));
    }
    let (dfx, dfy) = (x.len() as f64 - 1.0, y.len() as f64 - 1.0);
    let est = var(&x) / var(&y);
    let stat = est / ratio;
    let p = crate::kernels::nmath::pf(stat, dfx, dfy, true, false);
    let (pval, cint) = match alt {
        Alternative::TwoSided => {
            let beta = (1.0 - conf) / 2.0;
            (
                2.0 * p.min(1.0 - p),
                vec![
                    est / qf(1.0 - beta, dfx, dfy, true, false),
                    est / qf(beta, dfx, dfy, true, false),
                ],
            )
        }
        Alternative::Greater => (
            1.0 - p,
            vec![est / qf(conf, dfx, dfy, true, false), f64::INFINITY],
        ),
        Alternative::Less => (p, vec![0.0, est / qf(1.0 - conf, dfx, dfy, true, false)]),
    };
    Ok(record(vec![
        ("statistic", nm(stat, "F")),
        ("parameter", nms(vec![dfx, dfy], &["num df", "denom df"])),
        (
            "p.value",
            Value::scalar(if pval.is_nan() { NA } else { pval }),
        ),
        ("conf.int", Value::Num(cint)),
        ("estimate", nm(est, "ratio of variances")),
        ("null.value", nm(ratio, "ratio of variances")),
        ("alternative", Value::string(alt.r_name())),
        ("method", Value::string("F test to compare two variances")),
    ]))
}

fn check_data(args: &Args<Type>, name: &str) -> Result<(), ArgError> {
    match args.ty(name) {
        None | Some(Type::Any | Type::Null) => Ok(()),
        Some(t) if t.is_numeric() => Ok(()),
        Some(t) => Err(args.error(
            name,
            format!("'{name}' must be numeric, not {}", t.describe()),
        )),
    }
}

pub(super) fn t_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_data(args, "x")?;
    check_data(args, "y")?;
    check_alternative(args)?;
    let two = args.ty("y").is_some_and(|t| !matches!(t, Type::Null))
        && args.get("paired").and_then(Type::const_scalar) != Some(1.0);
    let est = if two { Type::num(2) } else { Type::num(1) };
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(1)),
            ("p.value", Type::num(1)),
            ("conf.int", Type::num(2)),
            ("estimate", est),
            ("null.value", Type::num(1)),
            ("stderr", Type::num(1)),
            ("alternative", str1()),
            ("method", str1()),
        ],
    ))
}

pub(super) fn var_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_data(args, "x")?;
    check_data(args, "y")?;
    check_alternative(args)?;
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(2)),
            ("p.value", Type::num(1)),
            ("conf.int", Type::num(2)),
            ("estimate", Type::num(1)),
            ("null.value", Type::num(1)),
            ("alternative", str1()),
            ("method", str1()),
        ],
    ))
}

/// t.test.default's `if (stderr < 10 * .Machine$double.eps * abs(mx))`:
/// an `Inf` among the data makes it NA, which `if` refuses.
fn constant_or_na(stderr: f64, m: f64) -> Result<bool, KernelError> {
    let bound = 10.0 * f64::EPSILON * m;
    if stderr.is_nan() || bound.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    Ok(stderr < bound)
}
