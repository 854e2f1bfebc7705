//! `rmultinom(n, size, prob)`: R's do_rmultinom (stats' random.c) and
//! nmath's rmultinom: each of the `n` columns draws its first K-1 counts
//! as binomials of what is left, from the workflow's random stream in
//! R's order, so a seed gives R's counts.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::{bare, dimnamed, names};
use super::nmath::rand::rbinom;
use super::summary::ldouble::LongDouble;
use super::{req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "rmultinom",
    params: &[req("n"), req("size"), req("prob")],
    random: true,
    shape,
    eval,
}];

/// R's asInteger: the first element, truncated; NA for anything else.
fn as_integer(v: &Value) -> Option<i64> {
    let x = match bare(v) {
        Value::Str(s) => s.first()?.trim().parse::<f64>().ok()?,
        v => *v.as_f64_slice()?.first()?,
    };
    (x.is_finite() && x.abs() < 2_147_483_648.0).then(|| x.trunc() as i64)
}

/// nmath's rmultinom for one column: `prob` already sums to one.
fn rmultinom1(mut n: i64, prob: &[f64], out: &mut [f64], ctx: &mut Ctx) -> Result<(), KernelError> {
    let k = prob.len();
    let mut p_tot = LongDouble::from_f64(0.0);
    for (p, o) in prob.iter().zip(out.iter_mut()) {
        p_tot = p_tot.add(LongDouble::from_f64(*p));
        *o = 0.0;
    }
    let total = p_tot.sub(LongDouble::from_f64(1.0)).to_f64();
    if total.abs() > 1e-7 {
        return Err(KernelError::new(format!(
            "rbinom: probability sum should be 1, but is {}",
            p_tot.to_f64()
        )));
    }
    if n == 0 {
        return Ok(());
    }
    for i in 0..k - 1 {
        if prob[i] != 0.0 {
            let pp = LongDouble::from_f64(prob[i]).div(p_tot).to_f64();
            out[i] = if pp < 1.0 {
                rbinom(n as f64, pp, ctx.rng).trunc()
            } else {
                n as f64
            };
            n -= out[i] as i64;
        } else {
            out[i] = 0.0;
        }
        if n <= 0 {
            return Ok(());
        }
        p_tot = p_tot.sub(LongDouble::from_f64(prob[i]));
    }
    out[k - 1] = n as f64;
    Ok(())
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let n = as_integer(args.get("n").ok_or_else(|| missing("n"))?)
        .filter(|&n| n >= 0)
        .ok_or_else(|| KernelError::new("invalid first argument 'n'"))?;
    let size = as_integer(args.get("size").ok_or_else(|| missing("size"))?)
        .filter(|&s| s >= 0)
        .ok_or_else(|| KernelError::new("invalid second argument 'size'"))?;
    let prob_v = args.get("prob").ok_or_else(|| missing("prob"))?;
    let mut prob: Vec<f64> = match bare(prob_v) {
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        Value::Null => Vec::new(),
        Value::Str(_) => {
            return Err(KernelError::new("NA in probability vector"));
        }
        v => {
            return Err(KernelError::new(format!(
                "rmultinom(): prob must be numeric, not {}",
                v.type_name()
            )))
        }
    };
    // R's FixupProb.
    let (mut sum, mut npos) = (0.0, 0);
    for &p in &prob {
        if !p.is_finite() {
            return Err(KernelError::new("NA in probability vector"));
        }
        if p < 0.0 {
            return Err(KernelError::new("negative probability"));
        }
        if p > 0.0 {
            npos += 1;
            sum += p;
        }
    }
    if npos == 0 {
        return Err(KernelError::new("no positive probabilities"));
    }
    for p in &mut prob {
        *p /= sum;
    }
    let k = prob.len();
    super::alloc::ensure_room(k as f64 * n as f64 * 8.0)?;
    let mut data = vec![0.0; k * n as usize];
    for col in data.chunks_mut(k) {
        rmultinom1(size, &prob, col, ctx)?;
    }
    let m = Value::Mat(DMatrix::from_vec(k, n as usize, data));
    Ok(match names(prob_v) {
        Some(nm) => dimnamed(m, Some(nm.to_vec()), None),
        None => m,
    })
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let cols = match args.ty("n") {
        Some(Type::Num { value: Some(v), .. })
            if v.len() == 1 && v[0] >= 0.0 && v[0].is_finite() =>
        {
            Some(v[0] as usize)
        }
        _ => None,
    };
    Ok(Type::Mat {
        rows: args.ty("prob").and_then(Type::len),
        cols,
    })
}
