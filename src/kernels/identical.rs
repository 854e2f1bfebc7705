//! `identical(x, y, num.eq, single.NA, attrib.as.set, ignore.bytecode,
//! ignore.environment, ignore.srcref, extptr.as.ref)`: R's
//! R_compute_identical (identical.c) over flowcast's values: the same
//! type, the same attributes (as a set) and the same elements, numbers
//! compared by R's neWithNaN.

use super::args::{ArgError, Args};
use super::attributes::attributes_of;
use super::class::type_of;
use super::names::bare;
use super::value::is_na;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "identical",
    params: &[
        req("x"),
        req("y"),
        opt("num.eq"),
        opt("single.NA"),
        opt("attrib.as.set"),
        opt("ignore.bytecode"),
        opt("ignore.environment"),
        opt("ignore.srcref"),
        opt("extptr.as.ref"),
    ],
    random: false,
    shape,
    eval,
}];

/// How numbers compare (R's `ne_strict` flags).
#[derive(Clone, Copy)]
pub(crate) struct Strict {
    pub num_eq: bool,
    pub single_na: bool,
}

/// R's neWithNaN: whether two doubles differ.
fn differ(x: f64, y: f64, s: Strict) -> bool {
    if s.single_na {
        if is_na(x) {
            return !is_na(y);
        }
        if is_na(y) {
            return true;
        }
        if x.is_nan() {
            return !y.is_nan();
        }
    }
    if s.num_eq && (s.single_na || (!x.is_nan() && !y.is_nan())) {
        #[allow(clippy::float_cmp)]
        return x != y;
    }
    x.to_bits() != y.to_bits()
}

/// R_compute_identical of two values, each an integer vector or not.
pub(crate) fn identical(x: &Value, y: &Value, xi: bool, yi: bool, s: Strict) -> bool {
    if type_of(x, xi) != type_of(y, yi) {
        return false;
    }
    let (ax, ay) = (attributes_of(x), attributes_of(y));
    if ax.len() != ay.len() {
        return false;
    }
    let attrs_same = ax.iter().all(|(n, v)| {
        ay.iter()
            .find(|(m, _)| m == n)
            .is_some_and(|(_, w)| identical(v, w, false, false, s))
    });
    if !attrs_same {
        return false;
    }
    let (x, y) = (bare(x), bare(y));
    if x.len() != y.len() {
        return false;
    }
    match (x, y) {
        (Value::Null, Value::Null) => true,
        (Value::Num(_) | Value::Mat(_), Value::Num(_) | Value::Mat(_)) => {
            let (a, b) = (x.as_f64_slice(), y.as_f64_slice());
            match (a, b) {
                (Some(a), Some(b)) => a.iter().zip(b.iter()).all(|(&p, &q)| !differ(p, q, s)),
                _ => false,
            }
        }
        (Value::Bool(_) | Value::BoolMat(_), Value::Bool(_) | Value::BoolMat(_)) => {
            x.as_logicals() == y.as_logicals()
        }
        (Value::Complex(a), Value::Complex(b)) => a
            .iter()
            .zip(b)
            .all(|(p, q)| !differ(p.re, q.re, s) && !differ(p.im, q.im, s)),
        (Value::ComplexMat(a), Value::ComplexMat(b)) => a
            .iter()
            .zip(b.iter())
            .all(|(p, q)| !differ(p.re, q.re, s) && !differ(p.im, q.im, s)),
        (Value::Str(_) | Value::StrMat(_), Value::Str(_) | Value::StrMat(_)) => {
            x.as_strs() == y.as_strs()
        }
        (Value::Factor(a), Value::Factor(b)) => a.codes == b.codes,
        (Value::List(a), Value::List(b)) => a
            .items
            .iter()
            .zip(&b.items)
            .all(|(p, q)| identical(p, q, false, false, s)),
        (Value::Formula(a), Value::Formula(b)) => {
            a.text == b.text
                && a.response_label == b.response_label
                && a.intercept == b.intercept
                && a.terms
                    .iter()
                    .map(|t| &t.0)
                    .eq(b.terms.iter().map(|t| &t.0))
        }
        _ => false,
    }
}

/// R's asLogical of an option, refusing NA as do_identical does.
fn option(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    let Some(v) = args.get(name) else {
        return Ok(default);
    };
    let v = bare(v);
    let value = match v {
        Value::Bool(_) | Value::BoolMat(_) => v.as_logicals().and_then(|l| l.first().copied()?),
        Value::Num(_) | Value::Mat(_) => v
            .as_f64_slice()
            .and_then(|x| x.first().copied())
            .filter(|x| !x.is_nan())
            .map(|x| x != 0.0),
        Value::Str(s) => s.first().and_then(|s| match s.as_str() {
            "TRUE" | "true" | "True" | "T" => Some(true),
            "FALSE" | "false" | "False" | "F" => Some(false),
            _ => None,
        }),
        Value::Factor(f) => f.labels().first().and_then(|s| match s.as_str() {
            "TRUE" | "true" | "True" | "T" => Some(true),
            "FALSE" | "false" | "False" | "F" => Some(false),
            _ => None,
        }),
        _ => None,
    };
    value.ok_or_else(|| KernelError::new(format!("invalid '{name}' value")))
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let y = args
        .get("y")
        .ok_or_else(|| KernelError::new("argument \"y\" is missing, with no default"))?;
    let s = Strict {
        num_eq: option(args, "num.eq", true)?,
        single_na: option(args, "single.NA", true)?,
    };
    option(args, "attrib.as.set", true)?;
    option(args, "ignore.bytecode", true)?;
    option(args, "ignore.environment", false)?;
    option(args, "ignore.srcref", true)?;
    option(args, "extptr.as.ref", false)?;
    Ok(Value::flag(identical(
        x,
        y,
        ctx.is_integer(x),
        ctx.is_integer(y),
        s,
    )))
}

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::logical(Some(1)))
}
