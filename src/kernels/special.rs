//! Special and trigonometric functions: `gamma`, `lgamma`, `factorial`,
//! `lfactorial`, `beta`, `lbeta`, `choose`, `lchoose`, `besselI`,
//! `besselK`, `besselJ`, `besselY`, `sin`, `cos`, `tan`, `atan`, `atan2`.
//!
//! One-argument ones follow R's `math1` (arithmetic.c): NA and NaN come
//! through as they were, a NaN made from a number warns "NaNs produced",
//! and a matrix stays a matrix. Two-argument ones follow `math2`: both
//! recycled to the longer without a warning, NA in either gives NA, the
//! result shaped as the longer (the first on a tie), and an empty argument
//! gives an empty result.

use std::borrow::Cow;

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::nmath::choose::{beta, choose, k_rounding_warning, lchoose};
use super::nmath::gamma::{gammafn, lbeta, lgammafn};
use super::value::is_na;
use super::{opt, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value};

/// A matrix's `(rows, cols)`; `None` for a vector.
type Dims = Option<(usize, usize)>;

const NON_NUMERIC: &str = "non-numeric argument to mathematical function";

const X: &[Param] = &[req("x")];

const fn unary(name: &'static str) -> Kernel {
    Kernel {
        name,
        params: X,
        random: false,
        shape: unary_shape,
        eval: unary_eval,
    }
}

const fn binary(name: &'static str, params: &'static [Param]) -> Kernel {
    Kernel {
        name,
        params,
        random: false,
        shape: binary_shape,
        eval: binary_eval,
    }
}

pub(super) static KERNELS: &[Kernel] = &[
    unary("gamma"),
    unary("lgamma"),
    unary("factorial"),
    unary("lfactorial"),
    unary("sin"),
    unary("cos"),
    unary("tan"),
    unary("atan"),
    binary("beta", &[req("a"), req("b")]),
    binary("lbeta", &[req("a"), req("b")]),
    binary("choose", &[req("n"), req("k")]),
    binary("lchoose", &[req("n"), req("k")]),
    binary("atan2", &[req("y"), req("x")]),
    binary("psigamma", &[req("x"), opt("deriv")]),
    bessel("besselI"),
    bessel("besselK"),
    Kernel {
        name: "besselJ",
        params: &[req("x"), req("nu")],
        random: false,
        shape: bessel_shape,
        eval: bessel_eval,
    },
    Kernel {
        name: "besselY",
        params: &[req("x"), req("nu")],
        random: false,
        shape: bessel_shape,
        eval: bessel_eval,
    },
];

const BESSEL: &[Param] = &[req("x"), req("nu"), opt("expon.scaled")];

const fn bessel(name: &'static str) -> Kernel {
    Kernel {
        name,
        params: BESSEL,
        random: false,
        shape: bessel_shape,
        eval: bessel_eval,
    }
}

/// `1 + as.logical(expon.scaled)`, NA for what is no logical.
fn expo(v: Option<&Value>) -> Result<Vec<f64>, KernelError> {
    let Some(v) = v else {
        return Ok(vec![1.0]);
    };
    let na = super::value::NA;
    Ok(match super::names::bare(v) {
        Value::Null => Vec::new(),
        Value::Str(s) => s
            .iter()
            .map(|t| match t.as_str() {
                "TRUE" | "true" | "True" | "T" => 2.0,
                "FALSE" | "false" | "False" | "F" => 1.0,
                _ => na,
            })
            .collect(),
        other => match numbers(other) {
            Some((d, _)) => d
                .iter()
                .map(|&e| {
                    if e.is_nan() {
                        na
                    } else if e != 0.0 {
                        2.0
                    } else {
                        1.0
                    }
                })
                .collect(),
            None => return Err(KernelError::new(NON_NUMERIC)),
        },
    })
}

/// besselJ and besselY take no scaling: math2B's calls of bessel_j_ex and
/// bessel_y_ex, whose work arrays are each call's own here.
fn bessel_j3(x: f64, nu: f64, _: f64) -> super::nmath::bessel::Bessel {
    super::nmath::bessel_jy::bessel_j(x, nu)
}

fn bessel_y3(x: f64, nu: f64, _: f64) -> super::nmath::bessel::Bessel {
    super::nmath::bessel_jy::bessel_y(x, nu)
}

/// R's math3B (arithmetic.c) over bessel_i / bessel_k, and math2B over
/// bessel_j / bessel_y: x, nu and the scaling recycled to the longest, NA
/// in any gives NA (NaN for NaN), nmath's warnings and "NaNs produced",
/// the result shaped as the longest of x and nu (x on a tie).
fn bessel_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let a = args.get("x").ok_or_else(|| missing("x"))?;
    let b = args.get("nu").ok_or_else(|| missing("nu"))?;
    let (Some((x, xd)), Some((nu, nd))) = (numbers(a), numbers(b)) else {
        return Err(KernelError::new(NON_NUMERIC));
    };
    let e = expo(args.get_if_formal("expon.scaled"))?;
    if x.is_empty() || nu.is_empty() || e.is_empty() {
        return Ok(Value::nums_shaped(Vec::new(), xd));
    }
    let n = x.len().max(nu.len()).max(e.len());
    super::alloc::ensure_room(n as f64 * 8.0)?;
    let f = match args.func {
        "besselI" => super::nmath::bessel::bessel_i,
        "besselK" => super::nmath::bessel::bessel_k,
        "besselJ" => bessel_j3,
        _ => bessel_y3,
    };
    let mut nan = false;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (ai, bi, ci) = (x[i % x.len()], nu[i % nu.len()], e[i % e.len()]);
        if is_na(ai) || is_na(bi) || is_na(ci) {
            out.push(super::value::NA);
        } else if ai.is_nan() || bi.is_nan() || ci.is_nan() {
            out.push(f64::NAN);
        } else {
            let r = f(ai, bi, ci);
            if let Some(w) = r.warning {
                ctx.warn(w);
            }
            nan |= r.value.is_nan();
            out.push(r.value);
        }
    }
    if nan {
        ctx.warn("NaNs produced");
    }
    let dims = if n == x.len() {
        xd
    } else if n == nu.len() {
        nd
    } else {
        None
    };
    Ok(Value::nums_shaped(out, dims))
}

fn bessel_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (Some(a), Some(b)) = (args.ty("x"), args.ty("nu")) else {
        return Ok(Type::Any);
    };
    for (name, t) in [("x", a), ("nu", b)] {
        if !numeric_type(t) && !matches!(t, Type::Any) {
            return Err(args.error(name, format!("{NON_NUMERIC}: {}", t.describe())));
        }
    }
    if args.get_if_formal("expon.scaled").is_some() {
        return Ok(Type::Any);
    }
    Ok(match (a.len(), b.len()) {
        (Some(0), _) | (_, Some(0)) => Type::Any,
        (Some(m), Some(n)) => {
            let t = if m >= n { a } else { b };
            match t.dims() {
                Some((rows, cols)) => Type::Mat { rows, cols },
                None => Type::num(m.max(n)),
            }
        }
        _ => Type::Any,
    })
}

fn unary_fn(name: &str) -> fn(f64) -> f64 {
    match name {
        "gamma" => gammafn,
        "lgamma" => lgammafn,
        // factorial(x) is R's gamma(x + 1).
        "factorial" => |x| gammafn(x + 1.0),
        // lfactorial(x) is R's lgamma(x + 1).
        "lfactorial" => |x| lgammafn(x + 1.0),
        "sin" => f64::sin,
        "cos" => f64::cos,
        "tan" => f64::tan,
        _ => f64::atan,
    }
}

/// math1: the numbers out and whether a NaN was made.
fn math1(f: fn(f64) -> f64, x: &[f64]) -> (Vec<f64>, bool) {
    let mut nan = false;
    let out = x
        .iter()
        .map(|&v| {
            if v.is_nan() {
                return v;
            }
            let y = f(v);
            nan |= y.is_nan();
            y
        })
        .collect();
    (out, nan)
}

/// R's message for a non-number: factorial's comes from its `x + 1`.
fn non_numeric(func: &str) -> &'static str {
    if func == "factorial" || func == "lfactorial" {
        "non-numeric argument to binary operator"
    } else {
        NON_NUMERIC
    }
}

/// The numbers of a numeric or logical vector or matrix, with its shape;
/// `None` for anything else (text, factors, lists).
fn numbers(v: &Value) -> Option<(Cow<'_, [f64]>, Dims)> {
    match v {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) | Value::Null => {
            Some((v.as_f64_slice().unwrap_or_default(), v.dims()))
        }
        _ => None,
    }
}

fn unary_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let (data, dims) = numbers(x).ok_or_else(|| KernelError::new(non_numeric(args.func)))?;
    let (out, nan) = math1(unary_fn(args.func), &data);
    if nan {
        ctx.warn("NaNs produced");
    }
    Ok(Value::nums_shaped(out, dims))
}

fn numeric_type(t: &Type) -> bool {
    matches!(
        t,
        Type::Num { .. } | Type::Mat { .. } | Type::Bool { .. } | Type::BoolMat { .. } | Type::Null
    )
}

fn unary_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }) => Ok(Type::Mat {
            rows: *rows,
            cols: *cols,
        }),
        Some(Type::Any) | None => Ok(Type::Any),
        Some(t) if numeric_type(t) => Ok(match t.const_nums() {
            Some(v) => Type::num_const(math1(unary_fn(args.func), &v).0),
            None => Type::Num {
                len: t.len(),
                value: None,
            },
        }),
        Some(t) => Err(args.error("x", format!("{}: {}", non_numeric(args.func), t.describe()))),
    }
}

fn binary_fn(name: &str) -> fn(f64, f64) -> f64 {
    match name {
        "beta" => beta,
        "lbeta" => lbeta,
        "choose" => choose,
        "lchoose" => lchoose,
        "psigamma" => psigamma,
        _ => f64::atan2,
    }
}

fn binary_names(func: &str) -> (&'static str, &'static str) {
    match func {
        "choose" | "lchoose" => ("n", "k"),
        "atan2" => ("y", "x"),
        "psigamma" => ("x", "deriv"),
        _ => ("a", "b"),
    }
}

/// nmath's `n_max` of psigamma: higher derivatives are NaN with a warning.
const PSIGAMMA_N_MAX: f64 = 100.0;

/// nmath/polygamma.c's `psigamma(x, deriv)`: `dpsifn`'s scaled value
/// turned into the `deriv`-th derivative of digamma, `deriv` rounded as
/// R_forceint does.
fn psigamma(x: f64, deriv: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let deriv = deriv.round();
    if deriv > PSIGAMMA_N_MAX {
        return f64::NAN;
    }
    let n = deriv as i32;
    let mut ans = [0.0];
    let (mut nz, mut ierr) = (0, 0);
    super::nmath::polygamma::dpsifn(x, n, 1, 1, &mut ans, &mut nz, &mut ierr);
    if ierr != 0 {
        return f64::NAN;
    }
    // ans is (-1)^(n+1) / gamma(n+1) * psi(n, x)
    let mut a = -ans[0];
    for k in 1..=n {
        a *= -f64::from(k);
    }
    a
}

/// math2 over recycled `a` and `b`: the numbers and whether a NaN was made
/// from two numbers.
fn math2(f: fn(f64, f64) -> f64, a: &[f64], b: &[f64]) -> (Vec<f64>, bool) {
    if a.is_empty() || b.is_empty() {
        return (Vec::new(), false);
    }
    let n = a.len().max(b.len());
    let mut nan = false;
    let out = (0..n)
        .map(|i| {
            let (x, y) = (a[i % a.len()], b[i % b.len()]);
            if is_na(x) || is_na(y) {
                super::value::NA
            } else if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                let r = f(x, y);
                nan |= r.is_nan();
                r
            }
        })
        .collect();
    (out, nan)
}

fn binary_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let (an, bn) = binary_names(args.func);
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let a = args.get(an).ok_or_else(|| missing(an))?;
    // psigamma's `deriv = 0L`.
    let zero = Value::scalar(0.0);
    let b = match args.get(bn) {
        None if args.func == "psigamma" => &zero,
        b => b.ok_or_else(|| missing(bn))?,
    };
    if args.func == "psigamma" {
        let d = numbers(b).map(|(d, _)| d).unwrap_or_default();
        if let Some(&n) = d
            .iter()
            .find(|&&n| !n.is_nan() && n.round() > PSIGAMMA_N_MAX)
        {
            ctx.warn(format!(
                "deriv = {} > {PSIGAMMA_N_MAX} (= n_max)\n",
                n.round()
            ));
        }
    }
    let (Some((x, xd)), Some((y, yd))) = (numbers(a), numbers(b)) else {
        return Err(KernelError::new(NON_NUMERIC));
    };
    if matches!(args.func, "choose" | "lchoose") && !x.is_empty() {
        for (i, &k) in y.iter().enumerate() {
            if x[i % x.len()].is_nan() || k.is_nan() {
                continue;
            }
            if let Some(w) = k_rounding_warning(k) {
                ctx.warn(w);
            }
        }
    }
    let (out, nan) = math2(binary_fn(args.func), &x, &y);
    if nan {
        ctx.warn("NaNs produced");
    }
    if x.is_empty() {
        return Ok(Value::nums_shaped(out, xd));
    }
    let dims = if out.len() == x.len() { xd } else { yd };
    Ok(match dims {
        Some((r, c)) if r * c == out.len() => Value::Mat(DMatrix::from_vec(r, c, out)),
        _ => Value::Num(out),
    })
}

fn binary_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (an, bn) = binary_names(args.func);
    let zero = Type::scalar_const(0.0);
    let b = match args.ty(bn) {
        None if args.func == "psigamma" => Some(&zero),
        b => b,
    };
    let (Some(a), Some(b)) = (args.ty(an), b) else {
        return Ok(Type::Any);
    };
    for (name, t) in [(an, a), (bn, b)] {
        if !numeric_type(t) && !matches!(t, Type::Any) {
            return Err(args.error(name, format!("{NON_NUMERIC}: {}", t.describe())));
        }
    }
    if let (Some(x), Some(y)) = (a.const_nums(), b.const_nums()) {
        return Ok(Type::num_const(math2(binary_fn(args.func), &x, &y).0));
    }
    Ok(match (a.len(), b.len()) {
        (Some(0), _) | (_, Some(0)) => match a {
            Type::Mat { .. } | Type::BoolMat { .. } => Type::Any,
            _ => Type::num(0),
        },
        (Some(m), Some(n)) => {
            let t = if m >= n { a } else { b };
            match t.dims() {
                Some((rows, cols)) => Type::Mat { rows, cols },
                None => Type::num(m.max(n)),
            }
        }
        _ => Type::Any,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::value::NA;

    #[test]
    fn math2_recycles_and_keeps_na() {
        let (out, nan) = math2(f64::atan2, &[1.0, 2.0, 3.0], &[1.0, 2.0]);
        assert_eq!(out.len(), 3);
        assert!(!nan);
        let (out, _) = math2(beta, &[NA, f64::NAN], &[1.0]);
        assert!(is_na(out[0]));
        assert!(out[1].is_nan() && !is_na(out[1]));
        let (out, nan) = math2(beta, &[-1.0], &[2.0]);
        assert!(out[0].is_nan() && nan);
        assert!(math2(beta, &[], &[1.0]).0.is_empty());
    }

    #[test]
    fn math1_keeps_na_and_flags_new_nans() {
        let (out, nan) = math1(gammafn, &[NA, 0.0, 5.0]);
        assert!(is_na(out[0]));
        assert!(out[1].is_nan());
        assert_eq!(out[2], 24.0);
        assert!(nan);
    }
}
