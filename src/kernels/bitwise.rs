//! `bitwAnd`, `bitwOr`, `bitwXor`, `bitwNot`, `bitwShiftL`, `bitwShiftR`:
//! R's bitwise operations on 32-bit integers (relop.c's `bitwiseAnd` and
//! kin): doubles are coerced to integers first, the shorter operand is
//! recycled, NA gives NA, and a shift outside 0..=31 is NA.

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::NA;
use super::{req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

const fn k(name: &'static str, params: &'static [super::Param]) -> Kernel {
    Kernel {
        name,
        params,
        random: false,
        shape,
        eval,
    }
}

pub(super) static KERNELS: &[Kernel] = &[
    k("bitwAnd", &[req("a"), req("b")]),
    k("bitwOr", &[req("a"), req("b")]),
    k("bitwXor", &[req("a"), req("b")]),
    k("bitwNot", &[req("a")]),
    k("bitwShiftL", &[req("a"), req("n")]),
    k("bitwShiftR", &[req("a"), req("n")]),
];

/// An operand after R's `coerceVector(x, INTSXP)` of a double (an integer
/// or NA each), or the type R names when it refuses one.
enum Operand {
    Ints(Vec<Option<i32>>),
    Other(&'static str),
}

/// R_IntegerFromReal: truncation, NA (with one warning) outside the
/// integer range.
fn to_ints(x: &[f64], ctx: &mut Ctx) -> Vec<Option<i32>> {
    let mut warned = false;
    let out = x
        .iter()
        .map(|&v| {
            if v.is_nan() {
                None
            } else if v >= 2_147_483_648.0 || v <= -2_147_483_649.0 {
                warned = true;
                None
            } else {
                // NA_INTEGER is i32::MIN: a truncation landing there is NA.
                Some(v.trunc() as i32).filter(|&i| i != i32::MIN)
            }
        })
        .collect();
    if warned {
        ctx.warn("NAs introduced by coercion to integer range");
    }
    out
}

fn operand(v: &Value, ctx: &mut Ctx) -> Operand {
    match bare(v) {
        Value::Num(x) => Operand::Ints(to_ints(x, ctx)),
        Value::Mat(m) => Operand::Ints(to_ints(m.as_slice(), ctx)),
        Value::Bool(_) | Value::BoolMat(_) => Operand::Other("logical"),
        Value::Str(_) | Value::StrMat(_) => Operand::Other("character"),
        Value::Complex(_) | Value::ComplexMat(_) => Operand::Other("complex"),
        Value::Null => Operand::Other("NULL"),
        Value::List(_) => Operand::Other("list"),
        // A factor is an integer vector with attributes to R.
        Value::Factor(f) => {
            Operand::Ints(f.codes.iter().map(|c| c.map(|c| c as i32 + 1)).collect())
        }
        Value::Formula(_) => Operand::Other("language"),
        Value::Lang(l) if l.symbol => Operand::Other("symbol"),
        Value::Lang(_) => Operand::Other("language"),
        Value::Named(_) => Operand::Other("NULL"),
    }
}

/// The shift `n`: anything not integer is coerced (`coerceVector`), a
/// text that is no number with R's warning.
fn shift_operand(v: &Value, ctx: &mut Ctx) -> Result<Vec<Option<i32>>, KernelError> {
    match bare(v) {
        Value::Null => Ok(Vec::new()),
        Value::Bool(b) => Ok(b.iter().map(|b| b.map(i32::from)).collect()),
        Value::BoolMat(b) => Ok(b.iter().map(|b| b.map(i32::from)).collect()),
        Value::Str(s) => {
            let mut warned = false;
            let out = s
                .iter()
                .map(|s| match s.trim().parse::<f64>() {
                    Ok(x) if x.is_finite() && x.abs() < 2_147_483_648.0 => Some(x.trunc() as i32),
                    _ => {
                        warned |= s != "NA";
                        None
                    }
                })
                .collect();
            if warned {
                ctx.warn("NAs introduced by coercion");
            }
            Ok(out)
        }
        other => match operand(other, ctx) {
            Operand::Ints(v) => Ok(v),
            Operand::Other(_) => Err(KernelError::new("'a' and 'b' must have the same type")),
        },
    }
}

fn unimplemented(t: &str, name: &str) -> KernelError {
    KernelError::new(format!("unimplemented type '{t}' in '{name}'\n"))
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let a = args
        .get("a")
        .ok_or_else(|| KernelError::new("argument \"a\" is missing, with no default"))?;
    let func = args.func;
    let a = operand(a, ctx);
    if func == "bitwNot" {
        return match a {
            Operand::Ints(a) => Ok(ints(a.iter().map(|x| x.map(|x| !x)))),
            Operand::Other(t) => Err(unimplemented(t, "bitwNot")),
        };
    }
    let second = if func.starts_with("bitwShift") {
        "n"
    } else {
        "b"
    };
    let b = args.get(second).ok_or_else(|| {
        KernelError::new(format!("argument \"{second}\" is missing, with no default"))
    })?;
    let (a, b) = if second == "n" {
        let b = shift_operand(b, ctx)?;
        match a {
            Operand::Ints(a) => (a, b),
            Operand::Other(_) => {
                return Err(KernelError::new("'a' and 'b' must have the same type"))
            }
        }
    } else {
        match (a, operand(b, ctx)) {
            (Operand::Ints(a), Operand::Ints(b)) => (a, b),
            (Operand::Other(t), Operand::Other(u)) if t == u => {
                return Err(unimplemented(t, func));
            }
            _ => return Err(KernelError::new("'a' and 'b' must have the same type")),
        }
    };
    let (m, n) = (a.len(), b.len());
    let len = if m == 0 || n == 0 { 0 } else { m.max(n) };
    let op = |x: i32, y: i32| -> Option<i32> {
        match func {
            "bitwAnd" => Some(x & y),
            "bitwOr" => Some(x | y),
            "bitwXor" => Some(x ^ y),
            // C's `(unsigned int) aa << bb` stored back in an int.
            "bitwShiftL" => (0..=31).contains(&y).then(|| ((x as u32) << y) as i32),
            _ => (0..=31).contains(&y).then(|| ((x as u32) >> y) as i32),
        }
    };
    Ok(ints((0..len).map(|i| match (a[i % m], b[i % n]) {
        (Some(x), Some(y)) => op(x, y),
        _ => None,
    })))
}

/// R integers as flowcast stores them; `i32::MIN` is R's NA_INTEGER.
fn ints(v: impl Iterator<Item = Option<i32>>) -> Value {
    Value::Num(
        v.map(|x| match x {
            Some(x) if x != i32::MIN => f64::from(x),
            _ => NA,
        })
        .collect(),
    )
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let len = |name: &str| args.ty(name).and_then(Type::len);
    let second = if args.func.starts_with("bitwShift") {
        "n"
    } else {
        "b"
    };
    let len = if args.func == "bitwNot" {
        len("a")
    } else {
        match (len("a"), len(second)) {
            (Some(0), _) | (_, Some(0)) => Some(0),
            (Some(m), Some(n)) => Some(m.max(n)),
            _ => None,
        }
    };
    Ok(Type::Num { len, value: None })
}
