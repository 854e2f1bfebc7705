//! `spin(seconds)`: burns the calling thread for a known wall time, for
//! demos and scheduler tests. It computes (no sleep), so it really occupies
//! a core, and polls the cancel flag every millisecond or so.

use std::hint::black_box;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

const INVALID: &str = "invalid 'seconds' argument: must be one finite non-negative number";

pub(super) fn shape_spin(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(s) = a.const_scalar_or("seconds", None)? {
        if !s.is_finite() || s < 0.0 {
            return Err(a.error("seconds", INVALID));
        }
    }
    Ok(Type::num(1))
}

pub(super) fn eval_spin(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let secs = a.scalar("seconds")?;
    if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
        return Err(KernelError::new(INVALID));
    }
    let wanted = Duration::from_secs_f64(secs);
    let start = Instant::now();
    let mut x = 0u64;
    loop {
        let elapsed = start.elapsed();
        if elapsed >= wanted {
            return Ok(Value::scalar(elapsed.as_secs_f64()));
        }
        if ctx.cancel.load(Ordering::Relaxed) {
            return Err(KernelError::new("cancelled"));
        }
        // About a millisecond of arithmetic between polls.
        for i in 0..20_000u64 {
            x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i));
        }
    }
}
