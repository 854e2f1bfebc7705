//! `pairwise.t.test(x, g)` and `pairwise.wilcox.test(x, g)`: R 4.2's
//! tests of every pair of groups, their p-values adjusted together
//! (`pairwise.table`).
//!
//! The result is R's `pairwise.htest`: `method`, `data.name` (added by
//! the evaluator, which has the call's text), `p.value` and
//! `p.adjust.method`. `p.value` is a matrix with a row for each group but
//! the first and a column for each but the last, named by the groups'
//! levels; cells above the diagonal are NA.

use super::padjust;
use super::{match_alternative, Alternative, ALT_ERROR};
use crate::kernels::factor::{as_factor, drop_unused};
use crate::kernels::names::dimnamed;
use crate::kernels::nmath::pt;
use crate::kernels::summary::{ldouble, mean, var};
use crate::kernels::value::{is_na, List, NA};
use crate::kernels::{registry, ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

/// `factor(g)`: the groups' codes and the levels that occur.
fn groups(g: &Value, n: usize) -> Result<(Vec<Option<usize>>, Vec<String>), KernelError> {
    if g.len() != n {
        return Err(KernelError::new("arguments must have same length"));
    }
    let f = as_factor(g).map_err(|_| KernelError::new("'g' must be a vector of groups"))?;
    // factor() of a factor drops the levels no element has.
    let f = drop_unused(&f);
    let codes = f.codes.iter().map(|c| c.map(|c| c as usize)).collect();
    let levels = f.levels;
    Ok((codes, levels))
}

/// R's `match.arg(p.adjust.method)`.
fn adjust_method(args: &Args<&Value>) -> Result<&'static str, KernelError> {
    match args.get("p.adjust.method") {
        None => Ok("holm"),
        Some(Value::Str(s)) if s.len() == 1 => {
            padjust::match_method(&s[0]).ok_or_else(|| KernelError::new(padjust::method_error()))
        }
        Some(Value::Str(s)) if s.len() == padjust::METHODS.len() => Ok("holm"),
        Some(_) => Err(KernelError::new("'arg' must be NULL or a character vector")),
    }
}

/// R's `pairwise.table`: `compare(i, j)` for each pair of levels `i > j`
/// (0-based), adjusted together, as the lower triangle of a matrix.
fn table(
    levels: &[String],
    method: &str,
    mut compare: impl FnMut(usize, usize) -> Result<f64, KernelError>,
) -> Result<Value, KernelError> {
    let k = levels.len().saturating_sub(1);
    let mut p = vec![NA; k * k];
    // Column-major, as R fills `outer` and reads `pp[lower.tri(pp, TRUE)]`.
    let mut lower = Vec::new();
    for col in 0..k {
        for row in col..k {
            lower.push((row, col));
        }
    }
    let raw: Vec<f64> = lower
        .iter()
        .map(|&(row, col)| compare(row + 1, col))
        .collect::<Result<_, _>>()?;
    for (&(row, col), v) in lower.iter().zip(padjust::adjust_na(&raw, method)) {
        p[col * k + row] = v;
    }
    let m = Value::Mat(nalgebra::DMatrix::from_vec(k, k, p));
    // Fewer than two groups compare nothing: a 0 x 0 matrix, unnamed.
    Ok(match levels.split_first() {
        Some((_, rest)) if k > 0 => dimnamed(m, Some(rest.to_vec()), Some(levels[..k].to_vec())),
        _ => m,
    })
}

/// `x[as.integer(g) == i]`: R's logical subscript, whose NAs (where `g`
/// is NA) select NAs.
fn sample(x: &[f64], codes: &[Option<usize>], i: usize) -> Vec<f64> {
    x.iter()
        .zip(codes)
        .filter_map(|(&v, c)| match c {
            Some(c) if *c == i => Some(v),
            Some(_) => None,
            None => Some(NA),
        })
        .collect()
}

/// Runs the kernel `func` on the samples of groups `i` and `j` with
/// `extra` arguments and the call's own `...`; its p-value and method.
fn two_sample(
    func: &'static str,
    (x, codes): (&[f64], &[Option<usize>]),
    (i, j): (usize, usize),
    extra: Vec<(&str, Value)>,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<(f64, Option<String>), KernelError> {
    let k = registry()
        .get(func)
        .ok_or_else(|| KernelError::new(format!("could not find function \"{func}\"")))?;
    let (x, y) = (
        Value::Num(sample(x, codes, i)),
        Value::Num(sample(x, codes, j)),
    );
    let mut given: Vec<(Option<String>, &Value)> = vec![(None, &x), (None, &y)];
    given.extend(extra.iter().map(|(n, v)| (Some(n.to_string()), v)));
    given.extend(args.dots().map(|(n, v)| (n.map(str::to_string), v)));
    let matched =
        Args::match_call(k.name, k.params, given).map_err(|e| KernelError::new(e.message))?;
    let Value::List(l) = k.call(&matched, ctx)? else {
        return Err(KernelError::new(format!("{func}() gave no test")));
    };
    let p = l.field("p.value").and_then(Value::as_scalar).unwrap_or(NA);
    let method = match l.field("method") {
        Some(Value::Str(s)) if s.len() == 1 => Some(s[0].clone()),
        _ => None,
    };
    Ok((p, method))
}

fn numbers(args: &Args<&Value>) -> Result<Vec<f64>, KernelError> {
    match args.get("x") {
        Some(v @ (Value::Num(_) | Value::Bool(_))) => {
            Ok(v.as_f64_slice().unwrap_or_default().into_owned())
        }
        Some(_) => Err(KernelError::new("'x' must be numeric")),
        None => Err(KernelError::new(
            "argument \"x\" is missing, with no default",
        )),
    }
}

fn group_arg<'a>(args: &'a Args<&Value>) -> Result<&'a Value, KernelError> {
    args.get("g")
        .ok_or_else(|| KernelError::new("argument \"g\" is missing, with no default"))
}

fn result(method: Option<String>, p: Value, adjust: &str) -> Value {
    Value::List(List::record(
        "pairwise.htest",
        vec![
            ("method", method.map_or(Value::Null, |m| Value::string(&m))),
            ("p.value", p),
            ("p.adjust.method", Value::string(adjust)),
        ],
    ))
}

/// The group statistics of `pool.sd = TRUE`: `tapply(x, g, mean, na.rm =
/// TRUE)`, `tapply(x, g, sd, na.rm = TRUE)` and the complete cases.
struct Pooled {
    mean: Vec<f64>,
    n: Vec<f64>,
    sd: f64,
    df: f64,
}

fn pooled(x: &[f64], codes: &[Option<usize>], levels: usize) -> Pooled {
    let mut by: Vec<Vec<f64>> = vec![Vec::new(); levels];
    for (&v, c) in x.iter().zip(codes) {
        if let (Some(c), false) = (c, v.is_nan()) {
            by[*c].push(v);
        }
    }
    let n: Vec<f64> = by.iter().map(|s| s.len() as f64).collect();
    let s: Vec<f64> = by
        .iter()
        .map(|s| {
            let v = var(s);
            if is_na(v) {
                NA
            } else {
                v.sqrt()
            }
        })
        .collect();
    let df: f64 = n.iter().map(|n| n - 1.0).sum();
    let terms: Vec<f64> = s.iter().zip(&n).map(|(s, n)| s * s * (n - 1.0)).collect();
    // An NA standard deviation (a group of one) makes the pooled one NA.
    let sd = if s.iter().any(|&s| is_na(s)) {
        NA
    } else {
        (ldouble::sum(&terms).to_f64() / df).sqrt()
    };
    Pooled {
        mean: by.iter().map(|s| mean(s)).collect(),
        n,
        sd,
        df,
    }
}

pub(super) fn t_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = numbers(args)?;
    let paired = args.bool_or("paired", false)?;
    let pool = args.bool_or("pool.sd", !paired)?;
    if paired && pool {
        return Err(KernelError::new(
            "pooling of SD is incompatible with paired tests",
        ));
    }
    let (codes, levels) = groups(group_arg(args)?, x.len())?;
    let adjust = adjust_method(args)?;
    let alt = match args.get("alternative") {
        None => Alternative::TwoSided,
        Some(Value::Str(s)) if s.len() == 1 => {
            match_alternative(&s[0]).ok_or_else(|| KernelError::new(ALT_ERROR))?
        }
        Some(Value::Str(s)) if s.len() == 3 => Alternative::TwoSided,
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    if pool {
        let st = pooled(&x, &codes, levels.len());
        let p = table(&levels, adjust, |i, j| {
            if is_na(st.sd) {
                return Ok(NA);
            }
            let dif = st.mean[i] - st.mean[j];
            let se = st.sd * (1.0 / st.n[i] + 1.0 / st.n[j]).sqrt();
            let t = dif / se;
            Ok(match alt {
                Alternative::TwoSided => 2.0 * pt(-t.abs(), st.df, true, false),
                Alternative::Less => pt(t, st.df, true, false),
                Alternative::Greater => pt(t, st.df, false, false),
            })
        })?;
        return Ok(result(Some("t tests with pooled SD".into()), p, adjust));
    }
    let method = if paired {
        "paired t tests"
    } else {
        "t tests with non-pooled SD"
    };
    let p = table(&levels, adjust, |i, j| {
        let extra = vec![
            ("paired", Value::flag(paired)),
            ("alternative", Value::string(alt.r_name())),
        ];
        two_sample("t.test", (&x, &codes), (i, j), extra, args, ctx).map(|(p, _)| p)
    })?;
    Ok(result(Some(method.into()), p, adjust))
}

pub(super) fn wilcox_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = numbers(args)?;
    let paired = args.bool_or("paired", false)?;
    let adjust = adjust_method(args)?;
    let (codes, levels) = groups(group_arg(args)?, x.len())?;
    // The method is the first test's (exact or with continuity
    // correction, as that test decided).
    let mut method = None;
    let p = table(&levels, adjust, |i, j| {
        let extra = vec![("paired", Value::flag(paired))];
        let (p, m) = two_sample("wilcox.test", (&x, &codes), (i, j), extra, args, ctx)?;
        method.get_or_insert(m);
        Ok(p)
    })?;
    Ok(result(method.flatten(), p, adjust))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        None => return Err(ArgError::call("argument \"x\" is missing, with no default")),
        Some(t) if t.is_numeric() || matches!(t, Type::Any) => {}
        Some(_) => return Err(args.error("x", "'x' must be numeric")),
    }
    if !args.has("g") {
        return Err(ArgError::call("argument \"g\" is missing, with no default"));
    }
    htest_type(args)
}

/// `pairwise.prop.test(x, n)`: R 4.2's stats:::pairwise.prop.test, which
/// runs `prop.test(x[c(i, j)], n[c(i, j)], ...)` for each pair of groups
/// (the groups are the elements of `x`, or the rows of a two-column
/// matrix of successes and failures) and adjusts the p-values together.
pub(super) fn prop_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let adjust = adjust_method(args)?;
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let not_numeric = || KernelError::new("'x' must be numeric");
    let (x, n, names) = match xv.dims() {
        Some((rows, cols)) => {
            if cols != 2 {
                return Err(KernelError::new("'x' must have 2 columns"));
            }
            let m = xv.as_f64_slice().ok_or_else(not_numeric)?;
            // n <- rowSums(x); x <- x[, 1]
            let n: Vec<f64> = (0..rows).map(|i| m[i] + m[rows + i]).collect();
            let names = crate::kernels::names::dimnames(xv)
                .0
                .map(<[String]>::to_vec);
            (m[..rows].to_vec(), n, names)
        }
        None => {
            let x = xv.as_f64_slice().ok_or_else(not_numeric)?.into_owned();
            let nv = args
                .get("n")
                .ok_or_else(|| KernelError::new("argument \"n\" is missing, with no default"))?;
            if x.len() != nv.len() {
                return Err(KernelError::new("'x' and 'n' must have the same length"));
            }
            let n = nv
                .as_f64_slice()
                .ok_or_else(|| KernelError::new("'n' must be numeric"))?
                .into_owned();
            let names = crate::kernels::names::names(xv).map(<[String]>::to_vec);
            (x, n, names)
        }
    };
    // complete.cases(x, n)
    let ok: Vec<usize> = (0..x.len())
        .filter(|&i| !x[i].is_nan() && !n[i].is_nan())
        .collect();
    if ok.len() < 2 {
        return Err(KernelError::new("too few groups"));
    }
    let levels: Vec<String> = match names {
        Some(nm) => ok.iter().map(|&i| nm[i].clone()).collect(),
        None => (1..=ok.len()).map(|i| i.to_string()).collect(),
    };
    let (x, n): (Vec<f64>, Vec<f64>) = ok.iter().map(|&i| (x[i], n[i])).unzip();
    let k = registry()
        .get("prop.test")
        .ok_or_else(|| KernelError::new("could not find function \"prop.test\""))?;
    let p = table(&levels, adjust, |i, j| {
        let (xs, ns) = (Value::Num(vec![x[i], x[j]]), Value::Num(vec![n[i], n[j]]));
        let mut given: Vec<(Option<String>, &Value)> = vec![(None, &xs), (None, &ns)];
        given.extend(args.dots().map(|(n, v)| (n.map(str::to_string), v)));
        let matched =
            Args::match_call(k.name, k.params, given).map_err(|e| KernelError::new(e.message))?;
        let Value::List(l) = k.call(&matched, ctx)? else {
            return Err(KernelError::new("prop.test() gave no test"));
        };
        Ok(l.field("p.value").and_then(Value::as_scalar).unwrap_or(NA))
    })?;
    Ok(result(
        Some("Pairwise comparison of proportions".into()),
        p,
        adjust,
    ))
}

/// A `pairwise.htest`'s type, once `p.adjust.method` is known good.
fn htest_type(args: &Args<Type>) -> Result<Type, ArgError> {
    if let Some(m) = args.const_str("p.adjust.method") {
        if padjust::match_method(m).is_none() {
            return Err(args.error("p.adjust.method", padjust::method_error()));
        }
    }
    let text = || Type::Str {
        len: Some(1),
        value: None,
    };
    Ok(Type::record(
        "pairwise.htest",
        vec![
            ("method", text()),
            ("data.name", text()),
            (
                "p.value",
                Type::Mat {
                    rows: None,
                    cols: None,
                },
            ),
            ("p.adjust.method", text()),
        ],
    ))
}

pub(super) fn prop_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if !args.has("x") {
        return Err(ArgError::call("argument \"x\" is missing, with no default"));
    }
    htest_type(args)
}
