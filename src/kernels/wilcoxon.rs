//! R's `dwilcox`, `pwilcox`, `qwilcox`, `dsignrank`, `psignrank` and
//! `qsignrank`: the exact distributions of the Wilcoxon statistics
//! (nmath/wilcox.c and signrank.c, in `nmath::wilcox` and
//! `nmath::signrank`), recycling their arguments as R's `math3_1`/`math2_1`
//! do. Each call keeps one table of counts across its elements and drops
//! it at the end, as R's on.exit frees it; a table that cannot be had
//! fails the call with R's allocation error.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::nmath::signrank::{self, Signrank};
use super::nmath::wilcox;
use super::recycle::map_rows;
use super::recycle::{recycled_len, recycled_shape};
use super::{opt, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value};

const fn k(name: &'static str, params: &'static [Param]) -> Kernel {
    Kernel {
        name,
        params,
        random: false,
        shape,
        eval,
    }
}

const LT: Param = opt("lower.tail");
const LP: Param = opt("log.p");

pub(super) static KERNELS: &[Kernel] = &[
    k("dwilcox", &[req("x"), req("m"), req("n"), opt("log")]),
    k("pwilcox", &[req("q"), req("m"), req("n"), LT, LP]),
    k("qwilcox", &[req("p"), req("m"), req("n"), LT, LP]),
    k("dsignrank", &[req("x"), req("n"), opt("log")]),
    k("psignrank", &[req("q"), req("n"), LT, LP]),
    k("qsignrank", &[req("p"), req("n"), LT, LP]),
];

/// The first formal and the parameters after it.
fn formals(func: &str) -> (&'static str, &'static [&'static str]) {
    let first = match func.as_bytes().first() {
        Some(b'd') => "x",
        Some(b'p') => "q",
        _ => "p",
    };
    let params: &[&str] = if func.ends_with("wilcox") {
        &["m", "n"]
    } else {
        &["n"]
    };
    (first, params)
}

fn non_numeric() -> KernelError {
    KernelError::new("Non-numeric argument to mathematical function")
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let (first, names) = formals(args.func);
    let x0 = args.get(first).unwrap_or(&Value::Null);
    let xs = x0.as_f64_slice().ok_or_else(non_numeric)?;
    let mut params = Vec::with_capacity(names.len());
    for name in names {
        let v = args.get(name).ok_or_else(|| {
            KernelError::new(format!("argument \"{name}\" is missing, with no default"))
        })?;
        params.push(v.as_f64_slice().ok_or_else(non_numeric)?);
    }
    let (a, b) = if args.func.starts_with('d') {
        (args.bool_or("log", false)?, false)
    } else {
        (
            args.bool_or("lower.tail", true)?,
            args.bool_or("log.p", false)?,
        )
    };
    let mut lens = vec![xs.len()];
    lens.extend(params.iter().map(|p| p.len()));
    let n = recycled_len(&lens);
    let params: Vec<&[f64]> = params.iter().map(|p| &**p).collect();
    let mut s = Signrank::default();
    let mut failed: Option<String> = None;
    let func = args.func;
    let (out, nan) = wilcox::with_kept(|w| {
        map_rows(&xs, &params, n, |x, p| {
            if failed.is_some() {
                return f64::NAN;
            }
            let r = match func {
                "dwilcox" => wilcox::dwilcox(w, x, p[0], p[1], a),
                "pwilcox" => wilcox::pwilcox(w, x, p[0], p[1], a, b),
                "qwilcox" => wilcox::qwilcox(w, x, p[0], p[1], a, b),
                "dsignrank" => signrank::dsignrank(&mut s, x, p[0], a),
                "psignrank" => signrank::psignrank(&mut s, x, p[0], a, b),
                _ => signrank::qsignrank(&mut s, x, p[0], a, b),
            };
            r.unwrap_or_else(|e| {
                failed = Some(e);
                f64::NAN
            })
        })
    })?;
    if let Some(e) = failed {
        return Err(KernelError::new(e));
    }
    if nan {
        ctx.warn("NaNs produced");
    }
    Ok(match x0 {
        Value::Mat(m) if m.len() == n => Value::Mat(DMatrix::from_vec(m.nrows(), m.ncols(), out)),
        _ => Value::Num(out),
    })
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (first, names) = formals(args.func);
    recycled_shape(args, first, names)
}
