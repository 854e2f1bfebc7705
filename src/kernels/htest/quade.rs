//! `quade.test(y)`: Quade's test for unreplicated complete block designs,
//! as R 4.2's quade.test.default: `y` a matrix (rows blocks, columns
//! groups), or `y, groups, blocks` of one length.

use super::super::arith::r_pow;
use super::super::factor::as_factor;
use super::super::nmath::gamma::gammafn;
use super::super::nmath::pf;
use super::super::summary::ldouble;
use super::super::value::NA;
use super::{rank, record};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use nalgebra::DMatrix;

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("y") {
        None | Some(Type::Any) | Some(Type::Mat { .. }) => {}
        // `y ~ groups | blocks`: the evaluator hands the three columns to
        // the default method; any other formula is refused as it runs.
        Some(Type::Formula { .. }) => {}
        Some(t) if t.is_numeric() => {
            for name in ["groups", "blocks"] {
                if !args.has(name) {
                    return Err(args.error(
                        name,
                        format!("argument \"{name}\" is missing, with no default"),
                    ));
                }
            }
        }
        Some(t) => {
            return Err(args.error(
                "y",
                format!("quade.test needs a numeric matrix, not {}", t.describe()),
            ))
        }
    }
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(2)),
            ("p.value", Type::num(1)),
            (
                "method",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
        ],
    ))
}

/// The blocks x groups matrix of the vector form, each cell given once,
/// checked in R's order.
fn design(y: &Value, groups: &Value, blocks: &Value) -> Result<DMatrix<f64>, KernelError> {
    let g = as_factor(groups)?;
    let b = as_factor(blocks)?;
    if g.codes.iter().chain(&b.codes).any(Option::is_none) {
        return Err(KernelError::new(
            "NA's are not allowed in 'groups' or 'blocks'",
        ));
    }
    let yv = y
        .as_f64_slice()
        .ok_or_else(|| KernelError::new("'y' must be numeric"))?;
    if yv.len() != g.codes.len() || g.codes.len() != b.codes.len() {
        return Err(KernelError::new(
            "'y', 'groups' and 'blocks' must have the same length",
        ));
    }
    let (k, nb) = (g.levels.len(), b.levels.len());
    let mut seen = vec![0u32; nb * k];
    let mut m = DMatrix::zeros(nb, k);
    for ((&v, gi), bi) in yv.iter().zip(&g.codes).zip(&b.codes) {
        let (gi, bi) = (gi.unwrap_or(0) as usize, bi.unwrap_or(0) as usize);
        seen[bi + nb * gi] += 1;
        m[(bi, gi)] = v;
    }
    if seen.iter().any(|&c| c != 1) {
        return Err(KernelError::new(
            "not an unreplicated complete block design",
        ));
    }
    Ok(m)
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let built;
    let m = match args.get("y") {
        Some(Value::Mat(m)) => m,
        Some(y @ (Value::Num(_) | Value::Bool(_))) => {
            let g = args.get("groups").ok_or_else(|| {
                KernelError::new("argument \"groups\" is missing, with no default")
            })?;
            let b = args.get("blocks").ok_or_else(|| {
                KernelError::new("argument \"blocks\" is missing, with no default")
            })?;
            built = if args.has("subset") || args.has("na.action") {
                let (y, g, b) = super::formula::block_frame(args, y, g, b)?;
                design(&y, &g, &b)?
            } else {
                design(y, g, b)?
            };
            &built
        }
        // A formula the evaluator did not split: not `y ~ groups | blocks`.
        Some(Value::Formula(_)) => {
            return Err(KernelError::new("incorrect specification for 'formula'"))
        }
        Some(v) => {
            return Err(KernelError::new(format!(
                "quade.test needs a numeric matrix, not {}",
                v.type_name()
            )))
        }
        None => {
            return Err(KernelError::new(
                "argument \"y\" is missing, with no default",
            ))
        }
    };
    let k = m.ncols();
    // nlevels(blocks): every row, complete or not, as R counts them.
    let b = m.nrows() as f64;
    let rows: Vec<Vec<f64>> = (0..m.nrows())
        .map(|i| (0..k).map(|j| m[(i, j)]).collect::<Vec<f64>>())
        .filter(|r| !r.iter().any(|v| v.is_nan()))
        .collect();
    let n = rows.len();
    // y[complete.cases(y), ] drops one row or one column to a vector, and
    // apply() then fails.
    if n == 1 || k == 1 {
        return Err(KernelError::new("dim(X) must have a positive length"));
    }
    let kf = k as f64;
    let ranges: Vec<f64> = rows
        .iter()
        .map(|r| {
            let hi = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let lo = r.iter().copied().fold(f64::INFINITY, f64::min);
            hi - lo
        })
        .collect();
    let q = rank(&ranges);
    // s[i, j] = q[i] * (r[i, j] - (k + 1) / 2), column-major.
    let mut s = vec![0.0; n * k];
    for (i, row) in rows.iter().enumerate() {
        for (j, r) in rank(row).into_iter().enumerate() {
            s[i + n * j] = q[i] * (r - (kf + 1.0) / 2.0);
        }
    }
    let sq: Vec<f64> = s.iter().map(|v| v * v).collect();
    let a = ldouble::sum(&sq).to_f64();
    let col_sq: Vec<f64> = (0..k)
        .map(|j| {
            let c = ldouble::sum(&s[n * j..n * (j + 1)]).to_f64();
            c * c
        })
        .collect();
    let bb = ldouble::sum(&col_sq).to_f64() / b;
    let (statistic, parameter, p) = if a == bb {
        // Conover's (1999, p. 374) zero-denominator case, as R.
        (f64::NAN, vec![NA, NA], r_pow(gammafn(kf + 1.0), 1.0 - b))
    } else {
        let stat = (b - 1.0) * bb / (a - bb);
        let (d1, d2) = (kf - 1.0, (b - 1.0) * (kf - 1.0));
        (stat, vec![d1, d2], pf(stat, d1, d2, false, false))
    };
    Ok(record(vec![
        ("statistic", super::nm(statistic, "Quade F")),
        ("parameter", super::nms(parameter, &["num df", "denom df"])),
        ("p.value", Value::scalar(p)),
        ("method", Value::string("Quade test")),
    ]))
}
