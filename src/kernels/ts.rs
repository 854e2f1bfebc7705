//! R's time series: `ts(data, start, end, frequency, deltat)` of
//! stats/R/ts.R, and `tsp`, `is.ts`, `frequency`, `deltat`, `time`,
//! `cycle`, `start` and `end` of a series (their `.default` methods, which
//! read the `tsp` attribute and treat any other vector as `c(1, n, 1)`).
//!
//! A series is a vector or matrix carrying R's `tsp` attribute in
//! [`Named::tsp`]; its class is "ts" (c("mts", "ts", "matrix") on
//! a matrix, as R 4.2.2 has it). Arithmetic and R's Math functions keep it on a result of
//! the series' length (as R keeps every attribute there); indexing and
//! every other function drop it, as R's `[` does.

// The R code indexes as written; it reads better against the original.
#![allow(clippy::needless_range_loop)]

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::{List, Named, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "ts",
        params: &[
            opt("data"),
            opt("start"),
            opt("end"),
            opt("frequency"),
            opt("deltat"),
            opt("ts.eps"),
            opt("class"),
            opt("names"),
        ],
        random: false,
        shape: ts_shape,
        eval: ts_eval,
    },
    Kernel {
        name: "tsp",
        params: &[req("x")],
        random: false,
        shape: any_shape,
        eval: tsp_eval,
    },
    Kernel {
        name: "hasTsp",
        params: &[req("x")],
        random: false,
        shape: any_shape,
        eval: has_tsp_eval,
    },
    Kernel {
        name: "is.ts",
        params: &[req("x")],
        random: false,
        shape: |_, _| {
            Ok(Type::Bool {
                len: Some(1),
                value: None,
            })
        },
        eval: is_ts_eval,
    },
    Kernel {
        name: "frequency",
        params: &[req("x")],
        random: false,
        shape: scalar_shape,
        eval: frequency_eval,
    },
    Kernel {
        name: "deltat",
        params: &[req("x")],
        random: false,
        shape: scalar_shape,
        eval: deltat_eval,
    },
    Kernel {
        name: "time",
        params: &[req("x"), opt("offset")],
        random: false,
        shape: any_shape,
        eval: time_eval,
    },
    Kernel {
        name: "cycle",
        params: &[req("x")],
        random: false,
        shape: any_shape,
        eval: cycle_eval,
    },
    Kernel {
        name: "start",
        params: &[req("x")],
        random: false,
        shape: any_shape,
        eval: start_eval,
    },
    Kernel {
        name: "end",
        params: &[req("x")],
        random: false,
        shape: any_shape,
        eval: end_eval,
    },
    Kernel {
        name: "window",
        params: &[
            req("x"),
            opt("start"),
            opt("end"),
            opt("frequency"),
            opt("deltat"),
            opt("extend"),
            opt("ts.eps"),
        ],
        random: false,
        shape: any_shape,
        eval: window_eval,
    },
    Kernel {
        name: "decompose",
        params: &[req("x"), opt("type"), opt("filter")],
        random: false,
        shape: |_, _| {
            Ok(Type::Record {
                class: DECOMPOSED.into(),
                fields: ["x", "seasonal", "trend", "random", "figure", "type"]
                    .iter()
                    .map(|n| (n.to_string(), Type::Any))
                    .collect(),
            })
        },
        eval: decompose_eval,
    },
];

/// decompose's class.
pub(crate) const DECOMPOSED: &str = "decomposed.ts";

/// `getOption("ts.eps")`.
pub(crate) const TS_EPS: f64 = 1e-5;

/// The longest series `ts` makes (recycling `data` to a far `end`).
const MAX_OBS: f64 = (1u64 << 31) as f64;

fn any_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

/// ts keeps data's shape unless an `end` recycles or cuts it.
fn ts_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match (args.ty("data"), args.get("end")) {
        (Some(t @ (Type::Num { .. } | Type::Mat { .. })), None) => t.clone(),
        _ => Type::Any,
    })
}

fn scalar_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Num {
        len: Some(1),
        value: None,
    })
}

/// R's `tsp` attribute of `v`, when it has one.
pub(crate) fn tsp_of(v: &Value) -> Option<[f64; 3]> {
    match v {
        Value::Named(n) => n.tsp,
        _ => None,
    }
}

/// `attr(hasTsp(x), "tsp")`: the series' own, else `c(1, NROW(x), 1)`.
pub(crate) fn has_tsp(v: &Value) -> [f64; 3] {
    tsp_of(v).unwrap_or_else(|| [1.0, nrow(v) as f64, 1.0])
}

/// `hasTsp(x)`: `x`, given `tsp` attribute `c(1, NROW(x), 1)` when it
/// has none.
fn has_tsp_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    if tsp_of(x).is_some() {
        return Ok(x.clone());
    }
    match bare(x) {
        Value::Null => Err(KernelError::new("attempt to set an attribute on NULL")),
        b if b.is_empty() => Err(KernelError::new(
            "cannot assign 'tsp' to zero-length vector",
        )),
        Value::Num(_)
        | Value::Str(_)
        | Value::Bool(_)
        | Value::Complex(_)
        | Value::Mat(_)
        | Value::BoolMat(_)
        | Value::ComplexMat(_) => Ok(with_tsp(x.clone(), has_tsp(x))),
        other => Err(KernelError::new(format!(
            "flowcast's hasTsp takes a vector or matrix, not a {}",
            other.type_name()
        ))),
    }
}

/// `frequency(x)`: `tsp(x)[3]`, or 1.
pub(crate) fn frequency_of(v: &Value) -> f64 {
    tsp_of(v).map_or(1.0, |t| t[2])
}

/// R's `NROW(x)`.
fn nrow(v: &Value) -> usize {
    let b = bare(v);
    b.dims().map_or(b.len(), |(r, _)| r)
}

/// `value` (a vector or matrix) with the `tsp` attribute `tsp`, keeping
/// any names it has; anything else is returned bare.
pub(crate) fn with_tsp(value: Value, tsp: [f64; 3]) -> Value {
    let (value, names, rownames, colnames, attrs) = match value {
        Value::Named(n) => (n.value, n.names, n.rownames, n.colnames, n.attrs),
        v => (v, None, None, None, Vec::new()),
    };
    if !matches!(
        value,
        Value::Num(_)
            | Value::Str(_)
            | Value::Bool(_)
            | Value::Complex(_)
            | Value::Mat(_)
            | Value::BoolMat(_)
            | Value::ComplexMat(_)
    ) {
        return value;
    }
    Value::Named(Box::new(Named {
        names,
        rownames,
        colnames,
        tsp: Some(tsp),
        attrs,
        ..Named::plain(value)
    }))
}

/// `ts(y, end = end(x), frequency = frequency(x))`: the `.ts` methods'
/// result (kernapply.ts, diffinv.ts) of a series whose end is `x`'s.
pub(crate) fn ending_as(y: &Value, x: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let registry = super::registry();
    let frequency = registry.call("frequency", vec![(None, x)], ctx)?;
    let end = registry.call("end", vec![(None, x)], ctx)?;
    registry.call(
        "ts",
        vec![
            (None, y),
            (Some("end".into()), &end),
            (Some("frequency".into()), &frequency),
        ],
        ctx,
    )
}

fn err(msg: &str) -> KernelError {
    KernelError::new(msg)
}

/// A numeric argument as doubles (a logical's TRUE is 1), or R's error.
fn numeric(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        Value::Bool(b) => Ok(b
            .iter()
            .map(|x| x.map_or(NA, |t| f64::from(u8::from(t))))
            .collect()),
        other => match other.as_f64_slice() {
            Some(s) if !matches!(other, Value::Mat(_)) || what == "data" => Ok(s.to_vec()),
            _ => Err(KernelError::new(format!(
                "flowcast refuses a non-numeric '{what}' for ts"
            ))),
        },
    }
}

/// The first element of a numeric argument (R's `x[1L]`), NA if empty.
fn scalar(v: &Value, what: &str) -> Result<f64, KernelError> {
    Ok(numeric(v, what)?.first().copied().unwrap_or(NA))
}

/// R's `if (cond)`: NA is an error.
fn cond(c: Option<bool>) -> Result<bool, KernelError> {
    c.ok_or_else(|| err("missing value where TRUE/FALSE needed"))
}

fn gt(a: f64, b: f64) -> Option<bool> {
    if a.is_nan() || b.is_nan() {
        None
    } else {
        Some(a > b)
    }
}

/// R's `round` (half away from zero, as R 4's for a whole result).
fn rround(x: f64) -> f64 {
    x.round()
}

/// `ts(data, start, end, frequency, deltat)` (ts.R).
fn ts_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let data = args.get("data").cloned().unwrap_or(Value::Bool(vec![None]));
    let eps = match args.get("ts.eps") {
        Some(v) => scalar(v, "ts.eps")?,
        None => TS_EPS,
    };
    if args.get("class").is_some() {
        return Err(err(
            "flowcast's ts gives R's default class: `class` is not supported",
        ));
    }
    let data = match data {
        Value::Named(n) => Value::Named(Box::new(Named { tsp: None, ..*n })),
        v => v,
    };
    let b = bare(&data);
    let is_matrix = b.dims().is_some();
    if !matches!(
        b,
        Value::Num(_) | Value::Bool(_) | Value::Mat(_) | Value::BoolMat(_)
    ) {
        return Err(err(
            "flowcast's ts takes a numeric or logical vector or matrix",
        ));
    }
    let ndata = nrow(&data);
    if ndata == 0 {
        return Err(err("'ts' object must have one or more observations"));
    }
    let (mut frequency, _deltat) = match (args.get("frequency"), args.get("deltat")) {
        (None, Some(d)) => {
            let d = scalar(d, "deltat")?;
            (1.0 / d, d)
        }
        (Some(f), _) => {
            let f = scalar(f, "frequency")?;
            (f, 1.0 / f)
        }
        (None, None) => (1.0, 1.0),
    };
    if cond(gt(frequency, 1.0))? {
        let d = (frequency - rround(frequency)).abs();
        if 0.0 < d && d < eps {
            frequency = rround(frequency);
        }
    }
    let take = |v: &[f64]| -> f64 {
        match v.len() {
            0 => NA,
            1 => v[0],
            _ => v[0] + (v[1] - 1.0) / frequency,
        }
    };
    let start_given = args.get("start").map(|v| numeric(v, "start")).transpose()?;
    let end_given = args.get("end").map(|v| numeric(v, "end")).transpose()?;
    // start = 1 and end = numeric() by default.
    let mut start = start_given.as_deref().map_or(1.0, take);
    let end_vec = end_given.unwrap_or_default();
    let mut end = if end_vec.is_empty() {
        f64::NAN
    } else {
        take(&end_vec)
    };
    if args.get("end").is_none() || end_vec.is_empty() {
        if args.get("end").is_some() {
            // end = numeric(0) given: R's `start + ...` is computed only
            // when end is missing; an empty end makes `start > end`
            // logical(0), an error in `if`.
            return Err(err("argument is of length zero"));
        }
        end = start + (ndata as f64 - 1.0) / frequency;
    } else if args.get("start").is_none() {
        start = end - (ndata as f64 - 1.0) / frequency;
    }
    if start_given.as_ref().is_some_and(Vec::is_empty) {
        return Err(err("argument is of length zero"));
    }
    if cond(gt(start, end))? {
        return Err(err("'start' cannot be after 'end'"));
    }
    let cycles = (end - start) * frequency;
    if cond(gt(
        (rround(cycles) - cycles).abs(),
        eps * if cycles.is_nan() {
            cycles
        } else {
            cycles.max(1.0)
        },
    ))? {
        return Err(err("'end' must be a whole number of cycles after 'start'"));
    }
    let nobs = (cycles + 1.01).floor();
    if nobs.is_nan() || nobs < 1.0 {
        return Err(err("invalid time series parameters specified"));
    }
    if nobs > MAX_OBS {
        return Err(KernelError::new(format!(
            "flowcast refuses a series of {nobs} observations (2^31 at most)"
        )));
    }
    let nobs = nobs as usize;
    let columns = if is_matrix {
        series_names(&data, args.get("names"))?
    } else {
        None
    };
    let data = if nobs != ndata {
        // Up to 2^31 observations a column, from a `start` and `end` no
        // shape rule saw (16 GB each).
        let columns = if is_matrix {
            bare(&data).dims().map_or(1, |d| d.1)
        } else {
            1
        };
        super::alloc::ensure_room(nobs as f64 * columns as f64 * 8.0)?;
        resize(bare(&data), ndata, nobs, is_matrix)
    } else {
        data
    };
    // `dimnames(data) <- list(NULL, names)`: a matrix's rows lose their
    // names, its columns are named.
    let data = if is_matrix {
        super::names::dimnamed(data, None, columns)
    } else {
        data
    };
    // tspgets (attrib.c).
    if frequency <= 0.0 {
        return Err(err("invalid time series parameters specified"));
    }
    if (end - start - (nobs as f64 - 1.0) / frequency).abs() > 1e-5 {
        return Err(err("invalid time series parameters specified"));
    }
    Ok(with_tsp(data, [start, end, frequency]))
}

/// ts's `names`: as given, else the matrix's column names, else
/// `paste("Series", seq(nseries))` when it has no dimnames at all (only row
/// names leave the columns unnamed, as R's `colnames(data)` is NULL).
fn series_names(data: &Value, given: Option<&Value>) -> Result<Option<Vec<String>>, KernelError> {
    let ncol = bare(data).dims().map_or(0, |(_, c)| c);
    let names = match given {
        Some(Value::Null) => return Ok(None),
        Some(v) => match bare(v) {
            Value::Str(s) => s.clone(),
            _ => return Err(err("flowcast's ts takes `names` as a character vector")),
        },
        None => match super::names::dimnames(data) {
            (_, Some(c)) => c.to_vec(),
            (Some(_), None) => return Ok(None),
            (None, None) => (1..=ncol).map(|i| format!("Series {i}")).collect(),
        },
    };
    if names.len() != ncol {
        return Err(err("length of 'dimnames' [2] not equal to array extent"));
    }
    Ok(Some(names))
}

/// `rep_len(data, nobs)` or `data[1:nobs]` (rows of a matrix).
fn resize(v: &Value, ndata: usize, nobs: usize, is_matrix: bool) -> Value {
    let pick = |i: usize| i % ndata;
    match v {
        Value::Num(x) => Value::Num((0..nobs).map(|i| x[pick(i)]).collect()),
        Value::Bool(x) => Value::Bool((0..nobs).map(|i| x[pick(i)]).collect()),
        Value::Mat(m) if is_matrix => {
            Value::Mat(nalgebra::DMatrix::from_fn(nobs, m.ncols(), |i, j| {
                m[(pick(i), j)]
            }))
        }
        Value::BoolMat(m) if is_matrix => {
            Value::BoolMat(nalgebra::DMatrix::from_fn(nobs, m.ncols(), |i, j| {
                m[(pick(i), j)]
            }))
        }
        other => other.clone(),
    }
}

fn tsp_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(match args.get("x").and_then(tsp_of) {
        Some(t) => Value::Num(t.to_vec()),
        None => Value::Null,
    })
}

/// `is.ts(x)`: `inherits(x, "ts") && length(x)`.
fn is_ts_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    Ok(Value::Bool(vec![Some(
        tsp_of(x).is_some() && !bare(x).is_empty(),
    )]))
}

fn frequency_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    Ok(Value::Num(vec![frequency_of(x)]))
}

fn deltat_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    Ok(Value::Num(vec![tsp_of(x).map_or(1.0, |t| 1.0 / t[2])]))
}

/// R's `seq.int(from, to, length.out = n)` (seq.c): the ends exact, the
/// first half counted up from `from`, the rest down from `to`.
pub(crate) fn seq_length_out(from: f64, to: f64, n: usize) -> Vec<f64> {
    let mut y = vec![0.0; n];
    if n > 0 {
        y[0] = from;
    }
    if n > 1 {
        y[n - 1] = to;
    }
    if n > 2 {
        let by = (to - from) / (n - 1) as f64;
        for (i, slot) in y.iter_mut().enumerate().take(n - 1).skip(1) {
            *slot = if i < n / 2 {
                from + i as f64 * by
            } else {
                to - (n - 1 - i) as f64 * by
            };
        }
    }
    y
}

/// A series' time vector, given its tsp: `time.default`.
pub(crate) fn time_of(tsp: [f64; 3], n: usize, offset: f64) -> Vec<f64> {
    seq_length_out(tsp[0], tsp[1], n)
        .into_iter()
        .map(|t| t + offset / tsp[2])
        .collect()
}

/// A non-series `x` for time, cycle, start and end: a vector or matrix
/// (hasTsp gives it c(1, NROW(x), 1)).
fn series_arg<'a>(args: &'a Args<&Value>) -> Result<&'a Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    match bare(x) {
        Value::Num(_)
        | Value::Bool(_)
        | Value::Str(_)
        | Value::Complex(_)
        | Value::Mat(_)
        | Value::BoolMat(_)
        | Value::ComplexMat(_) => Ok(x),
        Value::Null => Err(err("invalid time series parameters specified")),
        _ => Err(err(
            "flowcast's time, cycle, start and end take a vector or matrix",
        )),
    }
}

/// `time(x, offset)`: time.default (time.ts's as.ts keeps its tsp).
fn time_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = series_arg(args)?;
    let n = nrow(x);
    if n == 0 {
        return Err(err("cannot assign 'tsp' to zero-length vector"));
    }
    let offset = match args.get("offset") {
        Some(v) => scalar(v, "offset")?,
        None => 0.0,
    };
    let t = has_tsp(x);
    Ok(with_tsp(Value::Num(time_of(t, n, offset)), t))
}

/// `cycle(x)`: cycle.default, the position of each time in its period.
fn cycle_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = series_arg(args)?;
    let n = nrow(x);
    if n == 0 {
        return Err(err("cannot assign 'tsp' to zero-length vector"));
    }
    let p = has_tsp(x);
    let m = rround(r_mod(p[0], 1.0) * p[2]);
    let c = (1..=n)
        .map(|i| r_mod(i as f64 + m - 1.0, p[2]) + 1.0)
        .collect();
    Ok(with_tsp(Value::Num(c), p))
}

use super::arith::ops::r_mod;

/// start.default / end.default over tsp's `which` entry.
fn start_end(args: &Args<&Value>, which: usize) -> Result<Value, KernelError> {
    let x = series_arg(args)?;
    let tsp = has_tsp(x);
    let is = tsp[which] * tsp[2];
    if (tsp[2] - rround(tsp[2])).abs() < TS_EPS && (is - rround(is)).abs() < TS_EPS {
        let is = (tsp[which] + TS_EPS).floor();
        let fs = (tsp[2] * (tsp[which] - is) + 0.001).floor();
        Ok(Value::Num(vec![is, fs + 1.0]))
    } else {
        Ok(Value::Num(vec![tsp[which]]))
    }
}

fn start_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    start_end(args, 0)
}

fn end_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    start_end(args, 1)
}

/// A series' values as doubles (a logical's TRUE is 1), with its tsp
/// (`c(1, n, 1)` for a plain vector); a matrix is refused.
pub(crate) fn series(x: &Value, fname: &str) -> Result<(Vec<f64>, [f64; 3]), KernelError> {
    let values = match bare(x) {
        Value::Num(v) => v.clone(),
        Value::Bool(b) => b
            .iter()
            .map(|x| x.map_or(NA, |t| f64::from(u8::from(t))))
            .collect(),
        Value::Mat(_) | Value::BoolMat(_) => {
            return Err(KernelError::new(format!(
                "flowcast's {fname} takes one series, not a matrix of series"
            )))
        }
        _ => {
            return Err(KernelError::new(format!(
                "flowcast's {fname} takes a numeric series"
            )))
        }
    };
    Ok((values, has_tsp(x)))
}

/// R's `start(x)` turned back into a time as `ts(start = start(x))` does.
fn start_time(tsp: [f64; 3]) -> f64 {
    let f = tsp[2];
    let is = tsp[0] * f;
    if (f - rround(f)).abs() < TS_EPS && (is - rround(is)).abs() < TS_EPS {
        let is = (tsp[0] + TS_EPS).floor();
        let fs = (f * (tsp[0] - is) + 0.001).floor();
        is + (fs + 1.0 - 1.0) / f
    } else {
        tsp[0]
    }
}

/// `ts(values, start = start(x), frequency = f)`'s tsp.
pub(crate) fn restart(tsp: [f64; 3], n: usize) -> [f64; 3] {
    let start = start_time(tsp);
    [start, start + (n as f64 - 1.0) / tsp[2], tsp[2]]
}

/// What decompose computes of a series: trend, seasonal, random, figure.
pub(crate) struct Decomposed {
    pub trend: Vec<f64>,
    pub seasonal: Vec<f64>,
    pub random: Vec<f64>,
    pub figure: Vec<f64>,
}

/// decompose.R's arithmetic on the values `x` of frequency `f`, after its
/// checks; `filter` as given, or None for its default.
pub(crate) fn decompose_parts(
    x: &[f64],
    f: f64,
    additive: bool,
    filter: Option<Vec<f64>>,
) -> Result<Decomposed, KernelError> {
    let l = x.len();
    if f <= 1.0 {
        return Err(err("time series has no or less than 2 periods"));
    }
    // length(na.omit(x)): na.omit.ts drops leading and trailing NAs and
    // refuses internal ones.
    let first = x.iter().position(|v| !v.is_nan());
    let last = x.iter().rposition(|v| !v.is_nan());
    let (Some(first), Some(last)) = (first, last) else {
        return Err(err("all times contain an NA"));
    };
    if x[first..=last].iter().any(|v| v.is_nan()) {
        return Err(err("time series contains internal NAs"));
    }
    let present = last + 1 - first;
    if (present as f64) < 2.0 * f {
        return Err(err("time series has no or less than 2 periods"));
    }
    if f != f.floor() {
        return Err(err(
            "flowcast's decompose takes a series of whole frequency",
        ));
    }
    let fu = f as usize;
    let filter = match filter {
        Some(v) => v,
        None => {
            if r_mod(f, 2.0) == 0.0 {
                let mut c = vec![0.5];
                c.extend(std::iter::repeat_n(1.0, fu - 1));
                c.push(0.5);
                c.into_iter().map(|v| v / f).collect()
            } else {
                vec![1.0 / f; fu]
            }
        }
    };
    if filter.len() > l {
        return Err(err("'filter' is longer than time series"));
    }
    if filter.iter().any(|v| v.is_nan()) {
        return Err(err("missing values in 'filter'"));
    }
    let trend = super::filter::cfilter(x, &filter, 2, false);
    let season: Vec<f64> = x
        .iter()
        .zip(&trend)
        .map(|(a, t)| if additive { a - t } else { a / t })
        .collect();
    let mut figure = vec![0.0; fu];
    for (i, slot) in figure.iter_mut().enumerate() {
        // mean(season[index + i], na.rm = TRUE): every f-th value from i.
        let vals: Vec<f64> = (i..l)
            .step_by(fu)
            .map(|k| season[k])
            .filter(|v| !v.is_nan())
            .collect();
        *slot = if vals.is_empty() {
            f64::NAN
        } else {
            super::summary::mean(&vals)
        };
    }
    let m = super::summary::mean(&figure);
    for v in &mut figure {
        *v = if additive { *v - m } else { *v / m };
    }
    // rep(figure, periods + 1)[seq_len(l)]
    let seasonal: Vec<f64> = (0..l).map(|k| figure[k % fu]).collect();
    let random: Vec<f64> = (0..l)
        .map(|k| {
            if additive {
                x[k] - seasonal[k] - trend[k]
            } else {
                x[k] / seasonal[k] / trend[k]
            }
        })
        .collect();
    Ok(Decomposed {
        trend,
        seasonal,
        random,
        figure,
    })
}

/// `decompose(x, type, filter)` (decompose.R): a moving-average trend,
/// the seasonal figure as the mean of each season's detrended values,
/// centred, and what is left.
fn decompose_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x_arg = args.get("x").unwrap_or(&Value::Null);
    let kind = super::filter::choice(args.get("type"), &["additive", "multiplicative"])?;
    let (x, tsp) = series(x_arg, "decompose")?;
    let filter: Option<Vec<f64>> = match args.get("filter").map(bare) {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_f64_slice() {
            Some(s) if !matches!(v, Value::Mat(_)) && !s.is_empty() => Some(s.to_vec()),
            _ => return Err(err("flowcast's decompose takes a numeric 'filter'")),
        },
    };
    let d = decompose_parts(&x, tsp[2], kind == "additive", filter)?;
    let stsp = restart(tsp, x.len());
    Ok(Value::List(List::record(
        DECOMPOSED,
        vec![
            ("x", with_tsp(Value::Num(x), tsp)),
            ("seasonal", with_tsp(Value::Num(d.seasonal), stsp)),
            ("trend", with_tsp(Value::Num(d.trend), tsp)),
            ("random", with_tsp(Value::Num(d.random), tsp)),
            ("figure", Value::Num(d.figure)),
            ("type", Value::string(kind)),
        ],
    )))
}

/// The longest window flowcast makes (`extend = TRUE` pads with NA).
const MAX_WINDOW: f64 = (1u64 << 28) as f64;

/// R's `a && b` of two comparisons that may be NA.
fn and3(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

/// R's `a < b` with NA.
fn lt(a: f64, b: f64) -> Option<bool> {
    gt(b, a)
}

/// A numeric argument of window, NULL as not given.
fn window_numbers(v: Option<&Value>, what: &str) -> Result<Option<Vec<f64>>, KernelError> {
    match v.map(bare) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(
            b.iter()
                .map(|x| x.map_or(NA, |t| f64::from(u8::from(t))))
                .collect(),
        )),
        Some(v @ Value::Num(_)) => Ok(v.as_f64_slice().map(|s| s.to_vec())),
        Some(_) => Err(KernelError::new(format!(
            "flowcast refuses a non-numeric '{what}' for window"
        ))),
    }
}

/// window.default's `switch(length(start), start, start[1L] +
/// (start[2L] - 1)/xfreq, stop(...))`: `None` for a zero-length one
/// (R's NULL, an error where it is next compared).
fn window_time(v: &[f64], xfreq: f64, what: &str) -> Result<Option<f64>, KernelError> {
    match v.len() {
        0 => Ok(None),
        1 => Ok(Some(v[0])),
        2 => Ok(Some(v[0] + (v[1] - 1.0) / xfreq)),
        _ => Err(KernelError::new(format!("bad value for '{what}'"))),
    }
}

/// R's `seq.int(from, to, by = by)` (seq.c) of doubles.
fn seq_by(from: f64, to: f64, by: f64) -> Result<Vec<f64>, KernelError> {
    let del = to - from;
    if del == 0.0 && to == 0.0 {
        return Ok(vec![to]);
    }
    let n = del / by;
    if !n.is_finite() {
        if by == 0.0 && del == 0.0 {
            return Ok(vec![from]);
        }
        return Err(err("invalid '(to - from)/by' in seq(.)"));
    }
    if n < 0.0 {
        return Err(err("wrong sign in 'by' argument"));
    }
    if n > i32::MAX as f64 {
        return Err(err("'by' argument is much too small"));
    }
    if n >= MAX_WINDOW {
        return Err(err("flowcast refuses a window of more than 2^28 values"));
    }
    let nn = (n + 1e-10) as usize;
    Ok((0..=nn).map(|k| from + k as f64 * by).collect())
}

/// `x[i]` (or `x[i, , drop = FALSE]` of a matrix) for 1-based `i`, NA
/// past the end as R's indexing gives (`c(x, NA)[i]` of an extension).
fn pick_rows(x: &Value, rows: &[f64]) -> Result<Value, KernelError> {
    let at = |i: f64, n: usize| -> Option<usize> {
        let k = i as usize;
        (k >= 1 && k <= n).then(|| k - 1)
    };
    Ok(match x {
        Value::Num(v) => Value::Num(
            rows.iter()
                .map(|&i| at(i, v.len()).map_or(NA, |k| v[k]))
                .collect(),
        ),
        Value::Bool(v) => Value::Bool(
            rows.iter()
                .map(|&i| at(i, v.len()).and_then(|k| v[k]))
                .collect(),
        ),
        Value::Mat(m) => {
            let (n, c) = m.shape();
            Value::Mat(nalgebra::DMatrix::from_fn(rows.len(), c, |r, j| {
                at(rows[r], n).map_or(NA, |k| m[(k, j)])
            }))
        }
        Value::BoolMat(m) => {
            let (n, c) = m.shape();
            Value::BoolMat(nalgebra::DMatrix::from_fn(rows.len(), c, |r, j| {
                at(rows[r], n).and_then(|k| m[(k, j)])
            }))
        }
        _ => {
            return Err(err(
                "flowcast's window takes a numeric or logical vector or matrix",
            ))
        }
    })
}

/// R's `tsp<-` (attrib.c's tspgets) on a value of `n` rows.
pub(crate) fn set_tsp(tsp: [f64; 3], n: usize) -> Result<(), KernelError> {
    if tsp[2] <= 0.0 {
        return Err(err("invalid time series parameters specified"));
    }
    if n == 0 {
        return Err(err("cannot assign 'tsp' to zero-length vector"));
    }
    if (tsp[1] - tsp[0] - (n as f64 - 1.0) / tsp[2]).abs() > 1e-5 {
        return Err(err("invalid time series parameters specified"));
    }
    Ok(())
}

/// What window is asked for: its arguments after R's defaults.
struct WindowArgs {
    start: Option<Vec<f64>>,
    end: Option<Vec<f64>>,
    frequency: Option<f64>,
    deltat: Option<f64>,
    extend: bool,
    eps: f64,
}

/// `window(x, start, end, frequency, deltat, extend, ts.eps)`:
/// window.default of ts.R (window.ts's `as.ts` keeps the tsp it sets).
fn window_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let first = |v: Option<Vec<f64>>| v.map(|v| v.first().copied().unwrap_or(NA));
    let extend = match args.get("extend").map(bare) {
        None => false,
        Some(v @ (Value::Bool(_) | Value::Num(_))) => v
            .as_flag()
            .ok_or_else(|| err("missing value where TRUE/FALSE needed"))?,
        Some(_) => return Err(err("invalid argument type")),
    };
    let eps = match args.get("ts.eps") {
        Some(v) => scalar(v, "ts.eps")?,
        None => TS_EPS,
    };
    let w = WindowArgs {
        start: window_numbers(args.get("start"), "start")?,
        end: window_numbers(args.get("end"), "end")?,
        frequency: first(window_numbers(args.get("frequency"), "frequency")?),
        deltat: first(window_numbers(args.get("deltat"), "deltat")?),
        extend,
        eps,
    };
    let colnames = match x {
        Value::Named(n) => n.colnames.clone(),
        _ => None,
    };
    let (y, tsp) = window_default(bare(x), has_tsp(x), &w, ctx)?;
    let y = match colnames {
        Some(c) if y.dims().is_some() => super::names::dimnamed(y, None, Some(c)),
        _ => y,
    };
    Ok(with_tsp(y, tsp))
}

/// window.default on the bare values `x` with tsp `xtsp`: the window's
/// values and tsp.
fn window_default(
    x: &Value,
    xtsp: [f64; 3],
    w: &WindowArgs,
    ctx: &mut Ctx,
) -> Result<(Value, [f64; 3]), KernelError> {
    if !matches!(
        x,
        Value::Num(_) | Value::Bool(_) | Value::Mat(_) | Value::BoolMat(_)
    ) {
        return Err(err(
            "flowcast's window takes a numeric or logical vector or matrix",
        ));
    }
    let n = nrow(x);
    if n == 0 {
        return Err(err("cannot assign 'tsp' to zero-length vector"));
    }
    let xfreq = xtsp[2];
    let xtime = time_of(xtsp, n, 0.0);
    let eps = w.eps;
    if let (Some(f), Some(d)) = (w.frequency, w.deltat) {
        if cond(gt((f * d - 1.0).abs(), eps))? {
            return Err(err(
                "'frequency' and 'deltat' are both not NULL and are inconsistent",
            ));
        }
    }
    let no_freq = w.frequency.is_none() && w.deltat.is_none();
    let mut yfreq = match (w.frequency, w.deltat) {
        (None, None) => xfreq,
        (Some(f), _) => f,
        (None, Some(d)) => 1.0 / d,
    };
    let eps_ = eps / xfreq;
    // R's round() takes a half to the even neighbour.
    let mut thin = (xfreq / yfreq).round_ties_even();
    if cond(and3(gt(yfreq, 0.0), lt((xfreq / yfreq - thin).abs(), eps)))? {
        yfreq = xfreq / thin;
    } else if !no_freq {
        thin = 1.0;
        yfreq = xfreq;
        ctx.warn("'frequency' not changed");
    }
    // A zero-length start or end is R's NULL: `NULL < t && !extend` is
    // NA (an error in `if`) unless extend, and `start > end` then has
    // length zero.
    let zero_length = || {
        err(if w.extend {
            "argument is of length zero"
        } else {
            "missing value where TRUE/FALSE needed"
        })
    };
    let mut start = match &w.start {
        None => xtsp[0],
        Some(s) => window_time(s, xfreq, "start")?.ok_or_else(zero_length)?,
    };
    if cond(and3(lt(start, xtsp[0] - eps_), Some(!w.extend)))? {
        start = xtsp[0];
        ctx.warn("'start' value not changed");
    }
    let mut end = match &w.end {
        None => xtsp[1],
        Some(e) => window_time(e, xfreq, "end")?.ok_or_else(zero_length)?,
    };
    if cond(and3(gt(end, xtsp[1] + eps_), Some(!w.extend)))? {
        end = xtsp[1];
        ctx.warn("'end' value not changed");
    }
    if cond(gt(start, end + eps_))? {
        return Err(err("'start' cannot be after 'end'"));
    }
    if !w.extend {
        // A start or end between two times moves to the time inside.
        let one = |v: Vec<f64>, what: &str| -> Result<f64, KernelError> {
            match v.as_slice() {
                [t] => Ok(*t),
                _ => Err(KernelError::new(format!("'{what}' must be of length 1"))),
            }
        };
        if xtime.iter().all(|&t| (start - t).abs() > eps_) {
            let inside = xtime
                .iter()
                .copied()
                .filter(|&t| t > start && start + 1.0 / xfreq > t)
                .collect();
            start = one(inside, "from")?;
        }
        if xtime.iter().all(|&t| (end - t).abs() > eps_) {
            let inside = xtime
                .iter()
                .copied()
                .filter(|&t| t < end && end - 1.0 / xfreq < t)
                .collect();
            end = one(inside, "to")?;
        }
        let i = seq_by(
            ((start - xtsp[0]) * xfreq + 1.5).trunc(),
            ((end - xtsp[0]) * xfreq + 1.5).trunc(),
            thin,
        )?;
        let y = pick_rows(x, &i)?;
        let time_at = |k: f64| {
            let k = k as usize;
            if (1..=xtime.len()).contains(&k) {
                xtime[k - 1]
            } else {
                NA
            }
        };
        let ystart = time_at(i[0]);
        let yend = time_at(i[i.len() - 1]);
        let tsp = [ystart, yend, yfreq];
        set_tsp(tsp, i.len())?;
        Ok((y, tsp))
    } else {
        let stoff = ((start - xtsp[0]) * xfreq - eps).ceil();
        let enoff = ((end - xtsp[1]) * xfreq + eps).floor();
        let ystart = stoff / xfreq + xtsp[0];
        let mut yend = enoff / xfreq + xtsp[1];
        if cond(and3(gt(ystart, yend), lt((ystart - yend) * xfreq, eps)))? {
            yend = ystart;
        }
        let nold = (xfreq * (xtsp[1] - xtsp[0])).round_ties_even() + 1.0;
        let times = |k: f64| -> Result<usize, KernelError> {
            if k.is_nan() || k < 0.0 || k.is_infinite() {
                return Err(err("invalid 'times' argument"));
            }
            if k >= MAX_WINDOW {
                return Err(err("flowcast refuses a window of more than 2^28 values"));
            }
            Ok(k as usize)
        };
        let outside = cond(gt(start, xtsp[1] + eps_))? || cond(lt(end, xtsp[0] - eps_))?;
        let i: Vec<f64> = if outside {
            vec![nold + 1.0; times((1.0 + (end - start) * xfreq + eps).floor())?]
        } else {
            let i0 = 1.0 + stoff.max(0.0);
            let i1 = nold + enoff.min(0.0);
            let before = times((-stoff).max(0.0))?;
            let after = times(enoff.max(0.0))?;
            let inside = if i0 <= i1 {
                seq_by(i0, i1, 1.0)?
            } else {
                Vec::new()
            };
            if (before + after + inside.len()) as f64 >= MAX_WINDOW {
                return Err(err("flowcast refuses a window of more than 2^28 values"));
            }
            let mut i = vec![nold + 1.0; before];
            i.extend(inside);
            i.extend(std::iter::repeat_n(nold + 1.0, after));
            i
        };
        let y = pick_rows(x, &i)?;
        let tsp = [ystart, yend, xfreq];
        set_tsp(tsp, i.len())?;
        if yfreq != xfreq {
            // Recall(y, frequency = yfreq): ts.eps and extend at their defaults.
            let again = WindowArgs {
                start: None,
                end: None,
                frequency: Some(yfreq),
                deltat: None,
                extend: false,
                eps: TS_EPS,
            };
            return window_default(&y, tsp, &again, ctx);
        }
        Ok((y, tsp))
    }
}
