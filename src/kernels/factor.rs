//! Factors: `factor`, `as.factor`, `levels`, `nlevels`, `droplevels`, `addNA`, and
//! `as.integer`, `as.numeric`, `as.character` (which read a factor's codes
//! or labels).
//!
//! A factor is codes into its levels ([`Factor`]). Levels follow R's
//! `factor()`: `sort(unique(x))` when not given (numbers by value, text by
//! the collation of [`collate`](super::collate), logicals FALSE before
//! TRUE), NA never a level. flowcast's text has no NA of its own, so the
//! text `"NA"` (what `read.csv` makes of a missing text cell) is NA here.

use super::collate;
use super::data::r_num_to_string;
use super::value::{is_na, Factor, NA};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "factor",
        params: &[
            opt("x"),
            opt("levels"),
            opt("labels"),
            opt("exclude"),
            opt("ordered"),
            opt("nmax"),
        ],
        random: false,
        shape: factor_shape,
        eval: factor_eval,
    },
    Kernel {
        name: "as.factor",
        params: &[req("x")],
        random: false,
        shape: factor_shape,
        eval: as_factor_eval,
    },
    Kernel {
        name: "ordered",
        params: &[
            opt("x"),
            opt("levels"),
            opt("labels"),
            opt("exclude"),
            opt("nmax"),
        ],
        random: false,
        shape: factor_shape,
        eval: factor_eval,
    },
    Kernel {
        name: "as.ordered",
        params: &[req("x")],
        random: false,
        shape: factor_shape,
        eval: as_ordered_eval,
    },
    Kernel {
        name: "droplevels",
        params: &[req("x"), super::DOTS],
        random: false,
        shape: factor_shape,
        eval: droplevels_eval,
    },
    Kernel {
        name: "addNA",
        params: &[req("x"), opt("ifany")],
        random: false,
        shape: factor_shape,
        eval: add_na_eval,
    },
    Kernel {
        name: "relevel",
        params: &[req("x"), req("ref"), super::DOTS],
        random: false,
        shape: relevel_shape,
        eval: relevel_eval,
    },
    Kernel {
        name: "levels",
        params: &[req("x")],
        random: false,
        shape: levels_shape,
        eval: levels_eval,
    },
    Kernel {
        name: "nlevels",
        params: &[req("x")],
        random: false,
        shape: |_, _| Ok(Type::num(1)),
        eval: nlevels_eval,
    },
    Kernel {
        name: "as.integer",
        params: &[opt("x"), super::DOTS],
        random: false,
        shape: as_number_shape,
        eval: as_integer_eval,
    },
    Kernel {
        name: "as.numeric",
        params: &[opt("x"), super::DOTS],
        random: false,
        shape: as_number_shape,
        eval: as_numeric_eval,
    },
    Kernel {
        name: "as.double",
        params: &[opt("x"), super::DOTS],
        random: false,
        shape: as_number_shape,
        eval: as_numeric_eval,
    },
    Kernel {
        name: "as.character",
        params: &[opt("x"), super::DOTS],
        random: false,
        shape: as_character_shape,
        eval: as_character_eval,
    },
];

/// Whether a text element is NA (see the module note).
pub fn text_is_na(s: &str) -> bool {
    s == "NA"
}

/// R's `as.character(x)` of a vector or factor, `None` for NA; `None`
/// overall for a value that is not a vector.
pub fn as_text(x: &Value) -> Option<Vec<Option<String>>> {
    Some(match x {
        Value::Num(v) => v
            .iter()
            .map(|&x| (!x.is_nan()).then(|| r_num_to_string(x)))
            .collect(),
        Value::Mat(m) => m
            .iter()
            .map(|&x| (!x.is_nan()).then(|| r_num_to_string(x)))
            .collect(),
        Value::Str(_) | Value::StrMat(_) => x
            .as_strs()
            .unwrap_or_default()
            .iter()
            .map(|s| (!text_is_na(s)).then(|| s.clone()))
            .collect(),
        Value::Bool(v) => v
            .iter()
            .map(|&b| b.map(|b| if b { "TRUE" } else { "FALSE" }.to_string()))
            .collect(),
        Value::Factor(f) => f
            .codes
            .iter()
            .map(|c| c.map(|c| f.levels[c as usize].clone()))
            .collect(),
        Value::Null => Vec::new(),
        _ => return None,
    })
}

fn not_a_vector(x: &Value) -> KernelError {
    KernelError::new(format!(
        "factor() needs a vector (numbers, text, logicals or a factor), not {}",
        x.type_name()
    ))
}

/// R's `factor(x)`: levels `sort(unique(x))`.
pub fn as_factor(x: &Value) -> Result<Factor, KernelError> {
    match x {
        Value::Factor(f) => Ok(f.clone()),
        Value::Num(_) | Value::Mat(_) => {
            let v = x.as_f64_slice().unwrap_or_default();
            let mut sorted: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
            sorted.sort_by(f64::total_cmp);
            // -0 and 0 are one level, as `unique` has them.
            sorted.dedup_by(|a, b| a == b);
            let codes = v
                .iter()
                .map(|x| {
                    sorted
                        .binary_search_by(|l| l.partial_cmp(x).unwrap_or(std::cmp::Ordering::Less))
                        .ok()
                        .map(|i| i as u32)
                })
                .collect();
            Ok(Factor {
                codes,
                levels: sorted.iter().map(|&l| r_num_to_string(l)).collect(),
                ordered: false,
            })
        }
        Value::Bool(v) => {
            let levels: Vec<bool> = [false, true]
                .into_iter()
                .filter(|&b| v.contains(&Some(b)))
                .collect();
            Ok(Factor {
                codes: v
                    .iter()
                    .map(|b| levels.iter().position(|l| Some(*l) == *b).map(|i| i as u32))
                    .collect(),
                ordered: false,
                levels: levels
                    .iter()
                    .map(|&b| if b { "TRUE" } else { "FALSE" }.to_string())
                    .collect(),
            })
        }
        Value::Str(s) => {
            let (levels, codes) =
                collate::factorise(s.iter().map(|t| (!text_is_na(t)).then_some(t.as_str())));
            Ok(Factor {
                codes,
                levels: levels.into_iter().map(str::to_string).collect(),
                ordered: false,
            })
        }
        Value::StrMat(m) => as_factor(&Value::Str(m.as_slice().to_vec())),
        Value::Null => Ok(Factor {
            codes: Vec::new(),
            levels: Vec::new(),
            ordered: false,
        }),
        _ => Err(not_a_vector(x)),
    }
}

/// Each level's 0-based code; a level given twice keeps its first.
pub fn level_index(levels: &[String]) -> crate::kernels::hashing::FastMap<&str, u32> {
    levels
        .iter()
        .enumerate()
        .rev()
        .map(|(i, l)| (l.as_str(), i as u32))
        .collect()
}

/// Codes of `text` into `levels` (text not among them is NA).
fn with_levels(text: &[Option<String>], levels: Vec<String>) -> Factor {
    let index = level_index(&levels);
    let codes = text
        .iter()
        .map(|t| t.as_deref().and_then(|t| index.get(t).copied()))
        .collect();
    Factor {
        codes,
        levels,
        ordered: false,
    }
}

/// `factor(x, levels, labels)`.
fn make_factor(
    x: &Value,
    levels: Option<&Value>,
    labels: Option<&Value>,
) -> Result<Factor, KernelError> {
    let mut f = match levels {
        None => match x {
            // factor(f) keeps the levels in use, in their order.
            Value::Factor(f) => drop_unused(f),
            _ => as_factor(x)?,
        },
        Some(lv) => {
            let levels: Vec<String> = as_text(lv)
                .ok_or_else(|| KernelError::new("invalid 'levels' argument"))?
                .into_iter()
                .flatten()
                .collect();
            let text = match (x, lv) {
                // Numbers match numbers by value, as R's match() does.
                (Value::Num(_) | Value::Mat(_), Value::Num(l)) => {
                    let v = x.as_f64_slice().unwrap_or_default();
                    let lv: Vec<f64> = l.iter().copied().filter(|x| !x.is_nan()).collect();
                    let codes = v
                        .iter()
                        .map(|x| lv.iter().position(|l| l == x).map(|i| i as u32))
                        .collect();
                    if labels.is_none() {
                        if let Some(i) =
                            (1..levels.len()).find(|&i| levels[..i].contains(&levels[i]))
                        {
                            return Err(KernelError::new(format!(
                                "factor level [{}] is duplicated",
                                i + 1
                            )));
                        }
                    }
                    let mut f = Factor {
                        codes,
                        levels,
                        ordered: false,
                    };
                    f.levels.dedup();
                    return relabel(f, labels);
                }
                _ => as_text(x).ok_or_else(|| not_a_vector(x))?,
            };
            let mut unique = Vec::with_capacity(levels.len());
            for l in levels {
                if unique.contains(&l) {
                    return Err(KernelError::new(format!(
                        "factor level [{}] is duplicated",
                        unique.len() + 1
                    )));
                }
                unique.push(l);
            }
            with_levels(&text, unique)
        }
    };
    f = relabel(f, labels)?;
    Ok(f)
}

/// `labels =`: one label per level, or one prefix numbered per level;
/// levels given the same label become one (R 4.1 and later).
fn relabel(f: Factor, labels: Option<&Value>) -> Result<Factor, KernelError> {
    let Some(labels) = labels else {
        return Ok(f);
    };
    let given: Vec<String> = as_text(labels)
        .ok_or_else(|| KernelError::new("invalid 'labels'"))?
        .into_iter()
        .map(|l| l.unwrap_or_else(|| "NA".to_string()))
        .collect();
    let n = f.levels.len();
    let labels: Vec<String> = if given.len() == n {
        given
    } else if given.len() == 1 {
        (1..=n).map(|i| format!("{}{i}", given[0])).collect()
    } else {
        return Err(KernelError::new(format!(
            "invalid 'labels'; length {} should be 1 or {n}",
            given.len()
        )));
    };
    let mut levels: Vec<String> = Vec::with_capacity(n);
    let mut map = Vec::with_capacity(n);
    for l in labels {
        match levels.iter().position(|x| *x == l) {
            Some(i) => map.push(i as u32),
            None => {
                map.push(levels.len() as u32);
                levels.push(l);
            }
        }
    }
    Ok(Factor {
        codes: f.codes.iter().map(|c| c.map(|c| map[c as usize])).collect(),
        levels,
        ordered: f.ordered,
    })
}

/// `droplevels(f)`: the levels some element has, in their order.
pub fn drop_unused(f: &Factor) -> Factor {
    let mut used = vec![false; f.levels.len()];
    for c in f.codes.iter().flatten() {
        used[*c as usize] = true;
    }
    let mut map = vec![None; f.levels.len()];
    let mut levels = Vec::new();
    for (i, l) in f.levels.iter().enumerate() {
        if used[i] {
            map[i] = Some(levels.len() as u32);
            levels.push(l.clone());
        }
    }
    Factor {
        codes: f
            .codes
            .iter()
            .map(|c| c.and_then(|c| map[c as usize]))
            .collect(),
        levels,
        ordered: f.ordered,
    }
}

/// base R's `addNA(x, ifany)` of a factor: NA becomes a level (the last),
/// which the NA elements take; with `ifany`, only when there is one. An
/// NA level is held as the text "NA", as flowcast holds an NA string.
pub fn add_na(f: Factor, ifany: bool) -> Factor {
    let any = f.codes.iter().any(Option::is_none);
    if ifany && !any {
        return f;
    }
    let mut f = f;
    let at = match f.levels.iter().position(|l| text_is_na(l)) {
        Some(_) if !ifany && !any => return f,
        Some(at) => at,
        None => {
            f.levels.push("NA".to_string());
            f.levels.len() - 1
        }
    };
    for c in f.codes.iter_mut() {
        c.get_or_insert(at as u32);
    }
    f
}

fn add_na_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let f = match x {
        Value::Factor(f) => f.clone(),
        other => as_factor(other)?,
    };
    let ifany = args.bool_or("ifany", false)?;
    Ok(Value::Factor(add_na(f, ifany)))
}

fn factor_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    // factor(x, ordered = is.ordered(x)); ordered() is factor(ordered = TRUE).
    let ordered = match args.func {
        "ordered" => true,
        _ => args.bool_or("ordered", matches!(x, Value::Factor(f) if f.ordered))?,
    };
    if let Some(e) = args.get("exclude") {
        if !matches!(e, Value::Null) && e.as_scalar().is_none_or(|x| !is_na(x)) {
            return Err(KernelError::new(
                "flowcast's factor() supports only exclude = NA",
            ));
        }
    }
    let mut f = make_factor(x, args.get("levels"), args.get("labels"))?;
    f.ordered = ordered;
    // exclude = NULL keeps NA as a level, last (sort(unique(x), na.last =
    // TRUE)), its elements coded to it.
    if let Some(Value::Null) = args.get("exclude") {
        if args.has("levels") || args.has("labels") {
            return Err(KernelError::new(
                "flowcast's factor() takes exclude = NULL only without levels and labels",
            ));
        }
        if f.codes.iter().any(Option::is_none) {
            let na = f.levels.len() as u32;
            f.levels.push("NA".to_string());
            for c in &mut f.codes {
                c.get_or_insert(na);
            }
        }
    }
    Ok(Value::Factor(f))
}

fn as_factor_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    Ok(Value::Factor(as_factor(x)?))
}

/// R's `Summary.ordered` for `max`, `min` and `range` (`func`) when the
/// first argument is an ordered factor: every argument one with the same
/// levels, the extreme codes as a factor of those levels. `None` when
/// the first argument is not an ordered factor.
pub fn summary_ordered(
    func: &str,
    args: &Args<&Value>,
    na_rm: bool,
    ctx: &mut Ctx,
) -> Option<Result<Value, KernelError>> {
    let mut dots = args.dots().map(|(_, v)| v);
    let Some(Value::Factor(first)) = dots.next() else {
        return None;
    };
    if !first.ordered {
        return None;
    }
    let mut codes: Vec<Option<u32>> = first.codes.clone();
    for v in dots {
        match v {
            Value::Factor(f) if f.ordered && f.levels == first.levels => {
                codes.extend_from_slice(&f.codes)
            }
            _ => {
                return Some(Err(KernelError::new(format!(
                    "'{func}' is only meaningful for ordered factors if all arguments have the same level sets"
                ))))
            }
        }
    }
    let present: Vec<u32> = codes.iter().flatten().copied().collect();
    let missing = present.len() < codes.len() && !na_rm;
    let (lo, hi) = (present.iter().min().copied(), present.iter().max().copied());
    if !missing && present.is_empty() {
        ctx.warn(format!(
            "no non-missing arguments to {}; returning {}",
            if func == "range" { "min" } else { func },
            if func == "max" { "-Inf" } else { "Inf" }
        ));
    }
    let pick = |c: Option<u32>| if missing { None } else { c };
    let out = match func {
        "max" => vec![pick(hi)],
        "min" => vec![pick(lo)],
        _ => vec![pick(lo), pick(hi)],
    };
    Some(Ok(Value::Factor(Factor {
        codes: out,
        levels: first.levels.clone(),
        ordered: true,
    })))
}

/// The type of [`summary_ordered`]'s value: `None` when the first
/// argument is not an ordered factor.
pub fn summary_ordered_type(args: &Args<Type>, len: usize) -> Option<Type> {
    match args.dots().next() {
        Some((
            _,
            Type::Factor {
                levels,
                ordered: true,
                ..
            },
        )) => Some(Type::Factor {
            len: Some(len),
            levels: levels.clone(),
            ordered: true,
        }),
        _ => None,
    }
}

/// R's `as.ordered(x)`: `if (is.ordered(x)) x else ordered(x)`.
fn as_ordered_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    if let Value::Factor(f) = x {
        if f.ordered {
            return Ok(x.clone());
        }
    }
    let mut f = match x {
        // factor(f) keeps the levels in use, in their order.
        Value::Factor(f) => drop_unused(f),
        _ => as_factor(x)?,
    };
    f.ordered = true;
    Ok(Value::Factor(f))
}

fn droplevels_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    match args.get("x") {
        Some(Value::Factor(f)) => Ok(Value::Factor(drop_unused(f))),
        Some(v) => Err(KernelError::new(format!(
            "no applicable method for 'droplevels' applied to an object of class \"{}\"",
            v.type_name()
        ))),
        None => Err(KernelError::new(
            "argument \"x\" is missing, with no default",
        )),
    }
}

const RELEVEL_NOT_FACTOR: &str = "'relevel' only for (unordered) factors";

/// R's `relevel.factor`: `ref` (a label or a position) becomes the first
/// level, the others keeping their order; the elements keep their labels.
fn relevel_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Factor(f)) = args.get("x") else {
        return Err(KernelError::new(RELEVEL_NOT_FACTOR));
    };
    // relevel.ordered
    if f.ordered {
        return Err(KernelError::new("'relevel' only for unordered factors"));
    }
    let ref_ = args.get("ref").unwrap_or(&Value::Null);
    if ref_.len() != 1 {
        return Err(KernelError::new("'ref' must be of length one"));
    }
    let nlev = f.levels.len();
    let missing = || KernelError::new("'ref' must be an existing level");
    // `match(ref, lev)` for text; a number is a position.
    let pos: f64 = match ref_ {
        Value::Str(s) => match f.levels.iter().position(|l| *l == s[0]) {
            Some(i) => (i + 1) as f64,
            None => return Err(missing()),
        },
        Value::Factor(r) => match r.codes[0]
            .and_then(|c| r.levels.get(c as usize))
            .and_then(|lab| f.levels.iter().position(|l| l == lab))
        {
            Some(i) => (i + 1) as f64,
            None => return Err(missing()),
        },
        other => match other.as_f64_slice().and_then(|v| v.first().copied()) {
            Some(v) if !v.is_nan() => v,
            Some(_) => return Err(missing()),
            None => return Err(missing()),
        },
    };
    if pos < 1.0 || pos > nlev as f64 {
        return Err(KernelError::new(format!(
            "ref = {} must be in 1L:{nlev}",
            pos.trunc()
        )));
    }
    let r = pos as usize - 1;
    let mut order = vec![r];
    order.extend((0..nlev).filter(|&i| i != r));
    let mut new_code = vec![0u32; nlev];
    for (new, &old) in order.iter().enumerate() {
        new_code[old] = new as u32;
    }
    Ok(Value::Factor(Factor {
        codes: f
            .codes
            .iter()
            .map(|c| c.and_then(|c| new_code.get(c as usize).copied()))
            .collect(),
        levels: order.iter().map(|&i| f.levels[i].clone()).collect(),
        ordered: f.ordered,
    }))
}

fn relevel_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Factor {
            len,
            levels,
            ordered,
        }) => {
            let levels = match (levels, args.ty("ref")) {
                (Some(lv), Some(Type::Str { value: Some(r), .. })) if r.len() == 1 => {
                    match lv.iter().position(|l| *l == r[0]) {
                        Some(i) => {
                            let mut out = vec![lv[i].clone()];
                            out.extend(lv.iter().filter(|l| **l != r[0]).cloned());
                            Some(out)
                        }
                        None => return Err(args.error("ref", "'ref' must be an existing level")),
                    }
                }
                _ => None,
            };
            Ok(Type::Factor {
                len: *len,
                levels,
                ordered: *ordered,
            })
        }
        Some(Type::Any) => Ok(Type::Factor {
            len: None,
            levels: None,
            ordered: false,
        }),
        _ => Err(args.error("x", RELEVEL_NOT_FACTOR)),
    }
}

/// A constant argument's value, when shape inference knows it.
fn const_value(t: &Type) -> Option<Value> {
    match t {
        Type::Num { value: Some(v), .. } => Some(Value::Num(v.clone())),
        Type::Bool { value: Some(v), .. } => Some(Value::Bool(v.clone())),
        Type::Str { value: Some(v), .. } => Some(Value::Str(v.clone())),
        _ => None,
    }
}

fn factor_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x");
    if let Some(t) = x {
        if !matches!(
            t,
            Type::Num { .. }
                | Type::Mat { .. }
                | Type::Str { .. }
                | Type::Bool { .. }
                | Type::Factor { .. }
                | Type::Null
                | Type::Any
        ) {
            return Err(args.error(
                "x",
                format!(
                    "factor() needs a vector (numbers, text, logicals or a factor), not {}",
                    t.describe()
                ),
            ));
        }
    }
    let len = x.map_or(Some(0), Type::len);
    // The levels are known when what decides them is constant.
    let known = |t: Option<&Type>| match t {
        None => Some(None),
        Some(t) => const_value(t).map(Some),
    };
    let levels = match (x, args.func) {
        _ if matches!(args.get_if_formal("exclude"), Some(Type::Null)) => None,
        (Some(Type::Factor { levels, .. }), "as.factor" | "as.ordered") => levels.clone(),
        (_, "as.factor" | "as.ordered" | "droplevels" | "addNA") => None,
        _ => match (
            known(args.ty("levels")),
            known(args.ty("labels")),
            args.ty("levels").is_some(),
        ) {
            (Some(lv), Some(lb), true) => make_factor(&Value::Null, lv.as_ref(), lb.as_ref())
                .ok()
                .map(|f| f.levels),
            (_, Some(lb), false) => x
                .and_then(const_value)
                .and_then(|xv| make_factor(&xv, None, lb.as_ref()).ok())
                .map(|f| f.levels),
            _ => None,
        },
    };
    // factor()'s `ordered = is.ordered(x)`, as.factor and droplevels keep
    // it; ordered() and as.ordered() make one.
    let ordered = match args.func {
        "ordered" | "as.ordered" => true,
        _ => match args.get_if_formal("ordered").map(Type::const_scalar) {
            Some(Some(v)) => v != 0.0,
            Some(None) => return Ok(Type::Any),
            None => matches!(x, Some(Type::Factor { ordered: true, .. })),
        },
    };
    Ok(Type::Factor {
        len,
        levels,
        ordered,
    })
}

fn levels_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Factor { levels, .. }) => Type::Str {
            len: levels.as_ref().map(Vec::len),
            value: levels.clone(),
        },
        Some(Type::Any) => Type::Any,
        _ => Type::Null,
    })
}

fn levels_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(match args.get("x") {
        Some(Value::Factor(f)) => Value::Str(f.levels.clone()),
        _ => Value::Null,
    })
}

fn nlevels_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(Value::scalar(match args.get("x") {
        Some(Value::Factor(f)) => f.levels.len() as f64,
        _ => 0.0,
    }))
}

fn as_number_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        None | Some(Type::Null) => Ok(Type::num(0)),
        Some(
            t @ (Type::Num { .. }
            | Type::Mat { .. }
            | Type::Bool { .. }
            | Type::Str { .. }
            | Type::Factor { .. }),
        ) => Ok(Type::Num {
            len: t.len(),
            value: None,
        }),
        Some(Type::Any) => Ok(Type::num_unknown()),
        Some(t) => Err(args.error(
            "x",
            format!(
                "cannot coerce {} to a vector of type 'double'",
                t.describe()
            ),
        )),
    }
}

/// R's `as.double` of a vector: a factor's codes, text parsed (NA, with
/// R's warning, where it is not a number).
fn as_double(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
    Ok(match args.get("x") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Factor(f)) => f.integer_codes(),
        Some(Value::Str(s)) => super::coerce::text_as_doubles(s, ctx),
        Some(Value::StrMat(m)) => super::coerce::text_as_doubles(m.as_slice(), ctx),
        Some(v) => v.as_f64_slice().map(|s| s.into_owned()).ok_or_else(|| {
            KernelError::new(format!(
                "cannot coerce {} to a vector of type 'double'",
                v.type_name()
            ))
        })?,
    })
}

fn as_numeric_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    Ok(Value::Num(as_double(args, ctx)?))
}

fn as_integer_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let v = as_double(args, ctx)?;
    let mut out_of_range = false;
    let v = v
        .into_iter()
        .map(|x| {
            if x.is_nan() {
                NA
            } else if x.abs() >= 2147483648.0 {
                out_of_range = true;
                NA
            } else {
                x.trunc() + 0.0
            }
        })
        .collect();
    if out_of_range {
        ctx.warn("NAs introduced by coercion to integer range");
    }
    Ok(Value::Num(v))
}

fn as_character_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        None | Some(Type::Null) => Ok(Type::Str {
            len: Some(0),
            value: None,
        }),
        Some(Type::Str { len, value }) => Ok(Type::Str {
            len: *len,
            value: value.clone(),
        }),
        Some(
            t @ (Type::Num { .. }
            | Type::Mat { .. }
            | Type::Bool { .. }
            | Type::Factor { .. }
            | Type::StrMat { .. }),
        ) => Ok(Type::Str {
            len: t.len(),
            value: None,
        }),
        Some(Type::Any) => Ok(Type::Any),
        // `~`, its sides.
        Some(Type::Formula { .. }) => Ok(Type::Str {
            len: None,
            value: None,
        }),
        Some(t) => Err(args.error(
            "x",
            format!(
                "cannot coerce {} to a vector of type 'character'",
                t.describe()
            ),
        )),
    }
}

fn as_character_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    // A formula's or a call's parts, a name's text.
    if let Some(parts) = super::language::as_character(x) {
        return parts.map(Value::Str);
    }
    let text = as_text(x).ok_or_else(|| {
        KernelError::new(format!(
            "cannot coerce {} to a vector of type 'character'",
            x.type_name()
        ))
    })?;
    Ok(Value::Str(
        text.into_iter()
            .map(|t| t.unwrap_or_else(|| "NA".to_string()))
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strs(v: &[&str]) -> Value {
        Value::Str(v.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn levels_are_sorted_and_na_is_no_level() {
        let f = as_factor(&strs(&["trt", "ctrl", "NA", "trt"])).unwrap();
        assert_eq!(f.levels, ["ctrl", "trt"]);
        assert_eq!(f.codes, [Some(1), Some(0), None, Some(1)]);
        let f = as_factor(&Value::Num(vec![3.0, 1.5, NA, 3.0])).unwrap();
        assert_eq!(f.levels, ["1.5", "3"]);
        assert_eq!(f.integer_codes()[..2], [2.0, 1.0]);
    }

    #[test]
    fn labels_rename_and_merge_levels() {
        let x = strs(&["a", "b", "c"]);
        let lv = strs(&["c", "b", "a"]);
        let f = make_factor(&x, Some(&lv), Some(&strs(&["C", "X", "X"]))).unwrap();
        assert_eq!(f.levels, ["C", "X"]);
        assert_eq!(f.codes, [Some(1), Some(1), Some(0)]);
        let f = make_factor(&x, None, Some(&strs(&["g"]))).unwrap();
        assert_eq!(f.levels, ["g1", "g2", "g3"]);
        let e = make_factor(&x, None, Some(&strs(&["p", "q"]))).unwrap_err();
        assert_eq!(e.0, "invalid 'labels'; length 2 should be 1 or 3");
    }
}
