//! `unsplit(value, f, drop)`: R 4.2.2's unsplit for vectors, the inverse
//! of `split(x, f)`: an NA vector of `value[[1]]`'s type as long as `f`,
//! each group's positions filled from its element of `value` in turn
//! (R's `split<-.default`, recycling a short element); a list of data
//! frames fills an NA frame's rows group by group (`split<-.data.frame`).
//! `f` a list of factors is not taken.

use super::args::{ArgError, Args};
use super::data::combine;
use super::grouping::grouping;
use super::names::bare;
use super::value::NA;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "unsplit",
    params: &[req("value"), req("f"), opt("drop")],
    random: false,
    shape,
    eval,
}];

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let value = args.get("value").ok_or_else(|| missing("value"))?;
    let f = args.get("f").ok_or_else(|| missing("f"))?;
    let Value::List(value) = bare(value) else {
        return Err(KernelError::new(
            "unsplit() takes the list split() made as 'value'",
        ));
    };
    if matches!(bare(f), Value::List(_)) {
        return Err(KernelError::new(
            "unsplit() by a list of factors is not supported; give one factor",
        ));
    }
    let parts: Vec<Value> = value
        .items
        .iter()
        .map(|v| super::names::strip_value(v.clone()))
        .collect();
    if parts.is_empty() {
        return Err(KernelError::new("subscript out of bounds"));
    }
    if super::frame::as_frame(&parts[0]).is_some() {
        let f = grouping(bare(f), "f")?;
        let drop = args
            .get("drop")
            .map_or(Ok(false), super::logical::if_condition)?;
        return frames(&parts, &f, drop, ctx);
    }
    for p in &parts {
        if !matches!(p, Value::Num(_) | Value::Str(_) | Value::Bool(_)) {
            return Err(KernelError::new(
                "unsplit() takes a list of vectors (data frames and factors are not supported)",
            ));
        }
    }
    let f = grouping(bare(f), "f")?;
    let drop = args
        .get("drop")
        .map_or(Ok(false), super::logical::if_condition)?;
    let len = f.codes.len();
    // The result's type: value[[1]]'s, raised by what is put in.
    let refs: Vec<&Value> = parts.iter().collect();
    let all = combine(&refs)?;
    let groups = groups(&f, drop);
    // Each part as the common type, then placed.
    let offsets: Vec<usize> = parts
        .iter()
        .scan(0, |at, p| {
            let o = *at;
            *at += p.len();
            Some(o)
        })
        .collect();
    let n = parts.len();
    let mut warned = false;
    macro_rules! fill {
        ($vals:expr, $na:expr, $wrap:expr) => {{
            let vals = $vals;
            let mut out = vec![$na; len];
            for (g, rows) in groups.iter().enumerate() {
                let j = g % n;
                let (o, l) = (offsets[j], parts[j].len());
                if rows.is_empty() {
                    continue;
                }
                if l == 0 {
                    return Err(KernelError::new("replacement has length zero"));
                }
                if rows.len() % l != 0 && !warned {
                    warned = true;
                    ctx.warn("number of items to replace is not a multiple of replacement length");
                }
                for (k, &r) in rows.iter().enumerate() {
                    out[r] = vals[o + k % l].clone();
                }
            }
            $wrap(out)
        }};
    }
    Ok(match all {
        Value::Num(v) => fill!(v, NA, Value::Num),
        Value::Str(v) => fill!(v, "NA".to_string(), Value::Str),
        Value::Bool(v) => fill!(v, None, Value::Bool),
        _ => {
            return Err(KernelError::new(
                "unsplit() takes a list of vectors (data frames and factors are not supported)",
            ))
        }
    })
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let len = args.ty("f").and_then(Type::len);
    Ok(match args.ty("value") {
        Some(Type::List { elem, .. }) => match elem.as_ref() {
            Type::Str { .. } => Type::Str { len, value: None },
            Type::Bool { .. } => Type::logical(len),
            Type::Num { .. } => Type::Num { len, value: None },
            _ => Type::Any,
        },
        _ => Type::Any,
    })
}

/// R's `split<-.data.frame` into `value[[1]]`'s rows of NA: the rows of
/// each group in turn from the next frame of `parts` (cycling), each frame
/// as many rows as its group. Done as the parts bound together, then the
/// rows picked in `f`'s order.
fn frames(
    parts: &[Value],
    f: &super::value::Factor,
    drop: bool,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let groups = groups(f, drop);
    let mut offsets = Vec::with_capacity(parts.len());
    let mut at = 0;
    for p in parts {
        let Some((rows, _)) = super::frame::dims(p) else {
            return Err(KernelError::new(
                "unsplit() takes a list of data frames or of vectors, not a mix",
            ));
        };
        offsets.push((at, rows));
        at += rows;
    }
    let mut pick = vec![NA; f.codes.len()];
    for (g, rows) in groups.iter().enumerate() {
        let (o, l) = offsets[g % parts.len()];
        if rows.len() != l {
            return Err(KernelError::new(format!(
                "replacement has {l} rows, data has {}",
                rows.len()
            )));
        }
        for (k, &r) in rows.iter().enumerate() {
            pick[r] = (o + k + 1) as f64;
        }
    }
    let named: Vec<(Option<&str>, &Value)> = parts.iter().map(|p| (None, p)).collect();
    let all = super::frame::rbind_frames(&named, ctx)?;
    super::frame::index(&all, &[Some(Value::Num(pick)), None]).unwrap_or_else(|| {
        Err(KernelError::new(
            "unsplit() could not index the bound frames",
        ))
    })
}

/// The positions of each level of `f`, in order; with `drop`, only the
/// levels that occur (split's groups, which the parts were made from).
fn groups(f: &super::value::Factor, drop: bool) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); f.levels.len()];
    for (i, c) in f.codes.iter().enumerate() {
        if let Some(c) = c {
            groups[*c as usize].push(i);
        }
    }
    if drop {
        groups.retain(|g| !g.is_empty());
    }
    groups
}
