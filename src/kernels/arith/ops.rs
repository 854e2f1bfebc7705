//! `+ - * / ^` and `:`: R's element-wise arithmetic with recycling and
//! matrix conformability, R_pow's special cases, and R's `seq_colon`.

use nalgebra::DMatrix;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{opt, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value};

/// The operator kernels share one evaluator and one shape rule, which
/// dispatch on the name they were called by.
const OP_PARAMS: &[Param] = &[req("e1"), opt("e2")];

pub(super) const fn kernel(name: &'static str) -> Kernel {
    Kernel {
        name,
        params: OP_PARAMS,
        random: false,
        shape: arith_shape,
        eval: arith_eval,
    }
}

pub(super) const COLON: Kernel = Kernel {
    name: ":",
    params: &[req("from"), req("to")],
    random: false,
    shape: colon_shape,
    eval: colon_eval,
};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    /// `%%`
    Mod,
    /// `%/%`
    IntDiv,
}

impl Op {
    pub fn from_name(name: &str) -> Option<Op> {
        Some(match name {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" => Op::Mul,
            "/" => Op::Div,
            "^" => Op::Pow,
            "%%" => Op::Mod,
            "%/%" => Op::IntDiv,
            _ => return None,
        })
    }
}

/// R's `R_pow`, with arithmetic.c's shortcuts (`x^2` is `x*x`; `1^y` and
/// `x^0` are 1 even for NA).
pub fn r_pow(x: f64, y: f64) -> f64 {
    if x == 1.0 || y == 0.0 {
        return 1.0;
    }
    if y == 2.0 {
        return x * x;
    }
    if x == 0.0 {
        return if y > 0.0 {
            0.0
        } else if y < 0.0 {
            f64::INFINITY
        } else {
            y
        };
    }
    if x.is_finite() && y.is_finite() {
        return x.powf(y);
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if !x.is_finite() {
        if x > 0.0 {
            return if y < 0.0 { 0.0 } else { f64::INFINITY };
        }
        if y.is_finite() && y == y.floor() {
            return if y < 0.0 {
                0.0
            } else if y % 2.0 != 0.0 {
                x
            } else {
                -x
            };
        }
    }
    if !y.is_finite() && x >= 0.0 {
        return if y > 0.0 {
            if x >= 1.0 {
                f64::INFINITY
            } else {
                0.0
            }
        } else if x < 1.0 {
            f64::INFINITY
        } else {
            0.0
        };
    }
    f64::NAN
}

/// R's `x %% y` on doubles (`myfmod` in arithmetic.c): the result has the
/// sign of `y`. R forms `x - floor(x/y)*y` in long double; a fused
/// multiply-add rounds that once, as exactly.
pub fn r_mod(x: f64, y: f64) -> f64 {
    if y == 0.0 {
        return f64::NAN;
    }
    if y.abs() * f64::EPSILON > 1.0 && x.is_finite() && x.abs() <= y.abs() {
        return if x.abs() == y.abs() {
            0.0
        } else if (x < 0.0 && y > 0.0) || (y < 0.0 && x > 0.0) {
            x + y
        } else {
            x
        };
    }
    let q = x / y;
    let tmp = (-q.floor()).mul_add(y, x);
    (-(tmp / y).floor()).mul_add(y, tmp)
}

/// R warns when `x / y` is too large for `x %% y` to mean anything.
fn modulus_loses_accuracy(a: &[f64], b: &[f64]) -> bool {
    let n = if a.is_empty() || b.is_empty() {
        0
    } else {
        a.len().max(b.len())
    };
    (0..n).any(|i| {
        let (x, y) = (a[i % a.len()], b[i % b.len()]);
        let q = x / y;
        let shortcut = y.abs() * f64::EPSILON > 1.0 && x.is_finite() && x.abs() <= y.abs();
        y != 0.0 && !shortcut && q.is_finite() && q.abs() * f64::EPSILON > 1.0
    })
}

/// R's `x %/% y` on doubles (`myfloor` in arithmetic.c).
pub fn r_intdiv(x: f64, y: f64) -> f64 {
    let q = x / y;
    if y == 0.0 || q.abs() * f64::EPSILON > 1.0 || !q.is_finite() {
        return q;
    }
    if q.abs() < 1.0 {
        return if q < 0.0 || (x < 0.0 && y > 0.0) || (x > 0.0 && y < 0.0) {
            -1.0
        } else {
            0.0
        };
    }
    let tmp = (-q.floor()).mul_add(y, x);
    q.floor() + (tmp / y).floor()
}

type Dims = Option<(usize, usize)>;

/// The length and dims of `e1 op e2` (R's `R_binary` checks).
pub fn conform(a_len: usize, ad: Dims, b_len: usize, bd: Dims) -> Result<(usize, Dims), String> {
    let n = if a_len == 0 || b_len == 0 {
        0
    } else {
        a_len.max(b_len)
    };
    match (ad, bd) {
        (Some(x), Some(y)) if x != y => Err("non-conformable arrays".into()),
        (Some(_), Some(_)) => Ok((n, ad)),
        (Some(d), None) | (None, Some(d)) => {
            let (m, v) = if ad.is_some() {
                (a_len, b_len)
            } else {
                (b_len, a_len)
            };
            if m > 0 && v > m {
                Err(format!(
                    "dims [product {m}] do not match the length of object [{v}]"
                ))
            } else if n == 0 && m > 0 {
                Ok((0, None))
            } else {
                Ok((n, Some(d)))
            }
        }
        (None, None) => Ok((n, None)),
    }
}

fn recycle(a: &[f64], b: &[f64], n: usize, f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    if n == 0 {
        Vec::new()
    } else if a.len() == n && b.len() == n {
        a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
    } else if a.len() == n && b.len() == 1 {
        let y = b[0];
        a.iter().map(|&x| f(x, y)).collect()
    } else if b.len() == n && a.len() == 1 {
        let x = a[0];
        b.iter().map(|&y| f(x, y)).collect()
    } else {
        (0..n).map(|i| f(a[i % a.len()], b[i % b.len()])).collect()
    }
}

/// `a op b` on numbers with R's recycling; returns the data and dims.
pub fn binary(
    op: Op,
    a: &[f64],
    ad: Dims,
    b: &[f64],
    bd: Dims,
) -> Result<(Vec<f64>, Dims), String> {
    let (n, dims) = conform(a.len(), ad, b.len(), bd)?;
    let data = match op {
        Op::Add => recycle(a, b, n, |x, y| x + y),
        Op::Sub => recycle(a, b, n, |x, y| x - y),
        Op::Mul => recycle(a, b, n, |x, y| x * y),
        Op::Div => recycle(a, b, n, |x, y| x / y),
        Op::Pow => recycle(a, b, n, r_pow),
        Op::Mod => recycle(a, b, n, r_mod),
        Op::IntDiv => recycle(a, b, n, r_intdiv),
    };
    Ok((data, dims))
}

/// Unary `-x` / `+x`.
pub fn unary(op: Op, a: &[f64]) -> Vec<f64> {
    match op {
        Op::Sub => a.iter().map(|&x| -x).collect(),
        _ => a.to_vec(),
    }
}

fn to_value(data: Vec<f64>, dims: Dims) -> Value {
    match dims {
        Some((r, c)) => Value::Mat(DMatrix::from_vec(r, c, data)),
        None => Value::Num(data),
    }
}

fn operand<'a>(
    v: &'a Value,
    unary: bool,
) -> Result<(std::borrow::Cow<'a, [f64]>, Dims), KernelError> {
    let dims = match v {
        Value::Mat(m) => Some((m.nrows(), m.ncols())),
        _ => None,
    };
    match v.as_f64_slice() {
        Some(d) => Ok((d, dims)),
        None => Err(KernelError::new(if unary {
            "invalid argument to unary operator"
        } else {
            "non-numeric argument to binary operator"
        })),
    }
}

/// R's warning when recycling leaves a remainder (arithmetic.c, `R_binary`).
pub const RECYCLE: &str = "longer object length is not a multiple of shorter object length";

/// True when R warns [`RECYCLE`] for operands of these lengths.
pub fn ragged(a: usize, b: usize) -> bool {
    a > 0 && b > 0 && a.max(b) % a.min(b) != 0
}

fn arith_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let op = Op::from_name(args.func)
        .ok_or_else(|| KernelError::new(format!("unknown operator {}", args.func)))?;
    let e1 = args.get("e1").unwrap_or(&Value::Null);
    let e2 = args.get("e2");
    if let Some(r) = super::frame_ops::ops(args, e1, e2, ctx, arith_eval) {
        return r;
    }
    if let Some(r) = super::factor_ops::ops(args.func, e1, e2, ctx) {
        return r;
    }
    if let Some(r) = super::complex_ops::ops(op, e1, e2, ctx) {
        return r;
    }
    if let Some(r) = dist_ops(op, e1, e2, ctx) {
        return r;
    }
    match e2 {
        None => {
            if !matches!(op, Op::Add | Op::Sub) {
                return Err(KernelError::new(format!(
                    "invalid unary operator `{}`",
                    args.func
                )));
            }
            let (a, ad) = operand(e1, true)?;
            Ok(to_value(unary(op, &a), ad))
        }
        Some(e2) => {
            let (a, ad) = operand(e1, false)?;
            let (b, bd) = operand(e2, false)?;
            let (data, dims) = binary(op, &a, ad, &b, bd).map_err(KernelError)?;
            if ragged(a.len(), b.len()) {
                ctx.warn(RECYCLE);
            }
            if op == Op::Mod && modulus_loses_accuracy(&a, &b) {
                ctx.warn("probable complete loss of accuracy in modulus");
            }
            Ok(to_value(data, dims))
        }
    }
}

/// Arithmetic with a dist object (`1 - d`, `d^2`): R computes on its
/// numbers and, as for any vector, keeps the attributes of an operand as
/// long as the answer (`R_binary`'s copyMostAttrib), so the answer is a
/// dist of the same size and labels; `None` when neither operand is one.
fn dist_ops(
    op: Op,
    e1: &Value,
    e2: Option<&Value>,
    ctx: &mut Ctx,
) -> Option<Result<Value, KernelError>> {
    let (d1, d2) = (e1.dist_values(), e2.and_then(Value::dist_values));
    if d1.is_none() && d2.is_none() {
        return None;
    }
    fn numbers(v: &Value, unary: bool) -> Result<std::borrow::Cow<'_, [f64]>, KernelError> {
        match v.dist_values() {
            Some(d) => Ok(std::borrow::Cow::Borrowed(d)),
            // Any other operand is its numbers, recycled against the dist's.
            None => operand(v, unary).map(|(d, _)| d),
        }
    }
    let a = match numbers(e1, e2.is_none()) {
        Ok(a) => a,
        Err(e) => return Some(Err(e)),
    };
    let data = match e2 {
        None => {
            if !matches!(op, Op::Add | Op::Sub) {
                return Some(Err(KernelError::new("invalid unary operator")));
            }
            unary(op, &a)
        }
        Some(e2) => {
            let b = match numbers(e2, false) {
                Ok(b) => b,
                Err(e) => return Some(Err(e)),
            };
            if ragged(a.len(), b.len()) {
                ctx.warn(RECYCLE);
            }
            match binary(op, &a, None, &b, None) {
                Ok((data, _)) => data,
                Err(m) => return Some(Err(KernelError(m))),
            }
        }
    };
    let template = match (d1, d2) {
        (Some(d), _) if d.len() == data.len() => e1,
        (_, Some(d)) if d.len() == data.len() => e2?,
        _ => return Some(Ok(Value::Num(data))),
    };
    let Value::List(l) = template else {
        return Some(Ok(Value::Num(data)));
    };
    let mut l = l.clone();
    if let Some(k) = l
        .names
        .as_ref()
        .and_then(|n| n.iter().position(|n| n == "values"))
    {
        l.items[k] = Value::Num(data);
    }
    Some(Ok(Value::List(l)))
}

/// [`dist_ops`]' type: the dist's own when the other operand is a single
/// number or a dist, else numbers of a length found only when run.
fn dist_ops_shape(t1: &Type, t2: Option<&Type>) -> Option<Type> {
    let is_dist = |t: &Type| matches!(t, Type::Record { class, .. } if class == "dist");
    let (d, other) = match (is_dist(t1), t2) {
        (true, o) => (t1, o),
        (false, Some(t2)) if is_dist(t2) => (t2, Some(t1)),
        _ => return None,
    };
    let dlen = d.field("values").and_then(Type::len);
    Some(match other.map(|o| (is_dist(o), o.len())) {
        None | Some((true, _)) | Some((false, Some(1))) => d.clone(),
        // Longer than the dist, or shorter and recycled: the answer keeps
        // the dist's attributes only when it is as long as the dist.
        Some((false, Some(n))) => match dlen {
            Some(k) if n == k || (n < k && n > 0) => d.clone(),
            Some(k) => Type::num(n.max(k) * usize::from(n > 0)),
            None => Type::Any,
        },
        Some((false, None)) => Type::Any,
    })
}

/// What a shape rule knows about a numeric operand.
struct Sh {
    len: Option<usize>,
    dims: Option<(Option<usize>, Option<usize>)>,
    value: Option<Vec<f64>>,
}

fn sh(t: &Type) -> Option<Sh> {
    match t {
        Type::Num { len, .. } | Type::Bool { len, .. } => Some(Sh {
            len: *len,
            dims: None,
            value: t.const_nums(),
        }),
        Type::Mat { rows, cols } => Some(Sh {
            len: t.len(),
            dims: Some((*rows, *cols)),
            value: None,
        }),
        _ => None,
    }
}

fn dims_str(d: (Option<usize>, Option<usize>)) -> String {
    let f = |n: Option<usize>| n.map_or_else(|| "?".to_string(), |n| n.to_string());
    format!("{}x{}", f(d.0), f(d.1))
}

fn merge(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    a.or(b)
}

fn arith_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let op = Op::from_name(args.func)
        .ok_or_else(|| ArgError::call(format!("unknown operator {}", args.func)))?;
    let t1 = args.ty("e1").cloned().unwrap_or(Type::Any);
    if let Some(t) = super::frame_ops::ops_shape(args.func, &t1, args.ty("e2")) {
        return t.map_err(ArgError::call);
    }
    if let Some(t) = super::factor_ops::ops_shape(args.func, &t1, args.ty("e2")) {
        return Ok(t);
    }
    if let Some(t) = super::complex_ops::ops_shape(op, &t1, args.ty("e2")) {
        return t.map_err(ArgError::call);
    }
    if let Some(t) = dist_ops_shape(&t1, args.ty("e2")) {
        return Ok(t);
    }
    let Some(t2) = args.ty("e2").cloned() else {
        if !matches!(op, Op::Add | Op::Sub) {
            return Err(ArgError::call(format!(
                "invalid unary operator `{}`",
                args.func
            )));
        }
        return match (&t1, sh(&t1)) {
            (Type::Any, _) => Ok(Type::Any),
            (_, None) => Err(args.error(
                "e1",
                format!("invalid argument to unary operator: {}", t1.describe()),
            )),
            (Type::Mat { .. }, _) => Ok(t1),
            (_, Some(s)) => Ok(match s.value {
                Some(v) => Type::num_const(unary(op, &v)),
                None => Type::Num {
                    len: s.len,
                    value: None,
                },
            }),
        };
    };
    let non_numeric = |name: &str, t: &Type| {
        args.error(
            name,
            format!("non-numeric argument to binary operator: {}", t.describe()),
        )
    };
    let a = match (&t1, sh(&t1)) {
        (Type::Any, _) => None,
        (_, None) => return Err(non_numeric("e1", &t1)),
        (_, Some(s)) => Some(s),
    };
    let b = match (&t2, sh(&t2)) {
        (Type::Any, _) => None,
        (_, None) => return Err(non_numeric("e2", &t2)),
        (_, Some(s)) => Some(s),
    };
    let (a, b) = match (a, b) {
        (Some(a), Some(b)) => (a, b),
        // Whatever the unknown side is, a successful result keeps a
        // matrix operand's dims.
        (
            Some(Sh {
                dims: Some((r, c)), ..
            }),
            None,
        )
        | (
            None,
            Some(Sh {
                dims: Some((r, c)), ..
            }),
        ) => return Ok(Type::Mat { rows: r, cols: c }),
        _ => return Ok(Type::Any),
    };
    if let (Some(x), Some(y)) = (&a.value, &b.value) {
        let (data, _) = binary(op, x, None, y, None).map_err(|m| args.error("e2", m))?;
        return Ok(Type::num_const(data));
    }
    match (a.dims, b.dims) {
        (Some(x), Some(y)) => {
            let clash =
                |p: Option<usize>, q: Option<usize>| matches!((p, q), (Some(p), Some(q)) if p != q);
            if clash(x.0, y.0) || clash(x.1, y.1) {
                return Err(args.error(
                    "e2",
                    format!(
                        "non-conformable arrays: {} {} {}",
                        dims_str(x),
                        args.func,
                        dims_str(y)
                    ),
                ));
            }
            Ok(Type::Mat {
                rows: merge(x.0, y.0),
                cols: merge(x.1, y.1),
            })
        }
        (Some(d), None) | (None, Some(d)) => {
            let (m, v, vname) = if a.dims.is_some() {
                (a.len, b.len, "e2")
            } else {
                (b.len, a.len, "e1")
            };
            match (m, v) {
                (Some(m), Some(v)) if m > 0 && v > m => Err(args.error(
                    vname,
                    format!(
                        "dims [product {m}] do not match the length of object [{v}]: {} {} vector of length {v}",
                        dims_str(d),
                        args.func
                    ),
                )),
                (Some(m), Some(0)) if m > 0 => Ok(Type::num(0)),
                _ => Ok(Type::Mat { rows: d.0, cols: d.1 }),
            }
        }
        (None, None) => {
            let len = match (a.len, b.len) {
                (Some(0), _) | (_, Some(0)) => Some(0),
                (Some(x), Some(y)) => Some(x.max(y)),
                _ => None,
            };
            Ok(Type::Num { len, value: None })
        }
    }
}

/// Largest vector a kernel will allocate (16 GiB of doubles); R would fail
/// with "cannot allocate vector" somewhere near here too.
pub const MAX_ALLOC: usize = 1 << 31;

/// Length of `from:to` (R's `seq_colon`), or R's error.
pub(super) fn colon_len(from: f64, to: f64) -> Result<usize, String> {
    if from.is_nan() || to.is_nan() {
        return Err("NA/NaN argument".into());
    }
    let r = (to - from).abs();
    if r >= 4_503_599_627_370_496.0 {
        return Err("result would be too long a vector".into());
    }
    let n = (r + 1.0 + f64::from(f32::EPSILON)) as usize;
    if n > MAX_ALLOC {
        return Err(format!("cannot allocate a vector of length {n}"));
    }
    Ok(n)
}

/// R's `from:to`.
pub fn colon(from: f64, to: f64) -> Result<Vec<f64>, String> {
    let n = colon_len(from, to)?;
    // Reserved first: a length below MAX_ALLOC can still be more than
    // the machine holds (`m:2147483647L`, whose ends no shape rule knew).
    let mut out = crate::kernels::alloc::vec_with_capacity(n).map_err(|e| e.0)?;
    if from <= to {
        out.extend((0..n).map(|i| from + i as f64));
    } else {
        out.extend((0..n).map(|i| from - i as f64));
    }
    Ok(out)
}

fn colon_end(v: &Value) -> Result<f64, KernelError> {
    let x = match v {
        Value::Str(s) => s
            .first()
            .map(|s| s.trim().parse::<f64>().unwrap_or(f64::NAN)),
        other => other.as_f64_slice().and_then(|d| d.first().copied()),
    };
    if v.is_empty() {
        return Err(KernelError::new("argument of length 0"));
    }
    x.ok_or_else(|| KernelError::new("NA/NaN argument"))
}

fn colon_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let from = colon_end(args.get("from").unwrap_or(&Value::Null))?;
    let to = colon_end(args.get("to").unwrap_or(&Value::Null))?;
    colon(from, to).map(Value::Num).map_err(KernelError)
}

fn colon_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mut ends = [None, None];
    for (k, name) in ["from", "to"].into_iter().enumerate() {
        match args.ty(name) {
            Some(t) if t.len() == Some(0) => {
                return Err(args.error(name, "argument of length 0"));
            }
            Some(t @ (Type::Num { .. } | Type::Bool { .. } | Type::Mat { .. } | Type::Any)) => {
                ends[k] = t.const_nums().and_then(|v| v.first().copied());
            }
            Some(t @ Type::Str { .. }) => {
                ends[k] = t
                    .const_str()
                    .map(|s| s.trim().parse::<f64>().unwrap_or(f64::NAN));
            }
            Some(t) => {
                return Err(args.error(name, format!("NA/NaN argument: {}", t.describe())));
            }
            None => {}
        }
    }
    match ends {
        [Some(from), Some(to)] => {
            let n = colon_len(from, to).map_err(|m| args.error("to", m))?;
            if n > crate::kernels::types::MAX_CONST_LEN {
                Ok(Type::num(n))
            } else {
                colon(from, to)
                    .map(Type::num_const)
                    .map_err(|m| args.error("to", m))
            }
        }
        _ => Ok(Type::num_unknown()),
    }
}
