//! The parts of complex numbers: `Re`, `Im`, `Mod`, `Arg` and `Conj`, as
//! R's `do_cmathfuns` (complex.c) computes them: `Mod` is `hypot`, `Arg`
//! `atan2(im, re)`. Of a number, `Conj` is the number, `Arg` 0 or pi and
//! `Im` 0; a matrix stays a matrix.

use nalgebra::DMatrix;
use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::{req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value};

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
    part("Re"),
    part("Im"),
    part("Mod"),
    part("Arg"),
    part("Conj"),
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
