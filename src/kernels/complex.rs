//! Complex numbers: made by `complex(length.out, real, imaginary, modulus,
//! argument)` (do_complex, or R's `modulus * exp(1i * argument)`), and
//! taken apart by `Re`, `Im`, `Mod`, `Arg` and `Conj`, as
//! R's `do_cmathfuns` (complex.c) computes them: `Mod` is `hypot`, `Arg`
//! `atan2(im, re)`. Of a number, `Conj` is the number, `Arg` 0 or pi and
//! `Im` 0; a matrix stays a matrix.

use nalgebra::DMatrix;
use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::NA;
use super::{opt, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value};

const Z: &[Param] = &[req("z")];

const fn part(name: &'static str) -> Kernel {
    Kernel {
        name,
        params: Z,
        random: false,
        shape,
        eval,
    }
}

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "as.complex",
        params: &[req("x"), super::DOTS],
        random: false,
        shape: as_complex_shape,
        eval: as_complex_eval,
    },
    part("Re"),
    part("Im"),
    part("Mod"),
    part("Arg"),
    part("Conj"),
    Kernel {
        name: "complex",
        params: &[
            opt("length.out"),
            opt("real"),
            opt("imaginary"),
            opt("modulus"),
            opt("argument"),
        ],
        random: false,
        shape: complex_shape,
        eval: complex_eval,
    },
];

const NON_NUMERIC: &str = "non-numeric argument to function";

/// The part `func` takes of a complex number.
fn real_part(func: &str, z: Complex64) -> f64 {
    match func {
        "Re" => z.re,
        "Im" => z.im,
        "Mod" => z.re.hypot(z.im),
        _ => z.im.atan2(z.re),
    }
}

/// The part `func` takes of a number, as do_cmathfuns' real branch has
/// it: `Im` is 0 even of NA, `Arg` 0 or pi (NA and NaN kept).
fn number_part(func: &str, x: f64) -> f64 {
    match func {
        "Re" | "Conj" => x,
        "Im" => 0.0,
        "Mod" => x.abs(),
        _ if x.is_nan() => x,
        _ if x >= 0.0 => 0.0,
        _ => std::f64::consts::PI,
    }
}

fn shaped<T: nalgebra::Scalar>(data: Vec<T>, dims: Option<(usize, usize)>) -> Option<DMatrix<T>> {
    dims.map(|(r, c)| DMatrix::from_vec(r, c, data))
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let z = args.get("z").unwrap_or(&Value::Null);
    let func = args.func;
    let dims = z.dims();
    let bare = match z {
        Value::Named(n) => &n.value,
        v => v,
    };
    if let Value::Complex(_) | Value::ComplexMat(_) = bare {
        let c: &[Complex64] = match bare {
            Value::Complex(v) => v,
            Value::ComplexMat(m) => m.as_slice(),
            _ => &[],
        };
        if func == "Conj" {
            let out: Vec<Complex64> = c.iter().map(|z| z.conj()).collect();
            return Ok(match shaped(out.clone(), dims) {
                Some(m) => Value::ComplexMat(m),
                None => Value::Complex(out),
            });
        }
        let out = c.iter().map(|&z| real_part(func, z)).collect();
        return Ok(Value::nums_shaped(out, dims));
    }
    let x = match bare {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) | Value::Null => {
            bare.as_f64_slice().unwrap_or_default()
        }
        _ => return Err(KernelError::new(NON_NUMERIC)),
    };
    Ok(Value::nums_shaped(
        x.iter().map(|&v| number_part(func, v)).collect(),
        dims,
    ))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let conj = args.func == "Conj";
    Ok(match args.ty("z") {
        None | Some(Type::Any) => Type::Any,
        Some(Type::Complex { len }) if conj => Type::Complex { len: *len },
        Some(Type::ComplexMat { rows, cols }) if conj => Type::ComplexMat {
            rows: *rows,
            cols: *cols,
        },
        Some(
            Type::Mat { rows, cols }
            | Type::BoolMat { rows, cols }
            | Type::ComplexMat { rows, cols },
        ) => Type::Mat {
            rows: *rows,
            cols: *cols,
        },
        Some(t @ (Type::Num { .. } | Type::Bool { .. } | Type::Complex { .. } | Type::Null)) => {
            Type::Num {
                len: t.len(),
                value: None,
            }
        }
        Some(t) => return Err(args.error("z", format!("{NON_NUMERIC}: {}", t.describe()))),
    })
}

pub(crate) fn reals(v: Option<&Value>) -> Result<Vec<f64>, KernelError> {
    match v.map(bare) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Factor(f)) => Ok(f.integer_codes()),
        Some(Value::Str(s)) => Ok(s
            .iter()
            .map(|t| super::data::parse_number(t).unwrap_or(NA))
            .collect()),
        Some(Value::Complex(c)) => Ok(c.iter().map(|z| z.re).collect()),
        Some(other) => other
            .as_f64_slice()
            .map(|c| c.into_owned())
            .ok_or_else(|| KernelError::new("(list) object cannot be coerced to type 'double'")),
    }
}

fn complex_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let length_out = match args.get("length.out") {
        None => 0.0,
        Some(v) => reals(Some(v))?.first().copied().unwrap_or(NA),
    };
    if args.has("modulus") || args.has("argument") {
        // rep_len(modulus, n) * exp(1i * rep_len(argument, n)).
        let modulus = match args.get("modulus") {
            Some(v) => reals(Some(v))?,
            None => vec![1.0],
        };
        let argument = match args.get("argument") {
            Some(v) => reals(Some(v))?,
            None => vec![0.0],
        };
        let n = length_out
            .max(argument.len() as f64)
            .max(modulus.len() as f64);
        if n.is_nan() || n < 0.0 {
            return Err(KernelError::new("invalid 'length.out' value"));
        }
        let n = n as usize;
        let mut out = super::alloc::vec_with_capacity(n)?;
        for i in 0..n {
            // rep_len of an empty vector is NA.
            let m = modulus.get(i % modulus.len().max(1)).copied().unwrap_or(NA);
            let a = argument
                .get(i % argument.len().max(1))
                .copied()
                .unwrap_or(NA);
            // 1i * a as C99 multiplies (0 + 1i)(a + 0i), then cexp.
            let (re, im) = (0.0 * a - 1.0 * 0.0, 0.0 * 0.0 + 1.0 * a);
            let e = re.exp();
            let (c, s) = if im.abs() > f64::MIN_POSITIVE {
                (im.cos(), im.sin())
            } else {
                (1.0, im)
            };
            let (er, ei) = if im.is_finite() || !re.is_finite() {
                (e * c, e * s)
            } else {
                (f64::NAN, f64::NAN)
            };
            out.push(Complex64::new(m * er - 0.0 * ei, m * ei + 0.0 * er));
        }
        return Ok(Value::Complex(out));
    }
    let na = length_out.trunc();
    if na.is_nan() || na < 0.0 || na > i32::MAX as f64 {
        return Err(KernelError::new("invalid length"));
    }
    let re = reals(args.get("real"))?;
    let im = reals(args.get("imaginary"))?;
    let n = (na as usize).max(re.len()).max(im.len());
    let mut out = super::alloc::filled(n, Complex64::new(0.0, 0.0))?;
    if !re.is_empty() {
        for (i, z) in out.iter_mut().enumerate() {
            z.re = re[i % re.len()];
        }
    }
    if !im.is_empty() {
        for (i, z) in out.iter_mut().enumerate() {
            z.im = im[i % im.len()];
        }
    }
    Ok(Value::Complex(out))
}

fn complex_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["real", "imaginary", "modulus", "argument", "length.out"] {
        if let Some(t @ (Type::Record { .. } | Type::List { .. } | Type::Formula { .. })) =
            args.ty(name)
        {
            return Err(args.error(
                name,
                format!("complex() needs numbers for '{name}', not {}", t.describe()),
            ));
        }
    }
    Ok(Type::Complex { len: None })
}

/// `as.complex(x)`: numbers as `x + 0i` (ComplexFromReal), logicals as
/// 0 or 1 (NA in both parts), without dims, as `as.vector` drops them.
fn as_complex_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = bare(args.get("x").unwrap_or(&Value::Null));
    if matches!(x, Value::Null) {
        return Ok(Value::Complex(Vec::new()));
    }
    super::arith::complex_ops::operand(x)
        .map(|(z, _)| Value::Complex(z))
        .ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's as.complex() takes numbers, logicals or complex values, not {}",
                x.type_name()
            ))
        })
}

fn as_complex_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Null) => Ok(Type::Complex { len: Some(0) }),
        Some(
            t @ (Type::Num { .. }
            | Type::Mat { .. }
            | Type::Bool { .. }
            | Type::BoolMat { .. }
            | Type::Complex { .. }
            | Type::ComplexMat { .. }),
        ) => Ok(Type::Complex { len: t.len() }),
        Some(Type::Any) | None => Ok(Type::Complex { len: None }),
        Some(t) => Err(args.error(
            "x",
            format!(
                "flowcast's as.complex() takes numbers, logicals or complex values, not {}",
                t.describe()
            ),
        )),
    }
}
