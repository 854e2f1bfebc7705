//! `fligner.test(x, g)`: the Fligner-Killeen (median) test of homogeneity
//! of variances, as R 4.2's fligner.test.default: a list of samples, or
//! the data and its groups (the formula method hands it these).

use super::super::factor::{as_factor, drop_unused};
use super::super::nmath::pchisq;
use super::super::nmath::qnorm::qnorm;
use super::super::summary::{ldouble, mean, median_of};
use super::{rank, record};
use crate::kernels::Args;
use crate::kernels::{Ctx, KernelError, Value};

/// The data in R's order (a list unlisted) and each value's group, with
/// the number of groups.
fn data(args: &Args<&Value>) -> Result<(Vec<f64>, Vec<usize>, usize), KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    if let Value::List(l) = x {
        if l.items.len() < 2 {
            return Err(KernelError::new(
                "'x' must be a list with at least 2 elements",
            ));
        }
        let mut xs = Vec::new();
        let mut g = Vec::new();
        for (i, item) in l.items.iter().enumerate() {
            let s = item
                .as_f64_slice()
                .filter(|_| !matches!(item, Value::Str(_) | Value::Factor(_)))
                .ok_or_else(|| KernelError::new("all elements of 'x' must be numeric"))?;
            let before = xs.len();
            xs.extend(s.iter().copied().filter(|v| !v.is_nan()));
            if xs.len() == before {
                return Err(KernelError::new("all groups must contain data"));
            }
            g.resize(xs.len(), i);
        }
        return Ok((xs, g, l.items.len()));
    }
    let xs = match x {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) => x.as_f64_slice().unwrap_or_default(),
        other => {
            return Err(KernelError::new(format!(
                "flowcast's fligner.test takes numbers or a list of them, not {}",
                other.type_name()
            )))
        }
    };
    let g = args
        .get("g")
        .ok_or_else(|| KernelError::new("argument \"g\" is missing, with no default"))?;
    if g.len() != xs.len() {
        return Err(KernelError::new("'x' and 'g' must have the same length"));
    }
    let f = as_factor(g)?;
    // complete.cases(x, g), then factor(g[OK]): levels with no case go.
    let ok: Vec<usize> = (0..xs.len())
        .filter(|&i| !xs[i].is_nan() && f.codes[i].is_some())
        .collect();
    let f = drop_unused(&crate::kernels::value::Factor {
        codes: ok.iter().map(|&i| f.codes[i]).collect(),
        levels: f.levels,
        ordered: false,
    });
    let k = f.levels.len();
    if k < 2 {
        return Err(KernelError::new("all observations are in the same group"));
    }
    let codes = f.codes.iter().map(|c| c.unwrap_or(0) as usize).collect();
    Ok((ok.iter().map(|&i| xs[i]).collect(), codes, k))
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let (mut x, g, k) = data(args)?;
    let n = x.len();
    if n < 2 {
        return Err(KernelError::new("not enough observations"));
    }
    // x - tapply(x, g, median)[g]
    let mut groups: Vec<Vec<f64>> = vec![Vec::new(); k];
    for (v, &gi) in x.iter().zip(&g) {
        groups[gi].push(*v);
    }
    let medians: Vec<f64> = groups.into_iter().map(median_of).collect();
    for (v, &gi) in x.iter_mut().zip(&g) {
        *v -= medians[gi];
    }
    let abs: Vec<f64> = x.iter().map(|v| v.abs()).collect();
    let nf = n as f64;
    let mut a: Vec<f64> = rank(&abs)
        .iter()
        .map(|r| qnorm((1.0 + r / (nf + 1.0)) / 2.0, 0.0, 1.0, true, false))
        .collect();
    let ma = mean(&a);
    for v in &mut a {
        *v -= ma;
    }
    let sq: Vec<f64> = a.iter().map(|v| v * v).collect();
    let var = ldouble::sum(&sq).to_f64() / (nf - 1.0);
    // sum(lengths(a) * vapply(a, mean, 0)^2) over split(a, g)
    let mut split: Vec<Vec<f64>> = vec![Vec::new(); k];
    for (v, &gi) in a.iter().zip(&g) {
        split[gi].push(*v);
    }
    let terms: Vec<f64> = split
        .iter()
        .map(|s| {
            let m = mean(s);
            s.len() as f64 * (m * m)
        })
        .collect();
    let statistic = ldouble::sum(&terms).to_f64() / var;
    let df = (k - 1) as f64;
    Ok(record(vec![
        (
            "statistic",
            super::nm(statistic, "Fligner-Killeen:med chi-squared"),
        ),
        ("parameter", super::nm(df, "df")),
        (
            "p.value",
            Value::scalar(pchisq(statistic, df, false, false)),
        ),
        (
            "method",
            Value::string("Fligner-Killeen test of homogeneity of variances"),
        ),
    ]))
}
