//! `interaction(..., drop, sep, lex.order)`: the factor of every
//! combination of the levels of its arguments. A port of R 4.2.2's
//! base::interaction, from the last factor to the first, duplicate labels
//! merged as R merges them.

use super::args::{ArgError, Args};
use super::factor::{as_factor, drop_unused};
use super::logical::if_condition;
use super::names::bare;
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
    let mut items: Vec<Value> = args.dots().map(|(_, v)| v.clone()).collect();
    if items.is_empty() {
        return Err(KernelError::new("No factors specified"));
    }
    if items.len() == 1 {
        if let Value::List(l) = bare(&items[0]) {
            items = l.items.clone();
        }
    }
    Ok(Value::Factor(interaction(items, drop, &sep, lex, ctx)?))
}

/// R's `interaction(args, drop, sep, lex.order)` of the factors `items`
/// (also what split.default makes of a list `f`).
pub(super) fn interaction(
    items: Vec<Value>,
    drop: bool,
    sep: &str,
    lex: bool,
    ctx: &mut Ctx,
) -> Result<Factor, KernelError> {
    let narg = items.len();
    if narg == 0 {
        return Err(KernelError::new("No factors specified"));
    }
    // R's codes are integers: past their range its `ans * nl + if1`
    // overflows, and the labels alone would not fit. Known before any
    // label is written.
    // A logical matrix's levels are FALSE and TRUE, as a vector's.
    let mut factors = Vec::with_capacity(narg);
    let mut total = 1.0f64;
    for item in &items {
        let item = match bare(item) {
            m @ Value::BoolMat(_) => Value::Bool(m.as_logicals().unwrap_or_default().into_owned()),
            other => other.clone(),
        };
        let f = as_factor(&item)?;
        let f = if drop { drop_unused(&f) } else { f };
        total *= f.levels.len() as f64;
        factors.push(f);
    }
    if total > i32::MAX as f64 {
        return Err(super::alloc::cannot_allocate(total * 8.0));
    }
    let mut ans: Vec<Option<i64>> = Vec::new();
    let mut lvs: Vec<String> = Vec::new();
    for i in (0..narg).rev() {
        let f = std::mem::take(&mut factors[i]);
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
        // R's fix-up of duplicated labels removes each later duplicate and
        // moves its codes to the first: in the end, a code points at its
        // label's first appearance among the distinct labels. Found in one
        // pass, as R's loop is quadratic in the levels.
        let mut first: crate::kernels::hashing::FastMap<&str, i64> = Default::default();
        let mut ulvs: Vec<String> = Vec::new();
        let to: Vec<i64> = lvs
            .iter()
            .map(|s| {
                *first.entry(s.as_str()).or_insert_with(|| {
                    ulvs.push(s.clone());
                    ulvs.len() as i64 - 1
                })
            })
            .collect();
        if ulvs.len() != lvs.len() {
            for a in ans.iter_mut().flatten() {
                *a = to.get(*a as usize).copied().unwrap_or(*a);
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
    Ok(Factor {
        codes: ans.iter().map(|a| a.map(|a| a as u32)).collect(),
        levels: lvs,
        ordered: false,
    })
}

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Factor {
        len: None,
        levels: None,
        ordered: false,
    })
}
