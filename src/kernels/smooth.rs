//! `smooth(x, kind, twiceit, endrule, do.ends)`: R 4.2.2's Tukey
//! (running median) smoothers, stats/R/smooth.R over smooth.c's `Rsm`
//! (`sm_3`, `sm_3R`, `sm_split3`, `sm_3RS3R`, `sm_3RSS`, `sm_3RSR`). R's
//! value is the smoothed vector with class "tukeysmooth" and attributes
//! (kind, iter, endrule, call); flowcast's is the numeric vector alone.

use super::args::{ArgError, Args};
use super::vector::choice;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "smooth",
    params: &[
        req("x"),
        opt("kind"),
        opt("twiceit"),
        opt("endrule"),
        opt("do.ends"),
    ],
    random: false,
    shape,
    eval,
}];

const KINDS: [&str; 6] = ["3RS3R", "3RSS", "3RSR", "3R", "3", "S"];

/// smooth.c's `R_SM_ENDRULE`.
#[derive(Clone, Copy, PartialEq)]
enum EndRule {
    No,
    Copy,
    Tukey,
}

/// smooth.c's `med3`.
fn med3(u: f64, v: f64, w: f64) -> f64 {
    if (u <= v && v <= w) || (u >= v && v >= w) {
        return v;
    }
    if (u <= w && w <= v) || (u >= w && w >= v) {
        return w;
    }
    u
}

/// smooth.c's `imed3`: -1, 0 or 1 as the median is u, v or w.
fn imed3(u: f64, v: f64, w: f64) -> isize {
    if (u <= v && v <= w) || (u >= v && v >= w) {
        return 0;
    }
    if (u <= w && w <= v) || (u >= w && w >= v) {
        return 1;
    }
    -1
}

/// smooth.c's `sm_DO_ENDRULE` on `y` from `x`, `chg` updated.
fn do_endrule(x: &[f64], y: &mut [f64], end_rule: EndRule, chg: &mut bool) {
    let n = x.len();
    match end_rule {
        EndRule::No => {}
        EndRule::Copy => {
            y[0] = x[0];
            y[n - 1] = x[n - 1];
        }
        EndRule::Tukey => {
            y[0] = med3(3.0 * y[1] - 2.0 * y[2], x[0], y[1]);
            *chg = *chg || y[0] != x[0];
            y[n - 1] = med3(y[n - 2], x[n - 1], 3.0 * y[n - 2] - 2.0 * y[n - 3]);
            *chg = *chg || y[n - 1] != x[n - 1];
        }
    }
}

/// smooth.c's `sm_3`: running medians of three; whether any changed.
fn sm_3(x: &[f64], y: &mut [f64], end_rule: EndRule) -> bool {
    let n = x.len();
    if n <= 2 {
        y[..n].copy_from_slice(x);
        return false;
    }
    let mut chg = false;
    for i in 1..n - 1 {
        let j = imed3(x[i - 1], x[i], x[i + 1]);
        y[i] = x[i.wrapping_add_signed(j)];
        chg = chg || j != 0;
    }
    do_endrule(x, y, end_rule, &mut chg);
    chg
}

/// smooth.c's `sm_3R`: "3" repeated until nothing changes; R's count of
/// iterations (or whether the ends changed).
fn sm_3r(x: &[f64], y: &mut [f64], z: &mut [f64], end_rule: EndRule) -> usize {
    let n = x.len();
    let mut chg = sm_3(x, y, EndRule::Copy);
    let mut iter = usize::from(chg);
    while chg {
        chg = sm_3(y, z, EndRule::No);
        if chg {
            // A NaN (from 3*a - 2*b past the double range) makes every
            // pass a change in R's C, which then never ends: flowcast
            // stops once a pass leaves the values as they were, or after
            // more passes than real numbers ever need.
            let same = y[1..n - 1]
                .iter()
                .zip(&z[1..n - 1])
                .all(|(a, b)| a.to_bits() == b.to_bits());
            let nan = y.iter().any(|v| v.is_nan());
            if nan && (same || iter > 4 * n + 10) {
                break;
            }
            iter += 1;
            y[1..n - 1].copy_from_slice(&z[1..n - 1]);
        }
    }
    if n > 2 {
        do_endrule(x, y, end_rule, &mut chg);
    }
    if iter > 0 {
        iter
    } else {
        usize::from(chg)
    }
}

/// smooth.c's `sptest`: a two-point plateau that is a peak or a valley.
fn sptest(x: &[f64], i: usize) -> bool {
    if x[i] != x[i + 1] {
        return false;
    }
    !((x[i - 1] <= x[i] && x[i + 1] <= x[i + 2]) || (x[i - 1] >= x[i] && x[i + 1] >= x[i + 2]))
}

/// smooth.c's `sm_split3` ("S").
fn sm_split3(x: &[f64], y: &mut [f64], do_ends: bool) -> bool {
    let n = x.len();
    y[..n].copy_from_slice(x);
    if n <= 4 {
        return false;
    }
    let mut chg = false;
    if do_ends && sptest(x, 1) {
        chg = true;
        y[1] = x[0];
        y[2] = med3(x[2], x[3], 3.0 * x[3] - 2.0 * x[4]);
    }
    for i in 2..n - 3 {
        if sptest(x, i) {
            let j = imed3(x[i], x[i - 1], 3.0 * x[i - 1] - 2.0 * x[i - 2]);
            if j > -1 {
                y[i] = if j == 0 {
                    x[i - 1]
                } else {
                    3.0 * x[i - 1] - 2.0 * x[i - 2]
                };
                // R's C assigns rather than accumulates here.
                chg = y[i] != x[i];
            }
            let j = imed3(x[i + 1], x[i + 2], 3.0 * x[i + 2] - 2.0 * x[i + 3]);
            if j > -1 {
                y[i + 1] = if j == 0 {
                    x[i + 2]
                } else {
                    3.0 * x[i + 2] - 2.0 * x[i + 3]
                };
                chg = y[i + 1] != x[i + 1];
            }
        }
    }
    if do_ends && sptest(x, n - 3) {
        chg = true;
        y[n - 2] = x[n - 1];
        y[n - 3] = med3(x[n - 3], x[n - 4], 3.0 * x[n - 4] - 2.0 * x[n - 5]);
    }
    chg
}

/// smooth.c's `Rsm`: `type` 1-based in [`KINDS`], `iend` as smooth.R
/// computes it (negative for split ends).
fn rsm(x: &[f64], kind: usize, iend: i32) -> Vec<f64> {
    let n = x.len();
    let mut y = vec![0.0; n];
    let mut z = vec![0.0; n];
    let mut w = vec![0.0; n];
    let rule = |e: i32| match e.abs() {
        1 => EndRule::Copy,
        2 => EndRule::Tukey,
        _ => EndRule::No,
    };
    let split_ends = iend < 0;
    match kind {
        1 => {
            sm_3r(x, &mut y, &mut z, rule(iend));
            if sm_split3(&y, &mut z, split_ends) {
                sm_3r(&z, &mut y, &mut w, rule(iend));
            }
        }
        2 => {
            sm_3r(x, &mut y, &mut z, rule(iend));
            if sm_split3(&y, &mut z, split_ends) {
                sm_split3(&z, &mut y, split_ends);
            }
        }
        3 => {
            let mut iter = sm_3r(x, &mut y, &mut z, rule(iend));
            loop {
                iter += 1;
                let chg = sm_split3(&y, &mut z, split_ends);
                let ch2 = sm_3r(&z, &mut y, &mut w, rule(iend));
                if !(chg || ch2 != 0) || iter > 2 * n {
                    break;
                }
                for i in 0..n {
                    z[i] = x[i] - y[i];
                }
            }
        }
        4 => {
            sm_3r(x, &mut y, &mut z, rule(iend));
        }
        5 => {
            sm_3(x, &mut y, rule(iend));
        }
        _ => {
            sm_split3(x, &mut y, iend != 0);
        }
    }
    y
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x: Vec<f64> = match args.get("x").map(super::names::bare) {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        Some(_) => return Err(KernelError::new("attempt to smooth non-numeric values")),
        None => {
            return Err(KernelError::new(
                "argument \"x\" is missing, with no default",
            ))
        }
    };
    if x.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new("attempt to smooth NA values"));
    }
    let endrule = choice(args, "endrule", &["Tukey", "copy"])?;
    let kind = choice(args, "kind", &KINDS)?;
    let twiceit = args.bool_or("twiceit", false)?;
    let do_ends = args.bool_or("do.ends", false)?;
    let mut iend: i32 = if endrule == "copy" { 1 } else { 2 };
    if kind.starts_with("3RS") && !do_ends {
        iend = -iend;
    } else if kind == "S" {
        iend = i32::from(do_ends);
    }
    let type_ = KINDS.iter().position(|k| *k == kind).unwrap_or(0) + 1;
    let mut y = rsm(&x, type_, iend);
    if twiceit {
        let resid: Vec<f64> = x.iter().zip(&y).map(|(a, b)| a - b).collect();
        if resid.iter().any(|v| v.is_nan()) {
            return Err(KernelError::new("attempt to smooth NA values"));
        }
        let r = rsm(&resid, type_, iend);
        y.iter_mut().zip(&r).for_each(|(a, b)| *a += b);
    }
    Ok(Value::Num(y))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("x") {
        if !matches!(t, Type::Num { .. } | Type::Mat { .. } | Type::Any) {
            return Err(args.error("x", "attempt to smooth non-numeric values"));
        }
    }
    let len = args.ty("x").and_then(Type::len);
    Ok(Type::Num { len, value: None })
}
