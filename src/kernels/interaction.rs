//! `interaction(..., drop, sep, lex.order)`: the factor of every
//! combination of the levels of its arguments. A port of R 4.2.2's
//! base::interaction, from the last factor to the first, duplicate labels
//! merged as R merges them.

use super::args::{ArgError, Args};
use super::factor::{as_factor, drop_unused};
use super::names::bare;
use super::triangle::if_condition;
use super::value::Factor;
use super::{opt, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "interaction",
    params: &[DOTS, opt("drop"), opt("sep"), opt("lex.order")],
    random: false,
    shape,
    eval,
}];

const RECYCLE: &str = "longer object length is not a multiple of shorter object length";

/// R's elementwise `f(a, b)` with recycling and its warning.
fn recycled(
    a: &[Option<i64>],
    b: &[Option<i64>],
    f: impl Fn(i64, i64) -> i64,
    ctx: &mut Ctx,
) -> Vec<Option<i64>> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let n = a.len().max(b.len());
    if n % a.len() != 0 || n % b.len() != 0 {
        ctx.warn(RECYCLE);
    }
    (0..n)
        .map(|i| Some(f(a[i % a.len()]?, b[i % b.len()]?)))
        .collect()
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let drop = match args.get("drop") {
        None => false,
        Some(d) => if_condition(d)?,
    };
    let lex = match args.get("lex.order") {
        None => false,
        Some(d) => if_condition(d)?,
    };
    let sep = match args.get("sep").map(bare) {
        None => ".".to_string(),
        Some(Value::Str(s)) if s.len() == 1 => s[0].clone(),
        Some(_) => return Err(KernelError::new("invalid separator")),
    };
    let sep = sep.as_str();
    let mut items: Vec<Value> = args.dots().map(|(_, v)| v.clone()).collect();
    if items.is_empty() {
        return Err(KernelError::new("No factors specified"));
    }
    if items.len() == 1 {
        if let Value::List(l) = bare(&items[0]) {
            items = l.items.clone();
        }
    }
    let narg = items.len();
    if narg == 0 {
        return Err(KernelError::new("No factors specified"));
    }
    let mut ans: Vec<Option<i64>> = Vec::new();
    let mut lvs: Vec<String> = Vec::new();
    for i in (0..narg).rev() {
        // A logical matrix's levels are FALSE and TRUE, as a vector's.
        let item = match bare(&items[i]) {
            m @ Value::BoolMat(_) => Value::Bool(m.as_logicals().unwrap_or_default().into_owned()),
            other => other.clone(),
        };
        let f = as_factor(&item)?;
        let f = if drop { drop_unused(&f) } else { f };
        let l = f.levels;
        let if1: Vec<Option<i64>> = f.codes.iter().map(|c| c.map(i64::from)).collect();
        if i == narg - 1 {
            ans = if1;
            lvs = l;
            continue;
        }
        super::alloc::ensure_room(lvs.len() as f64 * l.len() as f64 * 32.0)?;
        if lex {
            let ll = lvs.len() as i64;
            ans = recycled(&ans, &if1, |a, b| a + ll * b, ctx);
            lvs = l
                .iter()
                .flat_map(|a| lvs.iter().map(move |b| format!("{a}{sep}{b}")))
                .collect();
        } else {
            let nl = l.len() as i64;
            ans = recycled(&ans, &if1, |a, b| a * nl + b, ctx);
            lvs = lvs
                .iter()
                .flat_map(|b| l.iter().map(move |a| format!("{a}{sep}{b}")))
                .collect();
        }
        // R's fix-up of duplicated labels: each later duplicate is
        // dropped and its codes moved to the first.
        let mut ulvs: Vec<String> = Vec::new();
        for s in &lvs {
            if !ulvs.contains(s) {
                ulvs.push(s.clone());
            }
        }
        if ulvs.len() != lvs.len() {
            loop {
                let flv: Vec<usize> = lvs
                    .iter()
                    .map(|s| ulvs.iter().position(|u| u == s).unwrap_or(0))
                    .collect();
                // anyDuplicated: the 1-based position of the first repeat.
                let Some(dup) = (1..flv.len()).find(|&k| flv[..k].contains(&flv[k])) else {
                    break;
                };
                let i1 = dup as i64 + 1;
                lvs.remove(dup);
                let first = flv[..dup].iter().position(|&v| v == flv[dup]).unwrap_or(0) as i64;
                for a in ans.iter_mut().flatten() {
                    if *a + 1 == i1 {
                        *a = first;
                    } else if *a + 1 > i1 {
                        *a -= 1;
                    }
                }
            }
            lvs = ulvs;
        }
        if drop {
            let mut used: Vec<i64> = ans.iter().flatten().copied().collect();
            used.sort_unstable();
            used.dedup();
            let olvs = std::mem::take(&mut lvs);
            lvs = used.iter().map(|&k| olvs[k as usize].clone()).collect();
            ans = ans
                .iter()
                .map(|a| a.and_then(|a| used.binary_search(&a).ok().map(|k| k as i64)))
                .collect();
        }
    }
    Ok(Value::Factor(Factor {
        codes: ans.iter().map(|a| a.map(|a| a as u32)).collect(),
        levels: lvs,
    }))
}

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Factor {
        len: None,
        levels: None,
    })
}
