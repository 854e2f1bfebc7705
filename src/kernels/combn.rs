//! `combn(x, m, FUN, simplify, ...)`: the combinations of `m` elements of
//! `x` (of `seq_len(x)` for a single positive whole number), in R's order,
//! each as a column or passed to FUN. A port of R 4.2.2's utils::combn,
//! its loop over the index vector `a` kept as R writes it.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::fun::{self, Fun};
use super::logical::if_condition;
use super::names::bare;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "combn",
    params: &[req("x"), req("m"), opt("FUN"), opt("simplify"), DOTS],
    random: false,
    shape,
    eval,
}];

/// `x[a]` (1-based positions), or FUN of it.
fn pick(
    x: &Value,
    a: &[usize],
    f: Option<&Fun>,
    dots: &[(Option<&str>, &Value)],
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let at = Value::Num(a.iter().map(|&i| i as f64).collect());
    let sub = super::index::index(x, &[Some(at)])?;
    match f {
        None => Ok(sub),
        Some(f) => f.call_on(&sub, dots, ctx),
    }
}

/// The simplified result: `matrix(r, nrow = len.r, ncol = count)` filled
/// column by column (`out[, i] <- r`), a vector when FUN gives one value.
fn simplified(results: Vec<Value>, len_r: usize, vector: bool) -> Result<Value, KernelError> {
    let count = results.len();
    for r in &results {
        if r.len() != len_r {
            return Err(KernelError::new(
                "number of items to replace is not a multiple of replacement length",
            ));
        }
    }
    let shape = (!vector).then_some((len_r, count));
    if results
        .iter()
        .all(|r| matches!(bare(r), Value::Bool(_) | Value::BoolMat(_)))
    {
        let data: Vec<Option<bool>> = results
            .iter()
            .flat_map(|r| bare(r).as_logicals().unwrap_or_default().into_owned())
            .collect();
        return Ok(Value::logicals_shaped(data, shape));
    }
    let numeric = |r: &Value| {
        matches!(
            bare(r),
            Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)
        )
    };
    if results.iter().all(numeric) {
        let data: Vec<f64> = results
            .iter()
            .flat_map(|r| bare(r).as_f64_slice().unwrap_or_default().into_owned())
            .collect();
        return Ok(Value::nums_shaped(data, shape));
    }
    if vector && results.iter().all(|r| matches!(bare(r), Value::Str(_))) {
        let data: Vec<String> = results
            .iter()
            .flat_map(|r| match bare(r) {
                Value::Str(s) => s.clone(),
                _ => Vec::new(),
            })
            .collect();
        return Ok(Value::Str(data));
    }
    if results.iter().all(|r| matches!(bare(r), Value::Complex(_))) {
        let data: Vec<_> = results
            .iter()
            .flat_map(|r| match bare(r) {
                Value::Complex(z) => z.clone(),
                _ => Vec::new(),
            })
            .collect();
        return Ok(match shape {
            Some((r, c)) => Value::ComplexMat(DMatrix::from_vec(r, c, data)),
            None => Value::Complex(data),
        });
    }
    Err(KernelError::new(
        "combn(): flowcast has no matrices of text, factors or lists; use simplify = FALSE",
    ))
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let x = args.get("x").ok_or_else(|| missing("x"))?;
    let m = args.get("m").ok_or_else(|| missing("m"))?;
    // stopifnot(length(m) == 1L, is.numeric(m))
    if m.len() != 1 {
        return Err(KernelError::new("length(m) == 1L is not TRUE"));
    }
    let m = match bare(m) {
        v @ (Value::Num(_) | Value::Mat(_)) => v.as_f64_slice().unwrap_or_default()[0],
        _ => return Err(KernelError::new("is.numeric(m) is not TRUE")),
    };
    if m.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if m < 0.0 {
        return Err(KernelError::new("m < 0"));
    }
    let seq;
    let mut x = bare(x);
    if let Value::Num(v) = x {
        if v.len() == 1 {
            let n = v[0];
            if n.is_nan() {
                return Err(KernelError::new("missing value where TRUE/FALSE needed"));
            }
            if n > 0.0 && n.trunc() == n {
                super::alloc::ensure_room(n * 8.0)?;
                seq = Value::Num((1..=n as usize).map(|i| i as f64).collect());
                x = &seq;
            }
        }
    }
    let n = x.len();
    if (n as f64) < m {
        return Err(KernelError::new("n < m"));
    }
    let simplify = match args.get("simplify") {
        None => true,
        Some(s) => if_condition(s)?,
    };
    let m = m as usize;
    let f = fun::resolve(args.get("FUN"), ctx)?;
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let count = super::nmath::choose::choose(n as f64, m as f64).round();
    if f.is_none() {
        super::alloc::ensure_room(count * m as f64 * 8.0)?;
    } else {
        super::alloc::ensure_room(count * 8.0)?;
    }
    let mut a: Vec<usize> = (1..=m).collect();
    let mut results = vec![pick(x, &a, f.as_ref(), &dots, ctx)?];
    if m > 0 {
        let (mut e, mut h) = (0, m);
        let nmmp1 = n - m + 1;
        while a[0] != nmmp1 {
            if e < n - h {
                h = 1;
                e = a[m - 1];
            } else {
                e = a[m - h - 1];
                h += 1;
            }
            for j in 1..=h {
                a[m - h + j - 1] = e + j;
            }
            results.push(pick(x, &a, f.as_ref(), &dots, ctx)?);
        }
    }
    if !simplify {
        return Ok(Value::List(List::sequence(results)));
    }
    if matches!(x, Value::Factor(_)) && f.is_none() {
        return Err(KernelError::new(
            "combn(): flowcast has no matrices of text, factors or lists; use simplify = FALSE",
        ));
    }
    let first = &results[0];
    let len_r = first.len();
    if f.is_some() && first.dims().is_some() {
        return Err(KernelError::new(
            "combn(): flowcast has no arrays of more than two dimensions; use simplify = FALSE",
        ));
    }
    simplified(results, len_r, f.is_some() && len_r == 1)
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if args.has("FUN") && !matches!(args.ty("FUN"), Some(Type::Null)) {
        return Ok(Type::Any);
    }
    let m = match args.ty("m") {
        Some(Type::Num { value: Some(v), .. }) if v.len() == 1 && v[0] >= 0.0 => {
            Some(v[0] as usize)
        }
        _ => None,
    };
    let simplify = !matches!(
        args.ty("simplify"),
        Some(Type::Bool { value: Some(v), .. }) if v.first() == Some(&Some(false))
    );
    if !simplify {
        return Ok(Type::Any);
    }
    Ok(match args.ty("x") {
        Some(Type::Num { .. }) => Type::Mat {
            rows: m,
            cols: None,
        },
        Some(Type::Bool { .. }) => Type::BoolMat {
            rows: m,
            cols: None,
        },
        _ => Type::Any,
    })
}
