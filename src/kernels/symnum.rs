//! `symnum(x, cutpoints, symbols, legend, na, eps, corr, show.max,
//! show.min)`: numbers coded by the interval they fall in (the stars of a
//! p-value, a correlation's symbol), or logicals by two symbols, as
//! stats' symnum.R of R 4.2.2, with its "legend" attribute. A matrix
//! gives a character matrix, which flowcast has no value for, so it is
//! refused; R's class "noquote" (how the strings print) is not kept.

use super::args::{ArgError, Args};
use super::names::{bare, with_attr};
use super::vector::{format_number, format_padded};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "symnum",
    params: &[
        req("x"),
        opt("cutpoints"),
        opt("symbols"),
        opt("legend"),
        opt("na"),
        opt("eps"),
        opt("numeric.x"),
        opt("corr"),
        opt("show.max"),
        opt("show.min"),
        opt("abbr.colnames"),
        opt("lower.triangular"),
        opt("diag.lower.tri"),
    ],
    random: false,
    shape: symnum_shape,
    eval: symnum_eval,
}];

const MATRIX: &str = "symnum of a matrix is a character matrix, which flowcast cannot hold";

fn symnum_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat { .. } | Type::BoolMat { .. }) => Err(args.error("x", MATRIX)),
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => Ok(Type::Str {
            len: t.len(),
            value: None,
        }),
        Some(Type::Any) | None => Ok(Type::Str {
            len: None,
            value: None,
        }),
        Some(t) => Err(args.error(
            "x",
            format!(
                "symnum() needs a numeric or logical vector, not {}",
                t.describe()
            ),
        )),
    }
}

/// R's sQuote in a UTF-8 session (fancy quotes).
fn squote(s: &str) -> String {
    format!("\u{2018}{s}\u{2019}")
}

/// `.bincode(x, breaks, right = TRUE, include.lowest = TRUE)`: the
/// 1-based interval (lo, hi] holding x, the first closed; None outside.
fn bincode(x: f64, breaks: &[f64]) -> Option<usize> {
    let (mut lo, mut hi) = (0, breaks.len() - 1);
    if x.is_nan() || x < breaks[lo] || breaks[hi] < x {
        return None;
    }
    while hi - lo >= 2 {
        let new = (hi + lo) / 2;
        if x > breaks[new] {
            lo = new;
        } else {
            hi = new;
        }
    }
    Some(lo + 1)
}

fn strings(v: &Value, what: &str) -> Result<Vec<String>, KernelError> {
    super::factor::as_text(bare(v))
        .map(|t| {
            t.into_iter()
                .map(|s| s.unwrap_or_else(|| "NA".into()))
                .collect()
        })
        .ok_or_else(|| KernelError::new(format!("invalid '{what}'")))
}

/// show.max's and show.min's replacement: a string as it is, else the
/// bound formatted to one digit; None for NULL.
fn shown(args: &Args<&Value>, name: &str, default: Option<&str>, bound: f64) -> Option<String> {
    match args.get(name) {
        None => default.map(String::from),
        Some(Value::Null) => None,
        Some(Value::Str(s)) if !s.is_empty() => Some(s[0].clone()),
        Some(_) => Some(format_number(bound, 1)),
    }
}

fn symnum_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    if matches!(x, Value::Mat(_) | Value::BoolMat(_)) {
        return Err(KernelError::new(MATRIX));
    }
    if args.has("numeric.x") || args.has("lower.triangular") || args.has("abbr.colnames") {
        return Err(KernelError::new(
            "symnum's numeric.x, lower.triangular and abbr.colnames are not supported",
        ));
    }
    let numeric = match x {
        Value::Num(_) => true,
        Value::Bool(_) => false,
        _ => {
            return Err(KernelError::new(format!(
                "symnum() needs a numeric or logical vector, not {}",
                x.type_name()
            )))
        }
    };
    let xs: Vec<f64> = x.as_f64_slice().unwrap_or_default().into_owned();
    if xs.is_empty() {
        return Ok(Value::Str(Vec::new()));
    }
    let symbols = match args.get("symbols") {
        Some(s) => strings(s, "symbols")?,
        None if numeric => [" ", ".", ",", "+", "*", "B"].map(String::from).to_vec(),
        None => vec![".".into(), "|".into()],
    };
    let ns = symbols.len();
    let legend = args.bool_or("legend", ns >= 3)?;
    let na: Option<String> = match args.get("na") {
        None => Some("?".into()),
        Some(Value::Str(s)) if !s.is_empty() => Some(s[0].clone()),
        Some(_) => None,
    };
    let nax: Vec<bool> = xs.iter().map(|v| v.is_nan()).collect();
    let mut has_na = nax.contains(&true);
    let mut cutpoints: Vec<f64> = Vec::new();
    let codes: Vec<Option<usize>>;
    let mut x_used = xs.clone();
    let (mut minc, mut maxc) = (0.0, 0.0);
    let eps = args.scalar_or("eps", 1e-5)?;
    if numeric {
        let corr = args.bool_or("corr", !args.has("cutpoints"))?;
        cutpoints = match args.get("cutpoints") {
            Some(c) => c
                .as_f64_slice()
                .ok_or_else(|| KernelError::new("'cutpoints' must be numeric"))?
                .into_owned(),
            None => vec![0.3, 0.6, 0.8, 0.9, 0.95],
        };
        cutpoints.retain(|c| !c.is_nan());
        cutpoints.sort_by(f64::total_cmp);
        if corr {
            cutpoints.insert(0, 0.0);
            cutpoints.push(1.0);
        }
        let dup = cutpoints.windows(2).any(|w| w[0] == w[1]);
        if dup || (corr && cutpoints.iter().any(|&c| !(0.0..=1.0).contains(&c))) {
            let head = if corr {
                "'cutpoints' must be unique in 0 < cuts < 1, but are = "
            } else {
                "'cutpoints' must be unique, but are = "
            };
            return Err(KernelError::new(format!(
                "{head}{}",
                format_padded(&cutpoints, 7).join("|")
            )));
        }
        let nc = cutpoints.len();
        if nc == 0 {
            return Err(KernelError::new("'cutpoints' must be numeric"));
        }
        minc = cutpoints[0];
        maxc = cutpoints[nc - 1];
        let range_msg = if corr {
            "'x' must be between -1 and 1".to_string()
        } else {
            format!(
                "'x' must be between {} and {}",
                format_number(minc, 7),
                format_number(maxc, 7)
            )
        };
        if corr {
            x_used = xs.iter().map(|v| v.abs()).collect();
        } else if xs.iter().any(|&v| v < minc - eps) {
            return Err(KernelError::new(range_msg));
        }
        if x_used.iter().any(|&v| v > maxc + eps) {
            return Err(KernelError::new(range_msg));
        }
        for (i, s) in symbols.iter().enumerate() {
            if symbols[..i].contains(s) {
                return Err(KernelError::new(format!(
                    "'symbols' must be unique, but are = {}",
                    symbols.join("|")
                )));
            }
        }
        if nc != ns + 1 {
            return Err(KernelError::new(if corr {
                "number of 'cutpoints' must be one less than number of symbols"
            } else {
                "number of 'cutpoints' must be one more than number of symbols"
            }));
        }
        codes = x_used
            .iter()
            .map(|&v| {
                bincode(v, &cutpoints)
                    .or_else(|| (!v.is_nan() && (v - minc).abs() < eps).then_some(1))
            })
            .collect();
    } else {
        if args.has("symbols") && ns != 2 {
            return Err(KernelError::new(
                "must have 2 'symbols' for logical 'x' argument",
            ));
        }
        if legend {
            return Err(KernelError::new(
                "symnum's legend of a logical 'x' is not supported (R recycles the default cutpoints into it)",
            ));
        }
        codes = xs
            .iter()
            .map(|&v| (!v.is_nan()).then_some(v as usize + 1))
            .collect();
    }
    let pick = |c: Option<usize>| {
        c.and_then(|c| symbols.get(c - 1).cloned())
            .unwrap_or_else(|| "NA".into())
    };
    let mut ans: Vec<String> = if has_na {
        has_na = na.is_some();
        (0..xs.len())
            .map(|i| {
                if nax[i] {
                    na.clone().unwrap_or_default()
                } else {
                    pick(codes[i])
                }
            })
            .collect()
    } else {
        codes.iter().map(|&c| pick(c)).collect()
    };
    if numeric {
        let corr = args.bool_or("corr", !args.has("cutpoints"))?;
        if let Some(s) = shown(args, "show.max", corr.then_some("1"), maxc) {
            for (a, &v) in ans.iter_mut().zip(&x_used) {
                if v >= maxc - eps {
                    *a = s.clone();
                }
            }
        }
        if let Some(s) = shown(args, "show.min", None, minc) {
            for (a, &v) in ans.iter_mut().zip(&x_used) {
                if v <= minc + eps {
                    *a = s.clone();
                }
            }
        }
    }
    let value = Value::Str(ans);
    if !legend {
        return Ok(value);
    }
    let mut parts = Vec::new();
    for (i, c) in cutpoints.iter().enumerate() {
        parts.push(format_number(*c, 7));
        parts.push(symbols.get(i).map_or_else(String::new, |s| squote(s)));
    }
    parts.pop();
    if has_na {
        parts.push(format!(
            "\t    ## NA: {}",
            squote(na.as_deref().unwrap_or(""))
        ));
    }
    Ok(with_attr(
        value,
        "legend",
        Value::Str(vec![parts.join(" ")]),
    ))
}
