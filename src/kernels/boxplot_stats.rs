//! `boxplot.stats(x, coef, do.conf, do.out)`: grDevices/R/calc.R's
//! `boxplot.stats` of R 4.2.2 step by step, over flowcast's `fivenum`
//! (R's). The value is R's `list(stats, n, conf, out)`.

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::{List, NA};
use super::{opt, registry, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "boxplot.stats",
    params: &[req("x"), opt("coef"), opt("do.conf"), opt("do.out")],
    random: false,
    shape,
    eval,
}];

/// `if (cond)` on a logical or number argument, as R reads it.
fn condition(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    super::logical::if_given(args.get(name), default)
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let x: Vec<f64> = match bare(xv) {
        Value::Null => Vec::new(),
        v => match v.as_f64_slice() {
            Some(s) => s.into_owned(),
            None => return Err(KernelError::new("need numeric data")),
        },
    };
    let coef = match args.get("coef") {
        None => 1.5,
        Some(v) => match bare(v).as_f64_slice() {
            Some(s) if !s.is_empty() => s[0],
            Some(_) => return Err(KernelError::new("argument is of length zero")),
            None => {
                return Err(KernelError::new(
                    "comparison (<) is possible only for atomic and list types",
                ))
            }
        },
    };
    if coef.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if coef < 0.0 {
        return Err(KernelError::new("'coef' must not be negative"));
    }
    let do_conf = condition(args, "do.conf", true)?;
    let mut do_out = condition(args, "do.out", true)?;
    let nna: Vec<bool> = x.iter().map(|v| !v.is_nan()).collect();
    let n = nna.iter().filter(|&&b| b).count();
    let five = {
        let k = registry()
            .get("fivenum")
            .expect("boxplot.stats' fivenum is registered");
        let xnum = Value::Num(x.clone());
        let t = Value::Bool(vec![Some(true)]);
        let matched = Args::match_call(
            k.name,
            k.params,
            vec![(None, &xnum), (Some("na.rm".to_string()), &t)],
        )
        .map_err(|e| KernelError::new(e.message))?;
        k.call(&matched, ctx)?
    };
    let mut stats: Vec<f64> = bare(&five)
        .as_f64_slice()
        .map(|s| s.into_owned())
        .unwrap_or_else(|| vec![NA; 5]);
    if stats.len() != 5 {
        stats.resize(5, NA);
    }
    let iqr = stats[3] - stats[1];
    // out: TRUE, FALSE or NA per element.
    let mut out: Vec<Option<bool>> = Vec::new();
    if coef == 0.0 {
        do_out = false;
    } else {
        out = if !iqr.is_nan() {
            let lo = stats[1] - coef * iqr;
            let hi = stats[3] + coef * iqr;
            x.iter()
                .map(|&v| {
                    let below = (!v.is_nan() && !lo.is_nan()).then_some(v < lo);
                    let above = (!v.is_nan() && !hi.is_nan()).then_some(v > hi);
                    match (below, above) {
                        (Some(true), _) | (_, Some(true)) => Some(true),
                        (Some(false), Some(false)) => Some(false),
                        _ => None,
                    }
                })
                .collect()
        } else {
            x.iter().map(|v| Some(!v.is_finite())).collect()
        };
        let any_out = out
            .iter()
            .zip(&nna)
            .any(|(o, &kept)| kept && *o == Some(true));
        if any_out {
            let inside: Vec<f64> = x
                .iter()
                .zip(&out)
                .filter(|(v, o)| **o == Some(false) && !v.is_nan())
                .map(|(&v, _)| v)
                .collect();
            if inside.is_empty() {
                ctx.warn("no non-missing arguments to min; returning Inf");
                ctx.warn("no non-missing arguments to max; returning -Inf");
                stats[0] = f64::INFINITY;
                stats[4] = f64::NEG_INFINITY;
            } else {
                stats[0] = inside.iter().copied().fold(f64::INFINITY, f64::min);
                stats[4] = inside.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            }
        }
    }
    let conf = if do_conf {
        let half = 1.58 * iqr / (n as f64).sqrt();
        let lower = -1.58 * iqr / (n as f64).sqrt();
        Value::Num(vec![stats[2] + lower, stats[2] + half])
    } else {
        Value::Null
    };
    let outliers = if do_out {
        x.iter()
            .zip(&out)
            .zip(&nna)
            .filter_map(|((&v, o), &kept)| match (o, kept) {
                (Some(true), true) => Some(v),
                (None, true) => Some(NA),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Value::List(List {
        class: None,
        names: Some(vec![
            "stats".into(),
            "n".into(),
            "conf".into(),
            "out".into(),
        ]),
        items: vec![
            Value::Num(stats),
            Value::scalar(n as f64),
            conf,
            Value::Num(outliers),
        ],
        row_names: None,
    }))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("x") {
        if !t.is_numeric() && !matches!(t, Type::Null | Type::Any) {
            return Err(args.error(
                "x",
                format!(
                    "boxplot.stats() needs numbers for 'x', not {}",
                    t.describe()
                ),
            ));
        }
    }
    let conf = match args.ty("do.conf") {
        Some(Type::Bool { value: Some(v), .. }) if v.as_slice() == [Some(false)] => Type::Null,
        None => Type::num(2),
        _ => Type::Any,
    };
    Ok(Type::record(
        "list",
        vec![
            ("stats", Type::num(5)),
            ("n", Type::num(1)),
            ("conf", conf),
            ("out", Type::num_unknown()),
        ],
    ))
}
