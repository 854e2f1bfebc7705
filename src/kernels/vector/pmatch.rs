//! `pmatch(x, table, nomatch, duplicates.ok)` and `charmatch(x, table,
//! nomatch)`: partial matching of strings, as R 4.2.2's do_pmatch and
//! do_charmatch (unique.c), after their `as.character` at R level. NA is
//! the string "NA" there as here, so it matches a "NA" in the table.

use super::text::as_character;
use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::NA;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn match_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "table"] {
        if matches!(
            args.ty(name),
            Some(Type::List { .. } | Type::Record { .. } | Type::Formula { .. })
        ) {
            return Err(args.error(name, "argument is not of mode character"));
        }
    }
    Ok(Type::Num {
        len: args.ty("x").and_then(Type::len),
        value: None,
    })
}

/// `as.character(v)` with NA as R's "NA" (what CHAR(NA_STRING) reads).
fn strings(args: &Args<&Value>, name: &str) -> Result<Vec<String>, KernelError> {
    let v = super::arg_or_null(args, name);
    let t = as_character(v).ok_or_else(|| KernelError::new("argument is not of mode character"))?;
    Ok(t.into_iter()
        .map(|s| s.unwrap_or_else(|| "NA".into()))
        .collect())
}

/// R's `asInteger(nomatch)`: the first element, truncated; NA when it is
/// missing, empty or NA.
fn no_match(args: &Args<&Value>) -> Result<f64, KernelError> {
    match args.get("nomatch") {
        None => Ok(NA),
        Some(v) => match v.as_f64_slice() {
            Some(n) => Ok(n
                .first()
                .filter(|x| x.is_finite() && x.abs() < 2147483648.0)
                .map_or(NA, |x| x.trunc())),
            None => Err(KernelError::new("invalid 'nomatch' argument")),
        },
    }
}

/// do_pmatch: exact matches first, then unique partial ones; without
/// `duplicates.ok` each table entry is used once. The empty string
/// matches nothing.
pub(super) fn pmatch_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let no_match = no_match(args)?;
    let dups_ok = match args.get("duplicates.ok") {
        None => false,
        Some(Value::Bool(b)) if !b.is_empty() => {
            b[0].ok_or_else(|| KernelError::new("invalid 'duplicates.ok' argument"))?
        }
        Some(v) => match v.as_f64_slice() {
            Some(n) if !n.is_empty() && !n[0].is_nan() => n[0] != 0.0,
            _ => return Err(KernelError::new("invalid 'duplicates.ok' argument")),
        },
    };
    let no_dups = !dups_ok;
    let input = strings(args, "x")?;
    let target = strings(args, "table")?;
    let mut used = vec![false; target.len()];
    let mut ians = vec![0usize; input.len()];
    // First pass, exact matching. (R hashes when both vectors exceed 100
    // elements; the first unused equal entry is found either way.)
    let mut nexact = 0;
    for (i, ss) in input.iter().enumerate() {
        if ss.is_empty() {
            continue;
        }
        for (j, t) in target.iter().enumerate() {
            if no_dups && used[j] {
                continue;
            }
            if ss == t {
                ians[i] = j + 1;
                if no_dups {
                    used[j] = true;
                }
                nexact += 1;
                break;
            }
        }
    }
    let mut out = vec![no_match; input.len()];
    if nexact < input.len() {
        // Second pass, partial matching.
        for (i, ss) in input.iter().enumerate() {
            if ians[i] != 0 || ss.is_empty() {
                continue;
            }
            let mut mtch = 0;
            let mut mtch_count = 0;
            for (j, t) in target.iter().enumerate() {
                if no_dups && used[j] {
                    continue;
                }
                if t.as_bytes().starts_with(ss.as_bytes()) {
                    mtch = j + 1;
                    mtch_count += 1;
                }
            }
            if mtch > 0 && mtch_count == 1 {
                if no_dups {
                    used[mtch - 1] = true;
                }
                ians[i] = mtch;
            }
        }
    }
    for (o, &m) in out.iter_mut().zip(&ians) {
        if m != 0 {
            *o = m as f64;
        }
    }
    Ok(Value::Num(out))
}

/// do_charmatch: a unique exact match wins; else a unique partial one;
/// 0 when several match equally well, `nomatch` when none does.
pub(super) fn charmatch_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let input = strings(args, "x")?;
    let target = strings(args, "table")?;
    let no_match = no_match(args)?;
    Ok(Value::Num(
        input
            .iter()
            .map(|ss| {
                let mut imatch: Option<usize> = None;
                let mut perfect = false;
                for (j, st) in target.iter().enumerate() {
                    if st.as_bytes().starts_with(ss.as_bytes()) {
                        if st.len() == ss.len() {
                            if perfect {
                                imatch = Some(0);
                            } else {
                                perfect = true;
                                imatch = Some(j + 1);
                            }
                        } else if !perfect {
                            imatch = Some(if imatch.is_none() { j + 1 } else { 0 });
                        }
                    }
                }
                imatch.map_or(no_match, |m| m as f64)
            })
            .collect(),
    ))
}
