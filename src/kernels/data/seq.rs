//! `seq` (R 4.2's `seq.default`, with its argument rules and messages) and
//! `seq_len`. flowcast numbers are doubles, so `seq` always takes R's
//! double (non-integer) path; the values are the same.

use crate::kernels::types::MAX_CONST_LEN;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

const INT_MAX: f64 = 2_147_483_647.0;

/// A sequence, described without materialising it (`seq(1, 1e9)` is cheap
/// to analyse).
#[derive(Debug)]
enum Seq {
    /// `from:to`: `from ± i` for `i in 0..n`.
    Colon {
        from: f64,
        down: bool,
        n: usize,
    },
    /// `from + i * by` for `i in 0..n`, clamped at `to` (R's fuzz guard).
    By {
        from: f64,
        by: f64,
        n: usize,
        clamp: Option<f64>,
    },
    /// `to - (n - 1 - i) * by`.
    ByTo {
        to: f64,
        by: f64,
        n: usize,
    },
    /// `length.out` points from `from` to `to`.
    Spaced {
        from: f64,
        to: f64,
        n: usize,
    },
    Explicit(Vec<f64>),
}

impl Seq {
    fn len(&self) -> usize {
        match self {
            Seq::Colon { n, .. }
            | Seq::By { n, .. }
            | Seq::ByTo { n, .. }
            | Seq::Spaced { n, .. } => *n,
            Seq::Explicit(v) => v.len(),
        }
    }

    fn values(&self) -> Vec<f64> {
        match *self {
            Seq::Colon { from, down, n } => (0..n)
                .map(|i| {
                    if down {
                        from - i as f64
                    } else {
                        from + i as f64
                    }
                })
                .collect(),
            Seq::By { from, by, n, clamp } => (0..n)
                .map(|i| {
                    let x = from + i as f64 * by;
                    match clamp {
                        Some(to) if by > 0.0 => x.min(to),
                        Some(to) => x.max(to),
                        None => x,
                    }
                })
                .collect(),
            Seq::ByTo { to, by, n } => (0..n).map(|i| to - (n - 1 - i) as f64 * by).collect(),
            Seq::Spaced { from, to, n } => {
                if n > 2 {
                    if from == to {
                        return vec![from; n];
                    }
                    let n1 = (n - 1) as f64;
                    let step = (to - from) / n1;
                    let mut v = Vec::with_capacity(n);
                    v.push(from);
                    v.extend((1..n - 1).map(|i| from + i as f64 * step));
                    v.push(to);
                    v
                } else {
                    [from, to][..n].to_vec()
                }
            }
            Seq::Explicit(ref v) => v.clone(),
        }
    }
}

/// R's `from:to` for finite doubles.
fn colon(from: f64, to: f64) -> Result<Seq, String> {
    let span = (to - from).abs() + 1e-10;
    if span >= 4.5e15 {
        return Err("result would be too long a vector".into());
    }
    Ok(Seq::Colon {
        from,
        down: from > to,
        n: span.floor() as usize + 1,
    })
}

/// One supplied argument: its numbers, or `None` when not known (shape time).
type Arg = Option<Option<Vec<f64>>>;

/// `seq.default`'s logic. `args` are from, to, by, length.out (outer
/// `None`: missing); an unknown value yields `Ok(None)`.
fn plan(args: [Arg; 4], nargs: usize) -> Result<Option<Seq>, String> {
    let [from, to, by, length_out] = args;
    if nargs == 1 {
        if let Some(f) = &from {
            let Some(f) = f else { return Ok(None) };
            return match f.len() {
                1 if !f[0].is_finite() => Err("'from' must be a finite number".into()),
                1 => colon(1.0, f[0]).map(Some),
                0 => Ok(Some(Seq::Explicit(Vec::new()))),
                n => colon(1.0, n as f64).map(Some),
            };
        }
    }
    let lo = match &length_out {
        None => None,
        Some(None) => return Ok(None),
        Some(Some(v)) if v.is_empty() => {
            return Err("argument 'length.out' must be of length 1".into())
        }
        Some(Some(v)) => Some(v[0].ceil()),
    };
    let scalar = |a: &Arg, name: &str| -> Result<Option<Option<f64>>, String> {
        match a {
            None => Ok(None),
            Some(None) => Ok(Some(None)),
            Some(Some(v)) if v.len() != 1 => Err(format!("'{name}' must be of length 1")),
            Some(Some(v)) if !v[0].is_finite() => Err(format!("'{name}' must be a finite number")),
            Some(Some(v)) => Ok(Some(Some(v[0]))),
        }
    };
    let from_v = scalar(&from, "from")?;
    let to_v = scalar(&to, "to")?;
    let (Some(f), Some(t)) = (from_v.unwrap_or(Some(1.0)), to_v.unwrap_or(Some(1.0))) else {
        return Ok(None);
    };
    let Some(lo) = lo else {
        let Some(by) = &by else {
            return colon(f, t).map(Some);
        };
        let Some(by) = by else { return Ok(None) };
        if by.len() != 1 {
            return Err("'by' must be of length 1".into());
        }
        let by = by[0];
        let del = t - f;
        if del == 0.0 && t == 0.0 {
            return Ok(Some(Seq::Explicit(vec![t])));
        }
        let n = del / by;
        if !n.is_finite() {
            if !by.is_nan() && by == 0.0 && del == 0.0 {
                return Ok(Some(Seq::Explicit(vec![f])));
            }
            return Err("invalid '(to - from)/by'".into());
        }
        if n < 0.0 {
            return Err("wrong sign in 'by' argument".into());
        }
        if n > INT_MAX {
            return Err("'by' argument is much too small".into());
        }
        let dd = del.abs() / t.abs().max(f.abs());
        if dd < 100.0 * f64::EPSILON {
            return Ok(Some(Seq::Explicit(vec![f])));
        }
        let n = (n + 1e-10) as usize;
        return Ok(Some(Seq::By {
            from: f,
            by,
            n: n + 1,
            clamp: Some(t),
        }));
    };
    if !lo.is_finite() || lo < 0.0 {
        return Err("'length.out' must be a non-negative number".into());
    }
    if lo > 4.5e15 {
        return Err("result would be too long a vector".into());
    }
    let n = lo as usize;
    if n == 0 {
        return Ok(Some(Seq::Explicit(Vec::new())));
    }
    if nargs == 1 {
        return colon(1.0, lo).map(Some);
    }
    match (&from, &to, &by) {
        (_, _, None) => {
            let (f, t) = match (&from, &to) {
                (_, None) => (f, f + (lo - 1.0)),
                (None, _) => (t - (lo - 1.0), t),
                _ => (f, t),
            };
            Ok(Some(Seq::Spaced { from: f, to: t, n }))
        }
        (_, None, Some(by)) => {
            let Some(by) = by else { return Ok(None) };
            let b = by.first().copied().unwrap_or(f64::NAN);
            Ok(Some(Seq::By {
                from: f,
                by: b,
                n,
                clamp: None,
            }))
        }
        (None, Some(_), Some(by)) => {
            let Some(by) = by else { return Ok(None) };
            let b = by.first().copied().unwrap_or(f64::NAN);
            Ok(Some(Seq::ByTo { to: t, by: b, n }))
        }
        _ => Err("too many arguments".into()),
    }
}

const NAMES: [&str; 4] = ["from", "to", "by", "length.out"];

/// The arguments given, `along.with` among them (R's `nargs()`).
fn nargs<T>(a: &Args<T>) -> usize {
    NAMES.iter().filter(|n| a.has(n)).count() + usize::from(a.has("along.with"))
}

pub(super) fn shape_seq(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    // seq.Date's `by = "month"`: a Date `from` is a number to the plan,
    // so the run says whether from is one (see exec's date_methods).
    if matches!(a.get("by"), Some(Type::Str { .. }))
        && a.get("from").is_some_and(|t| matches!(t, Type::Num { .. }))
    {
        let len = a
            .get("length.out")
            .and_then(Type::const_nums)
            .filter(|v| v.len() == 1 && v[0] >= 0.0 && v[0] < 1e8)
            .map(|v| v[0].ceil() as usize);
        return Ok(Type::Num { len, value: None });
    }
    for n in NAMES {
        if a.get(n).is_some_and(|t| !t.is_numeric()) {
            return Err(a.error(n, format!("'{n}' must be a finite number")));
        }
    }
    let mut args = NAMES.map(|n| a.get(n).map(Type::const_nums));
    // seq.default: `length.out <- length(along.with)`, whatever was given.
    if let Some(t) = a.get("along.with") {
        args[3] = Some(t.len().map(|n| vec![n as f64]));
    }
    let all_four = nargs(a) == 4;
    match plan(args, nargs(a)).map_err(ArgError::call)? {
        Some(s) if s.len() <= MAX_CONST_LEN => Ok(Type::num_const(s.values())),
        Some(s) => Ok(Type::num(s.len())),
        None => {
            // seq(x) for a vector x of known length is seq_along(x).
            if nargs(a) == 1 {
                if let Some(l) = a.get("from").and_then(Type::len).filter(|&l| l != 1) {
                    return Ok(Type::num(l));
                }
            }
            // Every length.out path gives exactly length.out elements.
            let lo = match a.get("along.with") {
                Some(t) => t.len().map(|n| n as f64),
                None => a.get("length.out").and_then(Type::const_scalar),
            };
            Ok(match lo {
                Some(lo) if !all_four && lo.is_finite() && lo >= 0.0 && nargs(a) > 1 => {
                    Type::num(lo.ceil() as usize)
                }
                _ => Type::num_unknown(),
            })
        }
    }
}

pub(super) fn eval_seq(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut args: [Arg; 4] = [None, None, None, None];
    for (slot, n) in args.iter_mut().zip(NAMES) {
        if let Some(v) = a.get(n) {
            let nums = v
                .as_f64_slice()
                .ok_or_else(|| KernelError::new(format!("'{n}' must be a finite number")))?;
            *slot = Some(Some(nums.into_owned()));
        }
    }
    if let Some(v) = a.get("along.with") {
        args[3] = Some(Some(vec![v.len() as f64]));
    }
    let s = plan(args, nargs(a)).map_err(KernelError::new)?;
    let s = s.ok_or_else(|| KernelError::new("seq(): arguments not known"))?;
    let mut out = super::alloc_num(s.len())?;
    out.extend(s.values());
    Ok(Value::Num(out))
}

const SEQ_LEN_ERR: &str = "argument must be coercible to non-negative integer";

/// do_seq_len's length: finite, not negative, and shorter than R's
/// longest vector (a long one R holds compactly, flowcast in full, so
/// that past memory it fails where it is allocated).
fn seq_len_n(v: Option<Vec<f64>>) -> Result<Option<usize>, String> {
    let Some(v) = v else { return Ok(None) };
    match v.first() {
        None => Err("argument of length 0".into()),
        Some(&x) if !x.is_finite() || x < 0.0 => Err(SEQ_LEN_ERR.into()),
        Some(&x) if x >= crate::kernels::alloc::R_XLEN_T_MAX => {
            Err("result would be too long a vector".into())
        }
        Some(&x) => Ok(Some(x as usize)),
    }
}

pub(super) fn shape_seq_len(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let t = a.get("length.out").cloned().unwrap_or(Type::Any);
    if !t.is_numeric() {
        return Err(a.error("length.out", SEQ_LEN_ERR));
    }
    match seq_len_n(t.const_nums()).map_err(|m| a.error("length.out", m))? {
        Some(n) if n <= MAX_CONST_LEN => Ok(Type::num_const((1..=n).map(|i| i as f64).collect())),
        Some(n) => Ok(Type::num(n)),
        None => Ok(Type::num_unknown()),
    }
}

pub(super) fn eval_seq_len(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let v = a
        .nums("length.out")
        .map_err(|_| KernelError::new(SEQ_LEN_ERR))?;
    let n = seq_len_n(Some(v.into_owned()))
        .map_err(KernelError::new)?
        .unwrap_or(0);
    let mut out = super::alloc_num(n)?;
    out.extend((1..=n).map(|i| i as f64));
    Ok(Value::Num(out))
}

/// `seq_along(along.with)`: 1, 2, …, up to its argument's length.
pub(super) fn eval_seq_along(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let n = a.get("along.with").map_or(0, Value::len);
    let mut out = super::alloc_num(n)?;
    out.extend((1..=n).map(|i| i as f64));
    Ok(Value::Num(out))
}

pub(super) fn shape_seq_along(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match a.get("along.with").map_or(Some(0), Type::len) {
        Some(n) if n <= MAX_CONST_LEN => Type::num_const((1..=n).map(|i| i as f64).collect()),
        Some(n) => Type::num(n),
        None => Type::num_unknown(),
    })
}

/// `numeric(length)`, `integer(length)`, `logical(length)`,
/// `character(length)`: R's empty values (0, FALSE, "") of a given length,
/// as `vapply`'s FUN.VALUE wants.
fn vector_length(v: Option<Vec<f64>>) -> Result<Option<usize>, String> {
    let Some(v) = v else { return Ok(None) };
    match v[..] {
        [x] => crate::kernels::alloc::as_vec_size(x).map(Some),
        _ => Err("invalid 'length' argument".into()),
    }
}

pub(super) fn shape_vector_of(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = match a.get("length") {
        None => Some(0),
        // asVecSize takes no logical: `integer(NA)` is invalid, not NA.
        Some(t) if !t.is_numeric() || matches!(t, Type::Bool { .. } | Type::BoolMat { .. }) => {
            return Err(a.error("length", "invalid 'length' argument"))
        }
        Some(t) => vector_length(t.const_nums()).map_err(|m| a.error("length", m))?,
    };
    Ok(match a.func {
        "logical" => Type::logical(n),
        "character" => Type::Str {
            len: n,
            value: None,
        },
        _ => Type::Num {
            len: n,
            value: None,
        },
    })
}

pub(super) fn eval_vector_of(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let n = match a.get("length") {
        None => 0,
        Some(Value::Bool(_) | Value::BoolMat(_)) => {
            return Err(KernelError::new("invalid 'length' argument"))
        }
        Some(_) => {
            let v = a
                .nums("length")
                .map_err(|_| KernelError::new("invalid 'length' argument"))?;
            vector_length(Some(v.into_owned()))
                .map_err(KernelError::new)?
                .unwrap_or(0)
        }
    };
    use crate::kernels::alloc::{ensure_room, filled};
    // R's element: 4 bytes for an integer or a logical, 8 for a double or
    // a string's pointer.
    let r_bytes = if matches!(a.func, "logical" | "integer") {
        4.0
    } else {
        8.0
    };
    ensure_room(n as f64 * r_bytes)?;
    Ok(match a.func {
        "logical" => Value::Bool(filled(n, Some(false))?),
        "character" => Value::Str(filled(n, String::new())?),
        _ => Value::Num(filled(n, 0.0)?),
    })
}

/// `seq.int(from, to, length.out = n)` (do_seq): `from + i * by`, with
/// `to` itself last.
pub(crate) fn seq_spaced(from: f64, to: f64, n: usize) -> Result<Vec<f64>, KernelError> {
    for (name, v) in [("from", from), ("to", to)] {
        if !v.is_finite() {
            return Err(KernelError::new(format!(
                "'{name}' must be a finite number"
            )));
        }
    }
    let mut out = super::alloc_num(n)?;
    out.extend(Seq::Spaced { from, to, n }.values());
    Ok(out)
}
