//! `c(...)`: R's combination with its type hierarchy (logical < numeric <
//! complex < character < list). `NULL` is dropped, matrices are flattened
//! column-major, names are dropped (flowcast vectors carry none).

use num_complex::Complex64;

use crate::kernels::value::{is_na, Factor, List};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Kind {
    Null,
    Bool,
    Num,
    Complex,
    Str,
    List,
}

fn kind_of_value(v: &Value) -> Result<Kind, KernelError> {
    Ok(match v {
        Value::Named(n) => return kind_of_value(&n.value),
        Value::Null => Kind::Null,
        Value::Bool(_) | Value::BoolMat(_) => Kind::Bool,
        Value::Num(_) | Value::Mat(_) => Kind::Num,
        Value::Complex(_) | Value::ComplexMat(_) => Kind::Complex,
        Value::Str(_) | Value::StrMat(_) => Kind::Str,
        Value::List(_) => Kind::List,
        Value::Formula(_) => return Err(KernelError::new("cannot combine a formula with c()")),
        Value::Lang(_) => {
            return Err(KernelError::new(
                "flowcast's c() does not combine names or calls",
            ))
        }
        Value::Factor(_) => {
            return Err(KernelError::new(
                "flowcast's c() combines factors only with factors: use as.character() first",
            ))
        }
    })
}

/// R's `as.character` of a double: up to 15 significant digits, fixed or
/// scientific notation, whichever is narrower (fixed on a tie).
pub fn r_num_to_string(x: f64) -> String {
    if is_na(x) {
        return "NA".into();
    }
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    if x == 0.0 {
        return "0".into();
    }
    // A whole number of at most 15 digits is exact in both notations, and
    // its widths are counted without formatting it twice.
    if x.fract() == 0.0 && x.abs() < 1e15 {
        let n = x as i64;
        let digits = n.unsigned_abs().to_string();
        let significant = digits.trim_end_matches('0').len();
        let sci_width = significant + usize::from(significant > 1) + 4;
        if digits.len() <= sci_width {
            return n.to_string();
        }
    }
    // Scientific with 15 significant digits, trailing zeros trimmed.
    let sci = format!("{:.14e}", x);
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mant = if mant.contains('.') {
        mant.trim_end_matches('0').trim_end_matches('.')
    } else {
        mant
    };
    let neg = usize::from(x < 0.0);
    let digits = mant.len() - neg - usize::from(mant.contains('.'));
    let sci_width = neg + digits + usize::from(digits > 1) + if exp.abs() >= 100 { 5 } else { 4 };
    let fixed_width = if exp >= 0 {
        let int_digits = exp as usize + 1;
        neg + int_digits
            + if digits > int_digits {
                1 + digits - int_digits
            } else {
                0
            }
    } else {
        neg + 2 + (-exp - 1) as usize + digits
    };
    if fixed_width <= sci_width {
        let decimals = (digits as i32 - 1 - exp).max(0) as usize;
        format!("{:.*}", decimals, x)
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.abs())
    }
}

fn to_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Str(s) => out.extend(s.iter().cloned()),
        Value::StrMat(m) => out.extend(m.iter().cloned()),
        Value::Bool(_) | Value::BoolMat(_) => out.extend(
            v.as_logicals()
                .unwrap_or_default()
                .iter()
                .map(|b| match b {
                    Some(true) => "TRUE",
                    Some(false) => "FALSE",
                    None => "NA",
                })
                .map(str::to_string),
        ),
        Value::Complex(c) => out.extend(c.iter().map(complex_string)),
        Value::ComplexMat(m) => out.extend(m.iter().map(complex_string)),
        other => {
            if let Some(s) = other.as_f64_slice() {
                out.extend(s.iter().map(|&x| r_num_to_string(x)));
            }
        }
    }
}

fn complex_string(z: &Complex64) -> String {
    let im = r_num_to_string(z.im.abs());
    let sign = if z.im < 0.0 { '-' } else { '+' };
    format!("{}{sign}{im}i", r_num_to_string(z.re))
}

/// Each element of an atomic vector as its own length-one value (what a
/// vector contributes to `c(list, vector)`).
fn elements(v: &Value) -> Vec<Value> {
    match v {
        Value::List(l) => l.items.clone(),
        Value::Str(s) => s.iter().map(|x| Value::string(x)).collect(),
        Value::StrMat(m) => m.iter().map(|x| Value::string(x)).collect(),
        Value::Bool(b) => b.iter().map(|&x| Value::Bool(vec![x])).collect(),
        Value::BoolMat(m) => m.iter().map(|&x| Value::Bool(vec![x])).collect(),
        Value::Complex(c) => c.iter().map(|&x| Value::Complex(vec![x])).collect(),
        Value::ComplexMat(m) => m.iter().map(|&x| Value::Complex(vec![x])).collect(),
        Value::Null => Vec::new(),
        other => other
            .as_f64_slice()
            .map(|s| s.iter().map(|&x| Value::scalar(x)).collect())
            .unwrap_or_default(),
    }
}

pub(super) fn eval_c(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let parts: Vec<&Value> = a.dots().map(|(_, v)| v).collect();
    if let Some(f) = combine_factors(&parts) {
        return Ok(Value::Factor(f));
    }
    combine(&parts)
}

/// R 4.1's `c.factor` of factors only (NULLs dropped): unlist's factor,
/// its levels the union of theirs in order of appearance; ordered when
/// every part is, with the same levels.
fn combine_factors(parts: &[&Value]) -> Option<Factor> {
    let factors: Vec<&Factor> = parts
        .iter()
        .filter(|v| !matches!(v, Value::Null))
        .map(|v| match v {
            Value::Factor(f) => Some(f),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if !matches!(parts.first(), Some(Value::Factor(_))) {
        return None;
    }
    let mut levels: Vec<String> = Vec::new();
    let mut codes = Vec::new();
    for f in &factors {
        let map: Vec<u32> = f
            .levels
            .iter()
            .map(|l| match levels.iter().position(|x| x == l) {
                Some(i) => i as u32,
                None => {
                    levels.push(l.clone());
                    (levels.len() - 1) as u32
                }
            })
            .collect();
        codes.extend(f.codes.iter().map(|c| c.map(|c| map[c as usize])));
    }
    let ordered = factors
        .iter()
        .all(|f| f.ordered && f.levels == factors[0].levels);
    Some(Factor {
        codes,
        levels,
        ordered,
    })
}

/// `c(parts...)`: the parts combined in the type R's hierarchy gives them.
pub fn combine(parts: &[&Value]) -> Result<Value, KernelError> {
    let mut kind = Kind::Null;
    for v in parts {
        let k = kind_of_value(v)?;
        if k > kind {
            kind = k;
        }
    }
    Ok(match kind {
        Kind::Null => Value::Null,
        Kind::Bool => Value::Bool(
            parts
                .iter()
                .flat_map(|v| match v {
                    Value::Bool(b) => b.clone(),
                    Value::BoolMat(m) => m.as_slice().to_vec(),
                    _ => Vec::new(),
                })
                .collect(),
        ),
        Kind::Num => {
            let mut out = Vec::new();
            for v in parts {
                if let Some(s) = v.as_f64_slice() {
                    out.extend_from_slice(&s);
                }
            }
            Value::Num(out)
        }
        Kind::Complex => {
            let mut out = Vec::new();
            for v in parts {
                match v {
                    Value::Complex(c) => out.extend_from_slice(c),
                    Value::ComplexMat(m) => out.extend(m.iter().copied()),
                    other => {
                        if let Some(s) = other.as_f64_slice() {
                            out.extend(s.iter().map(|&x| Complex64::new(x, 0.0)));
                        }
                    }
                }
            }
            Value::Complex(out)
        }
        Kind::Str => {
            let mut out = Vec::new();
            for v in parts {
                to_strings(v, &mut out);
            }
            Value::Str(out)
        }
        Kind::List => Value::List(List::sequence(
            parts.iter().flat_map(|v| elements(v)).collect(),
        )),
    })
}

/// `unlist(x)`: a list's elements (and theirs, recursively) combined as
/// `c` combines them; anything else as it is.
pub(super) fn eval_unlist(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    fn flat(v: &Value) -> Result<Value, KernelError> {
        match v {
            Value::List(l) => {
                let items = l.items.iter().map(flat).collect::<Result<Vec<_>, _>>()?;
                combine(&items.iter().collect::<Vec<_>>())
            }
            other => Ok(other.clone()),
        }
    }
    flat(a.get("x").unwrap_or(&Value::Null))
}

pub(super) fn shape_unlist(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match a.ty("x") {
        Some(Type::List { len, elem }) => match elem.as_ref() {
            Type::Num { len: Some(1), .. } => Type::Num {
                len: *len,
                value: None,
            },
            Type::Str { len: Some(1), .. } => Type::Str {
                len: *len,
                value: None,
            },
            _ => Type::Any,
        },
        Some(t @ (Type::Num { .. } | Type::Str { .. } | Type::Bool { .. })) => t.clone(),
        _ => Type::Any,
    })
}

fn kind_of_type(t: &Type) -> Option<Kind> {
    Some(match t {
        Type::Null => Kind::Null,
        Type::Bool { .. } | Type::BoolMat { .. } => Kind::Bool,
        Type::Num { .. } | Type::Mat { .. } => Kind::Num,
        Type::Complex { .. } | Type::ComplexMat { .. } => Kind::Complex,
        Type::Str { .. } | Type::StrMat { .. } => Kind::Str,
        Type::List { .. } | Type::Record { .. } => Kind::List,
        Type::Formula { .. } | Type::Factor { .. } | Type::Any => return None,
    })
}

pub(super) fn shape_c(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let parts: Vec<&Type> = a.dots().map(|(_, t)| t).collect();
    let mut kind = Kind::Null;
    for (k, t) in parts.iter().enumerate() {
        if matches!(t, Type::Formula { .. }) {
            return Err(a.dots_error(k, "cannot combine a formula with c()"));
        }
        match kind_of_type(t) {
            Some(tk) if tk > kind => kind = tk,
            Some(_) => {}
            None => return Ok(Type::Any),
        }
    }
    let len = parts.iter().try_fold(0usize, |acc, t| Some(acc + t.len()?));
    Ok(match kind {
        Kind::Null => Type::Null,
        Kind::Bool => {
            let value = parts.iter().try_fold(Vec::new(), |mut acc, t| match t {
                Type::Bool { value: Some(v), .. } => {
                    acc.extend_from_slice(v);
                    Some(acc)
                }
                Type::Null => Some(acc),
                _ => None,
            });
            Type::Bool { len, value }
        }
        Kind::Num => {
            let value = parts.iter().try_fold(Vec::new(), |mut acc, t| {
                if matches!(t, Type::Null) {
                    return Some(acc);
                }
                acc.extend(t.const_nums()?);
                Some(acc)
            });
            match value {
                Some(v) => Type::num_const(v),
                None => Type::Num { len, value: None },
            }
        }
        Kind::Complex => Type::Complex { len },
        Kind::Str => {
            let value = parts.iter().try_fold(Vec::new(), |mut acc, t| {
                match t {
                    Type::Null => {}
                    Type::Str { value: Some(v), .. } => acc.extend(v.iter().cloned()),
                    Type::Bool { value: Some(v), .. } => {
                        acc.extend(v.iter().map(|&b| match b {
                            Some(true) => "TRUE".to_string(),
                            Some(false) => "FALSE".to_string(),
                            None => "NA".to_string(),
                        }));
                    }
                    Type::Num { value: Some(v), .. } => {
                        acc.extend(v.iter().map(|&x| r_num_to_string(x)))
                    }
                    _ => return None,
                }
                Some(acc)
            });
            Type::Str { len, value }
        }
        Kind::List => {
            // The elements' common type is not tracked through c().
            let len = parts.iter().try_fold(0usize, |acc, t| {
                Some(
                    acc + match t {
                        Type::List { len, .. } => (*len)?,
                        Type::Record { fields, .. } => fields.len(),
                        other => other.len()?,
                    },
                )
            });
            Type::List {
                len,
                elem: Box::new(Type::Any),
            }
        }
    })
}
