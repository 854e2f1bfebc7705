//! Small base functions: `complex(length.out, real, imaginary, modulus,
//! argument)` (do_complex, or R's `modulus * exp(1i * argument)`),
//! `sort.int` (sort's kernel under sort.int's formals), `casefold(x,
//! upper)` (toupper or tolower) and `strtoi(x, base)` (C's `strtol`, as
//! R's character.c calls it).

use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::NA;
use super::{opt, registry, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
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
    Kernel {
        name: "sort.int",
        params: &[
            super::req("x"),
            opt("partial"),
            opt("na.last"),
            opt("decreasing"),
            opt("method"),
            opt("index.return"),
        ],
        random: false,
        shape: sort_int_shape,
        eval: sort_int_eval,
    },
    Kernel {
        name: "casefold",
        params: &[super::req("x"), opt("upper")],
        random: false,
        shape: casefold_shape,
        eval: casefold_eval,
    },
    Kernel {
        name: "strtoi",
        params: &[super::req("x"), opt("base")],
        random: false,
        shape: strtoi_shape,
        eval: strtoi_eval,
    },
];

fn reals(v: Option<&Value>) -> Result<Vec<f64>, KernelError> {
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

/// The arguments of sort.int that `sort` takes, for sort's kernel.
fn sort_args<'a>(args: &'a Args<&'a Value>) -> Result<Args<&'a Value>, KernelError> {
    let mut given = Vec::new();
    for name in ["x", "decreasing", "na.last"] {
        if let Some(v) = args.get(name) {
            given.push((Some(name.to_string()), v));
        }
    }
    let sort = registry().get("sort").expect("sort is registered");
    Args::match_call(sort.name, sort.params, given).map_err(|e| KernelError::new(e.message))
}

const SORT_METHODS: &[&str] = &["auto", "shell", "quick", "radix"];

fn sort_int_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if args
        .get("partial")
        .is_some_and(|p| !matches!(p, Value::Null))
    {
        return Err(KernelError::new(
            "flowcast's sort.int() does not do partial sorting",
        ));
    }
    if let Some(v) = args.get("index.return") {
        if super::triangle::if_condition(v)? {
            return Err(KernelError::new(
                "flowcast's sort.int() does not return the index (index.return = TRUE)",
            ));
        }
    }
    // The methods order numbers alike; text they order by collation,
    // except the radix sort, which orders by bytes as in the C locale.
    let method = super::filter::choice(args.get("method"), SORT_METHODS)?;
    if let (Some(Value::Str(s)), "radix") = (args.get("x").map(bare), method) {
        return radix_text(s, args);
    }
    let sort = registry().get("sort").expect("sort is registered");
    (sort.eval)(&sort_args(args)?, ctx)
}

/// `sort.int(x, method = "radix")` of text: byte order, NA dropped or
/// put first or last as `na.last` says.
fn radix_text(s: &[String], args: &Args<&Value>) -> Result<Value, KernelError> {
    let decreasing = args.bool_or("decreasing", false)?;
    let na_last = match args.get("na.last").map(bare) {
        None => None,
        Some(v) => v.as_logicals().and_then(|l| l.first().copied().flatten()),
    };
    let mut kept: Vec<String> = s.iter().filter(|t| *t != "NA").cloned().collect();
    kept.sort();
    if decreasing {
        kept.reverse();
    }
    let nas = vec!["NA".to_string(); s.len() - kept.len()];
    Ok(Value::Str(match na_last {
        None => kept,
        Some(true) => kept.into_iter().chain(nas).collect(),
        Some(false) => nas.into_iter().chain(kept).collect(),
    }))
}

fn sort_int_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let sort = registry().get("sort").expect("sort is registered");
    let mut given = Vec::new();
    for name in ["x", "decreasing", "na.last"] {
        if let Some(t) = args.ty(name) {
            given.push((Some(name.to_string()), t.clone()));
        }
    }
    let matched = Args::match_call(sort.name, sort.params, given)?;
    (sort.shape)(&matched, ctx).map_err(|e| ArgError {
        arg: args.position("x"),
        message: e.message,
    })
}

fn casefold_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let upper = match args.get("upper") {
        Some(v) => super::triangle::if_condition(v)?,
        None => false,
    };
    let k = registry()
        .get(if upper { "toupper" } else { "tolower" })
        .expect("toupper and tolower are registered");
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let matched = Args::match_call(k.name, k.params, vec![(None, x)])
        .map_err(|e| KernelError::new(e.message))?;
    (k.eval)(&matched, ctx)
}

fn casefold_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let k = registry().get("toupper").expect("toupper is registered");
    let x = args.ty("x").cloned().unwrap_or(Type::Any);
    let matched = Args::match_call(k.name, k.params, vec![(None, x)])?;
    (k.shape)(&matched, ctx).map_err(|e| ArgError {
        arg: args.position("x"),
        message: e.message,
    })
}

/// C's `strtol(s, &end, base)` as glibc parses in the C locale: `None`
/// when no digit was read, the value may not fit, or text follows it.
fn strtol(s: &str, base: u32) -> Option<i64> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let negative = match b.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let digit = |c: u8, base: u32| (c as char).to_digit(36).filter(|&d| d < base);
    let mut base = base;
    let hex_prefix = b.get(i) == Some(&b'0')
        && matches!(b.get(i + 1), Some(b'x' | b'X'))
        && b.get(i + 2).is_some_and(|&c| digit(c, 16).is_some());
    if (base == 0 || base == 16) && hex_prefix {
        i += 2;
        base = 16;
    } else if base == 0 {
        base = if b.get(i) == Some(&b'0') { 8 } else { 10 };
    }
    let start = i;
    let mut value: i64 = 0;
    let mut overflow = false;
    while let Some(d) = b.get(i).and_then(|&c| digit(c, base)) {
        match value
            .checked_mul(i64::from(base))
            .and_then(|v| v.checked_add(i64::from(d)))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
        i += 1;
    }
    if i == start || i != b.len() || overflow {
        return None;
    }
    Some(if negative { -value } else { value })
}

fn strtoi_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let invalid = || KernelError::new("invalid 'base' argument");
    // R 4.2.2's default is 0L (prefixes choose the base), not the 10L
    // its help page shows.
    let base = match args.get("base") {
        None => 0.0,
        Some(v) => *reals(Some(v))?.first().ok_or_else(invalid)?,
    };
    let base = base.trunc();
    if base.is_nan() || (base != 0.0 && !(2.0..=36.0).contains(&base)) {
        return Err(invalid());
    }
    let base = base as u32;
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    // as.character(x): numbers as R writes them.
    let text: Vec<Option<String>> = match bare(x) {
        Value::Str(s) => s.iter().map(|t| (t != "NA").then(|| t.clone())).collect(),
        Value::Null => Vec::new(),
        Value::Factor(f) => f
            .codes
            .iter()
            .map(|c| c.map(|c| f.levels[c as usize].clone()))
            .collect(),
        Value::Bool(b) => b
            .iter()
            .map(|v| v.map(|v| if v { "TRUE" } else { "FALSE" }.to_string()))
            .collect(),
        other => other
            .as_f64_slice()
            .ok_or_else(|| KernelError::new("flowcast's strtoi() needs text"))?
            .iter()
            .map(|&v| (!super::value::is_na(v)).then(|| super::data::r_num_to_string(v)))
            .collect(),
    };
    Ok(Value::Num(
        text.iter()
            .map(|t| match t.as_deref() {
                None | Some("") => NA,
                Some(s) => match strtol(s, base) {
                    // INT_MIN is NA_integer_.
                    Some(v) if v > i64::from(i32::MIN) && v <= i64::from(i32::MAX) => v as f64,
                    _ => NA,
                },
            })
            .collect(),
    ))
}

fn strtoi_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(b) = args.ty("base").and_then(Type::const_scalar) {
        if b.is_nan() || (b.trunc() != 0.0 && !(2.0..=36.0).contains(&b.trunc())) {
            return Err(args.error("base", "invalid 'base' argument"));
        }
    }
    Ok(Type::Num {
        len: args.ty("x").and_then(Type::len),
        value: None,
    })
}
