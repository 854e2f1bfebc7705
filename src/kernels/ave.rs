//! `ave(x, ..., FUN = mean)`: FUN of each group's elements, put back where
//! the elements were. As R's `stats::ave`: without groups `x[] <- FUN(x)`;
//! with them `split(x, g) <- lapply(split(x, g), FUN)` where `g` is
//! `interaction(...)`, so FUN runs on every level of the interaction, empty
//! ones too, and an element whose group is NA keeps its value. Each
//! assignment `x[i] <- value` recycles `value` over the group and widens x
//! to the value's type (logical, then numeric, then text), as R's
//! subassignment does, even for an empty group.

use super::alloc;
use super::factor::as_text;
use super::fun;
use super::grouping::grouping;
use super::value::{logical_f64, Factor};
use super::vector::pick;
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "ave",
    params: &[req("x"), DOTS, opt("FUN")],
    random: false,
    shape: ave_shape,
    eval: ave_eval,
}];

/// R's `interaction(..., drop = FALSE, sep = ".", lex.order = FALSE)`:
/// each element's level (`None` where some factor is NA) and the number of
/// levels. Levels are every combination, the first factor varying fastest;
/// combinations whose labels paste to the same text (`"a.b"` with `"c"`,
/// `"a"` with `"b.c"`) are one level, placed where the first of them is,
/// as R's fix-up of duplicated levels leaves them.
pub fn interaction(factors: &[Factor]) -> Result<(Vec<Option<usize>>, usize), KernelError> {
    let n = factors.first().map_or(0, |f| f.codes.len());
    let mut combinations: usize = 1;
    for f in factors {
        combinations = combinations
            .checked_mul(f.levels.len())
            .ok_or_else(|| alloc::cannot_allocate(f64::MAX))?;
    }
    let mut codes = alloc::vec_with_capacity::<Option<usize>>(n)?;
    for i in 0..n {
        let mut code = Some(0usize);
        let mut stride = 1usize;
        for f in factors {
            code = match (code, f.codes.get(i).copied().flatten()) {
                (Some(c), Some(k)) => Some(c + stride * k as usize),
                _ => None,
            };
            stride *= f.levels.len();
        }
        codes.push(code);
    }
    let pasted_can_collide = factors.len() > 1
        && factors
            .iter()
            .any(|f| f.levels.iter().any(|l| l.contains('.')));
    if !pasted_can_collide {
        return Ok((codes, combinations));
    }
    // Labels only collide when a level holds the separator: then each
    // combination is the first combination with its label.
    alloc::ensure_room(combinations as f64 * 48.0)?;
    let mut first: std::collections::HashMap<String, usize> = Default::default();
    let mut level_of = alloc::vec_with_capacity::<usize>(combinations)?;
    for c in 0..combinations {
        let mut rest = c;
        let mut label = String::new();
        for (k, f) in factors.iter().enumerate() {
            let m = f.levels.len();
            if k > 0 {
                label.push('.');
            }
            label.push_str(&f.levels[rest % m]);
            rest /= m;
        }
        let next = first.len();
        level_of.push(*first.entry(label).or_insert(next));
    }
    let levels = first.len();
    Ok((
        codes.into_iter().map(|c| c.map(|c| level_of[c])).collect(),
        levels,
    ))
}

/// The type R's subassignment widens x to.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Bool,
    Num,
    Str,
}

fn kind(v: &Value) -> Result<Kind, KernelError> {
    match v {
        Value::Null | Value::Bool(_) => Ok(Kind::Bool),
        Value::Num(_) => Ok(Kind::Num),
        Value::Str(_) => Ok(Kind::Str),
        other => Err(KernelError::new(format!(
            "flowcast's ave() takes numbers, logicals or text, and FUN must give them, not {}",
            other.type_name()
        ))),
    }
}

const NOT_MULTIPLE: &str = "number of items to replace is not a multiple of replacement length";

/// `x[i] <- value` for each group's positions `i` in turn.
fn assign<T: Clone>(
    out: &mut [T],
    groups: &[Vec<usize>],
    values: &[Vec<T>],
    ctx: &mut Ctx,
) -> Result<(), KernelError> {
    for (rows, value) in groups.iter().zip(values) {
        if rows.is_empty() {
            continue;
        }
        if value.is_empty() {
            return Err(KernelError::new("replacement has length zero"));
        }
        if rows.len() % value.len() != 0 {
            ctx.warn(NOT_MULTIPLE);
        }
        for (k, &r) in rows.iter().enumerate() {
            out[r] = value[k % value.len()].clone();
        }
    }
    Ok(())
}

fn texts(v: &Value) -> Vec<String> {
    as_text(v)
        .unwrap_or_default()
        .into_iter()
        .map(|s| s.unwrap_or_else(|| "NA".to_string()))
        .collect()
}

fn ave_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    kind(x)?;
    let fun = fun::resolve_or(args.get("FUN"), ctx, "mean")?;
    let n = x.len();
    let (groups, results) = if args.dots().next().is_none() {
        let all: Vec<usize> = (0..n).collect();
        let v = fun.call_on(x, &[], ctx)?;
        (vec![all], vec![v])
    } else {
        let mut factors = Vec::new();
        for (_, g) in args.dots() {
            let f = grouping(g, "...")?;
            if f.codes.len() != n {
                return Err(KernelError::new(
                    "flowcast's ave() needs each grouping variable as long as x",
                ));
            }
            factors.push(f);
        }
        let (codes, levels) = interaction(&factors)?;
        let mut groups: Vec<Vec<usize>> = alloc::vec_with_capacity(levels)?;
        groups.resize(levels, Vec::new());
        for (i, c) in codes.iter().enumerate() {
            if let Some(c) = c {
                groups[*c].push(i);
            }
        }
        let mut results = alloc::vec_with_capacity(levels)?;
        for rows in &groups {
            results.push(fun.call_on(&pick(x, rows), &[], ctx)?);
        }
        (groups, results)
    };
    let mut widest = kind(x)?;
    for r in &results {
        widest = widest.max(kind(r)?);
    }
    Ok(match widest {
        Kind::Bool => {
            let mut out = x.as_logicals().unwrap_or_default().into_owned();
            let values: Vec<Vec<Option<bool>>> = results
                .iter()
                .map(|r| r.as_logicals().unwrap_or_default().into_owned())
                .collect();
            assign(&mut out, &groups, &values, ctx)?;
            Value::Bool(out)
        }
        Kind::Num => {
            let nums = |v: &Value| match v {
                Value::Bool(b) => b.iter().map(|&b| logical_f64(b)).collect(),
                other => other.as_f64_slice().unwrap_or_default().into_owned(),
            };
            let mut out: Vec<f64> = nums(x);
            let values: Vec<Vec<f64>> = results.iter().map(nums).collect();
            assign(&mut out, &groups, &values, ctx)?;
            Value::Num(out)
        }
        Kind::Str => {
            let mut out = texts(x);
            let values: Vec<Vec<String>> = results.iter().map(texts).collect();
            assign(&mut out, &groups, &values, ctx)?;
            Value::Str(out)
        }
    })
}

fn kind_of_type(t: &Type) -> Option<Kind> {
    match t {
        Type::Null | Type::Bool { .. } => Some(Kind::Bool),
        Type::Num { .. } => Some(Kind::Num),
        Type::Str { .. } => Some(Kind::Str),
        _ => None,
    }
}

fn ave_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").unwrap_or(&Type::Any);
    let len = x.len();
    let x_kind = match x {
        Type::Any => None,
        t => Some(kind_of_type(t).ok_or_else(|| {
            args.error(
                "x",
                format!(
                    "flowcast's ave() takes numbers, logicals or text, not {}",
                    t.describe()
                ),
            )
        })?),
    };
    for (k, (_, g)) in args.dots().enumerate() {
        if !matches!(
            g,
            Type::Num { .. }
                | Type::Str { .. }
                | Type::Bool { .. }
                | Type::Factor { .. }
                | Type::Any
        ) {
            return Err(args.dots_error(
                k,
                format!("'...' must be factors or vectors, not {}", g.describe()),
            ));
        }
        if let (Some(a), Some(b)) = (len, g.len()) {
            if a != b {
                return Err(args.dots_error(
                    k,
                    "flowcast's ave() needs each grouping variable as long as x",
                ));
            }
        }
    }
    let group = match x {
        Type::Num { .. } => Type::num_unknown(),
        Type::Bool { .. } => Type::logical(None),
        Type::Str { .. } => Type::Str {
            len: None,
            value: None,
        },
        _ => Type::Any,
    };
    let result = match fun::resolve_shape(args.ty("FUN"), ctx) {
        Err(m) => return Err(args.error("FUN", m)),
        Ok(None) if args.has("FUN") && !matches!(args.ty("FUN"), Some(Type::Null)) => Type::Any,
        Ok(None) => Type::num(1),
        Ok(Some(f)) => f
            .shape(vec![(None, group)], None, ctx)
            .map_err(|m| args.error("FUN", m))?,
    };
    Ok(match (x_kind, kind_of_type(&result)) {
        (Some(a), Some(b)) => match a.max(b) {
            Kind::Bool => Type::logical(len),
            Kind::Num => Type::Num { len, value: None },
            Kind::Str => Type::Str { len, value: None },
        },
        _ => Type::Any,
    })
}
