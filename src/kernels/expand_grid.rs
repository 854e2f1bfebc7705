//! `expand.grid(...)`: a data frame of every combination of its arguments'
//! values, as R's `expand.grid`: the first argument varies fastest, each
//! repeated as many times as the product of the lengths before it and the
//! whole repeated to fill the rows. Text becomes a factor whose levels are
//! its values in order of appearance (`factor(x, levels = unique(x))`,
//! `stringsAsFactors = TRUE` by default); unnamed arguments are `Var1`,
//! `Var2`, …; a single list argument is taken as the arguments. When some
//! argument is empty the frame has no rows and each column is its
//! argument emptied, unconverted, as R has it.

use super::alloc;
use super::factor::text_is_na;
use super::frame;
use super::value::Factor;
use super::vector::pick;
use super::{opt, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "expand.grid",
    params: &[DOTS, opt("KEEP.OUT.ATTRS"), opt("stringsAsFactors")],
    random: false,
    shape,
    eval,
}];

fn not_a_vector(what: &str) -> String {
    format!("flowcast's expand.grid() takes vectors and factors, not {what}")
}

/// `factor(x, levels = unique(x))` for text; NA is no level.
fn factor_in_order(s: &[String]) -> Factor {
    let mut levels: Vec<String> = Vec::new();
    let mut index: crate::kernels::hashing::FastMap<&str, u32> = Default::default();
    let codes = s
        .iter()
        .map(|t| {
            if text_is_na(t) {
                return None;
            }
            Some(*index.entry(t.as_str()).or_insert_with(|| {
                levels.push(t.clone());
                (levels.len() - 1) as u32
            }))
        })
        .collect();
    Factor {
        codes,
        levels,
        ordered: false,
    }
}

fn column_name(name: Option<&str>, k: usize) -> String {
    match name {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("Var{}", k + 1),
    }
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    args.bool_or("KEEP.OUT.ATTRS", true)?;
    let factors = args.bool_or("stringsAsFactors", true)?;
    let mut given: Vec<(Option<&str>, &Value)> = args.dots().collect();
    if let [(_, Value::List(l))] = given[..] {
        given = l
            .items
            .iter()
            .enumerate()
            .map(|(k, v)| {
                (
                    l.names.as_ref().and_then(|n| n.get(k)).map(String::as_str),
                    v,
                )
            })
            .collect();
    }
    for (_, v) in &given {
        if !matches!(
            v,
            Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_)
        ) {
            return Err(KernelError::new(not_a_vector(v.type_name())));
        }
    }
    let names: Vec<String> = given
        .iter()
        .enumerate()
        .map(|(k, (n, _))| column_name(*n, k))
        .collect();
    let rows = given
        .iter()
        .try_fold(1usize, |acc, (_, v)| acc.checked_mul(v.len()));
    let Some(rows) = rows else {
        return Err(alloc::cannot_allocate(f64::MAX));
    };
    if rows == 0 {
        let columns = given.iter().map(|(_, v)| pick(v, &[])).collect();
        return Ok(frame::frame(names, columns));
    }
    alloc::ensure_room(rows as f64 * 8.0 * given.len() as f64)?;
    let mut columns = Vec::with_capacity(given.len());
    let mut each = 1usize;
    for (_, v) in &given {
        let n = v.len();
        let converted;
        let v = match v {
            Value::Str(s) if factors => {
                converted = Value::Factor(factor_in_order(s));
                &converted
            }
            v => *v,
        };
        let mut at = alloc::vec_with_capacity::<usize>(rows)?;
        at.extend((0..rows).map(|r| (r / each) % n));
        columns.push(pick(v, &at));
        each *= n;
    }
    Ok(frame::frame(names, columns))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let factors = args.ty("stringsAsFactors").and_then(Type::const_scalar) != Some(0.0);
    let given: Vec<(Option<&str>, &Type)> = args.dots().collect();
    if given
        .iter()
        .any(|(_, t)| matches!(t, Type::Any | Type::List { .. } | Type::Record { .. }))
    {
        return Ok(Type::Any);
    }
    for (k, (_, t)) in given.iter().enumerate() {
        if !matches!(
            t,
            Type::Num { .. } | Type::Str { .. } | Type::Bool { .. } | Type::Factor { .. }
        ) {
            return Err(args.dots_error(k, not_a_vector(&t.describe())));
        }
    }
    let rows = given
        .iter()
        .try_fold(1usize, |acc, (_, t)| acc.checked_mul(t.len()?));
    let fields = given
        .iter()
        .enumerate()
        .map(|(k, (n, t))| {
            let t = match t {
                _ if rows == Some(0) => super::vector::like(t, Some(0)),
                Type::Str { value, .. } if factors => Type::Factor {
                    len: rows,
                    levels: value.as_ref().map(|v| factor_in_order(v).levels),
                    ordered: false,
                },
                t => super::vector::like(t, rows),
            };
            (column_name(*n, k), t)
        })
        .collect();
    Ok(Type::Record {
        class: frame::CLASS.to_string(),
        fields,
    })
}
