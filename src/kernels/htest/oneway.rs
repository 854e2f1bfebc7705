//! `oneway.test(formula, data, var.equal = FALSE)`: Welch's one-way
//! analysis of means, or the classical F test with `var.equal = TRUE`, as
//! R 4.2's `oneway.test`.

use crate::kernels::factor::{as_factor, drop_unused};
use crate::kernels::nmath::{pf, rsum};
use crate::kernels::summary::{mean, var as corcov_var};
use crate::kernels::value::{Factor, List};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

fn incorrect() -> KernelError {
    KernelError::new("'formula' missing or incorrect")
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Formula(f)) = args.get("formula") else {
        return Err(incorrect());
    };
    let response = f.response.as_deref().ok_or_else(incorrect)?;
    let label = f.response_label.as_deref().unwrap_or("y");
    let var_equal = args.bool_or("var.equal", false)?;
    let [(term, group)] = &f.terms[..] else {
        return Err(if f.terms.is_empty() {
            incorrect()
        } else {
            // R would cross the terms with `interaction`; not done here.
            KernelError::new("oneway.test() takes one grouping variable: response ~ group")
        });
    };
    let y = response
        .as_f64_slice()
        .filter(|_| !matches!(response, Value::Str(_) | Value::Factor(_)))
        .ok_or_else(|| KernelError::new(format!("the response `{label}` must be numeric")))?;
    if group.len() != y.len() {
        return Err(KernelError::new(format!(
            "variable lengths differ (found for '{term}')"
        )));
    }
    // model.frame's subset and na.action, then factor(g) drops the levels
    // left empty.
    let g = as_factor(group)?;
    let rows =
        super::formula::frame_rows(y.len(), args, |i| !y[i].is_nan() && g.codes[i].is_some())?;
    let g = drop_unused(&Factor {
        codes: rows.iter().map(|r| r.and_then(|i| g.codes[i])).collect(),
        levels: g.levels,
        ordered: false,
    });
    let y: Vec<f64> = rows.iter().map(|r| r.map_or(f64::NAN, |i| y[i])).collect();
    let k = g.levels.len();
    if k < 2 {
        return Err(KernelError::new("not enough groups"));
    }
    let mut groups = vec![Vec::new(); k];
    for (v, c) in y.iter().zip(&g.codes) {
        if let Some(c) = c {
            groups[*c as usize].push(*v);
        }
    }
    let n_i: Vec<f64> = groups.iter().map(|s| s.len() as f64).collect();
    if n_i.iter().any(|n| *n < 2.0) {
        return Err(KernelError::new("not enough observations"));
    }
    let m_i: Vec<f64> = groups.iter().map(|s| mean(s)).collect();
    let v_i: Vec<f64> = groups.iter().map(|s| corcov_var(s)).collect();
    let w_i: Vec<f64> = n_i.iter().zip(&v_i).map(|(n, v)| n / v).collect();
    let sum_w_i = rsum(&w_i);
    let kf = k as f64;
    let tmp_terms: Vec<f64> = w_i
        .iter()
        .zip(&n_i)
        .map(|(w, n)| (1.0 - w / sum_w_i).powi(2) / (n - 1.0))
        .collect();
    let tmp = rsum(&tmp_terms) / (kf * kf - 1.0);
    let (stat, df2, method) = if var_equal {
        let n = rsum(&n_i);
        let my = mean(&y);
        let between: Vec<f64> = n_i
            .iter()
            .zip(&m_i)
            .map(|(n, m)| n * (m - my).powi(2))
            .collect();
        let within: Vec<f64> = n_i.iter().zip(&v_i).map(|(n, v)| (n - 1.0) * v).collect();
        let stat = (rsum(&between) / (kf - 1.0)) / (rsum(&within) / (n - kf));
        (stat, n - kf, "One-way analysis of means")
    } else {
        let wm: Vec<f64> = w_i.iter().zip(&m_i).map(|(w, m)| w * m).collect();
        let m = rsum(&wm) / sum_w_i;
        let dev: Vec<f64> = w_i
            .iter()
            .zip(&m_i)
            .map(|(w, mi)| w * (mi - m).powi(2))
            .collect();
        let stat = rsum(&dev) / ((kf - 1.0) * (1.0 + 2.0 * (kf - 2.0) * tmp));
        (
            stat,
            1.0 / (3.0 * tmp),
            "One-way analysis of means (not assuming equal variances)",
        )
    };
    let p = pf(stat, kf - 1.0, df2, false, false);
    Ok(Value::List(List::record(
        "htest",
        vec![
            ("statistic", super::nm(stat, "F")),
            (
                "parameter",
                super::nms(vec![kf - 1.0, df2], &["num df", "denom df"]),
            ),
            ("p.value", Value::scalar(p)),
            ("method", Value::string(method)),
            ("data.name", Value::string(&format!("{label} and {term}"))),
        ],
    )))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("formula") {
        Some(Type::Formula {
            response, terms, ..
        }) => {
            if response.is_none() || terms.is_empty() {
                return Err(args.error("formula", "'formula' missing or incorrect"));
            }
        }
        Some(Type::Any) => {}
        _ => return Err(args.error("formula", "'formula' missing or incorrect")),
    }
    let text = || Type::Str {
        len: Some(1),
        value: None,
    };
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(2)),
            ("p.value", Type::num(1)),
            ("method", text()),
            ("data.name", text()),
        ],
    ))
}
