//! Arithmetic on complex numbers, as R 4.2.2's complex.c does it:
//! `complex_binary` (`+ - * / ^` with a number or a logical promoted, as
//! `ComplexFromReal` makes `x + 0i`), `complex_unary`, the math functions
//! of `complex_math1` (`sqrt`, `exp`, `log`, and `abs` as `Mod`),
//! `z_logbase`, and do_summary's `csum`, `cprod` and complex `mean`.
//! R multiplies and divides in C99 complex arithmetic, so `*` and `/`
//! are libgcc's `__muldc3` and `__divdc3`; `^` is R's `mycpow`, whose
//! `cpow` is glibc's `cexp(y * clog(x))`.

use nalgebra::DMatrix;
use num_complex::Complex64;

use super::ops::{conform, ragged, Op, RECYCLE};
use crate::kernels::summary::ldouble;
use crate::kernels::value::NA;
use crate::kernels::{Ctx, KernelError, Type, Value};

type Dims = Option<(usize, usize)>;

/// A complex operand: complex values as they are, numbers and logicals
/// promoted; `None` for anything else.
pub(crate) fn operand(v: &Value) -> Option<(Vec<Complex64>, Dims)> {
    match v {
        Value::Complex(z) => Some((z.clone(), None)),
        Value::ComplexMat(m) => Some((m.as_slice().to_vec(), Some(m.shape()))),
        Value::Bool(_) | Value::BoolMat(_) => {
            let dims = v.dims();
            let z = v
                .as_logicals()?
                .iter()
                .map(|b| match b {
                    // ComplexFromLogical: NA is NA in both parts.
                    None => Complex64::new(NA, NA),
                    Some(b) => Complex64::new(f64::from(u8::from(*b)), 0.0),
                })
                .collect();
            Some((z, dims))
        }
        Value::Num(_) | Value::Mat(_) => {
            let dims = v.dims();
            let z = v
                .as_f64_slice()?
                .iter()
                .map(|&x| Complex64::new(x, 0.0))
                .collect();
            Some((z, dims))
        }
        _ => None,
    }
}

fn is_complex(v: &Value) -> bool {
    matches!(v, Value::Complex(_) | Value::ComplexMat(_))
}

fn shaped(z: Vec<Complex64>, dims: Dims) -> Value {
    match dims {
        Some((r, c)) if r * c == z.len() => Value::ComplexMat(DMatrix::from_vec(r, c, z)),
        _ => Value::Complex(z),
    }
}

/// `COPYSIGN (isinf (v) ? 1 : 0, v)`: an infinity boxed to a unit.
fn copysign_unit(inf: bool, x: f64) -> f64 {
    let unit: f64 = if inf { 1.0 } else { 0.0 };
    unit.copysign(x)
}

/// libgcc's `__muldc3`: the schoolbook product, with infinities
/// recovered where it computes NaN + iNaN (C99 Annex G).
pub fn mul(z: Complex64, w: Complex64) -> Complex64 {
    let (mut a, mut b, mut c, mut d) = (z.re, z.im, w.re, w.im);
    let (ac, bd, ad, bc) = (a * c, b * d, a * d, b * c);
    let (mut x, mut y) = (ac - bd, ad + bc);
    if x.is_nan() && y.is_nan() {
        let zero_nan = |v: &mut f64| {
            if v.is_nan() {
                *v = 0.0_f64.copysign(*v);
            }
        };
        let mut recalc = false;
        if a.is_infinite() || b.is_infinite() {
            a = copysign_unit(a.is_infinite(), a);
            b = copysign_unit(b.is_infinite(), b);
            zero_nan(&mut c);
            zero_nan(&mut d);
            recalc = true;
        }
        if c.is_infinite() || d.is_infinite() {
            c = copysign_unit(c.is_infinite(), c);
            d = copysign_unit(d.is_infinite(), d);
            zero_nan(&mut a);
            zero_nan(&mut b);
            recalc = true;
        }
        if !recalc && (ac.is_infinite() || bd.is_infinite() || ad.is_infinite() || bc.is_infinite())
        {
            zero_nan(&mut a);
            zero_nan(&mut b);
            zero_nan(&mut c);
            zero_nan(&mut d);
            recalc = true;
        }
        if recalc {
            x = f64::INFINITY * (a * c - b * d);
            y = f64::INFINITY * (a * d + b * c);
        }
    }
    Complex64::new(x, y)
}

/// libgcc's `__divdc3`: Smith's division, with infinities and zeros
/// recovered where it computes NaN + iNaN.
pub fn div(z: Complex64, w: Complex64) -> Complex64 {
    let (mut a, mut b, mut c, mut d) = (z.re, z.im, w.re, w.im);
    let (mut x, mut y);
    if c.abs() < d.abs() {
        let ratio = c / d;
        let denom = c * ratio + d;
        x = (a * ratio + b) / denom;
        y = (b * ratio - a) / denom;
    } else {
        let ratio = d / c;
        let denom = d * ratio + c;
        x = (b * ratio + a) / denom;
        y = (b - a * ratio) / denom;
    }
    if x.is_nan() && y.is_nan() {
        if c == 0.0 && d == 0.0 && (!a.is_nan() || !b.is_nan()) {
            x = f64::INFINITY.copysign(c) * a;
            y = f64::INFINITY.copysign(c) * b;
        } else if (a.is_infinite() || b.is_infinite()) && c.is_finite() && d.is_finite() {
            a = copysign_unit(a.is_infinite(), a);
            b = copysign_unit(b.is_infinite(), b);
            x = f64::INFINITY * (a * c + b * d);
            y = f64::INFINITY * (b * c - a * d);
        } else if (c.is_infinite() || d.is_infinite()) && a.is_finite() && b.is_finite() {
            c = copysign_unit(c.is_infinite(), c);
            d = copysign_unit(d.is_infinite(), d);
            x = 0.0 * (a * c + b * d);
            y = 0.0 * (b * c - a * d);
        }
    }
    Complex64::new(x, y)
}

/// glibc's `clog`: log of the modulus and the argument.
fn clog(z: Complex64) -> Complex64 {
    Complex64::new(z.re.hypot(z.im).ln(), z.im.atan2(z.re))
}

/// glibc's `cexp` of a finite number.
fn cexp(z: Complex64) -> Complex64 {
    let e = z.re.exp();
    if z.im == 0.0 {
        return Complex64::new(e, z.im);
    }
    let (s, c) = z.im.sin_cos();
    Complex64::new(e * c, e * s)
}

/// glibc's `csqrt`, without its rescaling at the ends of the range.
fn csqrt(z: Complex64) -> Complex64 {
    let (re, im) = (z.re, z.im);
    if re.is_nan() || im.is_nan() || re.is_infinite() || im.is_infinite() {
        return z.sqrt();
    }
    if im == 0.0 {
        return if re < 0.0 {
            Complex64::new(0.0, (-re).sqrt().copysign(im))
        } else {
            Complex64::new(re.sqrt().abs(), 0.0_f64.copysign(im))
        };
    }
    if re == 0.0 {
        let r = (0.5 * im.abs()).sqrt();
        return Complex64::new(r, r.copysign(im));
    }
    let d = re.hypot(im);
    let (r, s) = if re > 0.0 {
        let r = (0.5 * (d + re)).sqrt();
        (r, 0.5 * (im / r))
    } else {
        let s = (0.5 * (d - re)).sqrt();
        ((0.5 * (im / s)).abs(), s)
    };
    Complex64::new(r, s.copysign(im))
}

/// R's `R_cpow_n`: a power to an integer by repeated squaring.
fn cpow_n(mut x: Complex64, k: i32) -> Complex64 {
    match k {
        0 => Complex64::new(1.0, 0.0),
        1 => x,
        k if k < 0 => div(Complex64::new(1.0, 0.0), cpow_n(x, -k)),
        mut k => {
            let mut z = Complex64::new(1.0, 0.0);
            while k > 0 {
                if k & 1 == 1 {
                    z = mul(z, x);
                }
                if k == 1 {
                    break;
                }
                k >>= 1;
                x = mul(x, x);
            }
            z
        }
    }
}

/// R's `mycpow`: 0 to a real power is R_pow's; an integer power up to
/// 65536 is repeated products; else `cexp(y * clog(x))`.
pub fn pow(x: Complex64, y: Complex64) -> Complex64 {
    if x.re == 0.0 && x.im == 0.0 {
        return if y.im == 0.0 {
            Complex64::new(super::r_pow(0.0, y.re), 0.0)
        } else {
            Complex64::new(f64::NAN, f64::NAN)
        };
    }
    let k = y.re as i32;
    if y.im == 0.0 && y.re == f64::from(k) && k.abs() <= 65536 {
        return cpow_n(x, k);
    }
    cexp(mul(y, clog(x)))
}

/// complex_binary's word for `%%` and `%/%`.
const UNIMPLEMENTED: &str = "unimplemented complex operation";
const INVALID_OP: &str = "invalid unary operator";

/// `e1 op e2` (or `op e1`) where an operand is complex; `None` when
/// neither is.
pub(super) fn ops(
    op: Op,
    e1: &Value,
    e2: Option<&Value>,
    ctx: &mut Ctx,
) -> Option<Result<Value, KernelError>> {
    if !is_complex(e1) && !e2.is_some_and(is_complex) {
        return None;
    }
    Some(binary(op, e1, e2, ctx))
}

fn binary(op: Op, e1: &Value, e2: Option<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Some(e2) = e2 else {
        let (z, dims) = operand(e1).ok_or_else(|| KernelError::new(INVALID_OP))?;
        return match op {
            Op::Add => Ok(shaped(z, dims)),
            Op::Sub => Ok(shaped(z.into_iter().map(|v| -v).collect(), dims)),
            _ => Err(KernelError::new(INVALID_OP)),
        };
    };
    let (Some((a, ad)), Some((b, bd))) = (operand(e1), operand(e2)) else {
        return Err(KernelError::new("non-numeric argument to binary operator"));
    };
    if matches!(op, Op::Mod | Op::IntDiv) {
        return Err(KernelError::new(UNIMPLEMENTED));
    }
    let (n, dims) = conform(a.len(), ad, b.len(), bd).map_err(KernelError)?;
    if ragged(a.len(), b.len()) {
        ctx.warn(RECYCLE);
    }
    let f: fn(Complex64, Complex64) -> Complex64 = match op {
        Op::Add => |x, y| x + y,
        Op::Sub => |x, y| x - y,
        Op::Mul => mul,
        Op::Div => div,
        _ => pow,
    };
    let z = if n == 0 {
        Vec::new()
    } else {
        (0..n).map(|i| f(a[i % a.len()], b[i % b.len()])).collect()
    };
    Ok(shaped(z, dims))
}

/// An operand's length and, of a matrix, its rows and columns.
type Shape = (Option<usize>, Option<(Option<usize>, Option<usize>)>);

/// The type of a complex operation's result; `None` when neither operand
/// is complex.
pub(super) fn ops_shape(op: Op, t1: &Type, t2: Option<&Type>) -> Option<Result<Type, String>> {
    let complex = |t: &Type| matches!(t, Type::Complex { .. } | Type::ComplexMat { .. });
    if !complex(t1) && !t2.is_some_and(complex) {
        return None;
    }
    let operand = |t: &Type| -> Result<Option<Shape>, String> {
        match t {
            Type::Complex { len } | Type::Num { len, .. } | Type::Bool { len, .. } => {
                Ok(Some((*len, None)))
            }
            Type::ComplexMat { rows, cols }
            | Type::Mat { rows, cols }
            | Type::BoolMat { rows, cols } => Ok(Some((t.len(), Some((*rows, *cols))))),
            Type::Any => Ok(None),
            other => Err(format!(
                "non-numeric argument to binary operator: {}",
                other.describe()
            )),
        }
    };
    Some((|| {
        let a = operand(t1)?;
        let Some(t2) = t2 else {
            if !matches!(op, Op::Add | Op::Sub) {
                return Err(INVALID_OP.to_string());
            }
            return Ok(as_complex_type(t1));
        };
        let b = operand(t2)?;
        if matches!(op, Op::Mod | Op::IntDiv) {
            return Err(UNIMPLEMENTED.to_string());
        }
        Ok(match (a, b) {
            (Some((_, Some((rows, cols)))), _) | (_, Some((_, Some((rows, cols))))) => {
                Type::ComplexMat { rows, cols }
            }
            (Some((Some(x), None)), Some((Some(y), None))) => Type::Complex {
                len: Some(if x == 0 || y == 0 { 0 } else { x.max(y) }),
            },
            _ => Type::Complex { len: None },
        })
    })())
}

fn as_complex_type(t: &Type) -> Type {
    match t {
        Type::ComplexMat { rows, cols }
        | Type::Mat { rows, cols }
        | Type::BoolMat { rows, cols } => Type::ComplexMat {
            rows: *rows,
            cols: *cols,
        },
        t => Type::Complex { len: t.len() },
    }
}

/// `abs`, `sqrt`, `exp` and `log` (to a base, `z_logbase`) of complex
/// values; `None` when `x` is not complex.
pub(crate) fn math(
    func: &str,
    x: &Value,
    base: Option<&Value>,
) -> Option<Result<Value, KernelError>> {
    if !is_complex(x) {
        return None;
    }
    let (z, dims) = operand(x)?;
    Some((|| {
        if func == "abs" {
            let m: Vec<f64> = z.iter().map(|v| v.re.hypot(v.im)).collect();
            return Ok(Value::nums_shaped(m, dims));
        }
        let f: fn(Complex64) -> Complex64 = match func {
            "sqrt" => csqrt,
            "exp" => cexp,
            "log" => clog,
            _ => {
                return Err(KernelError::new(format!(
                    "flowcast's {func}() takes no complex numbers (abs, sqrt, exp and log do)"
                )))
            }
        };
        let base = match base {
            None => None,
            Some(b) => match operand(b) {
                Some((v, _)) if v.len() == 1 => Some(clog(v[0])),
                _ => {
                    return Err(KernelError::new(
                        "non-numeric argument to mathematical function",
                    ))
                }
            },
        };
        Ok(shaped(
            z.into_iter()
                .map(|v| match base {
                    Some(b) => div(f(v), b),
                    None => f(v),
                })
                .collect(),
            dims,
        ))
    })())
}

/// [`math`] before the run.
pub(crate) fn math_shape(func: &str, t: &Type) -> Option<Result<Type, String>> {
    if !matches!(t, Type::Complex { .. } | Type::ComplexMat { .. }) {
        return None;
    }
    Some(match (func, t) {
        ("abs", Type::ComplexMat { rows, cols }) => Ok(Type::Mat {
            rows: *rows,
            cols: *cols,
        }),
        ("abs", t) => Ok(Type::Num {
            len: t.len(),
            value: None,
        }),
        ("sqrt" | "exp" | "log", t) => Ok(t.clone()),
        _ => Err(format!(
            "flowcast's {func}() takes no complex numbers (abs, sqrt, exp and log do)"
        )),
    })
}

/// The complex values of `sum`'s, `prod`'s or `mean`'s arguments, when
/// any is complex (numbers and logicals promoted); `None` when none is.
pub(crate) fn complex_parts(values: &[&Value]) -> Option<Result<Vec<Vec<Complex64>>, KernelError>> {
    if !values.iter().any(|v| is_complex(v)) {
        return None;
    }
    Some(
        values
            .iter()
            .filter(|v| !matches!(v, Value::Null))
            .map(|v| {
                operand(v).map(|(z, _)| z).ok_or_else(|| {
                    KernelError::new(format!("invalid 'type' ({}) of argument", v.type_name()))
                })
            })
            .collect(),
    )
}

fn kept(z: &[Complex64], na_rm: bool) -> Vec<Complex64> {
    z.iter()
        .copied()
        .filter(|v| !na_rm || (!v.re.is_nan() && !v.im.is_nan()))
        .collect()
}

/// do_summary's `sum` of complex arguments: `csum` of each (real and
/// imaginary parts in long double), the sums added in double.
pub(crate) fn sum(parts: &[Vec<Complex64>], na_rm: bool) -> Value {
    let mut total = Complex64::new(0.0, 0.0);
    for p in parts {
        let z = kept(p, na_rm);
        let re: Vec<f64> = z.iter().map(|v| v.re).collect();
        let im: Vec<f64> = z.iter().map(|v| v.im).collect();
        total += Complex64::new(ldouble::sum(&re).to_f64(), ldouble::sum(&im).to_f64());
    }
    Value::Complex(vec![total])
}

/// do_summary's `prod` of complex arguments: `cprod` of each in long
/// double, the products multiplied in double.
pub(crate) fn prod(parts: &[Vec<Complex64>], na_rm: bool) -> Value {
    let mut total = Complex64::new(1.0, 0.0);
    for p in parts {
        let one = ldouble::LongDouble::from_f64(1.0);
        let (mut sr, mut si) = (one, ldouble::LongDouble::from_f64(0.0));
        for v in kept(p, na_rm) {
            let (tr, ti) = (sr, si);
            let (xr, xi) = (
                ldouble::LongDouble::from_f64(v.re),
                ldouble::LongDouble::from_f64(v.im),
            );
            sr = tr.mul(xr).sub(ti.mul(xi));
            si = tr.mul(xi).add(ti.mul(xr));
        }
        total = mul(total, Complex64::new(sr.to_f64(), si.to_f64()));
    }
    Value::Complex(vec![total])
}

/// summary.c's complex `mean`: the long-double means of both parts, each
/// corrected by the mean deviation when both are finite.
pub(crate) fn mean(z: &[Complex64]) -> Value {
    let n = z.len();
    let re: Vec<f64> = z.iter().map(|v| v.re).collect();
    let im: Vec<f64> = z.iter().map(|v| v.im).collect();
    let (mut s, mut si) = (
        ldouble::sum(&re).div_count(n),
        ldouble::sum(&im).div_count(n),
    );
    if s.is_finite_f64() && si.is_finite_f64() {
        s = s.add(ldouble::sum_deviations(&re, s).div_count(n));
        si = si.add(ldouble::sum_deviations(&im, si).div_count(n));
    }
    Value::Complex(vec![Complex64::new(s.to_f64(), si.to_f64())])
}

/// relop.c's `complex_relop`: `==` and `!=` compare both parts (NA where
/// any part is NaN); complex numbers have no order. `None` when neither
/// operand is complex.
pub(super) fn compare(
    op: &str,
    e1: &Value,
    e2: &Value,
    ctx: &mut Ctx,
) -> Option<Result<Value, KernelError>> {
    if !is_complex(e1) && !is_complex(e2) {
        return None;
    }
    Some((|| {
        if !matches!(op, "==" | "!=") {
            return Err(KernelError::new("invalid comparison with complex values"));
        }
        let (Some((a, ad)), Some((b, bd))) = (operand(e1), operand(e2)) else {
            return Err(KernelError::new(format!(
                "flowcast compares complex numbers only with numbers ({} given)",
                if is_complex(e1) { e2 } else { e1 }.type_name()
            )));
        };
        let (n, dims) = conform(a.len(), ad, b.len(), bd).map_err(KernelError)?;
        if ragged(a.len(), b.len()) {
            ctx.warn(RECYCLE);
        }
        let nan = |z: Complex64| z.re.is_nan() || z.im.is_nan();
        let out = (0..n)
            .map(|i| {
                let (x, y) = (a[i % a.len()], b[i % b.len()]);
                (!nan(x) && !nan(y)).then(|| (x == y) == (op == "=="))
            })
            .collect();
        Ok(Value::logicals_shaped(out, dims))
    })())
}
